// Widget behaviour for authors and readers, in headless Chromium (web/widgets.js served by the
// harness): every attribute problem is reported at once; Reset puts back the author's values after
// a reader's edits; on a dark slide of 1280×720 a compact widget is dark, readable and fits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, SCREENSHOTS } from './harness.mjs';
import { heatColour, heatInk } from '../../web/lib/plot.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

// A page of the harness's origin with `body` (the widgets module loaded once).
async function pageWith(body, options = {}, head = '') {
  const page = await h.newPage(options);
  const url = `${h.url}test-page.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>test</title>${head}<script type="module" src="widgets.js"></script></head><body>${body}</body></html>`,
  }));
  await page.goto(url);
  return page;
}

async function untilSettled(page) {
  await page.waitForFunction(() => [...document.querySelectorAll('qif-channel, qif-mechanism, qif-refinement')].every((w) => w.dataset.state === 'ready' || w.dataset.state === 'error'), null, { timeout: 20000 });
}

const errorItems = (page, id) => page.evaluate((id) => {
  const box = document.getElementById(id).shadowRoot.querySelector('[data-testid="error"]');
  const items = [...box.querySelectorAll('li')].map((li) => li.textContent);
  return items.length ? items : [box.textContent];
}, id);

function close(got, want, what) {
  assert.ok(Number.isFinite(got) && Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: got ${got}, expected ${want}`);
}

test('every attribute problem is reported at once', async () => {
  const page = await pageWith(`
    <qif-mechanism id="m" graph="star" epsilon="two" mechanism="laplace"></qif-mechanism>
    <qif-channel id="c" matrix="[[1,0],[0,1]]" prior="[1]" measures="mutualInformation,foo,bar" alpha="-1" row-labels="a,b,c"></qif-channel>
    <qif-refinement id="r" a="[[1,0],[0" b="[[1,x]]"></qif-refinement>
    <qif-channel id="one" preset="nope"></qif-channel>`);
  await untilSettled(page);
  const m = await errorItems(page, 'm');
  assert.equal(m.length, 3, m.join(' | '));
  assert.match(m.find((t) => t.startsWith('graph:')) ?? '', /unknown graph “star”/);
  assert.match(m.find((t) => t.startsWith('epsilon:')) ?? '', /cannot read “two”/);
  assert.match(m.find((t) => t.startsWith('mechanism:')) ?? '', /unknown mechanism “laplace”/);
  const c = await errorItems(page, 'c');
  assert.deepEqual(c.map((t) => t.split(':')[0]).sort(), ['alpha', 'measures', 'prior', 'row-labels']);
  assert.match(c.find((t) => t.startsWith('measures:')), /unknown measures “foo”, “bar”/);
  assert.match(c.find((t) => t.startsWith('row-labels:')), /needs 2 labels/);
  const r = await errorItems(page, 'r');
  assert.deepEqual(r.map((t) => t.split(':')[0]).sort(), ['a', 'b']);
  // One problem reads as one sentence (no list); the preset's error does not add "give a matrix".
  assert.deepEqual(await errorItems(page, 'one'), [await page.evaluate(() => document.getElementById('one').shadowRoot.querySelector('[data-testid="error"]').textContent)]);
  assert.match((await errorItems(page, 'one'))[0], /^preset: unknown preset “nope”/);
  await page.locator('#m').screenshot({ path: `${SCREENSHOTS}/widget-errors-at-once.png` });
  assert.deepEqual(h.errors(page), []);
});

test('Reset puts back the author’s values after a reader’s edits', async () => {
  const page = await pageWith(`
    <qif-channel id="c" matrix="3/4 1/4; 1/4 3/4" measures="mutualInformation"></qif-channel>
    <qif-mechanism id="m" graph="clique" n="4" epsilon="ln 3" mechanism="randomizedResponse"></qif-mechanism>`);
  await untilSettled(page);
  const H2 = (p) => -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
  const c = page.locator('#c');
  const reset = c.locator('[data-testid="reset"]');
  assert.equal(await reset.isDisabled(), true, 'nothing to reset before an edit');
  close((await c.evaluate((el) => el.getResults())).mutualInformation, 1 - H2(1 / 4), 'I before');

  // The reader makes the channel useless (every row 1/2 1/2): no leakage.
  for (const id of ['cell-0-0', 'cell-0-1', 'cell-1-0', 'cell-1-1']) {
    await c.locator(`[data-testid="${id}"]`).fill('1/2');
  }
  await page.waitForFunction(() => Math.abs(document.getElementById('c').getResults()?.mutualInformation ?? 1) < 1e-12, null, { timeout: 10000 });
  assert.equal(await reset.isDisabled(), false);
  await reset.click();
  await page.waitForFunction(() => document.getElementById('c').dataset.state === 'ready' && document.getElementById('c').getResults().mutualInformation > 0.1, null, { timeout: 10000 });
  assert.equal(await c.locator('[data-testid="cell-0-0"]').inputValue(), '3/4');
  assert.equal(await c.locator('[data-testid="cell-1-0"]').inputValue(), '1/4');
  close((await c.evaluate((el) => el.getResults())).mutualInformation, 1 - H2(1 / 4), 'I after Reset');
  assert.equal(await c.locator('[data-testid="reset"]').isDisabled(), true);

  // The slider: ε moved to 0.1, then Reset brings back ln 3 (randomized response: utility
  // e^ε/(e^ε + 3) = 1/2).
  const m = page.locator('#m');
  await m.evaluate((el) => {
    const s = el.shadowRoot.querySelector('[data-testid="epsilon"]');
    s.value = '0.1';
    s.dispatchEvent(new Event('input'));
  });
  await page.waitForFunction(() => Math.abs(document.getElementById('m').getResults()?.epsilon - 0.1) < 1e-12 && document.getElementById('m').dataset.state === 'ready', null, { timeout: 10000 });
  close((await m.evaluate((el) => el.getResults())).utility, Math.exp(0.1) / (Math.exp(0.1) + 3), 'utility at ε = 0.1');
  await m.locator('[data-testid="reset"]').click();
  await page.waitForFunction(() => Math.abs(document.getElementById('m').getResults()?.epsilon - Math.log(3)) < 1e-12 && document.getElementById('m').dataset.state === 'ready', null, { timeout: 10000 });
  close((await m.evaluate((el) => el.getResults())).utility, 0.5, 'utility after Reset');
  close(Number(await m.locator('[data-testid="epsilon"]').inputValue()), Math.log(3), 'slider after Reset');
  assert.deepEqual(h.errors(page), []);
});

// Relative luminance and contrast ratio (WCAG 2) of CSS rgb() colours.
function luminance(rgb) {
  const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
};

const SLIDE = `<style>
  html, body { margin: 0; background: #191919; color: #fff; font: 42px/1.3 "Source Sans Pro", "DejaVu Sans", sans-serif; }
  section { box-sizing: border-box; width: 1280px; height: 720px; padding: 24px 48px; overflow: hidden; }
  h2 { margin: 0 0 12px; font-size: 52px; }
  qif-mechanism, qif-channel { font-size: 16px; }
</style>`;

async function look(page, id) {
  return page.evaluate((id) => {
    const el = document.getElementById(id);
    const box = el.shadowRoot.querySelector('.w');
    const r = el.getBoundingClientRect();
    const title = el.shadowRoot.querySelector('.w-title');
    return { bottom: r.bottom, right: r.right, width: r.width, height: r.height, bg: getComputedStyle(box).backgroundColor, ink: getComputedStyle(title).color, scrollW: box.scrollWidth - box.clientWidth };
  }, id);
}

test('on a dark 1280×720 slide a compact widget is dark, readable and fits', async () => {
  const page = await pageWith(`<section>
      <h2>Randomized response</h2>
      <qif-mechanism id="m" size="compact" graph="clique" n="6" epsilon="ln 2" mechanism="randomizedResponse" caption="Six answers, ε = ln 2"></qif-mechanism>
    </section>
    <section>
      <h2>The password checker</h2>
      <qif-channel id="c" size="compact" preset="password-iterations" measures="mutualInformation,minEntropyLeakage"></qif-channel>
    </section>
    <section><qif-refinement id="r" size="compact" a="[[1,0],[0,1]]" b="[[0.5,0.5],[0.5,0.5]]"></qif-refinement></section>
    <qif-channel id="light" theme="light" matrix="[[1,0],[0,1]]"></qif-channel>`, { viewport: { width: 1280, height: 720 }, colorScheme: 'dark' }, SLIDE);
  await untilSettled(page);
  const sections = await page.evaluate(() => [...document.querySelectorAll('section')].map((s) => s.getBoundingClientRect().top));
  for (const [i, id] of ['m', 'c', 'r'].entries()) {
    const l = await look(page, id);
    assert.ok(luminance(l.bg) < 0.05, `${id}: dark background, got ${l.bg}`);
    assert.ok(contrast(l.bg, l.ink) >= 7, `${id}: title contrast ${contrast(l.bg, l.ink).toFixed(1)} (${l.ink} on ${l.bg})`);
    assert.ok(l.bottom - sections[i] <= 720 - 24 && l.right <= 1280 - 48, `${id}: fits the slide (bottom ${l.bottom - sections[i]}, right ${l.right})`);
    assert.ok(l.scrollW <= 0, `${id}: no horizontal scrolling inside (${l.scrollW}px)`);
  }
  // The mechanism's heat map follows the theme: its cells take the dark ramp of lib/plot.js
  // (tests/node/heat.test.mjs measures its contrast), never a block of light cells on a dark
  // slide; the values written on them take the ramp's ink.
  const heat = await page.evaluate(() => {
    const el = document.getElementById('m');
    const cells = [...el.shadowRoot.querySelectorAll('[data-testid="heatmap"] rect.heat')];
    const texts = [...el.shadowRoot.querySelectorAll('[data-testid="heatmap"] text.heat-v')];
    return { n: cells.length, fills: cells.map((c) => getComputedStyle(c).fill), values: texts.map((t) => t.textContent), inks: texts.map((t) => getComputedStyle(t).fill) };
  });
  assert.equal(heat.n, 36, 'a 6 × 6 heat map');
  // Randomized response at ε = ln 2 on 6 answers: 2/7 on the diagonal, 1/7 elsewhere, on the
  // scale of probabilities (0 to 1).
  const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
  const want = (i, j) => (i === j ? 2 / 7 : 1 / 7);
  heat.fills.forEach((f, k) => assert.equal(f, rgb(heatColour(want(Math.floor(k / 6), k % 6), 'dark')), `cell ${k}`));
  heat.inks.forEach((f, k) => assert.equal(f, rgb(heatInk(want(Math.floor(k / 6), k % 6), 'dark')), `value ${k}`));
  assert.deepEqual([...new Set(heat.values)].sort(), ['0.14', '0.29']);
  assert.ok(luminance(heat.fills[0]) > luminance(heat.fills[1]), 'on a dark map the larger value is the lighter cell');
  const light = await look(page, 'light');
  assert.ok(luminance(light.bg) > 0.9, `theme="light" stays light: ${light.bg}`);
  await page.screenshot({ path: `${SCREENSHOTS}/widgets-dark-slide.png`, clip: { x: 0, y: 0, width: 1280, height: 720 } });
  await page.screenshot({ path: `${SCREENSHOTS}/widgets-dark-slides-all.png`, fullPage: true });

  // theme="dark" on a light system (a dark slide theme the system does not know about).
  const light2 = await pageWith(`<qif-channel id="d" theme="dark" matrix="[[1,0],[0,1]]"></qif-channel><qif-channel id="l" matrix="[[1,0],[0,1]]"></qif-channel>`, { viewport: { width: 1280, height: 720 }, colorScheme: 'light' });
  await untilSettled(light2);
  assert.ok(luminance((await look(light2, 'd')).bg) < 0.05, 'theme="dark" on a light system');
  assert.ok(luminance((await look(light2, 'l')).bg) > 0.9, 'light by default on a light system');
  assert.deepEqual(h.errors(page), []);
});

// The API counts rows from 0 (“channel: row 1 sums to 1.1”); a widget names them as its grid
// shows them: by label, and by number from 1.
test('row messages name the row by its label and its number from 1', async () => {
  const page = await pageWith(`
    <qif-channel id="sum" matrix="1 0; 0.5 0.6; 0 1" row-labels="alice, bob, carol" measures="mutualInformation"></qif-channel>
    <qif-channel id="neg" matrix="1 0; 0 1; -0.1 1.1" col-labels="yes, no" measures="mutualInformation"></qif-channel>
    <qif-channel id="prior" matrix="1 0; 0 1" prior="-0.5 1.5" measures="mutualInformation"></qif-channel>
    <qif-refinement id="ref" a="1 0; 0 1; 1 0" b="1; 0.9; 1"></qif-refinement>`);
  await untilSettled(page);
  const error = (id) => page.evaluate((id) => document.getElementById(id).shadowRoot.querySelector('[data-testid="error"]').textContent, id);
  assert.match(await error('sum'), /channel: row “bob” \(row 2\) sums to 1\.1, expected 1/);
  assert.match(await error('neg'), /channel: the entry in row “x3” \(row 3\), column “yes” \(column 1\) is negative \(-0\.1\)/);
  assert.match(await error('prior'), /prior: entry “x1” \(entry 1\) is negative \(-0\.5\)/);
  assert.match(await error('ref'), /B: row “x2” \(row 2\) sums to 0\.9, expected 1/);
  // No message keeps the API's 0-based count.
  for (const id of ['sum', 'neg', 'prior', 'ref']) assert.doesNotMatch(await error(id), /row [01] sums|entry \[|entry 0\b/, id);

  // A reader's edit that breaks a row is named the same way.
  await page.locator('#sum [data-testid="cell-1-1"]').fill('0.5');
  await page.waitForFunction(() => document.getElementById('sum').dataset.state === 'ready', null, { timeout: 10000 });
  await page.locator('#sum [data-testid="cell-2-0"]').fill('0.25');
  await page.waitForFunction(() => /row “carol” \(row 3\) sums to 1\.25/.test(document.getElementById('sum').shadowRoot.querySelector('[data-testid="error"]').textContent), null, { timeout: 10000 });
  assert.deepEqual(h.errors(page), []);
});

// Each cell of the widget's matrices: where it is, where its scroll box is, and what clips it.
const cellBoxes = (page, id) => page.evaluate((id) => {
  const root = document.getElementById(id).shadowRoot;
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width };
  };
  return [...root.querySelectorAll('.scroll')].map((box) => ({
    box: rect(box),
    scrolls: box.scrollWidth > box.clientWidth + 1,
    hint: (() => {
      const p = box.parentElement.querySelector('.scroll-hint');
      return p && !p.hidden ? { ...rect(p), text: p.textContent } : null;
    })(),
    cells: [...box.querySelectorAll('th, td')].map((c) => ({ ...rect(c), prior: c.classList.contains('prior'), label: c.matches('tbody th, thead th:first-child'), text: c.textContent || c.querySelector('input')?.value })),
  }));
}, id);

test('on a 375 px phone every cell of every widget is on screen, or one sideways scroll away', async () => {
  const wide = Array.from({ length: 3 }, () => new Array(12).fill('1/12').join(' ')).join('; ');
  const page = await pageWith(`<main style="padding: 0 16px">
      <qif-channel id="c" preset="password-iterations"></qif-channel>
      <qif-channel id="wide" matrix="${wide}" measures="mutualInformation"></qif-channel>
      <qif-channel id="ro" readonly matrix="${wide}" measures="mutualInformation"></qif-channel>
      <qif-refinement id="r" a="1 0 0; 0 1 0; 0 0 1" b="0.5 0.5; 0.5 0.5; 1 0"></qif-refinement>
    </main>`, { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }, '<meta name="viewport" content="width=device-width, initial-scale=1">');
  await untilSettled(page);
  const W = 375;
  const inView = (r) => r.left >= -0.5 && r.right <= W + 0.5 && r.width > 0;
  // No widget makes the page scroll sideways.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= W, 'the page is as wide as the phone');

  // The password checker (4 observables and π) fits whole: no scrolling at all.
  for (const g of await cellBoxes(page, 'c')) {
    assert.equal(g.scrolls, false);
    assert.equal(g.cells.length, 9 * 6);
    for (const c of g.cells) assert.ok(inView(c), `password checker: cell “${c.text}” at ${c.left}…${c.right}`);
  }
  // The refinement widget's two matrices fit too.
  for (const g of await cellBoxes(page, 'r')) for (const c of g.cells) assert.ok(inView(c), `refinement: cell “${c.text}” at ${c.left}…${c.right}`);

  // Twelve observables do not fit: the matrix scrolls in its own box, a visible line says so,
  // the row labels and π stay in view, and scrolling brings every other cell into the box.
  for (const id of ['wide', 'ro']) {
    const [g] = await cellBoxes(page, id);
    assert.equal(g.scrolls, true, `${id}: the matrix scrolls`);
    assert.ok(inView(g.box), `${id}: the scroll box is within the phone`);
    assert.ok(g.hint && inView(g.hint) && g.hint.bottom > g.hint.top, `${id}: a visible note says the matrix scrolls`);
    assert.match(g.hint.text, /Scroll sideways for all 12 columns; the secrets and π stay in view/);
    const prior = g.cells.filter((c) => c.prior);
    assert.equal(prior.length, 4, `${id}: π heading and three entries`);
    for (const c of [...prior, ...g.cells.filter((x) => x.label)]) assert.ok(inView(c) && c.right <= g.box.right + 0.5, `${id}: “${c.text}” stays in view (${c.left}…${c.right})`);
    const hidden = g.cells.filter((c) => !inView(c) || c.right > g.box.right + 0.5);
    assert.ok(hidden.length > 0, `${id}: some columns start out of view`);
    // Scroll to the far end: the last observable's cells come into view, beside π.
    const seen = await page.evaluate((id) => {
      const box = document.getElementById(id).shadowRoot.querySelector('.scroll');
      box.scrollLeft = box.scrollWidth;
      const b = box.getBoundingClientRect();
      const piLeft = box.querySelector('thead .prior').getBoundingClientRect().left;
      return [...box.querySelectorAll('tr')].map((tr) => {
        const r = tr.children[tr.children.length - 2].getBoundingClientRect(); // the last column before π
        // (1 px: the collapsed border it shares with π)
        return r.left >= b.left - 0.5 && r.right <= piLeft + 1;
      });
    }, id);
    assert.deepEqual(seen, [true, true, true, true], `${id}: the last column is reachable`);
  }
  await page.screenshot({ path: `${SCREENSHOTS}/widgets-phone.png`, fullPage: true });
  assert.deepEqual(h.errors(page), []);
});
