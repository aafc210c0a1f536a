// sections/channel/controller.js — the "Channel & leakage" section without its page: the state it
// shows (the inputs as typed, their validation, the status and value of every measure, the
// estimate, the Undo history, the notes), one method per thing a reader does (type in a cell,
// paste, load an example or a program's channel, undo, reorder, ask for a result), and the jobs
// it sends to the engine. It emits an event for each change (lib/controller.js Store); the view
// (view.js) subscribes, draws, and forwards the page's events to the methods here.
// No DOM: tests/node/channel-controller.test.mjs drives it in Node with the engine loaded there.
//
// Flow: an edit records the state before it (history.js), changes the inputs (state.js), checks
// them at once (validate.js: an event 'validation' with per-cell messages), marks the panels
// whose inputs changed pending and schedules the pipeline's debounced run, which starts one job
// per such panel (plan.js: panels group measures by what they depend on, so that changing α
// recomputes one number). Only the latest answer of a panel is shown; the capacity job reports
// its progress after the pipeline's delay and can be cancelled. When the inputs were typed as
// decimals or fractions, a panel's float job is followed by its exact job (qif.exact, from the
// text as typed): its fractions are shown beside the decimals, and its errors in a note.
//
// Events ({type, …}): inputs {fields, scrollTop, program} (the grids and the preset menu to draw
// again; fields: α, tolerance, class and observed to be set from the state), preset, gain,
// validation {checked, pasteMessage}, status {keys, status, note}, skipped {keys, reason,
// panel}, number {key, result, exact}, capacity {result, secrets}, capacityProgress {data},
// failure {keys, cancelled, message}, exact {key, text}, hyper {result, labels, …}, exactNote
// {text}, estimate {result, secrets, scaled}, estimateStatus {status}, observed {message},
// pasteNote {text}, history {canUndo}, undo, busy {busy}.

import { presetById } from '../../lib/presets.js';
import { MEASURES, exactResults as exactResultsOf } from '../../lib/measures.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { readerMessage, withoutFunction } from '../../lib/row-names.js';
import { Store } from '../../lib/controller.js';
import { validateInputs } from './validate.js';
import * as S from './state.js';
import * as Plan from './plan.js';
import * as O from './order.js';
import { History } from './history.js';

/**
 * The order in which panels start (the worker runs their jobs one after another): quick ones
 * first; then the multiplicative capacities, whose Bayes-risk capacity grows fastest with the
 * size (minutes on a 2,000 × 2,000 channel), so that it does not hold back the posterior
 * measures; the capacity (iterative) last.
 */
const ORDER = ['prior', 'renyi', 'posterior', 'gprior', 'gpost', 'gcapacity', 'channel', 'capacity'];

const DECIMAL_COMMAS = 'Read as decimal commas (cells were separated by tabs, semicolons or spaces, or quoted): 0,5 → 0.5.';

/** A settled result's status: what the view shows for it. */
const statusOf = (r, unavailable = /not available in this build/) => (r.ok ? 'ok' : unavailable.test(r.error) ? 'unavailable' : 'error');

export class ChannelController {
  /**
   * @param {{engine: object, timing?: object, clock?: object, onError?: (e: Error) => void, presetId?: string}} options
   *   engine: the page's typed engine (engine/client.js createEngine), or one of the same shape;
   *   timing and clock go to the pipeline (engine/pipeline.js), a test's own.
   */
  constructor({ engine, timing, clock, onError, presetId } = {}) {
    this.engine = engine;
    /** The inputs as typed (state.js): matrix, labels, prior, gain, α, tolerance, class, observed. */
    this.inputs = S.createState(presetId);
    this.history = new History();
    this.store = new Store({
      checked: validateInputs(this.inputs),
      status: Object.fromEntries([...Object.keys(MEASURES), 'hyper'].map((k) => [k, 'pending'])),
      shown: {}, // measure key → its last settled result
      exact: {}, // measure key → its exact value (a fraction string; the exact hyper)
      exactErrors: {}, // panel → why its exact job gave no values
      exactWhy: null, // why the inputs as typed have no exact form
      exactNote: '',
      estimate: { status: 'idle', result: null, scaled: false, message: null },
      pasteMessage: null, // why the last paste or file could not be read
      pasteNote: '',
      canUndo: false,
      busy: true,
    });
    this.s = this.store.state;
    this.lastSig = {}; // panel → signature of its last run
    this.force = new Set(); // panels asked for whatever they cost
    this.sharedRefs = {}; // input → {sig, ref} of the matrix last shared with the engine
    this.hyperInputs = null; // {C, prior} of the last run, to label the posteriors
    this.lastEstimate = null;
    this.estimateSig = null; // channel and observed frequencies of the estimate shown
    // Resolved when the section first shows computed values (or a failure, or has nothing left
    // to compute): the page mounts its other sections after that.
    this.firstShown = new Promise((resolve) => { this.firstShownDone = resolve; });
    this.pipe = createPipeline({ engine, timing, clock, onError, onBusy: (busy) => this.store.set({ busy }, { type: 'busy', busy }) });
    this.panels = {};
    for (const name of Object.keys(S.PANEL_KEYS)) this.panels[name] = this.pipe.task((job, calls, exact) => this.runPanel(job, name, calls, exact));
    this.recompute = this.pipe.task(() => this.startPanels());
    this.estimateTask = this.pipe.task((job) => this.runEstimate(job));
  }

  emit(event) { this.store.emit(event); }
  subscribe(fn) { return this.store.subscribe(fn); }
  /** The status of measure `key` ('pending', 'ok', 'stale', 'skipped', 'error', …). */
  status(key) { return this.s.status[key]; }
  get state() { return this.s; }

  /** Draws the inputs and computes the first results at once (nobody is typing yet). */
  start() {
    this.rerender();
    this.recompute.now();
  }

  /** Resolves once nothing is scheduled or computing (the tests wait on it). */
  idle() {
    if (!this.s.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.subscribe((e) => { if (e.type === 'busy' && !e.busy) { off(); resolve(); } });
    });
  }

  // ---------------------------------------------------------------- validation and results

  validate() {
    this.s.checked = validateInputs(this.inputs);
    this.emit({ type: 'validation', checked: this.s.checked, pasteMessage: this.s.pasteMessage });
  }

  setStatus(keys, status, note) {
    for (const key of keys) if (key in this.s.status) this.s.status[key] = status;
    this.emit({ type: 'status', keys, status, note });
  }

  setEstimateStatus(status) {
    this.s.estimate.status = status;
    this.emit({ type: 'estimateStatus', status });
  }

  setPasteNote(text) {
    this.store.set({ pasteNote: text }, { type: 'pasteNote', text });
  }

  clearPasteMessage() {
    this.s.pasteMessage = null;
  }

  // The inputs drawn again (event 'inputs'), then checked and their results scheduled.
  rerender(how = {}) {
    this.emit({ type: 'inputs', ...how });
    this.changed();
  }

  /** Called on every change of the inputs: immediate validation, then a debounced recompute. */
  changed() {
    this.validate();
    const plan = Plan.panelPlan(this.inputsNow(), this.lastSig, this.force);
    for (const [name, p] of Object.entries(plan)) {
      const keys = S.PANEL_KEYS[name];
      if (p.action === 'stale' || p.action === 'skip') {
        if (p.action === 'skip') {
          for (const key of keys) if (key in this.s.status) this.s.status[key] = 'skipped';
          this.emit({ type: 'skipped', keys, reason: p.reason, panel: p.cost !== undefined ? name : null });
        } else this.setStatus(keys, 'stale', '');
        this.lastSig[name] = null;
        this.panels[name].supersede();
      } else if (p.action === 'run') this.setStatus(keys, 'pending');
    }
    if (this.inputs.observed.trim() !== '' && !this.s.checked.channel) this.setEstimateStatus('stale');
    this.recompute.schedule();
  }

  inputsNow() {
    const exact = Plan.exactInputs(this.inputs);
    this.s.exactWhy = exact.why;
    return Plan.panelInputs(this.s.checked, { gainClass: this.inputs.gainClass, exact });
  }

  // The inputs of the panels, a large matrix replaced by a reference to its copy in the worker
  // (sent once per change, however many jobs use it).
  inputsForEngine() {
    const inputs = this.inputsNow();
    for (const key of ['channel', 'gain']) {
      const x = inputs[key];
      if (!x.value || !x.value.data || x.value.data.length <= Plan.SIGNED_BY_VALUE_UP_TO) continue;
      if (this.sharedRefs[key]?.sig !== x.sig) this.sharedRefs[key] = { sig: x.sig, ref: this.engine.share(key, x.value) };
      inputs[key] = { ...x, value: { ...this.sharedRefs[key].ref, rows: x.value.rows, cols: x.value.cols } };
    }
    return inputs;
  }

  // The debounced step: decide, panel by panel, what the inputs ask for.
  startPanels() {
    const inputs = this.inputsForEngine();
    const plan = Plan.panelPlan(inputs, this.lastSig, this.force);
    const { checked } = this.s;
    if (checked.channel && checked.prior) this.hyperInputs = { C: checked.channel, prior: checked.prior };
    const sig = `${inputs.channel.sig}\u0000${this.inputs.observed}`;
    if (sig !== this.estimateSig) {
      this.estimateSig = sig;
      this.estimateTask.now();
    }
    for (const name of ORDER) {
      const p = plan[name];
      if (p.action === 'run') {
        this.lastSig[name] = p.sig;
        this.panels[name].now(p.calls, p.exact);
      } else if (p.action === 'same' && !this.panels[name].busy) {
        // Back to inputs already shown (e.g. 0.5 retyped as 1/2): nothing to recompute.
        for (const key of S.PANEL_KEYS[name]) if (this.status(key) === 'pending') this.setStatus([key], 'ok');
      }
    }
    this.showExactNote();
  }

  async runPanel(job, name, calls, exactPlan) {
    const keys = S.PANEL_KEYS[name];
    const capacity = name === 'capacity';
    for (const key of keys) delete this.s.exact[key];
    delete this.s.exactErrors[name];
    try {
      const results = await job.run(calls, capacity ? {
        cancelStale: true, // a capacity still running for older inputs only delays the new one
        slow: () => this.emit({ type: 'capacityProgress', data: null }),
        onProgress: (data) => this.emit({ type: 'capacityProgress', data }),
      } : {});
      for (const [key, r] of Object.entries(Plan.derivePanel(name, results))) this.show(key, r);
    } catch (e) {
      if (e instanceof Superseded) throw e;
      this.lastSig[name] = null;
      const cancelled = isAbort(e);
      for (const key of keys) if (key in this.s.status) this.s.status[key] = cancelled ? 'cancelled' : 'error';
      this.emit({ type: 'failure', keys, cancelled, message: e.message });
      this.firstShownDone();
      return;
    }
    if (exactPlan) await this.runExact(job, name, exactPlan);
    this.showExactNote();
  }

  // The exact values of a panel, after its decimals. Within the page's exact limit a job takes
  // at most about a second; a newer run lets it finish (and ignores it) rather than cancel it,
  // which would restart the worker and load both modules again.
  async runExact(job, name, plan) {
    let results;
    try {
      results = await job.run(plan.calls);
    } catch (e) {
      if (e instanceof Superseded) throw e;
      if (!isAbort(e)) this.s.exactErrors[name] = e.message;
      return;
    }
    const errors = [];
    for (const [key, r] of Object.entries(exactResultsOf(plan, results))) {
      if (!r.ok) {
        errors.push(this.forReader(r));
        continue;
      }
      this.s.exact[key] = r.value;
      if (key === 'hyper') this.showHyper();
      else this.emit({ type: 'exact', key, text: r.value });
    }
    if (errors.length) this.s.exactErrors[name] = errors[0];
  }

  showExactNote() {
    // Without the function's name (the result says which function it was, fn).
    const messages = new Set(Object.values(this.s.exactErrors).map(withoutFunction));
    if (this.s.exactWhy && this.s.checked.channel && this.s.checked.prior) messages.add(this.s.exactWhy);
    const text = messages.size ? `Decimals only, without exact fractions: ${[...messages].join('; ')}.` : '';
    this.store.set({ exactNote: text }, { type: 'exactNote', text });
  }

  // The engine's messages count from 0 (“channel: row 2 sums to …”); the page names rows by
  // their labels and numbers from 1, as the grid shows them, from the error's argument and index.
  forReader(r) {
    if (r.ok || typeof r.error !== 'string') return r;
    const s = this.inputs;
    const names = {
      channel: { rows: s.secrets, cols: s.observables },
      prior: { rows: s.secrets },
      gain: { rows: s.gainLabels, cols: s.secrets },
      observed: { rows: s.observables },
    };
    return { ...r, error: readerMessage(r, names) };
  }

  show(key, r) {
    this.firstShownDone();
    r = this.forReader(r);
    this.s.shown[key] = r;
    if (key === 'hyper') this.showHyper();
    else if (key === 'shannonCapacity') this.showCapacity();
    else {
      this.s.status[key] = statusOf(r);
      this.emit({ type: 'number', key, result: r, exact: this.s.exact[key] ?? null });
    }
  }

  showCapacity() {
    const r = this.s.shown.shannonCapacity;
    this.s.status.shannonCapacity = statusOf(r);
    this.emit({ type: 'capacity', result: r, secrets: this.inputs.secrets });
  }

  showHyper() {
    const r = this.s.shown.hyper;
    const s = this.inputs;
    const labels = r?.ok && this.hyperInputs ? Plan.posteriorLabels(r.value, this.hyperInputs.C, this.hyperInputs.prior, s.observables) : [];
    this.s.status.hyper = statusOf(r, /not available/);
    this.emit({ type: 'hyper', result: r, labels, secrets: s.secrets, outputs: s.observables.length, exact: this.s.exact.hyper ?? null, observables: s.observables });
  }

  // Labels appear in the hyper table and the capacity prior: drawn again when a label changes
  // (the numbers do not change, so nothing is recomputed).
  refreshLabelled() {
    if (this.s.shown.hyper && this.status('hyper') === 'ok') this.showHyper();
    if (this.s.shown.shannonCapacity && this.status('shannonCapacity') === 'ok') this.showCapacity();
  }

  // The prior estimated from observed outputs (iterative Bayesian update), for the channel shown.
  async runEstimate(job) {
    const s = this.inputs;
    const est = (result, scaled = false) => {
      Object.assign(this.s.estimate, { status: result ? (result.ok ? 'ok' : 'error') : 'idle', result, scaled });
      this.emit({ type: 'estimate', result, secrets: s.secrets, scaled });
    };
    const message = (m) => {
      this.s.estimate.message = m;
      this.emit({ type: 'observed', message: m });
    };
    if (s.observed.trim() === '') {
      message(null);
      est(null);
      return;
    }
    const o = Plan.parseObserved(s.observed, s.observables.length);
    message(o.error ?? null);
    if (o.error || !this.s.checked.channel) {
      est(null);
      return;
    }
    const C = this.inputsForEngine().channel.value; // a large channel by its reference in the worker
    let r;
    try {
      [r] = await job.run([this.engine.plan.channel.iterativeBayesianUpdate(C, o.value)], { cancelStale: true });
    } catch (e) {
      if (e instanceof Superseded) throw e;
      r = { ok: false, error: isAbort(e) ? 'Cancelled.' : e.message };
    }
    this.lastEstimate = r.ok ? r.value : null;
    est(this.forReader(r), o.scaled);
  }


  /** The engine's worker crashed and restarted: everything shown is computed again. */
  crashed() {
    for (const name of Object.keys(this.lastSig)) this.lastSig[name] = null;
    this.estimateSig = null;
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
      if (kind === 'label') this.refreshLabelled();
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
    this.setEstimateStatus('pending');
    this.estimateSig = null;
    this.estimateTask.schedule();
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
    const est = this.lastEstimate;
    if (!est || est.prior.length !== this.inputs.secrets.length) return false;
    this.edit((s) => S.setPrior(s, est.prior));
    return true;
  }

  cancelCapacity() { this.panels.capacity.cancel(); }
  recomputeCapacity() { this.changed(); }
  /** A panel skipped for its cost, started anyway. */
  computeAnyway(panel) {
    this.force.add(panel);
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
    const { shown, exact } = this.s;
    const ok = (key) => this.status(key) === 'ok';
    const exactTexts = {};
    for (const [key, text] of Object.entries(exact)) if (key !== 'hyper' && shown[key]?.ok && ok(key)) exactTexts[key] = text;
    const hyperLabels = shown.hyper?.ok && this.hyperInputs ? Plan.posteriorLabels(shown.hyper.value, this.hyperInputs.C, this.hyperInputs.prior, s.observables) : [];
    return {
      inputs: { secrets: s.secrets.slice(), observables: s.observables.slice(), cells: s.cells, prior: s.prior.slice(), gain: s.gain ? structuredClone(s.gain) : null, gainLabels: s.gainLabels.slice(), gainIdentity: s.gainIdentity },
      ...Plan.resultsOf(Object.fromEntries(Object.entries(shown).filter(([key]) => ok(key))), { measures: MEASURES, exact: exactTexts, hyperLabels, exactHyper: ok('hyper') ? exact.hyper ?? null : null }),
    };
  }
}

export { checkState as check } from './state.js';
