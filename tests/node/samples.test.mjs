// input/samples.js: tables of samples from CSV/TSV text — separators, headers, numeric and label
// columns, and errors that name the line.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readSamples, MAX_SAMPLES } from '../../web/input/samples.js';

test('numbers: a header, comma-separated, vector observations', () => {
  const r = readSamples('secret,t1,t2\n0,1.5,2\n1,-3e2,.5\n');
  assert.deepEqual(r.header, ['secret', 't1', 't2']);
  assert.equal(r.rows, 2);
  assert.ok(r.secrets instanceof Int32Array, 'integer secrets as an Int32Array');
  assert.deepEqual([...r.secrets], [0, 1]);
  assert.ok(readSamples('0.5,1\n2,3').secrets instanceof Float64Array);
  assert.deepEqual(r.observations.rows, 2);
  assert.deepEqual(r.observations.cols, 2);
  assert.deepEqual([...r.observations.data], [1.5, 2, -300, 0.5]);
});

test('labels: tabs, no header, strings joined into one label per sample', () => {
  const r = readSamples('alice\tslow\tok\r\nbob\tfast\tok\r\n');
  assert.equal(r.header, null);
  assert.deepEqual(r.secretNames, ['alice', 'bob']);
  assert.deepEqual([...r.secrets], [0, 1]);
  assert.deepEqual(r.observationNames, ['fast, ok', 'slow, ok']);
  assert.deepEqual([...r.observations], [1, 0]);
  const s = readSamples('x;o\na;1\nb;2');
  assert.deepEqual(s.header, ['x', 'o']);
  assert.deepEqual(s.secretNames, ['a', 'b']);
  assert.deepEqual([...s.observations.data], [1, 2]);
});

test('errors name the line', () => {
  assert.match(readSamples('0,1\n1,2,3\n').error, /^line 2: 3 columns, expected 2$/);
  assert.match(readSamples('s,o\n0,1\n1,\n').error, /^line 3, column 2: empty cell$/);
  assert.match(readSamples('0,1\n\n1,2\n').error, /^line 2: empty line inside the table$/);
  assert.match(readSamples('0\n1\n').error, /^line 1: 1 column, expected a secret and at least one observation/);
  assert.match(readSamples('\n\n').error, /empty/);
  assert.ok(MAX_SAMPLES === 1_000_000);
});

test('a million lines read in one pass', () => {
  const lines = ['secret,time'];
  for (let i = 0; i < 1_000_000; i++) lines.push(`${i % 2},${(100 + (i % 97) / 10).toFixed(1)}`);
  let last = 0;
  const r = readSamples(lines.join('\n'), { onProgress: (f) => { last = f; } });
  assert.equal(r.rows, 1_000_000);
  assert.equal(r.observations.data.length, 1_000_000);
  assert.ok(last > 0.9);
});

test('quoted fields and decimal commas, as comma-decimal spreadsheets write them', () => {
  // Quoted cells hold the separator; "" is one quote; the header is still recognised.
  const q = readSamples('"city, district",obs\n"Paris, 1st","a ""b"""\n"Lyon, 2nd",c\n');
  assert.equal(q.header, null, 'no numeric column under the first line: it is a sample');
  assert.deepEqual(q.secretNames, ['Lyon, 2nd', 'Paris, 1st', 'city, district']);
  assert.deepEqual(q.observationNames, ['a "b"', 'c', 'obs']);
  assert.equal(q.decimalComma, false);
  const h = readSamples('"city, district",km\n"Paris, 1st",2\n"Lyon, 2nd",3\n');
  assert.deepEqual(h.header, ['city, district', 'km']);
  assert.deepEqual([...h.observations.data], [2, 3]);
  // "0,5" quoted in a comma-separated file and 0,25 unquoted in a semicolon-separated one are
  // numbers (one half, one quarter), not labels, and the result says a decimal comma was read.
  const c = readSamples('"1","0,5"\n"2","-1,25"\n');
  assert.deepEqual([...c.observations.data], [0.5, -1.25]);
  assert.equal(c.decimalComma, true);
  const s = readSamples('s;t\n1;0,25\n2;3\n');
  assert.deepEqual([...s.observations.data], [0.25, 3]);
  assert.equal(s.decimalComma, true);
  assert.equal(readSamples('1,2\n3,4\n').decimalComma, false);
  assert.match(readSamples('a,"b\nc,d\n').error, /^line 1: a quote opens a field and does not close on the same line$/);
});
