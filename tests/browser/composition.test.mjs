// The "Composition" section and the <qif-composition> widget in headless Chromium, read as a person
// sees them. Every expected number is computed here, independently of the page and of the Go code:
//   - Gaussians: a composition of Gaussians with μᵢ = Δ/σᵢ is μ-GDP with μ = √Σμᵢ², and
//     δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle and Wang 2018), solved for ε by bisection with
//     an erfc written here;
//   - k-fold randomized response with ε₀: the finite sum of Kairouz, Oh, Viswanath (2015, Thm 3.3),
//     solved for ε by bisection;
//   - naive Σεᵢ and advanced composition ε₀√(2k ln(1/δ)) + kε₀(e^ε₀ − 1) (Dwork, Rothblum, Vadhan 2010);
//   - ten Laplace mechanisms of scale 10 and the DP-SGD preset against Google's dp_accounting (its
//     PLD accountant, discretization 1e-4, run on this machine: 0.98996 and 6.18774 at δ = 1e-5).
// It also checks messages beside wrong fields, δ = 0 for a Gaussian (ε = ∞, said so), Cancel, the
// Channel section's channel as an event, the share-link round trip, the export of the curve, a
// widget on a lesson page (and one in the iframe mode), and zero console errors. Screenshots in
// test-output/screenshots/composition-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { startHarness, bundleFolder, SCREENSHOTS, ROOT } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const SEL = (id) => `[data-testid="${id}"]`;

// ---------------------------------------------------------------- references, written here

// erfc to about 1e-15: erf's Taylor series below 2, Lentz's continued fraction above.
function erfc(x) {
  if (x < 0) return 2 - erfc(-x);
  if (x < 2) {
    // erf by its Taylor series: Σ (−1)ⁿ x^(2n+1) / (n! (2n+1)), 2/√π.
    let sum = 0;
    let term = x;
    for (let n = 0; n < 100; n++) {
      sum += term / (2 * n + 1);
      term *= (-x * x) / (n + 1);
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // Lentz's continued fraction erfc(x) = e^{−x²}/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …)))).
  let f = x;
  const tiny = 1e-300;
  let C = f;
  let D = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    D = x + a * D;
    D = D === 0 ? tiny : 1 / D;
    C = x + a / C;
    if (C === 0) C = tiny;
    const delta = C * D;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}
const Phi = (x) => 0.5 * erfc(-x / Math.SQRT2);
const gdpDelta = (mu, e) => Phi(-e / mu + mu / 2) - Math.exp(e) * Phi(-e / mu - mu / 2);

function rrDelta(k, e0, e) {
  const p = Math.exp(e0) / (1 + Math.exp(e0));
  let d = 0;
  let logC = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(k - i + 1) - Math.log(i);
    const loss = (k - 2 * i) * e0;
    if (loss > e) d += Math.exp(logC + (k - i) * Math.log(p) + i * Math.log(1 - p)) * -Math.expm1(e - loss);
  }
  return d;
}

/** The least ε with δ(ε) ≤ δ, δ decreasing in ε, by bisection on [0, hi]. */
function epsilonFor(deltaOf, delta, hi) {
  let lo = 0;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (deltaOf(mid) > delta) lo = mid; else hi = mid;
  }
  return hi;
}

const near = (got, want, tol, what) => assert.ok(Math.abs(got - want) <= tol * Math.max(1, Math.abs(want)), `${what}: page ${got}, expected ${want}`);

// ---------------------------------------------------------------- helpers

async function idle(page, timeout = 120000) {
  await page.waitForFunction(() => document.getElementById('composition')?.dataset.busy === 'false', null, { timeout });
}

async function open(hash = '#composition', options) {
  const page = await h.newPage(options);
  await page.goto(`${h.url}${hash}`);
  await page.waitForFunction(() => document.documentElement.dataset.product === 'ready');
  await idle(page);
  return page;
}

async function shot(page, name, selector = '#composition') {
  await page.locator(selector).screenshot({ path: path.join(SCREENSHOTS, `composition-${name}.png`) });
}

/** What the answer shows: the value, its interval and method (numbers from data-value). */
async function answer(page) {
  const status = await page.getAttribute(SEL('cmp-answer'), 'data-status');
  const text = await page.textContent(SEL('cmp-answer'));
  assert.equal(status, 'ok', `the answer is shown (${text})`);
  const num = async (id) => Number(await page.getAttribute(SEL(id), 'data-value'));
  const out = { value: await num('cmp-value'), text, method: await page.getAttribute(SEL('cmp-method'), 'data-method') };
  if (await page.locator(SEL('cmp-lower')).count()) {
    out.lower = await num('cmp-lower');
    out.upper = await num('cmp-upper');
  }
  return out;
}

async function useText(page, text) {
  if (!(await page.$eval('.cmp-text-box', (d) => d.open))) await page.locator('.cmp-text-box summary').click();
  await page.fill(SEL('cmp-text'), text);
  await page.click(SEL('cmp-text-apply'));
  await page.waitForTimeout(250); // the pipeline's debounce
  await idle(page);
}

// ---------------------------------------------------------------- the section

test('the default preset: ten counting queries, ε with its certified interval, the accountants and the curve with its legend', async () => {
  const page = await open();
  // The list shows the preset as a person reads it: Laplace, b = 10, ten times.
  assert.equal(await page.inputValue(SEL('cmp-0-mechanism')), 'laplace');
  assert.equal(await page.inputValue(SEL('cmp-0-scale')), '10');
  assert.equal(await page.inputValue(SEL('cmp-0-count')), '10');
  assert.equal(await page.getAttribute(SEL('cmp-preset-counting'), 'aria-pressed'), 'true');

  const a = await answer(page);
  // Shown to the digits that tell the interval's ends apart: 0.98996 may read 0.99 (the value is checked below).
  assert.match(a.text, /ε = 0\.9[89]\d* nats at δ = 0\.00001/);
  assert.ok(a.lower <= a.value && a.value <= a.upper, `ε ${a.value} in [${a.lower}, ${a.upper}]`);
  assert.ok(a.upper - a.lower <= 0.01 * a.value, 'the interval is narrower than 1% of ε');
  near(a.value, 0.98996, 1e-3, 'ε of ten Laplace(10) at δ = 1e-5 (dp_accounting)');
  assert.equal(a.method, 'pld');
  // Any ε-DP mechanism composed ten times (the optimal composition) is at least as much.
  const pureTen = epsilonFor((e) => rrDelta(10, 0.1, e), 1e-5, 1);
  assert.ok(a.lower <= pureTen + 1e-9, `Laplace ${a.lower} ≤ the worst 0.1-DP mechanism ${pureTen}`);

  // The accountants side by side, each with what it guarantees.
  const eps = async (key) => Number(await page.getAttribute(SEL(`cmp-eps-${key}`), 'data-value'));
  near(await eps('naive'), 1, 1e-9, 'naive Σεᵢ');
  near(await eps('advanced'), 0.1 * Math.sqrt(20 * Math.log(1e5)) + 10 * 0.1 * Math.expm1(0.1), 1e-6, 'advanced composition');
  const rdp = await eps('rdp');
  assert.ok(rdp >= a.lower - 1e-9, `Rényi ${rdp} is an upper bound on the PLD's ${a.lower}`);
  for (const key of ['pld', 'rdp', 'advanced', 'naive']) {
    assert.ok((await page.textContent(`${SEL(`cmp-row-${key}`)} .cmp-guarantee`)).trim().length > 10, `${key} says what it guarantees`);
  }

  // The curve: the PLD's path, the bounds, a legend naming each with its guarantee, a log δ axis.
  const svg = `${SEL('cmp-plot')} svg`;
  assert.ok((await page.getAttribute(`${svg} path[data-series="pld"]`, 'd')).length > 100, 'the PLD curve is drawn');
  for (const key of ['rdp', 'advanced', 'naive']) assert.ok((await page.getAttribute(`${svg} path[data-series="${key}"]`, 'd')).length > 5, `${key} drawn`);
  const legend = await page.textContent(SEL('cmp-legend'));
  for (const word of ['δ(ε) of the composition', 'Rényi DP', 'advanced composition', 'naive']) assert.ok(legend.includes(word), `legend: ${word}`);
  const ticks = await page.locator(`${svg} g.axes text`).allTextContents();
  assert.ok(ticks.some((t) => /^10⁻[¹²³⁴⁵⁶⁷⁸⁹⁰]+$/.test(t)), `powers of ten on the δ axis (${ticks.join(' ')})`);
  // δ(ε) is monotone: the drawn PLD path goes down as ε goes right.
  const d = await page.getAttribute(`${svg} path[data-series="pld"]`, 'd');
  const pts = [...d.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  assert.ok(pts.every((p, i) => i === 0 || (p[0] > pts[i - 1][0] && p[1] >= pts[i - 1][1] - 1e-9)), 'δ(ε) does not rise');

  // The export of the curve: CSV with its columns.
  const csv = await page.evaluate(async () => {
    const { sections } = await import('./page/sections.js');
    return sections.composition.getResults();
  });
  assert.equal(csv.curve.epsilon.length, 41);
  assert.ok(csv.curve.delta.every((x, i) => x >= csv.curve.deltaLower[i] - 1e-15), 'upper ≥ lower at every ε');
  await page.click(`${SEL('cmp-export')} summary`);
  assert.ok(await page.isVisible(SEL('cmp-export-csv')), 'the curve can be copied as CSV');
  await shot(page, 'counting');
  assert.deepEqual(h.errors(page), []);
  await page.context().close();
});

test('exact cases: Gaussians (Gaussian DP), δ at ε, δ = 0, and the survey (optimal composition)', async () => {
  const page = await open();
  await useText(page, 'gaussian sigma=10 x100');
  let a = await answer(page);
  near(a.value, epsilonFor((e) => gdpDelta(1, e), 1e-5, 50), 1e-6, 'ε of μ = 1 GDP at δ = 1e-5');
  assert.equal(a.method, 'gaussian-dp');
  assert.ok(a.lower <= a.value + 1e-12 && a.value <= a.upper + 1e-12);
  // Naive and advanced do not apply to Gaussians: said so in the table.
  assert.equal(await page.getAttribute(SEL('cmp-row-naive'), 'data-applies'), 'false');

  // Two different Gaussians: μ = √(1/4 + 1/9·4).
  await useText(page, 'gaussian sigma=2; gaussian sigma=3 x4');
  a = await answer(page);
  near(a.value, epsilonFor((e) => gdpDelta(Math.sqrt(0.25 + 4 / 9), e), 1e-5, 50), 1e-6, 'ε of a mix of Gaussians');

  // δ at ε = 1.
  await page.check(SEL('cmp-ask-delta'));
  await page.fill(SEL('cmp-epsilon'), '1');
  await page.waitForTimeout(250);
  await idle(page);
  a = await answer(page);
  near(a.value, gdpDelta(Math.sqrt(0.25 + 4 / 9), 1), 1e-6, 'δ(1)');
  assert.match(a.text, /δ = .* at ε = 1/);

  // δ = 0 for a Gaussian: ε = ∞, said as such.
  await page.check(SEL('cmp-ask-epsilon'));
  await page.fill(SEL('cmp-delta'), '0');
  await page.waitForTimeout(250);
  await idle(page);
  assert.equal(await page.textContent(SEL('cmp-value')), '∞');
  assert.match(await page.textContent(SEL('cmp-interval')), /No finite ε/);

  // The survey: ten randomized responses with ε₀ = ln 3, exactly.
  await page.fill(SEL('cmp-delta'), '1e-5');
  await page.click(SEL('cmp-preset-survey'));
  await page.waitForTimeout(250);
  await idle(page);
  a = await answer(page);
  near(a.value, epsilonFor((e) => rrDelta(10, Math.log(3), e), 1e-5, 11), 1e-6, 'ε of 10 × RR(ln 3)');
  assert.equal(a.method, 'optimal-composition');
  near(Number(await page.getAttribute(SEL('cmp-eps-naive'), 'data-value')), 10 * Math.log(3), 1e-9, 'naive');
  const adv = Number(await page.getAttribute(SEL('cmp-eps-advanced'), 'data-value'));
  assert.ok(adv > 10 * Math.log(3), `advanced (${adv}) exceeds naive for ten strong mechanisms: both shown`);
  await shot(page, 'survey');
  assert.deepEqual(h.errors(page), []);
  await page.context().close();
});

test('wrong inputs are named beside their fields', async () => {
  const page = await open();
  await page.fill(SEL('cmp-0-scale'), '0');
  await page.fill(SEL('cmp-0-count'), '2.5');
  await page.waitForTimeout(250);
  await idle(page);
  const msg = await page.textContent(SEL('cmp-0-msg'));
  assert.match(msg, /scale b must be > 0/);
  assert.match(msg, /count must be a positive whole number, got 2\.5/);
  assert.equal(await page.getAttribute(SEL('cmp-0-scale'), 'aria-invalid'), 'true');
  assert.match(await page.textContent(SEL('cmp-stale-msg')), /Fix the events/);
  assert.equal(await page.getAttribute(SEL('cmp-answer'), 'data-status'), 'stale');
  await page.fill(SEL('cmp-delta'), '1');
  await page.waitForTimeout(250);
  assert.match(await page.textContent(SEL('cmp-question-msg')), /δ must be < 1/);
  await page.locator('.cmp-text-box summary').click();
  await page.fill(SEL('cmp-text'), 'gausian sigma=1');
  await page.click(SEL('cmp-text-apply'));
  assert.match(await page.textContent(SEL('cmp-text-msg')), /did you mean “gaussian”/);
  await page.click(SEL('cmp-0-remove'));
  await page.waitForTimeout(250);
  assert.match(await page.textContent(SEL('cmp-list-msg')), /add at least one event/);
  await shot(page, 'errors');
  assert.deepEqual(h.errors(page), []);
  await page.context().close();
});

test('DP-SGD: the answer against dp_accounting, then Cancel on the long curve', async () => {
  const page = await open();
  await page.click(SEL('cmp-preset-dpsgd'));
  // The answer comes first: ε at δ = 1e-5 with its interval, from the privacy loss distribution.
  await page.waitForFunction(() => {
    const a = document.querySelector('[data-testid="cmp-answer"]');
    return a?.dataset.status === 'ok' && !a.classList.contains('stale') && document.querySelector('[data-testid="cmp-method"]')?.dataset.method === 'pld'
      && Number(document.querySelector('[data-testid="cmp-value"]')?.dataset.value) > 3;
  }, null, { timeout: 180000 });
  const a = await answer(page);
  near(a.value, 6.18774, 1e-3 / 6.18774, 'DP-SGD ε at δ = 1e-5 (dp_accounting 6.18774)');
  assert.ok(a.lower <= a.value && a.upper - a.lower <= 0.01 * a.value, `interval [${a.lower}, ${a.upper}]`);
  // The comparisons of the curve take a while for 10,000 subsampled steps: Cancel is offered and works.
  const cancel = page.locator(`${SEL('cmp-curve-progress')} ${SEL('cmp-cancel')}`);
  await cancel.waitFor({ state: 'visible', timeout: 60000 });
  await shot(page, 'dpsgd-progress');
  await cancel.click();
  await page.locator(SEL('cmp-cancelled')).waitFor({ state: 'visible', timeout: 10000 });
  await idle(page);
  // The answer stays; the naive and advanced bounds do not apply to Gaussians, and Rényi is above the PLD.
  assert.equal((await answer(page)).value, a.value);
  assert.equal(await page.getAttribute(SEL('cmp-row-naive'), 'data-applies'), 'false');
  const rdp = Number(await page.getAttribute(SEL('cmp-eps-rdp'), 'data-value'));
  assert.ok(rdp > a.upper, `Rényi (${rdp}) above the PLD (${a.upper})`);
  assert.ok(await page.isVisible(SEL('cmp-recompute')), 'Compute again is offered');
  await shot(page, 'dpsgd');
  assert.deepEqual(h.errors(page), []);
  await page.context().close();
});

test('the Channel section\'s channel as an event, and the share link round trip', async () => {
  const page = await open();
  await page.click(SEL('cmp-from-channel'));
  await page.waitForTimeout(250);
  await idle(page);
  assert.equal(await page.inputValue(SEL('cmp-1-mechanism')), 'channel');
  assert.equal(await page.inputValue(SEL('cmp-1-count')), '10');
  // The default channel is the password checker: deterministic, so no finite ε.
  assert.equal(await page.textContent(SEL('cmp-value')), '∞');

  // A noisy verdict instead: randomized response ln 3 between two rows, asked 10 times, equals the survey.
  await useText(page, 'channel [[0.75, 0.25], [0.75, 0.25], [0.25, 0.75]] x10');
  const a = await answer(page);
  near(a.value, epsilonFor((e) => rrDelta(10, Math.log(3), e), 1e-5, 11), 1e-6, 'a channel asked 10 times');
  assert.equal(a.method, 'enumeration');

  // Share: the link restores the list and the question in a new page.
  await page.fill(SEL('cmp-delta'), '1e-6');
  await page.waitForTimeout(250);
  await idle(page);
  const before = await answer(page);
  await page.click(SEL('share-composition'));
  const url = page.url();
  assert.match(url, /#composition=/);
  const again = await h.newPage();
  await again.goto(url);
  await again.waitForFunction(() => document.documentElement.dataset.product === 'ready');
  await idle(again);
  assert.equal(await again.inputValue(SEL('cmp-0-mechanism')), 'channel');
  assert.equal(await again.inputValue(SEL('cmp-delta')), '1e-6');
  const after = await answer(again);
  assert.equal(after.value, before.value);
  await shot(again, 'shared');
  assert.deepEqual(h.errors(page), []);
  assert.deepEqual(h.errors(again), []);
  await page.context().close();
  await again.context().close();
});

// ---------------------------------------------------------------- the widget

test('<qif-composition> on a lesson page: events as an attribute, a JSON child, a preset on a slide, and errors', async () => {
  const page = await h.newPage({ viewport: { width: 1100, height: 1400 } });
  const url = `${h.url}composition-lesson.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>lesson</title><script type="module" src="widgets.js"></script></head>
<body style="font-family: sans-serif; max-width: 60rem; margin: auto">
<h1>Composition</h1>
<qif-composition id="rr" events="rr epsilon=ln 3 x10" delta="1e-5"></qif-composition>
<qif-composition id="json" epsilon="1"><script type="application/json">{"events": [{"mechanism": "gaussian", "sigma": 2}, {"mechanism": "gaussian", "sigma": 3, "count": 4}]}</script></qif-composition>
<div style="width: 960px; height: 700px; font-size: 28px; background: #191919; color: #fff; padding: 20px; box-sizing: border-box">
  <h2 style="margin: 0">A survey</h2>
  <qif-composition id="slide" preset="survey" size="compact"></qif-composition>
</div>
<qif-composition id="bad" events="gausian sigma=1; laplace" delta="2"></qif-composition>
</body></html>`,
  }));
  await page.goto(url);
  await page.waitForFunction(() => [...document.querySelectorAll('qif-composition')].every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error'), null, { timeout: 120000 });
  const value = (id, testid) => page.evaluate(([id, t]) => Number(document.getElementById(id).shadowRoot.querySelector(`[data-testid="${t}"]`)?.dataset.value), [id, testid]);
  near(await value('rr', 'value'), epsilonFor((e) => rrDelta(10, Math.log(3), e), 1e-5, 11), 1e-6, 'widget: 10 × RR(ln 3)');
  assert.ok(await value('rr', 'lower') <= await value('rr', 'value') + 1e-12);
  near(await value('json', 'value'), gdpDelta(Math.sqrt(0.25 + 4 / 9), 1), 1e-6, 'widget: δ(1) of the JSON child');
  near(await value('slide', 'value'), epsilonFor((e) => rrDelta(10, Math.log(3), e), 1e-5, 11), 1e-6, 'widget: the survey preset');
  const curve = await page.evaluate(() => document.getElementById('rr').shadowRoot.querySelector('[data-testid="curve"] path[data-series="pld"]')?.getAttribute('d') ?? '');
  assert.ok(curve.split('L').length >= 4, `the widget draws its curve (${curve})`);
  const bad = await page.evaluate(() => document.getElementById('bad').shadowRoot.querySelector('[data-testid="error"]').textContent);
  assert.match(bad, /did you mean “gaussian”/);
  assert.match(bad, /δ must be in \[0, 1\)/);
  // On the slide the widget fits the slide's width.
  const box = await page.$eval('#slide', (e) => e.getBoundingClientRect());
  assert.ok(box.width <= 920 + 0.5, `compact widget within the slide (${box.width} px)`);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'composition-widgets.png'), fullPage: true });
  assert.deepEqual(h.errors(page), []);

  // The iframe mode: the same widget from embed.html's parameters.
  const frame = await h.newPage({ viewport: { width: 900, height: 600 } });
  await frame.goto(`${h.url}embed.html?widget=composition&events=${encodeURIComponent('gaussian sigma=10 x100; gaussian sigma=20 x4')}&delta=1e-5`);
  await frame.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('widget')?.dataset.state), null, { timeout: 60000 });
  assert.equal(await frame.getAttribute('#widget', 'data-state'), 'ready');
  assert.equal(await frame.locator(SEL('frame-note')).count(), 0, 'no parameter ignored');
  const framed = await frame.evaluate(() => Number(document.getElementById('widget').shadowRoot.querySelector('[data-testid="value"]').dataset.value));
  near(framed, epsilonFor((e) => gdpDelta(Math.sqrt(1 + 4 / 400), e), 1e-5, 50), 1e-6, 'the framed widget');
  await frame.screenshot({ path: path.join(SCREENSHOTS, 'composition-frame.png') });
  assert.deepEqual(h.errors(frame), []);
  await page.context().close();
  await frame.context().close();
});

test('<qif-composition> from the one-file bundle on a lesson opened from disk (file://)', async () => {
  const dir = await bundleFolder('qif-composition-', ['qif-widgets.js', 'qif-widgets-more.js']);
  try {
    await writeFile(path.join(dir, 'lesson.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lesson</title><link rel="icon" href="data:,">
<script src="qif-widgets.js"></script></head><body><h1>A survey</h1>
<qif-composition id="s" events="rr epsilon=ln 3 x10" delta="1e-5"></qif-composition></body></html>`);
    const context = await h.browser.newContext({ viewport: { width: 1000, height: 700 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(pathToFileURL(path.join(dir, 'lesson.html')).href);
    await page.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('s')?.dataset.state), null, { timeout: 120000 });
    assert.equal(await page.getAttribute('#s', 'data-state'), 'ready', await page.evaluate(() => document.getElementById('s').shadowRoot.textContent));
    const v = await page.evaluate(() => Number(document.getElementById('s').shadowRoot.querySelector('[data-testid="value"]').dataset.value));
    near(v, epsilonFor((e) => rrDelta(10, Math.log(3), e), 1e-5, 11), 1e-6, 'the widget from the bundle on file://');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
