// qif.estimate on numeric observations: how observations are read (kind), the warnings and
// errors, the nearest-neighbour MI and the min-entropy leakage from the Bayes risk on a timing-like
// dataset whose true values are computed here by numerical integration, bins, and readSamples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { rng } from './seeded-random.mjs';

const qif = await load();


// A timing side channel: the Hamming weight w of a uniform 4-bit key (0..4, binomial), observed
// as 100 + 3·w microseconds plus Gaussian jitter of 1.5 µs.
const PRIOR = [1, 4, 6, 4, 1].map((c) => c / 16);
const MEAN = (w) => 100 + 3 * w;
const SIGMA = 1.5;
function timings(n, seed) {
  const r = rng(seed);
  const secrets = new Array(n), times = new Array(n);
  for (let i = 0; i < n; i++) {
    let w = 0;
    for (let b = 0; b < 4; b++) w += r() < 0.5 ? 1 : 0;
    secrets[i] = w;
    times[i] = MEAN(w) + SIGMA * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  }
  return { secrets, times };
}

// The true MI (bits) and Bayes risk of the timing channel, by the midpoint rule on a fine grid.
function truth() {
  const phi = (z) => Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
  const lo = MEAN(0) - 12 * SIGMA, hi = MEAN(4) + 12 * SIGMA, steps = 40000, h = (hi - lo) / steps;
  let mi = 0, v = 0;
  for (let i = 0; i < steps; i++) {
    const y = lo + (i + 0.5) * h;
    const f = PRIOR.map((p, w) => p * phi((y - MEAN(w)) / SIGMA) / SIGMA);
    const tot = f.reduce((a, b) => a + b, 0);
    v += h * Math.max(...f);
    for (let w = 0; w < 5; w++) if (f[w] > 0) mi += h * f[w] * Math.log2(f[w] / (PRIOR[w] * tot));
  }
  return { mi, rstar: 1 - v, minEntropy: Math.log2(v / Math.max(...PRIOR)) };
}
const TRUE = truth();

test('the true values of the timing channel are those of the mixture (sanity of the integration)', () => {
  // Bounds that do not use the integration: 0 < I < H(X), R* below the prior's 1 − 6/16.
  const hx = -PRIOR.reduce((s, p) => s + p * Math.log2(p), 0);
  assert.ok(TRUE.mi > 0.5 && TRUE.mi < hx, `MI ${TRUE.mi}`);
  assert.ok(TRUE.rstar > 0 && TRUE.rstar < 1 - 6 / 16, `R* ${TRUE.rstar}`);
  // Two neighbours 3 apart with σ = 1.5 are told apart with error Φ(−1) at equal weights, so
  // R* is at least the error between the two middle weights' halves: a loose check only.
  assert.ok(TRUE.minEntropy > 0.5 && TRUE.minEntropy < Math.log2(16 / 6) + 1e-9);
});

test('timings as a plain array are read as numbers; MI by nearest neighbours near the true value and leaking', () => {
  const { secrets, times } = timings(20000, 1);
  const r = qif.estimate.mutualInformation(secrets, times, { seed: 3 });
  assert.equal(r.kind, 'numbers');
  assert.equal(r.method, 'nn');
  assert.equal(r.k, 3);
  assert.deepEqual(r.warnings, []);
  assert.equal(r.leaks, true, 'a leaking system is never said not to leak');
  assert.ok(r.value > r.zeroLeakageThreshold);
  assert.ok(Math.abs(r.value - TRUE.mi) < 0.03, `estimate ${r.value}, true ${TRUE.mi}`);
  assert.ok(r.lower <= TRUE.mi && TRUE.mi <= r.upper, `[${r.lower}, ${r.upper}] covers ${TRUE.mi}`);
  assert.ok(r.upper - r.lower < 0.1, 'an informative interval');
});

test('min-entropy leakage of numbers comes from the k-NN Bayes risk, with the prior baseline', () => {
  const { secrets, times } = timings(20000, 2);
  const r = qif.estimate.minEntropyLeakage(secrets, Float64Array.from(times), { seed: 1 });
  assert.equal(r.kind, 'numbers');
  assert.equal(r.method, 'knn');
  assert.ok(Math.abs(r.priorVulnerability - 6 / 16) < 0.02);
  assert.ok(Math.abs(r.value - Math.log2((1 - r.bayesRisk.value) / r.priorVulnerability)) < 1e-12, 'the formula of the value');
  assert.ok(r.lower <= r.value && r.value <= r.upper);
  assert.ok(Math.abs(r.value - TRUE.minEntropy) < 0.1, `estimate ${r.value}, true ${TRUE.minEntropy}`);
  const br = qif.estimate.bayesRisk(secrets, times, { seed: 1 });
  assert.equal(br.kind, 'numbers', 'bayesRisk reads the plain array as numbers too');
  assert.ok(Math.abs(br.value - TRUE.rstar) < 0.03, `R ${br.value}, R* ${TRUE.rstar}`);
});

test('the same timings as labels: refused with the count and a way out, never "no leak"', () => {
  const { secrets, times } = timings(5000, 4);
  for (const f of ['mutualInformation', 'minEntropyLeakage', 'channel']) {
    assert.throws(() => qif.estimate[f](secrets, times, { kind: 'labels' }), (e) => e.message.startsWith(`estimate.${f}: observations: 5,000 of the 5,000 observations are distinct`)
      && /bins/.test(e.message) && /kind: 'numbers'/.test(e.message) && e.argument === 'observations', f);
  }
  // Binned, the plug-in estimates work and say what binning loses.
  const b = qif.estimate.mutualInformation(secrets, times, { bins: 'fd' });
  assert.equal(b.method, 'plugin');
  assert.equal(b.bins.length, 1);
  assert.ok(b.bins[0].length > 5 && b.bins[0].every((e, i) => i === 0 || e > b.bins[0][i - 1]));
  assert.match(b.note, /lose information/);
  assert.ok(b.leaks && b.value < TRUE.mi + 0.05, 'binned MI is below the unbinned one (up to its bias)');
  const e = qif.estimate.minEntropyLeakage(secrets, times, { bins: [95, 100, 105, 110, 115, 120] });
  assert.deepEqual([...e.bins[0]], [95, 100, 105, 110, 115, 120]);
  assert.equal(e.method, 'plugin');
  const c = qif.estimate.mutualInformation(secrets, times, { bins: 12 });
  assert.equal(c.bins[0].length, 13);
});

test('kind: the automatic rule, and the override', () => {
  const secrets = Array.from({ length: 400 }, (_, i) => i % 2);
  const codes = secrets.map((s, i) => (s + i) % 4);          // 4 distinct integers: labels
  const many = secrets.map((_, i) => i % 40);                 // 40 distinct integers > max(20, 400/20): numbers
  const halves = codes.map((c) => c + 0.5);                   // not integers: numbers
  const k = (obs, options) => qif.estimate.bayesRisk(secrets, obs, { seed: 1, ...options }).kind;
  assert.equal(k(codes), 'labels');
  assert.equal(k(many), 'numbers');
  assert.equal(k(halves), 'numbers');
  assert.equal(k(Int32Array.from(many)), 'labels', 'an Int32Array is labels');
  assert.equal(k(Float64Array.from(codes)), 'numbers', 'a Float64Array is numbers');
  assert.equal(k(codes.map(String)), 'labels');
  assert.equal(k(codes.map((c) => [c, c])), 'numbers', 'vectors are numbers');
  assert.equal(k(many, { kind: 'labels' }), 'labels');
  assert.equal(k(codes, { kind: 'numbers' }), 'numbers');
  assert.equal(qif.estimate.channel(secrets, codes).kind, 'labels');
  assert.equal(qif.estimate.mutualInformation(secrets, codes).method, 'plugin');
  assert.throws(() => qif.estimate.bayesRisk(secrets, codes.map(String), { kind: 'numbers' }), (e) => e.argument === 'observations' && /strings/.test(e.message));
  assert.throws(() => qif.estimate.bayesRisk(secrets, codes, { kind: 'count' }), (e) => e.argument === 'kind');
});

test('swapped columns: a secret column with more than n/2 distinct values is warned about', () => {
  const { secrets, times } = timings(2000, 5);
  const r = qif.estimate.bayesRisk(times, secrets, { kind: 'labels', seed: 1 });
  assert.equal(r.warnings.length, 1);
  assert.match(r.warnings[0], /^secrets: 2,000 distinct values in 2,000 samples .*swapped/);
  assert.deepEqual(qif.estimate.bayesRisk(secrets, times, { seed: 1 }).warnings, []);
});

test('bad input: each error names the argument', () => {
  const { secrets, times } = timings(300, 6);
  const cases = [
    [() => qif.estimate.mutualInformation(secrets, times.map((t, i) => (i === 7 ? NaN : t))), 'observations', /row 7, column 0 is NaN/],
    [() => qif.estimate.mutualInformation(secrets, Float64Array.from(times, (t, i) => (i === 9 ? Infinity : t))), 'observations', /row 9, column 0 is \+Inf/],
    [() => qif.estimate.mutualInformation(secrets.map(() => 1), times), 'secrets', /fewer than two distinct secrets/],
    [() => qif.estimate.mutualInformation([...secrets.slice(0, 295), 9, 9, 9, 9, 9], times), 'secrets', /secret 9 has 5 samples, fewer than 2k\+1 = 7/],
    [() => qif.estimate.mutualInformation(secrets, [1.5, 'a', ...times.slice(2)]), 'observations', /entry 1 is a string but entry 0 is not/],
    [() => qif.estimate.mutualInformation(secrets, times, { k: 0 }), 'k', /./],
    [() => qif.estimate.mutualInformation(secrets, times, { method: 'nn', bins: 4 }), 'bins', /method 'plugin'/],
    [() => qif.estimate.mutualInformation(secrets, times.map(String), { method: 'nn' }), 'method', /numeric observations/],
    [() => qif.estimate.mutualInformation(secrets, times, { bins: [1, 1] }), 'bins', /increase/],
    [() => qif.estimate.mutualInformation(secrets, times, { bins: 'sturges' }), 'bins', /'fd', a positive integer or an array of numbers/],
  ];
  for (const [f, arg, re] of cases) {
    assert.throws(f, (e) => e.argument === arg && re.test(e.message) && e.message.startsWith('estimate.'), `${arg} ${re}`);
  }
});

test('onProgress reports the estimates and cancels', () => {
  const { secrets, times } = timings(3000, 7);
  const seen = [];
  qif.estimate.mutualInformation(secrets, times, { shuffles: 10, onProgress: (done, total) => { seen.push([done, total]); } });
  assert.deepEqual(seen.at(-1), [12 * 3000, 12 * 3000], 'the sample, its parts, 10 shuffled copies: n samples each');
  assert.ok(seen.every(([d, t], i) => t === 36000 && (i === 0 || d > seen[i - 1][0])), 'increasing');
  assert.throws(() => qif.estimate.mutualInformation(secrets, times, { onProgress: () => false }), (e) => e.name === 'AbortError');
});

test('readSamples: the page\'s reader, with decimal commas, quoted fields and a header', () => {
  const r = qif.estimate.readSamples('key weight;time (µs)\n0;"100,25"\n1;103,5\n0;99,75\n2;106\n');
  assert.deepEqual(r.header, ['key weight', 'time (µs)']);
  assert.ok(r.secrets instanceof Int32Array);
  assert.deepEqual([...r.secrets], [0, 1, 0, 2]);
  assert.deepEqual([...r.observations.data], [100.25, 103.5, 99.75, 106]);
  assert.equal(r.decimalComma, true);
  const q = qif.estimate.readSamples('s,o\n"a, b",1\n"c ""d""","2,5"\n');
  assert.deepEqual(q.header, ['s', 'o']);
  assert.deepEqual(q.secretNames, ['a, b', 'c "d"']);
  assert.deepEqual([...q.observations.data], [1, 2.5]);
  assert.throws(() => qif.estimate.readSamples('a,b\n1,2\n3\n'), (e) => e.message === 'estimate.readSamples: text: line 3: 1 columns, expected 2' && e.argument === 'text');
  assert.throws(() => qif.estimate.readSamples(42), (e) => e.argument === 'text');
  assert.throws(() => qif.estimate.readSamples('a,b', { progress: 1 }), /unknown option/);
  // What it reads goes straight into the estimators.
  const { secrets, times } = timings(1000, 8);
  const csv = 'w\tt\n' + secrets.map((s, i) => `${s}\t${times[i].toFixed(3).replace('.', ',')}`).join('\n');
  const read = qif.estimate.readSamples(csv);
  const mi = qif.estimate.mutualInformation(read.secrets, read.observations);
  assert.equal(mi.kind, 'numbers');
  assert.ok(mi.leaks);
});
