// The engine's exact mode on the page, in headless Chromium: the fractions a user sees are those
// the API computes in Node (qif.exact, run here on the same text), the decimals beside them are
// the floating-point API's, a result says "exact" or "certified" only when it is; the certified
// optimum of Table 1 of Alvim et al. (ICALP 2011) is 2/7 (uniform prior) and 8/25 (its prior
// 1/10, 1/5 ×4, 1/10, printed 0.32); where e^ε is not rational or the input is too large for the
// page's exact limit, only decimals are shown, and the page says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, settled, valueOf, typeInto, hashOf } from './harness.mjs';
import { load } from '../../web/qif.js';
import { presetById, numericChannel } from '../../web/lib/presets.js';
import { PANELS } from '../../web/lib/measures.js';

let h;
let qif;
before(async () => {
  qif = await load({ exact: true });
  h = await startHarness();
});
after(async () => { await h?.close(); });

const close = (a, b, what, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const frac = (t) => { const [n, d = '1'] = t.split('/'); return Number(n) / Number(d); };

async function openPage(hash = '') {
  const page = await h.newPage();
  await page.goto(h.url + hash);
  await page.waitForFunction(() => document.documentElement.dataset.product === 'ready', null, { timeout: 30000 });
  await settled(page, 60000);
  return page;
}

async function idle(page, id) {
  await page.waitForFunction((i) => document.getElementById(i)?.dataset.busy === 'false', id, { timeout: 90000 });
}

// Every exact measure of the panels, for the inputs as typed, computed in Node.
function exactInNode(prior, C, G) {
  const e = qif.exact.measure;
  return {
    bayesVulnerability: e.bayesVulnerability(prior),
    bayesRisk: e.bayesRisk(prior),
    guessingEntropy: e.guessingEntropy(prior),
    posteriorBayesVulnerability: e.posteriorBayesVulnerability(prior, C),
    posteriorBayesRisk: e.posteriorBayesRisk(prior, C),
    multiplicativeBayesLeakage: e.multiplicativeBayesLeakage(prior, C),
    additiveBayesLeakage: e.additiveBayesLeakage(prior, C),
    maxCasePosteriorBayesVulnerability: e.maxCasePosteriorBayesVulnerability(prior, C),
    posteriorGuessingEntropy: e.posteriorGuessingEntropy(prior, C),
    gVulnerability: e.gVulnerability(G, prior),
    posteriorGVulnerability: e.posteriorGVulnerability(G, prior, C),
    multiplicativeGLeakage: e.multiplicativeGLeakage(G, prior, C),
    additiveGLeakage: e.additiveGLeakage(G, prior, C),
    multiplicativeBayesCapacity: e.multiplicativeBayesCapacity(C),
    multiplicativeBayesRiskCapacity: e.multiplicativeBayesRiskCapacity(C),
    additiveGCapacity: e.additiveGCapacity(prior, C),
  };
}

/** Opens the folded results (the groups under "More results", the measures folded in a card), as a reader does. */
const unfold = (page) => page.$$eval('#results details.more-results, #results details.result-more', (ds) => { for (const d of ds) d.open = true; });

test('the password checker: every exact value on the page is the API’s, beside the float API’s decimal', async () => {
  const p = presetById('password-iterations');
  const page = await openPage();
  await unfold(page);
  const n = p.secrets.length;
  const prior = new Array(n).fill(`1/${n}`);
  const G = Array.from({ length: n }, (_, w) => Array.from({ length: n }, (_, x) => (w === x ? '1' : '0')));
  const want = exactInNode(prior, p.channel, G);
  // The keys the page labels exact are exactly those of the panels' exact jobs.
  const exactKeys = Object.values(PANELS).flatMap((q) => (q.exact ? Object.keys(q.exact({})) : [])).filter((k) => k !== 'hyper');
  assert.deepEqual(Object.keys(want).sort(), exactKeys.sort());
  const Cf = numericChannel(p);
  const pf = new Array(n).fill(1 / n);
  const floats = {
    posteriorBayesVulnerability: qif.measure.posteriorBayesVulnerability(pf, Cf),
    posteriorGuessingEntropy: qif.measure.posteriorGuessingEntropy(pf, Cf),
    multiplicativeBayesCapacity: qif.measure.multiplicativeBayesCapacity(Cf),
  };
  for (const [key, value] of Object.entries(want)) {
    assert.equal(await page.getAttribute(`[data-testid="result-${key}"]`, 'data-exact'), value, `${key}: the exact value shown`);
    assert.equal(await page.getAttribute(`[data-testid="exact-${key}"]`, 'data-value'), value, key);
    assert.equal(await page.isVisible(`[data-testid="badge-${key}"]`), true, `${key} says exact`);
    const shown = await valueOf(page, key);
    if (value === 'Infinity') assert.equal(shown, Infinity, key);
    else close(shown, frac(value), `${key}: the decimal agrees`, 1e-12);
    if (floats[key] !== undefined) assert.equal(shown, floats[key], `${key}: the decimal is the float API's`);
  }
  // Values the paper states: V[π▷C] = 1/2 and 4 outputs, 2 bits of min-entropy leakage (×4).
  assert.equal(want.posteriorBayesVulnerability, '1/2');
  assert.equal(want.multiplicativeBayesLeakage, '4');
  assert.equal(await page.textContent('[data-testid="result-posteriorGuessingEntropy"] .r-value'), '15/8 = 1.875 guesses');
  // Logarithms have no exact value and no label.
  for (const key of ['shannonEntropy', 'mutualInformation', 'minEntropyLeakage', 'shannonCapacity']) {
    assert.equal(await page.isVisible(`[data-testid="badge-${key}"]`), false, key);
  }
  // The hyper table is the exact hyper: its outers and inners, as the API gives them.
  const hy = qif.exact.channel.hyper(prior, p.channel);
  const cells = await page.$$eval('[data-testid="hyper-table"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.dataset.exact)));
  assert.equal(cells.length, hy.inners.rows);
  cells.forEach((row, k) => {
    assert.equal(row[0], hy.outer[k], `outer ${k}`);
    assert.deepEqual(row.slice(1), hy.inners.data.slice(k * hy.inners.cols, (k + 1) * hy.inners.cols), `inner ${k}`);
  });
  assert.equal(await page.isVisible('[data-testid="badge-hyper"]'), true);
  assert.deepEqual(h.errors(page), []);
});

test('beyond the page’s exact limit, and for irrational entries: decimals only, and why', async () => {
  // 65 secrets × 64 observables: more than 4,096 entries.
  const n = 65;
  const m = 64;
  const st = {
    presetId: 'password-iterations', edited: true,
    secrets: Array.from({ length: n }, (_, i) => `s${i}`), observables: Array.from({ length: m }, (_, j) => `o${j}`),
    cells: Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => (j === i % m ? '1' : '0'))),
    priorUniform: true, gainIdentity: true, alpha: '2', tolerance: '1e-6',
  };
  const page = await openPage(hashOf('channel', st));
  assert.match(await page.textContent('[data-testid="exact-note"]'), /exact values are computed for up to 4,096 entries/);
  assert.equal(await page.getAttribute('[data-testid="result-posteriorBayesVulnerability"]', 'data-exact'), null);
  assert.equal(await page.isVisible('[data-testid="badge-posteriorBayesVulnerability"]'), false);
  close(await valueOf(page, 'posteriorBayesVulnerability'), 64 / 65, 'the decimal, 64 distinct outputs of 65 secrets');
  assert.deepEqual(h.errors(page), []);
  await page.context().close();

  const small = await openPage();
  await typeInto(small, 'cell-0-0', 'ln(e)');
  await settled(small);
  // "e" is no number of the grammar: the cell says so, and nothing is computed from it.
  await typeInto(small, 'cell-0-0', '2 ln(1)+1');
  await settled(small);
  assert.match(await small.textContent('[data-testid="exact-note"]'), /every entry as a decimal or a fraction/);
  assert.equal(await small.getAttribute('[data-testid="result-posteriorBayesVulnerability"]', 'data-exact'), null);
  close(await valueOf(small, 'posteriorBayesVulnerability'), 0.5, 'decimals stay');
});

test('Design a mechanism: Table 1 certified — 2/7 for the uniform prior, 8/25 for its prior; the LP’s certificate', async () => {
  const page = await openPage('#mechanism');
  await idle(page, 'mechanism');
  const K6 = qif.graph.clique(6);
  const check = async (want, prior) => {
    const node = qif.exact.mechanism.optimal({ graph: K6, expEpsilon: 2, ...(prior ? { prior } : {}) });
    assert.equal(node.utility, want, 'the API in Node');
    assert.equal(await page.getAttribute('[data-testid="mech-certified-value"]', 'data-value'), want);
    assert.equal(await page.isVisible('[data-testid="mech-certified-badge"]'), true);
    assert.match(await page.textContent('[data-testid="mech-certified-note"]'), new RegExp(`is exactly ${want}, proved in exact arithmetic`));
    const util = Number(await page.getAttribute('[data-testid="mech-util-lp"]', 'data-value'));
    close(util, frac(want), 'the LP decimal beside it', 1e-9);
    assert.match(await page.textContent('[data-testid="mech-row-lp"] td'), new RegExp(`^${want.replace('/', '\\/')} [≈=] `));
    // The floating-point LP's certificate fields, as optimalLP returns them in Node.
    const lp = qif.mechanism.optimalLP({ graph: K6, epsilon: Math.LN2, ...(prior ? { prior: prior.map(frac) } : {}) });
    for (const [key, v] of [['bound', lp.bound], ['primal-residual', lp.primalResidual], ['dual-residual', lp.dualResidual], ['utility', lp.utility]]) {
      close(Number(await page.getAttribute(`[data-testid="mech-lp-${key}"]`, 'data-value')), v, key, 1e-9);
    }
    assert.ok(lp.bound >= frac(want) - 1e-9 && lp.utility <= frac(want) + 1e-9, 'the optimum lies between the utility and the bound');
  };
  await check('2/7', null);
  await page.selectOption('[data-testid="mech-preset"]', 'table1-prior');
  await idle(page, 'mechanism');
  await check('8/25', ['1/10', '1/5', '1/5', '1/5', '1/5', '1/10']);

  // ε = 1: e is irrational, so no certified optimum (and no label), only the LP's decimal.
  await typeInto(page, 'mech-eps', '1');
  await idle(page, 'mechanism');
  assert.equal(await page.isVisible('[data-testid="mech-certified-badge"]'), false);
  assert.match(await page.textContent('[data-testid="mech-certified-note"]'), /needs e\^ε rational/);
  assert.equal(await page.textContent('[data-testid="mech-certified-value"]'), '');
  // ε = ln(3/2): certified again, and equal to the API's.
  await typeInto(page, 'mech-eps', 'ln(3/2)');
  await idle(page, 'mechanism');
  const want = qif.exact.mechanism.optimal({ graph: K6, expEpsilon: '3/2', prior: ['1/10', '1/5', '1/5', '1/5', '1/5', '1/10'] }).utility;
  assert.equal(await page.getAttribute('[data-testid="mech-certified-value"]', 'data-value'), want);
  assert.deepEqual(h.errors(page), []);
});
