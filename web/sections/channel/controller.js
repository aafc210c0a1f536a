// sections/channel/controller.js — the "Channel & leakage" section without its page: the state it
// shows (the inputs as typed, their validation, the Undo history, the notes, and through its
// results part, results.js, the status and value of every measure and the estimate), one method
// per thing a reader does (type in a cell, paste, load an example or a program's channel, undo,
// reorder, ask for a result). It emits an event for each change (lib/controller.js Store); the
// view (view.js) subscribes, draws, and forwards the page's events to the methods here.
// No DOM: tests/node/channel-controller.test.mjs drives it in Node with the engine loaded there.
//
// An edit records the state before it (history.js), changes the inputs (state.js), checks them
// at once (validate.js: an event 'validation' with per-cell messages) and tells the results
// (results.js changed), which schedule the engine's jobs.
//
// Events ({type, …}): inputs {fields, scrollTop, program} (the grids and the preset menu to draw
// again; fields: α, tolerance, class and observed to be set from the state; program: the program
// editor's text), preset, gain, validation {checked, pasteMessage}, pasteNote {text}, history
// {canUndo}, undo (a paste being read is stopped); from results.js: status {keys, status, note},
// skipped {keys, reason, panel}, number {key, result, exact}, capacity {result, secrets},
// capacityProgress {data}, failure {keys, cancelled, message}, exact {key, text}, hyper {result,
// labels, secrets, outputs, exact, observables}, exactNote {text}, estimate {result, secrets,
// scaled}, estimateStatus {status}, observed {message}, busy {busy}.

import { presetById } from '../../lib/presets.js';
import { Store } from '../../lib/controller.js';
import { validateInputs } from './validate.js';
import * as S from './state.js';
import * as O from './order.js';
import { History } from './history.js';
import { ChannelResults, initialResults } from './results.js';
import * as Plan from './plan.js';
import { FIRST_RESULTS } from './first-results.js';

const DECIMAL_COMMAS = 'Read as decimal commas (cells were separated by tabs, semicolons or spaces, or quoted): 0,5 → 0.5.';

export class ChannelController {
  /**
   * @param {{engine: object, timing?: object, clock?: object, onError?: (e: Error) => void, presetId?: string}} options
   *   engine: the page's typed engine (engine/client.js createEngine), or one of the same shape;
   *   timing and clock go to the pipeline (engine/pipeline.js), a test's own.
   */
  constructor({ engine, timing, clock, onError, presetId } = {}) {
    /** The inputs as typed (state.js): matrix, labels, prior, gain, α, tolerance, class, observed. */
    this.inputs = S.createState(presetId);
    this.history = new History();
    this.store = new Store({
      ...initialResults(),
      checked: validateInputs(this.inputs),
      pasteMessage: null, // why the last paste or file could not be read
      pasteNote: '',
      canUndo: false,
    });
    this.s = this.store.state;
    this.results = new ChannelResults({ engine, store: this.store, inputs: this.inputs, timing, clock, onError });
    this.firstShown = this.results.firstShown;
  }

  emit(event) { this.store.emit(event); }
  subscribe(fn) { return this.store.subscribe(fn); }
  /** The section's state: validation, results, notes, busy (the inputs are `inputs`). */
  get state() { return this.s; }
  /** The status of measure `key` ('pending', 'ok', 'stale', 'skipped', 'error', …). */
  status(key) { return this.results.status(key); }
  /** Resolves once nothing is scheduled or computing (the tests wait on it). */
  idle() { return this.results.idle(); }
  /** The section shows what it has (the view calls it when nothing is busy any more). */
  firstShownDone() { this.results.firstShownDone(); }

  /** Draws the inputs and computes the first results at once (nobody is typing yet). */
  start() {
    this.rerender();
    this.emit({ type: 'prerendered', values: this.prerendered() });
    this.results.recompute.now();
  }

  /**
   * The default example's numbers as the engine computed them at build time (first-results.js,
   * checked against the engine by a test), as [key, value] pairs for the panels whose inputs are
   * exactly the build's: shown at once, marked, until the engine's answers (asked for right after)
   * replace them.
   */
  prerendered() {
    const plan = Plan.panelPlan(this.results.inputsNow());
    const out = [];
    for (const [name, p] of Object.entries(FIRST_RESULTS)) {
      if (plan[name]?.action !== 'run' || plan[name].sig !== p.sig) continue;
      out.push(...Object.entries(p.values));
    }
    return out;
  }

  validate() {
    this.s.checked = validateInputs(this.inputs);
    this.emit({ type: 'validation', checked: this.s.checked, pasteMessage: this.s.pasteMessage });
  }

  /** Called on every change of the inputs: immediate validation, then a debounced recompute. */
  changed() {
    this.validate();
    this.results.changed();
  }

  // The inputs drawn again (event 'inputs'), then checked and their results scheduled.
  rerender(how = {}) {
    this.emit({ type: 'inputs', ...how });
    this.changed();
  }

  setPasteNote(text) {
    this.store.set({ pasteNote: text }, { type: 'pasteNote', text });
  }

  clearPasteMessage() {
    this.s.pasteMessage = null;
  }

  /** The engine's worker crashed and restarted: everything shown is computed again. */
  crashed() {
    this.results.forget();
    this.changed();
  }

  // ---------------------------------------------------------------- the reader's edits

  /** Records the state before an edit for Undo; `key` names a run of typing in one field. */
  record(key = null, snap = null) {
    this.history.record(() => snap ?? S.snapshot(this.inputs), key);
    this.store.set({ canUndo: true }, { type: 'history', canUndo: true });
  }

  /** Ends a run of typing (focus left the field): typing there again is a new step. */
  breakRun() {
    this.history.breakRun();
  }

  markEdited() {
    if (this.inputs.edited) return;
    this.inputs.edited = true;
    this.emit({ type: 'preset' });
  }

  /** Puts back the state before the last edit; false when there was none. */
  undo() {
    const snap = this.history.undo();
    this.store.set({ canUndo: this.history.canUndo }, { type: 'history', canUndo: this.history.canUndo });
    if (!snap) return false;
    this.emit({ type: 'undo' }); // a paste or a file still being read is stopped
    S.restore(this.inputs, snap);
    this.clearPasteMessage();
    this.rerender({ fields: true });
    this.setPasteNote('Undone: the inputs are as they were before the last edit.');
    return true;
  }

  /**
   * Text typed into a cell of a grid: `grid` 'channel' (kind 'cell', 'prior' or 'label'; r −1 is
   * the column labels) or 'gain' (kind 'gain' or 'label').
   */
  editCell({ grid, kind, r, c }, value) {
    const s = this.inputs;
    this.record(`${grid}:${kind}:${r}:${c}`);
    this.clearPasteMessage();
    if (grid === 'channel') {
      if (kind === 'cell') s.cells.set(r, c, value);
      else if (kind === 'prior') {
        s.prior[r] = value;
        s.priorUniform = false;
      } else if (r === -1) s.observables[c] = value;
      else {
        s.secrets[r] = value;
        if (s.gainIdentity) s.gainLabels[r] = value;
        this.emit({ type: 'gain' }); // its column headers are the secrets
      }
      if (kind !== 'prior') this.markEdited();
      if (kind === 'label') this.results.refreshLabelled();
    } else if (grid === 'gain') {
      s.gainIdentity = false;
      if (kind === 'gain') s.gain[r][c] = value;
      else s.gainLabels[r] = value;
    }
    this.changed();
  }

  setAlpha(text) {
    this.record('alpha');
    this.inputs.alpha = text;
    this.changed();
  }

  setTolerance(text) {
    this.record('capacity-tolerance');
    this.inputs.tolerance = text;
    this.changed();
  }

  /** Observed output frequencies: only the estimate depends on them. */
  setObserved(text) {
    this.record('observed');
    this.inputs.observed = text;
    this.results.observedChanged();
  }

  setGainClass(id) {
    this.record();
    this.inputs.gainClass = id;
    this.changed();
  }

  // One edit of a button: recorded, applied, drawn; `edited` when the channel is no longer the
  // example's.
  edit(apply, { edited = false } = {}) {
    this.record();
    this.clearPasteMessage();
    apply(this.inputs);
    if (edited) this.markEdited();
    this.rerender();
  }

  addRow() { this.edit((s) => S.addRow(s), { edited: true }); }
  addCol() { this.edit((s) => S.addCol(s), { edited: true }); }
  removeRow(i) { this.edit((s) => S.removeRow(s, i), { edited: true }); }
  removeCol(j) { this.edit((s) => S.removeCol(s, j), { edited: true }); }
  addGuess() { this.edit((s) => S.addGuess(s)); }
  removeGuess(w) { this.edit((s) => S.removeGuess(s, w)); }
  uniformPrior() { this.edit((s) => { s.priorUniform = true; S.syncDerived(s); }); }
  identityGain() { this.edit((s) => { s.gainIdentity = true; S.syncDerived(s); }); }
  /** An identity too large to draw, made a matrix one can edit. */
  editGain() { this.edit((s) => { s.gainIdentity = false; }); }

  /** The capacity-achieving prior as the prior (false when there is none for these secrets). */
  useCapacityPrior() {
    const cap = this.s.shown.shannonCapacity;
    if (!cap?.ok || cap.value.prior.length !== this.inputs.secrets.length) return false;
    this.edit((s) => S.setPrior(s, cap.value.prior));
    return true;
  }

  /** The estimated prior as the prior (false when there is none for these secrets). */
  useEstimate() {
    const est = this.results.lastEstimate;
    if (!est || est.prior.length !== this.inputs.secrets.length) return false;
    this.edit((s) => S.setPrior(s, est.prior));
    return true;
  }

  cancelCapacity() { this.results.cancelCapacity(); }
  recomputeCapacity() { this.changed(); }
  /** A panel skipped for its cost, started anyway. */
  computeAnyway(panel) {
    this.results.computeAnyway(panel);
    this.changed();
  }

  /** Example `id` (lib/presets.js) replaces the inputs. */
  loadPreset(id) {
    const p = presetById(id);
    if (!p) return false;
    this.record();
    S.loadPreset(this.inputs, p);
    this.clearPasteMessage();
    this.setPasteNote('');
    this.rerender({ scrollTop: true });
    return true;
  }

  /**
   * A program's channel (what engine.program.channel returned for `source`) replaces the grid,
   * with its labels, its fractions as typed and its prior; Undo brings back what was there.
   */
  loadProgramChannel(r, source) {
    const { rows, cols } = r.channel;
    const s = this.inputs;
    this.record();
    S.loadBlock(s, {
      rows, cols, data: Float64Array.from(r.channel.data), lengths: new Array(rows).fill(cols),
      rowLabels: r.secrets, colLabels: r.observations,
      texts: { index: Array.from({ length: rows * cols }, (_, k) => k), text: r.exact.channel.flat() },
    });
    if (r.exact.prior.some((p) => p !== r.exact.prior[0])) {
      s.prior = r.exact.prior.slice();
      s.priorUniform = false;
    }
    s.program = source;
    this.clearPasteMessage();
    this.rerender({ scrollTop: true });
    this.setPasteNote('');
  }

  // ---------------------------------------------------------------- order of rows and columns

  /** Rows or columns (kind 'row' | 'col') in a new order (order.js): one edit. */
  reorder(kind, order) {
    const snap = S.snapshot(this.inputs);
    const done = kind === 'row' ? O.permuteRows(this.inputs, order) : O.permuteCols(this.inputs, order);
    if (!done) return false;
    this.record(null, snap);
    if (kind === 'row') S.syncDerived(this.inputs);
    this.markEdited();
    this.rerender();
    return true;
  }

  /** Sorts rows or columns `by` one of order.js's keys ('label', 'prior', …). */
  sort(kind, by) {
    return this.reorder(kind, kind === 'row' ? O.rowOrder(this.inputs, by) : O.colOrder(this.inputs, by));
  }

  /** Moves row or column `from` to position `to`; false when nothing moved. */
  move(kind, from, to) {
    const n = kind === 'row' ? this.inputs.secrets.length : this.inputs.observables.length;
    if (to < 0 || to >= n) return false;
    return this.reorder(kind, O.moveOrder(n, from, to));
  }

  // ---------------------------------------------------------------- pastes and files

  /**
   * Text pasted into a cell `at` ({grid, kind, r, c}, as editCell). Returns true when the paste
   * was taken here (a block, or a block that cannot be read, which says why), false when it is
   * one value for the cell itself (the browser's own paste).
   */
  paste(at, text) {
    if (!/[\t\n,; ]/.test(text.trim())) return false;
    const { grid, kind, r, c } = at;
    const s = this.inputs;
    const before = S.snapshot(s);
    this.breakRun();
    let res = { error: 'not here' };
    if (grid === 'channel') {
      if (kind === 'label') res = S.pasteLabels(s, r === -1 ? 'col' : 'row', r === -1 ? c : r, text);
      else res = S.pasteIntoChannel(s, r, kind === 'prior' ? -1 : c, text);
      if (res.ok && kind !== 'prior') this.markEdited();
    } else if (grid === 'gain' && kind === 'gain') res = S.pasteIntoGain(s, r, c, text);
    if (res.ok) {
      this.applyPasted(res, before);
      return true;
    }
    if (kind !== 'label' && /\n/.test(text.trim())) {
      // A block that cannot be read: say why rather than paste it into one cell.
      this.applyPasted(res);
      return true;
    }
    // One line the grid cannot split (a lone "0,5", say): the cell's own message says why.
    return false;
  }

  /** A block read elsewhere (input/grid.js readMatrix, in the data worker) pasted at (r, c). */
  pasteBlock(r, c, block) {
    if ('error' in block) {
      this.applyPasted(block);
      return;
    }
    const before = S.snapshot(this.inputs);
    this.markEdited();
    this.applyPasted(S.applyBlock(this.inputs, r, c, block), before);
  }

  /** A file read into a block (or {error}): it replaces the channel, labels included. */
  loadFileBlock(name, block) {
    if ('error' in block) {
      this.applyPasted({ error: `${name}: ${block.error}` });
      return;
    }
    const before = S.snapshot(this.inputs);
    S.loadBlock(this.inputs, block);
    this.applyPasted({ ok: true, decimalComma: block.decimalComma }, before);
  }

  /** Reading a paste or a file failed (message) or was cancelled (null), with a note. */
  readFailed(message, note) {
    this.s.pasteMessage = message;
    this.setPasteNote(note);
    this.validate();
  }

  // A paste went in (recorded for Undo with the state `before` it), or says why it could not.
  applyPasted(res, before = null) {
    if (!res.ok) {
      this.s.pasteMessage = res.error;
      this.validate();
      return;
    }
    if (before) this.record(null, before);
    this.clearPasteMessage();
    this.rerender({ scrollTop: res.how === 'new' });
    this.setPasteNote(res.how ? S.pasteNote(res, this.inputs) : res.decimalComma ? DECIMAL_COMMAS : '');
  }

  // ---------------------------------------------------------------- the section's data

  /** The whole input state as plain JSON (page/share.js carries it in the URL hash). */
  getState() {
    return S.stateJSON(this.inputs);
  }

  /** Restores a state checked by check() (state.js checkState) and recomputes. */
  setState(clean) {
    S.assignState(this.inputs, clean);
    this.rerender({ fields: true, scrollTop: true, program: true });
  }

  /**
   * The inputs and the results shown, as data (the Export menus read these). `cells` is the
   * section's matrix itself (input/matrix.js): read it, do not change it.
   */
  getResults() {
    const s = this.inputs;
    return {
      inputs: { secrets: s.secrets.slice(), observables: s.observables.slice(), cells: s.cells, prior: s.prior.slice(), gain: s.gain ? structuredClone(s.gain) : null, gainLabels: s.gainLabels.slice(), gainIdentity: s.gainIdentity },
      ...this.results.data(),
    };
  }
}

export { checkState as check } from './state.js';
