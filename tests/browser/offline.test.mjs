// Offline and portable, in headless Chromium:
//  (a) the single-file build dist/qif-toolkit.html, opened straight from disk (file://), loads
//      every section and computes the password checker's measures — compared with the plain-JS
//      reference (reference.mjs) — and the exact mode, with no request to anything but itself;
//  (b) after one visit over http the service worker controls the page; with the network cut
//      the page, the exact mode and the widget demo reload from its cache and still compute.
// Zero console errors in both.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, settled, valueOf, ROOT } from './harness.mjs';
import { presetById, numericChannel } from '../../web/lib/presets.js';
import { all } from './reference.mjs';

const SINGLE = path.join(ROOT, 'dist', 'qif-toolkit.html');
const MEASURE_KEYS = Object.keys(all([1], [[1]]));

let h;
before(async () => {
  // The single file is a build product: make it from the current web/ (scripts/build.sh does too).
  await promisify(execFile)('node', ['scripts/singlefile.mjs'], { cwd: ROOT });
  h = await startHarness();
});
after(async () => { await h?.close(); });

const uniform = (n) => new Array(n).fill(1 / n);

async function expectMeasures(page, expected, what) {
  const problems = [];
  for (const key of MEASURE_KEYS) {
    const got = await valueOf(page, key);
    const want = expected[key];
    if (got === null || !(got === want || Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)))) problems.push(`${key}: page ${got}, expected ${want}`);
  }
  assert.deepEqual(problems, [], `${what}: measures differ from the reference`);
}

// A context of our own for file:// (the harness's pages refuse every URL outside its server).
async function filePage() {
  const context = await h.browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  context.on('request', (r) => { if (!/^(?:file|blob|data):/.test(r.url())) requests.push(r.url()); });
  return { page, context, errors, requests };
}

// Runs exact.mechanism.optimal on Table 1 of Alvim et al. (ICALP 2011) in the page's worker (the
// engine module the page imported: in the single file, the page's one bundled module, which
// re-exports the engine's, at the Blob URL its bootstrap gave it) and
// returns the utility.
async function exactThroughWorker(page, singleFile) {
  return page.evaluate(async (single) => {
    const url = single ? globalThis.__qifAsset('page.js') : new URL('engine/index.js', document.baseURI).href;
    const { client } = await import(url);
    const K6 = { n: 6, edges: [] };
    for (let a = 0; a < 6; a++) for (let b = a + 1; b < 6; b++) K6.edges.push([a, b]);
    return client.call('exact.mechanism', 'optimal', { graph: K6, expEpsilon: 2 }).then((r) => r.utility);
  }, singleFile);
}

test('the single-file build works when opened from file://', async () => {
  const html = await readFile(SINGLE, 'utf8');
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)[1];
  assert.doesNotMatch(csp, /unsafe-inline|(?<!wasm-)unsafe-eval|\*|https?:/, 'no inline-anything, no remote origin');
  assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+' blob: 'wasm-unsafe-eval'/);
  assert.doesNotMatch(html, /<script[^>]+\bsrc=|<link[^>]+rel="stylesheet"/, 'nothing loaded from beside the file');
  // Each inline script and style carries the hash the policy names.
  const { createHash } = await import('node:crypto');
  const hashes = [...html.matchAll(/<(script type="module"|style)>([\s\S]*?)<\/(?:script|style)>/g)].map((m) => createHash('sha256').update(m[2]).digest('base64'));
  assert.ok(hashes.length >= 2);
  for (const x of hashes) assert.ok(csp.includes(`'sha256-${x}'`), `hash ${x} in the CSP`);

  const { page, context, errors, requests } = await filePage();
  await page.goto(pathToFileURL(SINGLE).href);
  await settled(page, 30000);
  assert.match(await page.textContent('#engine-status'), /ready/);
  const C = numericChannel(presetById('password-iterations'));
  await expectMeasures(page, all(uniform(8), C), 'single file, password checker');
  assert.equal(await page.textContent('[data-testid="value-mutualInformation"]'), '1.75');
  // Another preset: the computation goes on working.
  await page.selectOption('[data-testid="preset-select"]', 'dcnet-biased');
  await settled(page, 30000);
  await expectMeasures(page, all(uniform(4), numericChannel(presetById('dcnet-biased'))), 'single file, biased dc-net');
  // The other sections are there too (loaded through the bundle's import resolver).
  for (const id of ['mechanism', 'compare', 'infopriv', 'composition']) {
    assert.ok((await page.locator(`#${id} h2`).count()) === 1, `section ${id} rendered`);
    assert.doesNotMatch(await page.textContent(`#${id}`), /could not be loaded/);
  }
  // The exact module is in the file too, inflated the first time the worker is asked for it.
  assert.equal(await exactThroughWorker(page, true), '2/7', 'qif.exact from the single file');
  await h.screenshot(page, 'offline-single-file');
  assert.deepEqual(errors, [], 'no console or page errors');
  assert.deepEqual(requests, [], 'no request outside the file');
  await context.close();
});

test('after the first visit the page works with the network off', async () => {
  const page = await h.newPage();
  await page.goto(h.url);
  await settled(page);
  // The worker installs (precaching every file of the manifest) and takes control.
  const sw = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const t0 = performance.now();
    while (!navigator.serviceWorker.controller && performance.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 50));
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('qif-toolkit-')));
    const cached = (await cache.keys()).map((r) => new URL(r.url).pathname.replace(/^\//, ''));
    return { scope: reg.scope, controlled: !!navigator.serviceWorker.controller, keys, cached };
  });
  assert.equal(sw.controlled, true, 'the service worker controls the page');
  assert.equal(sw.keys.filter((k) => k.startsWith('qif-toolkit-')).length, 1, 'one versioned cache');
  const manifest = await readFile(path.join(ROOT, 'web', 'sw-manifest.js'), 'utf8');
  const { version, files } = JSON.parse(/QIF_PRECACHE = ([\s\S]*);/.exec(manifest)[1]);
  assert.equal(sw.keys[0], `qif-toolkit-${version}`, 'the cache is named by the manifest hash');
  for (const f of ['index.html', 'qif.wasm', 'qif-more.wasm', 'qif-exact.wasm', 'wasm_exec.js', 'engine/worker.js', 'engine/worker-serve.js', 'engine/start.js', 'api.gen.js', 'app.js', 'page/sections.js', 'sections/channel/view.js', 'input/number.js', 'style.css', 'embed.html', 'widgets.js',
    'page/version.js', 'docs/mathematics.html', 'docs/references.html', 'docs/math.css', 'docs.css', 'THIRD_PARTY_NOTICES.txt']) {
    assert.ok(files.includes(f), `manifest lists ${f}`);
    assert.ok(sw.cached.includes(f), `${f} is cached`);
  }

  await page.context().setOffline(true);
  // The network is really gone: a file that was never cached cannot be fetched.
  // Its failure is logged as a console error, which is expected here and removed from the list.
  const errors = h.errors(page);
  const before = errors.length;
  const probe = await page.evaluate(() => fetch(`qif.wasm?probe=${Date.now()}`).then((r) => `status ${r.status}`, () => 'failed'));
  assert.equal(probe, 'failed', 'offline');
  await page.waitForTimeout(200);
  assert.ok(errors.slice(before).every((e) => /Failed to load resource/.test(e)), errors.slice(before).join('; '));
  errors.splice(before);

  await page.reload();
  await settled(page, 30000);
  await expectMeasures(page, all(uniform(8), numericChannel(presetById('password-iterations'))), 'offline reload');
  await page.selectOption('[data-testid="preset-select"]', 'dcnet-fair');
  await settled(page);
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - 1) < 1e-12, 'fair dc-net reveals the bit: 1 bit');
  assert.equal(await exactThroughWorker(page, false), '2/7', 'qif.exact offline, from the cache');
  await h.screenshot(page, 'offline-reload');

  // The widget demo, never visited before, comes from the cache as well.
  await page.goto(`${h.url}embed.html`);
  await page.waitForFunction(() => {
    const w = [...document.querySelectorAll('qif-channel, qif-mechanism')];
    return w.length > 0 && w.every((x) => x.dataset.state === 'ready');
  }, null, { timeout: 30000 });
  const mi = await page.locator('#w-password').locator('[data-testid="value-mutualInformation"]').getAttribute('data-value');
  assert.ok(Math.abs(Number(mi) - 1.75) < 1e-12, 'widget computes offline');

  // The documentation, typeset, and the notices come from the cache too.
  await page.goto(`${h.url}docs/mathematics.html#refinement`);
  assert.equal(await page.evaluate(() => document.querySelector('#refinement')?.matches(':target')), true, 'the mathematics offline');
  assert.ok(await page.locator('.katex').count() > 100, 'with its formulas');
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.katex')).fontFamily.includes('KaTeX')), true, 'and KaTeX\'s styles');
  // A directory address (where a server redirects docs/index.html) is that directory's index,
  // not the tool's page.
  await page.goto(`${h.url}docs/`);
  assert.match(await page.title(), /documentation/, 'docs/ is the documentation\'s start page');
  assert.equal(await page.locator('section.tool').count(), 0, 'not the tool');
  // (Fetched, not opened: a text document makes Chromium ask for /favicon.ico, which is not cached.)
  assert.match(await page.evaluate(() => fetch('../THIRD_PARTY_NOTICES.txt').then((r) => r.text())), /gonum/);
  await page.context().setOffline(false);
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
});

test('a page opened from file:// registers no service worker', async () => {
  const { page, context, errors } = await filePage();
  await page.goto(pathToFileURL(SINGLE).href);
  await settled(page, 30000);
  assert.equal(await page.evaluate(() => globalThis.__qifSingleFile === true), true);
  assert.equal(await page.evaluate(() => ('serviceWorker' in navigator ? navigator.serviceWorker.controller : null)), null);
  assert.deepEqual(errors, []);
  await context.close();
});
