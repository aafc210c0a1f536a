// The page as a student uses it, step by step, in headless Chromium: a matrix pasted over the
// example is a new channel (pasted elsewhere it fills from there, and says so); every edit can be
// undone with the Undo button and Ctrl+Z; a block from a comma-decimal spreadsheet (semicolons,
// tabs, quoted CSV) is read and the page says how. Expected values are computed here (the
// identity channel's mutual information is log₂ n on a uniform prior).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, settled, valueOf, pasteInto } from './harness.mjs';
import { presetById } from '../../web/lib/presets.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

async function open(options) {
  const page = await h.newPage(options);
  await page.goto(h.url);
  await settled(page);
  return page;
}

async function paste(page, testid, text) {
  await pasteInto(page, testid, text);
  await settled(page);
}

const shape = async (page) => [await page.locator('[data-testid="channel-table"] tbody tr').count(), await page.locator('[data-testid^="col-label-"]').count()];
const rowLabels = (page) => page.$$eval('[data-testid^="row-label-"]', (els) => els.map((e) => e.value));

test('a 6 × 6 block pasted at the first cell is a new channel; Undo and Ctrl+Z bring the example back', async () => {
  const page = await open();
  const p = presetById('password-iterations');
  const I6 = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? '1' : '0')).join('\t')).join('\n');
  assert.equal(await page.isDisabled('[data-testid="undo"]'), true, 'nothing to undo yet');
  await paste(page, 'cell-0-0', I6);
  assert.deepEqual(await shape(page), [6, 6], 'a 6 × 6 channel, not the pasted rows mixed with the example');
  assert.deepEqual(await rowLabels(page), ['x1', 'x2', 'x3', 'x4', 'x5', 'x6']);
  assert.equal(await page.inputValue('[data-testid="prior-0"]'), '1/6', 'a uniform prior');
  // The identity on 6 secrets leaks all of them: log₂ 6 bits on a uniform prior.
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - Math.log2(6)) < 1e-9);
  assert.match(await page.textContent('[data-testid="paste-note"]'), /new 6 × 6 channel with fresh labels and a uniform prior/);

  // Pasted elsewhere: fills from there, and says so.
  await paste(page, 'cell-2-3', '0.5\t0.5\n0.5\t0.5');
  assert.deepEqual(await shape(page), [6, 6]);
  assert.equal(await page.inputValue('[data-testid="cell-2-4"]'), '0.5');
  assert.equal(await page.inputValue('[data-testid="cell-0-0"]'), '1', 'the rest is as it was');
  assert.match(await page.textContent('[data-testid="paste-note"]'), /into rows x3–x4 and columns y4–y5, filling the grid from there/);

  // Ctrl+Z undoes the second paste, the Undo button the first.
  await page.locator('[data-testid="cell-5-5"]').focus();
  await page.keyboard.press('Control+z');
  await settled(page);
  assert.equal(await page.inputValue('[data-testid="cell-2-4"]'), '0');
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - Math.log2(6)) < 1e-9);
  await page.click('[data-testid="undo"]');
  await settled(page);
  assert.deepEqual(await rowLabels(page), p.secrets, 'the example is back');
  assert.equal(await page.inputValue('[data-testid="preset-select"]'), 'password-iterations');
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - 1.75) < 1e-12, 'the password checker leaks 1.75 bits');
  assert.equal(await page.isDisabled('[data-testid="undo"]'), true);

  // Typing is undone a cell at a time; a removed row comes back.
  await page.locator('[data-testid="cell-0-0"]').fill('0.5');
  await page.locator('[data-testid="cell-0-0"]').press('End');
  await page.keyboard.type('0');
  await settled(page);
  await page.click('[data-testid="channel-table"] tbody tr:nth-child(2) button.remove');
  await settled(page);
  assert.equal((await rowLabels(page)).length, 7);
  await page.keyboard.press('Control+z');
  await settled(page);
  assert.equal((await rowLabels(page)).length, 8);
  assert.equal(await page.inputValue('[data-testid="cell-0-0"]'), '0.50');
  await page.click('[data-testid="undo"]');
  await settled(page);
  assert.equal(await page.inputValue('[data-testid="cell-0-0"]'), '1', 'the typing in one cell is one step');
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
});

test('a comma-decimal spreadsheet’s copies (semicolons, tabs, quoted CSV, comma and space) are read, and the page says so', async () => {
  const page = await open();
  const copies = {
    semicolons: '0,5; 0,5\n0,1; 0,9',
    tabs: '0,5\t0,5\n0,1\t0,9',
    'quoted CSV': '"0,5","0,5"\n"0,1","0,9"',
    'comma and space': '0,5, 0,5\n0,1, 0,9',
  };
  for (const [what, text] of Object.entries(copies)) {
    await paste(page, 'cell-0-0', text);
    assert.deepEqual(await shape(page), [2, 2], `${what}: 2 × 2`);
    assert.equal(await page.inputValue('[data-testid="cell-1-0"]'), '0.1', what);
    assert.equal(await page.inputValue('[data-testid="cell-1-1"]'), '0.9', what);
    assert.equal(await page.locator('[data-testid="input-errors"] li').count(), 0, `${what}: no problem`);
    assert.match(await page.textContent('[data-testid="paste-note"]'), /Read as decimal commas.*0,5 → 0\.5/, what);
    // I(X;Y) of [[1/2, 1/2], [1/10, 9/10]] on a uniform prior, written out here.
    const C = [[0.5, 0.5], [0.1, 0.9]];
    const py = [0.5 * (C[0][0] + C[1][0]), 0.5 * (C[0][1] + C[1][1])];
    let I = 0;
    for (const row of C) for (let y = 0; y < 2; y++) I += 0.5 * row[y] * Math.log2(row[y] / py[y]);
    assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - I) < 1e-12, `${what}: I = ${I}`);
  }
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
});

// Whether a box cuts off its content: scrollWidth beyond clientWidth (or height, for a box that
// scrolls vertically).
const clipOf = (page, selector) => page.$eval(selector, (e) => ({ sw: e.scrollWidth, cw: e.clientWidth, sh: e.scrollHeight, ch: e.clientHeight, oy: getComputedStyle(e).overflowY }));

test('tables fit: the example’s channel at 1366 × 900, “Mechanisms on this graph” at 1366 and at 375 px', async () => {
  for (const viewport of [{ width: 1366, height: 900 }, { width: 375, height: 812 }]) {
    const page = await open({ viewport });
    const what = `${viewport.width} px`;
    if (viewport.width === 1366) {
      const c = await clipOf(page, '[data-testid="channel-wrap"]');
      assert.ok(c.sw <= c.cw, `${what}: the channel grid is cut (${c.sw} px in ${c.cw} px): the OK column is hidden`);
      // The last column's label is in view, whole.
      const ok = await page.$eval('[data-testid="col-label-3"]', (e) => { const r = e.getBoundingClientRect(); const w = e.closest('.table-wrap').getBoundingClientRect(); return r.right <= w.right && e.scrollWidth <= e.clientWidth; });
      assert.ok(ok, `${what}: the OK column's label is whole`);
    }
    await page.waitForSelector('[data-testid="mech-row-lp"][data-status="ok"]', { timeout: 30000 });
    const m = await page.$eval('[data-testid="mech-table"]', (t) => {
      const w = t.parentElement;
      const last = t.querySelector('thead th:last-child').getBoundingClientRect();
      return { sw: w.scrollWidth, cw: w.clientWidth, sh: w.scrollHeight, ch: w.clientHeight, right: last.right, wrapRight: w.getBoundingClientRect().right, rows: t.querySelectorAll('tbody tr').length };
    });
    assert.ok(m.sw <= m.cw, `${what}: the mechanisms table is cut sideways (${m.sw} px in ${m.cw} px)`);
    assert.ok(m.sh <= m.ch, `${what}: the mechanisms table scrolls inside its box (${m.sh} px in ${m.ch} px): rows hidden`);
    assert.ok(m.right <= m.wrapRight + 0.5, `${what}: the ε column is in view`);
    assert.ok(m.rows >= 6, 'every mechanism is listed');
    await h.screenshot(page, `student-mechanisms-${viewport.width}`);
    assert.deepEqual(h.errors(page), [], 'no console or page errors');
  }
});

test('every number of the channel results has a reading beside it; ∞ and a utility in negative bits say what they mean', async () => {
  const page = await open();
  const keys = await page.$$eval('#results [data-testid^="result-"][data-key]', (els) => els.map((e) => e.dataset.key));
  assert.ok(keys.length >= 25, `${keys.length} measures`);
  const missing = [];
  for (const key of keys) {
    if ((await page.getAttribute(`[data-testid="result-${key}"]`, 'data-status')) !== 'ok') continue;
    const reading = (await page.textContent(`[data-testid="reading-${key}"]`)).trim();
    const title = await page.getAttribute(`[data-testid="value-${key}"]`, 'title');
    if (reading.length < 10 || !title.includes(reading)) missing.push(key);
  }
  assert.deepEqual(missing, [], 'a number without a word');
  // The password checker: secrets 000 and 111 share no output, so the risk capacity is ∞.
  assert.equal(await page.textContent('[data-testid="value-multiplicativeBayesRiskCapacity"]'), '∞');
  assert.match(await page.textContent('[data-testid="reading-multiplicativeBayesRiskCapacity"]'), /^∞: two secrets have rows with no output in common/);
  // The mechanisms' utility bound in bits: log₂(2/7) on the 6-clique at ε = ln 2 (its default).
  await page.waitForSelector('[data-testid="mech-bound-log2"][data-value]', { timeout: 30000 });
  const bits = Number(await page.getAttribute('[data-testid="mech-bound-log2"]', 'data-value'));
  assert.ok(Math.abs(bits - Math.log2(2 / 7)) < 1e-9, `bound ${bits}`);
  assert.match(await page.textContent('[data-testid="mech-bound-log2-reading"]'), /log₂ of a probability, so ≤ 0: −1\.807 bits is a probability 2\^\(−1\.807\) = 0\.2857 of answering right/);
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
});
