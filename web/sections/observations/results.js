// sections/observations/results.js — the estimates of the "From observations" section as a table:
// mutual information and min-entropy leakage (nearest-neighbour and from the Bayes risk on
// numbers; counted on labels or bins) with their 95% intervals, the Bayes risk by each rule next
// to the prior's baseline 1 − max π̂, the zero-leakage verdict, what binning loses, the engine's
// warnings and refusals in words, and the estimated channel when it is small.
//
//   estimatesView(r, { names, exportTable }) → [nodes]
//   r: {exact?, kind, baseline, maxPrior, miNN?, meNN?, mi?, me?, channel?, risk: {rule: result},
//       errors: {key: message}, notes: [text], binsText}

import { h } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { exportMenu } from '../../lib/export.js';
import * as S from './state.js';

export function num(x) {
  const el = h('span', { class: 'value' }, Number.isFinite(x) ? formatNumber(x) : '—');
  if (Number.isFinite(x)) { el.title = formatFull(x); el.dataset.value = String(x); }
  return el;
}

const interval = (x) => h('td', {}, num(x.lower), ' – ', num(x.upper));

/** The rows of the estimates table. */
function rows(r) {
  const out = [];
  const exactCell = (k, show = true) => (r.exact ? h('td', {}, show ? num(r.exact[k]) : '') : null);
  const failed = (id, label, key) => (r.errors[key]
    ? h('tr', { 'data-testid': id, class: 'obs-failed' }, h('th', {}, label), h('td', { colspan: r.exact ? 3 : 2, class: 'obs-error' }, r.errors[key]))
    : null);
  const bits = (id, label, x, exactKey, note) => h('tr', { 'data-testid': id }, h('th', {}, label, note ? h('span', { class: 'obs-note' }, note) : null),
    h('td', {}, num(x.value)), interval(x), exactCell(exactKey, Boolean(exactKey)));
  out.push(r.miNN ? bits('obs-mi-nn', 'Mutual information (bits), nearest neighbours', r.miNN, 'mi', ` Ross’s estimator, k = ${r.miNN.k ?? r.miK}`) : failed('obs-mi-nn', 'Mutual information (bits), nearest neighbours', 'miNN'));
  out.push(r.meNN ? bits('obs-me-nn', 'Min-entropy leakage (bits), from the Bayes risk', r.meNN, 'me', ' log₂((1 − R)/max π̂)') : failed('obs-me-nn', 'Min-entropy leakage (bits), from the Bayes risk', 'meNN'));
  const counted = r.kind === 'numbers' ? `, counted in ${r.binsText}` : '';
  if (r.mi) {
    out.push(h('tr', { 'data-testid': 'obs-mi' }, h('th', {}, `Mutual information (bits)${counted}, bias-corrected`), h('td', {}, num(r.mi.corrected)),
      interval(r.mi), exactCell('mi', !r.miNN)));
  } else out.push(failed('obs-mi', `Mutual information (bits)${counted}`, 'mi'));
  if (r.me) out.push(bits('obs-me', `Min-entropy leakage (bits)${counted}`, r.me, r.meNN ? null : 'me'));
  else out.push(failed('obs-me', `Min-entropy leakage (bits)${counted}`, 'me'));
  for (const rule of S.rulesFor(r.kind === 'numbers')) {
    const b = r.risk[rule];
    const label = `Bayes risk, ${S.RULE_NAMES[rule]}${b && rule === 'knn' ? ` (k = ${b.k})` : ''}`;
    if (!b) { out.push(failed(`obs-risk-${rule}`, label, `risk-${rule}`)); continue; }
    out.push(h('tr', { 'data-testid': `obs-risk-${rule}` }, h('th', {}, label, h('span', { class: 'obs-note' }, ` NN bound ${formatNumber(b.nnBound)}`)),
      h('td', {}, num(b.value)), interval(b), exactCell('risk')));
  }
  out.push(h('tr', { 'data-testid': 'obs-baseline', class: 'obs-baseline' },
    h('th', {}, 'Prior’s baseline 1 − max π̂', h('span', { class: 'obs-note' }, ' the risk of always guessing the most frequent secret')),
    h('td', {}, num(r.baseline)), h('td', {}), r.exact ? h('td', {}) : null));
  return out.filter(Boolean);
}

/** The zero-leakage verdict, of the nearest-neighbour estimate on numbers, else of the counted one. */
function verdictOf(r) {
  const mi = r.miNN ?? r.mi;
  if (!mi || typeof mi.leaks !== 'boolean') return null;
  return h('p', { class: 'obs-verdict', 'data-leaks': String(mi.leaks), 'data-testid': 'obs-verdict' }, S.verdict(mi, formatNumber));
}

/** What binning loses, next to the counted values. */
function binningNote(r) {
  if (r.kind !== 'numbers' || !r.mi) return null;
  return h('p', { class: 'results-note', 'data-testid': 'obs-binning' },
    `The counted values are of the observations binned (${r.binsText}). Binning can only lose information ` +
    '(the data-processing inequality): they estimate what an adversary who sees only the bin learns, at most what the numbers leak.');
}

function channelTable(r, names) {
  const c = r.channel;
  if (!c) return [];
  if (c.channel.rows * c.channel.cols > S.SHOW_CHANNEL_UP_TO) {
    return [h('p', { class: 'results-note' }, `The estimated channel has ${c.channel.rows} × ${c.channel.cols} entries: export it from the engine (qif.estimate.channel) to see it.`)];
  }
  const label = (list, k) => (list ? list[Number(k)] ?? k : k);
  return [h('h3', {}, 'Estimated channel Ĉ[x][o] = #(x, o)/#x'), h('div', { class: 'obs-channel' },
    h('table', { class: 'obs-table', 'data-testid': 'obs-channel' },
      h('thead', {}, h('tr', {}, h('th', {}, 'x \\ o'), ...c.observations.map((o) => h('th', {}, label(names?.observables, o))), h('th', {}, 'π̂'))),
      h('tbody', {}, ...c.secrets.map((x, i) => h('tr', {}, h('th', {}, label(names?.secrets, x)),
        ...c.observations.map((_, j) => h('td', {}, num(c.channel.data[i * c.channel.cols + j]))), h('td', {}, num(c.prior[i])))))))];
}

export function estimatesView(r, { names, exportTable, cite }) {
  const head = ['', 'estimate', '95% interval', r.exact ? 'exact' : null].filter((x) => x !== null);
  const table = h('table', { class: 'obs-table' }, h('thead', {}, h('tr', {}, ...head.map((x) => h('th', {}, x)))), h('tbody', {}, ...rows(r)));
  const warnings = [...new Set(r.warnings ?? [])];
  return [
    h('div', { class: 'results-bar' }, h('h3', {}, 'Estimates'), exportMenu(exportTable, { what: 'estimates', testid: 'obs-export', file: 'estimates' })),
    warnings.length ? h('ul', { class: 'msg obs-warnings', 'data-testid': 'obs-warnings' }, ...warnings.map((w) => h('li', {}, w))) : null,
    table,
    ...(r.notes ?? []).map((t) => h('p', { class: 'results-note' }, t)),
    binningNote(r),
    verdictOf(r),
    ...channelTable(r, names),
    cite ? h('p', { class: 'results-note obs-cite', 'data-testid': 'obs-cite' }, `How to cite: ${cite}`) : null,
  ].filter(Boolean);
}
