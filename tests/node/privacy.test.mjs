// qif.privacy: ε, δ, d-privacy, induced metric and the bounds of Alvim et al. (ICALP 2011) against
// values computed here in plain JS (closed forms, brute force) and bad inputs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

let qif;
before(async () => { qif = await load(); });

const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

function rr(n, eps) {
  const den = n - 1 + Math.exp(eps);
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? Math.exp(eps) : 1) / den));
}
function truncGeo(n, eps) {
  const a = Math.exp(-eps);
  return Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) =>
    y === 0 ? a ** x / (1 + a) : y === n - 1 ? a ** (n - 1 - x) / (1 + a) : (1 - a) / (1 + a) * a ** Math.abs(x - y)));
}
// Theorem 6.2 mechanism from the distance matrix, and its utility under the uniform prior.
function thm62(D, eps) {
  const n = D.rows, row0 = Array.from(D.data.slice(0, n));
  const s = row0.reduce((t, d) => t + Math.exp(-eps * d), 0);
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Math.exp(-eps * D.data[i * n + j]) / s));
}
function utility(H) {
  const n = H.length;
  let u = 0;
  for (let z = 0; z < H[0].length; z++) u += Math.max(...H.map((r) => r[z])) / n;
  return u;
}

test('epsilon of randomized response and truncated geometric equals the nominal ε', () => {
  for (const eps of [0.1, Math.LN2, 2]) {
    close(qif.privacy.epsilon(rr(5, eps), qif.graph.clique(5)), eps);
    close(qif.privacy.epsilon(truncGeo(6, eps), qif.graph.path(6)), eps);
    assert.equal(qif.privacy.isDP(truncGeo(6, eps), qif.graph.path(6), eps), true);
    assert.equal(qif.privacy.isDP(truncGeo(6, eps), qif.graph.path(6), eps * 0.99), false);
  }
  const d = qif.privacy.epsilonDetail([[2 / 3, 1 / 3], [1 / 3, 2 / 3]], qif.graph.path(2));
  close(d.epsilon, Math.LN2);
  assert.ok([0, 1].includes(d.x) && d.x2 === 1 - d.x && d.y === d.x);
  assert.equal(qif.privacy.epsilon([[1, 0], [0.5, 0.5]], qif.graph.path(2)), Infinity);
  assert.equal(qif.privacy.epsilon([[1, 0], [0, 1]], { n: 2, edges: [] }), 0);
});

test('group privacy, d-privacy and the induced metric', () => {
  const C = truncGeo(5, 0.4), g = qif.graph.path(5);
  close(qif.privacy.groupEpsilon(C, g, 3), 1.2, 1e-9);
  const D = qif.graph.distances(g);
  close(qif.privacy.dPrivacyEpsilon(C, D), 0.4, 1e-12);
  const D2 = { rows: 5, cols: 5, data: D.data.map((x) => 4 * x) };
  close(qif.privacy.dPrivacyEpsilon(C, D2), 0.1, 1e-12);
  const m = qif.privacy.inducedMetric(rr(3, 0.7));
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) close(m.data[i * 3 + j], i === j ? 0 : 0.7);
  close(qif.privacy.dPrivacyEpsilon(C, qif.privacy.inducedMetric(C)), 1);
});

test('delta: hockey-stick on two-point randomized response, and ε for δ back', () => {
  const eps = 1.2, C = rr(2, eps), p = C[0][0], q = C[0][1], g = qif.graph.path(2);
  for (const e of [0, 0.5, 1]) {
    const want = p - Math.exp(e) * q;
    close(qif.privacy.delta(C, g, e), want);
    close(qif.privacy.epsilonForDelta(C, g, want), e, 1e-9);
  }
  assert.equal(qif.privacy.delta(C, g, 1.5), 0);
});

test('utilityBound: reached by the Theorem 6.2 mechanism; Table 1 gives 2/7', () => {
  const graphs = [qif.graph.cycle(7), qif.graph.clique(6), qif.graph.hypercube(3), qif.graph.hamming(2, 3), qif.graph.petersen()];
  for (const g of graphs) {
    for (const eps of [0.3, Math.LN2, 2]) {
      const r = qif.privacy.utilityBound(g, eps);
      close(r.bound, utility(thm62(qif.graph.distances(g), eps)));
      close(r.log2Bound, Math.log2(r.bound));
      assert.equal(r.tight, true);
    }
  }
  const t1 = qif.privacy.utilityBound(qif.graph.clique(6), Math.LN2);
  close(t1.bound, 2 / 7, 1e-15);
  assert.equal(t1.distanceRegular, true);
  assert.equal(t1.vtPlus, true);
  // Star: not tight; the bound uses a leaf (smallest Σ n_d e^{−εd}).
  const star = { n: 5, edges: [[0, 1], [0, 2], [0, 3], [0, 4]] };
  const s = qif.privacy.utilityBound(star, 1);
  assert.equal(s.tight, false);
  assert.equal(s.vtPlus, false);
  assert.notEqual(s.vertex, 0);
  close(s.bound, 1 / (1 + Math.exp(-1) + 3 * Math.exp(-2)));
});

test('leakage bounds: Theorem 5.1 brute force on small Hamming graphs, u = 10⁶ finite', () => {
  for (const [u, v] of [[2, 2], [3, 2], [2, 3]]) {
    const eps = 0.8, H = thm62(qif.graph.distances(qif.graph.hamming(u, v)), eps);
    // min-capacity: log2 Σ_z max_x H[x][z]
    const leak = Math.log2(H[0].reduce((t, _, z) => t + Math.max(...H.map((r) => r[z])), 0));
    close(qif.privacy.leakageBound({ individuals: u, values: v, epsilon: eps }), leak);
  }
  close(qif.privacy.individualLeakageBound({ values: 4, epsilon: 1 }), Math.log2(4 * Math.E / (3 + Math.E)));
  const big = qif.privacy.leakageBound({ individuals: 1e6, values: 2, epsilon: 0.1 });
  close(big, 1e6 * Math.log2(2 * Math.exp(0.1) / (1 + Math.exp(0.1))), 1e-12);
  const h = qif.privacy.hammingUtilityBound({ individuals: 1e6, values: 3, epsilon: 1 });
  assert.equal(h.bound, 0);
  close(h.log2Bound, -1e6 * Math.log2(1 + 2 * Math.exp(-1)), 1e-12);
  const small = qif.privacy.hammingUtilityBound({ individuals: 3, values: 2, epsilon: 0.5 });
  close(small.bound, qif.privacy.utilityBound(qif.graph.hypercube(3), 0.5).bound);
});

test('bad inputs name the argument', () => {
  const C = rr(3, 1), k3 = qif.graph.clique(3);
  const cases = [
    [() => qif.privacy.epsilon(C, qif.graph.clique(4)), /graph: 4 vertices/],
    [() => qif.privacy.epsilon([[0.5, 0.6], [0.5, 0.5]], qif.graph.path(2)), /channel: row 0/],
    [() => qif.privacy.isDP(C, k3, 0), /epsilon/],
    [() => qif.privacy.isDP(C, k3, NaN), /epsilon/],
    [() => qif.privacy.delta(C, k3, -1), /epsilon/],
    [() => qif.privacy.epsilonForDelta(C, k3, 2), /delta/],
    [() => qif.privacy.dPrivacyEpsilon(C, [[0, 1], [1, 0]]), /metric/],
    [() => qif.privacy.dPrivacyEpsilon(C, [[0, 1, 1], [2, 0, 1], [1, 1, 0]]), /metric: not symmetric/],
    [() => qif.privacy.leakageBound({ individuals: 0, values: 2, epsilon: 1 }), /individuals/],
    [() => qif.privacy.leakageBound({ individuals: 3, values: 1, epsilon: 1 }), /values/],
    [() => qif.privacy.leakageBound({ individuals: 3, values: 2 }), /epsilon/],
    [() => qif.privacy.individualLeakageBound({ values: 2, epsilon: -1 }), /epsilon/],
    [() => qif.privacy.hammingUtilityBound({ individuals: 3, values: 2, epsilon: 0 }), /epsilon/],
    [() => qif.privacy.utilityBound(k3, 0), /epsilon/],
    [() => qif.privacy.utilityBound({ n: 2, edges: [[0, 0]] }, 1), /graph: .*self-loop/],
  ];
  for (const [f, re] of cases) assert.throws(f, re);
  close(qif.privacy.epsilon(C, k3), 1);
});
