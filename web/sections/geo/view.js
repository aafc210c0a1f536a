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
// maps, else on "Compute"; above 16×16 the other two wait for "Compute" as well); a newer input
// supersedes the run at its next step and cancels the LP. While the LP runs, its progress
// reports give the expected distance of the mechanism the solver holds and the lower bound it
// has proven, hence the certified gap; Cancel stops the worker's job (the engine restarts its
// worker), the section stays usable and keeps what it had computed. Matrices go to the engine
// as {rows, cols, data} (a 32×32 map's are 1,024² entries). root.dataset.busy is "true" while
// anything is scheduled or running.

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { isAbort, reportToJob } from '../../engine/client.js';
import { readingOf, setReading } from '../../lib/readings.js';
import * as S from './state.js';
import { ids, MECHS, buildSkeleton, mapFigure } from './skeleton.js';
import { exportMenu, download } from '../../lib/export.js';
import { mechanismData, tableData, mapSVG, MECH_NAMES } from './export.js';

const LP_TIME_LIMIT_MS = 600000;
const MAX_CALIBRATION_STEPS = 40;
const clone = (s) => JSON.parse(JSON.stringify(s));

// A number with its reading (lib/readings.js, by key) in the title and data-reading.
function withReading(el, x, key) {
  setReading(el, x, readingOf(key, x));
  return el;
}
function setNumber(el, x, key) {
  el.textContent = formatNumber(x);
  el.dataset.value = String(x);
  setReading(el, x, readingOf(key, x));
}
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/** A gap, however small (formatNumber writes 0 below 1e-12, where a certified gap usually is). */
function formatGap(g) {
  if (!Number.isFinite(g) || g === 0 || Math.abs(g) >= 1e-12) return formatNumber(g, 2);
  const [m, ex] = g.toExponential(1).split('e');
  return `${m.replace(/\.0$/, '')}×10${[...ex.replace(/^\+/, '')].map((c) => SUPERSCRIPT[c]).join('')}`;
}
/** A {rows, cols, data} matrix from rows: the engine's fast path for large matrices. */
function flatOf(rows) {
  const n = rows.length;
  const m = n ? rows[0].length : 0;
  const data = new Float64Array(n * m);
  rows.forEach((r, i) => data.set(r, i * m));
  return { rows: n, cols: m, data };
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
  let metricCache = { side: null, D: null, Dm: null };
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
  // Export, as in the other sections: the table, a mechanism with its cells named, each map.
  const which = h('select', { class: 'small geo-export-which', 'data-testid': ids('export-which'), 'aria-label': 'Which mechanism to export' },
    MECHS.map((m) => h('option', { value: m.key, text: MECH_NAMES[m.key] })));
  e.mechHead.append(h('div', { class: 'geo-exports' },
    exportMenu(() => tableData(current), { what: 'table of the mechanisms', testid: ids('export-table'), label: 'Export table', file: 'location-mechanisms' }),
    which,
    exportMenu(() => mechanismData(current, which.value), { what: 'mechanism', testid: ids('export-mechanism'), label: 'Export K', file: 'location-mechanism' })));

  root.addEventListener('click', (ev) => {
    const act = ev.target.closest?.('button[data-action]')?.dataset.action;
    if (act === 'map-svg') { saveMap(ev.target.closest('button').dataset.map); return; }
    if (act === 'cancel-lp') { main.cancel(); lpAgain.cancel(); return; }
    // "Compute": the LP, and first the other mechanisms where they wait for it too.
    if (act === 'run-lp') { lpAgain.now(); return; }
    const cell = ev.target.closest?.('[data-cell]');
    if (cell && root.contains(cell) && current) {
      state.cell = Number(cell.dataset.cell);
      current.cell = state.cell;
      renderMaps(current);
    }
  });

  const main = pipe.task((job) => recompute(job));
  const lpAgain = pipe.task(async (job) => {
    const cur = current;
    if (!cur) return;
    e.rows.lp.tr.dataset.status = 'pending';
    try {
      if (!cur.mech.geo || !cur.mech.exp) await computeOthers(job, cur, true);
      await runLP(job, cur, true);
    } catch (err) {
      if (err instanceof Superseded || !isAbort(err)) throw err;
      showStopped(cur, err);
    }
  });

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
    if (metricCache.side !== side) {
      const [r] = await job.run([engine.plan.metric.gridEuclidean(side, side)]);
      if (!r.ok) throw new Error(r.error);
      metricCache = { side, D: S.rowsOf(r.value), Dm: r.value };
    }
    return metricCache;
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
    const { D, Dm } = await metric(job, side.value);
    const prior = S.densityPrior(state.density, side.value);
    // The state keeps what the user chose (null: the densest cell), so that a link round-trips.
    const chosen = state.cell !== null && state.cell < n ? state.cell : S.densest(prior);
    const spE = S.effectiveSpanner(side.value, sp.value);
    const cur = { side: side.value, n, eps: eps.value, spanner: spE.value, spannerDefaulted: spE.defaulted, prior, D, Dm, cell: chosen, mech: {} };
    current = cur;
    e.summary.textContent = `${side.value} × ${side.value} = ${n} cells, one unit of distance per cell side; the diameter is ${formatNumber(Math.SQRT2 * (side.value - 1))}. ε = ${formatNumber(eps.value)} per unit: two cells at distance d are e^(εd)-indistinguishable.`;
    if (spE.defaulted) {
      e.summary.textContent += ` Every pair of cells constrained would be about ${formatNumber((n * n * n) / 2, 2)} privacy constraints (one per pair and reported cell), beyond what a browser solves: above ${S.EVERY_PAIR_MAX_SIDE} × ${S.EVERY_PAIR_MAX_SIDE} the optimal mechanism uses a spanner with δ = ${S.DEFAULT_SPANNER} unless you type another δ.`;
    }
    e.summary.dataset.spanner = spE.defaulted ? 'default' : sp.value === null ? 'none' : 'typed';
    resetLP(cur);
    renderMaps(cur);
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

  /** The geometric mechanism (one matrix, checked) and the exponential one, calibrated. */
  async function computeOthers(job, cur, clicked) {
    if (clicked) busyLine(`Computing the geometric mechanism on ${cur.n} cells and checking its ε…`);
    const [tg] = await job.run([engine.plan.mechanism.truncatedGeometric(cur.side, cur.eps / Math.SQRT2)], slowLine(`Computing the geometric mechanism…`));
    if (!tg.ok) { showError('geo', tg.error); } else {
      const A = S.rowsOf(tg.value);
      const K = S.productMechanism(A, A);
      await measure(job, cur, 'geo', K, { detail: `truncated geometric with α = e^(−ε/√2) = ${formatNumber(Math.exp(-cur.eps / Math.SQRT2))} on each axis` });
    }
    await calibrateExponential(job, cur);
  }

  // The progress line (spinner, Cancel, text) for an engine job still running after the
  // pipeline's delay: what a job.run's options need for it.
  function slowLine(text) {
    return { slow: () => busyLine(text) };
  }

  /** Shows a mechanism's expected distances and smallest ε, all computed by the engine. */
  async function measure(job, cur, key, K, extra = {}) {
    const Km = flatOf(K);
    const [er, lr] = await job.run([engine.plan.privacy.dPrivacyEpsilon(Km, cur.Dm), engine.plan.mechanism.expectedLoss(cur.prior, Km, cur.Dm)],
      slowLine(`Checking the ${key === 'lp' ? 'optimal' : key === 'exp' ? 'exponential' : 'geometric'} mechanism: its ε compares every pair of cells at every reported cell (${formatNumber(cur.n ** 3, 2)} steps), and its remapping as many…`));
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
      const [m] = await job.run([engine.plan.mechanism.exponentialMetric(cur.Dm, x)]);
      if (!m.ok) throw new Error(m.error);
      const K = S.rowsOf(m.value);
      const [r] = await job.run([engine.plan.privacy.dPrivacyEpsilon(m.value, cur.Dm)], slowLine(`${row.detail.textContent} (checking its ε: ${formatNumber(cur.n ** 3, 2)} steps)`));
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
    const pairs = cur.spanner === null ? 'every pair of cells constrained'
      : `constraints on the edges of a greedy ${formatNumber(cur.spanner)}-spanner${cur.spannerDefaulted ? ' (the default on a map this large)' : ''}`;
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
    replace(e.gap);
    replace(e.progress);
    e.comparison.textContent = '';
    delete e.progress.dataset.state;
  }

  function offerLP(cur) {
    const row = e.rows.lp;
    row.tr.dataset.status = 'waiting';
    clearNumber(row.loss, '—');
    clearNumber(row.remapped, '—');
    clearNumber(row.eps, '—');
    const others = cur.mech.geo && cur.mech.exp ? '' : ` On a map this large the exponential and geometric mechanisms wait for it too: checking a matrix’s ε compares every pair of cells at every reported cell (${formatNumber(cur.n ** 3, 2)} steps).`;
    e.progress.dataset.state = 'waiting';
    replace(e.progress, h('p', { class: 'muted' },
      `The linear program (${lpSize(cur)}) may take from seconds to many minutes here; it runs on request, with its progress and a Cancel button.${others} `,
      h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-run'), text: others ? 'Compute the mechanisms' : 'Compute the optimal mechanism' })));
  }

  /** The progress line: a spinner, Cancel and a text, with room for the solver's numbers. */
  function busyLine(text) {
    e.progress.dataset.state = 'running';
    const line = e.progress.querySelector('[data-role="text"]');
    if (line) { line.textContent = text; return; }
    replace(e.progress, h('div', { class: 'cap-stats progress' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-lp' }, 'data-testid': ids('lp-cancel'), text: 'Cancel' }),
      h('span', { dataset: { role: 'text' }, text }),
      h('span', { class: 'geo-lp-stats', dataset: { role: 'stats' }, 'data-testid': ids('lp-stats') })));
  }

  // A progress report of the optimal mechanism's solver. The decomposition reports the expected
  // distance of the mechanism it holds (feasible: a mixture of private columns) and the lower
  // bound its prices prove on every mechanism's; their difference bounds how far the mechanism
  // held is from the optimum. A simplex fallback proves no bound before it ends.
  function showProgress(cur, p, t0) {
    const t = (performance.now() - t0) / 1000;
    const secs = t < 10 ? t.toFixed(1) : String(Math.round(t));
    busyLine(`Solving the linear program (${lpSize(cur)}): ${secs} s`);
    if (!p) return;
    const stats = e.progress.querySelector('[data-role="stats"]');
    if (p.phase !== 'decomposition' && p.phase !== 'output generation') {
      stats.textContent = `simplex, ${p.iteration} iterations (the simplex proves no bound before it ends)`;
      return;
    }
    // What is shown never goes back (state.js: progressTrack): the pivots of every phase, the
    // best mechanism found so far, the best bound proven and their gap.
    cur.track ??= S.progressTrack();
    const q = cur.track.add(p);
    cur.lastProgress = q;
    const num = (key, x, text) => {
      const el = h('output', { class: 'value', 'data-testid': ids(`lp-${key}`), dataset: { value: String(x) }, text });
      setReading(el, x, readingOf(`geo.progress.${key}`, x));
      return el;
    };
    const how = p.phase === 'output generation' ? 'the program restricted to the cells in use' : 'the master program';
    replace(stats,
      `${q.pivots.toLocaleString('en')} simplex pivots so far (now ${how}). Best mechanism found: expected distance `, num('value', q.value, formatNumber(q.value, 8)),
      ` cell sides; proven lower bound on the optimum${cur.spanner === null ? '' : ' (of the program on the spanner)'}: `,
      Number.isFinite(q.bound) ? num('bound', q.bound, formatNumber(q.bound, 8)) : `— (it comes after the first pricing round, which prices all ${cur.n} reported cells)`,
      Number.isFinite(q.bound) ? ' cell sides' : '',
      '; certified gap ', Number.isFinite(q.gap) ? num('gap', q.gap, formatGap(q.gap)) : '—', Number.isFinite(q.gap) ? ' cell sides.' : '.');
  }

  // Cancelled (or the worker failed): what was computed stays; the LP row says what happened,
  // with the last numbers the solver reported, and offers to compute again.
  function showStopped(cur, err) {
    if (current !== cur) return;
    const row = e.rows.lp;
    const abort = isAbort(err);
    row.tr.dataset.status = abort ? 'cancelled' : 'error';
    clearNumber(row.loss, '—');
    clearNumber(row.remapped, '—');
    clearNumber(row.eps, '—');
    for (const k of ['geo', 'exp']) if (!cur.mech[k] && e.rows[k].tr.dataset.status !== 'error') { e.rows[k].tr.dataset.status = 'waiting'; clearNumber(e.rows[k].loss, '—'); clearNumber(e.rows[k].remapped, '—'); clearNumber(e.rows[k].eps, '—'); e.rows[k].detail.textContent = ''; }
    const q = cur.lastProgress;
    const last = q && Number.isFinite(q.gap)
      ? ` When it stopped, the best mechanism the solver had found had expected distance ${formatNumber(q.value, 8)} cell sides, within ${formatGap(q.gap)} of the optimum (proven: no mechanism ${cur.spanner === null ? 'that is ε·d-private' : 'meeting the spanner’s constraints'} does better than ${formatNumber(q.bound, 8)}); the engine stops a computation by restarting its worker, so that mechanism is not kept.`
      : '';
    e.progress.dataset.state = abort ? 'cancelled' : 'error';
    replace(e.progress, h('p', { class: 'muted', 'data-testid': ids('lp-stopped') }, abort ? `The computation was cancelled.${last} ` : `The linear program failed: ${err.message} `,
      h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-run'), text: 'Compute again' })));
  }

  async function runLP(job, cur, clicked) {
    resetLP(cur);
    cur.lastProgress = null;
    cur.track = null;
    const opts = { metric: cur.Dm, epsilon: cur.eps, prior: cur.prior, loss: cur.Dm, timeLimit: LP_TIME_LIMIT_MS, onProgress: reportToJob };
    if (cur.spanner !== null) opts.spanner = cur.spanner;
    const t0 = performance.now();
    // The seconds tick between reports (the first comes after the first columns are priced).
    const tick = setInterval(() => {
      if (current === cur && e.progress.dataset.state === 'running' && e.progress.querySelector('[data-role="text"]')) showProgress(cur, null, t0);
    }, 1000);
    let r;
    try {
      [r] = await job.run([engine.plan.mechanism.optimalLP(opts)], { cancelStale: true, slowNow: clicked, slow: () => showProgress(cur, null, t0), onProgress: ([p]) => showProgress(cur, p, t0) });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      showStopped(cur, err);
      return;
    } finally {
      clearInterval(tick);
    }
    const ms = performance.now() - t0;
    replace(e.progress);
    delete e.progress.dataset.state;
    if (!r.ok) { showError('lp', r.error); return; }
    const lp = r.value;
    const m = await measure(job, cur, 'lp', S.rowsOf(lp.mechanism), {
      objective: lp.utility,
      bound: lp.bound,
      status: lp.status,
      gap: S.lossGap({ value: lp.utility, bound: lp.bound }),
      guaranteedEpsilon: lp.guaranteedEpsilon,
      spanner: lp.spanner ?? null,
      detail: `${lp.method || lp.path}, ${lp.iterations} iterations, ${lp.status}, ${formatNumber(ms / 1000)} s in this browser; ${lpSize(cur)}`,
    });
    replace(e.progress);
    delete e.progress.dataset.state;
    e.rows.lp.detail.dataset.ms = String(Math.round(ms));
    showGap(cur, m);
    setNumber(e.guaranteed, lp.guaranteedEpsilon, 'geo.guaranteed');
    e.guaranteedNote.textContent = lp.spanner
      ? `With the spanner (${lp.spanner.pairs} pairs of cells, dilation t = ${formatNumber(lp.spanner.dilation)} ≤ δ = ${formatNumber(cur.spanner)}), the program asks ε/δ on the spanner’s edges only, which guarantees ε·t/δ on every pair — a smaller (safer) ε than asked, for a slightly larger expected distance. ${cur.spannerDefaulted ? `δ = ${S.DEFAULT_SPANNER} is the default above ${S.EVERY_PAIR_MAX_SIDE} × ${S.EVERY_PAIR_MAX_SIDE}.` : `δ = ${formatNumber(cur.spanner)} as typed; clear the δ field to constrain every pair (the exact optimum).`}`
      : 'Every pair of cells is constrained: the mechanism is the exact optimum at ε.';
    e.guaranteedNote.textContent += ' Two ε for one mechanism: this guarantee is what the program’s constraints ask; the table’s “measured” ε is the smallest the matrix the solver returned satisfies, computed from its entries — above the guarantee only by what its floating-point solution misses a constraint by.';
    showComparison(cur, m);
  }

  // The certificate of the result: its expected distance minus the lower bound the solver's
  // dual solution proves on every mechanism meeting the program's constraints.
  function showGap(cur, m) {
    const ok = m.status === 'optimal';
    const of = cur.spanner === null ? 'every ε·d-private mechanism' : 'every mechanism meeting the spanner’s constraints (ε/δ on its edges)';
    replace(e.gap,
      h('span', { class: 'geo-status', 'data-testid': ids('lp-status'), dataset: { ok: String(ok) }, text: m.status }),
      ': certified gap (expected distance − proven lower bound) = ',
      withReading(h('output', { class: 'value', 'data-testid': ids('gap-value'), dataset: { value: String(m.gap) }, text: formatGap(m.gap) }), m.gap, 'geo.gap'),
      ' cell sides.',
      h('span', { class: 'hint geo-gap-meaning', text: ` The solver’s dual solution proves that ${of} has an expected distance of at least ${formatNumber(m.bound, 10)}, so this mechanism is at most the gap from the optimum${ok ? '' : ' — it was not verified optimal'}.` }));
  }

  function showComparison(cur, lp) {
    const others = ['exp', 'geo'].filter((k) => cur.mech[k] && Number.isFinite(cur.mech[k].loss));
    if (!others.length) return;
    // "% more" is relative to the optimum's distance, the base of the comparison.
    const parts = [];
    others.forEach((k, i) => {
      const pct = S.percentMore(cur.mech[k].loss, lp.loss);
      if (i) parts.push(' and ');
      parts.push(`${k === 'exp' ? 'the exponential' : 'the geometric'} ${formatNumber(cur.mech[k].loss)}`);
      if (Number.isFinite(pct)) parts.push(' (', h('span', { 'data-testid': ids(`more-${k}`), dataset: { value: String(pct) }, text: `${formatNumber(pct, 3)} % more` }), ')');
    });
    replace(e.comparison, `The ${cur.spanner === null ? 'optimal' : 'spanner-optimal'} mechanism reports a cell at ${formatNumber(lp.loss)} cell sides from the true one on average, against `, ...parts, '.');
  }

  // ------------------------------------------------------------ maps
  /** The map drawn as `key` ('prior' or a mechanism), for its SVG: title, values, cells. */
  function mapOf(cur, key) {
    const { cell } = cur;
    if (key === 'prior') return { title: 'Density π: where people are', values: cur.prior, side: cur.side, chosen: cell };
    const x = cur.mech[key];
    return x ? { title: `${MECH_NAMES[key][0].toUpperCase()}${MECH_NAMES[key].slice(1)} mechanism: reported cell given the true cell ${S.cellName(cell, cur.side)}`, values: x.K[cell], side: cur.side, chosen: cell } : null;
  }
  function saveMap(key) {
    const m = current && mapOf(current, key);
    if (!m) return;
    const text = mapSVG({ ...m, format: (v) => formatNumber(v, 4) });
    download(new Blob([text], { type: 'image/svg+xml' }), `location-map-${key}-${m.side}x${m.side}.svg`);
  }

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
      for (const [k, m] of Object.entries(cur.mech)) mech[k] = { loss: m.loss, remapped: m.remapped, epsilon: m.epsilon, guaranteedEpsilon: m.guaranteedEpsilon, epsilonPrime: m.epsilonPrime, bound: m.bound, status: m.status, gap: m.gap, row: m.K[cur.cell].slice() };
      return { side: cur.side, epsilon: cur.eps, spanner: cur.spanner, prior: cur.prior.slice(), cell: cur.cell, mechanisms: mech };
    },
  };
}
