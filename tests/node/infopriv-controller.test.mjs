// The "Information privacy" section's controller (web/sections/infopriv/controller.js) without a
// browser: the toolkit loaded in Node stands in for the page's worker (in-process-engine.mjs).
// Expected numbers are closed forms written here for a count over n binary records with
// randomized response on its m = n + 1 answers (a = e^ε / (m − 1 + e^ε) on the true answer, b =
// 1 / (m − 1 + e^ε) elsewhere): the smallest ε is ε itself, the individual channel capacity (Wu,
// "Information-theoretic privacy", 2019) is H(mix) − H(row) for one record varying between two
// neighbouring counts, and δ(ε′) on one changed record is max(0, a − e^ε′ b), so ε for δ is
// ln(e^ε − δ (m − 1 + e^ε)).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { createInfoprivController, PROGRESS_NOW_TUPLES } from '../../web/sections/infopriv/controller.js';
import { inProcessEngine, idle, until } from './in-process-engine.mjs';

let qif;
before(async () => { qif = await load(); });

const timing = { debounceMs: 5, progressAfterMs: 5 };
const log2 = (x) => Math.log(x) / Math.LN2;
const H = (p) => -p.reduce((s, x) => (x > 0 ? s + x * log2(x) : s), 0);
const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
function rrCount(n, eps) {
  const m = n + 1;
  const a = Math.exp(eps) / (m - 1 + Math.exp(eps));
  const b = 1 / (m - 1 + Math.exp(eps));
  const row = [a, ...new Array(m - 1).fill(b)];
  const mix = [(a + b) / 2, (a + b) / 2, ...new Array(m - 2).fill(b)];
  return { m, capacity: H(mix) - H(row) };
}
function controller(options = {}) {
  const { engine, log } = inProcessEngine(qif, options);
  return { ctl: createInfoprivController({ engine, timing, onError: (e) => { throw e; }, afterHeavy: options.afterHeavy }), log };
}

test('infopriv controller: a count over 3 binary records with randomized response, against closed forms', async () => {
  let after = 0;
  const { ctl } = controller({ afterHeavy: async () => { after++; } });
  assert.equal(ctl.getResults(), null);
  for (const eps of [1, 0.7]) {
    const s = await idle(ctl, () => (eps === 1 ? ctl.start() : ctl.setEpsilon(String(eps))));
    assert.equal(s.reading.epsError ?? null, null);
    const r = ctl.getResults();
    const ref = rrCount(3, eps);
    close(r.epsilon.epsilon, eps, 1e-9, 'the smallest ε');
    close(r.capacity.capacity, ref.capacity, 1e-7, 'the individual capacity');
    r.capacity.prior.forEach((p) => close(p, 0.5, 1e-5, 'the capacity-achieving prior'));
    close(r.deltaCurve.pureEpsilon, eps, 1e-9, 'δ = 0 from ε on');
    close(s.heavy.e4d.value, Math.log(Math.exp(eps) - 0.1 * (ref.m - 1 + Math.exp(eps))), 1e-9, 'ε for δ = 0.1');
    assert.equal(r.channel.length, 8, 'one row per tuple of 3 binary records');
  }
  assert.equal(after, 2, 'the Bayesian panel runs after each heavy job');
  // A new δ: ε for it, without building the channel again.
  const s = await idle(ctl, () => ctl.setDelta('0.05'));
  assert.equal(s.e4d.kind, 'done');
  close(s.e4d.value, Math.log(Math.exp(0.7) - 0.05 * (3 + Math.exp(0.7))), 1e-9, 'ε for δ = 0.05');
  const t = await idle(ctl, () => ctl.setDelta('1.5'));
  assert.ok(t.deltaError);
  assert.deepEqual(t.e4d, { kind: 'stale' });
});

test('infopriv controller: records, a custom table, bad input, a state round trip', async () => {
  const { ctl, log } = controller();
  await idle(ctl, () => ctl.start());
  // Two binary records and their AND as a custom table: one record varying decides the answer
  // only when the other is 1.
  let s = await idle(ctl, () => { ctl.setRecords(2); ctl.setQuery('custom'); });
  assert.deepEqual(ctl.model.domains, [2, 2]);
  assert.deepEqual(ctl.model.custom, ['0', '1', '1', '2'], 'the custom table starts from the count');
  s = await idle(ctl, () => { ['0', '0', '0', '1'].forEach((v, k) => ctl.setAnswer(k, v)); ctl.setNoise('none'); });
  assert.equal(ctl.getResults().epsilon.epsilon, Infinity, 'no noise: no finite ε');
  close(ctl.getResults().capacity.capacity, 1, 1e-7, 'one bit about a record, when the other is 1');
  // A custom table is kept only up to its size limit: 6 records of 4 values make the query a count.
  ctl.setValues(0, 4);
  assert.equal(ctl.model.query, 'custom');
  await idle(ctl, () => ctl.setRecords(6));
  assert.equal(ctl.model.query, 'count');
  ctl.cancel();
  // Bad input: named, the rows marked stale, nothing computed.
  const calls = log.length;
  s = await idle(ctl, () => { ctl.setRecords(3); ctl.setNoise('rr'); ctl.setEpsilon('-1'); });
  assert.ok(s.reading.epsError);
  assert.deepEqual(s.rows, { kind: 'stale', reason: 'fix the input on the left' });
  assert.equal(ctl.getResults(), null);
  assert.ok(log.length === calls, 'no engine call for unreadable input');
  // A link round trip.
  const saved = ctl.getState({});
  const other = controller().ctl;
  await idle(other, () => other.setState(JSON.parse(JSON.stringify(saved))));
  assert.deepEqual(other.getState({}), saved);
  assert.equal(other.get().restored, 1);
});

test('infopriv controller: a large query shows its progress at once, and Cancel says so', async () => {
  let hold = true;
  const { ctl } = controller({ intercept: (c, ctx) => {
    if (!hold || c.fn !== 'individualCapacity') return undefined;
    ctx.progress(3, 10);
    return new Promise(() => {});
  } });
  ctl.model.domains = [4, 4, 4, 4, 4];
  assert.ok(4 ** 5 >= PROGRESS_NOW_TUPLES);
  ctl.start();
  await until(ctl, (s) => s.progress && s.progress.done === 3);
  assert.deepEqual(ctl.get().progress, { tuples: 1024, done: 3, total: 10, reports: 1 });
  const s = await idle(ctl, () => ctl.cancel());
  assert.equal(s.progress, 'cancelled');
  assert.deepEqual(s.rows, { kind: 'error', error: 'Cancelled.', cancelled: true });
  hold = false;
  ctl.model.domains = [2, 2];
  const t = await idle(ctl, () => ctl.compute());
  assert.equal(t.progress, null);
  assert.ok(ctl.getResults());
});
