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
// The logic (what is computed when, the LP's progress, Cancel, the sweep) is controller.js's;
// this file draws its state (with panels.js, optimal.js and sweep.js) and forwards what people
// do to it. root.dataset.busy is "true" while anything is scheduled or running.

import { addStylesheet } from '../../lib/dom.js';
import { readingOf, setReading } from '../../lib/readings.js';
import { formatNumber } from '../../lib/numbers.js';
import { scalingText } from '../../lib/mechanism-plan.js';
import * as S from './state.js';
import * as Plan from './plan.js';
import * as P from './panels.js';
import { buildSkeleton } from './skeleton.js';
import { drawLP, drawCertified } from './optimal.js';
import { drawSweep } from './sweep.js';
import { createMechanismController } from './controller.js';

const { setNumber, clearNumber } = P;
const MESSAGE_FIELDS = ['n', 'w', 'h', 'd', 'u', 'v', 'cn', 'edges', 'query', 'eps', 'labels', 'db-u', 'db-v', 'db-eps'];

export function mount(root, { engine }) {
  addStylesheet('sections/mechanism/style.css', 'mechanism');
  const e = buildSkeleton(root);
  const ctl = createMechanismController({ engine });
  root.dataset.busy = 'true';
  const st = () => ctl.get().inputs;

  // ------------------------------------------------------------ state → inputs
  function writeInputs() {
    const state = st();
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
    P.renderPriorTable(e, state.prior, ctl.get().labels, S.PRIOR_TABLE_MAX);
  }

  function updateVisibility() {
    const state = st();
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
    const r = S.parseEpsilon(st().epsilon);
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

  // Only the inputs the controller changed itself are written (never the one being typed in).
  function drawInputs(fields) {
    if (fields === 'all') { writeInputs(); return; }
    const state = st();
    if (fields.includes('preset')) {
      e.preset.value = 'custom';
      e.presetDesc.textContent = 'Your own graph and parameters.';
    }
    if (fields.includes('kind') || fields.includes('base')) updateVisibility();
    if (fields.includes('epsilonText')) e.eps.value = state.epsilon;
    if (fields.includes('epsilon')) syncRange();
    if (fields.includes('query')) e.query.value = state.query;
    if (fields.includes('priorTable')) P.renderPriorTable(e, state.prior, ctl.get().labels, S.PRIOR_TABLE_MAX);
  }

  // ------------------------------------------------------------ the controller's state → the page
  function drawMessages(m) {
    for (const k of MESSAGE_FIELDS) if (k in m) e.setMsg(k, m[k] || '');
    e.graphMsg.textContent = m.graph || '';
    e.priorMsg.textContent = m.prior || '';
    for (const inp of e.priorTable.querySelectorAll('input')) inp.classList.toggle('invalid', Boolean(m.prior) && (m.priorIndex === null || m.priorIndex === Number(inp.dataset.prior)));
  }

  function markStale() {
    e.boundCard.dataset.status = 'stale';
    for (const r of Object.values(e.rows)) r.tr.dataset.status = 'stale';
  }

  function drawStructure({ G, renderPrior, score }) {
    const state = st();
    if (renderPrior) P.renderPriorTable(e, state.prior, ctl.get().labels, S.PRIOR_TABLE_MAX);
    P.showSummary(e, G, state.kind === 'induced');
    e.gainNote.textContent = gainText(G, score);
    e.utilHead.textContent = state.gain === 'loss' ? 'Expected loss (lower is better)' : `Utility (${state.gain === 'binary' ? 'probability' : 'expected gain'})`;
  }

  function gainText(G, score) {
    const { gain } = st();
    if (score.error) return score.error;
    if (gain === 'binary') return 'Utility = probability that the optimal guess from the output is the true answer (2^(−H_∞(Y|Z)) for the uniform prior).';
    if (gain === 'distance') return `Gain of guessing z when the answer is y: max(0, 1 − d(y,z)/${formatNumber(G.diameter)}), with the graph’s diameter ${formatNumber(G.diameter)}${G.connected ? '' : ' (0 across components)'}.`;
    return 'Loss of reporting z when the answer is y: the graph distance d(y,z), |y − z| on a path. Mechanisms minimize the expected loss with the optimal remapping of outputs.';
  }

  function drawRow(k) {
    const cur = ctl.get().results;
    const row = e.rows[k];
    const r = cur.rows[k];
    if (r.error !== undefined) {
      clearNumber(row.util, 'n/a', r.error);
      clearNumber(row.eps, 'n/a');
      row.verdict.textContent = r.error || '';
      row.tr.dataset.status = 'error';
      return;
    }
    row.tr.dataset.status = 'ok';
    P.showMechRow(e, k, r.util, r.eps, cur.eps, P.utilityKey(st()));
  }

  function drawRowsDone() {
    const s = ctl.get();
    const cur = s.results;
    for (const k of ['tg', 'exp']) e.rows[k].detail.textContent = scalingText(k, cur.eps, cur.G.g, formatNumber);
    e.rows.rr.detail.textContent = '';
    e.rows.tc.detail.textContent = cur.matrices.tc ? 'built for ε·d: its privacy constraints against the diagonal are tight' : '';
    P.showThm62(e, cur.thm, cur.eps, s.inputs.kind === 'clique');
    P.renderHeatmaps(e, cur, s.inputs.show, s.labels, S.HEATMAP_MAX_ANSWERS);
  }

  function drawDB() {
    const { status, plan, results, message } = ctl.get().db;
    e.setMsg('db-u', plan.u.error);
    e.setMsg('db-v', plan.v.error);
    e.setMsg('db-eps', plan.e.error);
    if ('value' in plan.e) setNumber(e.dbExp, Math.exp(plan.e.value), 'mech.dbExpEpsilon'); else clearNumber(e.dbExp);
    if (!plan.calls) { e.dbCard.dataset.status = 'stale'; return; }
    if (status === 'error') e.db.leak.msg.textContent = message;
    else if (status === 'ok') { e.dbCard.dataset.status = 'ok'; P.showDB(e, plan.u.value, plan.v.value, results); }
  }

  ctl.subscribe((s, ev) => {
    switch (ev.type) {
      case 'change': if (ev.keys.includes('busy')) root.dataset.busy = String(s.busy); break;
      case 'inputs': drawInputs(ev.fields); break;
      case 'stale': markStale(); break;
      case 'messages': drawMessages(s.messages); break;
      case 'graphError':
        e.graphSummary.textContent = '';
        e.disconnected.textContent = '';
        e.disconnected.classList.remove('warn');
        break;
      case 'structure': drawStructure(ev); break;
      case 'bound': P.showBound(e, s.results.bound, s.results.G, s.labels, { uniformBinary: !s.inputs.prior && s.inputs.gain === 'binary' }); break;
      case 'row': drawRow(ev.key); break;
      case 'rows': drawRowsDone(); break;
      case 'lp': drawLP(e, s); break;
      case 'certified': drawCertified(e, s); break;
      case 'sweep': drawSweep(e, s); break;
      case 'heatmaps': P.renderHeatmaps(e, s.results, s.inputs.show, s.labels, S.HEATMAP_MAX_ANSWERS); break;
      case 'dbStale': e.dbCard.dataset.status = 'stale'; break;
      case 'db': drawDB(); break;
      default:
    }
  });

  // ------------------------------------------------------------ DOM events → the controller
  e.preset.addEventListener('change', () => ctl.choosePreset(e.preset.value));
  for (const [el, key] of [[e.kind, 'kind'], [e.base, 'base'], [e.gain, 'gain'], [e.tcMetric, 'tcMetric']]) el.addEventListener('change', () => ctl.setField(key, el.value));
  for (const k of ['n', 'w', 'h', 'd', 'u', 'v', 'cn']) e.field(k).addEventListener('input', (ev) => ctl.setField(k, ev.target.value));
  for (const [el, key] of [[e.edges, 'edges'], [e.query, 'query'], [e.labels, 'labels']]) el.addEventListener('input', () => ctl.setField(key, el.value));
  e.countButton.addEventListener('click', () => ctl.fillCountQuery());
  e.eps.addEventListener('input', () => ctl.setEpsilon(e.eps.value));
  e.epsRange.addEventListener('input', () => ctl.setEpsilon(String(Number(e.epsRange.value)), true));
  e.priorUniform.addEventListener('change', () => ctl.setPriorUniform(e.priorUniform.checked));
  e.priorTable.addEventListener('input', (ev) => ctl.setPriorEntry(Number(ev.target.dataset.prior), ev.target.value));
  e.show.addEventListener('change', () => ctl.setShow(e.show.value));
  for (const [k, key] of [['u', 'db-u'], ['v', 'db-v'], ['epsilon', 'db-eps']]) {
    e.field(key).addEventListener('input', (ev) => ctl.setDB(k, ev.target.value));
  }
  root.addEventListener('click', (ev) => {
    const act = ev.target.closest?.('button[data-action]')?.dataset.action;
    if (act === 'cancel-lp' || act === 'cancel-sweep') ctl.cancel();
    else if (act === 'run-lp') ctl.computeLP();
    else if (act === 'run-sweep') ctl.plotSweep();
  });

  // ------------------------------------------------------------ go
  writeInputs();
  ctl.start();

  return {
    getState: () => ctl.getState(),
    setState: (next) => ctl.setState(next),
    getResults: () => ctl.getResults(),
  };
}
