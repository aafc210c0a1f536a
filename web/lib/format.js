// lib/format.js — how the page shows an exact result beside its decimal: "2/7 ≈ 0.2857", or
// "1/4 = 0.25" when the decimal shown is the fraction itself. The fractions come from the
// engine's exact mode (qif.exact, run in the worker); nothing here computes a measure.
// Pure functions except showExact, which builds DOM through textContent only.

import { formatNumber, formatFull } from './numbers.js';
import { parseRational } from '../input/number.js';
import { Fraction } from './rational.js';

export { Fraction };

/** Longest fraction text shown beside a decimal; a longer one is in the tooltip and exports. */
export const MAX_FRACTION_CHARS = 40;

/**
 * The Fraction of an exact result of the engine ("2/7", "-3/4", "5"), or null for anything
 * else ("Infinity", a malformed text).
 * @param {unknown} text
 * @returns {Fraction | null}
 */
export function fractionOf(text) {
  if (typeof text !== 'string' || !/^-?\d+(?:\/\d+)?$/.test(text)) return null;
  return parseRational(text);
}

/** The number an exact result stands for (Infinity for "Infinity"), for a decimal beside it. */
export function exactNumber(text) {
  if (text === 'Infinity') return Infinity;
  const f = fractionOf(text);
  return f ? f.toNumber() : NaN;
}

/**
 * The text before the decimal of v: "2/7 ≈ " (or "1/4 = " when the decimal shown is exactly the
 * fraction), or '' when there is no fraction worth showing (none, an integer the decimal already
 * shows, or one longer than MAX_FRACTION_CHARS).
 * @param {string | null | undefined} text  the engine's exact value
 * @param {number} v   the decimal shown
 */
export function exactPrefix(text, v) {
  const f = fractionOf(text);
  if (!f || text.length > MAX_FRACTION_CHARS) return '';
  const shown = parseRational(formatNumber(v).replace(/\u2212/g, '-'));
  const same = shown !== null && shown.eq(f);
  if (same && f.d === 1n) return '';
  return `${f} ${same ? '=' : '≈'} `;
}

/** A short title for an exact value too long to show: its number of digits. */
export function exactTitle(text) {
  if (typeof text !== 'string') return '';
  if (text.length <= MAX_FRACTION_CHARS) return `exactly ${text.replace(/^-/, '−')}`;
  const [n, d = '1'] = text.replace(/^-/, '').split('/');
  return `exact fraction of ${n.length} / ${d.length} digits (in the exports)`;
}

/**
 * Shows (or clears) the exact fraction in a <span class="exact"> just before a value element.
 * @param {HTMLElement} valueEl the <output> showing the decimal
 * @param {string | null | undefined} text the engine's exact value, or null to clear
 * @param {number} [v] the decimal shown
 */
export function showExact(valueEl, text, v) {
  let span = valueEl.previousElementSibling;
  if (!span || !span.classList.contains('exact')) {
    if (!text) return;
    span = document.createElement('span');
    span.className = 'exact';
    if (valueEl.dataset.testid) span.dataset.testid = valueEl.dataset.testid.replace(/^value-/, 'exact-');
    valueEl.before(span);
  }
  span.textContent = text ? exactPrefix(text, v) : '';
  if (text) span.dataset.value = text;
  else delete span.dataset.value;
}

/** Text of a table cell holding the exact value `text` (its decimal v): "2/7 ≈ 0.2857". */
export function exactCell(text, v = exactNumber(text)) {
  return `${exactPrefix(text, v)}${formatNumber(v)}`;
}

export { formatNumber, formatFull };
