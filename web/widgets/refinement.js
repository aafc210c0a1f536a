// widgets/refinement.js — <qif-refinement>: the three refinement verdicts of
// docs/mathematics.md#refinement for two channels on the same secrets, with the witness or
// counterexample the API returns drawn: the post-processing R with A·R = B when A ⊑avg B, else
// the gain function g and prior π under which B is more vulnerable than A, with both
// vulnerabilities. Presets are the literature's teaching pairs (lib/refinement-presets.js).
//
//   <qif-refinement a="[[…]]" b="[[…]]" preset="id" row-labels="…" a-col-labels="…"
//                   b-col-labels="…" caption="…" readonly>

import { formatNumber, formatFull } from '../lib/numbers.js';
import { guessFraction } from '../lib/fraction-guess.js';
import { onceEach } from '../lib/row-names.js';
import { h, replace } from '../lib/dom.js';
import { refinementPresets, refinementPresetById } from '../lib/refinement-presets.js';
import { parseNumber as readNumber } from '../input/number.js';
import { COMMON_ATTRIBUTES, fail, flag, short, parseMatrix, parseLabelList, partsAttributes, partsShown } from './attributes.js';
import { QifWidget, toRowsOf } from './base.js';
import { matrixGrid } from './matrix-grid.js';

const ORDERS = [
  { key: 'avg', fn: 'avg', name: 'A ⊑avg B', meaning: 'B is a post-processing of A: no prior and gain function lets an adversary gain more from B than from A.' },
  { key: 'max', fn: 'max', name: 'A ⊑max B', meaning: 'every posterior of B lies in the convex hull of A’s posteriors: B is safer for every max-case measure.' },
  { key: 'prv', fn: 'prv', name: 'A ⊑prv B', meaning: 'd_A ≥ d_B pointwise: B is d-private for every metric d for which A is.' },
];

const DEFAULT_SOURCE = 'Chatzikokolakis et al. (CSF 2019) §2–5';

/**
 * The parts of the widget, in the order drawn (the values of show and hide): the menu of presets,
 * the preset's note, the two matrices, the verdicts, the sentence under each verdict, and the
 * witness or counterexample of A ⊑avg B.
 */
export const REFINEMENT_PARTS = ['menu', 'note', 'matrices', 'verdicts', 'reasons', 'drawing'];

// A preset's matrix as an attribute's value would be ({values, texts}).
const matrixOf = (texts) => ({ texts: texts.map((r) => r.slice()), values: texts.map((r) => r.map((t) => readNumber(t).value)) });
const given = (el, name) => (el.getAttribute(name) ?? '').trim() !== '';
const rowsOf = (m) => (m ? m.texts.length : null);
const colsOf = (m) => (m ? m.texts[0].length : null);

function channelAttribute(which) {
  const key = which.toUpperCase();
  const example = which === 'a' ? 'a="[[1,0],[0,1]]"' : 'b="[[0.5,0.5],[0.5,0.5]]"';
  return {
    key,
    read: (text, _cfg, name) => parseMatrix(name, text),
    default: (cfg, el) => {
      if (cfg.preset) return matrixOf(cfg.preset[key].matrix);
      // A wrong preset has said so already: no second message for the same mistake.
      if (given(el, 'preset')) return null;
      return fail(which, `give channel ${key}, e.g. ${example}, or a preset (preset="password-timing")`);
    },
  };
}

export class QifRefinement extends QifWidget {
  // Read in this order: each attribute may be checked against those above it.
  static attributes = {
    preset: {
      blank: 'default',
      read: (text, _cfg, name) => refinementPresetById(text.trim()) ?? fail(name, `unknown preset “${short(text)}”; known: ${refinementPresets.map((p) => p.id).join(', ')}`),
    },
    a: channelAttribute('a'),
    b: channelAttribute('b'),
    // The sizes are known only from readable matrices; the checks that need them wait for one.
    'row-labels': { key: 'rowLabels', blank: 'default', read: (text, cfg, name) => parseLabelList(name, text, rowsOf(cfg.A)) },
    'a-col-labels': { key: 'colLabelsA', blank: 'default', read: (text, cfg, name) => parseLabelList(name, text, colsOf(cfg.A)) },
    'b-col-labels': { key: 'colLabelsB', blank: 'default', read: (text, cfg, name) => parseLabelList(name, text, colsOf(cfg.B)) },
    readonly: flag,
    ...partsAttributes(REFINEMENT_PARTS),
    ...COMMON_ATTRIBUTES,
  };

  defaultTitle() {
    return this.preset ? this.preset.name : 'Is B safe in place of A? Refinement A ⊑ B';
  }

  // A preset chosen in the widget's menu stands for the element's attributes until Reset.
  reset() {
    this.picked = null;
    super.reset();
  }

  configure(v, each) {
    if (this.picked) {
      const p = refinementPresetById(this.picked);
      v = { ...v, preset: p, A: matrixOf(p.A.matrix), B: matrixOf(p.B.matrix), rowLabels: null, colLabelsA: null, colLabelsB: null };
    }
    const p = v.preset;
    this.preset = p;
    this.source = p ? p.source : DEFAULT_SOURCE;
    const { A, B } = v;
    if (A && B && A.texts.length !== B.texts.length) each(() => fail('b', `has ${B.texts.length} rows; A has ${A.texts.length} (both channels take the same secrets)`));
    // A preset's labels stay with its matrices, or with matrices of the same size.
    const labels = (given, count, fromPreset, prefix) => given
      ?? (fromPreset && fromPreset.length === count ? fromPreset.slice() : Array.from({ length: count ?? 0 }, (_, i) => `${prefix}${i + 1}`));
    return {
      A,
      B,
      readonly: v.readonly,
      parts: partsShown(REFINEMENT_PARTS, v),
      rowLabels: labels(v.rowLabels, rowsOf(A), p?.secrets, 'x'),
      colsA: labels(v.colLabelsA, colsOf(A), p?.A.labels, 'y'),
      colsB: labels(v.colLabelsB, colsOf(B), p?.B.labels, 'z'),
    };
  }

  build(cfg) {
    const edited = () => {
      this.markEdited();
      this.setState('loading');
      this.schedule();
    };
    const { rowLabels, colsA, colsB } = cfg;
    // Rows and columns named as the grids show them, in the API's messages too.
    this.names = { A: { rows: rowLabels, cols: colsA }, B: { rows: rowLabels, cols: colsB } };
    this.gridA = matrixGrid({ texts: cfg.A.texts, rowLabels, colLabels: colsA, readonly: cfg.readonly, label: 'A', idPrefix: 'a', onInput: edited });
    this.gridB = matrixGrid({ texts: cfg.B.texts, rowLabels, colLabels: colsB, readonly: cfg.readonly, label: 'B', idPrefix: 'b', onInput: edited });
    this.list = h('ul', { class: 'verdicts', 'data-testid': 'verdicts' });
    for (const o of ORDERS) this.list.append(h('li', { class: 'verdict', 'data-testid': `verdict-${o.key}` }, h('span', { class: 'order' }, o.name), h('span', { class: 'badge' }, '…')));
    // Where A ⊑avg B is shown: the witness R or the counterexample (g, π).
    this.drawing = h('div', { class: 'ref-drawing', 'data-testid': 'drawing', 'data-part': 'drawing' });
    this.list.dataset.part = 'verdicts';
    // Every part is built (the values are computed and announced alike); those left out are hidden.
    const shown = (el) => {
      if (el) el.hidden = !cfg.parts.has(el.dataset.part);
      return el;
    };
    const root = h('div', { class: 'w-stack' },
      cfg.readonly ? null : shown(this.presetMenu()),
      this.preset ? shown(h('p', { class: 'w-note ref-preset', 'data-testid': 'preset-note', 'data-part': 'note' }, this.preset.description, ' ', h('span', { class: 'ref-cite', 'data-testid': 'preset-source' }, `Source: ${this.preset.cite}.`))) : null,
      h('div', { class: 'w-body' },
        shown(h('div', { class: 'mats', 'data-part': 'matrices' }, this.gridA.view, this.gridB.view)),
        h('div', { class: 'ref-results' }, shown(this.list), shown(this.drawing))));
    // The sentences under the verdicts are a class on the widget (the verdicts are redrawn).
    root.classList.toggle('no-reasons', !cfg.parts.has('reasons'));
    return root;
  }

  // The menu of presets; choosing one shows that pair (Reset goes back to the page's).
  presetMenu() {
    const current = this.preset?.id ?? '';
    const select = h('select', { 'data-testid': 'preset', 'aria-label': 'Pair of channels from the literature' },
      current ? null : h('option', { value: '' }, 'Your channels'),
      ...refinementPresets.map((p) => h('option', { value: p.id }, p.name)));
    select.value = current;
    select.addEventListener('change', () => {
      if (!select.value) return;
      this.picked = select.value;
      this.render();
      this.markEdited();
    });
    return h('div', { class: 'controls ref-menu', 'data-part': 'menu' }, h('label', {}, 'Example ', select));
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
        replace(this.drawing);
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
        h('span', { class: 'why' }, explain(o, r.value, cfg.rowLabels)));
    });
    replace(this.drawing, results[0].ok ? drawAvg(results[0].value, cfg) : null);
    this.showError(onceEach(errors, this.names));
    return verdicts;
  }
}

function explain(order, v, secrets) {
  if (v.holds) {
    if (order.key === 'avg') return `Yes — ${order.meaning} Witness: B = A·R for a row-stochastic R.`;
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
    return `No — for secrets ${secrets[c.x] ?? `x${c.x + 1}`}, ${secrets[c.x2] ?? `x${c.x2 + 1}`}: d_B = ${formatNumber(c.dB)} > d_A = ${formatNumber(c.dA)}.`;
  }
  return 'No.';
}

// ---------------------------------------------------------------- the witness or counterexample

// A number as a reader recognises it: the small fraction it is (within 1e-9), else 4 significant
// digits; the full value in the tooltip and in data-value (what the tests recompute from).
function numberCell(v, testid) {
  const fraction = guessFraction(v);
  return h('td', { class: 'num', 'data-testid': testid, 'data-value': String(v), title: formatFull(v) }, fraction ?? formatNumber(v));
}

// "19/12 ≈ 1.583" when v is a small fraction, else its decimals.
function fractionText(v) {
  const fraction = guessFraction(v);
  const decimals = formatNumber(v);
  return fraction && fraction !== decimals ? `${fraction} ≈ ${decimals}` : decimals;
}

// A vulnerability, its value in data-value.
function vulnerability(v, testid) {
  return h('span', { class: 'value', 'data-testid': testid, 'data-value': String(v), title: formatFull(v) }, fractionText(v));
}

// A small labelled matrix: rows × columns of values.
function smallMatrix({ corner, rowLabels, colLabels, rows, prefix, extraRow }) {
  const head = h('tr', {}, h('th', { scope: 'col' }, corner), ...colLabels.map((c) => h('th', { scope: 'col' }, c)));
  const body = rows.map((r, i) => h('tr', {}, h('th', { scope: 'row' }, rowLabels[i]), ...r.map((v, j) => numberCell(v, `${prefix}-${i}-${j}`))));
  if (extraRow) body.push(h('tr', { class: 'prior' }, h('th', { scope: 'row' }, extraRow.label), ...extraRow.values.map((v, j) => numberCell(v, `${extraRow.prefix}-${j}`))));
  return h('div', { class: 'scroll' }, h('table', { class: 'grid ref-matrix', 'data-testid': `${prefix}-table` }, h('thead', {}, head), h('tbody', {}, ...body)));
}

const isOneHot = (row) => row.every((v) => Math.abs(v) <= 1e-9 || Math.abs(v - 1) <= 1e-9) && row.filter((v) => Math.abs(v - 1) <= 1e-9).length === 1;
const list = (xs) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

function drawAvg(v, cfg) {
  const { rowLabels, colsA, colsB } = cfg;
  if (v.holds && v.witness) {
    const R = toRowsOf(v.witness);
    // A deterministic R merges or renames outputs: say which.
    let how;
    if (R.every(isOneHot)) {
      const into = colsB.map((z, k) => ({ z, from: colsA.filter((_, y) => Math.abs(R[y][k] - 1) <= 1e-9) })).filter((g) => g.from.length);
      how = `R sends ${into.map((g) => `${list(g.from)} to ${g.z}`).join('; ')}`;
    } else {
      how = 'R turns each output y of A into output z of B with probability R(y, z)';
    }
    return h('div', { class: 'ref-witness', 'data-testid': 'witness' },
      h('p', { class: 'ref-reading', 'data-testid': 'witness-reading' },
        `B is A followed by R: ${how}. Whoever sees A’s output can produce B’s, so B reveals nothing A does not (B = A·R).`),
      smallMatrix({ corner: 'R', rowLabels: colsA, colLabels: colsB, rows: R, prefix: 'witness' }));
  }
  const c = v.counterexample;
  if (v.holds || !c || !('vulnerabilityA' in c)) return null;
  const G = toRowsOf(c.gain);
  const prior = Array.from(c.prior);
  // Guess w stands for "B's output guesses[w] was observed".
  const guessLabels = G.map((_, w) => `guess ${colsB[c.guesses?.[w]] ?? `w${w + 1}`}`);
  const va = c.vulnerabilityA;
  const vb = c.vulnerabilityB;
  return h('div', { class: 'ref-counterexample', 'data-testid': 'counterexample' },
    h('p', { class: 'ref-reading', 'data-testid': 'counterexample-reading' },
      `An adversary with gain g and prior π gains more from B than from A (${formatNumber(vb)} against ${formatNumber(va)}), so B is not safe in place of A: A ⋢avg B.`),
    smallMatrix({ corner: 'g', rowLabels: guessLabels, colLabels: rowLabels, rows: G, prefix: 'gain', extraRow: { label: 'π', values: prior, prefix: 'cx-prior' } }),
    h('dl', { class: 'results ref-vg' },
      h('dt', {}, 'V_g[π▷A]'), h('dd', {}, vulnerability(va, 'vg-a')),
      h('dt', {}, 'V_g[π▷B]'), h('dd', {}, vulnerability(vb, 'vg-b'))),
    h('p', { class: 'w-note', 'data-testid': 'larger' }, vb > va ? `V_g[π▷B] is larger, by ${fractionText(vb - va)}.` : `V_g[π▷A] is larger, by ${fractionText(va - vb)}.`));
}
