// The channel section's program editor in headless Chromium, read as a user sees it: an example
// from the picker (the password checker with the iteration count observable, Alvim et al.
// (FOSAD 2011) Table 1) computes Table 2(b) into the grid — its row and column labels and its
// fractions — and the measures update to the values an independent plain-JS computation
// (reference.mjs) gives for the paper's matrix typed here; a typo is listed with its line and
// column and marked in the gutter as one types; a shared link carries the program.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, settled, valueOf, hashOf, SCREENSHOTS } from './harness.mjs';
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
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="program-diagnostics"] li[data-severity="error"]').length === 1);
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

// What a student meets in the editor, read as it shows: Tab indents, Escape then Tab leaves,
// the language's reference is a link that opens, the habits of other languages are named, and a
// program that observes nothing gets a warning.
test('the editor: Tab indents, the language link opens, habits and a program without observe are explained', async () => {
  const page = await open();
  await page.click('[data-testid="program-card"] summary');
  const src = page.locator('[data-testid="program-source"]');
  await src.click();
  await src.pressSequentially('secret x in 0..3\nif x == 1 {\n');
  await page.keyboard.press('Tab');
  await src.pressSequentially('observe x\n}');
  assert.equal(await src.inputValue(), 'secret x in 0..3\nif x == 1 {\n    observe x\n}', 'Tab wrote four spaces');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'program-source', 'Tab stayed in the editor');
  // Shift-Tab on the selected lines 2–4: the indented line loses its four spaces.
  await page.evaluate(() => { const t = document.querySelector('[data-testid="program-source"]'); t.setSelectionRange(17, t.value.length); });
  await page.keyboard.press('Shift+Tab');
  assert.equal(await src.inputValue(), 'secret x in 0..3\nif x == 1 {\nobserve x\n}');
  await page.keyboard.press('Tab');
  assert.equal(await src.inputValue(), 'secret x in 0..3\n    if x == 1 {\n    observe x\n    }', 'Tab on a selection indents every line');
  // Escape, then Tab: the focus leaves the editor (a keyboard user is never trapped), as the hint says.
  assert.match(await page.textContent('#program-hint'), /press Escape, then Tab, to leave the editor/);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  assert.notEqual(await page.evaluate(() => document.activeElement?.dataset.testid), 'program-source', 'Escape then Tab left the editor');
  // The language's reference: a link to its rendered page, which exists.
  const href = await page.getAttribute('[data-testid="program-language-link"]', 'href');
  assert.equal(href, 'docs/program-language.html');
  const doc = await page.evaluate(async (u) => { const r = await fetch(u); return { status: r.status, text: await r.text() }; }, href);
  assert.equal(doc.status, 200);
  assert.match(doc.text, /The program language/);

  const diagnostics = () => page.$$eval('[data-testid="program-diagnostics"] li', (lis) => lis.map((li) => ({ text: li.textContent, severity: li.dataset.severity })));
  async function typed(text) {
    await src.fill('');
    await page.waitForFunction(() => document.querySelector('[data-testid="program-diagnostics"]').children.length === 0);
    await src.fill(text);
    await page.waitForFunction(() => document.querySelector('[data-testid="program-diagnostics"]').children.length > 0);
    return diagnostics();
  }
  // No observe: a warning (not an error), on the last line of code, and the run still works.
  let d = await typed('secret x in 0..7\ny = x + 1');
  assert.deepEqual(d, [{ severity: 'warning', text: 'warning: line 2, column 1: nothing is observed: every secret gives the same output (add `observe e` for what the adversary sees)' }]);
  assert.equal(await src.getAttribute('aria-invalid'), 'false', 'a warning does not make the program invalid');
  assert.equal(await page.getAttribute('[data-testid="program-lines"] [data-line="2"]', 'class'), 'line warning');
  await page.locator('[data-testid="program-card"]').screenshot({ path: `${SCREENSHOTS}/program-editor-warning.png` });
  // Habits, each at its own line and column, instead of the grammar's "expected …".
  d = await typed('secret x in 0..3\ni = 0\nwhile i < 3 {\n    if x == i {\n        break\n    }\n    i = i + 1\n}\nobserve i');
  assert.equal(d.length, 1);
  assert.match(d[0].text, /^line 5, column 9: this language has no `break`; write the loop's condition so that it stops/);
  d = await typed('secret a in 0..3\nb = 2\nif a = b {\n    observe 1\n}');
  assert.match(d[0].text, /^line 3, column 6: did you mean `==`\? In a condition, `=` would assign; `==` compares/);
  await page.locator('[data-testid="program-card"]').screenshot({ path: `${SCREENSHOTS}/program-editor-habit.png` });
  d = await typed('secret a in 0..3\nif a == 1 && a != 2 {\n    observe 1\n}');
  assert.match(d[0].text, /this language has no `&&`; write `and`/);
  d = await typed('secret a in 0..3\nif a == 1 {\n    observe 1\n} elif a == 2 {\n    observe 2\n}');
  assert.match(d[0].text, /this language has no `elif`; write `\} else if c \{`/);
  assert.deepEqual(h.errors(page), []);
});

async function runExample(page, id, size) {
  if (await page.getAttribute('[data-testid="program-card"]', 'open') === null) await page.click('[data-testid="program-card"] summary');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="program-example"] option').length > 1);
  await page.selectOption('[data-testid="program-example"]', id);
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction((s) => document.querySelector('[data-testid="program-status"]').textContent.includes(`${s} channel`), size);
  await settled(page);
}

test('a program\'s channel: named on the Example card, labels whole, rows and columns sorted and dragged', async () => {
  const page = await open();
  await runExample(page, 'dcnet-fair', '');
  const title = await page.$eval('[data-testid="program-example"]', (s) => s.selectedOptions[0].textContent);
  const card = await page.textContent('[data-testid="preset-description"]');
  assert.ok(card.includes(`the channel of the program “${title}”`), `the card names the program: ${card}`);
  assert.equal(await page.$eval('[data-testid="preset-select"]', (s) => s.selectedOptions[0].textContent), 'From a program');
  assert.doesNotMatch(card, /Password checker/);

  await runExample(page, 'password-timing', '8 × 4');
  assert.match(await page.textContent('[data-testid="preset-description"]'), /the channel of the program “Password checker, iterations observable”/);
  // Every row label is shown whole: its text fits its box ("[0, 0, 0]" never reads "[0, 0, 6").
  for (let i = 0; i < 8; i++) {
    const fit = await page.$eval(`[data-testid="row-label-${i}"]`, (el) => ({ sw: el.scrollWidth, cw: el.clientWidth, v: el.value }));
    assert.ok(fit.sw <= fit.cw, `row label ${fit.v}: ${fit.sw} px of text in ${fit.cw} px`);
  }
  await page.locator('[data-testid="matrix-card"]').screenshot({ path: `${SCREENSHOTS}/program-password-grid.png` });
  const mi = await valueOf(page, 'mutualInformation');
  const cell = (v, o) => page.evaluate(([vv, oo]) => {
    const rows = [...document.querySelectorAll('[data-testid^="row-label-"]')].map((e) => e.value);
    const cols = [...document.querySelectorAll('[data-testid^="col-label-"]')].map((e) => e.value);
    return document.querySelector(`[data-testid="cell-${rows.indexOf(vv)}-${cols.indexOf(oo)}"]`).value;
  }, [v, o]);
  // Columns by label: "(Fail, 1)", "(Fail, 2)", "(Fail, 3)", "OK"; each entry stays with its labels.
  await page.selectOption('[data-testid="sort-cols"]', 'label');
  await settled(page);
  assert.deepEqual(await textsOf(page, '[data-testid^="col-label-"]'), ['(Fail, 1)', '(Fail, 2)', '(Fail, 3)', 'OK']);
  assert.equal(await cell('[1, 1, 0]', 'OK'), '1');
  assert.equal(await cell('[1, 1, 1]', '(Fail, 3)'), '1');
  // Rows reversed, then the first row dragged below the second by its handle.
  await page.selectOption('[data-testid="sort-rows"]', 'reverse');
  await settled(page);
  assert.equal(await page.inputValue('[data-testid="row-label-0"]'), '[1, 1, 1]');
  await page.dragAndDrop('[data-drag="row"][data-index="0"]', 'tbody tr[data-r="1"] th');
  await settled(page);
  assert.deepEqual((await textsOf(page, '[data-testid^="row-label-"]')).slice(0, 2), ['[1, 1, 0]', '[1, 1, 1]']);
  // A column by the keyboard: Alt+→ in its label moves it one place right.
  await page.click('[data-testid="col-label-0"]');
  await page.keyboard.press('Alt+ArrowRight');
  await settled(page);
  assert.deepEqual(await textsOf(page, '[data-testid^="col-label-"]'), ['(Fail, 2)', '(Fail, 1)', '(Fail, 3)', 'OK']);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'col-label-1', 'the focus moves with the column');
  // The order changes no measure; Undo takes the last move back.
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - mi) <= 1e-12, 'mutual information unchanged');
  await page.click('[data-testid="undo"]');
  await settled(page);
  assert.deepEqual(await textsOf(page, '[data-testid^="col-label-"]'), ['(Fail, 1)', '(Fail, 2)', '(Fail, 3)', 'OK']);
  await page.locator('[data-testid="matrix-card"]').screenshot({ path: `${SCREENSHOTS}/program-sorted.png` });
  await page.locator('#preset-card').screenshot({ path: `${SCREENSHOTS}/program-example-card.png` });
  assert.deepEqual(h.errors(page), []);
});

test('results: the most read first, the rest folded, the tolerance apart, "1 bit"', async () => {
  const page = await open();
  await page.click('[data-testid="program-card"] summary');
  await page.locator('[data-testid="program-source"]').fill('secret x in 0..1\nobserve x');
  await page.click('[data-testid="program-run"]');
  await page.waitForFunction(() => /2 × 2 channel/.test(document.querySelector('[data-testid="program-status"]').textContent));
  await settled(page);
  // One bit of secret, all of it observed: H(X) = I(X;Y) = 1, written "1 bit".
  for (const key of ['shannonEntropy', 'mutualInformation', 'minEntropyLeakage']) {
    assert.equal(await page.textContent(`[data-testid="value-${key}"]`), '1', key);
    assert.equal(await page.textContent(`[data-testid="unit-${key}"]`), 'bit', `${key}: 1 bit`);
  }
  assert.equal(await page.textContent('[data-testid="unit-conditionalShannonEntropy"]'), 'bits', '0 bits');
  // What a person sees at first: the values in view, not every one of them.
  const visible = await page.$$eval('[data-testid^="value-"]', (els) => els.filter((e) => e.checkVisibility()).map((e) => e.dataset.testid));
  assert.ok(visible.length >= 6 && visible.length <= 10, `${visible.length} values shown at first: ${visible}`);
  for (const key of ['mutualInformation', 'minEntropyLeakage', 'posteriorBayesVulnerability']) assert.ok(visible.includes(`value-${key}`), key);
  assert.equal(await page.isVisible('[data-testid="group-capacities"]'), false, 'capacities folded');
  await page.click('[data-testid="more-results"] > summary');
  assert.equal(await page.isVisible('[data-testid="group-capacities"]'), true, 'and shown on request');
  // The tolerance is a setting, not among the results.
  assert.equal(await page.$eval('[data-testid="capacity-tolerance"]', (el) => Boolean(el.closest('.result-list'))), false);
  assert.match(await page.textContent('.result-setting'), /Setting: capacity tolerance/);
  await page.locator('[data-testid="group-shannon"]').screenshot({ path: `${SCREENSHOTS}/program-results-shannon.png` });
  assert.deepEqual(h.errors(page), []);
});
