// sections/observations/view.js — the "From observations" section: leakage estimated from samples
// of a black-box system (qif.estimate; leakiEst, Chothia et al. (CAV 2013), and F-BLEAU, Cherubin
// et al. (S&P 2019)). The samples come from a CSV/TSV file (a secret column, then observation
// columns; numeric columns make a vector observation) read by the data worker, or are drawn from
// the channel and prior of the Channel section, whose exact values are then shown beside the
// estimates. It shows the estimated channel (label observations), mutual information and
// min-entropy leakage with their 95% intervals, the zero-leakage verdict in words, the Bayes risk
// by each rule with the nearest-neighbour bound, and the k-NN estimate's convergence curve.
//
// Nothing is computed on the page's thread: the file is parsed in the data worker, every
// estimate in the engine's worker (one job, with progress and Cancel).

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { linePlot } from '../../lib/plot.js';
import { exportMenu } from '../../lib/export.js';
import { createPipeline } from '../../engine/pipeline.js';
import { reportToJob } from '../../engine/client.js';
import { dataWorker } from '../../engine/data-client.js';
import { parseNumber } from '../../input/number.js';
import { refLink } from '../../lib/formulas.js';
import * as S from './state.js';

function num(x) {
  const el = h('span', { class: 'value' }, Number.isFinite(x) ? formatNumber(x) : '—');
  if (Number.isFinite(x)) { el.title = formatFull(x); el.dataset.value = String(x); }
  return el;
}

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

export function mount(root, { engine }) {
  addStylesheet('sections/observations/style.css', 'observations');
  const state = { ...S.DEFAULT_STATE };
  let shown = null; // {mi, me, risk: {rule: result}, exact?, channel?}
  let file = null;

  const e = {
    n: h('input', { id: 'obs-n', class: 'num', inputmode: 'numeric', value: state.n, 'aria-describedby': 'obs-status' }),
    seed: h('input', { id: 'obs-seed', class: 'num', inputmode: 'numeric', value: state.seed }),
    draw: h('button', { type: 'button', 'data-testid': 'obs-draw' }, 'Draw and estimate'),
    file: h('input', { id: 'obs-file', type: 'file', accept: '.csv,.tsv,.txt,text/csv,text/tab-separated-values', 'data-testid': 'obs-file' }),
    cancel: h('button', { type: 'button', hidden: true, 'data-testid': 'obs-cancel' }, 'Cancel'),
    progress: h('progress', { max: 1, hidden: true }),
    status: h('p', { id: 'obs-status', class: 'obs-status', role: 'status', 'data-testid': 'obs-status' }),
    results: h('div', { 'data-testid': 'obs-results' }),
  };
  replace(root,
    h('div', { class: 'section-head' }, h('h2', { id: 'observations-title' }, 'From observations')),
    h('p', {}, 'Leakage estimated from samples (secret, observation) of a system you can only run: mutual information and min-entropy leakage with 95% intervals and a zero-leakage test (leakiEst, ', refLink('Chothia et al. (CAV 2013)'), '), and the Bayes risk by the frequentist, nearest-neighbour and k-NN rules (F-BLEAU, ', refLink('Cherubin et al. (S&P 2019)'), '). Draw samples from the channel of the Channel section to watch the estimates approach its exact values, or load your own. ',
      h('a', { href: 'docs/guides/estimating-leakage.html' }, 'What the numbers mean.')),
    h('div', { class: 'obs-source' },
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-n' }, 'Samples n'), e.n),
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-seed' }, 'Seed'), e.seed),
      e.draw,
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-file' }, 'Or load a CSV/TSV file (secret, observation…; up to 10⁶ rows)'), e.file),
      e.cancel),
    e.progress, e.status, e.results);

  const pipe = createPipeline({ engine, onBusy: (b) => { root.dataset.busy = String(b); } });
  let loadJob = null;
  const setStatus = (text, error = false) => { e.status.textContent = text; e.status.dataset.error = String(error); };
  const setProgress = (f) => {
    e.progress.hidden = f === null;
    e.cancel.hidden = f === null;
    if (f !== null) e.progress.value = f;
  };

  const task = pipe.task(async (job, source) => {
    shown = null;
    replace(e.results);
    let secrets, observations, exact = null, names = null;
    if (source === 'channel') {
      const n = S.parseN(state.n), seed = S.parseSeed(state.seed);
      if (n.error || seed.error) { setStatus(n.error || seed.error, true); return; }
      const ch = await channelOfChannelSection();
      if (ch.error) { setStatus(ch.error, true); return; }
      setStatus(`Drawing ${n.value.toLocaleString('en')} samples…`);
      const [s, mi, me, v] = await job.run([engine.plan.channel.sample(ch.prior, ch.C, n.value, { seed: seed.value }),
        engine.plan.measure.mutualInformation(ch.prior, ch.C), engine.plan.measure.minEntropyLeakage(ch.prior, ch.C),
        engine.plan.measure.posteriorBayesVulnerability(ch.prior, ch.C)], { cancelStale: true });
      if (!s.ok) { setStatus(s.error, true); return; }
      ({ secrets, observations } = s.value);
      exact = { mi: mi.ok ? mi.value : NaN, me: me.ok ? me.value : NaN, risk: v.ok ? 1 - v.value : NaN };
      names = ch;
    } else {
      if (!file) { setStatus('Choose a file.', true); return; }
      setStatus(`Reading ${file.name}…`);
      setProgress(0);
      loadJob = dataWorker.samples(file, { onProgress: (f) => setProgress(f) });
      let t;
      try {
        t = await loadJob.promise;
      } catch (err) {
        setProgress(null);
        if (err.name === 'AbortError') return;
        setStatus(`${file.name}: ${err.message}`, true);
        return;
      } finally {
        loadJob = null;
      }
      job.check();
      ({ secrets, observations } = t);
      names = { secrets: t.secretNames, observables: t.observationNames };
      setStatus(`${t.rows.toLocaleString('en')} samples read from ${file.name}${t.observations.data ? `, observations of ${t.observationColumns} number${t.observationColumns > 1 ? 's' : ''} each (compared by distance)` : ', label observations'}${t.decimalComma ? '; commas between digits read as decimal commas (0,5 = one half)' : ''}.`);
    }
    const vectors = Boolean(observations && observations.data);
    const rules = S.rulesFor(vectors);
    // A large matrix goes to the worker once, in pieces, instead of being cloned on this thread.
    if (vectors && observations.data.length > 100_000) observations = engine.share('observations-samples', observations);
    const calls = [];
    if (!vectors) {
      calls.push(engine.plan.estimate.channel(secrets, observations),
        engine.plan.estimate.mutualInformation(secrets, observations, { seed: 1 }),
        engine.plan.estimate.minEntropyLeakage(secrets, observations, { seed: 1 }));
    }
    for (const rule of rules) calls.push(engine.plan.estimate.bayesRisk(secrets, observations, { method: rule, seed: 1, onProgress: reportToJob }));
    setStatus(`${e.status.textContent} Estimating…`);
    setProgress(0);
    const base = vectors ? 0 : 3;
    const res = await job.run(calls, {
      cancelStale: true,
      onProgress: (data, call) => setProgress(((call - base) + data[0] / data[1]) / rules.length),
    });
    setProgress(null);
    const failed = res.find((r) => !r.ok);
    if (failed) { setStatus(failed.error, true); return; }
    shown = { exact, vectors, risk: {} };
    if (!vectors) [shown.channel, shown.mi, shown.me] = res.slice(0, 3).map((r) => r.value);
    rules.forEach((rule, i) => { shown.risk[rule] = res[base + i].value; });
    render(shown, names);
    setStatus(`Estimated from ${(secrets.length).toLocaleString('en')} samples.`);
  });

  function render(r, names) {
    const exactCell = (k) => (r.exact ? h('td', {}, num(r.exact[k])) : null);
    const head = ['', 'estimate', '95% interval', r.exact ? 'exact' : null].filter((x) => x !== null);
    const rows = [];
    if (r.mi) {
      rows.push(h('tr', { 'data-testid': 'obs-mi' }, h('th', {}, 'Mutual information (bits), bias-corrected'), h('td', {}, num(r.mi.corrected)),
        h('td', {}, num(r.mi.lower), ' – ', num(r.mi.upper)), exactCell('mi')));
      rows.push(h('tr', { 'data-testid': 'obs-me' }, h('th', {}, 'Min-entropy leakage (bits)'), h('td', {}, num(r.me.value)),
        h('td', {}, num(r.me.lower), ' – ', num(r.me.upper)), exactCell('me')));
    }
    for (const [rule, b] of Object.entries(r.risk)) {
      rows.push(h('tr', { 'data-testid': `obs-risk-${rule}` }, h('th', {}, `Bayes risk, ${S.RULE_NAMES[rule]}${rule === 'knn' ? ` (k = ${b.k})` : ''}; NN bound ${formatNumber(b.nnBound)}`),
        h('td', {}, num(b.value)), h('td', {}, num(b.lower), ' – ', num(b.upper)), exactCell('risk')));
    }
    const table = h('table', { class: 'obs-table' }, h('thead', {}, h('tr', {}, ...head.map((x) => h('th', {}, x)))), h('tbody', {}, ...rows));
    const parts = [h('div', { class: 'results-bar' }, h('h3', {}, 'Estimates'), exportMenu(() => S.resultsTable(r), { what: 'estimates', testid: 'obs-export', file: 'estimates' })), table];
    if (r.mi) parts.push(h('p', { class: 'obs-verdict', 'data-leaks': String(r.mi.leaks), 'data-testid': 'obs-verdict' }, S.verdict(r.mi, formatNumber)));
    const knn = r.risk.knn;
    const series = Object.entries(r.risk).map(([rule, b]) => ({ name: S.RULE_NAMES[rule], points: [...b.curve.n].map((n, i) => [n, b.curve.estimate[i]]) }));
    parts.push(linePlot({ title: 'Bayes risk estimate against the training size', xLabel: 'training samples', yLabel: 'estimated Bayes risk',
      series, hLines: r.exact ? [{ y: r.exact.risk, label: `exact R* = ${formatNumber(r.exact.risk)}` }] : [{ y: knn.nnBound, label: 'NN bound' }] }));
    if (r.channel && r.channel.channel.rows * r.channel.channel.cols <= S.SHOW_CHANNEL_UP_TO) {
      const c = r.channel;
      const label = (list, k) => (list ? list[Number(k)] ?? k : k);
      parts.push(h('h3', {}, 'Estimated channel Ĉ[x][o] = #(x, o)/#x'), h('div', { class: 'obs-channel' },
        h('table', { class: 'obs-table', 'data-testid': 'obs-channel' },
          h('thead', {}, h('tr', {}, h('th', {}, 'x \\ o'), ...c.observations.map((o) => h('th', {}, label(names?.observables, o))), h('th', {}, 'π̂'))),
          h('tbody', {}, ...c.secrets.map((x, i) => h('tr', {}, h('th', {}, label(names?.secrets, x)),
            ...c.observations.map((_, j) => h('td', {}, num(c.channel.data[i * c.channel.cols + j]))), h('td', {}, num(c.prior[i]))))))));
    } else if (r.channel) {
      parts.push(h('p', { class: 'results-note' }, `The estimated channel has ${r.channel.channel.rows} × ${r.channel.channel.cols} entries: export it from the engine (qif.estimate.channel) to see it.`));
    }
    replace(e.results, ...parts);
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
    setState(s) { S.assignState(state, s); e.n.value = state.n; e.seed.value = state.seed; },
    check: S.checkState,
    getResults: () => (shown ? S.resultsTable(shown) : null),
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

