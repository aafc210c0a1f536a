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
// What is computed, and when (the tuple channel, the heavy job with its progress and Cancel, ε for
// a typed δ), is controller.js's: this file draws its store and forwards what people do to it.

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { linePlot } from '../../lib/plot.js';
import { MIN_VALUES, MAX_VALUES, MAX_CUSTOM_TUPLES, NOISES, tupleCount, allTuples, tupleText, parseDelta } from './state.js';
import { selectField, num } from './ui.js';
import { channelsCard } from './channels.js';
import { buildSkeleton, range } from './skeleton.js';
import { bayesPanel } from './bayes.js';
import { showCapacity, showEpsilon, showEpsForDelta, noiseDescription } from './results.js';
import { createInfoprivController } from './controller.js';

export function mount(root, { engine }) {
  addStylesheet('sections/infopriv/style.css', 'infopriv');
  // The Bayesian panel runs in the main job, once the heavy results are in.
  const ctl = createInfoprivController({ engine, afterHeavy: async (job) => { bayes.render(); await bayes.run(job); } });
  const state = ctl.model;
  const { pipe } = ctl;
  root.dataset.busy = 'true';

  const channels = channelsCard({ pipe });
  const els = buildSkeleton(root, state, channels.el);
  const { recordsSel, valuesWrap, querySel, queryInfo, tableWrap, tableErrors, noiseSel, expEps, epsField, pField, noiseHint, noiseMsg, progressEl, capRow, epsRow, subNote, plotWrap, deltaField, e4dRow, maxRatioRow, minRatioRow, barsWrap } = els;
  const rowsAll = [capRow, epsRow, e4dRow, maxRatioRow, minRatioRow];

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

  // ------------------------------------------------------------ the controller's state → DOM
  // What readSpec says of the inputs: the messages beside the fields, e^ε and the noise.
  function renderReading(r) {
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
  }

  function renderRows(x) {
    if (!x) return;
    for (const r of rowsAll) {
      if (x.kind === 'stale') r.stale(x.reason);
      else if (x.kind === 'pending') r.pending();
      else r.set({ error: x.error, cancelled: x.cancelled });
    }
  }

  // The progress of the heavy job: a spinner, Cancel, a bar and what it counts.
  let progressText = null;
  let progressBar = null;
  function renderProgress(p) {
    if (p === null || p === 'cancelled') {
      progressEl.hidden = true;
      progressEl.replaceChildren();
      progressText = null;
      progressBar = null;
    }
    if (p === 'cancelled') {
      progressEl.hidden = false;
      replace(progressEl, h('span', { 'data-testid': 'ip-cancelled', text: 'The computation was cancelled. ' }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'ip-recompute', text: 'Compute again', on: { click: () => ctl.compute() } }));
    }
    if (p === null || p === 'cancelled') return;
    if (p.reports > 0) progressEl.dataset.reports = String(p.reports);
    if (!progressText) {
      progressText = h('span', { 'data-testid': 'ip-progress-text' });
      progressBar = h('progress', { max: '1', value: '0', 'aria-label': 'Progress of the individual capacity' });
      replace(progressEl,
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'ip-cancel', text: 'Cancel', on: { click: () => ctl.cancel() } }),
        progressBar,
        progressText);
    }
    progressEl.hidden = false;
    if (p.done === undefined) {
      progressText.textContent = `Computing on ${p.tuples.toLocaleString('en')} tuples…`;
      progressBar.removeAttribute('value');
    } else {
      progressText.textContent = `Individual capacity: ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')} sub-channels`;
      progressBar.max = p.total;
      progressBar.value = p.done;
    }
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
    const c = ctl.current()?.curve;
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

  function renderHeavy({ eps, cap, curve, e4d, delta }) {
    showEpsilon(els, eps);
    showCapacity(els, cap);
    showCurve(curve);
    if (e4d) showEpsForDelta(els, e4d, delta);
    else e4dRow.stale('fix δ above');
  }

  function renderE4d(x) {
    if (!x) return;
    if (x.kind === 'stale') e4dRow.stale('fix δ above');
    else if (x.kind === 'pending') e4dRow.pending();
    else if (x.kind === 'done') showEpsForDelta(els, { ok: true, value: x.value }, x.delta);
    else e4dRow.set({ error: x.error });
  }

  function renderAllInputs() {
    epsField.input.value = state.epsilon;
    pField.input.value = state.p;
    deltaField.input.value = state.delta;
    recordsSel.select.value = String(state.domains.length);
    renderValues();
    renderQueryControls();
    renderNoiseControls();
    bayes.render();
  }

  ctl.subscribe((s, changed) => {
    const has = (k) => changed.includes(k);
    if (has('busy')) {
      root.dataset.busy = String(s.busy);
      root.setAttribute('aria-busy', String(s.busy));
    }
    if (has('structure')) {
      renderValues();
      renderQueryControls();
      recordsSel.select.value = String(state.domains.length);
      bayes.render();
    }
    if (has('custom')) renderCustomTable();
    if (has('noiseForm')) renderNoiseControls();
    if (has('restored')) renderAllInputs();
    if (has('reading') && s.reading) renderReading(s.reading);
    if (has('progress')) renderProgress(s.progress);
    if (has('runs')) { markFigures(true); subNote.classList.add('stale'); }
    if (has('rows')) renderRows(s.rows);
    if (has('deltaError')) deltaField.setError(s.deltaError);
    if (has('heavy') && s.heavy) renderHeavy(s.heavy);
    if (has('deltaDrawn')) drawCurve();
    if (has('e4d')) renderE4d(s.e4d);
  });
  const bayes = bayesPanel({ root, engine, pipe, state, els, getCur: ctl.current });

  // ------------------------------------------------------------ DOM events → the controller
  root.addEventListener('change', (e) => {
    const t = e.target;
    if (t === recordsSel.select) ctl.setRecords(Number(t.value));
    else if (t.dataset.record !== undefined && t.id.startsWith('ip-values-')) ctl.setValues(Number(t.dataset.record), Number(t.value));
    else if (t === querySel.select) ctl.setQuery(t.value);
    else if (t === noiseSel.select) ctl.setNoise(t.value);
  });
  root.addEventListener('input', (e) => {
    const t = e.target;
    if (t === epsField.input) ctl.setEpsilon(t.value);
    else if (t === pField.input) ctl.setP(t.value);
    else if (t === deltaField.input) ctl.setDelta(t.value);
    else if (t.classList.contains('ip-answer')) ctl.setAnswer(Number(t.dataset.row), t.value);
  });

  // ------------------------------------------------------------ state for the URL
  const getState = () => ctl.getState(channels.getState());
  function setState(s = {}) {
    ctl.setState(s);
    channels.setState(s.channels ?? {});
  }

  // ------------------------------------------------------------ start
  renderValues();
  renderQueryControls();
  renderNoiseControls();
  bayes.render();
  channels.recompute();
  ctl.start();

  return { getState, setState, getResults: ctl.getResults };
}
