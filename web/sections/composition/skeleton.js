// sections/composition/skeleton.js — the DOM of the "Composition" section: its cards, fields and
// result slots, built once. The view (view.js) fills them; nothing here computes.

import { h } from '../../lib/dom.js';
import { sourceRefs } from '../../lib/formulas.js';
import { PRESETS } from '../../lib/accounting-events.js';

/** Builds the section into root around the events editor's element; returns its elements. */
export function buildSkeleton(root, state, editorEl) {
  const presets = h('div', { class: 'cmp-presets', role: 'group', 'aria-label': 'Examples' },
    h('span', { class: 'cmp-presets-label' }, 'Examples:'),
    Object.entries(PRESETS).map(([k, p]) => h('button', { type: 'button', class: 'small', dataset: { preset: k }, 'data-testid': `cmp-preset-${k}`, title: p.note }, p.label)));
  const presetNote = h('p', { class: 'hint', 'data-testid': 'cmp-preset-note' });
  const fromChannel = h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-from-channel', title: 'Adds the channel of the “Channel & leakage” section (its rows as neighbouring data sets), asked 10 times' }, '+ The Channel section’s channel');
  const channelMsg = h('p', { class: 'msg cmp-block-msg', role: 'alert', 'data-testid': 'cmp-channel-msg' });
  const eventsCard = h('section', { class: 'card', 'aria-labelledby': 'cmp-events-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'cmp-events-title', text: 'Mechanisms run on the same data' })),
    presets, presetNote,
    editorEl,
    h('div', { class: 'cmp-row' }, fromChannel), channelMsg);

  const askEps = h('input', { type: 'radio', name: 'cmp-ask', id: 'cmp-ask-epsilon', value: 'epsilon', 'data-testid': 'cmp-ask-epsilon' });
  const askDelta = h('input', { type: 'radio', name: 'cmp-ask', id: 'cmp-ask-delta', value: 'delta', 'data-testid': 'cmp-ask-delta' });
  const deltaIn = h('input', { id: 'cmp-delta', type: 'text', class: 'num', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', value: state.delta, 'data-testid': 'cmp-delta', 'aria-describedby': 'cmp-question-msg', 'aria-label': 'δ' });
  const epsIn = h('input', { id: 'cmp-epsilon', type: 'text', class: 'num', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', value: state.epsilon, 'data-testid': 'cmp-epsilon', 'aria-describedby': 'cmp-question-msg', 'aria-label': 'ε (nats)' });
  const questionMsg = h('p', { class: 'msg cmp-block-msg', id: 'cmp-question-msg', role: 'alert', 'data-testid': 'cmp-question-msg' });
  const questionCard = h('section', { class: 'card', 'aria-labelledby': 'cmp-question-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'cmp-question-title', text: 'The question' })),
    h('div', { class: 'cmp-ask', role: 'radiogroup', 'aria-label': 'What to compute' },
      h('div', { class: 'cmp-ask-line' }, askEps, h('label', { for: 'cmp-ask-epsilon' }, 'the smallest ε at δ = '), deltaIn),
      h('div', { class: 'cmp-ask-line' }, askDelta, h('label', { for: 'cmp-ask-delta' }, 'the smallest δ at ε = '), epsIn, h('span', { class: 'unit' }, 'nats'))),
    questionMsg,
    h('p', { class: 'hint' }, 'The composition is (ε, δ)-differentially private when δ ≥ δ(ε), the privacy curve: the largest hockey-stick divergence of the joint outputs on two neighbouring data sets.'));

  const progress = h('div', { class: 'cmp-progress', 'data-testid': 'cmp-progress', role: 'status', hidden: true });
  const staleMsg = h('p', { class: 'msg cmp-block-msg', 'data-testid': 'cmp-stale-msg', role: 'status' });
  const answer = h('div', { class: 'cmp-answer', 'data-testid': 'cmp-answer', 'aria-live': 'polite', dataset: { status: 'pending' } });
  const compare = h('div', { class: 'cmp-compare', 'data-testid': 'cmp-compare' });
  const answerCard = h('section', { class: 'card', 'aria-labelledby': 'cmp-answer-title', 'data-testid': 'cmp-answer-card' },
    h('div', { class: 'card-head' }, h('h3', { id: 'cmp-answer-title', text: 'The composition’s privacy' }), sourceRefs('Mathematics §14')),
    progress, staleMsg, answer, compare);

  const plot = h('div', { class: 'cmp-plot', 'data-testid': 'cmp-plot' });
  const legend = h('ul', { class: 'cmp-legend', 'data-testid': 'cmp-legend' });
  const curveProgress = h('div', { class: 'cmp-progress', 'data-testid': 'cmp-curve-progress', role: 'status', hidden: true });
  const curveHead = h('div', { class: 'card-head' }, h('h3', { id: 'cmp-curve-title', text: 'The privacy curve δ(ε)' }));
  const curveCard = h('section', { class: 'card', 'aria-labelledby': 'cmp-curve-title', 'data-testid': 'cmp-curve-card' },
    curveHead,
    h('p', { class: 'hint' }, 'Every (ε, δ) on or above a curve is guaranteed by that accountant. The lower the curve, the tighter: the privacy loss distribution (PLD) is the truth up to its certified band; the others are upper bounds.'),
    curveProgress, plot, legend);

  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'composition-title', text: 'Composition' }),
      h('p', {}, 'Several differentially private mechanisms run on the same data: what (ε, δ) does the whole guarantee? ',
        'The privacy loss distributions of the mechanisms are convolved, with a certified interval around the answer, ',
        'beside the naive, advanced and Rényi bounds people compare.')),
    h('div', { class: 'layout' },
      h('div', { class: 'inputs' }, eventsCard, questionCard),
      h('div', { class: 'results' }, answerCard, curveCard)));

  return { presets, presetNote, fromChannel, channelMsg, askEps, askDelta, deltaIn, epsIn, questionMsg, progress, staleMsg, answer, compare, plot, legend, curveProgress, curveHead };
}
