// The exact mode through the JS API against its floating-point twins, measured in the same run:
//  (1) the measures on n×n rational channels (n = 10, 50, 200; entries k/Σk with k in 1..9, the
//      fractions a user types), exact (fraction strings in, fractions out) vs float (the same
//      numbers as a Float64Array);
//  (2) certified optimal mechanisms, exact.mechanism.optimal (the floating-point solve, the exact
//      re-solve of its basis and any exact pivots) vs the floating-point mechanism.optimalLP with
//      forceLP, e^ε = 2: Table 1 of Alvim et al. (ICALP 2011) with its two priors, path 10,
//      clique 10, grid 4×4;
//  (3) an integer metric with e^ε = 1000 on 8 and 16 answers, and the additive g-capacity of a
//      700×700 channel, exact vs float.
//   scripts/build.sh && node bench/node/exact.bench.mjs [rounds]
// Each number is the fastest of the rounds (interleaved exact / float), which is what a busy
// machine distorts least. Calls the exact mode refuses as too large say so instead of a time.
import { load } from '../../web/qif.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const qif = await load({ exact: true });

function randomChannel(rows, cols, seed) {
  let s = seed;
  const r = () => (s = (s * 16807) % 2147483647);
  const text = [], data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const k = Array.from({ length: cols }, () => 1 + (r() % 9));
    const z = k.reduce((a, b) => a + b, 0);
    text.push(k.map((v) => `${v}/${z}`));
    k.forEach((v, j) => { data[i * cols + j] = v / z; });
  }
  return { text, float: { rows, cols, data } };
}
const uniformPrior = (n) => ({ text: Array(n).fill(`1/${n}`), float: new Float64Array(n).fill(1 / n) });

// Milliseconds of one call of f (the mean of enough calls to last ~50 ms, at least one).
function timeOf(f) {
  let reps = 0;
  const t0 = performance.now();
  let t = t0;
  do { f(); reps++; t = performance.now(); } while (t - t0 < 50 && reps < 1000);
  return (t - t0) / reps;
}

const MEASURES = [
  ['posteriorBayesVulnerability', (p, C) => [p, C]],
  ['multiplicativeBayesLeakage', (p, C) => [p, C]],
  ['maxCasePosteriorBayesVulnerability', (p, C) => [p, C]],
  ['posteriorGVulnerability', (p, C) => [C, p, C]],   // the channel as a gain too: guesses = outputs
  ['additiveGLeakage', (p, C) => [C, p, C]],
  ['posteriorLossRisk', (p, C) => [C, p, C]],
  ['posteriorGuessingEntropy', (p, C) => [p, C]],
  ['guessingEntropy', (p) => [p]],
];

const rows = [];
for (const n of [10, 50, 200]) {
  const ch = randomChannel(n, n, n);
  const prior = uniformPrior(n);
  const cases = MEASURES.map(([name, args]) => ({
    what: `measure.${name}`, exact: () => qif.exact.measure[name](...args(prior.text, ch.text)), float: () => qif.measure[name](...args(prior.float, ch.float)),
  }));
  cases.push({ what: 'channel.hyper', exact: () => qif.exact.channel.hyper(prior.text, ch.text), float: () => qif.channel.hyper(prior.float, ch.float) });
  cases.push({ what: 'channel.cascade', exact: () => qif.exact.channel.cascade(ch.text, ch.text), float: () => qif.channel.cascade(ch.float, ch.float) });
  for (const c of cases) {
    let refused = null;
    try { c.exact(); } catch (e) { refused = e.message; }
    let exact = Infinity, float = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      if (!refused) exact = Math.min(exact, timeOf(c.exact));
      float = Math.min(float, timeOf(c.float));
    }
    rows.push({
      what: c.what, size: `${n}×${n}`, 'exact ms': refused ? 'refused' : +exact.toPrecision(3), 'float ms': +float.toPrecision(3),
      'exact/float': refused ? (/too large/.test(refused) ? 'too large' : refused.slice(0, 40)) : +(exact / float).toPrecision(3),
    });
  }
}
console.log(`Measures, exact vs float through the JS API (Node ${process.versions.node}, fastest of ${ROUNDS} rounds)`);
console.table(rows);

const K6 = qif.graph.clique(6);
const certify = [
  ['Table 1, uniform prior', { graph: K6 }],
  ['Table 1, prior 1/10, 1/5 ×4, 1/10', { graph: K6, prior: ['1/10', '1/5', '1/5', '1/5', '1/5', '1/10'] }],
  ['path 10', { graph: qif.graph.path(10) }],
  ['clique 10', { graph: qif.graph.clique(10) }],
  ['grid 4×4', { graph: qif.graph.grid(4, 4) }],
];
const lp = [];
for (const [what, spec] of certify) {
  let exact = Infinity, float = Infinity, r;
  const prior = spec.prior ? spec.prior.map((s) => { const [a, b] = s.split('/'); return a / b; }) : undefined;
  for (let round = -1; round < ROUNDS; round++) { // round −1 warms the compiled code up, untimed
    let t = performance.now();
    r = qif.exact.mechanism.optimal({ ...spec, expEpsilon: 2 });
    if (round >= 0) exact = Math.min(exact, performance.now() - t);
    t = performance.now();
    qif.mechanism.optimalLP({ graph: spec.graph, epsilon: Math.LN2, prior, forceLP: true });
    if (round >= 0) float = Math.min(float, performance.now() - t);
  }
  lp.push({
    what, optimum: r.utility, certified: r.certified, 'LP size': `${r.variables}×${r.constraints}`, 'float iterations': r.floatIterations,
    'exact pivots': r.pivots, 'exact ms': +exact.toPrecision(3), 'float optimalLP ms': +float.toPrecision(3), 'exact/float': +(exact / float).toPrecision(3),
  });
}
console.log(`Certified optimal mechanisms, e^ε = 2 (fastest of ${ROUNDS} rounds)`);
console.table(lp);

// (3) Large factors: the integer metric |i − j| on n answers with e^ε = 1000 (factors up to
// 1000^(n−1)), exact vs the floating-point optimalLP on the same metric; and the additive
// g-capacity of a 700×700 channel of dyadic entries (exact in binary, so the same numbers go to
// both), exact vs float. Fewer rounds: each exact call takes up to seconds.
const big = [];
const fastest = (f, rounds) => { let best = Infinity, r; for (let k = 0; k < rounds; k++) { const t = performance.now(); r = f(); best = Math.min(best, performance.now() - t); } return [best, r]; };
for (const n of [8, 16]) {
  const metric = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Math.abs(i - j)));
  const [exact, r] = fastest(() => qif.exact.mechanism.optimal({ metric, expEpsilon: 1000 }), 3);
  const [float] = fastest(() => qif.mechanism.optimalLP({ metric, epsilon: Math.log(1000), forceLP: true }), 3);
  big.push({ what: `metric |i−j|, ${n} answers, e^ε = 1000`, 'exact pivots': r.pivots, 'exact ms': +exact.toPrecision(3), 'float ms': +float.toPrecision(3), 'exact/float': +(exact / float).toPrecision(3) });
}
{
  const n = 700;
  let s = 12345;
  const rnd = () => (s = (s * 16807) % 2147483647);
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let u = 0; u < 1024; u++) data[i * n + (rnd() % n)] += 1 / 1024;
  const C = { rows: n, cols: n, data };
  const prior = uniformPrior(n);
  for (const gainClass of ['oneSpanningVulnerability', 'oneSpanningGain']) {
    const [exact] = fastest(() => qif.exact.measure.additiveGCapacity(prior.text, C, { gainClass }), 2);
    const [float] = fastest(() => qif.measure.additiveGCapacity(prior.float, C, { gainClass }), 2);
    big.push({ what: `additiveGCapacity ${gainClass}, 700×700`, 'exact ms': +exact.toPrecision(3), 'float ms': +float.toPrecision(3), 'exact/float': +(exact / float).toPrecision(3) });
  }
}
console.log('Large factors and large channels (fastest of 3 and 2 rounds)');
console.table(big);
process.exit(0);
