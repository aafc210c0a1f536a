// lib/row-names.js: the engine's own messages (0-based JS indices) as the page and the widgets show
// them — rows by label and by number from 1. The inputs are real messages of the API, the
// expected texts written out by hand.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { rowName, readerMessage } from '../../web/lib/row-names.js';

let qif;
before(async () => { qif = await load(); });

const errorOf = (f) => {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail('expected an error');
};

test('rowName: label and number from 1, or the number alone', () => {
  assert.equal(rowName(2, 'x3'), 'row “x3” (row 3)');
  assert.equal(rowName(0, ''), 'row 1');
  assert.equal(rowName(0, undefined, 'column'), 'column 1');
  assert.equal(rowName(9, 'OK', 'entry'), 'entry “OK” (entry 10)');
});

test('the API keeps its 0-based indices; readerMessage names rows as the reader sees them', () => {
  // A matrix has column labels (here none for A: its rows are counted), a vector has none.
  const names = { channel: { rows: ['alice', 'bob'], cols: ['yes', 'no'] }, prior: { rows: ['alice', 'bob'] }, A: { cols: [] } };
  const M = qif.measure;
  const cases = [
    [() => M.mutualInformation([0.5, 0.5], [[1, 0], [0.5, 0.6]]),
      /^measure\.mutualInformation: channel: row 1 sums to 1\.1, expected 1$/,
      'measure.mutualInformation: channel: row “bob” (row 2) sums to 1.1, expected 1'],
    [() => M.mutualInformation([0.5, 0.5], [[1, 0], [-0.25, 1.25]]),
      /channel: entry \[1\]\[0\] is negative/,
      'measure.mutualInformation: channel: the entry in row “bob” (row 2), column “yes” (column 1) is negative (-0.25)'],
    [() => M.mutualInformation([1.5, -0.5], [[1, 0], [0, 1]]),
      /prior: entry 1 is negative/,
      'measure.mutualInformation: prior: entry “bob” (entry 2) is negative (-0.5)'],
    [() => M.mutualInformation([0.5, 0.5], [[1, 0], [1]]),
      /channel: ragged matrix: row 1 has 1 entries where the first row has 2/,
      'measure.mutualInformation: channel: row “bob” (row 2) has 1 entries where the first row has 2'],
    [() => qif.refine.avg([[0.5, 0.4], [0, 1]], [[1], [1]]),
      /^refine\.avg: A: row 0 sums to 0\.9/,
      'refine.avg: A: row 1 sums to 0.9, expected 1'],
  ];
  for (const [f, api, shown] of cases) {
    const e = errorOf(f);
    assert.match(e.message, api, 'the API message is unchanged');
    assert.equal(readerMessage(e, names), shown);
    // What the worker sends the page, {ok: false, error, argument, index, detail}, reads the same;
    // the message alone, without the data, is shown as the API wrote it (it is never parsed).
    assert.equal(readerMessage({ ok: false, error: e.message, argument: e.argument, index: e.index, detail: e.detail }, names), shown);
    assert.equal(readerMessage(e.message, names), e.message);
  }
});

test('an argument without names, or an error without a position, is left as it is', () => {
  const e = errorOf(() => qif.measure.mutualInformation([0.5, 0.5], [[1, 0], [0.5, 0.6]]));
  assert.equal(readerMessage(e, { prior: { rows: ['a'] } }), e.message);
  const whole = errorOf(() => qif.measure.mutualInformation([0.5, 0.6], [[1, 0], [0, 1]]));
  assert.equal(whole.argument, 'prior');
  assert.equal(whole.index, undefined);
  assert.equal(readerMessage(whole, { prior: { rows: ['a', 'b'] } }), whole.message);
  for (const m of ['lp: row 3 has unknown relation 9', 'prior: sums to 1.1, expected 1', 'graph: vertex 0 is out of range']) {
    assert.equal(readerMessage(m, { channel: {}, prior: {} }), m);
  }
});
