// String labels cross into the module coded by first appearance (web/qif.js), their strings sent
// only when the module needs them. Every estimate on strings must equal the estimate on integer
// codes that this file assigns itself, each string its rank in code-point order (the order the
// results name rows and columns by) — unicode beyond the BMP, strings that read as numbers and the
// empty string among them — and the errors (mixed types, U+0000, mostly distinct observations)
// must read as they did. Also: estimate.channel's onProgress and its cancellation.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { rng } from './seeded-random.mjs';

let qif;
before(async () => { qif = await load(); });

// Code-point order (that of UTF-8 bytes), which JS's default sort (UTF-16 units) is not.
const byCodePoint = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

// The strings of xs as Int32 ranks in code-point order, and the sorted distinct strings.
function ranks(xs) {
  const names = [...new Set(xs)].sort(byCodePoint);
  const rank = new Map(names.map((s, i) => [s, i]));
  return { codes: Int32Array.from(xs, (x) => rank.get(x)), names };
}


const SECRETS = ['', 'é', '😀', '\uffff', 'Ω', 'b'];
const OBSERVATIONS = ['', '0', '-0', '1', '01', '1.0', '1e3', ' 1', 'NaN', 'é', 'e\u0301', '😀', '\uffff', '\ud7ff', 'x, y', '"q"', 'line\nbreak'];

// n samples whose observation depends on the secret (so that something leaks).
function sample(n, seed) {
  const r = rng(seed), secrets = [], obs = [];
  for (let i = 0; i < n; i++) {
    const x = Math.floor(r() * SECRETS.length);
    secrets.push(SECRETS[x]);
    obs.push(OBSERVATIONS[r() < 0.6 ? (3 * x) % OBSERVATIONS.length : Math.floor(r() * OBSERVATIONS.length)]);
  }
  return { secrets, obs };
}

// Compares two results field by field: typed arrays by their entries, NaN equal to NaN.
function same(a, b, what) {
  assert.deepEqual(Object.keys(a).sort(), Object.keys(b).sort(), what);
  for (const k of Object.keys(a)) {
    const x = a[k], y = b[k];
    if (ArrayBuffer.isView(x)) assert.deepEqual([...x], [...y], `${what}: ${k}`);
    else if (x && typeof x === 'object' && !Array.isArray(x)) same(x, y, `${what}: ${k}`);
    else assert.deepEqual(x, y, `${what}: ${k}`);
  }
}

test('strings give the estimates of their code-point ranks: repeated labels, unicode, labels that look like numbers, the empty string', () => {
  const { secrets, obs } = sample(3000, 1);
  const s = ranks(secrets), o = ranks(obs);
  const ch = qif.estimate.channel(secrets, obs);
  const chCodes = qif.estimate.channel(s.codes, o.codes);
  assert.deepEqual(ch.secrets, s.names);
  assert.deepEqual(ch.observations, o.names);
  assert.equal(ch.kind, 'labels', 'strings that read as numbers are still labels');
  assert.ok(ch.observations.indexOf('\uffff') < ch.observations.indexOf('😀'), 'U+FFFF before U+1F600 (code points, not UTF-16 units)');
  assert.ok(ch.observations.includes('') && ch.secrets.includes(''), 'the empty string is a label');
  for (const k of ['channel', 'counts']) same(ch[k], chCodes[k], k);
  assert.deepEqual([...ch.prior], [...chCodes.prior]);
  // Counts against a plain tally of the pairs.
  const tally = new Map();
  secrets.forEach((x, i) => { const k = `${x}\u0000${obs[i]}`; tally.set(k, (tally.get(k) ?? 0) + 1); });
  for (let i = 0; i < s.names.length; i++) {
    for (let j = 0; j < o.names.length; j++) {
      assert.equal(ch.counts.data[i * o.names.length + j], tally.get(`${s.names[i]}\u0000${o.names[j]}`) ?? 0, `count ${i}, ${j}`);
    }
  }
  const opts = { seed: 3, shuffles: 20 };
  same(qif.estimate.mutualInformation(secrets, obs, opts), qif.estimate.mutualInformation(s.codes, o.codes, opts), 'mutualInformation');
  same(qif.estimate.minEntropyLeakage(secrets, obs, { seed: 3 }), qif.estimate.minEntropyLeakage(s.codes, o.codes, { seed: 3 }), 'minEntropyLeakage');
  for (const method of ['frequentist', 'nn', 'knn']) {
    same(qif.estimate.bayesRisk(secrets, obs, { method, seed: 3 }), qif.estimate.bayesRisk(s.codes, o.codes, { method, seed: 3 }), `bayesRisk ${method}`);
  }
});

test('distinct string labels, as many as are accepted (at most 10, whatever n), and the mixed columns: strings against numbers', () => {
  // Ten distinct observations of ten samples: more than n/5, so their names are fetched only
  // when the channel is built — the path a refusal takes, but accepted.
  const secrets = ['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b'];
  const obs = ['j', 'i', 'h', 'g', '😀', 'e', '', 'c', '10', '9'];
  const ch = qif.estimate.channel(secrets, obs);
  assert.deepEqual(ch.observations, ['', '10', '9', 'c', 'e', 'g', 'h', 'i', 'j', '😀']);
  same(ch.counts, qif.estimate.channel(ranks(secrets).codes, ranks(obs).codes).counts, 'counts');
  // Number secrets with string observations, and string secrets with number observations.
  const nums = [1, 2, 1, 2, 1, 2, 1, 2, 1, 2];
  same(qif.estimate.channel(nums, obs).counts, ch.counts, 'number secrets');
  const r = qif.estimate.channel(secrets, [5, 5, 6, 6, 5, 5, 6, 6, 5, 5]);
  assert.deepEqual(r.observations, ['5', '6']);
  assert.deepEqual(r.secrets, ['a', 'b']);
});

test('hashes that collide give the same estimates', () => {
  // 30 strings whose FNV-1a hashes land on one slot of the coder's table (1,024 slots for 300
  // labels): every look-up walks past the others, until the coder gives way to a Map.
  const fnv = (s) => { let h = 0x811c9dc5; for (let j = 0; j < s.length; j++) h = Math.imul(h ^ s.charCodeAt(j), 0x01000193); return (h ^ (h >>> 15)) & 1023; };
  const colliding = [];
  for (let i = 0; colliding.length < 30; i++) if (fnv(`c${i}`) === 7) colliding.push(`c${i}`);
  const r = rng(5), secrets = [], obs = [];
  for (let i = 0; i < 300; i++) {
    const x = Math.floor(3 * r());
    secrets.push(`s${x}`);
    obs.push(colliding[(x * 10 + Math.floor(10 * r())) % 30]);
  }
  const o = ranks(obs);
  const ch = qif.estimate.channel(secrets, obs);
  assert.deepEqual(ch.observations, o.names);
  same(ch.counts, qif.estimate.channel(ranks(secrets).codes, o.codes).counts, 'counts');
});

test('mixed types, U+0000 and non-labels are refused as before, at the first entry at fault', () => {
  const refuses = (f, message, index) => assert.throws(f, (e) => {
    assert.equal(e.message, message);
    assert.equal(e.argument, message.includes(': secrets: ') ? 'secrets' : 'observations');
    assert.equal(e.index, index);
    return true;
  });
  const s4 = ['a', 'b', 'a', 'b'];
  refuses(() => qif.estimate.channel(s4, ['x', 'y', 1, 'z']), 'estimate.channel: observations: entry 2 is a number but entry 0 is not: labels are all numbers or all strings', 2);
  refuses(() => qif.estimate.channel(s4, [1, 2, 'x', 3]), 'estimate.channel: observations: entry 2 is a string but entry 0 is not: labels are all numbers or all strings', 2);
  refuses(() => qif.estimate.mutualInformation(s4, ['x', 'y', null, 'z']), 'estimate.mutualInformation: observations: entry 2 is null, expected a number or a string', 2);
  refuses(() => qif.estimate.minEntropyLeakage(['a', 'b', 'a', true], ['x', 'y', 'x', 'y']), 'estimate.minEntropyLeakage: secrets: entry 3 is boolean, expected a number or a string', 3);
  // U+0000: the first entry holding it, also when the same string comes again, and only when no
  // earlier entry is at fault otherwise.
  refuses(() => qif.estimate.channel(s4, ['x', 'y\u0000', 'y\u0000', 'z']), 'estimate.channel: observations: entry 1 contains the character U+0000, which labels may not', 1);
  refuses(() => qif.estimate.channel(s4, ['x', {}, 'y\u0000', 'z']), 'estimate.channel: observations: entry 1 is object, expected a number or a string', 1);
  refuses(() => qif.estimate.bayesRisk(['\u0000', 'b', 'a', 'b'], ['x', 'y', 'x', 'y']), 'estimate.bayesRisk: secrets: entry 0 contains the character U+0000, which labels may not', 0);
  assert.throws(() => qif.estimate.channel(['a', 'a', 'a'], ['x', 'y', 'z']), (e) => e.message === 'estimate.channel: secrets: fewer than two distinct secrets (all are "a"): nothing can leak');
  assert.throws(() => qif.estimate.channel(['a', 'b'], ['x', 'y', 'z']), (e) => e.message === 'estimate.channel: observations: 3 observations for 2 secrets (one per sample expected)');
  assert.throws(() => qif.estimate.mutualInformation(['a', 'b', 'a'], ['x', 'y', 'x'], { kind: 'numbers' }),
    (e) => e.message === "estimate.mutualInformation: observations: kind 'numbers' asked, but the observations are strings (labels); give numbers, or kind 'labels'");
  assert.equal(qif.estimate.channel(['a', 'b'], ['x', 'y']).kind, 'labels', 'the instance keeps working');
});

test('10⁵ distinct string observations are refused by every label estimator, with the count and a way out', () => {
  const n = 100_000, secrets = [], obs = [];
  for (let i = 0; i < n; i++) { secrets.push(`k${i % 4}`); obs.push(`t${i}`); }
  const tail = 'such counts cannot tell a leak from none; read them as numbers (kind: \'numbers\', the nearest-neighbour estimators) or group them (bins: \'fd\' or a number of bins)';
  for (const [f, what] of [['channel', 'the frequentist channel'], ['mutualInformation', 'the plug-in estimate and its tests'], ['minEntropyLeakage', 'the plug-in estimate']]) {
    assert.throws(() => qif.estimate[f](secrets, obs), (e) => {
      assert.equal(e.message, `estimate.${f}: observations: 100,000 of the 100,000 observations are distinct (more than n/5), too many for ${what}, which counts them as labels: ${tail}`);
      assert.equal(e.argument, 'observations');
      return true;
    }, f);
  }
  // bayesRisk does not refuse them: the frequentist rule never sees a test observation again.
  const r = qif.estimate.bayesRisk(secrets, obs, { method: 'frequentist', seed: 1 });
  assert.equal(r.kind, 'labels');
  assert.ok(Math.abs(r.value - 0.75) < 0.02, `guessing the most frequent secret errs 3/4 of the time (${r.value})`);
  assert.equal(r.lower, 0, 'observations that never repeat bound nothing from below');
});

test('estimate.channel reports its steps through onProgress, and returning false at any of them cancels', () => {
  const { secrets, obs } = sample(500, 2);
  const seen = [];
  const r = qif.estimate.channel(secrets, obs, { onProgress: (done, total) => { seen.push([done, total]); } });
  assert.deepEqual(seen, [[0, 4], [1, 4], [2, 4], [3, 4], [4, 4]]);
  same(r, qif.estimate.channel(secrets, obs), 'the same result with onProgress');
  for (let stop = 0; stop <= 4; stop++) {
    let calls = 0;
    assert.throws(() => qif.estimate.channel(secrets, obs, { onProgress: (done) => { calls++; return done !== stop; } }),
      (e) => e.name === 'AbortError' && e.message === 'estimate.channel: cancelled', `stopped at ${stop}`);
    assert.equal(calls, stop + 1, 'no report after the one that cancelled');
  }
  // A refusal comes after the first report, before any other.
  const many = Array.from({ length: 1000 }, (_, i) => `t${i}`), two = many.map((_, i) => i % 2);
  seen.length = 0;
  assert.throws(() => qif.estimate.channel(two, many, { onProgress: (d, t) => { seen.push([d, t]); } }), /1,000 of the 1,000 observations are distinct/);
  assert.deepEqual(seen, [[0, 4]]);
});
