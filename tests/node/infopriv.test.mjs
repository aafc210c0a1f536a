// qif.infoPrivacy: known values (closed forms of Wu (2019), hand-computed channels, plain-JS brute
// force of the definitions here), both input shapes for the tuple channel, bad inputs whose errors
// name the argument, and the timing of the 6 × 4-value individual capacity.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

let qif, P;
before(async () => { qif = await load(); P = qif.infoPrivacy; });

const near = (got, want, tol = 1e-12, what = '') =>
  assert.ok(got === want || Math.abs(got - want) <= tol, `${what} = ${got}, want ${want}`);
const throwsWith = (fn, ...fragments) => assert.throws(fn, (e) => {
  assert.ok(e instanceof Error, 'an Error');
  for (const f of fragments) assert.ok(e.message.includes(f), `"${e.message}" mentions "${f}"`);
  return true;
});

// ---- plain-JS references ----
const h2 = (p) => (p <= 0 || p >= 1 ? 0 : -p * Math.log2(p) - (1 - p) * Math.log2(1 - p));
function mi(prior, C) {
  const m = C[0].length;
  const py = new Array(m).fill(0);
  C.forEach((row, x) => row.forEach((v, y) => { py[y] += prior[x] * v; }));
  let s = 0;
  C.forEach((row, x) => row.forEach((v, y) => { if (prior[x] * v > 0) s += prior[x] * v * Math.log2(v / py[y]); }));
  return s;
}
function gridCapacity2(C, steps = 4000) { // two-row channel: grid over p
  let best = 0;
  for (let a = 0; a <= steps; a++) best = Math.max(best, mi([a / steps, 1 - a / steps], C));
  return best;
}
function rr(k, eps) {
  const z = Math.exp(eps) + k - 1;
  return Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => (i === j ? Math.exp(eps) / z : 1 / z)));
}
function tuples(domains) { // lexicographic, record 0 most significant
  let out = [[]];
  for (const d of domains) out = out.flatMap((t) => Array.from({ length: d }, (_, v) => [...t, v]));
  return out;
}
const rowsOf = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols)));

test('binarySymmetricCapacity and flipProbability', () => {
  for (const p of [0, 0.1, 0.25, 0.5, 0.8, 1]) near(P.binarySymmetricCapacity(p), 1 - h2(p), 1e-14, `1 − h(${p})`);
  near(P.flipProbability(0.5), 0.11002786443835955, 1e-13, 'h⁻¹(½)');
  near(P.flipProbability(1), 0, 0, 'p(1)');
  near(P.flipProbability(0), 0.5, 0, 'p(0)');
  throwsWith(() => P.binarySymmetricCapacity(1.5), 'p', '[0, 1]');
  throwsWith(() => P.binarySymmetricCapacity(NaN), 'p', 'NaN');
  throwsWith(() => P.binarySymmetricCapacity('x'), 'p', 'number');
  throwsWith(() => P.flipProbability(-0.1), 'capacity');
});

test('gaussianCapacity, sigmaForCapacity and varianceComparison', () => {
  near(P.gaussianCapacity(1, 1), 0.5, 1e-15, '½ log2 2');
  near(P.gaussianCapacity(15, 1), 2, 1e-15, '½ log2 16');
  near(P.gaussianCapacity(12, 2), 1, 1e-15, '½ log2 4');
  near(P.sigmaForCapacity(3, 1), 1, 1e-14, 'σ(P=3, 1 bit)');
  assert.equal(P.sigmaForCapacity(3, 0), Infinity);
  throwsWith(() => P.gaussianCapacity(1, 0), 'sigma');
  throwsWith(() => P.gaussianCapacity(1, -2), 'sigma');
  throwsWith(() => P.gaussianCapacity(-1, 1), 'power');
  throwsWith(() => P.gaussianCapacity(NaN, 1), 'power');
  throwsWith(() => P.gaussianCapacity(1), 'sigma', 'missing');

  const v = P.varianceComparison({ sensitivity: 2, epsilon: 0.5, delta: 1e-5, capacity: 1 });
  near(v.laplace, 2 * 16, 1e-12, 'Laplace 2(Δ/ε)²');
  near(v.gaussianMechanism, 2 * Math.log(1.25e5) * 16, 1e-9, 'Gaussian mechanism');
  near(v.power, 1, 0, 'default power (Δ/2)²');
  near(v.gaussianPrivacyChannel, 1 / 3, 1e-14, 'P/(2^{2c} − 1)');
  const w = P.varianceComparison({ sensitivity: 2, epsilon: 0.5, delta: 1e-5, capacity: 0.5, power: 4 });
  near(w.gaussianPrivacyChannel, 4, 1e-14, 'P/(2¹ − 1)');
  throwsWith(() => P.varianceComparison({ sensitivity: 1, epsilon: 1, delta: 0, capacity: 1 }), 'delta');
  throwsWith(() => P.varianceComparison({ sensitivity: 1, epsilon: 1, capacity: 1 }), 'delta', 'missing');
  throwsWith(() => P.varianceComparison({ sensitivity: -1, epsilon: 1, delta: 0.1, capacity: 1 }), 'sensitivity');
});

test('dataIndependent: weakly symmetric, reachable, neither', () => {
  const W = [[1 / 3, 1 / 6, 1 / 2], [1 / 3, 1 / 2, 1 / 6]];
  const r = P.dataIndependent(W);
  const Hq = -(1 / 3 * Math.log2(1 / 3) + 1 / 6 * Math.log2(1 / 6) + 1 / 2 * Math.log2(1 / 2));
  assert.equal(r.dataIndependent, true);
  assert.equal(r.weaklySymmetric, true);
  assert.equal(r.reachable, true);
  near(r.bound, Math.log2(3) - Hq, 1e-12, 'log|Y| − H(q)');
  near(r.bound, gridCapacity2(W), 1e-9, 'bound = brute-force capacity');
  assert.deepEqual(Array.from(r.q), [1 / 2, 1 / 3, 1 / 6]);

  const N = [[0.7, 0.2, 0.1], [0.2, 0.7, 0.1]];
  const s = P.dataIndependent(N);
  assert.equal(s.dataIndependent, true);
  assert.equal(s.weaklySymmetric, false);
  assert.equal(s.reachable, false);
  near(s.capacity, gridCapacity2(N), 1e-6, 'capacity');
  assert.ok(s.capacity < s.bound - 1e-3);

  const t = P.dataIndependent({ rows: 2, cols: 2, data: [0.5, 0.5, 0.9, 0.1] });
  assert.equal(t.dataIndependent, false);
  assert.ok(Number.isNaN(t.bound));
  throwsWith(() => P.dataIndependent([[0.5, 0.6]]), 'channel', 'row 0');
});

test('exponentialChannel and exponentialBeta', () => {
  const beta = 0.9;
  const e = P.exponentialChannel({ n: 4, beta });
  const r = Math.exp(-beta);
  const z = 1 + r + r * r + r ** 3;
  // Row 1: distortions |1 − y| = 1, 0, 1, 2 → ranks 1, 0, 2, 3 (tie broken by the lower index).
  const row1 = rowsOf(e.channel)[1];
  [1, 0, 2, 3].forEach((k, y) => near(row1[y], r ** k / z, 1e-15, `C[1][${y}]`));
  const q = [1, r, r * r, r ** 3].map((v) => v / z);
  const Hq = -q.reduce((s, v) => s + v * Math.log2(v), 0);
  near(e.entropy, Hq, 1e-12, 'H(q)');
  near(e.bound, 2 - Hq, 1e-12, 'log 4 − H(q)');
  // With an explicit distortion (circular distance on 4 answers: weakly symmetric? no — ties
  // break by index, but the channel stays data-independent).
  const D = [[0, 1, 2, 1], [1, 0, 1, 2], [2, 1, 0, 1], [1, 2, 1, 0]];
  const f = P.exponentialChannel({ distortion: D, beta });
  assert.equal(P.dataIndependent(f.channel).dataIndependent, true);
  const b = P.exponentialBeta(4, 0.5);
  near(P.exponentialChannel({ n: 4, beta: b }).bound, 0.5, 1e-9, 'bound at β(0.5)');
  throwsWith(() => P.exponentialChannel({ n: 4, beta: 0 }), 'beta');
  throwsWith(() => P.exponentialChannel({ beta: 1 }), 'distortion', 'missing');
  throwsWith(() => P.exponentialChannel({ distortion: [[0, -1]], beta: 1 }), 'distortion');
  throwsWith(() => P.exponentialBeta(4, 2), 'capacity');
});

test('queryChannel, tuple order and individualEpsilon of RR on a count', () => {
  const domains = [2, 2, 2];
  const table = tuples(domains).map((t) => t.reduce((a, b) => a + b, 0));
  assert.deepEqual(table, [0, 1, 1, 2, 1, 2, 2, 3]);
  assert.deepEqual(P.tuple(domains, 6), [1, 1, 0]);
  const eps = 0.7;
  const noise = rr(4, eps);
  const C = P.queryChannel({ domains, table, noise });
  assert.equal(C.rows, 8);
  assert.deepEqual(rowsOf(C)[6], noise[2]);

  const e = P.individualEpsilon({ domains, channel: C });
  near(e.epsilon, eps, 1e-12, 'ε of RR on a count');
  assert.equal(e.individual, 0);
  assert.equal(e.others.length, 2);
  // The witness: changing the individual's value multiplies p(output) by e^ε.
  const idx = (t) => t.reduce((a, v) => 2 * a + v, 0);
  const ta = [e.values[0], ...e.others];
  const tb = [e.values[1], ...e.others];
  const R = rowsOf(C);
  near(Math.log(R[idx(ta)][e.output] / R[idx(tb)][e.output]), eps, 1e-12, 'witness');
  // The same through {table, noise}.
  near(P.individualEpsilon({ domains, table, noise }).epsilon, eps, 1e-12, 'ε via table');
});

test('individualCapacity: count + RR equals a two-row capacity, BSC on a copied record', () => {
  const domains = [2, 2, 2];
  const table = tuples(domains).map((t) => t.reduce((a, b) => a + b, 0));
  const eps = 1.1;
  const noise = rr(4, eps);
  const r = P.individualCapacity({ domains, table, noise });
  near(r.capacity, gridCapacity2([noise[0], noise[1]]), 1e-6, 'capacity');
  assert.equal(r.individual, 0);
  assert.deepEqual(r.others, [0, 0]);
  assert.ok(r.prior instanceof Float64Array && r.prior.length === 2);
  assert.ok(r.upperBound >= r.capacity && r.upperBound - r.capacity < 1e-8);
  assert.equal(r.subChannels, 12);

  // The query copies record 1 through a BSC: record 1 leaks 1 − h(p), record 0 nothing.
  const p = 0.15;
  const d2 = [3, 2];
  const C = tuples(d2).map((t) => (t[1] === 0 ? [1 - p, p] : [p, 1 - p]));
  const s = P.individualCapacity({ domains: d2, channel: C });
  near(s.capacity, 1 - h2(p), 1e-9, 'BSC individual capacity');
  assert.equal(s.individual, 1);
  assert.deepEqual(s.others, [0]);
  near(s.prior[0], 0.5, 1e-6, 'uniform prior');
});

test('individualCapacity: progress and cancellation', () => {
  const domains = [4, 4, 4];
  const table = tuples(domains).map((t) => t[0] + t[1] + t[2]);
  const noise = rr(10, 1);
  const seen = [];
  const r = P.individualCapacity({ domains, table, noise, onProgress: (done, total) => { seen.push([done, total]); } });
  assert.ok(seen.length >= 2);
  assert.deepEqual(seen.at(-1), [48, 48]);
  assert.ok(r.capacity > 0);
  throwsWith(() => P.individualCapacity({ domains, table, noise, onProgress: () => false }), 'cancelled');
  // The instance keeps working after a cancelled call.
  near(P.individualCapacity({ domains, table, noise }).capacity, r.capacity, 0, 'after cancel');
});

test('individual capacity and ε: bad inputs', () => {
  const C = [[1, 0], [0, 1], [0.5, 0.5]];
  throwsWith(() => P.individualCapacity({ domains: [2, 2], channel: C }), 'channel', '3 rows', '4 tuples');
  throwsWith(() => P.individualEpsilon({ domains: [2, 2], channel: C }), 'channel', '3 rows');
  throwsWith(() => P.individualCapacity({ channel: C }), 'domains', 'missing');
  throwsWith(() => P.individualCapacity({ domains: [3, 0], channel: C }), 'domains', 'record 1');
  throwsWith(() => P.individualCapacity({ domains: [1.5, 2], channel: C }), 'domains');
  throwsWith(() => P.individualCapacity({ domains: [4096, 2048], channel: C }), 'domains', '4194304');
  throwsWith(() => P.individualCapacity({ domains: [3] }), 'channel', 'missing');
  throwsWith(() => P.individualCapacity(), 'options');
  throwsWith(() => P.individualCapacity({ domains: [3], channel: [[1, 0], [0, 1], [0.5, NaN]] }), 'channel', 'NaN');
  throwsWith(() => P.queryChannel({ domains: [2, 2], table: [0, 1, 1], noise: [[1, 0], [0, 1]] }), 'table', '3 entries', '4 tuples');
  throwsWith(() => P.queryChannel({ domains: [2, 2], table: [0, 1, 1, 5], noise: [[1, 0], [0, 1]] }), 'table', 'entry 3');
  throwsWith(() => P.queryChannel({ domains: [2, 2], table: [0, 1, 1, 0] }), 'noise', 'missing');
  throwsWith(() => P.queryChannel({ domains: [2, 2], table: [0, 1, 1, 0], noise: [[0.5, 0.6]] }), 'noise');
});

test('deltaCurve and epsilonForDelta on randomized response', () => {
  const eps = 1.2;
  const k = 4;
  const C = rr(k, eps);
  const clique = qif.graph.clique(k);
  const c = P.deltaCurve(C, clique, { points: 13 });
  assert.ok(c.epsilon instanceof Float64Array && c.delta instanceof Float64Array);
  assert.equal(c.epsilon.length, 13);
  near(c.pureEpsilon, eps, 1e-12, 'pure ε');
  near(c.epsilon[12], eps, 1e-12, 'range ends at the pure ε');
  const z = Math.exp(eps) + k - 1;
  c.epsilon.forEach((e, i) => near(c.delta[i], (Math.exp(eps) - Math.exp(e)) / z, 1e-12, `δ(${e})`));
  assert.equal(P.deltaCurve(C, clique).epsilon.length, 101);
  near(P.deltaCurve(C, clique, { points: 5, maxEpsilon: 2 }).epsilon[4], 2, 0, 'given max');

  near(P.epsilonForDelta(C, clique, 0), eps, 1e-12, 'ε(0) = pure ε');
  // δ(ε′) = (e^ε − e^ε′)/Z  ⇒  ε′ = ln(e^ε − δZ).
  near(P.epsilonForDelta(C, clique, 0.1), Math.log(Math.exp(eps) - 0.1 * z), 1e-12, 'ε(0.1)');
  assert.equal(P.epsilonForDelta(C, clique, 1), 0);
  assert.equal(P.epsilonForDelta([[1, 0], [0.5, 0.5]], { n: 2, edges: [[0, 1]] }, 0.1), Infinity);
  throwsWith(() => P.epsilonForDelta(C, clique, 1.5), 'delta');
  throwsWith(() => P.epsilonForDelta(C, clique, -0.1), 'delta');
  throwsWith(() => P.epsilonForDelta(C, clique, NaN), 'delta');
  throwsWith(() => P.epsilonForDelta(C, qif.graph.clique(3), 0.1), 'graph', '3 vertices', '4 rows');
  // One implementation behind two names: privacy.epsilonForDelta gives the same numbers, and the
  // closed form above, on a path too (where the pair 0 ∼ 1 alone is constrained).
  const path = qif.graph.path(k);
  for (const delta of [0, 0.05, 0.1, 0.3]) {
    assert.equal(qif.privacy.epsilonForDelta(C, clique, delta), P.epsilonForDelta(C, clique, delta), `δ = ${delta}`);
    assert.equal(qif.privacy.epsilonForDelta(C, path, delta), P.epsilonForDelta(C, path, delta), `path, δ = ${delta}`);
    near(P.epsilonForDelta(C, path, delta), Math.log(Math.max(1, Math.exp(eps) - delta * z)), 1e-12, `path ε(${delta})`);
  }
  throwsWith(() => P.deltaCurve(C, clique, { points: 1 }), 'points');
  throwsWith(() => P.deltaCurve(C, { n: 4, edges: [[0, 4]] }), 'graph');
});

test('bayesRatios: bounded by e^±ε, reached by a point mass', () => {
  const eps = 0.8;
  const C = rr(3, eps);
  for (const prior of [[1 / 3, 1 / 3, 1 / 3], [0.7, 0.2, 0.1], [0.05, 0.05, 0.9]]) {
    const r = P.bayesRatios(prior, C);
    near(r.epsilon, eps, 1e-12, 'ε');
    assert.ok(r.max <= Math.exp(eps) * (1 + 1e-12) && r.min >= Math.exp(-eps) * (1 - 1e-12));
    // posterior/prior from Bayes in plain JS
    const py = [0, 1, 2].map((y) => prior.reduce((s, p, x) => s + p * C[x][y], 0));
    for (let x = 0; x < 3; x++) {
      for (let y = 0; y < 3; y++) near(r.ratios.data[3 * x + y], (prior[x] * C[x][y] / py[y]) / prior[x], 1e-12, 'ratio');
    }
  }
  const r = P.bayesRatios([0, 1, 0], C);
  near(r.max, Math.exp(eps), 1e-12, 'max = e^ε');
  near(r.min, Math.exp(-eps), 1e-12, 'min = e^−ε');
  assert.equal(r.maxAt.length, 2);
  const s = P.bayesRatios([0.5, 0.5], [[0.5, 0.5, 0], [0.25, 0.75, 0]]);
  assert.ok(Number.isNaN(s.ratios.data[2]), 'p(y) = 0 gives NaN');
  throwsWith(() => P.bayesRatios([0.5, 0.6], C), 'prior');
  throwsWith(() => P.bayesRatios([1], C), 'prior', '3 rows');
});

test('subChannel and recordGraph: the worst situation, read on its own', () => {
  const domains = [2, 3];
  const eps = 0.9;
  const noise = rr(4, eps);
  const table = tuples(domains).map((t) => t[0] + t[1]);
  const cap = P.individualCapacity({ domains, table, noise });
  const sub = P.subChannel({ domains, table, noise, individual: cap.individual, others: cap.others });
  // Its capacity is the individual capacity, and its Bayes ratios stay within e^±ε.
  near(qif.measure.shannonCapacity(sub).capacity, cap.capacity, 1e-8, 'capacity of the sub-channel');
  const r = P.bayesRatios(cap.prior, sub);
  assert.ok(r.max <= Math.exp(eps) + 1e-12 && r.min >= Math.exp(-eps) - 1e-12);
  // Individual 1 with record 0 = 1: rows (1, v) → answers 1 + v.
  const s1 = P.subChannel({ domains, table, noise, individual: 1, others: [1] });
  assert.deepEqual(rowsOf(s1), [noise[1], noise[2], noise[3]]);
  throwsWith(() => P.subChannel({ domains, table, noise, individual: 1, others: [2] }), 'others');
  throwsWith(() => P.subChannel({ domains, table, noise, individual: 1 }), 'others', 'missing');

  const g = P.recordGraph(domains);
  assert.equal(g.n, 6);
  // (x0, x1) ∼ (x0′, x1′) iff exactly one record differs: 2·3 + 3·1 = 9 edges.
  assert.equal(g.edges.length, 9);
  const C = P.queryChannel({ domains, table, noise });
  near(P.epsilonForDelta(C, g, 0), P.individualEpsilon({ domains, channel: C }).epsilon, 1e-12, 'pure ε on the record graph');
  throwsWith(() => P.recordGraph([300, 300]), 'domains');
});

test('timing: individual capacity of 6 records of 4 values', () => {
  const domains = [4, 4, 4, 4, 4, 4];
  const T = tuples(domains);
  // (a) sum query (19 answers) + randomized response; (b) a random channel with 8 outputs.
  const table = T.map((t) => t.reduce((a, b) => a + b, 0));
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const random = { rows: 4096, cols: 8, data: new Float64Array(4096 * 8) };
  for (let i = 0; i < 4096; i++) {
    let s = 0;
    for (let j = 0; j < 8; j++) { const v = -Math.log(1 - rand()); random.data[8 * i + j] = v; s += v; }
    for (let j = 0; j < 8; j++) random.data[8 * i + j] /= s;
  }
  const cases = { sumRR: { domains, table, noise: rr(19, 1) }, random: { domains, channel: random } };
  for (const [name, args] of Object.entries(cases)) {
    let calls = 0;
    const t0 = performance.now();
    const r = P.individualCapacity({ ...args, onProgress: () => { calls++; } });
    const ms = performance.now() - t0;
    const t1 = performance.now();
    P.individualEpsilon(args);
    const msEps = performance.now() - t1;
    console.log(`# individualCapacity 6×4 ${name}: ${ms.toFixed(1)} ms (${r.solved} of ${r.subChannels} sub-channels solved, ${calls} progress calls); individualEpsilon ${msEps.toFixed(1)} ms`);
    assert.equal(r.subChannels, 6 * 4 ** 5);
    assert.ok(r.capacity > 0 && r.capacity <= 2);
  }
});
