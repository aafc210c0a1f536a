// The "Compare two mechanisms" section in headless Chromium. Every expectation is computed here in
// plain JS, independently of the page and of the Go code: B = A·R built by a matrix product (all
// three orders must hold, and A times the shown witness must give back B); the rows-swapped pair of
// Chatzikokolakis et al. (CSF 2019) (same induced metric ln 3, mirrored posteriors: ⊑prv both
// ways, ⊑max fails with distance √2/12); randomized response against the exponential mechanism
// at the same ε from the formulas of docs/mathematics.md#mechanism-families (⊑prv fails both ways); a
// counterexample gain function re-evaluated here (V_B > V_A); the simplex with both hulls and the
// offending posterior at the distance computed here; the safe-ε curve of randomized response
// against itself equal to the diagonal (Chatzikokolakis et al. (CSF 2019) Thm 13) after progress
// was shown; cancel; the ⊑prv join; bad input; no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { assertEveryNumberRead } from './readings.mjs';
import { startHarness, SCREENSHOTS } from './harness.mjs';
import { inducedMetric } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const SEL = '#compare';

async function open(options) {
  const page = await h.newPage(options);
  await page.goto(`${h.url}#compare`);
  await idle(page);
  return page;
}

async function idle(page, timeout = 30000) {
  await page.waitForSelector(`${SEL}[data-busy="false"]`, { timeout });
}

async function example(page, id) {
  await page.selectOption('[data-testid="cmp-example"]', id);
  await idle(page);
}

async function verdicts(page) {
  const out = {};
  for (const o of ['avg', 'max', 'prv']) {
    out[o] = await page.getAttribute(`[data-testid="verdict-${o}"]`, 'data-holds');
    out[`rev-${o}`] = await page.getAttribute(`[data-testid="reverse-${o}"]`, 'data-holds');
  }
  return out;
}

async function valueOf(page, testid) {
  const v = await page.getAttribute(`[data-testid="${testid}"]`, 'data-value');
  return v === null ? null : Number(v);
}

// Full-precision matrix of a shown table (entries carry their full value in data-value).
async function tableMatrix(page, testid) {
  return page.$$eval(`[data-testid="${testid}"] tbody tr`, (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => Number(td.dataset.value))));
}

async function fillChannel(page, K, M) {
  for (let i = 0; i < M.length; i++) for (let j = 0; j < M[i].length; j++) {
    await page.fill(`[data-testid="cell-${K}-${i}-${j}"]`, String(M[i][j]));
  }
}

// Screenshot of the section alone (the page above it belongs to other sections).
async function shot(page, name, selector = SEL) {
  await page.locator(selector).screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

function assertNoErrors(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

// ---------------------------------------------------------------- plain-JS references

const matmul = (A, B) => A.map((row) => B[0].map((_, j) => row.reduce((s, v, k) => s + v * B[k][j], 0)));

// A small deterministic generator so the test is reproducible.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
function randomStochastic(n, m, rand) {
  return Array.from({ length: n }, () => {
    const r = Array.from({ length: m }, () => 0.05 + rand());
    const t = r.reduce((a, b) => a + b, 0);
    return r.map((v) => v / t);
  });
}

// A ⊑prv B iff d_A ≥ d_B pointwise.
function prvHolds(A, B) {
  const dA = inducedMetric(A);
  const dB = inducedMetric(B);
  return dA.every((row, i) => row.every((v, j) => v >= dB[i][j] - 1e-9));
}

// docs/mathematics.md#mechanism-families: randomized response, exponential (|x−y|, nominal ε),
// truncated geometric (m = n).
function randomizedResponse(n, eps) {
  const e = Math.exp(eps);
  return Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) => (x === y ? e : 1) / (n - 1 + e)));
}
function exponential(n, eps) {
  return Array.from({ length: n }, (_, x) => {
    const r = Array.from({ length: n }, (_, y) => Math.exp((-eps * Math.abs(x - y)) / 2));
    const t = r.reduce((a, b) => a + b, 0);
    return r.map((v) => v / t);
  });
}
function truncatedGeometric(n, eps) {
  const a = Math.exp(-eps);
  return Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) => {
    if (y === 0) return a ** x / (1 + a);
    if (y === n - 1) return a ** (n - 1 - x) / (1 + a);
    return ((1 - a) / (1 + a)) * a ** Math.abs(x - y);
  }));
}

// Posteriors under the uniform prior: non-zero columns, normalized
// (docs/mathematics.md#refinement).
function posteriors(C) {
  const out = [];
  for (let y = 0; y < C[0].length; y++) {
    const s = C.reduce((t, r) => t + r[y], 0);
    if (s > 0) out.push(C.map((r) => r[y] / s));
  }
  return out;
}

const sub = (p, q) => p.map((v, i) => v - q[i]);
const dot = (p, q) => p.reduce((s, v, i) => s + v * q[i], 0);
const norm = (p) => Math.sqrt(dot(p, p));
function segmentDistance(p, a, b) {
  const d = sub(b, a);
  const t = Math.max(0, Math.min(1, dot(sub(p, a), d) / dot(d, d)));
  return norm(sub(p, a.map((v, i) => v + t * d[i])));
}
// Distance from p to the hull of three points in the simplex plane (a triangle) in R³:
// 0 inside (barycentric coordinates ≥ 0), else the nearest edge.
function triangleDistance(p, [a, b, c]) {
  const v0 = sub(b, a), v1 = sub(c, a), v2 = sub(p, a);
  const d00 = dot(v0, v0), d01 = dot(v0, v1), d11 = dot(v1, v1), d20 = dot(v2, v0), d21 = dot(v2, v1);
  const den = d00 * d11 - d01 * d01;
  const v = (d11 * d20 - d01 * d21) / den;
  const w = (d00 * d21 - d01 * d20) / den;
  if (v >= -1e-12 && w >= -1e-12 && v + w <= 1 + 1e-12) return 0;
  return Math.min(segmentDistance(p, a, b), segmentDistance(p, b, c), segmentDistance(p, a, c));
}

// V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y] (docs/mathematics.md#entropies-and-leakage).
function postGVulnerability(G, prior, C) {
  let total = 0;
  for (let y = 0; y < C[0].length; y++) total += Math.max(...G.map((row) => row.reduce((s, g, x) => s + g * prior[x] * C[x][y], 0)));
  return total;
}

// A ⊑ B for the three orders, with a row-stochastic witness R (B = A·R) of `outputs` rows, one
// per output of A; returns R.
async function assertPostProcessing(page, outputs) {
  const v = await verdicts(page);
  assert.equal(v.avg, 'true', 'A ⊑avg A·R');
  assert.equal(v.max, 'true', 'A ⊑max A·R');
  assert.equal(v.prv, 'true', 'A ⊑prv A·R');
  const W = await tableMatrix(page, 'avg-witness');
  assert.equal(W.length, outputs, 'R has a row per output of A');
  for (const row of W) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-6 && row.every((x) => x >= -1e-9), 'R is row-stochastic');
  return W;
}

// ---------------------------------------------------------------- tests

test('B = A·R (built here): all three orders hold, and A times the witness gives B', async () => {
  const page = await open();
  await example(page, 'post-processing'); // 3 secrets, A 3×3, B 3×2: the shapes used below
  const rand = rng(7);
  const A = randomStochastic(3, 3, rand);
  const R = randomStochastic(3, 2, rand);
  const B = matmul(A, R);
  await fillChannel(page, 'A', A);
  await fillChannel(page, 'B', B);
  await idle(page);
  // The witness shown reproduces B.
  const W = await assertPostProcessing(page, 3);
  const AW = matmul(A, W);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 2; j++) assert.ok(Math.abs(AW[i][j] - B[i][j]) < 1e-6, `(A·R)[${i}][${j}] = ${AW[i][j]}, B = ${B[i][j]}`);
  assert.match(await page.textContent('[data-testid="cmp-summary"]'), /safe in place of A for all three orders/);
  await shot(page, 'compare-post-processing');
  assertNoErrors(page);
});

test('“A · random R” makes B a post-processing of A (the engine’s cascade): the three orders hold', async () => {
  const page = await open();
  await example(page, 'geometric-vs-rr');
  await page.click('[data-testid="postprocess-B"]');
  await idle(page);
  await assertPostProcessing(page, 3);
  assertNoErrors(page);
});

test('rows swapped (Chatzikokolakis et al., CSF 2019): ⊑prv both ways, ⊑max fails at distance √2/12; the gain counterexample prefers B', async () => {
  const page = await open();
  await example(page, 'swapped-rows');
  const A = [[0.8, 0.2], [0.4, 0.6]];
  const B = [[0.4, 0.6], [0.8, 0.2]];
  for (const [K, M] of [['A', A], ['B', B]]) for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
    assert.equal(Number(await page.inputValue(`[data-testid="cell-${K}-${i}-${j}"]`)), M[i][j]);
  }
  // Independent facts: same induced metric (ln 3), so prv both ways; posteriors mirrored.
  assert.ok(prvHolds(A, B) && prvHolds(B, A));
  assert.ok(Math.abs(inducedMetric(A)[0][1] - Math.log(3)) < 1e-12);
  const pa = posteriors(A).map((p) => p[0]); // p(x0|y) ∈ {2/3, 1/4}
  const pb = posteriors(B).map((p) => p[0]); // {1/3, 3/4}
  const lo = Math.min(...pa), hi = Math.max(...pa);
  const outside = Math.max(...pb.map((p) => Math.max(0, lo - p, p - hi))); // along p0; √2 in R²
  const expected = Math.SQRT2 * outside;
  assert.ok(Math.abs(expected - Math.SQRT2 / 12) < 1e-12);

  const v = await verdicts(page);
  assert.equal(v.prv, 'true', 'A ⊑prv B');
  assert.equal(v['rev-prv'], 'true', 'B ⊑prv A');
  assert.equal(v.max, 'false', 'A ⋢max B');
  assert.equal(v['rev-max'], 'false', 'B ⋢max A');
  assert.equal(v.avg, 'false', 'A ⋢avg B');
  const d = await valueOf(page, 'max-distance');
  assert.ok(Math.abs(d - expected) < 1e-9, `distance ${d}, expected √2/12 = ${expected}`);
  const post = (await tableMatrix(page, 'max-posterior'))[0];
  assert.ok(Math.abs(post[0] - 3 / 4) < 1e-9 && Math.abs(post[1] - 1 / 4) < 1e-9, `offending posterior ${post}`);

  // The ⊑avg counterexample: recompute both vulnerabilities here from the shown gain and prior.
  const G = await tableMatrix(page, 'avg-gain');
  const prior = (await tableMatrix(page, 'avg-prior'))[0];
  const vA = await valueOf(page, 'avg-vA');
  const vB = await valueOf(page, 'avg-vB');
  assert.ok(vB > vA, `V_B = ${vB} > V_A = ${vA}`);
  assert.ok(Math.abs(postGVulnerability(G, prior, A) - vA) < 1e-9, 'V_g[π▷A] as shown');
  assert.ok(Math.abs(postGVulnerability(G, prior, B) - vB) < 1e-9, 'V_g[π▷B] as shown');
  assert.equal(await page.getAttribute('[data-testid="avg-check"]', 'data-ok'), 'true');
  // Chain colours: avg and max red, prv green.
  assert.equal(await page.getAttribute('[data-testid="verdict-prv"]', 'data-status'), 'holds');
  assert.equal(await page.getAttribute('[data-testid="verdict-max"]', 'data-status'), 'fails');
  // Both channels induce ln 3, so the ⊑prv join does too: check the shown join's metric.
  await page.click('[data-testid="prv-join"]');
  await page.waitForSelector('[data-testid="lattice-result"][data-status="done"]');
  const J = await tableMatrix(page, 'lattice-matrix');
  assert.ok(Math.abs(inducedMetric(J)[0][1] - Math.log(3)) < 1e-6, `join metric ${inducedMetric(J)[0][1]}`);
  await shot(page, 'compare-swapped-rows');
  assertNoErrors(page);
});

test('randomized response vs exponential at the same ε: ⊑prv fails both ways', async () => {
  const page = await open();
  await example(page, 'rr-vs-exponential');
  assert.equal(await page.inputValue('[data-testid="preset-A"]'), 'randomizedResponse');
  assert.equal(await page.inputValue('[data-testid="preset-B"]'), 'exponential');
  assert.equal(await page.inputValue('[data-testid="eps-A"]'), '1');
  assert.equal(await page.inputValue('[data-testid="eps-B"]'), '1');
  const A = randomizedResponse(4, 1);
  const B = exponential(4, 1);
  assert.ok(!prvHolds(A, B) && !prvHolds(B, A), 'reference: incomparable');
  const v = await verdicts(page);
  assert.equal(v.prv, 'false');
  assert.equal(v['rev-prv'], 'false');
  // The violating pair: d_B > d_A there, with the values of the reference metrics.
  const pair = await page.textContent('[data-testid="prv-pair"]');
  const [x, x2] = pair.match(/\d+/g).map(Number);
  const dA = await valueOf(page, 'prv-dA');
  const dB = await valueOf(page, 'prv-dB');
  assert.ok(dB > dA);
  assert.ok(Math.abs(dA - inducedMetric(A)[x][x2]) < 1e-9, `d_A(${x},${x2})`);
  assert.ok(Math.abs(dB - inducedMetric(B)[x][x2]) < 1e-9, `d_B(${x},${x2})`);
  // e^ε beside ε, the exponential's true ε beside its nominal one.
  assert.match(await page.textContent('[data-testid="enote-A"]'), /e\^ε = 2\.718/);
  const trueEps = Number(await page.getAttribute('[data-testid="true-eps-B"]', 'data-value'));
  assert.ok(trueEps > 0 && trueEps < 1, `true ε ${trueEps} below the nominal 1`);
  assertNoErrors(page);
});

test('three secrets: the simplex shows both hulls and the posterior of B outside A’s', async () => {
  const page = await open();
  await example(page, 'geometric-vs-rr');
  await page.waitForSelector('[data-testid="simplex-svg"]');
  const A = truncatedGeometric(3, 1);
  const B = randomizedResponse(3, 1);
  const pa = posteriors(A);
  const pb = posteriors(B);
  const expected = Math.max(...pb.map((p) => triangleDistance(p, pa)));
  assert.ok(expected > 0.01, 'reference: some posterior of RR is outside the geometric hull');
  assert.equal(await page.getAttribute('[data-testid="verdict-max"]', 'data-holds'), 'false');
  const d = await valueOf(page, 'max-distance');
  assert.ok(Math.abs(d - expected) < 1e-9, `page distance ${d}, reference ${expected}`);
  assert.equal(await page.locator('[data-testid="hull-set-a"]').evaluate((e) => e.tagName), 'polygon');
  assert.equal(await page.locator('[data-testid="hull-set-b"]').evaluate((e) => e.tagName), 'polygon');
  assert.equal(await page.locator('[data-testid="simplex-set-a"] .pt').count(), pa.length);
  assert.equal(await page.locator('[data-testid="simplex-set-b"] .pt').count(), pb.length);
  assert.equal(await page.locator('[data-testid="simplex-highlight"]').count(), 1);
  // The dashed gap drawn in the picture has the length of the distance (the drawing is an
  // isometry).
  const drawn = Number(await page.getAttribute('[data-testid="simplex-svg"]', 'data-drawn-distance'));
  assert.ok(Math.abs(drawn - expected) < 1e-9, `drawn ${drawn}`);
  // Text alternative: one row per posterior plus the highlighted one.
  assert.equal(await page.locator('[data-testid="simplex-table"] tbody tr').count(), pa.length + pb.length + 1);
  await shot(page, 'compare-simplex', '[data-testid="cmp-simplex"]');
  assertNoErrors(page);
});

test('safe ε2 against ε1: progress, then curves; RR refines itself exactly on the diagonal', async () => {
  const page = await open();
  await page.selectOption('[data-testid="curve-f1"]', 'randomizedResponse');
  await page.selectOption('[data-testid="curve-order"]', 'avg');
  await page.fill('[data-testid="curve-n"]', '4');
  await page.fill('[data-testid="curve-from"]', '0.5');
  await page.fill('[data-testid="curve-to"]', '2');
  await page.fill('[data-testid="curve-points"]', '4');
  await page.setChecked('[data-testid="curve-f2-exponential"]', false);
  // Record the progress bar while the job runs.
  await page.evaluate(() => {
    window.__progress = [];
    const bar = document.querySelector('[data-testid="curve-progress"]');
    new MutationObserver(() => window.__progress.push(Number(bar.value))).observe(bar, { attributes: true });
    const st = document.querySelector('[data-testid="curve-status"]');
    new MutationObserver(() => window.__progress.push(st.textContent)).observe(st, { childList: true, characterData: true, subtree: true });
  });
  await page.click('[data-testid="curve-run"]');
  await page.waitForSelector('.cmp-curves[data-status="done"]', { timeout: 60000 });
  const seen = await page.evaluate(() => window.__progress);
  assert.ok(seen.some((s) => typeof s === 'string' && /Computing… \d+ of 8 points/.test(s)), `progress shown: ${JSON.stringify(seen)}`);
  assert.equal(await page.locator('[data-testid="curve-plot"] svg path').count(), 3, 'two curves and the diagonal');
  // Data table: ε1, TG(ε2), RR(ε2), diagonal.
  const rows = await page.$$eval('[data-testid="curve-plot"] table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  const head = await page.$$eval('[data-testid="curve-plot"] table thead th', (ths) => ths.map((t) => t.textContent));
  const rr = head.indexOf('RR(ε2)');
  assert.ok(rr > 0, `columns ${head}`);
  const eps1 = [0.5, 1, 1.5, 2];
  for (const e of eps1) {
    const row = rows.find((r) => Math.abs(Number(r[0]) - e) < 1e-9);
    assert.ok(row, `row for ε1 = ${e}`);
    const e2 = Number(row[rr]);
    // RR(ε1) ⊑avg RR(ε2) iff ε2 ≤ ε1 (Chatzikokolakis et al. (CSF 2019) Thm 13); bisection
    // resolution ε1/1000, 4 digits shown.
    assert.ok(e2 <= e * 1.0005 && e2 >= e * (1 - 0.0015), `safe ε2 for ε1 = ${e}: ${e2}`);
  }
  await shot(page, 'compare-curves');
  assertNoErrors(page);
});

test('a long curve computation can be cancelled; the verdicts keep working afterwards', async () => {
  const page = await open();
  await page.fill('[data-testid="curve-n"]', '12');
  await page.fill('[data-testid="curve-points"]', '60');
  // The whole job takes well under a second on a fast machine, less than a round trip from the
  // test: Cancel is clicked from inside the page the moment it is enabled.
  await page.evaluate(() => {
    const cancel = document.querySelector('[data-testid="curve-cancel"]');
    const observer = new MutationObserver(() => {
      if (cancel.disabled) return;
      observer.disconnect();
      cancel.click();
    });
    observer.observe(cancel, { attributes: true, attributeFilter: ['disabled'] });
  });
  await page.click('[data-testid="curve-run"]');
  await page.waitForSelector('.cmp-curves[data-status="cancelled"]');
  assert.equal(await page.textContent('[data-testid="curve-status"]'), 'Cancelled.');
  await example(page, 'swapped-rows');
  assert.equal(await page.getAttribute('[data-testid="verdict-prv"]', 'data-holds'), 'true');
  assertNoErrors(page);
});

test('bad input is flagged next to the cell and nothing is decided; a row added applies to both', async () => {
  const page = await open();
  await example(page, 'swapped-rows');
  await page.fill('[data-testid="cell-A-0-0"]', 'abc');
  await idle(page);
  assert.equal(await page.textContent('#cmp-msg-A-0-0'), 'not a number');
  assert.equal(await page.getAttribute('[data-testid="cell-A-0-0"]', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('[data-testid="verdict-avg"]', 'data-status'), 'pending');
  assert.match(await page.textContent('[data-testid="cmp-summary"]'), /Fix the highlighted entries/);
  assert.doesNotMatch(await page.textContent(SEL), /NaN/);
  await page.fill('[data-testid="cell-A-0-0"]', '0.7');
  await idle(page);
  assert.match(await page.textContent('[data-testid="rowsum-A-0"]'), /expected 1/);
  await page.fill('[data-testid="cell-A-0-0"]', '4/5');
  await idle(page);
  assert.equal(await page.getAttribute('[data-testid="verdict-prv"]', 'data-holds'), 'true');
  // ε must be positive for a family.
  await page.selectOption('[data-testid="preset-A"]', 'truncatedGeometric');
  await idle(page);
  await page.fill('[data-testid="eps-A"]', '-1');
  await idle(page);
  assert.equal(await page.textContent('#cmp-eps-A-msg'), 'ε must be > 0');
  await page.fill('[data-testid="eps-A"]', '1');
  await idle(page);
  // One more secret: both channels grow.
  await page.click('[data-testid="add-row-B"]');
  await idle(page);
  assert.equal(await page.locator('[data-testid="grid-A"] tbody tr').count(), 3);
  assert.equal(await page.locator('[data-testid="grid-B"] tbody tr').count(), 3);
  assert.equal(await page.getAttribute('[data-testid="verdict-avg"]', 'data-status') !== 'pending', true);
  assertNoErrors(page);
});

test('phone width: the section stays usable', async () => {
  const page = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await example(page, 'same-posteriors');
  // Chatzikokolakis et al. (CSF 2019) Example 6 style: same posteriors, so ⊑max both ways; ⊑avg
  // only in the other direction.
  assert.equal(await page.getAttribute('[data-testid="verdict-max"]', 'data-holds'), 'true');
  assert.equal(await page.getAttribute('[data-testid="verdict-avg"]', 'data-holds'), 'false');
  assert.equal(await page.getAttribute('[data-testid="reverse-avg"]', 'data-holds'), 'true');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page wider than the screen by ${overflow}px`);
  await shot(page, 'compare-phone');
  assertNoErrors(page);
});

test('getState / setState round-trip a custom pair and a family pair', async () => {
  const page = await open();
  await example(page, 'swapped-rows');
  await page.fill('[data-testid="cell-B-0-0"]', '19/20');
  await page.fill('[data-testid="cell-B-0-1"]', '1/20');
  await idle(page);
  const saved = await page.evaluate(async () => (await import('./page/sections.js')).sections.compare.getState());
  assert.deepEqual(saved.B, { source: { kind: 'custom' }, cells: [['19/20', '1/20'], ['0.8', '0.2']] });
  await example(page, 'rr-vs-exponential');
  const fam = await page.evaluate(async () => (await import('./page/sections.js')).sections.compare.getState());
  assert.equal(fam.example, 'rr-vs-exponential');
  await page.evaluate(async (s) => (await import('./page/sections.js')).sections.compare.setState({ ...s, example: '' }), saved);
  await idle(page);
  assert.equal(await page.inputValue('[data-testid="cell-B-0-0"]'), '19/20');
  assert.equal(await page.locator('[data-testid="grid-A"] tbody tr').count(), 2);
  // B's rows (19/20, 1/20), (0.8, 0.2): d_B = ln(0.2/0.05) = ln 4 > d_A = ln 3, so ⊑prv fails.
  assert.equal(await page.getAttribute('[data-testid="verdict-prv"]', 'data-holds'), 'false');
  assert.ok(Math.abs((await valueOf(page, 'prv-dB')) - Math.log(4)) < 1e-9, 'd_B = ln 4');
  assert.ok(Math.abs((await valueOf(page, 'prv-dA')) - Math.log(3)) < 1e-9, 'd_A = ln 3');
  // Malformed state is ignored, not thrown.
  await page.evaluate(async () => (await import('./page/sections.js')).sections.compare.setState({ n: 'x', A: 5 }));
  assertNoErrors(page);
});

test('every number shown has a reading: verdicts, witnesses, counterexamples, distances, row sums', async () => {
  const page = await open();
  await assertEveryNumberRead(page, SEL, 50, 'the first example');
  // A witness R, a posterior outside the hull, a gain counterexample and the ⊑prv join.
  await example(page, 'swapped-rows');
  await page.click('[data-testid="prv-join"]');
  await page.waitForSelector('[data-testid="lattice-result"][data-status="done"]');
  await assertEveryNumberRead(page, SEL, 40, 'rows swapped');
  assert.match(await page.getAttribute('[data-testid="max-distance"]', 'title'), /outside the hull of A’s posteriors/);
  assert.match(await page.getAttribute('[data-testid="avg-gap"]', 'title'), /^[\d.e-]+ — positive: this adversary gains more from B than from A/);
  const cell = page.locator('[data-testid="avg-gain"] tbody td').first();
  assert.match(await cell.getAttribute('title'), / — g\(w, x\): what the adversary gains by guessing w when the secret is x$/);
  // The ⊑prv counterexample: ln of a ratio, with e^d beside it.
  await example(page, 'rr-vs-exponential');
  await assertEveryNumberRead(page, SEL, 90, 'randomized response against exponential');
  const dB = await valueOf(page, 'prv-dB');
  assert.ok((await page.getAttribute('[data-testid="prv-dB"]', 'title')).endsWith(`e^d = ${Number(Math.exp(dB).toPrecision(4))}`));
  assertNoErrors(page);
});
