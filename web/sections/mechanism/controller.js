// sections/mechanism/controller.js — the logic of the "Design a mechanism" section, without the
// DOM: what the user chose (inputs: the answer graph, ε, the prior, the gain, the metric of the
// tight-constraints mechanism, the database panel's fields), what is computed for it (results),
// the optimal mechanism's job with its progress and Cancel, the certified optimum, the
// utility-against-ε sweep and the database panel, with one method per user action. The view
// (view.js, drawing with panels.js, optimal.js and sweep.js) subscribes and draws;
// tests/node/mechanism-controller.test.mjs drives it with the toolkit loaded in Node.
//
// One pipeline task runs the stages in order — graph → structure → matrices → utilities → LP →
// certified optimum → ε sweep — each an engine job planned by plan.js; a newer input supersedes
// the run at its next stage, and the long jobs (LP, sweep) are cancelled then.
//
// The store (lib/controller.js Store) holds:
//   inputs     the section's state (getState's shape: preset, kind, n, …, epsilon, prior, gain, db)
//   busy       whether anything is scheduled or running
//   labels     the answers' labels;  n: the number of answers of the last graph built
//   messages   {field: message} of the inputs (n, w, h, d, u, v, cn, edges, query, eps, labels,
//              graph, prior, priorIndex, db-u, db-v, db-eps)
//   results    the computation shown: {G, eps, prior, score, scoreError, loss, matrices, thm, lp,
//              mechEps, utils, tcMetric, certified, sweep, bound, rows}, or null
//   lp         {status: 'idle' | 'unavailable' | 'waiting' | 'pending' | 'running' | 'cancelled'
//              | 'error' | 'ok', progress: {phase, iteration, objective} | null, message}
//   certified  {status: 'none' | 'unavailable' | 'pending' | 'done', progress, result, why}
//   sweep      {status: 'none' | 'offered' | 'preparing' | 'running' | 'cancelled' | 'failed'
//              | 'done', count, lpCount, lpDone, text, message}
//   db         {status: 'stale' | 'ok' | 'error', plan, results, message}
// and emits, besides {type: 'change', keys}, one event per thing to draw: 'inputs' {fields},
// 'stale', 'messages', 'structure' {renderPrior}, 'bound', 'row' {key}, 'rows', 'lp',
// 'certified', 'sweep', 'heatmaps', 'dbStale', 'db'.

import { Store } from '../../lib/controller.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { utilityValue } from '../../lib/mechanism-plan.js';
import * as S from './state.js';
import * as Plan from './plan.js';

/** The longest the page lets one linear program run. */
export const LP_TIME_LIMIT_MS = 120000;
/** Answers up to which the ε sweep runs by itself. */
export const AUTO_SWEEP_MAX = 16;
const FIELDS = ['n', 'w', 'h', 'd', 'u', 'v', 'cn', 'edges', 'query', 'labels'];
const GRAPH_FIELDS = ['n', 'w', 'h', 'd', 'u', 'v', 'cn', 'edges', 'query'];
const clone = (s) => JSON.parse(JSON.stringify(s));
const fieldError = (message, field) => Object.assign(new Error(message), { field });

/** The state a preset (or the default one) starts from, keeping the database panel's fields. */
export function presetState(id, db = null) {
  const p = S.presetById(id);
  const s = { ...clone(S.DEFAULT_STATE), ...clone(p ? p.state : S.presetById(S.DEFAULT_STATE.preset).state) };
  if (p) s.preset = p.id;
  if (db) s.db = db;
  return s;
}

/** Whether a mechanism's smallest ε on the graph is within the target (a relative 10⁻⁹ slack). */
export function withinTarget(actual, target) {
  return Number.isFinite(actual) && actual <= target * (1 + 1e-9) + 1e-12;
}

/**
 * How the optimum compares with Theorem 6.2 (the paper's M2 on a clique): null when either
 * utility is missing, else {verdict, lp, thm62, better, percent}: verdict 'better' (the LP finds
 * a better ε-DP mechanism), 'breaks' (Theorem 6.2 beats it only by breaking ε-DP), 'equal', or
 * 'notDP' (Theorem 6.2 is worse and not ε-DP), null otherwise; better > 0 when the optimum wins
 * (lower loss or higher utility), percent relative to Theorem 6.2's value.
 */
export function lpComparison(cur, tol = 1e-9) {
  const lp = cur.utils.lp;
  const thm62 = cur.utils.thm62;
  if (!Number.isFinite(lp) || !Number.isFinite(thm62)) return null;
  const dp = withinTarget(cur.mechEps.thm62, cur.eps);
  const better = cur.loss ? thm62 - lp : lp - thm62;
  let verdict = null;
  if (better > tol && dp) verdict = 'better';
  else if (better < -tol && !dp) verdict = 'breaks';
  else if (Math.abs(better) <= tol) verdict = 'equal';
  else if (!dp) verdict = 'notDP';
  return { verdict, lp, thm62, better, percent: (100 * Math.abs(better)) / Math.max(1e-300, Math.abs(thm62)) };
}

/** The sweep's series from its settled results: {lp, bound, thm62, tg, rr, exp, tc: [[ε, y]]}. */
export function sweepSeries(xs, layout, out, cur) {
  const series = { lp: [], bound: [], thm62: [], tg: [], rr: [], exp: [], tc: [] };
  out.forEach((r, c) => {
    const [i, k] = layout[c];
    if (!r.ok) return;
    const y = k === 'lp' ? r.value.utility : k === 'bound' ? r.value.bound : utilityValue(r.value, cur);
    series[k].push([xs[i], y]);
  });
  return series;
}

/**
 * @param {{engine: object, timing?: object, clock?: object, onError?: (e: Error) => void}} options
 *   engine: the page's engine (engine/client.js createEngine) or one with the same run/cancel/plan.
 */
export function createMechanismController({ engine, timing, clock, onError }) {
  const store = new Store({
    inputs: presetState(S.DEFAULT_STATE.preset),
    busy: false,
    started: false,
    labels: [],
    n: null,
    messages: {},
    results: null,
    lp: { status: 'idle', progress: null, message: null },
    certified: { status: 'none', progress: null, result: null, why: null },
    sweep: { status: 'none' },
    db: { status: 'stale', plan: null, results: null, message: null },
  });
  const get = () => store.get();
  const emit = (type, extra = {}) => store.emit({ type, ...extra });
  const put = (patch, type, extra) => { Object.assign(store.state, patch); emit(type, extra); };
  const pipe = createPipeline({ engine, timing, clock, onError, onBusy: (b) => store.set({ busy: b }) });
  let graphCache = { key: null, value: null };
  let priorSig = null;

  const main = pipe.task((job) => recompute(job));
  // "Compute again" and "Plot": one stage of the current run, on its own.
  const again = pipe.task(async (job, what) => {
    const cur = get().results;
    if (!cur) return;
    if (what === 'lp') await runLP(job, cur, true);
    else await runSweep(job, cur);
  });
  const dbTask = pipe.task((job) => computeDB(job));

  function schedule(now = false) {
    emit('stale');
    again.supersede();
    if (now) main.now(); else main.schedule();
  }
  function scheduleDB() {
    put({ db: { ...get().db, status: 'stale' } }, 'dbStale');
    dbTask.schedule();
  }
  function inputs(fields, patch) {
    Object.assign(get().inputs, patch);
    emit('inputs', { fields });
  }
  // An edit of the graph or its parameters: the preset no longer describes the state.
  function edited(fields, patch) {
    if (get().inputs.preset) { patch = { ...patch, preset: null }; fields = [...fields, 'preset']; }
    inputs(fields, patch);
    schedule();
  }
  function setMessages(patch) {
    put({ messages: { ...get().messages, ...patch } }, 'messages');
  }

  // ------------------------------------------------------------ stages
  async function buildGraph(job, plan) {
    const key = JSON.stringify(plan);
    if (graphCache.key === key) return graphCache.value;
    let g = plan.base.literal;
    if (!g) {
      const [r] = await job.run([plan.base]);
      if (!r.ok) throw fieldError(r.error, 'graph');
      g = r.value;
    }
    if (plan.query) {
      const [r] = await job.run([engine.plan.graph.induced(g, plan.query)]);
      if (!r.ok) throw fieldError(r.error, /^query/.test(r.error) ? 'query' : 'graph');
      g = r.value;
    } else if (plan.base.literal) {
      // Let the engine check the literal edge list (self-loops, range, duplicates).
      const [r] = await job.run([engine.plan.graph.isDistanceRegular(g)]);
      if (!r.ok) throw fieldError(r.error, 'edges');
    }
    if (g.n > S.MAX_ANSWERS) throw fieldError(`${g.n} answers, more than this section’s limit of ${S.MAX_ANSWERS}`, 'graph');
    const [dist, dr] = await job.run([engine.plan.graph.distances(g), engine.plan.graph.isDistanceRegular(g)]);
    if (!dist.ok) throw fieldError(dist.error, 'graph');
    const value = Plan.graphStructure(g, S.toRows(dist.value), dr.ok ? dr.value : null);
    graphCache = { key, value };
    return value;
  }

  function graphFailed(err) {
    const field = GRAPH_FIELDS.includes(err.field) ? err.field : 'graph';
    setMessages({ [field]: err.message });
    emit('graphError');
    emit('stale');
  }

  async function recompute(job) {
    again.cancel(); // a long stage restarted by hand is about older inputs
    const state = get().inputs;
    const cleared = Object.fromEntries([...FIELDS, 'eps', 'graph'].map((k) => [k, '']));
    const eps = S.parseEpsilon(state.epsilon);
    if ('error' in eps) cleared.eps = eps.error;
    setMessages(cleared);
    const plan = Plan.graphPlan(state);
    if ('error' in plan) graphFailed(fieldError(plan.error, plan.field));
    if ('error' in plan || 'error' in eps) { emit('stale'); return; }
    let G;
    try {
      G = await buildGraph(job, plan);
    } catch (err) {
      if (err instanceof Superseded) throw err;
      graphFailed(err);
      return;
    }

    // Structure: summary, labels, prior table.
    const lab = S.answerLabels(state.labels, G.n);
    if (state.prior && state.prior.length !== G.n) {
      // The number of answers changed: keep the entries there are, new answers get 0.
      state.prior = state.prior.slice(0, G.n);
      while (state.prior.length < G.n) state.prior.push('0');
    }
    // The table is rebuilt only when its shape or labels changed, never while typing in it.
    const sig = JSON.stringify([state.prior?.length ?? 0, lab.labels]);
    const renderPrior = sig !== priorSig;
    priorSig = sig;
    const prior = S.parsePrior(state.prior, G.n);
    const score = S.scoreMatrix(state.gain, G.D, G.diameter);
    Object.assign(store.state, { labels: lab.labels, n: G.n });
    emit('structure', { G, renderPrior, score });
    setMessages({ labels: lab.error || '', prior: 'error' in prior ? prior.error : '', priorIndex: 'error' in prior ? (prior.index ?? null) : null });

    // The metric of the tight-constraints mechanism.
    const tcPlan = Plan.tcMetricPlan(state, G);
    let tcMetric = tcPlan.matrix ?? null;
    let tcError = tcPlan.error ?? null;
    if (tcPlan.call) {
      const [r] = await job.run([tcPlan.call]);
      if (r.ok) tcMetric = S.toRows(r.value);
      else tcError = r.error;
    }

    // ε-dependent matrices and the bound.
    const mats = Plan.readMatrices(await job.run(Plan.matricesPlan(G, eps.value, tcMetric)), { tcError });
    const cur = { G, eps: eps.value, prior: prior.value ?? null, score: score.matrix ?? null, scoreError: score.error, loss: state.gain === 'loss', matrices: mats.matrices, errors: mats.errors, thm: mats.thm, bound: mats.bound, lp: null, mechEps: {}, utils: {}, rows: {}, tcMetric, certified: null, sweep: null };
    put({ results: cur }, 'bound');

    // Utilities and ε of each mechanism.
    const up = Plan.utilitiesPlan(G, mats.matrices, cur);
    const out = await job.run(up.calls);
    for (const k of Plan.CLASSIC) {
      if (!mats.matrices[k]) { cur.rows[k] = { error: mats.errors[k] }; emit('row', { key: k }); continue; }
      const epsR = out[up.at[k].eps];
      const utilR = up.at[k].util === undefined ? null : out[up.at[k].util];
      cur.mechEps[k] = epsR.ok ? epsR.value : NaN;
      cur.utils[k] = utilR && utilR.ok ? utilityValue(utilR.value, cur) : NaN;
      cur.rows[k] = { util: utilR && utilR.ok ? { ok: true, value: cur.utils[k] } : utilR, eps: epsR };
      emit('row', { key: k });
    }
    emit('rows');
    if (G.n <= S.LP_AUTO_ANSWERS && cur.prior && !score.error) await runLP(job, cur);
    else if (G.n <= S.LP_MAX_ANSWERS && cur.prior && !score.error) setLP({ status: 'waiting', progress: null, message: null });
    else setLP({ status: 'unavailable', progress: null, message: !cur.prior ? 'Fix the prior to compute the optimal mechanism.' : score.error ? score.error : `The linear program has n² = ${(G.n * G.n).toLocaleString('en')} variables: too large for the page (limit ${S.LP_MAX_ANSWERS} answers). The bound and the Theorem 6.2 mechanism are shown instead.` });
    job.check();
    if (G.n <= AUTO_SWEEP_MAX) await runSweep(job, cur);
    else setSweep({ status: 'offered' });
  }

  // ------------------------------------------------------------ the optimal mechanism
  function setLP(lp) { put({ lp }, 'lp'); }
  function setCertified(c) { put({ certified: c }, 'certified'); }

  // A progress report of the solver (null: still running, no numbers yet). What is shown never
  // goes back: within one phase, a report with fewer iterations than the one shown is dropped.
  function lpProgress(p) {
    const prev = get().lp.progress;
    if (p && prev && prev.phase === p.phase && p.iteration < prev.iteration) return;
    setLP({ status: 'running', progress: p ?? prev ?? null, message: null });
  }

  async function runLP(job, cur, clicked = false) {
    cur.lp = null;
    setCertified({ status: 'none', progress: null, result: null, why: null });
    setLP({ status: 'pending', progress: null, message: null });
    const call = Plan.optimalCall(cur, LP_TIME_LIMIT_MS);
    let r;
    try {
      [r] = await job.run([call], { cancelStale: true, slowNow: clicked, slow: () => lpProgress(null), onProgress: ([p]) => lpProgress(p) });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      setLP({ status: isAbort(err) ? 'cancelled' : 'failed', progress: get().lp.progress, message: err.message });
      return;
    }
    if (!r.ok) { setLP({ status: 'error', progress: null, message: r.error }); return; }
    const lp = r.value;
    const [er] = await job.run([engine.plan.privacy.epsilon(lp.mechanism, cur.G.g)]);
    cur.lp = lp;
    cur.utils.lp = lp.utility;
    cur.mechEps.lp = er.ok ? er.value : NaN;
    cur.rows.lp = { util: { ok: true, value: lp.utility }, eps: er };
    setLP({ status: 'ok', progress: null, message: null });
    await runCertified(job, cur);
  }

  // The optimum in exact arithmetic, when e^ε and the prior are rational as typed.
  async function runCertified(job, cur) {
    const plan = Plan.certifiedPlan(get().inputs, cur.G);
    if (plan.why) { setCertified({ status: 'unavailable', progress: null, result: null, why: plan.why }); return; }
    let r;
    try {
      [r] = await job.run([plan.call], { cancelStale: true, slow: () => setCertified({ ...get().certified, status: 'pending' }), onProgress: ([p]) => setCertified({ status: 'pending', progress: p, result: null, why: null }) });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      r = { ok: false, error: isAbort(err) ? 'cancelled' : err.message };
    }
    cur.certified = r.ok ? { expEpsilon: plan.expEpsilon, ...r.value } : null;
    setCertified({ status: 'done', progress: null, result: r, why: null });
  }

  // ------------------------------------------------------------ the ε sweep
  function setSweep(sweep) { put({ sweep }, 'sweep'); }

  async function runSweep(job, cur) {
    if (!cur.prior || cur.scoreError) { setSweep({ status: 'none' }); return; }
    const xs = S.epsilonGrid(cur.eps);
    setSweep({ status: 'preparing' });
    const m1 = await job.run(Plan.sweepMatricesPlan(cur.G, xs, cur.tcMetric));
    const withLP = cur.G.n <= S.LP_AUTO_ANSWERS; // one LP per ε: only where one is quick
    const { calls, layout } = Plan.sweepPlan(cur, xs, m1, { withLP, timeLimit: LP_TIME_LIMIT_MS });
    const lpCount = withLP ? xs.length : 0;
    const base = { count: xs.length, withLP, lpCount };
    setSweep({ status: 'running', ...base, lpDone: 0, at: null });
    let out;
    try {
      out = await job.run(calls, {
        cancelStale: true,
        onProgress: (_data, callIndex) => {
          // The optimal mechanisms started so far: it only grows (reports come in call order).
          const k = layout.slice(0, callIndex + 1).filter(([, t]) => t === 'lp').length;
          if (k < get().sweep.lpDone) return;
          setSweep({ status: 'running', ...base, lpDone: k, at: xs[layout[callIndex][0]] });
        },
      });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      setSweep({ status: isAbort(err) ? 'cancelled' : 'failed', message: err.message });
      return;
    }
    cur.sweep = { xs, series: sweepSeries(xs, layout, out, cur) };
    setSweep({ status: 'done', ...base });
  }

  // ------------------------------------------------------------ database panel
  async function computeDB(job) {
    const plan = Plan.dbPlan(get().inputs.db);
    if (!plan.calls) { put({ db: { status: 'stale', plan, results: null, message: null } }, 'db'); return; }
    put({ db: { status: 'stale', plan, results: null, message: null } }, 'db');
    let res;
    try {
      res = await job.run(plan.calls);
    } catch (err) {
      if (err instanceof Superseded) throw err;
      put({ db: { status: 'error', plan, results: null, message: err.message } }, 'db');
      return;
    }
    put({ db: { status: 'ok', plan, results: res, message: null } }, 'db');
  }

  // ------------------------------------------------------------ user actions
  const controller = {
    store,
    get,
    /** Calls fn(state, event) after every change; returns the function that unsubscribes it. */
    subscribe: (fn) => store.subscribe((event, state) => fn(state, event)),
    /** The section came into being: compute the default state and the database panel. */
    start() {
      if (get().started) return;
      store.set({ started: true });
      schedule(true);
      dbTask.now();
    },
    /** A preset chosen from the menu (an unknown id does nothing). */
    choosePreset(id) {
      if (!S.presetById(id)) return;
      priorSig = null;
      put({ inputs: presetState(id, get().inputs.db) }, 'inputs', { fields: 'all' });
      schedule(true);
    },
    /** A field of the answer graph typed or chosen: n, w, h, d, u, v, cn, edges, query, labels, kind, base, gain, tcMetric. */
    setField(key, value) { edited([key], { [key]: value }); },
    /** ε typed (or moved on the range: `fromRange`). */
    setEpsilon(text, fromRange = false) { edited(fromRange ? ['epsilon', 'epsilonText'] : ['epsilon'], { epsilon: String(text) }); },
    /** The uniform prior ticked (null prior) or unticked (an editable uniform one). */
    setPriorUniform(uniform) {
      const n = get().n ?? 1;
      priorSig = null;
      edited(['priorTable'], { prior: uniform ? null : new Array(n).fill(`1/${n}`) });
    },
    /** Entry i of the prior typed. */
    setPriorEntry(i, text) {
      const p = get().inputs.prior;
      if (!Number.isInteger(i) || !p) return;
      p[i] = text;
      edited([], {});
    },
    /** The matrix drawn beside the optimum's heat map (no computation). */
    setShow(key) {
      inputs(['show'], { show: key });
      emit('heatmaps');
    },
    /** "Count query": the query of counting the ones among u individuals with v values. */
    fillCountQuery() {
      const s = get().inputs;
      const u = S.parseCount(s.u, 'u', 1, 12);
      const v = S.parseCount(s.v, 'v', 2, 64);
      if ('error' in u || 'error' in v || v.value ** u.value > 4096) { setMessages({ query: 'set u and v first (at most 4096 databases)' }); return; }
      edited(['query'], { query: S.countQuery(u.value, v.value).join(', ') });
    },
    /** A database panel field: 'u', 'v' or 'epsilon'. */
    setDB(key, value) {
      get().inputs.db[key] = value;
      scheduleDB();
    },
    /** "Compute the optimal mechanism" / "Compute again". */
    computeLP() { return again.now('lp'); },
    /** "Plot utility against ε" / "Plot again". */
    plotSweep() { return again.now('sweep'); },
    /** Cancel (the LP's or the sweep's): stops the engine's job; what was computed stays. */
    cancel() { main.cancel(); again.cancel(); },
    getState: () => clone(get().inputs),
    setState(next) {
      if (!next || typeof next !== 'object') return;
      priorSig = null;
      put({ inputs: S.sanitizeState(next) }, 'inputs', { fields: 'all' });
      schedule(true);
      scheduleDB();
    },
    /** What the section shows, as data: the graph, ε, the bound and every mechanism's matrix. */
    getResults() {
      const cur = get().results;
      if (!cur) return null;
      const mech = {};
      for (const k of Plan.CLASSIC) {
        if (!cur.matrices[k]) continue;
        mech[k] = { matrix: S.toRows(cur.matrices[k]), utility: cur.utils[k], epsilon: cur.mechEps[k] };
      }
      if (cur.lp) {
        const { bound, primalResidual, dualResidual } = cur.lp;
        mech.lp = { matrix: S.toRows(cur.lp.mechanism), utility: cur.lp.utility, epsilon: cur.mechEps.lp, path: cur.lp.path, bound, primalResidual, dualResidual };
        // The certified optimum: exact utility and mechanism (fraction strings), with e^ε.
        if (cur.certified) {
          const c = cur.certified;
          mech.lp.certified = { utility: c.utility, expEpsilon: c.expEpsilon, mechanism: Array.from({ length: c.mechanism.rows }, (_, i) => c.mechanism.data.slice(i * c.mechanism.cols, (i + 1) * c.mechanism.cols)), pivots: c.pivots };
        }
      }
      return { graph: { n: cur.G.n, edges: cur.G.g.edges.map((x) => x.slice()) }, labels: get().labels.slice(), epsilon: cur.eps, prior: cur.prior, mechanisms: mech, sweep: cur.sweep ?? null };
    },
  };
  return controller;
}
