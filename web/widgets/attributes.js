// widgets/attributes.js — how a widget reads its attributes: each element declares them once, in a
// table (its static `attributes`), and that table drives everything an attribute has —
// observedAttributes, the reading of its text, its default, the message naming it when the text
// is wrong — and the check that docs/widgets.md documents it (tests/node/docs.test.mjs).
//
// A table maps each attribute's name to a spec:
//   read(text, cfg, name)  the value of the attribute's text (untrimmed); throws through fail(name, …)
//                          when the text is wrong. cfg holds the values of the attributes above it
//                          in the table, so a later one can be checked against an earlier one.
//   default                its value when the attribute is absent (a function of cfg, or a value);
//                          a function may fail too (a required attribute).
//   blank: 'default'       a blank text counts as absent (else the text is read, and refused).
//   key                    the name of the value in cfg (default: the attribute's name).
//   fallback               the value that stands for it while its text is wrong (default null).
//   style: true            read by the stylesheet only (theme, size): not observed.
//   text: true             read where it is shown (caption): no value in cfg.
// Attributes are untrusted text, read with the page's one grammar (input/). Every problem is
// collected, so that an author sees them all at once. Nothing here touches the DOM.

import { parseNumber as readNumber, parseInteger as readInteger } from '../input/number.js';
import { parseMatrixLiteral, parseVectorLiteral, parseLabels } from '../input/grid.js';

/** The largest matrix side a widget accepts: widgets are for small, readable examples. */
export const MAX_SIDE = 40;

/** The attributes every widget has. */
export const COMMON_ATTRIBUTES = {
  caption: { text: true },
  theme: { style: true },
  size: { style: true },
};

/** An attribute problem, shown inside the widget. */
export class AttributeError extends Error {
  /** @param {string[]} messages one per attribute problem */
  constructor(messages) {
    super(messages.join('\n'));
    this.messages = messages;
  }
}

/** Throws the problem `msg` of the attribute `attr`. */
export function fail(attr, msg) {
  throw new AttributeError([`${attr}: ${msg}`]);
}

/** The attributes of a table that re-render the widget when they change. */
export function observed(table) {
  return Object.keys(table).filter((name) => !table[name].style);
}

/**
 * Collects attribute problems, so that an author sees every one at once: each(read, fallback)
 * runs read(); an attribute problem is noted and `fallback` stands for the value, so that the
 * reading goes on. throwIfAny() then throws them all as one AttributeError.
 */
export function attributeReader() {
  const problems = [];
  const each = (read, fallback = null) => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof AttributeError)) throw e;
      problems.push(...e.messages);
      return fallback;
    }
  };
  each.throwIfAny = () => {
    if (problems.length) throw new AttributeError(problems);
  };
  return each;
}

/**
 * Reads the attributes of `table` from `el` (getAttribute) in the table's order, through `each`
 * (attributeReader): an object mapping each key to its value, or to the spec's fallback (default
 * null) where the text is wrong.
 */
export function readAttributes(table, el, each) {
  const cfg = {};
  for (const [name, spec] of Object.entries(table)) {
    if (spec.style || spec.text) continue;
    const text = el.getAttribute(name);
    const absent = text === null || (spec.blank === 'default' && text.trim() === '');
    cfg[spec.key ?? name] = each(() => {
      if (!absent) return spec.read(text, cfg, name);
      return typeof spec.default === 'function' ? spec.default(cfg, el) : spec.default ?? null;
    }, spec.fallback ?? null);
  }
  return cfg;
}

/** A boolean attribute: present means true, whatever its text (as HTML's own). */
export const flag = { read: () => true, default: false };

/** An attribute whose value is one of `choices` (an array of ids). */
export function oneOf(choices, what = 'must be one of') {
  return (text, _cfg, name) => {
    const v = text.trim();
    if (!choices.includes(v)) fail(name, `${what} ${choices.join(', ')}`);
    return v;
  };
}

// ---------------------------------------------------------------- the grammar of values

export function short(s) {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

// A number as a course author would write it, in the page's grammar: 0.693, 2/7, ln 2, ln 2 / 5.
export function parseNumber(attr, text, options) {
  const s = String(text).trim();
  const r = readNumber(s, options);
  if ('error' in r) fail(attr, `cannot read “${short(s)}” as a number (${r.error})`);
  return r.value;
}

function entry(attr, text, where) {
  const r = readNumber(text);
  if ('error' in r) fail(attr, `${where} “${short(text)}”: ${r.error}`);
  return { value: r.value, text: text.trim() };
}

/** Parses a matrix attribute (see input/grid.js) into {values: number[][], texts: string[][]}. */
export function parseMatrix(attr, text) {
  const lit = parseMatrixLiteral(text);
  if ('error' in lit) fail(attr, lit.error);
  const rows = lit.rows;
  if (rows.length === 0) fail(attr, 'must be a non-empty array of rows');
  if (rows.length > MAX_SIDE) fail(attr, `has ${rows.length} rows; widgets take at most ${MAX_SIDE}`);
  const cols = rows[0].length;
  if (cols < 1) fail(attr, 'row 1 must be a non-empty array of numbers');
  if (cols > MAX_SIDE) fail(attr, `has ${cols} columns; widgets take at most ${MAX_SIDE}`);
  const values = [];
  const texts = [];
  rows.forEach((row, i) => {
    if (row.length !== cols) fail(attr, `row ${i + 1} has ${row.length} entries, row 1 has ${cols}`);
    const e = row.map((v, j) => entry(attr, v, `entry (${i + 1}, ${j + 1})`));
    values.push(e.map((x) => x.value));
    texts.push(e.map((x) => x.text));
  });
  return { values, texts };
}

/** Parses a vector attribute (JSON array, or entries separated by commas or spaces). */
export function parseVector(attr, text) {
  const lit = parseVectorLiteral(text);
  if ('error' in lit) fail(attr, lit.error);
  const v = lit.entries;
  if (v.length === 0) fail(attr, 'must be a non-empty array of numbers');
  if (v.length > MAX_SIDE * MAX_SIDE) fail(attr, 'is too long');
  const e = v.map((x, i) => entry(attr, x, `entry ${i + 1}`));
  return { values: e.map((x) => x.value), texts: e.map((x) => x.text) };
}

export function parseInteger(attr, text, lo, hi) {
  const r = readInteger(text, { min: lo, max: hi });
  if ('error' in r) fail(attr, /must be at/.test(r.error) ? `must be between ${lo} and ${hi}, got ${short(String(text).trim())}` : `must be a whole number, got “${short(String(text).trim())}”`);
  return r.value;
}

/** Labels of rows or columns; their number is checked once the matrix is known (count not null). */
export function parseLabelList(attr, text, count) {
  const r = parseLabels(text);
  if ('error' in r) fail(attr, r.error);
  if (count !== null && r.labels.length !== count) fail(attr, `needs ${count} labels`);
  return r.labels.map((s) => short(s));
}

/**
 * The attributes `show` and `hide` of a widget made of the named `parts` (in the order it draws
 * them): `show="a b"` draws only those, `hide="c"` all but those; neither, every part. Read
 * together by partsShown(cfg) → the Set of parts drawn.
 */
export function partsAttributes(parts) {
  const list = (text, _cfg, name) => {
    const got = text.split(/[\s,]+/).filter(Boolean);
    const unknown = got.filter((p) => !parts.includes(p));
    if (unknown.length) fail(name, `unknown part${unknown.length > 1 ? 's' : ''} ${unknown.map((p) => `“${short(p)}”`).join(', ')}; the parts are ${parts.join(', ')}`);
    return got;
  };
  return {
    show: { blank: 'default', read: list },
    hide: {
      blank: 'default',
      read: (text, cfg, name) => {
        if (cfg.show) fail(name, 'give show or hide, not both');
        return list(text, cfg, name);
      },
    },
  };
}

/** The parts drawn, from the values of partsAttributes' show and hide. */
export function partsShown(parts, cfg) {
  if (cfg.show) return new Set(cfg.show);
  const hidden = new Set(cfg.hide ?? []);
  return new Set(parts.filter((p) => !hidden.has(p)));
}
