// sections/compare/details.js — the DOM of the verdicts of "Compare two mechanisms": the chain of
// the three orders, the other direction, and each order's witness or counterexample (with the
// counterexample's vulnerabilities recomputed in the page from its gain and prior). Functions
// of what they are given; nothing here computes a verdict.

import { h, replace } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { readingOf, setReading, MATRIX_READINGS } from '../../lib/readings.js';
import { leakGainLabels } from './state.js';
import { DISTANCES } from './distances.js';

const SHOW_MATRIX_UP_TO = 16; // larger witnesses are summarized, not drawn

export const ORDERS = [
  { id: 'avg', sym: '⊑avg', name: 'Average-case', text: 'B is safe in place of A against every adversary with any gain function and prior: B = A·R is a post-processing of A.', fail: 'Some gain function and prior make B leak more than A.' },
  { id: 'max', sym: '⊑max', name: 'Max-case', text: 'B is safe in place of A for every max-case vulnerability: each posterior of B is a mixture of A’s posteriors.', fail: 'A posterior of B lies outside the convex hull of A’s posteriors.' },
  { id: 'prv', sym: '⊑prv', name: 'Privacy', text: 'B is safe in place of A for d-privacy under every metric d: d_B ≤ d_A for every pair of secrets.', fail: 'B distinguishes some pair of secrets more than A does.' },
];

/** A number with its unit; `key` names its reading (lib/readings.js), shown on hover. */
export function num(v, unit, testid, key) {
  const out = h('output', { class: 'value', 'data-testid': testid, 'data-value': String(v), text: formatNumber(v) });
  setReading(out, v, readingOf(key, v));
  return h('span', { class: 'cmp-num' }, out, unit ? h('span', { class: 'unit', text: ` ${unit}` }) : null);
}

// e^d beside a distance d in nats, with its reading.
function expOf(d) {
  const el = h('span', { class: 'unit', text: ` e^d = ${formatNumber(Math.exp(d))}` });
  setReading(el, Math.exp(d), readingOf('cmp.expDistance', Math.exp(d)));
  return el;
}

/**
 * A matrix as a table; `role` (a key of MATRIX_READINGS) says what its entries are, on the
 * table and in each cell's title.
 */
export function matrixTable(M, { rowLabel = (i) => String(i), colLabel = (j) => String(j), corner = '', testid, role } = {}) {
  const reading = MATRIX_READINGS[role] ?? '';
  const rows = M.rows ?? M.length;
  const cols = M.cols ?? (rows ? M[0].length : 0);
  const at = M.data ? (i, j) => M.data[i * cols + j] : (i, j) => M[i][j];
  if (rows > SHOW_MATRIX_UP_TO || cols > SHOW_MATRIX_UP_TO) {
    return h('p', { class: 'muted', 'data-testid': testid, text: `A ${rows}×${cols} matrix (too large to show here).` });
  }
  return h('div', { class: 'table-wrap' }, h('table', { class: 'mini cmp-matrix', 'data-testid': testid, dataset: reading ? { reading } : {} },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'corner', text: corner }), Array.from({ length: cols }, (_, j) => h('th', { scope: 'col', text: colLabel(j) })))),
    h('tbody', {}, Array.from({ length: rows }, (_, i) => h('tr', {},
      h('th', { scope: 'row', text: rowLabel(i) }),
      Array.from({ length: cols }, (_, j) => {
        const v = at(i, j);
        const td = h('td', { class: Math.abs(v) < 1e-12 ? 'zero' : undefined, 'data-value': String(v), text: formatNumber(v) });
        setReading(td, v, reading);
        return td;
      }))))));
}

function head(o, r) {
  const word = !r.ok ? 'error' : r.value.holds ? 'holds' : 'fails';
  return h('h4', {}, `${o.name}: A ${o.sym} B `, h('span', { class: `tag tag-${word}`, text: word }));
}

// check: {A, B}, the settled results of avgCheckPlan (V_g of the counterexample by the measure), or null.
export function renderAvg(el, r, check) {
  el.dataset.status = r.ok ? (r.value.holds ? 'holds' : 'fails') : 'error';
  if (!r.ok) return replace(el, head(ORDERS[0], r), h('p', { class: 'r-msg', text: r.error }));
  const v = r.value;
  if (v.holds) {
    return replace(el, head(ORDERS[0], r),
      h('p', {}, 'Witness: a row-stochastic ', h('var', { text: 'R' }), ' with ', h('var', { text: 'B' }), ' = ', h('var', { text: 'A' }), '·', h('var', { text: 'R' }), ' (rows: outputs of A, columns: outputs of B).'),
      v.witness ? matrixTable(v.witness, { rowLabel: (i) => `y${i}`, colLabel: (j) => `z${j}`, corner: 'R', testid: 'avg-witness', role: 'avgWitness' }) : null,
      Number.isFinite(v.residual) ? h('p', { class: 'muted' }, 'Residual (1/n)·Σ|A·R − B| = ', num(v.residual, '', 'avg-residual', 'cmp.residual')) : null);
  }
  const ce = v.counterexample;
  if (!ce) return replace(el, head(ORDERS[0], r), h('p', { class: 'muted', text: 'No counterexample was returned.' }));
  const G = ce.gain;
  const prior = Array.from(ce.prior);
  // Both sides re-evaluated by the engine's measure (measure.posteriorGVulnerability), an
  // independent path from the refinement test that found the counterexample.
  const vA = check?.A?.ok ? check.A.value : NaN;
  const vB = check?.B?.ok ? check.B.value : NaN;
  const agree = Math.abs(vA - ce.vulnerabilityA) <= 1e-9 * Math.max(1, Math.abs(vA)) && Math.abs(vB - ce.vulnerabilityB) <= 1e-9 * Math.max(1, Math.abs(vB));
  replace(el, head(ORDERS[0], r),
    h('p', {}, 'An adversary with this gain function ', h('var', { text: 'g' }), ' (rows: guesses ', h('var', { text: 'w' }), ', columns: secrets ', h('var', { text: 'x' }), ') and prior ', h('var', { text: 'π' }), ' gains more from B than from A:'),
    matrixTable(G, { rowLabel: (w) => `w${w}`, colLabel: (x) => `x${x}`, corner: 'g', testid: 'avg-gain', role: 'gain' }),
    matrixTable([prior], { rowLabel: () => 'π', colLabel: (x) => `x${x}`, testid: 'avg-prior', role: 'prior' }),
    h('dl', { class: 'cmp-vuln' },
      h('div', {}, h('dt', {}, 'V', h('sub', { text: 'g' }), '[π▷A]'), h('dd', {}, num(ce.vulnerabilityA, 'gain', 'avg-vA', 'cmp.vulnerability'))),
      h('div', { class: 'worse' }, h('dt', {}, 'V', h('sub', { text: 'g' }), '[π▷B]'), h('dd', {}, num(ce.vulnerabilityB, 'gain', 'avg-vB', 'cmp.vulnerability')))),
    h('p', { class: 'cmp-verdict-line' }, 'V', h('sub', { text: 'g' }), '[π▷B] − V', h('sub', { text: 'g' }), '[π▷A] = ', num(ce.vulnerabilityB - ce.vulnerabilityA, 'gain', 'avg-gap', 'cmp.gap'), ' > 0'),
    h('p', { class: agree ? 'muted check-ok' : 'muted check-bad', 'data-testid': 'avg-check', dataset: { ok: String(agree) },
      text: agree ? `✓ Re-evaluated with the measure V_g[π▷C]: V_g[π▷A] = ${formatNumber(vA)}, V_g[π▷B] = ${formatNumber(vB)}.` : `Re-evaluated with the measure V_g[π▷C]: V_g[π▷A] = ${formatNumber(vA)}, V_g[π▷B] = ${formatNumber(vB)} — differs from the refinement test.` }));
}

export function renderMax(el, r) {
  el.dataset.status = r.ok ? (r.value.holds ? 'holds' : 'fails') : 'error';
  if (!r.ok) return replace(el, head(ORDERS[1], r), h('p', { class: 'r-msg', text: r.error }));
  const v = r.value;
  if (v.holds) {
    return replace(el, head(ORDERS[1], r),
      h('p', {}, 'Witness: a row-stochastic ', h('var', { text: 'R' }), ' with B̂ = ', h('var', { text: 'R' }), '·Â — row i holds the convex weights of B’s i-th posterior over A’s posteriors.'),
      v.witness ? matrixTable(v.witness, { rowLabel: (i) => `σB${i}`, colLabel: (j) => `σA${j}`, corner: 'R', testid: 'max-witness', role: 'maxWitness' }) : null);
  }
  const ce = v.counterexample;
  if (!ce) return replace(el, head(ORDERS[1], r), h('p', { class: 'muted', text: 'No counterexample was returned.' }));
  const post = Array.from(ce.posterior);
  replace(el, head(ORDERS[1], r),
    h('p', {}, 'This posterior of B (uniform prior) lies outside the convex hull of A’s posteriors:'),
    matrixTable([post], { rowLabel: () => 'σ', colLabel: (x) => `x${x}`, testid: 'max-posterior', role: 'posterior' }),
    h('p', { class: 'cmp-verdict-line' }, 'Euclidean distance to the hull: ', num(ce.distance, '', 'max-distance', 'cmp.hullDistance')),
    h('p', { class: 'muted', text: 'The max-case vulnerability V(σ) = distance from σ to A’s hull is 0 for every posterior of A and positive here: that adversary prefers B.' }));
}

export function renderPrv(el, r) {
  el.dataset.status = r.ok ? (r.value.holds ? 'holds' : 'fails') : 'error';
  if (!r.ok) return replace(el, head(ORDERS[2], r), h('p', { class: 'r-msg', text: r.error }));
  const v = r.value;
  if (v.holds) {
    return replace(el, head(ORDERS[2], r),
      h('p', {}, 'For every pair of secrets, d', h('sub', { text: 'B' }), '(x, x′) ≤ d', h('sub', { text: 'A' }), '(x, x′): B is d-private for every metric d for which A is.'));
  }
  const ce = v.counterexample;
  if (!ce) return replace(el, head(ORDERS[2], r), h('p', { class: 'muted', text: 'No counterexample was returned.' }));
  replace(el, head(ORDERS[2], r),
    h('p', {}, 'B distinguishes the secrets ', h('b', { 'data-testid': 'prv-pair', text: `x${ce.x} and x${ce.x2}` }), ' more than A does:'),
    h('dl', { class: 'cmp-vuln' },
      h('div', {}, h('dt', {}, `d_A(x${ce.x}, x${ce.x2})`), h('dd', {}, num(ce.dA, 'nats', 'prv-dA', 'cmp.pairDistance'), expOf(ce.dA))),
      h('div', { class: 'worse' }, h('dt', {}, `d_B(x${ce.x}, x${ce.x2})`), h('dd', {}, num(ce.dB, 'nats', 'prv-dB', 'cmp.pairDistance'), expOf(ce.dB)))),
    h('p', { class: 'muted', text: 'A is d_A-private, B is not: d_C(x, x′) = max_y |ln C[x][y] − ln C[x′][y]|.' }));
}

export function renderChain(chainEl, results) {
  replace(chainEl, ORDERS.flatMap((o, k) => {
    const r = results ? results[k] : null;
    const status = !r ? 'pending' : !r.ok ? 'error' : r.value.holds ? 'holds' : 'fails';
    const verdict = status === 'holds' ? '✓ holds' : status === 'fails' ? '✗ fails' : status === 'error' ? 'error' : '…';
    const text = status === 'holds' ? o.text : status === 'fails' ? o.fail : status === 'error' ? r.error : 'Waiting for valid channels.';
    const box = h('div', { class: 'order-box', role: 'listitem', 'data-testid': `verdict-${o.id}`, dataset: { status, holds: status === 'holds' ? 'true' : status === 'fails' ? 'false' : '' } },
      h('div', { class: 'order-head' },
        h('span', { class: 'order-sym' }, 'A ', o.sym, ' B'),
        h('span', { class: 'order-verdict', 'data-testid': `verdict-${o.id}-text`, text: verdict })),
      h('span', { class: 'order-name', text: o.name }),
      h('p', { class: 'order-text', text }));
    return k < ORDERS.length - 1 ? [box, h('span', { class: 'implies', 'aria-hidden': 'true', text: '⇒' })] : [box];
  }));
}

function verdictWord(r) {
  return !r ? '…' : !r.ok ? 'error' : r.value.holds ? 'holds' : 'fails';
}

export function bothWays(f, r) {
  const names = ORDERS.map((o) => o.sym);
  const eq = names.filter((_, k) => f[k] && r[k]);
  const inc = names.filter((_, k) => f[k] === false && r[k] === false);
  const parts = [];
  if (eq.length) parts.push(`equivalent under ${eq.join(', ')}`);
  if (inc.length) parts.push(`incomparable under ${inc.join(', ')}`);
  return parts.length ? `A and B are ${parts.join('; ')}.` : '';
}


/** The other direction, compactly: B ⊑ A for each order, and what both directions say. */
export function renderReverse(reverseEl, forward, reverse) {
  const f = forward.map((r) => (r.ok ? r.value.holds : null));
  const rv = reverse.map((r) => (r.ok ? r.value.holds : null));
  replace(reverseEl,
    h('span', { class: 'cmp-reverse-label', text: 'Other direction, B ⊑ A (is A safe in place of B?):' }),
    ORDERS.map((o, k) => h('span', { class: 'chip', 'data-testid': `reverse-${o.id}`, dataset: { status: verdictWord(reverse[k]), holds: rv[k] === null ? '' : String(rv[k]) }, title: reverse[k].ok ? '' : reverse[k].error },
      `B ${o.sym} A `, h('b', { text: rv[k] === null ? 'error' : rv[k] ? '✓' : '✗' }))),
    h('span', { class: 'muted cmp-both', text: bothWays(f, rv) }));
  reverseEl.dataset.status = 'done';
}


/**
 * "How much more can B leak than A": the supremum of V_g[π▷B] − V_g[π▷A] over gain functions
 * bounded by 1 (refine.additiveMetric), with a gain function attaining it and both sides for
 * that gain. `mA`, `mB` are the numbers of outputs (the guesses are named after them).
 */
export function renderLeak(el, r, { mA, mB, uniform }) {
  const forPrior = uniform ? 'for the uniform prior' : 'for this prior';
  if (!r.ok) {
    el.dataset.status = 'error';
    return replace(el, h('p', { class: 'r-msg', 'data-testid': 'leak-error', text: r.error }));
  }
  const v = r.value;
  el.dataset.status = v.value > 0 ? 'leaks' : 'safe';
  const labels = leakGainLabels(mA, mB);
  if (!(v.value > 0)) {
    return replace(el,
      h('p', { class: 'cmp-verdict-line', 'data-testid': 'leak-sentence' }, 'B can leak no more than A ', forPrior, ', for any gain function bounded by 1: the supremum is ', num(v.value, 'gain', 'leak-value', 'cmp.leak'), '.'),
      h('p', { class: 'muted', text: 'The supremum is 0 exactly when A ⊑avg B for this prior.' }));
  }
  return replace(el,
    h('p', { class: 'cmp-verdict-line', 'data-testid': 'leak-sentence' }, 'B can leak up to ', num(v.value, '', 'leak-value', 'cmp.leak'), ' more than A ', forPrior, ', with this gain function:'),
    matrixTable(v.gain, { rowLabel: (w) => labels[w] ?? `w${w}`, colLabel: (x) => `x${x}`, corner: 'g', testid: 'leak-gain', role: 'gain' }),
    h('p', { class: 'hint', text: 'Rows are the adversary’s guesses: one for each output y of A, one for each output z of B, and w⊥, which gains nothing; columns are the secrets. Every gain is at most 1.' }),
    h('dl', { class: 'cmp-vuln' },
      h('div', {}, h('dt', {}, 'V', h('sub', { text: 'g' }), '[π▷A]'), h('dd', {}, num(v.vulnerabilityA, 'gain', 'leak-vA', 'cmp.vulnerability'))),
      h('div', { class: 'worse' }, h('dt', {}, 'V', h('sub', { text: 'g' }), '[π▷B]'), h('dd', {}, num(v.vulnerabilityB, 'gain', 'leak-vB', 'cmp.vulnerability')))));
}

/**
 * The distances between the output distributions of the secrets x and x′, in A and in B: one
 * row per distance of DISTANCES, a column per channel. `results` maps K to its settled results
 * in DISTANCES order (or null when its metric failed, with `errors[K]`).
 */
export function renderDistances(el, results, { x, x2, errors = {} }) {
  el.dataset.status = 'done';
  const cell = (K, k) => {
    if (!results[K]) return h('td', { class: 'r-msg', text: k === 0 ? errors[K] ?? '' : '' });
    const r = results[K][k];
    if (!r.ok) return h('td', { class: 'r-msg', 'data-testid': `dist-${DISTANCES[k].fn}-${K}`, text: r.error });
    return h('td', {}, num(r.value, '', `dist-${DISTANCES[k].fn}-${K}`, `cmp.${DISTANCES[k].fn}`));
  };
  replace(el, h('div', { class: 'table-wrap' }, h('table', { class: 'mini cmp-dist-table', 'data-testid': 'dist-table' },
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: `between p(·|x${x}) and p(·|x${x2})` }),
      h('th', { scope: 'col', text: 'in A' }), h('th', { scope: 'col', text: 'in B' }), h('th', { scope: 'col', text: 'unit' }))),
    h('tbody', {}, DISTANCES.map((d, k) => h('tr', {},
      h('th', { scope: 'row' }, h('span', { class: 'r-name', text: d.name }), h('span', { class: 'r-formula', text: d.formula })),
      cell('A', k), cell('B', k), h('td', { class: 'unit', text: d.unit })))))));
}
