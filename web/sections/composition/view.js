// sections/composition/view.js — the "Composition" section: privacy accounting of mechanisms run on
// the same data (the privacy loss distributions of Meiser and Mohammadi (CCS 2018) and Koskela et
// al. (AISTATS 2020), the optimal composition of Kairouz, Oh, Viswanath (ICML 2015), Gaussian DP of
// Dong, Roth, Su (2022), beside the bounds of Dwork, Rothblum, Vadhan (2010) and Mironov (2017)).
//
// A person lists events (a mechanism, its parameters, optional Poisson subsampling, a count), asks
// for ε at a δ or δ at an ε, and reads the answer with its certified interval and method, the
// accountants side by side, and the privacy curve δ(ε) with the bounds beside it.
//
// Flow: an edit updates the state (state.js) and is read at once (messages beside the fields);
// then the pipeline's main task runs the answer (plan.js: accounting.epsilon or .delta, then
// .compare), and the curve (.compare at each δ of the sweep, then .profile), each call an engine
// job whose progress shows after the pipeline's delay with a Cancel button. A newer edit
// supersedes the run at its next call and cancels the engine job still running for old inputs.

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { exportMenu } from '../../lib/export.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { PRESETS, newDraft, formatDrafts } from '../../lib/accounting-events.js';
import { createState, presetState, stateForURL, checkState, readState } from './state.js';
import { SWEEP, answerCall, compareCall, compareDelta, profileCall, profileEnd, curveTable } from './plan.js';
import { buildSkeleton } from './skeleton.js';
import { eventsEditor } from './events-editor.js';
import { showAnswer, showCompare, drawCurve } from './results.js';

/** How many times the Channel section's channel is asked when added as an event. */
const CHANNEL_COUNT = 10;

/** The Channel section's channel as rows of numbers, or {error}. */
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
  if (C.some((r) => r.some((v) => !Number.isFinite(v)))) return { error: 'the Channel section has entries that are not numbers: fix them there first' };
  return { C, secrets: inputs.secrets };
}

export function mount(root, { engine }) {
  addStylesheet('sections/composition/style.css', 'composition');
  const state = createState();
  const pipe = createPipeline({
    engine,
    onBusy: (b) => {
      root.dataset.busy = String(b);
      root.setAttribute('aria-busy', String(b));
    },
  });
  root.dataset.busy = 'true';

  const editor = eventsEditor({ state, onChange: (structural) => { state.preset = null; if (structural) editor.render(); else editor.syncText(); renderPreset(); schedule(); } });
  const els = buildSkeleton(root, state, editor.el);
  let shown = null; // {events, ask, value, answer, compare, profile, sweep}
  let drawnFor = null; // the events (JSON) of the curve on screen

  // ------------------------------------------------------------ inputs
  function renderQuestion() {
    els.askEps.checked = state.ask === 'epsilon';
    els.askDelta.checked = state.ask === 'delta';
    els.deltaIn.value = state.delta;
    els.epsIn.value = state.epsilon;
    els.deltaIn.disabled = state.ask !== 'epsilon';
    els.epsIn.disabled = state.ask !== 'delta';
  }
  function renderPreset() {
    for (const b of els.presets.querySelectorAll('button[data-preset]')) b.setAttribute('aria-pressed', String(b.dataset.preset === state.preset));
    els.presetNote.textContent = state.preset ? PRESETS[state.preset].note : '';
  }

  els.presets.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-preset]');
    if (!b) return;
    Object.assign(state, presetState(b.dataset.preset), { ask: state.ask, epsilon: state.epsilon });
    renderAll();
    schedule();
  });
  for (const r of [els.askEps, els.askDelta]) {
    r.addEventListener('change', () => { state.ask = r.value; renderQuestion(); schedule(); });
  }
  els.deltaIn.addEventListener('input', () => { state.delta = els.deltaIn.value; schedule(); });
  els.epsIn.addEventListener('input', () => { state.epsilon = els.epsIn.value; schedule(); });
  els.fromChannel.addEventListener('click', async () => {
    const c = await channelOfChannelSection();
    els.channelMsg.textContent = c.error ?? '';
    if (c.error) return;
    els.channelMsg.textContent = '';
    editor.addDraft(newDraft('channel', { channel: JSON.stringify(c.C) }, String(CHANNEL_COUNT)));
  });

  // ------------------------------------------------------------ the pipeline
  const main = pipe.task((job) => run(job));
  const schedule = () => main.schedule();

  function markStale() {
    for (const el of [els.answer, els.compare, els.plot, els.legend]) el.classList.add('stale');
  }

  async function run(job) {
    const r = readState(state);
    editor.showErrors(r.errors);
    const qIn = state.ask === 'epsilon' ? els.deltaIn : els.epsIn;
    els.questionMsg.textContent = r.questionError ?? '';
    for (const input of [els.deltaIn, els.epsIn]) {
      const bad = input === qIn && !!r.questionError;
      input.classList.toggle('invalid', bad);
      input.setAttribute('aria-invalid', String(bad));
    }
    hideProgress(els.progress);
    hideProgress(els.curveProgress);
    markStale();
    if (r.errors.length || r.questionError) {
      shown = null;
      els.answer.dataset.status = 'stale';
      els.staleMsg.textContent = 'Fix the events or the question on the left: what is shown here is for the last ones that could be read.';
      return;
    }
    els.staleMsg.textContent = '';
    const { events, ask, value } = r;
    shown = { events, ask, value, answer: null, compare: null, profile: null, sweep: [] };
    // The curve of other events must not stand, even faded, while this one is computed (for a
    // new δ alone it is the same curve).
    const key = JSON.stringify(events);
    if (key !== drawnFor) {
      drawnFor = key;
      replace(els.plot, h('p', { class: 'muted cmp-plot-wait', text: 'The curve comes after the answer.' }));
      replace(els.legend);
    }
    // 1. the answer and the comparison at its δ
    let answer;
    try {
      answer = await step(job, els.progress, answerCall(events, ask, value), ask === 'epsilon' ? 'Composing the privacy loss distributions…' : 'Computing δ(ε)…');
    } catch (err) {
      if (err instanceof Superseded) throw err;
      showAnswer(els, { error: isAbort(err) ? 'Cancelled.' : err.message, cancelled: isAbort(err) }, ask, value);
      showCompare(els, null);
      if (isAbort(err)) showCancelled(els.progress);
      replace(els.plot);
      replace(els.legend);
      return;
    }
    shown.answer = answer;
    showAnswer(els, { value: answer }, ask, value);
    const atDelta = compareDelta(ask, value, answer);
    const cc = compareCall(events, atDelta);
    if (cc) {
      try {
        shown.compare = await step(job, els.progress, cc, 'Comparing the accountants…');
        showCompare(els, { value: shown.compare }, atDelta);
      } catch (err) {
        if (err instanceof Superseded) throw err;
        showCompare(els, { error: isAbort(err) ? 'cancelled' : err.message });
        if (isAbort(err)) { showCancelled(els.progress); return; }
      }
    } else showCompare(els, null);
    // 2. the curve: the bounds and the PLD's points at each δ of the sweep, drawn as they come,
    // then the PLD's smooth curve.
    const sweep = SWEEP.map(() => null);
    shown.sweep = sweep;
    const draw = () => drawCurve(els, { profile: shown.profile, sweep, deltas: SWEEP, ask, value, answer });
    try {
      for (let i = 0; i < SWEEP.length; i++) {
        sweep[i] = await step(job, els.curveProgress, compareCall(events, SWEEP[i]), `The accountants at δ = ${formatNumber(SWEEP[i])} (${i + 1} of ${SWEEP.length})…`).catch((err) => {
          if (err instanceof Superseded || isAbort(err)) throw err;
          return null;
        });
        if (sweep.some(Boolean)) draw();
      }
      const end = profileEnd(sweep, ask === 'epsilon' ? answer.epsilon : value);
      shown.profile = await step(job, els.curveProgress, profileCall(events, end), 'The privacy curve δ(ε) between the points…').catch((err) => {
        if (err instanceof Superseded || isAbort(err)) throw err;
        return null;
      });
      if (shown.profile || sweep.some(Boolean)) draw();
      else replace(els.plot, h('p', { class: 'r-msg', text: 'The curve could not be computed for these events.' }));
    } catch (err) {
      if (err instanceof Superseded) throw err;
      if (isAbort(err)) {
        showCancelled(els.curveProgress);
        // An older curve must not pass for this one.
        if (!sweep.some(Boolean)) { replace(els.plot, h('p', { class: 'muted', text: 'Cancelled before the first point of the curve.' })); replace(els.legend); }
        return;
      }
      replace(els.plot, h('p', { class: 'r-msg', text: `The curve could not be computed: ${err.message}` }));
    }
  }

  // One engine call with progress (after the pipeline's delay) and Cancel.
  async function step(job, where, call, label) {
    try {
      return await job.call(call, {
        cancelStale: true,
        slow: () => showProgress(where, label),
        onProgress: (data) => showProgress(where, label, data),
      });
    } finally {
      hideProgress(where);
    }
  }

  // ------------------------------------------------------------ progress and cancel
  function showProgress(where, label, data) {
    if (where.hidden || where.dataset.label !== label) {
      where.dataset.label = label;
      replace(where,
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('span', { 'data-testid': 'cmp-progress-text' }, label),
        h('progress', { 'aria-label': label }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-cancel', text: 'Cancel', on: { click: () => main.cancel() } }));
      where.hidden = false;
    }
    const bar = where.querySelector('progress');
    // The engine reports (passes done, the most there may be) after each pass of its PLD.
    const [done, most] = Array.isArray(data) ? data : [];
    if (bar && Number.isFinite(done) && most > 0) { bar.max = most; bar.value = Math.min(done, most); }
  }
  function hideProgress(where) {
    where.hidden = true;
    delete where.dataset.label;
    where.replaceChildren();
  }
  function showCancelled(where) {
    where.hidden = false;
    replace(where, h('span', { 'data-testid': 'cmp-cancelled', text: 'The computation was cancelled. ' }),
      h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-recompute', text: 'Compute again', on: { click: () => main.now() } }));
  }

  // ------------------------------------------------------------ exports
  const curveExport = exportMenu(() => (shown?.profile || shown?.sweep.some(Boolean) ? curveTable(shown.profile, shown.sweep) : null), { what: 'privacy curve', testid: 'cmp-export', file: 'privacy-curve' });
  els.curveHead.append(curveExport);

  // ------------------------------------------------------------ state for the URL
  function renderAll() {
    editor.render();
    renderQuestion();
    renderPreset();
  }
  const getState = () => stateForURL(state);
  function setState(s) {
    Object.assign(state, checkState(s));
    renderAll();
    main.now();
  }

  /** What the section shows, as data. */
  function getResults() {
    if (!shown) return null;
    return {
      events: structuredClone(shown.events), text: formatDrafts(state.drafts), ask: shown.ask, value: shown.value,
      answer: shown.answer, compare: shown.compare,
      curve: shown.profile ? { epsilon: Array.from(shown.profile.epsilon), delta: Array.from(shown.profile.delta), deltaLower: Array.from(shown.profile.deltaLower) } : null,
    };
  }

  renderAll();
  main.now();
  return { getState, setState, getResults };
}
