// <qif-program> in lessons as authors write them, read in headless Chromium as a reader sees them:
//   - the program in a <script type="text/qif"> child, with a bare `<` (i<limit): HTML reads
//     nothing inside a script element, so the widget shows the channel of Table 2(a) of Alvim et al.
//     (FOSAD 2011) — every 3-bit guess fails but 110 — and the heading after the widget stays on
//     the page, outside it;
//   - the same program as the element's plain text: HTML reads "<limit" as a tag, so the program
//     is cut; the widget says where, why, and how to fix it, and computes nothing;
//   - the program in a file named by src;
//   - <qif-program editable>: the reader types a change and the channel follows; Tab indents; a
//     mistake marks its line in the gutter; Reset puts back the author's program.
// The lesson is opened from disk beside the one-file bundle, as a course author keeps one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, bundleFolder, ROOT, SCREENSHOTS } from './harness.mjs';

// The password checker of Alvim et al. (2011), Table 1, with the loop's bound in a variable so that
// the comparison reads `i<limit` — a `<` followed by a letter.
const PASSWORD = `secret guess in bits(3)
password = [1, 1, 0]
limit = 3
out = "OK"
i = 0
while i<limit and out == "OK" {
    if guess[i] != password[i] {
        out = "Fail"
    }
    i = i + 1
}
observe out`;

let h;
let dir;
before(async () => {
  dir = await bundleFolder('qif-program-lessons-');
  h = await startHarness();
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function openPage(url) {
  const context = await h.browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  return { page, errors, context };
}

// What the widget `sel` shows once settled: the channel's labels and cells, the error, marks.
async function shown(page, sel) {
  await page.waitForFunction((s) => ['ready', 'error'].includes(document.querySelector(s)?.dataset.state), sel, { timeout: 60000 });
  return page.evaluate((s) => {
    const root = document.querySelector(s).shadowRoot;
    const table = root.querySelector('[data-testid="cell-table"]');
    const text = (e) => e.textContent.trim();
    const visible = (e) => !!e && e.getClientRects().length > 0;
    return {
      state: document.querySelector(s).dataset.state,
      cols: table ? [...table.querySelectorAll('thead th')].slice(1).map(text) : null,
      rows: table ? Object.fromEntries([...table.querySelectorAll('tbody tr')].map((tr) => [text(tr.querySelector('th')).replace(/[^01]/g, ''), [...tr.querySelectorAll('td')].map(text).slice(0, 2)])) : null,
      error: text(root.querySelector('[data-testid="error"]')),
      code: root.querySelector('[data-testid="program"]')?.textContent ?? root.querySelector('[data-testid="program-source"]')?.value ?? null,
      marked: [...root.querySelectorAll('.program .line.at, .code-lines .line.error')].map((e) => e.dataset.line),
      resetEnabled: root.querySelector('[data-testid="reset"]') ? !root.querySelector('[data-testid="reset"]').disabled : null,
      sourceShown: visible(root.querySelector('[data-part="source"]')),
    };
  }, sel);
}

// Table 2(a), from the paper: Fail for every guess but the password, OK for it.
function table2a(got, password = '110') {
  assert.equal(got.state, 'ready', got.error);
  assert.deepEqual(got.cols.slice(0, 2), ['Fail', 'OK']);
  assert.equal(Object.keys(got.rows).length, 8);
  for (const [bits, cells] of Object.entries(got.rows)) assert.deepEqual(cells, bits === password ? ['0', '1'] : ['1', '0'], `row ${bits}`);
}

const indent = (s) => s.split('\n').map((l) => `    ${l}`).join('\n');

test('a script child keeps a bare "<": Table 2(a), the heading after the widget outside it; plain text is cut and says how to fix it', async () => {
  await writeFile(path.join(dir, 'lesson.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lesson</title>
<link rel="icon" href="data:,"><script src="qif-widgets.js"></script></head><body>
<h1>Timing the password checker</h1>
<qif-program id="script" measures="posteriorBayesVulnerability">
  <script type="text/qif">
${indent(PASSWORD)}
  </script>
</qif-program>
<h2 id="after-script">After the first program</h2>
<qif-program id="cut" measures="posteriorBayesVulnerability">
${indent(PASSWORD)}
</qif-program>
<h2 id="after-cut">After the second program</h2>
</body></html>`);
  const { page, errors, context } = await openPage(pathToFileURL(path.join(dir, 'lesson.html')).href);
  try {
    const ok = await shown(page, '#script');
    table2a(ok);
    assert.equal(ok.error, '');
    assert.match(ok.code, /while i<limit and out == "OK" \{/, 'the program is shown as written, its "<" included');
    // The heading after the widget is on the page, not swallowed into the widget.
    const after = await page.evaluate(() => {
      const e = document.getElementById('after-script');
      return { parent: e.parentElement.localName, inWidget: !!e.closest('qif-program'), seen: e.getClientRects().length > 0 };
    });
    assert.deepEqual(after, { parent: 'body', inWidget: false, seen: true });

    const cut = await shown(page, '#cut');
    assert.equal(cut.state, 'error');
    assert.equal(cut.rows, null, 'nothing computed from a cut program');
    // Where (line 6, after "while i"), why ("<limit" read as a tag) and the fix (the script child, &lt;).
    assert.match(cut.error, /^HTML cut this program on line 6, after “while i”: it read “<limit” as the start of a tag/);
    assert.match(cut.error, /<script type="text\/qif">/);
    assert.match(cut.error, /&lt;/);
    assert.match(cut.code, /while i\s*$/, 'the widget shows what HTML left of the program');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'program-lesson-script-child.png'), fullPage: true });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('src names the program\'s file; a missing file is named in the widget', async () => {
  const page = await h.newPage();
  const base = `${h.url}lesson-src/`;
  await page.route(`${base}**`, (route) => {
    const u = new URL(route.request().url());
    if (u.pathname.endsWith('/checker.qif')) return route.fulfill({ contentType: 'text/plain', body: PASSWORD.replace('[1, 1, 0]', '[0, 1, 1]') });
    if (u.pathname.endsWith('/lesson.html')) {
      return route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>src</title><link rel="icon" href="data:,"><script type="module" src="../widgets.js"></script></head>
<body><qif-program id="src" src="checker.qif" measures="posteriorBayesVulnerability"></qif-program>
<qif-program id="missing" src="nowhere.qif" measures="posteriorBayesVulnerability"></qif-program>
<qif-program id="editsrc" editable src="checker.qif" measures="posteriorBayesVulnerability"></qif-program>
<qif-program id="editcut" editable measures="posteriorBayesVulnerability">
secret x in 0..3
observe x<limit
</qif-program>
<p id="end">End.</p></body></html>`,
      });
    }
    return route.fulfill({ status: 404, body: 'not found' });
  });
  try {
    await page.goto(`${base}lesson.html`);
    const got = await shown(page, '#src');
    table2a(got, '011');
    const missing = await shown(page, '#missing');
    assert.equal(missing.state, 'error');
    assert.match(missing.error, /^src: could not load the program .*nowhere\.qif: HTTP 404/);
    // Editable, from a file: the editor holds the file's program, fitted to it.
    const editsrc = await shown(page, '#editsrc');
    table2a(editsrc, '011');
    assert.equal(editsrc.code, PASSWORD.replace('[1, 1, 0]', '[0, 1, 1]'));
    // Editable and cut: refused until the reader rewrites it, then computed.
    const cut = await shown(page, '#editcut');
    assert.match(cut.error, /^HTML cut this program on line 2, after “observe x”: it read “<limit”/);
    const src = page.locator('#editcut').locator('[data-testid="program-source"]');
    await src.click();
    await src.press('Control+a');
    await page.keyboard.type('secret x in 0..3\nobserve x < 2');
    await page.waitForFunction(() => document.querySelector('#editcut').dataset.state === 'ready', null, { timeout: 30000 });
    // x < 2 of a uniform x in 0..3: the rows 0, 1 see true, 2, 3 false; V = 1/4 + 1/4.
    const fixed = await page.evaluate(() => document.querySelector('#editcut').getResults());
    assert.deepEqual([fixed.observations, fixed.posteriorBayesVulnerability], [['true', 'false'], 0.5]);
  } finally {
    await page.context().close();
  }
});

test('<qif-program editable>: typing a change moves the channel, Tab indents, a mistake marks its line, Reset restores', async () => {
  await writeFile(path.join(dir, 'editable.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Edit</title>
<link rel="icon" href="data:,"><script src="qif-widgets.js"></script></head><body>
<qif-program id="ed" editable measures="posteriorBayesVulnerability"><script type="text/qif">
${PASSWORD}
</script></qif-program></body></html>`);
  const { page, errors, context } = await openPage(pathToFileURL(path.join(dir, 'editable.html')).href);
  try {
    const first = await shown(page, '#ed');
    table2a(first);
    assert.equal(first.resetEnabled, false, 'nothing to reset before an edit');
    const src = page.locator('#ed').locator('[data-testid="program-source"]');
    // Change the password's last digit, as a reader would: click, move to it, replace it.
    await src.click();
    await page.evaluate(() => {
      const t = document.querySelector('#ed').shadowRoot.querySelector('[data-testid="program-source"]');
      const at = t.value.indexOf('0]');
      t.setSelectionRange(at, at + 1);
    });
    await page.keyboard.type('1');
    await page.waitForFunction(() => document.querySelector('#ed').getResults()?.program?.includes('[1, 1, 1]') && document.querySelector('#ed').dataset.state === 'ready', null, { timeout: 30000 });
    const edited = await shown(page, '#ed');
    table2a(edited, '111');
    assert.equal(edited.resetEnabled, true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'program-editable.png'), fullPage: true });

    // Tab indents the line and keeps the focus in the editor.
    await page.evaluate(() => {
      const t = document.querySelector('#ed').shadowRoot.querySelector('[data-testid="program-source"]');
      t.setSelectionRange(t.value.length, t.value.length);
    });
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const afterTab = await page.evaluate(() => {
      const root = document.querySelector('#ed').shadowRoot;
      const t = root.querySelector('[data-testid="program-source"]');
      return { focused: root.activeElement === t, last: t.value.split('\n').pop(), lines: root.querySelectorAll('[data-testid="program-lines"] .line').length };
    });
    assert.deepEqual(afterTab, { focused: true, last: '    ', lines: 13 });

    // A mistake: its line is marked in the gutter and named once.
    await page.keyboard.type('y = ');
    await page.waitForFunction(() => document.querySelector('#ed').dataset.state === 'error', null, { timeout: 30000 });
    const broken = await shown(page, '#ed');
    assert.deepEqual(broken.marked, ['13']);
    assert.match(broken.error, /^line 13, column \d+/);

    // Reset: the author's program, its channel.
    await page.locator('#ed').locator('[data-testid="reset"]').click();
    const back = await shown(page, '#ed');
    table2a(back);
    assert.equal(back.code, PASSWORD);
    assert.deepEqual(back.marked, []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
