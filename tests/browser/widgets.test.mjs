// The embeddable widgets (web/widgets.js) on the demo course page web/embed.html, in headless
// Chromium: every widget shows the numbers that plain-JS computations in this file give (closed
// forms and the formulas of docs/mathematics.md, not the page's code), re-renders when an attribute
// changes, recomputes when a reader edits a cell or moves the ε slider, reports bad attributes
// inside the widget without disturbing the page, and logs no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, SCREENSHOTS } from './harness.mjs';
import { presetById, numericChannel } from '../../web/lib/presets.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

// ---------------------------------------------------------------- plain-JS references

const log2 = Math.log2;
const sum = (a) => a.reduce((s, v) => s + v, 0);
const H = (p) => -sum(p.filter((v) => v > 0).map((v) => v * log2(v)));

function joint(prior, C) {
  return C.map((row, x) => row.map((c) => prior[x] * c));
}
function mutualInformation(prior, C) {
  const J = joint(prior, C);
  const py = C[0].map((_, y) => sum(J.map((r) => r[y])));
  let I = 0;
  J.forEach((row, x) => row.forEach((j, y) => { if (j > 0) I += j * log2(j / (prior[x] * py[y])); }));
  return I;
}
function posteriorBayes(prior, C) {
  const J = joint(prior, C);
  return sum(C[0].map((_, y) => Math.max(...J.map((r) => r[y]))));
}
function minEntropyLeakage(prior, C) {
  return log2(posteriorBayes(prior, C) / Math.max(...prior));
}
// docs/mathematics.md#mechanism-families: truncated geometric on 0..n−1, α = e^−ε.
function truncatedGeometric(n, eps) {
  const a = Math.exp(-eps);
  return Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) => {
    if (y === 0) return a ** x / (1 + a);
    if (y === n - 1) return a ** (n - 1 - x) / (1 + a);
    return ((1 - a) / (1 + a)) * a ** Math.abs(x - y);
  }));
}
// Utility with binary gain and the best guess (docs/mathematics.md#optimal-mechanisms): Σ_z max_y
// π_y H[y][z].
const utility = (prior, M) => posteriorBayes(prior, M);
// The smallest ε for which M is ε-DP on the edges given.
function dpEpsilon(M, edges) {
  let e = 0;
  for (const [a, b] of edges) {
    for (let z = 0; z < M[0].length; z++) e = Math.max(e, Math.abs(Math.log(M[a][z] / M[b][z])));
  }
  return e;
}
// d_C(x, x′) = max_y |ln C(x,y)/C(x′,y)| (the privacy metric of docs/mathematics.md#refinement).
function metric(C) {
  return C.map((r1) => C.map((r2) => Math.max(...r1.map((v, y) => Math.abs(Math.log(v / r2[y]))))));
}
function inverse3(M) {
  const [[a, b, c], [d, e, f], [g, hh, i]] = M;
  const det = a * (e * i - f * hh) - b * (d * i - f * g) + c * (d * hh - e * g);
  return [
    [(e * i - f * hh) / det, (c * hh - b * i) / det, (b * f - c * e) / det],
    [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
    [(d * hh - e * g) / det, (b * g - a * hh) / det, (a * e - b * d) / det],
  ];
}
const mul = (A, B) => A.map((r) => B[0].map((_, j) => sum(r.map((v, k) => v * B[k][j]))));
const rr = (n, eps) => Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, y) => (x === y ? Math.exp(eps) : 1) / (Math.exp(eps) + n - 1)));

// ---------------------------------------------------------------- helpers

async function open(options) {
  const page = await h.newPage(options);
  await page.goto(`${h.url}embed.html`);
  await page.waitForFunction(() => {
    const all = [...document.querySelectorAll('qif-channel, qif-mechanism, qif-refinement')];
    return all.length > 0 && all.every((w) => w.dataset.state === 'ready');
  }, null, { timeout: 20000 });
  return page;
}

async function value(page, widget, key) {
  const v = await page.locator(`#${widget}`).locator(`[data-testid="value-${key}"]`).getAttribute('data-value');
  return Number(v);
}

function close(got, want, what, tol = 1e-9) {
  assert.ok(Math.abs(got - want) <= tol * Math.max(1, Math.abs(want)), `${what}: got ${got}, expected ${want}`);
}

// Applies attribute changes to a widget ([name, value] pairs; value null removes it) and waits
// for its next computation (its qif-update event), whose detail it returns.
async function updated(page, id, changes) {
  return page.evaluate(async ({ id, changes }) => {
    const el = document.getElementById(id);
    const done = new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no qif-update from #${id} within 10 s (state ${el.dataset.state})`)), 10000);
      el.addEventListener('qif-update', (e) => { clearTimeout(t); resolve(e.detail); }, { once: true });
    });
    for (const [k, v] of changes) {
      if (v === null) el.removeAttribute(k);
      else el.setAttribute(k, v);
    }
    return done;
  }, { id, changes });
}

function assertNoErrors(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

// ---------------------------------------------------------------- tests

test('embed.html renders every widget with the expected numbers', async () => {
  const page = await open();
  assert.equal(await page.locator('qif-channel, qif-mechanism, qif-refinement').count(), 6);

  // Password checker (Alvim et al. (FOSAD 2011) Table 2b), uniform prior on 8 strings: H = 3, I =
  // 1.75 (closed form: H(1/2, 1/4, 1/8, 1/8)), min-entropy leakage log2 4 = 2, posterior Bayes
  // vulnerability 4/8.
  const C = numericChannel(presetById('password-iterations'));
  const u8 = new Array(8).fill(1 / 8);
  close(await value(page, 'w-password', 'shannonEntropy'), 3, 'H(X)');
  close(await value(page, 'w-password', 'mutualInformation'), 1.75, 'I(X;Y) closed form');
  close(await value(page, 'w-password', 'mutualInformation'), mutualInformation(u8, C), 'I(X;Y)');
  close(await value(page, 'w-password', 'minEntropyLeakage'), 2, 'min-entropy leakage');
  close(await value(page, 'w-password', 'posteriorBayesVulnerability'), 0.5, 'V[π▷C]');
  assert.equal(await page.locator('#w-password [data-testid="value-mutualInformation"]').textContent(), '1.75');
  assert.equal(await page.locator('#w-password [data-testid="cell-6-3"]').inputValue(), '1');

  // Binary symmetric channel with flip probability 1/4.
  const bsc = [[0.75, 0.25], [0.25, 0.75]];
  close(await value(page, 'w-bsc', 'mutualInformation'), 1 - H([0.25, 0.75]), 'BSC: 1 − H(1/4)');
  close(await value(page, 'w-bsc', 'mutualInformation'), mutualInformation([0.5, 0.5], bsc), 'BSC I');
  close(await value(page, 'w-bsc', 'minEntropyLeakage'), log2(1.5), 'BSC min-entropy leakage');
  close(await value(page, 'w-bsc', 'posteriorBayesVulnerability'), 0.75, 'BSC V');
  close(await value(page, 'w-bsc', 'bayesLeakageMult'), 1.5, 'BSC multiplicative leakage');
  assert.equal(await page.locator('#w-bsc [data-testid="title"]').textContent(), 'Binary symmetric channel, flip probability 1/4');

  // Randomized response, clique of 6, ε = ln 2: utility e^ε/(e^ε + 5) = 2/7 = the bound of
  // Theorem 6.1 (1/Σ_d n_d e^{−εd} = 1/(1 + 5/2)); it is exactly ln 2-DP on the clique.
  close(await value(page, 'w-rr', 'utility'), 2 / 7, 'RR utility');
  close(await value(page, 'w-rr', 'bound'), 1 / (1 + 5 / 2), 'clique bound');
  close(await value(page, 'w-rr', 'actualEpsilon'), Math.log(2), 'RR actual ε');
  assert.match(await page.locator('#w-rr [data-testid="epsilon-value"]').textContent(), /ε = 0\.6931 nats · e\^ε = 2/);
  assert.equal(await page.locator('#w-rr figure.plot rect').count(), 36, 'a 6×6 heat map');
  assert.equal(await page.locator('#w-rr [data-testid="warning"]').textContent(), '');

  // Truncated geometric on a path of 6 (docs/mathematics.md#mechanism-families): utility from the
  // formula; ln 2-DP on the path; the bound for the path (vertex-dependent n_d) is the API's,
  // checked to be ≥ the utility.
  const G = truncatedGeometric(6, Math.log(2));
  const u6 = new Array(6).fill(1 / 6);
  const pathEdges = [0, 1, 2, 3, 4].map((i) => [i, i + 1]);
  close(await value(page, 'w-geo', 'utility'), utility(u6, G), 'geometric utility');
  close(await value(page, 'w-geo', 'actualEpsilon'), dpEpsilon(G, pathEdges), 'geometric ε on the path');
  close(dpEpsilon(G, pathEdges), Math.log(2), 'the reference itself is ln 2-DP', 1e-12);
  assert.ok((await value(page, 'w-geo', 'bound')) >= utility(u6, G) - 1e-12, 'utility ≤ bound');
  // The heat map's data table carries the matrix.
  const cell = await page.locator('#w-geo figure.plot table.mini tbody tr:nth-child(1) td:nth-child(2)').textContent();
  assert.equal(Number(cell), Number(G[0][0].toPrecision(4)));

  // Refinement: RR(ln 4) ⊑ RR(ln 2) for all three orders. Independently: B = A·R with
  // R = A⁻¹B row-stochastic and non-negative (⊑avg, hence ⊑max), and d_A ≥ d_B pointwise (⊑prv).
  const A = rr(3, Math.log(4));
  const B = rr(3, Math.log(2));
  const R = mul(inverse3(A), B);
  assert.ok(R.flat().every((v) => v >= -1e-12) && R.every((r) => Math.abs(sum(r) - 1) < 1e-12), 'R is a channel');
  const dA = metric(A);
  const dB = metric(B);
  assert.ok(dA.every((r, i) => r.every((v, j) => v >= dB[i][j] - 1e-12)), 'd_A ≥ d_B');
  for (const order of ['avg', 'max', 'prv']) {
    assert.equal(await page.locator(`#w-refine [data-testid="holds-${order}"]`).textContent(), 'holds', `A ⊑${order} B`);
    // The other way round fails: B⁻¹A has negative entries and d_A > d_B somewhere.
    assert.equal(await page.locator(`#w-refine-rev [data-testid="holds-${order}"]`).textContent(), 'fails', `B ⋢${order} A`);
  }
  assert.ok(mul(inverse3(B), A).flat().some((v) => v < -1e-9), 'A is not a post-processing of B');
  assert.match(await page.locator('#w-refine-rev [data-testid="verdict-prv"]').textContent(), /d_B = 1\.386 > d_A = 0\.6931/);
  assert.match(await page.locator('#w-refine-rev [data-testid="verdict-avg"]').textContent(), /V_g\[π▷B\] = .* > V_g\[π▷A\]/);

  await h.screenshot(page, 'widgets-embed');
  await page.locator('#w-rr').screenshot({ path: `${SCREENSHOTS}/widgets-mechanism.png` });
  assertNoErrors(page);
});

test('changing an attribute re-renders the widget', async () => {
  const page = await open();
  // ε = ln 3: randomized response's utility 3/(3 + 5) = 3/8, still equal to the bound.
  const d = await updated(page, 'w-rr', [['epsilon', 'ln 3']]);
  close(d.utility, 3 / 8, 'event detail');
  close(await value(page, 'w-rr', 'utility'), 3 / 8, 'RR utility at ln 3');
  close(await value(page, 'w-rr', 'bound'), 3 / 8, 'bound at ln 3');
  close(Number(await page.locator('#w-rr [data-testid="epsilon"]').inputValue()), Math.log(3), 'the slider follows', 1e-12);

  // Another mechanism on the same clique. The truncated geometric treats the answers as 0..5 and
  // is ε′-private for |x − y|; the clique's edges span up to 5 such steps, so (as on the page)
  // it runs at ε′ = ε/5 and is exactly ε-DP on the clique. The widget says how ε′ was chosen.
  const d2 = await updated(page, 'w-rr', [['mechanism', 'truncatedGeometric'], ['epsilon', '0.5']]);
  const G = truncatedGeometric(6, 0.5 / 5);
  const clique = [];
  for (let a = 0; a < 6; a++) for (let b = a + 1; b < 6; b++) clique.push([a, b]);
  close(dpEpsilon(G, clique), 0.5, 'reference: TG(ε/5) is ε-DP on the clique', 1e-12);
  close(await value(page, 'w-rr', 'actualEpsilon'), 0.5, 'geometric ε on the clique');
  close(await value(page, 'w-rr', 'utility'), utility(new Array(6).fill(1 / 6), G), 'geometric utility on the clique');
  G.forEach((row, i) => row.forEach((v, j) => close(d2.matrix[i][j], v, `H[${i}][${j}]`, 1e-12)));
  assert.match(await page.locator('#w-rr [data-testid="scaling"]').textContent(), /per step ε\/5 = 0\.1, so that it is ε-DP on this graph/);
  assert.equal(await page.locator('#w-rr [data-testid="warning"]').textContent(), '');

  // The optimal mechanism for a non-uniform prior (Alvim et al. (ICALP 2011) Table 1: A = F = 1/10,
  // others 1/5, ε = ln 2): the LP optimum is 0.32, above the 2/7 of the uniform-prior optimum.
  await updated(page, 'w-rr', [['mechanism', 'optimal'], ['epsilon', 'ln 2'], ['prior', '[0.1,0.2,0.2,0.2,0.2,0.1]']]);
  close(await value(page, 'w-rr', 'utility'), 0.32, 'Table 1 LP optimum', 1e-6);

  // A new matrix for the BSC widget: flip probability 1/2 leaks nothing.
  await updated(page, 'w-bsc', [['matrix', '1/2 1/2; 1/2 1/2']]);
  close(await value(page, 'w-bsc', 'mutualInformation'), 0, 'no leakage', 1e-12);
  assert.equal(await page.locator('#w-bsc [data-testid="cell-0-0"]').inputValue(), '1/2');

  // A preset switch and a measure list.
  await updated(page, 'w-password', [['preset', 'password-plain'], ['measures', 'mutualInformation,minCapacity']]);
  const C = numericChannel(presetById('password-plain'));
  close(await value(page, 'w-password', 'mutualInformation'), mutualInformation(new Array(8).fill(1 / 8), C), 'verdict-only checker');
  close(await value(page, 'w-password', 'minCapacity'), 1, 'min-capacity log2 2');
  assert.equal(await page.locator('#w-password [data-testid="result-shannonEntropy"]').count(), 0);

  // Swapping a and b flips the refinement verdicts.
  const a = await page.getAttribute('#w-refine', 'a');
  const b = await page.getAttribute('#w-refine', 'b');
  await updated(page, 'w-refine', [['a', b], ['b', a]]);
  assert.equal(await page.locator('#w-refine [data-testid="holds-avg"]').textContent(), 'fails');
  assertNoErrors(page);
});

test('readers edit cells and move the slider; results follow', async () => {
  const page = await open();
  // Make the checker constant-time: (Fail,2) and (Fail,3) go to (Fail,1). Then only OK/FAIL
  // is visible: I = H(1/8, 7/8).
  const done = page.evaluate(() => new Promise((r) => document.getElementById('w-password').addEventListener('qif-update', (e) => r(e.detail), { once: false })));
  for (const [row, from] of [[4, 1], [5, 1], [7, 2]]) {
    await page.locator(`#w-password [data-testid="cell-${row}-${from}"]`).fill('0');
    await page.locator(`#w-password [data-testid="cell-${row}-0"]`).fill('1');
  }
  await done;
  await page.waitForFunction(() => document.getElementById('w-password').dataset.state === 'ready');
  close(await value(page, 'w-password', 'mutualInformation'), H([1 / 8, 7 / 8]), 'constant-time checker');
  close(await value(page, 'w-password', 'minEntropyLeakage'), 1, 'two outcomes: log2 2');

  // A bad cell is flagged in place; the widget says which one.
  await page.locator('#w-password [data-testid="cell-0-0"]').fill('abc');
  await page.waitForFunction(() => document.getElementById('w-password').dataset.state === 'error');
  assert.equal(await page.locator('#w-password [data-testid="cell-0-0"]').getAttribute('aria-invalid'), 'true');
  assert.match(await page.locator('#w-password [data-testid="error"]').textContent(), /C\(000, \(Fail,1\)\): not a number/);
  // A row that does not sum to 1: the API's message, inline.
  await page.locator('#w-password [data-testid="cell-0-0"]').fill('0.5');
  await page.waitForFunction(() => document.getElementById('w-password').dataset.state === 'error'
    && /sums to/.test(document.getElementById('w-password').shadowRoot.querySelector('[data-testid="error"]').textContent));
  assert.doesNotMatch(await page.locator('#w-password').textContent(), /NaN/);

  // The slider of the RR widget, moved with the keyboard: utility = e^ε/(e^ε + 5) at the new ε.
  const slider = page.locator('#w-rr [data-testid="epsilon"]');
  await slider.fill('1.5');
  await page.waitForFunction(() => document.getElementById('w-rr').dataset.state === 'ready'
    && Math.abs(Number(document.getElementById('w-rr').shadowRoot.querySelector('[data-testid="value-utility"]').dataset.value) - Math.exp(1.5) / (Math.exp(1.5) + 5)) < 1e-12);
  close(await value(page, 'w-rr', 'actualEpsilon'), 1.5, 'RR ε follows the slider');
  close(utility(new Array(6).fill(1 / 6), rr(6, 1.5)), Math.exp(1.5) / (Math.exp(1.5) + 5), 'reference RR utility', 1e-12);
  // Every input of every widget has an accessible name.
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('qif-channel, qif-mechanism, qif-refinement')]
    .flatMap((w) => [...w.shadowRoot.querySelectorAll('input')])
    .filter((el) => !(el.getAttribute('aria-label') || (el.id && el.getRootNode().querySelector(`label[for="${el.id}"]`))))
    .map((el) => el.outerHTML));
  assert.deepEqual(unnamed, []);
  assertNoErrors(page);
});

test('invalid attributes show an inline error and never throw into the page', async () => {
  const page = await open();
  const cases = [
    ['qif-channel', { matrix: '[[0.5, 0.5], [1' }, /matrix: is not valid JSON/],
    ['qif-channel', { preset: 'nope' }, /preset: unknown preset “nope”; known: password-iterations/],
    ['qif-channel', {}, /matrix: give a channel matrix/],
    ['qif-channel', { matrix: '[[1,0],[0,1]]', prior: '[1]' }, /prior: has 1 entries; the channel has 2 rows/],
    ['qif-channel', { matrix: '[[1,0],[0,1]]', measures: 'mutualInformation,foo' }, /measures: unknown measure “foo”/],
    ['qif-channel', { matrix: '[[1,"x"],[0,1]]' }, /matrix: entry \(1, 2\) “x”: not a number/],
    ['qif-channel', { matrix: '[[0.5,0.6],[0,1]]' }, /channel: row “x1” \(row 1\) sums to 1\.1/],
    ['qif-channel', { matrix: '{"__proto__": {"x": 1}}' }, /matrix: must be a non-empty array of rows/],
    ['qif-mechanism', { epsilon: '-1' }, /epsilon: ε must be positive/],
    ['qif-mechanism', { epsilon: 'abc' }, /epsilon: cannot read “abc”/],
    ['qif-mechanism', { graph: 'star' }, /graph: unknown graph “star”/],
    ['qif-mechanism', { n: '1000' }, /n: must be between 2 and 40/],
    ['qif-mechanism', { mechanism: 'laplace' }, /mechanism: unknown mechanism “laplace”/],
    ['qif-mechanism', { graph: '{"n": 3, "edges": [[0, 7]]}' }, /graph: edges must be pairs/],
    ['qif-mechanism', { prior: '[0.5, 0.5]' }, /prior: has 2 entries; the graph has 6 vertices/],
    ['qif-refinement', { a: '[[1,0],[0,1]]' }, /b: give channel B/],
    ['qif-refinement', { a: '[[1,0],[0,1]]', b: '[[1],[1],[1]]' }, /b: has 3 rows; A has 2/],
    ['qif-channel', { matrix: '<img src=x onerror="window.__pwned=1">' }, /matrix: entry \(1, 1\) “<img”: not a number/],
  ];
  const got = await page.evaluate(async (cases) => {
    const out = [];
    const box = document.createElement('div');
    document.querySelector('main').append(box);
    for (const [tag, attrs] of cases) {
      const el = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      box.append(el);
      const t0 = performance.now();
      while (el.dataset.state !== 'error' && performance.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 20));
      out.push({ state: el.dataset.state, text: el.shadowRoot.querySelector('[data-testid="error"]')?.textContent ?? '' });
    }
    return out;
  }, cases);
  cases.forEach(([tag, attrs, re], i) => {
    assert.equal(got[i].state, 'error', `${tag} ${JSON.stringify(attrs)}: state`);
    assert.match(got[i].text, re, `${tag} ${JSON.stringify(attrs)}`);
  });
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img').count(), 0, 'the payload stayed text');
  // Fixing the attribute brings the widget back.
  const fixed = await page.evaluate(async () => {
    const el = document.querySelector('main > div:last-child qif-channel');
    const done = new Promise((r) => el.addEventListener('qif-update', (e) => r(e.detail), { once: true }));
    el.setAttribute('matrix', '[[1,0],[0,1]]');
    el.removeAttribute('preset');
    return done;
  });
  close(fixed.mutualInformation, 1, 'identity channel on 2 secrets leaks 1 bit');
  await page.locator('main > div:last-child').screenshot({ path: `${SCREENSHOTS}/widgets-errors.png` });
  // The rest of the page kept working.
  assert.equal(await page.evaluate(() => document.getElementById('w-rr').dataset.state), 'ready');
  assertNoErrors(page);
});

test('widgets share one worker and fit a phone screen', async () => {
  const page = await h.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(`${h.url}embed.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('qif-channel, qif-mechanism, qif-refinement')].every((w) => w.dataset.state === 'ready'), null, { timeout: 20000 });
  assert.equal(workers.length, 1, `one worker for six widgets: ${workers.join(', ')}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await h.screenshot(page, 'widgets-phone');
  assertNoErrors(page);
});

test('<qif-mechanism mechanism="exponential"> on a grid measures the grid’s distance, as the page does', async () => {
  const page = await open();
  // 3 × 3 grid: cells 0 and 3 are neighbours (one step) though 3 indices apart. The matrix is
  // e^(−ε d/2), rows normalized, with d = |Δcolumn| + |Δrow|, written out here.
  const d = await updated(page, 'w-rr', [['graph', 'grid'], ['n', '3x3'], ['mechanism', 'exponential'], ['epsilon', '1'], ['prior', null]]);
  const steps = (a, b) => Math.abs((a % 3) - (b % 3)) + Math.abs(Math.floor(a / 3) - Math.floor(b / 3));
  for (let y = 0; y < 9; y++) {
    const w = Array.from({ length: 9 }, (_, z) => Math.exp(-steps(y, z) / 2));
    w.forEach((v, z) => close(d.matrix[y][z], v / sum(w), `E[${y}][${z}]`, 1e-12));
  }
  assert.ok((await value(page, 'w-rr', 'actualEpsilon')) <= 1 + 1e-12, 'ε-DP on the grid at ε');
  assert.match(await page.locator('#w-rr [data-testid="scaling"]').textContent(), /the graph’s shortest-path distance/);
  assertNoErrors(page);
});
