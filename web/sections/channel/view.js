// sections/channel/view.js — the "Channel & leakage" section on the page: an editable channel,
// prior and gain function, and every measure of the section computed in the worker.
//
// mount(root, {engine, client}) → {getState, setState, check, getResults}, like every section,
// and firstShown (see page/sections.js).
// The section's logic and state are its controller (controller.js: what each edit does, the
// jobs sent to the engine, the status of every result, Undo); this file draws what the
// controller emits and forwards the page's events (typing, clicks, keys, drags, pastes) to its
// methods.
//
// Large matrices (up to 2,000 × 2,000 entries): a long paste and a CSV/TSV file (picked or dropped on
// the matrix) are read in the data worker with progress (loading.js); the grid draws only
// what is in view (grid-view.js); the channel goes to the engine once per change (engine.share)
// rather than once per job; panels that would cost too much at that size say so and wait to be
// asked (plan.js panelPlan); exact values stop at EXACT_MAX_ENTRIES entries (plan.js).

import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { presets, presetById } from '../../lib/presets.js';
import * as Plan from './plan.js';
import { ChannelGrid } from './grid-view.js';
import { onGridKey, installReorder } from './grid-keys.js';
import { renderGainTable, showGainMessages } from './gain-view.js';
import { ResultsView } from './results-view.js';
import { createProgramCard } from './program-view.js';
import { buildSkeleton } from './skeleton.js';
import { installLoading } from './loading.js';
import { ChannelController, check } from './controller.js';

export function mount(root, { engine, client }) {
  const ctl = new ChannelController({ engine });
  const state = ctl.inputs;
  const els = buildSkeleton(root);
  const grid = new ChannelGrid(els.channelTable, els.channelWrap, () => state, showWindow);
  const view = new ResultsView(els.results, state);
  const field = (id) => root.querySelector(`#${id}`);
  let loading = null; // reads pastes and files (installed below)

  const busy = () => {
    root.dataset.busy = String(ctl.state.busy || !!loading?.busy);
    if (root.dataset.busy === 'false') ctl.firstShownDone();
  };

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

  // Sets the fields outside the grids from the state (after Undo, or a state from a link).
  function setFields() {
    field('alpha').value = state.alpha;
    field('capacity-tolerance').value = state.tolerance;
    view.gainClass.value = state.gainClass;
    view.observed.value = state.observed;
  }

  // Rebuilds the tables keeping focus (and the caret) on the same grid position.
  function renderInputs({ fields = false, scrollTop = false, program = false }) {
    if (fields) setFields();
    if (scrollTop) els.channelWrap.scrollTo(0, 0);
    if (program) programCard.setSource(state.program ?? '');
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
  }

  function showValidation({ checked, pasteMessage }) {
    grid.show(checked);
    showGainMessages(els.gainTable, checked);
    setFieldMessage(field('alpha'), field('alpha-msg'), checked.alphaMsg);
    setFieldMessage(field('capacity-tolerance'), field('capacity-tolerance-msg'), checked.toleranceMsg);
    const messages = pasteMessage ? [{ text: `Paste: ${pasteMessage}` }, ...checked.messages] : checked.messages;
    replace(els.errors, messages.slice(0, 12).map((m) => h('li', { text: m.text })),
      messages.length > 12 ? h('li', { text: `… and ${(messages.length - 12).toLocaleString('en')} more` }) : null);
    const n = checked.messages.length;
    els.note.textContent = n ? `The input has ${n.toLocaleString('en')} problem${n === 1 ? '' : 's'} (see the matrix): values that depend on it are marked stale.` : '';
    els.note.classList.toggle('warn', n > 0);
  }

  // ---------------------------------------------------------------- what the controller emits
  const draw = {
    inputs: renderInputs,
    preset: renderPresetMenu,
    gain: () => renderGainTable(els.gainTable, state),
    validation: showValidation,
    status: (e) => view.setStatus(e.keys, e.status, e.note),
    skipped: (e) => view.showSkipped(e.keys, e.reason, e.panel),
    number: (e) => view.showNumber(e.key, e.result, e.exact),
    capacity: (e) => view.showCapacity(e.result, e.secrets),
    capacityProgress: (e) => view.showCapacityProgress(e.data),
    failure: (e) => view.showFailure(e.keys, e.cancelled, e.message),
    exact: (e) => view.showExactOf(e.key, e.text),
    hyper: (e) => view.showHyper(e.result, e),
    exactNote: (e) => { els.exactNote.textContent = e.text; },
    estimate: (e) => view.showEstimate(e.result, e.secrets, e.scaled),
    estimateStatus: (e) => { view.estimateBox.dataset.status = e.status; },
    observed: (e) => setFieldMessage(field('observed'), field('observed-msg'), e.message),
    pasteNote: (e) => { els.pasteNote.textContent = e.text; },
    history: (e) => { field('undo').disabled = !e.canUndo; },
    undo: () => loading.cancel(),
    prerendered: (e) => { for (const [key, value] of e.values) view.showPrerendered(key, value); },
    busy,
  };
  ctl.subscribe((e) => draw[e.type]?.(e));
  busy();

  // ---------------------------------------------------------------- events
  root.addEventListener('input', (e) => {
    const t = e.target;
    if (t.id === 'alpha') return ctl.setAlpha(t.value);
    if (t.id === 'capacity-tolerance') return ctl.setTolerance(t.value);
    if (t.id === 'observed') return ctl.setObserved(t.value);
    const d = t.dataset;
    if (!d || !d.grid) return;
    ctl.editCell({ grid: d.grid, kind: d.kind, r: Number(d.r), c: Number(d.c) }, t.value);
  });

  // The buttons of the section, by their data-action (or id).
  const actions = {
    'remove-row': (i) => ctl.removeRow(i),
    'remove-col': (i) => ctl.removeCol(i),
    'remove-guess': (i) => ctl.removeGuess(i),
    'add-row': () => ctl.addRow(),
    'add-col': () => ctl.addCol(),
    uniform: () => ctl.uniformPrior(),
    'add-guess': () => ctl.addGuess(),
    'identity-gain': () => ctl.identityGain(),
    'edit-gain': () => ctl.editGain(),
    'cancel-capacity': () => ctl.cancelCapacity(),
    'recompute-capacity': () => ctl.recomputeCapacity(),
    'compute-anyway': (i, b) => ctl.computeAnyway(b.dataset.panel),
    'cancel-load': () => loading.cancel(),
    'use-capacity-prior': () => ctl.useCapacityPrior(),
    'use-estimate': () => ctl.useEstimate(),
  };
  root.addEventListener('click', (e) => {
    const b = e.target.closest('button');
    if (!b) return;
    const action = b.dataset.action ?? b.id;
    if (action === 'undo') {
      ctl.undo();
      return;
    }
    ctl.clearPasteMessage(); // a button pressed: the paste's message is old news
    actions[action]?.(Number(b.dataset.index), b);
  });

  loading = installLoading(root, els, ctl, { onBusy: busy });

  const isUndoKey = (e) => (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'z';
  const reorder = installReorder(els, ctl, grid);
  root.addEventListener('keydown', (e) => {
    // Ctrl+Z (⌘Z) undoes the section's last edit, in a cell or anywhere in the section, when there
    // is one (else the browser's own undo of a field's text).
    if (isUndoKey(e) && ctl.history.canUndo) {
      e.preventDefault();
      ctl.undo();
      return;
    }
    if (e.altKey && !e.ctrlKey && !e.metaKey && reorder.moveByKey(e)) return;
    onGridKey(root, e, grid);
  });
  // Focus is on the page itself after a button that removed itself (a row's ×): Ctrl+Z there
  // undoes too, while this section is the one shown.
  document.addEventListener('keydown', (e) => {
    if (e.target !== document.body || !isUndoKey(e) || !ctl.history.canUndo || root.hidden || !root.offsetParent) return;
    e.preventDefault();
    ctl.undo();
  });
  // Leaving a field ends its run of typing: typing in it again later is a new step.
  root.addEventListener('focusout', () => ctl.breakRun());

  view.gainClass.addEventListener('change', () => ctl.setGainClass(view.gainClass.value));
  els.preset.addEventListener('change', () => ctl.loadPreset(els.preset.value));

  client?.on((ev) => {
    if (ev.type === 'crash') ctl.crashed();
  });

  // A program's channel replaces the grid, with its labels, its fractions as typed and its prior.
  programCard = createProgramCard({ engine, onChannel: (r, source) => ctl.loadProgramChannel(r, source) });
  root.querySelector('#preset-card').after(programCard.el);

  // ---------------------------------------------------------------- start
  ctl.start();

  return {
    firstShown: ctl.firstShown,
    /** The whole input state as plain JSON (page/share.js carries it in the URL hash). */
    getState: () => ctl.getState(),
    /** Restores a state checked by check() and recomputes. */
    setState: (s) => ctl.setState(s),
    check,
    /** The inputs and the results shown, as data (the Export menus read these). */
    getResults: () => ctl.getResults(),
  };
}
