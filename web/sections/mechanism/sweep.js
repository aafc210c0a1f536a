// sections/mechanism/sweep.js — draws the utility-against-ε plot of "Design a mechanism" from the
// controller's state (controller.js runs one mechanism of each kind per ε of a grid that includes
// the chosen ε, and one optimal mechanism per ε where a linear program is quick).
//
//   drawSweep(e, s)   s: the controller's state (s.sweep, s.results, s.inputs)
// e: the section's elements (skeleton.js). No computation and no state here.

import { h, replace } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { linePlot, PALETTE } from '../../lib/plot.js';
import { ids } from './panels.js';

const runButton = (text) => h('button', { type: 'button', class: 'small', dataset: { action: 'run-sweep' }, 'data-testid': ids('sweep-run'), text });

export function drawSweep(e, s) {
  const { sweep, results: cur, inputs: state } = s;
  switch (sweep.status) {
    case 'none': replace(e.sweepPlot); replace(e.sweepStatus); return;
    case 'offered':
      replace(e.sweepStatus, h('p', { class: 'muted' }, 'The plot solves one optimal mechanism per ε value. ', runButton('Plot utility against ε')));
      replace(e.sweepPlot);
      return;
    case 'preparing':
      replace(e.sweepStatus, h('p', { class: 'cap-stats progress' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Preparing the mechanisms…'));
      return;
    case 'running': {
      const text = sweep.at === null
        ? `Computing ${sweep.count} ε values${sweep.withLP ? ` (${sweep.lpCount} optimal mechanisms)` : ''}…`
        : `Optimal mechanism ${sweep.lpDone} of ${sweep.lpCount} (ε = ${formatNumber(sweep.at)})…`;
      const line = e.sweepStatus.querySelector('[data-role="text"]');
      if (line && sweep.at !== null) { line.textContent = text; return; }
      replace(e.sweepStatus, h('p', { class: 'cap-stats progress' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-sweep' }, 'data-testid': ids('sweep-cancel'), text: 'Cancel' }),
        h('span', { dataset: { role: 'text' }, text })));
      return;
    }
    case 'cancelled': case 'failed':
      replace(e.sweepStatus, h('p', { class: 'muted', 'data-testid': ids('sweep-cancelled') }, sweep.status === 'cancelled' ? 'The plot was cancelled. ' : `The plot failed: ${sweep.message} `, runButton('Plot again')));
      return;
    case 'done': {
      const { xs, series } = cur.sweep;
      const thmNotDP = cur.thm && !cur.thm.uniform;
      const list = [
        sweep.withLP && { name: 'Optimal', points: series.lp, color: PALETTE[0] },
        !cur.loss && state.gain === 'binary' && !state.prior && { name: 'Theorem 6.1 bound', points: series.bound, dashed: true, color: PALETTE[7] },
        { name: thmNotDP ? 'Theorem 6.2 (not ε-DP)' : 'Theorem 6.2', points: series.thm62, dashed: true, color: PALETTE[1] },
        { name: 'Truncated geometric', points: series.tg, color: PALETTE[2] },
        { name: 'Randomized response', points: series.rr, color: PALETTE[3] },
        { name: 'Exponential', points: series.exp, color: PALETTE[5] },
        series.tc.length > 0 && { name: 'Tight constraints', points: series.tc, dashed: true, color: PALETTE[6] },
      ].filter(Boolean);
      const what = cur.loss ? 'Expected loss' : 'Utility';
      replace(e.sweepStatus, h('p', { class: 'hint', text: `${xs.length} values of ε up to ${formatNumber(xs[xs.length - 1])}, including the chosen ε = ${formatNumber(cur.eps)}.` }));
      replace(e.sweepPlot, linePlot({ title: `${what} against ε (nats) on this graph, prior and gain`, xLabel: 'ε (nats)', yLabel: what, series: list }));
      return;
    }
    default:
  }
}
