// The "From observations" section in headless Chromium. Expected values are computed here, in
// plain JS and independently of the page and of the Go code: the exact mutual information,
// min-entropy leakage and Bayes risk of the channel the Channel section holds (read from its
// inputs), and the Bayes risk Φ(−μ/2) of two Gaussians a distance μ apart for a loaded file. It
// draws samples from the Channel section's channel and checks that the estimates are near the
// exact values and their intervals hold them, loads a CSV file of one-dimensional observations,
// refuses a file with a line of the wrong number of columns (naming the line), and sees no
// console errors. The guide's timing file (numbers): how the columns were read, the
// nearest-neighbour MI and min-entropy leakage against the exact values of the system it samples,
// the prior's baseline, the export's provenance, the refusal of counting on distinct timings,
// binning; and the same file with its columns swapped: the offer to swap.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { startHarness, SCREENSHOTS, ROOT } from './harness.mjs';
import { exactValues as timingExact } from '../../docs/examples/timing.mjs';

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

// The guide's timing example: the key's Hamming weight (0..4) and a time in microseconds. The
// exact values come from the generator's numerical integration (docs/examples/timing.mjs), which
// knows the system, not the estimators.
const TIMING = readFileSync(path.join(ROOT, 'docs/examples/timing.csv'), 'utf8');

/** π̂ and 1 − max π̂ counted here from the file's text. */
function baselineOf(text) {
  const counts = new Map();
  const lines = text.trim().split('\n').slice(1);
  for (const l of lines) counts.set(l.split(',')[0], (counts.get(l.split(',')[0]) ?? 0) + 1);
  return 1 - Math.max(...counts.values()) / lines.length;
}

async function loadFile(page, name, text) {
  await page.setInputFiles(SEL('obs-file'), { name, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.waitForSelector(SEL('obs-risk-knn'), { timeout: 60000 });
  await idle(page);
}

test('a timing CSV: read as numbers, nearest-neighbour MI and min-entropy leakage with intervals, the baseline, provenance', async () => {
  const page = await h.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`${h.url}#observations`);
  await page.waitForSelector('#observations-title');
  await idle(page);
  await loadFile(page, 'timing.csv', TIMING);
  const truth = timingExact();
  assert.equal(await page.getAttribute(SEL('obs-kind-read'), 'data-kind'), 'numbers');
  assert.match(await page.textContent(SEL('obs-reading')), /10,000 samples from timing\.csv.*5 secret values.*read as numbers/);
  const [mi, miLo, miHi] = await row(page, 'obs-mi-nn');
  assert.ok(mi > 0 && miLo > 0 && miLo <= mi && mi <= miHi, `MI ${mi} [${miLo}, ${miHi}] above 0`);
  assert.ok(Math.abs(mi - truth.mi) < 0.1 && miLo <= truth.mi && truth.mi <= miHi, `MI ${mi} [${miLo}, ${miHi}] vs the exact ${truth.mi}`);
  const [me, meLo, meHi] = await row(page, 'obs-me-nn');
  assert.ok(meLo <= truth.minEntropyLeakage && truth.minEntropyLeakage <= meHi && Math.abs(me - truth.minEntropyLeakage) < 0.15, `min-entropy ${me} [${meLo}, ${meHi}] vs ${truth.minEntropyLeakage}`);
  const [r, lo, hi] = await row(page, 'obs-risk-knn');
  assert.ok(lo <= truth.risk && truth.risk <= hi, `k-NN ${r} [${lo}, ${hi}] vs R* = ${truth.risk}`);
  const [base] = await row(page, 'obs-baseline');
  assert.ok(Math.abs(base - baselineOf(TIMING)) < 1e-12, `baseline ${base} vs ${baselineOf(TIMING)} counted here`);
  assert.match(await page.textContent(SEL('obs-verdict')), /^The data show leakage/);
  assert.equal(await page.locator(SEL('obs-swap')).isVisible(), false, 'no swap offer: 5 secret values');
  assert.equal(await page.locator(SEL('obs-ties')).isVisible(), false, 'no caution about ties: 7,032 distinct of 10,000');
  assert.ok(await page.locator(`${SEL('obs-mi-curve')} path.plot-band`).count() === 1, 'the convergence plot with its band');
  // The export: provenance and how to cite.
  const exported = await page.evaluate(async () => {
    const { sections } = await import('/page/sections.js');
    return sections.observations.getResults();
  });
  const notes = Object.fromEntries(exported.notes);
  assert.equal(notes.source, 'timing.csv');
  assert.equal(notes.n, 10000);
  assert.equal(notes.seed, 1);
  assert.equal(notes['k (MI estimator)'], 3);
  assert.equal(notes['k (k-NN rule)'], Math.ceil(Math.log(8000)), 'k = ⌈ln n⌉ of the training part');
  assert.match(notes['toolkit version'], /^\d+\.\d+\.\d+/);
  assert.match(exported.cite, /QIF Toolkit \d+\.\d+\.\d+.*Ross/);
  assert.match(await page.textContent(SEL('obs-cite')), /^How to cite: QIF Toolkit \d+\.\d+\.\d+/);
  await page.locator('#observations').screenshot({ path: path.join(SCREENSHOTS, 'observations-timing.png') });
  // Read as labels, 10,000 mostly distinct timings: no counted verdict, the reason in words.
  await page.selectOption(SEL('obs-kind'), 'labels');
  await page.waitForSelector(`${SEL('obs-mi')} .obs-error`, { timeout: 60000 });
  await idle(page);
  assert.match(await page.textContent(`${SEL('obs-mi')} .obs-error`), /of the 10,000 observations are distinct.*as numbers, or choose bins/);
  assert.equal(await page.locator(SEL('obs-verdict')).count(), 0, 'no verdict from counting distinct timings');
  // Bins: the counted estimates return, with the bins and what binning loses.
  await page.selectOption(SEL('obs-kind'), 'numbers');
  await page.selectOption(SEL('obs-bins'), 'fd');
  await page.waitForSelector(SEL('obs-binning'), { timeout: 60000 });
  await idle(page);
  assert.match(await page.textContent(SEL('obs-binning')), /\d+ bins from .*can only lose information/);
  const [binnedMI] = await row(page, 'obs-mi');
  assert.ok(binnedMI > 0 && binnedMI < truth.mi + 0.05, `binned MI ${binnedMI} at most about the exact ${truth.mi}`);
  assert.deepEqual(h.errors(page), []);
  await page.close();
});

test('swapped columns with decimal commas: the offer to swap, the note kept visible, the caution about ties', async () => {
  const page = await h.newPage();
  await page.goto(`${h.url}#observations`);
  await page.waitForSelector('#observations-title');
  await idle(page);
  const lines = TIMING.trim().split('\n').slice(0, 2001).map((l, i) => {
    const [w, t] = l.split(',');
    return i === 0 ? `${t};${w}` : `${t.replace('.', ',')};${w}`;
  });
  await loadFile(page, 'swapped.csv', `${lines.join('\n')}\n`);
  assert.ok(await page.locator(SEL('obs-swap')).isVisible(), 'the swap offer');
  assert.match(await page.textContent(SEL('obs-swap')), /secret column has [\d,]+ distinct values in 2,000 samples/);
  assert.ok(await page.locator(SEL('obs-decimal-comma')).isVisible(), 'the decimal-comma note');
  await page.click(SEL('obs-swap-button'));
  await page.waitForSelector(SEL('obs-mi-nn'), { timeout: 60000 });
  await idle(page);
  assert.equal(await page.locator(SEL('obs-swap')).isVisible(), false, 'no offer once swapped');
  assert.match(await page.textContent(SEL('obs-reading')), /5 secret values.*read as numbers.*swapped/);
  assert.ok(await page.locator(SEL('obs-decimal-comma')).isVisible(), 'the decimal-comma note stays');
  const [mi, lo] = await row(page, 'obs-mi-nn');
  assert.ok(mi > 0.5 && lo > 0, `MI ${mi} (lower ${lo}) after the swap`);
  // Timings to 0.1 µs: at most ~400 distinct values in 2,000 samples, and the page cautions about ties.
  const coarse = TIMING.trim().split('\n').slice(0, 2001).map((l, i) => (i === 0 ? l : `${l.split(',')[0]},${Number(l.split(',')[1]).toFixed(1)}`));
  await page.setInputFiles(SEL('obs-file'), { name: 'coarse.csv', mimeType: 'text/csv', buffer: Buffer.from(`${coarse.join('\n')}\n`) });
  await page.waitForFunction((sel) => /coarse\.csv/.test(document.querySelector(sel)?.textContent ?? ''), SEL('obs-reading'), { timeout: 60000 });
  await idle(page);
  assert.match(await page.textContent(SEL('obs-ties')), /^Only \d+ of the 2,000 observations are distinct/);
  assert.equal(await page.locator(SEL('obs-decimal-comma')).isVisible(), false, 'no decimal commas in this file');
  assert.deepEqual(h.errors(page), []);
  await page.close();
});
