// sections/mechanism/optimal.js — draws the optimal mechanism's row of "Design a mechanism" from
// the controller's state (controller.js decides what runs: the linear program, or the closed form
// of Theorem 6.2 where it is exact, at once for a small graph, on request above S.LP_AUTO_ANSWERS
// answers, not at all above S.LP_MAX_ANSWERS; then the optimum certified in exact arithmetic).
//
//   drawLP(e, s)          s: the controller's state (s.lp, s.results, s.inputs, s.labels)
//   drawCertified(e, s)   s.certified
// e: the section's elements (skeleton.js). No computation and no state here.

import { h, replace } from '../../lib/dom.js';
import * as S from './state.js';
import * as P from './panels.js';
import { lpComparison } from './controller.js';

const { ids, setNumber, clearNumber } = P;

// The row emptied for a new state (`status`), with `mark` in place of its numbers.
function resetRow(e, status, mark) {
  const row = e.rows.lp;
  row.tr.dataset.status = status;
  P.showLPCertificate(e, null);
  P.showCertified(e, null);
  clearNumber(row.util, mark);
  clearNumber(row.eps, mark);
  row.verdict.textContent = '';
  row.detail.textContent = '';
  return row;
}

export function drawLP(e, s) {
  const { lp, results: cur, inputs: state, labels } = s;
  const row = e.rows.lp;
  switch (lp.status) {
    case 'unavailable': {
      resetRow(e, 'unavailable', 'n/a').detail.textContent = lp.message;
      replace(e.lpProgress);
      e.lpVerdict.textContent = '';
      P.renderHeatmaps(e, cur, state.show, labels, S.HEATMAP_MAX_ANSWERS);
      return;
    }
    case 'waiting': // beyond LP_AUTO_ANSWERS the program may take minutes: it runs on a click
      row.tr.dataset.status = 'waiting';
      clearNumber(row.util, '—');
      clearNumber(row.eps, '—');
      row.verdict.textContent = '';
      row.detail.textContent = '';
      e.lpVerdict.textContent = '';
      replace(e.lpProgress, h('p', { class: 'muted' },
        `The linear program has n² = ${(cur.G.n * cur.G.n).toLocaleString('en')} variables; above ${S.LP_AUTO_ANSWERS} answers it may take from seconds to minutes, so it runs on request. `,
        h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-compute'), text: 'Compute the optimal mechanism' })));
      return;
    case 'pending': resetRow(e, 'pending', '…'); return;
    case 'running': P.showLPProgress(e, lp.progress); return;
    case 'cancelled': case 'failed': P.showLPFailure(e, lp.status === 'cancelled', lp.message); return;
    case 'error':
      replace(e.lpProgress);
      row.tr.dataset.status = 'error';
      clearNumber(row.util, 'error', lp.message);
      clearNumber(row.eps, '—');
      row.detail.textContent = lp.message;
      return;
    case 'ok': {
      replace(e.lpProgress);
      const r = cur.lp;
      row.detail.textContent = r.path === 'closed-form'
        ? `Path taken: closed form (Theorem 6.2) — ${r.reason}.`
        : `Path taken: linear program (${r.variables} variables, ${r.constraints} constraints, ${r.iterations} iterations, ${r.status}) — ${r.reason}.`;
      row.detail.dataset.path = r.path;
      row.name.textContent = r.path === 'closed-form' ? 'Optimal mechanism (closed form)' : 'Optimal mechanism (LP)';
      row.tr.dataset.status = 'ok';
      P.showMechRow(e, 'lp', cur.rows.lp.util, cur.rows.lp.eps, cur.eps, P.utilityKey(state));
      P.showLPCertificate(e, r);
      P.showComparison(e, cur, lpComparison(cur), state.kind === 'clique');
      P.renderHeatmaps(e, cur, state.show, labels, S.HEATMAP_MAX_ANSWERS);
      return;
    }
    default:
  }
}

export function drawCertified(e, s) {
  const c = s.certified;
  if (c.status === 'pending') P.showCertifying(e, c.progress);
  else if (c.status === 'unavailable') P.showCertified(e, null, { why: c.why });
  else if (c.status === 'done') P.showCertified(e, c.result, { lpUtility: s.results.lp?.utility ?? NaN, loss: s.results.loss });
  else P.showCertified(e, null);
}

