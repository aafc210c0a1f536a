// sections/observations/plan.js — what the "From observations" section asks of the engine, as data:
// the calls for one set of samples, each with the key under which the view shows its result.
// Options the engine's API table does not list are not sent (an engine without the
// nearest-neighbour estimator still gives the Bayes risk), and the view says what is missing.

import { reportToJob } from '../../engine/client.js';
import * as S from './state.js';

/** The fields of a function's options in the API table ([] when it has none or is absent). */
function optionFields(api, ns, fn) {
  const f = (api?.functions ?? []).find((x) => x.ns === ns && x.name === fn);
  const opts = f?.params?.find((p) => p.kind === 'options');
  return opts?.fields ?? [];
}

/** Whether estimate.<fn> takes option `name` (a field of its options in the API table). */
export function supports(api, fn, name) {
  return optionFields(api, 'estimate', fn).some((f) => f.name === name);
}

/** Whether estimate.<fn> takes a progress callback. */
export function hasProgress(api, fn) {
  const f = (api?.functions ?? []).find((x) => x.ns === 'estimate' && x.name === fn);
  return Boolean(f?.callbacks?.length);
}

/**
 * The calls for samples read as `kind`: [{key, call, progress?}]. data: {secrets, observations
 * (a {rows, cols, data} matrix when numbers, an Int32Array of labels otherwise)}; opts: {seed,
 * knn, miK, bins (null, 'fd' or a number), refused (label estimators refuse: mostly distinct),
 * sizes (the convergence plot's sample sizes below n), perm (their permutation), raw (the matrix
 * itself when `observations` is a shared reference to it)}.
 */
export function estimateCalls(plan, api, data, kind, opts) {
  const { secrets, observations } = data;
  const { seed } = opts;
  const out = [];
  const withKind = (fn, o) => (supports(api, fn, 'kind') ? { ...o, kind } : o);
  const progress = (fn, o) => (hasProgress(api, fn) ? { ...o, onProgress: reportToJob } : o);
  const numbers = kind === 'numbers';
  if (!numbers && !opts.refused) {
    out.push({ key: 'channel', call: plan.estimate.channel(secrets, observations) });
    out.push({ key: 'mi', call: plan.estimate.mutualInformation(secrets, observations, progress('mutualInformation', withKind('mutualInformation', { seed }))) });
    out.push({ key: 'me', call: plan.estimate.minEntropyLeakage(secrets, observations, progress('minEntropyLeakage', withKind('minEntropyLeakage', { seed }))) });
  }
  if (numbers && supports(api, 'mutualInformation', 'method')) {
    const o = progress('mutualInformation', withKind('mutualInformation', { method: 'nn', k: opts.miK, seed }));
    out.push({ key: 'miNN', call: plan.estimate.mutualInformation(secrets, observations, o), progress: true });
  }
  if (numbers && supports(api, 'minEntropyLeakage', 'kind')) {
    const o = progress('minEntropyLeakage', { kind, seed });
    if (supports(api, 'minEntropyLeakage', 'k')) o.k = opts.knn; // the k-NN rule whose Bayes risk it is
    out.push({ key: 'meNN', call: plan.estimate.minEntropyLeakage(secrets, observations, o), progress: true });
  }
  if (numbers && opts.bins !== null && supports(api, 'mutualInformation', 'bins')) {
    const o = { kind, bins: opts.bins, seed };
    out.push({ key: 'mi', call: plan.estimate.mutualInformation(secrets, observations, progress('mutualInformation', { ...o, method: 'plugin' })) });
    out.push({ key: 'me', call: plan.estimate.minEntropyLeakage(secrets, observations, progress('minEntropyLeakage', o)) });
  }
  for (const rule of S.rulesFor(numbers)) {
    const o = withKind('bayesRisk', { method: rule, seed, onProgress: reportToJob });
    if (rule === 'knn') o.k = opts.knn;
    out.push({ key: `risk-${rule}`, call: plan.estimate.bayesRisk(secrets, observations, o), progress: true });
  }
  // The convergence plot: the MI estimate on subsets (nearest neighbours on numbers, the counted
  // one on labels that are not refused). Its points need no zero-leakage test (shuffles: 0).
  const curveMethod = numbers ? (supports(api, 'mutualInformation', 'method') ? 'nn' : null) : (opts.refused ? null : 'plugin');
  if (curveMethod) {
    const noTest = supports(api, 'mutualInformation', 'shuffles') ? { shuffles: 0 } : {};
    for (const m of opts.sizes ?? []) {
      const sub = S.subsample(secrets, opts.raw ?? observations, opts.perm, m);
      const o = withKind('mutualInformation', curveMethod === 'nn' ? { method: 'nn', k: opts.miK, seed, ...noTest } : { seed, ...noTest });
      out.push({ key: `curve-${m}`, call: plan.estimate.mutualInformation(sub.secrets, sub.observations, o) });
    }
  }
  return out;
}

/**
 * An engine error in the reader's words where it is a known refusal: label estimators on
 * mostly-distinct observations, too few samples of a secret for the NN estimator, a single
 * secret value. Other messages are shown as the engine gives them (they name the argument).
 */
export function explain(message, n) {
  const m = String(message);
  const distinct = /([\d,]+) of the [\d,]+ observations are distinct/.exec(m) ?? /([\d,]+)\s+distinct/.exec(m);
  if (distinct && /kind|bins|label/i.test(m)) return S.refusalMessage(Number(distinct[1].replace(/,/g, '')), n);
  if (/2k\s*\+\s*1|fewer than/i.test(m) && /secret/i.test(m)) {
    return `${m} — the nearest-neighbour estimator needs at least 2k + 1 samples of every secret: lower k, or collect more samples of the rare secrets.`;
  }
  return m;
}
