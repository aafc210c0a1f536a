// sections/observations/view.js — the "From observations" section: leakage estimated from samples
// of a black-box system (qif.estimate; leakiEst, Chothia et al. (CAV 2013), F-BLEAU, Cherubin et
// al. (S&P 2019), and the nearest-neighbour mutual information of Ross (PLoS ONE 2014)). The
// samples come from a CSV/TSV file (a secret column, then observation columns) read by the data
// worker, or are drawn from the channel and prior of the Channel section, whose exact values are
// then shown beside the estimates.
//
// The reading panel (controls.js) says how the observation columns were read — numbers compared by
// distance, or labels — and lets the user change it, choose k and bins, and swap the columns
// when the secret column looks like an observation. The calls are planned in plan.js; the
// estimates table (results.js) and the convergence plots (convergence.js) show what they return.
// Changing a choice estimates again from the samples read, without reading the file again.
//
// Nothing is computed on the page's thread but the counting the reading panel needs: the file is
// parsed in the data worker, every estimate in the engine's worker (one job, with progress and
// Cancel).

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { createPipeline } from '../../engine/pipeline.js';
import { dataWorker } from '../../engine/data-client.js';
import { parseNumber } from '../../input/number.js';
import { refLink } from '../../lib/formulas.js';
import * as S from './state.js';
import { estimateCalls, explain, supports } from './plan.js';
import { readingPanel } from './controls.js';
import { estimatesView } from './results.js';
import { convergencePlots } from './convergence.js';

/** The channel and prior of the Channel section, read from its inputs; or {error}. */
async function channelOfChannelSection() {
  const { sections } = await import('../../page/sections.js');
  const sec = sections.channel;
  if (!sec?.getResults) return { error: 'the Channel section is not loaded' };
  const { inputs } = sec.getResults();
  const C = [];
  for (let i = 0; i < inputs.cells.rows; i++) {
    const row = [];
    for (let j = 0; j < inputs.cells.cols; j++) row.push(inputs.cells.value(i, j));
    C.push(row);
  }
  const prior = inputs.prior.map((t) => parseNumber(t).value);
  if (prior.some((p) => !Number.isFinite(p)) || C.some((r) => r.some((v) => !Number.isFinite(v)))) {
    return { error: 'the Channel section has entries that are not numbers: fix them there first' };
  }
  return { C, prior, secrets: inputs.secrets, observables: inputs.observables };
}

export function mount(root, { engine, client }) {
  addStylesheet('sections/observations/style.css', 'observations');
  const state = { ...S.DEFAULT_STATE };
  let shown = null; // what the estimates table shows, as data (results.js)
  let file = null;
  let loaded = null; // {t: the samples as readSamples gives them, name, exact, source}
  let version = '';
  client?.ready?.then((info) => { version = info?.version ?? ''; }, () => {});

  const e = {
    n: h('input', { id: 'obs-n', class: 'num', inputmode: 'numeric', value: state.n, 'aria-describedby': 'obs-status' }),
    seed: h('input', { id: 'obs-seed', class: 'num', inputmode: 'numeric', value: state.seed }),
    draw: h('button', { type: 'button', 'data-testid': 'obs-draw' }, 'Draw and estimate'),
    file: h('input', { id: 'obs-file', type: 'file', accept: '.csv,.tsv,.txt,text/csv,text/tab-separated-values', 'data-testid': 'obs-file' }),
    cancel: h('button', { type: 'button', hidden: true, 'data-testid': 'obs-cancel' }, 'Cancel'),
    progress: h('progress', { max: 1, hidden: true }),
    status: h('p', { id: 'obs-status', class: 'obs-status', role: 'status', 'data-testid': 'obs-status' }),
    results: h('div', { 'data-testid': 'obs-results' }),
    plots: h('div', { class: 'obs-plots' }),
  };
  const panel = readingPanel({
    state,
    onChange: () => { if (loaded) task.now('again'); },
    onSwap: () => { if (loaded) { loaded.t = S.swapColumns(loaded.t); task.now('again'); } },
  });
  replace(root,
    h('div', { class: 'section-head' }, h('h2', { id: 'observations-title' }, 'From observations')),
    h('p', {}, 'Leakage estimated from samples (secret, observation) of a system you can only run: mutual information and min-entropy leakage with 95% intervals and a zero-leakage test (leakiEst, ', refLink('Chothia et al. (CAV 2013)'), '), the Bayes risk by the frequentist, nearest-neighbour and k-NN rules (F-BLEAU, ', refLink('Cherubin et al. (S&P 2019)'), '), and for measurements such as timings the nearest-neighbour mutual information of Ross (2014). Draw samples from the channel of the Channel section to watch the estimates approach its exact values, or load your own. ',
      h('a', { href: 'docs/guides/estimating-leakage.html' }, 'What the numbers mean.')),
    h('div', { class: 'obs-source' },
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-n' }, 'Samples n'), e.n),
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-seed' }, 'Seed'), e.seed),
      e.draw,
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-file' }, 'Or load a CSV/TSV file (secret, observation…; up to 10⁶ rows)'), e.file),
      e.cancel),
    e.progress, e.status, panel.element, e.results, e.plots);

  const pipe = createPipeline({ engine, onBusy: (b) => { root.dataset.busy = String(b); } });
  let loadJob = null;
  const setStatus = (text, error = false) => { e.status.textContent = text; e.status.dataset.error = String(error); };
  const setProgress = (f) => {
    e.progress.hidden = f === null;
    e.cancel.hidden = f === null;
    if (f !== null) e.progress.value = f;
  };

  // The samples: drawn from the Channel section's channel, or read from the file; null when not.
  async function acquire(job, source) {
    const seed = S.parseSeed(state.seed);
    if (seed.error) { setStatus(seed.error, true); return null; }
    if (source === 'channel') {
      const n = S.parseN(state.n);
      if (n.error) { setStatus(n.error, true); return null; }
      const ch = await channelOfChannelSection();
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
    loadJob = dataWorker.samples(file, { onProgress: (f) => setProgress(f) });
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
    shown = null;
    replace(e.results);
    replace(e.plots);
    if (source !== 'again') {
      panel.hide();
      loaded = await acquire(job, source);
      if (!loaded) return;
    }
    await estimate(job, loaded);
  });

  async function estimate(job, { t, name, source, exact }) {
    const n = t.rows;
    const seed = S.parseSeed(state.seed).value ?? 1;
    const kind = S.kindOf(state.kind, t.observations);
    if (t.drawn && !kind.forced) kind.why = 'the outputs of a channel are labels';
    const numbers = kind.kind === 'numbers';
    const prior = S.priorOf(t.secrets);
    panel.show({ name, rows: n, header: t.header, secretValues: prior.values, observationColumns: t.observationColumns, numeric: Boolean(t.observations.data),
      kind, decimalComma: t.decimalComma, swap: S.swapSuspect(t), swapped: t.swapped,
      ties: numbers ? S.tieNote(S.distinctCount(t.observations), n) : null });
    let obs = t.observations, obsNames = t.observationNames;
    if (!numbers && obs.data) ({ codes: obs, names: obsNames } = S.asLabels(obs));
    const distinct = numbers ? null : S.mostlyDistinct(obs, n);
    const bins = numbers ? S.parseBins(state.bins).value : null;
    const knn = S.parseKnn(state.knn).value;
    const miK = S.parseMiK(state.miK).value;
    const api = engine.api;
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
    shown = {
      exact, kind: kind.kind, baseline: prior.baseline, maxPrior: prior.maxPrior,
      miNN: got.miNN, meNN: got.meNN, mi: got.mi, me: got.me, channel: got.channel, risk, errors, notes, warnings, curve,
      miK: numbers ? miK : undefined, knnK: risk.knn?.k,
      binsText: numbers ? S.binsText(got.mi?.bins ?? got.me?.bins, bins) : 'none',
      provenance: { source, n, seed },
    };
    const names = { secrets: t.secretNames, observables: obsNames };
    replace(e.results, ...estimatesView(shown, { names, exportTable: () => S.resultsTable(shown, version), cite: S.citeLine(version) }));
    replace(e.plots, ...convergencePlots(shown));
    const failed = Object.keys(errors).length;
    setStatus(`Estimated from ${n.toLocaleString('en')} samples${failed ? `; ${failed === 1 ? 'one estimate' : `${failed} estimates`} could not be made (said in the table)` : ''}.`, false);
  }

  e.n.addEventListener('input', () => { state.n = e.n.value; });
  e.seed.addEventListener('input', () => { state.seed = e.seed.value; });
  e.draw.addEventListener('click', () => { state.source = 'channel'; task.now('channel'); });
  e.file.addEventListener('change', () => {
    file = e.file.files?.[0] ?? null;
    if (file) { state.source = 'file'; task.now('file'); }
  });
  e.cancel.addEventListener('click', () => {
    if (loadJob) loadJob.cancel();
    task.cancel();
    setProgress(null);
    setStatus('Cancelled.');
  });
  root.dataset.busy = 'false';

  return {
    getState: () => ({ ...state }),
    setState(s) { S.assignState(state, s); e.n.value = state.n; e.seed.value = state.seed; panel.sync(); },
    check: S.checkState,
    getResults: () => (shown ? S.resultsTable(shown, version) : null),
    /** For the tests: the results shown, as data. */
    shown: () => shown,
    /** Loads samples from text (as a file would be). */
    loadText(text, name = 'samples.csv') {
      file = new File([text], name, { type: 'text/csv' });
      state.source = 'file';
      return task.now('file');
    },
  };
}
