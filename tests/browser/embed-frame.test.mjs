// The iframe mode of web/embed.html (page/embed-frame.js), in headless Chromium, with the host pages
// on another local port than the widgets: in a host that runs no script at all (its CSP says
// script-src 'none', as a learning management system that strips scripts) the framed widget
// computes the closed-form values and lists the parameters it ignored; in a host running the
// snippet of docs/widgets.md the frame is resized to its content, also when the content grows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startHarness, ROOT, SCREENSHOTS } from './harness.mjs';

let h;
let host;
const pages = {};
before(async () => {
  h = await startHarness();
  host = createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise((r) => host.listen(0, '127.0.0.1', r));
});
after(async () => {
  await h?.close();
  host?.close();
});

const hostURL = (p) => `http://127.0.0.1:${host.address().port}${p}`;
const H2 = (p) => -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));

// The snippet of docs/widgets.md#iframe-mode, as an author would paste it, with our frame's URL.
function docSnippet(src) {
  const doc = readFileSync(path.join(ROOT, 'docs/widgets.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Iframe mode'));
  const html = /```html\n([\s\S]*?)```/.exec(section)[1];
  assert.match(html, /<iframe src="[^"]+"/);
  return html.replace(/<iframe src="[^"]+"/, `<iframe src="${src.replace(/&/g, '&amp;')}"`);
}

async function context() {
  const ctx = await h.browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  return { ctx, page, errors };
}

async function widgetFrame(page) {
  const el = await page.waitForSelector('iframe');
  const frame = await el.contentFrame();
  await frame.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('widget')?.dataset.state), null, { timeout: 20000 });
  return { el, frame };
}

test('a script-free host shows a framed widget with the right numbers', async () => {
  const src = `${h.url}embed.html?widget=channel&matrix=${encodeURIComponent('3/4 1/4; 1/4 3/4')}&measures=mutualInformation,minEntropyLeakage&row-labels=0,1&colour=red&frame=bsc`;
  pages['/stripped.html'] = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="script-src 'none'"><link rel="icon" href="data:,"><title>LMS</title></head>
<body><h1>Week 4</h1><iframe src="${src.replace(/&/g, '&amp;')}" title="BSC" style="width: 100%; border: 0" height="300"></iframe></body></html>`;
  const { ctx, page, errors } = await context();
  try {
    await page.goto(hostURL('/stripped.html'));
    const { el, frame } = await widgetFrame(page);
    const got = await frame.evaluate(() => ({
      state: document.getElementById('widget').dataset.state,
      values: document.getElementById('widget').getResults(),
      widgets: document.querySelectorAll('qif-channel, qif-mechanism, qif-refinement').length,
      note: document.querySelector('[data-testid="frame-note"]')?.textContent ?? '',
      rows: [...document.getElementById('widget').shadowRoot.querySelectorAll('tbody th')].map((th) => th.textContent),
    }));
    assert.equal(got.state, 'ready');
    assert.equal(got.widgets, 1, 'the lesson is not in the frame');
    assert.ok(Math.abs(got.values.mutualInformation - (1 - H2(1 / 4))) < 1e-12, `I = ${got.values.mutualInformation}`);
    assert.ok(Math.abs(got.values.minEntropyLeakage - Math.log2(1.5)) < 1e-12);
    assert.deepEqual(got.rows, ['0', '1'], 'row-labels came through');
    assert.match(got.note, /Ignored parameters.*colour/);
    assert.doesNotMatch(got.note, /frame|widget/, 'widget and frame are the mode’s own parameters');
    assert.equal((await el.boundingBox()).height, 300, 'no script in the host: the frame keeps its height');
    await page.screenshot({ path: `${SCREENSHOTS}/embed-frame-stripped.png` });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('the snippet of docs/widgets.md fits the frame to its content', async () => {
  const src = `${h.url}embed.html?widget=mechanism&graph=path&n=5&epsilon=ln%202&mechanism=truncatedGeometric&theme=dark&size=compact`;
  pages['/host.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Host</title></head>
<body style="background:#191919;color:#eee"><h1>Week 4</h1>${docSnippet(src)}<p id="after">after the frame</p></body></html>`;
  const { ctx, page, errors } = await context();
  try {
    await page.goto(hostURL('/host.html'));
    const { el, frame } = await widgetFrame(page);
    const content = () => frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    const fits = async () => {
      const want = await content();
      for (let i = 0; i < 100; i++) {
        if (Math.abs((await el.boundingBox()).height - want) <= 1) return want;
        await page.waitForTimeout(50);
      }
      assert.fail(`frame ${(await el.boundingBox()).height}px, content ${want}px`);
    };
    const first = await fits();
    assert.notEqual(first, 420, 'resized from the height written on the iframe');
    assert.ok(first < 420, `a compact mechanism is shorter than the default frame: ${first}px`);
    // The content grows (a second line of problems): the frame follows.
    await frame.evaluate(() => document.getElementById('widget').setAttribute('epsilon', 'two'));
    await frame.waitForFunction(() => document.getElementById('widget').dataset.state === 'error');
    const second = await fits();
    assert.notEqual(second, first);
    await page.screenshot({ path: `${SCREENSHOTS}/embed-frame-host.png` });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('embed.html without ?widget is still the sample lesson', async () => {
  const page = await h.newPage();
  await page.goto(`${h.url}embed.html`);
  assert.equal(await page.locator('qif-channel, qif-mechanism, qif-refinement').count(), 6);
  assert.equal(await page.evaluate(() => 'frame' in document.documentElement.dataset), false);
  assert.deepEqual(h.errors(page), []);
});

// Not yet reliable: Chromium throttles a cross-origin frame below the fold, and after another
// test in the same browser its widget can stay unrendered (never 'ready') until scrolled to.
// Reported as a todo (its failure is shown, not counted) until the frame's start no longer
// depends on being rendered.
test('the first height a frame posts is the rendered widget’s, also for a cross-origin frame below the fold', { todo: 'a throttled cross-origin frame below the fold can stay unrendered' }, async () => {
  const src = `${h.url}embed.html?widget=channel&matrix=${encodeURIComponent('3/4 1/4; 1/4 3/4')}&measures=mutualInformation,minEntropyLeakage`;
  // The host records every height posted, before any scrolling; the frame sits 3,000 px down.
  pages['/below.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Host</title>
<script>window.heights = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'qif-embed:height') window.heights.push(e.data.height); });</script></head>
<body><h1>Week 5</h1><div style="height:3000px">reading…</div><iframe src="${src.replace(/&/g, '&amp;')}" title="BSC" style="width: 100%; border: 0" height="300"></iframe></body></html>`;
  const { ctx, page, errors } = await context();
  try {
    await page.goto(hostURL('/below.html'));
    const { frame } = await widgetFrame(page);
    const rendered = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    assert.ok(rendered > 150, `the widget is ${rendered} px tall`);
    await page.waitForFunction(() => window.heights.length > 0, null, { timeout: 10000 });
    const heights = await page.evaluate(() => window.heights.slice());
    assert.ok(heights[0] > 150, `the first height posted is the widget’s, not ${heights[0]} px (all: ${heights.join(', ')})`);
    assert.equal(heights.at(-1), rendered, 'the last height posted, unscrolled, is the rendered height');
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'nothing was scrolled');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});
