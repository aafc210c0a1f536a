// input/samples.js — a table of samples (one line per sample: the secret, then one or more
// observation columns) read from CSV or TSV text, for qif.estimate. Pure, no DOM; the data worker
// runs it on files of up to a million lines.
//
//   readSamples(text, {onProgress}) → {secrets, secretNames, observations, observationNames,
//                                       header, rows, observationColumns, decimalComma} or {error}
//   decimalComma   true when some number was read with a decimal comma (0,5 as one half)
//   secrets        Int32Array when every secret is an integer, Float64Array when a number, else
//                  the Int32Array of the label's index in secretNames (the distinct labels sorted)
//   observations   {rows, cols, data: Float64Array} when every observation cell is a number (a
//                  vector observation, compared by distance), else an Int32Array of indices into
//                  observationNames (a label: the cells joined by ", ")
// Labels become indices here, in the worker, so that a million of them cross to the engine as
// one typed array instead of a million strings cloned on the page's thread.
// Cells are separated by tabs if the first line has one, else by semicolons if it has one and no
// comma, else by commas; quotes are not read (a field is the text between separators, trimmed).
// A first line whose cells are not all numbers, above a line where a column that it names is
// numeric, is a header. Errors name the line: "line 7: 3 columns, expected 4".

/** The most samples one table holds. */
export const MAX_SAMPLES = 1_000_000;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// A number written with a decimal comma. A comma can be inside a cell only when the cells are
// separated by tabs or semicolons or the cell is quoted, which is how spreadsheets in
// comma-decimal locales write "0,5".
const DECIMAL_COMMA = /^[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?$/;
const isNum = (s) => NUMBER.test(s) || DECIMAL_COMMA.test(s);
const toNumber = (s) => Number(s.includes(',') ? s.replace(',', '.') : s);

function separatorOf(line) {
  const outside = line.replace(/"(?:[^"]|"")*"/g, '');
  if (outside.includes('\t')) return '\t';
  if (outside.includes(';') && !outside.includes(',')) return ';';
  return ',';
}

// The fields of one line, trimmed; a field whose text starts with a quote runs to the matching
// closing quote ("" inside is a quote). Returns null when a quote opens a field and does not
// close it on this line.
function splitQuotedLine(line, sep) {
  const cells = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ') i++;
    if (line[i] === '"') {
      let text = '';
      let j = i + 1;
      for (;;) {
        const k = line.indexOf('"', j);
        if (k < 0) return null;
        text += line.slice(j, k);
        if (line[k + 1] === '"') { text += '"'; j = k + 2; continue; }
        j = k + 1;
        break;
      }
      const next = line.indexOf(sep, j);
      const rest = next < 0 ? line.slice(j) : line.slice(j, next);
      cells.push((text + rest).trim());
      if (next < 0) return cells;
      i = next + 1;
    } else {
      const next = line.indexOf(sep, i);
      cells.push((next < 0 ? line.slice(i) : line.slice(i, next)).trim());
      if (next < 0) return cells;
      i = next + 1;
    }
  }
}

export function readSamples(text, { onProgress } = {}) {
  if (typeof text !== 'string') return { error: 'expected text' };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split(/\r\n|\n|\r/);
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  if (lines.length === 0) return { error: 'the file is empty' };
  const sep = separatorOf(lines[0]);
  const quotes = text.includes('"');
  const split = quotes ? (line) => splitQuotedLine(line, sep) : (line) => line.split(sep).map((c) => c.trim());
  const first = split(lines[0]);
  if (first === null) return { error: 'line 1: a quote opens a field and does not close on the same line' };
  const cols = first.length;
  if (cols < 2) return { error: `line 1: ${cols} column, expected a secret and at least one observation (columns separated by tabs, commas or semicolons)` };
  let start = 0;
  if (lines.length > 1) {
    const second = split(lines[1]) ?? [];
    if (first.some((c, j) => !isNum(c) && second[j] !== undefined && isNum(second[j]))) start = 1;
  }
  const header = start ? first : null;
  const n = lines.length - start;
  if (n > MAX_SAMPLES) return { error: `${n.toLocaleString('en')} samples, more than the limit of ${MAX_SAMPLES.toLocaleString('en')}` };
  const k = cols - 1;
  const secretText = new Array(n);
  const obsText = new Array(n * k);
  let secretsNumeric = true;
  let obsNumeric = true;
  const every = Math.max(1, Math.floor(n / 100));
  for (let i = 0; i < n; i++) {
    const line = lines[start + i];
    const cells = i === 0 && !start ? first : split(line);
    if (cells === null) return { error: `line ${start + i + 1}: a quote opens a field and does not close on the same line` };
    if (cells.length !== cols) {
      if (line.trim() === '') return { error: `line ${start + i + 1}: empty line inside the table` };
      return { error: `line ${start + i + 1}: ${cells.length} columns, expected ${cols}` };
    }
    for (let j = 0; j < cols; j++) {
      if (cells[j] === '') return { error: `line ${start + i + 1}, column ${j + 1}: empty cell` };
    }
    secretText[i] = cells[0];
    if (secretsNumeric && !isNum(cells[0])) secretsNumeric = false;
    for (let j = 1; j < cols; j++) {
      obsText[i * k + j - 1] = cells[j];
      if (obsNumeric && !isNum(cells[j])) obsNumeric = false;
    }
    if (onProgress && i % every === 0) onProgress(i / n);
  }
  let secrets, secretNames = null, observations, observationNames = null;
  if (secretsNumeric) {
    const f = Float64Array.from(secretText, toNumber);
    secrets = f.every((x) => Number.isInteger(x) && Math.abs(x) < 2 ** 31) ? Int32Array.from(f) : f;
  } else {
    ({ codes: secrets, names: secretNames } = indexLabels(secretText));
  }
  if (obsNumeric) {
    observations = { rows: n, cols: k, data: Float64Array.from(obsText, toNumber) };
  } else {
    let labels = obsText;
    if (k > 1) {
      labels = new Array(n);
      for (let i = 0; i < n; i++) labels[i] = obsText.slice(i * k, (i + 1) * k).join(', ');
    }
    ({ codes: observations, names: observationNames } = indexLabels(labels));
  }
  const decimalComma = (secretsNumeric && secretText.some((t) => t.includes(','))) || (obsNumeric && obsText.some((t) => t.includes(',')));
  return { secrets, secretNames, observations, observationNames, header, rows: n, observationColumns: k, decimalComma };
}

/** Labels as indices into their distinct values, sorted (the engine's order for numbers). */
function indexLabels(labels) {
  const names = [...new Set(labels)].sort();
  const at = new Map(names.map((x, i) => [x, i]));
  const codes = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i++) codes[i] = at.get(labels[i]);
  return { codes, names };
}
