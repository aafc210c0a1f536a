// sections/compare/distances-card.js — the card "How far apart are two secrets' outputs?" of
// "Compare two mechanisms": for two secrets x and x′ and a ground metric on the outputs, the
// distances between rows x and x′ of A and of B (qif.metric: the multiplicative total variation
// that ⊑prv compares, and the Kantorovich distances), from the engine.
//
//   const distances = mountDistances({ pipe, state, channels, generating })
//     state         the section's state: state.dist ({x, x2, metric, width}) is read and written here
//     channels()    → {A, B} (both valid, on the same secrets) or null
//     generating()  → true while a family channel is being generated (the card waits for it)
//   distances.card            the <section> to place
//   distances.schedule()      recompute after the debounce (the channels changed)
//   distances.markPending()   mark what is shown as about old channels
//   distances.restore()       show state.dist in the fields (after a state was restored)
//   distances.last            {x, x2, metric, results: {A, B}} of the distances shown, or null

import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { sourceRefs } from '../../lib/formulas.js';
import * as S from './state.js';
import * as Dist from './distances.js';
import { renderDistances } from './details.js';

export function mountDistances({ pipe, state, channels, generating }) {
  const textInput = (id, title, value) => h('input', { id, type: 'text', class: 'num', 'data-testid': id, autocomplete: 'off', spellcheck: 'false', title, value });
  const fields = {
    x: textInput('cmp-dist-x', 'the first secret (row of each channel), from 0', state.dist.x),
    x2: textInput('cmp-dist-x2', 'the second secret, from 0', state.dist.x2),
    width: textInput('cmp-dist-width', 'the width of the grid the outputs fill (row-major)', state.dist.width),
  };
  const metric = h('select', { id: 'cmp-dist-metric', 'data-testid': 'cmp-dist-metric' }, Object.entries(Dist.METRICS).map(([k, m]) => h('option', { value: k, text: m.name })));
  const msg = h('p', { class: 'r-msg', 'data-testid': 'cmp-dist-msg', role: 'alert' });
  const out = h('div', { class: 'cmp-dist-out', 'data-testid': 'cmp-dist', dataset: { status: 'pending' } });
  const widthField = h('div', { class: 'cmp-field' }, h('label', { for: 'cmp-dist-width', text: 'grid width' }), fields.width);
  const card = h('section', { class: 'card cmp-dist', 'aria-labelledby': 'cmp-dist-title', 'data-testid': 'cmp-dist-card' },
    h('div', { class: 'card-head' }, h('h3', { id: 'cmp-dist-title', text: 'How far apart are two secrets’ outputs?' }), sourceRefs('Mathematics §8 · Chatzikokolakis et al. (CSF 2019) §5')),
    h('p', { class: 'hint', text: 'The rows x and x′ of a channel are the distributions of its output for those two secrets: the closer they are, the less an observer can tell the two secrets apart. The multiplicative total variation is the metric d_C(x, x′) that ⊑prv compares (B ⊑prv-refines A when it is no larger in B for any pair); the Kantorovich distances need a ground metric on the outputs.' }),
    h('div', { class: 'cmp-family-row' },
      h('div', { class: 'cmp-field' }, h('label', { for: 'cmp-dist-x', text: 'secret x' }), fields.x),
      h('div', { class: 'cmp-field' }, h('label', { for: 'cmp-dist-x2', text: 'secret x′' }), fields.x2),
      h('div', { class: 'cmp-field' }, h('label', { for: 'cmp-dist-metric', text: 'ground metric on outputs' }), metric),
      widthField),
    msg, out);

  let last = null;
  const task = pipe.task(async (job) => {
    last = null;
    if (generating()) return;
    const mats = channels();
    for (const k of ['x', 'x2', 'width']) setFieldMessage(fields[k], null, null);
    msg.textContent = '';
    if (!mats) {
      out.dataset.status = 'invalid';
      replace(out, h('p', { class: 'muted', text: 'Waiting for two valid channels on the same secrets.' }));
      return;
    }
    const plan = Dist.distancePlan(state.dist, mats);
    if (plan.error) {
      setFieldMessage(fields[plan.field], null, plan.error);
      msg.textContent = plan.error;
      out.dataset.status = 'invalid';
      replace(out);
      return;
    }
    const metrics = await job.run(plan.metricCalls);
    const calls = [];
    const errors = {};
    const at = {};
    S.KEYS.forEach((K, i) => {
      if (!metrics[i].ok) {
        errors[K] = metrics[i].error;
        return;
      }
      at[K] = calls.length;
      calls.push(...Dist.distanceCalls(mats[K], plan.x, plan.x2, metrics[i].value));
    });
    const res = calls.length ? await job.run(calls, { cancelStale: true }) : [];
    const results = Object.fromEntries(S.KEYS.map((K) => [K, at[K] === undefined ? null : res.slice(at[K], at[K] + Dist.DISTANCES.length)]));
    last = { x: plan.x, x2: plan.x2, metric: state.dist.metric, results };
    renderDistances(out, results, { x: plan.x, x2: plan.x2, errors });
  });

  const markPending = () => { out.dataset.status = 'pending'; };
  const schedule = () => task.schedule();
  for (const [k, el] of Object.entries(fields)) {
    el.addEventListener('input', () => {
      state.dist[k] = el.value;
      markPending();
      schedule();
    });
  }
  metric.addEventListener('change', () => {
    state.dist.metric = metric.value;
    widthField.hidden = !Dist.METRICS[state.dist.metric].grid;
    markPending();
    schedule();
  });

  function restore() {
    for (const [k, el] of Object.entries(fields)) el.value = state.dist[k];
    metric.value = state.dist.metric;
    widthField.hidden = !Dist.METRICS[state.dist.metric].grid;
  }
  restore();

  return { card, schedule, markPending, restore, get last() { return last; } };
}
