// sections/mechanism/optimal.js — the optimal mechanism's row of "Design a mechanism": the
// linear program (or the closed form of Theorem 6.2 where it is exact) run at once for a small
// graph, on request above S.LP_AUTO_ANSWERS answers, and not at all above S.LP_MAX_ANSWERS; its
// actual ε on the graph; then the optimum certified in exact arithmetic (qif.exact.mechanism.optimal)
// where e^ε and the prior are rational as typed.
//
//   const optimal = optimalStage({ e, engine, getState, getLabels })   e: the section's elements (panels.js)
//   optimal.runLP(job, cur, clicked?)   optimal.offerLP(cur)   optimal.showLPUnavailable(cur, score)

import { h, replace } from '../../lib/dom.js';
import { Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import * as S from './state.js';
import * as Plan from './plan.js';
import * as P from './panels.js';

const { ids, setNumber, clearNumber } = P;
/** The longest the page lets one linear program run. */
export const LP_TIME_LIMIT_MS = 120000;

export function optimalStage({ e, engine, getState, getLabels }) {
  // The row emptied for a new state (`status`), with `mark` in place of its numbers.
  function resetRow(status, mark) {
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

  function showLPUnavailable(cur, score) {
    const row = resetRow('unavailable', 'n/a');
    if (!cur.prior) row.detail.textContent = 'Fix the prior to compute the optimal mechanism.';
    else if (score.error) row.detail.textContent = score.error;
    else row.detail.textContent = `The linear program has n² = ${(cur.G.n * cur.G.n).toLocaleString('en')} variables: too large for the page (limit ${S.LP_MAX_ANSWERS} answers). The bound and the Theorem 6.2 mechanism are shown instead.`;
    replace(e.lpProgress);
    e.lpVerdict.textContent = '';
    P.renderHeatmaps(e, cur, getState().show, getLabels(), S.HEATMAP_MAX_ANSWERS);
  }

  // Beyond LP_AUTO_ANSWERS the program may take from seconds to minutes: it runs on a click.
  function offerLP(cur) {
    const row = e.rows.lp;
    row.tr.dataset.status = 'waiting';
    clearNumber(row.util, '—');
    clearNumber(row.eps, '—');
    row.verdict.textContent = '';
    row.detail.textContent = '';
    e.lpVerdict.textContent = '';
    replace(e.lpProgress, h('p', { class: 'muted' },
      `The linear program has n² = ${(cur.G.n * cur.G.n).toLocaleString('en')} variables; above ${S.LP_AUTO_ANSWERS} answers it may take from seconds to minutes, so it runs on request. `,
      h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-compute'), text: 'Compute the optimal mechanism' })));
  }

  async function runLP(job, cur, clicked = false) {
    const row = resetRow('pending', '…');
    const call = Plan.optimalCall(cur, LP_TIME_LIMIT_MS);
    let r;
    try {
      [r] = await job.run([call], { cancelStale: true, slowNow: clicked, slow: () => P.showLPProgress(e, null), onProgress: ([p]) => P.showLPProgress(e, p) });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      P.showLPFailure(e, isAbort(err), err.message);
      return;
    }
    replace(e.lpProgress);
    if (!r.ok) {
      row.tr.dataset.status = 'error';
      clearNumber(row.util, 'error', r.error);
      clearNumber(row.eps, '—');
      row.detail.textContent = r.error;
      return;
    }
    const lp = r.value;
    cur.lp = lp;
    cur.utils.lp = lp.utility;
    setNumber(row.util, lp.utility, P.utilityKey(getState()));
    row.detail.textContent = lp.path === 'closed-form'
      ? `Path taken: closed form (Theorem 6.2) — ${lp.reason}.`
      : `Path taken: linear program (${lp.variables} variables, ${lp.constraints} constraints, ${lp.iterations} iterations, ${lp.status}) — ${lp.reason}.`;
    row.detail.dataset.path = lp.path;
    row.name.textContent = lp.path === 'closed-form' ? 'Optimal mechanism (closed form)' : 'Optimal mechanism (LP)';
    const [er] = await job.run([engine.plan.privacy.epsilon(lp.mechanism, cur.G.g)]);
    row.tr.dataset.status = 'ok';
    cur.mechEps.lp = er.ok ? er.value : NaN;
    P.showMechRow(e, 'lp', { ok: true, value: lp.utility }, er, cur.eps, P.utilityKey(getState()));
    P.showLPCertificate(e, lp);
    P.showComparison(e, cur, getState().kind === 'clique');
    P.renderHeatmaps(e, cur, getState().show, getLabels(), S.HEATMAP_MAX_ANSWERS);
    await runCertified(job, cur);
  }

  // The optimum in exact arithmetic, when e^ε and the prior are rational as typed: its value
  // beside the LP's decimal, labelled "certified" (the engine checks primal and dual exactly).
  async function runCertified(job, cur) {
    const plan = Plan.certifiedPlan(getState(), cur.G);
    if (plan.why) {
      P.showCertified(e, null, { why: plan.why });
      return;
    }
    let r;
    try {
      [r] = await job.run([plan.call], { cancelStale: true, slow: () => P.showCertifying(e, null), onProgress: ([p]) => P.showCertifying(e, p) });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      r = { ok: false, error: isAbort(err) ? 'cancelled' : err.message };
    }
    cur.certified = r.ok ? { expEpsilon: plan.expEpsilon, ...r.value } : null;
    P.showCertified(e, r, { lpUtility: cur.lp.utility, loss: cur.loss });
  }

  return { showLPUnavailable, offerLP, runLP };
}
