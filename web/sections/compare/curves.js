// sections/compare/curves.js — "safe ε2 against ε1" (Chatzikokolakis et al. (CSF 2019) Figure 3):
// for a refined family F1 and each refining family F2, the largest ε2 with F1(ε1) ⊑ F2(ε2), over a
// range of ε1. Computed in the worker as one job (one call per F2, each a bisection per ε1 with the
// refinement test as oracle), with progress and Cancel; drawn with lib/plot.js linePlot.

import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { isAbort, reportToJob } from '../../engine/client.js';
import { Superseded } from '../../engine/pipeline.js';
import { linePlot, PALETTE } from '../../lib/plot.js';
import { parseNumber } from '../../input/number.js';
import { FAMILIES } from './presets.js';
import { sourceRefs } from '../../lib/formulas.js';

// Families of the curves: the exponential one is parametrized by its true ε here, as in
// Chatzikokolakis et al. (CSF 2019) §6.1.
const CURVE_FAMILIES = {
  truncatedGeometric: 'Truncated geometric',
  randomizedResponse: 'Randomized response',
  exponential: 'Exponential (true ε)',
};
const ORDERS = { avg: '⊑avg (average-case)', max: '⊑max (max-case)', prv: '⊑prv (privacy)' };
const MAX_POINTS = 60;
const MAX_N = 20;

export const DEFAULT_CURVES = {
  family1: 'randomizedResponse',
  families2: ['truncatedGeometric', 'randomizedResponse', 'exponential'],
  order: 'avg',
  n: '5',
  from: '0.25',
  to: '3',
  points: '12',
};

/**
 * The ε1 values of a sweep: `points` values evenly spread on [from, to].
 */
export function sweep(from, to, points) {
  if (points === 1) return [from];
  return Array.from({ length: points }, (_, i) => from + ((to - from) * i) / (points - 1));
}

/**
 * Mounts the curves card into `card`. Returns { getState, setState }.
 * @param {HTMLElement} card
 * @param {{pipe: ReturnType<import('../../engine/pipeline.js').createPipeline>}} deps  the section's pipeline
 */
export function mountCurves(card, { pipe }) {
  let state = { ...DEFAULT_CURVES, families2: DEFAULT_CURVES.families2.slice() };
  let lastData = null;

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

  function show() {
    f1.value = state.family1;
    order.value = state.order;
    n.value = state.n;
    from.value = state.from;
    to.value = state.to;
    points.value = state.points;
    for (const c of checks) c.input.checked = state.families2.includes(c.id);
  }

  function read() {
    state.family1 = f1.value;
    state.order = order.value;
    state.n = n.value;
    state.from = from.value;
    state.to = to.value;
    state.points = points.value;
    state.families2 = checks.filter((c) => c.input.checked).map((c) => c.id);
  }

  function setMsg(input, msg) {
    setFieldMessage(input, msgs[input.id], msg);
  }

  // Validates the controls; returns the parsed request or null (messages shown inline).
  function validate() {
    let ok = true;
    const intIn = (input, lo, hi) => {
      const r = parseNumber(input.value);
      const msg = 'error' in r ? r.error : !Number.isInteger(r.value) || r.value < lo || r.value > hi ? `an integer from ${lo} to ${hi}` : null;
      setMsg(input, msg);
      if (msg) ok = false;
      return r.value;
    };
    const posIn = (input) => {
      const r = parseNumber(input.value);
      const msg = 'error' in r ? r.error : r.value <= 0 ? 'ε must be > 0' : r.value > 50 ? 'at most 50' : null;
      setMsg(input, msg);
      if (msg) ok = false;
      return r.value;
    };
    const nv = intIn(n, 2, MAX_N);
    const a = posIn(from);
    const b = posIn(to);
    const k = intIn(points, 2, MAX_POINTS);
    if (ok && !(a < b)) {
      setMsg(to, 'must exceed “from”');
      ok = false;
    }
    f2msg.textContent = state.families2.length ? '' : 'choose at least one family';
    if (!state.families2.length) ok = false;
    return ok ? { n: nv, eps1: sweep(a, b, k) } : null;
  }

  function onEdit() {
    read();
    validate();
  }
  for (const el of [f1, order, n, from, to, points, ...checks.map((c) => c.input)]) {
    el.addEventListener('input', onEdit);
    el.addEventListener('change', onEdit);
  }

  function setRunning(running) {
    run.disabled = running;
    cancel.disabled = !running;
    card.dataset.status = running ? 'running' : card.dataset.status === 'running' ? 'idle' : card.dataset.status || 'idle';
  }

  const task = pipe.task(async (job) => {
    read();
    const req = validate();
    if (!req) {
      status.textContent = 'Fix the highlighted inputs first.';
      return;
    }
    const fams = state.families2.slice();
    const calls = fams.map((family2) => ({
      ns: 'refine',
      fn: 'safeEpsilonCurve',
      args: [{ family1: state.family1, family2, order: state.order, n: req.n, epsilons1: req.eps1, onProgress: reportToJob }],
    }));
    const total = fams.length * req.eps1.length;
    const done = new Array(fams.length).fill(0);
    bar.value = 0;
    status.textContent = `Computing ${fams.length} curve${fams.length > 1 ? 's' : ''} of ${req.eps1.length} points…`;
    setRunning(true);
    let results;
    try {
      results = await job.run(calls, {
        cancelStale: true,
        onProgress: (data, call) => {
          const d = progressDone(data);
          if (d !== null && call >= 0 && call < done.length) done[call] = d;
          const sum = done.reduce((x, y) => x + y, 0);
          bar.value = Math.min(1, sum / total);
          status.textContent = `Computing… ${sum} of ${total} points`;
        },
      });
    } catch (e) {
      if (e instanceof Superseded) throw e;
      card.dataset.status = isAbort(e) ? 'cancelled' : 'error';
      status.textContent = isAbort(e) ? 'Cancelled.' : `Failed: ${e.message}`;
      return;
    } finally {
      if (job.current) setRunning(false);
    }
    const series = [];
    const errors = [];
    const unsure = []; // families whose ε2 is a verified change of verdict, not known to be the largest
    results.forEach((r, i) => {
      if (!r.ok) {
        errors.push(`${CURVE_FAMILIES[fams[i]]}: ${r.error}`);
        return;
      }
      series.push({ family2: fams[i], points: curvePoints(r.value) });
      if ((r.value.points ?? []).some((p) => p.largest === false)) unsure.push(CURVE_FAMILIES[fams[i]]);
    });
    bar.value = 1;
    lastData = { family1: state.family1, order: state.order, n: req.n, series };
    draw();
    card.dataset.status = errors.length ? 'error' : 'done';
    const caveat = unsure.length
      ? ` For ${unsure.join(' and ')} each ε2 is a verified change of verdict, not known to be the largest (that family does not refine itself as ε decreases).`
      : '';
    status.textContent = errors.length ? errors.join(' · ') : `Done: ${total} points, n = ${req.n}.${caveat}`;
    status.classList.toggle('error-text', errors.length > 0);
  });

  function draw() {
    if (!lastData) {
      replace(plot);
      return;
    }
    const { family1, order: ord, n: size, series } = lastData;
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

  run.addEventListener('click', () => task.now());
  cancel.addEventListener('click', () => task.cancel());

  show();
  return {
    getState: () => ({ ...state, families2: state.families2.slice() }),
    setState(s) {
      if (!s || typeof s !== 'object') return;
      for (const k of ['family1', 'order', 'n', 'from', 'to', 'points']) if (typeof s[k] === 'string' || typeof s[k] === 'number') state[k] = String(s[k]);
      if (!(state.family1 in CURVE_FAMILIES)) state.family1 = DEFAULT_CURVES.family1;
      if (!(state.order in ORDERS)) state.order = DEFAULT_CURVES.order;
      if (Array.isArray(s.families2)) state.families2 = s.families2.filter((f) => f in CURVE_FAMILIES);
      show();
      validate();
    },
  };
}

// The progress callback's arguments, as forwarded by the worker: (done, total) or ({done, total}).
function progressDone(data) {
  if (!Array.isArray(data) || !data.length) return null;
  const a = data[0];
  if (typeof a === 'number') return a;
  if (a && typeof a === 'object' && typeof a.done === 'number') return a.done;
  return null;
}

// [ε1, ε2] points of a curve, leaving out ε1 where no ε2 in the searched range refines.
function curvePoints(value) {
  const list = Array.isArray(value) ? value : Array.isArray(value?.points) ? value.points : [];
  return list
    .map((p) => [p.epsilon1, p.found === false ? NaN : p.epsilon2])
    .filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
}

