// qif.graph: families, distances, Hamming distributions, symmetry tests (certificates checked
// here in plain JS by applying the automorphisms) and bad inputs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

let qif;
before(async () => { qif = await load(); });

const adjSet = (g) => new Set(g.edges.map(([a, b]) => `${Math.min(a, b)},${Math.max(a, b)}`));
const adjacent = (s, a, b) => s.has(`${Math.min(a, b)},${Math.max(a, b)}`);
function binom(u, d) { let c = 1; for (let i = 1; i <= d; i++) c = c * (u - d + i) / i; return c; }

function isAutomorphism(g, sigma) {
  if (sigma.length !== g.n || new Set(sigma).size !== g.n) return false;
  const s = adjSet(g);
  for (let a = 0; a < g.n; a++) for (let b = a + 1; b < g.n; b++) {
    if (adjacent(s, a, b) !== adjacent(s, sigma[a], sigma[b])) return false;
  }
  return true;
}

test('families: sizes and adjacency', () => {
  const cases = [
    [qif.graph.path(5), 5, 4], [qif.graph.cycle(6), 6, 6], [qif.graph.clique(5), 5, 10],
    [qif.graph.grid(3, 4), 12, 17], [qif.graph.hypercube(3), 8, 12], [qif.graph.petersen(), 10, 15],
    [qif.graph.hamming(2, 3), 9, 18],
  ];
  for (const [g, n, m] of cases) {
    assert.equal(g.n, n);
    assert.equal(g.edges.length, m);
  }
  // Hamming: adjacent iff exactly one base-v digit differs.
  const h = qif.graph.hamming(3, 3), s = adjSet(h);
  for (let a = 0; a < 27; a++) for (let b = a + 1; b < 27; b++) {
    let diff = 0;
    for (let x = a, y = b, i = 0; i < 3; i++, x = Math.floor(x / 3), y = Math.floor(y / 3)) if (x % 3 !== y % 3) diff++;
    assert.equal(adjacent(s, a, b), diff === 1, `${a},${b}`);
  }
});

test('distances, distribution, diameter; disconnected gives Infinity', () => {
  const d = qif.graph.distances(qif.graph.cycle(6));
  assert.equal(d.rows, 6);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) {
    const k = Math.abs(i - j);
    assert.equal(d.data[i * 6 + j], Math.min(k, 6 - k));
  }
  assert.deepEqual(Array.from(qif.graph.distanceDistribution(qif.graph.petersen(), 3)), [1, 3, 6]);
  assert.deepEqual(Array.from(qif.graph.distanceDistribution(qif.graph.path(4), 0)), [1, 1, 1, 1]);
  const two = { n: 4, edges: [[0, 1], [2, 3]] };
  assert.equal(qif.graph.distances(two).data[2], Infinity);
  assert.equal(qif.graph.diameter(two), Infinity);
  assert.equal(qif.graph.diameter(qif.graph.hypercube(4)), 4);
});

test('hammingDistanceDistribution: C(u,d)(v−1)^d, log2 finite for u = 10⁶', () => {
  const { counts, log2 } = qif.graph.hammingDistanceDistribution(5, 3);
  for (let d = 0; d <= 5; d++) {
    assert.equal(counts[d], binom(5, d) * 2 ** d);
    assert.ok(Math.abs(log2[d] - Math.log2(binom(5, d) * 2 ** d)) < 1e-12);
  }
  const big = qif.graph.hammingDistanceDistribution(1e6, 2);
  assert.equal(big.counts.length, 1e6 + 1);
  assert.equal(big.counts[500000], Infinity);
  assert.ok(big.log2.every(Number.isFinite));
  // Stirling-free check: log2 C(10⁶, 1) = log2 10⁶, and symmetry n_d = n_{u−d} for v = 2.
  assert.ok(Math.abs(big.log2[1] - Math.log2(1e6)) < 1e-9);
  assert.ok(Math.abs(big.log2[123456] - big.log2[1e6 - 123456]) < 1e-6);
});

test('isDistanceRegular: known intersection arrays and rejections', () => {
  const yes = [
    [qif.graph.petersen(), [3, 2], [1, 1]], [qif.graph.cycle(7), [2, 1, 1], [1, 1, 1]],
    [qif.graph.clique(6), [5], [1]], [qif.graph.hypercube(3), [3, 2, 1], [1, 2, 3]],
    [qif.graph.hamming(2, 3), [4, 2], [1, 2]],
  ];
  for (const [g, b, c] of yes) {
    assert.deepEqual(qif.graph.isDistanceRegular(g), { distanceRegular: true, b, c });
  }
  const star = { n: 5, edges: [[0, 1], [0, 2], [0, 3], [0, 4]] };
  for (const g of [qif.graph.path(4), star, qif.graph.grid(3, 3)]) {
    assert.deepEqual(qif.graph.isDistanceRegular(g), { distanceRegular: false });
  }
});

test('isVTPlus: certificates verified by applying them; path and star are not VT+', () => {
  for (const g of [qif.graph.cycle(9), qif.graph.clique(8), qif.graph.hypercube(2)]) {
    const r = qif.graph.isVTPlus(g);
    assert.equal(r.vtPlus, true);
    assert.ok(isAutomorphism(g, r.certificate));
    let v = 0, len = 0;
    do { v = r.certificate[v]; len++; } while (v !== 0);
    assert.equal(len, g.n, 'single orbit');
  }
  for (const g of [qif.graph.hypercube(3), qif.graph.hypercube(4), qif.graph.petersen(), qif.graph.hamming(2, 3)]) {
    const r = qif.graph.isVTPlus(g, { budgetMs: 2000 });
    assert.equal(r.vtPlus, true);
    assert.equal(r.automorphisms.length, g.n);
    for (const s of r.automorphisms) assert.ok(isAutomorphism(g, s));
    for (let v = 0; v < g.n; v++) assert.equal(new Set(r.automorphisms.map((s) => s[v])).size, g.n);
  }
  const star = { n: 5, edges: [[0, 1], [0, 2], [0, 3], [0, 4]] };
  assert.equal(qif.graph.isVTPlus(star).vtPlus, false);
  assert.equal(qif.graph.isVTPlus(qif.graph.path(5)).vtPlus, false);
  // A cubic graph that is not vertex-transitive (distance distributions differ).
  const g = { n: 8, edges: [[0, 1], [0, 2], [1, 2], [0, 3], [1, 4], [2, 5], [3, 4], [4, 6], [3, 7], [5, 6], [5, 7], [6, 7]] };
  assert.equal(qif.graph.isVTPlus(g).vtPlus, false);
});

test('induced: brute force on a path with a query table', () => {
  const g = qif.graph.path(6), f = [0, 0, 1, 3, 3, 2];
  const h = qif.graph.induced(g, f);
  assert.equal(h.n, 4);
  const want = new Set();
  for (const [a, b] of g.edges) if (f[a] !== f[b]) want.add(`${Math.min(f[a], f[b])},${Math.max(f[a], f[b])}`);
  assert.deepEqual(adjSet(h), want);
});

test('bad inputs name the argument and the module keeps working', () => {
  const cases = [
    [() => qif.graph.distances({ n: 3, edges: [[0, 0]] }), /graph: .*self-loop/],
    [() => qif.graph.distances({ n: 3, edges: [[0, 3]] }), /graph: .*outside/],
    [() => qif.graph.distances({ n: 3, edges: [[0, 1], [1, 0]] }), /graph: .*duplicates/],
    [() => qif.graph.distances({ n: 3, edges: [[0, 1.5]] }), /graph: .*integer/],
    [() => qif.graph.distances({ n: 3 }), /graph: missing field "edges"/],
    [() => qif.graph.distances([[0, 1]]), /graph: expected a graph/],
    [() => qif.graph.distances({ n: 0, edges: [] }), /graph: n must be/],
    [() => qif.graph.hamming(100, 2), /hamming: .*limit/],
    [() => qif.graph.hamming(2, 1), /values/],
    [() => qif.graph.hammingDistanceDistribution(0, 2), /individuals/],
    [() => qif.graph.hypercube(0), /dimension/],
    [() => qif.graph.cycle(2), /cycle/],
    [() => qif.graph.induced(qif.graph.path(3), [0, 1]), /query/],
    [() => qif.graph.induced(qif.graph.path(3), [0, -1, 1]), /query: entry 1/],
    [() => qif.graph.distanceDistribution(qif.graph.path(3), 5), /vertex/],
    [() => qif.graph.isVTPlus(qif.graph.path(3), { budgetMs: -1 }), /budgetMs/],
    [() => qif.graph.isVTPlus(), /graph: missing/],
  ];
  for (const [f, re] of cases) assert.throws(f, re);
  assert.equal(qif.graph.path(3).n, 3);
});
