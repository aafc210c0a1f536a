// The functions that follow libqif's definitions (docs/mathematics.md#metrics-and-capacities)
// through the JS API: qif.metric, the capacities over gain classes, factorization, the iterative
// Bayesian update, the tight-constraints mechanism, the geometric mechanism on windows and the
// additive refinement metric. Every expected value is computed here, independently of the code
// under test: by hand, from a closed form (the CDFs on a line, the geometric series, the star
// metric's linear system), by brute force over priors, by multiplying witnesses back, or by
// solving libqif's own linear program with qif.lp.solve. Bad input must throw an Error whose
// message starts with the function and names the argument.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { rng } from './seeded-random.mjs';

let qif;
before(async () => { qif = await load(); });

function rows(m) {
  if (Array.isArray(m)) return m;
  const out = [];
  for (let i = 0; i < m.rows; i++) out.push(Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols)));
  return out;
}
const mul = (a, b) => a.map((r) => b[0].map((_, j) => r.reduce((s, v, k) => s + v * b[k][j], 0)));
const maxAbsDiff = (a, b) => Math.max(...a.flat().map((v, i) => (v === b.flat()[i] ? 0 : Math.abs(v - b.flat()[i]))));
const normalize = (v) => { const s = v.reduce((a, b) => a + b, 0); return v.map((x) => x / s); };
const randomDist = (n, r) => normalize(Array.from({ length: n }, () => r() + 0.01));
const randomChannel = (n, m, r) => Array.from({ length: n }, () => randomDist(m, r));
const close = (got, want, tol, what) => assert.ok(Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want}`);
const throwsNaming = (fn, re) => assert.throws(fn, (e) => e instanceof Error && re.test(e.message), String(re));

// ---------------------------------------------------------------- ground metrics

test('euclidean and manhattan: distances between points, computed here pair by pair', () => {
  const r = rng(1);
  const pts = Array.from({ length: 6 }, () => [r() * 10 - 5, r() * 10 - 5, r()]);
  const e = rows(qif.metric.euclidean(pts));
  const m = rows(qif.metric.manhattan(pts));
  for (let i = 0; i < pts.length; i++) {
    for (let j = 0; j < pts.length; j++) {
      const d = pts[i].map((v, k) => v - pts[j][k]);
      close(e[i][j], Math.hypot(...d), 1e-12, `euclidean[${i}][${j}]`);
      close(m[i][j], d.reduce((s, v) => s + Math.abs(v), 0), 1e-12, `manhattan[${i}][${j}]`);
    }
  }
  assert.deepEqual(rows(qif.metric.euclidean([[0, 0], [3, 4]])), [[0, 5], [5, 0]]);
  assert.deepEqual(rows(qif.metric.manhattan([[0, 0], [3, -4]])), [[0, 7], [7, 0]]);
  // Coordinates of 1e200 neither overflow nor lose the distance.
  close(rows(qif.metric.euclidean([[0, 0], [3e200, 4e200]]))[0][1], 5e200, 1e188, 'scaled');
});

test('gridEuclidean and gridManhattan: cell i is (i mod w, ⌊i/w⌋)·cellSize', () => {
  const [w, h, s] = [3, 2, 2.5];
  const pts = Array.from({ length: w * h }, (_, i) => [(i % w) * s, Math.floor(i / w) * s]);
  assert.deepEqual(rows(qif.metric.gridEuclidean(w, h, s)), rows(qif.metric.euclidean(pts)));
  assert.deepEqual(rows(qif.metric.gridManhattan(w, h, s)), rows(qif.metric.manhattan(pts)));
  // Cells 0 and 5 of a 3×2 grid are the corners (0,0) and (2,1); the cell size defaults to 1.
  close(rows(qif.metric.gridEuclidean(3, 2))[0][5], Math.sqrt(5), 1e-15, 'corner to corner');
  assert.equal(rows(qif.metric.gridManhattan(3, 2))[0][5], 3);
  assert.deepEqual(rows(qif.metric.gridManhattan(1, 1)), [[0]]);
});

test('discrete: s off the diagonal and 0 on it, for s = 1 (default), 0, 2.5 and Infinity', () => {
  for (const [s, off] of [[undefined, 1], [0, 0], [2.5, 2.5], [Infinity, Infinity]]) {
    const d = rows(qif.metric.discrete(3, s));
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(d[i][j], i === j ? 0 : off, `s=${s} [${i}][${j}]`);
  }
});

test('threshold: 1 where the distance is at least t, else 0', () => {
  const D = [[0, 1, 2.5, Infinity], [1, 0, 1.5, Infinity], [2.5, 1.5, 0, Infinity], [Infinity, Infinity, Infinity, 0]];
  assert.deepEqual(rows(qif.metric.threshold(D, 1.5)), [[0, 0, 1, 1], [0, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]);
  assert.deepEqual(rows(qif.metric.threshold(D, Infinity)), [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1], [1, 1, 1, 0]]);
});

// ---------------------------------------------------------------- distances between distributions

test('totalVariation, multiplicativeTotalVariation, convexSeparation by hand', () => {
  close(qif.metric.totalVariation([0.5, 0.3, 0.2], [0.1, 0.6, 0.3]), 0.4, 1e-15, 'tv');
  assert.equal(qif.metric.totalVariation([1, 0], [0, 1]), 1);
  assert.equal(qif.metric.totalVariation([0.25, 0.75], [0.25, 0.75]), 0);
  // max(|ln ½ − ln ¼|, |ln ½ − ln ¾|) = ln 2; the entry 0 in both is ignored.
  close(qif.metric.multiplicativeTotalVariation([0.5, 0.5, 0], [0.25, 0.75, 0]), Math.LN2, 1e-15, 'mtv');
  assert.equal(qif.metric.multiplicativeTotalVariation([1, 0], [0.5, 0.5]), Infinity, 'a 0 in one only');
  // Entries of 1e-300: ln(½ / 1e-300) = ln ½ + 300 ln 10.
  close(qif.metric.multiplicativeTotalVariation([1e-300, 1 - 1e-300], [0.5, 0.5]), Math.log(0.5) + 300 * Math.LN10, 1e-9, 'mtv 1e-300');
  // q(a,b) = max(1 − ¼/½, 1 − ¾/½) = ½ and q(b,a) = max(1 − ½/¼, 1 − ½/¾) = ⅓.
  close(qif.metric.convexSeparation([0.5, 0.5], [0.25, 0.75]), 0.5, 1e-15, 'convex separation');
  assert.equal(qif.metric.convexSeparation([1, 0], [0, 1]), 1);
  assert.equal(qif.metric.convexSeparation([0.3, 0.7], [0.3, 0.7]), 0);
});

test('kantorovich on a line is the L1 distance between the CDFs', () => {
  const r = rng(7);
  for (let trial = 0; trial < 20; trial++) {
    const n = 2 + Math.floor(r() * 9);
    const t = Array.from({ length: n }, () => r() * 20).sort((a, b) => a - b);
    const P = randomDist(n, r);
    const Q = randomDist(n, r);
    let want = 0;
    let cp = 0;
    let cq = 0;
    for (let k = 0; k + 1 < n; k++) {
      cp += P[k];
      cq += Q[k];
      want += Math.abs(cp - cq) * (t[k + 1] - t[k]);
    }
    const D = qif.metric.euclidean(t.map((x) => [x]));
    close(qif.metric.kantorovich(P, Q, D), want, 1e-9 * (1 + want), `line of ${n} points`);
    close(qif.metric.kantorovich(P, Q, qif.metric.manhattan(t.map((x) => [x]))), want, 1e-9 * (1 + want), 'manhattan on a line');
  }
});

test('kantorovich: the discrete metric gives the total variation, an infinite scale forbids every move', () => {
  const r = rng(8);
  for (let trial = 0; trial < 10; trial++) {
    const P = randomDist(5, r);
    const Q = randomDist(5, r);
    const tv = P.reduce((s, p, i) => s + Math.abs(p - Q[i]), 0) / 2;
    close(qif.metric.kantorovich(P, Q, qif.metric.discrete(5, 3)), 3 * tv, 1e-12, 'discrete·3');
    assert.equal(qif.metric.kantorovich(P, Q, qif.metric.discrete(5, Infinity)), Infinity);
    assert.equal(qif.metric.kantorovich(P, P, qif.metric.discrete(5, Infinity)), 0);
  }
  // Mass of 1e-300 still has to travel the distance: the value is 1e-300·d, not 0 nor NaN.
  const v = qif.metric.kantorovich([1e-300, 1 - 1e-300], [0, 1], [[0, 2], [2, 0]]);
  assert.ok(v >= 0 && v <= 1e-299, `tiny mass: ${v}`);
});

test('multiplicativeKantorovich: point masses give d(i,j); two points match the closed form; discrete·∞ gives the multiplicative tv', () => {
  const D = [[0, 1, 3], [1, 0, 2.5], [3, 2.5, 0]];
  close(qif.metric.multiplicativeKantorovich([1, 0, 0], [0, 0, 1], D), 3, 1e-9, 'point masses');
  close(qif.metric.multiplicativeKantorovich([0, 1, 0], [1, 0, 0], D), 1, 1e-9, 'point masses');
  assert.equal(qif.metric.multiplicativeKantorovich([0.2, 0.3, 0.5], [0.2, 0.3, 0.5], D), 0);
  // On two points at distance d, with a_0/b_0 > a_1/b_1, the cheapest plan moves x from 0 to 1
  // until both columns need the same z: (a_0 − x)/b_0 = (a_1 + x·e^d)/b_1 (moving the other way
  // only costs more since e^d ≥ 1).
  const oneSide = (a, b, d) => {
    const [i, j] = a[0] / b[0] > a[1] / b[1] ? [0, 1] : [1, 0];
    const x = (a[i] * b[j] - a[j] * b[i]) / (b[j] + b[i] * Math.exp(d));
    return Math.log((a[i] - x) / b[i]);
  };
  for (const [a, b, d] of [[[0.7, 0.3], [0.4, 0.6], 1], [[0.1, 0.9], [0.5, 0.5], 0.25], [[0.5, 0.5], [0.01, 0.99], 4]]) {
    const want = Math.max(oneSide(a, b, d), oneSide(b, a, d));
    close(qif.metric.multiplicativeKantorovich(a, b, [[0, d], [d, 0]]), want, 1e-8, `two points ${a} ${b} d=${d}`);
  }
  const r = rng(9);
  for (let trial = 0; trial < 5; trial++) {
    const P = randomDist(4, r);
    const Q = randomDist(4, r);
    const mtv = Math.max(...P.map((p, i) => Math.abs(Math.log(p) - Math.log(Q[i]))));
    close(qif.metric.multiplicativeKantorovich(P, Q, qif.metric.discrete(4, Infinity)), mtv, 1e-8, 'discrete·∞');
    assert.ok(qif.metric.multiplicativeKantorovich(P, Q, qif.metric.discrete(4, 0.3)) <= mtv + 1e-9, 'at most the multiplicative tv');
  }
  assert.equal(qif.metric.multiplicativeKantorovich([1, 0], [0, 1], qif.metric.discrete(2, Infinity)), Infinity);
});

// ---------------------------------------------------------------- capacities

// Posterior Bayes risk and prior Bayes risk of π through C, in plain JS.
const risk = (pi) => 1 - Math.max(...pi);
const postRisk = (pi, C) => 1 - C[0].reduce((s, _, y) => s + Math.max(...pi.map((p, x) => p * C[x][y])), 0);

test('multiplicativeBayesCapacity: Σ_y max_x C[x][y], and 2^minCapacity', () => {
  const C = [[0.5, 0.3, 0.2], [0.1, 0.6, 0.3], [0.2, 0.2, 0.6]];
  close(qif.measure.multiplicativeBayesCapacity(C), 0.5 + 0.6 + 0.6, 1e-15, 'by hand');
  const r = rng(11);
  const R = randomChannel(4, 5, r);
  close(qif.measure.multiplicativeBayesCapacity(R), 2 ** qif.measure.minCapacity(R), 1e-12, '2^minCapacity');
  // No prior gives a larger multiplicative Bayes leakage.
  for (let k = 0; k < 50; k++) {
    const pi = randomDist(4, r);
    assert.ok(qif.measure.multiplicativeBayesLeakage(pi, R) <= qif.measure.multiplicativeBayesCapacity(R) + 1e-12);
  }
});

test('multiplicativeBayesRiskCapacity: the supremum over priors (brute force), 1/(1 − diam/2)', () => {
  const r = rng(12);
  for (let trial = 0; trial < 5; trial++) {
    const C = randomChannel(3, 3, r);
    let diam = 0;
    for (const a of C) for (const b of C) diam = Math.max(diam, a.reduce((s, v, y) => s + Math.abs(v - b[y]), 0));
    const value = qif.measure.multiplicativeBayesRiskCapacity(C);
    close(value, 1 / (1 - diam / 2), 1e-9 * value, 'closed form');
    let best = 0;
    const N = 60;
    for (let i = 0; i <= N; i++) {
      for (let j = 0; i + j <= N; j++) {
        const pi = [i / N, j / N, (N - i - j) / N];
        if (risk(pi) > 1e-12) best = Math.max(best, risk(pi) / postRisk(pi, C));
      }
    }
    assert.ok(best <= value * (1 + 1e-9), `no prior beats it: ${best} > ${value}`);
    assert.ok(best >= value * (1 - 1e-9), `reached on the grid (at ½, ½ on two rows): ${best} < ${value}`);
  }
  assert.equal(qif.measure.multiplicativeBayesRiskCapacity([[1, 0], [0, 1]]), Infinity, 'disjoint rows');
  assert.equal(qif.measure.multiplicativeBayesRiskCapacity([[0.3, 0.7]]), 1, 'one row');
});

test('additiveGCapacity: both classes from their closed forms, computed here from the posteriors', () => {
  const r = rng(13);
  for (let trial = 0; trial < 10; trial++) {
    const n = 2 + Math.floor(r() * 4);
    const m = 2 + Math.floor(r() * 4);
    const C = randomChannel(n, m, r);
    const pi = randomDist(n, r);
    if (trial % 3 === 0) { pi[0] = 0; pi[1] *= 2; } // a secret outside the support
    const prior = normalize(pi);
    const vuln = 1 - C[0].reduce((s, _, y) => s + Math.min(...C.filter((_, x) => prior[x] > 0).map((row) => row[y])), 0);
    let gain = 0;
    for (let y = 0; y < m; y++) {
      const py = prior.reduce((s, p, x) => s + p * C[x][y], 0);
      const post = prior.map((p, x) => (p * C[x][y]) / py);
      gain += py * prior.reduce((s, p, x) => s + Math.abs(p - post[x]), 0) / 2;
    }
    const v1 = qif.measure.additiveGCapacity(prior, C);
    close(v1, vuln, 1e-12, '1-spanning vulnerabilities (default)');
    close(qif.measure.additiveGCapacity(prior, C, { gainClass: 'oneSpanningVulnerability' }), vuln, 1e-12, 'named');
    const v2 = qif.measure.additiveGCapacity(prior, C, { gainClass: 'oneSpanningGain' });
    close(v2, gain, 1e-12, '1-spanning gains');
    assert.ok(v2 <= v1 + 1e-12, 'gains ⊂ vulnerabilities');
    assert.ok(qif.measure.additiveBayesLeakage(prior, C) <= v1 + 1e-12, 'Bayes vulnerability is in the class');
  }
  assert.equal(qif.measure.additiveGCapacity([0.5, 0.5], [[1, 0], [0, 1]]), 1);
  assert.equal(qif.measure.additiveGCapacity([0.5, 0.5], [[1, 0], [0, 1]], { gainClass: 'oneSpanningGain' }), 0.5);
});

// ---------------------------------------------------------------- factorization

const isChannel = (X) => X.every((row) => row.every((v) => v >= -1e-12) && Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-9);

test('factorize: A = B·X with the witness multiplied back; none for a refinement the wrong way', () => {
  const r = rng(21);
  for (let trial = 0; trial < 10; trial++) {
    const B = randomChannel(4, 3 + (trial % 3), r);
    const A = mul(B, randomChannel(B[0].length, 3, r));
    const f = qif.channel.factorize(A, B);
    assert.equal(f.exists, true);
    const X = rows(f.witness);
    assert.ok(isChannel(X), 'the witness is a channel');
    assert.ok(maxAbsDiff(mul(B, X), A) < 1e-8, 'B·X = A');
    assert.ok(f.maxError < 1e-8);
  }
  const none = qif.channel.factorize([[1, 0], [0, 1]], [[0.5, 0.5], [0.5, 0.5]]);
  assert.equal(none.exists, false);
  assert.equal(none.witness, undefined);
  assert.ok(none.lowerBound > 0.5, `certified distance ${none.lowerBound}`);
  const sizes = qif.channel.factorize([[1, 0], [0, 1]], [[1, 0], [0, 1], [0.5, 0.5]]);
  assert.equal(sizes.exists, false, 'different numbers of rows: none, not an error');
  assert.match(sizes.reason, /rows|secrets/);
});

test('leftFactorize: A = X·B with the witness multiplied back; none when a row of A is no mixture', () => {
  const r = rng(22);
  for (let trial = 0; trial < 10; trial++) {
    const B = randomChannel(3, 4, r);
    const A = mul(randomChannel(5, 3, r), B);
    const f = qif.channel.leftFactorize(A, B);
    assert.equal(f.exists, true);
    const X = rows(f.witness);
    assert.ok(isChannel(X));
    assert.ok(maxAbsDiff(mul(X, B), A) < 1e-8, 'X·B = A');
  }
  // (1, 0) is not between (0.5, 0.5) and (0.6, 0.4).
  // lowerBound is the mean L1 distance per row, as in factorize: row 1 is 0.8 from the nearest
  // mixture (0.6, 0.4), row 0 is a mixture, so the mean is 0.4.
  const none = qif.channel.leftFactorize([[0.55, 0.45], [1, 0]], [[0.5, 0.5], [0.6, 0.4]]);
  assert.equal(none.exists, false);
  assert.ok(Math.abs(none.lowerBound - 0.4) < 1e-9, `certified distance ${none.lowerBound}`);
  assert.equal(qif.channel.leftFactorize([[1, 0, 0]], [[0.5, 0.5]]).exists, false, 'different numbers of columns');
});

// ---------------------------------------------------------------- iterative Bayesian update

test('iterativeBayesianUpdate: the identity channel gives the observed frequencies in two steps', () => {
  // Step 1: π' = u ⊙ (I·(o ⊘ u)) = o; step 2: π'' = o ⊙ (o ⊘ o) = o, a step of 0.
  const o = [0.2, 0.5, 0.3];
  const r = qif.channel.iterativeBayesianUpdate([[1, 0, 0], [0, 1, 0], [0, 0, 1]], o);
  assert.deepEqual([Array.from(r.prior).map((v) => +v.toFixed(15)), r.iterations, r.converged], [o, 2, true]);
  const u = qif.channel.iterativeBayesianUpdate([[1, 0], [0, 1]], [0.5, 0.5]);
  assert.deepEqual([u.iterations, u.converged], [1, true], 'already there: the converged step counts');
});

test('iterativeBayesianUpdate recovers a known prior from the exact output frequencies π·C', () => {
  const r = rng(31);
  for (const [n, eps] of [[3, 2], [4, 1.5], [5, 3]]) {
    const e = Math.exp(eps);
    const C = Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) => (x === y ? e : 1) / (n - 1 + e)));
    const pi = randomDist(n, r);
    const o = C[0].map((_, y) => pi.reduce((s, p, x) => s + p * C[x][y], 0));
    const est = qif.channel.iterativeBayesianUpdate(C, o, { maxDiff: 1e-14, maxIterations: 200000 });
    assert.equal(est.converged, true);
    assert.ok(est.prior instanceof Float64Array);
    const err = Math.max(...pi.map((p, x) => Math.abs(p - est.prior[x])));
    assert.ok(err < 1e-7, `n=${n} ε=${eps}: off by ${err} after ${est.iterations} steps`);
  }
  // Stopped by the limit: not converged, and the count is the limit.
  const C = [[0.6, 0.4], [0.4, 0.6]];
  const one = qif.channel.iterativeBayesianUpdate(C, [0.58, 0.42], { maxIterations: 1 });
  assert.deepEqual([one.iterations, one.converged], [1, false]);
  // One step by hand: π·C = (½, ½), so π'_x = ½ · Σ_y C[x][y]·o_y/½.
  close(one.prior[0], 0.6 * 0.58 + 0.4 * 0.42, 1e-15, 'first step');
});

// ---------------------------------------------------------------- mechanisms

// P(clamp(x + Z) = y) for the two-sided geometric Z, by summing the series term by term.
function windowByBrute(n, eps, m, firstInput, firstOutput) {
  const a = Math.exp(-eps);
  const p = (k) => ((1 - a) / (1 + a)) * a ** Math.abs(k);
  return Array.from({ length: n }, (_, i) => {
    const x = firstInput + i;
    const row = new Array(m).fill(0);
    for (let k = -3000; k <= 3000; k++) {
      const y = Math.min(Math.max(x + k, firstOutput), firstOutput + m - 1);
      row[y - firstOutput] += p(k);
    }
    return row;
  });
}

test('truncatedGeometric with options: the geometric mechanism clamped to the windows (series summed here)', () => {
  for (const [n, eps, m, fi, fo] of [[4, 0.8, 3, 0, 0], [3, 1, 5, -2, 0], [5, 0.5, 2, 10, 3], [3, 2, 4, 0, 6], [2, 0.1, 6, 1, 1]]) {
    const got = rows(qif.mechanism.truncatedGeometric(n, eps, m, { firstInput: fi, firstOutput: fo }));
    assert.ok(maxAbsDiff(got, windowByBrute(n, eps, m, fi, fo)) < 1e-12, `n=${n} ε=${eps} m=${m} windows ${fi}, ${fo}`);
  }
  // Without options it is the function it always was; the empty options select the window form.
  assert.deepEqual(rows(qif.mechanism.truncatedGeometric(4, 1)), rows(qif.mechanism.truncatedGeometric(4, 1, 4, {})));
  assert.ok(maxAbsDiff(rows(qif.mechanism.truncatedGeometric(4, 1)), windowByBrute(4, 1, 4, 0, 0)) < 1e-12);
  assert.deepEqual(rows(qif.mechanism.truncatedGeometric(1, 1, 1)), [[1]], 'm = 1 without options, as before');
  assert.throws(() => qif.mechanism.truncatedGeometric(4, 1, 3), /^Error: mechanism\.truncatedGeometric: /, 'm < n without options, as before');
  throwsNaming(() => qif.mechanism.truncatedGeometric(3, 1, 1, { firstOutput: 1 }), /^mechanism\.truncatedGeometric: m: .*at least 2/);
  throwsNaming(() => qif.mechanism.truncatedGeometric(3, 1, 4, { firstInput: 0.5 }), /^mechanism\.truncatedGeometric: firstInput: /);
});

test('tightConstraints: ε|i−j| gives the truncated geometric, ε·discrete randomized response (closed forms), up to ε = 700', () => {
  for (const [n, eps] of [[2, 0.5], [5, 0.7], [6, 3], [4, 40], [3, 700]]) {
    const a = Math.exp(-eps);
    const geo = Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) => {
      if (y === 0) return a ** x / (1 + a);
      if (y === n - 1) return a ** (n - 1 - x) / (1 + a);
      return ((1 - a) / (1 + a)) * a ** Math.abs(x - y);
    }));
    const line = rows(qif.metric.euclidean(Array.from({ length: n }, (_, i) => [i]))).map((row) => row.map((d) => eps * d));
    assert.ok(maxAbsDiff(rows(qif.mechanism.tightConstraints(line)), geo) < 1e-12, `geometric n=${n} ε=${eps}`);
    const e = Math.exp(eps);
    const rr = Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) => (x === y ? e : 1) / (n - 1 + e)));
    assert.ok(maxAbsDiff(rows(qif.mechanism.tightConstraints(qif.metric.discrete(n, eps))), rr) < 1e-12, `randomized response n=${n} ε=${eps}`);
  }
});

test('tightConstraints on a star: c_center = (1 − 2a)/(1 + a), c_leaf = 1/(1 + a), a = e^{−d}; none when d < ln 2', () => {
  // Center 0 at distance d from three leaves that are 2d apart: the system e^{−D}·c = 1 gives
  // c_center + 3a·c_leaf = 1 and a·c_center + (1 + 2a²)·c_leaf = 1.
  const star = (d) => [[0, d, d, d], [d, 0, 2 * d, 2 * d], [d, 2 * d, 0, 2 * d], [d, 2 * d, 2 * d, 0]];
  const d = 1;
  const a = Math.exp(-d);
  const cc = (1 - 2 * a) / (1 + a);
  const cl = 1 / (1 + a);
  const C = rows(qif.mechanism.tightConstraints(star(d)));
  close(C[0][0], cc, 1e-14, 'center → center');
  close(C[0][1], a * cl, 1e-14, 'center → leaf');
  close(C[1][0], a * cc, 1e-14, 'leaf → center');
  close(C[1][2], a * a * cl, 1e-14, 'leaf → other leaf');
  close(C[1][1], cl, 1e-14, 'leaf → itself');
  // Every constraint that can be tight is: the mechanism is exactly 1·D-private.
  close(qif.privacy.dPrivacyEpsilon(C, star(d)), 1, 1e-12, 'd-privacy');
  throwsNaming(() => qif.mechanism.tightConstraints(star(0.5)), /^mechanism\.tightConstraints: D: no tight-constraints mechanism exists/);
});

test('the metric matrices are the metric of privacy.dPrivacyEpsilon and mechanism.optimalLP', () => {
  const n = 5;
  const eps = 0.9;
  const line = qif.metric.euclidean(Array.from({ length: n }, (_, i) => [i]));
  close(qif.privacy.dPrivacyEpsilon(qif.mechanism.truncatedGeometric(n, eps), line), eps, 1e-12, 'geometric is ε·|i−j|-private');
  const rr = qif.mechanism.randomizedResponse(n, eps);
  close(qif.privacy.dPrivacyEpsilon(rr, qif.metric.discrete(n)), eps, 1e-12, 'randomized response is ε·discrete-private');
  assert.equal(qif.privacy.dPrivacyEpsilon(rr, qif.metric.discrete(n, Infinity)), 0, 'an infinite distance bounds nothing');
  for (const D of [qif.metric.gridEuclidean(2, 2), qif.metric.gridManhattan(3, 1, 0.5), qif.metric.discrete(4, 2)]) {
    const r = qif.mechanism.optimalLP({ metric: D, epsilon: 1 });
    assert.equal(r.status, 'optimal');
    assert.ok(qif.privacy.dPrivacyEpsilon(r.mechanism, D) <= 1 + 1e-7, 'the optimal mechanism is 1·D-private');
  }
  // The threshold matrix is accepted as a metric too (0 below t: those pairs must be equal).
  const T = qif.metric.threshold(qif.metric.gridManhattan(3, 1), 2);
  const r = qif.mechanism.optimalLP({ metric: T, epsilon: 1 });
  assert.equal(r.status, 'optimal');
  const H = rows(r.mechanism);
  assert.ok(maxAbsDiff([H[0]], [H[1]]) < 1e-7, 'cells 0 and 1 are at threshold distance 0');
});

// ---------------------------------------------------------------- the additive refinement metric

// libqif's linear program, solved here with qif.lp.solve: one guess per output of A and of B and
// the zero guess; maximize Σ_z J_B[·][z]·g_{B,z} − Σ_y J_A[·][y]·g_{A,y} with g ≤ 1, where the
// guess of output y of A must be A's best there.
function additiveMetricByLP(prior, A, B) {
  const n = prior.length;
  const [ma, mb] = [A[0].length, B[0].length];
  const guesses = ma + mb;
  const v = (w, x) => w * n + x;
  const objective = new Array(guesses * n).fill(0);
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < ma; y++) objective[v(y, x)] -= prior[x] * A[x][y];
    for (let z = 0; z < mb; z++) objective[v(ma + z, x)] += prior[x] * B[x][z];
  }
  const lpRows = [];
  for (let y = 0; y < ma; y++) {
    for (let w = -1; w < guesses; w++) { // -1: the zero guess
      if (w === y) continue;
      const coeffs = new Array(guesses * n).fill(0);
      for (let x = 0; x < n; x++) {
        coeffs[v(y, x)] += prior[x] * A[x][y];
        if (w >= 0) coeffs[v(w, x)] -= prior[x] * A[x][y];
      }
      lpRows.push({ coeffs, op: '>=', rhs: 0 });
    }
  }
  const res = qif.lp.solve({ sense: 'max', objective, rows: lpRows, lower: new Array(guesses * n).fill(-Infinity), upper: new Array(guesses * n).fill(1) });
  assert.equal(res.status, 'optimal');
  return res.objective;
}

test('additiveMetric: 0 when A ⊑avg B; otherwise libqif\'s program\'s value, with a gain that recomputes to it', () => {
  const r = rng(41);
  for (let trial = 0; trial < 8; trial++) {
    const A = randomChannel(3, 3, r);
    const prior = randomDist(3, r);
    const post = mul(A, randomChannel(3, 2 + (trial % 3), r)); // A ⊑avg A·R
    const same = qif.refine.additiveMetric(prior, A, post);
    assert.ok(Math.abs(same.value) < 1e-9, `A ⊑avg A·R: ${same.value}`);

    const B = randomChannel(3, 3, r);
    const res = qif.refine.additiveMetric(prior, A, B);
    close(res.value, additiveMetricByLP(prior, A, B), 1e-7, 'libqif\'s program');
    const G = rows(res.gain);
    assert.ok(G.every((row) => row.every((g) => g <= 1 + 1e-9)), 'gains ≤ 1');
    assert.ok(G.some((row) => row.every((g) => g === 0)), 'a zero-gain guess');
    const diff = qif.measure.posteriorGVulnerability(G, prior, B) - qif.measure.posteriorGVulnerability(G, prior, A);
    close(diff, res.value, 1e-9, 'V_g[π▷B] − V_g[π▷A] recomputed');
    close(res.vulnerabilityB - res.vulnerabilityA, res.value, 1e-9, 'the reported vulnerabilities');
    // Swapping the roles: if the value is 0 both ways, the refinement holds both ways.
    const verdict = qif.refine.avg(A, B).holds;
    assert.equal(verdict, res.value < 1e-9, 'value 0 exactly when A ⊑avg B (full-support prior)');
  }
  // The example of the guide (comparing mechanisms): randomized response at ln 4 over ln 2 under
  // the uniform prior, ⅓ by libqif's program.
  const u3 = [1 / 3, 1 / 3, 1 / 3];
  const rr2 = rows(qif.mechanism.randomizedResponse(3, Math.log(2)));
  const rr4 = rows(qif.mechanism.randomizedResponse(3, Math.log(4)));
  close(additiveMetricByLP(u3, rr2, rr4), 1 / 3, 1e-9, 'libqif\'s program on the guide\'s example');
  close(qif.refine.additiveMetric(u3, rr2, rr4).value, 1 / 3, 1e-9, 'the guide\'s example');
  // The identity against the channel that reveals nothing: B leaks the whole gain range more.
  const noInfo = [[0.5, 0.5], [0.5, 0.5]];
  close(qif.refine.additiveMetric([0.5, 0.5], noInfo, [[1, 0], [0, 1]]).value, 1, 1e-9, 'identity over nothing');
  assert.ok(qif.refine.additiveMetric([0.5, 0.5], [[1, 0], [0, 1]], noInfo).value < 1e-12, 'nothing over identity');
});

// ---------------------------------------------------------------- bad input

test('bad input throws an Error that starts with the function and names the argument', () => {
  const C = [[0.75, 0.25], [0.25, 0.75]];
  const cases = [
    [() => qif.metric.totalVariation([0.5, 0.5], [0.2, 0.3, 0.5]), /^metric\.totalVariation: Q: has 3 entries but P has 2/],
    [() => qif.metric.multiplicativeTotalVariation([0.5, 0.6], [0.5, 0.5]), /^metric\.multiplicativeTotalVariation: P: /],
    [() => qif.metric.convexSeparation([0.5, 0.5], [NaN, 1]), /^metric\.convexSeparation: Q: /],
    [() => qif.metric.kantorovich([0.5, 0.5], [0.5, 0.5], [[0, 1], [2, 0]]), /^metric\.kantorovich: D: not symmetric/],
    [() => qif.metric.kantorovich([0.5, 0.5], [0.5, 0.5], [[1, 1], [1, 0]]), /^metric\.kantorovich: D: /],
    [() => qif.metric.kantorovich([0.5, 0.5], [0.5, 0.5], [[0, -1], [-1, 0]]), /^metric\.kantorovich: D: /],
    [() => qif.metric.kantorovich([0.5, 0.5], [0.5, 0.5], qif.metric.discrete(3)), /^metric\.kantorovich: D: 3×3/],
    [() => qif.metric.multiplicativeKantorovich([0.5, 0.5], [1], [[0, 1], [1, 0]]), /^metric\.multiplicativeKantorovich: Q: /],
    [() => qif.metric.discrete(3, -1), /^metric\.discrete: scale: /],
    [() => qif.metric.discrete(3, NaN), /^metric\.discrete: scale: /],
    [() => qif.metric.discrete(0), /^metric\.discrete: n: /],
    [() => qif.metric.gridEuclidean(0, 2), /^metric\.gridEuclidean: width: /],
    [() => qif.metric.gridManhattan(2, 2, 0), /^metric\.gridManhattan: cellSize: /],
    [() => qif.metric.gridManhattan(2, 2, -1), /^metric\.gridManhattan: cellSize: /],
    [() => qif.metric.gridEuclidean(100, 100), /^metric\.gridEuclidean: width, height: /],
    [() => qif.metric.euclidean([[0, 0], [1]]), /^metric\.euclidean: points: ragged/],
    [() => qif.metric.manhattan([]), /^metric\.manhattan: points: /],
    [() => qif.metric.euclidean([[0], [Infinity]]), /^metric\.euclidean: points: /],
    [() => qif.metric.threshold([[0, 1], [1, 0]], 0), /^metric\.threshold: t: /],
    [() => qif.metric.threshold([[0, 1], [1, 0]], -1), /^metric\.threshold: t: /],
    [() => qif.measure.additiveGCapacity([1 / 3, 1 / 3, 1 / 3], C), /^measure\.additiveGCapacity: prior: /],
    [() => qif.measure.additiveGCapacity([0.5, 0.5], C, { gainClass: 'bayes' }), /^measure\.additiveGCapacity: gainClass: expected one of/],
    [() => qif.measure.multiplicativeBayesCapacity([[0.5, 0.6]]), /^measure\.multiplicativeBayesCapacity: channel: /],
    [() => qif.measure.multiplicativeBayesRiskCapacity([[-0.5, 1.5]]), /^measure\.multiplicativeBayesRiskCapacity: channel: /],
    [() => qif.channel.factorize([[0.5, 0.6]], C), /^channel\.factorize: A: /],
    [() => qif.channel.leftFactorize(C, [[NaN, 1]]), /^channel\.leftFactorize: B: /],
    [() => qif.channel.iterativeBayesianUpdate(C, [0.5, 0.6]), /^channel\.iterativeBayesianUpdate: observed: sums to 1\.1/],
    [() => qif.channel.iterativeBayesianUpdate(C, [1]), /^channel\.iterativeBayesianUpdate: observed: has 1 entry but the channel has 2 columns/],
    [() => qif.channel.iterativeBayesianUpdate(C, [0.5, 0.5], { maxDiff: 0 }), /^channel\.iterativeBayesianUpdate: maxDiff: /],
    [() => qif.channel.iterativeBayesianUpdate(C, [0.5, 0.5], { maxIterations: 0 }), /^channel\.iterativeBayesianUpdate: maxIterations: /],
    [() => qif.channel.iterativeBayesianUpdate(C, [0.5, 0.5], { maxDif: 1 }), /^channel\.iterativeBayesianUpdate: options: unknown option "maxDif"/],
    [() => qif.mechanism.truncatedGeometric(3, 1, 1, {}), /^mechanism\.truncatedGeometric: m: /],
    [() => qif.mechanism.truncatedGeometric(3, -1, 3, {}), /^mechanism\.truncatedGeometric: epsilon: /],
    [() => qif.mechanism.tightConstraints([[0, 1, 2], [1, 0, 1]]), /^mechanism\.tightConstraints: D: /],
    [() => qif.mechanism.tightConstraints([[0, 0], [0, 0]]), /^mechanism\.tightConstraints: D: .*singular/],
    [() => qif.refine.additiveMetric([0.5, 0.5], C, [[1, 0], [0, 1], [0.5, 0.5]]), /^refine\.additiveMetric: (A|B)/],
    [() => qif.refine.additiveMetric([0.5, 0.5, 0], C, C), /^refine\.additiveMetric: prior: /],
  ];
  for (const [fn, re] of cases) throwsNaming(fn, re);
  assert.equal(qif.metric.totalVariation([1, 0], [0, 1]), 1, 'the instance still works');
});
