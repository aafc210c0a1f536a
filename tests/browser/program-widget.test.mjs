// <qif-program> in headless Chromium, read as a user sees it: the password checker of Alvim et
// al. (FOSAD 2011), Table 1 (password 110, a three-bit guess, the adversary sees Fail or OK), gives
// the channel of their Table 2(a) — columns Fail, OK; every guess but 110 fails with probability 1 —
// with its exact fractions, and the posterior Bayes vulnerability of the closed form: under the
// uniform prior on 8 guesses, V = Σ_y max_x π(x)C(x,y) = 1/8 (OK) + 1/8 (Fail) = 1/4. A program with
// a mistake shows its line and column once. Both (a) in the iframe mode of embed.html served on
// localhost (the module widgets.js) and (b) from the one-file bundle on a lesson opened from disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, bundleFolder, ROOT } from './harness.mjs';

const PASSWORD = `secret guess in bits(3)
password = [1, 1, 0]
out = "OK"
i = 0
while i < 3 and out == "OK" {
    if guess[i] != password[i] {
        out = "Fail"
    }
    i = i + 1
}
observe out`;
// The same with an undefined name on line 6, column 8 (\`passwd\`).
const BROKEN = PASSWORD.replace('if guess[i] != password[i]', 'if guess[i] != passwd[i]');

let h;
let dir;
before(async () => {
  dir = await bundleFolder('qif-program-lesson-');
  h = await startHarness();
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// What the widget `sel` shows once settled: its table's labels and cells, the measure, the error.
async function shown(page, sel) {
  await page.waitForFunction((s) => ['ready', 'error'].includes(document.querySelector(s)?.dataset.state), sel, { timeout: 60000 });
  return page.evaluate((s) => {
    const root = document.querySelector(s).shadowRoot;
    const table = root.querySelector('[data-testid="cell-table"]');
    const text = (e) => e.textContent.trim();
    return {
      state: document.querySelector(s).dataset.state,
      cols: table ? [...table.querySelectorAll('thead th')].slice(1).map(text) : null,
      rows: table ? [...table.querySelectorAll('tbody tr')].map((tr) => ({ label: text(tr.querySelector('th')), cells: [...tr.querySelectorAll('td')].map(text) })) : null,
      bayes: root.querySelector('[data-testid="value-posteriorBayesVulnerability"]')?.dataset.value ?? null,
      bayesExact: root.querySelector('[data-testid="exact-posteriorBayesVulnerability"]')?.dataset.value ?? null,
      error: text(root.querySelector('[data-testid="error"]')),
      marked: [...root.querySelectorAll('.program .line.at')].map((e) => e.dataset.line),
    };
  }, sel);
}

// Table 2(a) of Alvim et al. (2011), written here: every 3-bit guess fails except 110.
function checkTable2a(got) {
  assert.equal(got.state, 'ready', got.error);
  assert.deepEqual(got.cols, ['Fail', 'OK', 'π']);
  assert.equal(got.rows.length, 8);
  const seen = new Set();
  for (const { label, cells } of got.rows) {
    const bits = label.replace(/[^01]/g, '');
    assert.equal(bits.length, 3, `row label ${label} names three bits`);
    seen.add(bits);
    assert.deepEqual(cells, bits === '110' ? ['0', '1', '1/8'] : ['1', '0', '1/8'], `row ${label}`);
  }
  assert.equal(seen.size, 8, 'every guess has its row');
  // Posterior Bayes vulnerability: the closed form 2/8.
  assert.ok(Math.abs(Number(got.bayes) - 0.25) < 1e-12, `V(π, C) = ${got.bayes}, expected 0.25`);
  if (got.bayesExact !== null) assert.equal(got.bayesExact, '1/4');
}

function checkBroken(got) {
  assert.equal(got.state, 'error');
  assert.match(got.error, /^line 6, column \d+: .*passwd/);
  assert.equal(got.error.match(/line 6/g).length, 1, 'the place is said once');
  assert.deepEqual(got.marked, ['6']);
  assert.equal(got.rows, null, 'no channel for a program that does not run');
}

test('iframe mode on localhost: the password checker gives Table 2(a) and V = 1/4; an error names its line once', async () => {
  const page = await h.newPage();
  try {
    await page.goto(`${h.url}embed.html?widget=program&measures=posteriorBayesVulnerability&program=${encodeURIComponent(PASSWORD)}`);
    checkTable2a(await shown(page, 'qif-program'));
    // The exact fraction follows the decimal.
    await page.waitForFunction(() => document.querySelector('qif-program').shadowRoot.querySelector('[data-testid="exact-posteriorBayesVulnerability"]'), null, { timeout: 30000 });
    assert.equal((await shown(page, 'qif-program')).bayesExact, '1/4');
    await page.goto(`${h.url}embed.html?widget=program&measures=posteriorBayesVulnerability&program=${encodeURIComponent(BROKEN)}`);
    checkBroken(await shown(page, 'qif-program'));
    assert.deepEqual(h.errors(page), []);
  } finally {
    await page.context().close();
  }
});

test('bundle from file://: the indented program of a lesson gives Table 2(a) and V = 1/4, the broken one its line', async () => {
  const indent = (s) => s.split('\n').map((l) => `      ${l}`).join('\n');
  await writeFile(path.join(dir, 'lesson.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lesson</title>
<link rel="icon" href="data:,"><script src="qif-widgets.js"></script></head><body>
<qif-program id="ok" measures="posteriorBayesVulnerability">
${indent(PASSWORD)}
</qif-program>
<qif-program id="bad" measures="posteriorBayesVulnerability">
${indent(BROKEN)}
</qif-program>
</body></html>`);
  const context = await h.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  try {
    await page.goto(pathToFileURL(path.join(dir, 'lesson.html')).href);
    const got = await shown(page, '#ok');
    checkTable2a(got);
    checkBroken(await shown(page, '#bad'));
    await page.waitForFunction(() => document.querySelector('#ok').shadowRoot.querySelector('[data-testid="exact-posteriorBayesVulnerability"]'), null, { timeout: 30000 });
    assert.equal((await shown(page, '#ok')).bayesExact, '1/4');
    // The author fixes the text content: the widget computes again, and the error is gone.
    await page.evaluate((src) => {
      const el = document.querySelector('#bad');
      el.dataset.state = 'loading';
      el.textContent = src;
    }, PASSWORD);
    await page.waitForFunction(() => document.querySelector('#bad').shadowRoot.querySelector('[data-testid="cell-table"]'), null, { timeout: 30000 });
    const fixed = await shown(page, '#bad');
    checkTable2a(fixed);
    assert.equal(fixed.error, '');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
