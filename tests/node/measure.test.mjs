// qif.measure: every function against values computed by hand (the examples and channels of Alvim
// et al. (FOSAD 2011)) or by naive plain-JS evaluations of
// the definitions of docs/mathematics.md#entropies-and-leakage here, with both matrix shapes, and bad
// inputs whose errors name the argument.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { rng } from './seeded-random.mjs';

let qif, M;
before(async () => { qif = await load(); M = qif.measure; });

const near = (got, want, tol = 1e-12, what = '') =>
  assert.ok(got === want || Math.abs(got - want) <= tol, `${what} = ${got}, want ${want}`);

// ---- plain-JS references (definitions, no shared code with the module) ----
const log2 = Math.log2;
const H = (p) => -p.reduce((s, v) => s + (v > 0 ? v * log2(v) : 0), 0);
const h2 = (p) => H([p, 1 - p]);
const uniform = (n) => Array(n).fill(1 / n);
const flat = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) });
function posteriors(prior, C) {
  const m = C[0].length, out = [];
  for (let y = 0; y < m; y++) {
    const py = prior.reduce((s, px, x) => s + px * C[x][y], 0);
    if (py > 0) out.push({ py, post: prior.map((px, x) => px * C[x][y] / py) });
  }
  return out;
}
const guess = (p) => [...p].sort((a, b) => b - a).reduce((s, v, i) => s + (i + 1) * v, 0);
const vg = (G, p) => Math.max(...G.map((row) => row.reduce((s, g, x) => s + g * p[x], 0)));
function randDist(r, n) { const p = Array.from({ length: n }, r); const s = p.reduce((a, b) => a + b); return p.map((v) => v / s); }

// Alvim et al. (FOSAD 2011) Tables 2–3.
const password = [[1, 0], [1, 0], [1, 0], [1, 0], [1, 0], [1, 0], [0, 1], [1, 0]];
const passwordIter = [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]];
const dcBiased = [[2 / 3, 1 / 3, 0, 0], [1 / 3, 2 / 3, 0, 0], [0, 0, 2 / 3, 1 / 3], [0, 0, 2 / 3, 1 / 3]];

test('entropies of a distribution', () => {
  const ex3 = [1 / 4, 1 / 4, 1 / 8, 1 / 8, 1 / 16, 1 / 16, 1 / 16, 1 / 16]; // Alvim et al. (FOSAD 2011) Example 3
  near(M.shannonEntropy(ex3), 11 / 4, 1e-15, 'H(Example 3)');
  near(M.shannonEntropy(Float64Array.from(ex3)), 11 / 4, 1e-15, 'H(Float64Array)');
  const p = [0.5, 0.25, 0.25, 0];
  near(M.renyiEntropy(p, 0), log2(3), 1e-15, 'Hartley');
  near(M.renyiEntropy(p, 1), 1.5, 1e-15, 'H_1');
  near(M.renyiEntropy(p, 2), -log2(0.25 + 0.0625 * 2), 1e-12, 'H_2');
  near(M.renyiEntropy(p, Infinity), 1, 0, 'H_inf');
  near(M.renyiEntropy(p, 1 + 1e-8), 1.5, 1e-6, 'H_{1+}');
  near(M.minEntropy(p), 1, 0, 'min-entropy');
  for (const a of [0, 0.5, 1, 3, Infinity]) near(M.renyiEntropy(uniform(5), a), log2(5), 1e-12, `H_${a}(uniform)`);
  near(M.guessingEntropy([0.1, 0.6, 0.3]), 0.6 + 2 * 0.3 + 3 * 0.1, 1e-15, 'G');
  near(M.guessingEntropy(uniform(8)), 4.5, 1e-15, 'G(uniform)');
  near(M.bayesVulnerability([0.2, 0.7, 0.1]), 0.7, 0, 'V');
  near(M.bayesRisk([0.2, 0.7, 0.1]), 0.3, 1e-15, 'risk');
});

test('003 password checker and dc-net', () => {
  const u = uniform(8);
  near(M.mutualInformation(u, password), h2(1 / 8), 1e-14, 'I(password)');
  near(M.conditionalShannonEntropy(u, password), 3 - h2(1 / 8), 1e-14, 'H(X|Y)');
  near(M.posteriorBayesVulnerability(u, password), 1 / 4, 1e-15, 'V post');
  near(M.minEntropyLeakage(u, password), 1, 1e-14, 'I_inf');
  near(M.conditionalMinEntropy(u, password), 2, 1e-14, 'Smith');
  near(M.conditionalMinEntropyCachin(u, password), 7 / 8 * log2(7), 1e-14, 'Cachin');
  near(M.minCapacity(password), 1, 1e-15, 'C_inf');
  near(M.posteriorGuessingEntropy(u, password), 3.625, 1e-14, 'G post');
  near(M.mutualInformation(u, passwordIter), 1.75, 1e-14, 'I(timing)');
  near(M.minCapacity(flat(passwordIter)), 2, 1e-15, 'C_inf(timing)');
  const cap = M.shannonCapacity(passwordIter);
  near(cap.capacity, 2, 1e-9, 'capacity(timing)');
  near(M.minCapacity(dcBiased), log2(7 / 3), 1e-14, 'C_inf(dc biased)');
  // Sum channel of a BSC(1/3) and a zero-capacity channel: 2^C = 2^{1−h(1/3)} + 1.
  near(M.shannonCapacity(dcBiased, { tolerance: 1e-10 }).capacity, log2(2 ** (1 - h2(1 / 3)) + 1), 1e-9, 'capacity(dc biased)');
});

test('shannonCapacity result shape and bounds', () => {
  for (const p of [0.1, 0.3]) {
    const r = M.shannonCapacity([[1 - p, p], [p, 1 - p]], { tolerance: 1e-10 });
    assert.ok(r.prior instanceof Float64Array && r.prior.length === 2);
    assert.ok(Number.isInteger(r.iterations) && r.iterations >= 1);
    near(r.capacity, 1 - h2(p), 1e-9, 'BSC capacity');
    assert.ok(r.upperBound >= r.capacity && r.upperBound - r.capacity <= 1e-10);
    near(r.prior[0], 0.5, 1e-6, 'BSC prior');
  }
  const r = M.shannonCapacity([[0.6, 0.3, 0.1], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]], { maxIterations: 2 });
  assert.equal(r.iterations, 2);
  // onProgress gets (iteration, lower, upper); returning false cancels with an AbortError whose
  // partial result holds the bounds reached.
  let calls = 0;
  assert.throws(() => M.shannonCapacity([[0.6, 0.4], [0.35, 0.65]], { tolerance: 1e-15, onProgress: (it, lo, up) => { calls++; assert.ok(lo <= up); return it < 3; } }),
    (e) => e.name === 'AbortError' && e.partial.iterations === 3 && e.partial.converged === false && e.partial.capacity <= e.partial.upperBound);
  assert.equal(calls, 3);
});

test('random channels against plain-JS definitions', () => {
  const r = rng(12345);
  for (let trial = 0; trial < 40; trial++) {
    const n = 1 + Math.floor(r() * 5), m = 1 + Math.floor(r() * 5);
    const C = Array.from({ length: n }, () => randDist(r, m));
    if (trial % 3 === 0) C[0] = C[0].map((_, y) => (y === 0 ? 1 : 0));
    const prior = randDist(r, n);
    const posts = posteriors(prior, C);
    const Cf = trial % 2 ? C : flat(C);
    const hxy = posts.reduce((s, { py, post }) => s + py * H(post), 0);
    near(M.conditionalShannonEntropy(prior, Cf), hxy, 1e-12, 'H(X|Y)');
    near(M.mutualInformation(prior, Cf), H(prior) - hxy, 1e-12, 'I');
    const vp = posts.reduce((s, { py, post }) => s + py * Math.max(...post), 0);
    near(M.posteriorBayesVulnerability(prior, Cf), vp, 1e-12, 'V post');
    near(M.posteriorBayesRisk(prior, Cf), 1 - vp, 1e-12, 'risk post');
    near(M.multiplicativeBayesLeakage(prior, Cf), vp / Math.max(...prior), 1e-10, 'mult');
    near(M.additiveBayesLeakage(prior, Cf), vp - Math.max(...prior), 1e-12, 'add');
    near(M.maxCasePosteriorBayesVulnerability(prior, Cf), Math.max(...posts.map((d) => Math.max(...d.post))), 1e-12, 'V max');
    near(M.conditionalMinEntropy(prior, Cf), -log2(vp), 1e-12, 'Smith');
    near(M.conditionalMinEntropyCachin(prior, Cf), -posts.reduce((s, { py, post }) => s + py * log2(Math.max(...post)), 0), 1e-12, 'Cachin');
    near(M.minEntropyLeakage(prior, Cf), log2(vp / Math.max(...prior)), 1e-12, 'I_inf');
    const colMax = C[0].map((_, y) => Math.max(...C.map((row) => row[y])));
    near(M.minCapacity(Cf), log2(colMax.reduce((a, b) => a + b)), 1e-12, 'C_inf');
    near(M.posteriorGuessingEntropy(prior, Cf), posts.reduce((s, { py, post }) => s + py * guess(post), 0), 1e-12, 'G post');
    // Capacity is at least I at this prior (and the result certifies itself).
    // With the default tolerance (1e-6 bits) the certified gap is at most 1e-6.
    const cap = M.shannonCapacity(Cf);
    const I = H(prior) - hxy;
    assert.ok(cap.upperBound >= I - 1e-12 && cap.capacity >= I - cap.gap - 1e-12 && cap.gap <= 1e-6, 'capacity ≥ I');
    // g-vulnerability with a random gain matrix of 1..3 guesses (any sign).
    const w = 1 + Math.floor(r() * 3);
    const G = Array.from({ length: w }, () => Array.from({ length: n }, () => 3 * r() - 1));
    near(M.gVulnerability(G, prior), vg(G, prior), 1e-12, 'V_g');
    const vgp = posts.reduce((s, { py, post }) => s + py * vg(G, post), 0);
    near(M.posteriorGVulnerability(flat(G), prior, Cf), vgp, 1e-12, 'V_g post');
    near(M.additiveGLeakage(G, prior, Cf), Math.max(0, vgp - vg(G, prior)), 1e-12, 'add g-leakage');
    const L = G.map((row) => row.map((v) => -v)); // a loss is a negated gain
    near(M.lossRisk(L, prior), -vg(G, prior), 1e-12, 'loss risk');
    near(M.posteriorLossRisk(L, prior, Cf), -vgp, 1e-12, 'loss risk post');
    const s = M.optimalStrategy(G, prior, Cf);
    assert.equal(s.length, m);
  }
});

test('g-vulnerability examples', () => {
  const G = [[1, 0], [0, 1], [0.6, 0.6]];
  const C = [[0.8, 0.2], [0.3, 0.7]];
  near(M.gVulnerability(G, [0.5, 0.5]), 0.6, 1e-15, 'V_g');
  near(M.posteriorGVulnerability(G, [0.5, 0.5], C), 0.75, 1e-15, 'V_g post');
  near(M.multiplicativeGLeakage(G, [0.5, 0.5], C), 1.25, 1e-15, 'mult g');
  assert.deepEqual(M.optimalStrategy(G, [0.5, 0.5], [[0.8, 0.2, 0], [0.3, 0.7, 0]]), [0, 1, -1]);
  // Identity gain is Bayes vulnerability.
  near(M.posteriorGVulnerability([[1, 0], [0, 1]], [0.3, 0.7], C), M.posteriorBayesVulnerability([0.3, 0.7], C), 1e-15, 'identity');
});

test('divergences', () => {
  const P = [0.75, 0.25], Q = [0.25, 0.75];
  near(M.klDivergence(P, Q), 0.75 * log2(3) + 0.25 * log2(1 / 3), 1e-15, 'KL');
  near(M.klDivergence([0.5, 0.5], [1, 0]), Infinity, 0, 'KL inf');
  near(M.maxDivergence(P, Q), Math.log(3), 1e-15, 'D_inf');
  near(M.maxDivergence([0.5, 0.5, 0], [0.25, 0.5, 0.25]), Math.log(2), 1e-15, 'D_inf 0/0 ignored');
  near(M.maxDivergence([0.5, 0.5], [1, 0]), Infinity, 0, 'D_inf inf');
  near(M.statisticalDistance(P, Q), 0.5, 1e-15, 'SD');
  near(M.hockeyStick(P, Q, Math.log(2)), 0.25, 1e-15, 'δ(ln 2)');
  near(M.hockeyStick(P, Q, Math.log(3)), 0, 1e-15, 'δ(ln 3)');
  near(M.hockeyStick(P, Q, 0), 0.5, 1e-15, 'δ(0) = SD');
});

test('bad inputs throw Errors naming the argument', () => {
  const C = [[0.5, 0.5], [0.1, 0.9]];
  const cases = [
    [() => M.shannonEntropy([0.5, 0.4]), /p: sums to/],
    [() => M.shannonEntropy([NaN, 1]), /p: entry 0/],
    [() => M.shannonEntropy([]), /p: empty/],
    [() => M.shannonEntropy('x'), /p: /],
    [() => M.renyiEntropy([0.5, 0.5], -1), /alpha/],
    [() => M.renyiEntropy([0.5, 0.5], NaN), /alpha/],
    [() => M.renyiEntropy([0.5, 0.5]), /alpha/],
    [() => M.minEntropy([1.5, -0.5]), /p: entry 1 is negative/],
    [() => M.guessingEntropy([2]), /p: sums to/],
    [() => M.mutualInformation([0.2, 0.3, 0.5], C), /prior: has 3 entries/],
    [() => M.mutualInformation([0.5, 0.5], [[0.5, 0.6], [0.1, 0.9]]), /channel: row 0 sums to/],
    [() => M.mutualInformation([0.5, 0.5], [[0.5, 0.5], [0.1]]), /channel: ragged/],
    [() => M.conditionalShannonEntropy([0.5, 0.5], []), /channel: empty/],
    [() => M.posteriorBayesVulnerability([0.5, 0.5], [[1.5, -0.5], [0, 1]]), /channel: entry \[0\]\[1\] is negative/],
    [() => M.posteriorBayesVulnerability([0.5, 0.5]), /channel: missing/],
    [() => M.conditionalMinEntropy([0.5, 0.5], [[NaN, 1], [0, 1]]), /channel: entry \[0\]\[0\]/],
    [() => M.conditionalMinEntropyCachin([1, 1], C), /prior: sums to/],
    [() => M.minEntropyLeakage([0.5, 0.5], { rows: 2, cols: 2, data: [1, 0, 0] }), /channel: data has 3 entries/],
    [() => M.minCapacity([[0.5, 0.6]]), /channel: row 0/],
    [() => M.shannonCapacity([[0.5, 0.6]]), /channel: row 0/],
    [() => M.shannonCapacity(C, { tolerance: -1 }), /tolerance/],
    [() => M.shannonCapacity(C, { tolerance: 0 }), /tolerance/],
    [() => M.shannonCapacity(C, { maxIterations: 1.5 }), /maxIterations/],
    [() => M.shannonCapacity(C, 5), /options/],
    [() => M.bayesVulnerability([0.5, 0.6]), /prior: sums to/],
    [() => M.gVulnerability([[1, 0, 0]], [0.5, 0.5]), /gain: has 3 columns/],
    [() => M.gVulnerability([[1, Infinity]], [0.5, 0.5]), /gain: entry \[0\]\[1\]/],
    [() => M.posteriorGVulnerability([[1, 0, 0]], [0.5, 0.5], C), /gain: has 3 columns/],
    [() => M.posteriorGVulnerability([[1, 0]], [0.5, 0.5], [[2, -1], [0, 1]]), /channel/],
    [() => M.posteriorGVulnerability([[1, 0]], [0.3, 0.3], C), /prior: sums to/],
    [() => M.multiplicativeGLeakage([[0, 0]], [0.5, 0.5], C), /gain: prior g-vulnerability/],
    [() => M.klDivergence([0.5, 0.5], [0.2, 0.3, 0.5]), /Q: has 3 entries but P has 2/],
    [() => M.maxDivergence([0.5, 0.6], [0.5, 0.5]), /P: sums to/],
    [() => M.statisticalDistance([0.5, 0.5], [-1, 2]), /Q: entry 0 is negative/],
    [() => M.hockeyStick([0.5, 0.5], [0.5, 0.5], NaN), /epsilon/],
    [() => M.hockeyStick([0.5, 0.5], [0.5, 0.5], -1), /epsilon/],
    [() => M.hockeyStick([0.5, 0.5], [0.5, 0.5]), /epsilon/],
  ];
  for (const [f, re] of cases) {
    assert.throws(f, (e) => e instanceof Error && re.test(e.message), `${f} should throw ${re}`);
  }
  // The instance keeps working afterwards.
  near(M.shannonEntropy([0.5, 0.5]), 1, 0, 'after errors');
});

test('results exact in binary come out exact through the API', () => {
  const u8 = Array(8).fill(1 / 8);
  const identity = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => (i === j ? 1 : 0)));
  // By hand: −8·(1/8)·log₂(1/8) = 3; ½·1 + 2·¼·2 = 1.5; every posterior of the identity is a point mass.
  assert.equal(qif.measure.shannonEntropy(u8), 3);
  assert.equal(qif.measure.shannonEntropy([0.5, 0.25, 0.25]), 1.5);
  assert.equal(qif.measure.mutualInformation(u8, identity), 3);
  assert.equal(qif.measure.conditionalShannonEntropy(u8, identity), 0);
  assert.equal(qif.measure.minEntropyLeakage(u8, identity), 3);
});

test('JSON.stringify of a result writes numbers and rows, and parses back into arguments', () => {
  const prior = [0.25, 0.75];
  const C = [[0.5, 0.5], [0.25, 0.75]];
  const h = qif.channel.hyper(prior, C);
  const text = JSON.stringify(h);
  assert.ok(!text.includes('"0":'), text);
  const back = JSON.parse(text);
  // Written out by hand: p(y) = (1/8 + 3/16, 1/8 + 9/16) = (5/16, 11/16); posteriors (2/5, 3/5), (2/11, 9/11).
  assert.deepEqual(back.outer.map((x) => Math.round(x * 176) / 176), [5 / 16, 11 / 16]);
  assert.equal(back.inners.length, 2);
  assert.ok(back.inners.every((row) => Array.isArray(row) && row.length === 2));
  assert.ok(Math.abs(back.inners[0][0] - 2 / 5) < 1e-15 && Math.abs(back.inners[1][1] - 9 / 11) < 1e-15);
  // A matrix result goes round the trip as an argument.
  const H = qif.mechanism.truncatedGeometric(3, Math.LN2);
  const rows = JSON.parse(JSON.stringify(H));
  assert.deepEqual(rows, Array.from({ length: 3 }, (_, i) => Array.from(H.data.subarray(3 * i, 3 * i + 3))));
  assert.equal(qif.mechanism.utility([1 / 3, 1 / 3, 1 / 3], rows), qif.mechanism.utility([1 / 3, 1 / 3, 1 / 3], H));
  // The typed arrays stay typed arrays, and toJSON is not an enumerable key.
  assert.ok(h.outer instanceof Float64Array && !Object.keys(h).includes('toJSON') && !Object.keys(H).includes('toJSON'));
  // Nested results too (a list of objects with vectors inside).
  const d = qif.mechanism.optimalDetail(qif.graph.cycle(4), 1);
  const dj = JSON.parse(JSON.stringify(d));
  assert.ok(Array.isArray(dj.c) && dj.c.length === 4 && Array.isArray(dj.mechanism[0]));
});
