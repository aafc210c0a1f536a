// sections/compare/curves-controller.js — the logic of the card "safe ε2 against ε1" of "Compare
// two mechanisms" (Chatzikokolakis et al. (CSF 2019) Figure 3), without the DOM: for a refined
// family F1 and each refining family F2, the largest ε2 with F1(ε1) ⊑ F2(ε2), over a range of ε1.
// Computed in the worker as one job (one call per F2, each a bisection per ε1 with the refinement
// test as oracle), with progress and cancel. The card (curves.js) draws the store and forwards
// its fields and buttons here; tests/node/compare-controller.test.mjs runs it in Node.
//
// The store's state:
//   inputs    {family1, families2, order, n, from, to, points}: the fields as typed (getState)
//   errors    {n, from, to, points, families2}: each field's message, or null
//   status    null before a run, then 'running', 'idle', 'done', 'cancelled' or 'error'
//   running   whether a computation is under way (Compute disabled, Cancel enabled)
//   progress  the fraction of the points computed, 0 to 1
//   text      the status line; textError whether it reports failures
//   data      the curves drawn: {family1, order, n, series: [{family2, points: [[ε1, ε2]]}]}, or null

import { createStore } from '../../lib/controller.js';
import { isAbort, reportToJob } from '../../engine/client.js';
import { Superseded } from '../../engine/pipeline.js';
import { parseNumber } from '../../input/number.js';

// Families of the curves: the exponential one is parametrized by its true ε here, as in
// Chatzikokolakis et al. (CSF 2019) §6.1.
export const CURVE_FAMILIES = {
  truncatedGeometric: 'Truncated geometric',
  randomizedResponse: 'Randomized response',
  exponential: 'Exponential (true ε)',
};
export const CURVE_ORDERS = { avg: '⊑avg (average-case)', max: '⊑max (max-case)', prv: '⊑prv (privacy)' };
export const MAX_POINTS = 60;
export const MAX_N = 20;

export const DEFAULT_CURVES = {
  family1: 'randomizedResponse',
  families2: ['truncatedGeometric', 'randomizedResponse', 'exponential'],
  order: 'avg',
  n: '5',
  from: '0.25',
  to: '3',
  points: '12',
};

/** The ε1 values of a sweep: `points` values evenly spread on [from, to]. */
export function sweep(from, to, points) {
  if (points === 1) return [from];
  return Array.from({ length: points }, (_, i) => from + ((to - from) * i) / (points - 1));
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

/**
 * The fields checked: {request: {n, eps1}} or {request: null}, with each field's message.
 * @param {typeof DEFAULT_CURVES} inputs
 */
export function validateCurves(inputs) {
  const errors = { n: null, from: null, to: null, points: null, families2: null };
  const intIn = (key, lo, hi) => {
    const r = parseNumber(inputs[key]);
    errors[key] = 'error' in r ? r.error : !Number.isInteger(r.value) || r.value < lo || r.value > hi ? `an integer from ${lo} to ${hi}` : null;
    return r.value;
  };
  const posIn = (key) => {
    const r = parseNumber(inputs[key]);
    errors[key] = 'error' in r ? r.error : r.value <= 0 ? 'ε must be > 0' : r.value > 50 ? 'at most 50' : null;
    return r.value;
  };
  const n = intIn('n', 2, MAX_N);
  const a = posIn('from');
  const b = posIn('to');
  const k = intIn('points', 2, MAX_POINTS);
  if (Object.values(errors).every((e) => e === null) && !(a < b)) errors.to = 'must exceed “from”';
  if (!inputs.families2.length) errors.families2 = 'choose at least one family';
  const ok = Object.values(errors).every((e) => e === null);
  return { errors, request: ok ? { n, eps1: sweep(a, b, k) } : null };
}

/** @param {{pipe: ReturnType<import('../../engine/pipeline.js').createPipeline>}} deps  the section's pipeline */
export function createCurvesController({ pipe }) {
  const store = createStore({
    inputs: { ...DEFAULT_CURVES, families2: DEFAULT_CURVES.families2.slice() },
    errors: { n: null, from: null, to: null, points: null, families2: null },
    status: null, running: false, progress: 0, text: '', textError: false, data: null,
  });
  const get = () => store.get();
  const check = () => {
    const v = validateCurves(get().inputs);
    store.set({ errors: v.errors });
    return v.request;
  };
  const setRunning = (running) => {
    const { status } = get();
    store.set({ running, status: running ? 'running' : status === 'running' ? 'idle' : status || 'idle' });
  };

  const task = pipe.task(async (job) => {
    const req = check();
    if (!req) { store.set({ text: 'Fix the highlighted inputs first.' }); return; }
    const { family1, order } = get().inputs;
    const fams = get().inputs.families2.slice();
    const calls = fams.map((family2) => ({
      ns: 'refine',
      fn: 'safeEpsilonCurve',
      args: [{ family1, family2, order, n: req.n, epsilons1: req.eps1, onProgress: reportToJob }],
    }));
    const total = fams.length * req.eps1.length;
    const done = new Array(fams.length).fill(0);
    store.set({ progress: 0, text: `Computing ${fams.length} curve${fams.length > 1 ? 's' : ''} of ${req.eps1.length} points…` });
    setRunning(true);
    let results;
    try {
      results = await job.run(calls, {
        cancelStale: true,
        onProgress: (data, call) => {
          const d = progressDone(data);
          if (d !== null && call >= 0 && call < done.length) done[call] = d;
          const sum = done.reduce((x, y) => x + y, 0);
          store.set({ progress: Math.min(1, sum / total), text: `Computing… ${sum} of ${total} points` });
        },
      });
    } catch (e) {
      if (e instanceof Superseded) throw e;
      store.set({ status: isAbort(e) ? 'cancelled' : 'error', text: isAbort(e) ? 'Cancelled.' : `Failed: ${e.message}` });
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
    const caveat = unsure.length
      ? ` For ${unsure.join(' and ')} each ε2 is a verified change of verdict, not known to be the largest (that family does not refine itself as ε decreases).`
      : '';
    store.set({
      progress: 1,
      data: { family1, order, n: req.n, series },
      status: errors.length ? 'error' : 'done',
      text: errors.length ? errors.join(' · ') : `Done: ${total} points, n = ${req.n}.${caveat}`,
      textError: errors.length > 0,
    });
  });

  return {
    store,
    get,
    subscribe: store.subscribe,
    /** Fields typed or chosen: any of the inputs' keys; the fields are checked at once. */
    setInputs(patch) {
      store.set({ inputs: { ...get().inputs, ...patch } });
      check();
    },
    /** "Compute curves". */
    run() { return task.now(); },
    /** "Cancel": stops the engine's job. */
    cancel() { task.cancel(); },
    getState: () => ({ ...get().inputs, families2: get().inputs.families2.slice() }),
    setState(s) {
      if (!s || typeof s !== 'object') return;
      const inputs = { ...get().inputs };
      for (const k of ['family1', 'order', 'n', 'from', 'to', 'points']) if (typeof s[k] === 'string' || typeof s[k] === 'number') inputs[k] = String(s[k]);
      if (!(inputs.family1 in CURVE_FAMILIES)) inputs.family1 = DEFAULT_CURVES.family1;
      if (!(inputs.order in CURVE_ORDERS)) inputs.order = DEFAULT_CURVES.order;
      if (Array.isArray(s.families2)) inputs.families2 = s.families2.filter((f) => f in CURVE_FAMILIES);
      store.set({ inputs });
      check();
    },
  };
}
