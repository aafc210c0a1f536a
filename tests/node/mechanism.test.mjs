// qif.mechanism through the JS API: closed forms computed here in plain JS, Alvim et al. (ICALP
// 2011) Table 1, shapes and defaults, bad inputs (each must throw an Error naming the argument and
// leave the instance working).
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

const qif = await load();
const M = qif.mechanism;

const at = (A, i, j) => A.data[i * A.cols + j];
function assertMatrixClose(A, want, tol, label) {
  assert.equal(A.rows, want.length, `${label}: rows`);
  assert.equal(A.cols, want[0].length, `${label}: cols`);
  assert.ok(A.data instanceof Float64Array, `${label}: data is a Float64Array`);
  for (let i = 0; i < want.length; i++) {
    for (let j = 0; j < want[0].length; j++) {
      const d = Math.abs(at(A, i, j) - want[i][j]);
      assert.ok(d <= tol, `${label}[${i}][${j}] = ${at(A, i, j)}, want ${want[i][j]}`);
    }
  }
}
const close = (a, b, tol, label) => assert.ok(Math.abs(a - b) <= tol, `${label}: ${a} vs ${b}`);

// Plain-JS references.
function truncGeo(n, eps, m = n) {
  const a = Math.exp(-eps), k = (1 - a) / (1 + a);
  return Array.from({ length: n }, (_, x) => Array.from({ length: m }, (_, y) =>
    y === 0 ? a ** x / (1 + a) : y === m - 1 ? a ** (m - 1 - x) / (1 + a) : k * a ** Math.abs(x - y)));
}
function rr(n, eps, m = n) {
  const e = Math.exp(eps);
  return Array.from({ length: n }, (_, x) => Array.from({ length: m }, (_, y) =>
    x >= m ? 1 / m : (x === y ? e : 1) / (m - 1 + e)));
}
function expo(n, eps, m = n) {
  return Array.from({ length: n }, (_, x) => {
    const w = Array.from({ length: m }, (_, y) => Math.exp(-eps * Math.abs(x - y) / 2));
    const z = w.reduce((s, v) => s + v, 0);
    return w.map((v) => v / z);
  });
}
function binaryUtility(prior, H) {
  let u = 0;
  for (let z = 0; z < H[0].length; z++) u += Math.max(...prior.map((p, y) => p * H[y][z]));
  return u;
}
const toRows = (A) => Array.from({ length: A.rows }, (_, i) => Array.from(A.data.subarray(i * A.cols, (i + 1) * A.cols)));

test('truncated geometric: closed form, m defaults to n, more outputs than inputs', () => {
  assertMatrixClose(M.truncatedGeometric(3, Math.LN2), [[2 / 3, 1 / 6, 1 / 6], [1 / 3, 1 / 3, 1 / 3], [1 / 6, 1 / 6, 2 / 3]], 1e-15, 'TG(3)');
  assertMatrixClose(M.truncatedGeometric(5, 0.7), truncGeo(5, 0.7), 1e-14, 'TG(5)');
  assertMatrixClose(M.truncatedGeometric(2, Math.LN2, 4), [[2 / 3, 1 / 6, 1 / 12, 1 / 12], [1 / 3, 1 / 3, 1 / 6, 1 / 6]], 1e-15, 'TG(2,4)');
  assertMatrixClose(M.geometric(4, 0.3), truncGeo(4, 0.3), 1e-14, 'geometric = square truncated');
});

test('over-truncated geometric: columns m−1.. summed, or a window placed by offset', () => {
  assertMatrixClose(M.overTruncatedGeometric(4, 2, Math.LN2), [[2 / 3, 1 / 3], [1 / 3, 2 / 3], [1 / 6, 5 / 6], [1 / 12, 11 / 12]], 1e-15, 'OTG(4,2)');
  const T = truncGeo(5, 0.9);
  const want = T.map((r) => [r[0] + r[1], r[2], r[3] + r[4]]);
  assertMatrixClose(M.overTruncatedGeometric(5, 3, 0.9, 1), want, 1e-14, 'OTG(5,3,offset 1)');
});

test('randomized response, with fewer and more outputs', () => {
  assertMatrixClose(M.randomizedResponse(3, Math.LN2), [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]], 1e-15, 'RR(3)');
  assertMatrixClose(M.randomizedResponse(4, 1.1, 2), rr(4, 1.1, 2), 1e-15, 'RR(4,2)');
  assertMatrixClose(M.randomizedResponse(2, 1.1, 5), rr(2, 1.1, 5), 1e-15, 'RR(2,5)');
});

test('exponential and its true ε', () => {
  assertMatrixClose(M.exponential(6, 1.2), expo(6, 1.2), 1e-15, 'E(6)');
  assertMatrixClose(M.exponential(3, 1.2, 5), expo(3, 1.2, 5), 1e-15, 'E(3,5)');
  // n = 2: ε/2. n = 3: ε/2 + ln((1+2a)/(1+a+a²)), a = e^{−ε/2}.
  close(M.exponentialEpsilon(2, 1.3), 0.65, 1e-14, 'true ε E(2)');
  const a = Math.exp(-0.65);
  close(M.exponentialEpsilon(3, 1.3), 0.65 + Math.log((1 + 2 * a) / (1 + a + a * a)), 1e-14, 'true ε E(3)');
  // Brute force over all pairs on a bigger one.
  const E = toRows(M.exponential(7, 0.8, 4));
  let worst = 0;
  for (let x = 0; x < 7; x++) for (let x2 = 0; x2 < 7; x2++) if (x !== x2)
    for (let y = 0; y < 4; y++) worst = Math.max(worst, Math.abs(Math.log(E[x][y] / E[x2][y])) / Math.abs(x - x2));
  close(M.exponentialEpsilon(7, 0.8, 4), worst, 1e-12, 'true ε E(7,4)');
  assert.ok(worst < 0.8);
  assertMatrixClose(M.exponentialMetric([[0, 1, 2], [1, 0, 1], [2, 1, 0]], 1.2), expo(3, 1.2), 1e-15, 'exponentialMetric');
});

test('Table 1 of Alvim et al. (ICALP 2011): M1 truncated geometric (α = 2^{−1/5}), M2 = Theorem 6.2 on the clique', () => {
  const uniform = Array(6).fill(1 / 6);
  const priorAF = [0.1, 0.2, 0.2, 0.2, 0.2, 0.1];
  const M1 = M.truncatedGeometric(6, Math.LN2 / 5);
  close(at(M1, 0, 0), 0.535, 5e-4, 'M1[A][A]');
  close(at(M1, 0, 5), 0.267, 5e-4, 'M1[A][F]');
  close(M.utility(uniform, M1), 0.22434, 5e-6, 'U(M1) uniform');
  close(M.utility(priorAF, M1), 0.24152, 5e-6, 'U(M1) A=F=1/10');
  const a = 2 ** -0.2;
  close(M.utility(uniform, M1), (6 - 4 * a) / (6 * (1 + a)), 1e-15, 'U(M1) closed form');
  const M2 = M.optimal(qif.graph.clique(6), Math.LN2);
  assertMatrixClose(M2, Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 2 / 7 : 1 / 7))), 1e-15, 'M2');
  close(M.utility(uniform, M2), 2 / 7, 1e-15, 'U(M2) uniform');
  close(M.utility(priorAF, M2), 2 / 7, 1e-15, 'U(M2) A=F=1/10');
  // Accepts plain graph objects too.
  const edges = [];
  for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) edges.push([i, j]);
  assertMatrixClose(M.optimal({ n: 6, edges }, Math.LN2), toRows(M2), 0, 'M2 from {n, edges}');
});

test('optimalDetail: uniform on a cycle, actual ε above the target on a path', () => {
  const eps = 0.9, a = Math.exp(-eps);
  const cyc = M.optimalDetail(qif.graph.cycle(6), eps);
  assert.equal(cyc.uniform, true);
  close(cyc.actualEpsilon, eps, 1e-14, 'C6 actual ε');
  assert.equal(cyc.epsilon, eps);
  assert.ok(cyc.c instanceof Float64Array && cyc.c.length === 6);
  close(cyc.c[0], 1 / (1 + 2 * a + 2 * a * a + a ** 3), 1e-15, 'C6 c');
  const path = M.optimalDetail(qif.graph.path(7), Math.LN2);
  assert.equal(path.uniform, false);
  // Measure it on the matrix: max over edges and columns of |ln H[x][y] − ln H[x+1][y]|.
  const H = toRows(path.mechanism);
  let worst = 0;
  for (let x = 0; x < 6; x++) for (let y = 0; y < 7; y++) worst = Math.max(worst, Math.abs(Math.log(H[x][y] / H[x + 1][y])));
  close(path.actualEpsilon, worst, 1e-12, 'P7 actual ε');
  assert.ok(worst > Math.LN2 * 1.3 && worst < Math.LN2 * 1.72, `P7 ratio ${worst / Math.LN2}`);
  // Rows are normalized: each row is e^{−ε|i−j|} over its own sum.
  for (let i = 0; i < 7; i++) {
    const w = Array.from({ length: 7 }, (_, j) => Math.exp(-Math.LN2 * Math.abs(i - j)));
    const s = w.reduce((p, v) => p + v, 0);
    for (let j = 0; j < 7; j++) close(H[i][j], w[j] / s, 1e-15, `P7 H[${i}][${j}]`);
  }
});

test('optimal refuses a graph where Theorem 6.2 does not hold, and names optimalLP and optimalDetail', async () => {
  await qif.exact.load();
  const p7 = qif.graph.path(7);
  assert.throws(() => M.optimal(p7, Math.LN2), (e) => e.message.startsWith('mechanism.optimal: graph: ')
    && e.message.includes('mechanism.optimalLP') && e.message.includes('mechanism.optimalDetail') && e.message.includes('0.9116'));
  // The theorem's matrix, still available with its actual ε: not ln 2-DP on the path.
  const d = M.optimalDetail(p7, Math.LN2);
  assert.equal(qif.privacy.isDP(d.mechanism, p7, Math.LN2), false);
  close(d.actualEpsilon, 0.9116, 5e-5, 'actual ε');
  // The optimum is 3/7: the truncated geometric mechanism with α = 1/2 (optimal on a path for the
  // 0-1 loss, Ghosh, Roughgarden and Sundararajan (STOC 2009)) has diagonal 2/3 at the ends and 1/3
  // inside, (2·2/3 + 5·1/3)/7 = 3/7; in exact rationals the linear program gives the same fraction.
  const uniform = Array(7).fill(1 / 7);
  const opt = M.optimalLP({ graph: p7, epsilon: Math.LN2 });
  close(opt.utility, 3 / 7, 1e-9, 'optimalLP');
  assert.equal(qif.exact.mechanism.optimal({ graph: p7, expEpsilon: 2 }).utility, '3/7');
  assert.ok(M.utility(uniform, d.mechanism) < 3 / 7 - 0.01, 'the theorem\'s matrix is below the optimum');
  // Graphs where every vertex has the same distance distribution still work: ε-DP, utility c.
  for (const [name, g, nd] of [['C6', qif.graph.cycle(6), [1, 2, 2, 1]], ['K5', qif.graph.clique(5), [1, 4]],
    ['hypercube 3', qif.graph.hypercube(3), [1, 3, 3, 1]], ['Hamming 3²', qif.graph.hamming(2, 3), [1, 4, 4]]]) {
    const H = M.optimal(g, Math.LN2);
    assert.equal(qif.privacy.isDP(H, g, Math.LN2), true, name);
    const c = 1 / nd.reduce((s, k, dd) => s + k * 2 ** -dd, 0);
    close(M.utility(Array(g.n).fill(1 / g.n), H), c, 1e-14, `${name} utility`);
  }
});

test('utility: binary default, explicit gain, guesses, loss', () => {
  const H = toRows(M.exponential(4, 0.9, 3));
  const prior = [0.4, 0.1, 0.3, 0.2];
  close(M.utility(prior, H), binaryUtility(prior, H), 1e-15, 'binary');
  close(M.utility(prior, H, null), binaryUtility(prior, H), 1e-15, 'null gain');
  const id = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]];
  close(M.utility(prior, H, id), binaryUtility(prior, H), 1e-15, 'identity gain');
  // Distance-based gain, brute force over all 4^3 strategies.
  const G = Array.from({ length: 4 }, (_, w) => Array.from({ length: 4 }, (_, y) => 1 - Math.abs(w - y) / 3));
  let best = -Infinity, worst = Infinity;
  for (let code = 0; code < 64; code++) {
    const s = [code % 4, (code >> 2) % 4, code >> 4];
    let v = 0;
    for (let y = 0; y < 4; y++) for (let z = 0; z < 3; z++) v += prior[y] * H[y][z] * G[s[z]][y];
    best = Math.max(best, v); worst = Math.min(worst, v);
  }
  close(M.utility(prior, H, G), best, 1e-15, 'gain brute force');
  const d = M.utilityDetail(prior, H, G);
  close(d.utility, best, 1e-15, 'utilityDetail');
  assert.equal(d.guess.length, 3);
  const l = M.expectedLoss(prior, H, G);
  close(l.loss, worst, 1e-15, 'expectedLoss');
  close(M.expectedLoss(prior, H).loss, 1 - binaryUtility(prior, H), 1e-15, '0-1 loss');
});

test('bad inputs throw errors naming the argument, and the instance keeps working', () => {
  const bad = [
    [() => M.truncatedGeometric(0, 1), /^n:/],
    [() => M.truncatedGeometric(3, 0), /^epsilon:/],
    [() => M.truncatedGeometric(3, -1), /^epsilon:/],
    [() => M.truncatedGeometric(3, NaN), /^epsilon:/],
    [() => M.truncatedGeometric(3, Infinity), /^epsilon:/],
    [() => M.truncatedGeometric(3, 1, 2), /^m:/],
    [() => M.truncatedGeometric(2.5, 1), /^n:/],
    [() => M.truncatedGeometric('3', 1), /^n:/],
    [() => M.truncatedGeometric(), /^n:/],
    [() => M.overTruncatedGeometric(3, 4, 1), /^m:/],
    [() => M.overTruncatedGeometric(5, 3, 1, 3), /^offset:/],
    [() => M.randomizedResponse(3, 1, 0), /^m:/],
    [() => M.randomizedResponse(100000, 1), /^n, m:/],
    [() => M.exponential(3), /^epsilon:/],
    [() => M.exponentialEpsilon(3, -2), /^epsilon:/],
    [() => M.exponentialMetric([[0, -1]], 1), /^metric:/],
    [() => M.exponentialMetric([], 1), /^metric:/],
    [() => M.optimal({ n: 3, edges: [[0, 0]] }, 1), /^graph:/],
    [() => M.optimal({ n: 3, edges: [[0, 5]] }, 1), /^graph:/],
    [() => M.optimal({ n: 3, edges: [[0, 1], [1, 0]] }, 1), /^graph:/],
    [() => M.optimal(qif.graph.path(3), 0), /^epsilon:/],
    [() => M.optimal(qif.graph.path(3)), /^epsilon:/],
    [() => M.optimal(null, 1), /^graph:/],
    [() => M.optimalDetail({ n: 9000, edges: [] }, 1), /^graph:/],
    [() => M.utility([0.5, 0.5], [[1, 0], [0, 1], [0.5, 0.5]]), /^prior:/],
    [() => M.utility([0.5, 0.6], [[1, 0], [0, 1]]), /^prior:/],
    [() => M.utility([0.5, 0.5], [[1, 0.1], [0, 1]]), /^mechanism:/],
    [() => M.utility([0.5, 0.5], [[1, NaN], [0, 1]]), /^mechanism:/],
    [() => M.utility([0.5, 0.5], [[1, 0], [0, 1]], [[1, 0, 0]]), /^gain:/],
    [() => M.utility([0.5, 0.5], [[1, 0], [0, 1]], [[1, NaN]]), /^gain:/],
    [() => M.expectedLoss([0.5, 0.5], [[1, 0], [0, 1]], [[Infinity, 0]]), /^loss:/],
  ];
  // Every message starts with the function, then names the argument.
  for (const [f, re] of bad) {
    const fn = `mechanism.${/M\.(\w+)\(/.exec(String(f))[1]}`;
    assert.throws(f, (e) => e instanceof Error && e.message.startsWith(`${fn}: `) && re.test(e.message.slice(fn.length + 2)), String(f));
  }
  assertMatrixClose(M.randomizedResponse(2, Math.LN2), [[2 / 3, 1 / 3], [1 / 3, 2 / 3]], 1e-15, 'still working');
});

test('tightConstraints keeps the structure of nearly singular systems: two secrets 1e-9 apart', () => {
  // c = 1/(1 + e^{−d}): diagonal 1/(2 − ψ), off-diagonal (1 − ψ)/(2 − ψ), ψ = −expm1(−d).
  for (const d of [1e-9, 1e-11, 1e-6]) {
    const C = M.tightConstraints([[0, d], [d, 0]]);
    const psi = -Math.expm1(-d);
    for (let x = 0; x < 2; x++) {
      assert.ok(Math.abs(at(C, x, x) - 1 / (2 - psi)) <= 2e-16, `d = ${d}: diagonal ${at(C, x, x)}`);
      assert.ok(Math.abs(at(C, x, 1 - x) - (1 - psi) / (2 - psi)) <= 2e-16, `d = ${d}: off-diagonal ${at(C, x, 1 - x)}`);
      assert.ok(at(C, x, x) > at(C, x, 1 - x));
    }
  }
});
