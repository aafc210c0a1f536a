// sections/channel/results-view.js — the results column of "Channel & leakage": one card per
// group of measures (measures.js), each value with its formula and unit, the capacity's details
// and progress, and the hyper-distribution table. It shows what it is given; what to compute is
// decided by state.js and the section's pipeline.

import { h, replace } from '../../dom.js';
import { formatNumber, formatFull } from '../../numbers.js';
import { showExact, exactCell } from '../../format.js';
import { MEASURES, GROUPS } from '../../measures.js';
import { sourceRefs, plainFormula } from '../../formulas.js';

/**
 * A hyper-distribution of up to 64 posteriors on up to 24 secrets is shown whole; a larger one
 * as its first 32 posteriors on its first 12 secrets (a table of 1,536 cells is already a
 * quarter of a second of the page's thread on a slow machine). Its export holds it all.
 */
const MAX_HYPER_ROWS = 64;
const MAX_HYPER_COLS = 24;
const LARGE_HYPER_ROWS = 32;
const LARGE_HYPER_COLS = 12;
/** Secrets listed in the capacity-achieving prior (its export, and "Use as prior", hold all). */
const MAX_PRIOR_ROWS = 64;

const textField = (id, label, value, title) => h('div', { class: 'alpha-row' },
  h('label', { for: id }, label),
  h('input', { id, type: 'text', class: 'num', 'data-testid': id, value, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', title }),
  h('span', { class: 'msg', id: `${id}-msg` }));

export class ResultsView {
  /**
   * @param {HTMLElement} container  the results column
   * @param {{alpha: string, tolerance: string}} s  the state (initial field values)
   */
  constructor(container, s) {
    this.els = new Map(); // measure key → {root, value, msg}
    this.capacityBox = null;
    this.hyperBox = null;
    for (const g of GROUPS) {
      const items = Object.entries(MEASURES).filter(([, d]) => d.group === g.id);
      const card = h('section', { class: 'card result-group', 'aria-labelledby': `group-${g.id}`, 'data-testid': `group-${g.id}` },
        h('div', { class: 'card-head' }, h('h3', { id: `group-${g.id}`, text: g.title }), sourceRefs(g.source)));
      if (g.id === 'renyi') card.append(textField('alpha', 'Order α of the Rényi entropy', s.alpha, 'α ≥ 0; 0 gives Hartley entropy, 1 Shannon, ∞ (type inf) min-entropy'));
      const list = h('dl', { class: 'result-list' });
      for (const [key, d] of items) {
        const value = h('output', { class: 'value', 'data-testid': `value-${key}`, id: `value-${key}`, text: '…' });
        const msg = h('div', { class: 'r-msg', 'data-testid': `msg-${key}` });
        const root = h('div', { class: 'result', 'data-testid': `result-${key}`, dataset: { status: 'pending', key } },
          h('dt', {}, h('span', { class: 'r-name', text: d.name }), h('span', { class: 'r-formula', 'aria-label': d.formula }, plainFormula(d.formula))),
          h('dd', {}, h('span', { class: 'r-value' }, value, ' ', h('span', { class: 'unit', text: d.unit })), msg));
        this.els.set(key, { root, value, msg });
        list.append(root);
      }
      card.append(list);
      if (g.id === 'shannon') {
        card.append(textField('capacity-tolerance', 'Capacity tolerance (bits)', s.tolerance, 'Blahut–Arimoto stops once the certified upper bound is within this many bits of the capacity'));
        this.capacityBox = h('div', { class: 'capacity-detail', 'data-testid': 'capacity-detail' });
        card.append(this.capacityBox);
      }
      if (g.id === 'hyper') {
        this.hyperBox = h('div', { class: 'hyper', 'data-testid': 'hyper' });
        card.append(h('p', { class: 'hint', text: 'Each distinct posterior p(x|y) (an inner) with its probability p(y) (the outer); outputs with equal posteriors are merged and outputs of probability 0 dropped.' }), this.hyperBox);
        this.els.set('hyper', { root: card, value: null, msg: null });
        card.dataset.status = 'pending';
      }
      container.append(card);
    }
  }

  /** Sets the status ('pending', 'stale', 'cancelled', …) of the measures `keys`, with a note. */
  setStatus(keys, status, note) {
    for (const key of keys) {
      const el = this.els.get(key);
      if (!el) continue;
      el.root.dataset.status = status;
      if (el.msg && note !== undefined) el.msg.textContent = note;
    }
    if (keys.includes('shannonCapacity')) this.capacityBox.dataset.status = status;
  }

  status(key) {
    return this.els.get(key)?.root.dataset.status;
  }

  /**
   * Measures not computed at this size, with the reason; `panel` names the panel a "Compute
   * anyway" button starts (null when there is nothing to start).
   */
  showSkipped(keys, reason, panel) {
    this.setStatus(keys, 'skipped', null);
    for (const key of keys) {
      const el = this.els.get(key);
      if (!el) continue;
      if (el.value) {
        el.value.textContent = 'skipped';
        el.value.title = reason;
        delete el.value.dataset.value;
        showExact(el.value, null);
      }
      const msg = el.msg ?? (key === 'hyper' ? this.hyperBox : null);
      if (!msg) continue;
      replace(msg, h('span', { text: `Skipped: ${reason}.` }),
        panel && key === keys[0] ? [' ', h('button', { type: 'button', class: 'small', dataset: { action: 'compute-anyway', panel }, 'data-testid': `compute-${panel}`, text: 'Compute anyway' })] : null);
    }
  }

  /** Shows a settled result of a plain number (capacity and hyper have their own). */
  showNumber(key, r, exact) {
    const el = this.els.get(key);
    if (!el) return;
    if (r.ok) {
      el.root.dataset.status = 'ok';
      el.value.textContent = formatNumber(r.value);
      el.value.title = formatFull(r.value);
      el.value.dataset.value = String(r.value);
      el.msg.textContent = '';
      showExact(el.value, exact, r.value); // "2/7 ≈" before the decimal when the inputs are simple fractions
    } else {
      showExact(el.value, null);
      const missing = /not available in this build/.test(r.error);
      el.root.dataset.status = missing ? 'unavailable' : 'error';
      el.value.textContent = missing ? 'n/a' : 'error';
      el.value.title = r.error;
      delete el.value.dataset.value;
      el.msg.textContent = r.error;
    }
  }

  /** A whole panel failed (cancelled, or the worker crashed): its values say so. */
  showFailure(keys, cancelled, message) {
    this.setStatus(keys, cancelled ? 'cancelled' : 'error', cancelled ? 'Cancelled.' : message);
    for (const key of keys) {
      const el = this.els.get(key);
      if (!el?.value) continue;
      el.value.textContent = cancelled ? '—' : 'error';
      el.value.title = message;
      delete el.value.dataset.value;
    }
    if (keys.includes('shannonCapacity')) {
      replace(this.capacityBox, cancelled
        ? h('p', { class: 'cap-stats' }, 'The capacity computation was cancelled. ',
          h('button', { type: 'button', class: 'small', dataset: { action: 'recompute-capacity' }, 'data-testid': 'capacity-recompute', text: 'Compute again' }))
        : null);
    }
  }

  /** The capacity's details: iterations, certified gap, the capacity-achieving prior. */
  showCapacity(r, secrets) {
    const box = this.capacityBox;
    box.dataset.status = r.ok ? 'ok' : 'error';
    this.showNumber('shannonCapacity', r.ok ? { ok: true, value: r.value.capacity } : r);
    if (!r.ok) {
      replace(box);
      return;
    }
    const { capacity, prior, iterations, upperBound, converged } = r.value;
    const gap = upperBound - capacity;
    const listed = Math.min(prior.length, MAX_PRIOR_ROWS);
    const rows = Array.from({ length: listed }, (_, i) => h('tr', {}, h('th', { scope: 'row', text: secrets[i] ?? `x${i + 1}` }), h('td', { title: formatFull(prior[i]), text: formatNumber(prior[i]) })));
    if (prior.length > listed) rows.push(h('tr', {}, h('td', { colspan: '2', class: 'muted', text: `… and ${(prior.length - listed).toLocaleString('en')} more secrets` })));
    replace(box,
      h('p', { class: 'cap-stats' },
        h('span', {}, 'Iterations: ', h('output', { 'data-testid': 'capacity-iterations', text: String(iterations) })),
        h('span', { title: `certified upper bound max_x D(C_x ‖ q) = ${formatFull(upperBound)} bits` }, 'Gap to upper bound: ', h('output', { 'data-testid': 'capacity-gap', 'data-value': String(gap), text: `${formatNumber(gap)} bits` })),
        converged === false ? h('span', { class: 'warn-text', text: 'stopped at the iteration limit before reaching the tolerance' }) : null),
      h('details', {},
        h('summary', {}, 'Capacity-achieving prior'),
        h('table', { class: 'mini', 'data-testid': 'capacity-prior' }, h('tbody', {}, rows)),
        h('button', { type: 'button', class: 'small', dataset: { action: 'use-capacity-prior' }, text: 'Use as prior' })));
  }

  /**
   * Shown while Blahut–Arimoto runs past the pipeline's delay: the bounds it has reached
   * (reports are [iteration, lower, upper] in bits) and a way to stop it.
   */
  showCapacityProgress(data) {
    const [it, lower, upper] = Array.isArray(data) ? data : [];
    const text = it === undefined ? 'Computing the capacity…'
      : `Iteration ${it}: capacity between ${formatNumber(lower)} and ${formatNumber(upper)} bits`;
    const line = this.capacityBox.querySelector('[data-testid="capacity-progress-text"]');
    if (line) {
      line.textContent = text;
      return;
    }
    replace(this.capacityBox, h('p', { class: 'cap-stats progress', 'data-testid': 'capacity-progress', role: 'status' },
      // The button comes first so that it stays put while the text changes.
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-capacity' }, 'data-testid': 'capacity-cancel', text: 'Cancel' }),
      h('span', { 'data-testid': 'capacity-progress-text', text })));
  }

  /** The hyper-distribution table; `labels[k]` names the outputs of inner k. */
  showHyper(r, { labels, secrets, outputs, exact }) {
    const el = this.els.get('hyper');
    const box = this.hyperBox;
    if (!r.ok) {
      el.root.dataset.status = /not available/.test(r.error) ? 'unavailable' : 'error';
      replace(box, h('p', { class: 'r-msg', text: r.error }));
      return;
    }
    el.root.dataset.status = 'ok';
    const { outer, inners } = r.value;
    const whole = inners.rows <= MAX_HYPER_ROWS && inners.cols <= MAX_HYPER_COLS;
    const visible = whole ? inners.rows : Math.min(inners.rows, LARGE_HYPER_ROWS);
    const cols = whole ? inners.cols : Math.min(inners.cols, LARGE_HYPER_COLS);
    const head = h('tr', {}, h('th', { scope: 'col', text: 'outputs y' }), h('th', { scope: 'col', class: 'outer', text: 'outer p(y)' }),
      Array.from({ length: cols }, (_, x) => h('th', { scope: 'col', text: `p(${secrets[x] ?? x + 1}|y)` })));
    const body = [];
    for (let k = 0; k < visible; k++) {
      body.push(h('tr', { 'data-testid': `hyper-row-${k}` },
        h('th', { scope: 'row', text: labels[k]?.length ? labels[k].join(', ') : `inner ${k + 1}` }),
        h('td', { class: 'outer', title: formatFull(outer[k]), 'data-value': String(outer[k]), text: exactCell(outer[k], exact) }),
        Array.from({ length: cols }, (_, x) => {
          const v = inners.data[k * inners.cols + x];
          return h('td', { class: v === 0 ? 'zero' : undefined, title: formatFull(v), 'data-value': String(v), text: exactCell(v, exact) });
        })));
    }
    replace(box,
      h('p', { class: 'muted', 'data-testid': 'hyper-summary', text: `${inners.rows} distinct posterior${inners.rows === 1 ? '' : 's'} from ${outputs} output${outputs === 1 ? '' : 's'}.` }),
      h('div', { class: 'table-wrap' }, h('table', { class: 'mini hyper-table', 'data-testid': 'hyper-table' }, h('thead', {}, head), h('tbody', {}, body))),
      inners.rows > visible || inners.cols > cols
        ? h('p', { class: 'muted', 'data-testid': 'hyper-more', text: `Shown: ${visible.toLocaleString('en')} of ${inners.rows.toLocaleString('en')} posteriors and ${cols.toLocaleString('en')} of ${inners.cols.toLocaleString('en')} secrets; Export gives the whole table.` })
        : null);
  }
}
