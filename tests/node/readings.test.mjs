// The one-line readings beside the page's numbers (web/lib/readings.js): every measure has one,
// the extremes say what they mean, and the numbers in them are the value's (2^H for an entropy,
// the probability behind a utility in bits), checked against values computed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readingOf, READING_KEYS, setReading } from '../../web/lib/readings.js';
import { MEASURES } from '../../web/lib/measures.js';

test('every measure of the channel section has a reading', () => {
  for (const key of Object.keys(MEASURES)) {
    assert.ok(READING_KEYS.includes(key), key);
    assert.ok(readingOf(key, 0.5).length > 10, `${key}: a reading of 0.5`);
  }
  assert.equal(readingOf('noSuchMeasure', 1), '');
  assert.equal(readingOf('mutualInformation', NaN), '');
});

test('extremes and signs are read: ∞, negative utilities in bits, negative gains, no leak', () => {
  // The identity on two secrets: the rows share no output, ½‖C(0,·) − C(1,·)‖₁ = 1, and the
  // risk capacity 1/(1 − 1) is ∞ — the reading names disjoint rows.
  const C = [[1, 0], [0, 1]];
  const tv = 0.5 * C[0].reduce((s, c, y) => s + Math.abs(c - C[1][y]), 0);
  assert.equal(1 / (1 - tv), Infinity);
  assert.match(readingOf('multiplicativeBayesRiskCapacity', 1 / (1 - tv)), /^∞: two secrets have rows with no output in common/);
  assert.match(readingOf('multiplicativeBayesRiskCapacity', 2), /divides the chance of a wrong guess by 2/);
  // The utility bound of a 6-clique at ε = ln 2 is 1/(1 + 5/2) = 2/7: log₂(2/7) = −1.807 bits.
  const u = 1 / (1 + 5 * Math.exp(-Math.log(2)));
  assert.ok(Math.abs(Math.log2(u) + 1.807) < 1e-3);
  const r = readingOf('utilityBits', Math.log2(u));
  assert.match(r, /≤ 0/);
  assert.match(r, /= 0\.2857 of answering right/);
  // One that underflows a double is read as a power of ten.
  assert.match(readingOf('utilityBits', -584962.5), /10\^\(−1\.761×10⁵\)/);
  assert.match(readingOf('gVulnerability', -0.25), /^negative: the best guess still loses on average/);
  assert.match(readingOf('posteriorGVulnerability', -0.25), /^negative/);
  assert.equal(readingOf('mutualInformation', 0), 'y says nothing about x');
  assert.equal(readingOf('multiplicativeBayesCapacity', 1), 'no prior lets y help a one-try guess: the channel leaks nothing');
  // An entropy of 3 bits is a uniform choice among 8.
  assert.match(readingOf('shannonEntropy', 3), /one of 8 equally likely/);
  assert.match(readingOf('minEntropyLeakage', 2), /4 times as likely/);
  assert.equal(readingOf('minCapacity', Infinity), '∞: no finite bound');
});

test('the other sections’ numbers: every key reads 0, 1, ½, −1 and ∞, and the extremes say what they mean', () => {
  for (const key of READING_KEYS) {
    for (const v of [0, 0.5, 1, -1, Infinity]) assert.ok(readingOf(key, v).length > 10, `${key}: a reading of ${v}`);
  }
  // ε on a graph: e^ε is the factor between adjacent answers (e^(ln 2) = 2); ∞ and 0 are named.
  assert.match(readingOf('mech.epsilon', Math.LN2), /factor ≤ e\^ε = 2$/);
  assert.match(readingOf('mech.epsilon', Infinity), /^∞: some output is possible for one answer and impossible for an adjacent one/);
  assert.match(readingOf('mech.epsilon', 0), /does not depend on the answer/);
  assert.match(readingOf('mech.utilityGain', -0.25), /^negative/);
  assert.match(readingOf('mech.dbIndividual', Math.log2(4 / 3)), /1\.333 times as likely/);
  // The location section's two ε: the one measured on the matrix, the one asked of the program.
  assert.match(readingOf('geo.epsilonLP', 0.98), /measured on the matrix the solver returned.*not the guaranteed ε below/);
  assert.match(readingOf('geo.guaranteed', 0.98), /the ε that the linear program’s constraints ensure on every pair/);
  assert.match(readingOf('geo.loss', 1.5), /1\.5 cell sides from the true one/);
  assert.match(readingOf('ip.epsilon', Infinity), /^∞: some answer is possible for one value of a record and impossible for another/);
  assert.match(readingOf('ip.ratioMin', 0), /rules a value out/);
  assert.match(readingOf('cmp.pairDistance', Math.log(3)), /e\^d = 3$/);
  assert.match(readingOf('cmp.pairDistance', Infinity), /^∞/);
  assert.match(readingOf('cmp.totalVariation', 1), /tells the two secrets apart for sure/);
  assert.match(readingOf('cmp.gap', 0.1), /^positive: this adversary gains more from B/);
});

test('setReading puts the reading in the title after the full value, and in data-reading', () => {
  const el = { title: '', dataset: {} };
  setReading(el, 0.1 + 0.2, 'a reading');
  assert.equal(el.title, '0.30000000000000004 — a reading');
  assert.equal(el.dataset.reading, 'a reading');
  setReading(el, Infinity, '');
  assert.equal(el.title, '∞');
  assert.equal(el.dataset.reading, undefined);
  setReading(el, 'log₂ = −3', 'x');
  assert.equal(el.title, 'log₂ = −3 — x');
});
