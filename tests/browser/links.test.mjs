// Every link works, in headless Chromium:
//  (a) served: the page (once its sections are built and its formulas linked), the widget demo
//      (links inside the widgets' shadow roots too) and every page they lead to, crawled: each
//      same-site link must load (HTTP 200) and each #fragment must name an element of its page;
//  (b) the single file, opened from file://: every link must be an in-file #anchor (nothing
//      beside the file exists) naming an element, and following one shows the documentation
//      section it belongs to, hides the tool, and "#main" brings the tool back.
// External links (a paper's address) are listed but not followed: the tests run offline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, ROOT } from './harness.mjs';

let h;
before(async () => {
  await promisify(execFile)('node', ['scripts/singlefile.mjs'], { cwd: ROOT });
  h = await startHarness();
});
after(async () => { await h?.close(); });

/** Every a[href] of the document and of the open shadow roots in it: [{href, resolved}]. */
function collectLinks() {
  const out = [];
  const visit = (root) => {
    for (const a of root.querySelectorAll('a[href]')) out.push({ href: a.getAttribute('href'), resolved: a.href, text: a.textContent.trim().slice(0, 60) });
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(document);
  return out;
}

/** Every id (and a[name]) of the document and its open shadow roots. */
function collectIds() {
  const out = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('[id]')) out.push(el.id);
    for (const el of root.querySelectorAll('a[name]')) out.push(el.getAttribute('name'));
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
  };
  visit(document);
  return out;
}

/** Opens a page of the site and waits until what builds its links is done. */
async function load(page, url) {
  const response = await page.goto(url);
  const status = response?.status() ?? 0;
  const file = new URL(url).pathname;
  if (file === '/' || file === '/index.html') {
    // The sections are built by modules, and formulas.js adds the source links after typesetting.
    await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready' && document.querySelectorAll('section.tool[data-section] .source a.ref').length > 0, null, { timeout: 30_000 })
      .catch((e) => { throw new Error(`${url}: the page did not finish building its links (${e.message})`); });
  } else if (/\/embed\.html$/.test(file)) {
    await page.waitForFunction(() => [...document.querySelectorAll('qif-channel, qif-mechanism, qif-refinement')].every((w) => w.dataset.state === 'ready'), null, { timeout: 30_000 })
      .catch((e) => { throw new Error(`${url}: the widgets did not finish (${e.message})`); });
  }
  return status;
}

test('served: every link of the page, the widget demo and the documentation resolves', { timeout: 240_000 }, async () => {
  const page = await h.newPage();
  const origin = h.origin;
  const start = [`${h.url}index.html`, `${h.url}embed.html`, `${h.url}docs/index.html`];
  const pages = new Map(); // url without fragment → {status, ids}
  const links = []; // {from, href, resolved}
  const external = new Set();
  const queue = [...start];
  while (queue.length) {
    const url = queue.shift();
    if (pages.has(url)) continue;
    // The site has a few dozen pages: a crawl far beyond that follows a relative link that
    // resolves against the wrong base (docs/docs/…), which is itself the failure to report.
    assert.ok(pages.size < 300, `the crawl ran away at ${url}`);
    const isHTML = /\.html$|\/$/.test(new URL(url).pathname);
    if (!isHTML) {
      const r = await page.request.get(url);
      pages.set(url, { status: r.status(), ids: [] });
      continue;
    }
    const status = await load(page, url);
    const ids = status === 200 ? await page.evaluate(collectIds) : [];
    pages.set(url, { status, ids });
    if (status !== 200) continue;
    for (const l of await page.evaluate(collectLinks)) {
      const u = new URL(l.resolved);
      if (u.protocol === 'blob:' || u.protocol === 'data:') continue;
      if (u.origin !== origin) {
        external.add(u.href);
        continue;
      }
      links.push({ from: url, ...l });
      const target = u.href.replace(/#.*$/, '');
      if (!pages.has(target) && !queue.includes(target)) queue.push(target);
    }
  }
  const broken = [];
  for (const l of links) {
    const u = new URL(l.resolved);
    const target = pages.get(u.href.replace(/#.*$/, ''));
    if (target.status !== 200) broken.push(`${l.from}: ${l.href} → HTTP ${target.status}`);
    else if (u.hash && u.hash !== '#' && !target.ids.includes(decodeURIComponent(u.hash.slice(1)))) broken.push(`${l.from}: ${l.href} → no element #${decodeURIComponent(u.hash.slice(1))}`);
  }
  assert.deepEqual(broken, []);
  // The crawl reached what it must: the documentation, the references, the notices, the source
  // links of the page's sections.
  const seen = [...pages.keys()].map((u) => u.slice(h.url.length));
  for (const f of ['docs/mathematics.html', 'docs/references.html', 'docs/api.html', 'docs/widgets.html', 'docs/guides/node.html', 'docs/design/lp-solver.html', 'THIRD_PARTY_NOTICES.txt']) {
    assert.ok(seen.includes(f), `crawled ${f}`);
  }
  assert.ok(links.filter((l) => /docs\/references\.html#/.test(l.href)).length >= 20, 'the page links its sources');
  assert.ok(links.some((l) => l.from.endsWith('embed.html') && /docs\/references\.html#/.test(l.resolved)), 'a widget links its source');
  assert.ok(links.length > 300, `${links.length} links checked on ${pages.size} pages (${external.size} external, not followed)`);
  assert.deepEqual(h.errors(page), []);
});

test('single file from file://: every link is an in-file anchor, and the documentation shows', { timeout: 120_000 }, async () => {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const url = pathToFileURL(path.join(ROOT, 'dist', 'qif-toolkit.html')).href;
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready' && document.querySelectorAll('section.tool[data-section] .source a.ref').length > 0, null, { timeout: 60_000 });
  const links = await page.evaluate(collectLinks);
  const ids = new Set(await page.evaluate(collectIds));
  const broken = [];
  let inFile = 0;
  for (const l of links) {
    if (/^https?:/.test(l.href)) continue; // a paper's address: outside, not followed
    if (!l.href.startsWith('#')) {
      broken.push(`${l.href} ("${l.text}") leaves the file`);
      continue;
    }
    inFile++;
    const id = decodeURIComponent(l.href.slice(1));
    if (id && !ids.has(id)) broken.push(`${l.href} ("${l.text}") names no element`);
  }
  assert.deepEqual(broken, []);
  assert.ok(inFile > 300, `${inFile} in-file links`);

  // A source link of a card opens the references at that section.
  const source = page.locator('#mechanism .source a.ref').first();
  const href = await source.getAttribute('href');
  assert.match(href, /^#docs\/references~icalp2011-6$/);
  await source.click();
  assert.equal(await page.isVisible('[id="docs/references"]'), true, 'the references show');
  assert.equal(await page.isVisible('#main'), false, 'the tool is hidden meanwhile');
  assert.equal(await page.evaluate(() => document.getElementById('docs/references~icalp2011-6').getBoundingClientRect().top < innerHeight), true, 'scrolled to the section');
  // From there into the mathematics, and back to the tool.
  await page.locator('[id="docs/references"] a[href="#docs/mathematics~conventions"]').first().click();
  assert.equal(await page.isVisible('[id="docs/mathematics"]'), true);
  assert.equal(await page.isVisible('[id="docs/references"]'), false);
  await page.locator('[id="docs/mathematics"] .site-header a[href="#main"]').first().click();
  assert.equal(await page.isVisible('#main'), true, 'the tool is back');
  assert.equal(await page.isVisible('[id="docs/mathematics"]'), false);
  // The footer's notices are in the file too.
  await page.locator('body > footer.site-footer a[href="#notices"]').click();
  assert.match(await page.textContent('#notices pre'), /gonum\.org\/v1\/gonum v[\d.]+ — BSD-3-Clause/);
  assert.deepEqual(errors, []);
  await context.close();
});
