// The "From observations" section in headless Chromium. Expected values are computed here, in
// plain JS and independently of the page and of the Go code: the exact mutual information,
// min-entropy leakage and Bayes risk of the channel the Channel section holds (read from its
// inputs), and the Bayes risk Φ(−μ/2) of two Gaussians a distance μ apart for a loaded file. It
// draws samples from the Channel section's channel and checks that the estimates are near the
// exact values and their intervals hold them, loads a CSV file of one-dimensional observations,
// refuses a file with a line of the wrong number of columns (naming the line), and sees no
// console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startHarness, SCREENSHOTS } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const SEL = (id) => `[data-testid="${id}"]`;

async function idle(page, timeout = 60000) {
  await page.waitForFunction(() => document.getElementById('observations')?.dataset.busy === 'false', null, { timeout });
}

/** The full-precision values shown in a row: [estimate, lower, upper, exact?]. */
async function row(page, id) {
  return page.$$eval(`${SEL(id)} .value`, (els) => els.map((e) => Number(e.dataset.value)));
}

const log2 = (x) => Math.log(x) / Math.LN2;
function exactValues(prior, C) {
  const m = C[0].length;
  const py = Array(m).fill(0);
  C.forEach((r, x) => r.forEach((v, y) => { py[y] += prior[x] * v; }));
  let mi = 0;
  C.forEach((r, x) => r.forEach((v, y) => { if (prior[x] * v > 0) mi += prior[x] * v * log2(v / py[y]); }));
  let vpost = 0;
  for (let y = 0; y < m; y++) vpost += Math.max(...C.map((r, x) => prior[x] * r[y]));
  return { mi, me: log2(vpost / Math.max(...prior)), risk: 1 - vpost };
}

test('samples drawn from the Channel section’s channel: estimates near the exact values, intervals hold them', async () => {
  const page = await h.newPage();
  await page.goto(`${h.url}#observations`);
  await page.waitForSelector('#observations-title');
  await idle(page);
  // The channel and prior the Channel section holds, as the data it exports.
  const { C, prior } = await page.evaluate(async () => {
    const { sections } = await import('/page/sections.js');
    const { inputs } = sections.channel.getResults();
    const rows = [];
    for (let i = 0; i < inputs.cells.rows; i++) rows.push(Array.from({ length: inputs.cells.cols }, (_, j) => inputs.cells.value(i, j)));
    return { C: rows, prior: inputs.prior };
  });
  // The prior as typed: decimals or fractions.
  for (let i = 0; i < prior.length; i++) {
    const [a, b = '1'] = String(prior[i]).split('/');
    prior[i] = Number(a) / Number(b);
  }
  assert.ok(prior.every(Number.isFinite), `a numeric prior ${prior}`);
  const want = exactValues(prior, C);
  await page.fill('#obs-n', '20000');
  await page.click(SEL('obs-draw'));
  await page.waitForSelector(SEL('obs-risk-knn'), { timeout: 60000 });
  await idle(page);
  const [mi, miLo, miHi, miExact] = await row(page, 'obs-mi');
  assert.ok(Math.abs(miExact - want.mi) < 1e-9, `exact MI shown ${miExact}, computed here ${want.mi}`);
  assert.ok(Math.abs(mi - want.mi) < 0.02 && miLo <= want.mi && want.mi <= miHi, `MI ${mi} [${miLo}, ${miHi}] vs ${want.mi}`);
  const [me, meLo, meHi, meExact] = await row(page, 'obs-me');
  assert.ok(Math.abs(meExact - want.me) < 1e-9 && meLo <= want.me && want.me <= meHi && Math.abs(me - want.me) < 0.05, `min-entropy ${me} [${meLo}, ${meHi}] vs ${want.me}`);
  for (const rule of ['frequentist', 'nn', 'knn']) {
    const [r, lo, hi, ex] = await row(page, `obs-risk-${rule}`);
    assert.ok(Math.abs(ex - want.risk) < 1e-9 && lo <= want.risk && want.risk <= hi && Math.abs(r - want.risk) < 0.03, `${rule}: ${r} [${lo}, ${hi}] vs ${want.risk}`);
  }
  const verdict = await page.textContent(SEL('obs-verdict'));
  assert.match(verdict, want.mi > 0.01 ? /^The data show leakage/ : /^No leakage detected/);
  assert.equal(await page.locator(`${SEL('obs-channel')} tbody tr`).count(), prior.length, 'the estimated channel, one row per secret');
  assert.ok(await page.locator('#observations figure.plot svg path').count() >= 3, 'the convergence curves');
  await page.locator('#observations').screenshot({ path: path.join(SCREENSHOTS, 'observations-channel.png') });
  assert.deepEqual(h.errors(page), []);
  await page.close();
});

test('a CSV file of timings: k-NN near Φ(−μ/2); a line with the wrong number of columns is named', async () => {
  const page = await h.newPage();
  await page.goto(`${h.url}#observations`);
  await page.waitForSelector('#observations-title');
  await idle(page);
  let state = 7;
  const u = () => { state = (state * 48271) % 2147483647; return state / 2147483647; };
  const mu = 2;
  const lines = ['secret,time'];
  for (let i = 0; i < 20000; i++) {
    const s = u() < 0.5 ? 0 : 1;
    lines.push(`${s},${(mu * s + Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u())).toFixed(4)}`);
  }
  await page.setInputFiles(SEL('obs-file'), { name: 'timings.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await page.waitForSelector(SEL('obs-risk-knn'), { timeout: 60000 });
  await idle(page);
  const erfc = (x) => { // Abramowitz–Stegun 7.1.26
    const t = 1 / (1 + 0.3275911 * x);
    return t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  };
  const rstar = 0.5 * erfc(mu / 2 / Math.SQRT2);
  const [r, lo, hi] = await row(page, 'obs-risk-knn');
  assert.ok(Math.abs(r - rstar) < 0.03 && lo <= rstar && rstar <= hi, `k-NN ${r} [${lo}, ${hi}] vs ${rstar}`);
  assert.equal(await page.locator(SEL('obs-mi')).count(), 0, 'no plug-in MI on measurements');
  assert.match(await page.textContent(SEL('obs-status')), /20,000 samples/);
  await page.setInputFiles(SEL('obs-file'), { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('secret,time\n0,1.5\n1,2.5,3\n') });
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.error === 'true', SEL('obs-status'), { timeout: 20000 });
  assert.match(await page.textContent(SEL('obs-status')), /line 3: 3 columns, expected 2/);
  assert.deepEqual(h.errors(page), []);
  await page.close();
});
