// qif.estimate's intervals where a bootstrap around the plug-in misses: tied prior maxima and
// sparse tables (coverage over seeded repetitions against qif.measure's exact values), the Bayes
// risk's lower end as a bound at the sample size used (checked against a Clopper–Pearson bound
// computed here from binomial tails), the sparse-table warning, and the plug-in estimators'
// progress and cancellation.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

let qif;
before(async () => { qif = await load(); });

const uniform = (k) => Array(k).fill(1 / k);
const identity = (k) => Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => +(i === j)));

// P(Binomial(n, p) ≤ s), summed term by term in logarithms.
function binomialCDF(s, n, p) {
  let lc = 0, sum = 0; // lc = log C(n, k)
  for (let k = 0; k <= s; k++) {
    if (k > 0) lc += Math.log(n - k + 1) - Math.log(k);
    sum += Math.exp(lc + k * Math.log(p) + (n - k) * Math.log1p(-p));
  }
  return sum;
}
// The one-sided upper Clopper–Pearson bound of s successes in n at level 1 − a: the p with
// P(Binomial(n, p) ≤ s) = a (bisection; decreasing in p).
function cpUpper(s, n, a) {
  if (s >= n) return 1;
  let lo = s / n, hi = 1;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (binomialCDF(s, n, mid) > a) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

test('min-entropy leakage with equally likely secrets: the interval holds log₂ 3 of the 3×3 identity at n = 60', () => {
  const exact = qif.measure.minEntropyLeakage(uniform(3), identity(3));
  assert.ok(Math.abs(exact - Math.log2(3)) < 1e-12);
  let hits = 0;
  const reps = 40;
  for (let r = 0; r < reps; r++) {
    const s = qif.channel.sample(uniform(3), identity(3), 60, { seed: 100 + r });
    const me = qif.estimate.minEntropyLeakage(s.secrets, s.observations, { seed: r });
    assert.ok(me.value < exact, 'the plug-in is below the truth: the largest of three equal counts exceeds n/3');
    if (me.lower <= exact + 1e-12 && exact <= me.upper + 1e-12) hits++;
  }
  assert.ok(hits >= 0.9 * reps, `${hits} of ${reps}`);
});

test('mutual information on a sparse table (10 × 10, n = 200): the interval holds the exact value', () => {
  // Rows from a fixed generator, normalized: a channel with many small entries.
  let state = 7;
  const u = () => { state = (state * 48271) % 2147483647; return state / 2147483647; };
  const C = Array.from({ length: 10 }, () => {
    const row = Array.from({ length: 10 }, () => -Math.log(u()));
    const t = row.reduce((a, b) => a + b);
    return row.map((v) => v / t);
  });
  const exact = qif.measure.mutualInformation(uniform(10), C);
  let hits = 0, sparse = 0;
  const reps = 40;
  for (let r = 0; r < reps; r++) {
    const s = qif.channel.sample(uniform(10), C, 200, { seed: 300 + r });
    const mi = qif.estimate.mutualInformation(s.secrets, s.observations, { seed: r, shuffles: 0 });
    if (mi.lower <= exact + 1e-12 && exact <= mi.upper + 1e-12) hits++;
    if (mi.warnings.some((w) => w.startsWith('sparse table'))) sparse++;
  }
  assert.ok(hits >= 0.9 * reps, `${hits} of ${reps}`);
  assert.equal(sparse, reps, 'every sample is flagged: 200 samples for 100 cells');
  // A dense table is not flagged.
  const s = qif.channel.sample(uniform(2), [[0.8, 0.2], [0.3, 0.7]], 2000, { seed: 1 });
  assert.deepEqual(qif.estimate.mutualInformation(s.secrets, s.observations).warnings, []);
  assert.deepEqual(qif.estimate.minEntropyLeakage(s.secrets, s.observations).warnings, []);
});

test('bayesRisk: lower is 1 − the Clopper–Pearson upper bound of the frequentist rule\'s successes on the whole sample', () => {
  const C = [[0.8, 0.2], [0.3, 0.7]];
  const s = qif.channel.sample(uniform(2), C, 1000, { seed: 5 });
  // S = Σ_o max_x count(x, o), counted here.
  const count = [[0, 0], [0, 0]];
  s.secrets.forEach((x, i) => { count[x][s.observations[i]]++; });
  const S = Math.max(count[0][0], count[1][0]) + Math.max(count[0][1], count[1][1]);
  const r = qif.estimate.bayesRisk(s.secrets, s.observations, { method: 'frequentist', seed: 1 });
  assert.ok(Math.abs(r.lower - (1 - cpUpper(S, 1000, 0.025))) < 1e-6, `${r.lower} against ${1 - cpUpper(S, 1000, 0.025)}`);
  assert.ok(r.lower <= 0.25 && 0.25 <= r.upper);
});

test('bayesRisk: the lower end does not exceed R* = 0 where the Cover–Hart value at the measured NN error does', () => {
  // Two secrets, each observed through its own 1,000 values: the observation identifies the
  // secret, but each value is seen about once in 2,000 samples.
  let state = 11;
  const u = () => { state = (state * 48271) % 2147483647; return state / 2147483647; };
  const n = 2000, secrets = new Int32Array(n), observations = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    secrets[i] = u() < 0.5 ? 0 : 1;
    observations[i] = 1000 * secrets[i] + Math.floor(1000 * u());
  }
  const r = qif.estimate.bayesRisk(secrets, observations, { method: 'frequentist', seed: 1 });
  assert.equal(r.lower, 0);
  assert.ok(r.nnBound > 0.1 && r.nnLower > 0.1, `the asymptotic values miss: ${r.nnBound}, ${r.nnLower}`);
  // Vector observations that never repeat: no lower bound either.
  const data = Float64Array.from({ length: n }, () => u());
  assert.equal(qif.estimate.bayesRisk(secrets, { rows: n, cols: 1, data }, { seed: 1 }).lower, 0);
});

test('mutualInformation (plug-in): onProgress reports and cancels', () => {
  const s = qif.channel.sample(uniform(2), [[0.8, 0.2], [0.3, 0.7]], 5000, { seed: 2 });
  let calls = 0, last = null;
  assert.throws(() => qif.estimate.mutualInformation(s.secrets, s.observations, {
    shuffles: 50, onProgress: (done, total) => { calls++; last = [done, total]; return calls < 3; },
  }), (e) => {
    assert.equal(e.name, 'AbortError');
    assert.equal(e.message, 'estimate.mutualInformation: cancelled');
    return true;
  });
  assert.equal(calls, 3);
  assert.ok(last[0] === 3 && last[0] < last[1], `${last}`);
  let seen = 0;
  qif.estimate.mutualInformation(s.secrets, s.observations, { shuffles: 50, onProgress: (done, total) => { seen = Math.max(seen, done / total); } });
  assert.equal(seen, 1, 'progress reaches its total');
});
