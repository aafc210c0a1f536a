// sections/channel/results-view.js — the results column of "Channel & leakage": one card per
// group of measures (lib/measures.js), each value with its formula and unit — and, when the engine's
// exact mode gave one, its exact fraction and the label "exact" —, the capacity's details and
// progress, the capacities with their class of gain functions, the hyper-distribution table
// (exact when it can be) and the estimate of a prior from observed outputs. It shows what it is
// given; what to compute is decided by state.js and the section's pipeline.

import { readingOf } from '../../lib/readings.js';
import { h, replace } from '../../lib/dom.js';
import { formatNumber, formatFull, unitFor, withUnit } from '../../lib/numbers.js';
import { showExact, exactCell, exactNumber, exactTitle } from '../../lib/format.js';
import { MEASURES, GROUPS, GAIN_CLASSES } from '../../lib/measures.js';
import { sourceRefs, plainFormula } from '../../lib/formulas.js';

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

/**
 * The results read most (Shannon, min-entropy, Bayes) are shown first; in their cards the
 * measures read less often are folded, and the other groups fold whole into "More results", so
 * that a first look meets ten numbers, not twenty-five. Settings (α, the capacity's tolerance)
 * sit apart under the results they change. Folded results are still computed and
 * exported.
 */
const PRIMARY_GROUPS = new Set(['shannon', 'renyi', 'bayes']);
const FOLDED_MEASURES = new Set(['conditionalShannonEntropy', 'conditionalMinEntropy', 'conditionalMinEntropyCachin',
  'bayesRisk', 'posteriorBayesRisk', 'additiveBayesLeakage', 'maxCasePosteriorBayesVulnerability']);

const textField = (id, label, value, title) => h('div', { class: 'alpha-row' },
  h('label', { for: id }, label),
  h('input', { id, type: 'text', class: 'num', 'data-testid': id, value, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', title }),
  h('span', { class: 'msg', id: `${id}-msg` }));

export class ResultsView {
  /**
   * @param {HTMLElement} container  the results column
   * @param {{alpha: string, tolerance: string, gainClass: string, observed: string}} s  the state (initial field values)
   */
  constructor(container, s) {
    this.els = new Map(); // measure key → {root, value, msg, badge}
    this.capacityBox = null;
    this.hyperBox = null;
    // The rest of the results, folded: groups read less often, whole.
    this.more = h('details', { class: 'more-results', 'data-testid': 'more-results' },
      h('summary', {}, h('span', { class: 'more-title', text: 'More results' }), h('span', { class: 'hint', text: ` — ${GROUPS.filter((g) => !PRIMARY_GROUPS.has(g.id)).map((g) => g.title.toLowerCase()).join(' · ')} · the prior estimated from observed outputs` })));
    for (const g of GROUPS) {
      const items = Object.entries(MEASURES).filter(([, d]) => d.group === g.id);
      const card = h('section', { class: 'card result-group', 'aria-labelledby': `group-${g.id}`, 'data-testid': `group-${g.id}` },
        h('div', { class: 'card-head' }, h('h3', { id: `group-${g.id}`, text: g.title }), sourceRefs(g.source)));
      if (g.id === 'capacities') {
        this.gainClass = h('select', { id: 'gain-class', 'data-testid': 'gain-class' }, GAIN_CLASSES.map((c) => h('option', { value: c.id, text: `${c.name}: ${c.formula}` })));
        this.gainClass.value = s.gainClass;
        card.append(h('p', { class: 'hint', text: 'The multiplicative capacities are over every prior; the additive g-capacity is for the prior π of the grid, over a class of gain functions (as libqif defines them).' }),
          h('div', { class: 'alpha-row' }, h('label', { for: 'gain-class', text: 'Class 𝒢 of the additive g-capacity' }), this.gainClass));
      }
      const list = h('dl', { class: 'result-list' });
      // In a group shown, the measures read less often are folded under the others.
      const folded = items.filter(([key]) => PRIMARY_GROUPS.has(g.id) && FOLDED_MEASURES.has(key));
      const extra = folded.length ? h('dl', { class: 'result-list' }) : null;
      for (const [key, d] of items) {
        const value = h('output', { class: 'value', 'data-testid': `value-${key}`, id: `value-${key}`, text: '…' });
        const msg = h('div', { class: 'r-msg', 'data-testid': `msg-${key}` });
        const reading = h('div', { class: 'r-reading', 'data-testid': `reading-${key}` });
        const badge = h('span', { class: 'badge badge-exact', 'data-testid': `badge-${key}`, hidden: true, text: 'exact' });
        const unit = h('span', { class: 'unit', 'data-testid': `unit-${key}`, text: d.unit });
        const root = h('div', { class: 'result', 'data-testid': `result-${key}`, dataset: { status: 'pending', key } },
          h('dt', {}, h('span', { class: 'r-name', text: d.name }), h('span', { class: 'r-formula', 'aria-label': d.formula }, plainFormula(d.formula))),
          h('dd', {}, h('span', { class: 'r-value' }, value, ' ', unit), ' ', badge, reading, msg));
        this.els.set(key, { root, value, msg, badge, reading, unit, unitText: d.unit });
        (extra && FOLDED_MEASURES.has(key) ? extra : list).append(root);
      }
      card.append(list);
      if (extra) {
        const fold = h('details', { class: 'result-more', 'data-testid': `more-${g.id}` },
          h('summary', { text: `${folded.length} more: ${folded.map(([, d]) => d.name.toLowerCase()).join(', ')}` }));
        fold.append(extra);
        card.append(fold);
      }
      if (g.id === 'renyi') {
        card.append(h('div', { class: 'result-setting' }, textField('alpha', 'Setting: order α of the Rényi entropy', s.alpha, 'α ≥ 0; 0 gives Hartley entropy, 1 Shannon, ∞ (type inf) min-entropy')));
      }
      if (g.id === 'shannon') {
        this.capacityBox = h('div', { class: 'capacity-detail', 'data-testid': 'capacity-detail' });
        card.append(this.capacityBox);
        // A setting of the computation, not a result: apart, under the results it changes.
        card.append(h('div', { class: 'result-setting' }, textField('capacity-tolerance', 'Setting: capacity tolerance (bits)', s.tolerance, 'Blahut–Arimoto stops once the certified upper bound is within this many bits of the capacity')));
      }
      if (g.id === 'hyper') {
        this.hyperBox = h('div', { class: 'hyper', 'data-testid': 'hyper' });
        this.hyperBadge = h('span', { class: 'badge badge-exact', 'data-testid': 'badge-hyper', hidden: true, text: 'exact' });
        card.querySelector('.card-head h3').append(' ', this.hyperBadge);
        card.append(h('p', { class: 'hint', text: 'Each distinct posterior p(x|y) (an inner) with its probability p(y) (the outer); outputs with equal posteriors are merged and outputs of probability 0 dropped.' }), this.hyperBox);
        this.els.set('hyper', { root: card, value: null, msg: null });
        card.dataset.status = 'pending';
      }
      (PRIMARY_GROUPS.has(g.id) ? container : this.more).append(card);
    }
    this.more.append(this.buildEstimate(s));
    container.append(this.more);
  }

  // The iterative Bayesian update: a prior estimated from observed output frequencies.
  buildEstimate(s) {
    this.observed = h('input', { id: 'observed', type: 'text', class: 'num wide', 'data-testid': 'observed', value: s.observed, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. 30, 50, 20', 'aria-describedby': 'observed-hint' });
    this.estimateBox = h('div', { class: 'estimate', 'data-testid': 'estimate', dataset: { status: 'idle' } });
    return h('section', { class: 'card result-group', 'aria-labelledby': 'estimate-title', 'data-testid': 'group-estimate' },
      h('div', { class: 'card-head' }, h('h3', { id: 'estimate-title', text: 'Estimate the prior from observed outputs' }), sourceRefs('Mathematics §8')),
      h('p', { class: 'hint', id: 'observed-hint' }, 'How often each observable was seen (counts or frequencies, one per column of ', h('var', { text: 'C' }),
        '): the iterative Bayesian update finds the prior that best explains them, as the decoder of local differential privacy does — π′(x) = π(x) Σ_y C(x,y) o(y) / (πC)(y), from the uniform prior.'),
      h('div', { class: 'alpha-row' }, h('label', { for: 'observed', text: 'Observed' }), this.observed, h('span', { class: 'msg', id: 'observed-msg' })),
      this.estimateBox);
  }

  /** The estimate: {ok, value: {prior, iterations, converged}} or an error; `scaled` when counts were given. */
  showEstimate(r, secrets, scaled) {
    const box = this.estimateBox;
    if (!r) {
      box.dataset.status = 'idle';
      replace(box);
      return;
    }
    if (!r.ok) {
      box.dataset.status = 'error';
      replace(box, h('p', { class: 'r-msg', 'data-testid': 'estimate-error', text: r.error }));
      return;
    }
    box.dataset.status = 'ok';
    const { prior, iterations, converged } = r.value;
    const rows = Array.from(prior, (p, i) => h('tr', {}, h('th', { scope: 'row', text: secrets[i] ?? `x${i + 1}` }),
      h('td', { title: formatFull(p), 'data-value': String(p), text: formatNumber(p) })));
    replace(box,
      h('p', { class: 'cap-stats' },
        h('span', {}, 'Iterations: ', h('output', { 'data-testid': 'estimate-iterations', text: String(iterations) })),
        scaled ? h('span', { class: 'muted', text: 'counts scaled to frequencies' }) : null,
        converged === false ? h('span', { class: 'warn-text', text: 'stopped at the iteration limit before converging' }) : null),
      h('table', { class: 'mini', 'data-testid': 'estimate-prior' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'secret' }), h('th', { scope: 'col', text: 'estimated π' }))), h('tbody', {}, rows)),
      h('button', { type: 'button', class: 'small', dataset: { action: 'use-estimate' }, 'data-testid': 'use-estimate', text: 'Use as prior' }));
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
    if (keys.includes('hyper')) this.hyperBadge.hidden = true;
    for (const key of keys) {
      const el = this.els.get(key);
      if (!el) continue;
      if (el.value) {
        delete el.value.dataset.prerendered;
        this.showExactOf(key, null);
        el.value.textContent = 'skipped';
        el.unit.textContent = el.unitText;
        el.value.title = reason;
        delete el.value.dataset.value;
      }
      const msg = el.msg ?? (key === 'hyper' ? this.hyperBox : null);
      if (!msg) continue;
      replace(msg, h('span', { text: `Skipped: ${reason}.` }),
        panel && key === keys[0] ? [' ', h('button', { type: 'button', class: 'small', dataset: { action: 'compute-anyway', panel }, 'data-testid': `compute-${panel}`, text: 'Compute anyway' })] : null);
    }
  }

  /**
   * Shows a settled result of a plain number (capacity and hyper have their own); `exact` is the
   * engine's exact value of it (a fraction string), or null.
   */
  showNumber(key, r, exact = null) {
    const el = this.els.get(key);
    if (!el) return;
    if (el.value) delete el.value.dataset.prerendered;
    if (r.ok) {
      el.root.dataset.status = 'ok';
      el.value.textContent = formatNumber(r.value);
      el.unit.textContent = unitFor(el.unitText, r.value); // "1 bit", "2 bits"
      const reading = readingOf(key, r.value);
      el.value.title = reading ? `${formatFull(r.value)} — ${reading}` : formatFull(r.value);
      el.value.dataset.value = String(r.value);
      el.reading.textContent = reading;
      el.msg.textContent = '';
      this.showExactOf(key, exact);
    } else {
      this.showExactOf(key, null);
      const missing = /not available in this build/.test(r.error);
      el.root.dataset.status = missing ? 'unavailable' : 'error';
      el.value.textContent = missing ? 'n/a' : 'error';
      el.unit.textContent = el.unitText;
      el.value.title = r.error;
      delete el.value.dataset.value;
      el.reading.textContent = '';
      el.msg.textContent = r.error;
    }
  }

  /**
   * A value of the default example computed at build time (first-results.js), shown until the
   * engine's answer replaces it: the same as showNumber, marked data-prerendered.
   */
  showPrerendered(key, value) {
    const el = this.els.get(key);
    if (!el?.value) return;
    this.showNumber(key, { ok: true, value });
    el.value.dataset.prerendered = '';
    el.value.title += ' (computed when the page was built; the engine is recomputing it)';
  }

  /** The exact value of a measure shown (a fraction string from qif.exact), or null to clear it. */
  showExactOf(key, text) {
    const el = this.els.get(key);
    if (!el?.value) return;
    const v = Number(el.value.dataset.value);
    const ok = typeof text === 'string' && el.root.dataset.status === 'ok';
    showExact(el.value, ok ? text : null, v); // "2/7 ≈" before the decimal
    el.badge.hidden = !ok;
    el.badge.title = ok ? exactTitle(text) : '';
    if (ok) el.root.dataset.exact = text;
    else delete el.root.dataset.exact;
  }

  /** A whole panel failed (cancelled, or the worker crashed): its values say so. */
  showFailure(keys, cancelled, message) {
    this.setStatus(keys, cancelled ? 'cancelled' : 'error', cancelled ? 'Cancelled.' : message);
    for (const key of keys) {
      const el = this.els.get(key);
      if (!el?.value) continue;
      delete el.value.dataset.prerendered;
      this.showExactOf(key, null);
      el.value.textContent = cancelled ? '—' : 'error';
      el.unit.textContent = el.unitText;
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
        h('span', { title: `certified upper bound max_x D(C_x ‖ q) = ${formatFull(upperBound)} bits` }, 'Gap to upper bound: ', h('output', { 'data-testid': 'capacity-gap', 'data-value': String(gap), text: withUnit(gap, 'bits') })),
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
      : `Iteration ${it}: capacity between ${formatNumber(lower)} and ${withUnit(upper, 'bits')}`;
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

  /**
   * The hyper-distribution table; `labels[k]` names the outputs of inner k. With `exact` (the
   * engine's exact hyper: outer and inners as fraction strings, the outputs of each inner), the
   * table shows it instead — its entries as "2/7 ≈ 0.2857" — and the card says "exact".
   */
  showHyper(r, { labels, secrets, outputs, exact = null, observables = [] }) {
    const el = this.els.get('hyper');
    const box = this.hyperBox;
    this.hyperBadge.hidden = true;
    if (!r.ok) {
      el.root.dataset.status = /not available/.test(r.error) ? 'unavailable' : 'error';
      replace(box, h('p', { class: 'r-msg', text: r.error }));
      return;
    }
    el.root.dataset.status = 'ok';
    let outer;
    let rows;
    let cols;
    let at;
    let rowLabel;
    let cell;
    if (exact) {
      ({ outer } = exact);
      ({ rows, cols } = exact.inners);
      at = (k, x) => exact.inners.data[k * cols + x];
      rowLabel = (k) => exact.outputs[k].map((y) => observables[y] ?? `y${y + 1}`).join(', ');
      cell = (text, cls) => {
        const v = exactNumber(text);
        return h('td', { class: cls ?? (v === 0 ? 'zero' : undefined), title: `${formatFull(v)} (exactly ${text})`, 'data-value': String(v), 'data-exact': text, text: exactCell(text, v) });
      };
      this.hyperBadge.hidden = false;
    } else {
      outer = r.value.outer;
      ({ rows, cols } = r.value.inners);
      at = (k, x) => r.value.inners.data[k * cols + x];
      rowLabel = (k) => (labels[k]?.length ? labels[k].join(', ') : `inner ${k + 1}`);
      cell = (v, cls) => h('td', { class: cls ?? (v === 0 ? 'zero' : undefined), title: formatFull(v), 'data-value': String(v), text: formatNumber(v) });
    }
    el.root.dataset.exact = exact ? 'true' : 'false';
    const whole = rows <= MAX_HYPER_ROWS && cols <= MAX_HYPER_COLS;
    const visible = whole ? rows : Math.min(rows, LARGE_HYPER_ROWS);
    const shownCols = whole ? cols : Math.min(cols, LARGE_HYPER_COLS);
    const head = h('tr', {}, h('th', { scope: 'col', text: 'outputs y' }), h('th', { scope: 'col', class: 'outer', text: 'outer p(y)' }),
      Array.from({ length: shownCols }, (_, x) => h('th', { scope: 'col', text: `p(${secrets[x] ?? x + 1}|y)` })));
    const body = [];
    for (let k = 0; k < visible; k++) {
      body.push(h('tr', { 'data-testid': `hyper-row-${k}` },
        h('th', { scope: 'row', text: rowLabel(k) }),
        cell(outer[k], 'outer'),
        Array.from({ length: shownCols }, (_, x) => cell(at(k, x)))));
    }
    replace(box,
      h('p', { class: 'muted', 'data-testid': 'hyper-summary', text: `${rows} distinct posterior${rows === 1 ? '' : 's'} from ${outputs} output${outputs === 1 ? '' : 's'}.` }),
      h('div', { class: 'table-wrap' }, h('table', { class: 'mini hyper-table', 'data-testid': 'hyper-table' }, h('thead', {}, head), h('tbody', {}, body))),
      rows > visible || cols > shownCols
        ? h('p', { class: 'muted', 'data-testid': 'hyper-more', text: `Shown: ${visible.toLocaleString('en')} of ${rows.toLocaleString('en')} posteriors and ${shownCols.toLocaleString('en')} of ${cols.toLocaleString('en')} secrets; Export gives the whole table.` })
        : null);
  }
}
