// harness.mjs — shared set-up for the browser tests: serves web/ with scripts/serve (built
// into a temporary directory; the wasm itself must already be built by scripts/build.sh),
// drives Debian's /usr/bin/chromium through playwright-core, records console errors, page
// errors and requests to other origins, and saves screenshots into test-output/screenshots/.
//
//   const h = await startHarness();
//   const page = await h.newPage();           // {viewport}, errors collected per page
//   await page.goto(h.url);
//   await h.screenshot(page, 'channel');
//   h.errors(page)                            // ['console: …', 'pageerror: …']
//   await h.close();

import { spawn, execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, access, copyFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(ROOT, 'test-output', 'screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const run = promisify(execFile);

/**
 * Starts scripts/serve on a free port; resolves with {url, proc, dir}. `web` is the folder served:
 * this checkout's web/ unless given (a benchmark serves another build beside it).
 */
export async function startServer(web = path.join(ROOT, 'web')) {
  await access(path.join(web, 'qif.wasm')).catch(() => {
    throw new Error(`${path.relative(ROOT, web) || web}/qif.wasm is missing: run scripts/build.sh before the browser tests`);
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'qif-serve-'));
  const bin = path.join(dir, 'serve');
  await run('go', ['build', '-o', bin, './scripts/serve'], { cwd: ROOT });
  const proc = spawn(bin, ['-dir', web, '-port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    // The server compresses web/ before it listens: seconds on a loaded machine, so wait long.
    const timer = setTimeout(() => reject(new Error(`serve did not print its URL in 120 s: ${out}${err}`)), 120000);
    proc.stdout.on('data', (b) => {
      out += b;
      const m = /(http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.stderr.on('data', (b) => { err += b; });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${out}${err}`));
    });
  });
  // If the test process dies without closing the harness, take the server down with it.
  process.once('exit', () => proc.kill());
  return { url, proc, dir };
}

export async function startHarness() {
  const server = await startServer();
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  } catch (e) {
    server.proc.kill();
    await rm(server.dir, { recursive: true, force: true });
    throw e;
  }
  const origin = new URL(server.url).origin;
  const pageErrors = new WeakMap();
  const external = [];
  await mkdir(SCREENSHOTS, { recursive: true });

  return {
    url: server.url,
    origin,
    browser,
    /** Requests the page made to any other origin (the page must make none). */
    external,

    /** A new page in a fresh context; console errors and page errors are recorded. */
    async newPage(options = {}) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, ...options });
      const page = await context.newPage();
      const errors = [];
      pageErrors.set(page, errors);
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
      });
      page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
      page.on('request', (req) => {
        const u = req.url();
        if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) external.push(u);
      });
      // Any other origin is refused, so a stray CDN link fails loudly instead of passing online.
      await context.route((u) => !u.href.startsWith(origin) && u.protocol !== 'data:' && u.protocol !== 'blob:', (route) => route.abort());
      return page;
    },

    /** Console and page errors recorded for `page`. */
    errors(page) {
      return pageErrors.get(page) ?? [];
    },

    /** Saves a full-page screenshot as test-output/screenshots/<name>.png. */
    async screenshot(page, name) {
      const file = path.join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },

    async close() {
      await browser.close().catch(() => {});
      server.proc.kill();
      await rm(server.dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the page has no pending or running computation. */
export async function settled(page, timeout = 15000) {
  // The section sets data-busy="true" synchronously on every input, so after an edit this cannot
  // see the state from before it.
  await page.waitForFunction(() => document.getElementById('channel')?.dataset.busy === 'false', null, { timeout });
}

/** The full-precision number shown for a measure (from data-value), or null. */
export async function valueOf(page, key) {
  const v = await page.getAttribute(`[data-testid="value-${key}"]`, 'data-value');
  return v === null ? null : Number(v);
}

/** Replaces the text of an input as a user would (select all, type). */
export async function typeInto(page, testid, text) {
  const loc = page.locator(`[data-testid="${testid}"]`);
  await loc.click();
  await loc.press('Control+a');
  await loc.pressSequentially(text);
}

/**
 * Pastes text into the input with this testid as a user's Ctrl+V does: focus, then a paste event
 * carrying the text as text/plain (the page reads event.clipboardData). Callers wait for the page.
 */
export async function pasteInto(page, testid, text) {
  await page.locator(`[data-testid="${testid}"]`).focus();
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

/**
 * The fragment of a shared link to a section's state, written here independently of the page's
 * page/share.js: #name=<base64url of the UTF-8 JSON>.
 */
export const hashOf = (name, state) => `#${name}=${Buffer.from(JSON.stringify(state), 'utf8').toString('base64url')}`;

/** Relative luminance (WCAG 2) of a computed rgb() or rgba() colour, for the tests of dark and light looks. */
export function luminance(rgb) {
  const [r, g, b] = rgb.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * A fresh folder with the widgets' one-file bundles (`files` of dist/, built now from the current
 * web/ by scripts/widgets-bundle.mjs, as scripts/build.sh does) beside each other, as a lesson
 * opened from disk has them. `prefix` names the temporary folder; remove it after.
 */
export async function bundleFolder(prefix, files = ['qif-widgets.js', 'qif-widgets-more.js', 'qif-widgets-exact.js']) {
  await run('node', ['scripts/widgets-bundle.mjs'], { cwd: ROOT });
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  for (const f of files) await copyFile(path.join(ROOT, 'dist', f), path.join(dir, f));
  return dir;
}

/**
 * A folder holding a Reveal.js deck as a lecturer keeps one offline: deck.html (`html`), the
 * widgets' one-file bundle (built now, dist/qif-widgets*.js beside the deck) and Reveal.js's dist/
 * with the black theme (the reveal.js dev dependency). Resolves with the folder; remove it after.
 */
export async function revealDeck(html) {
  const reveal = path.join(ROOT, 'node_modules', 'reveal.js', 'dist');
  await access(path.join(reveal, 'reveal.js')).catch(() => {
    throw new Error('reveal.js (a dev dependency) is missing: run npm ci');
  });
  const dir = await bundleFolder('qif-deck-', ['qif-widgets.js', 'qif-widgets-more.js']);
  await mkdir(path.join(dir, 'dist', 'theme'), { recursive: true });
  for (const f of ['reveal.js', 'reveal.css', 'reset.css', 'theme/black.css']) await copyFile(path.join(reveal, f), path.join(dir, 'dist', f));
  await writeFile(path.join(dir, 'deck.html'), html);
  return dir;
}
