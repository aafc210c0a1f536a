// sections/mechanism/state.js — the "Design a mechanism" section as data: its state and presets,
// reading what the user types (ε, edge lists, query tables, priors, labels) with the page's one
// grammar (input/), the answer graph to build and the gain or loss matrix from the graph
// distances. The engine calls of each stage are plan.js (the mechanisms themselves come from
// lib/mechanism-plan.js, shared with the <qif-mechanism> widget). Pure: tests/node/sections.test.mjs
// runs it.
// Every reader returns {value} or {error} with a short message meant for the input it reads.

import { parseNumber, parseInteger } from '../../input/number.js';
import { parseIndexList, parseLabels } from '../../input/grid.js';

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
