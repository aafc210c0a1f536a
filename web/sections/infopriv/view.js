// sections/infopriv/view.js — the "Information privacy" section (Wu (2019) and Vadhan (2013)).
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
// Flow: an edit updates the state (state.js), validates at once (messages beside the field),
// and schedules the pipeline's main task: noise → tuple channel and record graph → one "heavy"
// job (ε, capacity with progress, δ curve, ε for δ) → the Bayesian panel, each stage an engine
// job planned by state.js. A newer edit supersedes the run at its next stage; the heavy job of a
// large query is cancelled then, and can be cancelled by hand (the worker restarts).

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { linePlot } from '../../lib/plot.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import {
  MIN_VALUES, MAX_VALUES, MAX_CUSTOM_TUPLES, NOISES,
  tupleCount, allTuples, builtinTable, tupleText,
  parseDelta, createState, stateForURL, sanitizeState, structureChanged as resetForStructure,
  readSpec as readInputs, noiseCall, channelPlan, heavyPlan,
} from './state.js';
import { selectField, num } from './ui.js';
import { channelsCard } from './channels.js';
import { buildSkeleton, range } from './skeleton.js';
import { bayesPanel } from './bayes.js';
import { showCapacity, showEpsilon, showEpsForDelta, noiseDescription } from './results.js';

/** Heavy jobs on at least this many tuples show their progress at once (else after the delay). */
const PROGRESS_NOW_TUPLES = 1024;
/** An outdated heavy job on at least this many tuples is cancelled rather than left to finish. */
const CANCEL_OLD_TUPLES = 256;
const CURVE_POINTS = 101;


export function mount(root, { engine }) {
  addStylesheet('sections/infopriv/style.css', 'infopriv');
  const state = createState();
  // The busy flag (tests, screen readers) follows the section's pipeline.
  const pipe = createPipeline({
    engine,
    onBusy: (b) => {
      root.dataset.busy = String(b);
      root.setAttribute('aria-busy', String(b));
    },
  });
  root.dataset.busy = 'true';

  const channels = channelsCard({ pipe });
  const els = buildSkeleton(root, state, channels.el);
  const { recordsSel, valuesWrap, querySel, queryInfo, tableWrap, tableErrors, noiseSel, expEps, epsField, pField, noiseHint, noiseMsg, progressEl, capRow, epsRow, subNote, plotWrap, deltaField, e4dRow, maxRatioRow, minRatioRow, barsWrap } = els;

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
    const r = readInputs(state);
    for (const input of tableWrap.querySelectorAll('input.ip-answer')) {
      const bad = r.tableErrors.find(([k]) => k === Number(input.dataset.row));
      input.classList.toggle('invalid', !!bad);
      input.setAttribute('aria-invalid', bad ? 'true' : 'false');
      input.title = bad ? bad[1] : '';
    }
    tableErrors.textContent = r.tableMessage;
    queryInfo.textContent = r.info;
    epsField.setError(r.epsError ?? '');
    pField.setError(r.pError ?? '');
    noiseMsg.textContent = r.noiseError ?? '';
    expEps.replaceChildren();
    if (r.epsilon !== null) expEps.append('e^ε = ', num(Math.exp(r.epsilon), { 'data-testid': 'ip-exp-eps-value' }, 'ip.expEpsilon'));
    noiseHint.textContent = noiseDescription(state.noise, r.m);
    return r.spec;
  }

  // ------------------------------------------------------------ the pipeline
  let cur = null; // {domains, C, graph, tuples, eps?, cap?, curve?}
  const graphCache = { key: null, graph: null };
  const main = pipe.task((job) => runMain(job));
  const scheduleMain = () => main.schedule();

  async function runMain(job) {
    const spec = readSpec();
    hideProgress();
    const rows = [capRow, epsRow, e4dRow, maxRatioRow, minRatioRow];
    if (!spec) {
      cur = null;
      for (const r of rows) r.stale('fix the input on the left');
      markFigures(true);
      subNote.classList.add('stale');
      return;
    }
    for (const r of rows) r.pending();
    markFigures(true);
    subNote.classList.add('stale');
    try {
      const nc = noiseCall(spec);
      const noise = nc ? await job.call(nc) : spec.noise;
      const gkey = spec.domains.join(',');
      const res = await job.run(channelPlan(spec, noise, graphCache.key === gkey));
      const failed = res.find((r) => !r.ok);
      if (failed) throw new Error(failed.error);
      if (res[1]) { graphCache.key = gkey; graphCache.graph = res[1].value; }
      cur = { domains: spec.domains, C: res[0].value, graph: graphCache.graph, tuples: spec.tuples };
      await runHeavy(job);
    } catch (err) {
      if (err instanceof Superseded) throw err;
      const e = { error: isAbort(err) ? 'Cancelled.' : err.message, cancelled: isAbort(err) };
      for (const r of rows) r.set(e);
    }
  }

  async function runHeavy(job) {
    const delta = parseDelta(state.delta);
    deltaField.setError(delta.error);
    let reports = 0;
    let results;
    try {
      results = await job.run(heavyPlan(cur, delta.error ? null : delta.value, CURVE_POINTS), {
        cancelStale: cur.tuples >= CANCEL_OLD_TUPLES,
        slow: () => showProgress(null),
        slowNow: cur.tuples >= PROGRESS_NOW_TUPLES,
        onProgress: (data) => {
          reports++;
          progressEl.dataset.reports = String(reports);
          showProgress(data);
        },
      });
    } catch (err) {
      if (!(err instanceof Superseded) && isAbort(err)) {
        hideProgress();
        showCancelled();
        return;
      }
      throw err;
    }
    hideProgress();
    const [eps, cap, curve, e4d] = results;
    cur.eps = eps.ok ? eps.value : null;
    cur.cap = cap.ok ? cap.value : null;
    cur.curve = curve.ok ? curve.value : null;
    showEpsilon(els, eps);
    showCapacity(els, cap);
    showCurve(curve);
    if (e4d) showEpsForDelta(els, e4d, delta.value);
    else e4dRow.stale('fix δ above');
    bayes.render();
    await bayes.run(job);
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
    main.cancel();
  }
  function showCancelled() {
    const e = { error: 'Cancelled.', cancelled: true };
    for (const r of [capRow, epsRow, e4dRow, maxRatioRow, minRatioRow]) r.set(e);
    progressEl.hidden = false;
    replace(progressEl, h('span', { 'data-testid': 'ip-cancelled', text: 'The computation was cancelled. ' }),
      h('button', { type: 'button', class: 'small', 'data-testid': 'ip-recompute', text: 'Compute again', on: { click: () => scheduleMain() } }));
  }

  // ------------------------------------------------------------ showing results
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
      Number.isFinite(pure) ? ['δ = 0 from ε = ', num(pure, {}, 'ip.pureEpsilon'), ' nats on (pure ε-DP).'] : 'No finite ε gives δ = 0: some answer is possible for one tuple and impossible for a neighbour.'));
    plotWrap.dataset.pure = String(pure);
    plotWrap.dataset.last = String(c.delta[c.delta.length - 1]);
  }

  function markFigures(stale) {
    plotWrap.classList.toggle('stale', stale);
    barsWrap.classList.toggle('stale', stale);
  }

  // ------------------------------------------------------------ δ typed by the user
  const deltaTask = pipe.task(async (job) => {
    const d = parseDelta(state.delta);
    deltaField.setError(d.error);
    drawCurve();
    if (d.error) {
      e4dRow.stale('fix δ above');
      return;
    }
    if (!cur || !cur.curve) return; // the main task will compute it
    e4dRow.pending();
    try {
      const v = await job.call(engine.plan.infoPrivacy.epsilonForDelta(cur.C, cur.graph, d.value));
      showEpsForDelta(els, { ok: true, value: v }, d.value);
    } catch (err) {
      if (err instanceof Superseded || isAbort(err)) throw err;
      e4dRow.set({ error: err.message });
    }
  });
  const scheduleDelta = () => deltaTask.schedule();
  const bayes = bayesPanel({ root, engine, pipe, state, els, getCur: () => cur });

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
    }
  });

  root.addEventListener('input', (e) => {
    const t = e.target;
    if (t === epsField.input) { state.epsilon = t.value; scheduleMain(); }
    else if (t === pField.input) { state.p = t.value; scheduleMain(); }
    else if (t === deltaField.input) { state.delta = t.value; scheduleDelta(); }
    else if (t.classList.contains('ip-answer')) { state.custom[Number(t.dataset.row)] = t.value; scheduleMain(); }
  });

  function structureChanged() {
    resetForStructure(state);
    renderValues();
    renderQueryControls();
    recordsSel.select.value = String(state.domains.length);
    bayes.render();
    scheduleMain();
  }

  // ------------------------------------------------------------ state for the URL
  const getState = () => stateForURL(state, channels.getState());

  function setState(s = {}) {
    Object.assign(state, sanitizeState(s));
    epsField.input.value = state.epsilon;
    pField.input.value = state.p;
    deltaField.input.value = state.delta;
    recordsSel.select.value = String(state.domains.length);
    renderValues();
    renderQueryControls();
    renderNoiseControls();
    bayes.render();
    channels.setState(s.channels ?? {});
    scheduleMain();
  }

  /** What the section shows, as data. */
  function getResults() {
    if (!cur) return null;
    const rows = cur.C.rows ?? 0;
    return {
      domains: cur.domains.slice(),
      channel: Array.from({ length: rows }, (_, i) => Array.from(cur.C.data.subarray(i * cur.C.cols, (i + 1) * cur.C.cols))),
      epsilon: cur.eps ? { ...cur.eps } : null,
      capacity: cur.cap ? { ...cur.cap, prior: Array.from(cur.cap.prior) } : null,
      deltaCurve: cur.curve ? { epsilon: Array.from(cur.curve.epsilon), delta: Array.from(cur.curve.delta), pureEpsilon: cur.curve.pureEpsilon } : null,
    };
  }

  // ------------------------------------------------------------ start
  renderValues();
  renderQueryControls();
  renderNoiseControls();
  bayes.render();
  channels.recompute();
  main.now();

  return { getState, setState, getResults };
}
