// numbers.js — parsing what users type or paste, and formatting what the page shows.
// Pure functions, no DOM: the page, the presets and the tests share them.

/** Significant digits shown on the page; the full value goes into a tooltip. */
export const DIGITS = 4;

/** Absolute tolerance on row and prior sums; the same as core/channel.Tolerance. */
export const TOLERANCE = 1e-6;

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const DECIMAL_RE = new RegExp(`^${NUMBER}$`);
const FRACTION_RE = new RegExp(`^(${NUMBER})\\s*/\\s*(${NUMBER})$`);

/**
 * Parses one entry: a decimal ("0.25", "2.5e-3") or a simple fraction ("1/3", "-2 / 7").
 * Accepts the typographic minus sign. Returns {value} or {error} with a short message.
 * @param {string} text
 * @returns {{value: number} | {error: string}}
 */
export function parseEntry(text) {
  const s = String(text ?? '').trim().replace(/\u2212/g, '-');
  if (s === '') return { error: 'empty' };
  if (DECIMAL_RE.test(s)) return checkFinite(Number(s));
  const f = FRACTION_RE.exec(s);
  if (f) {
    const num = Number(f[1]);
    const den = Number(f[2]);
    if (den === 0) return { error: 'division by zero' };
    return checkFinite(num / den);
  }
  return { error: 'not a number' };
}

function checkFinite(v) {
  return Number.isFinite(v) ? { value: v } : { error: 'not a finite number' };
}

/**
 * Parses an order α of a Rényi entropy: a non-negative number, a fraction, or ∞
 * ("inf", "infinity", "∞").
 * @returns {{value: number} | {error: string}}
 */
export function parseAlpha(text) {
  const s = String(text ?? '').trim().toLowerCase();
  if (s === '∞' || s === 'inf' || s === 'infinity' || s === '+inf' || s === '+infinity') return { value: Infinity };
  const r = parseEntry(s);
  if ('error' in r) return r;
  if (r.value < 0) return { error: 'α must be ≥ 0' };
  return r;
}

/**
 * Splits pasted text (from a spreadsheet, a CSV file or a paper) into a grid of trimmed
 * strings. Lines are rows; a line is split on tabs if the text has any, else on commas or
 * semicolons, else on runs of spaces. Empty trailing lines are dropped.
 * @param {string} text
 * @returns {string[][]}
 */
export function splitGrid(text) {
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
  let sep;
  if (/\t/.test(text)) sep = /\t/;
  else if (/[,;]/.test(text)) sep = /\s*[,;]\s*/;
  else sep = /\s+/;
  return lines.map((line) => {
    const t = sep.source === '\\s+' ? line.trim() : line;
    return t.split(sep).map((c) => c.trim());
  });
}

/** Whether a pasted token reads as a number (decimal or fraction). */
export function isNumeric(token) {
  return !('error' in parseEntry(token));
}

/**
 * Formats a number with DIGITS significant digits, dropping trailing zeros, with a real
 * minus sign. Values within 1e-12 of zero are shown as 0 (rounding noise, e.g. a leakage of
 * −2e-16); the tooltip keeps the full value.
 * @param {number} x
 * @param {number} [digits]
 */
export function formatNumber(x, digits = DIGITS) {
  if (typeof x !== 'number' || Number.isNaN(x)) return '—';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  if (Math.abs(x) < 1e-12) return '0';
  let s = x.toPrecision(digits);
  if (s.includes('e')) {
    let [mant, exp] = s.split('e');
    if (mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '');
    s = `${mant}×10${superscript(exp.replace(/^\+/, ''))}`;
  } else if (s.includes('.')) {
    s = s.replace(/0+$/, '').replace(/\.$/, '');
  }
  return s.replace(/^-/, '−');
}

/** The full-precision text for a tooltip. */
export function formatFull(x) {
  if (typeof x !== 'number') return String(x);
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '−∞';
  return String(x);
}

const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
function superscript(s) {
  return [...s].map((c) => SUP[c] ?? c).join('');
}

/**
 * Text for a probability a user would type: "1/n" when it is exactly 1/n for small n,
 * else a short decimal. Used to fill a uniform prior.
 */
export function uniformEntry(n) {
  return n <= 1000 ? `1/${n}` : String(1 / n);
}
