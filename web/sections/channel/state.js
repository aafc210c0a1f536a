// sections/channel/state.js — the "Channel & leakage" section as data: its state (every input as
// typed), the edits people make (rows, columns, pastes, presets) and the check of a state from a
// URL. What the results panels compute from the validated inputs is plan.js. Pure: no DOM, no
// worker; tests/node/sections.test.mjs runs it in Node.
//
// State: {presetId, edited, secrets, observables, cells (an n×m EntryMatrix: values and typed
// texts, input/matrix.js), prior (n text), priorUniform, gainLabels, gain (k×n text, or null for
// an identity too large to write out), gainIdentity, alpha, tolerance, gainClass, observed}. A
// uniform prior and an identity gain follow the number of secrets (syncDerived). `gainClass` is
// the class of gain functions of the additive g-capacity; `observed`, the output frequencies
// (text) from which the iterative Bayesian update estimates a prior. As JSON (a shared link,
// getState) the cells are rows of text (stateJSON).

import { presets, presetById, DEFAULT_PRESET } from '../../lib/presets.js';
import { uniformEntry } from '../../lib/numbers.js';
import { parseGrid, splitDelimited, readMatrix } from '../../input/grid.js';
import { isNumber } from '../../input/number.js';
import { EntryMatrix, shortest } from '../../input/matrix.js';
import { PANEL_KEYS, GAIN_CLASSES, DEFAULT_GAIN_CLASS } from '../../lib/measures.js';

export { PANEL_KEYS };

/** Largest number of secrets for which an identity gain is written out as rows of text. */
export const IDENTITY_WRITTEN_UP_TO = 64;
/** Largest identity gain (n²) the page builds to compute g-vulnerabilities with. */
export const IDENTITY_COMPUTED_UP_TO = 250_000;

export const DEFAULT_ALPHA = '2';
export const DEFAULT_TOLERANCE = '1e-9';

/** A fresh state showing preset `id`. */
export function createState(id = DEFAULT_PRESET) {
  const s = {
    presetId: id, edited: false, secrets: [], observables: [], cells: [], prior: [], priorUniform: true,
    gainLabels: [], gain: [], gainIdentity: true, alpha: DEFAULT_ALPHA, tolerance: DEFAULT_TOLERANCE,
    gainClass: DEFAULT_GAIN_CLASS, observed: '', program: '',
  };
  loadPreset(s, presetById(id) ?? presets[0]);
  return s;
}

export function loadPreset(s, p) {
  s.program = ''; // a preset is not a program's channel
  s.presetId = p.id;
  s.edited = false;
  s.secrets = p.secrets.slice();
  s.observables = p.observables.slice();
  s.cells = EntryMatrix.fromTexts(p.channel);
  s.priorUniform = true;
  s.gainIdentity = true;
  syncDerived(s);
}

/** Keeps a uniform prior and an identity gain in step with the number of secrets. */
export function syncDerived(s) {
  const n = s.secrets.length;
  if (s.priorUniform) s.prior = new Array(n).fill(uniformEntry(n));
  if (s.gainIdentity) {
    s.gain = n <= IDENTITY_WRITTEN_UP_TO ? Array.from({ length: n }, (_, w) => Array.from({ length: n }, (_, x) => (w === x ? '1' : '0'))) : null;
    s.gainLabels = s.secrets.slice();
  }
}

export function freshLabel(existing, prefix, k) {
  const taken = new Set(existing);
  while (taken.has(`${prefix}${k}`)) k++;
  return `${prefix}${k}`;
}

/**
 * Appends labels until there are n: given[i] where it is non-empty, else the first of prefix i+1,
 * prefix i+2, … not taken — what pushing freshLabel one by one gives, with one set of the labels
 * taken instead of one per label (quadratic on 2,000 rows).
 */
function pushLabels(labels, n, prefix, given = null) {
  const taken = new Set(labels);
  for (let i = labels.length; i < n; i++) {
    let t = given?.[i];
    if (!t) {
      let k = i + 1;
      while (taken.has(`${prefix}${k}`)) k++;
      t = `${prefix}${k}`;
    }
    labels.push(t);
    taken.add(t);
  }
}

export function addRow(s, at = s.secrets.length) {
  const m = s.observables.length;
  s.secrets.splice(at, 0, freshLabel(s.secrets, 'x', at + 1));
  s.cells.insertRow(at, m ? uniformEntry(m) : '0');
  if (!s.priorUniform) s.prior.splice(at, 0, '0');
  if (!s.gainIdentity) for (const row of s.gain) row.splice(at, 0, '0');
  syncDerived(s);
}

export function removeRow(s, i) {
  s.secrets.splice(i, 1);
  s.cells.removeRow(i);
  if (!s.priorUniform) s.prior.splice(i, 1);
  if (!s.gainIdentity) for (const row of s.gain) row.splice(i, 1);
  syncDerived(s);
}

export function addCol(s, at = s.observables.length) {
  s.observables.splice(at, 0, freshLabel(s.observables, 'y', at + 1));
  s.cells.insertCol(at, '0');
}

export function removeCol(s, j) {
  s.observables.splice(j, 1);
  s.cells.removeCol(j);
}

// Grows the channel to n rows and m columns at once (a large paste would be slow row by row):
// new rows are uniform on the columns there were, new columns 0, as addRow and addCol make them.
function growTo(s, n, m) {
  const n0 = s.secrets.length;
  const m0 = s.observables.length;
  if (n > n0) {
    pushLabels(s.secrets, n, 'x');
    s.cells.grow(n, m0, m0 ? uniformEntry(m0) : '0');
    if (!s.priorUniform) for (let i = n0; i < n; i++) s.prior.push('0');
    if (!s.gainIdentity) for (const row of s.gain) for (let i = n0; i < n; i++) row.push('0');
  }
  if (m > m0) {
    pushLabels(s.observables, m, 'y');
    s.cells.grow(s.cells.rows, m, '0');
  }
  syncDerived(s);
}

export function addGuess(s) {
  if (!s.gain) return; // an identity too large to write out is not edited
  s.gainIdentity = false;
  s.gainLabels.push(freshLabel(s.gainLabels, 'w', s.gainLabels.length + 1));
  s.gain.push(new Array(s.secrets.length).fill('0'));
}

export function removeGuess(s, w) {
  s.gainIdentity = false;
  s.gain.splice(w, 1);
  s.gainLabels.splice(w, 1);
}

/** The prior as typed text from numbers (the capacity-achieving prior, say). */
export function setPrior(s, values) {
  s.prior = Array.from(values, (p) => String(Number(p.toPrecision(12))));
  s.priorUniform = false;
}

// ---------------------------------------------------------------- pastes

/**
 * Puts a pasted block into the channel. At the first cell (0, 0) the block is a new channel: its
 * own labels where it has them, fresh ones (x1…, y1…) otherwise, a uniform prior and the identity
 * gain — nothing of the channel before is kept. Anywhere else it fills the grid from cell (r, c),
 * growing it as needed; labels in the block (a header row, a first column) become the labels of
 * those rows and columns. c = −1 is the prior column: the values, read row by row, fill the prior
 * downwards. The text is read here (readMatrix); a large paste is read in a worker and its block
 * given to applyBlock. The result says which of these happened (pasteNote puts it in words).
 * @returns {{ok: true, decimalComma: boolean, how: 'new' | 'fill' | 'prior', r: number, c: number, rows: number, cols: number, grew: boolean} | {error: string}}
 */
export function pasteIntoChannel(s, r, c, text) {
  const b = readMatrix(text);
  if ('error' in b) return b;
  return applyBlock(s, r, c, b);
}

/** The texts of a block's cells, row by row (readMatrix's texts, else the shortest decimal). */
function blockTexts(b) {
  const texts = new Map();
  b.texts.index.forEach((k, n) => texts.set(k, b.texts.text[n]));
  return Array.from({ length: b.rows }, (_, i) => Array.from({ length: b.lengths[i] }, (_, j) => texts.get(i * b.cols + j) ?? shortest(b.data[i * b.cols + j])));
}

/**
 * Puts a block read by readMatrix (input/grid.js) into the grid at (r, c), as pasteIntoChannel
 * does.
 */
export function applyBlock(s, r, c, b) {
  if (!b.rows) return { error: 'nothing to paste' };
  const base = { ok: true, decimalComma: b.decimalComma, r, c };
  if (c === -1) {
    const values = blockTexts(b).flat().filter((t) => t !== '');
    if (!values.length) return { error: 'nothing to paste' };
    const k = Math.min(values.length, s.secrets.length - r);
    for (let i = 0; i < k; i++) s.prior[r + i] = values[i];
    s.priorUniform = false;
    return { ...base, how: 'prior', rows: k, cols: 1, grew: false, dropped: values.length - k };
  }
  if (r === 0 && c === 0) {
    // A new channel (a block pasted over an example is not mixed with it).
    loadBlock(s, b);
    return { ...base, how: 'new', rows: b.rows, cols: b.cols, grew: false, labelled: !!(b.rowLabels || b.colLabels) };
  }
  const cols = Math.max(b.cols, b.colLabels ? b.colLabels.length : 0);
  const n0 = s.secrets.length;
  const m0 = s.observables.length;
  growTo(s, r + b.rows, c + cols);
  s.cells.setBlock(r, c, b);
  if (b.rowLabels) b.rowLabels.forEach((t, i) => { s.secrets[r + i] = t; });
  if (b.colLabels) b.colLabels.forEach((t, j) => { if (t !== '') s.observables[c + j] = t; });
  syncDerived(s);
  return { ...base, how: 'fill', rows: b.rows, cols, grew: s.secrets.length > n0 || s.observables.length > m0 };
}

/**
 * What a paste did, in one sentence for the page's notice (the result of pasteIntoChannel or
 * applyBlock, with the state after it): a new channel, or the rows and columns it filled, and the
 * decimal commas it read.
 */
export function pasteNote(res, s) {
  if (!res || !res.ok || !res.how) return '';
  const range = (labels, from, k) => (k === 1 ? labels[from] : `${labels[from]}–${labels[from + k - 1]}`);
  const parts = [];
  if (res.how === 'new') {
    parts.push(`Pasted at the first cell: a new ${res.rows} × ${res.cols} channel${res.labelled ? ' with the pasted labels' : ' with fresh labels'} and a uniform prior (the example before it is gone; Undo brings it back). Paste into another cell to fill the grid from there.`);
  } else if (res.how === 'fill') {
    parts.push(`Pasted a ${res.rows} × ${res.cols} block into rows ${range(s.secrets, res.r, res.rows)} and columns ${range(s.observables, res.c, res.cols)}, filling the grid from there${res.grew ? ` (it grew to ${s.secrets.length} × ${s.observables.length})` : '; the other cells are as they were'}. Paste at the first cell for a new channel.`);
  } else if (res.how === 'prior') {
    parts.push(`Pasted ${res.rows} prior ${res.rows === 1 ? 'entry' : 'entries'} from ${s.secrets[res.r]}${res.dropped ? ` (${res.dropped} more than there are secrets were left out)` : ''}.`);
  }
  if (res.decimalComma) parts.push('Read as decimal commas (cells were separated by tabs, semicolons or spaces, or quoted): 0,5 → 0.5.');
  return parts.join(' ');
}

/**
 * Replaces the channel by a block read from a file (readMatrix): its labels where it has them,
 * x1…, y1… where it has not; a uniform prior and the identity gain.
 */
export function loadBlock(s, b) {
  s.edited = true;
  s.secrets = [];
  s.observables = [];
  pushLabels(s.secrets, b.rows, 'x', b.rowLabels);
  pushLabels(s.observables, b.cols, 'y', b.colLabels);
  s.cells = EntryMatrix.fromBlock(b);
  s.priorUniform = true;
  s.gainIdentity = true;
  syncDerived(s);
}

/**
 * Labels pasted into a label cell fill the labels from there (kind 'row' or 'col'). A block of
 * numbers across the labels' direction (a row of numbers pasted into a row's label, say) is
 * the cells that go with those labels: it fills the cells from that row or column.
 */
export function pasteLabels(s, kind, index, text) {
  const split = splitDelimited(text);
  if ('error' in split) return split;
  const across = kind === 'row' ? Math.max(...split.rows.map((r) => r.length)) : split.rows.length;
  if (across > 1 && split.rows.every((r) => r.every((t) => t === '' || isNumber(t)))) {
    return kind === 'row' ? pasteIntoChannel(s, index, 0, text) : pasteIntoChannel(s, 0, index, text);
  }
  const values = split.rows.flat().filter((t) => t !== '');
  if (values.length < 2) return { error: 'one label: typed as it is' };
  if (kind === 'row') {
    if (s.secrets.length < index + values.length) growTo(s, index + values.length, s.observables.length);
    values.forEach((t, k) => { s.secrets[index + k] = t; });
    syncDerived(s);
  } else {
    if (s.observables.length < index + values.length) growTo(s, s.secrets.length, index + values.length);
    values.forEach((t, k) => { s.observables[index + k] = t; });
  }
  return { ok: true };
}

/** A block pasted into the gain grid at (w, x); columns past the last secret are dropped. */
export function pasteIntoGain(s, w, x, text) {
  const g = parseGrid(text);
  if ('error' in g) return g;
  const grid = g.cells.map((row) => row.filter((_, j) => x + j < s.secrets.length));
  s.gainIdentity = false;
  while (s.gain.length < w + grid.length) addGuess(s);
  grid.forEach((row, i) => row.forEach((t, j) => { s.gain[w + i][x + j] = t; }));
  if (g.rowLabels) g.rowLabels.forEach((t, i) => { s.gainLabels[w + i] = t; });
  return { ok: true };
}

// ---------------------------------------------------------------- a state from a URL

const MAX_ROWS = 1000;
const MAX_COLS = 1000;
const MAX_ENTRIES = 250_000;
const MAX_TEXT = 200;

function fail(msg) {
  throw new Error(msg);
}

function text(v, what) {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') fail(`${what} must be text`);
  if (v.length > MAX_TEXT) fail(`${what} is longer than ${MAX_TEXT} characters`);
  return v;
}

function texts(v, what, len) {
  if (!Array.isArray(v)) fail(`${what} must be a list`);
  if (len !== undefined && v.length !== len) fail(`${what} has ${v.length} entries, expected ${len}`);
  return v.map((x, i) => text(x, `${what}[${i + 1}]`));
}

function grid(v, what, rows, cols) {
  if (!Array.isArray(v)) fail(`${what} must be a list of rows`);
  if (rows !== undefined && v.length !== rows) fail(`${what} has ${v.length} rows, expected ${rows}`);
  return v.map((r, i) => texts(r, `${what} row ${i + 1}`, cols));
}

/**
 * Checks a state from a URL (untrusted) and returns a clean copy with exactly the fields of the
 * state; throws an Error naming the first problem.
 * @param {unknown} s
 */
export function checkState(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) fail('the channel state must be an object');
  const secrets = texts(s.secrets, 'secrets');
  const observables = texts(s.observables, 'observables');
  const n = secrets.length;
  const m = observables.length;
  if (n < 1 || m < 1) fail('the channel needs at least one row and one column');
  if (n > MAX_ROWS || m > MAX_COLS || n * m > MAX_ENTRIES) fail(`the channel is too large (${n}×${m})`);
  const cells = grid(s.cells, 'channel', n, m);
  const priorUniform = s.priorUniform === true;
  const prior = priorUniform && s.prior === undefined ? [] : texts(s.prior, 'prior', n);
  const gainIdentity = s.gainIdentity !== false;
  let gain = [];
  let gainLabels = [];
  if (!gainIdentity || (s.gain !== undefined && s.gain !== null)) {
    gain = grid(s.gain, 'gain', undefined, n);
    if (gain.length < 1 || gain.length > MAX_ROWS || gain.length * n > MAX_ENTRIES) fail('the gain matrix has no rows or too many');
    gainLabels = texts(s.gainLabels ?? gain.map((_, w) => `w${w + 1}`), 'gain labels', gain.length);
  }
  const known = typeof s.presetId === 'string' && presetById(s.presetId);
  return {
    presetId: known ? s.presetId : DEFAULT_PRESET,
    // A state that is not a known preset as it stands is shown as "Custom (edited)".
    edited: known ? s.edited === true : true,
    secrets,
    observables,
    cells,
    prior,
    priorUniform,
    gainLabels,
    gain,
    gainIdentity,
    alpha: s.alpha === undefined ? DEFAULT_ALPHA : text(s.alpha, 'α'),
    tolerance: s.tolerance === undefined ? DEFAULT_TOLERANCE : text(s.tolerance, 'the capacity tolerance'),
    gainClass: s.gainClass === undefined ? DEFAULT_GAIN_CLASS : gainClassOf(s.gainClass),
    observed: s.observed === undefined ? '' : text(s.observed, 'the observed frequencies'),
    // The program the channel was computed from, when it was (a link carries it).
    program: s.program === undefined ? '' : programText(s.program),
  };
}

/** A program carried by a link: text of at most MAX_PROGRAM characters. */
const MAX_PROGRAM = 20_000;
function programText(v) {
  if (typeof v !== 'string') fail('the program must be text');
  if (v.length > MAX_PROGRAM) fail(`the program is longer than ${MAX_PROGRAM} characters`);
  return v;
}

function gainClassOf(v) {
  if (!GAIN_CLASSES.some((c) => c.id === v)) fail(`the class of gain functions must be one of ${GAIN_CLASSES.map((c) => c.id).join(', ')}`);
  return v;
}

/**
 * A copy of every input of the state, to go back to (Undo): the matrix cloned, the rest deep
 * copied. restore puts it back.
 */
export function snapshot(s) {
  return { ...structuredClone({ ...s, cells: null }), cells: s.cells.clone() };
}

/** Puts back a state taken by snapshot (the snapshot itself is not shared afterwards). */
export function restore(s, snap) {
  Object.assign(s, structuredClone({ ...snap, cells: null }), { cells: snap.cells.clone() });
}

/** Replaces the fields of `s` by those of a checked state (checkState). */
export function assignState(s, clean) {
  for (const k of Object.keys(s)) if (k in clean) s[k] = k === 'cells' ? EntryMatrix.fromTexts(clean.cells) : structuredClone(clean[k]);
  syncDerived(s);
}

/**
 * The state as JSON for a link (the cells as rows of text), or an Error saying why a channel
 * that large cannot go in a link.
 */
export function stateJSON(s) {
  if (s.cells.size > MAX_ENTRIES || s.secrets.length > MAX_ROWS || s.observables.length > MAX_COLS) {
    throw new Error(`a ${s.secrets.length.toLocaleString('en')}×${s.observables.length.toLocaleString('en')} channel is too large for a link (at most ${MAX_ENTRIES.toLocaleString('en')} entries): export it as a CSV file instead`);
  }
  const out = structuredClone({ ...s, cells: null });
  out.cells = s.cells.toTexts();
  return out;
}
