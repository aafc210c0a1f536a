// lib/row-names.js: the engine's own messages (0-based JS indices) as the page and the widgets show
// them — rows by label and by number from 1. The inputs are real messages of the API, the
// expected texts written out by hand.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { rowName, readerMessage } from '../../web/lib/row-names.js';

let qif;
before(async () => { qif = await load(); });

const messageOf = (f) => {
  try {
    f();
  } catch (e) {
    return e.message;
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
  const names = { channel: { rows: ['alice', 'bob'], cols: ['yes', 'no'] }, prior: { rows: ['alice', 'bob'] }, A: {} };
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
      /channel: ragged matrix: row 1 has 1 entries, row 0 has 2/,
      'measure.mutualInformation: channel: ragged matrix: row “bob” (row 2) has 1 entries, row 1 has 2'],
    [() => qif.refine.avg([[0.5, 0.4], [0, 1]], [[1], [1]]),
      /^refine\.avg: A: row 0 sums to 0\.9/,
      'refine.avg: A: row 1 sums to 0.9, expected 1'],
  ];
  for (const [f, api, shown] of cases) {
    const msg = messageOf(f);
    assert.match(msg, api, 'the API message is unchanged');
    assert.equal(readerMessage(msg, names), shown);
  }
});

test('an argument without names, or a message of another shape, is left as it is', () => {
  const msg = 'measure.mutualInformation: channel: row 1 sums to 1.1, expected 1';
  assert.equal(readerMessage(msg, { prior: { rows: ['a'] } }), msg);
  for (const m of ['lp: row 3 has unknown relation 9', 'prior: sums to 1.1, expected 1', 'graph: vertex 0 is out of range']) {
    assert.equal(readerMessage(m, { channel: {}, prior: {} }), m);
  }
});
