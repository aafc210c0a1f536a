// sections/composition/view.js — the "Composition" section: privacy accounting of mechanisms run on
// the same data (the privacy loss distributions of Meiser and Mohammadi (CCS 2018) and Koskela et
// al. (AISTATS 2020), the optimal composition of Kairouz, Oh, Viswanath (ICML 2015), Gaussian DP of
// Dong, Roth, Su (2022), beside the bounds of Dwork, Rothblum, Vadhan (2010) and Mironov (2017)).
//
// A person lists events (a mechanism, its parameters, optional Poisson subsampling, a count), asks
// for ε at a δ or δ at an ε, and reads the answer with its certified interval and method, the
// accountants side by side, and the privacy curve δ(ε) with the bounds beside it.
//
// What is computed, and when (the answer, the accountants, the curve, progress and Cancel), is
// controller.js's: this file draws its store and forwards what people do to it.

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { exportMenu } from '../../lib/export.js';
import { PRESETS } from '../../lib/accounting-events.js';
import { SWEEP } from './plan.js';
import { buildSkeleton } from './skeleton.js';
import { eventsEditor } from './events-editor.js';
import { showAnswer, showCompare, drawCurve } from './results.js';
import { createCompositionController } from './controller.js';

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
  const ctl = createCompositionController({ engine, channelSource: channelOfChannelSection });
  const state = ctl.model;
  root.dataset.busy = 'true';

  const editor = eventsEditor({ state, onChange: (structural) => { if (structural) editor.render(); else editor.syncText(); ctl.edited(); } });
  const els = buildSkeleton(root, state, editor.el);

  // ------------------------------------------------------------ DOM events → the controller
  els.presets.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-preset]');
    if (b) ctl.choosePreset(b.dataset.preset);
  });
  for (const r of [els.askEps, els.askDelta]) r.addEventListener('change', () => ctl.setAsk(r.value));
  els.deltaIn.addEventListener('input', () => ctl.setDelta(els.deltaIn.value));
  els.epsIn.addEventListener('input', () => ctl.setEpsilon(els.epsIn.value));
  els.fromChannel.addEventListener('click', async () => {
    const d = await ctl.channelDraft();
    if (d) editor.addDraft(d);
  });
  els.curveHead.append(exportMenu(() => ctl.curveTable(), { what: 'privacy curve', testid: 'cmp-export', file: 'privacy-curve' }));

  // ------------------------------------------------------------ the controller's state → DOM
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
  function renderProblems({ events, question }) {
    editor.showErrors(events);
    const qIn = state.ask === 'epsilon' ? els.deltaIn : els.epsIn;
    els.questionMsg.textContent = question ?? '';
    for (const input of [els.deltaIn, els.epsIn]) {
      const bad = input === qIn && !!question;
      input.classList.toggle('invalid', bad);
      input.setAttribute('aria-invalid', String(bad));
    }
  }

  // A progress line: a spinner, what runs, a bar of the engine's reports (passes done, the most
  // there may be) and Cancel; or, once cancelled, Compute again.
  function renderProgress(where, p) {
    if (p === null) {
      where.hidden = true;
      delete where.dataset.label;
      where.replaceChildren();
      return;
    }
    if (p === 'cancelled') {
      where.hidden = false;
      delete where.dataset.label;
      replace(where, h('span', { 'data-testid': 'cmp-cancelled', text: 'The computation was cancelled. ' }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-recompute', text: 'Compute again', on: { click: () => ctl.compute() } }));
      return;
    }
    const { label, data } = p;
    if (where.hidden || where.dataset.label !== label) {
      where.dataset.label = label;
      replace(where,
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('span', { 'data-testid': 'cmp-progress-text' }, label),
        h('progress', { 'aria-label': label }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-cancel', text: 'Cancel', on: { click: () => ctl.cancel() } }));
      where.hidden = false;
    }
    const bar = where.querySelector('progress');
    const [done, most] = Array.isArray(data) ? data : [];
    if (bar && Number.isFinite(done) && most > 0) { bar.max = most; bar.value = Math.min(done, most); }
  }

  function renderCurve(c) {
    if (c.kind === 'draw') { drawCurve(els, { profile: c.profile, sweep: c.sweep, deltas: SWEEP, ask: c.ask, value: c.value, answer: c.answer }); return; }
    if (c.kind === 'wait') replace(els.plot, h('p', { class: 'muted cmp-plot-wait', text: 'The curve comes after the answer.' }));
    else if (c.kind === 'message') replace(els.plot, h('p', { class: c.cls, text: c.text }));
    else replace(els.plot);
    if (c.kind !== 'message' || c.clearLegend) replace(els.legend);
  }

  let progressShown = { main: null, curve: null };
  ctl.subscribe((s, changed) => {
    const has = (k) => changed.includes(k);
    if (has('busy')) {
      root.dataset.busy = String(s.busy);
      root.setAttribute('aria-busy', String(s.busy));
    }
    if (has('form')) { editor.render(); renderQuestion(); renderPreset(); }
    if (has('question')) renderQuestion();
    if (has('preset')) renderPreset();
    if (has('problems')) renderProblems(s.problems);
    if (has('runs')) for (const el of [els.answer, els.compare, els.plot, els.legend]) el.classList.add('stale');
    if (has('progress')) {
      if (s.progress.main !== progressShown.main) renderProgress(els.progress, s.progress.main);
      if (s.progress.curve !== progressShown.curve) renderProgress(els.curveProgress, s.progress.curve);
      progressShown = s.progress;
    }
    if (has('staleMsg')) {
      els.staleMsg.textContent = s.staleMsg;
      if (s.staleMsg) els.answer.dataset.status = 'stale';
    }
    if (has('curve') && s.curve?.kind === 'wait') renderCurve(s.curve);
    if (has('answer') && s.answer) showAnswer(els, s.answer.error ? { error: s.answer.error, cancelled: s.answer.cancelled } : { value: s.answer.value }, s.answer.ask, s.answer.given);
    if (has('compare') && s.compare) showCompare(els, s.compare.r, s.compare.delta);
    if (has('curve') && s.curve && s.curve.kind !== 'wait') renderCurve(s.curve);
    if (has('channelMsg')) els.channelMsg.textContent = s.channelMsg;
  });

  editor.render();
  renderQuestion();
  renderPreset();
  ctl.compute();
  return { getState: ctl.getState, setState: ctl.setState, getResults: ctl.getResults };
}
