// qif.exact, the exact mode: its own WebAssembly module (qif-exact.wasm), loaded on demand. Values
// against fractions computed by hand and against the floating-point API on random rational inputs,
// exact identities checked with a BigInt fraction arithmetic of this file (not the module's), bad
// input, limits, cancellation, and the loading itself.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

let qif;
before(async () => { qif = await load({ exact: true }); });

// ---------------------------------------------------------------- fractions, independently

const gcd = (a, b) => { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) [a, b] = [b, a % b]; return a; };
function frac(n, d = 1n) {
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}
const add = (x, y) => frac(x.n * y.d + y.n * x.d, x.d * y.d);
const mul = (x, y) => frac(x.n * y.n, x.d * y.d);
const str = (x) => (x.d === 1n ? `${x.n}` : `${x.n}/${x.d}`);
/** Reads a reduced fraction string of the module, checking that it is reduced. */
function parse(s) {
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(s);
  assert.ok(m, `"${s}" is a fraction`);
  const x = frac(BigInt(m[1]), BigInt(m[2] ?? 1));
  assert.equal(str(x), s, `"${s}" is reduced`);
  return x;
}
const num = (s) => { const x = parse(s); return Number(x.n) / Number(x.d); };

// A random channel of fractions with small denominators: each row k_j / Σk.
function randomChannel(rows, cols, seed, zeros = 0) {
  let s = seed;
  const r = () => (s = (s * 16807) % 2147483647);
  const out = [];
  for (let i = 0; i < rows; i++) {
    const k = Array.from({ length: cols }, () => (r() % 100 < zeros ? 0 : 1 + (r() % 9)));
    if (k.every((v) => v === 0)) k[r() % cols] = 1;
    const z = k.reduce((a, b) => a + b, 0);
    out.push(k.map((v) => str(frac(BigInt(v), BigInt(z)))));
  }
  return out;
}
const randomPrior = (n, seed) => randomChannel(1, n, seed)[0];
const toFloat = (m) => m.map((row) => row.map(num));
const close = (a, b, what) => assert.ok(a === b || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: exact ${a}, float ${b}`);

// ---------------------------------------------------------------- values by hand

test('measures: fractions computed by hand', () => {
  const prior = ['1/2', '1/3', '1/6'];
  const C = [['3/4', '1/4'], ['1/2', '1/2'], ['0', '1']];
  const m = qif.exact.measure;
  // Joint: column 0 = 3/8, 1/6, 0; column 1 = 1/8, 1/6, 1/6.
  assert.equal(m.bayesVulnerability(prior), '1/2');
  assert.equal(m.bayesRisk(prior), '1/2');
  assert.equal(m.posteriorBayesVulnerability(prior, C), '13/24');      // 3/8 + 1/6
  assert.equal(m.posteriorBayesRisk(prior, C), '11/24');
  assert.equal(m.multiplicativeBayesLeakage(prior, C), '13/12');
  assert.equal(m.additiveBayesLeakage(prior, C), '1/24');
  assert.equal(m.maxCasePosteriorBayesVulnerability(prior, C), '9/13'); // (3/8)/(13/24); the other output 4/11
  assert.equal(m.guessingEntropy(['1/2', '1/4', '1/4']), '7/4');
  assert.equal(m.posteriorGuessingEntropy(prior, C), '19/12');          // (3/8 + 2/6) + (1/6 + 2/6 + 3/8)
  const G = [['1', '0', '0'], ['0', '1', '1']];                         // guess 1: "not the first"
  assert.equal(m.gVulnerability(G, prior), '1/2');
  assert.equal(m.posteriorGVulnerability(G, prior, C), '17/24');        // max(3/8, 1/6) + max(1/8, 1/3)
  assert.equal(m.multiplicativeGLeakage(G, prior, C), '17/12');
  assert.equal(m.additiveGLeakage(G, prior, C), '5/24');
  const L = [['0', '1', '1'], ['1', '0', '0']];
  assert.equal(m.lossRisk(L, prior), '1/2');
  assert.equal(m.posteriorLossRisk(L, prior, C), '7/24');               // min(1/6, 3/8) + min(1/3, 1/8)
  assert.equal(m.multiplicativeBayesCapacity(C), '7/4');                // 3/4 + 1
  // Rows 0 and 2 are at L1 distance 3/2: 1/(1 − 3/4); disjoint rows give Infinity.
  assert.equal(m.multiplicativeBayesRiskCapacity(C), '4');
  assert.equal(m.multiplicativeBayesRiskCapacity([[1, 0], [0, 1]]), 'Infinity');
  // 1 − Σ_y min_x C[x][y] = 1 − (0 + 1/4); Σ_y p(y)·tv(π, δʸ) for the other class.
  assert.equal(m.additiveGCapacity(prior, C), '3/4');
  assert.equal(m.additiveGCapacity(prior, C, { gainClass: 'oneSpanningVulnerability' }), '3/4');
  assert.equal(m.statisticalDistance(['1/2', '1/2'], ['1/4', '3/4']), '1/4');
  assert.equal(m.hockeyStick(['1/2', '1/2'], ['1/4', '3/4'], 1), '1/4');
  assert.equal(m.hockeyStick(['1/2', '1/2'], ['1/4', '3/4'], '3/2'), '1/8');   // 1/2 − 3/8
  assert.equal(m.hockeyStick(['1/2', '1/2'], ['1/4', '3/4'], 2), '0');
});

test('the oneSpanningGain capacity is Σ_y p(y)·tv(π, δʸ)', () => {
  const prior = ['1/2', '1/3', '1/6'];
  const C = [['3/4', '1/4'], ['1/2', '1/2'], ['0', '1']];
  // p = (13/24, 11/24); δ⁰ = (9/13, 4/13, 0), δ¹ = (3/11, 4/11, 4/11).
  // tv(π, δ⁰) = ½(|1/2−9/13| + |1/3−4/13| + 1/6) = ½(5/26 + 1/39 + 1/6) = 5/26;
  // tv(π, δ¹) = ½(|1/2−3/11| + |1/3−4/11| + |1/6−4/11|) = ½(5/22 + 1/33 + 13/66) = 5/22.
  const want = add(mul(frac(13n, 24n), frac(5n, 26n)), mul(frac(11n, 24n), frac(5n, 22n)));
  assert.equal(str(want), '5/24');
  assert.equal(qif.exact.measure.additiveGCapacity(prior, C, { gainClass: 'oneSpanningGain' }), str(want));
});

test('channels and mechanisms: fractions computed by hand', () => {
  const h = qif.exact.channel.hyper(['1/3', '1/3', '1/3'], [[1, 0], [0.5, 0.5], [0, 1]]);
  assert.deepEqual(h.outer, ['1/2', '1/2']);
  assert.deepEqual(h.inners, { rows: 2, cols: 3, data: ['2/3', '1/3', '0', '0', '1/3', '2/3'] });
  assert.deepEqual(h.outputs, [[0], [1]]);
  // Proportional columns merge, zero columns go.
  const R = qif.exact.channel.reduce([['1/4', '1/4', '0', '1/2'], ['1/6', '1/6', '0', '2/3']]);
  assert.deepEqual(R, { rows: 2, cols: 2, data: ['1/2', '1/2', '1/3', '2/3'] });
  const merged = qif.exact.channel.hyper(['1/2', '1/2'], [['1/4', '1/4', '1/2'], ['1/4', '1/4', '1/2']]);
  assert.deepEqual(merged.outer, ['1']);
  assert.deepEqual(merged.outputs, [[0, 1, 2]]);

  const RR = qif.exact.mechanism.randomizedResponse(3, 2);
  assert.deepEqual(RR.data, ['1/2', '1/4', '1/4', '1/4', '1/2', '1/4', '1/4', '1/4', '1/2']);
  assert.deepEqual(qif.exact.mechanism.randomizedResponse(2, '3/2', 3).data, ['3/7', '2/7', '2/7', '2/7', '3/7', '2/7']);
  // α = 1/2: row 0 is α⁰/(1+α), (1−α)/(1+α)·α, α²/(1+α); row 1 is α/(1+α) on both ends.
  const TG = qif.exact.mechanism.truncatedGeometric(3, '2');
  assert.deepEqual(TG.data, ['2/3', '1/6', '1/6', '1/3', '1/3', '1/3', '1/6', '1/6', '2/3']);
  // An exact result goes back in as it is.
  const both = qif.exact.channel.cascade(TG, RR);
  assert.deepEqual(both.data.slice(0, 3), ['5/12', '7/24', '7/24']);   // 2/3·1/2 + 1/6·1/4 + 1/6·1/4 = 5/12
  const par = qif.exact.channel.parallel([['1/2', '1/2'], ['1', '0']], [['1/3', '2/3'], ['0', '1']]);
  assert.deepEqual(par, { rows: 2, cols: 4, data: ['1/6', '1/3', '1/6', '1/3', '0', '1', '0', '0'] });
  const u = ['1/3', '1/3', '1/3'];
  assert.equal(qif.exact.mechanism.utility(u, RR), '1/2');
  // Columns: max_w of (5/6, 3/4, 1/3), (1/3, 1/2, 1/3), (1/3, 3/4, 5/6), times 1/3.
  assert.equal(qif.exact.mechanism.utility(u, TG, [[1, 0.5, 0], [0.5, 1, 0.5], [0, 0.5, 1]]), '13/18');
});

test('Table 1 of Alvim et al. (ICALP 2011): optimum 2/7 (uniform prior) and 8/25, certified', () => {
  const K6 = qif.graph.clique(6);
  const r = qif.exact.mechanism.optimal({ graph: K6, expEpsilon: '2' });
  assert.equal(r.utility, '2/7');
  assert.equal(r.certified, true);
  // The certificate proves it: the row-sum prices add up to the optimum (LP duality) ...
  assert.equal(str(r.certificate.rowSums.map(parse).reduce(add, frac(0n))), '2/7');
  // ... and the mechanism is a channel, e^ε-private on every edge, with that utility.
  const H = r.mechanism;
  for (let y = 0; y < 6; y++) assert.equal(str(H.data.slice(6 * y, 6 * y + 6).map(parse).reduce(add, frac(0n))), '1');
  for (let y = 0; y < 6; y++) for (let y2 = 0; y2 < 6; y2++) for (let z = 0; z < 6; z++) {
    const a = parse(H.data[6 * y + z]), b = parse(H.data[6 * y2 + z]);
    assert.ok(a.n * b.d <= 2n * b.n * a.d, `H[${y}][${z}] ≤ 2·H[${y2}][${z}]`);
  }
  assert.equal(qif.exact.mechanism.utility(Array(6).fill('1/6'), H), '2/7');
  for (const p of r.certificate.privacy) {
    assert.equal(p.factor, '2');
    assert.ok(parse(p.price).n >= 0n, 'a gain prices its privacy rows ≥ 0');
  }
  // p(A) = p(F) = 1/10, the others 1/5: by hand, the mechanism that reports only B..E, 2/5 on
  // the truth and 1/5 elsewhere (the two rows of A and F uniform on B..E), reaches 4·(1/5)(2/5)
  // = 8/25; the exact solve certifies that nothing does better.
  const r2 = qif.exact.mechanism.optimal({ graph: K6, expEpsilon: 2, prior: [0.1, 0.2, 0.2, 0.2, 0.2, 0.1] });
  assert.equal(r2.utility, '8/25');
  assert.equal(r2.certified, true);
  const f = qif.mechanism.optimalLP({ graph: K6, epsilon: Math.LN2, prior: [0.1, 0.2, 0.2, 0.2, 0.2, 0.1], forceLP: true });
  close(num(r2.utility), f.utility, 'float optimalLP');
});

test('optimal: a metric with a missing distance, a loss, and the limits', () => {
  // Three points on a line, 0 and 2 unconstrained (Infinity): the pair (0, 2) is not a constraint.
  const D = [[0, 1, Infinity], [1, 0, 1], [Infinity, 1, 0]];
  const r = qif.exact.mechanism.optimal({ metric: D, expEpsilon: 2 });
  assert.equal(r.certified, true);
  const f = qif.mechanism.optimalLP({ metric: [[0, 1, 2], [1, 0, 1], [2, 1, 0]], epsilon: Math.LN2, forceLP: true });
  close(num(r.utility), f.utility, 'same program as the path metric (0–2 through 1)');
  // Minimizing a 0-1 loss is 1 − the maximal binary gain.
  const loss = [[0, 1, 1], [1, 0, 1], [1, 1, 0]];
  const rl = qif.exact.mechanism.optimal({ graph: qif.graph.path(3), expEpsilon: 2, loss });
  const rg = qif.exact.mechanism.optimal({ graph: qif.graph.path(3), expEpsilon: 2 });
  assert.equal(str(add(parse(rl.utility), parse(rg.utility))), '1');
  assert.ok(rl.certificate.privacy.every((p) => parse(p.price).n <= 0n), 'a loss prices its privacy rows ≤ 0');
  assert.throws(() => qif.exact.mechanism.optimal({ graph: qif.graph.path(40), expEpsilon: 2 }),
    /^Error: exact\.mechanism\.optimal: graph, metric: the exact program would have 40×40 = 1600 variables, more than the limit of 1024/);
  assert.throws(() => qif.exact.mechanism.optimal({ metric: [[0, 0.5], [0.5, 0]], expEpsilon: 2 }), /metric: entry \[0\]\[1\]: distance 1\/2: expEpsilon\^d = 2\^\(1\/2\) is not rational/);
  assert.equal(qif.exact.mechanism.optimal({ metric: [[0, 0.5], [0.5, 0]], expEpsilon: 4 }).certified, true, '4^(1/2) = 2 is rational');
  assert.throws(() => qif.exact.mechanism.optimal({ expEpsilon: 2 }), /graph, metric: give exactly one/);
  assert.throws(() => qif.exact.mechanism.optimal({ graph: qif.graph.path(3) }), /expEpsilon: missing \(a required key of options\)/);
  assert.throws(() => qif.exact.mechanism.optimal({ graph: qif.graph.path(3), expEpsilon: 1 }), /expEpsilon: e\^ε must be greater than 1/);
});

test('refine.avg: an exact witness, or a gain with exact vulnerabilities', () => {
  const TG = qif.exact.mechanism.truncatedGeometric(3, 2);
  const RR = qif.exact.mechanism.randomizedResponse(3, 2);
  const B = qif.exact.channel.cascade(TG, RR);
  const yes = qif.exact.refine.avg(TG, B);
  assert.equal(yes.holds, true);
  assert.deepEqual(qif.exact.channel.cascade(TG, yes.witness), B, 'A·R = B exactly');
  const no = qif.exact.refine.avg(B, TG);
  assert.equal(no.holds, false);
  const ce = no.counterexample;
  assert.equal(qif.exact.measure.posteriorGVulnerability(ce.gain, ce.prior, B), ce.vulnerabilityA);
  assert.equal(qif.exact.measure.posteriorGVulnerability(ce.gain, ce.prior, TG), ce.vulnerabilityB);
  const [a, b] = [parse(ce.vulnerabilityA), parse(ce.vulnerabilityB)];
  assert.ok(a.n * b.d < b.n * a.d, 'B leaks strictly more under that gain');
  assert.equal(qif.refine.avg([[0.5, 0.5], [0.5, 0.5]], [[1, 0], [0, 1]]).holds, qif.exact.refine.avg([[0.5, 0.5], [0.5, 0.5]], [[1, 0], [0, 1]]).holds);
  assert.throws(() => qif.exact.refine.avg(randomChannel(4, 30, 1), randomChannel(4, 30, 2)), /A, B: the witness would have 30×30 = 900 entries, more than the limit of 625/);
});

// ---------------------------------------------------------------- against floating point

test('every measure agrees with its floating-point twin to 1e-12 on random rational channels', () => {
  let compared = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const n = 2 + (seed % 5), m = 2 + ((seed * 7) % 6);
    const C = randomChannel(n, m, seed, seed % 3 === 0 ? 30 : 0);
    const prior = randomPrior(n, seed + 100);
    const G = randomChannel(3, n, seed + 200);        // gains in [0, 1]
    const [Cf, pf, Gf] = [toFloat(C), prior.map(num), toFloat(G)];
    const P = randomPrior(m, seed + 300), Q = randomPrior(m, seed + 400);
    const cases = {
      bayesVulnerability: [[prior], [pf]],
      bayesRisk: [[prior], [pf]],
      posteriorBayesVulnerability: [[prior, C], [pf, Cf]],
      posteriorBayesRisk: [[prior, C], [pf, Cf]],
      multiplicativeBayesLeakage: [[prior, C], [pf, Cf]],
      additiveBayesLeakage: [[prior, C], [pf, Cf]],
      maxCasePosteriorBayesVulnerability: [[prior, C], [pf, Cf]],
      gVulnerability: [[G, prior], [Gf, pf]],
      posteriorGVulnerability: [[G, prior, C], [Gf, pf, Cf]],
      multiplicativeGLeakage: [[G, prior, C], [Gf, pf, Cf]],
      additiveGLeakage: [[G, prior, C], [Gf, pf, Cf]],
      lossRisk: [[G, prior], [Gf, pf]],
      posteriorLossRisk: [[G, prior, C], [Gf, pf, Cf]],
      guessingEntropy: [[prior], [pf]],
      posteriorGuessingEntropy: [[prior, C], [pf, Cf]],
      statisticalDistance: [[P, Q], [P.map(num), Q.map(num)]],
      hockeyStick: [[P, Q, '3/2'], [P.map(num), Q.map(num), Math.log(1.5)]],
    };
    for (const [name, [ex, fl]] of Object.entries(cases)) {
      close(num(qif.exact.measure[name](...ex)), qif.measure[name](...fl), `${name} (seed ${seed})`);
      compared++;
    }
    // The capacities: 2^minCapacity, and the ones the float API may not have yet.
    close(num(qif.exact.measure.multiplicativeBayesCapacity(C)), 2 ** qif.measure.minCapacity(Cf), `multiplicativeBayesCapacity (seed ${seed})`);
    for (const name of ['multiplicativeBayesCapacity', 'multiplicativeBayesRiskCapacity']) {
      if (typeof qif.measure[name] === 'function') {
        const e = qif.exact.measure[name](C);
        close(e === 'Infinity' ? Infinity : num(e), qif.measure[name](Cf), `${name} (seed ${seed})`);
      }
    }
    if (typeof qif.measure.additiveGCapacity === 'function') {
      for (const gainClass of ['oneSpanningVulnerability', 'oneSpanningGain']) {
        close(num(qif.exact.measure.additiveGCapacity(prior, C, { gainClass })), qif.measure.additiveGCapacity(pf, Cf, { gainClass }), `additiveGCapacity ${gainClass}`);
      }
    }
  }
  assert.ok(compared >= 200);
});

test('hyper, compositions and mechanisms agree with floating point; posteriors sum to exactly 1', () => {
  const rowsOf = (M) => Array.from({ length: M.rows }, (_, i) => M.data.slice(i * M.cols, (i + 1) * M.cols));
  const sameMatrix = (ex, fl, what) => {
    assert.deepEqual([ex.rows, ex.cols], [fl.rows, fl.cols], what);
    ex.data.forEach((s, k) => close(num(s), fl.data[k], `${what}[${k}]`));
  };
  for (let seed = 1; seed <= 8; seed++) {
    const n = 3 + (seed % 4), m = 3 + (seed % 3);
    const C = randomChannel(n, m, seed, 25);
    const prior = randomPrior(n, seed + 50);
    const h = qif.exact.channel.hyper(prior, C);
    // Exactly: Σ outer = 1, every inner sums to 1, and Σ_k outer[k]·inner[k] = prior.
    assert.equal(str(h.outer.map(parse).reduce(add, frac(0n))), '1');
    const inners = rowsOf(h.inners).map((r) => r.map(parse));
    for (const r of inners) assert.equal(str(r.reduce(add, frac(0n))), '1');
    for (let x = 0; x < n; x++) {
      const back = inners.reduce((s, r, k) => add(s, mul(parse(h.outer[k]), r[x])), frac(0n));
      assert.equal(str(back), prior[x], `Σ outer·inner = prior at ${x}`);
    }
    // Against floating point, rows sorted (the float hyper may order its posteriors otherwise).
    const fh = qif.channel.hyper(prior.map(num), toFloat(C));
    const key = (o, r) => [o, ...r].map((v) => v.toFixed(9)).join(',');
    const ek = rowsOf(h.inners).map((r, k) => key(num(h.outer[k]), r.map(num))).sort();
    const fk = Array.from({ length: fh.inners.rows }, (_, k) => key(fh.outer[k], Array.from(fh.inners.data.slice(k * n, (k + 1) * n)))).sort();
    assert.deepEqual(ek, fk, `hyper (seed ${seed})`);

    const B = randomChannel(m, 4, seed + 7, 25);
    sameMatrix(qif.exact.channel.cascade(C, B), qif.channel.cascade(toFloat(C), toFloat(B)), 'cascade');
    const D = randomChannel(n, 2, seed + 9);
    sameMatrix(qif.exact.channel.parallel(C, D), qif.channel.parallel(toFloat(C), toFloat(D)), 'parallel');
    sameMatrix(qif.exact.channel.reduce(C), qif.channel.reduce(toFloat(C)), 'reduce');
  }
  for (const [n, e, mm] of [[4, '2', 4], [3, '3/2', 5], [6, '5', 6]]) {
    sameMatrix(qif.exact.mechanism.randomizedResponse(n, e, mm), qif.mechanism.randomizedResponse(n, Math.log(num(e)), mm), `randomizedResponse ${n} ${e}`);
    sameMatrix(qif.exact.mechanism.truncatedGeometric(n, e, mm), qif.mechanism.truncatedGeometric(n, Math.log(num(e)), mm), `truncatedGeometric ${n} ${e}`);
    const H = qif.exact.mechanism.truncatedGeometric(n, e, mm);
    const u = randomPrior(n, n);
    close(num(qif.exact.mechanism.utility(u, H)), qif.mechanism.utility(u.map(num), toFloat(rowsOf(H))), 'utility');
  }
});

test('certified optima agree with the floating-point optimalLP', () => {
  for (const [name, g] of [['path 6', qif.graph.path(6)], ['cycle 5', qif.graph.cycle(5)], ['grid 3×3', qif.graph.grid(3, 3)], ['clique 5', qif.graph.clique(5)]]) {
    for (const e of ['2', '3/2']) {
      const prior = randomPrior(g.n, g.n + 1);
      const r = qif.exact.mechanism.optimal({ graph: g, expEpsilon: e, prior });
      assert.equal(r.certified, true);
      const f = qif.mechanism.optimalLP({ graph: g, epsilon: Math.log(num(e)), prior: prior.map(num), forceLP: true });
      assert.ok(Math.abs(num(r.utility) - f.utility) <= 1e-9, `${name}, e^ε = ${e}: exact ${r.utility}, float ${f.utility}`);
    }
  }
});

// ---------------------------------------------------------------- numbers in, errors

test('numbers are read as the decimals they print as; strings, bigints and typed arrays are accepted', () => {
  const m = qif.exact.measure;
  assert.equal(m.bayesVulnerability([0.1, 0.9]), '9/10');
  assert.equal(m.bayesVulnerability(['0.25', '.75']), '3/4');
  assert.equal(m.bayesVulnerability([1n, 0n]), '1');
  assert.equal(m.bayesVulnerability(Float64Array.of(0.5, 0.25, 0.25)), '1/2');
  assert.equal(m.bayesVulnerability(['1e-3', '999/1000']), '999/1000');
  assert.equal(m.posteriorBayesVulnerability(['1/2', '1/2'], { rows: 2, cols: 2, data: ['1', 0, 0.5, '1/2'] }), '3/4');
  // A third typed as a number is 0.3333333333333333, and three of them are not 1.
  assert.throws(() => m.bayesVulnerability([1 / 3, 1 / 3, 1 / 3]), /prior: sums to 9999999999999999\/10000000000000000, expected exactly 1/);
});

test('bad input: clear errors naming the function, the argument and the entry', () => {
  const m = qif.exact.measure;
  const fails = (fn, re) => assert.throws(fn, (e) => e instanceof Error && re.test(e.message), String(re));
  fails(() => m.bayesVulnerability(['1/2', '1/3', '1/12']), /^exact\.measure\.bayesVulnerability: prior: sums to 11\/12, expected exactly 1$/);
  fails(() => m.posteriorBayesVulnerability(['1/2', '1/2'], [[0.5, 0.5], [0.5, '1/3']]), /^exact\.measure\.posteriorBayesVulnerability: channel: row 1 sums to 5\/6, expected exactly 1$/);
  fails(() => m.bayesVulnerability(['1/0', '1']), /^exact\.measure\.bayesVulnerability: prior: entry 0: "1\/0": zero denominator$/);
  fails(() => m.bayesVulnerability(['abc', '1']), /prior: entry 0: "abc": not a number \(expected an integer, a decimal such as 0\.25 or a fraction such as 1\/3\)/);
  fails(() => m.bayesVulnerability(['1,5', '0']), /prior: entry 0: "1,5": not a number \(a comma is not a decimal point/);
  fails(() => m.bayesVulnerability([NaN, 1]), /prior: entry 0 is NaN, expected a finite number or a fraction string/);
  fails(() => m.bayesVulnerability([Infinity, 1]), /prior: entry 0 is Infinity, expected a finite number/);
  fails(() => m.bayesVulnerability([{}, 1]), /prior: entry 0 is object, expected a number or a fraction string/);
  fails(() => m.bayesVulnerability(['-1/2', '3/2']), /prior: entry 0 is negative \(-1\/2\)/);
  fails(() => m.bayesVulnerability([]), /prior: empty distribution/);
  fails(() => m.bayesVulnerability('1/2'), /prior: expected a vector \(array of numbers or fraction strings\), got the string "1\/2"/);
  fails(() => m.bayesVulnerability(), /^exact\.measure\.bayesVulnerability: prior: missing argument 1$/);
  fails(() => m.posteriorBayesVulnerability(['1'], [[1, 0], [1]]), /channel: ragged matrix: row 1 has 1 entries where the first row has 2/);
  fails(() => m.posteriorBayesVulnerability(['1'], []), /channel: empty matrix \(0×0\)/);
  fails(() => m.posteriorBayesVulnerability(['1'], [['1/3', 'x']]), /channel: entry \[0\]\[1\]: "x": not a number/);
  fails(() => m.posteriorBayesVulnerability(['1'], { rows: 1, cols: 2, data: ['1'] }), /channel: data has 1 entries, expected rows×cols = 2/);
  fails(() => m.posteriorBayesVulnerability(['1/2', '1/2'], [[1, 0]]), /prior: has 2 entries but the channel has 1 rows/);
  fails(() => m.gVulnerability([[1, 0]], ['1/3', '1/3', '1/3']), /gain: has 2 columns but there are 3 secrets/);
  fails(() => m.multiplicativeGLeakage([[0, 0]], ['1/2', '1/2'], [[1, 0], [0, 1]]), /gain: prior g-vulnerability is 0/);
  fails(() => m.additiveGCapacity(['1'], [[1]], { gainClass: 'other' }), /gainClass: expected one of 'oneSpanningVulnerability', 'oneSpanningGain', got "other"/);
  fails(() => m.additiveGCapacity(['1'], [[1]], { gainclass: 'other' }), /options: unknown option "gainclass" \(did you mean "gainClass"\?\)/);
  fails(() => m.hockeyStick(['1'], ['1'], '1/2'), /expEpsilon: e\^ε must be a rational ≥ 1/);
  fails(() => qif.exact.mechanism.randomizedResponse(0, 2), /n: expected a positive integer, got 0/);
  fails(() => qif.exact.mechanism.randomizedResponse(3, '2/0'), /expEpsilon: "2\/0": zero denominator/);
  fails(() => qif.exact.mechanism.randomizedResponse(3, 1), /expEpsilon: e\^ε must be greater than 1 \(ε > 0\), got 1/);
  fails(() => qif.exact.mechanism.randomizedResponse(3, NaN), /randomizedResponse: expEpsilon is NaN, expected a finite number or a fraction string/);
  fails(() => qif.exact.mechanism.truncatedGeometric(3, 2, 2), /m: the truncated geometric needs m ≥ n outputs/);
  fails(() => qif.exact.mechanism.utility(['1/2', '1/2'], [[1, 0], [0, '9/10']]), /mechanism: row 1 sums to 9\/10, expected exactly 1/);
  assert.equal(m.bayesVulnerability(['1/4', '3/4']), '3/4', 'still working after the errors');
});

test('limits: sizes beyond exact arithmetic are refused before anything is computed', () => {
  const big = { rows: 1001, cols: 1000, data: new Float64Array(1001 * 1000) };
  assert.throws(() => qif.exact.channel.reduce(big), /^Error: exact\.channel\.reduce: channel: 1001×1000 has more than the limit of 1000000 entries for exact arithmetic$/);
  assert.throws(() => qif.exact.measure.bayesVulnerability(new Float64Array(1_000_001)), /prior: 1000001 entries, more than the limit of 1000000/);
  // 200×200 with 60-digit denominators: the estimated cost is above the limit.
  const digits = '1' + '0'.repeat(60);
  const row = (i) => Array.from({ length: 200 }, (_, j) => (j === 0 ? `${BigInt(digits) - 199n * (BigInt(i) + 1n)}/${digits}` : `${BigInt(i) + 1n}/${digits}`));
  const C = Array.from({ length: 200 }, (_, i) => row(i));
  const prior = Array(200).fill('1/200');
  assert.throws(() => qif.exact.measure.posteriorGVulnerability(C, prior, C), /too large for exact arithmetic .*the limit is 1e\+08\): use the floating-point function/);
  assert.equal(qif.exact.measure.bayesVulnerability(['1/2', '1/2']), '1/2', 'still working');
});

test('cancellation: onProgress returning false throws an AbortError', () => {
  const seen = [];
  const r = qif.exact.mechanism.optimal({ graph: qif.graph.grid(4, 4), expEpsilon: 2, onProgress: (p) => { seen.push(p); } });
  assert.equal(r.utility, '1/4');
  assert.deepEqual(Object.keys(seen[0]).sort(), ['iterations', 'pivots', 'stage']);
  assert.equal(seen[0].stage, 'floating point');
  assert.equal(seen.at(-1).stage, 'exact');
  let calls = 0;
  assert.throws(() => qif.exact.mechanism.optimal({ graph: qif.graph.grid(4, 4), expEpsilon: 2, onProgress: (p) => { calls++; return p.stage !== 'exact'; } }),
    (e) => e.name === 'AbortError' && e.message === 'exact.mechanism.optimal: cancelled');
  assert.equal(seen.at(-1).stage, 'exact');
  assert.ok(calls >= 2);
  assert.throws(() => qif.exact.refine.avg([[1, 0], [0, 1]], [[0.5, 0.5], [0.5, 0.5]], { onProgress: () => false }), (e) => e.name === 'AbortError');
  assert.equal(qif.exact.measure.bayesVulnerability(['1/3', '2/3']), '2/3', 'still working');
});

// ---------------------------------------------------------------- loading on demand

test('lazy loading: load() leaves qif.exact unloaded until qif.exact.load()', async () => {
  const q = await load();
  assert.equal(q.exact.loaded, false);
  assert.ok(Object.isFrozen(q.exact) && Object.isFrozen(q.exact.measure));
  assert.throws(() => q.exact.measure.bayesVulnerability(['1/2', '1/2']),
    (e) => e instanceof Error && e.message === "exact.measure.bayesVulnerability: the exact module (qif-exact.wasm) is not loaded: call `await qif.loadModule('exact')` (or its alias `await qif.exact.load()`) first, or load the toolkit with `load({ exact: true })`");
  assert.equal(q.measure.bayesVulnerability([0.5, 0.5]), 0.5, 'the main module works meanwhile');
  const [a, b] = await Promise.all([q.exact.load(), q.exact.load()]);
  assert.equal(a, q.exact);
  assert.equal(b, q.exact);
  assert.equal(q.exact.loaded, true);
  assert.equal(q.exact.measure.bayesVulnerability(['1/2', '1/3', '1/6']), '1/2');
  assert.equal(await q.exact.load(), q.exact, 'loading again is a no-op');
  assert.notEqual(q.exact, qif.exact, 'each instance has its own exact module');
});

test('a failed load of the exact module rejects, and can be retried', async () => {
  const q = await load({ exactWasmURL: new URL('./no-such-exact.wasm', import.meta.url) });
  await assert.rejects(q.exact.load(), /no-such-exact\.wasm|ENOENT/);
  assert.equal(q.exact.loaded, false);
  await q.exact.load({ wasmURL: new URL('../../web/qif-exact.wasm', import.meta.url) });
  assert.equal(q.exact.measure.bayesRisk(['1/4', '3/4']), '1/4');
  await assert.rejects(load({ exact: true, exactWasmURL: new URL('./no-such-exact.wasm', import.meta.url) }), /no-such-exact\.wasm|ENOENT/);
  // Beside a qif.wasm given by URL.
  const q2 = await load({ wasmURL: new URL('../../web/qif.wasm', import.meta.url), exact: true });
  assert.equal(q2.exact.measure.bayesRisk(['1/4', '3/4']), '1/4');
});

test('the exact module keeps working after errors of every kind', () => {
  const bad = [
    () => qif.exact.measure.bayesVulnerability(['x']),
    () => qif.exact.channel.cascade([[1]], [[1, 0], [0, 1]]),
    () => qif.exact.mechanism.optimal({ graph: { n: 2, edges: [[0, 0]] }, expEpsilon: 2 }),
    () => qif.exact.refine.avg([[2, -1]], [[1]]),
    () => qif.exact.mechanism.truncatedGeometric(1e9, 2),
    () => qif.exact.measure.hockeyStick(['1'], ['1/2', '1/2'], 1),
  ];
  for (const f of bad) assert.throws(f, (e) => e instanceof Error && /^exact\.\w+\.\w+: /.test(e.message) && !/internal error/.test(e.message));
  assert.equal(qif.exact.measure.guessingEntropy(['1/2', '1/4', '1/4']), '7/4');
});

test('a 700×700 rational channel: the Bayes-risk capacity is refused on its size at once, the additive capacity computed', () => {
  // A different prime denominator per row (about 14,700 bits for the common denominator).
  const n = 700, C = [];
  let d = 1000003n;
  const isPrime = (p) => { for (let k = 3n; k * k <= p; k += 2n) if (p % k === 0n) return false; return true; };
  let seed = 7;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const floats = [];
  for (let x = 0; x < n; x++) {
    while (!isPrime(d)) d += 2n;
    let rem = d;
    const row = [], frow = [];
    for (let y = 0; y < n; y++) {
      let a = y === n - 1 ? rem : BigInt(Math.floor(rand() * Number(2n * d / BigInt(n))));
      if (a > rem) a = rem;
      rem -= a;
      row.push(`${a}/${d}`);
      frow.push(Number(a) / Number(d));
    }
    C.push(row);
    floats.push(frow);
    d += 2n;
  }
  const start = Date.now();
  assert.throws(() => qif.exact.measure.multiplicativeBayesRiskCapacity(C), /too large for exact arithmetic/);
  const refused = Date.now() - start;
  const prior = Array(n).fill(`1/${n}`);
  const v = qif.exact.measure.additiveGCapacity(prior, C);
  // 1 − Σ_y min_x C[x][y], in floating point here.
  let want = 1;
  for (let y = 0; y < n; y++) want -= Math.min(...floats.map((r) => r[y]));
  const [num, den] = v.split('/').map(BigInt);
  assert.ok(Math.abs(Number((num * 10n ** 18n) / den) / 1e18 - want) < 1e-12, `${v} vs ${want}`);
  console.log(`# 700×700 rational channel: Bayes-risk capacity refused after ${refused} ms (marshaling included)`);
});

test('a prior written as floats that misses 1 by a rounding gets the hint to write fractions', async () => {
  await qif.exact.load();
  // 1/3 as a number is 0.3333333333333333, read exactly: three of them sum to 1 − 10⁻¹⁶.
  assert.throws(() => qif.exact.measure.bayesVulnerability([1 / 3, 1 / 3, 1 / 3]),
    (e) => e.message.includes('prior: sums to 9999999999999999/10000000000000000, expected exactly 1') && e.message.includes('"1/3"') && e.argument === 'prior');
  assert.equal(qif.exact.measure.bayesVulnerability(['1/3', '1/3', '1/3']), '1/3');
});

test('additiveGCapacity over 1-spanning gain functions: a 700×700 channel of fractions k/Σk is refused up front, naming the arguments and the reason', () => {
  const n = 700;
  let s = 700;
  const r = () => (s = (s * 16807) % 2147483647);
  const C = [];
  for (let i = 0; i < n; i++) {
    const k = Array.from({ length: n }, () => 1 + (r() % 9));
    const z = k.reduce((a, b) => a + b, 0);
    C.push(k.map((v) => `${v}/${z}`));
  }
  const prior = Array(n).fill(`1/${n}`);
  assert.throws(() => qif.exact.measure.additiveGCapacity(prior, C, { gainClass: 'oneSpanningGain' }),
    (e) => e.argument === 'prior, channel' && /too large for exact arithmetic: the joint distribution's common denominator has more than \d+ bits/.test(e.message));
});
