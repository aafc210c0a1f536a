// The classic scripts of the widgets are pure ASCII, so that a lesson of any encoding (one without
// <meta charset="utf-8"> is read as windows-1252) reads their text right; scripts/ascii.mjs makes
// them so. Its escapes are checked here against the meaning of the text they replace: each snippet
// is run as written and as escaped, and the results compared (strings, templates, regular
// expressions with and without the u flag, a character beyond U+FFFF, identity escapes, an
// identifier, comments); the cases no escape can keep are refused. Then the built bundles (dist/
// and their web/ copies, scripts/build.sh) and page/embed-frame.js are checked byte by byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, access } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asciiScript, isAscii } from '../../scripts/ascii.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Each snippet is the body of a function returning a JSON-able value.
const SNIPPETS = {
  string: `return 'Rows: secrets · columns' + "−Σ" + '…';`,
  identityEscape: `return '\\é' + "\\·";`,
  escapedBackslash: `return '\\\\é';`,
  template: 'const n = 2; return `${n}×${n} · π ≥ ${"ε"}`;',
  templateIdentity: 'return `a\\·b`;',
  regex: `return [/[−–]\\s*(\\d)/.exec('– 5')[1], /^π$/.test('π'), /\\−/.test('−'), /[^·]/.test('·')];`,
  regexUnicode: `return [/^[−–]$/u.test('–'), /^😀$/u.test('😀'), /^[😀]$/u.test('😀'), /^.$/u.test('😀'), 'a😀b'.split(/😀/u)];`,
  regexAstralNoU: `return [/^😀$/.test('😀'), /^[😀]$/.test('😀'), /😀+/.exec('😀😀')[0].length];`,
  astralString: `return ['😀'.length, '😀'.codePointAt(0), [...'x😀y'].length];`,
  identifier: `const café = 'crème'; return café + café.length;`,
  comments: `// π · Σ
  /* ε − δ */ return 1;`,
  lineSeparatorInString: `return '\u2028'.charCodeAt(0);`,
};

for (const [name, body] of Object.entries(SNIPPETS)) {
  test(`escapes keep the meaning: ${name}`, () => {
    const escaped = asciiScript(body, name);
    assert.ok(isAscii(escaped), `${name}: ${escaped}`);
    assert.ok(!isAscii(body), `${name}: the snippet itself has non-ASCII text to escape`);
    // eslint-disable-next-line no-new-func
    const run = (src) => JSON.stringify(new Function(src)());
    assert.equal(run(escaped), run(body), `${name}: ${escaped}`);
  });
}

test('what no escape keeps is refused', () => {
  assert.throws(() => asciiScript('const t = String.raw`π`;', 'raw'), /raw: String\.raw`π…` holds non-ASCII/);
  // The same raw template in ASCII passes, and so does non-ASCII elsewhere in the file.
  assert.equal(asciiScript('const t = String.raw`\\pi`; const s = "π";'), 'const t = String.raw`\\pi`; const s = "\\u03C0";');
  assert.throws(() => asciiScript("const s = 'a\\\u2028b';", 'ls'), /ls: a backslash before U\+2028/);
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
  // The escapes stand for the symbols the widgets show.
  const text = await readFile(path.join(ROOT, 'dist', names[0]), 'utf8');
  assert.ok(text.includes('Rows: secrets \\u00B7 columns'), 'the caption of the channel, its middle dot escaped');
});
