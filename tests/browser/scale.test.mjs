// The "Channel & leakage" section at research sizes, in headless Chromium, read as a user sees
// it: a 300 × 300 block pasted and a 2,000 × 2,000 CSV file loaded are drawn as a window of the
// grid (not one <input> per entry), read off the page's thread, and give the measures an
// independent computation gives (the plain-JS reference for 300 × 300, the engine called from
// Node for the 2,000 × 2,000 one); exports round-trip through paste and file load with their labels;
// a decimal-comma paste is read and said so; every LaTeX export compiles with pdfLaTeX. The
// longest main-thread task of each load is reported as a diagnostic (timings are measured by
// bench/browser/scale.bench.mjs, never asserted here).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startHarness, settled, valueOf, pasteInto as paste } from './harness.mjs';
import { all, decimalChannel, labelledCSV } from './reference.mjs';
import { presetById, numericChannel } from '../../web/lib/presets.js';
import { load } from '../../web/qif.js';

const run = promisify(execFile);

let h;
let dir;
before(async () => {
  h = await startHarness();
  dir = await mkdtemp(path.join(tmpdir(), 'qif-scale-'));
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// Long main-thread tasks (the Long Tasks API), recorded from the page's first script on.
async function open(options) {
  const page = await h.newPage(options);
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask', buffered: true });
    window.__copied = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t) => { window.__copied.push(String(t)); } } });
  });
  await page.goto(h.url);
  await settled(page);
  return page;
}

const longest = (page) => page.evaluate(() => Math.max(0, ...window.__long));
const resetLong = (page) => page.evaluate(() => { window.__long = []; });

// Waits until every measure in keys shows a settled value ('ok').
async function shown(page, keys, timeout) {
  await page.waitForFunction((ks) => ks.every((k) => document.querySelector(`[data-testid="result-${k}"]`)?.dataset.status === 'ok'), keys, { timeout, polling: 200 });
}

// The number of <input>s the grid holds: the window drawn, not n·m.
const gridInputs = (page) => page.locator('[data-testid="channel-table"] input').count();

function close(got, want, what) {
  assert.ok(Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: page ${got}, expected ${want}`);
}

async function copyFrom(page, testid, format) {
  const menu = page.locator(`[data-testid="${testid}"]`);
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  const before = await page.evaluate(() => window.__copied.length);
  await page.click(`[data-testid="${testid}-${format}"]`);
  await page.waitForFunction((n) => window.__copied.length > n, before);
  return page.evaluate(() => window.__copied[window.__copied.length - 1]);
}

async function cancelCapacity(page) {
  const cancel = page.locator('[data-testid="capacity-cancel"]');
  if (await cancel.count()) await cancel.click().catch(() => {});
}

test('a 300 × 300 block with labels, pasted: a window of the grid, read off the thread, every measure right', async (t) => {
  const page = await open();
  const n = 300;
  const C = decimalChannel(n, n);
  const lines = [['', ...Array.from({ length: n }, (_, j) => `o${j + 1}`)].join('\t')];
  for (let i = 0; i < n; i++) lines.push([`s${i + 1}`, ...C.subarray(i * n, (i + 1) * n)].join('\t'));
  await resetLong(page);
  await paste(page, 'cell-0-0', lines.join('\n'));
  await page.waitForFunction(() => /^300 × 300 channel/.test(document.querySelector('[data-testid="grid-size"]')?.textContent ?? ''), null, { timeout: 60000 });
  const Crows = Array.from({ length: n }, (_, i) => Array.from(C.subarray(i * n, (i + 1) * n)));
  const want = all(new Array(n).fill(1 / n), Crows);
  await shown(page, Object.keys(want), 120000);
  t.diagnostic(`300×300 paste: longest main-thread task ${(await longest(page)).toFixed(0)} ms`);

  assert.equal(await page.getAttribute('[data-testid="channel-table"]', 'aria-rowcount'), String(n + 2));
  const inputs = await gridInputs(page);
  assert.ok(inputs < 3000, `the grid holds ${inputs} inputs, not ${n * n}`);
  assert.equal(await page.inputValue('[data-testid="row-label-0"]'), 's1');
  assert.equal(await page.inputValue('[data-testid="col-label-0"]'), 'o1');
  assert.equal(await page.inputValue('[data-testid="cell-0-0"]'), String(C[0]));
  for (const [key, w] of Object.entries(want)) close(await valueOf(page, key), w, key);
  // Row sums are shown beside the rows drawn.
  assert.match(await page.textContent('[data-testid="rowsum-0"]'), /^1/);

  // Scrolled to the far corner, the last row and column are drawn with their values.
  await page.locator('[data-testid="channel-wrap"]').evaluate((w) => { w.scrollTop = w.scrollHeight; w.scrollLeft = w.scrollWidth; });
  await page.waitForSelector(`[data-testid="cell-${n - 1}-${n - 1}"]`);
  assert.equal(await page.inputValue(`[data-testid="cell-${n - 1}-${n - 1}"]`), String(C[n * n - 1]));
  assert.equal(await page.inputValue(`[data-testid="row-label-${n - 1}"]`), `s${n}`);
  // An edit there shows its row's problem beside the row, and a fix clears it.
  await page.fill(`[data-testid="cell-${n - 1}-${n - 1}"]`, '0.9');
  await page.waitForFunction((r) => document.querySelector(`[data-testid="rowsum-${r}"]`)?.classList.contains('invalid'), n - 1);
  assert.match(await page.textContent(`[data-testid="rowsum-${n - 1}"]`), /expected 1|sums to/);
  await page.fill(`[data-testid="cell-${n - 1}-${n - 1}"]`, String(C[n * n - 1]));
  await page.waitForFunction((r) => !document.querySelector(`[data-testid="rowsum-${r}"]`)?.classList.contains('invalid'), n - 1);
  await h.screenshot(page, 'scale-300-corner');
  await cancelCapacity(page);
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
});

test('a 2,000 × 2,000 CSV file loaded: progress, a window of the grid, measures equal to the engine’s', async (t) => {
  const n = 2000;
  const C = decimalChannel(n, n, 5);
  const file = path.join(dir, 'big.csv');
  await writeFile(file, labelledCSV(C, n, n));
  const page = await open();
  await resetLong(page);
  const t0 = Date.now();
  await page.setInputFiles('[data-testid="load-file"]', file);
  await page.waitForFunction(() => /^2,000 × 2,000 channel/.test(document.querySelector('[data-testid="grid-size"]')?.textContent ?? ''), null, { timeout: 180000, polling: 100 });
  const drawn = Date.now() - t0;
  const keys = ['bayesVulnerability', 'posteriorBayesVulnerability', 'mutualInformation', 'conditionalMinEntropy', 'minCapacity', 'posteriorGuessingEntropy'];
  await shown(page, keys, 300000);
  t.diagnostic(`2,000×2,000 CSV (${(await readFile(file)).length.toLocaleString('en')} bytes): grid drawn after ${drawn} ms (with the test's polling), measures after ${Date.now() - t0} ms; longest main-thread task ${(await longest(page)).toFixed(0)} ms`);

  const inputs = await gridInputs(page);
  assert.ok(inputs < 3000, `the grid holds ${inputs} inputs, not ${n * n}`);
  assert.equal(await page.inputValue('[data-testid="row-label-0"]'), 'x1');
  assert.equal(await page.inputValue('[data-testid="col-label-1"]'), 'y2');
  assert.equal(await page.inputValue('[data-testid="cell-0-1"]'), String(C[1]));
  assert.equal(await page.locator('[data-testid="input-errors"] li').count(), 0, 'no input problems');

  // The same channel given to the engine from Node.
  const qif = await load();
  const prior = new Array(n).fill(1 / n);
  const M = { rows: n, cols: n, data: C };
  close(await valueOf(page, 'bayesVulnerability'), qif.measure.bayesVulnerability(prior), 'bayesVulnerability');
  for (const key of ['posteriorBayesVulnerability', 'mutualInformation', 'conditionalMinEntropy', 'posteriorGuessingEntropy']) {
    close(await valueOf(page, key), qif.measure[key](prior, M), key);
  }
  close(await valueOf(page, 'minCapacity'), qif.measure.minCapacity(M), 'minCapacity');

  // What is not computed at this size says so, and why.
  assert.equal(await page.getAttribute('[data-testid="result-posteriorGVulnerability"]', 'data-status'), 'skipped');
  assert.match(await page.textContent('[data-testid="result-posteriorGVulnerability"]'), /identity on 2,000 secrets/);
  // The hyper-distribution is under "More results", folded: open it as a reader does.
  await page.click('[data-testid="more-results"] > summary');
  await page.waitForSelector('[data-testid="hyper-more"]', { timeout: 60000 });
  assert.match(await page.textContent('[data-testid="hyper-more"]'), /of 2,000 secrets; Export gives the whole table/);
  await h.screenshot(page, 'scale-2000-loaded');
  await cancelCapacity(page);
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
});

test('exports round-trip: CSV and TSV pasted back and a saved CSV loaded keep labels and entries; decimal commas are read and said so', async () => {
  const page = await open();
  const p = presetById('password-iterations');
  const C = numericChannel(p);
  const expectPreset = async (what) => {
    assert.deepEqual(await page.$$eval('[data-testid^="row-label-"]', (els) => els.map((e) => e.value)), p.secrets, `${what}: row labels`);
    assert.deepEqual(await page.$$eval('[data-testid^="col-label-"]', (els) => els.map((e) => e.value)), p.observables, `${what}: column labels`);
    for (let i = 0; i < C.length; i++) for (let j = 0; j < C[0].length; j++) assert.equal(Number(await page.inputValue(`[data-testid="cell-${i}-${j}"]`)), C[i][j], `${what}: C[${i}][${j}]`);
    assert.equal(await page.locator('[data-testid="input-errors"] li').count(), 0, `${what}: no input problems`);
  };
  const other = async () => {
    await page.selectOption('[data-testid="preset-select"]', 'dcnet-fair');
    await settled(page);
    assert.notEqual(await page.inputValue('[data-testid="row-label-0"]'), p.secrets[0]);
  };
  const csv = await copyFrom(page, 'export-channel', 'csv');
  const tsv = await copyFrom(page, 'export-channel', 'tsv');
  assert.match(csv, /^,"\(Fail,1\)",/, 'labels with commas are quoted');
  assert.match(tsv, /^\t"\(Fail,1\)"\t/);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-channel-csv-file"]')]);
  assert.equal(dl.suggestedFilename(), 'channel.csv');
  const saved = path.join(dir, 'channel.csv');
  await dl.saveAs(saved);
  assert.equal(await readFile(saved, 'utf8'), csv, 'the file holds what the clipboard got');

  for (const [what, text] of [['CSV', csv], ['TSV', tsv]]) {
    await other();
    await paste(page, 'cell-0-0', text);
    await settled(page);
    await expectPreset(`${what} pasted`);
  }
  await other();
  await page.setInputFiles('[data-testid="load-file"]', saved);
  await page.waitForFunction((l) => document.querySelector('[data-testid="row-label-0"]')?.value === l, p.secrets[0]);
  await settled(page);
  await expectPreset('CSV file loaded');

  // A block from a decimal-comma spreadsheet pasted below the first row: read as halves, labels
  // kept, and said so.
  await paste(page, 'cell-1-0', '0,5\t0,5\t0\t0\n0,25\t0,75\t0\t0');
  await settled(page);
  assert.equal(await page.inputValue('[data-testid="cell-1-0"]'), '0.5');
  assert.equal(await page.inputValue('[data-testid="cell-2-1"]'), '0.75');
  assert.equal(await page.inputValue('[data-testid="row-label-1"]'), p.secrets[1], 'the row label is not overwritten');
  assert.match(await page.textContent('[data-testid="paste-note"]'), /decimal commas.*0,5 → 0\.5/);
  assert.equal(await page.locator('[data-testid="input-errors"] li').count(), 0);
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
});

test('every LaTeX export compiles with pdfLaTeX', async (t) => {
  const pdflatex = await run('sh', ['-c', 'command -v pdflatex']).then(() => true, () => false);
  assert.ok(pdflatex, 'pdflatex is needed: apt-get install texlive-latex-base');
  const page = await open();
  // Labels with TeX's special characters and Greek, fractions, tiny and huge numbers.
  await paste(page, 'cell-0-0', 'x\\y\t"a_1 & 50%"\t"β#{}"\n"α~^"\t1/3\t2/3\n"ü$"\t1e-300\t1\n');
  await settled(page);
  // The hyper-distribution is under "More results", folded: open it as a reader does.
  await page.click('[data-testid="more-results"] > summary');
  const parts = [];
  for (const id of ['export-channel', 'export-prior', 'export-gain', 'export-results', 'export-hyper']) {
    const tex = await copyFrom(page, id, 'latex');
    await page.keyboard.press('Escape');
    parts.push(`% ${id}\n${tex}\n\\bigskip\n`);
  }
  const doc = `\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n${parts.join('\n')}\\end{document}\n`;
  await writeFile(path.join(dir, 'exports.tex'), doc);
  try {
    await run('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'exports.tex'], { cwd: dir, timeout: 60000 });
  } catch (e) {
    assert.fail(`pdflatex failed:\n${String(e.stdout).split('\n').filter((l) => l.startsWith('!') || /^l\.\d+/.test(l)).join('\n')}\n--- document ---\n${doc.slice(0, 3000)}`);
  }
  const log = await readFile(path.join(dir, 'exports.log'), 'utf8');
  assert.doesNotMatch(log, /Missing \$ inserted|Undefined control sequence/);
  t.diagnostic(`compiled ${doc.length.toLocaleString('en')} characters of LaTeX`);
});
