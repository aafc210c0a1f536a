// The "Composition" section's controller (web/sections/composition/controller.js) without a
// browser: the toolkit loaded in Node stands in for the page's worker (in-process-engine.mjs).
// Expected numbers come from closed forms written here: k Gaussian mechanisms of noise σ compose
// to μ-Gaussian DP with μ = √k/σ, whose privacy curve is δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)
// (Dong, Roth, Su, "Gaussian differential privacy", 2022); the naive bound of k ε₀-DP mechanisms
// is kε₀. Progress and Cancel are driven by holding the engine's call.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { createCompositionController, CHANNEL_COUNT } from '../../web/sections/composition/controller.js';
import { inProcessEngine, idle, until } from './in-process-engine.mjs';

let qif;
before(async () => { qif = await load(); });

const timing = { debounceMs: 5, progressAfterMs: 5 };
// Φ by the complementary error function's continued fraction (x < 0) and its series (|x| small):
// accurate to ~1e-14 here, far below the tolerances used.
function erfc(x) {
  if (x < 0) return 2 - erfc(-x);
  if (x < 2) {
    let sum = x;
    let term = x;
    for (let n = 1; n < 200; n++) { term *= (-x * x) / n; sum += term / (2 * n + 1); }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  let f = 0;
  for (let n = 60; n >= 1; n--) f = n / 2 / (x + f);
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / (x + f);
}
const Phi = (x) => 0.5 * erfc(-x / Math.SQRT2);
const gdpDelta = (eps, mu) => Phi(-eps / mu + mu / 2) - Math.exp(eps) * Phi(-eps / mu - mu / 2);

function controller(options = {}) {
  const { engine, log } = inProcessEngine(qif, options);
  return { ctl: createCompositionController({ engine, timing, onError: (e) => { throw e; }, channelSource: options.channelSource }), log };
}
const gaussians = (sigma, count, q) => ({ events: [{ mechanism: 'gaussian', params: { sigma: String(sigma) }, count: String(count) }], ...q });

test('composition controller: Gaussians — δ at ε and ε at δ from Gaussian DP, the accountants, the curve', async () => {
  const { ctl } = controller();
  assert.equal(ctl.get().answer, null, 'nothing computed before it is asked');
  let s = await idle(ctl, () => ctl.setState(gaussians(2, 4, { ask: 'delta', epsilon: '1' })));
  const want = gdpDelta(1, 1); // μ = √4 / 2
  assert.equal(s.answer.ask, 'delta');
  assert.ok(Math.abs(s.answer.value.delta - want) < 1e-9, `δ(1) = ${s.answer.value.delta}, closed form ${want}`);
  assert.ok(s.answer.value.lower <= want + 1e-12 && want <= s.answer.value.upper + 1e-12, 'the certified interval holds it');
  assert.equal(s.compare.delta, s.answer.value.delta, 'the accountants at the δ of the answer');
  assert.equal(s.curve.kind, 'draw');
  assert.ok(s.curve.profile, 'the smooth curve');
  const r = ctl.getResults();
  r.curve.epsilon.forEach((e, i) => { if (e > 0 && e < 4) assert.ok(Math.abs(r.curve.delta[i] - gdpDelta(e, 1)) < 1e-6, `δ(${e})`); });
  assert.ok(ctl.curveTable().rows.length > 0);
  // ε at δ: δ(ε) at the answer is the δ asked.
  s = await idle(ctl, () => { ctl.setAsk('epsilon'); ctl.setDelta('1e-5'); });
  assert.ok(Math.abs(gdpDelta(s.answer.value.epsilon, 1) - 1e-5) < 1e-9, `δ(ε = ${s.answer.value.epsilon})`);
  assert.equal(s.problems.question, null);
  assert.equal(ctl.getState().ask, 'epsilon');
});

test('composition controller: the default preset, the naive bound Σε₀, and edits that cannot be read', async () => {
  const { ctl, log } = controller();
  let s = await idle(ctl, () => ctl.choosePreset('counting'));
  assert.equal(s.preset, 'counting');
  assert.ok(Math.abs(s.compare.r.value.naive.epsilon - 10 * 0.1) < 1e-12, 'ten Laplace of ε₀ = 0.1: naive 1');
  assert.ok(s.answer.value.epsilon <= 1 + 1e-9, 'never above the naive bound');
  // An event that cannot be read, and a δ out of range: named, nothing computed, what is shown stays.
  const calls = log.length;
  const answer = s.answer;
  ctl.model.drafts[0].params.scale = '-1';
  s = await idle(ctl, () => ctl.edited());
  assert.equal(s.preset, null, 'an edit leaves the preset');
  assert.deepEqual(s.problems.events.map((e) => [e.index, e.field]), [[0, 'scale']]);
  assert.match(s.staleMsg, /Fix the events or the question/);
  assert.equal(s.answer, answer);
  s = await idle(ctl, () => { ctl.model.drafts[0].params.scale = '10'; ctl.setDelta('2'); });
  assert.ok(s.problems.question);
  assert.deepEqual(s.problems.events, []);
  assert.equal(log.length, calls, 'no engine call for inputs that cannot be read');
  assert.equal(ctl.getResults(), null);
});

test('composition controller: progress while the answer is computed, Cancel, Compute again', async () => {
  let hold = true;
  let held = null;
  const { ctl } = controller({ intercept: (c, ctx) => {
    if (!hold || c.fn !== 'delta') return undefined;
    held = ctx;
    return new Promise(() => {});
  } });
  ctl.setState(gaussians(1, 2, { ask: 'delta', epsilon: '1' }));
  await until(ctl, (s) => s.progress.main !== null);
  assert.deepEqual(ctl.get().progress.main, { label: 'Computing δ(ε)…', data: null });
  held.progress(3, 10);
  assert.deepEqual(ctl.get().progress.main.data, [3, 10]);
  const s = await idle(ctl, () => ctl.cancel());
  assert.equal(s.progress.main, 'cancelled');
  assert.deepEqual([s.answer.error, s.answer.cancelled], ['Cancelled.', true]);
  assert.deepEqual(s.curve, { kind: 'empty' });
  hold = false;
  const t = await idle(ctl, () => ctl.compute());
  assert.equal(t.progress.main, null);
  assert.ok(Math.abs(t.answer.value.delta - gdpDelta(1, Math.SQRT2)) < 1e-9);
});

test('composition controller: the Channel section’s channel as an event', async () => {
  const C = [[0.75, 0.25], [0.25, 0.75]];
  const { ctl } = controller({ channelSource: async () => ({ C }) });
  const d = await ctl.channelDraft();
  assert.deepEqual([d.mechanism, d.count, JSON.parse(d.params.channel)], ['channel', String(CHANNEL_COUNT), C]);
  assert.equal(ctl.get().channelMsg, '');
  const bad = controller({ channelSource: async () => ({ error: 'the Channel section has entries that are not numbers: fix them there first' }) }).ctl;
  assert.equal(await bad.channelDraft(), null);
  assert.match(bad.get().channelMsg, /not numbers/);
  // Added and edited: a channel of ε₀ = ln 3 asked ten times is (10 ln 3)-DP at worst.
  ctl.model.drafts.splice(0, ctl.model.drafts.length, d);
  const s = await idle(ctl, () => ctl.edited());
  assert.ok(Math.abs(s.compare.r.value.naive.epsilon - 10 * Math.log(3)) < 1e-9);
});
