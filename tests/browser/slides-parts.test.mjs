// show / hide on slides, in headless Chromium: a Reveal.js deck at 1280×720 whose text is 40 px
// (the black theme with --r-main-font-size: 40px), opened from disk beside the one-file bundle.
// With size="compact", the forms docs/widgets.md#on-slides names fit a slide under its heading,
// with nothing cut off inside (no part of the widget scrolls): <qif-program> with two of its three
// parts (the password checker of Alvim et al., FOSAD 2011), and <qif-refinement> with
// show="verdicts drawing" or show="matrices verdicts" for every preset. The parts left out are
// not drawn, and the values are still computed. Screenshots: test-output/screenshots/slides-parts-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, revealDeck, ROOT, SCREENSHOTS } from './harness.mjs';
import { refinementPresets } from '../../web/lib/refinement-presets.js';

const PASSWORD = `secret guess in bits(3)
password = [1, 1, 0]
out = "OK"
i = 0
while i<3 and out == "OK" {
    if guess[i] != password[i] {
        out = "Fail"
    }
    i = i + 1
}
observe out`;

const SLIDES = [
  ...['source channel', 'channel measures', 'source measures'].map((show, i) => ({
    id: `p${i}`, show, parts: ['source', 'channel', 'measures'],
    html: `<qif-program id="p${i}" size="compact" show="${show}" measures="posteriorBayesVulnerability"><script type="text/qif">\n${PASSWORD}\n</script></qif-program>`,
  })),
  ...refinementPresets.flatMap((p, k) => ['verdicts drawing', 'matrices verdicts'].map((show, i) => ({
    id: `r${k}-${i}`, show, preset: p.id, parts: ['matrices', 'verdicts', 'drawing'],
    html: `<qif-refinement id="r${k}-${i}" size="compact" preset="${p.id}" show="${show}"></qif-refinement>`,
  }))),
];

const DECK = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parts on slides</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="dist/reset.css"><link rel="stylesheet" href="dist/reveal.css"><link rel="stylesheet" href="dist/theme/black.css">
<style>:root { --r-main-font-size: 40px; }</style>
<script src="qif-widgets.js"></script>
</head><body>
<div class="reveal"><div class="slides">
${SLIDES.map((s) => `  <section><h3>${s.show}</h3>\n    ${s.html}</section>`).join('\n')}
</div></div>
<script src="dist/reveal.js"></script>
<script>Reveal.initialize({ width: 1280, height: 720, hash: true, transition: 'none' });
document.addEventListener('qif-update', () => Reveal.layout());</script>
</body></html>`;

let h;
let dir;
before(async () => {
  h = await startHarness();
  dir = await revealDeck(DECK);
  await copyFile(path.join(ROOT, 'dist', 'qif-widgets-exact.js'), path.join(dir, 'qif-widgets-exact.js'));
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('compact widgets with show fit a 1280×720 slide at 40 px, nothing cut off: the program (two parts), every refinement preset', async () => {
  const context = await h.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(pathToFileURL(path.join(dir, 'deck.html')).href);
    await page.waitForFunction((ids) => window.Reveal?.isReady() && ids.every((id) => document.getElementById(id)?.dataset.state === 'ready'), SLIDES.map((s) => s.id), { timeout: 90000 });
    const problems = [];
    for (const [i, s] of SLIDES.entries()) {
      await page.evaluate((k) => Reveal.slide(k), i);
      await page.waitForFunction((k) => Reveal.getIndices().h === k, i);
      // A drawing comes with the verdicts; give the layout a frame to settle.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const m = await page.evaluate((id) => {
        const el = document.getElementById(id);
        const root = el.shadowRoot;
        const frame = document.querySelector('.reveal .slides');
        const slide = frame.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        const drawn = (part) => [...root.querySelectorAll(`[data-part="${part}"]`)].some((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().height > 0);
        // Every box that could scroll: the widget, the matrices' boxes, the program's.
        const cut = [...root.querySelectorAll('.w, .scroll, .program, .code-source')]
          .filter((e) => e.getClientRects().length && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1))
          .map((e) => `${e.className}: ${e.scrollWidth}×${e.scrollHeight} in ${e.clientWidth}×${e.clientHeight}`);
        return {
          font: parseFloat(getComputedStyle(el.closest('section')).fontSize),
          inside: box.left >= slide.left - 1 && box.right <= slide.right + 1 && box.top >= slide.top - 1 && box.bottom <= slide.bottom + 1,
          box: [box.left, box.top, box.right, box.bottom].map(Math.round),
          slide: [slide.left, slide.top, slide.right, slide.bottom].map(Math.round),
          cut,
          parts: Object.fromEntries(['source', 'channel', 'measures', 'matrices', 'verdicts', 'drawing'].map((p) => [p, drawn(p)])),
          results: el.getResults(),
        };
      }, s.id);
      assert.equal(m.font, 40, 'the slide\'s text is 40 px');
      const label = `${s.id} (${s.preset ?? 'program'}, show="${s.show}")`;
      if (!m.inside) problems.push(`${label}: widget ${m.box} leaves the slide ${m.slide}`);
      if (m.cut.length) problems.push(`${label}: cut off inside: ${m.cut.join('; ')}`);
      for (const p of s.parts) {
        // A drawing exists for every preset here (a witness or a counterexample of ⊑avg), except
        // where neither is drawn (the swapped rows' counterexample is a gain function too).
        const want = s.show.split(' ').includes(p);
        if (m.parts[p] !== want) problems.push(`${label}: part ${p} ${want ? 'not drawn' : 'drawn'}`);
      }
      // Left out, still computed.
      if (s.preset) assert.equal(typeof m.results.avg, 'boolean', `${label}: the verdicts are computed`);
      else assert.ok(Math.abs(m.results.posteriorBayesVulnerability - 0.25) < 1e-12, `${label}: V = 1/4 (Table 2(a): 2 of 8 guesses)`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `slides-parts-${s.id}.png`) });
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('show and hide are read like every attribute: an unknown part, or both, are named', async () => {
  const page = await h.newPage();
  const url = `${h.url}parts.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>parts</title><script type="module" src="widgets.js"></script></head>
<body><qif-refinement id="bad" preset="swapped-rows" show="verdicts matrix"></qif-refinement>
<qif-program id="both" show="source" hide="channel"><script type="text/qif">secret x in 0..1
observe x</script></qif-program>
<qif-refinement id="hide" preset="swapped-rows" hide="matrices drawing reasons"></qif-refinement></body></html>`,
  }));
  try {
    await page.goto(url);
    await page.waitForFunction(() => ['bad', 'both', 'hide'].every((id) => ['ready', 'error'].includes(document.getElementById(id).dataset.state)), null, { timeout: 30000 });
    const got = await page.evaluate(() => Object.fromEntries(['bad', 'both', 'hide'].map((id) => {
      const root = document.getElementById(id).shadowRoot;
      return [id, {
        state: document.getElementById(id).dataset.state,
        error: root.querySelector('[data-testid="error"]').textContent,
        why: [...root.querySelectorAll('.verdict .why')].filter((e) => e.getClientRects().length).length,
        mats: [...root.querySelectorAll('[data-part="matrices"]')].filter((e) => e.getClientRects().length).length,
        verdicts: root.querySelectorAll('.verdict [data-testid^="holds-"]').length,
      }];
    })));
    assert.equal(got.bad.state, 'error');
    assert.equal(got.bad.error, 'show: unknown part “matrix”; the parts are menu, note, matrices, verdicts, reasons, drawing');
    assert.equal(got.both.error, 'hide: give show or hide, not both');
    assert.equal(got.hide.state, 'ready');
    assert.deepEqual([got.hide.why, got.hide.mats, got.hide.verdicts], [0, 0, 3], 'hide="matrices drawing reasons": the three verdicts alone');
    assert.deepEqual(h.errors(page), []);
  } finally {
    await page.context().close();
  }
});
