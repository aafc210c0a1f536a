#!/usr/bin/env node
// singlefile.mjs — builds dist/qif-toolkit.html, the whole page in one self-contained HTML file
// that works when opened straight from disk (file://), where browsers refuse to fetch modules
// and wasm; and writes web/sw-manifest.js, the list of files the service worker (web/sw.js)
// caches, with a version hash so that a rebuild invalidates the old cache.
//
//   node scripts/singlefile.mjs            (scripts/build.sh runs it after building the wasm)
//
// How the single file works. The page's modules (the module scripts of index.html and all they
// import, the sections' views included) are bundled by esbuild into ONE module (scripts/
// bundle-web.mjs), stored with the files that module refers to by URL (the workers, KaTeX,
// stylesheets, program-examples.json, qif.wasm) in one JSON data block. A small inline bootstrap
// module turns a stored file into a Blob URL when it is first asked for (__qifAsset: the bundle's
// `new URL('<relative>', import.meta.url)` and the stylesheet names of addStylesheet were turned
// into such calls at build time, on acorn's syntax tree), then imports the bundle.
// Stylesheets have their url(...) references inlined as data: URLs (KaTeX's fonts).
// qif.wasm, qif-more.wasm and qif-exact.wasm are stored gzipped and inflated with DecompressionStream. The worker is
// special: from file:// Chromium lets a worker fetch nothing (no module worker, no import(), no Blob
// URL), so the worker (engine/worker-classic.js) and its imports are bundled into one classic script carrying the wasm itself
// (see classicWorker below); the exact module is inflated only when qif.exact is loaded.
//
// The documentation is inside too: every page rendered by scripts/docs.mjs (in its 'single' mode)
// is a <section class="qif-doc" id="docs/<page>"> of this file, and so are the license notices
// (id "notices"). data: documents would not do — Chromium refuses to navigate a page to a data:
// URL — and Blob URLs die with the page, so links could not be kept or shared. A section shows
// only when it is, or contains, the URL's :target (CSS alone, see web/docs.css), which hides the
// tool meanwhile; "#main" brings the tool back. Links that name a page of the site
// ("docs/mathematics.html#refinement", "THIRD_PARTY_NOTICES.txt") are rewritten to those in-file
// anchors ("#docs/mathematics~refinement", "#notices"): here in the HTML, and by the bootstrap
// for the links that the page's modules create later (docTarget). Anchors without "=" never
// look like the shared-state hashes of page/share.js.
//
// The file's Content-Security-Policy allows only its own inline script and styles (by their
// SHA-256 hashes, computed here), blob: for the modules and the worker, and 'wasm-unsafe-eval'.

import { readFile, writeFile, mkdir, readdir, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSite } from './docs.mjs';
import { bundle, resolveRel } from './bundle-web.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB = path.join(ROOT, 'web');
const OUT = path.join(ROOT, 'dist', 'qif-toolkit.html');

// Files of web/ that are not part of the page (the qif-widgets files: the widgets bundle, for
// embed.html in sandboxed frames; scripts/widgets-bundle.mjs).
const NOT_PAGE = new Set(['sw.js', 'sw-manifest.js', 'package.json', 'qif.d.ts', 'README.md', 'qif-widgets.js', 'qif-widgets-more.js', 'qif-widgets-exact.js']);
// Files of the site that the single file holds as sections and styles, not in its bundle.
const NOT_BUNDLED = (f) => f.startsWith('docs/') || f === 'docs.css' || f === 'THIRD_PARTY_NOTICES.txt';

/**
 * The in-file anchor of a link to a page of the site, or null: "docs/<page>.html#<id>" →
 * "#docs/<page>~<id>", "THIRD_PARTY_NOTICES.txt" → "#notices". Also runs in the bootstrap.
 */
export function docTarget(href) {
  const m = /^(?:\.\/)?docs\/([\w/-]+)\.html(?:#(.*))?$/.exec(String(href));
  if (m) return '#docs/' + m[1] + (m[2] ? '~' + m[2] : '');
  if (/^(?:\.\/)?THIRD_PARTY_NOTICES\.txt$/.test(String(href))) return '#notices';
  return null;
}
const MIME = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.ico': 'image/x-icon', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.txt': 'text/plain',
};

/** Every file under web/ (relative paths with "/"), minus hidden files and build leftovers. */
export async function listWeb(dir = WEB, prefix = '') {
  const out = [];
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const rel = prefix + e.name;
    if (e.isDirectory()) out.push(...await listWeb(path.join(dir, e.name), `${rel}/`));
    else if (e.isFile()) out.push(rel);
  }
  return out;
}

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('base64');

// ---------------------------------------------------------------- the worker, as one classic script

// Pages opened from file:// have an opaque origin, and Chromium lets their workers fetch nothing
// — not even Blob URLs: no module worker, no import(), no fetch of qif.wasm. So the worker goes
// in as ONE classic script: a prelude, wasm_exec.js, then the worker's modules bundled by esbuild
// (an IIFE), with fetch() answering for qif.wasm from the gzipped bytes the bootstrap splices in.
// In the worker, __qifAsset("qif.wasm") is the URL "qif-dep:qif.wasm", which that fetch knows.

// The wasm files the worker may fetch, by the placeholder that the bootstrap replaces with their
// gzipped bytes in base64. qif-more.wasm and qif-exact.wasm are fetched, hence inflated, only when
// a function of theirs is first called (the worker loads qif.wasm alone first).
export const WORKER_WASM = { 'qif.wasm': 'qif-wasm-gz', 'qif-more.wasm': 'qif-more-wasm-gz', 'qif-exact.wasm': 'qif-exact-wasm-gz' };

// The worker's prelude: fetch() answers for the wasm files of `wasm` from their gzipped bytes; a
// file given as null is refused by name (a build without that module); a file given as FROM_PAGE
// is asked of the page ({type: 'wasm-request', file}, answered by {type: 'wasm', file, gz} or
// {type: 'wasm', file, error}: engine/client.js wasmSource), which fetches it only then.
export const FROM_PAGE = 'from-page';
function workerPrelude(wasm) {
  return `"use strict";
// The single-file build's worker: one classic script (see scripts/singlefile.mjs).
const __qifAsset = (p) => 'qif-dep:' + p;
const __qifNativeFetch = self.fetch.bind(self);
const __qifWasm = { ${Object.entries(wasm).map(([f, gz]) => `'qif-dep:${f}': ${gz === null ? 'null' : `"${gz}"`}`).join(', ')} };
const __qifAsked = new Map();
self.addEventListener('message', (e) => {
  const m = e.data;
  const asked = m && m.type === 'wasm' && __qifAsked.get(m.file);
  if (!asked) return;
  __qifAsked.delete(m.file);
  if (typeof m.gz === 'string') asked.resolve(m.gz); else asked.reject(new Error(m.file + ': ' + (m.error || 'not sent')));
});
self.fetch = (input, init) => {
  const gz = __qifWasm[String((input && input.url) || input)];
  if (gz === undefined) return __qifNativeFetch(input, init);
  if (gz === null) return Promise.reject(new Error(String(input).slice(8) + ' is not part of this build'));
  if (gz === ${JSON.stringify(FROM_PAGE)}) {
    const file = String(input).slice(8);
    return new Promise((resolve, reject) => {
      __qifAsked.set(file, { resolve, reject });
      self.postMessage({ type: 'wasm-request', file });
    }).then(__qifInflate);
  }
  return Promise.resolve(__qifInflate(gz));
};
function __qifInflate(gz) {
  const bin = atob(gz);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const body = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(body, { headers: { 'content-type': 'application/wasm' } });
}
`;
}

/**
 * A worker (entry) and what it imports as one classic script. `wasm` maps the wasm files the
 * worker may fetch to their placeholders (see workerPrelude); null leaves out the Go runtime and
 * the fetch of wasm modules (the data worker runs no wasm). import.meta.url is the worker's own
 * location, as it was in a module worker.
 */
export async function classicWorker(entry, have, wasm = WORKER_WASM) {
  const code = await bundle(entry, { format: 'iife', have, define: { 'import.meta.url': 'self.location.href' } });
  if (!wasm) return `"use strict";\n// The single-file build's data worker: one classic script (see scripts/singlefile.mjs).\nconst __qifAsset = (p) => 'qif-dep:' + p;\n${code}`;
  const goExec = await readFile(path.join(WEB, 'wasm_exec.js'), 'utf8');
  return `${workerPrelude(wasm)}\n${goExec}\n${code}`;
}

// ---------------------------------------------------------------- stylesheets

async function inlineCSS(file, css) {
  const parts = [];
  let k = 0;
  for (const m of css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g)) {
    const ref = m[2];
    if (/^(?:data:|blob:|[a-z]+:|#)/i.test(ref)) continue;
    const p = resolveRel(file, ref.replace(/[?#].*$/, ''));
    let bytes;
    try {
      bytes = await readFile(path.join(WEB, p));
    } catch {
      // e.g. KaTeX's .woff/.ttf fallbacks, never needed next to its .woff2 (not vendored): the
      // entry is dropped from its src list, or the browser would try to fetch it from disk.
      const entry = /,\s*$/.exec(css.slice(k, m.index));
      const fmt = /^\s*format\([^)]*\)/.exec(css.slice(m.index + m[0].length));
      if (entry) {
        parts.push(css.slice(k, m.index - entry[0].length));
        k = m.index + m[0].length + (fmt ? fmt[0].length : 0);
      }
      continue;
    }
    parts.push(css.slice(k, m.index), `url("data:${MIME[path.extname(p)] ?? 'application/octet-stream'};base64,${bytes.toString('base64')}")`);
    k = m.index + m[0].length;
  }
  parts.push(css.slice(k));
  return parts.join('');
}

// ---------------------------------------------------------------- the bootstrap

// Runs in the page as the one inline module. Kept free of "</" so it can sit in a <script>.
const BOOTSTRAP = `
const bundle = JSON.parse(document.getElementById('qif-bundle').textContent);
const urls = new Map();
const classicWorkers = new Set();
// The Blob URL of a stored file, made when it is first asked for; a worker gets the gzipped wasm
// it carries spliced in for its placeholders.
function urlOf(path) {
  if (urls.has(path)) return urls.get(path);
  const f = bundle.files[path];
  if (!f || f.text === undefined) throw new Error('single file: ' + path + ' cannot be loaded in the page');
  let text = f.text;
  if (f.worker) {
    for (const [file, gz] of Object.entries(f.worker)) text = text.replace('"' + gz + '"', () => JSON.stringify(bundle.files[file].gzip));
  }
  const url = URL.createObjectURL(new Blob([text], { type: f.mime }));
  if (f.worker) classicWorkers.add(url);
  urls.set(path, url);
  return url;
}
// The page's client asks for a module worker; this build's worker is a classic script.
const NativeWorker = globalThis.Worker;
globalThis.Worker = class extends NativeWorker {
  constructor(url, options) {
    super(url, classicWorkers.has(String(url)) ? { ...options, type: 'classic' } : options);
  }
};
// The bundle's references to files of the site (scripts/bundle-web.mjs) call this.
globalThis.__qifAsset = urlOf;
globalThis.__qifSingleFile = true;
// Links to pages of the site, created by the page's modules, go to the in-file sections.
${docTarget.toString()}
const retarget = (a) => {
  const t = docTarget(a.getAttribute('href'));
  if (t) a.setAttribute('href', t);
};
new MutationObserver((records) => {
  for (const r of records) {
    if (r.type === 'attributes') { if (r.target.localName === 'a') retarget(r.target); continue; }
    for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      if (n.localName === 'a') retarget(n);
      for (const a of n.querySelectorAll('a[href]')) retarget(a);
    }
  }
}).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['href'] });
try {
  await import(urlOf(bundle.entry));
} catch (e) {
  const status = document.getElementById('engine-status');
  if (status) {
    status.dataset.state = 'error';
    status.textContent = 'This single-file build could not start: ' + (e && e.message ? e.message : e);
  }
  console.error(e);
}
`;

// ---------------------------------------------------------------- the service-worker manifest

/** Files the service worker precaches: the page's own files (not docs, types or the worker). */
export function precacheList(all) {
  return all.filter((f) => !NOT_PAGE.has(f) && !/\.(?:md|d\.ts|map)$/.test(f) && !/(^|\/)LICENSE/.test(f) && MIME[path.extname(f)]);
}

async function writeManifest(all) {
  const files = precacheList(all);
  const h = createHash('sha256');
  for (const f of files) {
    h.update(f);
    h.update('\0');
    h.update(await readFile(path.join(WEB, f)));
    h.update('\0');
  }
  const version = h.digest('hex').slice(0, 16);
  const text = `// sw-manifest.js — generated by scripts/singlefile.mjs; do not edit. The files web/sw.js
// caches for offline use, and a hash of their contents that names the cache.
self.QIF_PRECACHE = ${JSON.stringify({ version, files }, null, 1)};
`;
  await writeFile(path.join(WEB, 'sw-manifest.js'), text);
  return { version, count: files.length };
}

// ---------------------------------------------------------------- main

/** The documentation and the notices as sections of the single file, and their stylesheets. */
async function docSections(version) {
  const { pages, css } = await renderSite({ mode: 'single', version });
  const notices = await readFile(path.join(WEB, 'THIRD_PARTY_NOTICES.txt'), 'utf8');
  const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const sections = [...pages.values()].map((p) => p.document);
  sections.push(`<section class="qif-doc qif-notices" id="notices" aria-label="License and third-party notices">
<header class="site-header"><div class="brand"><p class="doc-brand"><a href="#main">QIF Toolkit</a> · license and third-party notices</p></div>
<nav class="sections" aria-label="Documentation"><a href="#main">The tool</a><a href="#docs/index">Documentation</a></nav></header>
<div class="doc-layout"><div class="doc-body"><pre>${esc(notices)}</pre></div></div>
</section>`);
  const styles = [
    await inlineCSS('vendor/katex/katex.min.css', await readFile(path.join(WEB, 'vendor/katex/katex.min.css'), 'utf8')),
    await readFile(path.join(WEB, 'docs.css'), 'utf8'),
    css,
  ];
  return { sections: sections.join('\n'), styles };
}

// The name of the page's bundle among the stored files.
const PAGE = 'page.js';

/**
 * The files of the data block: the page's modules bundled from `entries` (the module scripts of
 * index.html, run in their order; the bundle re-exports theirs, so a test can reach the page's
 * engine), and each file of `have` that the bundle or a worker refers to by URL.
 */
async function storedFiles(entries, have) {
  const assets = new Set();
  const entry = entries.map((e) => `export * from ${JSON.stringify(`./${e}`)};`).join('\n');
  const files = { [PAGE]: { mime: MIME['.js'], text: await bundle({ contents: entry }, { format: 'esm', have, assets, name: 'the page' }) } };
  for (const f of [...assets].sort()) {
    const ext = path.extname(f);
    const mime = MIME[ext];
    if (f === 'engine/worker.js') {
      // The page's engine/worker.js is, here, engine/worker-classic.js and its imports as one
      // classic script, with the wasm modules of this build.
      const wasm = Object.fromEntries(Object.entries(WORKER_WASM).filter(([w]) => have.has(w)));
      files[f] = { mime, text: await classicWorker('engine/worker-classic.js', have), worker: wasm };
      for (const w of Object.keys(wasm)) files[w] = { mime: MIME['.wasm'], gzip: gzipSync(await readFile(path.join(WEB, w)), { level: 9 }).toString('base64') };
    } else if (f === 'engine/data-worker.js') {
      // The data worker runs no wasm: nothing of the bundle to put in it.
      files[f] = { mime, text: await classicWorker(f, have, null), worker: {} };
    } else if (f.startsWith('vendor/') && ext === '.js' || f === 'wasm_exec.js') {
      files[f] = { mime, text: await readFile(path.join(WEB, f), 'utf8') }; // classic scripts, as they are
    } else if (f === 'vendor/katex/katex.min.css') {
      // Already a <style> of the file (for the documentation): its fonts are not stored twice.
      files[f] = { mime, text: '/* KaTeX: see the page\'s own style element */' };
    } else if (ext === '.css') {
      files[f] = { mime, text: await inlineCSS(f, await readFile(path.join(WEB, f), 'utf8')) };
    } else if (ext === '.json') {
      // Data a module fetches (program-examples.json): a blob URL of its text.
      files[f] = { mime, text: await readFile(path.join(WEB, f), 'utf8') };
    } else {
      throw new Error(`the page refers to ${f} by URL, which the single-file build does not store`);
    }
  }
  return files;
}

async function main() {
  const all = await listWeb();
  const manifest = await writeManifest(all);
  const { version } = JSON.parse(await readFile(path.join(WEB, 'package.json'), 'utf8'));
  const docs = await docSections(version);

  let html = await readFile(path.join(WEB, 'index.html'), 'utf8');
  const have = new Set(precacheList(all).filter((f) => !f.endsWith('.html') && !NOT_BUNDLED(f)));
  const styleHashes = [];
  const entries = [];
  html = await replaceAsync(html, /<link\b[^>]*>/gi, async (tag) => {
    const rel = attr(tag, 'rel');
    const href = attr(tag, 'href');
    if (!href || /^[a-z]+:/i.test(href)) return tag;
    if (rel === 'stylesheet') {
      const p = resolveRel('index.html', href);
      const css = await inlineCSS(p, await readFile(path.join(WEB, p), 'utf8'));
      styleHashes.push(sha256(css));
      return `<style>${css}</style>`;
    }
    return ''; // preload hints and the like point at files that are not there
  });
  html = html.replace(/<script\b([^>]*)><\/script>/gi, (tag, attrs) => {
    const src = attr(tag, 'src');
    if (!src) return tag;
    if (attr(tag, 'type') !== 'module') throw new Error(`index.html: classic script ${src} is not supported by the single-file build`);
    entries.push(resolveRel('index.html', src));
    return '';
  });

  const files = await storedFiles(entries, have);

  // Links to pages of the site go to the in-file sections; the version is stamped in.
  html = html.replace(/(<a\b[^>]*\bhref=")([^"]*)(")/gi, (all, a, href, b) => {
    const t = docTarget(href);
    return t ? `${a}${t}${b}` : all;
  });
  html = html.replace(/(<[^>]*\bdata-qif-version)(?:="[^"]*")?([^>]*>)[^<]*/g, (_, a, b) => `${a}="${version}"${b}${version}`);
  for (const css of docs.styles) styleHashes.push(sha256(css));
  html = html.replace(/<\/head>/i, () => `${docs.styles.map((css) => `<style>${css}</style>`).join('\n')}\n</head>`);
  html = html.replace(/<\/body>/i, () => `${docs.sections}\n</body>`);

  const bundleJSON = JSON.stringify({ entry: PAGE, files }).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  const scriptHash = sha256(BOOTSTRAP);
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}' blob: 'wasm-unsafe-eval'`,
    'worker-src blob:',
    'connect-src blob:',
    `style-src ${styleHashes.map((s) => `'sha256-${s}'`).join(' ')} blob:`,
    'img-src data: blob:',
    'font-src data:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  if (!/<meta http-equiv="Content-Security-Policy"[^>]*>/i.test(html)) throw new Error('index.html: no CSP meta tag to replace');
  html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/i, () => `<meta http-equiv="Content-Security-Policy" content="${csp}">\n<meta name="generator" content="scripts/singlefile.mjs (QIF toolkit single-file build, version ${manifest.version})">`);
  html = html.replace(/<\/head>/i, () => `<script type="module">${BOOTSTRAP}</script>\n</head>`);
  html = html.replace(/<\/body>/i, () => `<script type="application/json" id="qif-bundle">${bundleJSON}</script>\n</body>`);

  await mkdir(path.dirname(OUT), { recursive: true });
  await writeFile(OUT, html);
  const size = (await stat(OUT)).size;
  console.log(`built ${path.relative(ROOT, OUT)}: ${size} bytes (${Object.keys(files).length} files inlined); web/sw-manifest.js: ${manifest.count} files, version ${manifest.version}`);
}

function attr(tag, name) {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : null;
}

async function replaceAsync(s, re, fn) {
  const out = [];
  let k = 0;
  for (const m of s.matchAll(re)) {
    out.push(s.slice(k, m.index), await fn(m[0]));
    k = m.index + m[0].length;
  }
  out.push(s.slice(k));
  return out.join('');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`singlefile: ${e.message}`);
    process.exit(1);
  });
}
