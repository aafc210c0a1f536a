// The one input grammar (web/input/): numbers, ln expressions, decimal commas, pastes from
// spreadsheets, literals of widgets. Expected values are written from the mathematics (ln 2 / 5
// is Math.log(2) / 5), never from the module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseNumber, parseRational, parseInteger, parseBounded, isNumber, parseExpRational, rationalText,
  splitDelimited, parseGrid, readMatrix, parseMatrixLiteral, parseVectorLiteral, parseIndexList, parseLabels,
  rationalVector, rationalMatrix,
} from '../../web/input/index.js';

const value = (t, o) => {
  const r = parseNumber(t, o);
  assert.ok('value' in r, `${JSON.stringify(t)} should parse, got ${JSON.stringify(r)}`);
  return r.value;
};
const error = (t, o) => {
  const r = parseNumber(t, o);
  assert.ok('error' in r, `${JSON.stringify(t)} should be refused, got ${JSON.stringify(r)}`);
  return r.error;
};
const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-15 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

test('decimals, fractions, signs and the typographic minus', () => {
  assert.equal(value('0.25'), 0.25);
  assert.equal(value(' .5 '), 0.5);
  assert.equal(value('2.5e-1'), 0.25);
  assert.equal(value('1E3'), 1000);
  assert.equal(value('+3'), 3);
  assert.equal(value('1/3'), 1 / 3);
  assert.equal(value('.5 / 2'), 0.25);
  assert.equal(value('−1/2'), -0.5); // U+2212
  assert.equal(value('-2 / 7'), -2 / 7);
  assert.equal(value('1/2/3'), 1 / 6, 'left-associative');
  close(value('1 - 1/3'), 2 / 3, '1 - 1/3');
  assert.equal(value('10^6'), 1e6);
  assert.equal(value('2^-3'), 0.125);
  assert.equal(value('-2^2'), -4, 'the power binds tighter than the sign');
  assert.equal(value('2·3'), 6);
  assert.equal(value('2 × 3'), 6);
  assert.equal(value(0.5), 0.5, 'a number passes through');
});

test('ln: one precedence, written down once', () => {
  // A function name binds tighter than / and *: (ln 2)/5, as on the page and in every widget.
  close(value('ln 2 / 5'), Math.log(2) / 5, 'ln 2 / 5');
  close(value('ln 2/5'), Math.log(2) / 5, 'ln 2/5');
  close(value('ln(2/5)'), Math.log(2 / 5), 'ln(2/5)');
  close(value('ln (3/2)'), Math.log(1.5), 'ln (3/2)');
  close(value('2 ln 2'), 2 * Math.log(2), '2 ln 2');
  close(value('2ln2'), 2 * Math.log(2), '2ln2');
  close(value('1/2 ln 3'), Math.log(3) / 2, '1/2 ln 3');
  close(value('LN 2'), Math.log(2), 'case');
  close(value('ln 2^3'), Math.log(8), 'ln 2^3 = ln 8');
  close(value('−ln 2'), -Math.log(2), 'minus ln 2');
  close(value('ln 2 ln 3'), Math.log(2) * Math.log(3), 'ln 2 ln 3');
  assert.match(error('ln 0'), /positive/);
  assert.match(error('ln -2'), /positive/);
  assert.match(error('ln'), /incomplete/);
});

test('log is refused everywhere, with the reason', () => {
  for (const t of ['log 2', 'log(2)', 'LOG 2', '2 log 2', 'log2 8', 'log10 100']) {
    assert.match(error(t), /ambiguous.*write ln/, t);
  }
});

test('what is not a number says so', () => {
  assert.equal(error('abc'), 'not a number');
  assert.equal(error('<img src=x>'), 'not a number');
  assert.equal(error('<b>1/2</b>'), 'not a number');
  assert.equal(error('2 3'), 'not a number', 'two bare numbers never multiply');
  assert.equal(error('1/0'), 'division by zero');
  assert.equal(error(''), 'empty');
  assert.equal(error('   '), 'empty');
  assert.equal(error(null), 'empty');
  assert.equal(error('(1/2'), 'unbalanced parentheses');
  assert.equal(error('1/2)'), 'unbalanced parentheses');
  assert.equal(error('1/'), 'incomplete expression');
  assert.equal(error('1e999'), 'not a finite number');
  assert.equal(error('10^400'), 'not a finite number');
  assert.equal(error(NaN), 'not a finite number');
  assert.equal(error('x'.repeat(300)), 'too long for a number');
  assert.equal(isNumber('1/3'), true);
  assert.equal(isNumber('s1'), false);
});

test('infinity only where asked for', () => {
  assert.match(error('∞'), /not allowed/);
  assert.equal(value('∞', { infinity: true }), Infinity);
  assert.equal(value('inf', { infinity: true }), Infinity);
  assert.equal(value('Infinity', { infinity: true }), Infinity);
  assert.equal(value(Infinity, { infinity: true }), Infinity);
});

test('decimal commas: refused with a message that names them, or read where the caller knows', () => {
  assert.match(error('0,5'), /decimal comma.*0\.5/);
  assert.match(error('−1,25'), /decimal comma/);
  assert.equal(value('0,5', { decimalComma: true }), 0.5);
  assert.equal(value('1/2', { decimalComma: true }), 0.5);
  assert.match(error('1.000,5', { decimalComma: true }), /both a decimal point and a decimal comma/);
});

const nd = (q) => [q.n, q.d];

test('exact rational readings', () => {
  assert.deepEqual(nd(parseRational('1/3')), [1n, 3n]);
  assert.deepEqual(nd(parseRational('0.25')), [1n, 4n]);
  assert.deepEqual(nd(parseRational('−2/4')), [-1n, 2n]);
  assert.deepEqual(nd(parseRational('2.5e-1')), [1n, 4n]);
  assert.deepEqual(nd(parseRational('1 - 1/3')), [2n, 3n]);
  assert.deepEqual(nd(parseRational('2^-3')), [1n, 8n]);
  assert.deepEqual(nd(parseRational('3')), [3n, 1n]);
  assert.equal(parseRational('ln 2'), null);
  assert.equal(parseRational('1e-100'), null, 'beyond 10^±60 is not simple');
  assert.equal(parseRational('1/0'), null);
  assert.equal(parseRational('abc'), null);
});

test('the exact text the exact mode gets: what was typed, never a float', () => {
  assert.equal(rationalText('1/3'), '1/3');
  assert.equal(rationalText('0.1'), '1/10');
  assert.equal(rationalText('6/3'), '2');
  assert.equal(rationalText('−0.5'), '-1/2');
  assert.equal(rationalText('0.3333333333333333'), '3333333333333333/10000000000000000', 'sixteen 3s are not 1/3');
  assert.equal(rationalText('ln 2'), null);
  assert.deepEqual(rationalVector(['1/2', '0.25', '1/4']), ['1/2', '1/4', '1/4']);
  assert.equal(rationalVector(['1/2', 'ln 2']), null);
  assert.deepEqual(rationalMatrix([['1', '0'], ['0.5', '1/2']]), [['1', '0'], ['1/2', '1/2']]);
  assert.equal(rationalMatrix([['1', '0'], ['x', '1']]), null);
});

test('e^ε exactly, when ε is typed as a whole multiple of logarithms of fractions', () => {
  // Each expected e^ε is checked against Math.exp of the number the same text reads as.
  const cases = [['ln 2', 2n, 1n], ['ln(3/2)', 3n, 2n], ['2 ln 2', 4n, 1n], ['ln 3 − ln 2', 3n, 2n], ['−ln 2', 1n, 2n],
    ['ln 8 / 3', 2n, 1n], ['ln 4 / 2', 2n, 1n], ['2·ln(3/2)', 9n, 4n], ['ln 2^3', 8n, 1n], ['ln(1.5)', 3n, 2n], ['0', 1n, 1n], ['ln 6 + ln(1/3)', 2n, 1n]];
  for (const [t, n, d] of cases) {
    assert.deepEqual(nd(parseExpRational(t)), [n, d], t);
    close(Math.exp(value(t)), Number(n) / Number(d), `e^(${t})`);
  }
  // Not rational, or not in a form this reader decides: ln 2 / 5 = ln 2^(1/5), 1, a decimal of ln 2.
  for (const t of ['ln 2 / 5', '1', '0.6931471805599453', 'ln 2 + 1', 'ln(2) / 2', '(ln 2)^2', 'ln 0', 'ln(−1)', 'abc', '', 'ln 2 / 0']) {
    assert.equal(parseExpRational(t), null, t);
  }
});

test('integers and bounds', () => {
  assert.deepEqual(parseInteger('12'), { value: 12 });
  assert.deepEqual(parseInteger('1e6'), { value: 1e6 });
  assert.deepEqual(parseInteger('10^9', { max: 1e15 }), { value: 1e9 });
  assert.match(parseInteger('2.5', { what: 'n' }).error, /^n: must be a whole number/);
  assert.match(parseInteger('1', { min: 2, what: 'v' }).error, /^v: must be at least 2/);
  assert.match(parseInteger('100', { max: 64, what: 'u' }).error, /^u: must be at most 64/);
  assert.match(parseInteger('', { what: 'n' }).error, /^n: required/);
  assert.deepEqual(parseBounded('ln 2', { min: 0, minOpen: true, what: 'ε' }), { value: Math.log(2) });
  assert.equal(parseBounded('0', { min: 0, minOpen: true, what: 'ε' }).error, 'ε must be > 0');
  assert.equal(parseBounded('2', { max: 1, what: 'δ' }).error, 'δ must be ≤ 1');
  assert.equal(parseBounded('', { what: 'δ' }).error, 'δ: required');
});

test('pastes: separators, quotes, line ends', () => {
  assert.deepEqual(splitDelimited('1\t0\n0.5\t0.5\n').rows, [['1', '0'], ['0.5', '0.5']]);
  assert.deepEqual(splitDelimited('1, 0\r\n1/2,1/2').rows, [['1', '0'], ['1/2', '1/2']]);
  assert.deepEqual(splitDelimited('1,0,0\n0.5,0.5,0').rows, [['1', '0', '0'], ['0.5', '0.5', '0']]);
  assert.deepEqual(splitDelimited('  1 0\n1/2   1/2').rows, [['1', '0'], ['1/2', '1/2']]);
  assert.deepEqual(splitDelimited('1;0\n0;1').rows, [['1', '0'], ['0', '1']]);
  // Quoted fields: separators and line breaks inside, "" for a quote.
  assert.deepEqual(splitDelimited('"a, b",1,0\n"say ""hi""\nthere",0,1\n').rows, [['a, b', '1', '0'], ['say "hi"\nthere', '0', '1']]);
  assert.deepEqual(splitDelimited('"x;y"\t1\n"z"\t0').rows, [['x;y', '1'], ['z', '0']]);
  assert.deepEqual(splitDelimited('"one two" 1 0\n"three"  0 1').rows, [['one two', '1', '0'], ['three', '0', '1']]);
  // A trailing separator on every line adds no column; a byte-order mark is dropped.
  assert.deepEqual(splitDelimited('\ufeff1\t0\t\n0\t1\t\n').rows, [['1', '0'], ['0', '1']]);
});

test('pastes: decimal commas read as halves or refused, never silently wrong', () => {
  // The example of the issue: 0,5 ⇥ 0,5 is two halves.
  const t = splitDelimited('0,5\t0,5');
  assert.deepEqual(t.rows, [['0.5', '0.5']]);
  assert.equal(t.decimalComma, true);
  assert.deepEqual(splitDelimited('0,25;0,75\n1;0').rows, [['0.25', '0.75'], ['1', '0']]);
  assert.deepEqual(splitDelimited('0,5 0,5\n1 0').rows, [['0.5', '0.5'], ['1', '0']]);
  // Where commas separate cells, a lone "0,5" or a field "05" cannot be told apart: refused.
  assert.match(splitDelimited('0,5').error, /decimal comma/);
  assert.match(splitDelimited('0,05,0,95').error, /decimal comma/);
  assert.match(splitDelimited('0,2\n0,3\n').error, /decimal comma/, 'a column of decimal commas');
  assert.match(splitDelimited('1,0\n0,1').error, /decimal comma/, 'ambiguous too: 1.0 and 0.1, or two values');
  assert.deepEqual(splitDelimited('1, 0\n0, 1').rows, [['1', '0'], ['0', '1']], 'a space after the comma: two values');
  // An ordinary CSV stays CSV.
  assert.deepEqual(splitDelimited('0.5,0.5\n1,0').rows, [['0.5', '0.5'], ['1', '0']]);
  assert.deepEqual(splitDelimited('1,0,0\n0,1,0').rows, [['1', '0', '0'], ['0', '1', '0']]);
  // A quoted decimal comma in a CSV (a spreadsheet in a comma-decimal locale writes its CSV so)
  // is that number, and said so; a quoted label stays a label.
  const q = splitDelimited('"0,5","0,5"');
  assert.deepEqual(q.rows, [['0.5', '0.5']]);
  assert.equal(q.decimalComma, true);
  const lq = parseGrid('"x","a","b"\n"r1","0,5","0,5"\n"r2","1","0"');
  assert.deepEqual([lq.cells, lq.rowLabels, lq.colLabels, lq.decimalComma], [[['0.5', '0.5'], ['1', '0']], ['r1', 'r2'], ['a', 'b'], true]);
  const lm = readMatrix('x,a,b\nr1,"0,25","0,75"\nr2,1,0');
  assert.deepEqual([Array.from(lm.data), lm.rowLabels, lm.colLabels, lm.decimalComma], [[0.25, 0.75, 1, 0], ['r1', 'r2'], ['a', 'b'], true]);
  assert.deepEqual(splitDelimited('"(Fail,1)",1').rows, [['(Fail,1)', '1']], 'a quoted label with a comma is a label');
  // "0,5, 0,1, 0,4": a comma and a space separate, a comma between digits is a decimal comma.
  const mixed = readMatrix('0,5, 0,1, 0,4\n1, 0, 0');
  assert.deepEqual([mixed.rows, mixed.cols, Array.from(mixed.data), mixed.decimalComma], [2, 3, [0.5, 0.1, 0.4, 1, 0, 0], true]);
  assert.deepEqual(splitDelimited('0,5, 0,1, 0,4').rows, [['0.5', '0.1', '0.4']]);
  // Uneven spaces in an ordinary CSV are not decimal commas.
  assert.deepEqual(splitDelimited('1, 0\n1/2,1/2').rows, [['1', '0'], ['1/2', '1/2']]);
  // The three locales' copies of one row, read alike.
  for (const t of ['0,5; 0,1; 0,4', '0,5\t0,1\t0,4', '"0,5","0,1","0,4"', '0,5, 0,1, 0,4']) {
    const b = readMatrix(t);
    assert.deepEqual([Array.from(b.data), b.decimalComma], [[0.5, 0.1, 0.4], true], t);
  }
});

test('pastes with and without header rows and row labels', () => {
  const plain = parseGrid('1\t0\n1/2\t1/2');
  assert.deepEqual(plain, { cells: [['1', '0'], ['1/2', '1/2']], rowLabels: null, colLabels: null, decimalComma: false });
  const both = parseGrid('x\\y\tA\tB\ns1\t1\t0\ns2\t0,5\t0,5\n');
  assert.deepEqual(both.cells, [['1', '0'], ['0.5', '0.5']]);
  assert.deepEqual(both.rowLabels, ['s1', 's2']);
  assert.deepEqual(both.colLabels, ['A', 'B']);
  const header = parseGrid('A,B\n1,0\n0.5,0.5');
  assert.deepEqual(header.colLabels, ['A', 'B']);
  assert.equal(header.rowLabels, null);
  assert.deepEqual(header.cells, [['1', '0'], ['0.5', '0.5']]);
  const rowsOnly = parseGrid('s1;1;0\ns2;0;1');
  assert.deepEqual(rowsOnly.rowLabels, ['s1', 's2']);
  assert.equal(rowsOnly.colLabels, null);
  const emptyCorner = parseGrid('\tA\tB\ns1\t1\t0\ns2\t0\t1');
  assert.deepEqual(emptyCorner.colLabels, ['A', 'B']);
  assert.deepEqual(emptyCorner.rowLabels, ['s1', 's2']);
  const quotedCsv = parseGrid('"",  "out, 1","out 2"\n"in ""a""",1/3,2/3\n"in b",1,0\n');
  assert.deepEqual(quotedCsv.colLabels, ['out, 1', 'out 2']);
  assert.deepEqual(quotedCsv.rowLabels, ['in "a"', 'in b']);
  assert.deepEqual(quotedCsv.cells, [['1/3', '2/3'], ['1', '0']]);
  // Labels that look like numbers stay cells: the caller decides.
  assert.deepEqual(parseGrid('10\t01\n1\t0').cells, [['10', '01'], ['1', '0']]);
  assert.match(parseGrid('').error, /nothing/);
});

test('labels quoted by an export stay labels, even when they look like numbers', () => {
  // The page's own CSV quotes every label and no number: "000" is a label there.
  const g = parseGrid(',"(Fail,1)","(Fail,2)","OK"\n"000",0.5,0.5,0\n"001",1,0,0\n');
  assert.deepEqual(g.rowLabels, ['000', '001']);
  assert.deepEqual(g.colLabels, ['(Fail,1)', '(Fail,2)', 'OK']);
  assert.deepEqual(g.cells, [['0.5', '0.5', '0'], ['1', '0', '0']]);
  // A file that quotes every field says nothing by its quotes: numbers stay numbers.
  const all = parseGrid('"1","0"\n"0.5","0.5"\n');
  assert.deepEqual(all, { cells: [['1', '0'], ['0.5', '0.5']], rowLabels: null, colLabels: null, decimalComma: false });
  // Unquoted, 000 is a number as before: the caller decides.
  assert.deepEqual(parseGrid('000\t1\n001\t0').cells, [['000', '1'], ['001', '0']]);
});

// readMatrix must read every block exactly as parseGrid followed by parseNumber does.
function viaParseGrid(text) {
  const g = parseGrid(text);
  if ('error' in g) return g;
  const rows = g.cells.length;
  const cols = Math.max(0, ...g.cells.map((r) => r.length));
  const data = new Array(rows * cols).fill(NaN);
  const texts = new Map();
  g.cells.forEach((r, i) => r.forEach((t, j) => {
    const v = parseNumber(t);
    data[i * cols + j] = 'value' in v ? v.value : NaN;
    if (!('value' in v) || String(v.value) !== t) texts.set(i * cols + j, t);
  }));
  return { rows, cols, data, lengths: g.cells.map((r) => r.length), texts, rowLabels: g.rowLabels, colLabels: g.colLabels, decimalComma: g.decimalComma };
}

function viaReadMatrix(text) {
  const m = readMatrix(text);
  if ('error' in m) return m;
  const texts = new Map();
  m.texts.index.forEach((k, n) => texts.set(k, m.texts.text[n]));
  return { rows: m.rows, cols: m.cols, data: Array.from(m.data), lengths: Array.from(m.lengths), texts, rowLabels: m.rowLabels, colLabels: m.colLabels, decimalComma: m.decimalComma };
}

test('readMatrix reads like parseGrid and parseNumber: examples and 3,000 random blocks', () => {
  const examples = [
    '1\t0\n1/2\t1/2', 'x\\y\tA\tB\ns1\t1\t0\ns2\t0,5\t0,5\n', 'A,B\n1,0\n0.5,0.5', 's1;1;0\ns2;0;1',
    '\tA\tB\ns1\t1\t0\ns2\t0\t1', '"",  "out, 1","out 2"\n"in ""a""",1/3,2/3\n"in b",1,0\n', '10\t01\n1\t0', '',
    '0,5', '0,2\n0,3\n', '1, 0\n0, 1', '0,05,0,95', '\ufeff1\t0\t\n0\t1\t\n', ',"(Fail,1)","OK"\n"000",0.5,0.5\n"001",1,0\n',
    '"0,5","0,5"', '0,5 0,5\n1 0', 'a\t0,5\t1,5e-3\nb\t0,5\t0,5', '\n\n1\t2\n\n', '1\t\t\n2\t\t\n', '"a" "b c"\n1 2',
  ];
  for (const t of examples) assert.deepEqual(viaReadMatrix(t), viaParseGrid(t), JSON.stringify(t));
  // Random blocks from pieces that exercise every rule: separators, quotes, labels, empty
  // cells, decimal commas, trailing separators and blank lines, CRLF.
  let seed = 7;
  const rnd = (k) => { seed = (seed * 48271) % 2147483647; return seed % k; };
  const pick = (xs) => xs[rnd(xs.length)];
  const tokens = ['0', '1', '0.5', '1/3', '0,5', '000', '01', '-1', '2e-3', '', 'a', 'x1', 'a,b', 'ln 2', ' 0.25 ', '1,5e-3', '0.50', '1e400'];
  for (let trial = 0; trial < 3000; trial++) {
    const sep = pick(['\t', ',', ';', ' ', '  ']);
    const nr = 1 + rnd(4);
    const nc = 1 + rnd(4);
    const quoteAll = rnd(6) === 0;
    const lines = [];
    for (let i = 0; i < nr; i++) {
      const cells = [];
      const len = rnd(5) === 0 ? 1 + rnd(nc) : nc;
      for (let j = 0; j < len; j++) {
        let t = pick(tokens);
        if (quoteAll || rnd(7) === 0) t = `"${t.replace(/"/g, '""')}"`;
        cells.push(t);
      }
      let line = cells.join(sep);
      if (rnd(8) === 0) line += sep.trim() ? sep : '';
      lines.push(line);
      if (rnd(12) === 0) lines.push('');
    }
    let text = lines.join(rnd(5) === 0 ? '\r\n' : '\n');
    if (rnd(3) === 0) text += '\n';
    assert.deepEqual(viaReadMatrix(text), viaParseGrid(text), JSON.stringify(text));
  }
});

test('readMatrix: numbers of a 2,000 × 2,000 CSV with labels, in one pass', () => {
  const n = 2000;
  const lines = [['', ...Array.from({ length: n }, (_, j) => `"y${j}"`)].join(',')];
  for (let i = 0; i < n; i++) lines.push([`"x,${i}"`, ...Array.from({ length: n }, (_, j) => (j === i ? '0.5' : j === (i + 1) % n ? '1/2' : '0'))].join(','));
  const text = `${lines.join('\n')}\n`;
  let reports = 0;
  const t0 = performance.now();
  const m = readMatrix(text, { onProgress: () => { reports++; } });
  const ms = performance.now() - t0;
  assert.equal(m.rows, n);
  assert.equal(m.cols, n);
  assert.equal(m.rowLabels[7], 'x,7');
  assert.equal(m.colLabels[n - 1], `y${n - 1}`);
  for (const [i, j, v] of [[0, 0, 0.5], [0, 1, 0.5], [0, 2, 0], [n - 1, 0, 0.5], [n - 1, n - 1, 0.5], [1234, 1235, 0.5]]) assert.equal(m.data[i * n + j], v, `(${i}, ${j})`);
  // The 1/2 entries keep their text; plain decimals need not.
  assert.equal(m.texts.index.length, n);
  assert.equal(m.texts.text[0], '1/2');
  assert.ok(reports >= n, 'progress is reported row by row');
  console.log(`readMatrix 2000×2000 CSV: ${ms.toFixed(0)} ms`);
});

test('a 2,000 × 2,000 paste is split in one pass', () => {
  const n = 2000;
  const line = Array.from({ length: n }, (_, j) => (j === 0 ? '1' : '0')).join('\t');
  const text = Array.from({ length: n }, () => line).join('\n');
  const t0 = performance.now();
  const g = parseGrid(text);
  const ms = performance.now() - t0;
  assert.equal(g.cells.length, n);
  assert.equal(g.cells[n - 1].length, n);
  assert.equal(g.rowLabels, null);
  // Not a timing assertion: reported, so that a regression shows in the log.
  console.log(`parseGrid 2000×2000: ${ms.toFixed(0)} ms`);
});

test('matrix and vector literals of widget attributes', () => {
  assert.deepEqual(parseMatrixLiteral('[[0.5, 0.5], ["1/3", "2/3"]]').rows, [['0.5', '0.5'], ['1/3', '2/3']]);
  assert.deepEqual(parseMatrixLiteral('1/2 1/2; 1 0').rows, [['1/2', '1/2'], ['1', '0']]);
  assert.deepEqual(parseMatrixLiteral('1, 0\n0, 1').rows, [['1', '0'], ['0', '1']]);
  assert.deepEqual(parseMatrixLiteral('1,0;0,1').rows, [['1', '0'], ['0', '1']]);
  assert.match(parseMatrixLiteral('0,5 0,5; 1 0').error, /decimal comma/);
  assert.match(parseMatrixLiteral('[[1, null]]').error, /entry \(1, 2\)/);
  assert.match(parseMatrixLiteral('[[1, 0]').error, /not valid JSON/);
  assert.match(parseMatrixLiteral('').error, /empty/);
  assert.deepEqual(parseVectorLiteral('[0.5, "1/4", 0.25]').entries, ['0.5', '1/4', '0.25']);
  assert.deepEqual(parseVectorLiteral('1/2, 1/4; 1/4').entries, ['1/2', '1/4', '1/4']);
  assert.deepEqual(parseVectorLiteral('0.2 0.8').entries, ['0.2', '0.8']);
  assert.match(parseVectorLiteral('0,5 0,5').error, /decimal comma/);
});

test('index lists and labels', () => {
  assert.deepEqual(parseIndexList('0-1, 1-2; 2–3').value, [0, 1, 1, 2, 2, 3]);
  assert.deepEqual(parseIndexList('[[0,1],[1,2]]').value, [0, 1, 1, 2]);
  assert.match(parseIndexList('0-1, a', 'edges').error, /^edges: unexpected character “a”/);
  assert.deepEqual(parseLabels('A, B ,C').labels, ['A', 'B', 'C']);
  assert.deepEqual(parseLabels('["a,b", "c"]').labels, ['a,b', 'c']);
  assert.deepEqual(parseLabels('').labels, []);
});

test('a quote that does not close a field is text (labels such as "><b>)', () => {
  assert.deepEqual(splitDelimited('\t"><b>x</b>\ty\n"a\t1\t0').rows, [['', '"><b>x</b>', 'y'], ['"a', '1', '0']]);
  assert.deepEqual(splitDelimited('say "hi",1\n"ok",0').rows, [['say "hi"', '1'], ['ok', '0']]);
  assert.deepEqual(splitDelimited('"a" "b c"\n1 2').rows, [['a', 'b c'], ['1', '2']]);
});
