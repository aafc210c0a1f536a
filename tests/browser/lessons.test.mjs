// Widgets as course authors put them in lessons, in headless Chromium: a widget in a centred
// flex column (align-items: center, as Reveal's r-vstack and many slide layouts) keeps a usable
// width; by default a widget is light or dark as the page behind it is, whatever the reader's
// system prefers, and theme still overrides.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, SCREENSHOTS } from './harness.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

async function pageWith(body, options = {}, head = '') {
  const page = await h.newPage(options);
  const url = `${h.url}lesson-page.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>lesson</title>${head}<script type="module" src="widgets.js"></script></head><body>${body}</body></html>`,
  }));
  await page.goto(url);
  await page.waitForFunction(() => [...document.querySelectorAll('qif-channel, qif-mechanism, qif-refinement')].every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error'), null, { timeout: 20000 });
  return page;
}

// Relative luminance (WCAG 2) of a computed rgb() colour, written here.
function luminance(rgb) {
  const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const widgetBg = (page, id) => page.evaluate((id) => getComputedStyle(document.getElementById(id).shadowRoot.querySelector('.w')).backgroundColor, id);

test('a widget in a centred flex column keeps a usable width', async () => {
  const page = await pageWith(`
    <div style="display:flex; flex-direction:column; align-items:center; width:900px">
      <h2>Centred</h2>
      <qif-channel id="c" matrix="3/4 1/4; 1/4 3/4" measures="mutualInformation,minEntropyLeakage"></qif-channel>
      <qif-mechanism id="m" graph="path" n="4" epsilon="ln 2" mechanism="truncatedGeometric"></qif-mechanism>
    </div>
    <div style="display:flex; flex-direction:column; align-items:center; width:300px">
      <qif-channel id="narrow" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel>
    </div>`, { viewport: { width: 1000, height: 900 } });
  for (const id of ['c', 'm']) {
    const w = await page.$eval(`#${id}`, (e) => e.getBoundingClientRect().width);
    assert.ok(w >= 24 * 16 - 0.5, `${id}: ${w} px wide in a 900 px centred column (at least 24rem)`);
  }
  // In a column narrower than that, the widget takes the column, not more.
  const narrow = await page.$eval('#narrow', (e) => e.getBoundingClientRect().width);
  assert.ok(Math.abs(narrow - 300) < 1, `in a 300 px column: ${narrow} px`);
  await page.screenshot({ path: `${SCREENSHOTS}/lessons-centred-column.png` });
  assert.deepEqual(h.errors(page), []);
});

test('dark mode follows the page: a light page on a dark system stays light, a dark page on a light system is dark, theme overrides', async () => {
  const light = await pageWith(`<p>A lesson on a white page.</p><qif-channel id="a" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel>
    <qif-channel id="forced" theme="dark" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel>`, { colorScheme: 'dark' });
  assert.ok(luminance(await widgetBg(light, 'a')) > 0.9, 'light page, dark system: a light widget');
  assert.ok(luminance(await widgetBg(light, 'forced')) < 0.05, 'theme="dark" still gives a dark widget');

  const dark = await pageWith(`<main style="background:#191919; color:#eee; padding:1rem">
      <qif-channel id="b" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel>
      <qif-channel id="kept" theme="light" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel></main>`, { colorScheme: 'light' });
  assert.ok(luminance(await widgetBg(dark, 'b')) < 0.05, 'dark page, light system: a dark widget');
  assert.ok(luminance(await widgetBg(dark, 'kept')) > 0.9, 'theme="light" still gives a light widget');

  // A page that declares a dark color-scheme and no background: the canvas is dark, so is the widget.
  const scheme = await pageWith(`<qif-channel id="s" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel>`, { colorScheme: 'light' }, '<style>:root { color-scheme: dark; }</style>');
  assert.ok(luminance(await widgetBg(scheme, 's')) < 0.05, 'color-scheme: dark page');
  for (const p of [light, dark, scheme]) assert.deepEqual(h.errors(p), []);
});
