// sections/compare/lattice-card.js — the card "Meet and join under ⊑prv" of "Compare two
// mechanisms": the channel whose induced metric is max(d_A, d_B) (the meet) or the shortest-path
// closure of min(d_A, d_B) (the join), from the engine (qif.refine.prvMeet / prvJoin), with
// buttons that put it in place of A or B.
//
//   const lattice = mountLattice(ctl)   ctl: the section's controller (controller.js), which
//                                        computes them (computeLattice) and puts one in place
//                                        of A or B (useLattice)
//   lattice.card is the <section> to place.

import { h, replace } from '../../lib/dom.js';
import { sourceRefs } from '../../lib/formulas.js';
import { matrixTable } from './details.js';

const LABELS = {
  prvMeet: 'Meet A ⊓ B (metric max(d_A, d_B))',
  prvJoin: 'Join A ⊔ B (metric: shortest-path closure of min(d_A, d_B))',
};

export function mountLattice(ctl) {
  const out = h('div', { class: 'cmp-lattice-out', 'data-testid': 'lattice-result', 'aria-live': 'polite' });

  function render(l) {
    if (l.status === 'idle') return;
    if (l.status === 'invalid') { replace(out, h('p', { class: 'r-msg', text: l.message })); return; }
    out.dataset.status = l.status;
    if (l.status === 'pending') { replace(out, h('p', { class: 'muted' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' Computing…')); return; }
    if (l.status === 'error') { replace(out, h('p', { class: 'r-msg', text: l.message })); return; }
    const M = l.matrix;
    out.dataset.kind = l.kind;
    replace(out,
      h('h4', { text: LABELS[l.kind] }),
      h('p', { class: 'muted', text: `A ${M.rows}×${M.cols} channel.` }),
      matrixTable(M, { rowLabel: (i) => `x${i}`, colLabel: (j) => `y${j}`, testid: 'lattice-matrix', role: 'channel' }),
      h('div', { class: 'toolbar' },
        h('button', { type: 'button', class: 'small', 'data-testid': 'lattice-use-A', text: 'Use as A', on: { click: () => ctl.useLattice('A') } }),
        h('button', { type: 'button', class: 'small', 'data-testid': 'lattice-use-B', text: 'Use as B', on: { click: () => ctl.useLattice('B') } })));
  }
  ctl.subscribe((s, changed) => { if (changed.includes('lattice')) render(s.lattice); });

  const card = h('section', { class: 'card', 'aria-labelledby': 'cmp-lattice-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'cmp-lattice-title', text: 'Meet and join under ⊑prv' }), sourceRefs('Chatzikokolakis et al. (CSF 2019) §7.3')),
    h('p', { class: 'hint', text: 'Under ⊑prv, channels are compared through their induced metrics d_C(x,x′) = max_y |ln C[x][y] − ln C[x′][y]|. The meet realizes max(d_A, d_B): both A and B are safe in place of it. The join realizes the shortest-path closure of min(d_A, d_B): the least safe channel that is safe in place of both.' }),
    h('div', { class: 'toolbar' },
      h('button', { type: 'button', 'data-testid': 'prv-meet', text: 'Meet A ⊓ B', on: { click: () => ctl.computeLattice('prvMeet') } }),
      h('button', { type: 'button', 'data-testid': 'prv-join', text: 'Join A ⊔ B', on: { click: () => ctl.computeLattice('prvJoin') } })),
    out);

  return { card };
}
