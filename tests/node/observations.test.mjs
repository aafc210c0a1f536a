// sections/observations/state.js: the inputs of the "From observations" section, the verdict in
// words and the exported table.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../web/sections/observations/state.js';

test('inputs: sample sizes, seeds, states from links', () => {
  assert.deepEqual(S.parseN('10000'), { value: 10000 });
  assert.match(S.parseN('5').error, /between 10 and 1,000,000/);
  assert.match(S.parseN('2e3').error, /whole number/);
  assert.match(S.parseN('1000001').error, /between/);
  assert.deepEqual(S.parseSeed(' 7 '), { value: 7 });
  assert.match(S.parseSeed('-1').error, /whole number/);
  assert.deepEqual(S.checkState({ source: 'file', n: 100 }), { source: 'file', n: '100', seed: '1' });
  assert.throws(() => S.checkState({ source: 'url' }), /source/);
  assert.throws(() => S.checkState({ x: 1 }), /unknown key x/);
  assert.throws(() => S.checkState([]), /an object/);
  const st = { ...S.DEFAULT_STATE };
  S.assignState(st, { n: 500 });
  assert.equal(st.n, '500');
});

test('the verdict says what the test shows and what it does not', () => {
  assert.match(S.verdict({ leaks: true, value: 0.2, zeroLeakageThreshold: 0.01 }), /^The data show leakage: the estimate 0.2 bits is above 0.01 bits/);
  const no = S.verdict({ leaks: false, value: 0.003, zeroLeakageThreshold: 0.007 });
  assert.match(no, /^No leakage detected/);
  assert.match(no, /does not show that nothing leaks/);
  assert.deepEqual(S.rulesFor(true), ['nn', 'knn']);
  assert.deepEqual(S.rulesFor(false), ['frequentist', 'nn', 'knn']);
});

test('the exported table: one row per estimate, exact values when known', () => {
  const t = S.resultsTable({
    mi: { value: 0.21, corrected: 0.2, lower: 0.17, upper: 0.25 }, me: { value: 0.94, lower: 0.8, upper: 1.07 },
    risk: { knn: { value: 0.48, nnBound: 0.3, lower: 0.26, upper: 0.53, k: 7 } }, exact: { mi: 0.2075, me: 1, risk: 0.5 },
  });
  assert.equal(t.kind, 'table');
  assert.deepEqual(t.rowLabels, ['Mutual information (bits)', 'Min-entropy leakage (bits)', 'Bayes risk, k nearest neighbours (k = 7)']);
  assert.deepEqual(t.rows[2], [0.48, 0.3, 0.26, 0.53, 0.5]);
  assert.equal(S.resultsTable({ risk: {} }).rows.length, 0);
});
