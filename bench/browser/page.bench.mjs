// page.bench.mjs — performance of the page in headless Chromium (targets in
// docs/design/performance.md), run by hand:
//   scripts/build.sh && node bench/browser/page.bench.mjs [runs]
// Serves web/ with scripts/serve (gzip on, no caching) on localhost and measures, each run in a
// fresh browser context (cold cache):
//   first result   time from navigation start to the first measure on screen (an <output
//                  class="value"> of the Channel & leakage section receiving its data-value: the
//                  default example's numbers computed at build time count, marked
//                  data-prerendered), target < 500 ms; and to the first the engine computed;
//   wasm transfer  bytes of qif.wasm (the first module) on the wire (gzip), from the network response, target ≤ 1.0 MB;
//   longest task   the main thread's longest task (PerformanceObserver 'longtask') while a long
//                  job runs in the worker — an optimal mechanism by LP (qif.mechanism.optimalLP,
//                  forceLP) and a Blahut–Arimoto capacity — while the page keeps typing; target < 50 ms.
//   engine alone   the peer of the first result: engine/worker.js started from an empty page of the
//                  same origin, cold (its ready message, and the answer to a first call);
//   widgets        a lesson with one <qif-channel>: navigation start to the widget's first
//                  qif-update, and to the worker's ready message, cold, for dist/qif-widgets.js
//                  opened from file:// and for web/widgets.js (module) served by the same server
//                  as the page — the same widget, so the bundle is measured against the module.
//   --before=DIR   instead, compare another build (DIR holds its web/ and dist/, e.g. a copy made
//                  before a change; several as DIR1,DIR2) with this one, runs interleaved: the page's first result, the
//                  worker's ready message and qif.wasm's transfer size, and the first result of a
//                  lesson from file:// with one <qif-channel>, and with one <qif-mechanism>, each
//                  with that build's dist/qif-widgets.js (and its qif-widgets-more.js if it has one),
//                  and the same lessons over http on a network throttled to 10 Mbit/s, 40 ms.
// Not part of the test suite: numbers depend on the machine (2 shared cores here).
import { chromium } from 'playwright-core';
import { startServer } from '../../tests/browser/harness.mjs';
import { rm, mkdtemp, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const BEFORE = process.argv.find((a) => a.startsWith('--before='))?.slice('--before='.length);
const RUNS = Number(process.argv.slice(2).find((a) => !a.startsWith('--')) || 5);
const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
});

const median = (xs) => { const s = xs.slice().sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const fmtMs = (x) => `${x.toFixed(0)} ms`;

async function coldLoad(url = server.url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  // The worker's fetch of qif.wasm: its encoded (on-the-wire) size from the network layer.
  let wasm = null;
  page.on('response', async (res) => {
    if (!res.url().endsWith('/qif.wasm')) return;
    const sizes = await res.request().sizes().catch(() => null);
    wasm = { encoding: (await res.allHeaders())['content-encoding'] ?? 'identity', body: sizes?.responseBodySize, headers: sizes?.responseHeadersSize };
  });
  context.on('response', async (res) => {
    if (!wasm && res.url().endsWith('/qif.wasm')) {
      const sizes = await res.request().sizes().catch(() => null);
      wasm = { encoding: (await res.allHeaders())['content-encoding'] ?? 'identity', body: sizes?.responseBodySize, headers: sizes?.responseHeadersSize };
    }
  });
  await page.addInitScript(() => {
    // When the worker is created and when it reports the wasm loaded.
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(...a) {
        super(...a);
        window.__created ??= performance.now();
        this.addEventListener('message', (e) => { if (e.data?.type === 'ready') window.__ready ??= performance.now(); });
      }
    };
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration }); })
      .observe({ type: 'longtask', buffered: true });
    // The first number on screen (a value prerendered at build time counts) and the first one the
    // engine computed (an output without data-prerendered).
    const mo = new MutationObserver(() => {
      if (window.__firstResult === undefined && document.querySelector('#channel output.value[data-value]')) window.__firstResult = performance.now();
      if (document.querySelector('#channel output.value[data-value]:not([data-prerendered])')) {
        window.__firstComputed = performance.now();
        mo.disconnect();
      }
    });
    mo.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-value', 'data-state'] });
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__firstComputed !== undefined, null, { timeout: 30000 });
  const first = await page.evaluate(() => window.__firstResult);
  const computed = await page.evaluate(() => window.__firstComputed);
  const phases = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return { dcl: nav.domContentLoadedEventEnd, created: window.__created ?? NaN, ready: window.__ready ?? NaN };
  });
  // The long jobs below measure the page at rest: every section mounted (the four below the first
  // mount after its first numbers) and done computing.
  await page.waitForFunction(() => document.documentElement.dataset.product === 'ready'
    && [...document.querySelectorAll('main > section[data-section]')].every((s) => s.dataset.busy === 'false'), null, { timeout: 60000 });
  const loadLong = await page.evaluate(() => Math.max(0, ...window.__long.map((e) => e.duration)));
  for (let i = 0; i < 50 && !wasm; i++) await page.waitForTimeout(20);
  return { context, page, first, computed, wasm, loadLong, phases };
}

// A long job in the worker while the main thread keeps handling input; returns the longest
// main-thread task seen during it and the job's own duration.
async function longJob(page, which) {
  return page.evaluate(async (kind) => {
    const { client } = await import('./engine/index.js');
    window.__long = [];
    const t0 = performance.now();
    let job;
    if (kind === 'lp') {
      // Optimal ε-DP mechanism on a 6×6 grid graph (36 secrets, 1296 variables) by the simplex
      // method.
      const n = 6;
      const edges = [];
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
        if (c + 1 < n) edges.push([r * n + c, r * n + c + 1]);
        if (r + 1 < n) edges.push([r * n + c, (r + 1) * n + c]);
      }
      job = client.call('mechanism', 'optimalLP', { graph: { n: n * n, edges }, epsilon: 0.5, forceLP: true });
    } else {
      // Blahut–Arimoto on a 400×400 noisy channel to a tight tolerance.
      const n = 400;
      const data = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < n; j++) { const v = Math.exp(-Math.abs(i - j) / 7) * (1 + ((i * 31 + j * 17) % 13) / 13); data[i * n + j] = v; s += v; }
        for (let j = 0; j < n; j++) data[i * n + j] /= s;
      }
      job = client.call('measure', 'shannonCapacity', { rows: n, cols: n, data }, { tolerance: 1e-12 });
    }
    // Meanwhile the user types into a cell of the channel.
    const cell = document.querySelector('[data-testid="alpha"]');
    let typing = true;
    const typer = (async () => {
      let k = 0;
      while (typing) {
        cell.value = String(2 + (k++ % 5));
        cell.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    let ok = true;
    try { await job; } catch (e) { ok = e.message; }
    const jobMs = performance.now() - t0;
    typing = false;
    await typer;
    await new Promise((r) => setTimeout(r, 200));
    return { ok, jobMs, longest: Math.max(0, ...window.__long.map((e) => e.duration)), count: window.__long.length };
  }, which);
}

// One cold load of a lesson with one channel widget: {first, ready} in ms from navigation start.
// throttle: {download, latency} in bytes/s and ms, a slow network emulated by Chromium.
async function widgetLoad(url, html, throttle) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  if (html) await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (throttle) await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: throttle.latency, downloadThroughput: throttle.download, uploadThroughput: throttle.download });
  await page.addInitScript(() => {
    const W = window.Worker;
    window.Worker = class extends W {
      constructor(...a) {
        super(...a);
        this.addEventListener('message', (e) => { if (e.data?.type === 'ready') window.__ready ??= performance.now(); });
      }
    };
    addEventListener('qif-update', () => { window.__firstResult ??= performance.now(); });
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__firstResult !== undefined, null, { timeout: 30000 });
  const r = await page.evaluate(() => ({ first: window.__firstResult, ready: window.__ready ?? NaN }));
  await context.close();
  return r;
}

// The peer of the page's start-up: the same engine (engine/worker.js) started from an empty page of the
// same origin, cold — what the page would take if it did nothing else. Resolves to {ready,
// first}: navigation start to the worker's ready message, and to the answer of a first call.
async function engineAlone() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const url = `${server.url}bench-empty.html`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>empty</title>' }));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.addInitScript(() => {
    window.__engine = new Promise((resolve) => {
      const w = new Worker('engine/worker.js', { type: 'module' });
      const r = {};
      w.onmessage = (e) => {
        if (e.data?.type === 'ready') {
          r.ready = performance.now();
          w.postMessage({ id: 1, calls: [{ ns: 'measure', fn: 'shannonEntropy', args: [[0.5, 0.5]] }] });
        } else if (e.data?.type === 'result') {
          r.first = performance.now();
          resolve(r);
        }
      };
    });
  });
  await page.goto(url);
  const r = await page.evaluate(() => window.__engine);
  await context.close();
  return r;
}

const LESSON = (script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>lesson</title>${script}</head>
<body><h1>Lesson</h1><qif-channel preset="password-iterations" measures="mutualInformation,minEntropyLeakage"></qif-channel></body></html>`;

const rows = [];
if (BEFORE) {
  try {
    await compare(BEFORE);
  } finally {
    await browser.close();
    server.proc.kill();
    await rm(server.dir, { recursive: true, force: true });
  }
  process.exit(0);
}
try {
  // The widgets: the bundle from file:// against the module from http, runs interleaved.
  const lessonDir = await mkdtemp(path.join(tmpdir(), 'qif-bench-lesson-'));
  await copyFile(new URL('../../dist/qif-widgets.js', import.meta.url), path.join(lessonDir, 'qif-widgets.js'));
  await writeFile(path.join(lessonDir, 'lesson.html'), LESSON('<script src="qif-widgets.js"></script>'));
  const widget = { bundle: [], module: [] };
  for (let i = 0; i < RUNS; i++) {
    widget.bundle.push(await widgetLoad(pathToFileURL(path.join(lessonDir, 'lesson.html')).href));
    widget.module.push(await widgetLoad(`${server.url}bench-lesson.html`, LESSON('<script type="module" src="widgets.js"></script>')));
  }
  await rm(lessonDir, { recursive: true, force: true });
  for (const [name, xs] of [['dist/qif-widgets.js from file://', widget.bundle], ['web/widgets.js (module) over http', widget.module]]) {
    const firsts = xs.map((x) => x.first);
    rows.push([`widget first result, ${name}`, `median ${fmtMs(median(firsts))} (min ${fmtMs(Math.min(...firsts))}, max ${fmtMs(Math.max(...firsts))}); worker ready median ${fmtMs(median(xs.map((x) => x.ready)))}`, '< 500 ms', median(firsts) < 500]);
  }
  rows.push(['  bundle / module, first result', `${(median(widget.bundle.map((x) => x.first)) / median(widget.module.map((x) => x.first))).toFixed(2)}×`, '(info)', true]);

  const firsts = [];
  const computeds = [];
  const readys = [];
  const dcls = [];
  const createds = [];
  const loads = [];
  let wasm = null;
  let jobs = null;
  const alone = [];
  for (let i = 0; i < RUNS; i++) {
    alone.push(await engineAlone());
    const r = await coldLoad();
    firsts.push(r.first);
    computeds.push(r.computed);
    readys.push(r.phases.ready);
    dcls.push(r.phases.dcl);
    createds.push(r.phases.created);
    loads.push(r.loadLong);
    wasm = r.wasm ?? wasm;
    if (i === 0) jobs = { lp: await longJob(r.page, 'lp'), capacity: await longJob(r.page, 'capacity') };
    await r.context.close();
  }
  rows.push(['first result on screen (cold cache; prerendered counts)', `median ${fmtMs(median(firsts))} (min ${fmtMs(Math.min(...firsts))}, max ${fmtMs(Math.max(...firsts))}, ${RUNS} runs)`, '< 500 ms', median(firsts) < 500]);
  rows.push(['first result computed by the engine', `median ${fmtMs(median(computeds))} (min ${fmtMs(Math.min(...computeds))}, max ${fmtMs(Math.max(...computeds))})`, '(info)', true]);
  rows.push(['  the engine alone on an empty page: ready, first answer', `median ${fmtMs(median(alone.map((a) => a.ready)))}, ${fmtMs(median(alone.map((a) => a.first)))}`, '(peer)', true]);
  rows.push(['  page first computed result / engine alone first answer', `${(median(computeds) / median(alone.map((a) => a.first))).toFixed(2)}×`, '(info)', true]);
  rows.push(['  of which: DOMContentLoaded', `median ${fmtMs(median(dcls))}`, '(info)', true]);
  rows.push(['  of which: worker created', `median ${fmtMs(median(createds))}`, '(info)', true]);
  rows.push(['  of which: worker ready (wasm fetched, compiled, started)', `median ${fmtMs(median(readys))}`, '(info)', true]);
  rows.push(['qif.wasm transfer size', wasm ? `${(wasm.body / 1e6).toFixed(3)} MB (${wasm.encoding})` : 'not seen', '≤ 1.0 MB', wasm ? wasm.body <= 1.0e6 : false]);
  rows.push(['longest main-thread task during load (all sections)', `median ${fmtMs(median(loads))} (max ${fmtMs(Math.max(...loads))})`, '(info)', true]);
  for (const [name, j] of Object.entries(jobs)) {
    rows.push([`longest main-thread task during ${name === 'lp' ? 'optimalLP (6×6 grid, forceLP)' : 'capacity (400×400, tol 1e-12)'}`,
      `${fmtMs(j.longest)} (${j.count} long tasks; job ${fmtMs(j.jobMs)}${j.ok === true ? '' : `, failed: ${j.ok}`})`, '< 50 ms', j.longest < 50]);
  }
} finally {
  await browser.close();
  server.proc.kill();
  await rm(server.dir, { recursive: true, force: true });
}
const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length)), 9];
console.log(`${'measure'.padEnd(w[0])} | ${'value'.padEnd(w[1])} | ${'target'.padEnd(w[2])} | met`);
console.log(`${'-'.repeat(w[0])}-|-${'-'.repeat(w[1])}-|-${'-'.repeat(w[2])}-|----`);
for (const [a, b, c, ok] of rows) console.log(`${a.padEnd(w[0])} | ${b.padEnd(w[1])} | ${c.padEnd(w[2])} | ${ok ? 'yes' : 'NO'}`);

// --before=DIR[,DIR2...]: other builds against this one, runs interleaved (see the header); one
// column per build, this one last, and the ratio of this one to the first.
async function compare(dirs) {
  const builds = {};
  const others = [];
  for (const [i, dir] of dirs.split(',').entries()) {
    const s = await startServer(path.resolve(dir, 'web'));
    others.push(s);
    builds[`before${i ? i + 1 : ''}`] = { server: s, dist: path.resolve(dir, 'dist'), dir };
  }
  builds.after = { server, dist: fileURLToPath(new URL('../../dist', import.meta.url)), dir: 'this checkout' };
  const names = Object.keys(builds);
  const lessons = {
    channel: '<qif-channel preset="password-iterations" measures="mutualInformation,minEntropyLeakage"></qif-channel>',
    mechanism: '<qif-mechanism graph="clique" n="6" epsilon="ln 2" mechanism="randomizedResponse"></qif-mechanism>',
  };
  const m = {};
  for (const [name, b] of Object.entries(builds)) {
    b.lessons = await mkdtemp(path.join(tmpdir(), `qif-bench-${name}-`));
    for (const f of ['qif-widgets.js', 'qif-widgets-more.js']) await copyFile(path.join(b.dist, f), path.join(b.lessons, f)).catch(() => {});
    for (const [k, body] of Object.entries(lessons)) {
      await writeFile(path.join(b.lessons, `${k}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>lesson</title><script src="qif-widgets.js"></script></head><body><h1>Lesson</h1>${body}</body></html>`);
    }
    m[name] = { first: [], computed: [], ready: [], wasm: null, channel: [], mechanism: [], channelNet: [], mechanismNet: [] };
    b.http = await staticServer(b.lessons);
  }
  const slow = { download: 10e6 / 8, latency: 40 };
  const loadBefore = loadavg()[0];
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const [name, b] of Object.entries(builds)) {
        const r = await coldLoad(b.server.url);
        m[name].first.push(r.first);
        m[name].computed.push(r.computed);
        m[name].ready.push(r.phases.ready);
        m[name].wasm = r.wasm ?? m[name].wasm;
        await r.context.close();
        for (const k of Object.keys(lessons)) {
          m[name][k].push((await widgetLoad(pathToFileURL(path.join(b.lessons, `${k}.html`)).href)).first);
          m[name][`${k}Net`].push((await widgetLoad(`${b.http.url}${k}.html`, undefined, slow)).first);
        }
      }
    }
  } finally {
    for (const s of others) {
      s.proc.kill();
      await rm(s.dir, { recursive: true, force: true });
    }
    for (const b of Object.values(builds)) {
      b.http.server.close();
      await rm(b.lessons, { recursive: true, force: true });
    }
  }
  const stat = (xs) => `${fmtMs(median(xs))} (${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))})`;
  const table = [
    ['page: first result on screen (prerendered counts), median (min–max)', 'first', stat],
    ['page: first result computed by the engine', 'computed', stat],
    ['page: worker ready, median', 'ready', (xs) => fmtMs(median(xs))],
    ['lesson, one <qif-channel> (bundle, file://): first result', 'channel', stat],
    ['lesson, one <qif-mechanism> (bundle, file://): first result', 'mechanism', stat],
    ['lesson, one <qif-channel> (bundle, http at 10 Mbit/s): first result', 'channelNet', stat],
    ['lesson, one <qif-mechanism> (bundle, http at 10 Mbit/s): first result', 'mechanismNet', stat],
  ];
  console.log(`${RUNS} runs each, interleaved; ${names.map((n) => `${n} = ${builds[n].dir}`).join('; ')}; load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`);
  console.log(`| | ${names.join(' | ')} | after / before |\n|---|${names.map(() => '---|').join('')}---|`);
  for (const [label, key, f] of table) {
    console.log(`| ${label} | ${names.map((n) => f(m[n][key])).join(' | ')} | ${(median(m.after[key]) / median(m.before[key])).toFixed(2)}× |`);
  }
  const mb = (w) => (w ? `${(w.body / 1e6).toFixed(3)} MB (${w.encoding})` : 'not seen');
  console.log(`| page: qif.wasm on the wire | ${names.map((n) => mb(m[n].wasm)).join(' | ')} | ${(m.after.wasm?.body / m.before.wasm?.body).toFixed(2)}× |`);
}

// A static server of the files of dir on a free port (the lessons and their scripts).
async function staticServer(dir) {
  const { createServer } = await import('node:http');
  const { readFile } = await import('node:fs/promises');
  const gz = new Map(); // compressed once, as a server would store them
  const server = createServer(async (req, res) => {
    const f = path.join(dir, path.basename(new URL(req.url, 'http://x').pathname));
    try {
      if (!gz.has(f)) gz.set(f, gzipSync(await readFile(f)));
      res.writeHead(200, { 'content-type': f.endsWith('.html') ? 'text/html' : 'text/javascript', 'content-encoding': 'gzip' });
      res.end(gz.get(f));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}
