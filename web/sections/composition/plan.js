// sections/composition/plan.js — what the "Composition" section asks of the engine, as plain calls
// {ns, fn, args} (engine/pipeline.js runs them), and how their answers become the curves of the
// plot. Pure: tests/node/composition.test.mjs checks it without a browser.
//
// Two stages:
//   1. the answer: accounting.epsilon (ε at the asked δ, with progress) or accounting.delta (δ at
//      the asked ε), then accounting.compare at that δ (the accountants side by side);
//   2. the curve: accounting.compare at each δ of SWEEP (each accountant's ε for that δ: the
//      naive, advanced and Rényi curves, and the PLD's own points, upper and lower), drawn as they
//      come; then accounting.profile, the PLD's δ(ε) upper and lower on a grid of ε wide enough
//      for the smallest δ of the sweep, which replaces the PLD's points by a smooth curve. A
//      comparison or a profile the engine cannot compute (a grid too fine for its memory, at a
//      very small δ) leaves its points out; the rest is drawn.

import { reportToJob } from '../../engine/client.js';

/** The δ of the curves' points, one decade apart (the plot's δ axis is logarithmic). */
export const SWEEP = [1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-10];
/** Points of the profile's ε grid. */
export const PROFILE_POINTS = 41;

/** The answer's call: ε at δ or δ at ε. */
export function answerCall(events, ask, value) {
  return ask === 'epsilon'
    ? { ns: 'accounting', fn: 'epsilon', args: [events, { delta: value, onProgress: reportToJob }] }
    : { ns: 'accounting', fn: 'delta', args: [events, { epsilon: value, onProgress: reportToJob }] };
}

/** The comparison's call at δ, or null where no δ in (0, 1) is known. */
export function compareCall(events, delta) {
  return delta > 0 && delta < 1 ? { ns: 'accounting', fn: 'compare', args: [events, { delta }] } : null;
}

/** The δ at which to compare the accountants: the asked δ, or the answer's when ε was asked. */
export function compareDelta(ask, value, answer) {
  return ask === 'epsilon' ? value : answer?.delta;
}

/** The profile's call on [0, epsMax]. */
export function profileCall(events, epsMax, points = PROFILE_POINTS) {
  const epsilons = Array.from({ length: points }, (_, k) => (epsMax * k) / (points - 1));
  return { ns: 'accounting', fn: 'profile', args: [events, { epsilons, onProgress: reportToJob }] };
}

/** The accountants of a comparison, in the order of the plot's legend. */
export const ACCOUNTANTS = [
  { key: 'exact', name: 'exact (closed form)' },
  { key: 'pld', name: 'PLD (certified upper)' },
  { key: 'rdp', name: 'Rényi DP' },
  { key: 'advanced', name: 'advanced composition' },
  { key: 'naive', name: 'naive Σεᵢ' },
];

/**
 * The ε grid's end from the sweep's comparisons: a little beyond the largest finite ε the PLD (or
 * the exact form) gives over the sweep, so that the curve reaches the smallest δ; else beyond the
 * answer's ε; else 1.
 */
export function profileEnd(sweep, answerEps) {
  let top = 0;
  for (const c of sweep) {
    const e = c?.exact?.epsilon ?? c?.pld?.epsilon;
    if (Number.isFinite(e) && e > top) top = e;
  }
  if (!(top > 0) && Number.isFinite(answerEps) && answerEps > 0) top = 2 * answerEps;
  return top > 0 ? top * 1.1 : 1;
}

/**
 * The curves of a sweep of comparisons ([compare result | null] in the order of `deltas`): for
 * each bound that applies, its points (ε, δ), sorted by ε. The naive bound is a vertical line:
 * Σεᵢ for every δ ≥ Σδᵢ.
 */
export function boundCurves(sweep, deltas = SWEEP) {
  const out = {};
  for (const key of ['rdp', 'advanced', 'naive']) {
    const pts = [];
    sweep.forEach((c, i) => {
      const e = c?.[key]?.epsilon;
      if (Number.isFinite(e)) pts.push([e, deltas[i]]);
    });
    if (pts.length) out[key] = pts.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  }
  return out;
}

/**
 * The PLD's points from a sweep of comparisons: upper (its ε, a guarantee) and lower (the lower
 * end of its interval), at each δ; an exact form, where there is one, for both.
 */
export function sweepCurves(sweep, deltas = SWEEP) {
  const upper = [];
  const lower = [];
  sweep.forEach((c, i) => {
    const up = c?.exact?.epsilon ?? c?.pld?.epsilon;
    const lo = c?.exact?.epsilon ?? c?.pldLower;
    if (Number.isFinite(up)) upper.push([up, deltas[i]]);
    if (Number.isFinite(lo)) lower.push([lo, deltas[i]]);
  });
  const byEps = (a, b) => a[0] - b[0] || b[1] - a[1];
  return { upper: upper.sort(byEps), lower: lower.sort(byEps) };
}

/** The profile's curves as points (ε, δ): upper and lower, dropping δ = 0 (no place on a log axis). */
export function profileCurves(p) {
  const upper = [];
  const lower = [];
  for (let k = 0; k < p.epsilon.length; k++) {
    if (p.delta[k] > 0) upper.push([p.epsilon[k], p.delta[k]]);
    if (p.deltaLower[k] > 0) lower.push([p.epsilon[k], p.deltaLower[k]]);
  }
  return { upper, lower };
}

/** The curve as a table for the exports: ε, δ upper, δ lower, then the bounds' ε at each δ of the sweep. */
export function curveTable(profile, sweep, deltas = SWEEP) {
  const rows = [];
  if (profile) for (let k = 0; k < profile.epsilon.length; k++) rows.push(['pld', profile.epsilon[k], profile.delta[k], profile.deltaLower[k]]);
  sweep.forEach((c, i) => {
    for (const { key } of ACCOUNTANTS) {
      const e = c?.[key]?.epsilon;
      if (e !== undefined && e !== null) rows.push([key, e, deltas[i], '']);
    }
  });
  return { kind: 'table', colLabels: ['curve', 'epsilon', 'delta', 'delta lower'], rows };
}
