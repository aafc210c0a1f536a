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
// cells, so `0,5⇥0,5` reads as two halves. Where commas do separate cells, text that may be
// decimal commas misread (`0,5` alone or one per line, a field such as `05` left over from `0,05`)
// is refused with a message that names decimal commas (`1, 0` with a space stays two values).
// Nothing is ever read silently as something else.

import { isNumber, rationalText } from './number.js';

/** Longest text parseGrid accepts (characters): 2,000 × 2,000 cells of up to ~20 characters. */
export const MAX_PASTE = 80_000_000;

const DECIMAL_COMMA_FIELD = /^[+\-\u2212]?\d*,\d+$/;
const COMMA_BETWEEN_DIGITS = /(\d),(\d)/g;
const DECIMAL_COMMA_MESSAGE = 'a comma between digits may be a decimal comma here: write 0.5 for one half, or separate values with tabs, semicolons or a space after the comma';

/**
 * Splits delimited text into rows of trimmed fields (quotes removed).
 * @param {string} text
 * @returns {{rows: string[][], separator: string, decimalComma: boolean} | {error: string}}
 */
export function splitDelimited(text) {
  let s = String(text ?? '');
  if (s.length > MAX_PASTE) return { error: `the pasted text is too long (${s.length.toLocaleString('en')} characters)` };
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  s = s.replace(/\r\n?/g, '\n');
  const hasQuotes = s.includes('"');
  const outside = hasQuotes ? s.replace(/"(?:[^"]|"")*"/g, '""') : s;
  let separator;
  if (outside.includes('\t')) separator = '\t';
  else if (outside.includes(';')) separator = ';';
  else if (outside.includes(',')) {
    // "0,5 0,5": every comma sits between digits and spaces separate the values.
    const commasInNumbers = !/,(?!\d)|(?<!\d),/.test(outside) && /\S[ \u00a0]+\S/.test(outside);
    separator = commasInNumbers ? ' ' : ',';
  } else separator = ' ';
  const { rows, quoted } = hasQuotes ? splitQuoted(s, separator) : { rows: splitPlain(s, separator), quoted: null };
  const isQuoted = quoted ? (i, j) => quoted[i][j] : () => false;
  while (rows.length && rows[rows.length - 1].every((f) => f === '')) rows.pop();
  // A separator at the end of every line (some spreadsheets copy one) adds no column.
  while (rows.length && rows.every((r, i) => r.length > 1 && r[r.length - 1] === '' && !isQuoted(i, r.length - 1))) {
    for (const r of rows) r.pop();
  }

  let decimalComma = false;
  if (separator === ',') {
    // Commas separate cells: refuse what can only be a decimal comma split in two.
    const plain = [];
    rows.forEach((r, i) => r.forEach((t, j) => { if (!isQuoted(i, j)) plain.push(t); }));
    // Every line "digits,digits" (a column of 0,5 0,25 … copied from a spreadsheet, or one such
    // value) reads as one decimal-comma number per line as well as two whole numbers.
    const pairs = !hasQuotes && s.split('\n').filter((l) => l.trim() !== '').every((l) => /^\s*\d+,\d+\s*$/.test(l));
    if (pairs || plain.some((t) => /^0\d+$/.test(t))) return { error: `${DECIMAL_COMMA_MESSAGE} (read “${short(s.trim())}”)` };
  } else if (outside.includes(',')) {
    decimalComma = rows.some((r, i) => r.some((t, j) => !isQuoted(i, j) && DECIMAL_COMMA_FIELD.test(t)));
    if (decimalComma) {
      rows.forEach((r, i) => {
        for (let j = 0; j < r.length; j++) if (!isQuoted(i, j) && r[j].includes(',')) r[j] = r[j].replace(COMMA_BETWEEN_DIGITS, '$1.$2');
      });
    }
  }
  return { rows, separator, decimalComma };
}

function splitPlain(s, separator) {
  const lines = s.split('\n');
  const rows = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const parts = separator === ' ' ? lines[i].trim().split(/[ \u00a0]+/) : lines[i].split(separator);
    for (let j = 0; j < parts.length; j++) parts[j] = parts[j].trim();
    rows[i] = parts;
  }
  return rows;
}

// RFC 4180 with a generous reading: a field is quoted when it starts with a quote (after
// spaces) whose closing quote is followed by a separator, a line break or the end; "" inside is
// one quote, and separators and line breaks inside are text. A quote that does not close that
// way (`"><b>` typed as a label) is an ordinary character.
function splitQuoted(s, separator) {
  const spaces = separator === ' ';
  const isSep = spaces ? (c) => c === ' ' || c === '\u00a0' : (c) => c === separator;
  const n = s.length;
  const rows = [];
  const quotedRows = [];
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
      rows.push(row);
      quotedRows.push(quotedRow);
      row = [];
      quotedRow = [];
      if (i >= n) break;
      i++;
      if (i >= n) break;
    } else if (!spaces) i++; // the separator (runs of spaces were skipped above)
  }
  return { rows, quoted: quotedRows };
}

/**
 * Reads a pasted block into cells and, when present, row and column labels: a first line with a
 * non-number where numbers follow below is a header; a first column of non-numbers is row
 * labels (a header above it then loses its corner). Cells stay text as typed (decimal commas
 * already turned into points); numbers are read later by parseNumber.
 * @param {string} text
 * @returns {{cells: string[][], rowLabels: string[] | null, colLabels: string[] | null, decimalComma: boolean} | {error: string}}
 */
export function parseGrid(text) {
  const split = splitDelimited(text);
  if ('error' in split) return split;
  let cells = split.rows;
  if (!cells.length) return { error: 'nothing to paste' };
  const numeric = (t) => t === '' || isNumber(t);
  let colLabels = null;
  let rowLabels = null;
  const labelled = (r) => r.length > 1 && r[0] !== '' && !numeric(r[0]);
  // With row labels below, the first row is a header only if it has a label past its first cell.
  const below = cells.slice(1);
  const headerFrom = below.length && below.every(labelled) ? 1 : 0;
  if (below.length && cells[0].slice(headerFrom).some((t) => !numeric(t)) && below.every((r) => r.slice(1).every(numeric))) {
    colLabels = cells[0];
    cells = cells.slice(1);
  }
  if (cells.length && cells.every(labelled)) {
    rowLabels = cells.map((r) => r[0]);
    cells = cells.map((r) => r.slice(1));
    if (colLabels && colLabels.length === cells[0].length + 1) colLabels = colLabels.slice(1);
  }
  return { cells, rowLabels, colLabels, decimalComma: split.decimalComma };
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
  const bad = /[^0-9\s,;\-–—[\]()]/.exec(s);
  if (bad) return { error: `${what}: unexpected character “${bad[0]}”` };
  const tokens = s.split(/[\s,;\-–—[\]()]+/).filter((t) => t !== '');
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
