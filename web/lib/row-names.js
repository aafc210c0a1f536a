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

/**
 * An API error as the page or a widget shows it: when the error names the argument at fault
 * with a row, entry or cell (error.argument, error.index, error.detail — web/qif.js sets them
 * from the engine's data, the worker passes them on) and `names` has labels for that argument
 * (keyed by its name in the message: "channel", "prior", "A"), the position is written with the
 * labels and numbers from 1; anything else is shown as the API wrote it. A position is a row
 * when the argument has column labels (a matrix), else an entry (a vector).
 * @param {string | {error?: string, message?: string, argument?: string, index?: number | number[], detail?: string}} e
 *   the error, or a result {ok: false, error, …} of the engine
 * @param {Record<string, Labels>} names
 */
export function readerMessage(e, names) {
  const message = typeof e === 'string' ? e : String(e?.error ?? e?.message ?? '');
  if (!e || typeof e !== 'object') return message;
  const { argument, index, detail } = e;
  if (typeof argument !== 'string' || !Object.hasOwn(names, argument) || index === undefined || typeof detail !== 'string') return message;
  // The function's name, if the message has one, stays in front ("measure.mutualInformation: ").
  const at = message.indexOf(`${argument}: `);
  if (at < 0) return message;
  const n = names[argument];
  const where = Array.isArray(index)
    ? `the entry in ${rowName(index[0], n.rows?.[index[0]])}, ${rowName(index[1], n.cols?.[index[1]], 'column')}`
    : rowName(index, n.rows?.[index], n.cols ? 'row' : 'entry');
  const sep = detail.startsWith(':') || detail.startsWith(',') ? '' : ' ';
  return `${message.slice(0, at)}${argument}: ${where}${sep}${detail}`;
}

/** The message without the function's name in front, when the result names its function (fn). */
export function withoutFunction(e) {
  const message = typeof e === 'string' ? e : String(e?.error ?? e?.message ?? '');
  const fn = e && typeof e === 'object' ? e.fn : undefined;
  return typeof fn === 'string' && message.startsWith(`${fn}: `) ? message.slice(fn.length + 2) : message;
}

/**
 * The messages of failed calls as one line, each message once: the reader's wording
 * (readerMessage with the grids' labels) without the function's name, so that one bad input
 * refused by several functions is reported once.
 */
export function onceEach(errors, labels) {
  return [...new Set(errors.map((m) => withoutFunction({ error: readerMessage(m, labels), fn: m?.fn })))].join(' · ');
}
