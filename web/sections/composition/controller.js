// sections/composition/controller.js — the logic of the "Composition" section, without the DOM: the
// events and the question (the model, state.js), the answer (accounting.epsilon or .delta), the
// accountants at its δ (.compare), and the curve (.compare at each δ of the sweep, then .profile),
// each call an engine job whose progress shows after the pipeline's delay with a Cancel. A newer
// edit supersedes the run at its next call and cancels the engine job still running for old
// inputs. One method per user action; the view (view.js) subscribes to the store, draws and
// forwards DOM events here; tests/node/composition-controller.test.mjs drives it in Node.
//
// The store's state:
//   form       counts the times the whole form must be drawn again (a preset, a restored state)
//   question   counts the times the question (ε at δ or δ at ε) must be drawn again
//   preset     the preset chosen, or null once the events were edited
//   problems   {events: [{index, field, message}], question: string | null}: what cannot be read
//   runs       counts the runs started (the view marks what it shows as stale at each)
//   staleMsg   why what is shown is for older inputs, or ''
//   answer     null, or {value, ask, given} | {error, cancelled, ask, given} (given: δ or ε asked at)
//   compare    null, or {r: null | {value} | {error}, delta}: the accountants side by side
//   curve      null, or {kind: 'wait'} | {kind: 'empty'} | {kind: 'draw', profile, sweep, ask,
//              value, answer} | {kind: 'message', cls, text, clearLegend}
//   progress   {main, curve}: each null, {label, data} (a job running; data the engine's last
//              report) or 'cancelled'
//   channelMsg why the Channel section's channel could not be added, or ''
//   busy       whether anything is scheduled or running

import { createStore } from '../../lib/controller.js';
import { formatNumber } from '../../lib/numbers.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { newDraft, formatDrafts } from '../../lib/accounting-events.js';
import { createState, presetState, stateForURL, checkState, readState } from './state.js';
import { SWEEP, answerCall, compareCall, compareDelta, profileCall, profileEnd, curveTable } from './plan.js';

/** How many times the Channel section's channel is asked when added as an event. */
export const CHANNEL_COUNT = 10;

/**
 * @param {{engine: object, channelSource?: () => Promise<{C: number[][]} | {error: string}>,
 *          timing?: object, clock?: object, onError?: (e: Error) => void}} options
 *   channelSource: reads the Channel section's channel (the view gives it; none: refused).
 */
export function createCompositionController({ engine, channelSource = async () => ({ error: 'the Channel section is not loaded' }), timing, clock, onError }) {
  const model = createState();
  const store = createStore({
    form: 0, question: 0, preset: model.preset,
    problems: { events: [], question: null }, runs: 0, staleMsg: '',
    answer: null, compare: null, curve: null,
    progress: { main: null, curve: null }, channelMsg: '', busy: true,
  });
  const get = () => store.get();
  const pipe = createPipeline({ engine, timing, clock, onError, onBusy: (b) => store.set({ busy: b }) });
  let shown = null; // {events, ask, value, answer, compare, profile, sweep}
  let drawnFor = null; // the events (JSON) of the curve on screen
  const setProgress = (where, p) => store.set({ progress: { ...get().progress, [where]: p } });

  const main = pipe.task((job) => run(job));

  async function run(job) {
    const r = readState(model);
    store.set({ problems: { events: r.errors, question: r.questionError ?? null }, progress: { main: null, curve: null }, runs: get().runs + 1 });
    if (r.errors.length || r.questionError) {
      shown = null;
      store.set({ staleMsg: 'Fix the events or the question on the left: what is shown here is for the last ones that could be read.' });
      return;
    }
    store.set({ staleMsg: '' });
    const { events, ask, value } = r;
    shown = { events, ask, value, answer: null, compare: null, profile: null, sweep: [] };
    // The curve of other events must not stand, even faded, while this one is computed (for a
    // new δ alone it is the same curve).
    const key = JSON.stringify(events);
    if (key !== drawnFor) {
      drawnFor = key;
      store.set({ curve: { kind: 'wait' } });
    }
    // 1. the answer and the comparison at its δ
    let answer;
    try {
      answer = await step(job, 'main', answerCall(events, ask, value), ask === 'epsilon' ? 'Composing the privacy loss distributions…' : 'Computing δ(ε)…');
    } catch (err) {
      if (err instanceof Superseded) throw err;
      store.set({ answer: { error: isAbort(err) ? 'Cancelled.' : err.message, cancelled: isAbort(err), ask, given: value }, compare: { r: null }, curve: { kind: 'empty' } });
      if (isAbort(err)) setProgress('main', 'cancelled');
      return;
    }
    shown.answer = answer;
    store.set({ answer: { value: answer, ask, given: value } });
    const atDelta = compareDelta(ask, value, answer);
    const cc = compareCall(events, atDelta);
    if (cc) {
      try {
        shown.compare = await step(job, 'main', cc, 'Comparing the accountants…');
        store.set({ compare: { r: { value: shown.compare }, delta: atDelta } });
      } catch (err) {
        if (err instanceof Superseded) throw err;
        store.set({ compare: { r: { error: isAbort(err) ? 'cancelled' : err.message } } });
        if (isAbort(err)) { setProgress('main', 'cancelled'); return; }
      }
    } else store.set({ compare: { r: null } });
    // 2. the curve: the bounds and the PLD's points at each δ of the sweep, drawn as they come,
    // then the PLD's smooth curve.
    const sweep = SWEEP.map(() => null);
    shown.sweep = sweep;
    const draw = () => store.set({ curve: { kind: 'draw', profile: shown.profile, sweep: sweep.slice(), ask, value, answer } });
    const orNull = (err) => {
      if (err instanceof Superseded || isAbort(err)) throw err;
      return null;
    };
    try {
      for (let i = 0; i < SWEEP.length; i++) {
        sweep[i] = await step(job, 'curve', compareCall(events, SWEEP[i]), `The accountants at δ = ${formatNumber(SWEEP[i])} (${i + 1} of ${SWEEP.length})…`).catch(orNull);
        if (sweep.some(Boolean)) draw();
      }
      const end = profileEnd(sweep, ask === 'epsilon' ? answer.epsilon : value);
      shown.profile = await step(job, 'curve', profileCall(events, end), 'The privacy curve δ(ε) between the points…').catch(orNull);
      if (shown.profile || sweep.some(Boolean)) draw();
      else store.set({ curve: { kind: 'message', cls: 'r-msg', text: 'The curve could not be computed for these events.' } });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      if (isAbort(err)) {
        setProgress('curve', 'cancelled');
        // An older curve must not pass for this one.
        if (!sweep.some(Boolean)) store.set({ curve: { kind: 'message', cls: 'muted', text: 'Cancelled before the first point of the curve.', clearLegend: true } });
        return;
      }
      store.set({ curve: { kind: 'message', cls: 'r-msg', text: `The curve could not be computed: ${err.message}` } });
    }
  }

  // One engine call with progress (after the pipeline's delay) and Cancel; `where` is the
  // progress line it shows on ('main' or 'curve').
  async function step(job, where, call, label) {
    try {
      return await job.call(call, {
        cancelStale: true,
        slow: () => setProgress(where, { label, data: null }),
        onProgress: (data) => setProgress(where, { label, data }),
      });
    } finally {
      setProgress(where, null);
    }
  }

  const edited = () => {
    model.preset = null;
    store.set({ preset: null });
    main.schedule();
  };

  const controller = {
    store,
    get,
    subscribe: store.subscribe,
    /** The model (state.js): the events editor edits its drafts in place, then calls edited(). */
    model,
    /** The events were edited (by the events editor, in model.drafts). */
    edited,
    /** A preset by name (the question stays as asked). */
    choosePreset(name) {
      Object.assign(model, presetState(name), { ask: model.ask, epsilon: model.epsilon });
      store.set({ form: get().form + 1, preset: model.preset });
      main.schedule();
    },
    /** What is asked: 'epsilon' (ε at a δ) or 'delta' (δ at an ε). */
    setAsk(ask) {
      model.ask = ask;
      store.set({ question: get().question + 1 });
      main.schedule();
    },
    /** The δ of the question, as typed. */
    setDelta(text) { model.delta = text; main.schedule(); },
    /** The ε of the question, as typed. */
    setEpsilon(text) { model.epsilon = text; main.schedule(); },
    /**
     * The Channel section's channel as an event (asked CHANNEL_COUNT times): the draft it makes,
     * for the events editor to add, or null when the channel cannot be read (channelMsg says why).
     */
    async channelDraft() {
      const c = await channelSource();
      store.set({ channelMsg: c.error ?? '' });
      if (c.error) return null;
      return newDraft('channel', { channel: JSON.stringify(c.C) }, String(CHANNEL_COUNT));
    },
    /** "Compute again" (after a Cancel), or now. */
    compute() { return main.now(); },
    /** Cancel: stops the engine's job; what was computed stays. */
    cancel() { main.cancel(); },
    /** The privacy curve as a table, for the Export menu (null before any of it is computed). */
    curveTable: () => (shown?.profile || shown?.sweep.some(Boolean) ? curveTable(shown.profile, shown.sweep) : null),
    getState: () => stateForURL(model),
    setState(s) {
      Object.assign(model, checkState(s));
      store.set({ form: get().form + 1, preset: model.preset });
      main.now();
    },
    /** What the section shows, as data. */
    getResults() {
      if (!shown) return null;
      return {
        events: structuredClone(shown.events), text: formatDrafts(model.drafts), ask: shown.ask, value: shown.value,
        answer: shown.answer, compare: shown.compare,
        curve: shown.profile ? { epsilon: Array.from(shown.profile.epsilon), delta: Array.from(shown.profile.delta), deltaLower: Array.from(shown.profile.deltaLower) } : null,
      };
    },
  };
  return controller;
}
