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
import { presets as channelPresets } from '../../web/lib/presets.js';
import { refinementPresets } from '../../web/lib/refinement-presets.js';

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

// Whether Chromium renders the frame: an animation frame comes within 500 ms.
const drawn = (frame) => frame.evaluate(() => new Promise((r) => { requestAnimationFrame(() => r(true)); setTimeout(() => r(false), 500); }));

// polling: 100, not Playwright's default (requestAnimationFrame), which never runs in a frame that
// Chromium does not render (a cross-origin frame below the fold).
async function widgetFrame(page) {
  const el = await page.waitForSelector('iframe');
  const frame = await el.contentFrame();
  await frame.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('widget')?.dataset.state), null, { timeout: 20000, polling: 100 });
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
    const written = Number(await el.getAttribute('height'));
    const first = await fits();
    assert.notEqual(first, written, 'resized from the height written on the iframe');
    assert.ok(first < written, `a compact mechanism is shorter than the snippet's frame (${written}px): ${first}px`);
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

// Chromium does not render a cross-origin frame below the fold (measured: requestAnimationFrame
// and ResizeObserver never run in it; timers, MutationObserver, message events and layout read
// by getBoundingClientRect do). The frame therefore posts its height when the widget's data-state
// or qif-update says it is rendered, reading the layout, which needs no rendering; and the test
// polls the frame with timers (widgetFrame), not with requestAnimationFrame.
test('the first height a frame posts is the rendered widget’s, also for a cross-origin frame below the fold', async () => {
  const src = `${h.url}embed.html?widget=channel&matrix=${encodeURIComponent('3/4 1/4; 1/4 3/4')}&measures=mutualInformation,minEntropyLeakage`;
  // The host records every height posted, before any scrolling; the frame sits 3,000 px down.
  pages['/below.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Host</title>
<script>window.heights = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'qif-embed:height') window.heights.push(e.data.height); });</script></head>
<body><h1>Week 5</h1><div style="height:3000px">reading…</div><iframe src="${src.replace(/&/g, '&amp;')}" title="BSC" style="width: 100%; border: 0" height="300"></iframe></body></html>`;
  const { ctx, page, errors } = await context();
  try {
    await page.goto(hostURL('/below.html'));
    const { frame } = await widgetFrame(page);
    // The case this test is about: the frame is not being rendered.
    assert.equal(await drawn(frame), false, 'the frame below the fold is not rendered (no animation frame in 500 ms)');
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

// A part that comes after 'ready' (the program widget's exact fractions, from the exact module)
// makes the widget taller at 375 px; a frame below the fold, not rendered, must still post it.
test('a frame below the fold posts the height of what comes after ready', async () => {
  const checker = 'secret guess in bits(3)\npassword = [1, 1, 0]\nout = "OK"\ni = 0\nwhile i < 3 and out == "OK" {\n    if guess[i] != password[i] {\n        out = "Fail"\n    }\n    i = i + 1\n}\nobserve out';
  const src = `${h.url}embed.html?widget=program&measures=posteriorBayesVulnerability&program=${encodeURIComponent(checker)}`;
  pages['/below-program.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Host</title>
<script>window.heights = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'qif-embed:height') window.heights.push(e.data.height); });</script></head>
<body><div style="height:3000px">reading…</div><iframe src="${src.replace(/&/g, '&amp;')}" title="checker" style="width: 375px; border: 0" height="300"></iframe></body></html>`;
  const { ctx, page, errors } = await context();
  try {
    await page.goto(hostURL('/below-program.html'));
    const { frame } = await widgetFrame(page);
    await frame.waitForFunction(() => document.getElementById('widget').shadowRoot.querySelector('[data-testid="exact-posteriorBayesVulnerability"]'), null, { timeout: 30000, polling: 100 });
    const rendered = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
    await page.waitForFunction((want) => window.heights.at(-1) === want, rendered, { timeout: 5000 }).catch(() => {});
    const heights = await page.evaluate(() => window.heights.slice());
    assert.equal(heights.at(-1), rendered, `the last height posted is the widget's with its exact fraction (all: ${heights.join(', ')})`);
    assert.equal(await drawn(frame), false, 'the frame was not rendered');
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

// A sandbox without allow-same-origin gives the frame an opaque origin: widgets.js (a module of
// the widgets' site) is refused there, so embed.html runs the one-file bundle (qif-widgets.js,
// copied into web/ by the build) instead. Three frames, each checked against closed forms.
test('frames sandboxed with allow-scripts only run the channel, the mechanism and the program widget and post their heights', async () => {
  const program = 'secret s in 0..3\nobserve s % 2';
  const frames = {
    bsc: `widget=channel&matrix=${encodeURIComponent('3/4 1/4; 1/4 3/4')}&measures=mutualInformation,minEntropyLeakage`,
    rr: 'widget=mechanism&graph=clique&n=6&epsilon=ln%202&mechanism=randomizedResponse',
    parity: `widget=program&measures=posteriorBayesVulnerability&program=${encodeURIComponent(program)}`,
  };
  const iframes = Object.entries(frames).map(([name, q]) => `<iframe sandbox="allow-scripts" id="${name}" src="${`${h.url}embed.html?${q}&frame=${name}`.replace(/&/g, '&amp;')}" title="${name}" style="width: 100%; border: 0" height="420" data-qif-frame></iframe>`).join('\n');
  // The snippet's listener, which also records what each frame posted.
  pages['/sandboxed.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title>
<script>window.posted = {}; addEventListener('message', (e) => {
  if (!e.data || e.data.type !== 'qif-embed:height') return;
  (window.posted[e.data.frame] ??= []).push(e.data.height);
  for (const f of document.querySelectorAll('iframe[data-qif-frame]')) if (f.contentWindow === e.source) f.style.height = e.data.height + 'px';
});</script></head><body><h1>Week 6</h1>${iframes}</body></html>`;
  const { ctx, page, errors } = await context();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  try {
    await page.goto(hostURL('/sandboxed.html'));
    const got = {};
    for (const name of Object.keys(frames)) {
      const el = await page.waitForSelector(`#${name}`);
      const frame = await el.contentFrame();
      await frame.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('widget')?.dataset.state), null, { timeout: 60000, polling: 100 });
      got[name] = await frame.evaluate(() => {
        const w = document.getElementById('widget');
        const value = (k) => Number(w.shadowRoot.querySelector(`[data-testid="value-${k}"]`)?.dataset.value);
        return {
          origin: self.origin,
          state: w.dataset.state,
          values: w.getResults(),
          utility: value('utility'),
          epsilon: value('actualEpsilon'),
          bayes: value('posteriorBayesVulnerability'),
          height: Math.ceil(document.documentElement.getBoundingClientRect().height),
        };
      });
      assert.equal(got[name].origin, 'null', `${name}: the sandbox makes the frame's origin opaque`);
      assert.equal(got[name].state, 'ready', name);
      // The height the frame posted last is its rendered height, and the snippet applied it.
      await page.waitForFunction(([n, want]) => window.posted[n]?.at(-1) === want, [name, got[name].height], { timeout: 10000 });
      const posted = await page.evaluate((n) => window.posted[n], name);
      assert.ok(posted[0] > 150, `${name}: the first height posted is the widget's (${posted.join(', ')})`);
      assert.ok(Math.abs((await el.boundingBox()).height - got[name].height) <= 1, `${name}: the frame fits its content`);
    }
    // Binary symmetric channel with flip probability 1/4, uniform prior: I = 1 − H(1/4), min-entropy leakage log₂ 1.5.
    assert.ok(Math.abs(got.bsc.values.mutualInformation - (1 - H2(1 / 4))) < 1e-12, `I = ${got.bsc.values.mutualInformation}`);
    assert.ok(Math.abs(got.bsc.values.minEntropyLeakage - Math.log2(1.5)) < 1e-12);
    // Randomized response on 6 values, ε = ln 2: utility e^ε / (e^ε + 5) = 2/7, exactly ln 2-DP.
    assert.ok(Math.abs(got.rr.utility - 2 / 7) < 1e-9, `utility ${got.rr.utility}`);
    assert.ok(Math.abs(got.rr.epsilon - Math.log(2)) < 1e-9, `ε ${got.rr.epsilon}`);
    // Parity of a uniform secret in 0..3: each output leaves two equally likely secrets, V = 2 · 1/4.
    assert.ok(Math.abs(got.parity.bayes - 0.5) < 1e-12, `V = ${got.parity.bayes}`);
    assert.ok(requests.includes('/qif-widgets.js'), 'the bundle was loaded');
    assert.ok(requests.includes('/qif-widgets-exact.js'), 'the program frame loaded the exact module');
    assert.ok(!requests.includes('/widgets.js'), 'the module entry, refused in an opaque origin, was not even requested');
    await page.screenshot({ path: `${SCREENSHOTS}/embed-frame-sandboxed.png`, fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await ctx.close();
  }
});

test('a sandboxed frame whose bundle cannot be loaded says so inside the frame', async () => {
  pages['/nobundle.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title></head>
<body><iframe sandbox="allow-scripts" src="${`${h.url}embed.html?widget=channel&preset=password-iterations`.replace(/&/g, '&amp;')}" title="password" style="width: 100%; border: 0" height="300"></iframe></body></html>`;
  const { ctx, page, errors } = await context();
  try {
    await ctx.route((u) => u.pathname === '/qif-widgets.js', (r) => r.fulfill({ status: 404, body: '' }));
    await page.goto(hostURL('/nobundle.html'));
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    const note = frame.locator('[data-testid="frame-note"]');
    await note.waitFor({ timeout: 20000 });
    assert.match(await note.textContent(), /opaque origin.*qif-widgets\.js.*did not load.*scripts\/build\.sh.*allow-same-origin/);
    assert.ok(await note.isVisible());
    // The failed load itself is the only error.
    assert.ok(errors.every((e) => /404|qif-widgets\.js/.test(e)), errors.join('\n'));
  } finally {
    await ctx.close();
  }
});

// The heights docs/widgets.md#iframe-mode documents for frames 1280 and 375 px wide, and the
// height written on every embed.html iframe of the docs, against the height the frame posts
// (its document's), measured here at those widths (a page of that width lays out as a frame of it).
// A documented height must fit, and be at most SLACK px more than needed so that it stays a
// measurement.
test('the iframe heights in the docs fit the widgets at 1280 and 375 px', async () => {
  const SLACK = 40;
  const widgetsDoc = readFileSync(path.join(ROOT, 'docs/widgets.md'), 'utf8');
  const section = widgetsDoc.slice(widgetsDoc.indexOf('## Iframe mode'), widgetsDoc.indexOf('\n## ', widgetsDoc.indexOf('## Iframe mode') + 5));
  // What the table abbreviates with “…”: the refinement of embed.html and the guide's checker.
  const lesson = readFileSync(path.join(ROOT, 'web/embed.html'), 'utf8');
  const refine = /<qif-refinement id="w-refine" a='([^']+)' b='([^']+)'/.exec(lesson);
  const checker = /const checker = `([^`]+)`/.exec(readFileSync(path.join(ROOT, 'docs/guides/programs.md'), 'utf8'))[1].trim();
  const full = (q) => q.replace('a=…&b=…', `a=${encodeURIComponent(refine[1])}&b=${encodeURIComponent(refine[2])}`).replace('program=…', `program=${encodeURIComponent(checker)}`);
  // A row written with preset=<any> holds every preset of its widget: each is measured, and the
  // height written must hold the tallest.
  const PRESETS = { channel: channelPresets.map((p) => p.id), refinement: refinementPresets.map((p) => p.id) };
  const rows = [...section.matchAll(/^\| `(widget=[^`]+)`[^|]*\| (\d+) \| (\d+) \|$/gm)].map((m) => {
    const query = full(m[1]);
    const kind = /^widget=(\w+)/.exec(query)[1];
    const queries = query.includes('preset=<any>') ? PRESETS[kind].map((id) => query.replace('preset=<any>', `preset=${id}`)) : [query];
    return { row: m[1], queries, wide: Number(m[2]), narrow: Number(m[3]) };
  });
  assert.ok(rows.length >= 5, `the table of heights has ${rows.length} rows`);
  assert.ok(rows.some((r) => r.queries.length >= 5), 'a row holds every refinement preset');
  const written = [];
  for (const file of ['docs/widgets.md', 'docs/guides/embedding.md']) {
    for (const m of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/<iframe src="[^"]*embed\.html\?([^"]+)"[^>]*?height="(\d+)"/g)) {
      written.push({ file, query: m[1].replace(/&amp;/g, '&'), height: Number(m[2]) });
    }
  }
  assert.ok(written.length >= 2, 'the snippets of both pages were found');
  const measured = {};
  const problems = [];
  for (const width of [1280, 375]) {
    const ctx = await h.browser.newContext({ viewport: { width, height: 900 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    try {
      for (const query of new Set([...rows.flatMap((r) => r.queries), ...written.map((w) => w.query)])) {
        await page.goto(`${h.url}embed.html?${query}`);
        await page.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('widget')?.dataset.state), null, { timeout: 60000, polling: 100 });
        // Some parts come after 'ready' (the program's exact fractions): the height that stays 0.5 s.
        const got = await page.evaluate(() => new Promise((resolve) => {
          const height = () => Math.ceil(document.documentElement.getBoundingClientRect().height);
          let last = height();
          let same = 0;
          const t = setInterval(() => {
            const now = height();
            same = now === last ? same + 1 : 0;
            last = now;
            if (same < 5) return;
            clearInterval(t);
            resolve({ state: document.getElementById('widget').dataset.state, height: now, note: document.querySelector('[data-testid="frame-note"]')?.textContent ?? '' });
          }, 100);
        }));
        assert.equal(got.state, 'ready', `${query}: ${got.note}`);
        assert.equal(got.note, '', `${query}: every parameter is an attribute`);
        measured[`${width} ${query}`] = got.height;
      }
      assert.deepEqual(errors, []);
    } finally {
      await ctx.close();
    }
  }
  for (const r of rows) {
    for (const [width, doc] of [[1280, r.wide], [375, r.narrow]]) {
      const need = Math.max(...r.queries.map((q) => measured[`${width} ${q}`]));
      if (doc < need || doc > need + SLACK) problems.push(`${r.row.slice(0, 60)} at ${width} px: documented ${doc}, measured ${need}`);
    }
  }
  for (const w of written) {
    const need = measured[`1280 ${w.query}`];
    if (w.height < need) problems.push(`${w.file}: height="${w.height}" for ${w.query.slice(0, 60)}, which needs ${need} px at 1280`);
  }
  assert.deepEqual(problems, [], JSON.stringify(measured, null, 1));
});

// A frame follows its host's light or dark look where the host says so. theme=auto, the frame's
// default, reads prefers-color-scheme inside the frame (in Chromium, the reader's system: the
// frame cannot see the page around it); a host running the snippet of docs/widgets.md tells its
// frames its look from its background, and they follow it whatever the reader's system prefers,
// also a frame sandboxed with allow-scripts only; theme in the query wins over both.
test('theme=auto: a framed widget follows the system, and the host page where its snippet says dark or light', async () => {
  const q = (extra = '') => `${h.url}embed.html?widget=refinement&preset=swapped-rows${extra}`;
  const frames = (withSnippet) => {
    const snippet = docSnippet(q());
    const script = /<script>[\s\S]*<\/script>/.exec(snippet)[0];
    const frame = (id, src, more = '') => `<iframe id="${id}" ${more} src="${src.replace(/&/g, '&amp;')}" title="${id}" style="width: 100%; border: 0" height="300" data-qif-frame></iframe>`;
    return `${frame('f', q())}\n${frame('s', q(), 'sandbox="allow-scripts"')}\n${frame('l', q('&theme=light'))}${withSnippet ? script : ''}`;
  };
  pages['/dark-host.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Dark LMS</title>
<style>body { background: #121212; color: #eee; }</style></head><body><h1>Week 7</h1>${frames(true)}</body></html>`;
  pages['/light-host.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title></head><body><h1>Week 7</h1>${frames(true)}</body></html>`;
  pages['/silent-host.html'] = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title>
<style>body { background: #121212; color: #eee; }</style></head><body><h1>Week 7</h1>${frames(false)}</body></html>`;
  const errors = [];
  const look = async (page, id, want) => {
    const frame = await (await page.waitForSelector(`#${id}`)).contentFrame();
    await frame.waitForFunction(() => document.getElementById('widget')?.dataset.state === 'ready', null, { timeout: 60000, polling: 100 });
    // The host's message comes after the first height: wait for the look expected, then read it.
    await frame.waitForFunction((w) => document.getElementById('widget').dataset.qifTheme === w, want, { timeout: 5000, polling: 100 }).catch(() => {});
    return frame.evaluate(() => {
      const w = document.getElementById('widget');
      const c = getComputedStyle(w.shadowRoot.querySelector('.w')).backgroundColor.match(/[\d.]+/g).slice(0, 3).map(Number);
      return { theme: w.getAttribute('theme'), look: c.every((v) => v < 80) ? 'dark' : 'light' };
    });
  };
  for (const system of ['light', 'dark']) {
    const ctx = await h.browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: system });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      for (const [host, want] of [['dark-host', 'dark'], ['light-host', 'light'], ['silent-host', system]]) {
        await page.goto(hostURL(`/${host}.html`));
        for (const id of ['f', 's']) {
          const got = await look(page, id, want);
          assert.equal(got.look, want, `system ${system}, ${host}, frame ${id}: ${JSON.stringify(got)}`);
        }
        assert.equal((await look(page, 'l', 'light')).look, 'light', `system ${system}, ${host}: theme=light in the query wins`);
        if (system === 'light' && host === 'dark-host') await page.screenshot({ path: path.join(SCREENSHOTS, 'embed-frame-dark-host.png'), fullPage: true });
      }
    } finally {
      await ctx.close();
    }
  }
  assert.deepEqual(errors, []);
});
