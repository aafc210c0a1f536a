// The channel section's program editor in headless Chromium, read as a user sees it: an example
// from the picker (the password checker with the iteration count observable, Alvim et al.
// (FOSAD 2011) Table 1) computes Table 2(b) into the grid — its row and column labels and its
// fractions — and the measures update to the values an independent plain-JS computation
// (reference.mjs) gives for the paper's matrix typed here; a typo is listed with its line and
// column and marked in the gutter as one types; a shared link carries the program.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, settled, valueOf, hashOf } from './harness.mjs';
import { all } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

async function open(hash = '') {
  const page = await h.newPage();
  await page.goto(h.url + hash);
  await settled(page);
  return page;
}

const textsOf = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.value ?? e.textContent));

test('an example computes Table 2(b) into the grid, labels and fractions, and the measures follow', async () => {
  const page = await open();
  await page.click('[data-testid="program-card"] summary');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="program-example"] option').length > 1);
  await page.selectOption('[data-testid="program-example"]', 'password-timing');
  assert.match(await page.inputValue('[data-testid="program-source"]'), /observe \("Fail", i\)/);
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction(() => /8 × 4 channel/.test(document.querySelector('[data-testid="program-status"]').textContent));
  await settled(page);
  const rows = await Promise.all([0, 4, 6, 7].map((i) => page.inputValue(`[data-testid="row-label-${i}"]`)));
  assert.deepEqual(rows, ['[0, 0, 0]', '[1, 0, 0]', '[1, 1, 0]', '[1, 1, 1]']);
  const cols = await Promise.all([0, 1, 2, 3].map((j) => page.inputValue(`[data-testid="col-label-${j}"]`)));
  assert.deepEqual(cols, ['(Fail, 1)', '(Fail, 2)', 'OK', '(Fail, 3)']);
  assert.equal(await page.inputValue('[data-testid="cell-6-2"]'), '1');
  assert.equal(await page.inputValue('[data-testid="cell-6-0"]'), '0');
  // Table 2(b) as the paper prints it (its last two columns swapped: the same measures).
  const C = [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]];
  const want = all(new Array(8).fill(1 / 8), C);
  for (const key of ['mutualInformation', 'minEntropyLeakage', 'posteriorBayesVulnerability']) {
    const got = await valueOf(page, key);
    assert.ok(Math.abs(got - want[key]) <= 1e-9, `${key}: page ${got}, reference ${want[key]}`);
  }
  assert.deepEqual(h.errors(page), []);
});

test('errors are listed with their line and column and marked in the gutter as one types', async () => {
  const page = await open();
  await page.click('[data-testid="program-card"] summary');
  const src = page.locator('[data-testid="program-source"]');
  await src.click();
  await src.pressSequentially('secret pwd in 0..3\nobserve pw');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="program-diagnostics"] li').length === 1);
  assert.equal(await page.textContent('[data-testid="program-diagnostics"] li'), 'line 2, column 9: `pw` is not defined — did you mean `pwd`?');
  assert.equal(await page.getAttribute('[data-testid="program-lines"] [data-line="2"]', 'class'), 'line error');
  assert.equal(await page.getAttribute('[data-testid="program-lines"] [data-line="1"]', 'class'), 'line');
  assert.equal(await src.getAttribute('aria-invalid'), 'true');
  await src.press('End');
  await src.pressSequentially('d');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="program-diagnostics"] li').length === 0);
  assert.equal(await page.getAttribute('[data-testid="program-lines"] [data-line="2"]', 'class'), 'line');
  // An error found only by running is listed the same way.
  await src.press('Control+a');
  await src.pressSequentially('secret x in 0..3\nl = [1, 2, 3]\nobserve l[x]');
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="program-diagnostics"] li').length === 1);
  assert.match(await page.textContent('[data-testid="program-diagnostics"] li'), /^line 3, column 10: index 3 is out of range for a list of length 3/);
  assert.deepEqual(h.errors(page), []);
});

test("a sum of 100,000 terms runs in the page's worker, and a run lists every compile error", async () => {
  const page = await open();
  await page.click('[data-testid="program-card"] summary');
  await page.fill('[data-testid="program-source"]', 'secret x in 0..1\nobserve x' + ' + 1'.repeat(100000));
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction(() => /2 × 2 channel/.test(document.querySelector('[data-testid="program-status"]').textContent), null, { timeout: 60000 });
  const cols = await Promise.all([0, 1].map((j) => page.inputValue(`[data-testid="col-label-${j}"]`)));
  assert.deepEqual(cols, ['100000', '100001']);
  // The worker is still usable, and a program with three mistakes lists the three when run.
  await page.fill('[data-testid="program-source"]', 'secret pwd in 0..3\nobserve pw\nobserve "a" - 1\nobserve lenn(pwd)');
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="program-diagnostics"] li').length === 3);
  assert.deepEqual(await page.$$eval('[data-testid="program-diagnostics"] li', (els) => els.map((e) => e.textContent)), [
    'line 2, column 9: `pw` is not defined — did you mean `pwd`?',
    'line 3, column 13: `-` needs two numbers, but the left side is a string',
    'line 4, column 9: `lenn` is not a function — did you mean `len`?',
  ]);
  assert.deepEqual(h.errors(page), []);
});

test('a shared link carries the program', async () => {
  const program = 'secret x in 0..1\nobserve x';
  const st = {
    presetId: 'password-iterations', edited: true, secrets: ['0', '1'], observables: ['0', '1'],
    cells: [['1', '0'], ['0', '1']], priorUniform: true, gainIdentity: true, alpha: '2', tolerance: '1e-6', program,
  };
  const page = await open(hashOf('channel', st));
  assert.equal(await page.inputValue('[data-testid="program-source"]'), program);
  assert.equal(await page.getAttribute('[data-testid="program-card"]', 'open'), '');
  assert.deepEqual(h.errors(page), []);
});

test('a long run reports how far it is and Cancel stops it; the editor works again at once', async () => {
  const page = await open();
  await page.click('[data-testid="program-card"] summary');
  const src = page.locator('[data-testid="program-source"]');
  await src.fill('secret x in 0..99999\ns = 0\nfor i in 1..400 {\n  s = s + i * x\n}\nobserve s % 7');
  assert.equal(await page.isVisible('[data-testid="program-cancel"]'), false, 'no Cancel before a run');
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction(() => /of 100,000 secret values run/.test(document.querySelector('[data-testid="program-status"]').textContent), null, { timeout: 60000 });
  assert.equal(await page.isVisible('[data-testid="program-cancel"]'), true);
  const t0 = Date.now();
  await page.click('[data-testid="program-cancel"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="program-status"]').textContent === 'Cancelled.');
  assert.ok(Date.now() - t0 < 5000, 'cancelled promptly');
  assert.equal(await page.isVisible('[data-testid="program-cancel"]'), false);
  assert.equal(await page.getAttribute('[data-testid="program-card"]', 'data-busy'), 'false');
  // The engine keeps working: a small program computes right after.
  await src.fill('secret x in 0..3\nobserve x % 2');
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction(() => /4 × 2 channel/.test(document.querySelector('[data-testid="program-status"]').textContent));
  assert.deepEqual(h.errors(page), []);
});
