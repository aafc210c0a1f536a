// sections/observations/controller.js — the logic of the "From observations" section, without the
// DOM: where the samples come from (drawn from the Channel section's channel, or a CSV/TSV file
// read by the data worker), how their columns are read (the model, state.js, which the reading
// panel edits), the estimates the engine makes of them (plan.js, one job with progress and
// Cancel) and the results as data. One method per user action; the view (view.js) subscribes to
// the store, draws and forwards DOM events here; tests/node/observations-controller.test.mjs
// drives it in Node.
//
// The store's state:
//   status    {text, error}: the status line
//   progress  null, or the fraction done of the reading or of the estimates
//   panel     null (hidden), or what the reading panel shows of the samples read (controls.js show)
//   shown     null, or the estimates as data (results.js) with names {secrets, observables}
//   restored  counts setState calls (the view puts the restored fields back)
//   busy      whether anything is scheduled or running

import { createStore } from '../../lib/controller.js';
import { createPipeline } from '../../engine/pipeline.js';
import * as S from './state.js';
import { estimateCalls, explain, supports } from './plan.js';

/**
 * @param {{engine: object, loadSamples?: (file: Blob, options: {onProgress}) => {promise, cancel},
 *          channelSource?: () => Promise<object>, version?: () => string, timing?: object,
 *          clock?: object, onError?: (e: Error) => void}} options
 *   loadSamples: reads a file of samples (the page's data worker); channelSource: the Channel
 *   section's channel and prior ({C, prior, secrets, observables} or {error}); version: the
 *   engine's version, cited with the results.
 */
export function createObservationsController({
  engine, timing, clock, onError, version = () => '',
  loadSamples = () => ({ promise: Promise.reject(new Error('no reader of files here')), cancel() {} }),
  channelSource = async () => ({ error: 'the Channel section is not loaded' }),
}) {
  const model = { ...S.DEFAULT_STATE };
  const store = createStore({ status: { text: '', error: false }, progress: null, panel: null, shown: null, restored: 0, busy: false });
  const get = () => store.get();
  const pipe = createPipeline({ engine, timing, clock, onError, onBusy: (b) => store.set({ busy: b }) });
  let file = null;
  let loaded = null; // {t: the samples as readSamples gives them, name, exact, source}
  let loadJob = null;
  const setStatus = (text, error = false) => store.set({ status: { text, error } });
  const setProgress = (f) => store.set({ progress: f });

  // The samples: drawn from the Channel section's channel, or read from the file; null when not.
  async function acquire(job, source) {
    const seed = S.parseSeed(model.seed);
    if (seed.error) { setStatus(seed.error, true); return null; }
    if (source === 'channel') {
      const n = S.parseN(model.n);
      if (n.error) { setStatus(n.error, true); return null; }
      const ch = await channelSource();
      if (ch.error) { setStatus(ch.error, true); return null; }
      setStatus(`Drawing ${n.value.toLocaleString('en')} samples…`);
      const [s, mi, me, v] = await job.run([engine.plan.channel.sample(ch.prior, ch.C, n.value, { seed: seed.value }),
        engine.plan.measure.mutualInformation(ch.prior, ch.C), engine.plan.measure.minEntropyLeakage(ch.prior, ch.C),
        engine.plan.measure.posteriorBayesVulnerability(ch.prior, ch.C)], { cancelStale: true });
      if (!s.ok) { setStatus(s.error, true); return null; }
      const t = { secrets: s.value.secrets, secretNames: ch.secrets, observations: s.value.observations, observationNames: ch.observables,
        header: null, rows: n.value, observationColumns: 1, decimalComma: false, drawn: true };
      return { t, name: null, source: 'drawn from the channel of the Channel section', exact: { mi: mi.ok ? mi.value : NaN, me: me.ok ? me.value : NaN, risk: v.ok ? 1 - v.value : NaN } };
    }
    if (!file) { setStatus('Choose a file.', true); return null; }
    setStatus(`Reading ${file.name}…`);
    setProgress(0);
    loadJob = loadSamples(file, { onProgress: (f) => setProgress(f) });
    let t;
    try {
      t = await loadJob.promise;
    } catch (err) {
      setProgress(null);
      if (err.name !== 'AbortError') setStatus(`${file.name}: ${err.message}`, true);
      return null;
    } finally {
      loadJob = null;
    }
    job.check();
    return { t, name: file.name, source: file.name, exact: null };
  }

  const task = pipe.task(async (job, source) => {
    store.set({ shown: null });
    if (source !== 'again') {
      store.set({ panel: null });
      loaded = await acquire(job, source);
      if (!loaded) return;
    }
    await estimate(job, loaded);
  });

  async function estimate(job, { t, name, source, exact }) {
    const n = t.rows;
    const seed = S.parseSeed(model.seed).value ?? 1;
    const kind = S.kindOf(model.kind, t.observations);
    if (t.drawn && !kind.forced) kind.why = 'the outputs of a channel are labels';
    const numbers = kind.kind === 'numbers';
    const prior = S.priorOf(t.secrets);
    store.set({ panel: { name, rows: n, header: t.header, secretValues: prior.values, observationColumns: t.observationColumns, numeric: Boolean(t.observations.data),
      kind, decimalComma: t.decimalComma, swap: S.swapSuspect(t), swapped: t.swapped,
      ties: numbers ? S.tieNote(S.distinctCount(t.observations), n) : null } });
    let obs = t.observations, obsNames = t.observationNames;
    if (!numbers && obs.data) ({ codes: obs, names: obsNames } = S.asLabels(obs));
    const distinct = numbers ? null : S.mostlyDistinct(obs, n);
    const bins = numbers ? S.parseBins(model.bins).value : null;
    const knn = S.parseKnn(model.knn).value;
    const miK = S.parseMiK(model.miK).value;
    const { api } = engine;
    const sizes = S.convergenceSizes(n, Math.max(200, 10 * prior.values * (numbers ? 2 * miK + 1 : 1))).slice(0, -1);
    const perm = sizes.length ? S.permutation(n, seed) : null;
    // A large matrix goes to the worker once, in pieces, instead of being cloned on this thread.
    const ref = numbers && obs.data.length > 100_000 ? engine.share('observations-samples', obs) : obs;
    const calls = estimateCalls(engine.plan, api, { secrets: t.secrets, observations: ref },
      kind.kind, { seed, knn, miK, bins, refused: distinct?.refused, sizes, perm, raw: obs });
    setStatus(`Estimating from ${n.toLocaleString('en')} samples…`);
    setProgress(0);
    const slow = calls.map((c, i) => (c.progress ? i : -1)).filter((i) => i >= 0);
    const res = await job.run(calls.map((c) => c.call), {
      cancelStale: true,
      onProgress: (data, call) => {
        const at = slow.indexOf(call);
        if (at >= 0 && data[1] > 0) setProgress((at + data[0] / data[1]) / slow.length);
      },
    });
    setProgress(null);
    const got = {};
    const errors = {};
    calls.forEach((c, i) => {
      if (res[i].ok) got[c.key] = res[i].value;
      else if (!c.key.startsWith('curve-')) errors[c.key] = explain(res[i].error, n); // a subset too small: a point less
    });
    const notes = [];
    if (distinct?.refused) {
      const why = S.refusalMessage(distinct.distinct, n);
      for (const k of ['mi', 'me']) errors[k] = why;
    }
    if (numbers && !supports(api, 'mutualInformation', 'method')) notes.push('This engine has no nearest-neighbour estimator of mutual information: from numbers, only the Bayes risk is estimated.');
    if (numbers && bins !== null && !supports(api, 'mutualInformation', 'bins')) notes.push('This engine does not bin observations: the counted estimates are not shown.');
    const risk = {};
    for (const rule of S.rulesFor(numbers)) if (got[`risk-${rule}`]) risk[rule] = got[`risk-${rule}`];
    // Each point: the estimate shown in the table (the nearest-neighbour one, or the bias-corrected count).
    const point = (m, x) => ({ n: m, value: x ? (numbers ? x.value : x.corrected) : NaN, lower: x?.lower, upper: x?.upper });
    const curve = sizes.map((m) => point(m, got[`curve-${m}`]));
    const whole = numbers ? got.miNN : got.mi;
    if (whole) curve.push(point(n, whole));
    // The swap offer above already says what the engine's warning about the secret column says.
    const swapShown = S.swapSuspect(t).suspect;
    const warnings = Object.values(got).flatMap((v) => (Array.isArray(v?.warnings) ? v.warnings : []))
      .filter((w) => !(swapShown && /swapped/.test(w)));
    const shown = {
      exact, kind: kind.kind, baseline: prior.baseline, maxPrior: prior.maxPrior,
      miNN: got.miNN, meNN: got.meNN, mi: got.mi, me: got.me, channel: got.channel, risk, errors, notes, warnings, curve,
      miK: numbers ? miK : undefined, knnK: risk.knn?.k,
      binsText: numbers ? S.binsText(got.mi?.bins ?? got.me?.bins, bins) : 'none',
      provenance: { source, n, seed },
    };
    store.set({ shown: { results: shown, names: { secrets: t.secretNames, observables: obsNames } } });
    const failed = Object.keys(errors).length;
    setStatus(`Estimated from ${n.toLocaleString('en')} samples${failed ? `; ${failed === 1 ? 'one estimate' : `${failed} estimates`} could not be made (said in the table)` : ''}.`, false);
  }

  const results = () => get().shown?.results ?? null;
  const controller = {
    store,
    get,
    subscribe: store.subscribe,
    /** The model (state.js): the reading panel edits kind, bins, k in place, then calls again(). */
    model,
    setN(text) { model.n = text; },
    setSeed(text) { model.seed = text; },
    /** "Draw and estimate": samples drawn from the Channel section's channel. */
    draw() { model.source = 'channel'; return task.now('channel'); },
    /** A file of samples chosen (null: none). */
    loadFile(f) {
      file = f ?? null;
      if (file) { model.source = 'file'; return task.now('file'); }
      return null;
    },
    /** Loads samples from text (as a file would be). */
    loadText(text, name = 'samples.csv') {
      return controller.loadFile(new File([text], name, { type: 'text/csv' }));
    },
    /** A reading choice changed: estimates again from the samples read, without reading again. */
    again() { if (loaded) task.now('again'); },
    /** The secret column and the (first) observation column swapped. */
    swap() {
      if (!loaded) return;
      loaded.t = S.swapColumns(loaded.t);
      task.now('again');
    },
    cancel() {
      if (loadJob) loadJob.cancel();
      task.cancel();
      setProgress(null);
      setStatus('Cancelled.');
    },
    getState: () => ({ ...model }),
    setState(s) {
      S.assignState(model, s);
      store.set({ restored: get().restored + 1 });
    },
    check: S.checkState,
    getResults: () => (results() ? S.resultsTable(results(), version()) : null),
    /** The results shown, as data. */
    shown: results,
  };
  return controller;
}
