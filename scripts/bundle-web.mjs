// bundle-web.mjs — the modules of web/ bundled by esbuild, for the builds that must carry them in
// one file: the single-file page (scripts/singlefile.mjs) and the widget bundles
// (scripts/widgets-bundle.mjs). esbuild reads the import graph (static imports, `export … from`,
// dynamic import() of a literal or of a template such as `../sections/${name}/view.js`) and writes
// the modules as one script; acorn, a full JavaScript parser, finds the references that are not
// imports (see assetPlugin). No text of a module is scanned by hand here: telling a regular
// expression from a division, or a comment from a string, is the parsers' work.
//
// Every bundle is written with esbuild's charset 'ascii' (non-ASCII characters escaped), because a
// classic <script src> without a charset on its response is decoded in the encoding of the page
// that includes it: a lesson without <meta charset="utf-8"> is read as windows-1252 and would show
// "·" as "Â·". esbuild escapes strings, templates and identifiers but leaves the text of a regular
// expression literal as written, so the modules of web/ write the non-ASCII characters of their
// regular expressions as \u escapes (tests/node/ascii.test.mjs checks both); bundle() refuses an
// output that is not pure ASCII all the same.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import * as acorn from 'acorn';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB = path.join(ROOT, 'web');

/** The web/-relative path ("engine/worker.js") of an absolute file path under web/. */
const webPath = (file) => path.relative(WEB, file).split(path.sep).join('/');

/** Resolves a relative reference against the web/-relative path of the referring file. */
export function resolveRel(from, spec) {
  const u = new URL(spec, `qif:/${from}`);
  return decodeURIComponent(u.pathname.slice(1));
}

// A string that names a file relative to the page (a stylesheet's <link href>): "sections/geo/style.css".
const pageRelative = (s) => /^\.{0,2}\//.test(s) || /^[\w-]+(?:\/[\w.-]+)*\.[a-z0-9]+$/i.test(s);

/**
 * Where `src` (the module `file`, web/-relative) refers to a file of `have` other than by an import,
 * as edits {start, end, text, path}: each reference becomes `__qifAsset("<path>")`, a function of the
 * bundle's own prelude that returns the URL of its copy of that file. Two kinds, found on acorn's
 * syntax tree:
 *   - new URL('<relative>', import.meta.url) (the worker, qif.wasm, wasm_exec.js, KaTeX, a JSON file)
 *     → new URL(__qifAsset("<path>"));
 *   - a string literal naming a stylesheet of web/ relative to the page (a section's
 *     addStylesheet('sections/geo/style.css')) → __qifAsset("<path>"); a template that ends in
 *     ".css" is refused (its file is not known before it runs) when `have` is not empty.
 */
export function assetEdits(file, src, have) {
  const edits = [];
  // esbuild keeps the comments inside an object literal or an argument list, with their text as
  // written (its charset 'ascii' escapes code, not comments): their non-ASCII characters become
  // \u escapes here, which in a comment are only text.
  const onComment = (block, text, start, end) => {
    if (/[^\x00-\x7f]/.test(text)) edits.push({ start, end, text: src.slice(start, end).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`) });
  };
  const ast = acorn.parse(src, { ecmaVersion: 'latest', sourceType: 'module', onComment });
  const asset = (p) => `__qifAsset(${JSON.stringify(p)})`;
  const isString = (n) => n && n.type === 'Literal' && typeof n.value === 'string';
  const isMetaURL = (n) => n && n.type === 'MemberExpression' && !n.computed && n.property.name === 'url'
    && n.object.type === 'MetaProperty' && n.object.meta.name === 'import' && n.object.property.name === 'meta';
  const skip = new Set(); // string literals already handled (the first argument of new URL)
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'NewExpression' && node.callee.type === 'Identifier' && node.callee.name === 'URL'
      && node.arguments.length === 2 && isString(node.arguments[0]) && isMetaURL(node.arguments[1])) {
      const p = resolveRel(file, node.arguments[0].value);
      skip.add(node.arguments[0]);
      if (have.has(p)) edits.push({ start: node.start, end: node.end, text: `new URL(${asset(p)})`, path: p });
    } else if (isString(node) && !skip.has(node) && /\.css$/.test(node.value) && pageRelative(node.value)) {
      const importSource = parent && /^(?:Import|ExportNamed|ExportAll)Declaration$|^ImportExpression$/.test(parent.type) && parent.source === node;
      const key = parent && parent.type === 'Property' && parent.key === node && !parent.computed;
      const p = resolveRel('index.html', node.value);
      if (!importSource && !key && have.has(p)) edits.push({ start: node.start, end: node.end, text: asset(p), path: p });
    } else if (have.size && node.type === 'TemplateLiteral' && node.expressions.length && /\.css$/.test(node.quasis.at(-1).value.cooked ?? '')) {
      throw new Error(`${file}: a stylesheet named by a template (offset ${node.start}) cannot be bundled; name it by a string`);
    }
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (Array.isArray(v)) for (const c of v) visit(c, node);
      else if (v && typeof v.type === 'string') visit(v, node);
    }
  };
  visit(ast, null);
  return edits;
}

/** `src` with `edits` applied (they must not overlap). */
function applyEdits(src, edits) {
  let text = '';
  let k = 0;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    if (e.start < k) throw new Error(`overlapping rewrites at ${e.start}`);
    text += src.slice(k, e.start) + e.text;
    k = e.end;
  }
  return text + src.slice(k);
}

/**
 * The source that esbuild reads for the module `file` of web/: `src` with the edits of
 * assetEdits (`have` as there); the files they name are added to the set `assets`.
 */
export function prepareModule(file, src, have = new Set(), assets = null) {
  const edits = assetEdits(file, src, have);
  for (const e of edits) if (e.path) assets?.add(e.path);
  return applyEdits(src, edits);
}

/**
 * An esbuild plugin for the modules of web/: `replace` maps a web/-relative path to the source
 * that stands for that module in this bundle (the widgets' own engine/index.js); with `have`, the
 * references of assetEdits become __qifAsset(...) calls, and the files they name are added to
 * the set `assets` (without `have`, only the comments are escaped).
 */
function webPlugin({ have = null, replace = {}, assets = null }) {
  return {
    name: 'qif-web',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, async (args) => {
        const file = webPath(args.path);
        if (file.startsWith('..')) return undefined; // not a file of web/
        const src = Object.hasOwn(replace, file) ? replace[file] : await readFile(args.path, 'utf8');
        return { contents: prepareModule(file, src, have ?? undefined, assets), loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/**
 * Bundles `entry` (a web/-relative module, or {contents} of an entry module written here, read as
 * if it were web/index.js) into one script of `format` ('iife': a classic script; 'esm': a module).
 * `define` replaces expressions (import.meta.url in a classic script); `have` and `replace` as in
 * webPlugin, which fills `assets`. Returns the text, pure ASCII.
 */
export async function bundle(entry, { format, define = {}, have = null, replace = {}, assets = null, name = entry } = {}) {
  const result = await esbuild.build({
    ...(typeof entry === 'string'
      ? { entryPoints: [path.join(WEB, entry)] }
      : { stdin: { contents: entry.contents, resolveDir: WEB, sourcefile: 'index.js', loader: 'js' } }),
    bundle: true,
    write: false,
    format,
    platform: 'browser',
    charset: 'ascii',
    legalComments: 'none',
    // web/package.json says "sideEffects": false for the npm package (its qif.js has none); the
    // page's modules do have them (app.js is imported for them), so the annotation is not read here.
    ignoreAnnotations: true,
    define,
    // qif.js reads a file with node:fs/promises when it runs under Node: never in these builds.
    external: ['node:*'],
    logLevel: 'silent',
    plugins: [webPlugin({ have, replace, assets })],
  });
  // A warning is a construct whose meaning the bundle may not keep (import.meta other than its url
  // in a classic script, a direct eval): refused, as errors are.
  const where = typeof name === 'string' ? name : 'bundle';
  if (result.warnings.length) {
    throw new Error(`${where}: ${result.warnings.map((w) => `${w.location ? `${w.location.file}:${w.location.line}: ` : ''}${w.text}`).join('; ')}`);
  }
  const text = result.outputFiles[0].text;
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`${where}: the bundle is not pure ASCII at offset ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 60), at + 10))} (a regular expression literal of web/ with a non-ASCII character? write it as \\u escape)`);
  return text;
}
