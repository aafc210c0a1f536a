// A lesson without <meta charset>: the browser reads the page, and the classic scripts it
// includes, in its default legacy encoding (windows-1252), so a bundle holding UTF-8 bytes would
// show "Rows: secrets Â· columns" and "âˆ’Î£". The widgets' classic scripts are pure ASCII
// (esbuild's ASCII output: scripts/bundle-web.mjs), so such a lesson, opened from disk beside the
// one-file bundle, shows the symbols a reader expects: the channel's caption with its middle dot, the formula of Shannon
// entropy with its minus and sigma, the π of the prior column, and a <qif-program> with its
// exact fractions. The same is checked when the page declares windows-1252 outright.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startHarness, bundleFolder, ROOT, SCREENSHOTS } from './harness.mjs';

let h;
let dir;
before(async () => {
  dir = await bundleFolder('qif-encoding-');
  h = await startHarness();
});
after(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

// The lesson is ASCII itself (as a page saved in any legacy encoding may be).
const lesson = (head) => `<!doctype html><html lang="en"><head>${head}<title>Lesson</title>
<link rel="icon" href="data:,"><script src="qif-widgets.js"></script></head><body>
<h1>Leakage</h1>
<qif-channel id="c" matrix="1 0; 1/2 1/2" measures="shannonEntropy,mutualInformation"></qif-channel>
<qif-program id="p" measures="posteriorBayesVulnerability"><script type="text/qif">
secret x in 0..3
observe x % 2
</script></qif-program>
</body></html>`;

for (const [name, head] of [['no charset', ''], ['windows-1252 declared', '<meta charset="windows-1252">']]) {
  test(`a lesson with ${name}: the widgets read "Rows: secrets · columns" and "−Σ" as written`, async () => {
    const file = path.join(dir, `${name.replace(/\W+/g, '-')}.html`);
    await writeFile(file, lesson(head), 'latin1');
    const context = await h.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    try {
      await page.goto(pathToFileURL(file).href);
      // The condition under test: the page is not read as UTF-8.
      assert.equal(await page.evaluate(() => document.characterSet), 'windows-1252');
      await page.waitForFunction(() => ['c', 'p'].every((id) => document.getElementById(id).dataset.state === 'ready'), null, { timeout: 60000 });
      await page.waitForFunction(() => document.getElementById('p').shadowRoot.querySelector('[data-testid="exact-posteriorBayesVulnerability"]'), null, { timeout: 30000 });
      const seen = await page.evaluate(() => {
        const text = (id, sel) => document.getElementById(id).shadowRoot.querySelector(sel).textContent.trim();
        return {
          caption: text('c', '.mat-caption'),
          formula: text('c', '.results dt .f'),
          prior: [...document.getElementById('c').shadowRoot.querySelectorAll('thead th')].map((e) => e.textContent.trim()).pop(),
          programCaption: text('p', '.mat-caption'),
          programPrior: [...document.getElementById('p').shadowRoot.querySelectorAll('[data-testid="cell-table"] tbody tr td:last-child')].map((e) => e.textContent.trim()),
          exact: text('p', '[data-testid="exact-posteriorBayesVulnerability"]'),
          all: document.getElementById('c').shadowRoot.textContent + document.getElementById('p').shadowRoot.textContent,
        };
      });
      assert.equal(seen.caption, 'Rows: secrets · columns: observables · C(x, y) = p(y | x)');
      assert.match(seen.formula, /^H\(X\) = −Σₓ π\(x\) log₂ π\(x\)$/);
      assert.equal(seen.prior, 'π');
      assert.equal(seen.programCaption, seen.caption);
      // x % 2 of a uniform x in 0..3: each parity seen with probability 1/2, V = 2 · 1/4 = 1/2.
      assert.deepEqual(seen.programPrior, ['1/4', '1/4', '1/4', '1/4']);
      assert.match(seen.exact, /^1\/2/);
      // No mojibake anywhere: the UTF-8 bytes of "·", "−", "Σ", "π" read as windows-1252.
      assert.doesNotMatch(seen.all, /Â|âˆ|Î£|Ï€/);
      await page.screenshot({ path: path.join(SCREENSHOTS, `lesson-encoding-${name.replace(/\W+/g, '-')}.png`), fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
}
