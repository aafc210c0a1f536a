// sections/composition/results.js — how the "Composition" section shows its answers: ε (or δ) with
// its certified interval and method, the accountants side by side, and the privacy curve with the
// bounds beside it, each labelled with what it guarantees. Functions of the elements
// (skeleton.js) and the engine's values; nothing computes here.

import { h, replace } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { linePlot, PALETTE } from '../../lib/plot.js';
import { ACCOUNTANTS, boundCurves, profileCurves, sweepCurves } from './plan.js';

/** What each method means, in words. */
export const METHODS = {
  'gaussian-dp': 'exact: a composition of Gaussians is one Gaussian (Gaussian DP, closed form)',
  'optimal-composition': 'exact: the optimal composition of pure mechanisms (a finite sum)',
  enumeration: 'exact: the outputs of the composed channel enumerated by type',
  pld: 'privacy loss distribution, convolved numerically: the interval is certified',
};

/** The colours of the curves (lib/plot.js PALETTE), the same in the plot and its legend. */
export const COLOURS = { pld: PALETTE[0], lower: PALETTE[0], exact: PALETTE[2], rdp: PALETTE[1], advanced: PALETTE[3], naive: PALETTE[7] };

export function num(x, attrs = {}, digits = 4) {
  const el = h('span', { class: 'cmp-num', ...attrs });
  el.textContent = Number.isFinite(x) ? formatNumber(x, digits) : x === Infinity ? '∞' : '—';
  el.dataset.value = String(x);
  el.title = Number.isFinite(x) ? formatFull(x) : String(x);
  return el;
}

/** The significant digits that tell an interval's ends apart (4 to 8). */
export function intervalDigits(lo, up) {
  for (let d = 4; d < 8; d++) if (formatNumber(lo, d) !== formatNumber(up, d)) return d;
  return 8;
}

/** The answer: ε at δ (ask 'epsilon') or δ at ε, its interval and method. */
export function showAnswer({ answer }, r, ask, value) {
  answer.classList.remove('stale');
  if (r.error) {
    answer.dataset.status = r.cancelled ? 'cancelled' : 'error';
    replace(answer, h('p', { class: 'r-msg', 'data-testid': 'cmp-answer-msg', text: r.error }));
    return;
  }
  answer.dataset.status = 'ok';
  const v = r.value;
  // An ε of null is ∞ (no finite ε reaches the δ; the engine's details say so).
  const main = ask === 'epsilon' ? v.epsilon ?? Infinity : v.delta;
  const sym = ask === 'epsilon' ? 'ε' : 'δ';
  const given = ask === 'epsilon' ? `at δ = ${formatNumber(value)}` : `at ε = ${formatNumber(value)} nats`;
  const exact = v.method !== 'pld';
  const infinite = main === Infinity;
  const digits = Number.isFinite(v.lower) && Number.isFinite(v.upper) ? intervalDigits(v.lower, v.upper) : 4;
  replace(answer,
    h('p', { class: 'cmp-main' },
      h('span', { class: 'cmp-sym' }, `${sym} = `),
      num(main, { class: 'cmp-num cmp-big', 'data-testid': 'cmp-value' }, digits),
      ask === 'epsilon' && !infinite ? h('span', { class: 'unit' }, ' nats') : null,
      h('span', { class: 'cmp-given' }, ` ${given}`)),
    infinite
      ? h('p', { class: 'cmp-interval', 'data-testid': 'cmp-interval' }, 'No finite ε reaches this δ: ', ask === 'epsilon' && value === 0 ? 'a Gaussian mechanism is never (ε, 0)-DP; ask for a δ > 0.' : 'the privacy curve stays above it.')
      : h('p', { class: 'cmp-interval', 'data-testid': 'cmp-interval' },
        exact ? 'Exact value (closed form); certified interval ' : `Certified: the true ${sym} lies in `,
        h('span', { class: 'cmp-bracket' }, '[', num(v.lower, { 'data-testid': 'cmp-lower' }, digits), ', ', num(v.upper, { 'data-testid': 'cmp-upper' }, digits), ']'),
        exact ? '.' : `; the value shown is its upper end, a guarantee (width ${formatNumber(v.upper - v.lower)}).`),
    h('p', { class: 'cmp-method', 'data-testid': 'cmp-method', dataset: { method: v.method } }, 'Method: ', METHODS[v.method] ?? v.method));
}

/** The accountants side by side at δ: ε of each, with what it guarantees. */
export function showCompare({ compare }, r, delta) {
  compare.classList.remove('stale');
  if (!r) { replace(compare); return; }
  if (r.error) { replace(compare, h('p', { class: 'r-msg', text: `Comparison: ${r.error}` })); return; }
  const c = r.value;
  const rows = ACCOUNTANTS.filter(({ key }) => key !== 'exact' || c.exact).map(({ key, name }) => {
    const a = c[key];
    return h('tr', { 'data-testid': `cmp-row-${key}`, dataset: { applies: String(!!a) } },
      h('th', { scope: 'row' }, h('span', { class: `cmp-swatch cmp-swatch-${key}` }), name),
      h('td', {}, a ? num(a.epsilon ?? Infinity, { 'data-testid': `cmp-eps-${key}` }, 5) : '—'),
      h('td', { class: 'cmp-guarantee' }, a ? a.guarantee : 'does not apply: some event is not (ε, δ)-DP for a finite ε (a Gaussian, a subsampled Gaussian)'));
  });
  replace(compare,
    h('table', { class: 'cmp-table', 'data-testid': 'cmp-compare-table' },
      h('caption', {}, `ε of each accountant at δ = ${formatNumber(delta)}`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'accountant'), h('th', { scope: 'col' }, 'ε (nats)'), h('th', { scope: 'col' }, 'what it guarantees'))),
      h('tbody', {}, rows)));
}

/**
 * The privacy curve: the PLD's δ(ε) (upper, and lower dashed), and each bound's points (ε, δ) at
 * the sweep's δ, on a logarithmic δ axis; the legend below says what each guarantees.
 */
export function drawCurve({ plot, legend }, { profile, sweep, deltas, ask, value, answer }) {
  plot.classList.remove('stale');
  legend.classList.remove('stale');
  const series = [];
  const items = [];
  // The PLD: the profile's smooth curve once it is there, else its points at the sweep's δ.
  const { upper, lower } = profile ? profileCurves(profile) : sweepCurves(sweep, deltas);
  if (upper.length) {
    series.push({ key: 'pld', name: 'δ(ε), PLD upper', points: upper, color: COLOURS.pld, dots: !profile });
    series.push({ key: 'lower', name: 'δ(ε), PLD lower', points: lower, color: COLOURS.lower, dashed: true, width: 1 });
    const exact = sweep.some((c) => c?.exact);
    items.push(['pld', exact
      ? 'δ(ε) of the composition, exact (a closed form): the solid and dashed lines coincide.'
      : `δ(ε) of the composition: between the solid line (pessimistic discretization, a guarantee) and the dashed one (optimistic)${profile ? '' : ', at the δ of the points (the smooth curve is being computed, or could not be)'}.`]);
  }
  const guarantee = (key) => sweep.find((c) => c?.[key])?.[key]?.guarantee;
  const bounds = boundCurves(sweep, deltas);
  for (const [key, name] of [['rdp', 'Rényi DP'], ['advanced', 'advanced composition'], ['naive', 'naive Σεᵢ']]) {
    if (!bounds[key]) continue;
    let pts = bounds[key];
    if (key === 'naive') pts = [[pts[0][0], Math.min(...pts.map((p) => p[1]))], [pts[0][0], 1]];
    series.push({ key, name, points: pts, color: COLOURS[key], dots: key !== 'naive' });
    items.push([key, `${name}: ${guarantee(key) ?? 'an upper bound'}`]);
  }
  if (!series.some((s) => s.points.length)) {
    replace(plot, h('p', { class: 'muted', text: 'Nothing to draw: every point of the curve is δ = 0 or undefined.' }));
    replace(legend);
    return;
  }
  const hLines = ask === 'epsilon' && value > 0 ? [{ y: value, label: `δ = ${formatNumber(value)}` }] : [];
  if (ask === 'delta' && answer && answer.delta > 0) hLines.push({ y: answer.delta, label: `δ(${formatNumber(value)}) = ${formatNumber(answer.delta)}` });
  const fig = linePlot({ title: 'The privacy curve δ(ε) of the composition, with the bounds beside it (δ on a log scale)', xLabel: 'ε (nats)', yLabel: 'δ', series, hLines, yLog: true, legend: 'bottom-left' });
  replace(plot, fig);
  replace(legend, items.map(([key, text]) => h('li', { 'data-testid': `cmp-legend-${key}` }, h('span', { class: `cmp-swatch cmp-swatch-${key}` }), text)));
}
