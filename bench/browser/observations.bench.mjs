// observations.bench.mjs — the "From observations" section on a million-row file, in headless
// Chromium, run by hand:
//   scripts/build.sh && node bench/browser/observations.bench.mjs
// A CSV of 10⁶ samples (two secrets, one-dimensional timings N(0,1) and N(1.5,1)) is loaded through
// the file input; measured: the time from choosing the file to the estimates on screen (read and
// parsed in the data worker, NN and k-NN Bayes risk in the engine's worker), and the page's longest
// main-thread task meanwhile (PerformanceObserver 'longtask'; target: none over 50 ms). The peer,
// in the same run: the same parse (input/samples.js) and the same two estimates in Node through
// web/qif.js, with no page around them.
import { startHarness } from '../../tests/browser/harness.mjs';
import { load } from '../../web/qif.js';
import { readSamples } from '../../web/input/samples.js';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'qif-observations-'));
const file = path.join(dir, 'samples.csv');
let state = 7;
const u = () => { state = (state * 48271) % 2147483647; return state / 2147483647; };
const lines = ['secret,time'];
for (let i = 0; i < 1_000_000; i++) {
  const s = u() < 0.5 ? 0 : 1;
  lines.push(`${s},${(1.5 * s + Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u())).toFixed(4)}`);
}
writeFileSync(file, lines.join('\n'));

const h = await startHarness();
const page = await h.newPage();
await page.goto(`${h.url}#observations`);
// Every section idle first (a page opened on #observations mounts them all at once), so that
// the tasks measured are this section's.
await page.waitForFunction(() => [...document.querySelectorAll('section[data-section]')].every((s) => s.dataset.busy === 'false'), null, { timeout: 120000 });
await page.waitForTimeout(2000);
await page.evaluate(() => {
  window.__long = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
});
const t0 = Date.now();
await page.setInputFiles('[data-testid="obs-file"]', file);
await page.waitForSelector('[data-testid="obs-risk-knn"]', { timeout: 600000 });
const pageMs = Date.now() - t0;
const long = await page.evaluate(() => window.__long);
const errors = h.errors(page);
await h.close();

const qif = await load();
const n0 = performance.now();
const t = readSamples(readFileSync(file, 'utf8'));
for (const method of ['nn', 'knn']) qif.estimate.bayesRisk(t.secrets, t.observations, { method, seed: 1 });
const nodeMs = performance.now() - n0;
rmSync(dir, { recursive: true, force: true });

console.table([{
  'page ms (file chosen → estimates shown)': pageMs, 'Node ms (parse + estimates)': Math.round(nodeMs), 'page / Node': +(pageMs / nodeMs).toFixed(2),
  'main-thread tasks > 50 ms': long.length, 'longest (ms)': Math.round(Math.max(0, ...long)),
}]);
if (errors.length) console.log('console errors:', errors);
console.log('2-core shared machine: timings are noisy.');
