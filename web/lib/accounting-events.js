// lib/accounting-events.js — the events of a privacy accounting (the mechanisms that run on the same
// data, each some number of times) as people write them: in the Composition section's list, in the
// `events` attribute of <qif-composition>, in a shared link. Pure functions, no DOM: the section,
// the widget and tests/node/composition.test.mjs use the same ones.
//
// A draft is what a person edits: {mechanism, params: {name: text}, count: text, rate: text | null}
// (rate: Poisson subsampling of the mechanism, null when the whole data set is used). checkDraft
// reads its texts with the page's number grammar (input/number.js) and gives the engine's event
// ({mechanism: 'gaussian', sigma, count}, {mechanism: 'subsampled', rate, of: {…}, count}, …) or
// the problems, each naming its field.
//
// The text grammar (one line or several; `;` or a new line between events):
//
//   events  := event ((';' | newline) event)*
//   event   := ['subsampled' 'rate=' number 'of'] head [count]
//   head    := mechanism (name '=' number)*
//            | 'channel' matrix                      matrix: JSON rows, [[0.9, 0.1], [0.1, 0.9]]
//   count   := ('x' | '×' | '*') whole number        at the end of the event; default 1
//
// e.g. `laplace epsilon=0.1 x10; gaussian sigma=1 x100`,
//      `subsampled rate=0.01 of gaussian sigma=1 x10000`, `randomizedResponse epsilon=ln 3 x10`.
// Numbers are written as on the page (`ln 3`, `1/2`, `1e-5`); a value runs up to the next
// `name=`, so `epsilon=ln 2 / 5` is one value. Names are case-insensitive and have aliases
// (rr, σ, ε, b, q, …). A Laplace mechanism takes its scale b, or ε = Δ/b (converted to b).

import { parseNumber } from '../input/number.js';

/** The mechanisms: label, parameters in their order, and a one-line description. */
export const MECHANISMS = {
  gaussian: { label: 'Gaussian', params: ['sigma', 'sensitivity'], note: 'adds N(0, σ²) to a query of sensitivity Δ' },
  laplace: { label: 'Laplace', params: ['scale', 'sensitivity'], note: 'adds Laplace noise of scale b: ε = Δ/b' },
  geometric: { label: 'Geometric (two-sided)', params: ['epsilon'], note: 'integer noise ∝ e^(−ε|k|) on a count' },
  randomizedResponse: { label: 'Randomized response', params: ['epsilon'], note: 'a yes/no answer kept with probability e^ε/(1 + e^ε)' },
  pure: { label: 'Any ε-DP mechanism', params: ['epsilon'], note: 'the worst case of every pure ε-DP mechanism' },
  approximate: { label: 'Any (ε, δ)-DP mechanism', params: ['epsilon', 'delta'], note: 'the worst case of every (ε, δ)-DP mechanism' },
  channel: { label: 'A channel (rows: data sets)', params: [], note: 'every two rows are neighbouring data sets' },
};

/** The parameters: symbol, what it is, its default text, and its check (an error or null). */
export const PARAMS = {
  sigma: { symbol: 'σ', name: 'noise σ', check: (v) => (v > 0 ? null : 'must be > 0') },
  scale: { symbol: 'b', name: 'scale b', check: (v) => (v > 0 ? null : 'must be > 0') },
  sensitivity: { symbol: 'Δ', name: 'sensitivity Δ', default: '1', check: (v) => (v > 0 ? null : 'must be > 0') },
  epsilon: { symbol: 'ε', name: 'ε (nats)', check: (v, m) => (m === 'approximate' ? (v >= 0 ? null : 'must be ≥ 0') : v > 0 ? null : 'must be > 0') },
  delta: { symbol: 'δ', name: 'δ', check: (v) => (v >= 0 && v < 1 ? null : 'must be in [0, 1)') },
};

/** The largest count of one event (the engine composes by repeated squaring: large is cheap). */
export const MAX_COUNT = 1e9;
/** The most events in a list. */
export const MAX_EVENTS = 50;
/** The largest channel side accepted as an event. */
export const MAX_CHANNEL_SIDE = 64;

const MECHANISM_ALIASES = {
  gaussian: 'gaussian', gauss: 'gaussian', normal: 'gaussian',
  laplace: 'laplace', laplacian: 'laplace',
  geometric: 'geometric',
  randomizedresponse: 'randomizedResponse', 'randomized-response': 'randomizedResponse', rr: 'randomizedResponse',
  pure: 'pure',
  approximate: 'approximate', approx: 'approximate',
  channel: 'channel',
};
const PARAM_ALIASES = {
  sigma: 'sigma', σ: 'sigma',
  scale: 'scale', b: 'scale',
  sensitivity: 'sensitivity', δf: 'sensitivity', Δ: 'sensitivity',
  epsilon: 'epsilon', eps: 'epsilon', ε: 'epsilon',
  delta: 'delta', δ: 'delta',
  rate: 'rate', q: 'rate',
};

// ---------------------------------------------------------------- drafts

/** A new draft of `mechanism` with its parameters' defaults. */
export function newDraft(mechanism = 'gaussian', params = {}, count = '1', rate = null) {
  const p = {};
  for (const k of MECHANISMS[mechanism].params) p[k] = params[k] ?? PARAMS[k].default ?? '';
  if (mechanism === 'channel') p.channel = params.channel ?? '[[0.75, 0.25], [0.25, 0.75]]';
  return { mechanism, params: p, count: String(count), rate: rate === null || rate === undefined ? null : String(rate) };
}

/**
 * The engine's event for a draft: {event} or {errors: [{field, message}]} (field: a parameter's
 * name, 'count', 'rate' or 'channel').
 */
export function checkDraft(d) {
  const errors = [];
  const m = d && d.mechanism;
  if (!Object.hasOwn(MECHANISMS, m)) return { errors: [{ field: 'mechanism', message: unknownMechanism(String(m)) }] };
  const ev = { mechanism: m };
  for (const k of MECHANISMS[m].params) {
    const text = d.params?.[k] ?? '';
    if (k === 'sensitivity' && String(text).trim() === '') continue; // default 1
    const r = parseNumber(text);
    if ('error' in r) { errors.push({ field: k, message: `${PARAMS[k].name}: ${r.error === 'empty' ? 'required' : r.error}` }); continue; }
    const bad = PARAMS[k].check(r.value, m);
    if (bad) errors.push({ field: k, message: `${PARAMS[k].name} ${bad}` });
    else if (!(k === 'sensitivity' && r.value === 1)) ev[k] = r.value;
  }
  if (m === 'channel') {
    const c = readChannel(d.params?.channel ?? '');
    if (c.error) errors.push({ field: 'channel', message: `channel: ${c.error}` });
    else ev.channel = c.channel;
  }
  const count = readCount(d.count);
  if (count.error) errors.push({ field: 'count', message: count.error });
  let event = ev;
  if (d.rate !== null && d.rate !== undefined) {
    const r = parseNumber(d.rate);
    if ('error' in r) errors.push({ field: 'rate', message: `sampling rate q: ${r.error === 'empty' ? 'required' : r.error}` });
    else if (!(r.value > 0 && r.value <= 1)) errors.push({ field: 'rate', message: 'sampling rate q must be in (0, 1]' });
    else event = { mechanism: 'subsampled', rate: r.value, of: ev };
  }
  if (errors.length) return { errors };
  event.count = count.value;
  return { event };
}

/** The count text: a whole number in [1, MAX_COUNT]. */
export function readCount(text) {
  const s = String(text ?? '').trim();
  if (s === '') return { value: 1 };
  const r = parseNumber(s.replace(/[_,](?=\d{3}\b)/g, ''));
  if ('error' in r) return { error: `count: ${r.error}` };
  if (!Number.isInteger(r.value) || r.value < 1) return { error: `count must be a positive whole number, got ${s}` };
  if (r.value > MAX_COUNT) return { error: `count must be at most ${MAX_COUNT.toExponential(0).replace('e+', 'e')}` };
  return { value: r.value };
}

/** A channel written as JSON rows (entries numbers or number texts): {channel} or {error}. */
export function readChannel(text) {
  let rows;
  if (Array.isArray(text)) rows = text;
  else {
    try {
      rows = JSON.parse(String(text));
    } catch {
      return { error: 'write the rows as JSON, e.g. [[0.75, 0.25], [0.25, 0.75]]' };
    }
  }
  if (!Array.isArray(rows) || rows.length < 2) return { error: 'needs at least two rows (two data sets)' };
  if (rows.length > MAX_CHANNEL_SIDE) return { error: `has ${rows.length} rows; at most ${MAX_CHANNEL_SIDE} here` };
  const cols = Array.isArray(rows[0]) ? rows[0].length : 0;
  if (cols < 1 || cols > MAX_CHANNEL_SIDE) return { error: `rows must have 1 to ${MAX_CHANNEL_SIDE} entries` };
  const out = [];
  for (let i = 0; i < rows.length; i++) {
    if (!Array.isArray(rows[i]) || rows[i].length !== cols) return { error: `row ${i + 1} has ${Array.isArray(rows[i]) ? rows[i].length : 0} entries, row 1 has ${cols}` };
    const row = [];
    for (let j = 0; j < cols; j++) {
      const r = parseNumber(rows[i][j]);
      if ('error' in r) return { error: `entry (${i + 1}, ${j + 1}): ${r.error}` };
      if (r.value < 0) return { error: `entry (${i + 1}, ${j + 1}) is negative` };
      row.push(r.value);
    }
    const sum = row.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > 1e-9) return { error: `row ${i + 1} sums to ${sum}, expected 1` };
    out.push(row);
  }
  return { channel: out };
}

/** The draft of an engine event (as the widget's JSON child or the API takes it): {draft} or {error}. */
export function draftOfEvent(ev) {
  if (!ev || typeof ev !== 'object' || Array.isArray(ev)) return { error: 'an event must be an object with a mechanism' };
  let rate = null;
  let inner = ev;
  if (ev.mechanism === 'subsampled') {
    rate = textOf(ev.rate);
    inner = ev.of;
    if (!inner || typeof inner !== 'object' || inner.mechanism === 'subsampled') return { error: 'subsampled: `of` must be one event (not itself subsampled)' };
  }
  const m = MECHANISM_ALIASES[String(inner.mechanism ?? '').toLowerCase()] ?? (Object.hasOwn(MECHANISMS, inner.mechanism) ? inner.mechanism : null);
  if (!m) return { error: unknownMechanism(String(inner.mechanism ?? '')) };
  // Keys of the event that mean nothing here are refused, not dropped: a misspelt parameter
  // would otherwise be replaced by its default without a word.
  const known = [...MECHANISMS[m].params, 'mechanism', 'count', ...(m === 'laplace' ? ['epsilon'] : []), ...(m === 'channel' ? ['channel'] : [])];
  for (const key of Object.keys(inner)) {
    if (key === 'graph' && m === 'channel') return { error: 'channel: a graph of neighbouring rows is not taken here (every two rows are neighbours); call qif.accounting with it' };
    if (!known.includes(key)) return { error: `${m} has no parameter “${short(key)}”${didYouMean(key.toLowerCase(), known.filter((k) => k !== 'mechanism'))}` };
  }
  if (ev !== inner) {
    for (const key of Object.keys(ev)) if (!['mechanism', 'rate', 'of', 'count'].includes(key)) return { error: `subsampled has no parameter “${short(key)}”; it takes rate, of and count` };
    if (inner.count !== undefined && inner.count !== 1) return { error: 'subsampled: give the count on the subsampled event, not inside `of`' };
  }
  const params = {};
  for (const k of MECHANISMS[m].params) if (inner[k] !== undefined) params[k] = textOf(inner[k]);
  if (m === 'laplace' && inner.scale === undefined && inner.epsilon !== undefined) params.scale = scaleOf(textOf(inner.epsilon), params.sensitivity);
  if (m === 'channel') params.channel = JSON.stringify(inner.channel ?? null);
  return { draft: newDraft(m, params, ev.count === undefined ? '1' : textOf(ev.count), rate) };
}

function textOf(v) {
  return typeof v === 'number' ? String(v) : String(v ?? '');
}

// b = Δ/ε, as a number text when both read (else the text that will be refused as b).
function scaleOf(epsText, sensText) {
  const e = parseNumber(epsText);
  const s = sensText === undefined || String(sensText).trim() === '' ? { value: 1 } : parseNumber(sensText);
  if ('error' in e || 'error' in s || !(e.value > 0)) return `Δ/ε with ε = ${epsText}`;
  return String(s.value / e.value);
}

// ---------------------------------------------------------------- text

/** The text of a list of drafts in the grammar above (one event a line when `lines`). */
export function formatDrafts(drafts, { lines = false } = {}) {
  return drafts.map(formatDraft).join(lines ? '\n' : '; ');
}

/** The text of one draft. */
export function formatDraft(d) {
  const parts = [];
  if (d.rate !== null && d.rate !== undefined) parts.push(`subsampled rate=${d.rate.trim()} of`);
  parts.push(d.mechanism);
  if (d.mechanism === 'channel') parts.push(compactJSON(d.params.channel));
  for (const k of MECHANISMS[d.mechanism].params) {
    const t = String(d.params[k] ?? '').trim();
    if (t === '' || (k === 'sensitivity' && t === '1')) continue;
    parts.push(`${k}=${t}`);
  }
  const c = String(d.count ?? '').trim();
  if (c !== '' && c !== '1') parts.push(`x${c}`);
  return parts.join(' ');
}

function compactJSON(text) {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return String(text).trim();
  }
}

/**
 * Parses the text grammar into drafts: {drafts} or {error} (the error names the event by its
 * place, "event 2: …"). The drafts' numbers are not read here: checkDraft reads them.
 */
export function parseEvents(text) {
  const pieces = splitEvents(String(text ?? ''));
  if (!pieces.length) return { error: 'no events: write at least one, e.g. laplace epsilon=0.1 x10' };
  if (pieces.length > MAX_EVENTS) return { error: `${pieces.length} events; at most ${MAX_EVENTS}` };
  const drafts = [];
  for (let i = 0; i < pieces.length; i++) {
    const r = parseEvent(pieces[i]);
    if (r.error) return { error: pieces.length > 1 ? `event ${i + 1} (“${short(pieces[i])}”): ${r.error}` : r.error };
    drafts.push(r.draft);
  }
  return { drafts };
}

function short(s) {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

// Splits at ';' and new lines outside brackets; blank pieces are dropped.
function splitEvents(s) {
  const out = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '[' || ch === '(') depth++;
    else if (ch === ']' || ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ';' || ch === '\n')) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((p) => p.trim()).filter(Boolean);
}

/** One event's text → {draft} or {error}. */
export function parseEvent(text) {
  let s = text.trim();
  let count = '1';
  // \u00D7 is the times sign (escaped in regular expressions: tests/node/ascii.test.mjs).
  const cm = /(?:^|\s)[x\u00D7*]\s*([0-9][0-9_,.eE+^]*)\s*$/.exec(s);
  if (cm) {
    count = cm[1];
    s = s.slice(0, cm.index).trim();
  }
  let rate = null;
  const sub = /^(subsampled|poisson)\b/i.exec(s);
  if (sub) {
    const of = /\s+of\s+/i.exec(s);
    if (!of) return { error: 'write “subsampled rate=q of <mechanism> …”' };
    const head = parseParams(s.slice(sub[0].length, of.index));
    if (head.error) return head;
    const keys = Object.keys(head.params);
    if (keys.length !== 1 || keys[0] !== 'rate') return { error: `subsampled takes one parameter, rate (the sampling rate q)${keys.filter((k) => k !== 'rate').length ? `, not ${keys.filter((k) => k !== 'rate').join(', ')}` : ''}` };
    rate = head.params.rate;
    s = s.slice(of.index + of[0].length).trim();
    if (/^(subsampled|poisson)\b/i.test(s)) return { error: 'a subsampled event cannot be subsampled again' };
  }
  const nm = /^([^\s=[]+)/.exec(s);
  if (!nm) return { error: 'starts with no mechanism' };
  const m = MECHANISM_ALIASES[nm[1].toLowerCase()];
  if (!m) return { error: unknownMechanism(nm[1]) };
  let rest = s.slice(nm[0].length).trim();
  const params = {};
  if (m === 'channel') {
    if (!rest.startsWith('[')) return { error: 'channel: give its rows as JSON, e.g. channel [[0.75, 0.25], [0.25, 0.75]] x5' };
    const end = matchingBracket(rest);
    if (end < 0) return { error: 'channel: a “[” is not closed' };
    params.channel = rest.slice(0, end + 1);
    rest = rest.slice(end + 1).trim();
  }
  const p = parseParams(rest);
  if (p.error) return p;
  const allowed = MECHANISMS[m].params;
  for (const [k, v] of Object.entries(p.params)) {
    if (k === 'epsilon' && m === 'laplace') continue;
    if (!allowed.includes(k)) {
      return { error: `${m} takes ${allowed.length ? allowed.map((a) => `${a} (${PARAMS[a].symbol})`).join(', ') : 'no parameter but its rows'}, not “${k}”${k === 'rate' ? ' (write “subsampled rate=q of …”)' : ''}` };
    }
    params[k] = v;
  }
  if (m === 'laplace' && p.params.epsilon !== undefined) {
    if (p.params.scale !== undefined) return { error: 'laplace: give its scale b or its ε = Δ/b, not both' };
    params.scale = scaleOf(p.params.epsilon, p.params.sensitivity);
  }
  for (const k of allowed) if (k !== 'sensitivity' && params[k] === undefined) return { error: `${m} needs ${k}=… (${PARAMS[k].name})` };
  return { draft: newDraft(m, params, count, rate) };
}

function matchingBracket(s) {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '[') depth++;
    else if (s[i] === ']' && --depth === 0) return i;
  }
  return -1;
}

// "name=value name=value": a value runs up to the next name=.
function parseParams(s) {
  const params = {};
  const re = /([^\s=]+)\s*=\s*/g;
  const marks = [];
  let mm;
  while ((mm = re.exec(s))) marks.push({ name: mm[1], start: mm.index, end: re.lastIndex });
  if (!marks.length) {
    if (s.trim()) return { error: `cannot read “${short(s.trim())}”: write parameters as name=value` };
    return { params };
  }
  if (s.slice(0, marks[0].start).trim()) return { error: `cannot read “${short(s.slice(0, marks[0].start).trim())}”: write parameters as name=value` };
  for (let i = 0; i < marks.length; i++) {
    const raw = marks[i].name;
    const name = PARAM_ALIASES[raw] ?? PARAM_ALIASES[raw.toLowerCase()];
    if (!name) return { error: `unknown parameter “${short(raw)}”${didYouMean(raw.toLowerCase(), Object.keys(PARAM_ALIASES).filter((k) => /^[a-z]/.test(k)))}` };
    const value = s.slice(marks[i].end, i + 1 < marks.length ? marks[i + 1].start : s.length).trim();
    if (!value) return { error: `${raw}= has no value` };
    if (Object.hasOwn(params, name)) return { error: `${name} is given twice` };
    params[name] = value;
  }
  return { params };
}

/** The message of an unknown mechanism, with the nearest name. */
export function unknownMechanism(name) {
  return `unknown mechanism “${short(name)}”${didYouMean(name.toLowerCase(), [...Object.keys(MECHANISMS), 'subsampled'])}; the mechanisms are ${[...Object.keys(MECHANISMS), 'subsampled … of'].join(', ')}`;
}

function didYouMean(word, names) {
  let best = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = editDistance(word, n.toLowerCase());
    if (d < bestD) { bestD = d; best = n; }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(word.length / 3)) ? ` (did you mean “${best}”?)` : '';
}

/** Levenshtein distance. */
export function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

// ---------------------------------------------------------------- presets

/** The presets of the section and the widget: name → {label, drafts, ask, delta, epsilon, note}. */
export const PRESETS = {
  counting: {
    label: '10 counting queries',
    note: 'Ten counts, each released with Laplace noise of scale 10 (ε = 0.1 each).',
    drafts: () => [newDraft('laplace', { scale: '10' }, '10')],
    delta: '1e-5',
  },
  dpsgd: {
    label: 'DP-SGD',
    note: '10,000 training steps, each a Gaussian of σ = 1 on a Poisson sample of 1% of the data.',
    drafts: () => [newDraft('gaussian', { sigma: '1' }, '10000', '0.01')],
    delta: '1e-5',
  },
  survey: {
    label: 'A survey with randomized response',
    note: 'Ten yes/no questions, each answered truthfully with probability 3/4 (ε = ln 3 each).',
    drafts: () => [newDraft('randomizedResponse', { epsilon: 'ln 3' }, '10')],
    delta: '1e-5',
  },
};
