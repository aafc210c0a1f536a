// sections/compare/lattice-card.js — the card "Meet and join under ⊑prv" of "Compare two
// mechanisms": the channel whose induced metric is max(d_A, d_B) (the meet) or the shortest-path
// closure of min(d_A, d_B) (the join), from the engine (qif.refine.prvMeet / prvJoin), with
// buttons that put it in place of A or B.
//
//   const lattice = mountLattice({ engine, pipe, channels, use })
//     channels()      → {A, B} (both valid, on the same secrets) or null
//     use(K, rows)    puts the matrix rows (number[][]) in editor K ('A' or 'B')
//   lattice.card is the <section> to place.

import { h, replace } from '../../lib/dom.js';
import { Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { sourceRefs } from '../../lib/formulas.js';
import { toRows } from './state.js';
import { matrixTable } from './details.js';

const LABELS = {
  prvMeet: 'Meet A ⊓ B (metric max(d_A, d_B))',
  prvJoin: 'Join A ⊔ B (metric: shortest-path closure of min(d_A, d_B))',
};

export function mountLattice({ engine, pipe, channels, use }) {
  const out = h('div', { class: 'cmp-lattice-out', 'data-testid': 'lattice-result', 'aria-live': 'polite' });

  const task = pipe.task(async (job, fn) => {
    const mats = channels();
    if (!mats) {
      replace(out, h('p', { class: 'r-msg', text: 'Both channels must be valid, on the same secrets.' }));
      return;
    }
    out.dataset.status = 'pending';
    replace(out, h('p', { class: 'muted' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' Computing…'));
    let M;
    try {
      M = await job.call(engine.plan.refine[fn](mats.A, mats.B));
    } catch (err) {
      if (err instanceof Superseded) throw err;
      out.dataset.status = 'error';
      replace(out, h('p', { class: 'r-msg', text: isAbort(err) ? 'Cancelled.' : err.message }));
      return;
    }
    out.dataset.status = 'done';
    out.dataset.kind = fn;
    const rows = toRows(M);
    const useAs = (K) => () => use(K, rows);
    replace(out,
      h('h4', { text: LABELS[fn] }),
      h('p', { class: 'muted', text: `A ${M.rows}×${M.cols} channel.` }),
      matrixTable(M, { rowLabel: (i) => `x${i}`, colLabel: (j) => `y${j}`, testid: 'lattice-matrix', role: 'channel' }),
      h('div', { class: 'toolbar' },
        h('button', { type: 'button', class: 'small', 'data-testid': 'lattice-use-A', text: 'Use as A', on: { click: useAs('A') } }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'lattice-use-B', text: 'Use as B', on: { click: useAs('B') } })));
  });

  const card = h('section', { class: 'card', 'aria-labelledby': 'cmp-lattice-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'cmp-lattice-title', text: 'Meet and join under ⊑prv' }), sourceRefs('Chatzikokolakis et al. (CSF 2019) §7.3')),
    h('p', { class: 'hint', text: 'Under ⊑prv, channels are compared through their induced metrics d_C(x,x′) = max_y |ln C[x][y] − ln C[x′][y]|. The meet realizes max(d_A, d_B): both A and B are safe in place of it. The join realizes the shortest-path closure of min(d_A, d_B): the least safe channel that is safe in place of both.' }),
    h('div', { class: 'toolbar' },
      h('button', { type: 'button', 'data-testid': 'prv-meet', text: 'Meet A ⊓ B', on: { click: () => task.now('prvMeet') } }),
      h('button', { type: 'button', 'data-testid': 'prv-join', text: 'Join A ⊔ B', on: { click: () => task.now('prvJoin') } })),
    out);

  return { card };
}
