// sections/mechanism/view.js — the "Design a mechanism" section on the page.
//
// The user picks an answer graph, ε, a prior on answers and a gain; the section shows the
// Theorem 6.1 utility bound and whether it is known to be tight, the optimal mechanism (the
// closed form where it is exact, else the LP — and which path it took), the Theorem 6.2 matrix
// with its actual ε beside the target, the classic mechanisms (built by lib/mechanism-plan.js, as
// in the <qif-mechanism> widget) with their utility and smallest ε on the graph, a
// utility-against-ε plot and heat maps; a second panel gives the database-domain bounds. The
// tight-constraints mechanism joins the classic ones for a metric chosen from presets (qif.metric).
// Where e^ε and the prior are rational as typed (ε = ln 2, say), the optimum is also certified in
// exact arithmetic (qif.exact.mechanism.optimal) and shown as a fraction beside the LP's decimal;
// the LP's own certificate (dual bound, residuals) is in the details under the table.
//
// One pipeline task runs the stages in order — graph → structure → matrices → utilities → LP
// → certified optimum → ε sweep — each an engine job planned by state.js; a newer input supersedes the run at its
// next stage, and the long jobs (LP, sweep) are cancelled then. root.dataset.busy is "true"
// while anything is scheduled or running.

import { addStylesheet } from '../../lib/dom.js';
import { readingOf, setReading } from '../../lib/readings.js';
import { formatNumber } from '../../lib/numbers.js';
import { createPipeline, Superseded } from '../../engine/pipeline.js';
import { scalingText, utilityValue } from '../../lib/mechanism-plan.js';
import * as S from './state.js';
import * as Plan from './plan.js';
import * as P from './panels.js';
import { buildSkeleton } from './skeleton.js';
import { optimalStage } from './optimal.js';
import { sweepStage } from './sweep.js';

const { setNumber, clearNumber } = P;
const AUTO_SWEEP_MAX = 16; // answers up to which the ε sweep runs by itself


const clone = (s) => JSON.parse(JSON.stringify(s));

export function mount(root, { engine }) {
  addStylesheet('sections/mechanism/style.css', 'mechanism');
  let state = { ...clone(S.DEFAULT_STATE), ...clone(S.presetById(S.DEFAULT_STATE.preset).state) };
  const e = buildSkeleton(root);
  const pipe = createPipeline({ engine, onBusy: (b) => { root.dataset.busy = String(b); } });
  root.dataset.busy = 'true';
  let labels = [];
  let lastN = null;
  let priorSig = null;
  let graphCache = { key: null, value: null };
  const optimal = optimalStage({ e, engine, getState: () => state, getLabels: () => labels });
  const sweep = sweepStage({ e, getState: () => state });
  let current = null; // {G, eps, prior, score, scoreError, loss, matrices, thm, lp, mechEps, utils}

  // ------------------------------------------------------------ state → inputs
  function writeInputs() {
    e.preset.value = state.preset && S.presetById(state.preset) ? state.preset : 'custom';
    e.presetDesc.textContent = S.presetById(state.preset)?.description ?? 'Your own graph and parameters.';
    e.kind.value = state.kind;
    e.base.value = state.base;
    for (const k of ['n', 'w', 'h', 'd', 'u', 'v', 'cn']) e.field(k).value = state[k];
    e.edges.value = state.edges;
    e.query.value = state.query;
    e.labels.value = state.labels;
    e.eps.value = state.epsilon;
    syncRange();
    e.priorUniform.checked = !state.prior;
    e.gain.value = state.gain;
    e.show.value = state.show;
    e.tcMetric.value = state.tcMetric;
    e.field('db-u').value = state.db.u;
    e.field('db-v').value = state.db.v;
    e.field('db-eps').value = state.db.epsilon;
    updateVisibility();
    priorSig = null;
    P.renderPriorTable(e, state.prior, labels, S.PRIOR_TABLE_MAX);
  }

  function updateVisibility() {
    const need = Plan.KIND_FIELDS[Plan.activeKind(state)] ?? [];
    for (const el of root.querySelectorAll('.mech-field[data-field]')) {
      const f = el.dataset.field;
      if (f === 'labels' || f.startsWith('db-')) continue;
      if (f === 'base' || f === 'query') el.hidden = state.kind !== 'induced';
      else el.hidden = !need.includes(f);
    }
    e.countButton.disabled = !(state.kind === 'induced' && state.base === 'hamming');
    e.fields.n.querySelector('label').textContent = state.kind === 'induced' ? 'Inputs n' : 'Answers n';
  }

  function syncRange() {
    const r = S.parseEpsilon(state.epsilon);
    if ('value' in r) {
      e.epsRange.value = String(Math.min(5, Math.max(0.01, r.value)));
      setNumber(e.epsExp, Math.exp(r.value), 'mech.expEpsilon');
      e.epsValue.textContent = `ε = ${formatNumber(r.value)} nats`;
      setReading(e.epsValue, r.value, readingOf('mech.epsilonTyped', r.value));
    } else {
      clearNumber(e.epsExp);
      e.epsValue.textContent = '';
    }
  }

  // ------------------------------------------------------------ events
  function edited() {
    if (state.preset) {
      state.preset = null;
      e.preset.value = 'custom';
      e.presetDesc.textContent = 'Your own graph and parameters.';
    }
    schedule();
  }

  e.preset.addEventListener('change', () => {
    const p = S.presetById(e.preset.value);
    if (!p) return;
    state = { ...clone(S.DEFAULT_STATE), ...clone(p.state), preset: p.id, db: state.db };
    writeInputs();
    schedule(true);
  });
  e.kind.addEventListener('change', () => { state.kind = e.kind.value; updateVisibility(); edited(); });
  e.base.addEventListener('change', () => { state.base = e.base.value; updateVisibility(); edited(); });
  for (const k of ['n', 'w', 'h', 'd', 'u', 'v', 'cn']) e.field(k).addEventListener('input', (ev) => { state[k] = ev.target.value; edited(); });
  e.edges.addEventListener('input', () => { state.edges = e.edges.value; edited(); });
  e.query.addEventListener('input', () => { state.query = e.query.value; edited(); });
  e.labels.addEventListener('input', () => { state.labels = e.labels.value; edited(); });
  e.countButton.addEventListener('click', () => {
    const u = S.parseCount(state.u, 'u', 1, 12);
    const v = S.parseCount(state.v, 'v', 2, 64);
    if ('error' in u || 'error' in v || v.value ** u.value > 4096) { e.setMsg('query', 'set u and v first (at most 4096 databases)'); return; }
    state.query = S.countQuery(u.value, v.value).join(', ');
    e.query.value = state.query;
    edited();
  });
  e.eps.addEventListener('input', () => { state.epsilon = e.eps.value; syncRange(); edited(); });
  e.epsRange.addEventListener('input', () => {
    state.epsilon = String(Number(e.epsRange.value));
    e.eps.value = state.epsilon;
    syncRange();
    edited();
  });
  e.priorUniform.addEventListener('change', () => {
    state.prior = e.priorUniform.checked ? null : new Array(lastN ?? 1).fill(`1/${lastN ?? 1}`);
    P.renderPriorTable(e, state.prior, labels, S.PRIOR_TABLE_MAX);
    edited();
  });
  e.priorTable.addEventListener('input', (ev) => {
    const i = Number(ev.target.dataset.prior);
    if (!Number.isInteger(i) || !state.prior) return;
    state.prior[i] = ev.target.value;
    edited();
  });
  e.gain.addEventListener('change', () => { state.gain = e.gain.value; edited(); });
  e.show.addEventListener('change', () => { state.show = e.show.value; P.renderHeatmaps(e, current, state.show, labels, S.HEATMAP_MAX_ANSWERS); });
  e.tcMetric.addEventListener('change', () => { state.tcMetric = e.tcMetric.value; edited(); });
  for (const [k, key] of [['u', 'db-u'], ['v', 'db-v'], ['epsilon', 'db-eps']]) {
    e.field(key).addEventListener('input', (ev) => { state.db[k] = ev.target.value; scheduleDB(); });
  }
  root.addEventListener('click', (ev) => {
    const act = ev.target.closest?.('button[data-action]')?.dataset.action;
    if (act === 'cancel-lp' || act === 'cancel-sweep') { main.cancel(); again.cancel(); } else if (act === 'run-lp') again.now('lp');
    else if (act === 'run-sweep') again.now('sweep');
  });

  // ------------------------------------------------------------ the pipeline
  const main = pipe.task((job) => recompute(job));
  // "Compute again" and "Plot": one stage of the current run, on its own.
  const again = pipe.task(async (job, what) => {
    if (!current) return;
    if (what === 'lp') await optimal.runLP(job, current, true);
    else await sweep.runSweep(job, current);
  });
  const db = pipe.task((job) => computeDB(job));

  function schedule(now = false) {
    markStale();
    again.supersede();
    if (now) main.now(); else main.schedule();
  }
  function scheduleDB() {
    e.dbCard.dataset.status = 'stale';
    db.schedule();
  }

  function markStale() {
    e.boundCard.dataset.status = 'stale';
    for (const r of Object.values(e.rows)) r.tr.dataset.status = 'stale';
  }

  function clearInputMessages() {
    for (const k of ['n', 'w', 'h', 'd', 'u', 'v', 'cn', 'edges', 'query', 'eps', 'labels']) e.setMsg(k, '');
    e.graphMsg.textContent = '';
  }

  function showGraphError(err) {
    e.graphSummary.textContent = '';
    e.disconnected.textContent = '';
    e.disconnected.classList.remove('warn');
    if (['n', 'w', 'h', 'd', 'u', 'v', 'cn', 'edges', 'query'].includes(err.field)) e.setMsg(err.field, err.message);
    else e.graphMsg.textContent = err.message;
  }

  const fieldError = (message, field) => Object.assign(new Error(message), { field });

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

  async function recompute(job) {
    again.cancel(); // a long stage restarted by hand is about older inputs
    clearInputMessages();
    const eps = S.parseEpsilon(state.epsilon);
    if ('error' in eps) e.setMsg('eps', eps.error);
    const plan = Plan.graphPlan(state);
    if ('error' in plan) showGraphError(fieldError(plan.error, plan.field));
    if ('error' in plan || 'error' in eps) { markStale(); return; }
    let G;
    try {
      G = await buildGraph(job, plan);
    } catch (err) {
      if (err instanceof Superseded) throw err;
      showGraphError(err);
      markStale();
      return;
    }

    // Structure: summary, labels, prior table.
    const lab = S.answerLabels(state.labels, G.n);
    labels = lab.labels;
    e.setMsg('labels', lab.error || '');
    lastN = G.n;
    if (state.prior && state.prior.length !== G.n) {
      // The number of answers changed: keep the entries there are, new answers get 0.
      state.prior = state.prior.slice(0, G.n);
      while (state.prior.length < G.n) state.prior.push('0');
    }
    // Rebuild the table only when its shape or labels changed, never while typing in it.
    const sig = JSON.stringify([state.prior?.length ?? 0, labels]);
    if (sig !== priorSig) { priorSig = sig; P.renderPriorTable(e, state.prior, labels, S.PRIOR_TABLE_MAX); }
    P.showSummary(e, G, state.kind === 'induced');
    const prior = S.parsePrior(state.prior, G.n);
    e.priorMsg.textContent = 'error' in prior ? prior.error : '';
    for (const inp of e.priorTable.querySelectorAll('input')) inp.classList.toggle('invalid', 'error' in prior && (prior.index === undefined || prior.index === Number(inp.dataset.prior)));
    const score = S.scoreMatrix(state.gain, G.D, G.diameter);
    e.gainNote.textContent = gainText(G, score);
    const loss = state.gain === 'loss';
    e.utilHead.textContent = loss ? 'Expected loss (lower is better)' : `Utility (${state.gain === 'binary' ? 'probability' : 'expected gain'})`;

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
    P.showBound(e, mats.bound, G, labels, { uniformBinary: !state.prior && state.gain === 'binary' });
    const cur = { G, eps: eps.value, prior: prior.value ?? null, score: score.matrix ?? null, scoreError: score.error, loss, matrices: mats.matrices, thm: mats.thm, lp: null, mechEps: {}, utils: {}, tcMetric, certified: null };
    current = cur;

    // Utilities and ε of each mechanism.
    const up = Plan.utilitiesPlan(G, mats.matrices, cur);
    const out = await job.run(up.calls);
    for (const k of Plan.CLASSIC) {
      const row = e.rows[k];
      row.tr.dataset.status = 'ok';
      if (!mats.matrices[k]) {
        clearNumber(row.util, 'n/a', mats.errors[k]);
        clearNumber(row.eps, 'n/a');
        row.verdict.textContent = mats.errors[k] || '';
        row.tr.dataset.status = 'error';
        continue;
      }
      const epsR = out[up.at[k].eps];
      const utilR = up.at[k].util === undefined ? null : out[up.at[k].util];
      cur.mechEps[k] = epsR.ok ? epsR.value : NaN;
      cur.utils[k] = utilR && utilR.ok ? utilityValue(utilR.value, cur) : NaN;
      P.showMechRow(e, k, utilR && utilR.ok ? { ok: true, value: cur.utils[k] } : utilR, epsR, cur.eps, P.utilityKey(state));
    }
    for (const k of ['tg', 'exp']) e.rows[k].detail.textContent = scalingText(k, cur.eps, G.g, formatNumber);
    e.rows.rr.detail.textContent = '';
    e.rows.tc.detail.textContent = mats.matrices.tc ? 'built for ε·d: its privacy constraints against the diagonal are tight' : '';
    P.showThm62(e, cur.thm, cur.eps, state.kind === 'clique');
    P.renderHeatmaps(e, cur, state.show, labels, S.HEATMAP_MAX_ANSWERS);
    if (G.n <= S.LP_AUTO_ANSWERS && cur.prior && !score.error) await optimal.runLP(job, cur);
    else if (G.n <= S.LP_MAX_ANSWERS && cur.prior && !score.error) optimal.offerLP(cur);
    else optimal.showLPUnavailable(cur, score);
    job.check();
    if (G.n <= AUTO_SWEEP_MAX) await sweep.runSweep(job, cur);
    else sweep.showSweepButton();
  }

  function gainText(G, score) {
    if (score.error) return score.error;
    if (state.gain === 'binary') return 'Utility = probability that the optimal guess from the output is the true answer (2^(−H_∞(Y|Z)) for the uniform prior).';
    if (state.gain === 'distance') return `Gain of guessing z when the answer is y: max(0, 1 − d(y,z)/${formatNumber(G.diameter)}), with the graph’s diameter ${formatNumber(G.diameter)}${G.connected ? '' : ' (0 across components)'}.`;
    return 'Loss of reporting z when the answer is y: the graph distance d(y,z), |y − z| on a path. Mechanisms minimize the expected loss with the optimal remapping of outputs.';
  }

  // ------------------------------------------------------------ database panel
  async function computeDB(job) {
    const plan = Plan.dbPlan(state.db);
    e.setMsg('db-u', plan.u.error);
    e.setMsg('db-v', plan.v.error);
    e.setMsg('db-eps', plan.e.error);
    if ('value' in plan.e) setNumber(e.dbExp, Math.exp(plan.e.value), 'mech.dbExpEpsilon'); else clearNumber(e.dbExp);
    if (!plan.calls) { e.dbCard.dataset.status = 'stale'; return; }
    let res;
    try {
      res = await job.run(plan.calls);
    } catch (err) {
      if (err instanceof Superseded) throw err;
      e.db.leak.msg.textContent = err.message;
      return;
    }
    e.dbCard.dataset.status = 'ok';
    P.showDB(e, plan.u.value, plan.v.value, res);
  }

  // ------------------------------------------------------------ go
  writeInputs();
  schedule(true);
  db.now();

  return {
    getState: () => clone(state),
    setState(next) {
      if (!next || typeof next !== 'object') return;
      state = S.sanitizeState(next);
      writeInputs();
      schedule(true);
      scheduleDB();
    },
    /** What the section shows, as data: the graph, ε, the bound and every mechanism's matrix. */
    getResults() {
      const cur = current;
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
      return { graph: { n: cur.G.n, edges: cur.G.g.edges.map((x) => x.slice()) }, labels: labels.slice(), epsilon: cur.eps, prior: cur.prior, mechanisms: mech, sweep: cur.sweep ?? null };
    },
  };
}
