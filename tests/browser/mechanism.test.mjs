// The "Design a mechanism" section in headless Chromium. Expected numbers come from closed forms
// and plain-JS computations in this file (the truncated geometric matrix of
// docs/mathematics.md#mechanism-families and the utility Σ_z max_y π_y H[y][z]), from the paper
// (2/7) and from docs/mathematics.md#optimal-mechanisms (0.32) — never from the page or the Go
// code. Checks: the Table 1 presets, the path of 7 (Theorem 6.2's actual ε above the target), the
// distance-regular presets reaching their bound, ε edits (field and slider), the database panel at
// u = 10⁹, bad custom edge lists reported inline, and no console error anywhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, typeInto } from './harness.mjs';
import { assertEveryNumberRead } from './readings.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const SEC = '#mechanism';

async function settledSection(page, timeout = 60000) {
  await page.waitForFunction(() => document.querySelector('#mechanism')?.dataset.busy === 'false', null, { timeout });
}

async function open() {
  const page = await h.newPage();
  await page.goto(`${h.url}#mechanism`);
  await settledSection(page);
  return page;
}

async function num(page, key) {
  const v = await page.getAttribute(`[data-testid="mech-${key}"]`, 'data-value');
  assert.notEqual(v, null, `mech-${key} has a value`);
  return Number(v);
}

async function text(page, key) {
  return (await page.textContent(`[data-testid="mech-${key}"]`)) ?? '';
}

async function choosePreset(page, id) {
  await page.selectOption('[data-testid="mech-preset"]', id);
  await settledSection(page);
}

function close(a, b, tol, what) {
  assert.ok(Math.abs(a - b) <= tol, `${what}: got ${a}, expected ${b} (±${tol})`);
}

// ---------------------------------------------------------------- independent references

// Truncated geometric on inputs/outputs 0..n−1 with per-step α
// (docs/mathematics.md#mechanism-families).
function truncatedGeometric(n, alpha) {
  const C = [];
  for (let x = 0; x < n; x++) {
    const row = [];
    for (let y = 0; y < n; y++) {
      if (y === 0) row.push(alpha ** x / (1 + alpha));
      else if (y === n - 1) row.push(alpha ** (n - 1 - x) / (1 + alpha));
      else row.push(((1 - alpha) / (1 + alpha)) * alpha ** Math.abs(x - y));
    }
    C.push(row);
  }
  return C;
}

// Utility with binary gain and the optimal guess: Σ_z max_y π_y H[y][z].
function binaryUtility(prior, H) {
  let u = 0;
  for (let z = 0; z < H[0].length; z++) u += Math.max(...H.map((row, y) => prior[y] * row[z]));
  return u;
}

// Theorem 6.1 bound 1/Σ_d n_d e^{−εd} from a distance distribution.
function bound(nd, eps) {
  return 1 / nd.reduce((s, c, d) => s + c * Math.exp(-eps * d), 0);
}

const U6 = new Array(6).fill(1 / 6);
const P6 = [1 / 10, 1 / 5, 1 / 5, 1 / 5, 1 / 5, 1 / 10];
const M1 = truncatedGeometric(6, 2 ** (-1 / 5)); // the paper's M1: α = 2^{−1/5}

function assertNoErrors(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

// ---------------------------------------------------------------- tests

test('Table 1 (uniform prior): truncated geometric 0.2243, optimal 2/7 by the closed form', async () => {
  const page = await open();
  assert.equal(await page.inputValue('[data-testid="mech-preset"]'), 'table1-uniform');
  const tg = binaryUtility(U6, M1);
  close(tg, 0.22434, 5e-6, 'reference M1 utility (docs/mathematics.md#optimal-mechanisms)');
  close(await num(page, 'util-tg'), tg, 1e-9, 'truncated geometric utility');
  assert.equal(await text(page, 'util-tg'), '0.2243');
  close(await num(page, 'util-lp'), 2 / 7, 1e-9, 'optimal utility');
  assert.equal(await text(page, 'util-lp'), '0.2857');
  close(await num(page, 'util-thm62'), 2 / 7, 1e-9, 'M2 utility');
  close(await num(page, 'bound'), 2 / 7, 1e-12, 'Theorem 6.1 bound on K6');
  // M1 is exactly ln 2-DP on the clique; randomized response with ε = ln 2 is M2 here.
  close(await num(page, 'eps-tg'), Math.LN2, 1e-9, 'ε of M1 on the clique');
  close(await num(page, 'util-rr'), 2 / 7, 1e-9, 'randomized response utility');
  assert.equal(await page.getAttribute('[data-testid="mech-detail-lp"]', 'data-path'), 'closed-form');
  assert.match(await text(page, 'detail-lp'), /closed form/);
  assert.match(await text(page, 'bound-tight'), /Tight: the graph is distance-regular \(intersection array \{5; 1\}\)/);
  // Answers labelled A–F in the heat maps and the prior.
  assert.match(await text(page, 'heatmaps'), /A.*F/s);
  assert.equal(await page.getAttribute('[data-testid="mech-exp-eps"]', 'data-value'), '2');
  // The sweep ran and plots every mechanism.
  const plot = await text(page, 'sweep-plot');
  for (const name of ['Optimal', 'Theorem 6.1 bound', 'Truncated geometric', 'Randomized response', 'Exponential']) assert.ok(plot.includes(name), `plot shows ${name}`);
  await page.locator(SEC).screenshot({ path: `${await shotDir()}/mechanism-table1-uniform.png` });
  assertNoErrors(page);
});

test('Table 1 with p(A)=p(F)=1/10: 0.2415, M2 still 2/7, the LP finds 0.32', async () => {
  const page = await open();
  await choosePreset(page, 'table1-prior');
  const tg = binaryUtility(P6, M1);
  close(tg, 0.24152, 5e-6, 'reference M1 utility, non-uniform prior (docs/mathematics.md#optimal-mechanisms)');
  close(await num(page, 'util-tg'), tg, 1e-9, 'truncated geometric utility');
  assert.equal(await text(page, 'util-tg'), '0.2415');
  close(await num(page, 'util-thm62'), 2 / 7, 1e-9, 'M2 utility');
  assert.equal(await text(page, 'util-thm62'), '0.2857');
  close(await num(page, 'util-lp'), 0.32, 1e-7, 'LP optimum (docs/mathematics.md#optimal-mechanisms)');
  assert.equal(await text(page, 'util-lp'), '0.32');
  assert.equal(await page.getAttribute('[data-testid="mech-detail-lp"]', 'data-path'), 'lp');
  // The LP mechanism is ln 2-DP on the clique.
  assert.ok((await num(page, 'eps-lp')) <= Math.LN2 + 1e-7, 'LP mechanism is ε-DP');
  // The page says plainly that the LP beats the paper's M2.
  assert.match(await text(page, 'lp-vs-thm62'), /LP finds a better ε-DP mechanism than Theorem 6\.2 \(the paper’s M2\): utility 0\.32 against 0\.2857/);
  assert.match(await text(page, 'bound-note'), /reference only/);
  for (let i = 0; i < 6; i++) assert.equal(await page.inputValue(`[data-testid="mech-prior-${i}"]`), i === 0 || i === 5 ? '1/10' : '1/5');
  await page.locator(SEC).screenshot({ path: `${await shotDir()}/mechanism-table1-prior.png` });
  assertNoErrors(page);
});

test('path of 7: Theorem 6.2 actual ε > target, the LP optimum is ε-DP and beats M1', async () => {
  const page = await open();
  await choosePreset(page, 'path7');
  const warn = page.locator('[data-testid="mech-thm62-warning"]');
  const actual = Number(await warn.getAttribute('data-actual'));
  const target = Number(await warn.getAttribute('data-target'));
  close(target, Math.LN2, 1e-12, 'target ε');
  assert.ok(actual > target + 0.1, `actual ε ${actual} > target ${target}`);
  assert.match(await warn.textContent(), /actual ε = 0\.9\d* > target 0\.6931: not ε-DP/);
  close(await num(page, 'eps-thm62'), actual, 1e-9, 'the ε column agrees with the warning');
  assert.match(await text(page, 'verdict-thm62'), /not ε-DP/);
  // Any ε-DP mechanism bounds the optimum from below: the truncated geometric with α = 1/2.
  const U7 = new Array(7).fill(1 / 7);
  const tg = binaryUtility(U7, truncatedGeometric(7, 0.5));
  const lp = await num(page, 'util-lp');
  assert.ok(lp >= tg - 1e-9, `LP ${lp} ≥ truncated geometric ${tg}`);
  assert.ok((await num(page, 'eps-lp')) <= Math.LN2 + 1e-7, 'LP mechanism is ε-DP');
  assert.equal(await page.getAttribute('[data-testid="mech-detail-lp"]', 'data-path'), 'lp');
  assert.match(await text(page, 'bound-tight'), /neither distance-regular nor VT\+/);
  await page.locator(SEC).screenshot({ path: `${await shotDir()}/mechanism-path7.png` });
  assertNoErrors(page);
});

test('Petersen, Q3 and Hamming(3,2): the closed form reaches the tight bound', async () => {
  const page = await open();
  const cases = [
    ['petersen', [1, 3, 6], 1, /\{3, 2; 1, 1\}/],
    ['hypercube3', [1, 3, 3, 1], 1, /\{3, 2, 1; 1, 2, 3\}/],
    ['hamming32', [1, 3, 3, 1], 1, /\{3, 2, 1; 1, 2, 3\}/],
  ];
  for (const [id, nd, eps, array] of cases) {
    await choosePreset(page, id);
    const b = bound(nd, eps);
    close(await num(page, 'bound'), b, 1e-12, `${id} bound`);
    close(await num(page, 'util-lp'), b, 1e-9, `${id} optimum`);
    close(await num(page, 'util-thm62'), b, 1e-9, `${id} Theorem 6.2`);
    assert.equal(await page.getAttribute('[data-testid="mech-detail-lp"]', 'data-path'), 'closed-form', id);
    assert.equal(await page.getAttribute('[data-testid="mech-bound-tight"]', 'data-tight'), 'true', id);
    assert.match(await text(page, 'bound-tight'), array, id);
  }
  // The counting query on Hamming(3,2) induces the path of 4 on its answers.
  await choosePreset(page, 'count-query');
  assert.match(await text(page, 'graph-summary'), /^4 answers · 3 edges · diameter 3/);
  await page.locator(SEC).screenshot({ path: `${await shotDir()}/mechanism-count-query.png` });
  assertNoErrors(page);
});

test('changing ε (field and slider) updates the numbers', async () => {
  const page = await open();
  // Clique K6: the optimum is e^ε/(5 + e^ε).
  await typeInto(page, 'mech-eps', 'ln 3');
  await settledSection(page);
  close(await num(page, 'util-lp'), 3 / 8, 1e-9, 'optimum at ε = ln 3');
  close(await num(page, 'bound'), 3 / 8, 1e-12, 'bound at ε = ln 3');
  close(await num(page, 'exp-eps'), 3, 1e-12, 'e^ε');
  close(await num(page, 'util-tg'), binaryUtility(U6, truncatedGeometric(6, 3 ** (-1 / 5))), 1e-9, 'M1 at ε = ln 3');
  assert.equal(await page.inputValue('[data-testid="mech-preset"]'), 'custom');
  await page.locator('[data-testid="mech-eps-range"]').fill('1.5');
  await settledSection(page);
  assert.equal(await page.inputValue('[data-testid="mech-eps"]'), '1.5');
  const e = Math.exp(1.5);
  close(await num(page, 'util-lp'), e / (5 + e), 1e-9, 'optimum at ε = 1.5');
  close(await num(page, 'exp-eps'), e, 1e-9, 'e^ε at 1.5');
  // A bad ε is flagged next to the field, the numbers go stale, never NaN.
  await typeInto(page, 'mech-eps', '-1');
  await page.waitForSelector('#mech-eps.invalid');
  assert.match(await text(page, 'eps-msg'), /positive/);
  assert.doesNotMatch(await page.textContent(SEC), /NaN/);
  await typeInto(page, 'mech-eps', '1');
  await settledSection(page);
  close(await num(page, 'util-lp'), Math.E / (5 + Math.E), 1e-9, 'optimum at ε = 1');
  assertNoErrors(page);
});

test('database panel: bounds for u = 10⁹ individuals are finite', async () => {
  const page = await open();
  await typeInto(page, 'mech-db-u', '1e9');
  await typeInto(page, 'mech-db-v', '2');
  await typeInto(page, 'mech-db-eps', 'ln 2');
  await settledSection(page);
  const u = 1e9;
  // Σ_d C(u,d)(v−1)^d e^{−εd} = (1 + (v−1)e^{−ε})^u; Theorem 5.1: u·log2(v e^ε/(v−1+e^ε)).
  const log2U = -u * Math.log2(1 + 1 / 2);
  const leak = u * Math.log2(4 / 3);
  const got = await num(page, 'db-util-log2');
  assert.ok(Number.isFinite(got), 'log2 of the utility bound is finite');
  close(got, log2U, 1e-9 * u, 'log2 utility bound');
  close(await num(page, 'db-leak'), leak, 1e-9 * u, 'Theorem 5.1');
  close(await num(page, 'db-ind'), Math.log2(4 / 3), 1e-12, 'Proposition 2');
  close(await num(page, 'db-domain'), u, 1e-6, 'log2 |X|');
  // The utility bound underflows a double: shown as a power of two, not 0 or NaN.
  assert.match(await text(page, 'db-util'), /^2\^\(−5\.85×10⁸\)$/);
  assert.match(await text(page, 'db-util-msg'), /10\^\(−1\.761×10⁸\)/);
  await typeInto(page, 'mech-db-v', '1');
  await page.waitForSelector('#mech-db-v.invalid');
  assert.match(await text(page, 'db-v-msg'), /at least 2/);
  await page.locator('[data-testid="mech-db"]').screenshot({ path: `${await shotDir()}/mechanism-database.png` });
  assertNoErrors(page);
});

test('a bad custom edge list is reported inline and the section keeps working', async () => {
  const page = await open();
  await page.selectOption('[data-testid="mech-kind"]', 'custom');
  await typeInto(page, 'mech-cn', '4');
  await typeInto(page, 'mech-edges', '0-1, 1-1');
  await settledSection(page);
  assert.match(await text(page, 'edges-msg'), /self-loop/);
  assert.ok(await page.locator('#mech-edges.invalid').count(), 'textarea flagged');
  await typeInto(page, 'mech-edges', '0-1, 1-7');
  await settledSection(page);
  assert.match(await text(page, 'edges-msg'), /outside 0\.\.3/);
  await typeInto(page, 'mech-edges', '0-1, 1-2, 0-1');
  await settledSection(page);
  assert.match(await text(page, 'edges-msg'), /duplicate|twice|repeat/i);
  await typeInto(page, 'mech-edges', '0-1, 1');
  await settledSection(page);
  assert.match(await text(page, 'edges-msg'), /incomplete/);
  await page.locator(SEC).screenshot({ path: `${await shotDir()}/mechanism-bad-edges.png` });
  assert.doesNotMatch(await page.textContent(SEC), /NaN/);
  // A good list: the path 0-1-2-3 with ε = ln 2, uniform prior.
  await typeInto(page, 'mech-edges', '0-1, 1-2, 2-3');
  await settledSection(page);
  assert.equal(await text(page, 'edges-msg'), '');
  assert.match(await text(page, 'graph-summary'), /^4 answers · 3 edges · diameter 3/);
  const U4 = new Array(4).fill(1 / 4);
  const tg = binaryUtility(U4, truncatedGeometric(4, 0.5));
  close(await num(page, 'util-tg'), tg, 1e-9, 'truncated geometric on the path of 4');
  assert.ok((await num(page, 'util-lp')) >= tg - 1e-9, 'the optimum is at least the geometric');
  // A disconnected graph is explained.
  await typeInto(page, 'mech-edges', '0-1, 2-3');
  await settledSection(page);
  assert.match(await text(page, 'disconnected'), /disconnected/);
  assertNoErrors(page);
});

test('a long LP shows progress and can be cancelled, then computed again', async () => {
  const page = await open();
  // 16 × 16 = 256 answers: above the auto-run limit the LP waits for a click, and it takes
  // seconds (65,536 variables), so Cancel is there to click whatever the machine; the progress
  // line appears at once on a click, not after a delay.
  await page.selectOption('[data-testid="mech-kind"]', 'grid');
  await typeInto(page, 'mech-w', '16');
  await typeInto(page, 'mech-h', '16');
  await settledSection(page);
  assert.match(await text(page, 'graph-summary'), /^256 answers · 480 edges · diameter 30/);
  assert.equal(await page.getAttribute('[data-testid="mech-row-lp"]', 'data-status'), 'waiting');
  assert.match(await text(page, 'lp-progress'), /runs on request/);
  await page.click('[data-testid="mech-lp-compute"]');
  assert.match(await text(page, 'lp-progress'), /Solving the linear program/);
  await page.locator('[data-testid="mech-lp-cancel"]').click();
  await settledSection(page);
  assert.equal(await page.getAttribute('[data-testid="mech-row-lp"]', 'data-status'), 'cancelled');
  assert.match(await text(page, 'lp-progress'), /cancelled/);
  // The rest of the section is intact and the worker answers again.
  assert.match(await text(page, 'graph-summary'), /^256 answers · 480 edges · diameter 30/);
  assert.ok(Number.isFinite(await num(page, 'util-tg')), 'the geometric row is still shown');
  await page.click('[data-testid="mech-lp-run"]');
  await settledSection(page, 300000);
  assert.equal(await page.getAttribute('[data-testid="mech-row-lp"]', 'data-status'), 'ok');
  // Any ε-DP mechanism bounds the optimum from below: the truncated geometric, which on a grid
  // runs at ε/16 per step (its edges span 16 steps of 0..255), checked ε-DP here.
  assert.ok((await num(page, 'eps-tg')) <= Math.LN2 + 1e-9, 'the geometric is ε-DP');
  assert.ok((await num(page, 'util-lp')) >= (await num(page, 'util-tg')) - 1e-9, 'the optimum beats the (ε-DP) geometric');
  assert.ok((await num(page, 'eps-lp')) <= Math.LN2 + 1e-7, 'LP mechanism is ε-DP');
  // 256 answers: the ε sweep waits for a click.
  assert.ok(await page.locator('[data-testid="mech-sweep-run"]').count(), 'sweep button offered');
  assertNoErrors(page);
});

test('grids up to 8 × 8 solve the LP by themselves', async () => {
  const page = await open();
  await page.selectOption('[data-testid="mech-kind"]', 'grid');
  await typeInto(page, 'mech-w', '8');
  await typeInto(page, 'mech-h', '8');
  await settledSection(page, 120000);
  assert.equal(await page.getAttribute('[data-testid="mech-row-lp"]', 'data-status'), 'ok');
  assert.equal(await page.locator('[data-testid="mech-lp-compute"]').count(), 0);
  assert.ok((await num(page, 'util-lp')) >= (await num(page, 'util-tg')) - 1e-9, 'the optimum beats the geometric');
  assert.ok((await num(page, 'eps-lp')) <= Math.LN2 + 1e-7, 'LP mechanism is ε-DP');
  assertNoErrors(page);
});

test('getState/setState round-trip (for URL sharing) and bad state is ignored', async () => {
  const page = await open();
  await page.evaluate(async () => {
    const { sections } = await import('./page/sections.js');
    sections.mechanism.setState({ kind: 'cycle', n: '5', epsilon: '1', gain: 'nonsense', prior: null, db: { u: '10^6' } });
  });
  await settledSection(page);
  // C5: n_d = 1, 2, 2.
  close(await num(page, 'bound'), bound([1, 2, 2], 1), 1e-12, 'cycle bound');
  close(await num(page, 'util-lp'), bound([1, 2, 2], 1), 1e-9, 'cycle optimum');
  const st = await page.evaluate(async () => (await import('./page/sections.js')).sections.mechanism.getState());
  assert.equal(st.kind, 'cycle');
  assert.equal(st.gain, 'binary', 'an unknown gain falls back to binary');
  assert.equal(st.db.u, '10^6');
  assert.equal(await page.inputValue('[data-testid="mech-kind"]'), 'cycle');
  assertNoErrors(page);
});

test('phone width: the section fits and shows the Table 1 numbers', async () => {
  const page = await h.newPage({ viewport: { width: 390, height: 900 } });
  await page.goto(`${h.url}#mechanism`);
  await settledSection(page);
  assert.equal(await text(page, 'util-lp'), '0.2857');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal page scroll (${overflow}px)`);
  await page.locator(SEC).screenshot({ path: `${await shotDir()}/mechanism-phone.png` });
  assertNoErrors(page);
});

async function shotDir() {
  const { SCREENSHOTS } = await import('./harness.mjs');
  return SCREENSHOTS;
}

test('every number shown has a reading; the exponential mechanism measures the grid’s own distance', async () => {
  let page = await open();
  // Table 1, the LP's certificate opened, and the database panel at u = 10⁹.
  await choosePreset(page, 'table1-prior');
  await page.locator('[data-testid="mech-lp-certificate"] summary').click();
  await typeInto(page, 'mech-db-u', '1e9');
  await settledSection(page);
  await assertEveryNumberRead(page, SEC, 25, 'Table 1');
  assert.match(await page.getAttribute('[data-testid="mech-util-lp"]', 'title'), /^0\.3[12]\d* — chance that the best guess from the output is the true answer/);
  // ln 2 on adjacent answers: e^ε = 2.
  assert.match(await page.getAttribute('[data-testid="mech-eps-lp"]', 'title'), /factor ≤ e\^ε = 2$/);
  assertNoErrors(page);
  // A 3 × 3 grid (uniform prior): cells 0 and 3 are neighbours though 3 indices apart. The
  // exponential mechanism is e^(−ε d/2), rows normalized, d = |Δcolumn| + |Δrow| (the grid's
  // steps), written out here.
  page = await open();
  await page.selectOption('[data-testid="mech-kind"]', 'grid');
  await typeInto(page, 'mech-w', '3');
  await typeInto(page, 'mech-h', '3');
  await typeInto(page, 'mech-eps', '1');
  await settledSection(page);
  const steps = (a, b) => Math.abs((a % 3) - (b % 3)) + Math.abs(Math.floor(a / 3) - Math.floor(b / 3));
  const E = Array.from({ length: 9 }, (_, y) => {
    const w = Array.from({ length: 9 }, (_, z) => Math.exp(-steps(y, z) / 2));
    const sum = w.reduce((a, b) => a + b, 0);
    return w.map((v) => v / sum);
  });
  close(await num(page, 'util-exp'), binaryUtility(new Array(9).fill(1 / 9), E), 1e-9, 'exponential utility on the grid');
  // Its smallest ε on the grid, from the matrix: the largest ln E[y][z]/E[y′][z] over edges y ∼ y′.
  let worst = 0;
  for (let y = 0; y < 9; y++) for (let y2 = 0; y2 < 9; y2++) if (steps(y, y2) === 1) for (let z = 0; z < 9; z++) worst = Math.max(worst, Math.log(E[y][z] / E[y2][z]));
  close(await num(page, 'eps-exp'), worst, 1e-9, 'smallest ε of the exponential mechanism on the grid');
  assert.ok(worst <= 1 + 1e-12, 'ε-DP on the grid at ε itself');
  assert.match(await text(page, 'detail-exp'), /the graph’s shortest-path distance/);
  await assertEveryNumberRead(page, SEC, 20, 'grid');
  assertNoErrors(page);
});
