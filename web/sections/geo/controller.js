// sections/geo/controller.js — the logic of the "Location privacy" section, without the DOM: what
// the user typed (inputs), what is computed for it (results), the state of each mechanism's row,
// the progress line, and one method per user action (an input changed, a cell chosen, Compute,
// Cancel, the section scrolled into view, an export). The view (view.js) subscribes to the store,
// draws and forwards DOM events here; tests/node/geo-controller.test.mjs drives it with the
// engine loaded in Node or a stub.
//
// One pipeline task: metric → geometric and exponential (calibrated) → LP (by itself for small
// maps, else on compute(); above 16×16 the other two wait for compute() as well); a newer input
// supersedes the run at its next step and cancels the LP. While the LP runs, its progress reports
// give the expected distance of the mechanism the solver holds and the lower bound it has proven,
// hence the certified gap; cancel() stops the worker's job and keeps what was computed. Matrices
// go to the engine as {rows, cols, data} (a 32×32 map's are 1,024² entries).
//
// The store's state:
//   inputs    {side, epsilon, spanner, density, cell}: what the user chose (getState's shape)
//   errors    {side, eps, spanner}: the message of each field, or null
//   started   whether the section has computed (it waits until it is in view)
//   busy      whether anything is scheduled or running
//   results   the computation shown: {side, n, eps, spanner, spannerDefaulted, prior, D, Dm, cell,
//             mech: {lp|exp|geo: {K, loss, remapped, epsilon, …}}, lastProgress}, or null
//   rows      {lp|exp|geo: {status, m, blank, detail, epsError, target}}: status is the row's
//             data-status (pending, stale, ok, error, waiting, cancelled); m the measurement
//             shown; blank, when set, what its numbers show instead ('…', '—' or 'error')
//   progress  null | {state: 'waiting', othersWaiting} | {state: 'running', text, stats}
//             | {state: 'cancelled' | 'error', message, last}; stats null, {kind: 'simplex',
//             iteration} or {kind: 'decomposition', phase, pivots, value, bound, gap}

import { createStore } from '../../lib/controller.js';
import { formatNumber } from '../../lib/numbers.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort, reportToJob } from '../../engine/client.js';
import * as S from './state.js';
import { mechanismData, tableData, mapSVG, MECH_NAMES } from './export.js';

export const LP_TIME_LIMIT_MS = 600000;
const MAX_CALIBRATION_STEPS = 40;
export const MECH_KEYS = ['lp', 'exp', 'geo'];
const clone = (s) => JSON.parse(JSON.stringify(s));

/** A {rows, cols, data} matrix from rows: the engine's fast path for large matrices. */
export function flatOf(rows) {
  const n = rows.length;
  const m = n ? rows[0].length : 0;
  const data = new Float64Array(n * m);
  rows.forEach((r, i) => data.set(r, i * m));
  return { rows: n, cols: m, data };
}

/** The size of the optimal mechanism's program, in words. */
export function lpSize(cur) {
  const pairs = cur.spanner === null ? 'every pair of cells constrained'
    : `constraints on the edges of a greedy ${formatNumber(cur.spanner)}-spanner${cur.spannerDefaulted ? ' (the default on a map this large)' : ''}`;
  return `${cur.n} cells, ${(cur.n * cur.n).toLocaleString('en')} variables, ${pairs}`;
}

/**
 * The comparison of the other mechanisms with the optimum: [{key, loss, percentMore}] for those
 * computed, "% more" relative to the optimum's distance (the base of the comparison).
 */
export function comparisonOf(cur) {
  const lp = cur?.mech?.lp;
  if (!lp) return [];
  return ['exp', 'geo'].filter((k) => cur.mech[k] && Number.isFinite(cur.mech[k].loss))
    .map((k) => ({ key: k, loss: cur.mech[k].loss, percentMore: S.percentMore(cur.mech[k].loss, lp.loss) }));
}

const emptyRow = (status) => ({ status, m: null, blank: null, detail: '', epsError: null, target: null });

/**
 * @param {{engine: object, timing?: object, clock?: {setTimeout, clearTimeout, setInterval, clearInterval},
 *          now?: () => number, onError?: (e: Error) => void}} options
 *   engine: the page's engine (engine/client.js createEngine) or one with the same run/cancel/plan;
 *   clock and now: where the pipeline's delays, the seconds tick and the LP's time come from.
 */
export function createGeoController({ engine, timing, clock = globalThis, now = () => performance.now(), onError }) {
  const store = createStore({
    inputs: clone(S.DEFAULT_STATE),
    errors: { side: null, eps: null, spanner: null },
    started: false,
    busy: false,
    results: null,
    rows: Object.fromEntries(MECH_KEYS.map((k) => [k, emptyRow('pending')])),
    progress: null,
  });
  const get = () => store.get();
  const pipe = createPipeline({ engine, timing, clock, onError, onBusy: (b) => store.set({ busy: b }) });
  let metricCache = { side: null, D: null, Dm: null };

  const setRow = (key, patch, extra = {}) => store.set({ rows: { ...get().rows, [key]: { ...get().rows[key], ...patch } }, ...extra });

  const main = pipe.task((job) => recompute(job));
  const lpAgain = pipe.task(async (job) => {
    const cur = get().results;
    if (!cur) return;
    setRow('lp', { status: 'pending' });
    try {
      if (!cur.mech.geo || !cur.mech.exp) await computeOthers(job, cur, true);
      await runLP(job, cur, true);
    } catch (err) {
      if (err instanceof Superseded || !isAbort(err)) throw err;
      showStopped(cur, err);
    }
  });

  function schedule(immediately = false) {
    const rows = {};
    for (const [k, r] of Object.entries(get().rows)) rows[k] = { ...r, status: 'stale' };
    store.set({ rows });
    lpAgain.supersede();
    if (immediately) main.now(); else main.schedule();
  }

  async function metric(job, side) {
    if (metricCache.side !== side) {
      const [r] = await job.run([engine.plan.metric.gridEuclidean(side, side)]);
      if (!r.ok) throw new Error(r.error);
      metricCache = { side, D: S.rowsOf(r.value), Dm: r.value };
    }
    return metricCache;
  }

  async function recompute(job) {
    lpAgain.cancel();
    const { inputs } = get();
    const side = S.parseSide(inputs.side);
    const eps = S.parseGeoEpsilon(inputs.epsilon);
    const sp = S.parseSpanner(inputs.spanner);
    store.set({ errors: { side: side.error ?? null, eps: eps.error ?? null, spanner: sp.error ?? null } });
    if (side.error || eps.error || sp.error) return;
    const n = side.value * side.value;
    const { D, Dm } = await metric(job, side.value);
    const prior = S.densityPrior(inputs.density, side.value);
    // The inputs keep what the user chose (null: the densest cell), so that a link round-trips.
    const chosen = inputs.cell !== null && inputs.cell < n ? inputs.cell : S.densest(prior);
    const spE = S.effectiveSpanner(side.value, sp.value);
    const cur = { side: side.value, n, eps: eps.value, spanner: spE.value, spannerDefaulted: spE.defaulted, spannerTyped: sp.value !== null, prior, D, Dm, cell: chosen, mech: {}, lastProgress: null, track: null };
    store.set({ results: cur });
    resetLP();
    try {
      if (!S.autoOthers(side.value)) { offerLP(cur); return; }
      await computeOthers(job, cur, false);
      if (S.autoRun(n, cur.spanner)) await runLP(job, cur, false);
      else offerLP(cur);
    } catch (err) {
      if (err instanceof Superseded || !isAbort(err)) throw err;
      showStopped(cur, err);
    }
  }

  // The progress line (spinner, Cancel, text): a new one, or the text of the one shown.
  function busy(text) {
    const p = get().progress;
    store.set({ progress: { state: 'running', text, stats: p?.state === 'running' ? p.stats : null } });
  }
  // What a job.run's options need for the progress line of an engine job still running after the
  // pipeline's delay.
  const slowLine = (text) => ({ slow: () => busy(text) });

  /** The geometric mechanism (one matrix, checked) and the exponential one, calibrated. */
  async function computeOthers(job, cur, clicked) {
    if (clicked) busy(`Computing the geometric mechanism on ${cur.n} cells and checking its ε…`);
    const [tg] = await job.run([engine.plan.mechanism.truncatedGeometric(cur.side, cur.eps / Math.SQRT2)], slowLine('Computing the geometric mechanism…'));
    if (!tg.ok) showError('geo', tg.error);
    else {
      const A = S.rowsOf(tg.value);
      const K = S.productMechanism(A, A);
      await measure(job, cur, 'geo', K, { detail: `truncated geometric with α = e^(−ε/√2) = ${formatNumber(Math.exp(-cur.eps / Math.SQRT2))} on each axis` });
    }
    await calibrateExponential(job, cur);
  }

  /** A mechanism's expected distances and smallest ε, all computed by the engine, into its row. */
  async function measure(job, cur, key, K, extra = {}) {
    const Km = flatOf(K);
    const [er, lr] = await job.run([engine.plan.privacy.dPrivacyEpsilon(Km, cur.Dm), engine.plan.mechanism.expectedLoss(cur.prior, Km, cur.Dm)],
      slowLine(`Checking the ${key === 'lp' ? 'optimal' : key === 'exp' ? 'exponential' : 'geometric'} mechanism: its ε compares every pair of cells at every reported cell (${formatNumber(cur.n ** 3, 2)} steps), and its remapping as many…`));
    const m = { K, loss: S.expectedDistance(cur.prior, K, cur.D), remapped: lr.ok ? lr.value.loss : NaN, epsilon: er.ok ? er.value : NaN, ...extra };
    cur.mech = { ...cur.mech, [key]: m };
    setRow(key, { status: 'ok', m, blank: null, detail: m.detail ?? '', epsError: er.ok ? null : er.error, target: cur.eps }, { results: cur });
    return m;
  }

  async function calibrateExponential(job, cur) {
    setRow('exp', { detail: 'Calibrating ε′…' });
    const epsOf = async (x) => {
      const [m] = await job.run([engine.plan.mechanism.exponentialMetric(cur.Dm, x)]);
      if (!m.ok) throw new Error(m.error);
      const K = S.rowsOf(m.value);
      const [r] = await job.run([engine.plan.privacy.dPrivacyEpsilon(m.value, cur.Dm)], slowLine(`${get().rows.exp.detail} (checking its ε: ${formatNumber(cur.n ** 3, 2)} steps)`));
      if (!r.ok) throw new Error(r.error);
      return { x, f: r.value - cur.eps, K };
    };
    try {
      // Normalizing the rows at most doubles the ε of the weights e^(−ε′d/2), so ε′ = ε meets the
      // target; the engine's check says by how much, and the search raises ε′ up to the target.
      let lo = await epsOf(cur.eps);
      while (lo.f > 0 && lo.x > 1e-9 * cur.eps) lo = await epsOf(lo.x / 2); // never expected; safe
      let hi = null;
      let kept = null;
      for (let step = 0; step < MAX_CALIBRATION_STEPS; step++) {
        const x = S.nextCalibration(lo, hi, cur.eps);
        if (x === null) break;
        setRow('exp', { detail: `Calibrating ε′: step ${step + 1}, ε′ = ${formatNumber(x)}…` });
        const t = await epsOf(x);
        if (t.f <= 0) {
          if (kept === 'lo' && hi) hi.w = (hi.w ?? hi.f) / 2;
          lo = t; kept = 'lo';
        } else {
          if (kept === 'hi') lo.w = (lo.w ?? lo.f) / 2;
          hi = t; kept = 'hi';
        }
      }
      await measure(job, cur, 'exp', lo.K, { epsilonPrime: lo.x, detail: `ε′ = ${formatNumber(lo.x)}: rows normalized, so the largest ε′ whose matrix is still ε·d-private (${formatNumber(lo.x / cur.eps)} × ε)` });
    } catch (err) {
      if (err instanceof Superseded || isAbort(err)) throw err;
      showError('exp', err.message);
    }
  }

  function showError(key, message) {
    setRow(key, { status: 'error', m: null, blank: 'error', detail: message, epsError: null });
  }

  // ------------------------------------------------------------ the optimal mechanism
  function resetLP() {
    setRow('lp', { status: 'pending', m: null, blank: '…', detail: '', epsError: null }, { progress: null });
  }

  function offerLP(cur) {
    setRow('lp', { status: 'waiting', m: null, blank: '—' }, { progress: { state: 'waiting', othersWaiting: !(cur.mech.geo && cur.mech.exp) } });
  }

  // A progress report of the optimal mechanism's solver (p null: the seconds only). The
  // decomposition reports the expected distance of the mechanism it holds (feasible: a mixture of
  // private columns) and the lower bound its prices prove on every mechanism's; their difference
  // bounds how far the mechanism held is from the optimum. A simplex fallback proves no bound
  // before it ends. What is shown never goes back (state.js: progressTrack).
  function showProgress(cur, p, t0) {
    const t = (now() - t0) / 1000;
    const secs = t < 10 ? t.toFixed(1) : String(Math.round(t));
    busy(`Solving the linear program (${lpSize(cur)}): ${secs} s`);
    if (!p) return;
    let stats;
    if (p.phase !== 'decomposition' && p.phase !== 'output generation') stats = { kind: 'simplex', iteration: p.iteration };
    else {
      cur.track ??= S.progressTrack();
      const q = cur.track.add(p);
      cur.lastProgress = q;
      stats = { kind: 'decomposition', ...q };
    }
    store.set({ progress: { ...get().progress, stats } });
  }

  // Cancelled (or the worker failed): what was computed stays; the LP row says what happened,
  // with the last numbers the solver reported, and offers to compute again.
  function showStopped(cur, err) {
    if (get().results !== cur) return;
    const abort = isAbort(err);
    const rows = { ...get().rows, lp: { ...get().rows.lp, status: abort ? 'cancelled' : 'error', m: null, blank: '—' } };
    for (const k of ['geo', 'exp']) {
      if (!cur.mech[k] && rows[k].status !== 'error') rows[k] = { ...rows[k], status: 'waiting', m: null, blank: '—', detail: '' };
    }
    store.set({ rows, progress: { state: abort ? 'cancelled' : 'error', message: abort ? null : err.message, last: cur.lastProgress } });
  }

  async function runLP(job, cur, clicked) {
    resetLP();
    cur.lastProgress = null;
    cur.track = null;
    const opts = { metric: cur.Dm, epsilon: cur.eps, prior: cur.prior, loss: cur.Dm, timeLimit: LP_TIME_LIMIT_MS, onProgress: reportToJob };
    if (cur.spanner !== null) opts.spanner = cur.spanner;
    const t0 = now();
    // The seconds tick between reports (the first comes after the first columns are priced).
    const tick = clock.setInterval(() => {
      if (get().results === cur && get().progress?.state === 'running') showProgress(cur, null, t0);
    }, 1000);
    let r;
    try {
      [r] = await job.run([engine.plan.mechanism.optimalLP(opts)], { cancelStale: true, slowNow: clicked, slow: () => showProgress(cur, null, t0), onProgress: ([p]) => showProgress(cur, p, t0) });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      showStopped(cur, err);
      return;
    } finally {
      clock.clearInterval(tick);
    }
    const ms = now() - t0;
    store.set({ progress: null });
    if (!r.ok) { showError('lp', r.error); return; }
    const lp = r.value;
    await measure(job, cur, 'lp', S.rowsOf(lp.mechanism), {
      objective: lp.utility,
      bound: lp.bound,
      status: lp.status,
      gap: S.lossGap({ value: lp.utility, bound: lp.bound }),
      guaranteedEpsilon: lp.guaranteedEpsilon,
      spanner: lp.spanner ?? null,
      ms: Math.round(ms),
      detail: `${lp.method || lp.path}, ${lp.iterations} iterations, ${lp.status}, ${formatNumber(ms / 1000)} s in this browser; ${lpSize(cur)}`,
    });
    store.set({ progress: null });
  }

  // ------------------------------------------------------------ actions and exports
  /** The map drawn as `key` ('prior' or a mechanism), for its SVG: title, values, cells. */
  function mapOf(key) {
    const cur = get().results;
    if (!cur) return null;
    const { cell } = cur;
    if (key === 'prior') return { title: 'Density π: where people are', values: cur.prior, side: cur.side, chosen: cell };
    const x = cur.mech[key];
    return x ? { title: `${MECH_NAMES[key][0].toUpperCase()}${MECH_NAMES[key].slice(1)} mechanism: reported cell given the true cell ${S.cellName(cell, cur.side)}`, values: x.K[cell], side: cur.side, chosen: cell } : null;
  }

  const controller = {
    store,
    get,
    subscribe: store.subscribe,
    /** One of the fields changed: 'density', 'side' (which forgets the chosen cell), 'epsilon', 'spanner'. */
    setInput(key, value) {
      const inputs = { ...get().inputs, [key]: value };
      if (key === 'side') inputs.cell = null;
      store.set({ inputs });
      schedule();
    },
    /** The user chose the true cell i (clicked it on a map). */
    chooseCell(i) {
      const cur = get().results;
      if (!cur) return;
      cur.cell = i;
      store.set({ inputs: { ...get().inputs, cell: i }, results: cur });
    },
    /** "Compute": the LP, and first the other mechanisms where they wait for it too. */
    compute() { return lpAgain.now(); },
    /** Cancel: stops the engine's job; what was computed stays. */
    cancel() { main.cancel(); lpAgain.cancel(); },
    // The page's sections share one worker: this section computes only once it is in view, so
    // that loading the page never queues an LP in front of the other sections' work.
    start() {
      if (get().started) return;
      store.set({ started: true });
      schedule(true);
    },
    getState: () => clone(get().inputs),
    setState(next) {
      store.set({ inputs: S.sanitizeState(next) });
      if (get().started) schedule(true); else controller.start();
    },
    /** What the section shows, as data. */
    getResults() {
      const cur = get().results;
      if (!cur) return null;
      const mech = {};
      for (const [k, m] of Object.entries(cur.mech)) mech[k] = { loss: m.loss, remapped: m.remapped, epsilon: m.epsilon, guaranteedEpsilon: m.guaranteedEpsilon, epsilonPrime: m.epsilonPrime, bound: m.bound, status: m.status, gap: m.gap, row: m.K[cur.cell].slice() };
      return { side: cur.side, epsilon: cur.eps, spanner: cur.spanner, prior: cur.prior.slice(), cell: cur.cell, mechanisms: mech };
    },
    /** The table of the mechanisms, for the Export menu (null before any is computed). */
    tableData: () => tableData(get().results),
    /** Mechanism `key` with its cells named, for the Export menu. */
    mechanismData: (key) => mechanismData(get().results, key),
    mapOf,
    /** Map `key` as a standalone SVG: {text, file}, or null when it is not drawn. */
    mapSVG(key) {
      const m = mapOf(key);
      if (!m) return null;
      return { text: mapSVG({ ...m, format: (v) => formatNumber(v, 4) }), file: `location-map-${key}-${m.side}x${m.side}.svg` };
    },
  };
  return controller;
}
