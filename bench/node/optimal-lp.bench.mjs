// The optimal ε-DP mechanism LP (binary gain, uniform prior, ε = ln 2; docs/design/performance.md)
// end to end through qif.mechanism.optimalLP({forceLP: true}) — building the program included —
// beside HiGHS-wasm (npm `highs`) on the same program in the same Node process, with HiGHS's
// primal and dual feasibility tolerances at 1e-10 (its defaults can be 2.5e-6 off here).
//   scripts/build.sh && node bench/node/optimal-lp.bench.mjs
// Sizes whose predicted time exceeds LIMIT_S (default 60 s, env OPTIMAL_LP_LIMIT_S) for a solver
// are skipped for that solver, and the table says so. The prediction scales the previous size
// of the same family by (constraints ratio)^1.8 (what HiGHS's reference times show);
// as a backstop both solvers get a time limit of 2·LIMIT_S. Both are warmed up first; runs under
// a second are repeated (median of up to 5).
import loadHighs from 'highs';
import { load } from '../../web/qif.js';

const LIMIT_S = Number(process.env.OPTIMAL_LP_LIMIT_S ?? 60);
const qif = await load();
const highs = await loadHighs();
const EPS = Math.LN2;

const families = {
  path: (n) => ({ n, edges: Array.from({ length: n - 1 }, (_, i) => [i, i + 1]) }),
  clique: (n) => {
    const edges = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) edges.push([i, j]);
    return { n, edges };
  },
  grid: (s) => {
    const edges = [];
    for (let r = 0; r < s; r++) for (let c = 0; c < s; c++) {
      if (c + 1 < s) edges.push([r * s + c, r * s + c + 1]);
      if (r + 1 < s) edges.push([r * s + c, (r + 1) * s + c]);
    }
    return { n: s * s, edges };
  },
};
const sizes = { path: [10, 20, 40, 80], clique: [10, 20, 40, 80], grid: [4, 6, 8, 10] };

// The same program as core/mechanism.OptimalLP: H[y][z] (variable y·n+z), maximize (1/n)Σ_y
// H[y][y], Σ_z H[y][z] = 1, and H[a][z] − e^ε H[b][z] ≤ 0 both ways for every edge and output z.
function solveHighs(g) {
  const { n, edges } = g;
  const f = Math.exp(EPS);
  const nv = n * n, nr = n + 2 * edges.length * n;
  const starts = new Int32Array(nr + 1), indices = new Int32Array(n * n + 4 * edges.length * n);
  const values = new Float64Array(indices.length);
  const rowLower = new Float64Array(nr), rowUpper = new Float64Array(nr);
  let r = 0, k = 0;
  for (let y = 0; y < n; y++, r++) {
    starts[r] = k;
    for (let z = 0; z < n; z++) { indices[k] = y * n + z; values[k++] = 1; }
    rowLower[r] = 1; rowUpper[r] = 1;
  }
  for (const [a, b] of edges) {
    for (const [p, q] of [[a, b], [b, a]]) {
      for (let z = 0; z < n; z++, r++) {
        starts[r] = k;
        const [i1, i2] = p < q ? [p * n + z, q * n + z] : [q * n + z, p * n + z];
        const [v1, v2] = p < q ? [1, -f] : [-f, 1];
        indices[k] = i1; values[k++] = v1;
        indices[k] = i2; values[k++] = v2;
        rowLower[r] = -highs.infinity; rowUpper[r] = 0;
      }
    }
  }
  starts[r] = k;
  const colCost = new Float64Array(nv);
  for (let y = 0; y < n; y++) colCost[y * n + y] = 1 / n;
  const t0 = performance.now();
  const model = highs.createModel({
    numCols: nv, numRows: nr, sense: highs.constants.objectiveSense.maximize,
    colCost, colLower: new Float64Array(nv), colUpper: new Float64Array(nv).fill(highs.infinity),
    rowLower, rowUpper,
    matrix: { format: 'csr', numRows: nr, numCols: nv, starts, indices, values },
  });
  try {
    model.options.set({
      output_flag: false, time_limit: 2 * LIMIT_S, primal_feasibility_tolerance: 1e-10, dual_feasibility_tolerance: 1e-10,
    });
    model.run();
    const s = (performance.now() - t0) / 1000;
    const status = model.getModelStatus();
    return { s, value: model.getObjectiveValue(), iterations: Number(model.info.get('simplex_iteration_count')),
      optimal: status === 7 || status === 'Optimal' };
  } finally {
    model.dispose();
  }
}

function solveQif(g) {
  const t0 = performance.now();
  let r;
  try {
    r = qif.mechanism.optimalLP({ graph: g, epsilon: EPS, forceLP: true, timeLimit: 2000 * LIMIT_S });
  } catch (e) {
    return { s: (performance.now() - t0) / 1000, error: e.message };
  }
  return { s: (performance.now() - t0) / 1000, value: r.utility, objective: r.objective, iterations: r.iterations,
    variables: r.variables, constraints: r.constraints, status: r.status };
}

// Median of up to 5 runs while they stay under a second in total.
function timed(solve, g) {
  const runs = [solve(g)];
  let total = runs[0].s;
  while (runs.length < 5 && total < 1 && !runs[0].error) {
    runs.push(solve(g));
    total += runs.at(-1).s;
  }
  runs.sort((a, b) => a.s - b.s);
  return runs[runs.length >> 1];
}
solveQif(families.path(6)); // warm-up: JIT and first-call costs of both modules
solveHighs(families.path(6));

const fmt = (s) => (s === undefined ? '—' : s < 0.1 ? s.toFixed(4) : s.toFixed(2));
const rows = [];
const skipped = [];
for (const [fam, list] of Object.entries(sizes)) {
  let last = { qif: null, highs: null };
  for (const size of list) {
    const g = families[fam](size);
    const nv = g.n * g.n, nc = g.n + 2 * g.edges.length * g.n;
    const predict = (prev) => (prev ? prev.s * (nc / prev.nc) ** 1.8 : 0);
    const row = { problem: `${fam} ${fam === 'grid' ? `${size}×${size}` : size}`, variables: nv, constraints: nc };
    let q, h;
    if (predict(last.qif) > LIMIT_S) {
      skipped.push(`${row.problem}: qif skipped (predicted ${predict(last.qif).toFixed(0)} s)`);
    } else {
      q = timed(solveQif, g);
      last.qif = { s: q.s, nc };
      if (q.error) { skipped.push(`${row.problem}: qif failed after ${q.s.toFixed(1)} s: ${q.error}`); q = undefined; }
    }
    if (predict(last.highs) > LIMIT_S) {
      skipped.push(`${row.problem}: HiGHS skipped (predicted ${predict(last.highs).toFixed(0)} s)`);
    } else {
      h = timed(solveHighs, g);
      last.highs = { s: h.s, nc };
      if (!h.optimal) { skipped.push(`${row.problem}: HiGHS stopped after ${h.s.toFixed(1)} s without an optimum`); h = undefined; }
    }
    row['qif s'] = fmt(q?.s);
    row['HiGHS s'] = fmt(h?.s);
    row['qif/HiGHS'] = q && h ? (q.s / h.s).toFixed(2) : '—';
    row['qif it.'] = q?.iterations ?? '—';
    row['HiGHS it.'] = h?.iterations ?? '—';
    row.optimum = q ? q.value.toFixed(10) : h ? h.value.toFixed(10) : '—';
    row['|Δ| vs HiGHS'] = q && h ? Math.abs(q.objective - h.value).toExponential(1) : '—';
    if (fam === 'clique') row['|Δ| vs 2/(n+1)'] = q ? Math.abs(q.value - 2 / (size + 1)).toExponential(1) : '—';
    rows.push(row);
    console.error(`${row.problem}: qif ${row['qif s']} s, HiGHS ${row['HiGHS s']} s`);
  }
}
console.table(rows);
for (const s of skipped) console.log(s);
