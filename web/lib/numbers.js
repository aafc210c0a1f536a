// lib/numbers.js — formatting what the page shows. Pure functions, no DOM. (What people type is read
// by the one grammar of input/.)

/** Significant digits shown on the page; the full value goes into a tooltip. */
export const DIGITS = 4;

/** Absolute tolerance on row and prior sums; the same as core/channel.Tolerance. */
export const TOLERANCE = 1e-6;

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

/** Units written in the singular after a value shown as 1 (or −1): "1 bit", "2 bits", "0.5 bits". */
const SINGULAR = { bits: 'bit', nats: 'nat', guesses: 'guess', 'cell sides': 'cell side', steps: 'step', iterations: 'iteration' };

/**
 * The unit to write after a value as shown (`shown`, the text of formatNumber, or a number):
 * singular for exactly one, as English says it ("1 bit"); other units unchanged.
 */
export function unitFor(unit, shown) {
  const text = typeof shown === 'number' ? formatNumber(shown) : String(shown ?? '');
  return (text === '1' || text === '−1' || text === '-1') && Object.hasOwn(SINGULAR, unit) ? SINGULAR[unit] : unit;
}

/** A value with its unit: "1 bit", "0.5 bits". */
export function withUnit(x, unit, digits) {
  const shown = formatNumber(x, digits);
  return `${shown} ${unitFor(unit, shown)}`;
}
