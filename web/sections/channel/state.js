// sections/channel/state.js — the "Channel & leakage" section as data: its state (every input as
// typed), the edits people make (rows, columns, pastes, presets), the check of a state from a
// URL, and what the results panels compute from the validated inputs (the call plan). Pure: no
// DOM, no worker; tests/node/channel-section.test.mjs runs it in Node.
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
import { parseGrid, splitDelimited, readMatrix, parseVectorLiteral, rationalVector, rationalMatrix } from '../../input/grid.js';
import { isNumber, parseNumber, parseRational } from '../../input/number.js';
import { EntryMatrix, shortest } from '../../input/matrix.js';
import { PANELS, PANEL_KEYS, GAIN_CLASSES, DEFAULT_GAIN_CLASS, exactPlan } from '../../lib/measures.js';

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
    gainClass: DEFAULT_GAIN_CLASS, observed: '',
  };
  loadPreset(s, presetById(id) ?? presets[0]);
  return s;
}

export function loadPreset(s, p) {
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
  };
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

// ---------------------------------------------------------------- the call plan

/** Up to this many entries a matrix's signature is its values; beyond, its version. */
export const SIGNED_BY_VALUE_UP_TO = 10_000;

// Matrices go to the worker as {rows, cols, data: Float64Array}: one cheap clone per job and one
// bulk copy into Go, however many calls of the job use them. A large one is sent once and
// shared by the jobs (the view does that: engine.share).
function flat(M) {
  if (ArrayBuffer.isView(M.data)) return M;
  const rows = M.length;
  const cols = rows ? M[0].length : 0;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) data.set(M[i], i * cols);
  return { rows, cols, data };
}

function signature(raw) {
  if (raw === null) return 'null';
  if (typeof raw === 'number') return String(raw); // String() keeps α = ∞ apart from null
  if (raw && ArrayBuffer.isView(raw.data)) {
    return raw.data.length <= SIGNED_BY_VALUE_UP_TO || raw.version === undefined ? `${raw.rows}×${raw.cols}:${raw.data.join(',')}` : `${raw.rows}×${raw.cols}@${raw.version}`;
  }
  return JSON.stringify(raw);
}

/**
 * Most channel entries (n·m, and k·n for the gain) for which the page asks for exact values: the
 * engine's exact mode answers within about a second up to there, and a larger channel (a paste
 * or a file of research size) gets decimals only.
 */
export const EXACT_MAX_ENTRIES = 4096;

/**
 * The inputs as exact fraction strings ("1/3") for the engine's exact mode: {prior, channel,
 * gain}, each null when an entry is not rational as typed (ln 2, say) or the matrix is larger
 * than EXACT_MAX_ENTRIES, and `why` saying why (for the note under the results). A gain too
 * large (or an identity not written out) leaves only the g-measures without exact values.
 * Only what the user typed is read, never the decimals: "1/3" stays 1/3.
 * @param {{cells: EntryMatrix, prior: string[], gain: string[][] | null}} s
 */
export function exactInputs(s) {
  const n = s.cells.rows;
  const m = s.cells.cols;
  const out = { prior: null, channel: null, gain: null, why: null };
  if (n * m > EXACT_MAX_ENTRIES) {
    out.why = `exact values are computed for up to ${EXACT_MAX_ENTRIES.toLocaleString('en')} entries`;
    return out;
  }
  out.prior = rationalVector(s.prior);
  out.channel = rationalMatrix(s.cells.toTexts());
  const gainFits = s.gain !== null && s.gain.length * n <= EXACT_MAX_ENTRIES;
  out.gain = gainFits ? rationalMatrix(s.gain) : null;
  if (!out.prior || !out.channel || (gainFits && !out.gain)) out.why = 'exact values need every entry as a decimal or a fraction (not ln, say)';
  else if (!gainFits) out.why = `exact g-values are computed for gains of up to ${EXACT_MAX_ENTRIES.toLocaleString('en')} entries`;
  return out;
}

/**
 * The validated inputs (validateInputs) as panels use them: value (null when invalid; matrices
 * flat, {rows, cols, data}), exact (its fraction strings, or null) and a signature for change
 * detection, per input. A matrix the size of a paste is signed by its values (and its exact
 * text, which tells 1/3 from 0.3333333333333333), so that 0.5 retyped as 1/2 changes nothing; a
 * large one by its version (input/matrix.js), which reading it all on every key would cost. The
 * options carry what is not typed in the grids: the class of gain functions and the exact
 * inputs (exactInputs).
 */
export function panelInputs(checked, { gainClass = DEFAULT_GAIN_CLASS, exact = null } = {}) {
  const out = {};
  const exactOf = { prior: exact?.prior ?? null, channel: exact?.channel ?? null, gain: exact?.gain ?? null };
  for (const [d, raw] of Object.entries({ prior: checked.prior, channel: checked.channel, gain: checked.gain, alpha: checked.alpha, tolerance: checked.tolerance, gainClass })) {
    let value = raw !== null && (d === 'channel' || d === 'gain') ? flat(raw) : raw;
    // A small matrix is copied: the job must not see later edits of the grid.
    if (value && value.data && value.data.length <= SIGNED_BY_VALUE_UP_TO) value = { rows: value.rows, cols: value.cols, data: value.data.slice() };
    const ex = raw === null ? null : exactOf[d] ?? null;
    out[d] = { value, exact: ex, sig: signature(raw) + (ex ? JSON.stringify(ex) : '') };
  }
  if (checked.gainSkip) out.gain = { value: null, sig: 'skip', skip: checked.gainSkip };
  return out;
}

/**
 * Multiply-adds a panel may cost before the page asks rather than starts it: the three
 * g-leakage calls on |W| guesses, n secrets and m outputs cost 3·|W|·n·m (about a second per
 * 2·10⁹ in the worker).
 */
export const PANEL_BUDGET = 4e9;

const COSTS = {
  gpost: ({ C, G }) => 3 * G.rows * C.rows * C.cols,
};

/**
 * What each panel should do for these inputs: 'stale' (an input it needs is invalid), 'skip'
 * (an input is not built at this size, or the panel would cost more than PANEL_BUDGET; `reason`
 * says which), 'same' (its inputs are those of the answer shown or computing) or 'run' with the
 * calls of its job and, when its exact inputs are all there, the exact job {keys, calls}
 * (lib/measures.js exactPlan). `last` maps a panel to the signature of its last run; `force` names
 * panels to run whatever they cost.
 * @returns {Record<string, {action: 'stale'|'skip'|'same'|'run', sig: string|null, calls?: object[], exact?: {keys: string[], calls: object[]}|null, reason?: string, cost?: number}>}
 */
export function panelPlan(inputs, last = {}, force = new Set()) {
  const args = { prior: inputs.prior.value, C: inputs.channel.value, G: inputs.gain.value, alpha: inputs.alpha.value, tolerance: inputs.tolerance.value, gainClass: inputs.gainClass.value };
  const exactArgs = { prior: inputs.prior.exact, C: inputs.channel.exact, G: inputs.gain.exact, gainClass: inputs.gainClass.value };
  const plan = {};
  for (const [name, p] of Object.entries(PANELS)) {
    const skipped = p.deps.find((d) => inputs[d].skip);
    if (skipped) {
      plan[name] = { action: 'skip', sig: null, reason: inputs[skipped].skip };
      continue;
    }
    if (p.deps.some((d) => inputs[d].value === null)) {
      plan[name] = { action: 'stale', sig: null };
      continue;
    }
    const cost = COSTS[name]?.(args) ?? 0;
    if (cost > PANEL_BUDGET && !force.has(name)) {
      plan[name] = { action: 'skip', sig: null, cost, reason: `not started: about ${formatCount(cost)} multiply-adds (|W|·n·m for each of three measures), a long computation at this size` };
      continue;
    }
    const sig = p.deps.map((d) => inputs[d].sig).join('\u0000');
    if (sig === last[name]) {
      plan[name] = { action: 'same', sig };
      continue;
    }
    const exactReady = p.exact && p.deps.every((d) => !['prior', 'channel', 'gain'].includes(d) || inputs[d].exact !== null);
    plan[name] = { action: 'run', sig, calls: p.calls(args), exact: exactReady ? exactPlan(name, exactArgs) : null };
  }
  return plan;
}

/** 8.0·10⁹, 250,000: a count in words people read. */
function formatCount(x) {
  if (x < 1e6) return Math.round(x).toLocaleString('en');
  const e = Math.floor(Math.log10(x));
  return `${(x / 10 ** e).toFixed(1)}·10${String(e).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d])}`;
}

/**
 * The observed output frequencies typed for the iterative Bayesian update ("3, 5, 2" or
 * "[0.3, 0.5, 0.2]"), one per observable: counts are scaled to frequencies summing to 1.
 * @returns {{value: number[], scaled: boolean} | {error: string}}
 */
export function parseObserved(text, m) {
  if (String(text ?? '').trim() === '') return { error: 'enter one count or frequency per observable' };
  const lit = parseVectorLiteral(text);
  if ('error' in lit) return { error: lit.error };
  const values = [];
  for (const [i, t] of lit.entries.entries()) {
    const r = parseNumber(t);
    if ('error' in r) return { error: `entry ${i + 1}: ${r.error}` };
    values.push(r.value);
  }
  if (values.length !== m) return { error: `${values.length} value${values.length === 1 ? '' : 's'} for ${m} observables` };
  if (values.some((v) => !(v >= 0))) return { error: 'counts and frequencies are ≥ 0' };
  const total = values.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return { error: 'at least one count must be positive' };
  const scaled = Math.abs(total - 1) > 1e-12;
  return { value: scaled ? values.map((v) => v / total) : values, scaled };
}

/** The measures by key from a panel's settled results. */
export function derivePanel(name, results) {
  return PANELS[name].derive(results);
}

// ---------------------------------------------------------------- results as data

/**
 * The results the section shows, as data for exports: one row per measure with a value
 * ({key, value, exact, unit, name}), the hyper-distribution with its labels ({outer,
 * inners: {rows, cols, data}, labels}), the capacity.
 * `shown` maps a measure key to its settled result, `exact` to its exact fraction text.
 */
export function resultsOf(shown, { measures, exact = {}, hyperLabels = [], exactHyper = null }) {
  const rows = [];
  for (const [key, d] of Object.entries(measures)) {
    let r = shown[key];
    if (!r || !r.ok) continue;
    let value = r.value;
    if (key === 'shannonCapacity') value = value.capacity;
    if (typeof value !== 'number') continue;
    // The value a known exact result rounds to (3 rather than 2.9999999999999996).
    const f = exact[key] ? parseRational(exact[key]) : null;
    rows.push({ key, name: d.name, value: f ? f.toNumber() : value, exact: exact[key] ?? '', unit: d.unit });
  }
  let hyper = null;
  const h = shown.hyper;
  if (h && h.ok) {
    // Flat, as the engine gave it: a 2,000 × 2,000 hyper is exported without nested arrays.
    const { outer, inners } = h.value;
    hyper = { outer, inners, labels: hyperLabels };
    // The exact hyper, when the engine gave one: its rows in its own order, as fraction strings.
    if (exactHyper) {
      const { outer: eo, inners: ei, outputs } = exactHyper;
      hyper.exact = { outer: eo.slice(), inners: Array.from({ length: ei.rows }, (_, k) => ei.data.slice(k * ei.cols, (k + 1) * ei.cols)), outputs: outputs.map((o) => o.slice()) };
    }
  }
  const cap = shown.shannonCapacity;
  const capacity = cap && cap.ok ? { ...cap.value, prior: Array.from(cap.value.prior) } : null;
  return { measures: rows, hyper, capacity };
}

/**
 * Labels each inner of a hyper-distribution with the outputs whose posterior it is, when the
 * channel is small enough to match them cheaply (beyond, inners are numbered only). C is flat
 * ({rows, cols, data}).
 */
export function posteriorLabels(hyper, C, prior, observables, limit = 250_000) {
  const labels = Array.from({ length: hyper.inners.rows }, () => []);
  const n = C.rows;
  const m = C.cols;
  if (n * m > limit) return labels;
  const { rows, cols, data } = hyper.inners;
  for (let y = 0; y < m; y++) {
    let py = 0;
    for (let x = 0; x < n; x++) py += prior[x] * C.data[x * m + y];
    if (py <= 0) continue;
    for (let k = 0; k < rows; k++) {
      let same = true;
      for (let x = 0; x < cols && same; x++) same = Math.abs(data[k * cols + x] - (prior[x] * C.data[x * m + y]) / py) <= 1e-9;
      if (same) {
        labels[k].push(observables[y]);
        break;
      }
    }
  }
  return labels;
}
