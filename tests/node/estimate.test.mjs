// qif.estimate and qif.channel.sample: estimates from samples drawn from known channels against
// the exact values of qif.measure and of plain-JS references written here, the result shapes, the
// input shapes (labels as numbers, strings or typed arrays; vector observations as a Matrix),
// reproducibility from seeds, cancellation, and bad input whose errors name the argument.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

let qif;
before(async () => { qif = await load(); });

const throwsWith = (fn, ...fragments) => assert.throws(fn, (e) => {
  assert.ok(e instanceof Error, 'an Error');
  for (const f of fragments) assert.ok(e.message.includes(f), `"${e.message}" mentions "${f}"`);
  return true;
});

const prior = [0.4, 0.3, 0.2, 0.1];
const C = [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.7, 0.1], [0.25, 0.25, 0.25, 0.25]];

// Plain-JS plug-in estimates from counts, written from the definitions.
function countsOf(xs, ys) {
  const c = new Map();
  xs.forEach((x, i) => { const k = `${x}|${ys[i]}`; c.set(k, (c.get(k) || 0) + 1); });
  return c;
}
function plugInMI(xs, ys) {
  const n = xs.length, cx = new Map(), cy = new Map();
  xs.forEach((x, i) => { cx.set(x, (cx.get(x) || 0) + 1); cy.set(ys[i], (cy.get(ys[i]) || 0) + 1); });
  let s = 0;
  for (const [k, c] of countsOf(xs, ys)) {
    const [x, y] = k.split('|');
    s += (c / n) * Math.log2((c * n) / (cx.get(isNaN(x) ? x : +x) * cy.get(isNaN(y) ? y : +y)));
  }
  return s;
}

test('channel.sample: reproducible Int32Arrays whose frequencies approach the channel', () => {
  const a = qif.channel.sample(prior, C, 100000, { seed: 5 });
  const b = qif.channel.sample(prior, C, 100000, { seed: 5 });
  const c = qif.channel.sample(prior, C, 100000, { seed: 6 });
  assert.ok(a.secrets instanceof Int32Array && a.observations instanceof Int32Array);
  assert.equal(a.secrets.length, 100000);
  assert.deepEqual(a.secrets, b.secrets);
  assert.deepEqual(a.observations, b.observations);
  assert.notDeepEqual(a.secrets, c.secrets);
  const est = qif.estimate.channel(a.secrets, a.observations);
  for (let x = 0; x < 4; x++) {
    assert.ok(Math.abs(est.prior[x] - prior[x]) < 0.01, `prior ${x}`);
    for (let y = 0; y < 4; y++) assert.ok(Math.abs(est.channel.data[x * 4 + y] - C[x][y]) < 0.02, `C[${x}][${y}]`);
  }
});

test('estimate.channel: shape, names sorted, counts', () => {
  const r = qif.estimate.channel(['b', 'a', 'a', 'b', 'a'], [2, 10, 2, 2, 10]);
  assert.deepEqual(Object.keys(r).sort(), ['channel', 'counts', 'kind', 'observations', 'prior', 'secrets', 'warnings']);
  assert.deepEqual(r.secrets, ['a', 'b']);
  assert.deepEqual(r.observations, ['2', '10']);
  assert.deepEqual([...r.counts.data], [1, 2, 2, 0]);
  assert.deepEqual([...r.prior], [0.6, 0.4]);
  assert.deepEqual([...r.channel.data], [1 / 3, 2 / 3, 1, 0]);
  // Vector observations: distinct rows are distinct columns.
  const v = qif.estimate.channel([0, 1, 1], [[0.5, 1], [0.5, 1], [2, 0]]);
  assert.deepEqual(v.observations, ['(0.5, 1)', '(2, 0)']);
});

test('estimate.mutualInformation and minEntropyLeakage converge to the exact values', () => {
  const s = qif.channel.sample(prior, C, 200000, { seed: 1 });
  const exactMI = qif.measure.mutualInformation(prior, C);
  const exactME = qif.measure.minEntropyLeakage(prior, C);
  const mi = qif.estimate.mutualInformation(s.secrets, s.observations, { seed: 2, shuffles: 10 });
  assert.deepEqual(Object.keys(mi).sort(), ['corrected', 'k', 'kind', 'leaks', 'lower', 'method', 'note', 'upper', 'value', 'warnings', 'zeroLeakageThreshold']);
  assert.ok(Math.abs(mi.value - plugInMI([...s.secrets], [...s.observations])) < 1e-12, 'plug-in MI as computed here');
  assert.ok(Math.abs(mi.value - mi.corrected - 9 / (2 * 200000 * Math.LN2)) < 1e-12, 'correction (4−1)(4−1)/(2n ln 2)');
  assert.ok(Math.abs(mi.corrected - exactMI) < 0.005 && mi.lower <= exactMI && exactMI <= mi.upper, JSON.stringify(mi));
  assert.equal(mi.leaks, true);
  const me = qif.estimate.minEntropyLeakage(s.secrets, s.observations, { seed: 2 });
  assert.deepEqual(Object.keys(me).sort(), ['k', 'kind', 'lower', 'method', 'note', 'priorVulnerability', 'upper', 'value', 'warnings']);
  assert.ok(Math.abs(me.value - exactME) < 0.01 && me.lower <= exactME && exactME <= me.upper, JSON.stringify(me));
});

test('zero leakage: independent samples are not declared leaking; the threshold is the χ² one or more', () => {
  const ident = [[0.2, 0.3, 0.5], [0.2, 0.3, 0.5]];
  const s = qif.channel.sample([0.5, 0.5], ident, 2000, { seed: 3 });
  const mi = qif.estimate.mutualInformation(s.secrets, s.observations, { seed: 1 });
  assert.equal(mi.leaks, false);
  assert.equal(mi.lower, 0);
  // χ² with (2−1)(3−1) = 2 degrees of freedom: 95th percentile 5.991465 (tables).
  assert.ok(mi.zeroLeakageThreshold >= 5.991465 / (2 * 2000 * Math.LN2) - 1e-9);
  const me = qif.estimate.minEntropyLeakage(s.secrets, s.observations);
  assert.equal(me.lower, 0);
});

test('estimate.bayesRisk: rules, NN bound, curve, against 1 − V[π▷C]', () => {
  const s = qif.channel.sample(prior, C, 100000, { seed: 4 });
  const rstar = 1 - qif.measure.posteriorBayesVulnerability(prior, C);
  for (const method of ['frequentist', 'nn', 'knn']) {
    const r = qif.estimate.bayesRisk(s.secrets, s.observations, { method, seed: 1 });
    assert.deepEqual(Object.keys(r).sort(), ['curve', 'k', 'kind', 'lower', 'method', 'nnBound', 'nnLower', 'upper', 'value', 'warnings']);
    assert.equal(r.method, method);
    assert.ok(Math.abs(r.value - rstar) < 0.01 && r.lower <= rstar && rstar <= r.upper, `${method}: ${JSON.stringify(r)}`);
    assert.ok(r.nnBound <= rstar + 0.01);
    assert.ok(r.curve.n instanceof Float64Array && r.curve.estimate instanceof Float64Array);
    assert.equal(r.curve.n.at(-1), 80000);
    assert.equal(r.curve.estimate.at(-1), r.value);
  }
  assert.equal(qif.estimate.bayesRisk(s.secrets, s.observations, { k: 'log10' }).k, Math.ceil(Math.log10(80000)));
  assert.equal(qif.estimate.bayesRisk(s.secrets, s.observations).k, Math.ceil(Math.log(80000)));
  assert.equal(qif.estimate.bayesRisk(s.secrets, s.observations, { k: 7 }).k, 7);
});

test('estimate.bayesRisk on vector observations: two Gaussians, R* = Φ(−μ/2)', () => {
  // Box–Muller with a small LCG: deterministic data written here.
  let state = 12345;
  const u = () => { state = (state * 1103515245 + 12345) % 2147483648; return (state + 0.5) / 2147483648; };
  const n = 20000, mu = 2;
  const secrets = new Int32Array(n), data = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    secrets[i] = u() < 0.5 ? 0 : 1;
    data[i] = Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u()) + mu * secrets[i];
  }
  const erfc = (x) => { // Abramowitz–Stegun 7.1.26
    const t = 1 / (1 + 0.3275911 * x);
    return t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  };
  const rstar = 0.5 * erfc(mu / 2 / Math.SQRT2);
  const r = qif.estimate.bayesRisk(secrets, { rows: n, cols: 1, data }, { seed: 1 });
  assert.ok(Math.abs(r.value - rstar) < 0.03 && r.lower <= rstar && rstar <= r.upper, `${JSON.stringify(r)} R* ${rstar}`);
});

test('estimate.bayesRisk: onProgress reports and cancels with the curve so far', () => {
  const s = qif.channel.sample(prior, C, 50000, { seed: 4 });
  let calls = 0, last = null;
  assert.throws(() => qif.estimate.bayesRisk(s.secrets, s.observations, {
    onProgress: (done, total) => { calls++; last = [done, total]; return calls < 3; },
  }), (e) => {
    assert.equal(e.name, 'AbortError');
    assert.equal(e.message, 'estimate.bayesRisk: cancelled');
    assert.ok(e.partial && e.partial.curve.n instanceof Float64Array);
    return true;
  });
  assert.equal(calls, 3);
  assert.ok(last[0] < last[1]);
});

test('labels: strings, numbers, typed arrays give the same estimates', () => {
  const s = qif.channel.sample(prior, C, 5000, { seed: 9 });
  const names = ['w', 'x', 'y', 'z'];
  const a = qif.estimate.mutualInformation(s.secrets, s.observations, { shuffles: 0 });
  const b = qif.estimate.mutualInformation([...s.secrets].map((x) => names[x]), [...s.observations], { shuffles: 0 });
  const c = qif.estimate.mutualInformation(Float64Array.from(s.secrets), [...s.observations].map((y) => `o${y}`), { shuffles: 0 });
  assert.equal(a.value, b.value);
  assert.equal(a.value, c.value);
});

test('bad input: errors name the argument', () => {
  const e = qif.estimate;
  throwsWith(() => e.channel([1, 2], [1]), 'estimate.channel: observations: 1 observations for 2 secrets');
  // The argument travels as data too (error.argument), for the page and the widgets.
  for (const [fn, arg] of [[() => e.channel([1, 2], [1]), 'observations'], [() => e.mutualInformation([1, 1, 1], [1, 2, 3]), 'secrets'],
    [() => e.bayesRisk([0, 1, 0, 1], [0, 1, 0, 1], { testFraction: 1.5 }), 'testFraction']]) {
    assert.throws(fn, (x) => x.argument === arg, arg);
  }
  throwsWith(() => e.channel([], []), 'estimate.channel: secrets: empty sample');
  throwsWith(() => e.mutualInformation([1, 1, 1], [1, 2, 3]), 'secrets: fewer than two distinct secrets');
  throwsWith(() => e.bayesRisk([0, 1], { rows: 2, cols: 1, data: [0, NaN] }), 'estimate.bayesRisk: observations: row 1, column 0 is NaN');
  throwsWith(() => e.channel([0, 1], [0, Infinity]), 'observations: entry 1 is +Inf');
  throwsWith(() => e.channel([0, 'a'], [0, 1]), 'secrets: entry 1 is a string but entry 0 is not');
  throwsWith(() => e.channel([0, null], [0, 1]), 'secrets: entry 1 is null');
  throwsWith(() => e.channel('ab', [0, 1]), 'secrets: expected an array of labels');
  throwsWith(() => e.bayesRisk([0, 1], [0, 1], { method: 'svm' }), "method: expected one of 'knn', 'nn', 'frequentist'");
  throwsWith(() => e.bayesRisk([0, 1], [0, 1], { k: 'ln2' }), "k: expected 'ln', 'log10' or a positive integer");
  throwsWith(() => e.bayesRisk([0, 1], [0, 1], { k: 0 }), "k: expected 'ln', 'log10' or a positive integer, got 0");
  throwsWith(() => e.bayesRisk([0, 1], [0, 1], { testFraction: 1 }), 'testFraction: expected a number strictly between 0 and 1');
  throwsWith(() => e.mutualInformation([0, 1], [0, 1], { confidence: 2 }), 'confidence: expected a number strictly between 0 and 1');
  throwsWith(() => e.mutualInformation([0, 1], [0, 1], { shufles: 2 }), 'unknown option "shufles" (did you mean "shuffles"?)');
  throwsWith(() => qif.channel.sample([0.5, 0.6], C.slice(0, 2), 3), 'channel.sample: ');
  throwsWith(() => qif.channel.sample(prior, C, -1), 'channel.sample: n: expected a non-negative integer');
  assert.equal(qif.estimate.channel([0, 1], [0, 1]).secrets.length, 2, 'the instance keeps working');
});
