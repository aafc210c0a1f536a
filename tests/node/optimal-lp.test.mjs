// qif.mechanism.optimalLP through the JS API: Alvim et al. (ICALP 2011) Table 1 (2/7 under the
// uniform prior, 0.32 — derived by hand, see core/mechanism/optimal_lp_test.go — under
// p(A)=p(F)=1/10), the closed form 1/Σ_d n_d e^{−εd} computed here in plain JS, ε-DP of the result
// checked here, the geometric mechanism's optimality on a line (Ghosh–Roughgarden–Sundararajan),
// and bad inputs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

const qif = await load();
const M = qif.mechanism;

const close = (a, b, tol, label) => assert.ok(Math.abs(a - b) <= tol, `${label}: ${a} vs ${b}`);
const at = (A, i, j) => A.data[i * A.cols + j];

function clique(n) {
  const edges = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) edges.push([i, j]);
  return { n, edges };
}
function cycle(n) {
  return { n, edges: Array.from({ length: n }, (_, i) => [i, (i + 1) % n]) };
}
function path(n) {
  return { n, edges: Array.from({ length: n - 1 }, (_, i) => [i, i + 1]) };
}
function hypercube(d) {
  const edges = [];
  for (let v = 0; v < 1 << d; v++) for (let b = 0; b < d; b++) if (v < (v ^ (1 << b))) edges.push([v, v ^ (1 << b)]);
  return { n: 1 << d, edges };
}
// 1/Σ_v e^{−ε d(0,v)} by BFS from vertex 0.
function closedForm(g, eps) {
  const adj = Array.from({ length: g.n }, () => []);
  for (const [a, b] of g.edges) { adj[a].push(b); adj[b].push(a); }
  const dist = new Array(g.n).fill(-1);
  dist[0] = 0;
  const queue = [0];
  let s = 0;
  while (queue.length) {
    const v = queue.shift();
    s += Math.exp(-eps * dist[v]);
    for (const w of adj[v]) if (dist[w] < 0) { dist[w] = dist[v] + 1; queue.push(w); }
  }
  return 1 / s;
}
function epsilonOn(H, g) {
  let worst = 0;
  for (const [a, b] of g.edges) {
    for (let z = 0; z < H.cols; z++) {
      const p = at(H, a, z), q = at(H, b, z);
      if (p < 1e-12 && q < 1e-12) continue;
      if (p < 1e-12 || q < 1e-12) return Infinity;
      worst = Math.max(worst, Math.abs(Math.log(p / q)));
    }
  }
  return worst;
}
function assertChannel(H) {
  for (let y = 0; y < H.rows; y++) {
    let s = 0;
    for (let z = 0; z < H.cols; z++) { assert.ok(at(H, y, z) >= 0); s += at(H, y, z); }
    close(s, 1, 1e-12, `row ${y}`);
  }
}

test('Table 1 (6 answers, clique, ε = ln 2)', () => {
  const g = clique(6);
  const uni = M.optimalLP({ graph: g, epsilon: Math.LN2 });
  assert.equal(uni.path, 'closed-form');
  close(uni.utility, 2 / 7, 1e-12, 'uniform, closed form');
  const uniLP = M.optimalLP({ graph: g, epsilon: Math.LN2, forceLP: true });
  assert.equal(uniLP.path, 'lp');
  assert.equal(uniLP.status, 'optimal');
  assert.equal(uniLP.variables, 36);
  assert.equal(uniLP.constraints, 6 + 2 * 15 * 6);
  close(uniLP.utility, 2 / 7, 1e-9, 'uniform, LP');
  const prior = [0.1, 0.2, 0.2, 0.2, 0.2, 0.1];
  const r = M.optimalLP({ graph: g, epsilon: Math.LN2, prior: Float64Array.from(prior) });
  assert.equal(r.path, 'lp');
  close(r.utility, 0.32, 1e-9, 'A=F=1/10: LP optimum');
  close(r.objective, 0.32, 1e-9, 'A=F=1/10: LP objective');
  assert.ok(epsilonOn(r.mechanism, g) <= Math.LN2 + 1e-6, 'ε-DP');
  assertChannel(r.mechanism);
  // Above both of the paper's mechanisms for this prior: M1 0.24152 and M2 2/7.
  const m1 = qif.mechanism.utility(prior, M.truncatedGeometric(6, Math.LN2 / 5));
  close(m1, 0.24152, 5e-6, 'M1');
  assert.ok(r.utility > 2 / 7 && r.utility > m1);
});

test('LP agrees with the closed form on distance-regular / VT+ graphs', () => {
  for (const [name, g] of [['C7', cycle(7)], ['K5', clique(5)], ['Q3', hypercube(3)]]) {
    for (const eps of [0.4, Math.LN2, 1.7]) {
      const want = closedForm(g, eps);
      const cf = M.optimalLP({ graph: g, epsilon: eps });
      const lp = M.optimalLP({ graph: g, epsilon: eps, forceLP: true });
      assert.equal(cf.path, 'closed-form', name);
      assert.equal(cf.iterations, 0);
      assert.equal(lp.path, 'lp', name);
      close(cf.utility, want, 1e-12, `${name} closed form`);
      close(lp.utility, want, 1e-8, `${name} LP`);
      assert.ok(epsilonOn(lp.mechanism, g) <= eps + 1e-6, `${name}: LP mechanism ε-DP`);
    }
  }
});

test('path: LP beats the honest Theorem 6.2 matrix and equals the truncated geometric', () => {
  const g = path(7);
  const r = M.optimalLP({ graph: g, epsilon: Math.LN2 });
  assert.equal(r.path, 'lp');
  assert.ok(epsilonOn(r.mechanism, g) <= Math.LN2 + 1e-6);
  const uniform = new Array(7).fill(1 / 7);
  close(r.utility, M.utility(uniform, M.truncatedGeometric(7, Math.LN2)), 1e-9, 'vs truncated geometric');
  const th = M.optimalDetail(g, Math.LN2);
  assert.ok(th.actualEpsilon > Math.LN2 + 0.1, 'row-normalized Theorem 6.2 breaks ε on a path');
});

test('metric: |x−y| on a line with the |w−y| loss equals the truncated geometric', () => {
  const n = 6, eps = 0.8;
  const d = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Math.abs(i - j)));
  const prior = [0.05, 0.3, 0.1, 0.25, 0.1, 0.2];
  const r = M.optimalLP({ metric: d, epsilon: eps, prior, loss: d });
  assert.equal(r.path, 'lp');
  const want = M.expectedLoss(prior, M.truncatedGeometric(n, eps), d);
  close(r.utility, want.loss, 1e-9, 'expected |w−y| loss');
  assert.ok(qif.privacy.dPrivacyEpsilon(r.mechanism, d) <= eps + 1e-6, 'ε·d-private');
  // A gain with more guesses than answers gives that many outputs.
  const gain = [[1, 0, 0, 0, 0, 0], [0.6, 0.6, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0],
    [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0.5, 0.5]];
  const rg = M.optimalLP({ metric: d, epsilon: eps, prior, gain });
  assert.equal(rg.mechanism.rows, 6);
  assert.equal(rg.mechanism.cols, 7);
  close(rg.utility, M.utility(prior, rg.mechanism, gain), 1e-12, 'utility recomputed');
  close(rg.utility, rg.objective, 1e-8, 'utility = LP objective');
});

test('progress callback and cancellation', () => {
  const g = { n: 16, edges: [] };
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    if (c < 3) g.edges.push([4 * r + c, 4 * r + c + 1]);
    if (r < 3) g.edges.push([4 * r + c, 4 * r + c + 4]);
  }
  // The 4×4 grid takes over 200 simplex iterations (the default reporting interval).
  const seen = [];
  const r = M.optimalLP({ graph: g, epsilon: Math.LN2, forceLP: true, method: 'simplex', onProgress: (p) => { seen.push(p); } });
  assert.equal(r.status, 'optimal');
  assert.equal(r.method, 'simplex');
  assert.ok(seen.length >= 1 && seen.length <= r.iterations / 100, `${seen.length} reports for ${r.iterations} iterations`);
  assert.equal(typeof seen[0].iteration, 'number');
  assert.equal(typeof seen[0].phase, 'string');
  // The decomposition reports while it prices the columns (every 16) and after each round.
  const seenD = [];
  const rd = M.optimalLP({ graph: g, epsilon: Math.LN2, forceLP: true, onProgress: (p) => { seenD.push(p); } });
  assert.equal(rd.method, 'decomposition');
  close(rd.utility, r.utility, 1e-10, 'both methods');
  assert.ok(seenD.length >= 1 && seenD.every((p) => p.phase === 'decomposition'), `${seenD.length} decomposition reports`);
  // Each report brackets the optimum the simplex found: a feasible value below, a proven bound
  // above (+Infinity before the first pricing round ends), and some report has a finite bound.
  for (const p of seenD) assert.ok(p.objective <= r.utility + 1e-9 && p.bound >= r.utility - 1e-9, `report ${JSON.stringify(p)} against ${r.utility}`);
  assert.ok(seenD.some((p) => Number.isFinite(p.bound)), 'a finite bound is reported');
  let calls = 0;
  assert.throws(() => M.optimalLP({ graph: g, epsilon: Math.LN2, onProgress: () => { calls++; return false; } }),
    (e) => e instanceof Error && e.name === 'AbortError' && e.message === 'mechanism.optimalLP: cancelled');
  assert.equal(calls, 1);
  close(M.optimalLP({ graph: g, epsilon: Math.LN2 }).utility, r.utility, 1e-12, 'same after a cancelled solve');
  // timeLimit is in milliseconds: 1e-6 ms stops the solve at its first check; a minute does not.
  for (const method of ['simplex', 'decomposition']) {
    assert.throws(() => M.optimalLP({ graph: g, epsilon: Math.LN2, forceLP: true, method, timeLimit: 1e-6 }),
      (e) => e instanceof Error && /stopped \(time limit\)/.test(e.message), method);
  }
  close(M.optimalLP({ graph: g, epsilon: Math.LN2, forceLP: true, timeLimit: 60000 }).utility, r.utility, 1e-9, 'a minute is enough');
});

test('progress with a loss: objective and bound are expected distances, as the result', () => {
  // A 4 × 4 map, Euclidean distances written here, a skewed prior, the distance as the loss.
  const side = 4;
  const n = side * side;
  const D = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Math.hypot(i % side - (j % side), Math.floor(i / side) - Math.floor(j / side))));
  const w = Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 5));
  const prior = w.map((x) => x / w.reduce((a, b) => a + b, 0));
  const ref = M.optimalLP({ metric: D, epsilon: 0.8, prior, loss: D, method: 'simplex' });
  assert.equal(ref.status, 'optimal');
  // Its expected distance recomputed here: Σ_x π_x Σ_z K[x][z] D[x][z].
  let mine = 0;
  for (let x = 0; x < n; x++) for (let z = 0; z < n; z++) mine += prior[x] * at(ref.mechanism, x, z) * D[x][z];
  close(ref.utility, mine, 1e-9, 'the result is the expected distance');
  const seen = [];
  const r = M.optimalLP({ metric: D, epsilon: 0.8, prior, loss: D, method: 'decomposition', onProgress: (p) => { seen.push(p); } });
  close(r.utility, ref.utility, 1e-8, 'both methods');
  assert.ok(seen.length >= 1, 'reports');
  // Each report: a feasible mechanism's expected distance (at least the optimum) and a proven
  // lower bound (at most the optimum, and never below 0 for distances); -Infinity before the first.
  for (const p of seen) {
    assert.ok(p.objective >= ref.utility - 1e-8 && p.objective <= Math.SQRT2 * (side - 1), `objective ${p.objective} against ${ref.utility}`);
    assert.ok(p.bound === -Infinity || (p.bound <= ref.utility + 1e-8 && p.bound >= -1e-9), `bound ${p.bound} against ${ref.utility}`);
  }
  assert.ok(seen.some((p) => Number.isFinite(p.bound)), 'a finite bound is reported');
  // The pivots count every phase: they never go back.
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].iteration >= seen[i - 1].iteration, `pivots ${seen[i - 1].iteration} then ${seen[i].iteration}`);
});

test('bad input: errors name the argument, the instance keeps working', () => {
  const g = clique(3);
  const bad = [
    [() => M.optimalLP(), /^options:/],
    [() => M.optimalLP(3), /^options:/],
    [() => M.optimalLP({ epsilon: 1 }), /^graph, metric:/],
    [() => M.optimalLP({ graph: g, metric: [[0, 1, 1], [1, 0, 1], [1, 1, 0]], epsilon: 1 }), /^graph, metric:/],
    [() => M.optimalLP({ graph: g }), /^epsilon:/],
    [() => M.optimalLP({ graph: g, epsilon: 0 }), /^epsilon:/],
    [() => M.optimalLP({ graph: g, epsilon: -1 }), /^epsilon:/],
    [() => M.optimalLP({ graph: g, epsilon: NaN }), /^epsilon:/],
    [() => M.optimalLP({ graph: g, epsilon: '1' }), /^epsilon:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, prior: [0.5, 0.5] }), /^prior:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, prior: [0.5, 0.5, 0.5] }), /^prior:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, gain: [[1, 0, 0]], loss: [[1, 0, 0]] }), /^gain, loss:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, gain: [[1, 0], [0, 1]] }), /^gain:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, loss: [[NaN, 0, 0]] }), /^loss:/],
    [() => M.optimalLP({ graph: { n: 3, edges: [[0, 0]] }, epsilon: 1 }), /^graph:/],
    [() => M.optimalLP({ metric: [[0, 1], [2, 0]], epsilon: 1 }), /^metric:/],
    [() => M.optimalLP({ metric: [[0, -1], [-1, 0]], epsilon: 1 }), /^metric:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, forceLP: 'yes' }), /^forceLP:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, onProgress: 3 }), /^onProgress:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, timeLimit: 0 }), /^timeLimit: expected a positive number/],
    [() => M.optimalLP({ graph: g, epsilon: 1, timeLimit: -5 }), /^timeLimit:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, timeLimit: NaN }), /^timeLimit:/],
    [() => M.optimalLP({ graph: path(1025), epsilon: 1 }), /variables, more than the limit of 1048576/],
    [() => M.optimalLP({ graph: path(201), epsilon: 1, method: 'simplex' }), /variables, more than the limit of 40000/],
    [() => M.optimalLP({ graph: clique(110), epsilon: 1, forceLP: true, method: 'simplex' }), /constraints.*more than the limit/],
    [() => M.optimalLP({ graph: g, epsilon: 1, method: 'interior' }), /^method:/],
    [() => M.optimalLP({ graph: g, epsilon: 1, spanner: 2 }), /^spanner:/],
    [() => M.optimalLP({ metric: [[0, 1], [1, 0]], epsilon: 1, spanner: 0.5 }), /^spanner:/],
    [() => M.optimalLP({ metric: [[0, 1], [1, 0]], epsilon: 1, spanner: NaN }), /^spanner:/],
  ];
  // Every message starts with the function, then names the argument.
  for (const [f, re] of bad) {
    assert.throws(f, (e) => e instanceof Error && e.message.startsWith('mechanism.optimalLP: ') && re.test(e.message.slice(21)), String(f));
  }
  close(M.optimalLP({ graph: g, epsilon: Math.LN2 }).utility, 1 / 2, 1e-12, 'still working (K3: 1/(1+2/2))');
});

test('location maps: 32 × 32 is the limit, and programs too large are refused before any work', () => {
  const D32 = qif.metric.gridEuclidean(32, 32);
  const D33 = qif.metric.gridEuclidean(33, 33);
  // The simplex states every privacy row (pairs × outputs): a dense 1,024-cell program would not
  // fit in memory, so it is refused by its size, with the size in the message, before it is built.
  assert.throws(() => M.optimalLP({ metric: D32, epsilon: 1, loss: D32, method: 'simplex' }),
    /^Error: mechanism\.optimalLP: metric, loss: the program would have 1024×1024 = 1048576 variables, more than the limit of 40000/);
  // 33 × 33 = 1,089 cells: beyond the decomposition's limit too.
  assert.throws(() => M.optimalLP({ metric: D33, epsilon: 1, loss: D33, spanner: 1.1 }), /metric: 1089 points, more than the limit of 1024/);
});
