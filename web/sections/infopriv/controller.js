// sections/infopriv/controller.js — the logic of the "Information privacy" section (Wu (2019) and
// Vadhan (2013)), without the DOM: the query over records and its noise (the model, state.js),
// the tuple channel and record graph the engine builds (infoPrivacy.queryChannel), one "heavy"
// job (the smallest ε, the individual channel capacity with progress, the δ(ε) curve, ε for a
// typed δ) and the ε for a newly typed δ. One method per user action; the view (view.js)
// subscribes to the store, draws and forwards DOM events here; tests/node/infopriv-controller
// .test.mjs drives it in Node.
//
// Flow: an edit updates the model, is read at once (messages beside the field) and schedules the
// main task: noise → tuple channel and record graph → the heavy job → afterHeavy(job) (the view's
// Bayesian panel). A newer edit supersedes the run at its next stage; the heavy job of a large
// query is cancelled then, and can be cancelled by hand (the worker restarts).
//
// The store's state:
//   reading    what readSpec says of the inputs (messages, e^ε, the answers' count), per run
//   rows       the five result rows at once: null, {kind: 'stale', reason}, {kind: 'pending'}
//              or {kind: 'error', error, cancelled}
//   runs       counts the runs started (the view marks the figures stale at each)
//   heavy      null, or the heavy job's settled results {eps, cap, curve, e4d, delta}
//   progress   null, {tuples, done?, total?, reports} or 'cancelled'
//   deltaError the message of δ, or null
//   e4d        ε for the δ typed since: null, {kind: 'stale' | 'pending'}, {kind: 'done', value,
//              delta} or {kind: 'error', error}
//   deltaDrawn counts the times the curve must be drawn again for a new δ
//   structure  counts the changes of the records (the view draws the fields again)
//   custom     counts the times the custom table must be drawn again (the query changed)
//   noiseForm  counts the times the noise fields must be drawn again
//   restored   counts setState calls (the view puts every field back)
//   busy       whether anything is scheduled or running

import { createStore } from '../../lib/controller.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import {
  MAX_CUSTOM_TUPLES, tupleCount, builtinTable, parseDelta, createState, stateForURL, sanitizeState,
  structureChanged as resetForStructure, readSpec, noiseCall, channelPlan, heavyPlan,
} from './state.js';

/** Heavy jobs on at least this many tuples show their progress at once (else after the delay). */
export const PROGRESS_NOW_TUPLES = 1024;
/** An outdated heavy job on at least this many tuples is cancelled rather than left to finish. */
export const CANCEL_OLD_TUPLES = 256;
export const CURVE_POINTS = 101;

/**
 * @param {{engine: object, afterHeavy?: (job) => Promise<void>, timing?: object, clock?: object,
 *          onError?: (e: Error) => void}} options
 *   afterHeavy: what runs in the main job once the heavy results are in (the Bayesian panel).
 */
export function createInfoprivController({ engine, afterHeavy = async () => {}, timing, clock, onError }) {
  const model = createState();
  const store = createStore({
    reading: null, rows: null, runs: 0, heavy: null, progress: null, deltaError: null, e4d: null,
    deltaDrawn: 0, structure: 0, custom: 0, noiseForm: 0, restored: 0, busy: true,
  });
  const get = () => store.get();
  const bump = (key) => store.set({ [key]: get()[key] + 1 });
  const pipe = createPipeline({ engine, timing, clock, onError, onBusy: (b) => store.set({ busy: b }) });
  let cur = null; // {domains, C, graph, tuples, eps?, cap?, curve?}
  const graphCache = { key: null, graph: null };
  // A custom table is editable up to MAX_CUSTOM_TUPLES tuples: larger, the query is a count.
  const fitQuery = () => { if (model.query === 'custom' && tupleCount(model.domains) > MAX_CUSTOM_TUPLES) model.query = 'count'; };

  const main = pipe.task((job) => runMain(job));

  async function runMain(job) {
    const r = readSpec(model);
    store.set({ reading: r, progress: null, runs: get().runs + 1 });
    if (!r.spec) {
      cur = null;
      store.set({ rows: { kind: 'stale', reason: 'fix the input on the left' } });
      return;
    }
    const spec = r.spec;
    store.set({ rows: { kind: 'pending' } });
    try {
      const nc = noiseCall(spec);
      const noise = nc ? await job.call(nc) : spec.noise;
      const gkey = spec.domains.join(',');
      const res = await job.run(channelPlan(spec, noise, graphCache.key === gkey));
      const failed = res.find((x) => !x.ok);
      if (failed) throw new Error(failed.error);
      if (res[1]) { graphCache.key = gkey; graphCache.graph = res[1].value; }
      cur = { domains: spec.domains, C: res[0].value, graph: graphCache.graph, tuples: spec.tuples };
      await runHeavy(job);
    } catch (err) {
      if (err instanceof Superseded) throw err;
      store.set({ rows: { kind: 'error', error: isAbort(err) ? 'Cancelled.' : err.message, cancelled: isAbort(err) } });
    }
  }

  async function runHeavy(job) {
    const delta = parseDelta(model.delta);
    store.set({ deltaError: delta.error ?? null });
    let reports = 0;
    let results;
    try {
      results = await job.run(heavyPlan(cur, delta.error ? null : delta.value, CURVE_POINTS), {
        cancelStale: cur.tuples >= CANCEL_OLD_TUPLES,
        slow: () => store.set({ progress: { tuples: cur.tuples, reports } }),
        slowNow: cur.tuples >= PROGRESS_NOW_TUPLES,
        onProgress: (data) => {
          reports++;
          const [done, total] = Array.isArray(data) ? data : [];
          store.set({ progress: { tuples: cur.tuples, done, total, reports } });
        },
      });
    } catch (err) {
      if (!(err instanceof Superseded) && isAbort(err)) {
        store.set({ progress: 'cancelled', rows: { kind: 'error', error: 'Cancelled.', cancelled: true } });
        return;
      }
      throw err;
    }
    store.set({ progress: null });
    const [eps, cap, curve, e4d] = results;
    cur.eps = eps.ok ? eps.value : null;
    cur.cap = cap.ok ? cap.value : null;
    cur.curve = curve.ok ? curve.value : null;
    store.set({ heavy: { eps, cap, curve, e4d: e4d ?? null, delta: delta.value } });
    await afterHeavy(job);
  }

  // δ typed by the user: the curve's line moves and ε for δ is computed again.
  const deltaTask = pipe.task(async (job) => {
    const d = parseDelta(model.delta);
    store.set({ deltaError: d.error ?? null, deltaDrawn: get().deltaDrawn + 1 });
    if (d.error) { store.set({ e4d: { kind: 'stale' } }); return; }
    if (!cur || !cur.curve) return; // the main task will compute it
    store.set({ e4d: { kind: 'pending' } });
    try {
      const v = await job.call(engine.plan.infoPrivacy.epsilonForDelta(cur.C, cur.graph, d.value));
      store.set({ e4d: { kind: 'done', value: v, delta: d.value } });
    } catch (err) {
      if (err instanceof Superseded || isAbort(err)) throw err;
      store.set({ e4d: { kind: 'error', error: err.message } });
    }
  });

  function structureChanged() {
    resetForStructure(model);
    fitQuery();
    bump('structure');
    main.schedule();
  }

  const controller = {
    store,
    get,
    subscribe: store.subscribe,
    /** The pipeline, shared with the section's privacy-channels card and Bayesian panel. */
    pipe,
    /** The model (state.js): read it; change it through the methods (the Bayesian panel edits its own fields). */
    model,
    /** The channel computed: {domains, C, graph, tuples, eps?, cap?, curve?}, or null. */
    current: () => cur,
    /** The number of records (their values keep the last record's count). */
    setRecords(n) {
      const last = model.domains[model.domains.length - 1] ?? 2;
      while (model.domains.length < n) model.domains.push(last);
      model.domains.length = n;
      structureChanged();
    },
    /** The number of values of record i. */
    setValues(i, v) {
      model.domains[i] = v;
      structureChanged();
    },
    /** The query: count, sum, max, min or custom (which starts from the query chosen before). */
    setQuery(q) {
      const prev = model.query;
      model.query = q;
      if (q === 'custom') model.custom = builtinTable(prev === 'custom' ? 'count' : prev, model.domains).map(String);
      bump('custom');
      main.schedule();
    },
    /** The answer of tuple k in the custom table, as typed. */
    setAnswer(k, text) { model.custom[k] = text; main.schedule(); },
    /** The noise on the answers. */
    setNoise(noise) {
      model.noise = noise;
      bump('noiseForm');
      main.schedule();
    },
    setEpsilon(text) { model.epsilon = text; main.schedule(); },
    setP(text) { model.p = text; main.schedule(); },
    setDelta(text) { model.delta = text; deltaTask.schedule(); },
    /** Computes again (after the Bayesian panel's situation or prior changed, or a Cancel). */
    compute() { main.schedule(); },
    /** Cancel: stops the heavy job. */
    cancel() { main.cancel(); },
    /** The section's state for a link; `channels` is the privacy-channels card's. */
    getState: (channels) => stateForURL(model, channels),
    setState(s = {}) {
      Object.assign(model, sanitizeState(s));
      fitQuery();
      bump('restored');
      main.schedule();
    },
    /** What the section shows, as data. */
    getResults() {
      if (!cur) return null;
      const rows = cur.C.rows ?? 0;
      return {
        domains: cur.domains.slice(),
        channel: Array.from({ length: rows }, (_, i) => Array.from(cur.C.data.subarray(i * cur.C.cols, (i + 1) * cur.C.cols))),
        epsilon: cur.eps ? { ...cur.eps } : null,
        capacity: cur.cap ? { ...cur.cap, prior: Array.from(cur.cap.prior) } : null,
        deltaCurve: cur.curve ? { epsilon: Array.from(cur.curve.epsilon), delta: Array.from(cur.curve.delta), pureEpsilon: cur.curve.pureEpsilon } : null,
      };
    },
    start() { return main.now(); },
  };
  return controller;
}
