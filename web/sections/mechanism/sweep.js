// sections/mechanism/sweep.js — the utility-against-ε plot of "Design a mechanism": one
// mechanism of each kind per ε of a grid that includes the chosen ε (and one optimal mechanism per
// ε where a linear program is quick), with progress and Cancel.
//
//   const sweep = sweepStage({ e, getState })   e: the section's elements (panels.js)
//   sweep.runSweep(job, cur)   sweep.showSweepButton()

import { h, replace } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { linePlot, PALETTE } from '../../lib/plot.js';
import { Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { utilityValue } from '../../lib/mechanism-plan.js';
import * as S from './state.js';
import * as Plan from './plan.js';
import { ids } from './panels.js';
import { LP_TIME_LIMIT_MS } from './optimal.js';

export function sweepStage({ e, getState }) {
  function showSweepButton() {
    replace(e.sweepStatus, h('p', { class: 'muted' }, 'The plot solves one optimal mechanism per ε value. ',
      h('button', { type: 'button', class: 'small', dataset: { action: 'run-sweep' }, 'data-testid': ids('sweep-run'), text: 'Plot utility against ε' })));
    replace(e.sweepPlot);
  }

  function sweepText(text) {
    const line = e.sweepStatus.querySelector('[data-role="text"]');
    if (line) line.textContent = text;
  }

  async function runSweep(job, cur) {
    if (!cur.prior || cur.scoreError) { replace(e.sweepPlot); replace(e.sweepStatus); return; }
    const xs = S.epsilonGrid(cur.eps);
    replace(e.sweepStatus, h('p', { class: 'cap-stats progress' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Preparing the mechanisms…'));
    const m1 = await job.run(Plan.sweepMatricesPlan(cur.G, xs, cur.tcMetric));
    const withLP = cur.G.n <= S.LP_AUTO_ANSWERS; // one LP per ε: only where one is quick
    const { calls, layout } = Plan.sweepPlan(cur, xs, m1, { withLP, timeLimit: LP_TIME_LIMIT_MS });
    const lpCount = withLP ? xs.length : 0;
    replace(e.sweepStatus, h('p', { class: 'cap-stats progress' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-sweep' }, 'data-testid': ids('sweep-cancel'), text: 'Cancel' }),
      h('span', { dataset: { role: 'text' }, text: `Computing ${xs.length} ε values${withLP ? ` (${lpCount} optimal mechanisms)` : ''}…` })));
    let out;
    try {
      out = await job.run(calls, {
        cancelStale: true,
        onProgress: (_data, callIndex) => {
          const k = layout.slice(0, callIndex + 1).filter(([, t]) => t === 'lp').length;
          sweepText(`Optimal mechanism ${k} of ${lpCount} (ε = ${formatNumber(xs[layout[callIndex][0]])})…`);
        },
      });
    } catch (err) {
      if (err instanceof Superseded) throw err;
      replace(e.sweepStatus, h('p', { class: 'muted', 'data-testid': ids('sweep-cancelled') }, isAbort(err) ? 'The plot was cancelled. ' : `The plot failed: ${err.message} `,
        h('button', { type: 'button', class: 'small', dataset: { action: 'run-sweep' }, 'data-testid': ids('sweep-run'), text: 'Plot again' })));
      return;
    }
    const series = { lp: [], bound: [], thm62: [], tg: [], rr: [], exp: [], tc: [] };
    out.forEach((r, c) => {
      const [i, k] = layout[c];
      if (!r.ok) return;
      const y = k === 'lp' ? r.value.utility : k === 'bound' ? r.value.bound : utilityValue(r.value, cur);
      series[k].push([xs[i], y]);
    });
    cur.sweep = { xs, series };
    const thmNotDP = cur.thm && !cur.thm.uniform;
    const list = [
      withLP && { name: 'Optimal', points: series.lp, color: PALETTE[0] },
      !cur.loss && getState().gain === 'binary' && !getState().prior && { name: 'Theorem 6.1 bound', points: series.bound, dashed: true, color: PALETTE[7] },
      { name: thmNotDP ? 'Theorem 6.2 (not ε-DP)' : 'Theorem 6.2', points: series.thm62, dashed: true, color: PALETTE[1] },
      { name: 'Truncated geometric', points: series.tg, color: PALETTE[2] },
      { name: 'Randomized response', points: series.rr, color: PALETTE[3] },
      { name: 'Exponential', points: series.exp, color: PALETTE[5] },
      series.tc.length > 0 && { name: 'Tight constraints', points: series.tc, dashed: true, color: PALETTE[6] },
    ].filter(Boolean);
    const what = cur.loss ? 'Expected loss' : 'Utility';
    replace(e.sweepStatus, h('p', { class: 'hint', text: `${xs.length} values of ε up to ${formatNumber(xs[xs.length - 1])}, including the chosen ε = ${formatNumber(cur.eps)}.` }));
    replace(e.sweepPlot, linePlot({ title: `${what} against ε (nats) on this graph, prior and gain`, xLabel: 'ε (nats)', yLabel: what, series: list }));
  }

  return { showSweepButton, runSweep };
}
