// sections/compare/view.js — "Compare two mechanisms": is mechanism B safe in place of A? Two
// channel editors on the same secrets, the three refinement orders decided in the worker
// (qif.refine.avg / max / prv) with the implication chain ⊑avg ⇒ ⊑max ⇒ ⊑prv, each verdict's
// witness or counterexample, the ⊑prv meet and join, the posteriors on the simplex for three
// secrets (simplex-card.js) and the safe-ε curves (curves.js). Beside the verdicts,
// how much more B can leak than A for a prior (refine.additiveMetric, with the gain function
// that attains it); below, the distances between the output distributions of two secrets in A
// and in B (qif.metric), for a ground metric on outputs chosen from presets.
//
// Direction (docs/mathematics.md#refinement): A ⊑ B reads "B refines A": B is at least as safe
// as A, so B can replace A.
//
// The logic (the channels, their validation, the families, the verdicts, the leak) is
// controller.js's; this file draws its state and forwards what people do to it.
// root.dataset.busy is "true" while anything is pending.

import { h, replace, addStylesheet, setFieldMessage } from '../../lib/dom.js';
import { sourceRefs } from '../../lib/formulas.js';
import { EXAMPLES } from './presets.js';
import { mountSimplex } from './simplex-card.js';
import { mountLattice } from './lattice-card.js';
import { mountDistances } from './distances-card.js';
import { mountCurves } from './curves.js';
import * as D from './details.js';
import { buildEditor, renderEditorHead, renderENote, renderTable, showValidation } from './editor.js';
import { createCompareController, DEFAULT_EXAMPLE } from './controller.js';

const KEYS = ['A', 'B'];
const { ORDERS } = D;

export function mount(root, { engine }) {
  addStylesheet('sections/compare/style.css', 'compare');
  const ctl = createCompareController({ engine });
  const { pipe } = ctl;
  root.dataset.busy = 'true';

  // ------------------------------------------------------------ DOM
  const exampleSelect = h('select', { id: 'cmp-example', 'data-testid': 'cmp-example' },
    h('option', { value: '', text: 'Custom (edited)', disabled: true }),
    EXAMPLES.map((e) => h('option', { value: e.id, text: e.name })));
  const exampleText = h('p', { class: 'muted', 'data-testid': 'cmp-example-description' });
  const swapBtn = h('button', { type: 'button', 'data-testid': 'cmp-swap', text: 'Swap A ↔ B' });
  const editors = {};
  const on = {
    family: (K, id) => ctl.setFamily(K, id),
    param: (K, key, text) => ctl.setParam(K, key, text),
    cell: (K, input) => {
      input.removeAttribute('title');
      ctl.setCell(K, Number(input.dataset.r), Number(input.dataset.c), input.value);
    },
    remove: (K, action, i) => ctl.remove(K, action, i),
    paste: (K, ev) => {
      const input = ev.target;
      if (input.dataset.r === undefined) return;
      if (ctl.paste(K, Number(input.dataset.r), Number(input.dataset.c), ev.clipboardData?.getData('text/plain') ?? '')) ev.preventDefault();
    },
    randomize: (K) => ctl.randomize(K),
    postProcess: () => ctl.postProcess(),
    addRow: () => ctl.addRow(),
    addCol: (K) => ctl.addCol(K),
  };
  for (const K of KEYS) editors[K] = buildEditor(K, on);
  const chainEl = h('div', { class: 'cmp-chain', 'data-testid': 'cmp-chain', role: 'list', 'aria-label': 'Verdicts for A ⊑ B' });
  const reverseEl = h('div', { class: 'cmp-reverse', 'data-testid': 'cmp-reverse' });
  const summaryEl = h('p', { class: 'cmp-summary', 'data-testid': 'cmp-summary', 'aria-live': 'polite' });
  const progressEl = h('div', { class: 'cmp-progress', hidden: true },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' Deciding the three orders… ',
    h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-cancel', text: 'Cancel', on: { click: () => ctl.cancelVerdicts() } }));
  const detailEls = Object.fromEntries(ORDERS.map((o) => [o.id, h('div', { class: 'cmp-detail', 'data-testid': `detail-${o.id}` })]));
  const simplex = mountSimplex({ engine, pipe });
  const lattice = mountLattice(ctl);
  const curvesCard = h('section', { class: 'card cmp-curves', 'aria-labelledby': 'curves-title', 'data-testid': 'cmp-curves' });
  const textInput = (id, title, value) => h('input', { id, type: 'text', class: 'num', 'data-testid': id, autocomplete: 'off', spellcheck: 'false', title, value });
  const priorInput = textInput('cmp-prior', 'the prior on the secrets: uniform, or one probability per secret (e.g. 1/2, 1/4, 1/4)', ctl.model.prior || 'uniform');
  priorInput.classList.add('wide');
  const priorMsg = h('span', { class: 'msg', id: 'cmp-prior-msg' });
  const leakEl = h('div', { class: 'cmp-leak-out', 'data-testid': 'cmp-leak', 'aria-live': 'polite', dataset: { status: 'pending' } });
  const distances = mountDistances({ pipe, state: ctl.model, channels: ctl.channels, generating: ctl.generating });

  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'compare-title', text: 'Compare two mechanisms' }),
      h('p', {},
        'Is mechanism ', h('var', { text: 'B' }), ' safe in place of ', h('var', { text: 'A' }), '? Give two channels on the same secrets. ',
        h('var', { text: 'A' }), ' ⊑ ', h('var', { text: 'B' }), ' means ', h('var', { text: 'B' }), ' refines ', h('var', { text: 'A' }),
        ': every adversary of the order learns no more from B than from A. Three orders are decided (Chatzikokolakis, Fernandes, Palamidessi, CSF 2019), from the strongest to the weakest; a failing order comes with a concrete adversary that prefers B, checked by computing both sides.')),
    h('div', { class: 'card cmp-example-card' },
      h('div', { class: 'preset-row' }, h('label', { for: 'cmp-example', text: 'Example pair' }), exampleSelect, swapBtn),
      exampleText),
    h('div', { class: 'cmp-editors' }, editors.A.card, editors.B.card),
    h('section', { class: 'card cmp-verdicts', 'aria-labelledby': 'cmp-verdicts-title', 'data-testid': 'cmp-verdicts' },
      h('div', { class: 'card-head' }, h('h3', { id: 'cmp-verdicts-title', text: 'Is B safe in place of A?' }), sourceRefs('Chatzikokolakis et al. (CSF 2019) §3–5, Table 3')),
      chainEl,
      h('p', { class: 'hint cmp-chain-note', text: 'The implications ⊑avg ⇒ ⊑max ⇒ ⊑prv always hold, and none reverses (Chatzikokolakis et al., CSF 2019, Theorems 3–4): a green box forces every box to its right to be green.' }),
      summaryEl, progressEl, reverseEl,
      h('div', { class: 'cmp-leak', 'data-testid': 'cmp-leak-box' },
        h('h4', { text: 'How much more can B leak than A?' }),
        h('p', { class: 'hint', text: 'The largest V_g[π▷B] − V_g[π▷A] over every gain function g bounded by 1 with a guess that gains nothing — a number where ⊑avg only says yes or no (0 exactly when A ⊑avg B for the prior π).' }),
        h('div', { class: 'cmp-field' }, h('label', { for: 'cmp-prior', text: 'Prior π' }), priorInput, priorMsg),
        leakEl),
      h('div', { class: 'cmp-details' }, ORDERS.map((o) => detailEls[o.id]))),
    h('div', { class: 'layout cmp-lower' },
      simplex.card,
      lattice.card),
    distances.card,
    curvesCard);

  const curves = mountCurves(curvesCard, { engine, pipe });

  priorInput.addEventListener('input', () => ctl.setPrior(priorInput.value));
  exampleSelect.addEventListener('change', () => ctl.loadExample(exampleSelect.value));
  swapBtn.addEventListener('click', () => ctl.swap());

  // ------------------------------------------------------------ the controller's state → DOM
  // What each editor shows was drawn for these versions and values of the store.
  const drawn = { A: {}, B: {} };
  function renderEditors(s) {
    for (const K of KEYS) {
      const ed = editors[K];
      const d = drawn[K];
      const ch = ctl.model.ch[K];
      if (d.head !== s.heads[K]) {
        renderEditorHead(ed, ch, ctl.model.n, s.trueEps[K]);
        d.head = s.heads[K];
        d.eNote = s.eNotes[K];
      } else if (d.eNote !== s.eNotes[K]) {
        renderENote(ed, ch.source, s.trueEps[K]);
        d.eNote = s.eNotes[K];
      }
      if (d.table !== s.tables[K]) {
        renderTable(ed, ch);
        d.table = s.tables[K];
      }
      if (d.checked !== s.checked[K] || d.paste !== s.pasteError[K] || d.notice !== s.notice[K]) {
        if (s.checked[K]) showValidation(ed, s.checked[K], s.pasteError[K]);
        if (s.notice[K]) replace(ed.errors, h('li', { text: s.notice[K] }));
        Object.assign(d, { checked: s.checked[K], paste: s.pasteError[K], notice: s.notice[K] });
      }
      if (d.msgs !== s.familyMsgs[K]) {
        setFieldMessage(ed.eps, ed.epsMsg, s.familyMsgs[K].eps);
        setFieldMessage(ed.m, ed.mMsg, s.familyMsgs[K].m);
        d.msgs = s.familyMsgs[K];
      }
    }
  }

  function markPending() {
    for (const box of chainEl.querySelectorAll('.order-box')) box.dataset.status = 'pending';
    reverseEl.dataset.status = 'pending';
    for (const o of ORDERS) detailEls[o.id].dataset.status = 'pending';
    leakEl.dataset.status = 'pending';
    distances.markPending();
  }

  function drawSimplex(s) {
    const { checked } = s;
    simplex.draw({ n: ctl.model.n, A: checked.A?.matrix ?? null, B: checked.B?.matrix ?? null, max: s.verdicts?.forward?.[1] ?? null });
  }

  function renderVerdicts(v) {
    D.renderChain(chainEl, v.forward);
    summaryEl.textContent = v.summary;
    D.renderReverse(reverseEl, v.forward, v.reverse);
    D.renderAvg(detailEls.avg, v.forward[0], v.avgCheck);
    D.renderMax(detailEls.max, v.forward[1]);
    D.renderPrv(detailEls.prv, v.forward[2]);
  }

  // No verdicts (invalid channels, cancelled, failed): the same message in every box.
  function renderNoVerdicts(msg) {
    D.renderChain(chainEl, null);
    summaryEl.textContent = msg;
    replace(reverseEl);
    for (const o of ORDERS) {
      detailEls[o.id].dataset.status = 'invalid';
      replace(detailEls[o.id], h('h4', { text: `${o.name} (${o.sym})` }), h('p', { class: 'muted', text: msg }));
    }
  }

  function renderDecision(s) {
    const { status, message } = s.decision;
    if (status === 'pending') markPending();
    else if (status === 'done') renderVerdicts(s.verdicts);
    else renderNoVerdicts(message);
    if (status !== 'cancelled') drawSimplex(s);
  }

  function renderLeak(leak) {
    if (leak.status === 'pending') { leakEl.dataset.status = 'pending'; return; }
    if (leak.status === 'invalid') {
      leakEl.dataset.status = 'invalid';
      replace(leakEl, h('p', { class: 'muted', text: leak.message }));
      return;
    }
    D.renderLeak(leakEl, leak.r, { mA: leak.mA, mB: leak.mB, uniform: leak.uniform });
  }

  ctl.subscribe((s, changed) => {
    const has = (k) => changed.includes(k);
    if (has('example')) {
      exampleSelect.value = s.example.id;
      exampleText.textContent = s.example.text;
    }
    if (has('restored')) {
      priorInput.value = ctl.model.prior || 'uniform';
      distances.restore();
    }
    if (['heads', 'tables', 'eNotes', 'checked', 'pasteError', 'notice', 'familyMsgs'].some(has)) renderEditors(s);
    if (has('decision')) renderDecision(s);
    if (has('deciding')) progressEl.hidden = !s.deciding;
    if (has('priorError')) setFieldMessage(priorInput, priorMsg, s.priorError);
    if (has('leak')) renderLeak(s.leak);
    if (has('changes')) distances.schedule();
    if (has('busy')) root.dataset.busy = String(s.busy);
  });

  function getState() {
    const s = ctl.getState();
    return { example: s.example, n: s.n, A: s.A, B: s.B, curves: curves.getState(), prior: s.prior, dist: s.dist };
  }
  function setState(s) {
    if (!s || typeof s !== 'object') return;
    if (s.curves) curves.setState(s.curves);
    ctl.setState(s);
  }
  /** The channels and the verdicts shown, as data. */
  function getResults() {
    // The distances between rows x and x′: {x, x2, metric, results: {A, B}} (DISTANCES order).
    return { ...ctl.getResults(), distances: distances.last };
  }

  ctl.loadExample(DEFAULT_EXAMPLE);
  return { getState, setState, getResults };
}
