// libqif's capabilities where a user of the page looks for them, in headless Chromium; every
// number read off the page is checked against the API run in Node on the same inputs, and where
// one exists against a closed form written here: the capacities of the channel section and their
// class of gain functions, the prior estimated from observed outputs, "how much more can B leak
// than A" beside the Compare verdicts with its gain function, the distances between two
// secrets' output distributions for a ground metric, the tight-constraints mechanism of the Design
// section (and its "no mechanism exists"), and the new measure keys of <qif-channel>.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, settled, valueOf, typeInto, hashOf } from './harness.mjs';
import { load } from '../../web/qif.js';

let h;
let qif;
before(async () => {
  qif = await load({ exact: true });
  h = await startHarness();
});
after(async () => { await h?.close(); });

const close = (a, b, what, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const rows = (M) => Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));
const num = async (page, testid) => Number(await page.getAttribute(`[data-testid="${testid}"]`, 'data-value'));

// Opens the page at `hash` once the product (sections, then the state of the link) is ready.
async function openAt(hash) {
  const page = await h.newPage();
  await page.goto(h.url + hash);
  await page.waitForFunction(() => document.documentElement.dataset.product === 'ready', null, { timeout: 30000 });
  return page;
}

async function idle(page, id) {
  await page.waitForFunction((i) => document.getElementById(i)?.dataset.busy === 'false', id, { timeout: 90000 });
}

// A binary symmetric channel and a 3 × 3 channel, with a non-uniform prior.
const C3 = [['1/2', '1/2', '0'], ['1/4', '1/4', '1/2'], ['0', '1/3', '2/3']];
const C3f = [[0.5, 0.5, 0], [0.25, 0.25, 0.5], [0, 1 / 3, 2 / 3]];
const P3 = ['1/2', '1/4', '1/4'];
const P3f = [0.5, 0.25, 0.25];
const channelState = {
  presetId: 'password-iterations', edited: true, secrets: ['a', 'b', 'c'], observables: ['y1', 'y2', 'y3'],
  cells: C3, prior: P3, priorUniform: false, gainIdentity: true, alpha: '2', tolerance: '1e-9',
};

test('Channel: the capacities, with formula and source, for both classes of gain functions', async () => {
  const page = await openAt(hashOf('channel', channelState));
  await settled(page, 60000);
  // Closed forms for this channel: Σ_y max_x C = 1/2 + 1/2 + 2/3 = 5/3; the rows a, c are 4/3
  // apart in L1, so 1/(1 − 2/3) = 3; 1 − Σ_y min_{x∈supp π} C = 1 − 1/4 = 3/4.
  close(await valueOf(page, 'multiplicativeBayesCapacity'), 5 / 3, 'ML×');
  close(await valueOf(page, 'multiplicativeBayesCapacity'), qif.measure.multiplicativeBayesCapacity(C3f), 'ML× (API)', 0);
  close(await valueOf(page, 'multiplicativeBayesRiskCapacity'), 3, 'Bayes-risk capacity');
  close(await valueOf(page, 'additiveGCapacity'), 3 / 4, '1-spanning vulnerabilities');
  close(await valueOf(page, 'additiveGCapacity'), qif.measure.additiveGCapacity(P3f, C3f), 'additive g-capacity (API)', 0);
  assert.equal(await page.getAttribute('[data-testid="result-additiveGCapacity"]', 'data-exact'), '3/4');
  // Formula and source links like the other cards.
  const card = page.locator('[data-testid="group-capacities"]');
  assert.deepEqual(await card.locator('.card-head a.ref').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
    ['docs/mathematics.html#metrics-and-capacities', 'docs/references.html#fosad2011-3.2']);
  assert.match(await page.textContent('[data-testid="result-multiplicativeBayesCapacity"] .r-formula'), /= Σy maxₓ C\(x,y\)/);
  // The class of 1-spanning gain functions: Σ_y p(y) tv(π, δʸ) = 7/24 (by hand: 9/96 + 5/96 + 14/96).
  await page.click('[data-testid="more-results"] > summary'); // the capacities are folded under "More results"
  await page.selectOption('[data-testid="gain-class"]', 'oneSpanningGain');
  await settled(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="result-additiveGCapacity"]')?.dataset.exact === '7/24');
  close(await valueOf(page, 'additiveGCapacity'), 7 / 24, '1-spanning gains');
  close(await valueOf(page, 'additiveGCapacity'), qif.measure.additiveGCapacity(P3f, C3f, { gainClass: 'oneSpanningGain' }), 'API', 0);

  // The prior estimated from observed outputs: the output distribution of π through C is
  // πC = (5/16, 19/48, 7/24); typed as counts 15 : 19 : 14, the estimate is the API's.
  await page.fill('[data-testid="observed"]', '15, 19, 14');
  await page.waitForFunction(() => document.querySelector('[data-testid="estimate"]')?.dataset.status === 'ok');
  const est = qif.channel.iterativeBayesianUpdate(C3f, [15 / 48, 19 / 48, 14 / 48]);
  const shown = await page.$$eval('[data-testid="estimate-prior"] tbody td', (tds) => tds.map((td) => Number(td.dataset.value)));
  shown.forEach((v, i) => close(v, est.prior[i], `estimate ${i}`, 1e-12));
  assert.equal(await page.textContent('[data-testid="estimate-iterations"]'), String(est.iterations));
  // It explains the observations: (estimate)·C equals the observed frequencies.
  [15, 19, 14].forEach((o, y) => close(shown.reduce((s, p, x) => s + p * C3f[x][y], 0), o / 48, `(π̂C)(y${y + 1})`, 1e-5));
  await page.click('[data-testid="use-estimate"]');
  await settled(page);
  close(Number(await page.inputValue('[data-testid="prior-0"]')), est.prior[0], 'used as the prior', 1e-9);
  // Wrong counts: an inline message naming the problem.
  await page.fill('[data-testid="observed"]', '1, 2');
  await page.waitForFunction(() => document.getElementById('observed-msg')?.textContent !== '');
  assert.match(await page.textContent('#observed-msg'), /2 values for 3 observables/);
  assert.deepEqual(h.errors(page), []);
});

const A = [[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]];
const B = [[0.5, 0.3, 0.2], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5]];
const compareState = {
  example: '', n: 3, prior: '1/2, 1/4, 1/4', dist: { x: '0', x2: '2', metric: 'line', width: '3' },
  A: { source: { kind: 'custom' }, cells: A.map((r) => r.map(String)) },
  B: { source: { kind: 'custom' }, cells: B.map((r) => r.map(String)) },
};

test('Compare: how much more B can leak than A, with its gain function, beside the verdicts', async () => {
  const page = await openAt(hashOf('compare', compareState));
  await idle(page, 'compare');
  const leakDone = () => page.waitForFunction(() => ['leaks', 'safe'].includes(document.querySelector('[data-testid="cmp-leak"]')?.dataset.status));
  await leakDone();
  // B is a post-processing of A (A ⊑avg B): B can leak nothing more, for any prior.
  const r0 = qif.refine.additiveMetric(P3f, A, B);
  close(await num(page, 'leak-value'), r0.value, 'sup_g V_g[π▷B] − V_g[π▷A]');
  assert.ok(r0.value < 1e-9);
  assert.equal(await page.getAttribute('[data-testid="verdict-avg"]', 'data-holds'), 'true');
  assert.match(await page.textContent('[data-testid="leak-sentence"]'), /^B can leak no more than A for this prior/);
  // Swapped, A is the noisier one: B leaks more, by the API's supremum, with a gain attaining it.
  await page.click('[data-testid="cmp-swap"]');
  await idle(page, 'compare');
  await leakDone();
  const r = qif.refine.additiveMetric(P3f, B, A);
  assert.ok(r.value > 0.1);
  assert.equal(await page.getAttribute('[data-testid="verdict-avg"]', 'data-holds'), 'false', 'a positive supremum: A ⊑avg B fails');
  close(await num(page, 'leak-value'), r.value, 'sup_g V_g[π▷B] − V_g[π▷A]');
  close(await num(page, 'leak-vA'), r.vulnerabilityA, 'V_g[π▷A]');
  close(await num(page, 'leak-vB'), r.vulnerabilityB, 'V_g[π▷B]');
  assert.match(await page.textContent('[data-testid="leak-sentence"]'), /^B can leak up to \S+ more than A for this prior, with this gain function:$/);
  // The gain shown attains it: V_g[π▷B] − V_g[π▷A] recomputed here from the table's entries
  // (its cells keep the full values in their titles).
  const G = await page.$$eval('[data-testid="leak-gain"] tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => Number(td.dataset.value))));
  const labels = await page.$$eval('[data-testid="leak-gain"] tbody th', (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(labels, ['w(y0)', 'w(y1)', 'w(y2)', 'w(z0)', 'w(z1)', 'w(z2)', 'w⊥']);
  const V = (C) => C[0].reduce((s, _, y) => s + Math.max(...G.map((g) => g.reduce((t, gx, x) => t + gx * P3f[x] * C[x][y], 0))), 0);
  close(V(A) - V(B), r.value, 'the gain shown attains the supremum (A is now channel B)', 1e-9);
  assert.ok(G.every((row) => row.every((g) => g <= 1 + 1e-12)), 'every gain at most 1');
  // A bad prior is refused inline.
  await typeInto(page, 'cmp-prior', '1/2, 1/2');
  await idle(page, 'compare');
  assert.match(await page.textContent('#cmp-prior-msg'), /2 entries for 3 secrets/);
  assert.deepEqual(h.errors(page), []);
});

test('Compare: distances between the output distributions of two secrets, for a ground metric', async () => {
  const page = await openAt(hashOf('compare', compareState));
  await idle(page, 'compare');
  await page.waitForFunction(() => document.querySelector('[data-testid="cmp-dist"]')?.dataset.status === 'done');
  const line = rows(qif.metric.manhattan([[0], [1], [2]]));
  for (const [K, M] of [['A', A], ['B', B]]) {
    const [P, Q] = [M[0], M[2]];
    close(await num(page, `dist-totalVariation-${K}`), qif.metric.totalVariation(P, Q), `${K} tv`);
    close(await num(page, `dist-totalVariation-${K}`), P.reduce((s, p, i) => s + Math.abs(p - Q[i]), 0) / 2, `${K} tv, by hand`);
    close(await num(page, `dist-multiplicativeTotalVariation-${K}`), Math.max(...P.map((p, i) => Math.abs(Math.log(p / Q[i])))), `${K} tv×, by hand`);
    close(await num(page, `dist-convexSeparation-${K}`), qif.metric.convexSeparation(P, Q), `${K} convex separation`);
    // On a line, Kantorovich is the L1 distance between the cumulative distributions.
    close(await num(page, `dist-kantorovich-${K}`), Math.abs(P[0] - Q[0]) + Math.abs(P[0] + P[1] - Q[0] - Q[1]), `${K} Kantorovich`, 1e-9);
    close(await num(page, `dist-multiplicativeKantorovich-${K}`), qif.metric.multiplicativeKantorovich(P, Q, line), `${K} multiplicative Kantorovich`);
  }
  // The discrete ground metric: Kantorovich equals total variation.
  await page.selectOption('[data-testid="cmp-dist-metric"]', 'discrete');
  await idle(page, 'compare');
  close(await num(page, 'dist-kantorovich-A'), await num(page, 'dist-totalVariation-A'), 'discrete Kantorovich = tv');
  // A grid that the outputs do not fill: said inline.
  await page.selectOption('[data-testid="cmp-dist-metric"]', 'gridEuclidean');
  await typeInto(page, 'cmp-dist-width', '2');
  await idle(page, 'compare');
  assert.match(await page.textContent('[data-testid="cmp-dist-msg"]'), /3 outputs do not fill a grid of width 2/);
  assert.deepEqual(h.errors(page), []);
});

test('Design: the tight-constraints mechanism for a metric preset, and “no mechanism exists” inline', async () => {
  const page = await openAt('#mechanism');
  await idle(page, 'mechanism');
  // Table 1: on the clique the graph distance is the discrete metric, so tight constraints is
  // randomized response, with utility e^ε/(n − 1 + e^ε) = 2/(5 + 2) = 2/7.
  close(await num(page, 'mech-util-tc'), 2 / 7, 'tight constraints on K6 at ln 2');
  const H = qif.mechanism.tightConstraints(rows(qif.graph.distances(qif.graph.clique(6))).map((r) => r.map((d) => d * Math.LN2)));
  close(await num(page, 'mech-util-tc'), qif.mechanism.utility(new Array(6).fill(1 / 6), H), 'the API’s');
  assert.equal(await page.getAttribute('[data-testid="mech-row-tc"]', 'data-dp'), 'true');
  // A 3 × 3 grid at ε = 0.3 with the Euclidean metric of its cells: none exists.
  await page.selectOption('[data-testid="mech-kind"]', 'grid');
  await typeInto(page, 'mech-w', '3');
  await typeInto(page, 'mech-h', '3');
  await typeInto(page, 'mech-eps', '0.3');
  await page.selectOption('[data-testid="mech-tc-metric"]', 'gridEuclidean');
  await idle(page, 'mechanism');
  assert.throws(() => qif.mechanism.tightConstraints(rows(qif.metric.gridEuclidean(3, 3)).map((r) => r.map((d) => 0.3 * d))), /no tight-constraints mechanism exists/);
  assert.equal(await page.getAttribute('[data-testid="mech-row-tc"]', 'data-status'), 'error');
  assert.match(await page.textContent('[data-testid="mech-verdict-tc"]'), /no tight-constraints mechanism exists/);
  // At ε = 1 it exists, and it is ε-DP on the grid (Euclidean ≤ the grid's path distance).
  await typeInto(page, 'mech-eps', '1');
  await idle(page, 'mechanism');
  const Hg = qif.mechanism.tightConstraints(rows(qif.metric.gridEuclidean(3, 3)));
  close(await num(page, 'mech-eps-tc'), qif.privacy.epsilon(Hg, qif.graph.grid(3, 3)), 'its ε on the graph');
  assert.ok(await num(page, 'mech-eps-tc') <= 1 + 1e-9);
  assert.deepEqual(h.errors(page), []);
});

test('<qif-channel>: the new measure keys (API names), the old ones, gain-class and exact fractions', async () => {
  const page = await h.newPage();
  await page.goto(`${h.url}embed.html`);
  const detail = await page.evaluate(() => new Promise((resolve, reject) => {
    const el = document.createElement('qif-channel');
    el.id = 'w-new';
    el.setAttribute('matrix', '1/2 1/2 0; 1/4 1/4 1/2; 0 1/3 2/3');
    el.setAttribute('prior', '1/2 1/4 1/4');
    el.setAttribute('gain-class', 'oneSpanningGain');
    el.setAttribute('measures', 'multiplicativeBayesCapacity,multiplicativeBayesRiskCapacity,additiveGCapacity,posteriorBayesRisk,bayesRiskPosterior');
    el.addEventListener('qif-update', (e) => resolve(e.detail), { once: true });
    setTimeout(() => reject(new Error('no qif-update')), 20000);
    document.body.prepend(el);
  }));
  close(detail.multiplicativeBayesCapacity, 5 / 3, 'ML×');
  close(detail.multiplicativeBayesRiskCapacity, 3, 'Bayes-risk capacity');
  close(detail.additiveGCapacity, 7 / 24, 'over 1-spanning gains');
  close(detail.posteriorBayesRisk, 1 / 3, 'posterior Bayes risk');
  close(detail.bayesRiskPosterior, 1 / 3, 'the same under its old key');
  // The exact fractions follow the decimals.
  const w = page.locator('#w-new');
  await page.waitForFunction(() => document.querySelector('#w-new').shadowRoot.querySelector('[data-testid="exact-additiveGCapacity"]'));
  assert.equal(await w.locator('[data-testid="exact-additiveGCapacity"]').getAttribute('data-value'), '7/24');
  assert.equal(await w.locator('[data-testid="exact-multiplicativeBayesCapacity"]').textContent(), '5/3 ≈ ');
  assert.equal(await w.locator('[data-testid="exact-posteriorBayesRisk"]').getAttribute('data-value'), '1/3');
  // An unknown key, and a wrong class, are reported inside the widget.
  const msg = await page.evaluate(() => new Promise((resolve) => {
    const el = document.getElementById('w-new');
    el.setAttribute('gain-class', 'bayes');
    setTimeout(() => resolve(el.shadowRoot.textContent), 500);
  }));
  assert.match(msg, /gain-class: must be one of oneSpanningVulnerability, oneSpanningGain/);
  assert.deepEqual(h.errors(page), []);
});
