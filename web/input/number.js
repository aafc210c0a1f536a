// input/number.js — the one grammar for a number typed by a person: in a cell of the page, in a
// widget attribute, in a shared link. Pure functions, no DOM (they run in Node, and later in a
// worker for large pastes).
//
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/' | '·' | '×' | <juxtaposition before ln or '('>) unary)*
//   unary   := ('-' | '+') unary | power
//   power   := call ('^' unary)?                   right-associative: 2^-3, 10^6
//   call    := 'ln' unary | primary                 ln applies to the signed power after it
//   primary := decimal | '(' expr ')' | '∞' | 'inf' | 'infinity'   (∞ only where allowed)
//   decimal := the engine's decimal, as generated into api.gen.js (API.number.decimal, from
//              core/exact's DecimalPattern): digits ['.' [digits]] [exponent] | '.' digits [exponent],
//              exponent := ('e' | 'E') ['+' | '-'] digits
//
// Precedence, stated once: a function name binds tighter than every operator but '^', as in
// written mathematics: `ln 2 / 5` is (ln 2)/5, `2 ln 2` is 2·(ln 2), `ln 2^3` is ln 8, and the
// argument of a quotient goes in parentheses, `ln(2/5)`. `1/2/3` is (1/2)/3.
// `log` is refused: entropies on this page are in bits (log₂) and ε in nats (ln), so a bare
// `log` would be read one way by half of the readers; the message says to write `ln`.
// The typographic minus (U+2212) is a minus. A comma between digits is a decimal comma: it is
// refused with a message that names it, unless the caller has established that the text uses
// decimal commas (a pasted spreadsheet block separated by tabs; see grid.js), then `0,5` = 1/2.
// Every result is a finite number; anything else is an error with a short message meant to be
// shown next to the field.
//
// The numbers themselves are not defined here: their pattern and limits come from the Go
// definition that the engine's exact reader implements (core/exact/grammar.go, generated into
// api.gen.js), so that a literal means the same to the page and to the engine; the shared vectors
// of testdata/fractions.json are read by both readers' tests.

import { API } from '../api.gen.js';
import { Fraction, abs } from '../lib/rational.js';

/** @typedef {{value: number} | {error: string}} Parsed */

const GRAMMAR = API.number;
const PLAIN = new RegExp(`^[+-]?${GRAMMAR.decimal}$`);
const DECIMAL_COMMA_HINT = /\d,\d/;

/**
 * Largest power of ten an exact (rational) reading expands, and largest exponent of '^'; beyond,
 * the value is not "simple" (the page's bound, stricter than the engine's ±maxExponent, so that
 * a cell's fraction stays one a reader can take in).
 */
const EXACT_EXPONENT_LIMIT = 60;

/** Longest reduced fraction the engine reads ("n/d", API.number.maxLength characters). */
const MAX_LENGTH = GRAMMAR.maxLength;
// Bits of a numerator or denominator whose decimal text is surely longer than MAX_LENGTH.
const MAX_BITS = Math.ceil(MAX_LENGTH * Math.log2(10)) + 1;

const NOT_A_NUMBER = 'not a number';

/**
 * Parses one number. Options: `decimalComma` (read "0,5" as 0.5), `infinity` (accept ∞, inf).
 * @param {unknown} text
 * @param {{decimalComma?: boolean, infinity?: boolean}} [options]
 * @returns {Parsed}
 */
export function parseNumber(text, options = {}) {
  const s = normalize(text, options);
  if (typeof s !== 'string') return s;
  // The fast path: a plain decimal (almost every cell of a pasted matrix).
  if (PLAIN.test(s)) return finite(Number(s));
  const ast = parseAST(s, options);
  if ('error' in ast) return ast;
  return evaluate(ast.node);
}

/**
 * The exact rational value of a text without logarithms or infinities ("1/3", "0.25", "2^-3",
 * "1 - 1/3"), as a reduced {n, d} of BigInts with d > 0; null when the text is not rational in
 * that sense, is not a number, or expands a power of ten beyond ±60.
 * @returns {Fraction | null}   reduced, with n and d BigInts and d > 0
 */
export function parseRational(text, options = {}) {
  const s = normalize(text, options);
  if (typeof s !== 'string') return null;
  const ast = parseAST(s, options);
  if ('error' in ast) return null;
  try {
    const f = rational(ast.node);
    return f && !tooLong(f) ? f : null;
  } catch {
    return null;
  }
}

// tooLong tells whether the text of f, "n/d", is longer than the engine reads (MAX_LENGTH): the
// page never holds as exact a number the engine would refuse.
function tooLong(f) {
  if (abs(f.n) < 2n ** 53n && f.d < 2n ** 53n) return false;
  return String(f.n).length + (f.d === 1n ? 0 : String(f.d).length + 1) > MAX_LENGTH;
}

/**
 * The exact value of a text as the engine's exact mode reads it ("1/3", "-5"), or null when it
 * is not rational as typed (see parseRational). The exact mode gets this, never a float.
 * @returns {string | null}
 */
export function rationalText(text, options = {}) {
  const f = parseRational(text, options);
  if (!f) return null;
  return f.d === 1n ? String(f.n) : `${f.n}/${f.d}`;
}

/**
 * e^x exactly, for a text x whose exponential is rational: a sum of integer multiples of natural
 * logarithms of positive rationals ("ln 2", "ln(3/2)", "2 ln 2", "ln 3 − ln 2", "ln 8 / 3") —
 * as ε is typed when e^ε is rational. Null for anything else: e^x is irrational for every
 * other rational x ≠ 0 (Lindemann), and this reader does not try harder than these forms.
 * @returns {Fraction | null}   e^x, reduced
 */
export function parseExpRational(text, options = {}) {
  const s = normalize(text, options);
  if (typeof s !== 'string') return null;
  const ast = parseAST(s, options);
  if ('error' in ast) return null;
  try {
    return expRational(ast.node);
  } catch {
    return null;
  }
}

/** Whether `text` reads as a number under the same options. */
export function isNumber(text, options = {}) {
  return 'value' in parseNumber(text, options);
}

/**
 * A whole number within [min, max] (defaults: 0 … 2^53−1), written in the same grammar:
 * "12", "1e6", "10^9", "2^10". `what` names the field in the messages.
 * @returns {{value: number} | {error: string}}
 */
export function parseInteger(text, { min = 0, max = Number.MAX_SAFE_INTEGER, what } = {}) {
  const r = parseNumber(text);
  const name = what ? `${what}: ` : '';
  if ('error' in r) return { error: r.error === 'empty' ? `${name}required` : `${name}${r.error}` };
  if (!Number.isInteger(r.value)) return { error: `${name}must be a whole number` };
  if (r.value < min) return { error: `${name}must be at least ${min.toLocaleString('en')}` };
  if (r.value > max) return { error: `${name}must be at most ${max.toLocaleString('en')}` };
  return r;
}

/**
 * A number within bounds: `min`/`max` (inclusive unless `minOpen`/`maxOpen`). `what` names the
 * field in the messages ("ε must be > 0"). Options of parseNumber pass through.
 * @returns {{value: number} | {error: string}}
 */
export function parseBounded(text, { min = -Infinity, max = Infinity, minOpen = false, maxOpen = false, what = 'value', ...options } = {}) {
  const r = parseNumber(text, options);
  if ('error' in r) return { error: r.error === 'empty' ? `${what}: required` : `${what}: ${r.error}` };
  const v = r.value;
  if (minOpen ? !(v > min) : v < min) return { error: `${what} must be ${minOpen ? '>' : '≥'} ${min}` };
  if (maxOpen ? !(v < max) : v > max) return { error: `${what} must be ${maxOpen ? '<' : '≤'} ${max}` };
  return r;
}

// ---------------------------------------------------------------- lexing and parsing

function normalize(text, options) {
  if (text === null || text === undefined) return { error: 'empty' };
  if (typeof text === 'number') return Number.isFinite(text) || options.infinity ? String(text) : { error: 'not a finite number' };
  let s = String(text).replace(/\u2212/g, '-').trim();
  if (s === '') return { error: 'empty' };
  if (s.length > 200) return { error: 'too long for a number' };
  if (DECIMAL_COMMA_HINT.test(s)) {
    if (!options.decimalComma) return { error: `decimal comma in “${s}”: write ${s.replace(/(\d),(\d)/g, '$1.$2')}` };
    if (/\d\.\d*,|,\d*\./.test(s)) return { error: 'both a decimal point and a decimal comma' };
    s = s.replace(/(\d),(\d)/g, '$1.$2');
  }
  return s;
}

// \u221E is infinity; \u00B7, \u00D7 and \u00F7 are the middle dot, times and division signs (escaped:
// tests/node/ascii.test.mjs).
const TOKEN = new RegExp(`\\s*(?:(${GRAMMAR.decimal})|([A-Za-z]+)|(\u221E)|([-+*/^()\u00B7\u00D7\u00F7]))`, 'y');

function tokenize(s) {
  const out = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < s.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(s);
    if (!m) {
      if (/^\s*$/.test(s.slice(at))) break;
      return { error: NOT_A_NUMBER };
    }
    if (m[1] !== undefined) out.push({ t: 'num', v: m[1] });
    else if (m[2] !== undefined) out.push({ t: 'name', v: m[2].toLowerCase() });
    else if (m[3] !== undefined) out.push({ t: 'name', v: 'inf' });
    else out.push({ t: 'op', v: m[4] === '·' || m[4] === '×' ? '*' : m[4] === '÷' ? '/' : m[4] });
  }
  return { tokens: out };
}

class ParseError extends Error {}

function parseAST(s, options) {
  const lexed = tokenize(s);
  if (lexed.error) return lexed;
  const toks = lexed.tokens;
  let i = 0;
  const peek = () => toks[i];
  const isOp = (v) => toks[i] && toks[i].t === 'op' && toks[i].v === v;
  const fail = (msg) => { throw new ParseError(msg); };

  function expr() {
    let left = term();
    while (isOp('+') || isOp('-')) {
      const op = toks[i++].v;
      left = { op, a: left, b: term() };
    }
    return left;
  }
  function term() {
    let left = unary();
    for (;;) {
      if (isOp('*') || isOp('/')) {
        const op = toks[i++].v;
        left = { op, a: left, b: unary() };
      } else if (peek() && (peek().t === 'name' || isOp('('))) {
        // "2 ln 2", "2(1/3)": juxtaposition multiplies, but never two bare numbers ("2 3").
        left = { op: '*', a: left, b: unary() };
      } else return left;
    }
  }
  function unary() {
    if (isOp('-')) { i++; return { op: 'neg', a: unary() }; }
    if (isOp('+')) { i++; return unary(); }
    return power();
  }
  function power() {
    const base = call();
    if (isOp('^')) { i++; return { op: '^', a: base, b: unary() }; }
    return base;
  }
  function call() {
    const t = peek();
    if (t && t.t === 'name') {
      if (t.v === 'ln') { i++; return { op: 'ln', a: unary() }; }
      if (t.v === 'log' || t.v === 'lg' || t.v === 'log2' || t.v === 'log10') fail(`“${t.v}” is ambiguous (bits use log₂, ε uses ln): write ln for the natural logarithm`);
      if (t.v === 'inf' || t.v === 'infinity') {
        if (!options.infinity) fail('∞ is not allowed here');
        i++;
        return { num: 'inf' };
      }
      fail(NOT_A_NUMBER);
    }
    return primary();
  }
  function primary() {
    const t = peek();
    if (!t) fail(i === 0 ? 'empty' : 'incomplete expression');
    if (t.t === 'num') { i++; return { num: t.v }; }
    if (isOp('(')) {
      i++;
      const e = expr();
      if (!isOp(')')) fail('unbalanced parentheses');
      i++;
      return e;
    }
    if (isOp(')')) fail('unbalanced parentheses');
    fail(i === 0 ? NOT_A_NUMBER : 'incomplete expression');
    return null;
  }

  try {
    const node = expr();
    if (i < toks.length) {
      const t = toks[i];
      fail(t.t === 'op' && t.v === ')' ? 'unbalanced parentheses' : NOT_A_NUMBER);
    }
    return { node };
  } catch (e) {
    if (e instanceof ParseError) return { error: e.message };
    throw e;
  }
}

// ---------------------------------------------------------------- evaluation

function finite(v) {
  return Number.isFinite(v) ? { value: v } : { error: 'not a finite number' };
}

function evaluate(node) {
  try {
    const v = num(node);
    if (Number.isNaN(v)) return { error: NOT_A_NUMBER };
    if (v === Infinity || v === -Infinity) return node.num === 'inf' || (node.op === 'neg' && node.a.num === 'inf') ? { value: v } : { error: 'not a finite number' };
    return { value: v };
  } catch (e) {
    if (e instanceof ParseError) return { error: e.message };
    throw e;
  }
}

function num(n) {
  if (n.num !== undefined) return n.num === 'inf' ? Infinity : Number(n.num);
  const a = num(n.a);
  switch (n.op) {
    case 'neg': return -a;
    case 'ln':
      if (!(a > 0)) throw new ParseError('ln needs a positive number');
      return Math.log(a);
    case '+': return a + num(n.b);
    case '-': return a - num(n.b);
    case '*': return a * num(n.b);
    case '/': {
      const b = num(n.b);
      if (b === 0) throw new ParseError('division by zero');
      return a / b;
    }
    case '^': return a ** num(n.b);
    default: throw new ParseError(NOT_A_NUMBER);
  }
}

function frac(n, d) {
  if (d === 0n) throw new ParseError('division by zero');
  return new Fraction(n, d);
}

function rational(node) {
  if (node.num !== undefined) {
    if (node.num === 'inf') return null;
    // A token of the decimal pattern, taken apart (not checked again): digits, point, exponent.
    const [mantissa, e] = node.num.toLowerCase().split('e');
    const [whole, digits = ''] = mantissa.split('.');
    const exp = (e === undefined ? 0 : Number(e)) - digits.length;
    if (Math.abs(exp) > EXACT_EXPONENT_LIMIT) return null;
    const n = BigInt((whole || '0') + digits);
    return exp >= 0 ? frac(n * 10n ** BigInt(exp), 1n) : frac(n, 10n ** BigInt(-exp));
  }
  if (node.op === 'ln') return null;
  const a = rational(node.a);
  if (a === null) return null;
  if (node.op === 'neg') return new Fraction(-a.n, a.d);
  const b = rational(node.b);
  if (b === null) return null;
  switch (node.op) {
    case '+': return frac(a.n * b.d + b.n * a.d, a.d * b.d);
    case '-': return frac(a.n * b.d - b.n * a.d, a.d * b.d);
    case '*': return frac(a.n * b.n, a.d * b.d);
    case '/': return frac(a.n * b.d, a.d * b.n);
    case '^': {
      if (b.d !== 1n || abs(b.n) > BigInt(EXACT_EXPONENT_LIMIT)) return null;
      const k = b.n;
      // Refused before computing when the power's text is surely beyond the engine's length.
      const bits = BigInt(Math.max(bitLength(a.n), bitLength(a.d)) - 1) * abs(k);
      if (bits > BigInt(MAX_BITS)) return null;
      if (k >= 0n) return frac(a.n ** k, a.d ** k);
      return frac(a.d ** -k, a.n ** -k);
    }
    default: return null;
  }
}

// The number of binary digits of |x| (0 for 0).
function bitLength(x) {
  return x === 0n ? 0 : abs(x).toString(2).length;
}

// e^node as a Fraction, or null (see parseExpRational). Products need one side a whole number,
// quotients a whole divisor whose root of the other side is exact.
function expRational(node) {
  if (node.num !== undefined) {
    const q = rational(node);
    return q && q.isZero() ? new Fraction(1n) : null;
  }
  switch (node.op) {
    case 'ln': {
      const a = rational(node.a);
      return a && a.sign() > 0 ? a : null;
    }
    case 'neg': {
      const a = expRational(node.a);
      return a && new Fraction(a.d, a.n);
    }
    case '+':
    case '-': {
      const a = expRational(node.a);
      const b = a && expRational(node.b);
      if (!b) return null;
      return node.op === '+' ? a.mul(b) : a.div(b);
    }
    case '*': {
      for (const [k, x] of [[node.a, node.b], [node.b, node.a]]) {
        const q = wholeOf(k);
        if (q === null) continue;
        const e = expRational(x);
        if (e) return powFraction(e, q);
      }
      return null;
    }
    case '/': {
      const q = wholeOf(node.b);
      const e = q !== null && q !== 0n ? expRational(node.a) : null;
      return e ? rootFraction(q < 0n ? new Fraction(e.d, e.n) : e, q < 0n ? -q : q) : null;
    }
    default: return null;
  }
}

// A whole number within the exponent limit, or null.
function wholeOf(node) {
  let q = null;
  try { q = rational(node); } catch { return null; }
  if (!q || q.d !== 1n || abs(q.n) > BigInt(EXACT_EXPONENT_LIMIT)) return null;
  return q.n;
}

function powFraction(f, k) {
  return k >= 0n ? new Fraction(f.n ** k, f.d ** k) : new Fraction(f.d ** -k, f.n ** -k);
}

// The k-th root of a positive fraction when numerator and denominator are exact k-th powers.
function rootFraction(f, k) {
  const n = intRoot(f.n, k);
  const d = intRoot(f.d, k);
  return n !== null && d !== null ? new Fraction(n, d) : null;
}

function intRoot(x, k) {
  if (x < 0n) return null;
  if (x < 2n || k === 1n) return x;
  // Bisection on [0, 2^(bits/k + 1)]: exact, and fast enough for the numbers people type.
  let lo = 0n;
  let hi = 1n << BigInt(Math.ceil(x.toString(2).length / Number(k)) + 1);
  while (lo < hi) {
    const mid = (lo + hi + 1n) >> 1n;
    if (mid ** k <= x) lo = mid;
    else hi = mid - 1n;
  }
  return lo ** k === x ? lo : null;
}
