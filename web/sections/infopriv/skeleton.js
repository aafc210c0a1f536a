// sections/infopriv/skeleton.js — the DOM of the "Information privacy" section: its cards, fields
// and result rows, built once. The view (view.js) fills them; nothing here computes.

import { h } from '../../lib/dom.js';
import { sourceRefs } from '../../lib/formulas.js';
import { MIN_RECORDS, MAX_RECORDS, QUERIES, NOISES } from './state.js';
import { resultRow, field, selectField } from './ui.js';

export function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, k) => a + k);
}

/** Builds the section into root (channelsEl: the privacy-channels card); returns its elements. */
export function buildSkeleton(root, state, channelsEl) {
  // ------------------------------------------------------------ inputs: the query
  const recordsSel = selectField({
    id: 'ip-records', label: 'Records',
    options: range(MIN_RECORDS, MAX_RECORDS).map((n) => [n, String(n)]), value: state.domains.length,
  });
  const valuesWrap = h('div', { class: 'ip-values', role: 'group', 'aria-label': 'Number of values of each record' });
  const querySel = selectField({
    id: 'ip-query', label: 'Query',
    options: [...Object.entries(QUERIES).map(([k, q]) => [k, q.label]), ['custom', 'Custom table (tuple → answer)']], value: state.query,
  });
  const queryInfo = h('p', { class: 'muted', 'data-testid': 'ip-query-info', 'aria-live': 'polite' });
  const tableWrap = h('div', { class: 'ip-custom', 'data-testid': 'ip-custom' });
  const tableErrors = h('p', { class: 'msg ip-block-msg', 'data-testid': 'ip-table-msg', role: 'alert' });

  // ------------------------------------------------------------ inputs: the noise
  const noiseSel = selectField({ id: 'ip-noise', label: 'Noise on the answers', options: Object.entries(NOISES).map(([k, n]) => [k, n.label]), value: state.noise });
  const expEps = h('span', { class: 'ip-aside', 'data-testid': 'ip-exp-eps' });
  const epsField = field({ id: 'ip-epsilon', label: ['ε ', h('span', { class: 'unit', text: '(nats)' })], value: state.epsilon, title: 'ε > 0, in nats', after: expEps });
  const pField = field({ id: 'ip-flip', label: ['Flip probability ', h('var', { text: 'p' })], value: state.p, title: '0 ≤ p ≤ 1' });
  const noiseHint = h('p', { class: 'hint ip-noise-hint', 'data-testid': 'ip-noise-hint' });
  const noiseMsg = h('p', { class: 'msg ip-block-msg', 'data-testid': 'ip-noise-msg', role: 'alert' });

  const queryCard = h('section', { class: 'card', 'aria-labelledby': 'ip-query-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-query-title', text: 'A query over records' }), sourceRefs('Wu (2019) §3')),
    h('p', { class: 'hint', text: 'Each record holds one of a few values (0, 1, …). The query maps each tuple of records to an answer; tuples are listed with record 1 most significant.' }),
    h('div', { class: 'ip-fields' }, recordsSel.wrap, querySel.wrap),
    valuesWrap,
    queryInfo,
    tableWrap,
    tableErrors);
  const noiseCard = h('section', { class: 'card', 'aria-labelledby': 'ip-noise-title' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-noise-title', text: 'Noise on the answers' })),
    h('div', { class: 'ip-fields' }, noiseSel.wrap, epsField.wrap, pField.wrap),
    noiseHint, noiseMsg);

  // ------------------------------------------------------------ results: individual leakage
  const progressEl = h('div', { class: 'ip-progress', 'data-testid': 'ip-progress', role: 'status', hidden: true });
  const capRow = resultRow({ id: 'capacity', name: 'Individual channel capacity', formula: 'max_i max_{x₋ᵢ} max_{p(xᵢ)} I(Xᵢ; Y | x₋ᵢ)', tex: String.raw`\max_i \max_{x_{-i}} \max_{p(x_i)} I(X_i; Y \mid x_{-i})`, unit: 'bits', reading: 'ip.capacity' });
  const epsRow = resultRow({ id: 'epsilon', name: 'Smallest ε (differ in one record)', formula: 'max_{i, x₋ᵢ, a, b, y} ln C(y | a, x₋ᵢ) / C(y | b, x₋ᵢ)', tex: String.raw`\max_{i,\,x_{-i},\,a,\,b,\,y} \ln \frac{C(y \mid a, x_{-i})}{C(y \mid b, x_{-i})}`, unit: 'nats', reading: 'ip.epsilon' });
  const subNote = h('p', { class: 'muted', 'data-testid': 'ip-subchannels' });
  const individualCard = h('section', { class: 'card', 'aria-labelledby': 'ip-individual-title', 'data-testid': 'ip-individual' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-individual-title', text: 'How much one record can leak' }), sourceRefs('Wu (2019) §3.2, Theorem 3.1 · Vadhan (2013) §2')),
    h('p', { class: 'hint', text: 'Shannon side: the capacity of the worst individual over independent priors, reached with the other records fixed. Max side: the largest log-ratio over the same family — the smallest ε of ε-DP.' }),
    progressEl,
    h('dl', { class: 'result-list' }, capRow.root, epsRow.root),
    subNote);

  // ------------------------------------------------------------ results: (ε, δ)
  const plotWrap = h('div', { class: 'ip-plot', 'data-testid': 'ip-delta-plot' });
  const deltaField = field({ id: 'ip-delta', label: ['δ ', h('span', { class: 'unit', text: '(probability, 0 ≤ δ ≤ 1)' })], value: state.delta, title: 'δ between 0 and 1' });
  const e4dRow = resultRow({ id: 'eps-for-delta', name: 'Smallest ε for this δ', formula: 'min { ε : δ(ε) ≤ δ }', tex: String.raw`\min\{\varepsilon : \delta(\varepsilon) \le \delta\}`, unit: 'nats', reading: 'ip.epsForDelta' });
  const deltaCard = h('section', { class: 'card', 'aria-labelledby': 'ip-delta-title', 'data-testid': 'ip-delta-card' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-delta-title', text: '(ε, δ)-differential privacy' }), sourceRefs('Vadhan (2013) §1.2 · Mathematics §3.2')),
    h('p', { class: 'hint', text: 'δ(ε) is the largest hockey-stick divergence Σ_y max(0, C(y|x) − e^ε C(y|x′)) over tuples x, x′ that differ in one record.' }),
    plotWrap,
    h('div', { class: 'ip-fields' }, deltaField.wrap),
    h('dl', { class: 'result-list' }, e4dRow.root));

  // ------------------------------------------------------------ results: Bayesian reading
  const sitSel = selectField({
    id: 'ip-situation', label: 'Sub-channel',
    options: [['capacity', 'Worst for capacity'], ['epsilon', 'Worst for ε'], ['custom', 'Choose the record and the others…']], value: state.situation,
  });
  const customSit = h('div', { class: 'ip-fields ip-custom-sit', 'data-testid': 'ip-custom-situation' });
  const sitText = h('p', { class: 'muted', 'data-testid': 'ip-situation-text' });
  const priorWrap = h('div', { class: 'ip-prior', role: 'group', 'aria-label': 'Prior on the values of the record' });
  const priorMsg = h('p', { class: 'msg ip-block-msg', 'data-testid': 'ip-prior-msg', role: 'alert' });
  const uniformBtn = h('button', { type: 'button', class: 'small', 'data-testid': 'ip-prior-uniform', text: 'Uniform prior' });
  const maxRatioRow = resultRow({ id: 'ratio-max', name: 'Largest posterior/prior ratio', formula: 'max_{v,y} p(v|y)/π(v) = C(y|v)/p(y) ≤ e^ε', tex: String.raw`\max_{v,y} \frac{p(v\mid y)}{\pi(v)} = \frac{C(y\mid v)}{p(y)} \le e^\varepsilon`, unit: '', reading: 'ip.ratioMax' });
  const minRatioRow = resultRow({ id: 'ratio-min', name: 'Smallest posterior/prior ratio', formula: 'min_{v,y} p(v|y)/π(v) ≥ e^{−ε}', tex: String.raw`\min_{v,y} \frac{p(v\mid y)}{\pi(v)} \ge e^{-\varepsilon}`, unit: '', reading: 'ip.ratioMin' });
  const barsWrap = h('div', { class: 'ip-plot', 'data-testid': 'ip-bayes-plot' });
  const bayesCard = h('section', { class: 'card', 'aria-labelledby': 'ip-bayes-title', 'data-testid': 'ip-bayes' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-bayes-title', text: 'Bayesian reading: posterior / prior' }), sourceRefs('Vadhan (2013) §4, Proposition 1')),
    h('p', { class: 'hint', text: 'For a prior on one record’s values (the others fixed), ε-DP keeps every ratio p(v|y)/π(v) between e^−ε and e^ε.' }),
    h('div', { class: 'ip-fields' }, sitSel.wrap),
    customSit,
    sitText,
    h('div', { class: 'ip-prior-row' }, priorWrap, uniformBtn),
    priorMsg,
    h('dl', { class: 'result-list' }, maxRatioRow.root, minRatioRow.root),
    barsWrap);

  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'infopriv-title', text: 'Information privacy' }),
      h('p', {}, 'A query over a few records, with noise on its answers: how much can one record leak? ',
        'The Shannon view (individual channel capacity, bits) sits beside the max-case view (the ε of differential privacy, nats), ',
        'with the (ε, δ) trade-off and the Bayesian reading of ε.')),
    h('div', { class: 'layout' },
      h('div', { class: 'inputs' }, queryCard, noiseCard, channelsEl),
      h('div', { class: 'results' }, individualCard, deltaCard, bayesCard)));

  return { recordsSel, valuesWrap, querySel, queryInfo, tableWrap, tableErrors, noiseSel, expEps, epsField, pField, noiseHint, noiseMsg, queryCard, noiseCard, progressEl, capRow, epsRow, subNote, individualCard, plotWrap, deltaField, e4dRow, deltaCard, sitSel, customSit, sitText, priorWrap, priorMsg, uniformBtn, maxRatioRow, minRatioRow, barsWrap, bayesCard };
}
