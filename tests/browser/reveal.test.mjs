// The widget bundle inside a real Reveal.js deck (the reveal.js package, a test-only dependency),
// opened from disk as a lecturer's offline deck would be: on the "black" theme with theme="dark"
// widgets, Reveal scales the 960 × 700 slides to the window; the widgets on the first slide and on
// a slide reached later compute the numbers closed forms in this file give, stay dark and inside
// their slide (at 0.65 of the slide's text, as the embedding guide advises for this canvas), and
// keep working when the deck moves between slides. Screenshots in test-output/screenshots/reveal-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, revealDeck, luminance, SCREENSHOTS } from './harness.mjs';

let h;
let dir;
before(async () => {
  h = await startHarness();
  dir = await revealDeck(DECK);
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const DECK = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lecture 3</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="dist/reset.css"><link rel="stylesheet" href="dist/reveal.css"><link rel="stylesheet" href="dist/theme/black.css">
<style>/* Reveal's default 960 × 700 canvas: widgets at 0.65 of the slide's text (docs/guides/embedding.md). */ .reveal { --qif-font-size: 0.65em; }</style>
<script src="qif-widgets.js"></script>
</head><body>
<div class="reveal"><div class="slides">
  <section><h3>Randomized response</h3>
    <qif-mechanism id="m" theme="dark" size="compact" graph="clique" n="6" epsilon="ln 2" mechanism="randomizedResponse"></qif-mechanism></section>
  <section><h3>Noise reduces leakage</h3>
    <qif-channel id="c" theme="dark" size="compact" matrix="3/4 1/4; 1/4 3/4" measures="mutualInformation,minEntropyLeakage"></qif-channel></section>
</div></div>
<script src="dist/reveal.js"></script>
<script>Reveal.initialize({ hash: true, transition: 'none' });
document.addEventListener('qif-update', () => Reveal.layout());</script>
</body></html>`;

// Closed forms. Randomized response on n answers at ε, uniform prior: utility e^ε/(e^ε + n − 1).
// A binary symmetric channel flipping with probability f, uniform prior: I = 1 − H(f) bits, and
// min-entropy leakage log2(2(1 − f)).
const H2 = (p) => -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
function close(got, want, what) {
  assert.ok(Number.isFinite(got) && Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: got ${got}, expected ${want}`);
}
// A widget's state, results, background, and its box against the present slide's.
function widget(page, id) {
  return page.evaluate((id) => {
    const el = document.getElementById(id);
    // The slide's box is Reveal's .slides (960 × 700 scaled to the window): a section is only as
    // tall as its content.
    const slide = document.querySelector('.reveal .slides').getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return {
      state: el.dataset.state, results: el.getResults(),
      bg: getComputedStyle(el.shadowRoot.querySelector('.w')).backgroundColor,
      inside: box.left >= slide.left - 1 && box.right <= slide.right + 1 && box.top >= slide.top - 1 && box.bottom <= slide.bottom + 1,
      box: [box.left, box.top, box.right, box.bottom].map(Math.round), slide: [slide.left, slide.top, slide.right, slide.bottom].map(Math.round),
      scrollW: el.shadowRoot.querySelector('.w').scrollWidth - el.shadowRoot.querySelector('.w').clientWidth,
    };
  }, id);
}

for (const viewport of [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }]) {
  test(`a Reveal.js deck from disk at ${viewport.width}×${viewport.height}: dark widgets compute, fit their slides and survive moving between slides`, async () => {
    const context = await h.browser.newContext({ viewport });
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(path.join(dir, 'deck.html')).href);
    await page.waitForFunction(() => window.Reveal?.isReady() && document.getElementById('m').dataset.state === 'ready', null, { timeout: 30000 });

    const m = await widget(page, 'm');
    close(m.results.utility, Math.exp(Math.log(2)) / (Math.exp(Math.log(2)) + 5), 'utility of randomized response, n = 6, ε = ln 2');
    assert.ok(luminance(m.bg) < 0.05, `dark widget on the black theme (${m.bg})`);
    assert.ok(m.inside, `the mechanism stays on its slide: widget ${m.box}, slide ${m.slide}`);
    assert.ok(m.scrollW <= 0, `no sideways scroll inside (${m.scrollW}px)`);
    // Reveal centres the text of its slides: the widget keeps its own alignment.
    assert.equal(await page.evaluate(() => getComputedStyle(document.getElementById('m').shadowRoot.querySelector('.w-title')).textAlign), 'start');
    await page.screenshot({ path: path.join(SCREENSHOTS, `reveal-${viewport.width}-slide1.png`) });

    // The next slide: its widget computed while hidden, and shows its numbers when the deck gets there.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => Reveal.getIndices().h === 1, null, { timeout: 5000 });
    await page.waitForFunction(() => document.getElementById('c').dataset.state === 'ready', null, { timeout: 30000 });
    const c = await widget(page, 'c');
    close(c.results.mutualInformation, 1 - H2(1 / 4), 'I(X;Y) of the binary symmetric channel, f = 1/4');
    close(c.results.minEntropyLeakage, Math.log2(2 * (3 / 4)), 'min-entropy leakage, f = 1/4');
    assert.ok(luminance(c.bg) < 0.05, `dark channel widget (${c.bg})`);
    assert.ok(c.inside, `the channel stays on its slide: widget ${c.box}, slide ${c.slide}`);
    const shown = await page.evaluate(() => document.getElementById('c').shadowRoot.textContent);
    assert.match(shown, /Mutual information.*0\.1887bits/, 'mutual information on screen, to four places');
    await page.screenshot({ path: path.join(SCREENSHOTS, `reveal-${viewport.width}-slide2.png`) });

    // Back to the first slide: an edit there still computes (the engine survived the slide changes).
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => Reveal.getIndices().h === 0, null, { timeout: 5000 });
    await page.evaluate(() => document.getElementById('m').setAttribute('epsilon', 'ln 5'));
    await page.waitForFunction(() => Math.abs(document.getElementById('m').getResults()?.epsilon - Math.log(5)) < 1e-12 && document.getElementById('m').dataset.state === 'ready', null, { timeout: 10000 });
    close((await widget(page, 'm')).results.utility, 5 / (5 + 5), 'utility at ε = ln 5');
    assert.deepEqual(errors, []);
    await context.close();
  });
}
