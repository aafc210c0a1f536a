// lib/readings.js — one line that says what a number on the page means, for a student who sees
// "−1.807 bits" or "∞" and no word beside it. Pure: readingOf(key, value) for the measures of
// lib/measures.js and for the few numbers of other sections that need one (a utility in bits).
// The readings say what the value means here, and what its extremes (0, 1, ∞, a negative value)
// mean; they are the definitions of the mathematics page in words, not new claims.

import { formatNumber } from './numbers.js';

// 2^v in words: a number, or a power of ten where a double has none (2^(−5.85×10⁵)).
const pow2 = (v) => {
  const p = 2 ** v;
  return p > 0 && p < Infinity ? formatNumber(p) : `10^(${formatNumber(v * Math.log10(2))})`;
};

// key → (value) => one line. Every function is given a finite number or ±∞.
const READINGS = {
  shannonEntropy: (v) => `the secret is as uncertain as one of ${pow2(v)} equally likely values; 0: it is known`,
  conditionalShannonEntropy: (v) => `uncertainty left, on average, after seeing y${v === 0 ? ': y always reveals x' : ''}`,
  mutualInformation: (v) => (v === 0 ? 'y says nothing about x' : 'bits of x learned, on average, by seeing y'),
  shannonCapacity: () => 'the most mutual information over every prior: the channel never leaks more bits on average',
  renyiEntropy: () => 'uncertainty of order α (α = 1 is Shannon entropy, α = ∞ min-entropy)',
  minEntropy: (v) => `a one-try guess succeeds as rarely as against ${pow2(v)} equally likely values`,
  conditionalMinEntropy: (v) => `after seeing y, a one-try guess is as hard as against ${pow2(v)} equally likely values`,
  conditionalMinEntropyCachin: () => 'the average over y of each posterior’s min-entropy (at least Smith’s, by Jensen)',
  minEntropyLeakage: (v) => (v === 0 ? 'seeing y does not help a one-try guess' : `seeing y makes a one-try guess ${pow2(v)} times as likely to succeed`),
  minCapacity: (v) => `the most min-entropy leakage over every prior: at most ${pow2(v)} times as likely to guess in one try`,
  bayesVulnerability: () => 'chance of guessing x in one try before seeing y',
  posteriorBayesVulnerability: () => 'chance of guessing x in one try after seeing y (best guess for each y)',
  bayesRisk: () => 'chance that the best one-try guess before seeing y is wrong',
  posteriorBayesRisk: (v) => (v === 0 ? 'after seeing y the best guess is never wrong' : 'chance that the best one-try guess after seeing y is wrong'),
  multiplicativeBayesLeakage: (v) => (v === 1 ? 'seeing y does not help a one-try guess' : `seeing y makes a one-try guess ${formatNumber(v)} times as likely to succeed`),
  additiveBayesLeakage: (v) => (v === 0 ? 'seeing y does not help a one-try guess' : `seeing y adds ${formatNumber(v)} to the chance of guessing x in one try`),
  maxCasePosteriorBayesVulnerability: () => 'chance of a one-try guess after the most revealing y (outputs of probability 0 left out)',
  guessingEntropy: () => 'expected number of guesses, trying values from most to least likely, until x is found',
  posteriorGuessingEntropy: () => 'expected number of guesses after seeing y (at least 1)',
  gVulnerability: (v) => (v < 0 ? 'negative: the best guess still loses on average (the gain function has negative entries)' : 'expected gain of the best guess w before seeing y'),
  posteriorGVulnerability: (v) => (v < 0 ? 'negative: even after seeing y the best guess loses on average' : 'expected gain of the best guess for each y, averaged over y'),
  multiplicativeGLeakage: (v) => (v === 1 ? 'seeing y does not raise the gain' : `seeing y multiplies the expected gain by ${formatNumber(v)}`),
  additiveGLeakage: (v) => (v === 0 ? 'seeing y does not raise the gain' : `seeing y raises the expected gain by ${formatNumber(v)} (never negative)`),
  multiplicativeBayesCapacity: (v) => (v === 1 ? 'no prior lets y help a one-try guess: the channel leaks nothing' : `for the worst prior, seeing y makes a one-try guess ${formatNumber(v)} times as likely`),
  multiplicativeBayesRiskCapacity: (v) => (v === Infinity
    ? '∞: two secrets have rows with no output in common, so on a prior on those two the guess after y is never wrong — the risk can be divided by any factor'
    : v === 1 ? 'seeing y never lowers the chance of a wrong guess' : `for the worst prior, seeing y divides the chance of a wrong guess by ${formatNumber(v)}`),
  additiveGCapacity: () => 'the most additive g-leakage for this prior over every gain function of the class',
  // Other sections.
  utilityBits: (v) => `log₂ of a probability, so ≤ 0: ${formatNumber(v)} bits is a probability 2^(${formatNumber(v)}) = ${pow2(v)} of answering right`,
};

/**
 * One line saying what `value` means for the number named `key` (a key of lib/measures.js's
 * MEASURES, or 'utilityBits'); '' when there is none or the value is not a number.
 * @param {string} key
 * @param {number} value
 */
export function readingOf(key, value) {
  const f = READINGS[key];
  if (!f || typeof value !== 'number' || Number.isNaN(value)) return '';
  if (value === Infinity && key !== 'multiplicativeBayesRiskCapacity') return '∞: no finite bound';
  return f(value);
}

/** The keys that have a reading (every measure of the channel section, and utilityBits). */
export const READING_KEYS = Object.freeze(Object.keys(READINGS));
