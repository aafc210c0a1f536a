// The default example's numbers that the page shows before its engine has started
// (web/sections/channel/first-results.js, written by scripts/first-results.mjs at build time)
// must be the engine's: each value is recomputed here by calling the engine directly with the
// section's own plan, the panels' signatures must be those the section computes for its default
// state (or the page would never show them), and a few values are checked against closed forms
// of the default example (a uniform prior on 8 passwords, a deterministic channel with outputs of
// sizes 4, 2, 1, 1).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load } from '../../web/qif.js';
import { FIRST_RESULTS } from '../../web/sections/channel/first-results.js';
import * as S from '../../web/sections/channel/state.js';
import * as Plan from '../../web/sections/channel/plan.js';
import { validateInputs } from '../../web/sections/channel/validate.js';

let qif;
let plan;
before(async () => {
  qif = await load({ lazy: true });
  const state = S.createState();
  plan = Plan.panelPlan(Plan.panelInputs(validateInputs(state), { gainClass: state.gainClass, exact: Plan.exactInputs(state) }));
});

test('every prerendered value is what the engine computes now for the default example', () => {
  let n = 0;
  for (const [name, p] of Object.entries(FIRST_RESULTS)) {
    const here = plan[name];
    assert.equal(here?.action, 'run', `panel ${name}`);
    assert.equal(p.sig, here.sig, `panel ${name}: the default example's inputs changed since the build (run node scripts/first-results.mjs)`);
    const results = here.calls.map(({ ns, fn, args }) => ({ ok: true, value: qif[ns][fn](...args) }));
    const derived = Plan.derivePanel(name, results);
    for (const [key, value] of Object.entries(p.values)) {
      assert.ok(key in derived, `${name}.${key} is not a measure of its panel`);
      assert.equal(value, derived[key].value, `${name}.${key}: prerendered ${value}, engine ${derived[key].value} (run node scripts/first-results.mjs)`);
      n++;
    }
  }
  assert.ok(n >= 20, `only ${n} values prerendered`);
});

test('the prerendered numbers agree with closed forms of the default example', () => {
  // Uniform prior on 8 secrets: H = H∞ = log2 8 = 3 bits, V = 1/8, guessing entropy (8+1)/2.
  const prior = plan.prior.calls[0].args[0];
  assert.deepEqual(prior, new Array(8).fill(0.125));
  const v = FIRST_RESULTS.prior.values;
  assert.equal(v.shannonEntropy, 3);
  assert.equal(v.minEntropy, 3);
  assert.equal(v.bayesVulnerability, 1 / 8);
  assert.equal(v.guessingEntropy, 4.5);
  // A deterministic channel: its outputs partition the 8 secrets into blocks of sizes b_y.
  const C = plan.posterior.calls[0].args[1];
  const blocks = new Array(C.cols).fill(0);
  for (let i = 0; i < C.rows; i++) {
    const row = Array.from(C.data.subarray(i * C.cols, (i + 1) * C.cols));
    assert.equal(row.filter((x) => x === 1).length, 1, 'the default channel is deterministic');
    blocks[row.indexOf(1)]++;
  }
  const p = FIRST_RESULTS.posterior.values;
  // H(X|Y) = Σ_y (b_y/8) log2 b_y; I = 3 − H(X|Y); posterior Bayes vulnerability = (#blocks)/8;
  // min-entropy leakage = log2(#blocks) (every output used).
  const hxy = blocks.reduce((a, b) => a + (b ? (b / 8) * Math.log2(b) : 0), 0);
  const used = blocks.filter((b) => b > 0).length;
  assert.ok(Math.abs(p.conditionalShannonEntropy - hxy) < 1e-12);
  assert.ok(Math.abs(p.mutualInformation - (3 - hxy)) < 1e-12);
  assert.equal(p.posteriorBayesVulnerability, used / 8);
  assert.ok(Math.abs(p.minEntropyLeakage - Math.log2(used)) < 1e-12);
  assert.equal(FIRST_RESULTS.channel.values.minCapacity, Math.log2(used));
});

test('the card of index.html shows the same numbers, marked prerendered, inside the first section', async () => {
  const html = await readFile(new URL('../../web/index.html', import.meta.url), 'utf8');
  const section = /<section id="channel"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
  const outputs = [...section.matchAll(/<output ([^>]*)>/g)].map((m) => m[1]);
  assert.ok(outputs.length >= 4, 'the first section of index.html holds the card of numbers');
  const values = Object.assign({}, ...Object.values(FIRST_RESULTS).map((p) => p.values));
  for (const attrs of outputs) {
    const key = /data-key="(\w+)"/.exec(attrs)?.[1];
    const value = Number(/data-value="([^"]+)"/.exec(attrs)?.[1]);
    assert.ok(/\bdata-prerendered\b/.test(attrs), `${key}: marked data-prerendered`);
    assert.ok(key in values, `${key}: a prerendered measure`);
    assert.equal(value, values[key], `${key}: index.html has ${value}, the engine ${values[key]} (run node scripts/first-results.mjs)`);
  }
});
