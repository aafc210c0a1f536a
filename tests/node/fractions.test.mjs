// The page's exact reader (web/input/number.js) against the number vectors the engine's reader
// is tested with too (testdata/fractions.json, read by core/exact's Go test): the page reads
// every case to the stated fraction or refuses it, and what it sends the engine (rationalText)
// is a text the engine's grammar accepts with the same value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseRational, rationalText } from '../../web/input/number.js';

const { cases } = JSON.parse(readFileSync(new URL('../../testdata/fractions.json', import.meta.url), 'utf8'));

// The engine's grammar (exact.Parse): [sign] decimal, optionally "/" unsigned decimal.
const ENGINE = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?(\s*\/\s*(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)?\s*$/;

test('the shared vectors are read by the page as stated', () => {
  assert.ok(cases.length >= 20);
  for (const c of cases) {
    const f = parseRational(c.text);
    if (c.value === null) {
      assert.equal(f, null, `${JSON.stringify(c.text)} read as ${f && `${f.n}/${f.d}`}`);
      continue;
    }
    assert.ok(f, `${JSON.stringify(c.text)} not read`);
    const got = f.d === 1n ? String(f.n) : `${f.n}/${f.d}`;
    assert.equal(got, c.value, c.text);
  }
});

test('what the page sends the engine is in the engine grammar, and the engine flag matches it', () => {
  for (const c of cases) {
    if (c.value !== null) assert.match(rationalText(c.text), ENGINE, `rationalText(${JSON.stringify(c.text)})`);
    assert.equal(ENGINE.test(c.text) && !/\/\s*0*(\.0*)?\s*$/.test(c.text), c.engine, `engine flag of ${JSON.stringify(c.text)}`);
  }
});
