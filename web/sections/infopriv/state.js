// sections/infopriv/state.js — the "Information privacy" section as data: record tuples in the
// engine's order, the built-in queries as tables, the noise channels that need no computation,
// reading the inputs with the page's one grammar (input/), the engine calls of each stage, and
// the state of a shared link. Pure: tests/node/sections.test.mjs runs it in Node.

import { parseNumber, parseInteger, parseBounded } from '../../input/number.js';
import { formatNumber, TOLERANCE } from '../../lib/numbers.js';
import { reportToJob } from '../../engine/client.js';

export { parseBounded };

export const MIN_RECORDS = 2;
export const MAX_RECORDS = 6;
export const MIN_VALUES = 2;
export const MAX_VALUES = 4;
/** Custom query tables are edited cell by cell up to this many tuples. */
export const MAX_CUSTOM_TUPLES = 64;
/** Largest answer index a custom table may use (answers 0..MAX_ANSWER). */
export const MAX_ANSWER = 31;

/** The built-in queries: name, the answer of a tuple, and the number of answers. */
export const QUERIES = {
  count: {
    label: 'Count of records with value ≥ 1',
    answer: (t) => t.filter((v) => v >= 1).length,
    answers: (d) => d.length + 1,
  },
  sum: {
    label: 'Sum of the values',
    answer: (t) => t.reduce((a, b) => a + b, 0),
    answers: (d) => d.reduce((a, b) => a + b - 1, 0) + 1,
  },
  max: {
    label: 'Maximum value',
    answer: (t) => Math.max(...t),
    answers: (d) => Math.max(...d),
  },
  min: {
    label: 'Minimum value',
    answer: (t) => Math.min(...t),
    answers: (d) => Math.min(...d),
  },
};

export const NOISES = {
  rr: { label: 'Randomized response (ε)', param: 'epsilon' },
  geometric: { label: 'Truncated geometric (ε)', param: 'epsilon' },
  bsc: { label: 'Binary symmetric (flip p) — two answers only', param: 'p' },
  none: { label: 'None (the exact answer)', param: null },
};

/** Number of tuples Π d_i. */
export function tupleCount(domains) {
  return domains.reduce((a, b) => a * b, 1);
}

/** Values of the records in tuple row `index` (lexicographic, record 0 most significant). */
export function tupleAt(domains, index) {
  const t = new Array(domains.length);
  for (let i = domains.length - 1; i >= 0; i--) {
    t[i] = index % domains[i];
    index = Math.floor(index / domains[i]);
  }
  return t;
}

/** Every tuple, in row order of the tuple channel. */
export function allTuples(domains) {
  const n = tupleCount(domains);
  return Array.from({ length: n }, (_, k) => tupleAt(domains, k));
}

/** The query table (answer index per tuple) of a built-in query. */
export function builtinTable(query, domains) {
  const q = QUERIES[query];
  return allTuples(domains).map((t) => q.answer(t));
}

/** Readable tuple: "(0, 1, 0)". */
export function tupleText(t) {
  return `(${t.join(', ')})`;
}

/**
 * The situation of a sub-channel as a tuple with the individual's place marked:
 * individual 1, others [0, 2] → "(0, ∗, 2)". `others` lists the other records in increasing
 * order, as the API returns them.
 */
export function situationText(individual, others) {
  const t = [];
  let k = 0;
  for (let i = 0; i < others.length + 1; i++) t.push(i === individual ? '∗' : String(others[k++]));
  return `(${t.join(', ')})`;
}

/** The n×n identity (the noise "none"). */
export function identity(n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
}

/** The binary symmetric channel with flip probability p. */
export function binarySymmetric(p) {
  return [[1 - p, p], [p, 1 - p]];
}

/** Parses δ ∈ [0, 1]. */
export function parseDelta(text) {
  return parseBounded(text, { min: 0, max: 1, what: 'δ' });
}

/** Parses a custom table: non-negative integers ≤ MAX_ANSWER. Returns {table} or {errors: [[row, msg]]}. */
export function parseTable(cells) {
  const table = [];
  const errors = [];
  cells.forEach((text, k) => {
    const r = parseInteger(text, { min: 0, max: MAX_ANSWER });
    if ('error' in r) errors.push([k, /required/.test(r.error) ? 'required' : /at most/.test(r.error) ? `at most ${MAX_ANSWER}` : 'a whole number ≥ 0']);
    else table.push(r.value);
  });
  return errors.length ? { errors } : { table };
}

/** Parses a prior typed as text entries: {prior} or {errors: [[index|-1, msg]]}. */
export function parsePrior(cells) {
  const prior = [];
  const errors = [];
  cells.forEach((text, k) => {
    const r = parseNumber(text);
    if ('error' in r) errors.push([k, r.error]);
    else if (r.value < 0) errors.push([k, 'negative']);
    else prior.push(r.value);
  });
  if (errors.length) return { errors };
  const sum = prior.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > TOLERANCE) return { errors: [[-1, `the prior sums to ${formatNumber(sum)}, expected 1`]] };
  return { prior };
}

// ---------------------------------------------------------------- the state

export const DEFAULTS = Object.freeze({
  domains: [2, 2, 2],
  query: 'count',
  custom: null,
  noise: 'rr',
  epsilon: '1',
  p: '0.25',
  delta: '0.1',
  situation: 'capacity',
  individual: 0,
  others: [0, 0],
  prior: null,
});

export function createState() {
  return structuredClone(DEFAULTS);
}

/** What a shared link keeps of the state (`channels` is the privacy-channels card's own). */
export function stateForURL(s, channels) {
  const out = {
    domains: s.domains.slice(), query: s.query, noise: s.noise,
    epsilon: s.epsilon, p: s.p, delta: s.delta,
    situation: s.situation, channels,
  };
  if (s.query === 'custom') out.custom = s.custom.slice();
  if (s.situation === 'custom') { out.individual = s.individual; out.others = s.others.slice(); }
  if (s.prior) out.prior = s.prior.slice();
  return out;
}

/** A clean state from an untrusted one: anything malformed falls back to DEFAULTS. */
export function sanitizeState(s = {}) {
  const next = createState();
  if (!s || typeof s !== 'object') return next;
  if (Array.isArray(s.domains) && s.domains.length >= MIN_RECORDS && s.domains.length <= MAX_RECORDS
    && s.domains.every((d) => Number.isInteger(d) && d >= MIN_VALUES && d <= MAX_VALUES)) next.domains = s.domains.slice();
  if (typeof s.query === 'string' && (s.query in QUERIES || s.query === 'custom')) next.query = s.query;
  const n = tupleCount(next.domains);
  if (next.query === 'custom') {
    if (n > MAX_CUSTOM_TUPLES) next.query = 'count';
    else next.custom = Array.isArray(s.custom) && s.custom.length === n ? s.custom.map((x) => String(x)) : builtinTable('count', next.domains).map(String);
  }
  if (typeof s.noise === 'string' && s.noise in NOISES) next.noise = s.noise;
  for (const k of ['epsilon', 'p', 'delta']) if (typeof s[k] === 'string' || typeof s[k] === 'number') next[k] = String(s[k]);
  if (['capacity', 'epsilon', 'custom'].includes(s.situation)) next.situation = s.situation;
  if (Number.isInteger(s.individual)) next.individual = s.individual;
  if (Array.isArray(s.others)) next.others = s.others.map((x) => (Number.isInteger(x) && x >= 0 ? x : 0));
  if (Array.isArray(s.prior)) next.prior = s.prior.map((x) => String(x));
  return next;
}

/** The number of records changed (or their values): a custom table restarts from the count. */
export function structureChanged(s) {
  if (s.query === 'custom') s.custom = builtinTable('count', s.domains).map(String);
  s.prior = null;
}

// ---------------------------------------------------------------- reading the inputs

/**
 * The query and noise the inputs describe, with what to show beside the inputs:
 * {spec, info, tableErrors, epsError, pError, noiseError} where spec is null when something
 * is invalid. tableErrors lists [tuple row, message] of a custom table.
 */
export function readSpec(s) {
  const domains = s.domains.slice();
  const out = { spec: null, info: '', table: null, tableErrors: [], tableMessage: '', epsError: null, pError: null, noiseError: null, epsilon: null };
  let table = null;
  if (s.query === 'custom') {
    const r = parseTable(s.custom);
    if (r.errors) {
      out.tableErrors = r.errors;
      const [k, msg] = r.errors[0];
      out.tableMessage = `Tuple ${tupleText(allTuples(domains)[k])}: ${msg}` + (r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : '');
    } else table = r.table;
  } else table = builtinTable(s.query, domains);
  const m = table ? Math.max(...table) + 1 : null;
  const n = tupleCount(domains);
  out.info = m === null ? `${n} tuples.` : `${n} tuples → ${m} answer${m === 1 ? '' : 's'} (0 … ${m - 1}); ${domains.length} individuals.`;
  out.m = m;
  const param = NOISES[s.noise].param;
  let p = null;
  if (param === 'epsilon') {
    const r = parseBounded(s.epsilon, { min: 0, minOpen: true, max: 50, what: 'ε' });
    if ('error' in r) out.epsError = r.error; else out.epsilon = r.value;
  } else if (param === 'p') {
    const r = parseBounded(s.p, { min: 0, max: 1, what: 'p' });
    if ('error' in r) out.pError = r.error; else p = r.value;
    if (m !== null && m !== 2) out.noiseError = `The binary symmetric channel needs exactly 2 answers; this query has ${m}.`;
  }
  if (!table || out.epsError || out.pError || out.noiseError) return out;
  let noise = null;
  if (m === 1) noise = [[1]];
  else if (s.noise === 'none') noise = identity(m);
  else if (s.noise === 'bsc') noise = binarySymmetric(p);
  out.spec = { domains, table, m, noiseKind: s.noise, epsilon: out.epsilon, noise, tuples: n };
  return out;
}

// ---------------------------------------------------------------- call plans

/** The call that builds the noise channel, or null when it needs none (given, or m = 1). */
export function noiseCall(spec) {
  if (spec.noise) return null;
  return { ns: 'mechanism', fn: spec.noiseKind === 'rr' ? 'randomizedResponse' : 'truncatedGeometric', args: [spec.m, spec.epsilon] };
}

/** The tuple channel, and the record graph unless the one of these domains is known. */
export function channelPlan(spec, noise, graphKnown) {
  const calls = [{ ns: 'infoPrivacy', fn: 'queryChannel', args: [{ domains: spec.domains, table: spec.table, noise }] }];
  if (!graphKnown) calls.push({ ns: 'infoPrivacy', fn: 'recordGraph', args: [spec.domains] });
  return calls;
}

/** The long job: ε, the individual capacity (with progress), δ(ε) and ε for δ when δ is valid. */
export function heavyPlan({ domains, C, graph }, delta, points) {
  const calls = [
    { ns: 'infoPrivacy', fn: 'individualEpsilon', args: [{ domains, channel: C }] },
    { ns: 'infoPrivacy', fn: 'individualCapacity', args: [{ domains, channel: C, onProgress: reportToJob }] },
    { ns: 'infoPrivacy', fn: 'deltaCurve', args: [C, graph, { points }] },
  ];
  if (delta !== null) calls.push({ ns: 'infoPrivacy', fn: 'epsilonForDelta', args: [C, graph, delta] });
  return calls;
}

/**
 * The sub-channel the Bayesian panel shows: the worst for capacity or for ε (once known), or
 * the record and the values of the others chosen by hand (clamped to the domains).
 */
export function situation(s, cur) {
  const n = s.domains.length;
  if (s.situation === 'capacity' && cur?.cap) return { individual: cur.cap.individual, others: cur.cap.others.slice() };
  if (s.situation !== 'custom' && cur?.eps) return { individual: cur.eps.individual, others: cur.eps.others.slice() };
  const i = Math.min(s.individual, n - 1);
  const others = [];
  for (let j = 0, k = 0; j < n; j++) {
    if (j === i) continue;
    others.push(Math.min(s.others[k++] ?? 0, s.domains[j] - 1));
  }
  return { individual: i, others };
}
