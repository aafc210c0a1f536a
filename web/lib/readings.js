// lib/readings.js — one line that says what a number on the page means, for a student who sees
// "−1.807 bits" or "∞" and no word beside it. readingOf(key, value) for the measures of
// lib/measures.js and for the numbers of the other sections (keys "mech.…", "geo.…", "ip.…",
// "cmp.…"); MATRIX_READINGS for the entries of the matrices drawn as tables; setReading puts a
// reading on the element that shows the number (its title and data-reading, which the browser
// tests walk).
// The readings say what the value means here, and what its extremes (0, 1, ∞, a negative value)
// mean; they are the definitions of the mathematics page in words, not new claims.

import { formatNumber, formatFull, withUnit } from './numbers.js';

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
  utilityBits: (v) => `log₂ of a probability, so ≤ 0: ${withUnit(v, 'bits')} is a probability 2^(${formatNumber(v)}) = ${pow2(v)} of answering right`,

  // Design a mechanism (answers on a graph, ε-DP on it).
  'mech.bound': () => 'no ε-DP mechanism on this graph reports the true answer more often than this, on average over a uniformly chosen answer',
  'mech.epsilonTyped': () => 'the privacy level asked, in nats: every mechanism here is offered at it; the table’s last column says which reach it',
  'mech.expEpsilon': (v) => (v === 1 ? 'e^0 = 1: adjacent answers must give every output the same probability' : `outputs of adjacent answers may differ in probability by at most this factor (${formatNumber(v)}×)`),
  'mech.utilityProbability': (v) => (v === 1 ? 'the best guess from the output is always the true answer: no privacy' : 'chance that the best guess from the output is the true answer (higher is better)'),
  'mech.utilityGain': (v) => (v < 0 ? 'negative: even the best guess from the output loses on average (the gain has negative entries)' : 'expected gain of the best guess from the output (higher is better)'),
  'mech.expectedLoss': (v) => (v === 0 ? 'the best guess from the output is never off' : 'expected loss of the best guess from the output (lower is better)'),
  'mech.epsilon': (v) => (v === Infinity
    ? '∞: some output is possible for one answer and impossible for an adjacent one, so no finite ε holds'
    : v === 0 ? '0: the output does not depend on the answer (perfectly private, and useless)'
      : `the smallest ε this matrix satisfies: on adjacent answers every output’s probability changes by a factor ≤ e^ε = ${formatNumber(Math.exp(v))}`),
  'mech.lpUtility': () => 'the utility of the mechanism the solver returned',
  'mech.lpBound': () => 'no ε-private mechanism does better than this (a bound from the dual solution); the optimum lies between it and the utility',
  'mech.lpGap': (v) => (v === 0 ? 'bound and utility agree: the returned mechanism is optimal' : 'how far the returned mechanism may be from optimal (0: it is optimal)'),
  'mech.lpPrimalResidual': (v) => (v === 0 ? 'the solution meets every constraint exactly' : 'by how much the solution misses its worst constraint before the repair (0: not at all)'),
  'mech.lpDualResidual': (v) => (v === 0 ? 'the dual prices meet every constraint exactly' : 'by how much the dual prices miss their worst constraint (0: not at all); it loosens the bound'),
  'mech.dbExpEpsilon': () => 'databases that differ in one individual give every answer probabilities within this factor of each other',
  'mech.dbDomain': (v) => `bits needed to write down one database: ${withUnit(v, 'bits')} = log₂ of the number of databases`,
  'mech.dbLeakage': (v) => (v === 0 ? 'an ε-DP mechanism reveals nothing about the database' : `at most ${withUnit(v, 'bits')} of min-entropy ${formatNumber(v) === '1' ? 'leaks' : 'leak'} about the whole database: a one-try guess at most 2^(${formatNumber(v)}) times as likely after the answer`),
  'mech.dbIndividual': (v) => (v === 0 ? 'nothing leaks about one individual' : `a one-try guess of one individual’s value becomes at most ${pow2(v)} times as likely`),
  'mech.dbUtility': () => 'the best chance an ε-DP mechanism on these databases gives of reporting the true one (uniform prior)',
  'mech.certified': () => 'the optimum in exact arithmetic (no ε-DP mechanism does better), proved with the dual prices',

  // Location privacy (cells of a map, ε·d-privacy).
  'geo.loss': (v) => (v === 0 ? '0: the true cell is always reported (no privacy)' : `on average the reported cell is ${formatNumber(v)} cell sides from the true one (lower is better)`),
  'geo.remapped': () => 'the same after an observer who knows the density moves each report to its best guess of the true cell: never more than the column before, same privacy',
  'geo.epsilon': (v) => (v === Infinity
    ? '∞: some cell can be reported from one true cell and not from another, so no finite ε holds'
    : 'measured on the matrix as computed: the smallest ε with K[x][z] ≤ e^(ε·d(x,x′)) K[x′][z] for every pair of cells'),
  'geo.epsilonLP': (v) => (v === Infinity
    ? '∞: some cell can be reported from one true cell and not from another, so no finite ε holds'
    : 'measured on the matrix the solver returned, from its entries: the ε it actually satisfies on every pair of cells — not the guaranteed ε below (what the program’s constraints ensure), and at most that up to the solver’s rounding'),
  'geo.gap': (v) => (v <= 1e-9
    ? 'the optimum is proven: no mechanism meeting the same constraints has a smaller expected distance by more than this (rounding)'
    : 'not proven optimal: the best mechanism meeting the same constraints may have an expected distance smaller by up to this much'),
  'geo.progress.value': () => 'the expected distance of the mechanism the solver holds now, a feasible one: the optimum is at most this',
  'geo.progress.bound': () => 'a lower bound on the optimum proven by the solver’s current prices: no mechanism meeting the constraints does better',
  'geo.progress.gap': () => 'how far the mechanism held can still be from the optimum, at most (value − bound); the solve ends when it is about 0',
  'geo.guaranteed': () => 'the ε that the linear program’s constraints ensure on every pair of cells (ε itself when every pair is constrained; with a spanner, ε·t/δ): what the optimal mechanism is built to satisfy — the table’s last column is the ε its computed matrix actually satisfies, which can be smaller',

  // Information privacy (records, a query, noise).
  'ip.capacity': (v) => (v === 0 ? 'one record never changes the answer’s distribution: it leaks nothing' : 'the most bits one record can leak through the answer on average, for the worst record, values of the others and prior'),
  'ip.epsilon': (v) => (v === Infinity
    ? '∞: some answer is possible for one value of a record and impossible for another, so no finite ε holds (add noise)'
    : v === 0 ? '0: the answer does not depend on any record' : `changing one record multiplies any answer’s probability by at most e^ε = ${formatNumber(Math.exp(v))}`),
  'ip.epsForDelta': (v) => (v === Infinity
    ? '∞: no finite ε reaches this δ'
    : `(ε, δ)-DP: changing one record multiplies an answer’s probability by at most e^ε = ${formatNumber(Math.exp(v))}, except for events of total probability δ`),
  'ip.pureEpsilon': () => 'the smallest ε with δ = 0 (pure ε-DP)',
  'ip.expEpsilon': () => 'the factor by which changing one record may at most multiply the probability of an answer',
  'ip.expMinusEpsilon': () => 'the factor by which changing one record may at most divide the probability of an answer',
  'ip.subEpsilon': () => 'the smallest ε of this record with the others fixed as shown (at most the query’s)',
  'ip.ratioMax': (v) => (v === 1 ? 'no answer raises the belief in any value' : `an answer can make a value at most ${formatNumber(v)} times as likely as before it (at most e^ε)`),
  'ip.ratioMin': (v) => (v === 0 ? '0: some answer rules a value out completely' : v === 1 ? 'no answer lowers the belief in any value' : `an answer can make a value as little as ${formatNumber(v)} times as likely as before it (at least e^−ε)`),
  'ip.capacityPrior': () => 'the probability of this value under the prior that makes the record leak most',
  'ip.bscCapacity': (v) => (v === 0 ? '0: p = ½, the output is a coin flip and carries nothing about the bit' : v === 1 ? '1 bit: p = 0 or 1, the bit always comes through' : 'bits about the true bit that one output carries, at best'),
  'ip.bscFlip': () => 'flip the bit with this probability (at most ½) for exactly the target capacity',
  'ip.gaussCapacity': (v) => (v === 0 ? 'nothing about the value comes through' : 'bits about the value that one noisy output carries, at best'),
  'ip.gaussSigma': () => 'the standard deviation of the noise that gives exactly the target capacity',
  'ip.variance': () => 'the variance of the noise added to the answer: lower means more accurate answers at this protection',
  'ip.sigma': () => 'its standard deviation √variance: the typical size of the noise',
  'ip.power': () => 'the signal power P = Δ²/4 the privacy channel is calibrated for',

  // Compare two mechanisms.
  'cmp.residual': (v) => (v === 0 ? 'A·R equals B exactly' : 'how far A·R is from B, on average per entry (0: B = A·R exactly)'),
  'cmp.vulnerability': (v) => (v < 0 ? 'negative: even the best guess loses on average with this gain function' : 'the expected gain of the best guess after seeing the output, for this gain function and prior'),
  'cmp.gap': (v) => (v > 0 ? 'positive: this adversary gains more from B than from A, so B is not safe in place of A' : 'B gives this adversary no more than A'),
  'cmp.hullDistance': (v) => (v === 0 ? 'the posterior lies on A’s hull' : 'how far this posterior of B lies outside the hull of A’s posteriors (0 would be inside)'),
  'cmp.pairDistance': (v) => (v === Infinity
    ? '∞: some output is possible for one secret and impossible for the other: seeing it tells them apart for sure'
    : v === 0 ? '0: the two secrets give every output the same probability' : `ln of the largest ratio between the two secrets’ probabilities of one output: a factor e^d = ${formatNumber(Math.exp(v))}`),
  'cmp.expDistance': (v) => (v === Infinity ? '∞: one secret makes an output impossible that the other allows' : 'the largest factor between the probabilities the two secrets give one output'),
  'cmp.leak': (v) => (v > 0 ? 'the most B can leak beyond A for this prior, over every gain function with gains at most 1' : '0: for this prior no gain function bounded by 1 gains more from B than from A'),
  'cmp.totalVariation': (v) => (v === 0 ? '0: the two secrets give the same output distribution' : v === 1 ? '1: no output is possible for both: the output tells the two secrets apart for sure' : 'the largest difference in probability that any set of outputs has between the two secrets'),
  'cmp.multiplicativeTotalVariation': (v) => (v === Infinity
    ? '∞: an output possible for one secret is impossible for the other'
    : v === 0 ? '0: the same output distribution' : `ln of the largest ratio of one output’s probabilities: e^d = ${formatNumber(Math.exp(v))}`),
  'cmp.convexSeparation': (v) => (v === 0 ? '0: the same output distribution' : v === 1 ? '1: some output of one secret is impossible for the other' : 'the largest share of one secret’s probability of an output that the other secret does not give it'),
  'cmp.kantorovich': (v) => (v === 0 ? '0: the same output distribution' : 'the least expected distance, in the ground metric, to move one output distribution onto the other'),
  'cmp.multiplicativeKantorovich': (v) => (v === Infinity ? '∞: no finite multiplicative coupling exists' : v === 0 ? '0: the same output distribution' : 'the multiplicative (ε-like) version of the transport distance, in nats'),
  'cmp.rowSum': (v) => (Math.abs(v - 1) < 1e-9 ? 'the row sums to 1: the output distribution of this secret' : 'a row of a channel is a distribution, so it must sum to 1'),
  'cmp.expEpsilon': () => 'the largest factor between the probabilities that adjacent inputs give one output',
  'cmp.trueEpsilon': () => 'the ε this matrix actually satisfies for |x − x′| (at most the ε typed)',
};

// The keys whose function says itself what ∞ means (the others read it as "no finite bound").
const OWN_INFINITY = new Set(['multiplicativeBayesRiskCapacity', 'mech.epsilon', 'geo.epsilon', 'geo.epsilonLP', 'ip.epsilon', 'ip.epsForDelta',
  'cmp.pairDistance', 'cmp.expDistance', 'cmp.multiplicativeTotalVariation', 'cmp.multiplicativeKantorovich']);

/**
 * The reading of every entry of a matrix the page draws as a table, by the matrix's role: one
 * sentence for all its cells (on the table and in each cell's title).
 */
export const MATRIX_READINGS = Object.freeze({
  avgWitness: 'R[y][z]: the probability that B outputs z when A outputs y (B = A·R)',
  maxWitness: 'R[i][j]: the weight of A’s posterior j in the mixture that gives B’s posterior i',
  gain: 'g(w, x): what the adversary gains by guessing w when the secret is x',
  prior: 'π(x): the prior probability of secret x',
  posterior: 'σ(x): the probability of secret x after this output of B (uniform prior)',
  channel: 'C[x][y]: the probability of output y when the secret is x',
});

/**
 * One line saying what `value` means for the number named `key` (a key of lib/measures.js's
 * MEASURES, or 'utilityBits'); '' when there is none or the value is not a number.
 * @param {string} key
 * @param {number} value
 */
export function readingOf(key, value) {
  const f = READINGS[key];
  if (!f || typeof value !== 'number' || Number.isNaN(value)) return '';
  if (value === Infinity && !OWN_INFINITY.has(key)) return '∞: no finite bound';
  return f(value);
}

/**
 * Puts the reading of a number on the element that shows it: data-reading, and the title
 * "full value — reading" (the hover text). `x` is the number (for its full digits) or the text to
 * show before the reading.
 * @param {HTMLElement} el
 * @param {number|string} x
 * @param {string} reading
 */
export function setReading(el, x, reading) {
  const full = typeof x === 'number' ? formatFull(x) : String(x);
  el.title = reading ? `${full} — ${reading}` : full;
  if (reading) el.dataset.reading = reading; else delete el.dataset.reading;
}

/** The keys that have a reading (every measure of the channel section, and the other sections' numbers). */
export const READING_KEYS = Object.freeze(Object.keys(READINGS));
