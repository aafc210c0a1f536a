// input/matrix.js — a matrix of entries as people type them. The value of every entry lives in a
// Float64Array (what the engine is given, and all that a 2,000 × 2,000 matrix can afford to
// keep); an entry whose text says more than its value (a fraction such as 1/3, "0.50", a cell
// that is not a number yet) keeps that text beside it. Pure: no DOM, no worker.
//
//   const M = EntryMatrix.fromTexts([['1/2', '1/2'], ['0', '1']]);
//   M.text(0, 0)   // '1/2'        M.value(0, 0)  // 0.5
//   M.set(1, 0, 'abc');            // value NaN, text 'abc' (shown with its message)
//
// `version` changes whenever a value or the shape changes (not when 0.5 is retyped as 1/2), so
// that a large matrix can be compared with the one last sent to the engine without reading it.

import { parseNumber } from './number.js';
import { TOLERANCE } from '../lib/numbers.js';

let versions = 0;

/** The text of an entry that has no text of its own: the shortest decimal of its value. */
export const shortest = (v) => (Number.isNaN(v) ? '' : String(v));

export class EntryMatrix {
  /**
   * @param {number} rows
   * @param {number} cols
   * @param {Float64Array} [data]   row-major values (NaN where the text is not a number)
   * @param {Map<number, string>} [texts]   flat index → text, for entries that need one
   */
  constructor(rows, cols, data = new Float64Array(rows * cols), texts = new Map()) {
    if (data.length !== rows * cols) throw new RangeError(`EntryMatrix: ${data.length} values for ${rows}×${cols}`);
    this.rows = rows;
    this.cols = cols;
    this.data = data;
    this.texts = texts;
    this.version = ++versions;
  }

  /** A matrix from rows of text (every row as long as the first). */
  static fromTexts(rows) {
    const n = rows.length;
    const m = n ? rows[0].length : 0;
    const M = new EntryMatrix(n, m);
    for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) M.write(i * m + j, String(rows[i][j] ?? ''));
    return M;
  }

  /**
   * A matrix from a block read by readMatrix (input/grid.js), adopting its values (no copy).
   * Entries past the end of a short row are '0'.
   */
  static fromBlock(b) {
    const M = new EntryMatrix(b.rows, b.cols, b.data, textsOf(b));
    for (let i = 0; i < b.rows; i++) {
      for (let j = b.lengths[i]; j < b.cols; j++) {
        M.data[i * b.cols + j] = 0;
        M.texts.delete(i * b.cols + j);
      }
    }
    // A scan made where the block was read (the data worker) holds for these values.
    if (b.scan) M.scan = { version: M.version, ...b.scan };
    return M;
  }

  get size() {
    return this.rows * this.cols;
  }

  value(i, j) {
    return this.data[i * this.cols + j];
  }

  text(i, j) {
    const k = i * this.cols + j;
    return this.texts.get(k) ?? shortest(this.data[k]);
  }

  /** Sets entry (i, j) from its text; returns whether its value changed. */
  set(i, j, text) {
    const changed = this.write(i * this.cols + j, String(text ?? ''));
    if (changed) this.version = ++versions;
    return changed;
  }

  write(k, t) {
    const r = parseNumber(t);
    const v = 'value' in r ? r.value : NaN;
    const changed = !Object.is(this.data[k], v);
    this.data[k] = v;
    if ('value' in r && shortest(v) === t) this.texts.delete(k);
    else this.texts.set(k, t);
    return changed;
  }

  /** The message of entry (i, j) when its text is not a number, else null. */
  error(i, j) {
    const k = i * this.cols + j;
    if (!Number.isNaN(this.data[k])) return null;
    const r = parseNumber(this.texts.get(k) ?? '');
    return 'error' in r ? r.error : null;
  }

  /** Copies block b (readMatrix) into the matrix from (r, c); it must fit. */
  setBlock(r, c, b) {
    const bt = textsOf(b);
    for (let i = 0; i < b.rows; i++) {
      const to = (r + i) * this.cols + c;
      const n = b.lengths[i];
      this.data.set(b.data.subarray(i * b.cols, i * b.cols + n), to);
      for (let j = 0; j < n; j++) {
        const t = bt.get(i * b.cols + j);
        if (t === undefined) this.texts.delete(to + j);
        else this.texts.set(to + j, t);
      }
    }
    this.version = ++versions;
  }

  /**
   * The same entries in a matrix of another shape: entry (i, j) moves to (rowOf(i), colOf(j))
   * (dropped where either is −1); the entries nothing moves to are `fill` (text).
   */
  reshape(rows, cols, rowOf, colOf, fill = '0') {
    const data = new Float64Array(rows * cols);
    const texts = new Map();
    const moved = new Uint8Array(rows * cols);
    for (let i = 0; i < this.rows; i++) {
      const ii = rowOf(i);
      if (ii < 0) continue;
      for (let j = 0; j < this.cols; j++) {
        const jj = colOf(j);
        if (jj < 0) continue;
        const k = ii * cols + jj;
        moved[k] = 1;
        data[k] = this.data[i * this.cols + j];
        const t = this.texts.get(i * this.cols + j);
        if (t !== undefined) texts.set(k, t);
      }
    }
    const f = parseNumber(fill);
    const fv = 'value' in f ? f.value : NaN;
    const keep = shortest(fv) !== fill;
    for (let k = 0; k < rows * cols; k++) {
      if (moved[k]) continue;
      data[k] = fv;
      if (keep) texts.set(k, fill);
    }
    this.rows = rows;
    this.cols = cols;
    this.data = data;
    this.texts = texts;
    this.version = ++versions;
  }

  /** Inserts a row at `at` whose entries are `fill` (text). */
  insertRow(at, fill) {
    this.reshape(this.rows + 1, this.cols, (i) => (i < at ? i : i + 1), (j) => j, fill);
  }

  removeRow(at) {
    this.reshape(this.rows - 1, this.cols, (i) => (i < at ? i : i === at ? -1 : i - 1), (j) => j);
  }

  /** Inserts a column at `at` whose entries are `fill` (text). */
  insertCol(at, fill) {
    this.reshape(this.rows, this.cols + 1, (i) => i, (j) => (j < at ? j : j + 1), fill);
  }

  removeCol(at) {
    this.reshape(this.rows, this.cols - 1, (i) => i, (j) => (j < at ? j : j === at ? -1 : j - 1));
  }

  /** Grows the matrix to at least rows × cols; new entries are `fill`. */
  grow(rows, cols, fill) {
    if (rows <= this.rows && cols <= this.cols) return;
    this.reshape(Math.max(rows, this.rows), Math.max(cols, this.cols), (i) => i, (j) => j, fill);
  }

  /** Every entry as text, row by row. */
  toTexts() {
    return Array.from({ length: this.rows }, (_, i) => Array.from({ length: this.cols }, (_, j) => this.text(i, j)));
  }

  /** A copy (values and texts). */
  clone() {
    const M = new EntryMatrix(this.rows, this.cols, this.data.slice(), new Map(this.texts));
    M.version = this.version;
    return M;
  }
}

/**
 * One pass over the values of a rows × cols matrix, as validation needs it: each row's sum
 * (NaN when an entry of the row is not a number) and the flat indices, in order, of the entries
 * that are not probabilities (NaN, negative, or above 1 beyond the tolerance). Entries past the
 * end of a short row (`lengths`, as readMatrix gives them) count as 0, as fromBlock makes them.
 * The data worker runs it on what it reads, so that a 2,000 × 2,000 matrix is not scanned on
 * the page's thread; validation (sections/channel/validate.js) runs it otherwise.
 * @returns {{rowSums: Float64Array, bad: Int32Array}}
 */
export function scanRows(data, rows, cols, lengths = null) {
  const rowSums = new Float64Array(rows);
  const bad = [];
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    let parsed = true;
    const base = i * cols;
    const end = lengths ? Math.min(lengths[i], cols) : cols;
    for (let j = 0; j < end; j++) {
      const v = data[base + j];
      if (v >= 0 && v <= 1 + TOLERANCE) {
        sum += v;
        continue;
      }
      bad.push(base + j);
      if (Number.isNaN(v)) parsed = false;
      else sum += v;
    }
    rowSums[i] = parsed ? sum : NaN;
  }
  return { rowSums, bad: Int32Array.from(bad) };
}

function textsOf(b) {
  const texts = new Map();
  const { index, text } = b.texts;
  for (let n = 0; n < index.length; n++) texts.set(index[n], text[n]);
  return texts;
}
