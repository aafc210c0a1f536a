// sections/observations/state.js — the "From observations" section's inputs and what it says
// about the estimates, as pure functions (Node-tested in tests/node/sections.test.mjs).
//
// State: {source: 'channel' | 'file', n, seed} — the texts typed; a loaded file is not part of
// the state (a link cannot carry it).

export const DEFAULT_STATE = Object.freeze({ source: 'channel', n: '10000', seed: '1' });

/** The most samples drawn or loaded (the data worker's limit too). */
export const MAX_SAMPLES = 1_000_000;

const INTEGER = /^\s*\d+\s*$/;

/** The number of samples to draw: an integer from 10 to MAX_SAMPLES. */
export function parseN(text) {
  if (!INTEGER.test(String(text))) return { error: 'the number of samples is a whole number, such as 10000' };
  const n = Number(text);
  if (n < 10 || n > MAX_SAMPLES) return { error: `between 10 and ${MAX_SAMPLES.toLocaleString('en')} samples` };
  return { value: n };
}

/** The seed: a non-negative integer. */
export function parseSeed(text) {
  if (!INTEGER.test(String(text)) || !Number.isSafeInteger(Number(text))) return { error: 'the seed is a whole number ≥ 0' };
  return { value: Number(text) };
}

/** A state from a link, checked: the clean state, or an Error naming what is wrong. */
export function checkState(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new Error('the state must be an object');
  for (const k of Object.keys(s)) if (!(k in DEFAULT_STATE)) throw new Error(`unknown key ${k}`);
  if (s.source !== undefined && s.source !== 'channel' && s.source !== 'file') throw new Error(`source: expected 'channel' or 'file'`);
  const out = { ...DEFAULT_STATE };
  for (const k of Object.keys(DEFAULT_STATE)) if (s[k] !== undefined) out[k] = String(s[k]);
  return out;
}

export function assignState(state, s) {
  for (const k of Object.keys(DEFAULT_STATE)) if (s[k] !== undefined) state[k] = String(s[k]);
}

/** The zero-leakage verdict of estimate.mutualInformation, in words. */
export function verdict(mi, fmt = String) {
  if (mi.leaks) {
    return `The data show leakage: the estimate ${fmt(mi.value)} bits is above ${fmt(mi.zeroLeakageThreshold)} bits, ` +
      'what independent secrets and observations stay below in 95% of samples this size (χ² test and shuffled data agree).';
  }
  return `No leakage detected: the estimate ${fmt(mi.value)} bits is within what independent secrets and observations ` +
    `produce (below ${fmt(mi.zeroLeakageThreshold)} bits in 95% of samples this size). This does not show that nothing leaks: ` +
    'a smaller leak cannot be told from noise with this many samples.';
}

/** The rules whose Bayes risk is shown: all three on labels, NN and k-NN on vectors. */
export function rulesFor(vectors) {
  return vectors ? ['nn', 'knn'] : ['frequentist', 'nn', 'knn'];
}

export const RULE_NAMES = { frequentist: 'Frequentist', nn: 'Nearest neighbour', knn: 'k nearest neighbours' };

/** Whether the estimated channel is small enough to show as a table. */
export const SHOW_CHANNEL_UP_TO = 400;

/**
 * The results as a table for the Export menu: one row per estimate, with its interval and, when
 * the samples were drawn from a known channel, the exact value.
 */
export function resultsTable(r) {
  const rows = [];
  const exact = (k) => (r.exact && Number.isFinite(r.exact[k]) ? r.exact[k] : '');
  if (r.mi) rows.push(['Mutual information (bits)', r.mi.value, r.mi.corrected, r.mi.lower, r.mi.upper, exact('mi')]);
  if (r.me) rows.push(['Min-entropy leakage (bits)', r.me.value, '', r.me.lower, r.me.upper, exact('me')]);
  for (const [rule, b] of Object.entries(r.risk ?? {})) {
    rows.push([`Bayes risk, ${RULE_NAMES[rule]}${rule === 'knn' ? ` (k = ${b.k})` : ''}`, b.value, b.nnBound, b.lower, b.upper, exact('risk')]);
  }
  return {
    kind: 'table', what: 'estimates from samples', corner: 'estimate',
    colLabels: ['value', 'corrected / NN bound', 'lower (95%)', 'upper (95%)', 'exact'],
    rowLabels: rows.map((x) => x[0]), rows: rows.map((x) => x.slice(1)),
  };
}
