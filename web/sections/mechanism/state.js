// sections/mechanism/state.js — the "Design a mechanism" section as data: its state and presets,
// reading what the user types (ε, edge lists, query tables, priors, labels) with the page's one
// grammar (input/), the answer graph to build, the gain or loss matrix from the graph distances,
// and the engine calls of each stage (the mechanisms themselves come from lib/mechanism-plan.js,
// shared with the <qif-mechanism> widget). Pure: tests/node/sections.test.mjs runs it.
// Every reader returns {value} or {error} with a short message meant for the input it reads.

import { parseNumber, parseInteger, parseExpRational, rationalText } from '../../input/number.js';
import { parseIndexList, parseLabels, rationalVector } from '../../input/grid.js';
import { formatNumber } from '../../lib/numbers.js';
import { mechanismCall, matrixOf, utilityCall, edgeSpan } from '../../lib/mechanism-plan.js';
import { reportToJob } from '../../engine/client.js';

/** Most answers the section analyses (distances, Theorem 6.2, classic mechanisms). */
export const MAX_ANSWERS = 256;
/**
 * The optimal-mechanism LP (n² variables) runs by itself up to LP_AUTO_ANSWERS answers and on
 * request ("Compute") up to LP_MAX_ANSWERS. Measured in headless Chromium on a shared 2-core
 * machine: grids of 8×8 answers take 0.5 s (uniform prior, binary gain) to 1.1 s (distance
 * loss, non-uniform prior); 16×16 takes 5 s with the uniform prior and the binary gain, and
 * 12×12 with the distance loss and a non-uniform prior more than two minutes.
 */
export const LP_AUTO_ANSWERS = 64;
export const LP_MAX_ANSWERS = 256;
/** Most answers for which heat maps are drawn. */
export const HEATMAP_MAX_ANSWERS = 64;
/** Most answers for which the prior can be edited entry by entry. */
export const PRIOR_TABLE_MAX = 64;

/** Graph kinds of the answer-graph menu, in menu order. */
export const KINDS = [
  ['path', 'Path (answers 0..n−1 on a line)'],
  ['cycle', 'Cycle'],
  ['clique', 'Clique (every pair adjacent)'],
  ['grid', 'Grid w × h'],
  ['hypercube', 'Hypercube Q_d'],
  ['hamming', 'Hamming graph (u individuals, v values)'],
  ['petersen', 'Petersen graph'],
  ['custom', 'Custom edge list'],
  ['induced', 'Induced by a query f (inputs → answers)'],
];
/** Base graphs on inputs offered for the induced graph. */
export const BASE_KINDS = KINDS.filter(([k]) => k !== 'induced');

/** Gain (or loss) options; d is the shortest-path distance of the answer graph. */
export const GAINS = [
  ['binary', 'Binary: 1 for the right answer, else 0'],
  ['distance', 'Distance gain: max(0, 1 − d(y,z)/diameter)'],
  ['loss', 'Distance loss: d(y,z) (|y − z| on a path), minimized'],
];

/** The mechanism shown in the second heat map. */
export const SHOWN = [
  ['thm62', 'Theorem 6.2 c·e^(−εd)'],
  ['tg', 'Truncated geometric'],
  ['rr', 'Randomized response'],
  ['exp', 'Exponential'],
  ['tc', 'Tight constraints'],
];

/**
 * Metrics d of the tight-constraints mechanism (built for ε·d): the graph's own distance makes
 * it ε-DP on the graph; the others are the presets of qif.metric on the answers.
 */
export const TC_METRICS = [
  ['graph', 'Graph distance d(y, z): ε-DP on the graph'],
  ['line', 'Answers on a line: |y − z|'],
  ['discrete', 'Discrete: 1 between distinct answers'],
  ['gridEuclidean', 'Euclidean on the grid (geo-indistinguishability)'],
];

export const DEFAULT_STATE = Object.freeze({
  preset: 'table1-uniform',
  kind: 'clique',
  n: '6', w: '3', h: '3', d: '3', u: '3', v: '2',
  cn: '5', edges: '0-1, 1-2, 2-3, 3-4',
  base: 'hamming', query: '',
  labels: '',
  epsilon: 'ln 2',
  prior: null, // null = uniform, else one text entry per answer
  gain: 'binary',
  show: 'tg',
  tcMetric: 'graph',
  db: { u: '1000000', v: '2', epsilon: 'ln 2' },
});

/** Digit sum in base v of 0..v^u−1: the counting query on a database of u binary-or-more values. */
export function countQuery(u, v) {
  const n = v ** u;
  const f = [];
  for (let x = 0; x < n; x++) {
    let s = 0;
    for (let y = x; y > 0; y = Math.floor(y / v)) s += (y % v) ? 1 : 0;
    f.push(s);
  }
  return f;
}

const TABLE1 = { kind: 'clique', n: '6', labels: 'A, B, C, D, E, F', epsilon: 'ln 2', gain: 'binary', show: 'tg' };

/**
 * Presets: id, menu label, description (plain text) and the state they set (over DEFAULT_STATE).
 */
export const PRESETS = [
  {
    id: 'table1-uniform',
    label: 'Table 1 of Alvim et al. (ICALP 2011): 6 cities, clique, ε = ln 2, uniform prior',
    description: 'The paper’s Table 1: six cities A–F, any two adjacent (clique), ε = ln 2. M1 is the truncated geometric mechanism with per-step α = 2^(−1/5) (ε/5 per step, so that it is ln 2-DP on the clique); M2, the Theorem 6.2 mechanism, puts 2/7 on the diagonal and 1/7 elsewhere and reaches the bound 2/7. (The paper prints 0.2242 for M1, rounded from its 3-decimal table; the exact value is 0.2243.)',
    state: { ...TABLE1, prior: null },
  },
  {
    id: 'table1-prior',
    label: 'Table 1 of Alvim et al. (ICALP 2011): … prior p(A)=p(F)=1/10, others 1/5',
    description: 'Table 1 with a non-uniform prior. M1 has utility 0.2415 (the paper prints 0.2412, from its rounded table) and M2 still 2/7, but M2 is no longer optimal: the linear program finds an ln 2-DP mechanism with utility 0.32 (see the mathematics, §5.5).',
    state: { ...TABLE1, prior: ['1/10', '1/5', '1/5', '1/5', '1/5', '1/10'] },
  },
  {
    id: 'path7',
    label: 'Path of 7 answers, ε = ln 2 (Theorem 6.2 is not ε-DP)',
    description: 'On a path the vertices have different distance distributions n_d, so no single constant c normalizes c·e^(−εd): the row-normalized Theorem 6.2 matrix is a channel but breaks ε-DP (see the mathematics, §5.3). The LP gives the true optimum.',
    state: { kind: 'path', n: '7', labels: '', epsilon: 'ln 2', prior: null, gain: 'binary', show: 'thm62' },
  },
  {
    id: 'petersen',
    label: 'Petersen graph, ε = 1',
    description: 'Distance-regular with intersection array {3, 2; 1, 1}: the Theorem 6.1 bound is tight and the Theorem 6.2 mechanism reaches it.',
    state: { kind: 'petersen', labels: '', epsilon: '1', prior: null, gain: 'binary', show: 'thm62' },
  },
  {
    id: 'hypercube3',
    label: 'Hypercube Q3, ε = 1',
    description: 'The 3-cube: distance-regular and VT+, n_d = 1, 3, 3, 1, so the bound is 1/(1 + e^(−ε))³.',
    state: { kind: 'hypercube', d: '3', labels: '', epsilon: '1', prior: null, gain: 'binary', show: 'rr' },
  },
  {
    id: 'hamming32',
    label: 'Hamming graph u = 3, v = 2, ε = 1',
    description: 'Databases of 3 individuals with 2 values each, adjacent when they differ in one individual (Alvim et al. (ICALP 2011) §2.1). n_d = C(u,d)(v−1)^d.',
    state: { kind: 'hamming', u: '3', v: '2', labels: '', epsilon: '1', prior: null, gain: 'binary', show: 'rr' },
  },
  {
    id: 'count-query',
    label: 'Counting query on 3 binary individuals (induced graph), ε = 1',
    description: 'The query f = number of 1s maps the 8 databases of Hamming(3, 2) to the answers 0..3; the graph it induces on answers (see the mathematics, §3.4) is the path of 4, so an oblivious mechanism K = f ; H is ε-DP iff H is ε-DP on that path.',
    state: { kind: 'induced', base: 'hamming', u: '3', v: '2', query: countQuery(3, 2).join(', '), labels: '', epsilon: '1', prior: null, gain: 'loss', show: 'tg' },
  },
];

export function presetById(id) {
  return PRESETS.find((p) => p.id === id);
}

/**
 * Parses ε in nats with the page's grammar: a number or fraction ("0.5", "1/3") or a natural
 * logarithm ("ln 2", "ln(3/2)", "2 ln 2", "ln 2 / 5" = (ln 2)/5). ε must be positive and at most
 * 700 (e^ε overflows beyond).
 * @returns {{value: number} | {error: string}}
 */
export function parseEpsilon(text) {
  const r = parseNumber(text);
  if ('error' in r) return { error: r.error === 'empty' ? 'enter ε, e.g. 0.5 or ln 2' : `ε: ${r.error}` };
  const v = r.value;
  if (!(v > 0)) return { error: `ε must be positive, got ${formatShort(v)}` };
  if (v > 700) return { error: 'ε must be at most 700 (e^ε overflows)' };
  return { value: v };
}

function formatShort(v) {
  return String(Number(v.toPrecision(6))).replace('-', '−');
}

/**
 * Parses a whole number within [min, max] ("12", "1e6", "10^6").
 * @returns {{value: number} | {error: string}}
 */
export function parseCount(text, name, min, max) {
  return parseInteger(text, { min, max, what: name });
}

/** Non-negative integers in free form (edge lists, query tables): see input/grid.js. */
export const parseIntegers = (text, name) => parseIndexList(text, name);

/**
 * Parses an edge list into pairs. Range, self-loops and duplicates are checked by the API
 * (its messages name the edge); here only the shape.
 * @returns {{value: number[][]} | {error: string}}
 */
export function parseEdges(text) {
  const r = parseIntegers(text, 'edges');
  if ('error' in r) return r;
  const xs = r.value;
  if (xs.length % 2) return { error: `edges: ${xs.length} vertex numbers, an odd count: the last edge (${xs[xs.length - 1]}, ?) is incomplete` };
  const edges = [];
  for (let k = 0; k < xs.length; k += 2) edges.push([xs[k], xs[k + 1]]);
  return { value: edges };
}

/** Answer labels: comma-separated text, or 0..n−1 when empty or of the wrong length. */
export function answerLabels(text, n) {
  const parsed = parseLabels(text);
  const t = 'error' in parsed ? [] : parsed.labels.filter((x) => x !== '');
  if (t.length === n) return { labels: t };
  const labels = Array.from({ length: n }, (_, i) => String(i));
  if (t.length === 0) return { labels };
  return { labels, error: `${t.length} labels for ${n} answers: showing 0..${n - 1}` };
}

/**
 * Parses the prior entries (null = uniform) for n answers.
 * @returns {{value: number[]} | {error: string, index?: number}}
 */
export function parsePrior(entries, n) {
  if (!entries) return { value: new Array(n).fill(1 / n) };
  if (entries.length !== n) return { error: `prior: ${entries.length} entries for ${n} answers` };
  const p = [];
  for (let i = 0; i < n; i++) {
    const r = parseNumber(entries[i]);
    if ('error' in r) return { error: `prior: entry ${i + 1} is ${r.error}`, index: i };
    if (r.value < 0) return { error: `prior: entry ${i + 1} is negative`, index: i };
    p.push(r.value);
  }
  const sum = p.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-6) return { error: `prior: the entries sum to ${formatShort(sum)}, expected 1` };
  return { value: p };
}

/**
 * The score matrix of the chosen gain, built from the answer graph's distance matrix D
 * (rows = guesses/outputs z, cols = answers y; D is symmetric):
 *   binary   → null (the API's default, 1 on the diagonal);
 *   distance → G[z][y] = max(0, 1 − d(z,y)/diam), 0 across components;
 *   loss     → L[z][y] = d(z,y), needs a connected graph.
 * @returns {{matrix: number[][] | null} | {error: string}}
 */
export function scoreMatrix(kind, D, diameter) {
  if (kind === 'binary') return { matrix: null };
  const n = D.length;
  if (kind === 'distance') {
    if (!(diameter > 0)) return { matrix: null };
    return { matrix: D.map((row) => row.map((d) => (Number.isFinite(d) ? Math.max(0, 1 - d / diameter) : 0))) };
  }
  if (kind === 'loss') {
    for (let i = 0; i < n; i++) {
      if (D[i].some((d) => !Number.isFinite(d))) {
        return { error: 'the distance loss needs a connected graph: answers in different components are at distance ∞' };
      }
    }
    return { matrix: D.map((row) => row.slice()) };
  }
  return { error: `unknown gain “${kind}”` };
}

/** Rows of a {rows, cols, data} matrix as arrays. */
export function toRows(m) {
  const out = [];
  for (let i = 0; i < m.rows; i++) out.push(Array.from(m.data.subarray ? m.data.subarray(i * m.cols, (i + 1) * m.cols) : m.data.slice(i * m.cols, (i + 1) * m.cols)));
  return out;
}

/** The ε grid of the utility-against-ε plot: 15 values up to max(2, 2ε), plus ε itself. */
export function epsilonGrid(eps, count = 15) {
  const top = Math.min(20, Math.max(2, 2 * eps));
  const xs = Array.from({ length: count }, (_, k) => Number(((top * (k + 1)) / count).toPrecision(6)));
  if (!xs.some((x) => Math.abs(x - eps) < 1e-9)) xs.push(eps);
  return xs.sort((a, b) => a - b);
}

// ---------------------------------------------------------------- the state from a URL

/**
 * A clean state from an untrusted one (a shared link): unknown keys dropped, texts as text,
 * menus restricted to their options; anything missing comes from DEFAULT_STATE.
 */
export function sanitizeState(next) {
  const base = JSON.parse(JSON.stringify(DEFAULT_STATE));
  const s = { ...base };
  if (!next || typeof next !== 'object') return s;
  for (const k of Object.keys(base)) {
    if (!(k in next)) continue;
    const val = next[k];
    if (k === 'prior') s.prior = Array.isArray(val) ? val.map((x) => String(x)) : null;
    else if (k === 'db') s.db = { ...base.db, ...(val && typeof val === 'object' ? Object.fromEntries(Object.entries(val).filter(([kk]) => kk in base.db).map(([kk, vv]) => [kk, String(vv)])) : {}) };
    else if (k === 'preset') s.preset = presetById(val) ? val : null;
    else s[k] = String(val);
  }
  if (!KINDS.some(([k]) => k === s.kind)) s.kind = base.kind;
  if (!BASE_KINDS.some(([k]) => k === s.base)) s.base = base.base;
  if (!GAINS.some(([k]) => k === s.gain)) s.gain = base.gain;
  if (!SHOWN.some(([k]) => k === s.show)) s.show = base.show;
  if (!TC_METRICS.some(([k]) => k === s.tcMetric)) s.tcMetric = base.tcMetric;
  return s;
}

// ---------------------------------------------------------------- the call plans, stage by stage

/** The graph kind the fields describe (the base graph of an induced one). */
export function activeKind(s) {
  return s.kind === 'induced' ? s.base : s.kind;
}

/** Fields shown for each graph kind. */
export const KIND_FIELDS = {
  path: ['n'], cycle: ['n'], clique: ['n'], grid: ['w', 'h'], hypercube: ['d'], hamming: ['u', 'v'], petersen: [], custom: ['cn', 'edges'],
};

/**
 * Stage 1: how to build the answer graph: {base, query?} where base is an engine call or
 * {literal: {n, edges}}, or {error, field} naming the field to flag.
 */
export function graphPlan(s) {
  const k = activeKind(s);
  const induced = s.kind === 'induced';
  const problem = (error, field) => ({ error, field });
  const int = (key, name, min, max) => parseCount(s[key], name, min, max);
  let base;
  if (k === 'path' || k === 'cycle' || k === 'clique') {
    const n = int('n', 'n', k === 'cycle' ? 3 : 1, induced ? 4096 : MAX_ANSWERS);
    if ('error' in n) return problem(n.error, 'n');
    base = { ns: 'graph', fn: k, args: [n.value] };
  } else if (k === 'grid') {
    const w = int('w', 'w', 1, 64);
    if ('error' in w) return problem(w.error, 'w');
    const hh = int('h', 'h', 1, 64);
    if ('error' in hh) return problem(hh.error, 'h');
    if (w.value * hh.value > MAX_ANSWERS) return problem(`w × h = ${w.value * hh.value} answers, more than this section’s limit of ${MAX_ANSWERS}`, 'h');
    base = { ns: 'graph', fn: 'grid', args: [w.value, hh.value] };
  } else if (k === 'hypercube') {
    const d = int('d', 'd', 1, induced ? 12 : 8);
    if ('error' in d) return problem(d.error, 'd');
    base = { ns: 'graph', fn: 'hypercube', args: [d.value] };
  } else if (k === 'hamming') {
    const u = int('u', 'u', 1, 64);
    if ('error' in u) return problem(u.error, 'u');
    const v = int('v', 'v', 2, 64);
    if ('error' in v) return problem(v.error, 'v');
    const lim = induced ? 4096 : MAX_ANSWERS;
    const size = v.value ** u.value;
    if (size > lim) return problem(`vᵘ = ${size > 1e15 ? `2^${formatNumber(u.value * Math.log2(v.value))}` : size.toLocaleString('en')} answers, more than this graph’s limit of ${lim}; the database panel below handles any u`, 'u');
    base = { ns: 'graph', fn: 'hamming', args: [u.value, v.value] };
  } else if (k === 'petersen') {
    base = { ns: 'graph', fn: 'petersen', args: [] };
  } else if (k === 'custom') {
    const n = int('cn', 'n', 1, induced ? 4096 : MAX_ANSWERS);
    if ('error' in n) return problem(n.error, 'cn');
    const e = parseEdges(s.edges);
    if ('error' in e) return problem(e.error, 'edges');
    base = { literal: { n: n.value, edges: e.value } };
  } else {
    return problem(`unknown graph “${k}”`, 'kind');
  }
  if (!induced) return { base };
  const q = parseIntegers(s.query, 'query');
  if ('error' in q) return problem(q.error, 'query');
  if (!q.value.length) return problem('query: enter one answer index per input vertex', 'query');
  return { base, query: q.value };
}

/** What the section knows of a built graph, from its distances and distance-regularity. */
export function graphStructure(g, D, dr) {
  let diameter = 0;
  let connected = true;
  for (const row of D) for (const d of row) { if (Number.isFinite(d)) diameter = Math.max(diameter, d); else connected = false; }
  return { g, n: g.n, D, diameter, connected, span: edgeSpan(g), dr };
}

/** The mechanisms compared beside the optimum, in table order. */
export const CLASSIC = ['thm62', 'tg', 'rr', 'exp', 'tc'];

/**
 * How the metric of the tight-constraints mechanism is obtained for the graph G: {matrix} (the
 * graph's distances, already known), {call} (a qif.metric preset) or {error} (the preset does
 * not apply to this graph).
 */
export function tcMetricPlan(s, G) {
  const n = G.n;
  switch (s.tcMetric) {
    case 'line': return { call: { ns: 'metric', fn: 'manhattan', args: [Array.from({ length: n }, (_, y) => [y])] } };
    case 'discrete': return { call: { ns: 'metric', fn: 'discrete', args: [n, 1] } };
    case 'gridEuclidean': {
      if (s.kind !== 'grid') return { error: 'the Euclidean metric needs the grid graph (its cells are the points)' };
      const w = parseCount(s.w, 'w', 1, 64);
      const hh = parseCount(s.h, 'h', 1, 64);
      if ('error' in w || 'error' in hh) return { error: 'set the grid’s w and h' };
      return { call: { ns: 'metric', fn: 'gridEuclidean', args: [w.value, hh.value] } };
    }
    default: return { matrix: G.D };
  }
}

/**
 * Stage 2: the Theorem 6.1 bound and the ε-dependent matrices: calls in the order
 * [bound, ...CLASSIC] (read back by readMatrices); without a metric (an array of rows) the
 * tight-constraints mechanism is left out.
 */
export function matricesPlan(G, epsilon, metric = null) {
  return [
    { ns: 'privacy', fn: 'utilityBound', args: [G.g, epsilon, { budgetMs: 500 }] },
    ...CLASSIC.filter((k) => k !== 'tc' || metric).map((k) => mechanismCall(k, { graph: G.g, epsilon, metric })),
  ];
}

/** The matrices of matricesPlan's results; `tcError` says why tc is missing when it was left out. */
export function readMatrices(results, { tcError = 'no metric' } = {}) {
  const [bound, ...rest] = results;
  const matrices = {};
  const errors = {};
  CLASSIC.forEach((k, i) => {
    const r = rest[i] ?? { ok: false, error: tcError };
    matrices[k] = r.ok ? matrixOf(k, r.value) : null;
    errors[k] = r.ok ? null : r.error;
  });
  const thm = rest[0].ok ? rest[0].value : null;
  return { bound, thm, matrices, errors };
}

/**
 * Stage 3: the smallest ε of each matrix on the graph and, when the prior and gain are valid,
 * its utility. Returns the calls and, per key, the indices of its results.
 */
export function utilitiesPlan(G, matrices, cur) {
  const calls = [];
  const at = {};
  for (const k of CLASSIC) {
    if (!matrices[k]) continue;
    at[k] = { eps: calls.length };
    calls.push({ ns: 'privacy', fn: 'epsilon', args: [matrices[k], G.g] });
    if (cur.prior && !cur.scoreError) {
      at[k].util = calls.length;
      calls.push(utilityCall(cur.prior, matrices[k], cur));
    }
  }
  return { calls, at };
}

/** Stage 4: the optimal mechanism (the closed form where it is exact, else the LP). */
export function optimalCall(cur, timeLimit) {
  return mechanismCall('lp', { graph: cur.G.g, epsilon: cur.eps, prior: cur.prior, score: cur.score, loss: cur.loss, timeLimit, progress: true });
}

/**
 * Stage 5, the utility-against-ε plot: first the closed-form matrices at every ε (fast), then
 * one job with the optimum (when the LP is small enough), the utilities and the bound at every ε.
 */
export function sweepMatricesPlan(G, xs, metric = null) {
  const keys = sweepKeys(metric);
  return xs.flatMap((x) => keys.map((k) => mechanismCall(k, { graph: G.g, epsilon: x, metric })));
}

/** The mechanisms of the sweep: the classic ones, tight constraints only with a metric. */
export function sweepKeys(metric) {
  return CLASSIC.filter((k) => k !== 'tc' || metric);
}

export function sweepPlan(cur, xs, matrixResults, { withLP, timeLimit, keys = sweepKeys(cur.tcMetric) }) {
  const calls = [];
  const layout = [];
  xs.forEach((x, i) => {
    if (withLP) {
      calls.push(mechanismCall('lp', { graph: cur.G.g, epsilon: x, prior: cur.prior, score: cur.score, loss: cur.loss, timeLimit, progress: true }));
      layout.push([i, 'lp']);
    }
    keys.forEach((k, j) => {
      const r = matrixResults[keys.length * i + j];
      if (!r.ok) return;
      calls.push(utilityCall(cur.prior, matrixOf(k, r.value), cur));
      layout.push([i, k]);
    });
    calls.push({ ns: 'privacy', fn: 'utilityBound', args: [cur.G.g, x, { budgetMs: 200 }] });
    layout.push([i, 'bound']);
  });
  return { calls, layout };
}

/** The database panel: the parsed fields (with their messages) and, when all are valid, its calls. */
export function dbPlan(db) {
  const u = parseCount(db.u, 'u', 1, 1e15);
  const v = parseCount(db.v, 'v', 2, 1e9);
  const e = parseEpsilon(db.epsilon);
  const out = { u, v, e, calls: null };
  if (u.error || v.error || e.error) return out;
  const opts = { individuals: u.value, values: v.value, epsilon: e.value };
  out.calls = [
    { ns: 'privacy', fn: 'leakageBound', args: [opts] },
    { ns: 'privacy', fn: 'individualLeakageBound', args: [{ values: v.value, epsilon: e.value }] },
    { ns: 'privacy', fn: 'hammingUtilityBound', args: [opts] },
  ];
  return out;
}

// ---------------------------------------------------------------- the certified optimum

/**
 * The exact twin of the optimal mechanism (qif.exact.mechanism.optimal), when the inputs are
 * rational as typed: e^ε (ε typed as ln 2, ln(3/2), 2 ln 2 …), the prior's entries, the gain or
 * loss (built from the graph's whole distances). Returns {call, expEpsilon} or {why} in words.
 * @param {{epsilon: string, prior: string[]|null, gain: string}} s  the section's state
 * @param {{g: {n: number, edges: number[][]}, D: number[][], diameter: number}} G
 */
export function certifiedPlan(s, G) {
  const e = parseExpRational(s.epsilon);
  if (!e) return { why: 'a certified optimum needs e^ε rational: type ε as ln of a fraction (ln 2, ln(3/2), 2 ln 2)' };
  if (e.n <= e.d) return { why: 'ε must be positive' };
  const opts = { graph: G.g, expEpsilon: e.d === 1n ? String(e.n) : `${e.n}/${e.d}`, onProgress: reportToJob };
  if (s.prior) {
    const p = rationalVector(s.prior);
    if (!p) return { why: 'a certified optimum needs every prior entry as a decimal or a fraction' };
    opts.prior = p;
  }
  if (s.gain !== 'binary') {
    if (G.D.some((row) => row.some((d) => Number.isFinite(d) && !Number.isInteger(d)))) return { why: 'the distances are not whole numbers' };
    if (s.gain === 'loss') {
      if (G.D.some((row) => row.some((d) => !Number.isFinite(d)))) return { why: 'the distance loss needs a connected graph' };
      opts.loss = G.D.map((row) => row.map((d) => String(d)));
    } else {
      const diam = G.diameter;
      if (!(diam > 0)) return { why: 'the distance gain needs a graph with an edge' };
      // max(0, 1 − d/diam) as the fraction (diam − d)/diam; 0 across components.
      opts.gain = G.D.map((row) => row.map((d) => (Number.isFinite(d) && d <= diam ? rationalText(`${diam - d}/${diam}`) : '0')));
    }
  }
  return { call: { ns: 'exact.mechanism', fn: 'optimal', args: [opts] }, expEpsilon: opts.expEpsilon };
}
