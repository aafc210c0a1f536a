// sections/channel/order.js — reordering the channel's rows (secrets) and columns (observables):
// sorting them by label or by value, and moving one to another place (the grid's drag and drop
// and Alt+arrow keys). A program's channel comes in the order of its semantics (docs/
// program-language.md#semantics); a reader often wants it by label, or its likeliest outputs
// first. The measures do not depend on the order: a permutation of rows carries the prior and
// the gain's columns along, one of columns only the channel's. Pure (no DOM): tests/node runs it.

import { parseNumber } from '../../input/number.js';

/** Labels in the order people expect: numbers inside them compared as numbers ("x2" < "x10"). */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
export const compareLabels = (a, b) => collator.compare(String(a), String(b));

const valueOf = (text) => {
  const r = parseNumber(String(text));
  return 'value' in r ? r.value : NaN;
};

/** Sorts indices 0..n−1 by key (NaN last), stably; `desc` for largest first. */
function orderBy(n, key, desc) {
  const idx = Array.from({ length: n }, (_, i) => i);
  const k = idx.map(key);
  return idx.sort((a, b) => {
    const x = k[a];
    const y = k[b];
    if (typeof x === 'string') return desc ? compareLabels(y, x) : compareLabels(x, y);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) - Number.isNaN(y);
    return desc ? y - x : x - y;
  });
}

/** The prior's values (the uniform prior when it is). */
function priorValues(s) {
  const n = s.secrets.length;
  return s.priorUniform ? new Array(n).fill(1 / n) : s.prior.map(valueOf);
}

/**
 * An order of the rows: order[k] is the old index of the row shown at k. `by`: 'label' (A to
 * Z, numbers as numbers), 'label-desc', 'prior' (largest first), 'reverse'.
 */
export function rowOrder(s, by) {
  const n = s.secrets.length;
  if (by === 'reverse') return Array.from({ length: n }, (_, i) => n - 1 - i);
  if (by === 'prior') {
    const p = priorValues(s);
    return orderBy(n, (i) => p[i], true);
  }
  return orderBy(n, (i) => s.secrets[i], by === 'label-desc');
}

/**
 * The probability of each observable, Σ_x π(x) C(x, y) (NaN where an entry is not a number).
 */
export function outputProbabilities(s) {
  const p = priorValues(s);
  const m = s.observables.length;
  const out = new Array(m).fill(0);
  for (let i = 0; i < s.secrets.length; i++) for (let j = 0; j < m; j++) out[j] += p[i] * s.cells.value(i, j);
  return out;
}

/**
 * An order of the columns: 'label', 'label-desc', 'probability' (the likeliest observable
 * first: Σ_x π(x) C(x, y)), 'reverse'.
 */
export function colOrder(s, by) {
  const m = s.observables.length;
  if (by === 'reverse') return Array.from({ length: m }, (_, j) => m - 1 - j);
  if (by === 'probability') {
    const q = outputProbabilities(s);
    return orderBy(m, (j) => q[j], true);
  }
  return orderBy(m, (j) => s.observables[j], by === 'label-desc');
}

const isIdentityOrder = (order) => order.every((v, k) => v === k);

/** Rows in the order given (order[k] = old index): labels, entries, prior and the gain's columns. */
export function permuteRows(s, order) {
  if (order.length !== s.secrets.length || isIdentityOrder(order)) return false;
  const at = new Array(order.length);
  order.forEach((old, k) => { at[old] = k; });
  s.secrets = order.map((i) => s.secrets[i]);
  s.cells.reshape(s.cells.rows, s.cells.cols, (i) => at[i], (j) => j);
  if (!s.priorUniform) s.prior = order.map((i) => s.prior[i]);
  if (s.gainIdentity) {
    if (s.gainLabels) s.gainLabels = s.secrets.slice(); // the identity's guesses are the secrets
  } else if (s.gain) {
    s.gain = s.gain.map((row) => order.map((i) => row[i]));
  }
  return true;
}

/** Columns in the order given (order[k] = old index): labels and entries. */
export function permuteCols(s, order) {
  if (order.length !== s.observables.length || isIdentityOrder(order)) return false;
  const at = new Array(order.length);
  order.forEach((old, k) => { at[old] = k; });
  s.observables = order.map((j) => s.observables[j]);
  s.cells.reshape(s.cells.rows, s.cells.cols, (i) => i, (j) => at[j]);
  return true;
}

/** The order that moves item `from` to position `to` (the others keep their order). */
export function moveOrder(n, from, to) {
  const order = Array.from({ length: n }, (_, i) => i);
  if (from < 0 || from >= n || to < 0 || to >= n) return order;
  order.splice(from, 1);
  order.splice(to, 0, from);
  return order;
}
