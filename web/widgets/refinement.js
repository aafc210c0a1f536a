// widgets/refinement.js — <qif-refinement>: the three refinement verdicts of
// docs/mathematics.md#refinement for two channels on the same secrets, with the witness or
// counterexample the API returns.
//
//   <qif-refinement a="[[…]]" b="[[…]]" caption="…" readonly>

import { formatNumber } from '../lib/numbers.js';
import { h, replace } from '../lib/dom.js';
import { readerMessage } from '../lib/row-names.js';
import { COMMON_ATTRIBUTES, fail, flag, parseMatrix } from './attributes.js';
import { QifWidget } from './base.js';
import { matrixGrid } from './matrix-grid.js';

const ORDERS = [
  { key: 'avg', fn: 'avg', name: 'A ⊑avg B', meaning: 'B is a post-processing of A: no prior and gain function lets an adversary gain more from B than from A.' },
  { key: 'max', fn: 'max', name: 'A ⊑max B', meaning: 'every posterior of B lies in the convex hull of A’s posteriors: B is safer for every max-case measure.' },
  { key: 'prv', fn: 'prv', name: 'A ⊑prv B', meaning: 'd_A ≥ d_B pointwise: B is d-private for every metric d for which A is.' },
];

export class QifRefinement extends QifWidget {
  static attributes = {
    a: { key: 'A', read: (text, _cfg, name) => parseMatrix(name, text), default: () => fail('a', 'give channel A, e.g. a="[[1,0],[0,1]]"') },
    b: { key: 'B', read: (text, _cfg, name) => parseMatrix(name, text), default: () => fail('b', 'give channel B, e.g. b="[[0.5,0.5],[0.5,0.5]]"') },
    readonly: flag,
    ...COMMON_ATTRIBUTES,
  };

  defaultTitle() {
    return 'Is B safe in place of A? Refinement A ⊑ B';
  }

  configure(v, each) {
    this.source = 'Chatzikokolakis et al. (CSF 2019) §2–5';
    const { A, B } = v;
    if (A && B && A.texts.length !== B.texts.length) each(() => fail('b', `has ${B.texts.length} rows; A has ${A.texts.length} (both channels take the same secrets)`));
    return { A, B, readonly: v.readonly };
  }

  build(cfg) {
    const edited = () => {
      this.markEdited();
      this.setState('loading');
      this.schedule();
    };
    const rowLabels = cfg.A.texts.map((_, i) => `x${i + 1}`);
    const colsA = cfg.A.texts[0].map((_, j) => `y${j + 1}`);
    const colsB = cfg.B.texts[0].map((_, j) => `z${j + 1}`);
    // Rows and columns named as the grids show them, in the API's messages too.
    this.names = { A: { rows: rowLabels, cols: colsA }, B: { rows: rowLabels, cols: colsB } };
    this.gridA = matrixGrid({ texts: cfg.A.texts, rowLabels, colLabels: colsA, readonly: cfg.readonly, label: 'A', idPrefix: 'a', onInput: edited });
    this.gridB = matrixGrid({ texts: cfg.B.texts, rowLabels, colLabels: colsB, readonly: cfg.readonly, label: 'B', idPrefix: 'b', onInput: edited });
    this.list = h('ul', { class: 'verdicts', 'data-testid': 'verdicts' });
    for (const o of ORDERS) this.list.append(h('li', { class: 'verdict', 'data-testid': `verdict-${o.key}` }, h('span', { class: 'order' }, o.name), h('span', { class: 'badge' }, '…')));
    return h('div', { class: 'w-body' },
      h('div', { class: 'mats' }, this.gridA.view, this.gridB.view),
      this.list);
  }

  async computeNow(job, cfg) {
    let A = cfg.A.values;
    let B = cfg.B.values;
    if (!cfg.readonly) {
      const a = this.gridA.read();
      const b = this.gridB.read();
      const err = a.error || b.error;
      if (err) {
        this.showError(err);
        this.setState('error');
        return null;
      }
      A = a.C;
      B = b.C;
    }
    const results = await job.run(ORDERS.map((o) => ({ ns: 'refine', fn: o.fn, args: [A, B] })));
    const verdicts = {};
    const errors = [];
    ORDERS.forEach((o, i) => {
      const r = results[i];
      const li = this.list.children[i];
      if (!r.ok) {
        li.dataset.holds = 'error';
        replace(li, h('span', { class: 'order' }, o.name), h('span', { class: 'badge' }, '—'));
        errors.push(r);
        return;
      }
      const holds = !!r.value.holds;
      verdicts[o.key] = holds;
      li.dataset.holds = String(holds);
      replace(li,
        h('span', { class: 'order' }, o.name),
        h('span', { class: 'badge', 'data-testid': `holds-${o.key}` }, holds ? 'holds' : 'fails'),
        h('span', { class: 'why' }, explain(o, r.value)));
    });
    this.showError([...new Set(errors.map((m) => readerMessage(m, this.names)))].join(' · '));
    return verdicts;
  }
}

function explain(order, v) {
  if (v.holds) {
    if (order.key === 'avg') return `Yes — ${order.meaning} Witness: B = A·R for a row-stochastic R.`;
    if (order.key === 'max') return `Yes — ${order.meaning}`;
    return `Yes — ${order.meaning}`;
  }
  const c = v.counterexample;
  if (order.key === 'avg' && c && 'vulnerabilityA' in c) {
    return `No — a gain function and prior give V_g[π▷B] = ${formatNumber(c.vulnerabilityB)} > V_g[π▷A] = ${formatNumber(c.vulnerabilityA)}.`;
  }
  if (order.key === 'max' && c && 'distance' in c) {
    return `No — a posterior of B lies at distance ${formatNumber(c.distance)} from the hull of A’s posteriors.`;
  }
  if (order.key === 'prv' && c && 'dA' in c) {
    return `No — for secrets x${c.x + 1}, x${c.x2 + 1}: d_B = ${formatNumber(c.dB)} > d_A = ${formatNumber(c.dA)}.`;
  }
  return 'No.';
}
