// scale.bench.mjs — the "Channel & leakage" section at research sizes in headless Chromium, run
// by hand:
//   scripts/build.sh && node bench/browser/scale.bench.mjs [runs] [--before=<dir of a built web/>]
// Measures, each run in a fresh page:
//   paste N×N      a tab-separated block of N×N decimals pasted into the first cell: the time until
//                  the grid has N rows, until Bayes vulnerability and mutual information of the new
//                  channel are on screen, until every result of the section is drawn, and the
//                  longest main-thread task (PerformanceObserver 'longtask') from the paste until
//                  then (target < 50 ms);
//   CSV 2,000²     a 2,000 × 2,000 CSV file with labels loaded with the file picker: the same
//                  numbers, "every result" leaving out the Shannon capacity (iterative) and the
//                  multiplicative capacities, which take minutes at that size and show so; then the
//                  longest task while jumping through the loaded grid with the scroll bars;
//   engine         the same measures computed by the engine called from Node on the same matrix,
//                  the peer the page's time is a ratio of (what the page adds: reading, moving the
//                  matrix to the worker, drawing).
// Each line gives the median and, after a slash, the maximum of the runs: the longest task
// depends on the machine's load (2 shared cores here) as much as on the page.
// With --before=DIR every measurement is also made on the page served from DIR (a build of the
// branch the change starts from) and the ratios printed.
// Not part of the test suite: the numbers depend on the machine.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../../tests/browser/harness.mjs';
import { decimalChannel, labelledCSV } from '../../tests/browser/reference.mjs';
import { load } from '../../web/qif.js';

const args = process.argv.slice(2);
const RUNS = Number(args.find((a) => /^\d+$/.test(a)) ?? 2);
const BEFORE = args.find((a) => a.startsWith('--before='))?.slice('--before='.length);
const SIZES = [120, 300];
const BIG = 2000;

const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const ms = (x) => `${Math.round(x).toLocaleString('en')} ms`;

const server = await startServer();
let before = null;
if (BEFORE) {
  const proc = spawn(path.join(server.dir, 'serve'), ['-dir', BEFORE, '-port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => { let out = ''; proc.stdout.on('data', (b) => { out += b; const m = /(http:\/\/\S+)/.exec(out); if (m) resolve(m[1]); }); });
  before = { proc, url };
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});
const tmp = await mkdtemp(path.join(tmpdir(), 'qif-scale-bench-'));

async function openPage(url) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('channel')?.dataset.busy === 'false', null, { timeout: 60000 });
  // Let the other sections' first computations finish, so that their tasks are not counted.
  await page.waitForTimeout(3000);
  return { context, page };
}

// Results left out of "every result drawn" for a channel of `n` secrets: at 2,000 × 2,000 the
// Shannon capacity (iterative, with a progress line) and the multiplicative capacities take minutes.
const slowKeys = (n) => (n >= 1000 ? ['shannonCapacity', 'capacity-detail', 'minCapacity', 'multiplicativeBayesCapacity', 'multiplicativeBayesRiskCapacity'] : []);

// In the page: starts watching for n rows, for the two measures to change and for every result
// to be drawn, then runs start(); resolves with the times from start (ms) and the longest task
// from start until every result is drawn.
async function timeLoad(page, n, start) {
  await page.evaluate(({ rows, slow }) => {
    const value = (k) => document.querySelector(`[data-testid="value-${k}"]`)?.dataset.value;
    const status = (k) => document.querySelector(`[data-testid="result-${k}"]`)?.dataset.status;
    const old = { v: value('bayesVulnerability'), i: value('mutualInformation') };
    const t0 = performance.now();
    window.__t = { t0 };
    const hasRows = () => {
      const t = document.querySelector('[data-testid="channel-table"]');
      return t && (t.getAttribute('aria-rowcount') === String(rows + 2) || t.tBodies[0]?.rows.length === rows);
    };
    const done = () => status('bayesVulnerability') === 'ok' && status('mutualInformation') === 'ok' && value('bayesVulnerability') !== old.v && value('mutualInformation') !== old.i;
    const pending = () => [...document.querySelectorAll('#channel [data-status="pending"]')]
      .some((e) => !slow.includes(e.dataset.testid.replace(/^result-/, '')));
    const poll = () => {
      const now = performance.now();
      if (window.__t.grid === undefined && hasRows()) window.__t.grid = now - t0;
      if (window.__t.measures === undefined && done()) window.__t.measures = now - t0;
      if (window.__t.measures !== undefined && window.__t.all === undefined && !pending()) window.__t.all = now - t0;
      if (window.__t.all === undefined || window.__t.grid === undefined) requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  }, { rows: n, slow: slowKeys(n) });
  await start();
  await page.waitForFunction(() => window.__t.all !== undefined && window.__t.grid !== undefined, null, { timeout: 600000, polling: 250 });
  // Tasks that end within a frame of the last result are counted too.
  await page.waitForTimeout(200);
  return page.evaluate(() => {
    const { t0, grid, measures, all } = window.__t;
    const long = window.__long.filter((e) => e.start + e.duration >= t0 && e.start <= t0 + all).map((e) => e.duration);
    return { grid, measures, all, longest: Math.max(0, ...long), longCount: long.length };
  });
}

function pasteText(n) {
  const C = decimalChannel(n, n);
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(C.subarray(i * n, (i + 1) * n).join('\t'));
  return lines.join('\n');
}

async function paste(url, n) {
  const { context, page } = await openPage(url);
  await page.locator('[data-testid="cell-0-0"]').focus();
  const text = pasteText(n);
  const r = await timeLoad(page, n, () => page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text));
  await context.close();
  return r;
}

async function loadCSV(url, file) {
  const { context, page } = await openPage(url);
  const r = await timeLoad(page, BIG, () => page.setInputFiles('[data-testid="load-file"]', file));
  // Scrolling the loaded grid: the longest task while jumping through it.
  const scroll = await page.evaluate(async () => {
    const wrap = document.querySelector('[data-testid="channel-wrap"]');
    window.__long = [];
    for (let k = 1; k <= 20; k++) {
      wrap.scrollTop = (wrap.scrollHeight * k) / 20;
      wrap.scrollLeft = (wrap.scrollWidth * k) / 20;
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
    }
    return Math.max(0, ...window.__long.map((e) => e.duration));
  });
  await context.close();
  return { ...r, scroll };
}

const both = (xs) => `${ms(median(xs))} / ${ms(Math.max(...xs))}`;

function report(what, rs, peer) {
  const pick = (k) => rs.map((r) => r[k]);
  console.log(`${what.padEnd(34)} grid ${both(pick('grid')).padStart(17)}   measures ${both(pick('measures')).padStart(21)}   every result ${both(pick('all')).padStart(21)}   longest task ${both(pick('longest')).padStart(17)}${peer ? `   ${peer}` : ''}`);
  console.log(`${''.padEnd(34)} longest task of each run: ${pick('longest').map((x) => Math.round(x)).join(', ')} ms${rs[0].scroll === undefined ? '' : `; scrolling through it: ${both(pick('scroll'))} (each run: ${pick('scroll').map((x) => Math.round(x)).join(', ')} ms)`}`);
  return { g: median(pick('grid')), m: median(pick('measures')), a: median(pick('all')), l: median(pick('longest')) };
}

function ratios(b, a) {
  console.log(`${''.padEnd(34)} ratio before/this (medians): grid ${(b.g / a.g).toFixed(1)}×, measures ${(b.m / a.m).toFixed(1)}×, every result ${(b.a / a.a).toFixed(1)}×, longest task ${(b.l / Math.max(a.l, 1)).toFixed(1)}×`);
}

console.log(`scale bench: ${RUNS} run(s) each, median / max; machine: ${process.env.BENCH_MACHINE ?? 'this one'}`);
for (const n of SIZES) {
  const after = [];
  const old = [];
  for (let k = 0; k < RUNS; k++) {
    after.push(await paste(server.url, n));
    if (before) old.push(await paste(before.url, n));
  }
  const a = report(`paste ${n}×${n} (this page)`, after);
  if (before) {
    const b = report(`paste ${n}×${n} (--before page)`, old);
    ratios(b, a);
  }
}

// The 2,000 × 2,000 CSV file, with labels, as an export writes it.
const C = decimalChannel(BIG, BIG, 5);
const file = path.join(tmp, 'big.csv');
await writeFile(file, labelledCSV(C, BIG, BIG));
const qif = await load();
const prior = new Array(BIG).fill(1 / BIG);
const M = { rows: BIG, cols: BIG, data: C };
const engine = [];
for (let k = 0; k < RUNS; k++) {
  const t0 = performance.now();
  qif.measure.bayesVulnerability(prior);
  qif.measure.mutualInformation(prior, M);
  engine.push(performance.now() - t0);
}
const big = [];
const bigBefore = [];
for (let k = 0; k < RUNS; k++) {
  big.push(await loadCSV(server.url, file));
  if (before) bigBefore.push(await loadCSV(before.url, file));
}
const e = median(engine);
const what = `CSV ${BIG.toLocaleString('en')}×${BIG.toLocaleString('en')} file`;
const a = report(`${what} (this page)`, big, `engine alone (Node): ${ms(e)}, page/engine ${(median(big.map((x) => x.measures)) / e).toFixed(1)}×`);
if (before) {
  const b = report(`${what} (--before page)`, bigBefore);
  ratios(b, a);
}

await browser.close();
before?.proc.kill();
server.proc.kill();
await rm(server.dir, { recursive: true, force: true });
await rm(tmp, { recursive: true, force: true });
