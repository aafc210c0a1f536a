// The conventions the API table enforces for every function, checked over the whole table
// (qif.describe()) so that a function added later is held to them too: unknown option keys, the
// function's name first in every error, thrown from the caller's stack, wrappers with their own
// names, parameters and length, one cancellation outcome, one rule for zero/negative/NaN options.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { API } from '../../web/api.gen.js';
import { TOLERANCE } from '../../web/lib/numbers.js';

let qif;
before(async () => { qif = await load({ exact: true }); });

// The namespace object of "measure" or "exact.measure".
const nsOf = (ns) => ns.split('.').reduce((o, k) => o[k], qif);
const fnOf = (f) => nsOf(f.ns)[f.name];
const q = (f) => `${f.ns}.${f.name}`;

test('describe() returns the table; describe(name | namespace | function) one part of it', () => {
  const all = qif.describe();
  assert.equal(all, API);
  assert.ok(Object.isFrozen(all) && Object.isFrozen(all.functions[0].params), 'the table cannot be changed');
  assert.deepEqual(all.namespaces, ['channel', 'measure', 'metric', 'privacy', 'graph', 'mechanism', 'refine', 'infoPrivacy', 'estimate', 'accounting', 'lp', 'debug',
    'exact.channel', 'exact.measure', 'exact.mechanism', 'exact.refine', 'program']);
  let count = 0;
  // estimate.readSamples is written in JavaScript (the page's reader), not a function of the table.
  const jsOnly = { estimate: ['readSamples'] };
  for (const ns of all.namespaces) count += Object.keys(nsOf(ns)).filter((k) => !(jsOnly[ns] ?? []).includes(k)).length;
  assert.equal(all.functions.length, count, 'one entry per function of the loaded API');
  const cap = qif.describe('measure.shannonCapacity');
  assert.equal(qif.describe(qif.measure.shannonCapacity), cap);
  assert.equal(qif.describe('shannonCapacity'), cap, 'a unique short name');
  assert.equal(cap.long, true);
  assert.match(cap.tex, /\\max/);
  assert.match(cap.source, /^Alvim et al\. \(FOSAD 2011\)/);
  const tol = cap.params[1].fields.find((p) => p.name === 'tolerance');
  assert.deepEqual([tol.kind, tol.default, tol.check], ['number', 1e-6, 'positive']);
  assert.deepEqual(cap.callbacks, [[1, 'onProgress']]);
  assert.deepEqual(cap.result.fields.map((f) => f.name), ['capacity', 'upperBound', 'gap', 'prior', 'iterations', 'converged']);
  assert.deepEqual(qif.describe('lp').map((f) => f.name), ['solve']);
  assert.deepEqual(qif.describe('exact.refine').map((f) => f.name), ['avg']);
  assert.equal(qif.describe(qif.exact.measure.bayesVulnerability).module, 'exact');
  assert.equal(qif.describe('measure.bayesVulnerability').module, undefined);
  assert.ok(qif.describe('exact').every((f) => f.ns.startsWith('exact.')) && qif.describe('exact').length >= 29);
  assert.throws(() => qif.describe('bayesVulnerability'), /it is in measure and exact\.measure/);
  assert.throws(() => qif.describe('epsilonForDelta'), /unknown function "epsilonForDelta"; it is in privacy and infoPrivacy/);
  assert.throws(() => qif.describe('nope'), /^Error: describe: unknown function "nope"/);
  assert.throws(() => qif.describe(() => 1), /describe: expected a name/);
  assert.equal(Object.keys(qif).includes('describe'), false, 'describe is not a namespace');
});

test('wrappers carry the function name, the parameter names and length = required parameters', () => {
  for (const f of API.functions) {
    const fn = fnOf(f);
    assert.equal(fn.name, f.name, q(f));
    const declared = /^function \w+\(([^)]*)\)/.exec(fn.toString())[1].split(',').map((s) => s.trim()).filter(Boolean);
    assert.deepEqual(declared, f.params.map((p) => (p.optional ? `${p.name} = undefined` : p.name)), q(f));
    assert.equal(fn.length, f.params.filter((p) => !p.optional).length, `${q(f)}.length`);
  }
  assert.equal(qif.mechanism.utility.length, 2);
  assert.equal(qif.measure.hockeyStick.length, 3);
});

test('every error starts with the function, is an Error thrown from the caller\'s stack', () => {
  // Called with nothing, every function with a required parameter names the function first.
  for (const f of API.functions) {
    if (f.params.every((p) => p.optional)) continue;
    assert.throws(() => fnOf(f)(), (e) => e instanceof Error && e.message.startsWith(`${q(f)}: `) && / missing /.test(e.message), q(f));
  }
  // The example of the issue: arguments swapped.
  let err;
  try { qif.mechanism.utility([[1, 0], [0, 1]], [0.5, 0.5]); } catch (e) { err = e; }
  assert.match(err.message, /^mechanism\.utility: prior: /);
  assert.match(err.stack, /conventions\.test\.mjs/, 'the caller\'s frame is in the stack');
  // Errors from Go are thrown from qif.js too.
  try { qif.mechanism.utility([0.5, 0.6], [[1, 0], [0, 1]]); } catch (e) { err = e; }
  assert.match(err.message, /^mechanism\.utility: prior: sums to 1\.1/);
  assert.match(err.stack, /conventions\.test\.mjs/);
  assert.equal(qif.measure.shannonEntropy([0.5, 0.5]), 1, 'still working');
});

test('an error about one argument carries it as data: error.argument, error.index, error.detail', () => {
  // Each input below is built with its fault in a known place; the expected fields are written
  // from that construction, and the message must say the same thing in words.
  const caught = (f) => { try { f(); } catch (e) { return e; } assert.fail('did not throw'); };
  const cases = [
    // Found in Go (core validation), crossing the boundary as data.
    [() => qif.channel.validate([[0.5, 0.4], [1, 0]]), 'channel', 0, 'sums to 0.9, expected 1'],
    [() => qif.channel.validate([[1, 0], [-0.5, 1.5]]), 'channel', [1, 0], 'is negative (-0.5)'],
    [() => qif.measure.bayesVulnerability([0.5, 0.3, NaN]), 'prior', 2, 'is NaN, expected a probability'],
    [() => qif.measure.bayesVulnerability([0.5, 0.4]), 'prior', undefined, 'sums to 0.9, expected 1'],
    [() => qif.mechanism.optimalDetail({ n: 3, edges: [[0, 1], [2, 2]] }, 1), 'graph', 1, '(2,2) is a self-loop'],
    [() => qif.mechanism.truncatedGeometric(3, -1), 'epsilon', undefined, undefined],
    [() => qif.exact.measure.bayesVulnerability(['1/2', '1/x']), 'prior', 1, undefined],
    [() => qif.exact.channel.hyper(['1/2', '1/2'], [['1/2', '1/2'], ['1/3', '1/3']]), 'channel', 1, undefined],
    // Found in web/qif.js before the call, from the caller's own value.
    [() => qif.channel.validate([[1, 0], [0.5]]), 'channel', 1, 'has 1 entries where the first row has 2', 'ragged matrix: row 1'],
    [() => qif.channel.validate([[1, 'x']]), 'channel', [0, 1], 'is the string "x", expected a number'],
    [() => qif.channel.validate({ rows: 2, cols: 2, data: [1, 0, 0, '1'] }), 'channel', [1, 1], undefined, 'data: entry 3'],
    [() => qif.measure.bayesVulnerability([0.5, '0.5']), 'prior', 1, undefined],
    [() => qif.exact.measure.bayesVulnerability(['1/2', {}]), 'prior', 1, undefined],
    [() => qif.mechanism.optimalDetail({ n: 3, edges: [[0, 1], [1]] }, 1), 'graph.edges', 1, undefined],
    [() => qif.measure.shannonCapacity([[1, 0], [0, 1]], { tolerence: 1e-3 }), 'options', undefined, undefined],
  ];
  for (const [f, argument, index, detail, written] of cases) {
    const e = caught(f);
    assert.equal(e.argument, argument, `${e.message}: argument`);
    assert.deepEqual(e.index, index, `${e.message}: index`);
    if (detail !== undefined) assert.equal(e.detail, detail, `${e.message}: detail`);
    assert.equal(typeof e.detail, 'string', `${e.message}: detail`);
    // The message says the same: the argument, then the position as the API writes it.
    const at = written ?? (index === undefined ? '' : Array.isArray(index) ? `entry [${index[0]}][${index[1]}]` : null);
    assert.ok(e.message.includes(`${argument}: `), e.message);
    if (at) assert.ok(e.message.includes(`${argument}: ${at}`), e.message);
    if (typeof index === 'number') assert.ok(new RegExp(`${argument}: (ragged matrix: )?(row|entry|edge) ${index}\\b`).test(e.message), e.message);
    assert.ok(e.message.endsWith(e.detail), `${e.message} ends with the detail ${e.detail}`);
  }
  // An error that is about no single argument has none.
  const none = caught(() => qif.describe('measure.nope'));
  assert.equal(none.argument, undefined);
});

test('an unknown option key throws, naming the key and the valid ones', () => {
  let checked = 0;
  for (const f of API.functions) {
    const at = f.params.findIndex((p) => p.kind === 'options');
    if (at < 0) continue;
    const args = new Array(at + 1).fill(undefined);
    args[at] = { bogusKey: 1 };
    const valid = f.params[at].fields.map((p) => p.name).join(', ');
    assert.throws(() => fnOf(f)(...args),
      (e) => e instanceof Error && e.message === `${q(f)}: ${f.params[at].name}: unknown option "bogusKey"; valid options: ${valid}`, q(f));
    checked++;
  }
  assert.ok(checked >= 20, `${checked} functions take options`);
  assert.throws(() => qif.measure.shannonCapacity([[1, 0], [0, 1]], { tolerence: 0.5 }),
    /^Error: measure\.shannonCapacity: options: unknown option "tolerence" \(did you mean "tolerance"\?\); valid options: tolerance, maxIterations, onProgress$/);
  assert.throws(() => qif.measure.shannonCapacity([[1, 0], [0, 1]], [1]), /options: expected an options object, got an array/);
});

test('zero, negative and NaN options are refused by one rule; Infinity means no limit where allowed', () => {
  const C = [[0.9, 0.1], [0.2, 0.8]];
  const P3 = qif.graph.path(3);
  const lp = { sense: 'max', objective: [1, 1], rows: [{ coeffs: [1, 1], op: '<=', rhs: 1 }] };
  const cases = [
    ['measure.shannonCapacity', 'tolerance', (v) => qif.measure.shannonCapacity(C, { tolerance: v })],
    ['measure.shannonCapacity', 'maxIterations', (v) => qif.measure.shannonCapacity(C, { maxIterations: v })],
    ['mechanism.optimalLP', 'timeLimit', (v) => qif.mechanism.optimalLP({ graph: P3, epsilon: 1, timeLimit: v })],
    ['lp.solve', 'timeLimit', (v) => qif.lp.solve(lp, { timeLimit: v })],
    ['lp.solve', 'progressEvery', (v) => qif.lp.solve(lp, { progressEvery: v })],
    ['graph.isVTPlus', 'budgetMs', (v) => qif.graph.isVTPlus(P3, { budgetMs: v })],
    ['privacy.utilityBound', 'budgetMs', (v) => qif.privacy.utilityBound(P3, 1, { budgetMs: v })],
    ['infoPrivacy.dataIndependent', 'tolerance', (v) => qif.infoPrivacy.dataIndependent(C, { tolerance: v })],
    ['infoPrivacy.deltaCurve', 'maxEpsilon', (v) => qif.infoPrivacy.deltaCurve(C, qif.graph.path(2), { maxEpsilon: v })],
    ['infoPrivacy.individualCapacity', 'tolerance', (v) => qif.infoPrivacy.individualCapacity({ domains: [2], channel: C, tolerance: v })],
  ];
  for (const [fn, key, call] of cases) {
    for (const v of [0, -1, NaN]) {
      assert.throws(() => call(v), (e) => e.message.startsWith(`${fn}: ${key}: expected a positive`) && e.message.endsWith(`got ${v}`), `${fn} ${key}: ${v}`);
    }
  }
  // timeLimit: absent or Infinity is no limit, for lp.solve and optimalLP alike.
  assert.equal(qif.lp.solve(lp, { timeLimit: Infinity }).status, 'optimal');
  assert.equal(qif.mechanism.optimalLP({ graph: P3, epsilon: 1, forceLP: true, timeLimit: Infinity }).status, 'optimal');
  assert.throws(() => qif.measure.shannonCapacity(C, { tolerance: Infinity }), /tolerance: expected a positive finite number/);
});

// Inputs on which each long function works long enough to report progress at least once.
function randomChannel(n, m, seed) {
  let s = seed;
  const r = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  const data = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    let z = 0;
    for (let j = 0; j < m; j++) z += (data[i * m + j] = r());
    for (let j = 0; j < m; j++) data[i * m + j] /= z;
  }
  return { rows: n, cols: m, data };
}

const grid = (w, h) => qif.graph.grid(w, h);
const lpOf = (n) => {
  const objective = new Array(n * n).fill(0), rows = [];
  for (let y = 0; y < n; y++) objective[y * n + y] = 1;
  for (let y = 0; y < n; y++) rows.push({ coeffs: [...Array(n).keys()].map((z) => [y * n + z, 1]), op: '=', rhs: 1 });
  for (let y = 0; y < n; y++) for (let y2 = 0; y2 < n; y2++) if (y !== y2)
    for (let z = 0; z < n; z++) rows.push({ coeffs: [[y * n + z, 1], [y2 * n + z, -2]], op: '<=', rhs: 0 });
  return { sense: 'max', objective, rows };
};
const family = { family1: 'truncatedGeometric', family2: 'randomizedResponse', order: 'avg', n: 20 };

// Three distinct Laplace mechanisms need passes of the privacy loss distribution (no closed form).
const LAPLACES = [{ mechanism: 'laplace', scale: 2 }, { mechanism: 'laplace', scale: 3 }, { mechanism: 'laplace', scale: 5, count: 2 }];
const LONG = {
  'accounting.epsilon': (p) => qif.accounting.epsilon(LAPLACES, { delta: 1e-5, tolerance: 1e-6, onProgress: p }),
  'accounting.delta': (p) => qif.accounting.delta(LAPLACES, { epsilon: 1, tolerance: 1e-6, onProgress: p }),
  'accounting.profile': (p) => qif.accounting.profile(LAPLACES, { epsilons: [0.5, 1], tolerance: 1e-6, onProgress: p }),
  'measure.shannonCapacity': (p) => qif.measure.shannonCapacity(randomChannel(30, 30, 1), { tolerance: 1e-12, onProgress: p }),
  'mechanism.optimalLP': (p) => qif.mechanism.optimalLP({ graph: grid(4, 4), epsilon: Math.LN2, forceLP: true, onProgress: p }),
  'lp.solve': (p) => qif.lp.solve(lpOf(12), { progressEvery: 10, onProgress: p }),
  // A with more columns than rows is not of full column rank: avg solves a linear program.
  'refine.avg': (p) => qif.refine.avg(randomChannel(20, 40, 1), randomChannel(20, 30, 2), { onProgress: p }),
  'refine.max': (p) => qif.refine.max(randomChannel(30, 30, 1), randomChannel(30, 30, 2), { onProgress: p }),
  'refine.familyEpsilon': (p) => qif.refine.familyEpsilon({ ...family, epsilon1: 1, onProgress: p }),
  'refine.safeEpsilonCurve': (p) => qif.refine.safeEpsilonCurve({ ...family, epsilons1: [0.5, 1] }, p),
  'infoPrivacy.individualCapacity': (p) => qif.infoPrivacy.individualCapacity({ domains: [4, 4, 4], channel: randomChannel(64, 5, 3), onProgress: p }),
  'infoPrivacy.individualEpsilon': (p) => qif.infoPrivacy.individualEpsilon({ domains: [8, 8, 8, 8, 8], channel: randomChannel(32768, 4, 4), onProgress: p }),
  'infoPrivacy.deltaCurve': (p) => qif.infoPrivacy.deltaCurve(randomChannel(64, 8, 5), qif.graph.clique(64), { onProgress: p }),
  'exact.mechanism.optimal': (p) => qif.exact.mechanism.optimal({ graph: qif.graph.clique(6), expEpsilon: 2, onProgress: p }),
  'estimate.mutualInformation': (p) => qif.estimate.mutualInformation(NUMERIC.secrets, NUMERIC.observations, { onProgress: p }),
  'estimate.minEntropyLeakage': (p) => qif.estimate.minEntropyLeakage(NUMERIC.secrets, NUMERIC.observations, { onProgress: p }),
  'estimate.channel': (p) => qif.estimate.channel(['a', 'b', 'a', 'b'], ['x', 'x', 'y', 'x'], { onProgress: p }),
  'estimate.bayesRisk': (p) => {
    const s = qif.channel.sample([0.5, 0.5], [[0.8, 0.2], [0.3, 0.7]], 5000, { seed: 1 });
    return qif.estimate.bayesRisk(s.secrets, s.observations, { onProgress: p });
  },
  'exact.refine.avg': (p) => qif.exact.refine.avg([[1, 0], [0, 1]], [[0.5, 0.5], [0.5, 0.5]], { onProgress: p }),
  'channel.iterativeBayesianUpdate': (p) => qif.channel.iterativeBayesianUpdate(qif.mechanism.truncatedGeometric(30, 0.1), Array(30).fill(1 / 30),
    { maxDiff: 1e-15, maxIterations: 64, onProgress: p }),
  'refine.additiveMetric': (p) => qif.refine.additiveMetric([0.5, 0.5], [[0.5, 0.5], [0.5, 0.5]], [[1, 0], [0, 1]], { onProgress: p }),
  'program.channel': (p) => qif.program.channel('secret x in 0..200\nc = 0\nfor i in 1..20 { c = c + flip(1/2) }\nobserve (c + x) % 7', { onProgress: p }),
};

// Numeric observations (three secrets, values spread around each), for the estimators that report progress.
const NUMERIC = { secrets: Array.from({ length: 600 }, (_, i) => i % 3), observations: Float64Array.from({ length: 600 }, (_, i) => (i % 3) + ((i * 7919) % 1000) / 500) };

test('every long function takes onProgress, and returning false cancels with one outcome', () => {
  const long = API.functions.filter((f) => f.long).map(q).sort();
  assert.deepEqual(long, Object.keys(LONG).sort(), 'a case below for every function that takes onProgress');
  for (const f of API.functions.filter((g) => g.long)) {
    const name = q(f);
    let calls = 0;
    const done = LONG[name](() => { calls++; });
    assert.ok(calls >= 1 && done !== undefined, `${name} reports progress (${calls} calls)`);
    calls = 0;
    assert.throws(() => LONG[name](() => { calls++; return false; }),
      (e) => e instanceof Error && e.name === 'AbortError' && e.message === `${name}: cancelled`, name);
    assert.equal(calls, 1, `${name}: no report after the one that cancelled`);
    // An exception thrown by onProgress cancels the call and comes back as it was.
    const mine = new RangeError('mine');
    assert.throws(() => LONG[name](() => { throw mine; }), (e) => e === mine, name);
  }
  assert.equal(qif.measure.shannonEntropy([0.25, 0.75]) > 0, true, 'still working');
});

test('a cancelled call carries its partial result where it has one', () => {
  let e;
  try { LONG['measure.shannonCapacity']((it) => it < 5); } catch (x) { e = x; }
  assert.equal(e.partial.iterations, 5);
  assert.ok(e.partial.capacity <= e.partial.upperBound && e.partial.gap === e.partial.upperBound - e.partial.capacity);
  try { LONG['lp.solve'](() => false); } catch (x) { e = x; }
  assert.equal(e.partial.status, 'cancelled');
  try { LONG['refine.safeEpsilonCurve'](() => false); } catch (x) { e = x; }
  assert.equal(e.partial.points.length, 1);
  try { LONG['mechanism.optimalLP'](() => false); } catch (x) { e = x; }
  assert.equal(e.partial, undefined, 'no partial mechanism');
});

test('shannonCapacity: the old option name progress is gone, and an unknown key like any other', () => {
  assert.throws(() => qif.measure.shannonCapacity([[0.6, 0.4], [0.35, 0.65]], { progress: () => {} }),
    (e) => e.argument === 'options' && /unknown option "progress" \(did you mean "onProgress"\?\)/.test(e.message));
  assert.ok(qif.describe().functions.every((f) => f.params.every((p) => (p.fields || []).every((q) => !('alias' in q)))));
});

test('lp.solve progress reports are objects {iteration, objective, infeasibility, phase, bound}', () => {
  const seen = [];
  qif.lp.solve(lpOf(8), { progressEvery: 5, onProgress: (p) => { seen.push(p); } });
  assert.ok(seen.length >= 1);
  assert.deepEqual(Object.keys(seen[0]).sort(), ['bound', 'infeasibility', 'iteration', 'objective', 'phase']);
  // The simplex proves no bound before it ends.
  assert.ok(seen.every((p) => Number.isNaN(p.bound)));
});

// The contracts both sides read come from the Go table (api.gen.js): the page's row-sum tolerance
// must be the one the engine applies, and every kind the table uses must have its wire width
// there when it takes more than one value (a kind missing from widths would be read as one value
// and shift every later argument).
test('the page and the engine share the row-sum tolerance and the wire widths', () => {
  assert.equal(TOLERANCE, API.tolerances.rowSum, 'web/lib/numbers.js TOLERANCE differs from the Go table');
  const multi = new Set(Object.keys(API.widths));
  for (const k of ['matrix', 'graph', 'lpProblem', 'labels', 'samples', 'ratVector', 'ratMatrix', 'ratMetric']) {
    assert.ok(multi.has(k), `${k} has no wire width`);
  }
  // A 3×3 channel whose rows sum to 1 + TOLERANCE/2 is accepted, 1 + 3·TOLERANCE refused, on both sides.
  const ok = [[0.5, 0.5 + TOLERANCE / 2, 0], [0, 1, 0], [0, 0, 1]];
  const bad = [[0.5, 0.5 + 3 * TOLERANCE, 0], [0, 1, 0], [0, 0, 1]];
  assert.doesNotThrow(() => qif.measure.minEntropyLeakage([1 / 3, 1 / 3, 1 / 3], ok));
  assert.throws(() => qif.measure.minEntropyLeakage([1 / 3, 1 / 3, 1 / 3], bad), /row 0/);
});
