// lib/row-names.js — how the page and the widgets name a row, a column or an entry for a reader:
// by its label and by its number counted from 1, as the reader sees them ("row “x3” (row 3)").
// The JS API counts from 0, like every JS array ("channel: row 2 sums to 0.9, expected 1"), and
// keeps doing so: its messages name JS indices a program can use. readerMessage() translates
// such a message for the page or a widget, which know the labels; anything it does not
// recognise is left as the API wrote it.

/**
 * A row (or column, or entry) named for a reader: `row “x3” (row 3)` with a label, `row 3`
 * without one.
 * @param {number} i         the 0-based index
 * @param {string} [label]   its label, if it has one
 * @param {string} [noun]    "row", "column", "entry", …
 */
export function rowName(i, label, noun = 'row') {
  const numbered = `${noun} ${i + 1}`;
  return label ? `${noun} “${label}” (${numbered})` : numbered;
}

/**
 * @typedef {object} Labels the labels of one argument of the API, each list optional
 * @property {string[]} [rows]  its rows (a matrix) or entries (a vector)
 * @property {string[]} [cols]  its columns (a matrix)
 */

// "channel: row 2 sums to …", possibly after the function's name ("exact.measure.…: channel: …").
const ROW = /(^|: )([A-Za-z]\w*): row (\d+) (sums to|has no|has \d+ entries)/g;
// "channel: entry [1][2] is …": an entry of a matrix.
const CELL = /(^|: )([A-Za-z]\w*): entry \[(\d+)\]\[(\d+)\]/g;
// "prior: entry 1 is …": an entry of a vector.
const ENTRY = /(^|: )([A-Za-z]\w*): entry (\d+)\b/g;
// "channel: ragged matrix: row 1 has 1 entries, row 0 has 2".
const RAGGED = /(^|: )([A-Za-z]\w*): ragged matrix: row (\d+) has (\d+) entries, row 0 has/g;

/**
 * An API message as the page or a widget shows it: the rows, columns and entries of the
 * arguments in `names` (keyed by the argument's name in the message: "channel", "prior", "A")
 * are named by their labels and their numbers from 1. Other arguments, and messages of any
 * other shape, are returned unchanged.
 * @param {string} message
 * @param {Record<string, Labels>} names
 */
export function readerMessage(message, names) {
  const known = (arg) => Object.hasOwn(names, arg);
  return String(message)
    .replace(RAGGED, (all, sep, arg, i, k) => (known(arg)
      ? `${sep}${arg}: ragged matrix: ${rowName(+i, names[arg].rows?.[+i])} has ${k} entries, row 1 has`
      : all))
    .replace(ROW, (all, sep, arg, i, rest) => (known(arg) ? `${sep}${arg}: ${rowName(+i, names[arg].rows?.[+i])} ${rest}` : all))
    .replace(CELL, (all, sep, arg, i, j) => (known(arg)
      ? `${sep}${arg}: the entry in ${rowName(+i, names[arg].rows?.[+i])}, ${rowName(+j, names[arg].cols?.[+j], 'column')}`
      : all))
    .replace(ENTRY, (all, sep, arg, i) => (known(arg) ? `${sep}${arg}: ${rowName(+i, names[arg].rows?.[+i], 'entry')}` : all));
}
