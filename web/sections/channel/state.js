// sections/channel/state.js — the "Channel & leakage" section as data: its state (every input as
// typed), the edits people make (rows, columns, pastes, presets), the check of a state from a
// URL, and what the results panels compute from the validated inputs (the call plan). Pure: no
// DOM, no worker; tests/node/channel-section.test.mjs runs it in Node.
//
// State: {presetId, edited, secrets, observables, cells (n×m text), prior (n text), priorUniform,
// gainLabels, gain (k×n text), gainIdentity, alpha, tolerance, gainClass, observed}. A uniform
// prior and an identity gain follow the number of secrets (syncDerived). `gainClass` is the class
// of gain functions of the additive g-capacity; `observed`, the output frequencies (text) from
// which the iterative Bayesian update estimates a prior.

import { presets, presetById, DEFAULT_PRESET } from '../../presets.js';
import { uniformEntry } from '../../numbers.js';
import { parseGrid, splitDelimited, parseVectorLiteral } from '../../input/grid.js';
import { parseNumber } from '../../input/number.js';
import { rationalVector, rationalMatrix } from '../../input/grid.js';
import { PANELS, PANEL_KEYS, GAIN_CLASSES, DEFAULT_GAIN_CLASS, exactPlan } from '../../measures.js';

export { PANEL_KEYS };

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
  s.cells = p.channel.map((r) => r.slice());
  s.priorUniform = true;
  s.gainIdentity = true;
  syncDerived(s);
}

/** Keeps a uniform prior and an identity gain in step with the number of secrets. */
export function syncDerived(s) {
  const n = s.secrets.length;
  if (s.priorUniform) s.prior = new Array(n).fill(uniformEntry(n));
  if (s.gainIdentity) {
    s.gain = Array.from({ length: n }, (_, w) => Array.from({ length: n }, (_, x) => (w === x ? '1' : '0')));
    s.gainLabels = s.secrets.slice();
  }
}

export function freshLabel(existing, prefix, k) {
  const taken = new Set(existing);
  while (taken.has(`${prefix}${k}`)) k++;
  return `${prefix}${k}`;
}

export function addRow(s, at = s.secrets.length) {
  const m = s.observables.length;
  s.secrets.splice(at, 0, freshLabel(s.secrets, 'x', at + 1));
  s.cells.splice(at, 0, new Array(m).fill(m ? uniformEntry(m) : '0'));
  if (!s.priorUniform) s.prior.splice(at, 0, '0');
  if (!s.gainIdentity) for (const row of s.gain) row.splice(at, 0, '0');
  syncDerived(s);
}

export function removeRow(s, i) {
  s.secrets.splice(i, 1);
  s.cells.splice(i, 1);
  if (!s.priorUniform) s.prior.splice(i, 1);
  if (!s.gainIdentity) for (const row of s.gain) row.splice(i, 1);
  syncDerived(s);
}

export function addCol(s, at = s.observables.length) {
  s.observables.splice(at, 0, freshLabel(s.observables, 'y', at + 1));
  for (const row of s.cells) row.splice(at, 0, '0');
}

export function removeCol(s, j) {
  s.observables.splice(j, 1);
  for (const row of s.cells) row.splice(j, 1);
}

export function addGuess(s) {
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
 * Fills the grid from cell (r, c) with a pasted block, growing it as needed; labels in the block
 * (a header row, a first column) become the labels of those rows and columns. c = −1 is the
 * prior column: the values, read row by row, fill the prior downwards.
 * @returns {{ok: true} | {error: string}}
 */
export function pasteIntoChannel(s, r, c, text) {
  if (c === -1) {
    const split = splitDelimited(text);
    if ('error' in split) return split;
    const values = split.rows.flat().filter((t) => t !== '');
    if (!values.length) return { error: 'nothing to paste' };
    for (let k = 0; k < values.length && r + k < s.secrets.length; k++) s.prior[r + k] = values[k];
    s.priorUniform = false;
    return { ok: true };
  }
  const g = parseGrid(text);
  if ('error' in g) return g;
  const rows = g.cells.length;
  const cols = Math.max(...g.cells.map((row) => row.length), g.colLabels ? g.colLabels.length : 0);
  while (s.secrets.length < r + rows) addRow(s);
  while (s.observables.length < c + cols) addCol(s);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < g.cells[i].length; j++) s.cells[r + i][c + j] = g.cells[i][j];
    if (g.rowLabels) s.secrets[r + i] = g.rowLabels[i];
  }
  if (g.colLabels) g.colLabels.forEach((t, j) => { if (t !== '') s.observables[c + j] = t; });
  syncDerived(s);
  return { ok: true };
}

/** Labels pasted into a label cell fill the labels from there (kind 'row' or 'col'). */
export function pasteLabels(s, kind, index, text) {
  const split = splitDelimited(text);
  if ('error' in split) return split;
  const values = split.rows.flat().filter((t) => t !== '');
  if (values.length < 2) return { error: 'one label: typed as it is' };
  if (kind === 'row') {
    while (s.secrets.length < index + values.length) addRow(s);
    values.forEach((t, k) => { s.secrets[index + k] = t; });
    syncDerived(s);
  } else {
    while (s.observables.length < index + values.length) addCol(s);
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
  if (!gainIdentity || s.gain !== undefined) {
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

/** Replaces the fields of `s` by those of a checked state (checkState). */
export function assignState(s, clean) {
  for (const k of Object.keys(s)) if (k in clean) s[k] = structuredClone(clean[k]);
  syncDerived(s);
}

// ---------------------------------------------------------------- the call plan

// Matrices go to the worker as {rows, cols, data: Float64Array}: one cheap clone per job and one
// bulk copy into Go, however many calls of the job use them.
function flat(M) {
  const rows = M.length;
  const cols = rows ? M[0].length : 0;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) data.set(M[i], i * cols);
  return { rows, cols, data };
}

/** Most channel entries (n·m, and k·n for the gain) for which the page asks for exact values. */
export const EXACT_MAX_ENTRIES = 10_000;

/**
 * The inputs as exact fraction strings ("1/3") for the engine's exact mode: {prior, channel,
 * gain}, each null when an entry is not rational as typed (ln 2, say) or the matrices are larger
 * than EXACT_MAX_ENTRIES, and `why` saying why when one is null (for the note under the results).
 * Only what the user typed is read, never the decimals: "1/3" stays 1/3.
 * @param {{cells: string[][], prior: string[], gain: string[][]}} s
 */
export function exactInputs(s) {
  const n = s.cells.length;
  const m = n ? s.cells[0].length : 0;
  const out = { prior: null, channel: null, gain: null, why: null };
  if (n * m > EXACT_MAX_ENTRIES || s.gain.length * n > EXACT_MAX_ENTRIES) {
    out.why = `exact values are computed for up to ${EXACT_MAX_ENTRIES.toLocaleString('en')} entries`;
    return out;
  }
  out.prior = rationalVector(s.prior);
  out.channel = rationalMatrix(s.cells);
  out.gain = rationalMatrix(s.gain);
  if (!out.prior || !out.channel || !out.gain) out.why = 'exact values need every entry as a decimal or a fraction (not ln, say)';
  return out;
}

/**
 * The validated inputs (validateInputs) as panels use them: value (null when invalid; matrices
 * flattened), exact (its fraction strings, or null) and a signature for change detection, per
 * input. `extra` carries what is not typed in the grids: the class of gain functions and the
 * exact inputs (exactInputs).
 */
export function panelInputs(checked, { gainClass = DEFAULT_GAIN_CLASS, exact = null } = {}) {
  const out = {};
  const exactOf = { prior: exact?.prior ?? null, channel: exact?.channel ?? null, gain: exact?.gain ?? null };
  for (const [d, raw] of Object.entries({ prior: checked.prior, channel: checked.channel, gain: checked.gain, alpha: checked.alpha, tolerance: checked.tolerance, gainClass })) {
    const value = raw !== null && (d === 'channel' || d === 'gain') ? flat(raw) : raw;
    const ex = raw === null ? null : exactOf[d] ?? null;
    // String() keeps α = ∞ apart from null in JSON; the exact text tells 1/3 from 0.3333333333333333.
    const sig = raw === null ? 'null' : typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : JSON.stringify(raw) + (ex ? JSON.stringify(ex) : '');
    out[d] = { value, exact: ex, sig };
  }
  return out;
}

/**
 * What each panel should do for these inputs: 'stale' (an input it needs is invalid), 'same'
 * (its inputs are those of the answer shown or computing) or 'run' with the calls of its job
 * and, when its exact inputs are all there, the exact job {keys, calls} (measures.js exactPlan).
 * `last` maps a panel to the signature of its last run.
 * @returns {Record<string, {action: 'stale'|'same'|'run', sig: string|null, calls?: object[], exact?: {keys: string[], calls: object[]}|null}>}
 */
export function panelPlan(inputs, last = {}) {
  const args = { prior: inputs.prior.value, C: inputs.channel.value, G: inputs.gain.value, alpha: inputs.alpha.value, tolerance: inputs.tolerance.value, gainClass: inputs.gainClass.value };
  const exactArgs = { prior: inputs.prior.exact, C: inputs.channel.exact, G: inputs.gain.exact, gainClass: inputs.gainClass.value };
  const plan = {};
  for (const [name, p] of Object.entries(PANELS)) {
    if (p.deps.some((d) => inputs[d].value === null)) {
      plan[name] = { action: 'stale', sig: null };
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
 * ({key, value, exact, unit, name}), the hyper-distribution with its labels, the capacity.
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
    rows.push({ key, name: d.name, value, exact: exact[key] ?? '', unit: d.unit });
  }
  let hyper = null;
  const h = shown.hyper;
  if (h && h.ok) {
    const { outer, inners } = h.value;
    hyper = {
      outer: Array.from(outer),
      inners: Array.from({ length: inners.rows }, (_, k) => Array.from(inners.data.subarray(k * inners.cols, (k + 1) * inners.cols))),
      labels: hyperLabels,
    };
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
 * channel is small enough to match them cheaply (beyond, inners are numbered only).
 */
export function posteriorLabels(hyper, C, prior, observables, limit = 250_000) {
  const labels = Array.from({ length: hyper.inners.rows }, () => []);
  const n = C.length;
  const m = n ? C[0].length : 0;
  if (n * m > limit) return labels;
  const { rows, cols, data } = hyper.inners;
  for (let y = 0; y < m; y++) {
    let py = 0;
    for (let x = 0; x < n; x++) py += prior[x] * C[x][y];
    if (py <= 0) continue;
    for (let k = 0; k < rows; k++) {
      let same = true;
      for (let x = 0; x < cols && same; x++) same = Math.abs(data[k * cols + x] - (prior[x] * C[x][y]) / py) <= 1e-9;
      if (same) {
        labels[k].push(observables[y]);
        break;
      }
    }
  }
  return labels;
}
