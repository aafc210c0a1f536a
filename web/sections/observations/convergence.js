// sections/observations/convergence.js — the convergence plots of the "From observations" section:
// the MI estimate (nearest neighbours on numbers, bias-corrected count on labels) against the number
// of samples with its 95% interval as a band (on seeded random subsets of n/32 … n samples, the
// exact value as a line when known), and the Bayes risk of each
// rule against the training size, with the prior's baseline and, when known, the exact values.
//
//   convergencePlots(r) → [<figure>…]
//   r: {exact?, kind, baseline, curve?: [{n, value, lower, upper}], risk: {rule: result}}

import { linePlot } from '../../lib/plot.js';
import { formatNumber } from '../../lib/numbers.js';
import * as S from './state.js';

export function convergencePlots(r) {
  const out = [];
  const curve = (r.curve ?? []).filter((p) => Number.isFinite(p.value));
  if (curve.length >= 2) {
    const hLines = r.exact && Number.isFinite(r.exact.mi) ? [{ y: r.exact.mi, label: `exact I = ${formatNumber(r.exact.mi)} bits` }] : [];
    const fig = linePlot({
      title: `Mutual information (${r.kind === 'numbers' ? 'nearest neighbours' : 'bias-corrected'}) against the number of samples, with its 95% interval`,
      xLabel: 'samples (logarithmic)', yLabel: 'bits', xLog: true, hLines,
      series: [{ name: 'MI estimate', points: curve.map((p) => [p.n, p.value]), band: curve.map((p) => [p.n, p.lower, p.upper]) }],
    });
    fig.dataset.testid = 'obs-mi-curve';
    out.push(fig);
  }
  const series = Object.entries(r.risk ?? {}).filter(([, b]) => b?.curve)
    .map(([rule, b]) => ({ name: S.RULE_NAMES[rule], points: [...b.curve.n].map((n, i) => [n, b.curve.estimate[i]]) }));
  if (series.length) {
    const hLines = [{ y: r.baseline, label: `prior’s baseline 1 − max π̂ = ${formatNumber(r.baseline)}` }];
    if (r.exact && Number.isFinite(r.exact.risk)) hLines.push({ y: r.exact.risk, label: `exact R* = ${formatNumber(r.exact.risk)}` });
    else if (r.risk.knn) hLines.push({ y: r.risk.knn.nnBound, label: 'NN bound' });
    const fig = linePlot({ title: 'Bayes risk estimate against the training size', xLabel: 'training samples (logarithmic)', yLabel: 'estimated Bayes risk', series, hLines, xLog: true });
    fig.dataset.testid = 'obs-risk-curve';
    out.push(fig);
  }
  return out;
}
