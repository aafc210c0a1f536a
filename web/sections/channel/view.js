// sections/channel/view.js — the "Channel & leakage" section on the page: an editable channel,
// prior and gain function, and every measure of the section computed in the worker.
//
// mount(root, {engine, client}) → {getState, setState, check, getResults}, like every section,
// and firstShown (see page/sections.js).
// Flow: an input event updates the state (state.js), re-validates at once (per-cell messages),
// marks the panels whose inputs changed pending and schedules the pipeline's debounced run,
// which starts one job per such panel (panels group measures by what they depend on, so that
// changing α recomputes one number). Only the latest answer of a panel is shown; the capacity
// job shows its progress after the pipeline's delay and can be cancelled. When the inputs were
// typed as decimals or fractions, a panel's float job is followed by its exact job (qif.exact,
// from the text as typed, never from the floats): its fractions are shown beside the decimals
// with the label "exact", and its errors ("row 0 sums to 11/12") under the results.
//
// Large matrices (up to 2,000 × 2,000 entries): a long paste and a CSV/TSV file (picked or dropped on
// the matrix) are read in the data worker with progress (loading.js); the grid draws only
// what is in view (grid-view.js); the channel goes to the engine once per change (engine.share)
// rather than once per job; panels that would cost too much at that size say so and wait to be
// asked (plan.js panelPlan); exact values stop at EXACT_MAX_ENTRIES entries (plan.js).

import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { presets, presetById } from '../../lib/presets.js';
import { MEASURES, exactResults as exactResultsOf } from '../../lib/measures.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { validateInputs } from './validate.js';
import { readerMessage, withoutFunction } from '../../lib/row-names.js';
import * as S from './state.js';
import * as Plan from './plan.js';
import { ChannelGrid, onGridKey } from './grid-view.js';
import * as O from './order.js';
import { renderGainTable, showGainMessages } from './gain-view.js';
import { ResultsView } from './results-view.js';
import { createProgramCard } from './program-view.js';
import { buildSkeleton } from './skeleton.js';
import { installLoading } from './loading.js';
import { History } from './history.js';
import { FIRST_RESULTS } from './first-results.js';

/** Buttons that change the inputs (recorded for Undo). */
const EDITS = new Set(['remove-row', 'remove-col', 'remove-guess', 'add-row', 'add-col', 'uniform', 'add-guess', 'identity-gain', 'edit-gain', 'use-capacity-prior', 'use-estimate']);

/**
 * The order in which panels start (the worker runs their jobs one after another): quick ones
 * first; then the multiplicative capacities, whose Bayes-risk capacity grows fastest with the
 * size (minutes on a 2,000 × 2,000 channel), so that it does not hold back the posterior
 * measures; the capacity (iterative) last.
 */
const ORDER = ['prior', 'renyi', 'posterior', 'gprior', 'gpost', 'gcapacity', 'channel', 'capacity'];

export function mount(root, { engine, client }) {
  const state = S.createState();
  let checked = validateInputs(state);
  const els = buildSkeleton(root);
  const grid = new ChannelGrid(els.channelTable, els.channelWrap, () => state, showWindow);
  const view = new ResultsView(els.results, state);
  const shown = {}; // measure key → last settled result shown
  const lastSig = {}; // panel → signature of its last run
  const force = new Set(); // panels asked for whatever they cost
  const exactShown = {}; // measure key → its exact value from qif.exact (a fraction string; the exact hyper)
  const exactErrors = {}; // panel → why its exact job gave no values (the engine's message)
  let exactWhy = null; // why the inputs as typed have no exact form, or null
  let hyperInputs = null; // {C, prior} of the last run, to label the posteriors
  const sharedRefs = {}; // input → {sig, ref} of the matrix last shared with the engine

  let pipeBusy = true;
  let loading = null; // reads pastes and files (installed below)
  // Resolved when the section first shows computed values (or a failure, or has nothing left to
  // compute): the page mounts its other sections after that (page/sections.js).
  let firstShownDone;
  const firstShown = new Promise((resolve) => { firstShownDone = resolve; });
  const busy = () => {
    root.dataset.busy = String(pipeBusy || !!loading?.busy);
    if (root.dataset.busy === 'false') firstShownDone();
  };
  const pipe = createPipeline({ engine, onBusy: (b) => { pipeBusy = b; busy(); } });
  busy();

  let programCard = null; // the program card (below), once built: it names a program's channel
  // ---------------------------------------------------------------- rendering the inputs
  function renderPresetMenu() {
    const options = presets.map((p) => h('option', { value: p.id, text: p.name }));
    options.push(h('option', { value: 'custom', text: state.program && programCard ? 'From a program' : 'Custom (edited)', disabled: !state.edited }));
    replace(els.preset, options);
    els.preset.value = state.edited ? 'custom' : state.presetId;
    const p = presetById(state.presetId);
    // A program's channel is named after the program, not after the preset shown before it.
    els.presetText.textContent = state.program && programCard
      ? `Shown: the channel of the program “${programCard.nameOf(state.program)}” (see “From a program” below). Choose an example to start again.`
      : state.edited
      ? `Edited from: ${p ? p.name : 'a preset'}. Choose an example to start again.`
      : `${p.description} Secrets: ${p.secretName}; observables: ${p.observableName}. Source: ${p.source}.`;
  }

  // What the grid shows of a large channel, and what the page does not do at that size.
  function showWindow(w) {
    if (!w.virtual) {
      els.gridSize.textContent = '';
      return;
    }
    const parts = [`${w.n.toLocaleString('en')} × ${w.m.toLocaleString('en')} channel: showing rows ${(w.r0 + 1).toLocaleString('en')}–${w.r1.toLocaleString('en')} and columns ${(w.c0 + 1).toLocaleString('en')}–${w.c1.toLocaleString('en')}; scroll to see the rest.`];
    if (w.n * w.m > Plan.EXACT_MAX_ENTRIES) parts.push(`Exact values are computed up to ${Plan.EXACT_MAX_ENTRIES.toLocaleString('en')} entries.`);
    els.gridSize.textContent = parts.join(' ');
  }

  // Rebuilds the tables keeping focus (and the caret) on the same grid position.
  function rerenderInputs() {
    const a = document.activeElement;
    const pos = a && a.dataset && a.dataset.grid === 'gain' ? { r: a.dataset.r, c: a.dataset.c, s: a.selectionStart, e: a.selectionEnd } : null;
    grid.render();
    renderGainTable(els.gainTable, state);
    renderPresetMenu();
    if (pos) {
      const el = root.querySelector(`input[data-grid="gain"][data-r="${pos.r}"][data-c="${pos.c}"]`);
      if (el) {
        el.focus();
        try { el.setSelectionRange(pos.s, pos.e); } catch { /* not a text input */ }
      }
    }
    changed();
  }

  function showValidation() {
    checked = validateInputs(state);
    grid.show(checked);
    showGainMessages(els.gainTable, checked);
    setFieldMessage(root.querySelector('#alpha'), root.querySelector('#alpha-msg'), checked.alphaMsg);
    setFieldMessage(root.querySelector('#capacity-tolerance'), root.querySelector('#capacity-tolerance-msg'), checked.toleranceMsg);
    const pasteMessage = loading?.message;
    const messages = pasteMessage ? [{ text: `Paste: ${pasteMessage}` }, ...checked.messages] : checked.messages;
    replace(els.errors, messages.slice(0, 12).map((m) => h('li', { text: m.text })),
      messages.length > 12 ? h('li', { text: `… and ${(messages.length - 12).toLocaleString('en')} more` }) : null);
    const n = checked.messages.length;
    els.note.textContent = n ? `The input has ${n.toLocaleString('en')} problem${n === 1 ? '' : 's'} (see the matrix): values that depend on it are marked stale.` : '';
    els.note.classList.toggle('warn', n > 0);
  }

  // ---------------------------------------------------------------- computing
  const panels = {};
  for (const name of Object.keys(S.PANEL_KEYS)) panels[name] = pipe.task((job, calls, exactPlan) => runPanel(job, name, calls, exactPlan));

  async function runPanel(job, name, calls, exactPlan) {
    const keys = S.PANEL_KEYS[name];
    const capacity = name === 'capacity';
    for (const key of keys) delete exactShown[key];
    delete exactErrors[name];
    try {
      const results = await job.run(calls, capacity ? {
        cancelStale: true, // a capacity still running for older inputs only delays the new one
        slow: () => view.showCapacityProgress(null),
        onProgress: (data) => view.showCapacityProgress(data),
      } : {});
      for (const [key, r] of Object.entries(Plan.derivePanel(name, results))) show(key, r);
    } catch (e) {
      if (e instanceof Superseded) throw e;
      lastSig[name] = null;
      view.showFailure(keys, isAbort(e), e.message);
      firstShownDone();
      return;
    }
    if (exactPlan) await runExact(job, name, exactPlan);
    showExactNote();
  }

  // The exact values of a panel, after its decimals. Within the page's exact limit a job takes
  // at most about a second; a newer run lets it finish (and ignores it) rather than cancel it,
  // which would restart the worker and load both modules again.
  async function runExact(job, name, plan) {
    let results;
    try {
      results = await job.run(plan.calls);
    } catch (e) {
      if (e instanceof Superseded) throw e;
      if (!isAbort(e)) exactErrors[name] = e.message;
      return;
    }
    const errors = [];
    for (const [key, r] of Object.entries(exactResultsOf(plan, results))) {
      if (!r.ok) {
        errors.push(forReader(r));
        continue;
      }
      exactShown[key] = r.value;
      if (key === 'hyper') showHyper();
      else view.showExactOf(key, r.value);
    }
    if (errors.length) exactErrors[name] = errors[0];
  }

  function showExactNote() {
    // Without the function's name (the result says which function it was, fn).
    const messages = new Set(Object.values(exactErrors).map(withoutFunction));
    if (exactWhy && checked.channel && checked.prior) messages.add(exactWhy);
    els.exactNote.textContent = messages.size ? `Decimals only, without exact fractions: ${[...messages].join('; ')}.` : '';
  }

  // The engine's messages count from 0 (“channel: row 2 sums to …”); the page names rows by
  // their labels and numbers from 1, as the grid shows them, from the error's argument and index.
  function forReader(r) {
    if (r.ok || typeof r.error !== 'string') return r;
    const names = {
      channel: { rows: state.secrets, cols: state.observables },
      prior: { rows: state.secrets },
      gain: { rows: state.gainLabels, cols: state.secrets },
      observed: { rows: state.observables },
    };
    return { ...r, error: readerMessage(r, names) };
  }

  function show(key, r) {
    firstShownDone();
    r = forReader(r);
    shown[key] = r;
    if (key === 'hyper') showHyper();
    else if (key === 'shannonCapacity') view.showCapacity(r, state.secrets);
    else view.showNumber(key, r, exactShown[key] ?? null);
  }

  function showHyper() {
    const r = shown.hyper;
    const labels = r?.ok && hyperInputs ? Plan.posteriorLabels(r.value, hyperInputs.C, hyperInputs.prior, state.observables) : [];
    view.showHyper(r, { labels, secrets: state.secrets, outputs: state.observables.length, exact: exactShown.hyper ?? null, observables: state.observables });
  }

  function inputsNow() {
    const exact = Plan.exactInputs(state);
    exactWhy = exact.why;
    return Plan.panelInputs(checked, { gainClass: state.gainClass, exact });
  }

  // The inputs of the panels, a large matrix replaced by a reference to its copy in the worker
  // (sent once per change, however many jobs use it).
  function inputsForEngine() {
    const inputs = inputsNow();
    for (const key of ['channel', 'gain']) {
      const x = inputs[key];
      if (!x.value || !x.value.data || x.value.data.length <= Plan.SIGNED_BY_VALUE_UP_TO) continue;
      if (sharedRefs[key]?.sig !== x.sig) sharedRefs[key] = { sig: x.sig, ref: engine.share(key, x.value) };
      inputs[key] = { ...x, value: { ...sharedRefs[key].ref, rows: x.value.rows, cols: x.value.cols } };
    }
    return inputs;
  }

  // The debounced step: decide, panel by panel, what the inputs ask for.
  const recompute = pipe.task(() => {
    const inputs = inputsForEngine();
    const plan = Plan.panelPlan(inputs, lastSig, force);
    if (checked.channel && checked.prior) hyperInputs = { C: checked.channel, prior: checked.prior };
    const sig = `${inputs.channel.sig}\u0000${state.observed}`;
    if (sig !== estimateSig) {
      estimateSig = sig;
      estimate.now();
    }
    for (const name of ORDER) {
      const p = plan[name];
      if (p.action === 'run') {
        lastSig[name] = p.sig;
        panels[name].now(p.calls, p.exact);
      } else if (p.action === 'same' && !panels[name].busy) {
        // Back to inputs already shown (e.g. 0.5 retyped as 1/2): nothing to recompute.
        for (const key of S.PANEL_KEYS[name]) if (view.status(key) === 'pending') view.setStatus([key], 'ok');
      }
    }
    showExactNote();
  });

  // The prior estimated from observed outputs (iterative Bayesian update), for the channel shown.
  const estimate = pipe.task(async (job) => {
    const field = root.querySelector('#observed');
    if (state.observed.trim() === '') {
      setFieldMessage(field, root.querySelector('#observed-msg'), null);
      view.showEstimate(null);
      return;
    }
    const o = Plan.parseObserved(state.observed, state.observables.length);
    setFieldMessage(field, root.querySelector('#observed-msg'), o.error ?? null);
    if (o.error || !checked.channel) {
      view.showEstimate(null);
      return;
    }
    const C = inputsForEngine().channel.value; // a large channel by its reference in the worker
    let r;
    try {
      [r] = await job.run([engine.plan.channel.iterativeBayesianUpdate(C, o.value)], { cancelStale: true });
    } catch (e) {
      if (e instanceof Superseded) throw e;
      r = { ok: false, error: isAbort(e) ? 'Cancelled.' : e.message };
    }
    lastEstimate = r.ok ? r.value : null;
    view.showEstimate(forReader(r), state.secrets, o.scaled);
  });
  let lastEstimate = null;
  let estimateSig = null; // channel and observed frequencies of the estimate shown

  // Called on every input: immediate validation, then a debounced recompute.
  function changed() {
    showValidation();
    const plan = Plan.panelPlan(inputsNow(), lastSig, force);
    for (const [name, p] of Object.entries(plan)) {
      if (p.action === 'stale' || p.action === 'skip') {
        if (p.action === 'skip') view.showSkipped(S.PANEL_KEYS[name], p.reason, p.cost !== undefined ? name : null);
        else view.setStatus(S.PANEL_KEYS[name], 'stale', '');
        lastSig[name] = null;
        panels[name].supersede();
      } else if (p.action === 'run') view.setStatus(S.PANEL_KEYS[name], 'pending');
    }
    if (state.observed.trim() !== '' && !checked.channel) view.estimateBox.dataset.status = 'stale';
    recompute.schedule();
  }

  // ---------------------------------------------------------------- events
  function markEdited() {
    if (!state.edited) {
      state.edited = true;
      renderPresetMenu();
    }
  }

  // Undo: the states before each edit (history.js); record() is called before an edit.
  const history = new History();
  const undoButton = root.querySelector('#undo');
  const record = (key = null, snap = null) => {
    history.record(() => snap ?? S.snapshot(state), key);
    undoButton.disabled = false;
  };

  // Puts back the state before the last edit.
  function undo() {
    const snap = history.undo();
    undoButton.disabled = !history.canUndo;
    if (!snap) return;
    loading.cancel();
    S.restore(state, snap);
    root.querySelector('#alpha').value = state.alpha;
    root.querySelector('#capacity-tolerance').value = state.tolerance;
    view.gainClass.value = state.gainClass;
    view.observed.value = state.observed;
    loading.clearMessage();
    rerenderInputs();
    els.pasteNote.textContent = 'Undone: the inputs are as they were before the last edit.';
  }

  root.addEventListener('input', (e) => {
    const t = e.target;
    if (t.id === 'alpha' || t.id === 'capacity-tolerance' || t.id === 'observed') record(t.id);
    if (t.id === 'alpha' || t.id === 'capacity-tolerance') {
      state[t.id === 'alpha' ? 'alpha' : 'tolerance'] = t.value;
      changed();
      return;
    }
    if (t.id === 'observed') {
      state.observed = t.value;
      view.estimateBox.dataset.status = 'pending';
      estimateSig = null;
      estimate.schedule();
      return;
    }
    const d = t.dataset;
    if (!d || !d.grid) return;
    const r = Number(d.r);
    const c = Number(d.c);
    record(`${d.grid}:${d.kind}:${r}:${c}`);
    loading.clearMessage();
    if (d.grid === 'channel') {
      if (d.kind === 'cell') state.cells.set(r, c, t.value);
      else if (d.kind === 'prior') {
        state.prior[r] = t.value;
        state.priorUniform = false;
      } else if (r === -1) state.observables[c] = t.value;
      else {
        state.secrets[r] = t.value;
        if (state.gainIdentity) state.gainLabels[r] = t.value;
        renderGainTable(els.gainTable, state); // its column headers are the secrets
      }
      if (d.kind !== 'prior') markEdited();
      if (d.kind === 'label') refreshLabelled();
    } else if (d.grid === 'gain') {
      state.gainIdentity = false;
      if (d.kind === 'gain') state.gain[r][c] = t.value;
      else state.gainLabels[r] = t.value;
    }
    changed();
  });

  // Labels appear in the hyper table and the capacity prior: redraw them when a label changes
  // (the numbers do not change, so nothing is recomputed).
  function refreshLabelled() {
    if (shown.hyper && view.status('hyper') === 'ok') showHyper();
    if (shown.shannonCapacity && view.status('shannonCapacity') === 'ok') view.showCapacity(shown.shannonCapacity, state.secrets);
  }

  root.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    const i = Number(b.dataset.index);
    const action = b.dataset.action ?? b.id;
    if (action === 'undo') {
      undo();
      return;
    }
    if (EDITS.has(action)) record();
    loading.clearMessage();
    switch (action) {
      case 'remove-row': S.removeRow(state, i); markEdited(); break;
      case 'remove-col': S.removeCol(state, i); markEdited(); break;
      case 'remove-guess': S.removeGuess(state, i); break;
      case 'add-row': S.addRow(state); markEdited(); break;
      case 'add-col': S.addCol(state); markEdited(); break;
      case 'uniform': state.priorUniform = true; S.syncDerived(state); break;
      case 'add-guess': S.addGuess(state); break;
      case 'identity-gain': state.gainIdentity = true; S.syncDerived(state); break;
      case 'edit-gain': state.gainIdentity = false; break;
      case 'cancel-capacity': panels.capacity.cancel(); return;
      case 'recompute-capacity': changed(); return;
      case 'compute-anyway': force.add(b.dataset.panel); changed(); return;
      case 'cancel-load': loading.cancel(); return;
      case 'use-capacity-prior': {
        const cap = shown.shannonCapacity;
        if (!cap?.ok || cap.value.prior.length !== state.secrets.length) return;
        S.setPrior(state, cap.value.prior);
        break;
      }
      case 'use-estimate': {
        if (!lastEstimate || lastEstimate.prior.length !== state.secrets.length) return;
        S.setPrior(state, lastEstimate.prior);
        break;
      }
      default: return;
    }
    rerenderInputs();
  });

  loading = installLoading(root, els, { state, markEdited, rerenderInputs, showValidation, onBusy: busy, record, breakRun: () => history.breakRun() });

  const isUndoKey = (e) => (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'z';
  root.addEventListener('keydown', (e) => {
    // Ctrl+Z (⌘Z) undoes the section's last edit, in a cell or anywhere in the section, when there
    // is one (else the browser's own undo of a field's text).
    if (isUndoKey(e) && history.canUndo) {
      e.preventDefault();
      undo();
      return;
    }
    if (e.altKey && !e.ctrlKey && !e.metaKey && moveByKey(e)) return;
    onGridKey(root, e, grid);
  });

  // ---------------------------------------------------------------- order of rows and columns
  // Sorting (the two menus), dragging a handle onto another row or column, and Alt+arrows in a
  // label move rows and columns (order.js); each is one edit that Undo takes back.
  function reorder(kind, order) {
    const snap = S.snapshot(state);
    const done = kind === 'row' ? O.permuteRows(state, order) : O.permuteCols(state, order);
    if (!done) return false;
    record(null, snap);
    if (kind === 'row') S.syncDerived(state);
    markEdited();
    rerenderInputs();
    return true;
  }
  for (const [sel, kind] of [[els.sortRows, 'row'], [els.sortCols, 'col']]) {
    sel.addEventListener('change', () => {
      const by = sel.value;
      sel.value = '';
      if (!by) return;
      reorder(kind, kind === 'row' ? O.rowOrder(state, by) : O.colOrder(state, by));
    });
  }
  function moveByKey(e) {
    const d = e.target.dataset;
    if (d?.grid !== 'channel' || d.kind !== 'label') return false;
    const r = Number(d.r);
    const c = Number(d.c);
    const step = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -1, ArrowRight: 1 }[e.key];
    if (!step) return false;
    const kind = r === -1 && (e.key === 'ArrowLeft' || e.key === 'ArrowRight') ? 'col' : c === -2 && (e.key === 'ArrowUp' || e.key === 'ArrowDown') ? 'row' : null;
    if (!kind) return false;
    e.preventDefault();
    const from = kind === 'row' ? r : c;
    const n = kind === 'row' ? state.secrets.length : state.observables.length;
    const to = from + step;
    if (to < 0 || to >= n) return true;
    if (reorder(kind, O.moveOrder(n, from, to))) {
      const el = grid.reveal(kind === 'row' ? to : -1, kind === 'row' ? -2 : to);
      el?.focus();
    }
    return true;
  }
  let dragging = null; // {kind, index} of the handle being dragged
  const dropTarget = (e) => {
    if (!dragging) return null;
    if (dragging.kind === 'row') {
      const tr = e.target.closest?.('tbody tr[data-r]');
      return tr && els.channelTable.contains(tr) ? { el: tr, index: Number(tr.dataset.r) } : null;
    }
    const th = e.target.closest?.('thead th[data-col]');
    return th && els.channelTable.contains(th) ? { el: th, index: Number(th.dataset.col) } : null;
  };
  const clearDrop = () => { for (const x of els.channelTable.querySelectorAll('.drop-target')) x.classList.remove('drop-target'); };
  els.channelTable.addEventListener('dragstart', (e) => {
    const g = e.target.closest?.('[data-drag]');
    if (!g) return;
    dragging = { kind: g.dataset.drag, index: Number(g.dataset.index) };
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', `${dragging.kind} ${dragging.index}`);
  });
  els.channelTable.addEventListener('dragover', (e) => {
    const t = dropTarget(e);
    if (!t) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (!t.el.classList.contains('drop-target')) { clearDrop(); t.el.classList.add('drop-target'); }
  });
  els.channelTable.addEventListener('drop', (e) => {
    const t = dropTarget(e);
    clearDrop();
    if (!t) return;
    e.preventDefault();
    const { kind, index } = dragging;
    dragging = null;
    const n = kind === 'row' ? state.secrets.length : state.observables.length;
    reorder(kind, O.moveOrder(n, index, t.index));
  });
  els.channelTable.addEventListener('dragend', () => { dragging = null; clearDrop(); });
  // Focus is on the page itself after a button that removed itself (a row's ×): Ctrl+Z there
  // undoes too, while this section is the one shown.
  document.addEventListener('keydown', (e) => {
    if (e.target !== document.body || !isUndoKey(e) || !history.canUndo || root.hidden || !root.offsetParent) return;
    e.preventDefault();
    undo();
  });
  // Leaving a field ends its run of typing: typing in it again later is a new step.
  root.addEventListener('focusout', () => history.breakRun());

  view.gainClass.addEventListener('change', () => {
    record();
    state.gainClass = view.gainClass.value;
    changed();
  });

  els.preset.addEventListener('change', () => {
    const p = presetById(els.preset.value);
    if (!p) return;
    record();
    S.loadPreset(state, p);
    loading.clearMessage();
    els.pasteNote.textContent = '';
    els.channelWrap.scrollTo(0, 0);
    rerenderInputs();
  });

  client?.on((ev) => {
    if (ev.type === 'crash') {
      for (const name of Object.keys(lastSig)) lastSig[name] = null;
      estimateSig = null;
      changed();
    }
  });

  // A program's channel replaces the grid, with its labels, its fractions as typed and its prior.
  const program = createProgramCard({
    engine,
    onChannel(r, source) {
      const { rows, cols } = r.channel;
      record(); // a program's channel replaces the grid: Undo brings back what was there
      S.loadBlock(state, {
        rows, cols, data: Float64Array.from(r.channel.data), lengths: new Array(rows).fill(cols),
        rowLabels: r.secrets, colLabels: r.observations,
        texts: { index: Array.from({ length: rows * cols }, (_, k) => k), text: r.exact.channel.flat() },
      });
      if (r.exact.prior.some((p) => p !== r.exact.prior[0])) {
        state.prior = r.exact.prior.slice();
        state.priorUniform = false;
      }
      state.program = source;
      loading.clearMessage();
      els.channelWrap.scrollTo(0, 0);
      rerenderInputs();
      els.pasteNote.textContent = '';
    },
  });
  programCard = program;
  root.querySelector('#preset-card').after(program.el);

  // ---------------------------------------------------------------- start
  rerenderInputs();
  showFirstResults();
  recompute.now(); // the first results need no debounce: nobody is typing yet

  // The default example's numbers as the engine computed them at build time (first-results.js,
  // checked against the engine by a test): shown at once, marked data-prerendered, for the panels
  // whose inputs are exactly the build's; the worker's answers, already asked for, replace them.
  function showFirstResults() {
    const plan = Plan.panelPlan(inputsNow());
    for (const [name, p] of Object.entries(FIRST_RESULTS)) {
      if (plan[name]?.action !== 'run' || plan[name].sig !== p.sig) continue;
      for (const [key, value] of Object.entries(p.values)) view.showPrerendered(key, value);
    }
  }

  return {
    firstShown,
    /** The whole input state as plain JSON (page/share.js carries it in the URL hash). */
    getState: () => S.stateJSON(state),
    /** Restores a state checked by check() and recomputes. */
    setState(s) {
      S.assignState(state, s);
      root.querySelector('#alpha').value = state.alpha;
      root.querySelector('#capacity-tolerance').value = state.tolerance;
      els.channelWrap.scrollTo(0, 0);
      view.gainClass.value = state.gainClass;
      view.observed.value = state.observed;
      program.setSource(state.program ?? '');
      rerenderInputs();
    },
    check: S.checkState,
    /**
     * The inputs and the results shown, as data (the Export menus read these). `cells` is the
     * section's matrix itself (input/matrix.js): read it, do not change it.
     */
    getResults() {
      const exactTexts = {};
      for (const [key, text] of Object.entries(exactShown)) {
        if (key !== 'hyper' && shown[key]?.ok && view.status(key) === 'ok') exactTexts[key] = text;
      }
      const hyperLabels = shown.hyper?.ok && hyperInputs ? Plan.posteriorLabels(shown.hyper.value, hyperInputs.C, hyperInputs.prior, state.observables) : [];
      return {
        inputs: { secrets: state.secrets.slice(), observables: state.observables.slice(), cells: state.cells, prior: state.prior.slice(), gain: state.gain ? structuredClone(state.gain) : null, gainLabels: state.gainLabels.slice(), gainIdentity: state.gainIdentity },
        ...Plan.resultsOf(Object.fromEntries(Object.entries(shown).filter(([key]) => view.status(key) === 'ok')), { measures: MEASURES, exact: exactTexts, hyperLabels, exactHyper: view.status('hyper') === 'ok' ? exactShown.hyper ?? null : null }),
      };
    },
  };
}
