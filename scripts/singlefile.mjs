#!/usr/bin/env node
// singlefile.mjs — builds dist/qif-toolkit.html, the whole page in one self-contained HTML file
// that works when opened straight from disk (file://), where browsers refuse to fetch modules
// and wasm; and writes web/sw-manifest.js, the list of files the service worker (web/sw.js)
// caches, with a version hash so that a rebuild invalidates the old cache.
//
//   node scripts/singlefile.mjs            (scripts/build.sh runs it after building the wasm)
//
// How the single file works. Every file of web/ that the page may load (ES modules, the
// worker, wasm_exec.js, KaTeX, stylesheets, qif.wasm) is stored in one JSON data block. A small
// inline bootstrap module turns each into a Blob URL on demand, dependencies first, after
// rewriting the module's relative references to the dependencies' Blob URLs:
//   - static imports and `export … from` with a relative specifier;
//   - `new URL('<relative>', import.meta.url)` (the worker, qif.wasm, wasm_exec.js, KaTeX);
//   - string literals naming a stylesheet of web/ (the sections' <link href="sections/x/style.css">);
//   - dynamic import(expr): expr goes through a resolver (page/sections.js imports `../sections/${name}/view.js`).
// The rewriting is done here, on a scan that skips comments, strings, templates and regular
// expressions, and marks each reference as "qif-dep:<path>"; the bootstrap swaps those for Blob
// URLs. Stylesheets have their url(...) references inlined as data: URLs (KaTeX's fonts).
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

// ---------------------------------------------------------------- scanning JavaScript

/**
 * Scans JavaScript source and returns {code, comment, strings, templates}: code[i] is 1 where
 * position i is code (not inside a comment, string, template text or regular expression).
 */
export function scanJS(src) {
  const n = src.length;
  const code = new Uint8Array(n).fill(1);
  const comment = new Uint8Array(n);
  const strings = [];
  const templates = [];
  const KEYWORDS = /^(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await|instanceof)$/;

  const regexAllowed = (k) => {
    let j = k - 1;
    while (j >= 0 && (comment[j] || /\s/.test(src[j]))) j--;
    if (j < 0) return true;
    const ch = src[j];
    if (/[(,=:[!&|?{};+\-*%<>~^}]/.test(ch)) return true;
    if (/[\w$]/.test(ch)) {
      let s = j;
      while (s > 0 && /[\w$]/.test(src[s - 1])) s--;
      return KEYWORDS.test(src.slice(s, j + 1));
    }
    return false;
  };
  const blank = (a, b) => code.fill(0, a, b);

  function scanCode(i, untilBrace) {
    let depth = 0;
    while (i < n) {
      const c = src[i];
      if (c === '/' && src[i + 1] === '/') {
        let e = src.indexOf('\n', i);
        if (e < 0) e = n;
        blank(i, e);
        comment.fill(1, i, e);
        i = e;
      } else if (c === '/' && src[i + 1] === '*') {
        let e = src.indexOf('*/', i + 2);
        e = e < 0 ? n : e + 2;
        blank(i, e);
        comment.fill(1, i, e);
        i = e;
      } else if (c === '"' || c === "'") {
        let j = i + 1;
        while (j < n && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
        blank(i, j + 1);
        strings.push({ start: i, end: j + 1, value: unquote(src.slice(i, j + 1)) });
        i = j + 1;
      } else if (c === '`') {
        i = scanTemplate(i);
      } else if (c === '/' && regexAllowed(i)) {
        let j = i + 1;
        let cls = false;
        while (j < n && src[j] !== '\n') {
          if (src[j] === '\\') { j += 2; continue; }
          if (src[j] === '[') cls = true;
          else if (src[j] === ']') cls = false;
          else if (src[j] === '/' && !cls) break;
          j++;
        }
        j++;
        while (j < n && /[a-z]/i.test(src[j])) j++;
        blank(i, j);
        i = j;
      } else {
        if (untilBrace) {
          if (c === '{') depth++;
          else if (c === '}') {
            if (depth === 0) return i;
            depth--;
          }
        }
        i++;
      }
    }
    return i;
  }

  function scanTemplate(i) {
    const start = i;
    let j = i + 1;
    let plain = true;
    code[i] = 0;
    while (j < n && src[j] !== '`') {
      if (src[j] === '\\') { code[j] = 0; code[j + 1] = 0; j += 2; continue; }
      if (src[j] === '$' && src[j + 1] === '{') {
        plain = false;
        code[j] = 0;
        code[j + 1] = 0;
        j = scanCode(j + 2, true);
        code[j] = 0;
        j++;
        continue;
      }
      code[j] = 0;
      j++;
    }
    code[j] = 0;
    templates.push({ start, end: j + 1, plain });
    return j + 1;
  }

  scanCode(0, false);
  return { code, strings, templates };
}

function unquote(lit) {
  const q = lit[0];
  const body = lit.slice(1, -1);
  if (!body.includes('\\')) return body;
  try {
    return JSON.parse(`"${(q === "'" ? body.replace(/\\'/g, "'").replace(/"/g, '\\"') : body)}"`);
  } catch {
    return body;
  }
}

/** Resolves a relative reference against the web/-relative path of the referring file. */
function resolveRel(from, spec) {
  const u = new URL(spec, `qif:/${from}`);
  return decodeURIComponent(u.pathname.slice(1));
}

const isRelative = (s) => /^\.{0,2}\//.test(s) || /^[\w-]+(?:\/[\w.-]+)*\.[a-z0-9]+$/i.test(s);

/**
 * Rewrites one ES module: relative references to files in `have` become "qif-dep:<path>".
 * Returns {text, deps}.
 */
export function rewriteModule(file, src, have) {
  const { code, strings, templates } = scanJS(src);
  const edits = []; // {start, end, text}
  const deps = new Set();
  const stringAt = new Map(strings.map((s) => [s.start, s]));
  const handled = new Set();
  const dep = (p) => {
    deps.add(p);
    return JSON.stringify(`qif-dep:${p}`);
  };
  const nextString = (k) => {
    while (k < src.length && /\s/.test(src[k])) k++;
    return stringAt.get(k);
  };
  // The index of the ')' closing the '(' at open, counting code positions only.
  const closing = (open) => {
    let d = 0;
    for (let k = open; k < src.length; k++) {
      if (!code[k]) continue;
      if (src[k] === '(') d++;
      else if (src[k] === ')' && --d === 0) return k;
    }
    return -1;
  };

  // new URL('<relative>', import.meta.url)
  for (const m of src.matchAll(/\bnew\s+URL\s*\(/g)) {
    if (!code[m.index]) continue;
    const s = nextString(m.index + m[0].length);
    if (!s) continue;
    const rest = /^\s*,\s*import\.meta\.url\s*\)/.exec(src.slice(s.end));
    if (!rest) continue;
    const p = resolveRel(file, s.value);
    if (!have.has(p)) continue;
    edits.push({ start: m.index, end: s.end + rest[0].length, text: `new URL(${dep(p)})` });
    handled.add(s.start);
  }

  for (const m of src.matchAll(/\b(import|export)\b/g)) {
    const at = m.index;
    if (!code[at] || (at > 0 && src[at - 1] === '.')) continue;
    let k = at + m[0].length;
    while (k < src.length && /\s/.test(src[k])) k++;
    if (m[1] === 'import' && src[k] === '.') continue; // import.meta
    if (m[1] === 'import' && src[k] === '(') {
      const end = closing(k);
      if (end < 0) continue;
      const s = nextString(k + 1);
      if (s && /^\s*\)$/.test(src.slice(s.end, end + 1)) && s.value.startsWith('.') && have.has(resolveRel(file, s.value))) {
        edits.push({ start: s.start, end: s.end, text: dep(resolveRel(file, s.value)) });
        handled.add(s.start);
        continue;
      }
      edits.push({ start: k + 1, end: k + 1, text: `((s) => (globalThis.__qifResolve ? globalThis.__qifResolve(s, ${JSON.stringify(file)}) : s))(` });
      edits.push({ start: end, end: end, text: ')' });
      continue;
    }
    // Static: the first string after the keyword, with only an import/export clause between.
    const s = strings.find((t) => t.start > at);
    if (!s) continue;
    const between = src.slice(k, s.start);
    const ok = m[1] === 'import'
      ? /^(?:[\w$*{}\s,]*?\bfrom\s*)?$/.test(between)
      : /^(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*$/.test(between);
    if (!ok || !s.value.startsWith('.')) continue;
    const p = resolveRel(file, s.value);
    if (!have.has(p)) throw new Error(`${file}: imports ${s.value}, which is not in web/`);
    edits.push({ start: s.start, end: s.end, text: dep(p) });
    handled.add(s.start);
  }

  // Stylesheet names in string literals are document-relative (a <link href> of the page).
  for (const s of strings) {
    if (handled.has(s.start)) continue;
    if (!/\.css$/.test(s.value) || !isRelative(s.value)) continue;
    const p = resolveRel('index.html', s.value);
    if (have.has(p)) edits.push({ start: s.start, end: s.end, text: dep(p) });
  }
  for (const t of templates) {
    if (t.plain || !/\.css`$/.test(src.slice(t.start, t.end))) continue;
    edits.push({ start: t.start, end: t.start, text: '((s) => (globalThis.__qifResolve ? globalThis.__qifResolve(s, "index.html") : s))(' });
    edits.push({ start: t.end, end: t.end, text: ')' });
  }

  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let text = src;
  let last = Infinity;
  for (const e of edits) {
    if (e.end > last) throw new Error(`${file}: overlapping rewrites at ${e.start}`);
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
    last = e.start;
  }
  return { text, deps: [...deps] };
}

// ---------------------------------------------------------------- the worker, as one classic script

// Pages opened from file:// have an opaque origin, and Chromium lets their workers fetch nothing
// — not even Blob URLs: no module worker, no import(), no fetch of qif.wasm. So the worker goes
// in as ONE classic script: wasm_exec.js, then each module of the worker's graph as a closure
// (imports become reads of earlier closures' exports), with fetch() answering for qif.wasm from
// the gzipped bytes the bootstrap splices in.

/**
 * Turns one ES module into a closure registering its exports in __qifModules[file]. import.meta.url
 * becomes `metaURL`, a JavaScript expression (the worker's own location by default).
 */
export function moduleToClosure(file, src, have, { metaURL = 'self.location.href' } = {}) {
  const { code, strings } = scanJS(src);
  const edits = [];
  const exported = [];
  const deps = [];
  for (const m of src.matchAll(/\b(import|export)\b/g)) {
    const at = m.index;
    if (!code[at] || (at > 0 && src[at - 1] === '.')) continue;
    let k = at + m[0].length;
    while (k < src.length && /\s/.test(src[k])) k++;
    if (m[1] === 'import') {
      if (src[k] === '.') {
        const meta = /^\.\s*meta\s*\.\s*url/.exec(src.slice(k));
        if (!meta) throw new Error(`${file}: import.meta other than import.meta.url`);
        edits.push({ start: at, end: k + meta[0].length, text: metaURL });
        continue;
      }
      if (src[k] === '(') continue; // dynamic import: left alone (it cannot run from file:// anyway)
      const s = strings.find((t) => t.start > at);
      const between = s ? src.slice(k, s.start) : '';
      const clause = /^([\s\S]*?)\s*\bfrom\s*$/.exec(between);
      if (!s || !(clause || /^\s*$/.test(between))) throw new Error(`${file}: unsupported import at ${at}`);
      const p = s.value.startsWith('qif-dep:') ? s.value.slice(8) : resolveRel(file, s.value);
      if (!have.has(p)) throw new Error(`${file}: imports ${s.value}, which is not in web/`);
      deps.push(p);
      let end = s.end;
      if (src[end] === ';') end++;
      const mod = `__qifModules[${JSON.stringify(p)}]`;
      let text = '';
      if (clause) {
        const c = clause[1].trim();
        const ns = /^\*\s+as\s+([\w$]+)$/.exec(c);
        const named = /^(?:([\w$]+)\s*,\s*)?\{([^}]*)\}$/.exec(c);
        if (ns) text = `const ${ns[1]} = ${mod};`;
        else if (named) {
          const parts = named[2].split(',').map((x) => x.trim()).filter(Boolean).map((x) => x.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, '$1: $2'));
          text = `const { ${[...(named[1] ? [`default: ${named[1]}`] : []), ...parts].join(', ')} } = ${mod};`;
        } else if (/^[\w$]+$/.test(c)) text = `const ${c} = ${mod}.default;`;
        else throw new Error(`${file}: unsupported import clause ${c}`);
      }
      edits.push({ start: at, end, text });
    } else {
      const rest = src.slice(k);
      const decl = /^(?:async\s+)?(?:function\s*\*?|class)\s+([\w$]+)|^(?:const|let|var)\s+([\w$]+)/.exec(rest);
      if (decl) {
        exported.push(decl[1] ?? decl[2]);
        edits.push({ start: at, end: k, text: '' });
        continue;
      }
      const list = /^\{([^}]*)\}\s*;?/.exec(rest);
      // export { … } from '…' would need the module's exports re-read: import, then export.
      if (list && /^\s*from\b/.test(rest.slice(list[0].length))) throw new Error(`${file}: export … from is not supported in a closure; import the names, then export them`);
      if (list) {
        for (const x of list[1].split(',').map((y) => y.trim()).filter(Boolean)) {
          const a = /^([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(x);
          exported.push(a[2] ? `${a[2]}: ${a[1]}` : a[1]);
        }
        edits.push({ start: at, end: k + list[0].length, text: '' });
        continue;
      }
      throw new Error(`${file}: unsupported export at ${at}`);
    }
  }
  edits.sort((a, b) => b.start - a.start);
  let text = src;
  for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return {
    deps,
    text: `__qifModules[${JSON.stringify(file)}] = (() => {\n${text}\nreturn { ${exported.join(', ')} };\n})();\n`,
  };
}

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
const __qifModules = {};
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
 * A worker (entry) and its static imports as one classic script. `wasm` maps the wasm files the
 * worker may fetch to their placeholders (see workerPrelude); null leaves out the Go runtime and
 * the fetch of wasm modules (the data worker runs no wasm).
 */
export async function classicWorker(entry, have, wasm = WORKER_WASM) {
  const order = [];
  const seen = new Set();
  const visit = async (f) => {
    if (seen.has(f)) return;
    seen.add(f);
    const src = await readFile(path.join(WEB, f), 'utf8');
    const c = moduleToClosure(f, rewriteModule(f, src, have).text, have);
    for (const d of c.deps) await visit(d);
    order.push(c.text);
  };
  await visit(entry);
  if (!wasm) return `"use strict";\n// The single-file build's data worker: one classic script (see scripts/singlefile.mjs).\nconst __qifModules = {};\n${order.join('\n')}`;
  const goExec = await readFile(path.join(WEB, 'wasm_exec.js'), 'utf8');
  return `${workerPrelude(wasm)}\n${goExec}\n${order.join('\n')}`;
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
const visiting = new Set();
const classicWorkers = new Set();
const blobURL = (parts, type) => URL.createObjectURL(new Blob(parts, { type }));
function urlOf(path) {
  if (urls.has(path)) return urls.get(path);
  const f = bundle.files[path];
  if (!f || f.text === undefined) throw new Error('single file: ' + path + ' cannot be loaded in the page');
  if (visiting.has(path)) throw new Error('single file: import cycle through ' + path);
  visiting.add(path);
  let text;
  if (f.worker) {
    text = f.text;
    for (const [file, gz] of Object.entries(f.worker)) text = text.replace('"' + gz + '"', () => JSON.stringify(bundle.files[file].gzip));
  } else {
    text = f.text.replace(/"qif-dep:([^"]+)"/g, (_, p) => JSON.stringify(urlOf(p)));
  }
  visiting.delete(path);
  const url = blobURL([text], f.mime);
  if (f.worker) classicWorkers.add(url);
  urls.set(path, url);
  return url;
}
function resolve(spec, from) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return spec;
  const p = decodeURIComponent(new URL(spec, 'qif:/' + from).pathname.slice(1));
  return bundle.files[p] && bundle.files[p].text !== undefined ? urlOf(p) : spec;
}
// The page's client asks for a module worker; this build's worker is a classic script.
const NativeWorker = globalThis.Worker;
globalThis.Worker = class extends NativeWorker {
  constructor(url, options) {
    super(url, classicWorkers.has(String(url)) ? { ...options, type: 'classic' } : options);
  }
};
globalThis.__qifResolve = resolve;
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
  await Promise.all(bundle.entries.map((e) => import(urlOf(e))));
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

async function main() {
  const all = await listWeb();
  const manifest = await writeManifest(all);
  const { version } = JSON.parse(await readFile(path.join(WEB, 'package.json'), 'utf8'));
  const docs = await docSections(version);

  let html = await readFile(path.join(WEB, 'index.html'), 'utf8');
  const have = new Set(precacheList(all).filter((f) => !f.endsWith('.html') && !NOT_BUNDLED(f)));
  const files = {};
  for (const f of have) {
    const ext = path.extname(f);
    const mime = MIME[ext];
    if (f.endsWith('.wasm')) {
      files[f] = { mime, gzip: gzipSync(await readFile(path.join(WEB, f)), { level: 9 }).toString('base64') };
    } else if (ext === '.js' || ext === '.mjs') {
      const src = await readFile(path.join(WEB, f), 'utf8');
      // Vendored and classic scripts go in as they are; the page's modules are rewritten.
      const opaque = f.startsWith('vendor/') || f === 'wasm_exec.js';
      // The page's engine/worker.js is, here, engine/worker-classic.js with its imports as one classic script
      // (those two files are part of it, not modules of the page).
      if (f === 'engine/worker.js') files[f] = { mime, text: await classicWorker('engine/worker-classic.js', have), worker: Object.fromEntries(Object.entries(WORKER_WASM).filter(([w]) => have.has(w))) };
      else if (f === 'engine/worker-classic.js' || f === 'engine/worker-serve.js') continue;
      // The data worker runs no wasm: nothing of the bundle to put in it.
      else if (f === 'engine/data-worker.js') files[f] = { mime, text: await classicWorker(f, have, null), worker: {} };
      else files[f] = { mime, text: opaque ? src : rewriteModule(f, src, have).text };
    } else if (f === 'vendor/katex/katex.min.css') {
      // Already a <style> of the file (for the documentation): its fonts are not stored twice.
      files[f] = { mime, text: '/* KaTeX: see the page\'s own style element */' };
    } else if (ext === '.css') {
      files[f] = { mime, text: await inlineCSS(f, await readFile(path.join(WEB, f), 'utf8')) };
    } else if (ext === '.json') {
      // Data a module fetches (program-examples.json): a blob URL of its text.
      files[f] = { mime, text: await readFile(path.join(WEB, f), 'utf8') };
    }
    // Fonts and images reach the page through the stylesheets (inlined there).
  }

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

  // Links to pages of the site go to the in-file sections; the version is stamped in.
  html = html.replace(/(<a\b[^>]*\bhref=")([^"]*)(")/gi, (all, a, href, b) => {
    const t = docTarget(href);
    return t ? `${a}${t}${b}` : all;
  });
  html = html.replace(/(<[^>]*\bdata-qif-version)(?:="[^"]*")?([^>]*>)[^<]*/g, (_, a, b) => `${a}="${version}"${b}${version}`);
  for (const css of docs.styles) styleHashes.push(sha256(css));
  html = html.replace(/<\/head>/i, () => `${docs.styles.map((css) => `<style>${css}</style>`).join('\n')}\n</head>`);
  html = html.replace(/<\/body>/i, () => `${docs.sections}\n</body>`);

  const bundleJSON = JSON.stringify({ entries, files }).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
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
