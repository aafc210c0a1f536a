// The build's rewriting of the modules it bundles (scripts/bundle-web.mjs, run by the single-file
// and widget builds): the references to files that are not imports become __qifAsset calls, found
// on acorn's syntax tree, so that the same text inside a string, a comment, a regular expression
// or an import is left alone; comments lose their non-ASCII characters to escapes. The expected
// texts are written out here by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareModule, assetEdits, resolveRel } from '../../scripts/bundle-web.mjs';

const HAVE = new Set(['engine/worker.js', 'qif.wasm', 'program-examples.json', 'sections/geo/style.css', 'vendor/katex/katex.min.css']);

test('new URL of a file beside the module becomes the bundle\'s copy; others stay', () => {
  const assets = new Set();
  const src = [
    "const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });",
    "const wasm = new URL('../qif.wasm', import.meta.url);",
    "const root = new URL('../', import.meta.url);",
    "const other = new URL('./missing.js', import.meta.url);",
    "const page = new URL('./worker.js', document.baseURI);",
  ].join('\n');
  assert.equal(prepareModule('engine/start.js', src, HAVE, assets), [
    'const w = new Worker(new URL(__qifAsset("engine/worker.js")), { type: \'module\' });',
    'const wasm = new URL(__qifAsset("qif.wasm"));',
    "const root = new URL('../', import.meta.url);",
    "const other = new URL('./missing.js', import.meta.url);",
    "const page = new URL('./worker.js', document.baseURI);",
  ].join('\n'));
  assert.deepEqual([...assets].sort(), ['engine/worker.js', 'qif.wasm']);
});

test('a stylesheet named by a string is the bundle\'s copy; the same text elsewhere is not', () => {
  const src = [
    "import { h } from '../../lib/dom.js';",
    "addStylesheet('sections/geo/style.css', 'geo');",
    "const names = { 'sections/geo/style.css': 1 };",
    "// addStylesheet('sections/geo/style.css')",
    "const re = /sections\\/geo\\/style.css/;",
    "const t = `sections/geo/style.css`;",
    "addStylesheet('sections/none/style.css', 'none');",
  ].join('\n');
  const out = prepareModule('sections/geo/view.js', src, HAVE);
  assert.equal(out.split('\n')[1], 'addStylesheet(__qifAsset("sections/geo/style.css"), \'geo\');');
  assert.deepEqual(out.split('\n').filter((_, i) => i !== 1), src.split('\n').filter((_, i) => i !== 1));
  assert.throws(() => assetEdits('sections/x/view.js', 'addStylesheet(`sections/${name}/style.css`);', HAVE), /sections\/x\/view\.js: a stylesheet named by a template/);
  // Without files to stand for, nothing is refused (the widget bundle's page side).
  assert.deepEqual(assetEdits('x.js', 'f(`a/${b}.css`);', new Set()), []);
});

test('non-ASCII characters of comments become escapes; code is left to esbuild', () => {
  const src = "// π · Σ\nconst o = { /* ε − δ */ a: 'é' };";
  assert.equal(prepareModule('x.js', src), "// \\u03C0 \\u00B7 \\u03A3\nconst o = { /* \\u03B5 \\u2212 \\u03B4 */ a: 'é' };");
});

test('references resolve against the referring module', () => {
  assert.equal(resolveRel('sections/channel/program-view.js', '../../program-examples.json'), 'program-examples.json');
  assert.equal(resolveRel('engine/worker.js', '../qif.wasm'), 'qif.wasm');
  assert.equal(resolveRel('index.html', 'sections/geo/style.css'), 'sections/geo/style.css');
});
