// sections/observations (state.js, plan.js): the inputs of the "From observations" section, how
// it reads the observation columns, the swapped-columns check, the calls it plans, the verdict in
// words and the exported table with its provenance. Expected values are written out here by hand
// or counted here independently of the code under test.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../web/sections/observations/state.js';
import { estimateCalls, explain, supports } from '../../web/sections/observations/plan.js';
import { toCSV, toJSON, toLaTeX } from '../../web/lib/export-formats.js';

test('inputs: sample sizes, seeds, k, bins, states from links', () => {
  assert.deepEqual(S.parseN('10000'), { value: 10000 });
  assert.match(S.parseN('5').error, /between 10 and 1,000,000/);
  assert.match(S.parseN('2e3').error, /whole number/);
  assert.match(S.parseN('1000001').error, /between/);
  assert.deepEqual(S.parseSeed(' 7 '), { value: 7 });
  assert.match(S.parseSeed('-1').error, /whole number/);
  assert.deepEqual(S.parseKnn('ln'), { value: 'ln' });
  assert.deepEqual(S.parseKnn('log10'), { value: 'log10' });
  assert.deepEqual(S.parseKnn(' 9 '), { value: 9 });
  assert.match(S.parseKnn('0').error, /k of the k-NN rule/);
  assert.match(S.parseKnn('sqrt').error, /ln, log10/);
  assert.deepEqual(S.parseMiK('3'), { value: 3 });
  assert.match(S.parseMiK('0').error, /MI estimator/);
  assert.deepEqual(S.parseBins('none'), { value: null });
  assert.deepEqual(S.parseBins('fd'), { value: 'fd' });
  assert.deepEqual(S.parseBins('12'), { value: 12 });
  assert.match(S.parseBins('1').error, /bins/);
  assert.deepEqual(S.checkState({ source: 'file', n: 100 }), { ...S.DEFAULT_STATE, source: 'file', n: '100' });
  assert.deepEqual(S.checkState({ kind: 'numbers', knn: 7, bins: 'fd' }), { ...S.DEFAULT_STATE, kind: 'numbers', knn: '7', bins: 'fd' });
  assert.throws(() => S.checkState({ source: 'url' }), /source/);
  assert.throws(() => S.checkState({ kind: 'vectors' }), /kind/);
  assert.throws(() => S.checkState({ knn: 'e' }), /k-NN/);
  assert.throws(() => S.checkState({ x: 1 }), /unknown key x/);
  assert.throws(() => S.checkState([]), /an object/);
  const st = { ...S.DEFAULT_STATE };
  S.assignState(st, { n: 500, miK: 5 });
  assert.equal(st.n, '500');
  assert.equal(st.miK, '5');
});

test('how observation columns are read: numbers or labels, and why', () => {
  const m = (data, cols = 1) => ({ rows: data.length / cols, cols, data: Float64Array.from(data) });
  // Timings with decimals: numbers whatever their count.
  assert.equal(S.autoKind(m([1.5, 2, 2, 1.5])).kind, 'numbers');
  // Whole numbers, few distinct: labels (a count of 0..4, say).
  const few = m(Array.from({ length: 1000 }, (_, i) => i % 5));
  assert.deepEqual(S.autoKind(few), { kind: 'labels', why: 'whole numbers with 5 distinct values' });
  // Whole numbers (microseconds) mostly distinct: more than max(20, n/20) = 100 distinct → numbers.
  const us = m(Array.from({ length: 2000 }, (_, i) => 1000 + (i % 101)));
  assert.equal(S.autoKind(us).kind, 'numbers');
  assert.equal(S.autoKind(m(Array.from({ length: 2000 }, (_, i) => 1000 + (i % 100)))).kind, 'labels');
  // Small samples: up to 20 distinct values stay labels.
  assert.equal(S.autoKind(m(Array.from({ length: 40 }, (_, i) => i % 20))).kind, 'labels');
  assert.equal(S.autoKind(m(Array.from({ length: 40 }, (_, i) => i % 21))).kind, 'numbers');
  // Label cells (an Int32Array of indices) can only be labels.
  assert.equal(S.autoKind(Int32Array.of(0, 1)).kind, 'labels');
  assert.match(S.kindOf('numbers', Int32Array.of(0, 1)).refused, /not numbers/);
  assert.deepEqual(S.kindOf('labels', us), { kind: 'labels', why: 'as chosen', forced: true });
  // Vectors as labels: one name per distinct row, codes in order of first appearance.
  const v = S.asLabels(m([0.5, 1, 2, 0, 0.5, 1], 2));
  assert.deepEqual([...v.codes], [0, 1, 0]);
  assert.deepEqual(v.names, ['(0.5, 1)', '(2, 0)']);
  assert.equal(S.distinctCount(m([0.5, 1, 2, 0, 0.5, 1], 2)), 2);
  // Label estimators refuse more than n/5 distinct observations.
  assert.deepEqual(S.mostlyDistinct(Int32Array.from({ length: 100 }, (_, i) => i % 20), 100), { refused: false, distinct: 20 });
  assert.deepEqual(S.mostlyDistinct(Int32Array.from({ length: 100 }, (_, i) => i % 21), 100), { refused: true, distinct: 21 });
  assert.equal(S.tieNote(5000, 10000), null, 'half distinct: no caution');
  assert.match(S.tieNote(1685, 10000), /^Only 1,685 of the 10,000 observations are distinct/);
  assert.match(S.refusalMessage(19998, 20000), /19,998 of the 20,000 observations are distinct.*as numbers, or choose bins/);
});

test('the prior’s baseline and the swapped-columns check', () => {
  // π̂ = (3/6, 2/6, 1/6): baseline 1 − 1/2.
  assert.deepEqual(S.priorOf(Int32Array.of(0, 0, 0, 1, 1, 2)), { values: 3, maxPrior: 0.5, baseline: 0.5 });
  // A timing file with its columns swapped: 8 distinct "secrets" in 8 samples, Hamming weights as observations.
  const times = [101.5, 99.25, 120.75, 130.5, 98, 141.25, 119.5, 100.75];
  const weights = [0, 0, 1, 2, 0, 3, 1, 0];
  const t = { secrets: Float64Array.from(times), secretNames: null, observations: { rows: 8, cols: 1, data: Float64Array.from(weights) },
    observationNames: null, header: ['time', 'weight'], rows: 8, observationColumns: 1, decimalComma: false };
  assert.deepEqual(S.swapSuspect(t), { suspect: true, distinct: 8, canSwap: true, why: undefined });
  const u = S.swapColumns(t);
  assert.ok(u.secrets instanceof Int32Array, 'whole-number secrets become an Int32Array');
  assert.deepEqual([...u.secrets], weights);
  assert.deepEqual([...u.observations.data], times);
  assert.deepEqual(u.header, ['weight', 'time']);
  assert.equal(u.swapped, true);
  assert.equal(S.swapSuspect(u).suspect, false, '4 distinct secrets in 8 samples is not more than n/2');
  const back = S.swapColumns(u);
  assert.deepEqual([...back.secrets], times);
  assert.deepEqual([...back.observations.data], weights);
  // Text secrets with two observation columns joined as labels cannot be swapped here.
  const text = { secrets: Int32Array.of(0, 1, 2), secretNames: ['a', 'b', 'c'], observations: Int32Array.of(0, 0, 1), observationNames: ['x, y', 'z, w'],
    header: null, rows: 3, observationColumns: 2 };
  assert.deepEqual(S.swapSuspect(text), { suspect: true, distinct: 3, canSwap: false, why: 'reorder the columns in the file: the secret first' });
});

test('convergence sizes, the seeded permutation and subsets', () => {
  assert.deepEqual(S.convergenceSizes(20000), [625, 1250, 2500, 5000, 10000, 20000]);
  assert.deepEqual(S.convergenceSizes(1000, 300), [500, 1000]);
  assert.deepEqual(S.convergenceSizes(100, 200), [100]);
  const p = S.permutation(1000, 3);
  assert.deepEqual([...p].sort((a, b) => a - b), Array.from({ length: 1000 }, (_, i) => i), 'a permutation');
  assert.deepEqual([...S.permutation(1000, 3)], [...p], 'the same for the same seed');
  assert.notDeepEqual([...S.permutation(1000, 4)], [...p]);
  const perm = Int32Array.of(2, 0, 1);
  const sub = S.subsample(Int32Array.of(7, 8, 9), { rows: 3, cols: 2, data: Float64Array.of(1, 2, 3, 4, 5, 6) }, perm, 2);
  assert.deepEqual([...sub.secrets], [9, 7]);
  assert.deepEqual(sub.observations, { rows: 2, cols: 2, data: Float64Array.of(5, 6, 1, 2) });
  assert.deepEqual([...S.subsample(Int32Array.of(7, 8, 9), Int32Array.of(4, 5, 6), perm, 3).observations], [6, 4, 5]);
});

test('the bins in words', () => {
  assert.equal(S.binsText([0, 1, 2, 3], 3), '3 bins from 0 to 3');
  assert.equal(S.binsText(Float64Array.of(-1, 0.5, 2), 'fd'), '2 bins from -1 to 2');
  assert.equal(S.binsText([[0, 1, 2], [5, 6]], 'fd'), 'column 2: 2 bins from 0 to 2; column 3: 1 bins from 5 to 6');
  assert.equal(S.binsText({ edges: [0, 2, 4] }, 2), '2 bins from 0 to 4');
  assert.equal(S.binsText(7, 7), '7 bins');
  assert.equal(S.binsText(undefined, 'fd'), 'Freedman–Diaconis bins');
  assert.equal(S.binsText(undefined, 12), '12 equal-width bins');
  assert.equal(S.binsText(undefined, null), 'none');
});

test('the verdict says what the test shows and what it does not', () => {
  assert.match(S.verdict({ leaks: true, value: 0.2, zeroLeakageThreshold: 0.01 }), /^The data show leakage: the estimate 0.2 bits is above 0.01 bits/);
  assert.match(S.verdict({ leaks: true, value: 0.8, zeroLeakageThreshold: -0.04, method: 'nn' }), /^The data show leakage: the estimate 0.8 bits is above -0.04 bits, the 95th percentile of the same estimator on shuffled data/);
  assert.match(S.verdict({ leaks: false, value: 0.01, zeroLeakageThreshold: 0.02, method: 'nn' }), /^No leakage detected.*smaller leak/);
  const no = S.verdict({ leaks: false, value: 0.003, zeroLeakageThreshold: 0.007 });
  assert.match(no, /^No leakage detected/);
  assert.match(no, /does not show that nothing leaks/);
  assert.deepEqual(S.rulesFor(true), ['nn', 'knn']);
  assert.deepEqual(S.rulesFor(false), ['frequentist', 'nn', 'knn']);
});

test('the exported table: one row per estimate, exact values when known, provenance and how to cite', () => {
  const r = {
    kind: 'labels', mi: { value: 0.21, corrected: 0.2, lower: 0.17, upper: 0.25 }, me: { value: 0.94, lower: 0.8, upper: 1.07 },
    risk: { knn: { value: 0.48, nnBound: 0.3, lower: 0.26, upper: 0.53, k: 7 } }, exact: { mi: 0.2075, me: 1, risk: 0.5 },
    baseline: 0.75, knnK: 7, binsText: 'none', provenance: { source: 'drawn from the channel of the Channel section', n: 2000, seed: 1 },
  };
  const t = S.resultsTable(r, '1.2.3');
  assert.equal(t.kind, 'table');
  assert.deepEqual(t.rowLabels, ['Mutual information (bits), counted', 'Min-entropy leakage (bits), counted', 'Bayes risk, k nearest neighbours (k = 7)', 'Prior’s baseline 1 − max π̂']);
  assert.deepEqual(t.rows[2].slice(0, 5), [0.48, 0.3, 0.26, 0.53, 0.5]);
  assert.deepEqual(t.rows[3].slice(0, 1), [0.75]);
  const notes = Object.fromEntries(t.notes);
  assert.equal(notes.n, 2000);
  assert.equal(notes.seed, 1);
  assert.equal(notes['k (k-NN rule)'], 7);
  assert.equal(notes['toolkit version'], '1.2.3');
  assert.match(t.cite, /QIF Toolkit 1\.2\.3.*Cherubin/);
  // Numbers: the nearest-neighbour rows first, the file name, k of both estimators and the bins.
  const num = S.resultsTable({ kind: 'numbers', miNN: { value: 0.9, lower: 0.85, upper: 0.95, k: 3 }, meNN: { value: 0.8, lower: 0.7, upper: 0.9 },
    risk: {}, miK: 3, knnK: 10, binsText: '12 bins from 0 to 1', baseline: 0.625, provenance: { source: 'timing.csv', n: 20000, seed: 4 } }, '0.1.0');
  assert.deepEqual(num.rowLabels.slice(0, 2), ['Mutual information (bits), nearest neighbours (k = 3)', 'Min-entropy leakage (bits), from the Bayes risk']);
  assert.match(num.rows[1][5], /Bayes-risk interval/);
  assert.deepEqual(Object.fromEntries(num.notes), { source: 'timing.csv', n: 20000, seed: 4, 'observations read as': 'numbers',
    'k (k-NN rule)': 10, 'k (MI estimator)': 3, bins: '12 bins from 0 to 1', confidence: 0.95, 'toolkit version': '0.1.0' });
  assert.equal(S.resultsTable({ risk: {} }).rows.length, 0);
});

test('provenance in every export format', () => {
  const d = { kind: 'table', corner: 'estimate', colLabels: ['value'], rowLabels: ['MI'], rows: [[0.5]], notes: [['source', 'a.csv'], ['n', 100]], cite: 'QIF Toolkit 0.1.0' };
  assert.equal(toCSV(d), '"estimate","value"\n"MI",0.5\n\n"source","a.csv"\n"n",100\n"how to cite","QIF Toolkit 0.1.0"\n');
  const j = JSON.parse(toJSON(d));
  assert.deepEqual(j, { provenance: { source: 'a.csv', n: 100 }, cite: 'QIF Toolkit 0.1.0', rows: [{ estimate: 'MI', value: 0.5 }] });
  const tex = toLaTeX(d);
  assert.match(tex, /^% source: a\.csv\n% n: 100\n% how to cite: QIF Toolkit 0\.1\.0\n\\begin\{tabular\}/);
  // Without them, the formats are as before.
  const plain = { ...d, notes: undefined, cite: undefined };
  assert.equal(toCSV(plain), '"estimate","value"\n"MI",0.5\n');
  assert.deepEqual(JSON.parse(toJSON(plain)), [{ estimate: 'MI', value: 0.5 }]);
});

test('the calls planned: what the engine takes, by kind', () => {
  const plan = { estimate: new Proxy({}, { get: (_, fn) => (...args) => ({ ns: 'estimate', fn, args }) }) };
  const opts = (fn, names) => ({ ns: 'estimate', name: fn, params: [{ name: 'secrets' }, { name: 'observations' }, { name: 'options', kind: 'options', fields: names.map((name) => ({ name })) }] });
  const full = { functions: [opts('mutualInformation', ['kind', 'bins', 'method', 'k', 'seed', 'shuffles']), opts('minEntropyLeakage', ['kind', 'bins', 'k', 'seed']), opts('bayesRisk', ['kind', 'method', 'k', 'seed']), opts('channel', [])] };
  const old = { functions: [opts('mutualInformation', ['seed']), opts('minEntropyLeakage', ['seed']), opts('bayesRisk', ['method', 'k', 'seed'])] };
  assert.equal(supports(full, 'mutualInformation', 'method'), true);
  assert.equal(supports(old, 'mutualInformation', 'method'), false);
  const xs = Int32Array.of(0, 1, 0, 1);
  const m = { rows: 4, cols: 1, data: Float64Array.of(1.5, 2.5, 1.25, 2.75) };
  const base = { seed: 5, knn: 'ln', miK: 3, bins: null, sizes: [2], perm: Int32Array.of(3, 2, 1, 0) };
  const keys = (calls) => calls.map((c) => c.key);
  const nums = estimateCalls(plan, full, { secrets: xs, observations: m }, 'numbers', base);
  assert.deepEqual(keys(nums), ['miNN', 'meNN', 'risk-nn', 'risk-knn', 'curve-2']);
  assert.deepEqual(nums[0].call.args[2], { method: 'nn', k: 3, seed: 5, kind: 'numbers' });
  assert.deepEqual(nums[1].call.args[2], { kind: 'numbers', seed: 5, k: 'ln' }, 'min-entropy leakage from the same k-NN rule');
  assert.equal(nums[3].call.args[2].k, 'ln');
  assert.equal(nums[4].call.args[2].shuffles, 0, 'no zero-leakage test for the points of the curve');
  assert.deepEqual([...nums[4].call.args[0]], [1, 0], 'the subset: the first 2 of the permutation');
  assert.deepEqual(keys(estimateCalls(plan, full, { secrets: xs, observations: m }, 'numbers', { ...base, bins: 'fd', sizes: [] })),
    ['miNN', 'meNN', 'mi', 'me', 'risk-nn', 'risk-knn']);
  assert.deepEqual(keys(estimateCalls(plan, old, { secrets: xs, observations: m }, 'numbers', base)), ['risk-nn', 'risk-knn'], 'an engine without them: the Bayes risk only');
  const labels = estimateCalls(plan, full, { secrets: xs, observations: Int32Array.of(0, 0, 1, 1) }, 'labels', base);
  assert.deepEqual(keys(labels), ['channel', 'mi', 'me', 'risk-frequentist', 'risk-nn', 'risk-knn', 'curve-2']);
  assert.equal(labels[1].call.args[2].kind, 'labels');
  assert.deepEqual(labels[6].call.args[2], { seed: 5, shuffles: 0, kind: 'labels' }, 'the counted estimate on a subset');
  assert.deepEqual([...labels[6].call.args[1]], [1, 1], 'the observations of samples 3 and 2');
  assert.deepEqual(keys(estimateCalls(plan, full, { secrets: xs, observations: Int32Array.of(0, 1, 2, 3) }, 'labels', { ...base, refused: true })),
    ['risk-frequentist', 'risk-nn', 'risk-knn'], 'mostly distinct labels: no counted estimates');
  assert.match(explain('estimate.mutualInformation: observations: 19,998 distinct values in 20,000 samples; use bins or kind: \'numbers\'', 20000), /19,998 of the 20,000/);
  assert.match(explain('estimate.mutualInformation: observations: 9,990 of the 10,000 observations are distinct (more than n/5), too many for the plug-in estimate, which counts them as labels; read them as numbers (kind: \'numbers\') or group them (bins)', 10000),
    /^Read as labels, 9,990 of the 10,000 observations are distinct/);
  assert.equal(explain('estimate.bayesRisk: secrets: 1 distinct value', 10), 'estimate.bayesRisk: secrets: 1 distinct value');
});
