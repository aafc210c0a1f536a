// qif.channel: every function against values computed by hand or in plain JS here, with both input
// shapes (nested arrays and {rows, cols, data}), and bad inputs whose errors name the argument.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { rng } from './seeded-random.mjs';

let qif;
before(async () => { qif = await load(); });

const EPS = 1e-12;

// Plain-JS helpers, independent of the module.
function toRows(m) {
  if (Array.isArray(m)) return m;
  const out = [];
  for (let i = 0; i < m.rows; i++) out.push(Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols)));
  return out;
}
function flat(rows) {
  return { rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) };
}
function assertMatrix(got, want, tol = EPS, what = 'matrix') {
  assert.ok(got && got.data instanceof Float64Array, `${what}: data is a Float64Array`);
  assert.equal(got.rows, want.length, `${what}: rows`);
  assert.equal(got.cols, want[0].length, `${what}: cols`);
  const g = toRows(got);
  for (let i = 0; i < want.length; i++) {
    for (let j = 0; j < want[0].length; j++) {
      assert.ok(Math.abs(g[i][j] - want[i][j]) <= tol, `${what}[${i}][${j}] = ${g[i][j]}, want ${want[i][j]}`);
    }
  }
}
function assertVector(got, want, tol = EPS, what = 'vector') {
  assert.ok(got instanceof Float64Array, `${what} is a Float64Array`);
  assert.equal(got.length, want.length, `${what}: length`);
  for (let i = 0; i < want.length; i++) {
    assert.ok(Math.abs(got[i] - want[i]) <= tol, `${what}[${i}] = ${got[i]}, want ${want[i]}`);
  }
}
function mulJS(A, B) {
  return A.map((row) => B[0].map((_, z) => row.reduce((s, a, y) => s + a * B[y][z], 0)));
}
function bayesJS(prior, C) { // V[π▷C] = Σ_y max_x π_x C[x][y]
  let v = 0;
  for (let y = 0; y < C[0].length; y++) v += Math.max(...C.map((row, x) => prior[x] * row[y]));
  return v;
}
function randomChannel(r, n, m) {
  return Array.from({ length: n }, () => {
    const row = Array.from({ length: m }, () => (r() < 0.25 ? 0 : r() + 0.01));
    if (row.every((v) => v === 0)) row[0] = 1;
    const s = row.reduce((a, b) => a + b, 0);
    return row.map((v) => v / s);
  });
}

// Alvim et al. (FOSAD 2011), Table 3(b): two-node dc-net, coins biased 2/3 towards 0.
const dcBiased = [
  [2 / 3, 1 / 3, 0, 0],
  [1 / 3, 2 / 3, 0, 0],
  [0, 0, 2 / 3, 1 / 3],
  [0, 0, 2 / 3, 1 / 3],
];
// Alvim et al. (FOSAD 2011), Table 2(b): password checker with iteration counts, password 110.
const passwordIter = [
  [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0],
  [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0],
];

test('validate accepts channels in both shapes', () => {
  assert.equal(qif.channel.validate([[1]]), true);
  assert.equal(qif.channel.validate(dcBiased), true);
  assert.equal(qif.channel.validate(flat(passwordIter)), true);
  assert.equal(qif.channel.validate({ rows: 1, cols: 2, data: [0.5, 0.5] }), true);
  assert.equal(qif.channel.validate([Float64Array.of(0.25, 0.75)]), true);
  assert.equal(qif.channel.validate([[0.5, 0.5 + 0.9e-6]]), true, 'within the 1e-6 tolerance');
});

test('validate rejects bad channels naming the problem', () => {
  const bad = [
    [[[0.5, 0.4]], /channel: row 0 sums to 0\.9/],
    [[[1, 0], [NaN, 1]], /channel: entry \[1\]\[0\] is NaN/],
    [[[1.5, -0.5]], /channel: entry \[0\]\[1\] is negative/],
    [[[Infinity, 0]], /channel: entry \[0\]\[0\] is \+Inf/],
    [[], /channel: empty matrix/],
    [[[]], /channel: empty matrix/],
    [[[1, 0], [1]], /channel: ragged matrix: row 1/],
    [[[1, '0']], /channel: entry \[0\]\[1\] is the string/],
    [[1, 0], /channel: row 0 is number/],
    [{ rows: 2, cols: 2, data: [1, 0, 1] }, /channel: data has 3 entries/],
    [{ rows: 1e5, cols: 1e5, data: [] }, /channel: data has 0 entries/],
    [{ rows: -1, cols: 2, data: [] }, /channel: rows and cols/],
    [{ rows: 10000, cols: 10000, data: new Float64Array(0) }, /channel:/],
    ['C', /channel: expected a matrix/],
    [null, /channel: missing argument/],
    [undefined, /channel: missing argument/],
    [[[0.5, 0.5 + 1.1e-6]], /channel: row 0 sums to/],
  ];
  for (const [input, re] of bad) {
    assert.throws(() => qif.channel.validate(input), (e) => e instanceof Error && re.test(e.message),
      `validate(${JSON.stringify(input)})`);
  }
});

test('hyper of the dc-net merges the outputs 00 and 11', () => {
  // Uniform prior: p(10) = p(01) = 1/4, p(00) = p(11) = 1/4 with the same posterior (0,0,½,½).
  const h = qif.channel.hyper([0.25, 0.25, 0.25, 0.25], dcBiased);
  assertVector(h.outer, [0.25, 0.25, 0.5], EPS, 'outer');
  assertMatrix(h.inners, [[2 / 3, 1 / 3, 0, 0], [1 / 3, 2 / 3, 0, 0], [0, 0, 0.5, 0.5]], EPS, 'inners');
});

test('hyper drops zero-probability outputs and keeps the order of first appearance', () => {
  // Prior on (a,1) only: outputs 00 and 11 have p = 0, outputs 10 and 01 share the point posterior.
  let h = qif.channel.hyper(Float64Array.of(1, 0, 0, 0), flat(dcBiased));
  assertVector(h.outer, [1], EPS, 'outer');
  assertMatrix(h.inners, [[1, 0, 0, 0]], EPS, 'inners');
  // Password checker, uniform prior: four distinct posteriors with p = 4/8, 2/8, 1/8, 1/8.
  h = qif.channel.hyper(new Array(8).fill(1 / 8), passwordIter);
  assertVector(h.outer, [0.5, 0.25, 0.125, 0.125], EPS, 'outer');
  assertMatrix(h.inners, [
    [0.25, 0.25, 0.25, 0.25, 0, 0, 0, 0],
    [0, 0, 0, 0, 0.5, 0.5, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 1],
    [0, 0, 0, 0, 0, 0, 1, 0],
  ], EPS, 'inners');
  // A zero column first, then outputs in column order.
  h = qif.channel.hyper([0.5, 0.5], [[0, 0.2, 0, 0.8], [0, 0.6, 0.4, 0]]);
  assertVector(h.outer, [0.4, 0.2, 0.4], EPS, 'outer');
  assertMatrix(h.inners, [[0.25, 0.75], [0, 1], [1, 0]], EPS, 'inners');
});

test('hyper: Bayes plausibility and posterior vulnerability on random channels', () => {
  const r = rng(42);
  for (let trial = 0; trial < 40; trial++) {
    const n = 1 + Math.floor(r() * 6), m = 1 + Math.floor(r() * 6);
    const C = randomChannel(r, n, m);
    let prior = Array.from({ length: n }, () => (r() < 0.3 ? 0 : r() + 0.01));
    if (prior.every((v) => v === 0)) prior[0] = 1;
    const s = prior.reduce((a, b) => a + b, 0);
    prior = prior.map((v) => v / s);
    const h = qif.channel.hyper(prior, trial % 2 ? C : flat(C));
    const inners = toRows(h.inners);
    assert.ok(Math.abs(h.outer.reduce((a, b) => a + b, 0) - 1) < 1e-12, 'outer sums to 1');
    for (let x = 0; x < n; x++) {
      const avg = inners.reduce((acc, row, k) => acc + h.outer[k] * row[x], 0);
      assert.ok(Math.abs(avg - prior[x]) < 1e-12, `Σ outer·inner = prior at ${x}`);
    }
    const vHyper = inners.reduce((acc, row, k) => acc + h.outer[k] * Math.max(...row), 0);
    assert.ok(Math.abs(vHyper - bayesJS(prior, C)) < 1e-12, 'posterior Bayes vulnerability');
  }
});

test('reduce drops zero columns and merges proportional ones', () => {
  assertMatrix(qif.channel.reduce([[0.1, 0, 0.3, 0.6], [0.2, 0, 0.6, 0.2]]), [[0.4, 0.6], [0.8, 0.2]]);
  assertMatrix(qif.channel.reduce(flat(dcBiased)), [[2 / 3, 1 / 3, 0], [1 / 3, 2 / 3, 0], [0, 0, 1], [0, 0, 1]]);
  assertMatrix(qif.channel.reduce(passwordIter), passwordIter, 0, 'already reduced');
  assertMatrix(qif.channel.reduce([[0.2, 0.3, 0.5]]), [[1]], EPS, 'one row: one column');
});

test('reduce preserves posterior Bayes vulnerability and the hyper', () => {
  const r = rng(7);
  for (let trial = 0; trial < 30; trial++) {
    const n = 2 + Math.floor(r() * 5), m = 1 + Math.floor(r() * 5);
    const C = randomChannel(r, n, m);
    // Split every column into two proportional ones and insert a zero column.
    const S = C.map((row) => row.flatMap((v, y) => { const t = 0.1 + 0.1 * y; return [0, t * v, (1 - t) * v]; }));
    const R = toRows(qif.channel.reduce(S));
    assert.ok(R[0].length <= m, 'no more columns than the original');
    const prior = Array.from({ length: n }, () => r() + 0.01);
    const s = prior.reduce((a, b) => a + b, 0);
    const p = prior.map((v) => v / s);
    assert.ok(Math.abs(bayesJS(p, R) - bayesJS(p, S)) < 1e-12, 'V[π▷C] preserved');
    const h1 = qif.channel.hyper(p, S), h2 = qif.channel.hyper(p, R);
    assertVector(h2.outer, Array.from(h1.outer), 1e-12, 'outer');
    assertMatrix(h2.inners, toRows(h1.inners), 1e-12, 'inners');
  }
});

test('cascade multiplies', () => {
  const A = [[1, 0], [0.5, 0.5]];
  const B = [[0.2, 0.8, 0], [0.6, 0, 0.4]];
  assertMatrix(qif.channel.cascade(A, B), [[0.2, 0.8, 0], [0.4, 0.4, 0.2]]);
  const noisy = [[0.9, 0.1], [0.1, 0.9]];
  assertMatrix(qif.channel.cascade(flat(noisy), noisy), [[0.82, 0.18], [0.18, 0.82]]);
  const r = rng(3);
  const C = randomChannel(r, 4, 3), D = randomChannel(r, 3, 5);
  assertMatrix(qif.channel.cascade(C, flat(D)), mulJS(C, D), 1e-15, 'random');
  assertMatrix(qif.channel.cascade(C, [[1, 0, 0], [0, 1, 0], [0, 0, 1]]), C, 0, 'identity');
});

test('parallel: column y·|Z| + z holds A[x][y]·B[x][z]', () => {
  const A = [[1, 0], [0.5, 0.5]];
  const B = [[0.2, 0.8, 0], [0.6, 0, 0.4]];
  assertMatrix(qif.channel.parallel(A, B), [[0.2, 0.8, 0, 0, 0, 0], [0.3, 0, 0.2, 0.3, 0, 0.2]]);
  const r = rng(11);
  const C = randomChannel(r, 3, 4), D = randomChannel(r, 3, 2);
  const want = C.map((row, x) => row.flatMap((a) => D[x].map((b) => a * b)));
  assertMatrix(qif.channel.parallel(flat(C), D), want, 0, 'random');
  assertMatrix(qif.channel.parallel(C, [[1], [1], [1]]), C, 0, 'with the constant channel');
});

test('bad inputs name the argument', () => {
  const ok = [[0.5, 0.5], [0.25, 0.75]];
  const cases = [
    [() => qif.channel.hyper([1], ok), /^prior: has 1 entry but the channel has 2 rows/],
    [() => qif.channel.hyper([0.5, 0.6], ok), /^prior: sums to 1\.1/],
    [() => qif.channel.hyper([NaN, 1], ok), /^prior: entry 0 is NaN/],
    [() => qif.channel.hyper([-0.5, 1.5], ok), /^prior: entry 0 is negative/],
    [() => qif.channel.hyper([], ok), /^prior: empty/],
    [() => qif.channel.hyper('x', ok), /^prior: expected a vector/],
    [() => qif.channel.hyper([0.5, 0.5]), /^channel: missing argument 2/],
    [() => qif.channel.hyper([0.5, 0.5], [[0.5, 0.4], [1, 0]]), /^channel: row 0 sums to 0\.9/],
    [() => qif.channel.reduce([[1, -1, 1]]), /^channel: entry \[0\]\[1\] is negative/],
    [() => qif.channel.reduce({ rows: 0, cols: 3, data: [] }), /^channel: empty matrix/],
    [() => qif.channel.cascade(ok, [[1], [1], [1]]), /^B: has 3 rows but A has 2 columns/],
    [() => qif.channel.cascade([[NaN, 1]], ok), /^A: entry \[0\]\[0\] is NaN/],
    [() => qif.channel.cascade(ok, [[0.5, 0.6], [1, 0]]), /^B: row 0 sums to 1\.1/],
    [() => qif.channel.cascade(ok), /^B: missing argument 2/],
    [() => qif.channel.parallel(ok, [[1]]), /^B: has 1 row but A has 2 rows/],
    [() => qif.channel.parallel([[1, 0], [0]], ok), /^A: ragged matrix/],
    [() => qif.channel.parallel(ok, { rows: 2, cols: 1, data: [1, 'a'] }), /^B: data: entry 1/],
    [() => { const w = Array(10000).fill(1e-4); return qif.channel.parallel([w], [w]); }, /^parallel: .*limit/],
  ];
  // Every message starts with the function, then names the argument.
  for (const [f, re] of cases) {
    const fn = /qif\.(\w+\.\w+)\(/.exec(f.toString())[1];
    assert.throws(f, (e) => e instanceof Error && e.message.startsWith(`${fn}: `) && re.test(e.message.slice(fn.length + 2)), f.toString());
  }
  // The instance keeps working after errors.
  assert.equal(qif.channel.validate([[1]]), true);
});

test('iterativeBayesianUpdate: observations no secret can produce are an error naming observed; the estimate sums to 1', () => {
  assert.throws(() => qif.channel.iterativeBayesianUpdate([[1, 0], [1, 0]], [0.5, 0.5]),
    /^Error: channel\.iterativeBayesianUpdate: observed: output 1 has frequency 0\.5 but no secret can produce it/);
  const r = qif.channel.iterativeBayesianUpdate([[1, 0], [1, 0]], [1, 0]);
  assert.deepEqual([...r.prior], [0.5, 0.5]);
  // The 1e-6 rule (output 1 has probability 1e-7 under the uniform prior) no longer loses mass.
  const s = qif.channel.iterativeBayesianUpdate([[1, 0], [1 - 2e-7, 2e-7]], [0.9, 0.1], { maxIterations: 3 });
  assert.ok(Math.abs(s.prior[0] + s.prior[1] - 1) <= 1e-15, `sum ${s.prior[0] + s.prior[1]}`);
});

test('iterativeBayesianUpdate: an invertible channel gives C^{-T}·o, in far fewer steps than plain EM; onProgress cancels', () => {
  // The truncated geometric mechanism with ε = 0.5 on 60 values, written out here; o = π·C for a
  // known π, so C^{-T}·o = π is the maximum-likelihood estimate.
  const n = 60, a = Math.exp(-0.5);
  const C = Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) =>
    (y === 0 || y === n - 1 ? 1 : 1 - a) / (1 + a) * a ** Math.abs(x - y)));
  const truth = Array.from({ length: n }, (_, x) => 2 + Math.sin(x));
  const t = truth.reduce((u, v) => u + v, 0);
  for (let x = 0; x < n; x++) truth[x] /= t;
  const o = Array.from({ length: n }, (_, y) => truth.reduce((s, p, x) => s + p * C[x][y], 0));
  const fast = qif.channel.iterativeBayesianUpdate(C, o, { maxDiff: 1e-12, maxIterations: 100000 });
  const plain = qif.channel.iterativeBayesianUpdate(C, o, { maxDiff: 1e-12, maxIterations: 100000, accelerate: false });
  assert.ok(fast.converged && plain.converged);
  for (let x = 0; x < n; x++) {
    assert.ok(Math.abs(fast.prior[x] - truth[x]) < 1e-9, `x = ${x}: ${fast.prior[x]} vs ${truth[x]}`);
    assert.ok(Math.abs(fast.prior[x] - plain.prior[x]) < 1e-9, 'the same fixed point as plain EM');
  }
  assert.ok(fast.iterations * 5 < plain.iterations, `steps: accelerated ${fast.iterations}, plain ${plain.iterations}`);
  let calls = 0, err;
  try {
    qif.channel.iterativeBayesianUpdate(C, o, { maxDiff: 1e-15, maxIterations: 100000, onProgress: (it) => (++calls, it < 32) });
  } catch (e) { err = e; }
  assert.equal(err?.name, 'AbortError');
  assert.equal(err.message, 'channel.iterativeBayesianUpdate: cancelled');
  assert.equal(calls, 2);
  assert.ok(Math.abs(err.partial.prior.reduce((s, v) => s + v, 0) - 1) < 1e-12, 'the partial estimate is a distribution');
});
