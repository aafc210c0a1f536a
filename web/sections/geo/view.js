// sections/geo/view.js — the "Location privacy" section on the page: a map of cells with a
// density of where people are, and three mechanisms that report a cell instead of the true one,
// all ε·d-private for the Euclidean distance d between cell centres (geo-indistinguishability,
// Bordenabe et al. (CCS 2014)):
//   - the optimal mechanism: the least expected distance, by the engine's linear program
//     (optionally on a greedy δ-spanner of the cells, which guarantees ε·t/δ, t its dilation);
//   - the exponential mechanism ∝ e^(−ε′d/2), the discrete cousin of the planar Laplace: its
//     rows are normalized, which costs privacy, so ε′ is calibrated until the matrix's smallest
//     ε·d factor is the target ε (checked by the engine, never assumed);
//   - a geometric mechanism: a truncated geometric on each axis with ε/√2, private for the
//     Euclidean distance because |Δx| + |Δy| ≤ √2·d (its smallest ε is checked too).
// Their expected distances are shown side by side, and each mechanism's distribution of
// reported cells is drawn for the true cell the user clicks on.
//
// One pipeline task: metric → geometric and exponential (calibrated) → LP (by itself for small
// maps, else on "Compute"); a newer input supersedes the run at its next step and cancels the
// LP. root.dataset.busy is "true" while anything is scheduled or running.

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort, reportToJob } from '../../engine/client.js';
import { readingOf, setReading } from '../../lib/readings.js';
import * as S from './state.js';
import { ids, MECHS, buildSkeleton, mapFigure } from './skeleton.js';

const LP_TIME_LIMIT_MS = 600000;
const MAX_CALIBRATION_STEPS = 40;
const clone = (s) => JSON.parse(JSON.stringify(s));

// A number with its reading (lib/readings.js, by key) in the title and data-reading.
function setNumber(el, x, key) {
  el.textContent = formatNumber(x);
  el.dataset.value = String(x);
  setReading(el, x, readingOf(key, x));
}
function clearNumber(el, text = '—') {
  el.textContent = text;
  el.title = '';
  delete el.dataset.value;
  delete el.dataset.reading;
}

export function mount(root, { engine }) {
  addStylesheet('sections/geo/style.css', 'geo');
  let state = clone(S.DEFAULT_STATE);
  const e = buildSkeleton(root);
  const pipe = createPipeline({ engine, onBusy: (b) => { root.dataset.busy = String(b); } });
  let metricCache = { side: null, D: null };
  let current = null; // {side, n, eps, spanner, prior, D, mech: {key: {K, loss, remapped, epsilon, ...}}}

  function writeInputs() {
    e.density.value = state.density;
    e.side.value = state.side;
    e.eps.value = state.epsilon;
    e.spanner.value = state.spanner;
  }

  e.density.addEventListener('change', () => { state.density = e.density.value; schedule(); });
  e.side.addEventListener('input', () => { state.side = e.side.value; state.cell = null; schedule(); });
  e.eps.addEventListener('input', () => { state.epsilon = e.eps.value; schedule(); });
  e.spanner.addEventListener('input', () => { state.spanner = e.spanner.value; schedule(); });
  root.addEventListener('click', (ev) => {
    const act = ev.target.closest?.('button[data-action]')?.dataset.action;
    if (act === 'cancel-lp') { main.cancel(); lpAgain.cancel(); return; }
    if (act === 'run-lp') { lpAgain.now(); return; }
    const cell = ev.target.closest?.('[data-cell]');
    if (cell && root.contains(cell) && current) {
      state.cell = Number(cell.dataset.cell);
      current.cell = state.cell;
      renderMaps(current);
    }
  });

  const main = pipe.task((job) => recompute(job));
  const lpAgain = pipe.task(async (job) => { if (current) await runLP(job, current, true); });

  function schedule(now = false) {
    for (const r of Object.values(e.rows)) r.tr.dataset.status = 'stale';
    lpAgain.supersede();
    if (now) main.now(); else main.schedule();
  }

  function setMsg(key, text) {
    e.msgs[key].textContent = text || '';
    const inp = e[key];
    inp.classList.toggle('invalid', Boolean(text));
    if (text) inp.setAttribute('aria-invalid', 'true'); else inp.removeAttribute('aria-invalid');
  }

  async function metric(job, side) {
    if (metricCache.side === side) return metricCache.D;
    const [r] = await job.run([engine.plan.metric.gridEuclidean(side, side)]);
    if (!r.ok) throw new Error(r.error);
    metricCache = { side, D: S.rowsOf(r.value) };
    return metricCache.D;
  }

  async function recompute(job) {
    lpAgain.cancel();
    const side = S.parseSide(state.side);
    const eps = S.parseGeoEpsilon(state.epsilon);
    const sp = S.parseSpanner(state.spanner);
    setMsg('side', side.error);
    setMsg('eps', eps.error);
    setMsg('spanner', sp.error);
    if (side.error || eps.error || sp.error) return;
    const n = side.value * side.value;
    const D = await metric(job, side.value);
    const prior = S.densityPrior(state.density, side.value);
    // The state keeps what the user chose (null: the densest cell), so that a link round-trips.
    const chosen = state.cell !== null && state.cell < n ? state.cell : S.densest(prior);
    const cur = { side: side.value, n, eps: eps.value, spanner: sp.value, prior, D, cell: chosen, mech: {} };
    current = cur;
    e.summary.textContent = `${side.value} × ${side.value} = ${n} cells, one unit of distance per cell side; the diameter is ${formatNumber(Math.SQRT2 * (side.value - 1))}. ε = ${formatNumber(eps.value)} per unit: two cells at distance d are e^(εd)-indistinguishable.`;
    resetLP(cur);
    renderMaps(cur);

    // The geometric mechanism: one matrix, checked.
    const [tg] = await job.run([engine.plan.mechanism.truncatedGeometric(side.value, eps.value / Math.SQRT2)]);
    if (!tg.ok) { showError('geo', tg.error); } else {
      const A = S.rowsOf(tg.value);
      const K = S.productMechanism(A, A);
      await measure(job, cur, 'geo', K, { detail: `truncated geometric with α = e^(−ε/√2) = ${formatNumber(Math.exp(-eps.value / Math.SQRT2))} on each axis` });
    }
    // The exponential mechanism, calibrated to the target.
    await calibrateExponential(job, cur);
    if (S.autoRun(n, sp.value)) await runLP(job, cur, false);
    else offerLP(cur);
  }

  /** Shows a mechanism's expected distances and smallest ε, all computed by the engine. */
  async function measure(job, cur, key, K, extra = {}) {
    const [er, lr] = await job.run([engine.plan.privacy.dPrivacyEpsilon(K, cur.D), engine.plan.mechanism.expectedLoss(cur.prior, K, cur.D)]);
    const m = { K, loss: S.expectedDistance(cur.prior, K, cur.D), remapped: lr.ok ? lr.value.loss : NaN, epsilon: er.ok ? er.value : NaN, ...extra };
    cur.mech[key] = m;
    showRow(key, m, cur.eps, er.ok ? null : er.error);
    renderMaps(cur);
    return m;
  }

  async function calibrateExponential(job, cur) {
    const row = e.rows.exp;
    row.detail.textContent = 'Calibrating ε′…';
    const epsOf = async (x) => {
      const [m] = await job.run([engine.plan.mechanism.exponentialMetric(cur.D, x)]);
      if (!m.ok) throw new Error(m.error);
      const K = S.rowsOf(m.value);
      const [r] = await job.run([engine.plan.privacy.dPrivacyEpsilon(K, cur.D)]);
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
        row.detail.textContent = `Calibrating ε′: step ${step + 1}, ε′ = ${formatNumber(x)}…`;
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
    const row = e.rows[key];
    row.tr.dataset.status = 'error';
    clearNumber(row.loss, 'error');
    clearNumber(row.remapped);
    clearNumber(row.eps);
    row.verdict.textContent = '';
    row.detail.textContent = message;
  }

  function showRow(key, m, target, epsError) {
    const row = e.rows[key];
    row.tr.dataset.status = 'ok';
    setNumber(row.loss, m.loss, 'geo.loss');
    if (Number.isFinite(m.remapped)) setNumber(row.remapped, m.remapped, 'geo.remapped'); else clearNumber(row.remapped);
    row.detail.textContent = m.detail ?? '';
    if (m.epsilonPrime !== undefined) row.detail.dataset.epsilonPrime = String(m.epsilonPrime);
    if (epsError) { clearNumber(row.eps, 'error'); row.verdict.textContent = epsError; return; }
    setNumber(row.eps, m.epsilon, key === 'lp' ? 'geo.epsilonLP' : 'geo.epsilon');
    const over = m.epsilon > target * (1 + 1e-9) + 1e-12;
    row.verdict.textContent = over ? `> ε = ${formatNumber(target)}: not ε·d-private` : `≤ ε = ${formatNumber(target)}: ε·d-private`;
    row.verdict.dataset.ok = String(!over);
    row.tr.dataset.private = String(!over);
  }

  // ------------------------------------------------------------ the optimal mechanism
  function lpSize(cur) {
    const pairs = cur.spanner === null ? 'every pair of cells constrained' : `constraints on the edges of a greedy ${formatNumber(cur.spanner)}-spanner`;
    return `${cur.n} cells, ${(cur.n * cur.n).toLocaleString('en')} variables, ${pairs}`;
  }

  function resetLP(cur) {
    const row = e.rows.lp;
    row.tr.dataset.status = 'pending';
    clearNumber(row.loss, '…');
    clearNumber(row.remapped, '…');
    clearNumber(row.eps, '…');
    row.verdict.textContent = '';
    row.detail.textContent = '';
    clearNumber(e.guaranteed);
    e.guaranteedNote.textContent = '';
    replace(e.progress);
    e.comparison.textContent = '';
  }

  function offerLP(cur) {
    const row = e.rows.lp;
    row.tr.dataset.status = 'waiting';
    clearNumber(row.loss, '—');
    clearNumber(row.remapped, '—');
    clearNumber(row.eps, '—');
    replace(e.progress, h('p', { class: 'muted' },
      `The linear program (${lpSize(cur)}) may take from seconds to minutes here; it runs on request. `,
      h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-run'), text: 'Compute the optimal mechanism' })));
  }

  function showProgress(p) {
    const text = p ? `Solving the linear program: ${p.iteration} iterations, objective ${formatNumber(p.objective)}` : `Solving the linear program (${lpSize(current)})…`;
    const line = e.progress.querySelector('[data-role="text"]');
    if (line) { line.textContent = text; return; }
    replace(e.progress, h('p', { class: 'cap-stats progress' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-lp' }, 'data-testid': ids('lp-cancel'), text: 'Cancel' }),
      h('span', { dataset: { role: 'text' }, text })));
  }

  async function runLP(job, cur, clicked) {
    resetLP(cur);
    const opts = { metric: cur.D, epsilon: cur.eps, prior: cur.prior, loss: cur.D, timeLimit: LP_TIME_LIMIT_MS, onProgress: reportToJob };
    if (cur.spanner !== null) opts.spanner = cur.spanner;
    const t0 = performance.now();
    let r;
    try {
      [r] = await job.run([engine.plan.mechanism.optimalLP(opts)], { cancelStale: true, slowNow: clicked, slow: () => showProgress(null), onProgress: ([p]) => showProgress(p) });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      const row = e.rows.lp;
      row.tr.dataset.status = isAbort(err) ? 'cancelled' : 'error';
      clearNumber(row.loss, '—');
      clearNumber(row.remapped, '—');
      clearNumber(row.eps, '—');
      replace(e.progress, h('p', { class: 'muted', 'data-testid': ids('lp-stopped') }, isAbort(err) ? 'The linear program was cancelled. ' : `The linear program failed: ${err.message} `,
        h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-run'), text: 'Compute again' })));
      return;
    }
    const ms = performance.now() - t0;
    replace(e.progress);
    if (!r.ok) { showError('lp', r.error); return; }
    const lp = r.value;
    const m = await measure(job, cur, 'lp', S.rowsOf(lp.mechanism), {
      objective: lp.utility,
      guaranteedEpsilon: lp.guaranteedEpsilon,
      spanner: lp.spanner ?? null,
      detail: `${lp.method || lp.path}, ${lp.iterations} iterations, ${lp.status}, ${formatNumber(ms / 1000)} s in this browser; ${lpSize(cur)}`,
    });
    e.rows.lp.detail.dataset.ms = String(Math.round(ms));
    setNumber(e.guaranteed, lp.guaranteedEpsilon, 'geo.guaranteed');
    e.guaranteedNote.textContent = lp.spanner
      ? `With the spanner (${lp.spanner.pairs} pairs of cells, dilation t = ${formatNumber(lp.spanner.dilation)} ≤ δ = ${formatNumber(cur.spanner)}), the program asks ε/δ on the spanner’s edges only, which guarantees ε·t/δ on every pair — a smaller (safer) ε than asked, for a slightly larger expected distance. Empty δ: every pair, the exact optimum.`
      : 'Every pair of cells is constrained: the mechanism is the exact optimum at ε.';
    e.guaranteedNote.textContent += ' Two ε for one mechanism: this guarantee is what the program’s constraints ask; the table’s “measured” ε is the smallest the matrix the solver returned satisfies, computed from its entries — above the guarantee only by what its floating-point solution misses a constraint by.';
    showComparison(cur, m);
  }

  function showComparison(cur, lp) {
    const others = ['exp', 'geo'].filter((k) => cur.mech[k] && Number.isFinite(cur.mech[k].loss));
    if (!others.length) return;
    const parts = others.map((k) => `${k === 'exp' ? 'the exponential' : 'the geometric'} ${formatNumber(cur.mech[k].loss)} (${formatNumber((100 * (cur.mech[k].loss - lp.loss)) / cur.mech[k].loss)} % more)`);
    e.comparison.textContent = `The ${cur.spanner === null ? 'optimal' : 'spanner-optimal'} mechanism reports a cell at ${formatNumber(lp.loss)} cell sides from the true one on average, against ${parts.join(' and ')}.`;
  }

  // ------------------------------------------------------------ maps
  function renderMaps(cur) {
    const { cell } = cur;
    e.cellName.textContent = `true cell ${S.cellName(cell, cur.side)} (prior ${formatNumber(cur.prior[cell])})`;
    const figs = [mapFigure('prior', 'Density π: where people are (click a cell)', cur.prior, cur.side, cell)];
    for (const m of MECHS) {
      const x = cur.mech[m.key];
      if (x) figs.push(mapFigure(m.key, `${m.key === 'lp' ? 'Optimal' : m.key === 'exp' ? 'Exponential' : 'Geometric'}: reported cell given ${S.cellName(cell, cur.side)}`, x.K[cell], cur.side, cell));
    }
    replace(e.maps, figs);
  }

  // The page's sections share one worker: solve this section's program only once it is in view,
  // so that loading the page never queues an LP in front of the other sections' work.
  // data-started tells when it has (tests wait for it with data-busy).
  function start() {
    if (root.dataset.started === 'true') return;
    root.dataset.started = 'true';
    schedule(true);
  }
  writeInputs();
  root.dataset.busy = 'false';
  if (typeof IntersectionObserver === 'function') {
    const io = new IntersectionObserver((entries) => {
      if (entries.some((x) => x.isIntersecting)) { io.disconnect(); start(); }
    }, { rootMargin: '200px' });
    io.observe(root);
  } else start();

  return {
    getState: () => clone(state),
    setState(next) {
      state = S.sanitizeState(next);
      writeInputs();
      if (root.dataset.started === 'true') schedule(true); else start();
    },
    /** What the section shows, as data. */
    getResults() {
      const cur = current;
      if (!cur) return null;
      const mech = {};
      for (const [k, m] of Object.entries(cur.mech)) mech[k] = { loss: m.loss, remapped: m.remapped, epsilon: m.epsilon, guaranteedEpsilon: m.guaranteedEpsilon, epsilonPrime: m.epsilonPrime, row: m.K[cur.cell].slice() };
      return { side: cur.side, epsilon: cur.eps, spanner: cur.spanner, prior: cur.prior.slice(), cell: cur.cell, mechanisms: mech };
    },
  };
}
