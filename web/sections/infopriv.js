// sections/infopriv.js — the "Information privacy" section (Wu (2019) and Vadhan (2013)).
//
// A user builds a small query over records (2–6 records of 2–4 values each; a count, sum, max, min
// or a custom table from tuples to answers), adds noise on the answers, and the worker builds the
// tuple channel (infoPrivacy.queryChannel). Beside each other the section shows the individual
// channel capacity (Wu (2019) Thm 3.1: the worst individual and situation, with the
// capacity-achieving prior), its max-case twin — the smallest ε of ε-DP for "differ in one record"
// —, the δ(ε) curve on the record graph with the smallest ε for a typed δ, and the posterior/prior
// ratios of one sub-channel against e^{±ε} (Vadhan (2013) Prop. 1). A card below holds the privacy
// channels of Wu (2019) (binary symmetric, Gaussian, variance comparison).
//
// Flow: an edit updates `state`, validates in JS (messages beside the field), and schedules
// a debounced pipeline: noise (worker) → tuple channel and record graph (worker) → one
// "heavy" job (ε, capacity with progress, δ curve, ε for δ) → the Bayesian panel. Each stage
// is dropped as soon as a newer edit starts another pipeline (latestOnly + a generation
// number). The heavy job of a large query can be cancelled (the worker restarts).

import { h, replace } from '../dom.js';
import { latestOnly, STALE, debounce } from '../client.js';
import { formatNumber, uniformEntry } from '../numbers.js';
import { linePlot, barChart, PALETTE } from '../plot.js';
import {
  MIN_RECORDS, MAX_RECORDS, MIN_VALUES, MAX_VALUES, MAX_CUSTOM_TUPLES, QUERIES, NOISES,
  tupleCount, allTuples, builtinTable, tupleText, situationText, identity, binarySymmetric,
  parseBounded, parseDelta, parseTable, parsePrior,
} from './infopriv-query.js';
import { resultRow, field, selectField, num } from './infopriv-ui.js';
import { channelsCard } from './infopriv-channels.js';
import { sourceRefs } from '../formulas.js';

const DEBOUNCE_MS = 150;
/** Heavy jobs on at least this many tuples show their progress at once (else after a delay). */
const PROGRESS_NOW_TUPLES = 1024;
const PROGRESS_AFTER_MS = 250;
/** An outdated heavy job on at least this many tuples is cancelled rather than left to finish. */
const CANCEL_OLD_TUPLES = 256;
const CURVE_POINTS = 101;

const DEFAULTS = {
  domains: [2, 2, 2],
  query: 'count',
  custom: null,
  noise: 'rr',
  epsilon: '1',
  p: '0.25',
  delta: '0.1',
  situation: 'capacity',
  individual: 0,
  others: [0, 0],
  prior: null,
};

let cssLoaded = false;
function loadCss() {
  if (cssLoaded || document.querySelector('link[data-section-css="infopriv"]')) return;
  cssLoaded = true;
  document.head.append(h('link', { rel: 'stylesheet', href: 'sections/infopriv.css', 'data-section-css': 'infopriv' }));
}

class Stale extends Error {}

export function mount(root, { client }) {
  loadCss();
  const state = structuredClone(DEFAULTS);
  const latest = latestOnly();

  // ------------------------------------------------------------ busy flag (tests, screen readers)
  const scheduled = new Set();
  const running = new Map(); // key → count of promises in flight
  function updateBusy() {
    const busyNow = scheduled.size > 0 || [...running.values()].some((n) => n > 0);
    root.dataset.busy = String(busyNow);
    root.setAttribute('aria-busy', String(busyNow));
  }
  const busy = {
    schedule(key) { scheduled.add(key); updateBusy(); },
    track(key, promise) {
      scheduled.delete(key);
      if (promise) {
        running.set(key, (running.get(key) ?? 0) + 1);
        const done = () => { running.set(key, running.get(key) - 1); updateBusy(); };
        promise.then(done, done);
      }
      updateBusy();
      return promise;
    },
  };

  // ------------------------------------------------------------ inputs: the query
  const recordsSel = selectField({
    id: 'ip-records', label: 'Records',
    options: range(MIN_RECORDS, MAX_RECORDS).map((n) => [n, String(n)]), value: state.domains.length,
  });
  const valuesWrap = h('div', { class: 'ip-values', role: 'group', 'aria-label': 'Number of values of each record' });
  const querySel = selectField({
    id: 'ip-query', label: 'Query',
    options: [...Object.entries(QUERIES).map(([k, q]) => [k, q.label]), ['custom', 'Custom table (tuple → answer)']], value: state.query,
  });
  const queryInfo = h('p', { class: 'muted', 'data-testid': 'ip-query-info', 'aria-live': 'polite' });
  const tableWrap = h('div', { class: 'ip-custom', 'data-testid': 'ip-custom' });
  const tableErrors = h('p', { class: 'msg ip-block-msg', 'data-testid': 'ip-table-msg', role: 'alert' });

  // ------------------------------------------------------------ inputs: the noise
  const noiseSel = selectField({ id: 'ip-noise', label: 'Noise on the answers', options: Object.entries(NOISES).map(([k, n]) => [k, n.label]), value: state.noise });
  const expEps = h('span', { class: 'ip-aside', 'data-testid': 'ip-exp-eps' });
  const epsField = field({ id: 'ip-epsilon', label: ['ε ', h('span', { class: 'unit', text: '(nats)' })], value: state.epsilon, title: 'ε > 0, in nats', after: expEps });
  const pField = field({ id: 'ip-flip', label: ['Flip probability ', h('var', { text: 'p' })], value: state.p, title: '0 ≤ p ≤ 1' });
  const noiseHint = h('p', { class: 'hint ip-noise-hint', 'data-testid': 'ip-noise-hint' });
  const noiseMsg = h('p', { class: 'msg ip-block-msg', 'data-testid': 'ip-noise-msg', role: 'alert' });

  const queryCard = h('section', { class: 'card', 'aria-labelledby': 'ip-query-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-query-title', text: 'A query over records' }), sourceRefs('Wu (2019) §3')),
    h('p', { class: 'hint', text: 'Each record holds one of a few values (0, 1, …). The query maps each tuple of records to an answer; tuples are listed with record 1 most significant.' }),
    h('div', { class: 'ip-fields' }, recordsSel.wrap, querySel.wrap),
    valuesWrap,
    queryInfo,
    tableWrap,
    tableErrors);
  const noiseCard = h('section', { class: 'card', 'aria-labelledby': 'ip-noise-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-noise-title', text: 'Noise on the answers' })),
    h('div', { class: 'ip-fields' }, noiseSel.wrap, epsField.wrap, pField.wrap),
    noiseHint, noiseMsg);

  // ------------------------------------------------------------ results: individual leakage
  const progressEl = h('div', { class: 'ip-progress', 'data-testid': 'ip-progress', role: 'status', hidden: true });
  const capRow = resultRow({ id: 'capacity', name: 'Individual channel capacity', formula: 'max_i max_{x₋ᵢ} max_{p(xᵢ)} I(Xᵢ; Y | x₋ᵢ)', tex: String.raw`\max_i \max_{x_{-i}} \max_{p(x_i)} I(X_i; Y \mid x_{-i})`, unit: 'bits' });
  const epsRow = resultRow({ id: 'epsilon', name: 'Smallest ε (differ in one record)', formula: 'max_{i, x₋ᵢ, a, b, y} ln C(y | a, x₋ᵢ) / C(y | b, x₋ᵢ)', tex: String.raw`\max_{i,\,x_{-i},\,a,\,b,\,y} \ln \frac{C(y \mid a, x_{-i})}{C(y \mid b, x_{-i})}`, unit: 'nats' });
  const subNote = h('p', { class: 'muted', 'data-testid': 'ip-subchannels' });
  const individualCard = h('section', { class: 'card', 'aria-labelledby': 'ip-individual-title', 'data-testid': 'ip-individual' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-individual-title', text: 'How much one record can leak' }), sourceRefs('Wu (2019) §3.2, Theorem 3.1 · Vadhan (2013) §2')),
    h('p', { class: 'hint', text: 'Shannon side: the capacity of the worst individual over independent priors, reached with the other records fixed. Max side: the largest log-ratio over the same family — the smallest ε of ε-DP.' }),
    progressEl,
    h('dl', { class: 'result-list' }, capRow.root, epsRow.root),
    subNote);

  // ------------------------------------------------------------ results: (ε, δ)
  const plotWrap = h('div', { class: 'ip-plot', 'data-testid': 'ip-delta-plot' });
  const deltaField = field({ id: 'ip-delta', label: ['δ ', h('span', { class: 'unit', text: '(probability, 0 ≤ δ ≤ 1)' })], value: state.delta, title: 'δ between 0 and 1' });
  const e4dRow = resultRow({ id: 'eps-for-delta', name: 'Smallest ε for this δ', formula: 'min { ε : δ(ε) ≤ δ }', tex: String.raw`\min\{\varepsilon : \delta(\varepsilon) \le \delta\}`, unit: 'nats' });
  const deltaCard = h('section', { class: 'card', 'aria-labelledby': 'ip-delta-title', 'data-testid': 'ip-delta-card' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-delta-title', text: '(ε, δ)-differential privacy' }), sourceRefs('Vadhan (2013) §1.2 · Mathematics §3.2')),
    h('p', { class: 'hint', text: 'δ(ε) is the largest hockey-stick divergence Σ_y max(0, C(y|x) − e^ε C(y|x′)) over tuples x, x′ that differ in one record.' }),
    plotWrap,
    h('div', { class: 'ip-fields' }, deltaField.wrap),
    h('dl', { class: 'result-list' }, e4dRow.root));

  // ------------------------------------------------------------ results: Bayesian reading
  const sitSel = selectField({
    id: 'ip-situation', label: 'Sub-channel',
    options: [['capacity', 'Worst for capacity'], ['epsilon', 'Worst for ε'], ['custom', 'Choose the record and the others…']], value: state.situation,
  });
  const customSit = h('div', { class: 'ip-fields ip-custom-sit', 'data-testid': 'ip-custom-situation' });
  const sitText = h('p', { class: 'muted', 'data-testid': 'ip-situation-text' });
  const priorWrap = h('div', { class: 'ip-prior', role: 'group', 'aria-label': 'Prior on the values of the record' });
  const priorMsg = h('p', { class: 'msg ip-block-msg', 'data-testid': 'ip-prior-msg', role: 'alert' });
  const uniformBtn = h('button', { type: 'button', class: 'small', 'data-testid': 'ip-prior-uniform', text: 'Uniform prior' });
  const maxRatioRow = resultRow({ id: 'ratio-max', name: 'Largest posterior/prior ratio', formula: 'max_{v,y} p(v|y)/π(v) = C(y|v)/p(y) ≤ e^ε', tex: String.raw`\max_{v,y} \frac{p(v\mid y)}{\pi(v)} = \frac{C(y\mid v)}{p(y)} \le e^\varepsilon`, unit: '' });
  const minRatioRow = resultRow({ id: 'ratio-min', name: 'Smallest posterior/prior ratio', formula: 'min_{v,y} p(v|y)/π(v) ≥ e^{−ε}', tex: String.raw`\min_{v,y} \frac{p(v\mid y)}{\pi(v)} \ge e^{-\varepsilon}`, unit: '' });
  const barsWrap = h('div', { class: 'ip-plot', 'data-testid': 'ip-bayes-plot' });
  const bayesCard = h('section', { class: 'card', 'aria-labelledby': 'ip-bayes-title', 'data-testid': 'ip-bayes' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-bayes-title', text: 'Bayesian reading: posterior / prior' }), sourceRefs('Vadhan (2013) §4, Proposition 1')),
    h('p', { class: 'hint', text: 'For a prior on one record’s values (the others fixed), ε-DP keeps every ratio p(v|y)/π(v) between e^−ε and e^ε.' }),
    h('div', { class: 'ip-fields' }, sitSel.wrap),
    customSit,
    sitText,
    h('div', { class: 'ip-prior-row' }, priorWrap, uniformBtn),
    priorMsg,
    h('dl', { class: 'result-list' }, maxRatioRow.root, minRatioRow.root),
    barsWrap);

  const channels = channelsCard({ client, latest, busy });

  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'infopriv-title', text: 'Information privacy' }),
      h('p', {}, 'A query over a few records, with noise on its answers: how much can one record leak? ',
        'The Shannon view (individual channel capacity, bits) sits beside the max-case view (the ε of differential privacy, nats), ',
        'with the (ε, δ) trade-off and the Bayesian reading of ε.')),
    h('div', { class: 'layout' },
      h('div', { class: 'inputs' }, queryCard, noiseCard, channels.el),
      h('div', { class: 'results' }, individualCard, deltaCard, bayesCard)));

  // ------------------------------------------------------------ rendering of the inputs
  function renderValues() {
    replace(valuesWrap, state.domains.map((d, i) => {
      const s = selectField({
        id: `ip-values-${i}`, label: `Values of record ${i + 1}`,
        options: range(MIN_VALUES, MAX_VALUES).map((v) => [v, String(v)]), value: d,
      });
      s.select.dataset.record = String(i);
      return s.wrap;
    }));
  }

  function renderQueryControls() {
    const n = tupleCount(state.domains);
    const customOption = querySel.select.querySelector('option[value="custom"]');
    customOption.disabled = n > MAX_CUSTOM_TUPLES;
    if (state.query === 'custom' && n > MAX_CUSTOM_TUPLES) state.query = 'count';
    querySel.select.value = state.query;
    renderCustomTable();
  }

  function renderCustomTable() {
    if (state.query !== 'custom') {
      tableWrap.replaceChildren();
      tableWrap.hidden = true;
      return;
    }
    tableWrap.hidden = false;
    const tuples = allTuples(state.domains);
    const head = h('tr', {},
      h('th', { scope: 'col', class: 'corner', text: `tuple (record 1…${state.domains.length})` }),
      h('th', { scope: 'col', text: 'answer' }));
    const rows = tuples.map((t, k) => h('tr', {},
      h('th', { scope: 'row', class: 'static-label', text: tupleText(t) }),
      h('td', {}, h('input', {
        type: 'text', class: 'num ip-answer', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
        'aria-label': `Answer for tuple ${tupleText(t)}`, 'data-testid': `ip-table-${k}`, id: `ip-table-${k}`,
        dataset: { row: String(k) }, value: state.custom[k] ?? '0',
      }))));
    replace(tableWrap,
      h('p', { class: 'hint', text: `Type the answer index (0, 1, …) of each tuple; the answers are 0 … the largest index used. Custom tables are editable up to ${MAX_CUSTOM_TUPLES} tuples.` }),
      h('div', { class: 'table-wrap ip-table-wrap' }, h('table', { class: 'grid ip-table', 'data-testid': 'ip-table' }, h('thead', {}, head), h('tbody', {}, rows))));
  }

  function renderNoiseControls() {
    const param = NOISES[state.noise].param;
    epsField.wrap.hidden = param !== 'epsilon';
    pField.wrap.hidden = param !== 'p';
    noiseSel.select.value = state.noise;
  }

  // ------------------------------------------------------------ reading and validating the inputs

  // The current query and noise, or null (with the messages shown) when some input is invalid.
  function readSpec() {
    const domains = state.domains.slice();
    let table;
    let ok = true;
    if (state.query === 'custom') {
      const r = parseTable(state.custom);
      for (const input of tableWrap.querySelectorAll('input.ip-answer')) {
        const bad = r.errors?.find(([k]) => k === Number(input.dataset.row));
        input.classList.toggle('invalid', !!bad);
        input.setAttribute('aria-invalid', bad ? 'true' : 'false');
        input.title = bad ? bad[1] : '';
      }
      if (r.errors) {
        const [k, msg] = r.errors[0];
        tableErrors.textContent = `Tuple ${tupleText(allTuples(domains)[k])}: ${msg}` + (r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : '');
        ok = false;
      } else {
        tableErrors.textContent = '';
        table = r.table;
      }
    } else {
      tableErrors.textContent = '';
      table = builtinTable(state.query, domains);
    }
    const m = table ? Math.max(...table) + 1 : null;
    const n = tupleCount(domains);
    queryInfo.textContent = m === null ? `${n} tuples.` : `${n} tuples → ${m} answer${m === 1 ? '' : 's'} (0 … ${m - 1}); ${domains.length} individuals.`;

    const param = NOISES[state.noise].param;
    let epsilon = null;
    let p = null;
    epsField.setError('');
    pField.setError('');
    noiseMsg.textContent = '';
    expEps.replaceChildren();
    if (param === 'epsilon') {
      const r = parseBounded(state.epsilon, { min: 0, minOpen: true, max: 50, what: 'ε' });
      if ('error' in r) { epsField.setError(r.error); ok = false; } else {
        epsilon = r.value;
        expEps.append('e^ε = ', num(Math.exp(epsilon), { 'data-testid': 'ip-exp-eps-value' }));
      }
    } else if (param === 'p') {
      const r = parseBounded(state.p, { min: 0, max: 1, what: 'p' });
      if ('error' in r) { pField.setError(r.error); ok = false; } else p = r.value;
      if (m !== null && m !== 2) {
        noiseMsg.textContent = `The binary symmetric channel needs exactly 2 answers; this query has ${m}.`;
        ok = false;
      }
    }
    noiseHint.textContent = noiseDescription(state.noise, m);
    if (!ok) return null;
    let noise = null;
    if (m === 1) noise = [[1]];
    else if (state.noise === 'none') noise = identity(m);
    else if (state.noise === 'bsc') noise = binarySymmetric(p);
    return { domains, table, m, noiseKind: state.noise, epsilon, noise, tuples: n };
  }

  // ------------------------------------------------------------ the pipeline
  let gen = 0;
  let cur = null; // {gen, domains, C, graph, eps?, cap?}
  let heavyJob = null; // {id, tuples}
  const graphCache = { key: null, graph: null };

  const scheduleMain = (() => {
    // The whole run counts as busy, stage gaps included.
    const go = debounce(() => busy.track('main', runMain()), DEBOUNCE_MS);
    return () => { busy.schedule('main'); go(); };
  })();

  function stage(key, promise, g) {
    return latest(key, busy.track(key, promise)).then((v) => {
      if (v === STALE || g !== gen) throw new Stale();
      return v;
    });
  }

  async function runMain() {
    const g = ++gen;
    const spec = readSpec();
    if (heavyJob && client.pending(heavyJob.id) && heavyJob.tuples >= CANCEL_OLD_TUPLES) {
      const old = heavyJob;
      heavyJob = null;
      client.cancel(old.id);
    }
    hideProgress();
    if (!spec) {
      cur = null;
      for (const r of [capRow, epsRow, e4dRow, maxRatioRow, minRatioRow]) r.stale('fix the input on the left');
      markFigures(true);
      subNote.classList.add('stale');
      return;
    }
    for (const r of [capRow, epsRow, e4dRow, maxRatioRow, minRatioRow]) r.pending();
    markFigures(true);
    subNote.classList.add('stale');
    try {
      let noise = spec.noise;
      if (!noise) {
        const fn = spec.noiseKind === 'rr' ? 'randomizedResponse' : 'truncatedGeometric';
        noise = await stage('noise', client.call('mechanism', fn, spec.m, spec.epsilon), g);
      }
      const gkey = spec.domains.join(',');
      const calls = [{ ns: 'infoPrivacy', fn: 'queryChannel', args: [{ domains: spec.domains, table: spec.table, noise }] }];
      if (graphCache.key !== gkey) calls.push({ ns: 'infoPrivacy', fn: 'recordGraph', args: [spec.domains] });
      const res = await stage('channel', client.submit(calls).promise, g);
      const failed = res.find((r) => !r.ok);
      if (failed) throw new Error(failed.error);
      if (res[1]) { graphCache.key = gkey; graphCache.graph = res[1].value; }
      cur = { gen: g, domains: spec.domains, C: res[0].value, graph: graphCache.graph, tuples: spec.tuples };
      await runHeavy(g);
    } catch (err) {
      if (err instanceof Stale || g !== gen) return;
      const cancelled = err && err.name === 'CancelledError';
      const e = { error: cancelled ? 'Cancelled.' : err.message, cancelled };
      for (const r of [capRow, epsRow, e4dRow, maxRatioRow, minRatioRow]) r.set(e);
    }
  }

  async function runHeavy(g) {
    const { domains, C, graph, tuples } = cur;
    const delta = parseDelta(state.delta);
    deltaField.setError(delta.error);
    const calls = [
      { ns: 'infoPrivacy', fn: 'individualEpsilon', args: [{ domains, channel: C }] },
      { ns: 'infoPrivacy', fn: 'individualCapacity', args: [{ domains, channel: C }], progress: { arg: 0, key: 'onProgress' } },
      { ns: 'infoPrivacy', fn: 'deltaCurve', args: [C, graph, { points: CURVE_POINTS }] },
    ];
    if (!delta.error) calls.push({ ns: 'infoPrivacy', fn: 'epsilonForDelta', args: [C, graph, delta.value] });
    let reports = 0;
    const job = client.submit(calls, {
      onProgress: (data) => {
        if (g !== gen) return;
        reports++;
        progressEl.dataset.reports = String(reports);
        showProgress(data);
      },
    });
    heavyJob = { id: job.id, tuples };
    const timer = setTimeout(() => { if (g === gen && client.pending(job.id)) showProgress(null); }, tuples >= PROGRESS_NOW_TUPLES ? 0 : PROGRESS_AFTER_MS);
    let results;
    try {
      results = await stage('heavy', job.promise, g);
    } catch (err) {
      if (g !== gen) throw new Stale();
      if (!(err instanceof Stale) && err && err.name === 'CancelledError') {
        hideProgress();
        showCancelled();
        throw new Stale(); // shown already
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
    hideProgress();
    const [eps, cap, curve, e4d] = results;
    cur.eps = eps.ok ? eps.value : null;
    cur.cap = cap.ok ? cap.value : null;
    cur.curve = curve.ok ? curve.value : null;
    showEpsilon(eps);
    showCapacity(cap);
    showCurve(curve);
    if (e4d) showEpsForDelta(e4d, delta.value);
    else e4dRow.stale('fix δ above');
    renderSituationControls();
    await runBayes(g);
  }

  // ------------------------------------------------------------ progress and cancel
  let progressText = null;
  let progressBar = null;
  function showProgress(data) {
    const [done, total] = Array.isArray(data) ? data : [];
    if (!progressText) {
      progressText = h('span', { 'data-testid': 'ip-progress-text' });
      progressBar = h('progress', { max: '1', value: '0', 'aria-label': 'Progress of the individual capacity' });
      replace(progressEl,
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'ip-cancel', text: 'Cancel', on: { click: cancelHeavy } }),
        progressBar,
        progressText);
    }
    progressEl.hidden = false;
    if (done === undefined) {
      progressText.textContent = `Computing on ${cur ? cur.tuples.toLocaleString('en') : ''} tuples…`;
      progressBar.removeAttribute('value');
    } else {
      progressText.textContent = `Individual capacity: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} sub-channels`;
      progressBar.max = total;
      progressBar.value = done;
    }
  }
  function hideProgress() {
    progressEl.hidden = true;
    progressEl.replaceChildren();
    progressText = null;
    progressBar = null;
  }
  function cancelHeavy() {
    if (heavyJob && client.pending(heavyJob.id)) client.cancel(heavyJob.id);
  }
  function showCancelled() {
    const e = { error: 'Cancelled.', cancelled: true };
    for (const r of [capRow, epsRow, e4dRow, maxRatioRow, minRatioRow]) r.set(e);
    progressEl.hidden = false;
    replace(progressEl, h('span', { 'data-testid': 'ip-cancelled', text: 'The computation was cancelled. ' }),
      h('button', { type: 'button', class: 'small', 'data-testid': 'ip-recompute', text: 'Compute again', on: { click: () => scheduleMain() } }));
  }

  // ------------------------------------------------------------ showing results
  function recordName(i) {
    return `record ${i + 1}`;
  }

  function showCapacity(r) {
    if (!r.ok) { capRow.set({ error: r.error }); subNote.textContent = ''; return; }
    const c = r.value;
    capRow.set({ value: c.capacity }, [
      h('span', { class: 'ip-detail', 'data-testid': 'ip-capacity-situation' },
        h('span', { text: `${recordName(c.individual)} varies, the others fixed: ` }),
        h('code', { 'data-testid': 'ip-capacity-tuple', text: situationText(c.individual, c.others) })),
      h('span', { class: 'ip-detail', 'data-testid': 'ip-capacity-prior' },
        'capacity-achieving prior on its values: (', join([...c.prior].map((x) => num(x)), ', '), ')'),
    ]);
    capRow.value.title = `${c.capacity} bits (certified upper bound ${c.upperBound})`;
    subNote.classList.remove('stale');
    subNote.textContent = `${c.subChannels.toLocaleString('en')} sub-channels (one per record and values of the others); ${c.solved.toLocaleString('en')} needed Blahut–Arimoto, the others were bounded away.`;
  }

  function showEpsilon(r) {
    if (!r.ok) { epsRow.set({ error: r.error }); return; }
    const e = r.value;
    const exp = Math.exp(e.epsilon);
    epsRow.set({ value: e.epsilon }, [
      h('span', { class: 'ip-detail' }, 'e^ε = ', num(exp, { 'data-testid': 'ip-epsilon-exp' })),
      h('span', { class: 'ip-detail', 'data-testid': 'ip-epsilon-situation' },
        h('span', { text: `${recordName(e.individual)} between values ${e.values[0]} and ${e.values[1]}, the others fixed: ` }),
        h('code', { 'data-testid': 'ip-epsilon-tuple', text: situationText(e.individual, e.others) }),
        h('span', { text: `, at answer ${e.output}` })),
    ]);
  }

  function showCurve(r) {
    plotWrap.classList.remove('stale');
    if (!r.ok) {
      replace(plotWrap, h('p', { class: 'r-msg', text: r.error }));
      return;
    }
    drawCurve();
  }

  function drawCurve() {
    const c = cur?.curve;
    if (!c) return;
    const points = [...c.epsilon].map((e, k) => [e, c.delta[k]]);
    const d = parseDelta(state.delta);
    const hLines = 'error' in d || d.value === 0 ? [] : [{ y: d.value, label: `δ = ${formatNumber(d.value)}` }];
    const fig = linePlot({ title: 'δ(ε): the smallest δ for (ε, δ)-DP on tuples differing in one record', xLabel: 'ε (nats)', yLabel: 'δ (probability)', series: [{ name: 'δ(ε)', points }], hLines });
    const pure = c.pureEpsilon;
    replace(plotWrap, fig, h('p', { class: 'muted', 'data-testid': 'ip-pure-epsilon' },
      Number.isFinite(pure) ? ['δ = 0 from ε = ', num(pure), ' nats on (pure ε-DP).'] : 'No finite ε gives δ = 0: some answer is possible for one tuple and impossible for a neighbour.'));
    plotWrap.dataset.pure = String(pure);
    plotWrap.dataset.last = String(c.delta[c.delta.length - 1]);
  }

  function showEpsForDelta(r, delta) {
    if (!r.ok) { e4dRow.set({ error: r.error }); return; }
    e4dRow.set({ value: r.value }, Number.isFinite(r.value)
      ? [h('span', { class: 'ip-detail' }, 'e^ε = ', num(Math.exp(r.value)), ` at δ = ${formatNumber(delta)}`)] : [h('span', { class: 'ip-detail', text: 'no finite ε reaches this δ' })]);
  }

  function markFigures(stale) {
    plotWrap.classList.toggle('stale', stale);
    barsWrap.classList.toggle('stale', stale);
  }

  // ------------------------------------------------------------ δ typed by the user
  const scheduleDelta = (() => {
    const go = debounce(() => busy.track('delta', runDelta()), DEBOUNCE_MS);
    return () => { busy.schedule('delta'); go(); };
  })();

  async function runDelta() {
    const d = parseDelta(state.delta);
    deltaField.setError(d.error);
    if (d.error) {
      e4dRow.stale('fix δ above');
      latest('e4d', Promise.resolve(null));
      drawCurve();
      return;
    }
    drawCurve();
    if (!cur || !cur.curve) return; // the pipeline will compute it
    const g = gen;
    e4dRow.pending();
    try {
      const v = await stage('e4d', client.call('infoPrivacy', 'epsilonForDelta', cur.C, cur.graph, d.value), g);
      showEpsForDelta({ ok: true, value: v }, d.value);
    } catch (err) {
      if (err instanceof Stale || err?.name === 'CancelledError') return;
      e4dRow.set({ error: err.message });
    }
  }

  // ------------------------------------------------------------ Bayesian panel
  // The situation shown: the record that varies and the values of the others.
  function situation() {
    const n = state.domains.length;
    if (state.situation === 'capacity' && cur?.cap) return { individual: cur.cap.individual, others: cur.cap.others.slice() };
    if (state.situation !== 'custom' && cur?.eps) return { individual: cur.eps.individual, others: cur.eps.others.slice() };
    const i = Math.min(state.individual, n - 1);
    const others = [];
    for (let j = 0, k = 0; j < n; j++) {
      if (j === i) continue;
      others.push(Math.min(state.others[k++] ?? 0, state.domains[j] - 1));
    }
    return { individual: i, others };
  }

  function renderSituationControls() {
    sitSel.select.value = state.situation;
    customSit.hidden = state.situation !== 'custom';
    if (state.situation === 'custom') {
      const s = situation();
      state.individual = s.individual;
      state.others = s.others;
      const n = state.domains.length;
      const items = [selectField({
        id: 'ip-sit-individual', label: 'Record that varies',
        options: range(0, n - 1).map((i) => [i, `record ${i + 1}`]), value: s.individual,
      }).wrap];
      for (let j = 0, k = 0; j < n; j++) {
        if (j === s.individual) continue;
        const sf = selectField({
          id: `ip-sit-other-${j}`, label: `record ${j + 1} =`,
          options: range(0, state.domains[j] - 1).map((v) => [v, String(v)]), value: s.others[k],
        });
        sf.select.dataset.other = String(k++);
        items.push(sf.wrap);
      }
      replace(customSit, items);
    } else customSit.replaceChildren();
    renderPrior();
  }

  function renderPrior() {
    const s = situation();
    const d = state.domains[s.individual];
    if (!state.prior || state.prior.length !== d) state.prior = new Array(d).fill(uniformEntry(d));
    const focused = document.activeElement && priorWrap.contains(document.activeElement) ? document.activeElement.id : null;
    replace(priorWrap, state.prior.map((v, k) => h('span', { class: 'ip-prior-cell' },
      h('label', { for: `ip-prior-${k}` }, 'π(', String(k), ')'),
      h('input', {
        id: `ip-prior-${k}`, type: 'text', class: 'num', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
        'data-testid': `ip-prior-${k}`, dataset: { prior: String(k) }, value: v,
      }))));
    if (focused) document.getElementById(focused)?.focus();
    sitText.replaceChildren(`${recordName(s.individual)} varies over ${d} values; the others fixed: `, h('code', { text: situationText(s.individual, s.others) }));
  }

  const scheduleBayes = (() => {
    const go = debounce(() => busy.track('bayes', runBayes(gen)), DEBOUNCE_MS);
    return () => { busy.schedule('bayes'); go(); };
  })();

  async function runBayes(g) {
    const pr = parsePrior(state.prior ?? []);
    for (const input of priorWrap.querySelectorAll('input')) {
      const bad = pr.errors?.find(([k]) => k === Number(input.dataset.prior) || k === -1);
      input.classList.toggle('invalid', !!bad);
      input.setAttribute('aria-invalid', bad ? 'true' : 'false');
    }
    priorMsg.textContent = pr.errors ? pr.errors.map(([k, m]) => (k >= 0 ? `π(${k}): ${m}` : m)).join('; ') : '';
    if (!cur) return;
    if (pr.errors) {
      maxRatioRow.stale('fix the prior above');
      minRatioRow.stale('fix the prior above');
      barsWrap.classList.add('stale');
      latest('bayes-sub', Promise.resolve(null));
      return;
    }
    maxRatioRow.pending();
    minRatioRow.pending();
    const s = situation();
    try {
      const sub = await stage('bayes-sub', client.call('infoPrivacy', 'subChannel', { domains: cur.domains, channel: cur.C, individual: s.individual, others: s.others }), g);
      const r = await stage('bayes', client.call('infoPrivacy', 'bayesRatios', pr.prior, sub), g);
      showBayes(r, s);
    } catch (err) {
      if (err instanceof Stale || err?.name === 'CancelledError') return;
      maxRatioRow.set({ error: err.message });
      minRatioRow.set({ error: err.message });
    }
  }

  function showBayes(r, s) {
    const eps = cur?.eps?.epsilon;
    const at = (p) => h('span', { class: 'ip-detail' }, `value ${p[0]}, answer ${p[1]}`);
    maxRatioRow.set({ value: r.max }, [at(r.maxAt), Number.isFinite(eps) ? h('span', { class: 'ip-detail' }, 'e^ε = ', num(Math.exp(eps))) : null].filter(Boolean));
    minRatioRow.set({ value: r.min }, [at(r.minAt), Number.isFinite(eps) ? h('span', { class: 'ip-detail' }, 'e^−ε = ', num(Math.exp(-eps))) : null].filter(Boolean));
    const { rows, cols, data } = r.ratios;
    const bars = [];
    for (let y = 0; y < cols; y++) {
      for (let v = 0; v < rows; v++) {
        bars.push({ label: `${v}→${y}`, value: data[v * cols + y], color: PALETTE[v % PALETTE.length] });
      }
    }
    const hLines = Number.isFinite(eps) ? [{ y: Math.exp(eps), label: `e^ε = ${formatNumber(Math.exp(eps))}` }, { y: Math.exp(-eps), label: `e^−ε = ${formatNumber(Math.exp(-eps))}` }] : [];
    const fig = barChart({ title: `Posterior/prior ratio p(v|y)/π(v) for each value v → answer y (${recordName(s.individual)}, others ${situationText(s.individual, s.others)})`, bars, yLabel: 'posterior / prior', hLines });
    const legend = h('p', { class: 'ip-legend' },
      range(0, rows - 1).map((v) => h('span', { class: 'ip-key' }, h('span', { class: `ip-swatch ip-swatch-${v % PALETTE.length}` }), `value ${v}`)),
      Number.isFinite(eps) ? h('span', { class: 'ip-key' }, h('span', { class: 'ip-dash' }), `e^ε = ${formatNumber(Math.exp(eps))} and e^−ε = ${formatNumber(Math.exp(-eps))}`) : null);
    barsWrap.classList.remove('stale');
    replace(barsWrap, legend, fig,
      h('p', { class: 'muted', 'data-testid': 'ip-bayes-note' },
        Number.isFinite(eps)
          ? ['ε of this sub-channel: ', num(r.epsilon), ' nats; of the whole query: ', num(eps), ' nats.']
          : 'The query is not ε-DP for any finite ε (no noise), so no e^±ε bound applies.'));
  }

  // ------------------------------------------------------------ events
  root.addEventListener('change', (e) => {
    const t = e.target;
    if (t === recordsSel.select) {
      const n = Number(t.value);
      const last = state.domains[state.domains.length - 1] ?? 2;
      while (state.domains.length < n) state.domains.push(last);
      state.domains.length = n;
      structureChanged();
    } else if (t.dataset.record !== undefined && t.id.startsWith('ip-values-')) {
      state.domains[Number(t.dataset.record)] = Number(t.value);
      structureChanged();
    } else if (t === querySel.select) {
      const prev = state.query;
      state.query = t.value;
      if (state.query === 'custom') state.custom = builtinTable(prev === 'custom' ? 'count' : prev, state.domains).map(String);
      renderCustomTable();
      scheduleMain();
    } else if (t === noiseSel.select) {
      state.noise = t.value;
      renderNoiseControls();
      scheduleMain();
    } else if (t === sitSel.select) {
      state.situation = t.value;
      if (t.value === 'custom') {
        const s = situation();
        state.individual = s.individual;
        state.others = s.others;
      }
      renderSituationControls();
      scheduleBayes();
    } else if (t.id === 'ip-sit-individual') {
      const s = situation();
      const i = Number(t.value);
      // Keep the values of the records that stay fixed.
      const full = [];
      for (let j = 0, k = 0; j < state.domains.length; j++) full.push(j === s.individual ? 0 : s.others[k++]);
      state.individual = i;
      state.others = full.filter((_, j) => j !== i);
      renderSituationControls();
      scheduleBayes();
    } else if (t.dataset.other !== undefined) {
      state.others[Number(t.dataset.other)] = Number(t.value);
      renderPrior();
      scheduleBayes();
    }
  });

  root.addEventListener('input', (e) => {
    const t = e.target;
    if (t === epsField.input) { state.epsilon = t.value; scheduleMain(); }
    else if (t === pField.input) { state.p = t.value; scheduleMain(); }
    else if (t === deltaField.input) { state.delta = t.value; scheduleDelta(); }
    else if (t.classList.contains('ip-answer')) { state.custom[Number(t.dataset.row)] = t.value; scheduleMain(); }
    else if (t.dataset.prior !== undefined) { state.prior[Number(t.dataset.prior)] = t.value; scheduleBayes(); }
  });

  uniformBtn.addEventListener('click', () => {
    state.prior = null;
    renderPrior();
    scheduleBayes();
  });

  function structureChanged() {
    if (state.query === 'custom') state.custom = builtinTable('count', state.domains).map(String);
    state.prior = null;
    renderValues();
    renderQueryControls();
    recordsSel.select.value = String(state.domains.length);
    renderSituationControls();
    scheduleMain();
  }

  // ------------------------------------------------------------ state for the URL
  function getState() {
    const s = {
      domains: state.domains.slice(), query: state.query, noise: state.noise,
      epsilon: state.epsilon, p: state.p, delta: state.delta,
      situation: state.situation, channels: channels.getState(),
    };
    if (state.query === 'custom') s.custom = state.custom.slice();
    if (state.situation === 'custom') { s.individual = state.individual; s.others = state.others.slice(); }
    if (state.prior) s.prior = state.prior.slice();
    return s;
  }

  function setState(s = {}) {
    const next = structuredClone(DEFAULTS);
    if (Array.isArray(s.domains) && s.domains.length >= MIN_RECORDS && s.domains.length <= MAX_RECORDS
      && s.domains.every((d) => Number.isInteger(d) && d >= MIN_VALUES && d <= MAX_VALUES)) next.domains = s.domains.slice();
    if (typeof s.query === 'string' && (s.query in QUERIES || s.query === 'custom')) next.query = s.query;
    const n = tupleCount(next.domains);
    if (next.query === 'custom') {
      if (n > MAX_CUSTOM_TUPLES) next.query = 'count';
      else next.custom = Array.isArray(s.custom) && s.custom.length === n ? s.custom.map((x) => String(x)) : builtinTable('count', next.domains).map(String);
    }
    if (typeof s.noise === 'string' && s.noise in NOISES) next.noise = s.noise;
    for (const k of ['epsilon', 'p', 'delta']) if (typeof s[k] === 'string' || typeof s[k] === 'number') next[k] = String(s[k]);
    if (['capacity', 'epsilon', 'custom'].includes(s.situation)) next.situation = s.situation;
    if (Number.isInteger(s.individual)) next.individual = s.individual;
    if (Array.isArray(s.others)) next.others = s.others.map((x) => (Number.isInteger(x) && x >= 0 ? x : 0));
    if (Array.isArray(s.prior)) next.prior = s.prior.map((x) => String(x));
    Object.assign(state, next);
    epsField.input.value = state.epsilon;
    pField.input.value = state.p;
    deltaField.input.value = state.delta;
    recordsSel.select.value = String(state.domains.length);
    renderValues();
    renderQueryControls();
    renderNoiseControls();
    renderSituationControls();
    channels.setState(s.channels ?? {});
    scheduleMain();
  }

  // ------------------------------------------------------------ start
  renderValues();
  renderQueryControls();
  renderNoiseControls();
  renderSituationControls();
  updateBusy();
  channels.recompute();
  scheduleMain();

  return { getState, setState };
}

function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, k) => a + k);
}

function join(nodes, sep) {
  const out = [];
  nodes.forEach((n, k) => { if (k) out.push(sep); out.push(n); });
  return out;
}

function noiseDescription(kind, m) {
  const answers = m === null ? 'the answers' : `the ${m} answers`;
  switch (kind) {
    case 'rr': return `Randomized response on ${answers}: the true answer with probability e^ε/(m − 1 + e^ε), each other answer with 1/(m − 1 + e^ε).`;
    case 'geometric': return `Truncated geometric on ${answers}: probability ∝ e^(−ε|y − r|) around the true answer r, the tails piled on the end answers.`;
    case 'bsc': return 'Binary symmetric channel: the answer is flipped with probability p (needs a query with two answers, e.g. the max or min of binary records).';
    default: return 'No noise: the exact answer is released (a deterministic query).';
  }
}

