// sections/channel/results.js — the results of "Channel & leakage" as state, without a page: which
// panels the inputs ask for (plan.js), the jobs sent to the engine through the pipeline, and what
// each answer makes of the status and value of every measure, the exact fractions, the
// hyper-distribution and the estimate of a prior from observed outputs. The controller
// (controller.js) owns it and tells it when the inputs changed; both keep their state in the
// section's one store (lib/controller.js), whose events the view draws.
//
// Flow: changed() marks the panels whose inputs changed pending and schedules the pipeline's
// debounced run, which starts one job per such panel (panels group measures by what they depend
// on, so that changing α recomputes one number). Only the latest answer of a panel is shown; the
// capacity job reports its progress after the pipeline's delay and can be cancelled. When the
// inputs were typed as decimals or fractions, a panel's float job is followed by its exact job
// (qif.exact, from the text as typed, never from the floats): its fractions are shown beside the
// decimals, and its errors in a note.

import { MEASURES, exactResults as exactResultsOf } from '../../lib/measures.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { readerMessage, withoutFunction } from '../../lib/row-names.js';
import * as S from './state.js';
import * as Plan from './plan.js';

/**
 * The order in which panels start (the worker runs their jobs one after another): quick ones
 * first; then the multiplicative capacities, whose Bayes-risk capacity grows fastest with the
 * size (minutes on a 2,000 × 2,000 channel), so that it does not hold back the posterior
 * measures; the capacity (iterative) last.
 */
const ORDER = ['prior', 'renyi', 'posterior', 'gprior', 'gpost', 'gcapacity', 'channel', 'capacity'];

/** A settled result's status: what the view shows for it. */
const statusOf = (r, unavailable = /not available in this build/) => (r.ok ? 'ok' : unavailable.test(r.error) ? 'unavailable' : 'error');

/** The fields of the store this part owns, as they are before anything is computed. */
export function initialResults() {
  return {
    status: Object.fromEntries([...Object.keys(MEASURES), 'hyper'].map((k) => [k, 'pending'])),
    shown: {}, // measure key → its last settled result
    exact: {}, // measure key → its exact value (a fraction string; the exact hyper)
    exactErrors: {}, // panel → why its exact job gave no values
    exactWhy: null, // why the inputs as typed have no exact form
    exactNote: '',
    estimate: { status: 'idle', result: null, scaled: false, message: null },
    busy: true, // a run is scheduled or computing
  };
}

export class ChannelResults {
  /**
   * @param {{engine: object, store: import('../../lib/controller.js').Store, inputs: object, timing?: object, clock?: object, onError?: (e: Error) => void}} options
   *   inputs: the section's inputs (state.js), read at each run; store: the section's store,
   *   whose state holds initialResults() and the validation (checked).
   */
  constructor({ engine, store, inputs, timing, clock, onError }) {
    this.engine = engine;
    this.store = store;
    this.s = store.state;
    this.inputs = inputs;
    this.lastSig = {}; // panel → signature of its last run
    this.force = new Set(); // panels asked for whatever they cost
    this.sharedRefs = {}; // input → {sig, ref} of the matrix last shared with the engine
    this.hyperInputs = null; // {C, prior} of the last run, to label the posteriors
    this.lastEstimate = null;
    this.estimateSig = null; // channel and observed frequencies of the estimate shown
    // Resolved when the section first shows computed values (or a failure, or has nothing left
    // to compute): the page mounts its other sections after that.
    this.firstShown = new Promise((resolve) => { this.firstShownDone = resolve; });
    this.pipe = createPipeline({ engine, timing, clock, onError, onBusy: (busy) => store.set({ busy }, { type: 'busy', busy }) });
    this.panels = {};
    for (const name of Object.keys(S.PANEL_KEYS)) this.panels[name] = this.pipe.task((job, calls, exact) => this.runPanel(job, name, calls, exact));
    this.recompute = this.pipe.task(() => this.startPanels());
    this.estimateTask = this.pipe.task((job) => this.runEstimate(job));
  }

  emit(event) { this.store.emit(event); }
  /** The status of measure `key` ('pending', 'ok', 'stale', 'skipped', 'error', …). */
  status(key) { return this.s.status[key]; }

  /** Resolves once nothing is scheduled or computing. */
  idle() {
    if (!this.s.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const off = this.store.subscribe((e) => { if (e.type === 'busy' && !e.busy) { off(); resolve(); } });
    });
  }

  setStatus(keys, status, note) {
    for (const key of keys) if (key in this.s.status) this.s.status[key] = status;
    this.emit({ type: 'status', keys, status, note });
  }

  setEstimateStatus(status) {
    this.s.estimate.status = status;
    this.emit({ type: 'estimateStatus', status });
  }

  /**
   * The inputs changed and were checked (state.checked): panels whose inputs are now invalid or
   * too costly say so at once, the others are marked pending and a recompute is scheduled.
   */
  changed() {
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


  /** Observed output frequencies changed: only the estimate depends on them. */
  observedChanged() {
    this.setEstimateStatus('pending');
    this.estimateSig = null;
    this.estimateTask.schedule();
  }

  /** A panel skipped for its cost, to be started anyway at the next change. */
  computeAnyway(panel) { this.force.add(panel); }
  cancelCapacity() { this.panels.capacity.cancel(); }

  /** The engine's worker restarted: every panel runs again at the next change. */
  forget() {
    for (const name of Object.keys(this.lastSig)) this.lastSig[name] = null;
    this.estimateSig = null;
  }

  /** The results shown as current, as data (plan.js resultsOf) for the exports. */
  data() {
    const { shown, exact } = this.s;
    const ok = (key) => this.status(key) === 'ok';
    const exactTexts = {};
    for (const [key, text] of Object.entries(exact)) if (key !== 'hyper' && shown[key]?.ok && ok(key)) exactTexts[key] = text;
    const hyperLabels = shown.hyper?.ok && this.hyperInputs ? Plan.posteriorLabels(shown.hyper.value, this.hyperInputs.C, this.hyperInputs.prior, this.inputs.observables) : [];
    return Plan.resultsOf(Object.fromEntries(Object.entries(shown).filter(([key]) => ok(key))), { measures: MEASURES, exact: exactTexts, hyperLabels, exactHyper: ok('hyper') ? exact.hyper ?? null : null });
  }
}
