// sections/infopriv/results.js — how the "Information privacy" section shows its results: the
// individual capacity and ε with their situations, ε for δ, the Bayesian ratios and their bar
// chart. Functions of the elements (skeleton.js) and the engine's values; nothing computes here.

import { h, replace } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { setReading } from '../../lib/readings.js';
import { barChart, PALETTE } from '../../lib/plot.js';
import { situationText } from './state.js';
import { num } from './ui.js';
import { range } from './skeleton.js';

export function recordName(i) {
  return `record ${i + 1}`;
}

export function showCapacity({ capRow, subNote }, r) {
  if (!r.ok) { capRow.set({ error: r.error }); subNote.textContent = ''; return; }
  const c = r.value;
  capRow.set({ value: c.capacity }, [
    h('span', { class: 'ip-detail', 'data-testid': 'ip-capacity-situation' },
      h('span', { text: `${recordName(c.individual)} varies, the others fixed: ` }),
      h('code', { 'data-testid': 'ip-capacity-tuple', text: situationText(c.individual, c.others) })),
    h('span', { class: 'ip-detail', 'data-testid': 'ip-capacity-prior' },
      'capacity-achieving prior on its values: (', join([...c.prior].map((x) => num(x, {}, 'ip.capacityPrior')), ', '), ')'),
  ]);
  setReading(capRow.value, `${c.capacity} bits (certified upper bound ${c.upperBound})`, capRow.value.dataset.reading);
  subNote.classList.remove('stale');
  subNote.textContent = `${c.subChannels.toLocaleString('en')} sub-channels (one per record and values of the others); ${c.solved.toLocaleString('en')} needed Blahut–Arimoto, the others were bounded away.`;
}

export function showEpsilon({ epsRow }, r) {
  if (!r.ok) { epsRow.set({ error: r.error }); return; }
  const e = r.value;
  const exp = Math.exp(e.epsilon);
  epsRow.set({ value: e.epsilon }, [
    h('span', { class: 'ip-detail' }, 'e^ε = ', num(exp, { 'data-testid': 'ip-epsilon-exp' }, 'ip.expEpsilon')),
    h('span', { class: 'ip-detail', 'data-testid': 'ip-epsilon-situation' },
      h('span', { text: `${recordName(e.individual)} between values ${e.values[0]} and ${e.values[1]}, the others fixed: ` }),
      h('code', { 'data-testid': 'ip-epsilon-tuple', text: situationText(e.individual, e.others) }),
      h('span', { text: `, at answer ${e.output}` })),
  ]);
}

export function showEpsForDelta({ e4dRow }, r, delta) {
  if (!r.ok) { e4dRow.set({ error: r.error }); return; }
  e4dRow.set({ value: r.value }, Number.isFinite(r.value)
    ? [h('span', { class: 'ip-detail' }, 'e^ε = ', num(Math.exp(r.value), {}, 'ip.expEpsilon'), ` at δ = ${formatNumber(delta)}`)] : [h('span', { class: 'ip-detail', text: 'no finite ε reaches this δ' })]);
}

export function showBayes({ maxRatioRow, minRatioRow, barsWrap }, r, s, eps) {
  const at = (p) => h('span', { class: 'ip-detail' }, `value ${p[0]}, answer ${p[1]}`);
  maxRatioRow.set({ value: r.max }, [at(r.maxAt), Number.isFinite(eps) ? h('span', { class: 'ip-detail' }, 'e^ε = ', num(Math.exp(eps), {}, 'ip.expEpsilon')) : null].filter(Boolean));
  minRatioRow.set({ value: r.min }, [at(r.minAt), Number.isFinite(eps) ? h('span', { class: 'ip-detail' }, 'e^−ε = ', num(Math.exp(-eps), {}, 'ip.expMinusEpsilon')) : null].filter(Boolean));
  const { rows, cols, data } = r.ratios;
  const bars = [];
  for (let y = 0; y < cols; y++) {
    for (let v = 0; v < rows; v++) {
      bars.push({ label: `${v}→${y}`, value: data[v * cols + y], color: PALETTE[v % PALETTE.length] });
    }
  }
  const hLines = Number.isFinite(eps) ? [{ y: Math.exp(eps), label: `e^ε = ${formatNumber(Math.exp(eps))}` }, { y: Math.exp(-eps), label: `e^−ε = ${formatNumber(Math.exp(-eps))}` }] : [];
  const fig = barChart({ title: `Posterior/prior ratio p(v|y)/π(v) for each value v → answer y (${recordName(s.individual)}, others ${situationText(s.individual, s.others)})`, bars, yLabel: 'posterior / prior', hLines });
  const legend = h('p', { class: 'ip-legend' },
    range(0, rows - 1).map((v) => h('span', { class: 'ip-key' }, h('span', { class: `ip-swatch ip-swatch-${v % PALETTE.length}` }), `value ${v}`)),
    Number.isFinite(eps) ? h('span', { class: 'ip-key' }, h('span', { class: 'ip-dash' }), `e^ε = ${formatNumber(Math.exp(eps))} and e^−ε = ${formatNumber(Math.exp(-eps))}`) : null);
  barsWrap.classList.remove('stale');
  replace(barsWrap, legend, fig,
    h('p', { class: 'muted', 'data-testid': 'ip-bayes-note' },
      Number.isFinite(eps)
        ? ['ε of this sub-channel: ', num(r.epsilon, {}, 'ip.subEpsilon'), ' nats; of the whole query: ', num(eps, {}, 'ip.epsilon'), ' nats.']
        : 'The query is not ε-DP for any finite ε (no noise), so no e^±ε bound applies.'));
}

function join(nodes, sep) {
  const out = [];
  nodes.forEach((n, k) => { if (k) out.push(sep); out.push(n); });
  return out;
}

export function noiseDescription(kind, m) {
  const answers = m === null ? 'the answers' : `the ${m} answers`;
  switch (kind) {
    case 'rr': return `Randomized response on ${answers}: the true answer with probability e^ε/(m − 1 + e^ε), each other answer with 1/(m − 1 + e^ε).`;
    case 'geometric': return `Truncated geometric on ${answers}: probability ∝ e^(−ε|y − r|) around the true answer r, the tails piled on the end answers.`;
    case 'bsc': return 'Binary symmetric channel: the answer is flipped with probability p (needs a query with two answers, e.g. the max or min of binary records).';
    default: return 'No noise: the exact answer is released (a deterministic query).';
  }
}

