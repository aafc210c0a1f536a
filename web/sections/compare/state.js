// sections/compare/state.js — the "Compare two mechanisms" section as data: two channels on the
// same secrets (typed cells or a generated family), their validation, the edits (rows shared by
// both, columns per channel, pastes), the calls that generate a family and decide the three
// refinement orders (and re-evaluate a ⊑avg counterexample with the measure), and the state of a
// shared link. Pure: tests/node/sections.test.mjs runs it in Node.
//
// A channel: {source: {kind: 'custom'} | {kind: 'family', family, eps, m}, cells: string[][],
// exact: (number|null)[][]} — `exact` keeps the full-precision value of generated entries while
// the grid shows 4 digits; an edited cell drops it.
//
// Beside the channels: `prior` (text, '' for uniform), the prior of "how much more can B leak"
// (refine.additiveMetric); `dist` = {x, x2, metric, width}, the two secrets whose output
// distributions the distances panel compares, in A and in B, and the ground metric on outputs of
// its Kantorovich distances (distances.js).

import { parseNumber, parseInteger } from '../../input/number.js';
import { parseGrid, parseVectorLiteral } from '../../input/grid.js';
import { formatNumber, TOLERANCE } from '../../lib/numbers.js';
import { FAMILIES, familySource } from './presets.js';

export const MAX_N = 40;
export const MAX_M = 40;
export const KEYS = ['A', 'B'];
export const ORDER_IDS = ['avg', 'max', 'prv'];

export function emptyChannel(n, m) {
  return { source: { kind: 'custom' }, cells: Array.from({ length: n }, () => new Array(m).fill(`1/${m}`)), exact: Array.from({ length: n }, () => new Array(m).fill(null)) };
}

export function createState(n = 3) {
  return { example: '', n, ch: { A: emptyChannel(n, n), B: emptyChannel(n, n) }, prior: '', dist: { ...DEFAULT_DIST } };
}

/** Sets a channel's cells (text) and, for generated entries, their exact values. */
export function setCells(ch, rows, exact = null) {
  ch.cells = rows.map((r) => r.slice());
  ch.exact = exact ? exact.map((r) => r.slice()) : rows.map((r) => r.map(() => null));
}

/** Loads an example pair (compare-presets.js): literal rows now, families as placeholders. */
export function loadExample(s, ex) {
  s.example = ex.id;
  s.n = ex.n;
  for (const K of KEYS) {
    const spec = ex[K];
    if (spec.source.kind === 'family') {
      s.ch[K] = { source: { ...spec.source }, cells: [], exact: [] };
      const m = spec.source.m === '' ? FAMILIES[spec.source.family].defaultM(ex.n) : Number(spec.source.m);
      setCells(s.ch[K], Array.from({ length: ex.n }, () => new Array(m).fill('…')));
    } else {
      s.ch[K] = { source: { kind: 'custom' }, cells: [], exact: [] };
      setCells(s.ch[K], spec.cells);
    }
  }
}

// ---------------------------------------------------------------- edits

export function setCell(ch, i, j, text) {
  ch.cells[i][j] = text;
  ch.exact[i][j] = null;
  ch.source = { kind: 'custom' };
}

function pushCol(ch) {
  for (let i = 0; i < ch.cells.length; i++) {
    ch.cells[i].push('0');
    ch.exact[i].push(null);
  }
}

// One more secret in both channels: a custom channel gets a uniform row (a family is rebuilt).
export function growRows(s) {
  s.n += 1;
  for (const K of KEYS) {
    const ch = s.ch[K];
    const m = ch.cells[0]?.length ?? 1;
    ch.cells.push(new Array(m).fill(`1/${m}`));
    ch.exact.push(new Array(m).fill(null));
  }
}

export function addRow(s) {
  if (s.n >= MAX_N) return false;
  growRows(s);
  return true;
}

export function removeRow(s, i) {
  if (s.n <= 2) return false;
  s.n -= 1;
  for (const K of KEYS) {
    s.ch[K].cells.splice(i, 1);
    s.ch[K].exact.splice(i, 1);
  }
  return true;
}

export function addCol(ch) {
  if (ch.cells[0].length >= MAX_M) return false;
  pushCol(ch);
  ch.source = { kind: 'custom' };
  return true;
}

export function removeCol(ch, j) {
  if (ch.cells[0].length <= 1) return false;
  for (let i = 0; i < ch.cells.length; i++) {
    ch.cells[i].splice(j, 1);
    ch.exact[i].splice(j, 1);
  }
  ch.source = { kind: 'custom' };
  return true;
}

/**
 * A block pasted into cell (r, c) of channel K fills it from there; extra columns are added to
 * this channel, extra rows (secrets) to both, up to MAX_N × MAX_M. Labels in the block are
 * dropped (the secrets and outputs here are numbered).
 * @returns {{ok: true} | {error: string}}
 */
export function paste(s, K, r, c, text) {
  const g = parseGrid(text);
  if ('error' in g) return g;
  const grid = g.cells;
  const ch = s.ch[K];
  const rows = Math.min(grid.length, MAX_N - r);
  while (s.n < r + rows) growRows(s);
  const cols = Math.min(Math.max(...grid.map((row) => row.length)), MAX_M - c);
  while (ch.cells[0].length < c + cols) pushCol(ch);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < Math.min(cols, grid[i].length); j++) {
      ch.cells[r + i][c + j] = grid[i][j];
      ch.exact[r + i][c + j] = null;
    }
  }
  ch.source = { kind: 'custom' };
  return { ok: true };
}

export function swap(s) {
  [s.ch.A, s.ch.B] = [s.ch.B, s.ch.A];
}

// ---------------------------------------------------------------- validation

/**
 * Checks a channel's cells: per-cell messages ("i:j"), row messages, row sums, the messages of
 * the editor and the matrix (null unless every row is a distribution). `genError` is the
 * message of a family that could not be generated.
 */
export function validateChannel(ch, genError = null) {
  const cell = new Map();
  const row = [];
  const sums = [];
  const messages = [];
  const matrix = [];
  let ok = true;
  if (genError) {
    ok = false;
    messages.push(genError);
  }
  ch.cells.forEach((r, i) => {
    let sum = 0;
    let rowOk = true;
    const vals = r.map((text, j) => {
      const ex = ch.exact[i][j];
      if (ex !== null) {
        sum += ex;
        return ex;
      }
      const p = parseNumber(text);
      const msg = 'error' in p ? p.error : p.value < 0 ? 'negative' : p.value > 1 ? 'more than 1' : null;
      if (msg) {
        cell.set(`${i}:${j}`, msg);
        rowOk = false;
        return NaN;
      }
      sum += p.value;
      return p.value;
    });
    sums.push(rowOk ? sum : NaN);
    if (!rowOk) {
      ok = false;
      messages.push(`Row x${i}: a cell is not a probability.`);
    } else if (Math.abs(sum - 1) > TOLERANCE) {
      row[i] = `sums to ${formatNumber(sum, 6)}`;
      ok = false;
      messages.push(`Row x${i} sums to ${formatNumber(sum, 6)}, expected 1.`);
    }
    matrix.push(vals);
  });
  return { ok, cell, row, sums, messages, matrix: ok ? matrix : null };
}

/** Both matrices when both channels are valid and on the same secrets, else null. */
export function bothValid(checked) {
  const a = checked.A?.matrix;
  const b = checked.B?.matrix;
  if (!a || !b || a.length !== b.length) return null;
  return { A: a, B: b };
}

// ---------------------------------------------------------------- call plans

/**
 * The calls that generate a family channel for n secrets: {calls} or {epsMsg, mMsg} naming
 * what to fix. The exponential family also asks for its true ε.
 */
export function familyPlan(src, n) {
  const e = parseNumber(src.eps);
  const epsMsg = 'error' in e ? e.error : e.value <= 0 ? 'ε must be > 0' : e.value > 700 ? 'too large' : null;
  let m = FAMILIES[src.family].defaultM(n);
  let mMsg = null;
  if (src.m !== '') {
    const r = parseInteger(src.m, { min: 1, max: MAX_M });
    if ('error' in r) mMsg = /whole|least|most/.test(r.error) ? `an integer from 1 to ${MAX_M}` : r.error;
    else m = r.value;
  }
  if (!mMsg && src.family === 'overTruncatedGeometric' && m >= n) mMsg = `fewer than n = ${n}`;
  if (epsMsg || mMsg) return { epsMsg, mMsg };
  const calls = [{ ns: 'mechanism', fn: src.family, args: FAMILIES[src.family].args(n, e.value, m) }];
  if (src.family === 'exponential') calls.push({ ns: 'mechanism', fn: 'exponentialEpsilon', args: [n, e.value, m] });
  return { calls, epsilon: e.value, m };
}

/** The three orders both ways: A ⊑ B (forward) then B ⊑ A (reverse), in ORDER_IDS order. */
export function verdictPlan(A, B) {
  const calls = [];
  for (const [X, Y] of [[A, B], [B, A]]) for (const id of ORDER_IDS) calls.push({ ns: 'refine', fn: id, args: [X, Y] });
  return calls;
}

/** The verdicts as data from the six settled results of verdictPlan. */
export function readVerdicts(results) {
  return { forward: results.slice(0, 3), reverse: results.slice(3) };
}

/** The summary sentence for the forward verdicts (holds: true/false/null per order). */
export function summary(f) {
  let text;
  if (f.some((x) => x === null)) text = 'Some orders could not be decided (see the boxes).';
  else if (f[0]) text = 'B is safe in place of A for all three orders: B is a post-processing of A.';
  else if (f[1]) text = 'B is safe in place of A against max-case adversaries and for d-privacy, but not against every average-case adversary.';
  else if (f[2]) text = 'B is safe in place of A only for d-privacy: some max-case (and average-case) adversary prefers B.';
  else text = 'B is not safe in place of A under any of the three orders.';
  if ((f[0] === true && f[1] === false) || (f[1] === true && f[2] === false)) text += ' (Inconsistent with ⊑avg ⇒ ⊑max ⇒ ⊑prv: a numerical tolerance was hit.)';
  return text;
}

// ---------------------------------------------------------------- matrices

/** A matrix from the engine ({rows, cols, data}) as an array of rows. */
export function toRows(M) {
  if (Array.isArray(M)) return M.map((r) => Array.from(r));
  const out = [];
  for (let i = 0; i < M.rows; i++) out.push(Array.from(M.data.subarray ? M.data.subarray(i * M.cols, (i + 1) * M.cols) : M.data.slice(i * M.cols, (i + 1) * M.cols)));
  return out;
}

/**
 * The engine calls that re-evaluate a ⊑avg counterexample (r, a settled refine.avg result) with
 * the measure itself, V_g[π▷C] for C = A and C = B (docs/mathematics.md#entropies-and-leakage):
 * an independent check of the numbers the verdict reports. null when there is nothing to check.
 */
export function avgCheckPlan(r, A, B) {
  const ce = r && r.ok && !r.value.holds ? r.value.counterexample : null;
  if (!ce || !ce.gain || !ce.prior) return null;
  return [A, B].map((C) => ({ ns: 'measure', fn: 'posteriorGVulnerability', args: [ce.gain, ce.prior, C] }));
}


// ---------------------------------------------------------------- a state from a URL

/** What getState saves of a channel: its family, or its cells (full precision where known). */
export function channelState(ch) {
  if (ch.source.kind === 'family') return { source: { ...ch.source } };
  return { source: { kind: 'custom' }, cells: ch.cells.map((r, i) => r.map((t, j) => (ch.exact[i][j] !== null ? String(ch.exact[i][j]) : t))) };
}

/**
 * The channels of an untrusted state (a shared link) as {n, ch}, or null when anything is
 * malformed (the section then keeps what it shows).
 */
export function channelsFrom(s) {
  const n = Number(s.n);
  if (!Number.isInteger(n) || n < 2 || n > MAX_N) return null;
  const ch = {};
  for (const K of KEYS) {
    const c = s[K];
    if (!c || typeof c !== 'object' || !c.source) return null;
    if (c.source.kind === 'family' && FAMILIES[c.source.family]) {
      ch[K] = { source: familySource(c.source.family, String(c.source.eps ?? '1'), String(c.source.m ?? '')), cells: Array.from({ length: n }, () => ['…']), exact: Array.from({ length: n }, () => [null]) };
    } else if (Array.isArray(c.cells) && c.cells.length === n && c.cells.every((r) => Array.isArray(r) && r.length >= 1 && r.length <= MAX_M && r.length === c.cells[0].length)) {
      ch[K] = { source: { kind: 'custom' }, cells: c.cells.map((r) => r.map((t) => String(t).slice(0, 40))), exact: c.cells.map((r) => r.map(() => null)) };
    } else return null;
  }
  return { n, ch };
}

// ---------------------------------------------------------------- how much more can B leak

/**
 * The prior of the additive refinement metric, as typed: '' or "uniform" for the uniform prior,
 * else n entries (JSON or separated by commas or spaces) summing to 1.
 * @returns {{value: number[], uniform: boolean} | {error: string}}
 */
export function parsePrior(text, n) {
  const t = String(text ?? '').trim();
  if (t === '' || t.toLowerCase() === 'uniform') return { value: new Array(n).fill(1 / n), uniform: true };
  const lit = parseVectorLiteral(t);
  if ('error' in lit) return { error: `prior: ${lit.error}` };
  if (lit.entries.length !== n) return { error: `prior: ${lit.entries.length} entries for ${n} secrets` };
  const p = [];
  for (const [i, e] of lit.entries.entries()) {
    const r = parseNumber(e);
    if ('error' in r) return { error: `prior: entry ${i + 1}: ${r.error}` };
    if (r.value < 0) return { error: `prior: entry ${i + 1} is negative` };
    p.push(r.value);
  }
  const sum = p.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > TOLERANCE) return { error: `prior: the entries sum to ${formatNumber(sum, 6)}, expected 1` };
  return { value: p, uniform: false };
}

/** The call of "how much more can B leak than A" for this prior. */
export function additiveMetricCall(prior, A, B) {
  return { ns: 'refine', fn: 'additiveMetric', args: [prior, A, B] };
}

/**
 * Names of the guesses of the gain function refine.additiveMetric returns: one per output of A
 * (y0, y1, …), one per output of B (z0, …), then the guess that gains nothing.
 */
export function leakGainLabels(mA, mB) {
  return [...Array.from({ length: mA }, (_, j) => `w(y${j})`), ...Array.from({ length: mB }, (_, j) => `w(z${j})`), 'w⊥'];
}

export const DEFAULT_DIST = Object.freeze({ x: '0', x2: '1', metric: 'line', width: '2' });
