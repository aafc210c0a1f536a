// The classic scripts of the widgets are pure ASCII, so that a lesson of any encoding (one without
// <meta charset="utf-8"> is read as windows-1252) reads their text right. They are bundled by
// esbuild with charset 'ascii' (scripts/bundle-web.mjs), which escapes non-ASCII characters in
// strings, templates and identifiers but keeps two kinds of text as written, because an escape
// there would change what the program sees: a regular expression literal (its .source) and the
// raw text of a tagged template (String.raw). So the modules of web/ write no non-ASCII character
// in those two places (they use \u escapes in regular expressions). Checked here:
//   - the bundler's escapes keep the meaning: each snippet is run as written and as transformed
//     (prepareModule of scripts/bundle-web.mjs, then esbuild), after its regular expressions were
//     escaped as the sources do, and the results compared (strings,
//     templates, regular expressions with and without the u flag, a character beyond U+FFFF,
//     identity escapes, an identifier, comments), and the transformed text is pure ASCII;
//   - no regular expression literal or tagged template of web/ holds a non-ASCII character, found
//     with acorn's parser (which tells a regular expression from a division);
//   - the built bundles (dist/ and their web/ copies, scripts/build.sh) and page/embed-frame.js,
//     byte by byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, access } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import * as acorn from 'acorn';
import { prepareModule } from '../../scripts/bundle-web.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const isAscii = (text) => !/[^\x00-\x7f]/.test(text);
const hex = (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Where `src` (a module) holds non-ASCII text that esbuild keeps as written: regular expression
 * literals (acorn's tokens) and tagged templates (its syntax tree), as [{kind, start, end, text}].
 */
function keptAsWritten(src) {
  const found = [];
  const ast = acorn.parse(src, {
    ecmaVersion: 'latest',
    sourceType: 'module',
    onToken: (t) => {
      if (t.type === acorn.tokTypes.regexp && !isAscii(src.slice(t.start, t.end))) found.push({ kind: 'regular expression', start: t.start, end: t.end, text: src.slice(t.start, t.end) });
    },
  });
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'TaggedTemplateExpression' && !isAscii(src.slice(node.quasi.start, node.quasi.end))) {
      found.push({ kind: 'tagged template', start: node.start, end: node.end, text: src.slice(node.start, node.end) });
    }
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v.type === 'string') visit(v);
    }
  };
  visit(ast);
  return found;
}

// The sources' rule, applied to a snippet: each non-ASCII UTF-16 code unit of a regular expression
// literal becomes \uXXXX (a character beyond U+FFFF its surrogate pair; with the u flag an escaped
// pair is one code point).
function escapeRegExps(src) {
  let out = src;
  for (const r of keptAsWritten(src).filter((x) => x.kind === 'regular expression').reverse()) {
    out = out.slice(0, r.start) + r.text.replace(/[^\x00-\x7f]/g, hex) + out.slice(r.end);
  }
  return out;
}

// Each snippet is the body of a function returning a JSON-able value.
const SNIPPETS = {
  string: `return 'Rows: secrets · columns' + "−Σ" + '…';`,
  identityEscape: `return '\\é' + "\\·";`,
  escapedBackslash: `return '\\\\é';`,
  template: 'const n = 2; return `${n}×${n} · π ≥ ${"ε"}`;',
  templateIdentity: 'return `a\\·b`;',
  regex: `return [/[−–]\\s*(\\d)/.exec('– 5')[1], /^π$/.test('π'), /[^·]/.test('·'), 'a×b'.split(/×/)];`,
  regexUnicode: `return [/^[−–]$/u.test('–'), /^😀$/u.test('😀'), /^[😀]$/u.test('😀'), /^.$/u.test('😀'), 'a😀b'.split(/😀/u)];`,
  regexAstralNoU: `return [/^😀$/.test('😀'), /^[😀]$/.test('😀'), /😀+/.exec('😀😀')[0].length];`,
  astralString: `return ['😀'.length, '😀'.codePointAt(0), [...'x😀y'].length];`,
  identifier: `const café = 'crème'; return café + café.length;`,
  comments: `// π · Σ
  /* ε − δ */ return { /* kept by esbuild: ∞ */ a: 1 };`,
  lineSeparatorInString: `return '\u2028'.charCodeAt(0);`,
};

for (const [name, body] of Object.entries(SNIPPETS)) {
  test(`escapes keep the meaning: ${name}`, async () => {
    assert.ok(!isAscii(body), `${name}: the snippet itself has non-ASCII text to escape`);
    const wrapped = `function snippet() {\n${body}\n}`;
    const source = escapeRegExps(wrapped);
    assert.deepEqual(keptAsWritten(source), [], `${name}: the escaped source follows the rule`);
    // What the bundler does with a module (scripts/bundle-web.mjs): its comments escaped (esbuild
    // keeps those inside an object literal as written), then esbuild's ASCII output.
    const { code: out } = await esbuild.transform(prepareModule('snippet.js', source), { charset: 'ascii' });
    assert.ok(isAscii(out), `${name}: ${out}`);
    // eslint-disable-next-line no-new-func
    const run = (src) => JSON.stringify(new Function(`${src}\nreturn snippet();`)());
    assert.equal(run(out), run(wrapped), `${name}: ${out}`);
  });
}

test('the scan finds regular expressions and tagged templates, not divisions or strings', () => {
  const src = 'const a = 6, b = 2, g = 1;\nconst q = a / b / g; const s = "é / ü";\nconst r = /é/; const t = String.raw`ü`; const u = `ö`;\nexport { q, s, r, t, u };';
  assert.deepEqual(keptAsWritten(src).map((x) => [x.kind, x.text]), [['regular expression', '/é/'], ['tagged template', 'String.raw`ü`']]);
  assert.equal(escapeRegExps('const r = /[é😀]/u;'), 'const r = /[\\u00E9\\uD83D\\uDE00]/u;');
});

test('no regular expression literal or tagged template of web/ holds a non-ASCII character', async () => {
  const files = execFileSync('git', ['ls-files', 'web'], { cwd: ROOT, encoding: 'utf8' }).split('\n')
    .filter((f) => /\.m?js$/.test(f) && !f.startsWith('web/vendor/'));
  assert.ok(files.length > 50, `${files.length} modules found`);
  const bad = [];
  for (const f of files) {
    const src = await readFile(path.join(ROOT, f), 'utf8');
    for (const x of keptAsWritten(src)) bad.push(`${f}: ${x.kind} ${x.text.slice(0, 60)}`);
  }
  assert.deepEqual(bad, [], 'write these characters as \\u escapes (a regular expression) or outside the template');
});

test('the built widget bundles and page/embed-frame.js are pure ASCII', async (t) => {
  const names = ['qif-widgets.js', 'qif-widgets-more.js', 'qif-widgets-exact.js'];
  const built = await access(path.join(ROOT, 'dist', names[0])).then(() => true, () => false);
  if (!built) {
    // scripts/test.sh builds before this suite; a bare `node --test` without a build says why.
    t.skip('dist/qif-widgets.js is not built (scripts/build.sh)');
    return;
  }
  for (const file of [...names.flatMap((n) => [path.join('dist', n), path.join('web', n)]), path.join('web', 'page', 'embed-frame.js')]) {
    const bytes = await readFile(path.join(ROOT, file));
    const at = bytes.findIndex((b) => b > 0x7f);
    assert.equal(at, -1, `${file}: a byte above 0x7F at offset ${at}: ${bytes.subarray(Math.max(0, at - 40), at + 10).toString('latin1')}`);
  }
  // The escapes stand for the symbols the widgets show (esbuild writes U+00B7 as \xB7).
  const text = await readFile(path.join(ROOT, 'dist', names[0]), 'utf8');
  assert.match(text, /Rows: secrets \\(?:xB7|u00B7) columns/, 'the caption of the channel, its middle dot escaped');
});
