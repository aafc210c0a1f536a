// sections/mechanism/plan.js — the engine calls of "Design a mechanism", stage by stage (graph →
// structure → matrices → utilities → optimal mechanism → ε sweep; the database panel), and the
// certified optimum in exact arithmetic where e^ε and the prior are rational as typed. Each plan
// is data for the section's pipeline (view.js runs them). Pure: no DOM, no worker;
// tests/node/sections.test.mjs runs it in Node.

import { parseExpRational, rationalText } from '../../input/number.js';
import { rationalVector } from '../../input/grid.js';
import { formatNumber } from '../../lib/numbers.js';
import { mechanismCall, matrixOf, utilityCall, edgeSpan } from '../../lib/mechanism-plan.js';
import { reportToJob } from '../../engine/client.js';
import { MAX_ANSWERS, parseEpsilon, parseCount, parseIntegers, parseEdges } from './state.js';

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
    ...CLASSIC.filter((k) => k !== 'tc' || metric).map((k) => mechanismCall(k, { graph: G.g, epsilon, metric, distances: G.D })),
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
  return xs.flatMap((x) => keys.map((k) => mechanismCall(k, { graph: G.g, epsilon: x, metric, distances: G.D })));
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
