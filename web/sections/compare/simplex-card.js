// sections/compare/simplex-card.js — the card "Posteriors on the simplex" of "Compare two
// mechanisms": for three secrets, each channel's posteriors under the uniform prior as points,
// their convex hulls, and the max-case counterexample (a posterior of B outside A's hull)
// highlighted. The posteriors are the engine's: the inners of the hyper-distribution [υ▷C]
// (qif.channel.hyper, υ uniform), each with its probability; simplex.js only draws them.
//
//   const simplex = mountSimplex({ engine, pipe });   simplex.card is the <section> to place
//   simplex.draw({ n, A, B, max })                    n secrets, A and B the valid matrices (or
//                                                    null), max the ⊑max verdict ({ok, value}) or null

import { h, replace } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { sourceRefs } from '../../lib/formulas.js';
import { simplexPlot } from './simplex.js';

/** The rows of a {rows, cols, data} matrix as arrays. */
const rowsOf = (M) => Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));

export function mountSimplex({ engine, pipe }) {
  const out = h('div', { class: 'cmp-simplex', 'data-testid': 'cmp-simplex' });
  const card = h('section', { class: 'card', 'aria-labelledby': 'cmp-simplex-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'cmp-simplex-title', text: 'Posteriors on the simplex' }), sourceRefs('Chatzikokolakis et al. (CSF 2019) §3, Figure 2')),
    h('p', { class: 'hint', text: 'Each output y gives a posterior p(x|y) under the uniform prior (a column of the channel, normalized; outputs with the same posterior are one point). A ⊑max B exactly when all of B’s posteriors (diamonds) lie in the convex hull of A’s (circles).' }),
    out);

  // The hypers of the last matrices drawn: a new verdict redraws the highlight without asking
  // the engine again.
  let last = null;
  const note = (text) => replace(out, h('p', { class: 'muted', 'data-testid': 'simplex-note', text }));

  const task = pipe.task(async (job, { A, B, max }) => {
    if (!last || last.A !== A || last.B !== B) {
      const u = [1 / 3, 1 / 3, 1 / 3];
      const [ha, hb] = await job.run([engine.plan.channel.hyper(u, A), engine.plan.channel.hyper(u, B)]);
      if (!ha.ok || !hb.ok) {
        note(`The posteriors could not be computed: ${(ha.ok ? hb : ha).error}`);
        last = null;
        return;
      }
      last = { A, B, sets: [['A', 'set-a', ha.value], ['B', 'set-b', hb.value]] };
    }
    let highlight = null;
    if (max && max.ok && !max.value.holds && max.value.counterexample) {
      highlight = { point: Array.from(max.value.counterexample.posterior), name: `posterior of B outside A’s hull (distance ${formatNumber(max.value.counterexample.distance)})` };
    }
    replace(out, simplexPlot({
      title: 'Posteriors of A and B under the uniform prior, with their convex hulls',
      labels: ['0', '1', '2'],
      sets: last.sets.map(([name, className, hyper]) => ({
        name, className, points: rowsOf(hyper.inners), weights: Array.from(hyper.outer),
      })),
      highlight,
    }));
  });

  function draw({ n, A, B, max }) {
    if (n !== 3) {
      task.supersede();
      note(`The simplex picture needs exactly 3 secrets (now ${n}). Try the example “Geometric vs randomized response on 3 secrets”.`);
      return;
    }
    if (!A || !B) {
      task.supersede();
      note('Waiting for two valid channels.');
      return;
    }
    task.now({ A, B, max });
  }

  return { card, draw };
}
