// The one-file widget bundle dist/qif-widgets.js (scripts/widgets-bundle.mjs), in headless Chromium:
//  (a) a lesson opened from disk (file://) with the bundle copied beside it: two widgets of one
//      kind and a mechanism compute the numbers that closed forms in this file give, through one
//      worker, with no request beyond the files and Blob URLs; a lesson with channels only never
//      loads the second module's script (dist/qif-widgets-more.js), one with a mechanism does;
//  (b) a host page on one local port including the bundle from another port (as from a CDN):
//      the same;
//  (c) a page whose Content-Security-Policy refuses the worker, or the WebAssembly compiler: each
//      widget says in its own box that the engine could not start and why, and the console says
//      what to change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import { copyFile, mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, ROOT, SCREENSHOTS } from './harness.mjs';

const BUNDLE = path.join(ROOT, 'dist', 'qif-widgets.js');
const MORE = path.join(ROOT, 'dist', 'qif-widgets-more.js');

let h;
let dir;
before(async () => {
  // The bundle is a build product: make it from the current web/ (scripts/build.sh does too).
  await promisify(execFile)('node', ['scripts/widgets-bundle.mjs'], { cwd: ROOT });
  h = await startHarness();
  dir = await mkdtemp(path.join(tmpdir(), 'qif-lesson-'));
  await copyFile(BUNDLE, path.join(dir, 'qif-widgets.js'));
  await copyFile(MORE, path.join(dir, 'qif-widgets-more.js'));
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- closed forms

const H2 = (p) => -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
// Binary symmetric channel flipping with probability f, uniform prior: I = 1 − H(f); posterior
// Bayes vulnerability 1 − f (f ≤ 1/2), so min-entropy leakage log2(2(1 − f)).
const bsc = (f) => ({ mutualInformation: 1 - H2(f), minEntropyLeakage: Math.log2(2 * (1 - f)), posteriorBayesVulnerability: 1 - f });
// Randomized response on n inputs at ε: truthful with e^ε/(e^ε + n − 1); under the uniform prior
// the utility is that probability, and on a clique the bound 1/(1 + (n − 1)e^−ε) equals it.
const rr = (n, eps) => ({ utility: Math.exp(eps) / (Math.exp(eps) + n - 1), bound: 1 / (1 + (n - 1) * Math.exp(-eps)), actualEpsilon: eps });

const LESSON = (src, csp = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8">${csp ? `<meta http-equiv="Content-Security-Policy" content="${csp}">` : ''}
<title>Lesson</title><link rel="icon" href="data:,">
<script src="${src}"></script>
</head><body>
<h1>Noise reduces leakage</h1>
<qif-channel id="c1" matrix="3/4 1/4; 1/4 3/4" measures="mutualInformation,minEntropyLeakage,posteriorBayesVulnerability"></qif-channel>
<qif-channel id="c2" matrix='[["0.9","0.1"],["0.1","0.9"]]' measures="mutualInformation,minEntropyLeakage,posteriorBayesVulnerability"></qif-channel>
<qif-mechanism id="m" graph="clique" n="4" epsilon="ln 3" mechanism="randomizedResponse"></qif-mechanism>
</body></html>`;

function close(got, want, what) {
  assert.ok(Number.isFinite(got) && Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: got ${got}, expected ${want}`);
}

// A fresh context that records console errors, page errors, workers and every request.
async function openPage(url) {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const log = { errors: [], consoleErrors: [], requests: [], workers: [] };
  page.on('console', (m) => { if (m.type() === 'error') log.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('worker', (w) => log.workers.push(w.url()));
  context.on('request', (r) => log.requests.push(r.url()));
  await page.goto(url);
  return { page, context, log };
}

async function settledWidgets(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('qif-channel, qif-mechanism')].every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error'), null, { timeout: 30000 });
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll('qif-channel, qif-mechanism')].map((w) => [w.id, {
    state: w.dataset.state,
    values: w.getResults(),
    error: w.shadowRoot.querySelector('[data-testid="error"]')?.textContent ?? '',
  }])));
}

function expectLesson(got) {
  for (const [id, f] of [['c1', 1 / 4], ['c2', 1 / 10]]) {
    assert.equal(got[id].state, 'ready', `${id}: ${got[id].error}`);
    for (const [k, v] of Object.entries(bsc(f))) close(got[id].values[k], v, `${id} ${k}`);
  }
  assert.equal(got.m.state, 'ready', got.m.error);
  for (const [k, v] of Object.entries(rr(4, Math.log(3)))) close(got.m.values[k], v, `randomized response ${k}`);
}

test('a lesson opened from file:// computes with the bundle beside it', async () => {
  const file = path.join(dir, 'lesson.html');
  await writeFile(file, LESSON('qif-widgets.js'));
  const { page, context, log } = await openPage(pathToFileURL(file).href);
  try {
    expectLesson(await settledWidgets(page));
    assert.equal(log.workers.length, 1, `one worker for three widgets: ${log.workers.join(', ')}`);
    assert.match(log.workers[0], /^blob:/);
    assert.deepEqual(log.requests.filter((u) => !/^(?:file|blob|data):/.test(u)), [], 'nothing but the files and Blob URLs');
    assert.ok(log.requests.some((u) => u.endsWith('/qif-widgets-more.js')), 'the mechanism loads the second module');
    assert.deepEqual([...log.errors, ...log.consoleErrors], []);
    // A student edits a cell: the first channel recomputes (here: the flip probability 1/2 leaks nothing).
    const detail = await page.evaluate(async () => {
      const w = document.getElementById('c1');
      const done = new Promise((r) => w.addEventListener('qif-update', (e) => r(e.detail), { once: true }));
      for (const [id, v] of [['cell-0-0', '1/2'], ['cell-0-1', '1/2'], ['cell-1-0', '1/2'], ['cell-1-1', '1/2']]) {
        const input = w.shadowRoot.querySelector(`[data-testid="${id}"]`);
        input.value = v;
        input.dispatchEvent(new Event('input'));
      }
      return done;
    });
    close(detail.mutualInformation, 0, 'I with flip probability 1/2');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'bundle-file-lesson.png'), fullPage: true });
  } finally {
    await context.close();
  }
});

// A static server of `files` ({path: [type, body]}) on a free port, optionally with CORS.
async function serve(files, cors) {
  const server = createServer((req, res) => {
    const f = files[new URL(req.url, 'http://x').pathname];
    if (!f) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': f[0], ...(cors ? { 'access-control-allow-origin': '*' } : {}) });
    res.end(f[1]);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

test('a page on another origin than the bundle (two local ports) computes', async () => {
  const assets = await serve({ '/qif-widgets.js': ['text/javascript', await readFile(BUNDLE)], '/qif-widgets-more.js': ['text/javascript', await readFile(MORE)] }, true);
  const host = await serve({ '/lesson.html': ['text/html', LESSON(`${assets.origin}/qif-widgets.js`)] }, false);
  const { page, context, log } = await openPage(`${host.origin}/lesson.html`);
  try {
    expectLesson(await settledWidgets(page));
    assert.equal(log.workers.length, 1);
    assert.ok(log.workers[0].startsWith(`blob:${host.origin}/`), `the worker belongs to the page's origin: ${log.workers[0]}`);
    assert.deepEqual(log.requests.filter((u) => !/^(?:blob|data):/.test(u)), [`${host.origin}/lesson.html`, `${assets.origin}/qif-widgets.js`, `${assets.origin}/qif-widgets-more.js`]);
    assert.deepEqual([...log.errors, ...log.consoleErrors], []);
  } finally {
    await context.close();
    assets.server.close();
    host.server.close();
  }
});

test('a lesson with channels only computes without loading the second module', async () => {
  const file = path.join(dir, 'channels.html');
  await writeFile(file, LESSON('qif-widgets.js').replace(/<qif-mechanism[^>]*><\/qif-mechanism>/, ''));
  const { page, context, log } = await openPage(pathToFileURL(file).href);
  try {
    const got = await settledWidgets(page);
    for (const [id, f] of [['c1', 1 / 4], ['c2', 1 / 10]]) {
      assert.equal(got[id].state, 'ready', `${id}: ${got[id].error}`);
      for (const [k, v] of Object.entries(bsc(f))) close(got[id].values[k], v, `${id} ${k}`);
    }
    assert.deepEqual(log.requests.filter((u) => u.endsWith('/qif-widgets-more.js')), [], 'qif-widgets-more.js not requested');
    assert.deepEqual([...log.errors, ...log.consoleErrors], []);
  } finally {
    await context.close();
  }
});

test('when the engine cannot start, each widget says why and the console says what to do', async () => {
  const cases = [
    { csp: "script-src file: 'unsafe-inline'; worker-src 'none'", box: /could not start.*worker could not start/, advice: /Content-Security-Policy.*worker-src blob:/ },
    { csp: "script-src file: blob:; worker-src blob:", box: /could not start.*(?:unsafe-eval|Content Security)/, advice: /script-src 'wasm-unsafe-eval'/ },
  ];
  for (const [i, c] of cases.entries()) {
    const file = path.join(dir, `csp-${i}.html`);
    await writeFile(file, LESSON('qif-widgets.js', c.csp));
    const { page, context, log } = await openPage(pathToFileURL(file).href);
    try {
      const got = await settledWidgets(page);
      for (const id of ['c1', 'c2', 'm']) {
        assert.equal(got[id].state, 'error', `${c.csp}: ${id} state`);
        assert.match(got[id].error, c.box, `${c.csp}: ${id} box`);
      }
      assert.deepEqual(log.errors, [], 'nothing thrown into the page');
      const advice = log.consoleErrors.filter((m) => m.startsWith('QIF widgets:'));
      assert.equal(advice.length, 1, `one piece of advice in the console: ${log.consoleErrors.join(' | ')}`);
      assert.match(advice[0], c.advice);
      if (i === 0) await page.screenshot({ path: path.join(SCREENSHOTS, 'bundle-engine-refused.png'), fullPage: true });
    } finally {
      await context.close();
    }
  }
});
