// input/grid.js — matrices, vectors and lists as people paste or type them, read with the number
// grammar of number.js. Pure functions, no DOM; a paste of 2,000 × 2,000 cells is split in one
// pass over the text, so the same code can run in a worker later.
//
// Two kinds of text, two entry points:
//   parseGrid(text)           a block pasted from a spreadsheet, a CSV/TSV file or a paper:
//                             lines are rows; cells are separated by tabs if the text has any,
//                             else by semicolons, else by commas, else by runs of spaces; fields
//                             may be "quoted" (RFC 4180: "" inside, separators and line breaks
//                             allowed). A first row of labels and/or a first column of labels is
//                             recognised and returned apart.
//   parseMatrixLiteral(text)  a matrix written in one attribute or field: JSON (`[[1, 0], ["1/2",
//                             "1/2"]]`) or rows separated by ';' or line breaks with entries
//                             separated by commas or spaces (`1/2 1/2; 1 0`).
// Decimal commas: in a block separated by tabs, semicolons or spaces a comma cannot separate
// cells, so `0,5⇥0,5` reads as two halves. A text whose commas are each either followed by a
// space or between two digits (`0,5, 0,25, 0,25`) mixes the two kinds, which no CSV writer does:
// a comma followed by a space separates cells and a comma between digits is a decimal comma. In
// comma-separated text a quoted field that is a decimal-comma number (`"0,5","0,1"`, as a
// spreadsheet in a comma-decimal locale writes its CSV) is that number. Where commas do separate
// cells otherwise, text that may be
// decimal commas misread (`0,5` alone or one per line, a field such as `05` left over from `0,05`)
// is refused with a message that names decimal commas (`1, 0` with a space stays two values).
// Nothing is ever read silently as something else.

import { isNumber, parseNumber, rationalText } from './number.js';

/**
 * Longest text read (characters): 2,000 × 2,000 cells of up to ~30 characters, which holds a
 * CSV of full-precision doubles with its labels.
 */
export const MAX_PASTE = 120_000_000;

const DECIMAL_COMMA_FIELD = /^[+\-\u2212]?\d*,\d+$/;
const COMMA_BETWEEN_DIGITS = /(\d),(\d)/g;
const DECIMAL_COMMA_MESSAGE = 'a comma between digits may be a decimal comma here: write 0.5 for one half, or separate values with tabs, semicolons or a space after the comma';

const QUOTED_FIELD = /"(?:[^"]|"")*"/g;

/** The separator of "0,5, 0,25": a comma followed by spaces (a comma between digits is a decimal comma). */
const COMMA_SPACE = ', ';

/**
 * In comma-separated text, quoted fields that are decimal-comma numbers ("0,5") become numbers:
 * the text with a point, and quoted[j] null — not text, yet still a quoted field when deciding
 * whether quotes mark text (quotesMarkText: a file that quotes every field says nothing by its
 * quotes). Returns whether there was one.
 */
function unquoteDecimalCommas(fields, quoted) {
  let any = false;
  for (let j = 0; j < fields.length; j++) {
    if (quoted[j] && DECIMAL_COMMA_FIELD.test(fields[j])) {
      fields[j] = toPoint(fields[j]);
      quoted[j] = null;
      any = true;
    }
  }
  return any;
}

/**
 * Text ready to split: the byte-order mark dropped, line ends as \n, and the separator its cells
 * use: tabs if the text has any (outside quotes), else semicolons, else commas, else spaces.
 * @returns {{s: string, hasQuotes: boolean, outside: string, separator: string} | {error: string}}
 */
function prepare(text) {
  let s = String(text ?? '');
  if (s.length > MAX_PASTE) return { error: `the pasted text is too long (${s.length.toLocaleString('en')} characters)` };
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
  const hasQuotes = s.includes('"');
  const outside = hasQuotes ? s.replace(QUOTED_FIELD, '""') : s;
  let separator;
  if (outside.includes('\t')) separator = '\t';
  else if (outside.includes(';')) separator = ';';
  else if (outside.includes(',')) {
    // "0,5 0,5": every comma sits between digits and spaces separate the values.
    const commasInNumbers = !/,(?!\d)|(?<!\d),/.test(outside) && /\S[ \u00a0]+\S/.test(outside);
    // "0,5, 0,5": every comma is followed by a space or sits between digits, and both occur.
    // Every piece between those spaced commas that holds a comma must be one decimal-comma
    // number ("1/2,1/2" in "1, 0\n1/2,1/2" is two halves of a CSV with uneven spaces).
    const mixed = !commasInNumbers && !hasQuotes && !/,(?![\d \u00a0])|(?<!\d),(?=\d)/.test(outside) && /,[ \u00a0]/.test(outside) && /\d,\d/.test(outside) &&
      outside.split(/,[ \u00a0]+|\n/).every((t) => !t.includes(',') || DECIMAL_COMMA_FIELD.test(t.trim()));
    separator = commasInNumbers ? ' ' : mixed ? COMMA_SPACE : ',';
  } else separator = ' ';
  return { s, hasQuotes, outside, separator };
}

/**
 * Calls onRow(fields, quoted, line, end) for each row of prepared text, in order: fields trimmed
 * (quotes removed), quoted[j] whether field j was quoted (null when the text has no quotes),
 * the raw line (without quotes only) and the offset where the row ends (for progress). onRow
 * returning false stops the scan.
 */
function eachRow({ s, hasQuotes, separator }, onRow) {
  if (hasQuotes) {
    splitQuoted(s, separator, onRow);
    return;
  }
  const spaces = separator === ' ';
  const split = separator === COMMA_SPACE ? /,[ \u00a0]+/ : separator;
  let start = 0;
  for (;;) {
    const nl = s.indexOf('\n', start);
    const line = nl < 0 ? s.slice(start) : s.slice(start, nl);
    const parts = spaces ? line.trim().split(/[ \u00a0]+/) : line.split(split);
    for (let j = 0; j < parts.length; j++) parts[j] = parts[j].trim();
    if (onRow(parts, null, line, nl < 0 ? s.length : nl) === false || nl < 0) break;
    start = nl + 1;
  }
}

// A line of a comma-separated text that is one decimal-comma number ("0,5") as well as two
// whole numbers.
const DIGITS_COMMA_DIGITS = /^\s*\d+,\d+\s*$/;
const LEADING_ZERO = /^0\d+$/;
const commaError = (s) => ({ error: `${DECIMAL_COMMA_MESSAGE} (read “${short(s.trim())}”)` });
const toPoint = (t) => t.replace(COMMA_BETWEEN_DIGITS, '$1.$2');

/**
 * Splits delimited text into rows of trimmed fields (quotes removed); `quoted` says which fields
 * were quoted (null when none was).
 * @param {string} text
 * @returns {{rows: string[][], quoted: boolean[][] | null, separator: string, decimalComma: boolean} | {error: string}}
 */
export function splitDelimited(text) {
  const p = prepare(text);
  if ('error' in p) return p;
  const { s, hasQuotes, outside, separator } = p;
  const rows = [];
  const quotedRows = hasQuotes ? [] : null;
  let pairs = separator === ',' && !hasQuotes;
  let quotedComma = false;
  eachRow(p, (fields, quoted, line) => {
    if (quoted && separator === ',' && unquoteDecimalCommas(fields, quoted)) quotedComma = true;
    rows.push(fields);
    if (quotedRows) quotedRows.push(quoted);
    if (pairs && line.trim() !== '' && !DIGITS_COMMA_DIGITS.test(line)) pairs = false;
  });
  const isQuoted = quotedRows ? (i, j) => quotedRows[i][j] : () => false;
  while (rows.length && rows[rows.length - 1].every((f) => f === '')) {
    rows.pop();
    quotedRows?.pop();
  }
  // A separator at the end of every line (some spreadsheets copy one) adds no column.
  while (rows.length && rows.every((r, i) => r.length > 1 && r[r.length - 1] === '' && !isQuoted(i, r.length - 1))) {
    for (const r of rows) r.pop();
    if (quotedRows) for (const q of quotedRows) q.pop();
  }

  let decimalComma = quotedComma;
  if (separator === ',') {
    // Commas separate cells: refuse what can only be a decimal comma split in two. Every line
    // "digits,digits" (a column of 0,5 0,25 … copied from a spreadsheet, or one such value)
    // reads as one decimal-comma number per line as well as two whole numbers.
    const zero = rows.some((r, i) => r.some((t, j) => !isQuoted(i, j) && LEADING_ZERO.test(t)));
    if (pairs || zero) return commaError(s);
  } else if (outside.includes(',')) {
    decimalComma = rows.some((r, i) => r.some((t, j) => !isQuoted(i, j) && DECIMAL_COMMA_FIELD.test(t)));
    if (decimalComma) {
      rows.forEach((r, i) => {
        for (let j = 0; j < r.length; j++) if (!isQuoted(i, j) && r[j].includes(',')) r[j] = toPoint(r[j]);
      });
    }
  }
  return { rows, quoted: quotedRows, separator, decimalComma };
}

// RFC 4180 with a generous reading: a field is quoted when it starts with a quote (after
// spaces) whose closing quote is followed by a separator, a line break or the end; "" inside is
// one quote, and separators and line breaks inside are text. A quote that does not close that
// way (`"><b>` typed as a label) is an ordinary character. Rows go to onRow as they end.
function splitQuoted(s, separator, onRow) {
  const spaces = separator === ' ';
  const isSep = spaces ? (c) => c === ' ' || c === '\u00a0' : (c) => c === separator;
  const n = s.length;
  let row = [];
  let quotedRow = [];
  let i = 0;
  // The end of a quoted field starting at the quote q, or -1 when it does not close properly.
  const closing = (q) => {
    let j = q + 1;
    for (;;) {
      const k = s.indexOf('"', j);
      if (k < 0) return -1;
      if (s[k + 1] === '"') { j = k + 2; continue; }
      let e = k + 1;
      while (e < n && (s[e] === ' ' || s[e] === '\u00a0') && !isSep(s[e])) e++;
      return e >= n || s[e] === '\n' || isSep(s[e]) || (spaces && (s[e] === ' ' || s[e] === '\u00a0')) ? k : -1;
    }
  };
  for (;;) {
    if (spaces) while (i < n && isSep(s[i])) i++;
    let start = i;
    while (start < n && (s[start] === ' ' || s[start] === '\u00a0') && !isSep(s[start])) start++;
    let text;
    let quoted = false;
    const close = s[start] === '"' ? closing(start) : -1;
    if (close >= 0) {
      quoted = true;
      text = s.slice(start + 1, close).replace(/""/g, '"');
      i = close + 1;
      while (i < n && s[i] !== '\n' && !isSep(s[i])) i++;
    } else {
      let k = i;
      while (k < n && s[k] !== '\n' && !isSep(s[k])) k++;
      text = s.slice(i, k).trim();
      i = k;
    }
    if (!spaces || quoted || text !== '') {
      row.push(quoted ? text : text.trim());
      quotedRow.push(quoted);
    }
    if (spaces) while (i < n && isSep(s[i])) i++;
    if (i >= n || s[i] === '\n') {
      if (!row.length) { row.push(''); quotedRow.push(false); }
      if (onRow(row, quotedRow, null, i) === false) break;
      row = [];
      quotedRow = [];
      if (i >= n) break;
      i++;
      if (i >= n) break;
    } else if (!spaces) i++; // the separator (runs of spaces were skipped above)
  }
}

/**
 * Whether quotes mark text: when some fields are quoted and others (not empty) are not, as in
 * the page's own exports, where every label is quoted and no number is. A text that quotes every
 * field says nothing by its quotes, and its fields are read by what they hold.
 */
function quotesMarkText(rows, quoted) {
  if (!quoted) return false;
  let q = false;
  let plain = false;
  for (let i = 0; i < rows.length && !(q && plain); i++) {
    for (let j = 0; j < rows[i].length; j++) {
      if (rows[i][j] === '') continue;
      if (quoted[i][j] !== false) q = true;
      else plain = true;
    }
  }
  return q && plain;
}

/**
 * Reads a pasted block into cells and, when present, row and column labels: a first line with a
 * non-number where numbers follow below is a header; a first column of non-numbers is row
 * labels (a header above it then loses its corner). A quoted field is text, never a number, when
 * quotes mark text (see quotesMarkText): labels such as "000" in an exported CSV stay labels.
 * Cells stay text as typed (decimal commas already turned into points); numbers are read later
 * by parseNumber.
 * @param {string} text
 * @returns {{cells: string[][], rowLabels: string[] | null, colLabels: string[] | null, decimalComma: boolean} | {error: string}}
 */
export function parseGrid(text) {
  const split = splitDelimited(text);
  if ('error' in split) return split;
  const rows = split.rows;
  if (!rows.length) return { error: 'nothing to paste' };
  const marks = quotesMarkText(rows, split.quoted);
  const numericAt = (i, j) => rows[i][j] === '' || (!(marks && split.quoted[i][j]) && isNumber(rows[i][j]));
  const labelled = (i) => rows[i].length > 1 && rows[i][0] !== '' && !numericAt(i, 0);
  const restNumeric = (i) => rows[i].every((_, j) => j === 0 || numericAt(i, j));
  const shape = labelsOf(rows.length, rows[0].length, labelled, restNumeric, (j) => numericAt(0, j));
  let cells = shape.header ? rows.slice(1) : rows;
  if (shape.rowLabels) cells = cells.map((r) => r.slice(1));
  let colLabels = shape.header ? rows[0] : null;
  if (colLabels && shape.rowLabels && colLabels.length === cells[0].length + 1) colLabels = colLabels.slice(1);
  return { cells, rowLabels: shape.rowLabels ? (shape.header ? rows.slice(1) : rows).map((r) => r[0]) : null, colLabels, decimalComma: split.decimalComma };
}

// The one rule for labels, on rows described by predicates: whether row 0 is a header and the
// first column row labels. With row labels below, the first row is a header only if it has a
// label past its first cell.
function labelsOf(nrows, firstLength, labelled, restNumeric, firstRowNumericAt) {
  let allLabelledBelow = nrows > 1;
  let allNumericBelow = true;
  for (let i = 1; i < nrows; i++) {
    if (!labelled(i)) allLabelledBelow = false;
    if (!restNumeric(i)) allNumericBelow = false;
  }
  const headerFrom = allLabelledBelow ? 1 : 0;
  let textInFirst = false;
  for (let j = headerFrom; j < firstLength && !textInFirst; j++) if (!firstRowNumericAt(j)) textInFirst = true;
  const header = nrows > 1 && textInFirst && allNumericBelow;
  const rowLabels = header ? allLabelledBelow : nrows > 0 && labelled(0) && (nrows === 1 || allLabelledBelow);
  return { header, rowLabels };
}

/** Entries of a block read by readMatrix that keep their text (beyond, values only). */
export const MAX_TEXTS = 100_000;

// An unquoted field that is a decimal-comma number, found in the text itself (quoted fields
// blanked out) for each separator: the same fields splitDelimited tests one by one.
const DECIMAL_COMMA_IN = {
  ', ': /(?:^|, |\n)[+\-\u2212]?\d*,\d+(?=,|\n|$)/,
  '\t': /(?:^|[\t\n])[^\S\n\t]*[+\-\u2212]?\d*,\d+[^\S\n\t]*(?=[\t\n]|$)/,
  ';': /(?:^|[;\n])[^\S\n;]*[+\-\u2212]?\d*,\d+[^\S\n;]*(?=[;\n]|$)/,
  ' ': /(?:^|[ \u00a0\n])[^\S \u00a0\n]*[+\-\u2212]?\d*,\d+[^\S \u00a0\n]*(?=[ \u00a0\n]|$)/,
};

/**
 * Reads a pasted block or a CSV/TSV file straight into numbers. The reading is parseGrid's
 * (separators, quotes, labels, decimal commas) followed by parseNumber on every cell, done in
 * one pass that keeps numbers rather than text, so that 2,000 × 2,000 entries fit the time and
 * memory of a worker (tests/node/input.test.mjs checks that both readings agree).
 *
 * Result: `rows` × `cols` entries in `data` (row-major; NaN where a cell is not a number, and
 * past the end of a short row), `lengths[i]` the number of cells row i had, and the text of
 * the cells whose text is not the shortest decimal of their value (typed fractions, "0.50",
 * cells that are not numbers) as parallel arrays `texts.index` (into data) and `texts.text`.
 * Past MAX_TEXTS such cells, numbers keep their value only (textsDropped); more cells than that
 * which are not numbers is an error.
 * @param {string} text
 * @param {{onProgress?: (fraction: number) => void}} [options]
 */
export function readMatrix(text, { onProgress } = {}) {
  const p = prepare(text);
  if ('error' in p) return p;
  const { s, hasQuotes, outside, separator } = p;
  const commaSeparated = separator === ',';
  const decimalComma = !commaSeparated && outside.includes(',') && DECIMAL_COMMA_IN[separator].test(outside);
  const read = (t, q) => (decimalComma && !q && t.includes(',') ? toPoint(t) : t);

  // Per row: its first field apart (a label, or the first cell), the rest as numbers.
  const lens = [];
  const trailing = [];
  const allEmpty = [];
  const firstText = [];
  const firstQuoted = [];
  const firstValue = [];
  const firstNumber = [];
  const rest = [];
  const restBad = []; // rest fields that are neither empty nor numbers
  const restQuoted = []; // a non-empty quoted field in the rest
  let row0 = null;
  // Texts of rest fields: row, field, text.
  const tRow = [];
  const tField = [];
  const tText = [];
  let keptValid = 0;
  let invalid = 0;
  let dropped = false;
  let quotedSeen = false;
  let plainSeen = false;
  let pairs = commaSeparated && !hasQuotes;
  let problem = null;
  let quotedComma = false;

  eachRow(p, (fields, quoted, line, end) => {
    const i = lens.length;
    const len = fields.length;
    if (quoted && commaSeparated && unquoteDecimalCommas(fields, quoted)) quotedComma = true;
    if (commaSeparated) {
      if (pairs && line.trim() !== '' && !DIGITS_COMMA_DIGITS.test(line)) pairs = false;
      for (let j = 0; j < len; j++) {
        if (!(quoted && quoted[j]) && LEADING_ZERO.test(fields[j])) {
          problem = commaError(s);
          return false;
        }
      }
    }
    lens.push(len);
    let te = 0;
    while (te < len - 1 && fields[len - 1 - te] === '' && !(quoted && quoted[len - 1 - te])) te++;
    trailing.push(te);
    let empty = true;
    for (let j = 0; j < len; j++) {
      if (fields[j] === '') continue;
      empty = false;
      if (quoted && quoted[j] !== false) quotedSeen = true;
      else plainSeen = true;
    }
    allEmpty.push(empty);
    const q0 = !!(quoted && quoted[0]);
    const t0 = read(fields[0], q0);
    const r0 = parseNumber(t0);
    firstText.push(t0);
    firstQuoted.push(q0);
    firstValue.push('value' in r0 ? r0.value : NaN);
    firstNumber.push('value' in r0);
    if (i === 0) row0 = { fields: fields.map((t, j) => read(t, !!(quoted && quoted[j]))), quoted };
    const values = new Float64Array(Math.max(0, len - 1));
    let bad = 0;
    let qText = false;
    for (let j = 1; j < len; j++) {
      const q = !!(quoted && quoted[j]);
      const t = read(fields[j], q);
      if (q && t !== '') qText = true;
      const r = parseNumber(t);
      let keep = false;
      if ('value' in r) {
        values[j - 1] = r.value;
        if (String(r.value) !== t) {
          if (keptValid < MAX_TEXTS) {
            keptValid++;
            keep = true;
          } else dropped = true;
        }
      } else {
        values[j - 1] = NaN;
        if (t !== '') bad++;
        invalid++;
        keep = true;
      }
      if (keep) {
        tRow.push(i);
        tField.push(j);
        tText.push(t);
      }
    }
    if (invalid > MAX_TEXTS) {
      problem = { error: `more than ${MAX_TEXTS.toLocaleString('en')} cells are not numbers: is this a matrix of numbers?` };
      return false;
    }
    rest.push(values);
    restBad.push(bad);
    restQuoted.push(qText);
    onProgress?.(end / (s.length || 1));
    return true;
  });
  if (problem) return problem;
  if (pairs) return commaError(s);

  let R = lens.length;
  while (R > 0 && allEmpty[R - 1]) R--;
  if (R === 0) return { error: 'nothing to paste' };
  let K = Infinity;
  for (let i = 0; i < R; i++) K = Math.min(K, trailing[i]);
  const len = (i) => lens[i] - K;
  const marks = quotedSeen && plainSeen;
  const firstIsNumber = (i) => firstText[i] === '' || (!(marks && firstQuoted[i]) && firstNumber[i]);
  const labelled = (i) => len(i) > 1 && firstText[i] !== '' && !firstIsNumber(i);
  const restNumeric = (i) => restBad[i] === 0 && !(marks && restQuoted[i]);
  const row0NumericAt = (j) => (j === 0 ? firstIsNumber(0) : row0.fields[j] === '' || (!(marks && row0.quoted && row0.quoted[j]) && isNumber(row0.fields[j])));
  const { header, rowLabels } = labelsOf(R, len(0), labelled, restNumeric, row0NumericAt);

  const b0 = header ? 1 : 0;
  const skip = rowLabels ? 1 : 0;
  const rows = R - b0;
  const lengths = new Int32Array(rows);
  let cols = 0;
  for (let o = 0; o < rows; o++) {
    lengths[o] = len(b0 + o) - skip;
    if (lengths[o] > cols) cols = lengths[o];
  }
  const data = new Float64Array(rows * cols).fill(NaN);
  const index = [];
  const texts = [];
  for (let o = 0; o < rows; o++) {
    const i = b0 + o;
    const n = lengths[o];
    const base = o * cols;
    if (skip) data.set(rest[i].subarray(0, n), base);
    else {
      if (n > 0) {
        data[base] = firstValue[i];
        const t = firstText[i];
        if (!firstNumber[i]) {
          index.push(base);
          texts.push(t);
        } else if (String(firstValue[i]) !== t) {
          if (keptValid < MAX_TEXTS) {
            keptValid++;
            index.push(base);
            texts.push(t);
          } else dropped = true;
        }
      }
      data.set(rest[i].subarray(0, Math.max(0, n - 1)), base + 1);
    }
  }
  for (let k = 0; k < tRow.length; k++) {
    const i = tRow[k];
    const j = tField[k];
    if (i < b0 || i >= R || j >= len(i)) continue;
    index.push((i - b0) * cols + j - skip);
    texts.push(tText[k]);
  }
  let colLabels = header ? row0.fields.slice(0, len(0)) : null;
  if (colLabels && rowLabels && colLabels.length === lengths[0] + 1) colLabels = colLabels.slice(1);
  return {
    rows,
    cols,
    data,
    lengths,
    texts: { index: Uint32Array.from(index), text: texts },
    textsDropped: dropped,
    rowLabels: rowLabels ? firstText.slice(b0, R) : null,
    colLabels,
    decimalComma: decimalComma || quotedComma,
    separator,
  };
}

/**
 * A matrix written as one piece of text: JSON, or rows separated by ';' or line breaks with
 * entries separated by commas or runs of spaces. Entries come back as text (JSON numbers as
 * their decimal text); the caller reads them with parseNumber.
 * @returns {{rows: string[][]} | {error: string}}
 */
export function parseMatrixLiteral(text) {
  const s = String(text ?? '').trim();
  if (s === '') return { error: 'is empty' };
  if (s.startsWith('[') || s.startsWith('{')) {
    const v = parseJSON(s);
    if ('error' in v) return v;
    if (!Array.isArray(v.value)) return { error: 'must be a non-empty array of rows' };
    const rows = [];
    for (let i = 0; i < v.value.length; i++) {
      const r = v.value[i];
      if (!Array.isArray(r)) return { error: `row ${i + 1} is not an array` };
      const texts = [];
      for (let j = 0; j < r.length; j++) {
        const t = jsonEntry(r[j]);
        if (t === null) return { error: `entry (${i + 1}, ${j + 1}) must be a number or a fraction such as "1/3"` };
        texts.push(t);
      }
      rows.push(texts);
    }
    return { rows };
  }
  const rows = [];
  for (const line of s.split(/\s*[;\n]\s*/)) {
    if (line === '') continue;
    const r = splitEntries(line);
    if ('error' in r) return r;
    rows.push(r.entries);
  }
  return { rows };
}

/**
 * A vector written as one piece of text: a JSON array, or entries separated by commas,
 * semicolons or spaces. Entries come back as text.
 * @returns {{entries: string[]} | {error: string}}
 */
export function parseVectorLiteral(text) {
  const s = String(text ?? '').trim();
  if (s === '') return { error: 'is empty' };
  if (s.startsWith('[')) {
    const v = parseJSON(s);
    if ('error' in v) return v;
    if (!Array.isArray(v.value)) return { error: 'must be an array of numbers' };
    const entries = [];
    for (let i = 0; i < v.value.length; i++) {
      const t = jsonEntry(v.value[i]);
      if (t === null) return { error: `entry ${i + 1} must be a number or a fraction such as "1/3"` };
      entries.push(t);
    }
    return { entries };
  }
  return splitEntries(s.replace(/;/g, ','));
}

// Entries of one row of a literal: commas or spaces separate them. A comma between digits in a
// row that also uses spaces ("0,5 0,5"), or a field "05" (from "0,05"), is a decimal comma.
function splitEntries(line) {
  const entries = line.split(/\s*,\s*|\s+/).filter((t) => t !== '');
  const spaced = /\S\s+\S/.test(line.replace(/\s*,\s*/g, ','));
  if ((spaced && /\d,\d/.test(line)) || entries.some((t) => /^0\d+$/.test(t))) {
    return { error: `“${short(line)}”: ${DECIMAL_COMMA_MESSAGE}` };
  }
  return { entries };
}

function parseJSON(s) {
  try {
    return { value: JSON.parse(s) };
  } catch (e) {
    return { error: `is not valid JSON (${e.message})` };
  }
}

function jsonEntry(v) {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'string') return v.trim();
  return null;
}

/**
 * Non-negative integers in free form: separated by commas, spaces, semicolons, line breaks or
 * dashes, brackets ignored — edge lists ("0-1, 1-2", "[[0,1],[1,2]]") and query tables.
 * @returns {{value: number[]} | {error: string}}
 */
export function parseIndexList(text, what = 'list') {
  const s = String(text ?? '');
  // Non-ASCII characters of a regular expression are written as escapes (\u2013, \u2014: en and
  // em dash): the bundler leaves a regular expression's text as it is, and the widget bundles must
  // be pure ASCII (tests/node/ascii.test.mjs).
  const bad = /[^0-9\s,;\-\u2013\u2014[\]()]/.exec(s);
  if (bad) return { error: `${what}: unexpected character “${bad[0]}”` };
  const tokens = s.split(/[\s,;\-\u2013\u2014[\]()]+/).filter((t) => t !== '');
  const value = tokens.map(Number);
  if (value.some((v) => !Number.isSafeInteger(v))) return { error: `${what}: a number is too large` };
  return { value };
}

/**
 * Labels: a JSON array of strings, or text separated by commas. Empty text gives [].
 * @returns {{labels: string[]} | {error: string}}
 */
export function parseLabels(text) {
  const s = String(text ?? '').trim();
  if (s === '') return { labels: [] };
  if (s.startsWith('[')) {
    const v = parseJSON(s);
    if ('error' in v) return v;
    if (!Array.isArray(v.value)) return { error: 'must be an array of labels' };
    return { labels: v.value.map((x) => String(x)) };
  }
  return { labels: s.split(',').map((t) => t.trim()) };
}

function short(s) {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/**
 * A vector of typed entries as the exact mode's fraction strings (rationalText), or null when
 * one entry is not rational as typed.
 * @param {string[]} texts
 * @returns {string[] | null}
 */
export function rationalVector(texts) {
  const out = [];
  for (const t of texts) {
    const r = rationalText(t);
    if (r === null) return null;
    out.push(r);
  }
  return out;
}

/** A matrix of typed entries as fraction strings (rows of rationalVector), or null. */
export function rationalMatrix(rows) {
  const out = [];
  for (const row of rows) {
    const v = rationalVector(row);
    if (v === null) return null;
    out.push(v);
  }
  return out;
}
