// The page's exact reader (web/input/number.js) against the number vectors the engine's reader
// is tested with too (testdata/fractions.json, read by core/exact's Go test): the page reads
// every case to the stated fraction or refuses it, and what it sends the engine (rationalText)
// is a text of the engine's grammar with the same value. The grammar is not restated here: it is
// the one generated from core/exact/grammar.go into api.gen.js, which the page's reader builds its
// number tokens from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseRational, rationalText, parseNumber } from '../../web/input/number.js';
import { API } from '../../web/api.gen.js';

const { cases } = JSON.parse(readFileSync(new URL('../../testdata/fractions.json', import.meta.url), 'utf8'));
const ENGINE = new RegExp(`^${API.number.fraction}$`);
const DECIMAL = new RegExp(`^${API.number.decimal}$`);
const show = (f) => (f.d === 1n ? String(f.n) : `${f.n}/${f.d}`);

test('the shared vectors are read by the page as stated', () => {
  assert.ok(cases.length >= 60);
  for (const c of cases) {
    const f = parseRational(c.text, c.options);
    if (c.value === null) {
      assert.equal(f, null, `${JSON.stringify(c.text)} read as ${f && show(f)}`);
      continue;
    }
    assert.ok(f, `${JSON.stringify(c.text)} not read`);
    assert.equal(show(f), c.value, c.text);
    // The floating-point reading of the same text is the fraction, to rounding.
    const x = parseNumber(c.text, c.options).value;
    const q = Number(f.n) / Number(f.d);
    assert.ok(Math.abs(x - q) <= 1e-15 * Math.abs(q), `${c.text}: ${x} against ${q}`);
  }
});

test('what the page sends the engine is in the engine grammar, and the engine flag agrees with it', () => {
  for (const c of cases) {
    const sent = rationalText(c.text, c.options);
    if (c.value !== null) {
      assert.match(sent, ENGINE, `rationalText(${JSON.stringify(c.text)})`);
      assert.ok(sent.length <= API.number.maxLength);
    }
    // Every text the engine reads is of its grammar; a text outside it is refused.
    if (c.engine) assert.match(c.text.trim(), ENGINE, `engine flag of ${JSON.stringify(c.text)}`);
    if (!ENGINE.test(c.text.trim())) assert.equal(c.engine, false, `engine flag of ${JSON.stringify(c.text)}`);
  }
});

test('the generated grammar: its decimals are the page\'s numbers, its limits bound what the page sends', () => {
  assert.equal(API.number.maxLength, 10000);
  assert.equal(API.number.maxExponent, 10000);
  for (const s of ['0', '12', '0.5', '.5', '5.', '1e3', '1.5E-2', '2.e+1']) {
    assert.match(s, DECIMAL);
    assert.ok('value' in parseNumber(s), s);
  }
  for (const s of ['.', 'e1', '1e', '1.2.3', '0x1', '1_000']) {
    assert.doesNotMatch(s, DECIMAL);
    assert.ok('error' in parseNumber(s), s);
  }
  // 10^3600 is 3601 characters, within the engine's limit; 10^10800, by a power or by a product,
  // is not, and the page does not call it exact (it never sends the engine a number it refuses).
  assert.equal(rationalText('(10^60)^60'), `1${'0'.repeat(3600)}`);
  assert.equal(parseRational('((10^60)^60)^3'), null);
  assert.equal(parseRational('(10^60)^60 * (10^60)^60 * (10^60)^60'), null);
  assert.equal(parseRational('1/((10^60)^60 * (10^60)^60 * (10^60)^60)'), null);
  assert.equal(rationalText(`${'9'.repeat(170)}^60`), null, 'refused before the power is computed');
});
