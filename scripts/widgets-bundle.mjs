#!/usr/bin/env node
// widgets-bundle.mjs — builds dist/qif-widgets.js, the widgets of web/widgets.js as ONE classic
// script that a course page includes with a plain <script src>, wherever the file is:
//
//   <script src="qif-widgets.js"></script>
//   <qif-channel preset="password-iterations"></qif-channel>
//
// Why one classic script. A page opened from disk (file://) has an opaque origin: Chromium then
// refuses module scripts beside it, fetch() of qif.wasm and module workers; a page on another
// origin than the widgets (a CDN, a course platform's asset host) may not start a worker from
// that origin at all. A classic <script src> loads from anywhere, and a worker made from a Blob
// URL belongs to the page's own origin. So the bundle carries everything:
//   - the page-side modules (widgets.js and what it imports) bundled by esbuild
//     (scripts/bundle-web.mjs), inside one function so that nothing but the custom elements
//     reaches the page;
//   - engine/index.js replaced by a client whose worker is a Blob URL of a classic script;
//   - that worker: engine/worker-classic.js, its imports and wasm_exec.js as one classic script
//     (classicWorker of scripts/singlefile.mjs), its fetch() of qif.wasm answered from the gzipped module stored
//     in base64 in this file (Blob parts: the 1.8 MB string is never copied into the worker
//     source text on the page's side). The exact module (qif-exact.wasm: exact fractions,
//     <qif-program>) is not in it either, but in dist/qif-widgets-exact.js, loaded as the second
//     module is below. Neither is the second module
//     (qif-more.wasm: mechanisms, refinement, ...): a lesson with only a <qif-channel> never
//     needs it, so it is dist/qif-widgets-more.js, a classic script beside this one that the
//     bundle adds to the page the first time its worker asks for that module, or at once when a
//     widget that needs it is in the page as it loads (a <script src> loads from file:// and
//     from another origin, as this file does).
// import.meta.url becomes the bundle's own URL (document.currentScript), for what widgets.js
// resolves beside itself. Every file is pure ASCII (esbuild's charset 'ascii', and the wrapper
// here): a classic script is read in the encoding of the page that includes it, and a lesson
// without <meta charset="utf-8"> is read as windows-1252.
//
//   node scripts/widgets-bundle.mjs        (scripts/build.sh runs it after building the wasm)

import { readFile, writeFile, mkdir, stat, rename } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listWeb, classicWorker, FROM_PAGE } from './singlefile.mjs';
import { bundle } from './bundle-web.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
export const OUT = path.join(ROOT, 'dist', 'qif-widgets.js');
// The second module for the bundle, loaded by it on first use (see above).
export const OUT_MORE = path.join(ROOT, 'dist', 'qif-widgets-more.js');
// The exact module for the bundle (exact fractions, <qif-program>), loaded the same way.
export const OUT_EXACT = path.join(ROOT, 'dist', 'qif-widgets-exact.js');
// The same three files are written into web/ as well, so that the site serves them: embed.html
// loads them in a frame with an opaque origin (sandbox="allow-scripts"), where widgets.js cannot
// load (page/embed-frame.js). They are no part of the page (scripts/singlefile.mjs leaves them out).
export const WEB_NAMES = ['qif-widgets.js', 'qif-widgets-more.js', 'qif-widgets-exact.js'];

// The bundle's engine/index.js: the same client, over the worker this file carries.
const ENGINE = `import { QifClient, createEngine } from './client.js';
export const client = new QifClient({ workerURL: __qifWorkerURL(), workerType: 'classic', wasmSource: __qifWasmFromScript });
export const engine = createEngine(client);
`;

/**
 * The page-side modules from `entry` on, as one IIFE; engine/index.js is the bundle's own (ENGINE),
 * import.meta.url the bundle's URL (__qifBase, defined by the wrapper).
 */
function pageModules(entry) {
  return bundle(entry, { format: 'iife', define: { 'import.meta.url': '__qifBase' }, replace: { 'engine/index.js': ENGINE } });
}

// Text made pure ASCII where only text stands (the license notices, inside a comment): each
// character above U+007F becomes its \uXXXX escape.
const asciiText = (s) => s.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

/** `text` itself, after checking that it is pure ASCII (see above). */
function ascii(text, name) {
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`${name}: a non-ASCII character at offset ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`);
  return text;
}

// A string as a JavaScript literal that is also safe inside an HTML <script> element.
const literal = (s) => JSON.stringify(s).replace(/<\//g, '<\\/').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

// Writes a file of web/ through a temporary name, so that a server never sends half of it.
async function publish(name, text) {
  const tmp = path.join(WEB, `.${name}.${process.pid}`);
  await writeFile(tmp, text);
  await rename(tmp, path.join(WEB, name));
}

export async function buildWidgetBundle() {
  const { version } = JSON.parse(await readFile(path.join(WEB, 'package.json'), 'utf8'));
  const all = await listWeb();
  const have = new Set(all.filter((f) => (/\.m?js$/.test(f) && !f.startsWith('vendor/') && !WEB_NAMES.includes(f)) || /^qif(-exact|-more)?\.wasm$/.test(f)));
  // In the worker: qif.wasm from this file, qif-more.wasm and qif-exact.wasm asked of the page
  // (which loads qif-widgets-more.js or qif-widgets-exact.js for them).
  const worker = await classicWorker('engine/worker-classic.js', have, { 'qif.wasm': 'qif-wasm-gz', 'qif-more.wasm': FROM_PAGE, 'qif-exact.wasm': FROM_PAGE });
  if (worker.split('"qif-wasm-gz"').length !== 2) throw new Error('widgets bundle: the worker must name its wasm placeholder once');
  const wasm = gzipSync(await readFile(path.join(WEB, 'qif.wasm')), { level: 9 }).toString('base64');
  const more = gzipSync(await readFile(path.join(WEB, 'qif-more.wasm')), { level: 9 }).toString('base64');
  const exact = gzipSync(await readFile(path.join(WEB, 'qif-exact.wasm')), { level: 9 }).toString('base64');
  const modules = await pageModules('widgets.js');
  const notices = asciiText((await readFile(path.join(WEB, 'THIRD_PARTY_NOTICES.txt'), 'utf8')).replace(/\*\//g, '* /'));

  const text = ascii(`/*! QIF Toolkit widgets ${version}: <qif-channel>, <qif-mechanism>, <qif-refinement>, <qif-program>, <qif-composition> in one classic
 * script with its computation engine. Include it with <script src="qif-widgets.js"></script>; the
 * widget reference (docs/widgets.md of the toolkit) lists the attributes. Licenses: at the end. */
(() => {
"use strict";
if (globalThis.__qifWidgetsBundle) return; // included twice: the first copy serves the page
globalThis.__qifWidgetsBundle = ${JSON.stringify(version)};
const __qifBundle = true;
const __qifBase = (document.currentScript && document.currentScript.src) || document.baseURI;
const __qifWorkerSource = ${literal(worker)};
const __qifWasmGzip = "${wasm}";
// qif-more.wasm and qif-exact.wasm, gzipped in base64, from qif-widgets-more.js and
// qif-widgets-exact.js beside this file: the first time the worker asks for one, its script is
// added to the page and hands the module over.
const __qifExtra = { 'qif-more.wasm': ['qif-widgets-more.js', '__qifWidgetsMore'], 'qif-exact.wasm': ['qif-widgets-exact.js', '__qifWidgetsExact'] };
const __qifExtraLoads = {};
function __qifWasmFromScript(file) {
  const extra = __qifExtra[file];
  if (!extra) return Promise.reject(new Error('not part of the widgets bundle'));
  const [script, hook] = extra;
  if (!__qifExtraLoads[file]) {
    __qifExtraLoads[file] = new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = new URL(script, __qifBase).href;
      globalThis[hook] = (gz) => { delete globalThis[hook]; resolve(gz); };
      s.onerror = () => { delete __qifExtraLoads[file]; reject(new Error(s.src + ' could not be loaded (it belongs beside qif-widgets.js)')); };
      document.head.appendChild(s);
    });
  }
  return __qifExtraLoads[file];
}
// A widget that will need the second module (or, for <qif-program>, the exact one) is on the page
// from the start: fetch its script now, while the first module compiles, rather than when the
// worker first asks for it.
function __qifPrefetchMore() {
  if (document.querySelector('qif-mechanism, qif-refinement, qif-composition')) __qifWasmFromScript('qif-more.wasm').catch(() => {});
  if (document.querySelector('qif-program')) __qifWasmFromScript('qif-exact.wasm').catch(() => {});
}
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', __qifPrefetchMore, { once: true });
else __qifPrefetchMore();
let __qifWorkerBlob = null;
function __qifWorkerURL() {
  if (!__qifWorkerBlob) {
    const [head, tail] = __qifWorkerSource.split('"qif-wasm-gz"');
    __qifWorkerBlob = URL.createObjectURL(new Blob([head, '"', __qifWasmGzip, '"', tail], { type: 'text/javascript' }));
  }
  return __qifWorkerBlob;
}
${modules}
})();
/*
${notices}
*/
`, 'qif-widgets.js');
  await mkdir(path.dirname(OUT), { recursive: true });
  await writeFile(OUT, text);
  await publish(WEB_NAMES[0], text);
  const moreText = ascii(`/*! QIF Toolkit widgets ${version}: the second module (qif-more.wasm: mechanisms, refinement,
 * privacy, ...) for qif-widgets.js, which adds this script to the page when a widget first needs it.
 * Keep it beside qif-widgets.js. Licenses: see qif-widgets.js. */
globalThis.__qifWidgetsMore && globalThis.__qifWidgetsMore("${more}");
`, 'qif-widgets-more.js');
  await writeFile(OUT_MORE, moreText);
  await publish(WEB_NAMES[1], moreText);
  const exactText = ascii(`/*! QIF Toolkit widgets ${version}: the exact module (qif-exact.wasm: exact fractions, programs
 * as channels for <qif-program>) for qif-widgets.js, which adds this script to the page when a widget
 * first needs it. Keep it beside qif-widgets.js. Licenses: see qif-widgets.js. */
globalThis.__qifWidgetsExact && globalThis.__qifWidgetsExact("${exact}");
`, 'qif-widgets-exact.js');
  await writeFile(OUT_EXACT, exactText);
  await publish(WEB_NAMES[2], exactText);
  const moreGz = gzipSync(Buffer.from(moreText), { level: 9 }).length;
  const size = (await stat(OUT)).size;
  const gz = gzipSync(Buffer.from(text), { level: 9 }).length;
  console.log(`built ${path.relative(ROOT, OUT)}: ${size} bytes (${gz} gzipped); ${path.relative(ROOT, OUT_MORE)}: ${moreText.length} bytes (${moreGz} gzipped); ${path.relative(ROOT, OUT_EXACT)}: ${exactText.length} bytes`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildWidgetBundle().catch((e) => {
    console.error(`widgets-bundle: ${e.message}`);
    process.exit(1);
  });
}
