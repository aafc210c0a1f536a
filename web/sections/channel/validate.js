// sections/channel/validate.js — immediate, per-cell checks of the Channel & leakage inputs, so
// that a mistake is shown next to the cell while typing. The engine validates again (and its
// message is shown if it disagrees); the rules here mirror core/channel/validate.go. Numbers are
// read with the page's one grammar (input/number.js).

import { formatNumber, TOLERANCE } from '../../lib/numbers.js';
import { parseNumber } from '../../input/number.js';
import { scanRows } from '../../input/matrix.js';
import { IDENTITY_COMPUTED_UP_TO } from './state.js';
import { rowName } from '../../lib/row-names.js';

const parseEntry = (t) => parseNumber(t);

/** An order α of a Rényi entropy: a number ≥ 0 or ∞ ("inf", "∞"). */
export function parseAlpha(text) {
  const r = parseNumber(text, { infinity: true });
  if ('error' in r) return r;
  if (r.value < 0) return { error: 'α must be ≥ 0' };
  return r;
}

/**
 * @typedef {object} Inputs
 * @property {string[]} secrets
 * @property {string[]} observables
 * @property {import('../../input/matrix.js').EntryMatrix} cells   the n×m channel
 * @property {string[]} prior     n entries as typed
 * @property {string[][] | null} gain    k×n gain entries as typed (null: an identity not written out)
 * @property {string} alpha
 * @property {string} tolerance  stopping gap of the capacity computation, in bits
 */

/**
 * Checks the inputs. Returns the numbers that are valid (null where a part is invalid) and
 * the messages to show: per cell (keyed "c:i:j", "p:i", "g:w:x"), per row, for the prior sum
 * and for α; `messages` lists them all with their location for a summary.
 * @param {Inputs} s
 */
export function validateInputs(s) {
  const out = {
    cell: new Map(),
    row: [],
    rowSums: [],
    priorSum: NaN,
    priorMsg: null,
    alphaMsg: null,
    toleranceMsg: null,
    tolerance: null,
    messages: [],
    channel: null,
    prior: null,
    gain: null,
    gainSkip: null,
    alpha: null,
  };
  const n = s.secrets.length;
  const m = s.observables.length;
  const label = (i) => s.secrets[i] || `row ${i + 1}`;
  const colLabel = (j) => s.observables[j] || `column ${j + 1}`;

  // Channel: its values are read already (input/matrix.js); NaN marks a text that is not a
  // number. One pass over the values (scanRows), made in the data worker when the matrix was
  // read there, so that a 2,000 × 2,000 matrix is not scanned on the page's thread.
  let channelOK = n > 0 && m > 0;
  if (n === 0) out.messages.push({ where: 'channel', text: 'the channel has no rows: add a secret' });
  if (m === 0) out.messages.push({ where: 'channel', text: 'the channel has no columns: add an observable' });
  const M = s.cells;
  const data = M.data;
  const scan = M.scan?.version === M.version && M.rows === n && M.cols === m ? M.scan : scanRows(data, n, m);
  let b = 0; // next of scan.bad: cells with a problem (rare)
  for (let i = 0; i < n; i++) {
    const end = (i + 1) * m;
    for (; b < scan.bad.length && scan.bad[b] < end; b++) {
      const j = scan.bad[b] - i * m;
      const v = data[scan.bad[b]];
      let msg;
      if (Number.isNaN(v)) msg = M.error(i, j) ?? 'not a number';
      else msg = v < 0 ? 'negative' : 'greater than 1';
      out.cell.set(`c:${i}:${j}`, msg);
      out.messages.push({ where: `c:${i}:${j}`, text: `C[${label(i)}, ${colLabel(j)}]: ${msg}${Number.isNaN(v) ? '' : ' (a probability is between 0 and 1)'}` });
      channelOK = false;
    }
    const sum = scan.rowSums[i];
    out.rowSums.push(sum);
    let rowMsg = null;
    if (!Number.isNaN(sum) && m > 0 && Math.abs(sum - 1) > TOLERANCE) {
      rowMsg = `row ${i + 1} sums to ${formatNumber(sum, 6)}, expected 1`;
      out.messages.push({ where: `r:${i}`, text: `${rowName(i, s.secrets[i])} sums to ${formatNumber(sum, 6)}, expected 1` });
      channelOK = false;
    }
    out.row.push(rowMsg);
  }
  if (channelOK) out.channel = { rows: n, cols: m, data, version: M.version };

  // Prior.
  let priorOK = n > 0;
  let psum = 0;
  let pParsed = true;
  const p = [];
  for (let i = 0; i < n; i++) {
    const r = parseEntry(s.prior[i]);
    let msg = null;
    if ('error' in r) msg = r.error;
    else if (r.value < 0) msg = 'negative';
    if (msg) {
      out.cell.set(`p:${i}`, msg);
      out.messages.push({ where: `p:${i}`, text: `π(${label(i)}): ${msg}${'error' in r ? '' : ' (a probability is ≥ 0)'}` });
      priorOK = false;
    }
    if ('error' in r) pParsed = false;
    else psum += r.value;
    p.push('error' in r ? NaN : r.value);
  }
  out.priorSum = pParsed ? psum : NaN;
  if (pParsed && n > 0 && Math.abs(psum - 1) > TOLERANCE) {
    out.priorMsg = `the prior sums to ${formatNumber(psum, 6)}, expected 1`;
    out.messages.push({ where: 'prior', text: out.priorMsg });
    priorOK = false;
  }
  if (priorOK) out.prior = p;

  // Gain: any finite numbers, one column per secret. An identity too large to write out is
  // built here as numbers, or, larger still, not at all (its panels say why).
  if (s.gain === null) {
    if (n * n <= IDENTITY_COMPUTED_UP_TO) {
      const data = new Float64Array(n * n);
      for (let x = 0; x < n; x++) data[x * n + x] = 1;
      out.gain = { rows: n, cols: n, data };
    } else {
      out.gainSkip = `the gain is the identity on ${n.toLocaleString('en')} secrets, which the page does not build as a matrix: with it, g-vulnerability is the Bayes vulnerability shown above`;
    }
  } else {
    let gainOK = s.gain.length > 0 && n > 0;
    if (s.gain.length === 0) out.messages.push({ where: 'gain', text: 'the gain function has no guesses: add one' });
    const G = [];
    for (let w = 0; w < s.gain.length; w++) {
      const row = [];
      for (let x = 0; x < n; x++) {
        const r = parseEntry(s.gain[w][x]);
        if ('error' in r) {
          out.cell.set(`g:${w}:${x}`, r.error);
          out.messages.push({ where: `g:${w}:${x}`, text: `g[guess ${w + 1}, ${label(x)}]: ${r.error}` });
          gainOK = false;
          row.push(NaN);
        } else row.push(r.value);
      }
      G.push(row);
    }
    if (gainOK) out.gain = G;
  }

  const a = parseAlpha(s.alpha);
  if ('error' in a) {
    out.alphaMsg = a.error;
    out.messages.push({ where: 'alpha', text: `α: ${a.error}` });
  } else out.alpha = a.value;

  const t = parseEntry(s.tolerance);
  if ('error' in t || !(t.value > 0)) {
    out.toleranceMsg = 'error' in t ? t.error : 'must be positive';
    out.messages.push({ where: 'tolerance', text: `capacity tolerance: ${out.toleranceMsg}` });
  } else out.tolerance = t.value;

  return out;
}
