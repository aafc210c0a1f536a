// Widgets on slides, in headless Chromium: the deck of docs/examples/reveal-slides.html (Reveal.js,
// the black theme, 1280×720), opened from disk beside the one-file bundle. A widget's type is a
// fraction of the font it inherits, so on a slide of 42 px its text is in proportion to the slide's
// (at least 0.6 of it — far above the 12.8 px a fixed size gave), its heat map and matrix cells
// grow alike, and the default examples still fit their slides. On an ordinary page of 16 px the
// widgets keep the sizes they always had. Screenshots in test-output/screenshots/slides-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, revealDeck, luminance, ROOT, SCREENSHOTS } from './harness.mjs';

let h;
let dir;
before(async () => {
  h = await startHarness();
  // The folder the example's comment asks for: the deck, the bundle, and Reveal.js's dist/.
  dir = await revealDeck(await readFile(path.join(ROOT, 'docs', 'examples', 'reveal-slides.html'), 'utf8'));
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// What the reader sees of a widget on the present slide, in the slide's own px (Reveal scales the
// slide as a whole, so rendered sizes are divided by its scale).
function measure(page, id) {
  return page.evaluate((id) => {
    const el = document.getElementById(id);
    const root = el.shadowRoot;
    const section = el.closest('section');
    // The slide's box is Reveal's .slides (1280 × 720 scaled to the window); a section is only as
    // tall as its content, so it would grow with an overflowing widget.
    const frame = document.querySelector('.reveal .slides');
    const slide = frame.getBoundingClientRect();
    const scale = slide.width / frame.offsetWidth;
    const rect = (e) => { const r = e?.getBoundingClientRect(); return r ? [r.left, r.top, r.right, r.bottom] : null; };
    const box = el.getBoundingClientRect();
    const px = (e) => parseFloat(getComputedStyle(e).fontSize);
    const w = root.querySelector('.w');
    const heatText = root.querySelector('[data-testid="heatmap"] svg text');
    const cell = root.querySelector('.grid input');
    return {
      state: el.dataset.state,
      slideFont: px(section),
      // The text of the results (a measure's name) and of the title.
      text: px(root.querySelector('.results dt')),
      title: px(root.querySelector('.w-title')),
      // A label of the heat map as drawn (the SVG scales with its box), in slide px.
      heatLabel: heatText ? heatText.getBoundingClientRect().height / scale : null,
      cell: cell ? { font: px(cell), height: cell.getBoundingClientRect().height / scale } : null,
      // The matrix's own sideways scroll: the password checker's four columns and π fit whole.
      matrixScrolls: root.querySelector('[data-testid="cell-scroll"]')?.dataset.overflow === 'true',
      inside: box.left >= slide.left - 1 && box.right <= slide.right + 1 && box.top >= slide.top - 1 && box.bottom <= slide.bottom + 1,
      box: [box.left, box.top, box.right, box.bottom].map(Math.round),
      slide: [slide.left, slide.top, slide.right, slide.bottom].map(Math.round),
      bg: getComputedStyle(w).backgroundColor,
      plot: rect(root.querySelector('[data-testid="heatmap"] svg')),
      results: rect(root.querySelector('.results')),
      scrollW: w.scrollWidth - w.clientWidth,
      scrollH: w.scrollHeight - w.clientHeight,
    };
  }, id);
}

test('the Reveal.js example at 1280×720: widget text in proportion to the slide\'s 42 px, the defaults fit their slides', async () => {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(path.join(dir, 'deck.html')).href);
  await page.waitForFunction(() => window.Reveal?.isReady() && ['mechanism', 'channel'].every((id) => document.getElementById(id).dataset.state === 'ready'), null, { timeout: 30000 });

  for (const [slide, id] of [[0, 'mechanism'], [1, 'channel']]) {
    await page.evaluate((i) => Reveal.slide(i), slide);
    await page.waitForFunction((i) => Reveal.getIndices().h === i, slide);
    const m = await measure(page, id);
    // The black theme's text size, read from its stylesheet by the browser, not assumed.
    assert.equal(m.slideFont, 42, `${id}: the slide's font`);
    assert.ok(m.text >= 0.6 * m.slideFont, `${id}: text ${m.text}px beside the slide's ${m.slideFont}px (at least 0.6 of it)`);
    assert.ok(m.title >= 0.6 * m.slideFont, `${id}: title ${m.title}px`);
    assert.ok(m.inside, `${id} stays on its slide: widget ${m.box}, slide ${m.slide}`);
    assert.ok(m.scrollW <= 0 && m.scrollH <= 0, `${id}: nothing scrolls inside (${m.scrollW}px across, ${m.scrollH}px down)`);
    // The black theme's background is set by Reveal's script, after the widgets were put on the
    // page: they follow it to dark without a theme attribute.
    assert.ok(luminance(m.bg) < 0.05, `${id}: dark on the black theme (${m.bg})`);
    if (id === 'mechanism') {
      // The heat map grows with the text: its labels are drawn at 0.4 of the slide's size (they
      // were 0.18 of it with a fixed 12.8 px), and the map sits beside the numbers, not under them.
      assert.ok(m.heatLabel >= 0.4 * m.slideFont, `heat-map labels ${m.heatLabel.toFixed(1)}px on the slide`);
      assert.ok(m.plot[2] <= m.results[0] || m.plot[3] <= m.results[1], `heat map ${m.plot.map(Math.round)} and results ${m.results.map(Math.round)} do not overlap`);
    } else {
      assert.ok(m.cell.font >= 0.6 * m.slideFont, `matrix cells' text ${m.cell.font}px`);
      assert.ok(m.cell.height >= m.cell.font, `a cell holds its text: ${m.cell.height.toFixed(1)}px for ${m.cell.font}px`);
      assert.equal(m.matrixScrolls, false, 'the whole matrix is in view');
    }
    await page.screenshot({ path: path.join(SCREENSHOTS, `slides-1280-${id}.png`) });
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('on an ordinary page of 16 px the widgets keep their sizes: 15.2 px, and 12.8 px with size="compact"', async () => {
  const page = await h.newPage({ viewport: { width: 1280, height: 900 } });
  const url = `${h.url}ordinary-page.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>lesson</title><script type="module" src="widgets.js"></script></head>
<body><qif-channel id="plain" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel>
<qif-channel id="compact" size="compact" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel>
<div style="font-size: 20px"><qif-channel id="big" matrix="1 0; 0 1" measures="mutualInformation"></qif-channel></div></body></html>`,
  }));
  await page.goto(url);
  await page.waitForFunction(() => ['plain', 'compact', 'big'].every((id) => document.getElementById(id).dataset.state === 'ready'), null, { timeout: 20000 });
  const size = (id) => page.evaluate((id) => parseFloat(getComputedStyle(document.getElementById(id)).fontSize), id);
  assert.equal(await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize)), 16);
  assert.ok(Math.abs(await size('plain') - 0.95 * 16) < 0.01, `default: ${await size('plain')}px`);
  assert.ok(Math.abs(await size('compact') - 0.8 * 16) < 0.01, `compact: ${await size('compact')}px`);
  assert.ok(Math.abs(await size('big') - 0.95 * 20) < 0.01, `in a 20 px block: ${await size('big')}px`);
  assert.deepEqual(h.errors(page), []);
});
