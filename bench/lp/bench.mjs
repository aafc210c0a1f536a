// Benchmark of the optimal-mechanism program at research sizes (docs/mathematics.md#optimal-mechanisms):
// qif.mechanism.optimalLP solving it by decomposition over the columns of the mechanism (package
// conelp, compiled to WebAssembly) against HiGHS compiled to WebAssembly (npm package `highs`) on
// the same linear program, both in this Node process.
//
//   scripts/build.sh && node bench/lp/bench.mjs [case ...] [--highs-limit=seconds] [--ours-limit=seconds] [--simplex] [--no-highs]
//
// Cases (default: all): path10 path40 path80 path200, clique20 clique40 clique80, grid6 grid8
// grid10 grid15 grid20 — the ε-DP program with the binary gain, the uniform prior and ε = ln 2 —,
// path200r (ε = 0.5 and a random prior, fixed seed) and geo6 geo7 geo10 geo15 geo20s1.1
// geo30s1.1 geo15s1.5: location privacy on a side×side grid of cells, Euclidean
// distance between cell centres, ε = 0.5 per cell (…e1: ε = 1), a prior with three hot spots
// (…u: the uniform prior) and the expected
// distance as the loss, on every pair of cells (geo10, geo15) or on the greedy δ-spanner with
// ε/δ (…sδ). HiGHS states the same program (privacy rows in the mass form e^{−εd}·H[x][z] ≤
// H[t][z], as ours) at primal and dual feasibility tolerances 1e−10, with a time limit
// (--highs-limit, default 120 s); programs above 2.5 million rows are not given to it (building
// them alone exhausts its memory). --simplex also runs our simplex (method 'simplex') where the
// program has at most 40,000 variables and 10^6 rows.
import { load } from '../../web/qif.js';
import loadHighs from 'highs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.find((a) => a.startsWith(`--${name}=`)) ?? `=${dflt}`).split('=')[1];
const HIGHS_LIMIT = Number(opt('highs-limit', 120));
const OURS_LIMIT = Number(opt('ours-limit', 0)); // seconds; 0: none
const withSimplex = args.includes('--simplex');
const withHighs = !args.includes('--no-highs'); // --no-highs: ours only (to compare two builds of ours)
const MAX_HIGHS_ROWS = 2.5e6;
let names = args.filter((a) => !a.startsWith('--'));
if (names.length === 0) {
  names = ['path10', 'path40', 'path80', 'path200', 'path200r', 'clique20', 'clique40', 'clique80',
    'grid6', 'grid8', 'grid10', 'grid15', 'grid20', 'geo6', 'geo7', 'geo10', 'geo15', 'geo15s1.5', 'geo20s1.1', 'geo30s1.1'];
}

const qif = await load();
const highs = await loadHighs();

// A graph case: {n, edges} with the binary gain and the uniform prior.
function graphCase(kind, k) {
  const edges = [];
  let n = k;
  if (kind === 'path') for (let i = 0; i + 1 < k; i++) edges.push([i, i + 1]);
  if (kind === 'clique') for (let i = 0; i < k; i++) for (let j = i + 1; j < k; j++) edges.push([i, j]);
  if (kind === 'grid') {
    n = k * k;
    for (let r = 0; r < k; r++) for (let c = 0; c < k; c++) {
      if (c + 1 < k) edges.push([r * k + c, r * k + c + 1]);
      if (r + 1 < k) edges.push([r * k + c, (r + 1) * k + c]);
    }
  }
  const eps = Math.LN2;
  const cost = (y, z) => (y === z ? 1 / n : 0); // maximized
  return { n, w: n, sense: 'max', cost, pairs: edges.map(([a, b]) => [a, b, eps]),
    options: { graph: { n, edges }, epsilon: eps } };
}

// Three hot spots over a floor, normalized: a city's density of users.
function hotSpots(side) {
  const spots = [[0.25, 0.3, 0.12], [0.7, 0.65, 0.08], [0.4, 0.8, 0.1]];
  const p = new Float64Array(side * side);
  let s = 0;
  for (let v = 0; v < p.length; v++) {
    const x = (v % side) / (side - 1), y = Math.floor(v / side) / (side - 1);
    let d = 0.05;
    for (const [cx, cy, w] of spots) d += Math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * w * w));
    p[v] = d;
    s += d;
  }
  return p.map((v) => v / s);
}

// The greedy δ-spanner, as core/mechanism builds it: pairs by increasing distance (ties in the
// order a < b, then b), each added unless the spanner already joins it within δ·d.
function greedySpanner(n, d, delta) {
  const pairs = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) pairs.push([a, b, d(a, b)]);
  pairs.sort((p, q) => p[2] - q[2]); // stable
  const adj = Array.from({ length: n }, () => []);
  const dist = new Float64Array(n).fill(Infinity);
  const edges = [];
  for (const [a, b, dab] of pairs) {
    const limit = delta * dab;
    const touched = [a];
    dist[a] = 0;
    const heap = [[0, a]];
    let joined = false;
    while (heap.length) {
      heap.sort((p, q) => q[0] - p[0]);
      const [du, u] = heap.pop();
      if (du > dist[u]) continue;
      if (u === b) { joined = true; break; }
      for (const v of adj[u]) {
        const nd = du + d(u, v);
        if (nd <= limit && nd < dist[v]) {
          if (dist[v] === Infinity) touched.push(v);
          dist[v] = nd;
          heap.push([nd, v]);
        }
      }
    }
    for (const v of touched) dist[v] = Infinity;
    if (!joined) { adj[a].push(b); adj[b].push(a); edges.push([a, b]); }
  }
  return edges;
}

function geoCase(side, delta, uniform, eps) {
  const n = side * side;
  const metric = qif.metric.gridEuclidean(side, side);
  const d = (a, b) => metric.data[a * n + b]; // the same numbers as ours
  const prior = uniform ? new Float64Array(n).fill(1 / n) : hotSpots(side);
  let pairs = [];
  if (delta) {
    pairs = greedySpanner(n, d, delta).map(([a, b]) => [a, b, (eps / delta) * d(a, b)]);
  } else {
    // Every pair with no cell strictly between (gcd(dx, dy) = 1); the others follow.
    const gcd = (x, y) => (y === 0 ? Math.abs(x) : gcd(y, x % y));
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
      if (gcd((a % side) - (b % side), Math.floor(a / side) - Math.floor(b / side)) === 1) pairs.push([a, b, eps * d(a, b)]);
    }
  }
  const loss = Array.from({ length: n }, (_, z) => Array.from({ length: n }, (_, y) => d(z, y)));
  const options = { metric, epsilon: eps, prior, loss };
  if (delta) options.spanner = delta;
  return { n, w: n, sense: 'min', cost: (y, z) => prior[y] * d(z, y), pairs, options };
}

// The path with ε = 0.5 and a random prior (a fixed linear congruential sequence, so that
// every run solves the same program).
function randomPriorPath(n) {
  let x = 12345;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  const prior = Array.from({ length: n }, () => 0.05 + rnd());
  const s = prior.reduce((a, b) => a + b, 0);
  const p = prior.map((v) => v / s);
  const edges = [];
  for (let i = 0; i + 1 < n; i++) edges.push([i, i + 1]);
  const eps = 0.5;
  return { n, w: n, sense: 'max', cost: (y, z) => (y === z ? p[y] : 0), pairs: edges.map(([a, b]) => [a, b, eps]),
    options: { graph: { n, edges }, epsilon: eps, prior: p } };
}

function caseOf(name) {
  let m = /^path(\d+)r$/.exec(name);
  if (m) return randomPriorPath(Number(m[1]));
  m = /^(path|clique|grid)(\d+)$/.exec(name);
  if (m) return graphCase(m[1], Number(m[2]));
  m = /^geo(\d+)(?:s([\d.]+))?(u)?(?:e([\d.]+))?$/.exec(name);
  if (m) return geoCase(Number(m[1]), m[2] ? Number(m[2]) : 0, m[3] === 'u', m[4] ? Number(m[4]) : 0.5);
  throw new Error(`unknown case ${name}`);
}

// HiGHS on the program: H[y][z] is column y·w+z; row sums = 1; e^{−εd}·H[x][z] − H[t][z] ≤ 0.
function solveHighs(c) {
  const { n, w, pairs } = c;
  const nv = n * w, nr = n + 2 * pairs.length * w;
  const starts = new Int32Array(nr + 1), indices = new Int32Array(n * w + 4 * pairs.length * w);
  const values = new Float64Array(indices.length);
  const rowLower = new Float64Array(nr), rowUpper = new Float64Array(nr);
  let r = 0, k = 0;
  for (let y = 0; y < n; y++, r++) {
    starts[r] = k;
    for (let z = 0; z < w; z++) { indices[k] = y * w + z; values[k++] = 1; }
    rowLower[r] = 1; rowUpper[r] = 1;
  }
  for (const [a, b, ed] of pairs) {
    const f = Math.exp(-ed);
    for (const [x, t] of [[a, b], [b, a]]) {
      for (let z = 0; z < w; z++, r++) {
        starts[r] = k;
        const [i1, v1, i2, v2] = x < t ? [x * w + z, f, t * w + z, -1] : [t * w + z, -1, x * w + z, f];
        indices[k] = i1; values[k++] = v1;
        indices[k] = i2; values[k++] = v2;
        rowLower[r] = -highs.infinity; rowUpper[r] = 0;
      }
    }
  }
  starts[r] = k;
  const colCost = new Float64Array(nv);
  for (let y = 0; y < n; y++) for (let z = 0; z < w; z++) colCost[y * w + z] = c.cost(y, z);
  const t0 = performance.now(), c0 = process.cpuUsage();
  const model = highs.createModel({
    numCols: nv, numRows: nr,
    sense: c.sense === 'max' ? highs.constants.objectiveSense.maximize : highs.constants.objectiveSense.minimize,
    colCost, colLower: new Float64Array(nv), colUpper: new Float64Array(nv).fill(highs.infinity),
    rowLower, rowUpper,
    matrix: { format: 'csr', numRows: nr, numCols: nv, starts, indices, values },
  });
  try {
    model.options.set({ output_flag: false, time_limit: HIGHS_LIMIT, primal_feasibility_tolerance: 1e-10, dual_feasibility_tolerance: 1e-10 });
    model.run();
    const status = model.getModelStatus();
    return { s: (performance.now() - t0) / 1000, cpu: cpuSince(c0), value: model.getObjectiveValue(),
      iterations: Number(model.info.get('simplex_iteration_count')), optimal: status === 7 || status === 'Optimal', status };
  } finally {
    model.dispose();
  }
}

// CPU seconds of this process since c0 (process.cpuUsage): on a loaded machine the wall times
// of both solvers grow with the load, their CPU times much less.
function cpuSince(c0) {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

function solveOurs(c, method) {
  const t0 = performance.now(), c0 = process.cpuUsage();
  const r = qif.mechanism.optimalLP({ ...c.options, forceLP: true, method, ...(OURS_LIMIT ? { timeLimit: OURS_LIMIT * 1000 } : {}) });
  return { s: (performance.now() - t0) / 1000, cpu: cpuSince(c0), value: r.objective, r };
}

const fmt = (s) => (s === undefined ? '—' : s < 0.1 ? s.toFixed(4) : s < 100 ? s.toFixed(2) : s.toFixed(0));
const exp = (x) => (x === undefined ? '—' : x.toExponential(1));
// Warm-up of both solvers on a small map and a path, so that neither pays for the compilation
// of its code paths (WebAssembly tiers up on first use) inside a timed case.
for (const name of ['geo4', 'path10']) {
  solveOurs(caseOf(name), 'decomposition');
  if (withHighs) solveHighs(caseOf(name));
}
const table = [];
const notes = [];
for (const name of names) {
  const c = caseOf(name);
  const rows = c.n + 2 * c.pairs.length * c.w;
  const row = { case: name, variables: c.n * c.w, rows, pairs: c.pairs.length };
  let ours;
  try {
    ours = solveOurs(c, 'decomposition');
  } catch (err) {
    // Stopped at --ours-limit (or failed): say so, and do not give HiGHS the program.
    console.error(`${name}: ours stopped: ${err.message}`);
    table.push({ ...row, 'ours s': `stopped: ${err.message.slice(0, 60)}` });
    continue;
  }
  row['ours s'] = fmt(ours.s) + (ours.r.status === 'optimal' ? '' : '*');
  row['ours cpu s'] = fmt(ours.cpu);
  row['ours it.'] = ours.r.iterations;
  row['primal res.'] = exp(ours.r.primalResidual);
  row['dual res.'] = exp(ours.r.dualResidual);
  row['bound − obj.'] = exp(Math.abs(ours.r.bound - ours.r.objective));
  if (ours.r.spanner) row.dilation = ours.r.spanner.dilation.toFixed(3);
  if (c.options.metric) {
    // The mechanism's own ε on the metric, as the toolkit's privacy functions measure it,
    // against what the result guarantees.
    const e = qif.privacy.dPrivacyEpsilon(ours.r.mechanism, c.options.metric);
    row['dP ε / guaranteed'] = (e / ours.r.guaranteedEpsilon).toFixed(9);
  }
  let h;
  if (!withHighs) {
    // ours only
  } else if (rows > MAX_HIGHS_ROWS) {
    notes.push(`${name}: HiGHS not run (${rows.toLocaleString('en')} rows)`);
  } else {
    h = solveHighs(c);
    if (!h.optimal) notes.push(`${name}: HiGHS stopped after ${h.s.toFixed(1)} s (status ${h.status})`);
  }
  row['HiGHS s'] = h ? fmt(h.s) + (h.optimal ? '' : '*') : '—';
  row['HiGHS cpu s'] = h ? fmt(h.cpu) : '—';
  row['HiGHS it.'] = h ? h.iterations : '—';
  row['HiGHS/ours'] = h && h.optimal ? (h.s / ours.s).toFixed(1) : '—';
  row['HiGHS/ours cpu'] = h && h.optimal ? (h.cpu / ours.cpu).toFixed(1) : '—';
  row['|Δ optimum|'] = h && h.optimal ? exp(Math.abs(h.value - ours.value)) : '—';
  if (withSimplex) {
    if (c.n * c.w <= 40000 && rows <= 1e6) {
      const s = solveOurs(c, 'simplex');
      row['simplex s'] = fmt(s.s);
      row['|Δ simplex|'] = exp(Math.abs(s.value - ours.value));
    } else {
      row['simplex s'] = '—';
    }
  }
  row.optimum = ours.value.toPrecision(12);
  table.push(row);
  console.error(`${name}: ours ${row['ours s']} s, HiGHS ${row['HiGHS s']} s`);
}
console.table(table);
for (const s of notes) console.log(s);
