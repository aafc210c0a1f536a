// The presets of <qif-refinement> (web/lib/refinement-presets.js): each pair is a pair of channels
// on the same secrets, its labels fit, and the verdicts it claims are checked here in plain JS —
// a witness R written out in this file with A·R = B, posteriors compared as sets, induced
// metrics compared pointwise — and, where an order fails, the API's counterexample recomputed by
// brute force. Also the fractions the widget shows (lib/fraction-guess.js) and its one-message
// errors (lib/row-names.js onceEach).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { refinementPresets, refinementPresetById } from '../../web/lib/refinement-presets.js';
import { guessFraction } from '../../web/lib/fraction-guess.js';
import { onceEach } from '../../web/lib/row-names.js';
import { postG, inducedMetric } from '../browser/reference.mjs';

let qif;
before(async () => { qif = await load(); });

const num = (t) => {
  const [p, q = '1'] = t.split('/');
  return Number(p) / Number(q);
};
const numeric = (m) => m.map((r) => r.map(num));
const rows = (m) => (Array.isArray(m) ? m : Array.from({ length: m.rows }, (_, i) => Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols))));
const mul = (A, R) => A.map((r) => R[0].map((_, z) => r.reduce((s, a, y) => s + a * R[y][z], 0)));
const close = (a, b, tol = 1e-12) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));

// The posteriors under the uniform prior of the non-zero columns, as strings of exact-ish values.
function posteriors(C) {
  const out = new Set();
  for (let y = 0; y < C[0].length; y++) {
    const col = C.map((r) => r[y]);
    const s = col.reduce((a, b) => a + b, 0);
    if (s > 0) out.add(col.map((v) => (v / s).toFixed(9)).join(','));
  }
  return out;
}
const prvHolds = (A, B) => {
  const dA = inducedMetric(A);
  const dB = inducedMetric(B);
  return dA.every((r, i) => r.every((v, j) => v >= dB[i][j] * (1 - 1e-9)));
};

// Witnesses written out here, for the pairs that claim A ⊑avg B.
const WITNESSES = {
  // The timing forgotten: every failure to Fail, OK to OK.
  'password-timing': [[1, 0], [1, 0], [1, 0], [0, 1]],
  // Randomized response at ln 4 applied to itself: (2/3)² + 2(1/6)² = 1/2, 2·(2/3)(1/6) + (1/6)² = 1/4.
  'randomized-response': [[2 / 3, 1 / 6, 1 / 6], [1 / 6, 2 / 3, 1 / 6], [1 / 6, 1 / 6, 2 / 3]],
};

test('every preset: two channels on the same secrets, with labels that fit and a cited source', () => {
  const ids = new Set();
  for (const p of refinementPresets) {
    assert.ok(!ids.has(p.id), `${p.id} unique`);
    ids.add(p.id);
    assert.equal(refinementPresetById(p.id), p);
    const A = numeric(p.A.matrix);
    const B = numeric(p.B.matrix);
    assert.equal(A.length, p.secrets.length, `${p.id}: A's rows`);
    assert.equal(B.length, p.secrets.length, `${p.id}: B's rows`);
    assert.equal(A[0].length, p.A.labels.length, `${p.id}: A's labels`);
    assert.equal(B[0].length, p.B.labels.length, `${p.id}: B's labels`);
    for (const C of [A, B]) C.forEach((r) => assert.ok(r.every((v) => v >= 0) && close(r.reduce((a, b) => a + b, 0), 1), `${p.id}: rows are distributions`));
    assert.match(p.cite, /“.+”.*(19|20)\d\d/, `${p.id}: authors, title and year`);
  }
  assert.equal(refinementPresetById('nope'), null);
  // The literature's pair: the checker of Alvim et al. (FOSAD 2011) with and without timing, run
  // here on every 3-bit guess with the password 110.
  const p = refinementPresetById('password-timing');
  const guesses = ['000', '001', '010', '011', '100', '101', '110', '111'];
  const stop = (g) => [0, 1, 2].find((i) => g[i] !== '110'[i]);
  assert.deepEqual(p.secrets, guesses);
  assert.deepEqual(numeric(p.A.matrix), guesses.map((g) => [0, 1, 2, 3].map((k) => (k === (stop(g) ?? 3) ? 1 : 0))));
  assert.deepEqual(numeric(p.B.matrix), guesses.map((g) => [stop(g) === undefined ? 0 : 1, stop(g) === undefined ? 1 : 0]));
  assert.deepEqual(refinementPresetById('password-timing-reversed').A.matrix, p.B.matrix);
  assert.deepEqual(refinementPresetById('password-timing-reversed').B.matrix, p.A.matrix);
});

test('every preset: the verdicts it claims, checked in plain JS and against the API', () => {
  let refines = 0;
  let counter = 0;
  for (const p of refinementPresets) {
    const A = numeric(p.A.matrix);
    const B = numeric(p.B.matrix);
    // ⊑avg: a witness written here, or a counterexample of the API recomputed here.
    const avg = qif.refine.avg(A, B);
    assert.equal(avg.holds, p.verdicts.avg, `${p.id}: avg`);
    if (p.verdicts.avg) {
      refines++;
      const R = WITNESSES[p.id];
      assert.ok(R, `${p.id}: a witness written in this test`);
      mul(A, R).forEach((r, x) => r.forEach((v, z) => assert.ok(close(v, B[x][z]), `${p.id}: (A·R)(${x}, ${z})`)));
    } else {
      counter++;
      const c = avg.counterexample;
      const G = rows(c.gain);
      const prior = Array.from(c.prior);
      assert.ok(close(postG(G, prior, A), c.vulnerabilityA, 1e-9) && close(postG(G, prior, B), c.vulnerabilityB, 1e-9), `${p.id}: V_g recomputed`);
      assert.ok(postG(G, prior, B) > postG(G, prior, A) + 1e-9, `${p.id}: B more vulnerable`);
    }
    // ⊑max: the same posteriors (a sufficient condition) or, for the pairs that claim it fails,
    // a posterior of B away from A's hull (the API's, checked to be one of B's posteriors).
    const max = qif.refine.max(A, B);
    assert.equal(max.holds, p.verdicts.max, `${p.id}: max`);
    if (p.verdicts.max && !p.verdicts.avg) assert.deepEqual(posteriors(B), posteriors(A), `${p.id}: the same posteriors`);
    if (!p.verdicts.max) {
      const post = Array.from(max.counterexample.posterior).map((v) => v.toFixed(9)).join(',');
      assert.ok(posteriors(B).has(post) && max.counterexample.distance > 1e-3, `${p.id}: a posterior of B outside A's hull`);
    }
    // ⊑prv: the induced metrics compared here.
    assert.equal(prvHolds(A, B), p.verdicts.prv, `${p.id}: prv in JS`);
    assert.equal(qif.refine.prv(A, B).holds, p.verdicts.prv, `${p.id}: prv`);
  }
  assert.ok(refines >= 2 && counter >= 2, 'pairs that refine and pairs that do not');
});

test('guessFraction: the small fraction within 1e-9, else null', () => {
  assert.equal(guessFraction(5 / 6), '5/6');
  assert.equal(guessFraction(0.8333333333333334), '5/6');
  assert.equal(guessFraction(-0.25), '−1/4');
  assert.equal(guessFraction(3), '3');
  assert.equal(guessFraction(0), '0');
  assert.equal(guessFraction(1e-17), '0');
  assert.equal(guessFraction(0.1 + 0.2), '3/10');
  assert.equal(guessFraction(19 / 12), '19/12');
  assert.equal(guessFraction(1 / 999), '1/999');
  assert.equal(guessFraction(1 / 1001), null, 'denominator above 1000');
  assert.equal(guessFraction(Math.PI), null);
  assert.equal(guessFraction(0.123456), null);
  assert.equal(guessFraction(5 / 6 + 1e-6), null, 'not within 1e-9');
  assert.equal(guessFraction(NaN), null);
  assert.equal(guessFraction(Infinity), null);
});

test('onceEach: one message for one input refused by several functions', () => {
  const e = (fn) => ({ ok: false, fn, error: `${fn}: channel: row 0 sums to 0.9, expected 1`, argument: 'channel', index: 0, detail: 'sums to 0.9, expected 1' });
  const labels = { channel: { rows: ['alice', 'bob'], cols: ['y1', 'y2'] } };
  assert.equal(onceEach([e('measure.mutualInformation'), e('measure.minEntropyLeakage')], labels), 'channel: row “alice” (row 1) sums to 0.9, expected 1');
  assert.equal(onceEach([e('measure.mutualInformation'), { ok: false, error: 'something else' }], labels), 'channel: row “alice” (row 1) sums to 0.9, expected 1 · something else');
  assert.equal(onceEach([], labels), '');
});
