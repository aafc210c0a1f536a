// Numerical extremes through the JS API, each against a value computed independently: optimal
// mechanisms at ε up to 40 and ε·d up to 700 (HiGHS, compiled to WebAssembly from the npm package
// `highs`, solving the same program stated here; closed forms on a path; randomized response as a
// feasible lower bound), their privacy as qif.privacy checks it, Rényi entropies next to α = 1
// (60-digit values), a Gaussian capacity whose σ² underflows, and inputs that must be refused:
// resolutions no double can resolve, a sigma that is not a distribution.
import test from 'node:test';
import assert from 'node:assert/strict';
import loadHighs from 'highs';
import { load } from '../../web/qif.js';

const qif = await load();
const highs = await loadHighs();
const M = qif.mechanism;
const close = (a, b, tol, label) => assert.ok(Math.abs(a - b) <= tol, `${label}: ${a} vs ${b} (±${tol})`);

const path = (n) => ({ n, edges: Array.from({ length: n - 1 }, (_, i) => [i, i + 1]) });

// The optimal-mechanism program in CPLEX LP format: maximize Σ π_y g(z,y) H[y][z] (or minimize a
// loss) over row-stochastic H ≥ 0 with e^{−ε·d}·H[a][z] ≤ H[b][z] both ways for each pair.
function lpText(n, score, prior, pairs, minimize) {
  const w = score.length;
  const v = (y, z) => `h${y}_${z}`;
  const terms = [];
  for (let y = 0; y < n; y++) for (let z = 0; z < w; z++) {
    const c = prior[y] * score[z][y];
    if (c !== 0) terms.push(`${c.toPrecision(17)} ${v(y, z)}`);
  }
  const out = [minimize ? 'Minimize' : 'Maximize', ' obj: ' + (terms.join(' + ') || `0 ${v(0, 0)}`), 'Subject To'];
  for (let y = 0; y < n; y++) out.push(` s${y}: ` + Array.from({ length: w }, (_, z) => v(y, z)).join(' + ') + ' = 1');
  let k = 0;
  for (const [a, b, ed] of pairs) for (const [x, t] of [[a, b], [b, a]]) for (let z = 0; z < w; z++) {
    out.push(` p${k++}: ${Math.exp(-ed).toPrecision(17)} ${v(x, z)} - ${v(t, z)} <= 0`);
  }
  out.push('End');
  return out.join('\n').replace(/\+ -/g, '- ');
}

function highsOptimum(n, score, prior, pairs, minimize = false) {
  const r = highs.solve(lpText(n, score, prior, pairs, minimize),
    { output_flag: false, primal_feasibility_tolerance: 1e-10, dual_feasibility_tolerance: 1e-10 });
  assert.equal(r.Status, 'Optimal');
  return r.ObjectiveValue;
}

const identity = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
const graphPairs = (g, eps) => g.edges.map(([a, b]) => [a, b, eps]);

test('optimalLP at ε = 20 on a 4-vertex graph: optimal by HiGHS, above randomized response, ε-DP, with its certificate', () => {
  const graph = { n: 4, edges: [[0, 2], [0, 3], [1, 3]] };
  const prior = [0.47, 0.12, 0.27, 0.14];
  const r = M.optimalLP({ graph, epsilon: 20, prior });
  assert.equal(r.status, 'optimal');
  const rr = M.utility(prior, M.randomizedResponse(4, 20));
  assert.ok(rr > 0.9999999938 && r.utility >= rr, `utility ${r.utility} below randomized response ${rr}`);
  close(r.utility, highsOptimum(4, identity(4), prior, graphPairs(graph, 20)), 1e-9, 'utility vs HiGHS');
  assert.ok(r.bound >= r.utility && r.bound - r.utility <= 1e-9, `bound ${r.bound}, utility ${r.utility}`);
  assert.ok(r.primalResidual <= 1e-9 && r.dualResidual <= 1e-9, `residuals ${r.primalResidual} ${r.dualResidual}`);
  assert.ok(qif.privacy.isDP(r.mechanism, graph, 20));
});

test('optimalLP on the path 0–1–2 at ε = 40: the truncated geometric optimum, not the constant mechanism', () => {
  // Optimal on a path for every prior and monotone loss (Ghosh, Roughgarden, Sundararajan 2009):
  // (1/3)(2/(1+α) + (1−α)/(1+α)) = (3−α)/(3(1+α)) with α = e^{−40}; the 0-1 loss is 1 minus it.
  const a = Math.exp(-40);
  const r = M.optimalLP({ graph: path(3), epsilon: 40 });
  assert.equal(r.status, 'optimal');
  close(r.utility, (3 - a) / (3 * (1 + a)), 1e-12, 'utility');
  assert.ok(qif.privacy.epsilon(r.mechanism, path(3)) <= 40);
  const loss = [[0, 1, 1], [1, 0, 1], [1, 1, 0]];
  const l = M.optimalLP({ graph: path(3), epsilon: 40, loss });
  close(l.utility, (4 * a) / (3 * (1 + a)), 1e-20, '0-1 loss');
  assert.ok(l.utility > 0);
});

test('lp.solve on the same program written with e^40 coefficients: optimal, right, with residuals that say so', () => {
  const n = 3, K = Math.exp(40), a = Math.exp(-40);
  const objective = new Float64Array(n * n);
  for (let y = 0; y < n; y++) objective[y * n + y] = 1 / 3;
  const rows = [];
  for (let y = 0; y < n; y++) rows.push({ coeffs: Array.from({ length: n }, (_, z) => [y * n + z, 1]), op: '=', rhs: 1 });
  for (const [p, q] of [[0, 1], [1, 2]]) for (const [y, y2] of [[p, q], [q, p]]) for (let z = 0; z < n; z++) {
    rows.push({ coeffs: [[y * n + z, 1], [y2 * n + z, -K]], op: '<=', rhs: 0 });
  }
  const r = qif.lp.solve({ sense: 'max', objective, rows });
  assert.equal(r.status, 'optimal', `status ${r.status}`);
  close(r.objective, (3 - a) / (3 * (1 + a)), 1e-9, 'objective');
  assert.ok(r.dualResidual <= 1e-9 && r.primalResidual <= 1e-9, `residuals ${r.primalResidual} ${r.dualResidual}`);
});

test('optimalLP with a gain matrix: no dust beside an exact 0, ε-DP as privacy.epsilon computes it', () => {
  const gain = [[0.9, 1, 0, 1], [0.4, 0.6, 1, 0.1], [0, 0.5, 0.6, 1]];
  const prior = [0.59, 0.15, 0.22, 0.04];
  const r = M.optimalLP({ graph: path(4), epsilon: 1, prior, gain });
  assert.equal(r.status, 'optimal');
  assert.ok(qif.privacy.epsilon(r.mechanism, path(4)) <= 1, `ε = ${qif.privacy.epsilon(r.mechanism, path(4))}`);
  assert.ok(qif.privacy.isDP(r.mechanism, path(4), 1));
  close(r.utility, highsOptimum(4, gain, prior, graphPairs(path(4), 1)), 1e-9, 'utility vs HiGHS');
});

test('optimalLP on random graphs and metrics up to ε = 40 and ε·d = 700 agrees with HiGHS and is private', () => {
  let seed = 20241;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let trial = 0; trial < 8; trial++) {
    const n = 4 + (trial % 3);
    let edges;
    do {
      edges = [];
      for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) if (rand() < 0.45) edges.push([a, b]);
    } while (!connected(n, edges));
    const graph = { n, edges };
    const raw = Array.from({ length: n }, () => 0.05 + rand());
    const sum = raw.reduce((x, y) => x + y, 0);
    const prior = raw.map((x) => x / sum);
    for (const eps of [1, 18, 20, 40]) {
      const r = M.optimalLP({ graph, epsilon: eps, prior });
      close(r.utility, highsOptimum(n, identity(n), prior, graphPairs(graph, eps)), 1e-8, `graph n=${n} ε=${eps}`);
      assert.ok(qif.privacy.epsilon(r.mechanism, graph) <= eps);
    }
    // Euclidean distances between random points, ε scaled so that the largest ε·d is 50 or 700.
    const pts = Array.from({ length: n }, () => [rand(), rand()]);
    const metric = pts.map((p) => pts.map((q) => Math.hypot(p[0] - q[0], p[1] - q[1])));
    const dmax = Math.max(...metric.flat());
    for (const top of [50, 700]) {
      const eps = top / dmax;
      const loss = metric; // expected distance between the true and the reported point
      const r = M.optimalLP({ metric, epsilon: eps, prior, loss });
      const pairs = [];
      for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) pairs.push([a, b, eps * metric[a][b]]);
      close(r.utility, highsOptimum(n, loss, prior, pairs, true), 1e-8, `metric n=${n} max ε·d=${top}`);
      assert.ok(qif.privacy.dPrivacyEpsilon(r.mechanism, metric) <= eps);
    }
  }
});

function connected(n, edges) {
  const seen = new Set([0]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [a, b] of edges) if (seen.has(a) !== seen.has(b)) { seen.add(a); seen.add(b); grew = true; }
  }
  return seen.size === n;
}

test('renyiEntropy next to α = 1 (60-digit references) and for the uniform distribution', () => {
  const p = [0.5, 0.25, 0.125, 0.125];
  close(qif.measure.renyiEntropy(p, 1 - 1e-15), 1.7500000000000002383, 4e-15, 'α = 1 − 1e−15');
  close(qif.measure.renyiEntropy(p, 1 + 1e-15), 1.7499999999999997617, 4e-15, 'α = 1 + 1e−15');
  close(qif.measure.renyiEntropy(p, 1 + 1e-8), 1.7499999976173065691, 4e-15, 'α = 1 + 1e−8');
  close(qif.measure.renyiEntropy(p, 2), 1.5405683813627027438, 4e-15, 'α = 2');
  const u = new Array(1000).fill(0.001);
  for (const a of [1 - 1e-15, 1 + 1e-15, 0.5, 3]) close(qif.measure.renyiEntropy(u, a), Math.log2(1000), 1e-13, `uniform, α = ${a}`);
});

test('gaussianCapacity when σ² underflows, and its inverse', () => {
  // ½ log2(1 + 1/σ²) at σ = 1e−160 = ½ log2(10^320) (40-digit value 531.50849518197797568).
  close(qif.infoPrivacy.gaussianCapacity(1, 1e-160), 531.50849518197797568, 1e-12, 'capacity');
  const s = qif.infoPrivacy.sigmaForCapacity(1, 531.5);
  close(s / 1.0059057822096823609e-160, 1, 1e-14, 'σ for 531.5 bits');
});

test('familyEpsilon and safeEpsilonCurve refuse resolutions no double resolves, and resolution 0', () => {
  const base = { family1: 'truncatedGeometric', family2: 'truncatedGeometric', n: 5 };
  for (const resolution of [1e-17, 0, -1]) {
    assert.throws(() => qif.refine.familyEpsilon({ ...base, epsilon1: 1, resolution }), /resolution/);
    assert.throws(() => qif.refine.safeEpsilonCurve({ ...base, epsilons1: [1], resolution }), /resolution/);
  }
  const r = qif.refine.familyEpsilon({ ...base, epsilon1: 1, resolution: 1e-12 });
  assert.ok(r.found && r.epsilon2Fails - r.epsilon2 <= 1e-12);
});

test('hullDistance refuses a sigma that is not a distribution', () => {
  const C = [[0.9, 0.1], [0.2, 0.8]];
  for (const sigma of [[0.7, 0.7], [1.5, -0.5], [0.3, 0.3]]) {
    assert.throws(() => qif.refine.hullDistance(C, sigma), /sigma/);
  }
  assert.ok(qif.refine.hullDistance(C, [0.5, 0.5]) < 1e-12);
});
