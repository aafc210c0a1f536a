// Benchmark of the optimal ε-DP mechanism LP (binary gain, uniform prior, ε = ln 2;
// docs/mathematics.md#optimal-mechanisms): qif.lp.solve (our Go solver compiled to WebAssembly)
// against HiGHS compiled to WebAssembly (npm package `highs`), both in this Node process.
//
//   scripts/build.sh && node bench/lp/bench.mjs [case ...] [--skip-highs=case,...] [--skip-ours=case,...]
//
// Cases: path10 path20 path40 path80 clique10 clique20 clique40 clique80 grid4 grid6 grid8 grid10
// (default: all but clique80, whose 505,600 rows take HiGHS far beyond a minute). Each solver gets
// a time limit of 120 s per case. HiGHS runs with primal and dual feasibility tolerances 1e-10
// (with its defaults it can be 2.5e-6 off these optima).
import { load } from '../../web/qif.js';
import loadHighs from 'highs';

const eps = Math.LN2;
const K = Math.exp(eps);

function edgesOf(name) {
  const m = /^(path|clique|grid)(\d+)$/.exec(name);
  if (!m) throw new Error(`unknown case ${name}`);
  const k = Number(m[2]);
  const e = [];
  if (m[1] === 'path') { for (let i = 0; i + 1 < k; i++) e.push([i, i + 1]); return { n: k, edges: e }; }
  if (m[1] === 'clique') { for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) e.push([i, j]); return { n: k, edges: e }; }
  for (let r = 0; r < k; r++) for (let c = 0; c < k; c++) {
    const v = r * k + c;
    if (c + 1 < k) e.push([v, v + 1]);
    if (r + 1 < k) e.push([v, v + k]);
  }
  return { n: k * k, edges: e };
}

// The LP for qif.lp.solve: variable y·n+z is H[y][z].
function ourProblem(n, edges) {
  const objective = new Float64Array(n * n);
  for (let y = 0; y < n; y++) objective[y * n + y] = 1 / n;
  const rows = [];
  for (let y = 0; y < n; y++) {
    const coeffs = new Array(n);
    for (let z = 0; z < n; z++) coeffs[z] = [y * n + z, 1];
    rows.push({ coeffs, op: '=', rhs: 1 });
  }
  for (const [a, b] of edges) for (const [y, y2] of [[a, b], [b, a]])
    for (let z = 0; z < n; z++) rows.push({ coeffs: [[y * n + z, 1], [y2 * n + z, -K]], op: '<=', rhs: 0 });
  return { sense: 'max', objective, rows };
}

// The same LP in CPLEX LP format for HiGHS.
function lpString(n, edges) {
  const v = (y, z) => `h${y}_${z}`;
  const out = ['Maximize', ' obj: ' + Array.from({ length: n }, (_, y) => `${1 / n} ${v(y, y)}`).join(' + '), 'Subject To'];
  for (let y = 0; y < n; y++) out.push(` s${y}: ` + Array.from({ length: n }, (_, z) => v(y, z)).join(' + ') + ' = 1');
  let k = 0;
  for (const [a, b] of edges) for (const [y, y2] of [[a, b], [b, a]])
    for (let z = 0; z < n; z++) out.push(` p${k++}: ${v(y, z)} - ${K} ${v(y2, z)} <= 0`);
  out.push('End');
  return out.join('\n');
}

const args = process.argv.slice(2);
const opt = (name) => (args.find((a) => a.startsWith(`--${name}=`)) || '').split('=')[1]?.split(',') || [];
const skipHighs = new Set(opt('skip-highs'));
const skipOurs = new Set(opt('skip-ours'));
let cases = args.filter((a) => !a.startsWith('--'));
if (cases.length === 0) cases = ['path10', 'path20', 'path40', 'path80', 'clique10', 'clique20', 'clique40', 'grid4', 'grid6', 'grid8', 'grid10'];

const qif = await load();
const highs = await loadHighs();
const fmt = (s) => (s === undefined ? 'skipped' : s < 10 ? s.toFixed(3) : s.toFixed(1));
console.log('case      vars    rows    HiGHS s   ours s   ratio   iters   HiGHS optimum        our optimum          difference');
for (const name of cases) {
  const { n, edges } = edgesOf(name);
  const rows = n + 2 * edges.length * n;
  let th, tq, vh, vq, iters;
  if (!skipHighs.has(name)) {
    const text = lpString(n, edges);
    const t0 = performance.now();
    const r = highs.solve(text, { output_flag: false, primal_feasibility_tolerance: 1e-10, dual_feasibility_tolerance: 1e-10, time_limit: 120 });
    th = (performance.now() - t0) / 1000;
    vh = r.Status === 'Optimal' ? r.ObjectiveValue : NaN;
    if (r.Status !== 'Optimal') console.log(`  HiGHS ${name}: ${r.Status}`);
  }
  if (!skipOurs.has(name)) {
    const p = ourProblem(n, edges);
    const t0 = performance.now();
    const r = qif.lp.solve(p, { timeLimit: 120000 });
    tq = (performance.now() - t0) / 1000;
    vq = r.objective;
    iters = r.iterations;
    if (r.status !== 'optimal') console.log(`  ours ${name}: ${r.status}`);
  }
  const ratio = th && tq ? (tq / th).toFixed(2) : '-';
  const diff = vh !== undefined && vq !== undefined ? Math.abs(vh - vq).toExponential(1) : '-';
  console.log(`${name.padEnd(9)} ${String(n * n).padStart(6)} ${String(rows).padStart(7)}  ${fmt(th).padStart(8)} ${fmt(tq).padStart(8)} ${ratio.padStart(7)} ${String(iters ?? '-').padStart(7)}   ${String(vh ?? '-').padEnd(20)} ${String(vq ?? '-').padEnd(20)} ${diff}`);
}
