// sections/compare/curves.js — the card "safe ε2 against ε1" of "Compare two mechanisms"
// (Chatzikokolakis et al. (CSF 2019) Figure 3): its fields, Compute and Cancel, the progress and
// the curves drawn with lib/plot.js linePlot. What is computed, and when, is
// curves-controller.js's: this card draws its store and forwards the fields and buttons to it.

import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { linePlot, PALETTE } from '../../lib/plot.js';
import { FAMILIES } from './presets.js';
import { sourceRefs } from '../../lib/formulas.js';
import { createCurvesController, CURVE_FAMILIES, CURVE_ORDERS as ORDERS, MAX_N, MAX_POINTS } from './curves-controller.js';

export { DEFAULT_CURVES, sweep } from './curves-controller.js';

/**
 * Mounts the curves card into `card`. Returns { getState, setState }.
 * @param {HTMLElement} card
 * @param {{pipe: ReturnType<import('../../engine/pipeline.js').createPipeline>}} deps  the section's pipeline
 */
export function mountCurves(card, { pipe }) {
  const ctl = createCurvesController({ pipe });

  const f1 = h('select', { id: 'curve-f1', 'data-testid': 'curve-f1' },
    Object.entries(CURVE_FAMILIES).map(([id, name]) => h('option', { value: id, text: name })));
  const order = h('select', { id: 'curve-order', 'data-testid': 'curve-order' },
    Object.entries(ORDERS).map(([id, name]) => h('option', { value: id, text: name })));
  const num = (id, title) => h('input', { id, type: 'text', class: 'num', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', 'data-testid': id, title });
  const n = num('curve-n', `number of secrets (= outputs), 2 to ${MAX_N}`);
  const from = num('curve-from', 'smallest ε1 (nats)');
  const to = num('curve-to', 'largest ε1 (nats)');
  const points = num('curve-points', `number of ε1 values, 2 to ${MAX_POINTS}`);
  const msgs = {};
  const field = (label, input) => {
    msgs[input.id] = h('span', { class: 'msg', id: `${input.id}-msg` });
    return h('div', { class: 'cmp-field' }, h('label', { for: input.id, text: label }), input, msgs[input.id]);
  };
  const checks = Object.entries(CURVE_FAMILIES).map(([id, name]) => {
    const input = h('input', { type: 'checkbox', id: `curve-f2-${id}`, 'data-testid': `curve-f2-${id}`, value: id });
    return { id, input, label: h('label', { class: 'cmp-check', for: input.id }, input, ` ${name}`) };
  });
  const f2msg = h('span', { class: 'msg', id: 'curve-f2-msg' });
  const run = h('button', { type: 'button', class: 'primary', 'data-testid': 'curve-run', text: 'Compute curves' });
  const cancel = h('button', { type: 'button', 'data-testid': 'curve-cancel', text: 'Cancel', disabled: true });
  const bar = h('progress', { max: '1', value: '0', 'data-testid': 'curve-progress', 'aria-label': 'Progress of the safe-ε computation' });
  const status = h('p', { class: 'muted cmp-status', 'data-testid': 'curve-status', 'aria-live': 'polite' });
  const plot = h('div', { class: 'cmp-curve-plot', 'data-testid': 'curve-plot' });

  replace(card,
    h('div', { class: 'card-head' },
      h('h3', { id: 'curves-title', text: 'Safe ε2 against ε1' }),
      sourceRefs('Chatzikokolakis et al. (CSF 2019) §6.4, Figure 3')),
    h('p', { class: 'hint', text: 'For each ε1, the largest ε2 such that F1(ε1) ⊑ F2(ε2): replacing the refined mechanism F1 at ε1 by F2 at any ε2 up to the curve is safe for the chosen order. Found by bisection on ε2 with the refinement test as the oracle (resolution ε1/1000); the dashed diagonal is ε2 = ε1. The exponential mechanism is parametrized by its true ε.' }),
    h('div', { class: 'cmp-controls' },
      h('div', { class: 'cmp-field' }, h('label', { for: 'curve-f1', text: 'Refined family F1' }), f1),
      h('div', { class: 'cmp-field' }, h('label', { for: 'curve-order', text: 'Order' }), order),
      field('Secrets n', n),
      field('ε1 from', from),
      field('ε1 to', to),
      field('Points', points)),
    h('fieldset', { class: 'cmp-fieldset' },
      h('legend', { text: 'Refining families F2 (one curve each)' }),
      checks.map((c) => c.label), f2msg),
    h('div', { class: 'toolbar cmp-run' }, run, cancel, bar),
    status,
    plot);

  // The fields as the store has them (only what differs: rewriting a field moves its caret).
  function show({ family1, order: ord, n: size, from: lo, to: hi, points: k, families2 }) {
    for (const [el, v] of [[f1, family1], [order, ord], [n, size], [from, lo], [to, hi], [points, k]]) if (el.value !== v) el.value = v;
    for (const c of checks) c.input.checked = families2.includes(c.id);
  }

  const read = () => ({
    family1: f1.value, order: order.value, n: n.value, from: from.value, to: to.value, points: points.value,
    families2: checks.filter((c) => c.input.checked).map((c) => c.id),
  });
  for (const el of [f1, order, n, from, to, points, ...checks.map((c) => c.input)]) {
    el.addEventListener('input', () => ctl.setInputs(read()));
    el.addEventListener('change', () => ctl.setInputs(read()));
  }

  ctl.subscribe((s, changed) => {
    const has = (k) => changed.includes(k);
    if (has('inputs')) show(s.inputs);
    if (has('errors')) {
      for (const [key, input] of [['n', n], ['from', from], ['to', to], ['points', points]]) setFieldMessage(input, msgs[input.id], s.errors[key]);
      f2msg.textContent = s.errors.families2 ?? '';
    }
    if (has('running')) {
      run.disabled = s.running;
      cancel.disabled = !s.running;
    }
    if (has('status') && s.status) card.dataset.status = s.status;
    if (has('progress')) bar.value = s.progress;
    if (has('text')) status.textContent = s.text;
    if (has('textError')) status.classList.toggle('error-text', s.textError);
    if (has('data')) draw(s.data);
  });

  function draw(data) {
    if (!data) {
      replace(plot);
      return;
    }
    const { family1, order: ord, n: size, series } = data;
    const all = series.flatMap((s) => s.points.map((p) => p[0]));
    const lo = Math.min(...all);
    const hi = Math.max(...all);
    const lines = series.map((s) => ({
      name: `${FAMILIES[s.family2]?.short ?? s.family2}(ε2)`,
      points: s.points,
      color: PALETTE[Object.keys(CURVE_FAMILIES).indexOf(s.family2) % PALETTE.length],
    }));
    if (Number.isFinite(lo) && Number.isFinite(hi)) lines.push({ name: 'ε2 = ε1', points: [[lo, lo], [hi, hi]], dashed: true, color: '#8a93a0' });
    const title = `Largest ε2 with ${CURVE_FAMILIES[family1]}(ε1) ${ORDERS[ord].split(' ')[0]} F2(ε2), n = ${size}`;
    replace(plot, linePlot({ title, xLabel: 'ε1 (nats)', yLabel: 'safe ε2 (nats)', series: lines }));
  }

  run.addEventListener('click', () => ctl.run());
  cancel.addEventListener('click', () => ctl.cancel());

  show(ctl.get().inputs);
  return { getState: ctl.getState, setState: ctl.setState };
}
