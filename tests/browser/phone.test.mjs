// The page on a 375 × 740 phone and at 1366 px: no input clips its value (the defaults of every
// section and long values typed into Compare), no horizontal page scroll, and a section menu
// that stays reachable at the bottom of a page many screens long, by touch and by keyboard,
// without covering the section it leads to; the phone layout stays off the desktop. Screenshots in test-output/screenshots/phone-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startHarness, settled, SCREENSHOTS } from './harness.mjs';

const SECTIONS = ['channel', 'mechanism', 'geo', 'compare', 'observations', 'infopriv', 'composition'];
const PHONE = { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true };
const MENU = 'nav.section-bar';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

async function open(options, hash = '') {
  const page = await h.newPage(options);
  await page.goto(h.url + hash);
  await page.waitForFunction(() => document.documentElement.dataset.product === 'ready');
  await settled(page);
  await idle(page);
  return page;
}

// Every section done computing (each keeps data-busy "true" while anything it shows is pending).
async function idle(page) {
  await page.waitForFunction((ids) => ids.every((id) => document.getElementById(id)?.dataset.busy === 'false'), SECTIONS, { timeout: 30000 });
}

// Text inputs of `root` whose value is wider than their box (scrolled inside it, so cut).
function clipped(page, root) {
  return page.evaluate((sel) => [...document.querySelector(sel).querySelectorAll('input, textarea')]
    .filter((el) => !['hidden', 'checkbox', 'radio', 'file', 'range', 'color'].includes(el.type) && el.getBoundingClientRect().width > 0)
    .filter((el) => el.scrollWidth > el.clientWidth)
    .map((el) => `${el.dataset.testid || el.id || el.getAttribute('aria-label')}: "${el.value}" needs ${el.scrollWidth}px, has ${el.clientWidth}px`), root);
}

const pageOverflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

// The menu's box, and whether the link for `id` is the element at its own centre (nothing over it).
function menuState(page, id) {
  return page.evaluate(({ sel, id }) => {
    const nav = document.querySelector(sel);
    const a = nav.querySelector(`a[href="#${id}"]`);
    a.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const r = nav.getBoundingClientRect();
    const l = a.getBoundingClientRect();
    const hit = document.elementFromPoint(l.left + l.width / 2, l.top + l.height / 2);
    return { top: r.top, bottom: r.bottom, height: r.height, name: nav.getAttribute('aria-label'), onTop: hit === a || a.contains(hit), current: nav.querySelector('[aria-current]')?.getAttribute('href') };
  }, { sel: MENU, id });
}

test('375 px: no input of any section clips its value, no horizontal page scroll', async () => {
  const page = await open(PHONE);
  for (const id of SECTIONS) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    assert.deepEqual(await clipped(page, `#${id}`), [], `${id}: inputs that cut their value`);
    await page.locator(`#${id}`).screenshot({ path: path.join(SCREENSHOTS, `phone-${id}.png`) });
  }
  assert.ok(await pageOverflow(page) <= 1, `no horizontal page scroll (${await pageOverflow(page)}px)`);

  // Compare: its default 3 × 3 (values such as 0.09894) fits the screen without scrolling
  // sideways, and values typed longer than that are shown whole.
  const grids = await page.$$eval('#compare table.cmp-grid', (ts) => ts.map((t) => t.parentElement.scrollWidth - t.parentElement.clientWidth));
  assert.equal(grids.length, 2);
  assert.deepEqual(grids, [0, 0], 'both grids fit their card');
  for (const [testid, value] of [['cell-A-0-0', '0.7310585786'], ['cell-B-1-2', '2/9'], ['cell-B-2-2', '0.5761168847658']]) {
    await page.fill(`[data-testid="${testid}"]`, value);
  }
  await idle(page);
  assert.deepEqual(await clipped(page, '#compare'), [], 'typed values in Compare');
  assert.ok(await pageOverflow(page) <= 1, 'still no horizontal page scroll');
  await page.locator('[data-testid="editor-A"]').screenshot({ path: path.join(SCREENSHOTS, 'phone-compare-typed.png') });
  await h.screenshot(page, 'phone-page');
  assert.deepEqual(h.errors(page), []);
  await page.context().close();
});

test('375 px: at the bottom of the page the section menu is on screen and goes to another section', async () => {
  const page = await open(PHONE);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForFunction(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
  // The mark follows the scroll within a frame or two; wait for it rather than racing it.
  await page.waitForFunction((sel) => document.querySelector(`${sel} [aria-current]`)?.getAttribute('href') === '#composition', MENU, { timeout: 5000 }).catch(() => {});
  const atBottom = await menuState(page, 'compare');
  assert.equal(atBottom.name, 'Sections', 'the menu has an accessible name');
  assert.ok(atBottom.top >= 0 && atBottom.top <= 1, `menu at the top of the window (${atBottom.top})`);
  assert.ok(atBottom.height <= 56, `one compact row (${atBottom.height}px)`);
  assert.ok(atBottom.onTop, 'nothing covers the link');
  assert.equal(atBottom.current, '#composition', 'the last section is marked as the one being read');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-menu-at-bottom.png') });

  // By touch: Compare's heading lands just below the menu, not under it.
  await page.locator(`${MENU} a[href="#compare"]`).tap();
  await page.waitForFunction(() => location.hash === '#compare');
  await page.waitForTimeout(300);
  const head = await page.locator('#compare-title').boundingBox();
  const menu = await menuState(page, 'mechanism');
  assert.ok(head.y >= menu.bottom - 1 && head.y < 200, `Compare's heading below the menu (${head.y} vs ${menu.bottom})`);
  await page.waitForFunction((sel) => document.querySelector(`${sel} [aria-current]`)?.getAttribute('href') === '#compare', MENU);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'phone-menu-compare.png') });

  // By keyboard from the bottom of the page: focus a link of the menu, Enter.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.locator(`${MENU} a[href="#geo"]`).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => location.hash === '#geo');
  await page.waitForTimeout(300);
  const geo = await page.locator('#geo-title').boundingBox();
  assert.ok(geo.y >= menu.bottom - 1 && geo.y < 200, `Location privacy's heading below the menu (${geo.y})`);
  assert.ok(await pageOverflow(page) <= 1);
  assert.deepEqual(h.errors(page), []);
  await page.context().close();
});

test('1366 px: the menu is one row at the top, sticks when scrolled, and covers no target', async () => {
  const page = await open({ viewport: { width: 1366, height: 800 } });
  const top = await menuState(page, 'channel');
  assert.ok(top.height <= 56, `one row (${top.height}px)`);
  assert.equal(top.current, '#channel');
  const header = await page.locator('.site-header').boundingBox();
  assert.ok(top.top >= header.y + header.height - 1, 'under the header, not over it');
  await h.screenshot(page, 'desktop-page');
  await page.locator(`${MENU} a[href="#mechanism"]`).click();
  await page.waitForFunction(() => location.hash === '#mechanism');
  await page.waitForTimeout(300);
  const menu = await menuState(page, 'mechanism');
  assert.ok(menu.top >= 0 && menu.top <= 1, 'sticks at the top');
  const head = await page.locator('#mechanism-title').boundingBox();
  assert.ok(head.y >= menu.bottom - 1 && head.y < 200, `heading below the menu (${head.y} vs ${menu.bottom})`);
  await page.waitForFunction((sel) => document.querySelector(`${sel} [aria-current]`)?.getAttribute('href') === '#mechanism', MENU);
  assert.ok(await pageOverflow(page) <= 1);
  assert.deepEqual(await clipped(page, 'main'), [], 'inputs that cut their value at 1366 px');
  // The phone rules stay on the phone: at this width a result's value is beside its name.
  const result = await page.$eval('[data-testid="result-mutualInformation"]', (r) => {
    const name = r.querySelector('dt').getBoundingClientRect();
    const value = r.querySelector('dd').getBoundingClientRect();
    return { beside: value.left >= name.right - 1, sameRow: value.top < name.bottom };
  });
  assert.deepEqual(result, { beside: true, sameRow: true }, 'results in two columns at 1366 px');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'desktop-menu-mechanism.png') });
  assert.deepEqual(h.errors(page), []);
  await page.context().close();
});
