// sections/infopriv-query.js — the small, pure pieces of the "Information privacy" section:
// record tuples in the API's order, the built-in queries as tables, the noise channels that
// need no computation, input parsing and readable situations. No DOM, no worker.

import { parseEntry, formatNumber, TOLERANCE } from '../numbers.js';

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

/**
 * Parses a number typed in a field with bounds. Returns {value} or {error}.
 * @param {string} text
 * @param {{min?: number, max?: number, minOpen?: boolean, name?: string}} bounds
 */
export function parseBounded(text, { min = -Infinity, max = Infinity, minOpen = false, what = 'value' } = {}) {
  const r = parseEntry(text);
  if ('error' in r) return { error: r.error === 'empty' ? `${what}: required` : `${what}: ${r.error}` };
  const v = r.value;
  if (minOpen ? !(v > min) : v < min) return { error: `${what} must be ${minOpen ? '>' : '≥'} ${min}` };
  if (v > max) return { error: `${what} must be ≤ ${max}` };
  return r;
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
    const s = String(text ?? '').trim();
    if (!/^\d+$/.test(s)) {
      errors.push([k, s === '' ? 'required' : 'a whole number ≥ 0']);
      return;
    }
    const v = Number(s);
    if (v > MAX_ANSWER) errors.push([k, `at most ${MAX_ANSWER}`]);
    else table.push(v);
  });
  return errors.length ? { errors } : { table };
}

/** Parses a prior typed as text entries: {prior} or {errors: [[index|-1, msg]]}. */
export function parsePrior(cells) {
  const prior = [];
  const errors = [];
  cells.forEach((text, k) => {
    const r = parseEntry(text);
    if ('error' in r) errors.push([k, r.error]);
    else if (r.value < 0) errors.push([k, 'negative']);
    else prior.push(r.value);
  });
  if (errors.length) return { errors };
  const sum = prior.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > TOLERANCE) return { errors: [[-1, `the prior sums to ${formatNumber(sum)}, expected 1`]] };
  return { prior };
}
