// lib/mechanism-plan.js — the one plan of how a mechanism is built for a graph and a privacy level ε,
// shared by the "Design a mechanism" section and the <qif-mechanism> widget, so that the same
// inputs give the same matrix everywhere. Pure: it returns engine calls, it calls nothing.
//
// What ε means for the classic mechanisms (decided here, explained where they are shown): a
// mechanism offered at ε is ε-DP on the chosen graph, so that its utility can be read against the
// ε-DP bound of Theorem 6.1 and against the optimum. Randomized response is ε-DP on any graph and
// takes ε as it is. The truncated geometric mechanism treats the answers as the numbers 0..n−1
// and is ε′-private for the distance |a − b|; an edge a ∼ b of the graph spans |a − b| such
// steps, so it runs at the per-step ε′ = ε/s, s = max |a − b| over the edges (s = 1 on a path;
// s = n − 1 on a clique, where it is the M1 of Alvim et al. (ICALP 2011) Table 1, α = 2^(−1/5) at
// ε = ln 2). The exponential mechanism e^(−ε d(y,z)/2), rows normalized, uses the graph's own
// shortest-path distance d (on a grid, steps between cells, not the distance between cell
// indices): it is ε·d-private, so ε-DP on the graph at ε itself, and on a path it is the classic
// e^(−ε|y − z|/2). The tight-constraints mechanism is built for
// ε·d, d a metric on the answers (the graph's distance by default, which makes it ε-DP on the
// graph). The smallest ε each matrix actually satisfies on the graph is computed from the matrix
// and shown beside it.

import { reportToJob } from '../engine/client.js';

/** The mechanisms, by key: name, and whether ε is scaled to ε/s. */
export const MECHANISMS = Object.freeze({
  lp: { name: 'Optimal mechanism', scaled: false },
  thm62: { name: 'Theorem 6.2', scaled: false },
  tg: { name: 'Truncated geometric', scaled: true },
  rr: { name: 'Randomized response', scaled: false },
  exp: { name: 'Exponential', scaled: false },
  tc: { name: 'Tight constraints', scaled: false },
});

/** The <qif-mechanism> attribute values and the keys they stand for. */
export const WIDGET_MECHANISMS = Object.freeze({
  optimal: 'lp',
  truncatedGeometric: 'tg',
  randomizedResponse: 'rr',
  exponential: 'exp',
});

/** s = max |a − b| over the edges of the graph, at least 1 (a graph without edges: 1). */
export function edgeSpan(graph) {
  let s = 1;
  for (const [a, b] of graph.edges) s = Math.max(s, Math.abs(a - b));
  return s;
}

/** The per-step ε′ a mechanism runs at on this graph for the privacy level ε. */
export function stepEpsilon(key, epsilon, graph) {
  return MECHANISMS[key].scaled ? epsilon / edgeSpan(graph) : epsilon;
}

/**
 * The engine call that builds mechanism `key` at privacy level ε on `graph` ({n, edges}).
 * lp takes {prior, score, loss, timeLimit, progress} (score: a gain matrix, or a loss matrix with
 * loss; progress: its reports go to the job's onProgress); tc takes `metric`, the distances d on
 * the answers (an array of rows, Infinity allowed), and is built for ε·d; exp takes `distances`,
 * the graph's shortest-path distances (rows or {rows, cols, data}, Infinity between components).
 * The value it returns is read by matrixOf.
 * @returns {{ns: string, fn: string, args: any[]}}
 */
export function mechanismCall(key, { graph, epsilon, prior = null, score = null, loss = false, timeLimit, progress = false, metric = null, distances = null } = {}) {
  const n = graph.n;
  switch (key) {
    case 'thm62': return { ns: 'mechanism', fn: 'optimalDetail', args: [graph, epsilon] };
    case 'tg': return { ns: 'mechanism', fn: 'truncatedGeometric', args: [n, stepEpsilon(key, epsilon, graph)] };
    case 'rr': return { ns: 'mechanism', fn: 'randomizedResponse', args: [n, epsilon] };
    case 'exp': {
      if (!distances) throw new Error('the exponential mechanism needs the graph’s distances');
      return { ns: 'mechanism', fn: 'exponentialMetric', args: [distances, epsilon] };
    }
    case 'tc': {
      if (!metric) throw new Error('the tight-constraints mechanism needs a metric');
      // ε·d, keeping 0 on the diagonal and ∞ where d is ∞.
      return { ns: 'mechanism', fn: 'tightConstraints', args: [metric.map((row) => row.map((d) => (d === 0 ? 0 : epsilon * d)))] };
    }
    case 'lp': {
      const opts = { graph, epsilon };
      if (prior) opts.prior = prior;
      if (score) opts[loss ? 'loss' : 'gain'] = score;
      if (timeLimit !== undefined) opts.timeLimit = timeLimit;
      if (progress) opts.onProgress = reportToJob;
      return { ns: 'mechanism', fn: 'optimalLP', args: [opts] };
    }
    default: throw new Error(`unknown mechanism “${key}”`);
  }
}

/** The matrix H in the value of a mechanismCall (optimalDetail and optimalLP wrap it). */
export function matrixOf(key, value) {
  return key === 'thm62' || key === 'lp' ? value.mechanism : value;
}

/** The call of its utility (binary gain by default) or, with loss, its expected loss. */
export function utilityCall(prior, H, { score = null, loss = false } = {}) {
  if (loss) return { ns: 'mechanism', fn: 'expectedLoss', args: [prior, H, score] };
  return { ns: 'mechanism', fn: 'utility', args: score ? [prior, H, score] : [prior, H] };
}

/** The number a utilityCall returns (expectedLoss returns {loss, guess}). */
export function utilityValue(value, { loss = false } = {}) {
  return loss ? value.loss : value;
}

/** One sentence on how ε′ was chosen (and, for the exponential mechanism, its metric), for the place the mechanism is shown. */
export function scalingText(key, epsilon, graph, format = String) {
  if (key === 'exp') return `ε = ${format(epsilon)} for d(y, z), the graph’s shortest-path distance (each edge is 1), so it is ε-DP on this graph`;
  if (!MECHANISMS[key].scaled) return '';
  const s = edgeSpan(graph);
  const step = stepEpsilon(key, epsilon, graph);
  if (s === 1) return `α = e^(−ε) = ${format(Math.exp(-epsilon))}`;
  return `α = e^(−ε/${s}) = ${format(Math.exp(-step))}: per step ε/${s} = ${format(step)}, so that it is ε-DP on this graph (its edges span up to ${s} steps of 0..n−1)`;
}
