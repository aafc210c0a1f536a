// qif.js — loads the QIF/DP toolkit's WebAssembly module and exposes its API (docs/api.md).
// Works in a page, in a (module) Web Worker and in Node ≥ 20 without flags or extra packages.
//
//   import { load } from './qif.js';
//   const qif = await load();                 // fetches qif.wasm beside this file
//   const qif2 = await load({ wasmURL });      // or from elsewhere
//   qif.measure.shannonEntropy([0.5, 0.5])    // 1
//   qif.describe('measure.shannonCapacity')   // parameters, options, result, formula, source
//
// Each call to load() starts an independent instance of the Go runtime.
//
// The floating-point API is served by two modules: qif.wasm (channels and measures) and
// qif-more.wasm (metrics, privacy, graphs, mechanisms, refinement, information privacy, estimation,
// lp). load() loads both, in parallel; load({ lazy: true }) loads only qif.wasm, so that a page
// showing a channel computes its first number sooner, and qif-more.wasm when asked:
//
//   const qif = await load({ lazy: true });    // qif.measure.* and most of qif.channel.* work
//   await qif.loadModule('more');               // then every function of qif.* (once; shared promise)
//
// The exact mode (qif.exact, and qif.program, which computes in rationals) is a third module,
// qif-exact.wasm, loaded on demand so that the page does not download rational arithmetic it may
// never use. qif.loadModule(name) is the one loader of every module loaded on demand:
//
//   const qif = await load({ exact: true });   // both modules: qif.exact.* works at once
//   await qif.loadModule('exact');             // or later (once; later calls share the promise)
//   await qif.exact.load();                    // the same, kept as an alias (takes a wasmURL)
//   qif.exact.measure.bayesVulnerability(['1/2', '1/3', '1/6'])   // '1/2'
//
// Every function is described once, in the table of bindings/ (Go); api.gen.js is that table as
// data and qif.gen.js one wrapper per function, both generated from it. This file interprets the
// table: it reads each argument by its kind (vector, matrix, graph, options, ...) into plain wire
// values — numbers, strings, functions and bulk byte copies, never a caller's object — checks option
// keys, calls the module, and throws its errors from here, so that the caller's frame is in the stack.

import { API } from './api.gen.js';
import { wrappers } from './qif.gen.js';
import { readSamples as readSamplesText } from './input/samples.js'; // estimate.readSamples: the page's CSV reader

const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node)
  && typeof window === 'undefined';

let goClassPromise = null;
let counter = 0;

function loadGoClass() {
  if (!goClassPromise) {
    goClassPromise = (async () => {
      if (typeof globalThis.Go !== 'function') {
        await import(new URL('./wasm_exec.js', import.meta.url).href);
      }
      return globalThis.Go;
    })();
  }
  return goClassPromise;
}

// The URL of qif.wasm: options.wasmURL, else beside this file.
function mainURL(wasmURL) {
  return wasmURL ? new URL(wasmURL, import.meta.url) : new URL('./qif.wasm', import.meta.url);
}

// The URL of a further module (qif-more.wasm, qif-exact.wasm): the one given, else beside a
// qif.wasm given by URL, else beside this file (also when qif.wasm's URL has no folder: blob:, data:).
function siblingURL(file, given, wasmURL) {
  if (given) return new URL(given, import.meta.url);
  if (wasmURL) {
    try {
      const main = new URL(wasmURL, import.meta.url);
      if (/^(?:https?|file):$/.test(main.protocol)) return new URL(file, main);
    } catch {
      // fall through
    }
  }
  // Literal URLs, which the single-file and widget builds recognize and answer from their copies.
  return file === FILES.more ? new URL('./qif-more.wasm', import.meta.url) : new URL('./qif-exact.wasm', import.meta.url);
}

// The file of each module, as the build writes it beside qif.js: the table's (API.modules, from
// bindings/apigen), which also says which module serves each function (f.module).
const FILES = API.modules;

async function wasmSource(url) {
  if (isNode && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return { bytes: await readFile(url) };
  }
  return { response: fetch(url) };
}

// compile starts compiling the module at once: it needs no imports, so it runs while
// wasm_exec.js (which defines the imports) is still being fetched.
async function compile(src) {
  if (src.bytes) return WebAssembly.compile(src.bytes);
  const response = await src.response;
  if (!response.ok) throw new Error(`qif: cannot fetch ${response.url}: HTTP ${response.status}`);
  if (WebAssembly.compileStreaming && (response.headers.get('content-type') || '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

// ---------------------------------------------------------------- reading arguments by kind

// Each reader takes the argument x and its parameter p, appends the argument's wire values to w
// (a fixed number per kind, undefined when x is absent) and returns an error message or nothing.

function describe(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'string') return `the string ${JSON.stringify(x.length > 20 ? x.slice(0, 20) + '…' : x)}`;
  return typeof x;
}

function isNumberArrayLike(a) {
  return Array.isArray(a) || (ArrayBuffer.isView(a) && !(a instanceof DataView));
}

function bytes(f) {
  return new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
}

// A reader's complaint about an argument: `text` is the message after the function's name, and
// argument, index (a row or entry, or [row, column]) and detail (what is wrong, without the
// argument and the position) are the same facts as data, thrown as error.argument, error.index
// and error.detail.
const bad = (argument, text, index, detail) => ({ argument, text, index, detail: detail ?? text.slice(argument.length + 2) });
// fault is a complaint about a part of an argument, placed in it by the reader: {error, index, detail}.
const fault = (error, index, detail) => ({ error, index, detail: detail ?? error });
// within names the argument of a fault: its message is prefixed, its data kept.
const within = (argument, f, prefix = argument) => bad(argument, `${prefix}: ${f.error}`, f.index, f.detail);

// toVector returns a Float64Array (the argument itself when it is one) or a fault.
function toVector(v) {
  if (v instanceof Float64Array) return v;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Float64Array.from(v);
  if (!Array.isArray(v)) return fault(`expected a vector (array of numbers), got ${describe(v)}`);
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number') return fault(`entry ${i} is ${describe(x)}, expected a number`, i, `is ${describe(x)}, expected a number`);
    out[i] = x;
  }
  return out;
}

// toMatrix returns {rows, cols, data: Float64Array} or a fault.
function toMatrix(m) {
  if (Array.isArray(m)) {
    const rows = m.length;
    if (rows === 0) return { rows: 0, cols: 0, data: new Float64Array(0) };
    if (!isNumberArrayLike(m[0])) return fault(`row 0 is ${describe(m[0])}, expected an array of numbers`, 0, `is ${describe(m[0])}, expected an array of numbers`);
    const cols = m[0].length;
    const data = new Float64Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      const row = m[i];
      if (!isNumberArrayLike(row)) return fault(`row ${i} is ${describe(row)}, expected an array of numbers`, i, `is ${describe(row)}, expected an array of numbers`);
      if (row.length !== cols) return fault(`ragged matrix: row ${i} has ${row.length} entries where the first row has ${cols}`, i, `has ${row.length} entries where the first row has ${cols}`);
      for (let j = 0; j < cols; j++) {
        const x = row[j];
        if (typeof x !== 'number') return fault(`entry [${i}][${j}] is ${describe(x)}, expected a number`, [i, j], `is ${describe(x)}, expected a number`);
        data[i * cols + j] = x;
      }
    }
    return { rows, cols, data };
  }
  if (m && typeof m === 'object' && 'rows' in m && 'cols' in m && 'data' in m) {
    const { rows, cols } = m;
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
      return fault(`rows and cols must be non-negative integers, got ${String(rows)}×${String(cols)}`);
    }
    const data = toVector(m.data);
    if (data.error) {
      const k = data.index;
      return k === undefined || cols === 0 ? fault(`data: ${data.error}`) : fault(`data: ${data.error}`, [Math.floor(k / cols), k % cols], data.detail);
    }
    if (data.length !== rows * cols) return fault(`data has ${data.length} entries, expected rows×cols = ${rows * cols}`);
    return { rows, cols, data };
  }
  return fault(`expected a matrix (array of rows or {rows, cols, data}), got ${describe(m)}`);
}

// toGraph returns {n, edges: Float64Array of a0, b0, a1, b1, ...} or a complaint.
function toGraph(g, name) {
  if (g === null || typeof g !== 'object' || Array.isArray(g)) return bad(name, `${name}: expected a graph {n, edges: [[a,b], ...]}, got ${describe(g)}`);
  const { n, edges } = g;
  if (n === undefined || n === null) return bad(name, `${name}: missing field "n" (number of vertices)`);
  if (typeof n !== 'number') return bad(`${name}.n`, `${name}.n: expected an integer, got ${describe(n)}`);
  if (edges === undefined || edges === null) return bad(name, `${name}: missing field "edges" (array of [a, b] pairs)`);
  if (!Array.isArray(edges)) return bad(`${name}.edges`, `${name}.edges: expected an array of [a, b] pairs, got ${describe(edges)}`);
  const out = new Float64Array(2 * edges.length);
  for (let k = 0; k < edges.length; k++) {
    const e = edges[k];
    if (!isNumberArrayLike(e) || e.length !== 2) return bad(`${name}.edges`, `${name}.edges: edge ${k} must be a pair [a, b], got ${describe(e)}`, k, `must be a pair [a, b], got ${describe(e)}`);
    if (typeof e[0] !== 'number' || typeof e[1] !== 'number') return bad(`${name}.edges`, `${name}.edges: edge ${k} has a vertex that is not a number`, k, 'has a vertex that is not a number');
    out[2 * k] = e[0];
    out[2 * k + 1] = e[1];
  }
  return { n, edges: out };
}

// flattenLP checks an lp.solve problem {sense, objective, rows, lower?, upper?} and flattens it
// for Go: head = [n, m, max, nonzeros, hasLower, hasUpper] and data = c, ops, rhs, the rows,
// columns and values of the nonzeros, lower, upper. On bad input it returns {error}.
function flattenLP(p, maxNonzeros) {
  const fail = (msg, row) => ({ error: msg, index: row });
  if (p === null || typeof p !== 'object') return fail('problem: expected an object {sense, objective, rows}');
  const badKey = unknownKeyOf('problem', p, LP_KEYS);
  if (badKey) return fail(badKey);
  const sense = p.sense === undefined ? 'min' : p.sense;
  if (sense !== 'min' && sense !== 'max') return fail("sense: expected 'min' or 'max', got " + String(sense));
  const obj = p.objective;
  if (obj === undefined || obj === null || typeof obj.length !== 'number') return fail('objective: expected an array of numbers');
  const n = obj.length;
  if (n === 0) return fail('objective: empty problem (no variables)');
  for (let j = 0; j < n; j++) if (typeof obj[j] !== 'number') return fail('objective: entry ' + j + ' is not a number');
  const rows = p.rows === undefined || p.rows === null ? [] : p.rows;
  if (!Array.isArray(rows)) return fail('rows: expected an array of {coeffs, op, rhs}');
  const m = rows.length;
  let count = 0;
  for (let i = 0; i < m; i++) {
    const r = rows[i];
    if (r === null || typeof r !== 'object') return fail('rows[' + i + ']: expected {coeffs, op, rhs}', i);
    const badRowKey = unknownKeyOf('rows[' + i + ']', r, LP_ROW_KEYS);
    if (badRowKey) return fail(badRowKey, i);
    const co = r.coeffs;
    if (co === undefined || co === null || typeof co.length !== 'number') return fail('rows[' + i + '].coeffs: expected an array', i);
    // An empty array is a sparse row without terms: the constraint 0 (op) rhs.
    if (co.length === 0 || Array.isArray(co[0])) count += co.length;
    else {
      if (co.length !== n) return fail('rows[' + i + '].coeffs: a dense row needs ' + n + ' entries, got ' + co.length, i);
      count += n;
    }
    if (count > maxNonzeros) return fail('rows: more than ' + maxNonzeros + ' coefficients');
  }
  const ops = new Float64Array(m), rhs = new Float64Array(m);
  const ri = new Float64Array(count), ci = new Float64Array(count), v = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < m; i++) {
    const r = rows[i];
    const op = r.op;
    if (op === '<=') ops[i] = 0; else if (op === '=' || op === '==') ops[i] = 1; else if (op === '>=') ops[i] = 2;
    else return fail('rows[' + i + '].op: expected "<=", "=" or ">=", got ' + String(op), i);
    if (typeof r.rhs !== 'number') return fail('rows[' + i + '].rhs: expected a number', i);
    rhs[i] = r.rhs;
    const co = r.coeffs;
    if (co.length === 0 || Array.isArray(co[0])) {
      for (let t = 0; t < co.length; t++) {
        const e = co[t];
        if (!Array.isArray(e) || e.length !== 2) return fail('rows[' + i + '].coeffs[' + t + ']: expected [variable, coefficient]', i);
        const j = e[0], a = e[1];
        if (!Number.isInteger(j) || j < 0 || j >= n) return fail('rows[' + i + '].coeffs[' + t + ']: variable ' + String(j) + ' out of range [0,' + n + ')', i);
        if (typeof a !== 'number') return fail('rows[' + i + '].coeffs[' + t + ']: coefficient is not a number', i);
        ri[k] = i; ci[k] = j; v[k] = a; k++;
      }
    } else {
      for (let j = 0; j < n; j++) {
        const a = co[j];
        if (typeof a !== 'number') return fail('rows[' + i + '].coeffs[' + j + '] is not a number', i);
        if (a !== 0) { ri[k] = i; ci[k] = j; v[k] = a; k++; }
      }
    }
  }
  const bound = (name, def) => {
    const b = p[name];
    if (b === undefined || b === null) return null;
    if (typeof b.length !== 'number' || b.length !== n) return name + ': expected an array of ' + n + ' numbers';
    const out = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      const x = b[j];
      if (x === null) out[j] = def;
      else if (typeof x !== 'number') return name + ': entry ' + j + ' is not a number';
      else out[j] = x;
    }
    return out;
  };
  const lower = bound('lower', -Infinity), upper = bound('upper', Infinity);
  if (typeof lower === 'string') return fail(lower);
  if (typeof upper === 'string') return fail(upper);
  const parts = [Float64Array.from(obj), ops, rhs, ri.subarray(0, k), ci.subarray(0, k), v.subarray(0, k), lower || [], upper || []];
  const data = new Float64Array(parts.reduce((s, x) => s + x.length, 0));
  let at = 0;
  for (const x of parts) { data.set(x, at); at += x.length; }
  return { head: Float64Array.of(n, m, sense === 'max' ? 1 : 0, k, lower ? 1 : 0, upper ? 1 : 0), data };
}

// labels reads sample labels (estimate.*) as three wire values: a typed array or an array of
// numbers crosses as (count, float64 bytes, undefined); an array of strings is coded here by
// first appearance and crosses as (count, Int32Array of codes, a function returning the distinct
// strings joined by NUL), which Go calls only when it needs the strings (to sort them): strings
// that an estimator refuses by their number (a million distinct ones) are never copied.
function labels(x, p, w) {
  if (x === undefined || x === null) { w.push(undefined, undefined, undefined); return; }
  if (ArrayBuffer.isView(x) && !(x instanceof DataView)) { w.push(x.length, bytes(x instanceof Float64Array ? x : Float64Array.from(x)), undefined); return; }
  if (!Array.isArray(x)) return bad(p.label, `${p.label}: expected an array of labels (numbers or strings) or a typed array, got ${describe(x)}`);
  const str = x.length > 0 && typeof x[0] === 'string';
  const coded = str ? codeStrings(x) : null;
  for (let i = coded ? coded.stop : 0; i < x.length; i++) {
    const t = typeof x[i];
    if (t !== 'number' && t !== 'string') return bad(p.label, `${p.label}: entry ${i} is ${describe(x[i])}, expected a number or a string`, i, `is ${describe(x[i])}, expected a number or a string`);
    if ((t === 'string') !== str) return bad(p.label, `${p.label}: entry ${i} is a ${t} but entry 0 is not: labels are all numbers or all strings`, i, `is a ${t} but entry 0 is not: labels are all numbers or all strings`);
    if (str) return bad(p.label, `${p.label}: entry ${i} contains the character U+0000, which labels may not`, i, 'contains the character U+0000, which labels may not');
  }
  if (str) w.push(x.length, coded.codes, () => coded.names.join('\0'));
  else w.push(x.length, bytes(Float64Array.from(x)), undefined);
}

// codeStrings codes an array of strings by first appearance: codes (an Int32Array) and the
// distinct strings in that order (names). It stops at the first entry that is not a string or
// holds U+0000 (stop: its index; x.length when none), which labels() then names. An open
// addressing table of FNV-1a hashes: a JS Map took 2.5 times as long on a million distinct
// strings. A table crowded by colliding hashes (more than 8 probes per entry) gives way to a Map.
function codeStrings(x) {
  const n = x.length;
  let size = 16;
  while (size < 2 * n) size *= 2;
  const slots = new Int32Array(size).fill(-1), mask = size - 1;
  const codes = new Int32Array(n), names = [];
  let probes = 0, map = null;
  for (let i = 0; i < n; i++) {
    const v = x[i];
    if (typeof v !== 'string') return { codes, names, stop: i };
    let h = 0x811c9dc5, nul = false;
    for (let j = 0; j < v.length; j++) {
      const ch = v.charCodeAt(j);
      nul ||= ch === 0;
      h = Math.imul(h ^ ch, 0x01000193);
    }
    if (nul) return { codes, names, stop: i };
    if (map) {
      let c = map.get(v);
      if (c === undefined) { c = names.length; map.set(v, c); names.push(v); }
      codes[i] = c;
      continue;
    }
    let k = (h ^ (h >>> 15)) & mask, c;
    for (;;) {
      c = slots[k];
      if (c === -1) { c = names.length; slots[k] = c; names.push(v); break; }
      if (names[c] === v) break;
      k = (k + 1) & mask;
      probes++;
    }
    codes[i] = c;
    if (probes > 8 * n) map = new Map(names.map((s, c) => [s, c]));
  }
  return { codes, names, stop: n };
}

// eventValue writes what JSON cannot: typed arrays as arrays, NaN and ±Infinity as {$number}
// (so that Go names them instead of reading null).
function eventValue(key, v) {
  if (typeof v === 'number' && !Number.isFinite(v)) return { $number: String(v) };
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v);
  return v;
}

// plainCopy copies the own enumerable properties of an object (the debug kind 'object').
function plainCopy(o) {
  const out = {};
  for (const k of Object.keys(o)) out[k] = o[k];
  return out;
}

// A callback crosses as an adapter that returns a boolean (false: cancel). An exception thrown
// by the caller's function cancels the computation and is rethrown once the call returns.
function adapt(fn, p, state) {
  const keys = p.argsObject ? p.callArgs : null;
  return (...args) => {
    if (state.thrown) return false;
    try {
      if (!keys) return fn(...args) !== false;
      const o = {};
      for (let i = 0; i < keys.length; i++) o[keys[i]] = args[i];
      return fn(o) !== false;
    } catch (e) {
      state.thrown = { e };
      return false;
    }
  };
}

// The wire values of each kind that takes more than one: generated from the Go table (Kind.Width).
const WIDTH = API.widths;

// rationalText writes one number of the exact mode as the text Go parses: a number as String(x),
// its shortest decimal (0.1 stays a tenth), a bigint in decimal, a string as it is. Lists cross as
// their entries joined by commas, so a string holding one is refused here. Returns the text, or
// an error message about x called `what` ("prior: entry 2", "expEpsilon"); infinite tells whether
// Infinity is allowed (a missing distance of a metric).
function rationalText(x, infinite, what) {
  const t = rationalOrNull(x, infinite);
  return t === null ? rationalError(x, infinite, what) : { text: t };
}

// rationalOrNull is the text of x, or null when x is no rational (rationalError says why); it
// allocates nothing else, for lists of a million entries.
function rationalOrNull(x, infinite) {
  if (typeof x === 'string') return x.includes(',') ? null : x;
  if (typeof x === 'number') return Number.isFinite(x) || (infinite && x === Infinity) ? String(x) : null;
  if (typeof x === 'bigint') return x.toString();
  return null;
}

// rationalError is the complaint about x: {error, detail} (detail without the name `what`).
function rationalError(x, infinite, what) {
  const no = (sep, detail) => ({ error: `${what}${sep}${detail}`, detail });
  if (typeof x === 'string') return no(': ', `${JSON.stringify(x)}: not a number (a comma is not a decimal point; expected an integer, a decimal such as 0.25 or a fraction such as 1/3)`);
  if (typeof x === 'number') return no(' ', `is ${x}, expected a finite number or a fraction string`);
  return no(' ', `is ${describe(x)}, expected a number or a fraction string`);
}

// rationalList writes the entries of an array (or typed array) as one text; name(i) names entry
// i, called only for the entry in error, and at(i) is its index in the argument (error.index).
function rationalList(v, infinite, name, at = (i) => i) {
  const parts = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const t = rationalOrNull(v[i], infinite);
    if (t === null) return { ...rationalError(v[i], infinite, name(i)), index: at(i) };
    parts[i] = t;
  }
  return { text: parts.join(',') };
}

// ratMatrix reads a matrix of the exact mode: an array of rows or {rows, cols, data} (an
// ExactMatrix result included) → [rows, cols, text] or a complaint.
function ratMatrix(x, p, w) {
  if (x === undefined || x === null) { w.push(undefined, undefined, undefined); return; }
  const infinite = p.kind === 'ratMetric';
  const limit = API.limits.exactMaxEntries;
  let rows, cols, text;
  if (Array.isArray(x)) {
    rows = x.length;
    cols = rows > 0 && isNumberArrayLike(x[0]) ? x[0].length : 0;
    if (rows * cols > limit) return bad(p.label, `${p.label}: ${rows}×${cols} has more than the limit of ${limit} entries for exact arithmetic`);
    const parts = [];
    for (let i = 0; i < rows; i++) {
      const row = x[i];
      if (!isNumberArrayLike(row)) return bad(p.label, `${p.label}: row ${i} is ${describe(row)}, expected an array of numbers or fraction strings`, i, `is ${describe(row)}, expected an array of numbers or fraction strings`);
      if (row.length !== cols) return bad(p.label, `${p.label}: ragged matrix: row ${i} has ${row.length} entries where the first row has ${cols}`, i, `has ${row.length} entries where the first row has ${cols}`);
      const r = rationalList(row, infinite, (j) => `${p.label}: entry [${i}][${j}]`, (j) => [i, j]);
      if (r.error) return bad(p.label, r.error, r.index, r.detail);
      parts.push(r.text);
    }
    text = parts.join(',');
  } else if (x && typeof x === 'object' && 'rows' in x && 'cols' in x && 'data' in x) {
    ({ rows, cols } = x);
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
      return bad(p.label, `${p.label}: rows and cols must be non-negative integers, got ${String(rows)}×${String(cols)}`);
    }
    if (!isNumberArrayLike(x.data)) return bad(p.label, `${p.label}: data: expected an array of numbers or fraction strings, got ${describe(x.data)}`);
    if (x.data.length !== rows * cols) return bad(p.label, `${p.label}: data has ${x.data.length} entries, expected rows×cols = ${rows * cols}`);
    if (rows * cols > limit) return bad(p.label, `${p.label}: ${rows}×${cols} has more than the limit of ${limit} entries for exact arithmetic`);
    const r = rationalList(x.data, infinite, (k) => `${p.label}: entry [${Math.floor(k / cols)}][${k % cols}]`, (k) => [Math.floor(k / cols), k % cols]);
    if (r.error) return bad(p.label, r.error, r.index, r.detail);
    text = r.text;
  } else {
    return bad(p.label, `${p.label}: expected a matrix (array of rows or {rows, cols, data}), got ${describe(x)}`);
  }
  w.push(rows, cols, text);
}

// scalar reads a value of one JS type (its range is checked in Go, against the table).
const scalar = (type, what) => (x, p, w) => {
  if (x === undefined || x === null) w.push(undefined);
  else if (typeof x === type) w.push(x);
  else return bad(p.label, `${p.label}: expected ${what}, got ${describe(x)}`);
};

const readers = {
  number: scalar('number', 'a number'),
  integer: scalar('number', 'an integer'),
  boolean: scalar('boolean', 'a boolean'),
  string: scalar('string', 'a string'),
  enum(x, p, w) {
    if (x === undefined || x === null) w.push(undefined);
    else if (typeof x === 'string') w.push(x);
    else return bad(p.label, `${p.label}: expected one of '${p.enum.join("', '")}', got ${describe(x)}`);
  },
  vector(x, p, w) {
    if (x === undefined || x === null) { w.push(undefined); return; }
    const v = toVector(x);
    if (v.error) return within(p.label, v);
    w.push(bytes(v));
  },
  indices(x, p, w) {
    return readers.vector(x, p, w);
  },
  matrix(x, p, w) {
    if (x === undefined || x === null) { w.push(undefined, undefined, undefined); return; }
    const m = toMatrix(x);
    if (m.error) return within(p.label, m);
    w.push(m.rows, m.cols, bytes(m.data));
  },
  graph(x, p, w) {
    if (x === undefined || x === null) { w.push(undefined, undefined); return; }
    const g = toGraph(x, p.label);
    if (g.text) return g;
    w.push(g.n, bytes(g.edges));
  },
  callback(x, p, w, state) {
    if (x === undefined || x === null) w.push(undefined);
    else if (typeof x === 'function') w.push(adapt(x, p, state));
    else return bad(p.label, `${p.label}: expected a function, got ${describe(x)}`);
  },
  object(x, p, w) {
    if (x === undefined || x === null) w.push(undefined);
    else if (typeof x === 'object') w.push(plainCopy(x));
    else return bad(p.label, `${p.label}: expected an object, got ${describe(x)}`);
  },
  rational(x, p, w) {
    if (x === undefined || x === null) { w.push(undefined); return; }
    const r = rationalText(x, false, p.label);
    if (r.error) return bad(p.label, r.error, undefined, r.detail);
    w.push(r.text);
  },
  ratVector(x, p, w) {
    if (x === undefined || x === null) { w.push(undefined, undefined); return; }
    if (!isNumberArrayLike(x)) return bad(p.label, `${p.label}: expected a vector (array of numbers or fraction strings), got ${describe(x)}`);
    if (x.length > API.limits.exactMaxEntries) return bad(p.label, `${p.label}: ${x.length} entries, more than the limit of ${API.limits.exactMaxEntries} for exact arithmetic`);
    const r = rationalList(x, false, (i) => `${p.label}: entry ${i}`);
    if (r.error) return bad(p.label, r.error, r.index, r.detail);
    w.push(x.length, r.text);
  },
  ratMatrix,
  ratMetric: ratMatrix,
  labels,
  samples(x, p, w) { // labels, or a matrix with one row per sample
    const matrix = (x && typeof x === 'object' && !ArrayBuffer.isView(x) && !Array.isArray(x)) || (Array.isArray(x) && isNumberArrayLike(x[0]));
    if (matrix) { const err = readers.matrix(x, p, w); w.push(undefined); return err; }
    // A Float64Array or Float32Array is numbers: a one-column matrix. An integer typed array is
    // labels, marked so (a plain array of numbers is decided by the rule of kind 'auto').
    if (x instanceof Float64Array || x instanceof Float32Array) { w.push(x.length, 1, bytes(x instanceof Float64Array ? x : Float64Array.from(x)), undefined); return; }
    const err = labels(x, p, w);
    w.push(ArrayBuffer.isView(x) && !(x instanceof DataView) ? 'integer' : undefined);
    return err;
  },
  enumIntegerOrVector(x, p, w) { // 'fd', a positive integer, or an array of numbers (bins)
    if (Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView))) return readers.vector(x, p, w);
    return readers.enumOrInteger(x, p, w);
  },
  enumOrInteger(x, p, w) {
    if (x === undefined || x === null || typeof x === 'string' || typeof x === 'number') w.push(x === null ? undefined : x);
    else return bad(p.label, `${p.label}: expected '${p.enum.join("' or '")}' or a positive integer, got ${describe(x)}`);
  },
  events(x, p, w) { // qif.accounting: JSON text, parsed and checked in Go
    if (x === undefined || x === null) { w.push(undefined); return; }
    if (!Array.isArray(x)) return bad(p.label, `${p.label}: expected an array of events ({mechanism, ...}), got ${describe(x)}`);
    let text;
    try {
      text = JSON.stringify(x, eventValue);
    } catch (e) {
      return bad(p.label, `${p.label}: cannot be read as plain data (${e && e.message})`);
    }
    w.push(text);
  },
  lpProblem(x, p, w) {
    if (x === undefined || x === null) { w.push(undefined, undefined); return; }
    const f = flattenLP(x, API.limits.lpMaxNonzeros);
    if (f.error) return bad(p.label, f.error, f.index, f.error);
    w.push(bytes(f.head), bytes(f.data));
  },
  options(x, p, w, state) {
    if (x === undefined || x === null) {
      for (let i = 0; i < p.absent; i++) w.push(undefined);
      return;
    }
    if (typeof x !== 'object' || Array.isArray(x)) return bad(p.label, `${p.label}: expected an options object, got ${describe(x)}`);
    for (const k of Object.keys(x)) if (!p.keys.has(k)) return unknownKey(p, k);
    w.push(true);
    for (const f of p.fields) {
      const err = f.read(x[f.name], f, w, state);
      if (err !== undefined) return err;
    }
  },
};

// unknownKey names the key, suggests the likely one and lists the valid ones.
function unknownKey(p, key) {
  return unknownOption(p.label, key, p.fields.map((f) => f.name));
}

// unknownName is the message for a key outside names: it suggests the likely one and lists them.
function unknownName(label, what, key, names) {
  const near = names.find((n) => editDistance(n.toLowerCase(), key.toLowerCase()) <= 2);
  return `${label}: unknown ${what} "${key}"${near ? ` (did you mean "${near}"?)` : ''}; valid ${what}s: ${names.join(', ')}`;
}

function unknownOption(label, key, names) {
  return bad(label, unknownName(label, 'option', key, names));
}

// The keys of an lp.solve problem and of its rows: a misspelt one would otherwise be dropped
// silently (`uper` for `upper` ignores the bound, `Rows` for `rows` leaves no constraints).
const LP_KEYS = ['sense', 'objective', 'rows', 'lower', 'upper'];
const LP_ROW_KEYS = ['coeffs', 'op', 'rhs'];

// unknownKeyOf returns the message for the first key of obj outside names, or undefined.
function unknownKeyOf(label, obj, names) {
  for (const k of Object.keys(obj)) if (!names.includes(k)) return unknownName(label, 'key', k, names);
}

function editDistance(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

// prepare turns a parameter of the table into what the interpreter reads it with.
function prepare(p) {
  const out = { ...p, label: p.label || p.name, read: readers[p.kind] };
  if (p.kind === 'options') {
    out.fields = p.fields.map(prepare);
    out.keys = new Set(p.fields.map((f) => f.name));
    out.absent = 1 + out.fields.reduce((s, f) => s + (WIDTH[f.kind] || 1), 0);
  }
  return out;
}

/**
 * The error a function reports from Go: message, name ('AbortError' when cancelled), partial
 * result, for a fault in one argument, the argument's name, the index of the row or entry
 * (a number, or [row, column]) and what is wrong, from the Go error's fields (core/argerr), and
 * fields of its own that the thrown Error receives as properties (a program's line and column).
 */
class Failure {
  constructor(message, name, partial, argument, index, detail, fields) {
    this.message = message;
    this.name = name;
    this.partial = partial;
    this.argument = argument;
    this.index = index;
    this.detail = detail;
    this.fields = fields;
  }
}

// argumentError sets error.argument, error.index and error.detail from a complaint or a Failure
// (each only where known) and returns the error.
function argumentError(e, from) {
  if (typeof from.argument === 'string') {
    e.argument = from.argument;
    if (typeof from.index === 'number' || Array.isArray(from.index)) e.index = from.index;
    if (typeof from.detail === 'string') e.detail = from.detail;
  }
  return e;
}

// jsonReady gives the typed arrays and the matrices {rows, cols, data} of a result a
// non-enumerable toJSON, so that JSON.stringify writes a vector as an array of numbers and a
// matrix as an array of rows (not {"0": …}), which parse back into arguments the API accepts.
// Only the result's own structure is walked, never the entries of its arrays.
function jsonReady(v, depth = 0) {
  if (v === null || typeof v !== 'object' || depth > 8) return v;
  if (ArrayBuffer.isView(v)) {
    if (!Object.hasOwn(v, 'toJSON')) Object.defineProperty(v, 'toJSON', { value: vectorJSON });
    return v;
  }
  if (Number.isInteger(v.rows) && Number.isInteger(v.cols) && v.data && v.data.length === v.rows * v.cols) {
    if (!Object.hasOwn(v, 'toJSON')) Object.defineProperty(v, 'toJSON', { value: matrixJSON });
    return v;
  }
  for (const x of Array.isArray(v) ? v : Object.values(v)) jsonReady(x, depth + 1);
  return v;
}

function vectorJSON() { return Array.from(this); }

function matrixJSON() {
  const { rows, cols, data } = this;
  return Array.from({ length: rows }, (_, i) => Array.from(data.slice(i * cols, (i + 1) * cols)));
}

/** A list of strings from the module, which joins them with commas to cross the boundary once. */
function split(text) {
  return text === '' ? [] : text.split(',');
}

/** A matrix of strings from the module: its entries joined by commas, split into rows of `cols`. */
function splitRows(text, cols) {
  const all = split(text);
  const rows = [];
  for (let i = 0; i < all.length; i += cols) rows.push(all.slice(i, i + cols));
  return rows;
}

/** `n` labels from the module, joined by NUL characters (which no label holds). */
function splitLabels(text, n) {
  return n === 0 ? [] : text.split('\0');
}

function messageOf(e) {
  return e && typeof e.message === 'string' ? e.message : String(e);
}

function deepFreeze(o) {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

deepFreeze(API);
const byName = new Map(API.functions.map((f) => [`${f.ns}.${f.name}`, f]));

// Each function's module ('main', or f.module) and its index there, the wire id that module knows.
const moduleOf = (f) => f.module || 'main';
const counts = {};
const localIds = API.functions.map((f) => {
  const m = moduleOf(f);
  counts[m] = (counts[m] ?? 0) + 1;
  return counts[m] - 1;
});

/**
 * Starts one WebAssembly module and returns what it exports, {names, call, version}, after
 * checking that it serves the functions api.gen.js lists for it.
 */
async function instantiate(module, url, wasmModule) {
  const compiled = wasmModule ? Promise.resolve(wasmModule).then(checkModule) : wasmSource(url).then(compile);
  compiled.catch(() => {}); // awaited below; not unhandled if wasm_exec.js fails first
  const Go = await loadGoClass();
  const go = new Go();
  unrefRuntimeTimers(go);
  const name = `__qifExport${Date.now().toString(36)}_${counter++}`;
  const ready = new Promise((resolve) => {
    globalThis[name] = (api) => {
      if (api === null) return { Failure, split, splitRows, splitLabels };
      delete globalThis[name];
      resolve(api);
      return undefined;
    };
  });
  go.env = { QIF_EXPORT: name };
  const instance = await WebAssembly.instantiate(await compiled, go.importObject);
  const exited = go.run(instance).then(() => { throw new Error(`qif: the WebAssembly module ${fileOf(url)} exited`); });
  const raw = await Promise.race([ready, exited]);
  const names = Array.from(raw.names);
  const expected = API.functions.filter((f) => moduleOf(f) === module);
  if (names.length !== expected.length || names.some((n, i) => byName.get(n) !== expected[i])) {
    if (wasmModule) throw new Error(`qif: load: ${module === 'main' ? 'wasmModule' : 'moreWasmModule'} does not serve the functions of ${FILES[module]} in api.gen.js (another build, or another of the toolkit's modules)`);
    throw new Error(`qif: ${fileOf(url)} and api.gen.js come from different versions of the API table (rebuild with scripts/build.sh)`);
  }
  return raw;
}

/**
 * In Node, the Go runtime's own timers (the background scavenger's and the garbage collector's
 * pacing, scheduled through setTimeout while every goroutine is idle) must not keep the process
 * alive: a script that has finished its calls would otherwise wait, sometimes for minutes, before
 * it exits. Every API call runs to completion synchronously, so no answer ever waits on such a
 * timer. Browsers have no unref and keep their timers as they are.
 */
// The keys of load()'s and qif.exact.load()'s options (LoadOptions and ExactLoadOptions in qif.d.ts).
const LOAD_OPTIONS = ['wasmURL', 'wasmModule', 'exact', 'exactWasmURL', 'lazy', 'moreWasmURL', 'moreWasmModule'];
const EXACT_LOAD_OPTIONS = ['wasmURL'];

// loadOptions checks the options of a loader like every function's: an object (or nothing) with
// no key it does not know. Returns the options ({} for none).
function loadOptions(where, options, names) {
  if (options === undefined || options === null) return {};
  const fail = (b) => { throw argumentError(new Error(`${where}: ${b.text}`), b); };
  if (typeof options !== 'object' || Array.isArray(options)) fail(bad('options', `options: expected an options object, got ${describe(options)}`));
  for (const k of Object.keys(options)) if (!names.includes(k)) fail(unknownOption('options', k, names));
  return options;
}

// checkModule accepts a compiled module given by the caller (load's wasmModule).
function checkModule(m) {
  if (!(m instanceof WebAssembly.Module)) throw new TypeError(`qif: load: wasmModule: expected a WebAssembly.Module (or a promise of one), got ${describe(m)}`);
  return m;
}

function unrefRuntimeTimers(go) {
  const imports = go.importObject.gojs ?? go.importObject.go;
  const schedule = imports?.['runtime.scheduleTimeoutEvent'];
  if (typeof schedule !== 'function') return;
  imports['runtime.scheduleTimeoutEvent'] = (sp) => {
    const id = go._nextCallbackTimeoutID;
    schedule(sp);
    go._scheduledTimeouts?.get(id)?.unref?.();
  };
}

function fileOf(url) {
  return url.protocol === 'blob:' || url.protocol === 'data:' ? url.protocol.slice(0, -1) + ' URL' : url.pathname.split('/').pop();
}

/**
 * Loads the WebAssembly modules and returns the API (see qif.d.ts and docs/api.md): qif.wasm and
 * qif-more.wasm in parallel, or with `lazy` qif.wasm alone (qif-more.wasm then loads on
 * qif.loadModule('more')). `wasmModule` is qif.wasm already compiled (or being compiled): a worker
 * that starts compiling before its scripts have loaded (the page's engine/worker.js) or a page that
 * compiles once for many workers; `moreWasmModule` the same for qif-more.wasm.
 * @param {{wasmURL?: string|URL, wasmModule?: WebAssembly.Module|Promise<WebAssembly.Module>,
 *   exact?: boolean, exactWasmURL?: string|URL, lazy?: boolean, moreWasmURL?: string|URL,
 *   moreWasmModule?: WebAssembly.Module|Promise<WebAssembly.Module>}} [options]
 */
export async function load(options = {}) {
  options = loadOptions('load', options, LOAD_OPTIONS);
  const main = instantiate('main', mainURL(options.wasmURL), options.wasmModule);
  const further = {
    more: lazyModule('more', siblingURL(FILES.more, options.moreWasmURL, options.wasmURL), options.moreWasmModule),
    exact: lazyModule('exact', siblingURL(FILES.exact, options.exactWasmURL, options.wasmURL)),
  };
  // Every module asked for at once; an error of any rejects load().
  const started = [main];
  if (!options.lazy) started.push(further.more.start());
  if (options.exact) started.push(further.exact.start());
  const [m, ...others] = await Promise.all(started);
  for (const o of others) sameVersion(m, o);
  return Object.freeze(bind(m, further));
}

// sameVersion throws unless both modules come from the same build.
function sameVersion(main, other) {
  if (other.version !== main.version) {
    throw new Error(`qif: ${FILES[other.module]} is version ${other.version} but qif.wasm is ${main.version} (rebuild with scripts/build.sh)`);
  }
}

// lazyModule is a module loaded on first demand: start(url?) starts it once (again after a
// failure) and resolves to what it exports; raw is that, once it is there. wasmModule, when given,
// is the module already compiled (used by the first start only).
function lazyModule(module, defaultURL, wasmModule) {
  const state = { raw: null, promise: null };
  state.start = (url) => {
    if (!state.promise) {
      const given = wasmModule;
      wasmModule = undefined;
      state.promise = instantiate(module, url ? new URL(url, import.meta.url) : defaultURL, given).then(
        (raw) => (state.raw = Object.assign(raw, { module })),
        (e) => { state.promise = null; throw e; },
      );
    }
    return state.promise;
  };
  return state;
}

// The error of a function whose module is not loaded: what to call, or how to load the toolkit.
const NOT_LOADED = {
  more: (q) => `${q}: the module qif-more.wasm is not loaded (the toolkit was loaded with { lazy: true }): call \`await qif.loadModule('more')\` first, or load the toolkit without lazy`,
  exact: (q) => `${q}: the exact module (qif-exact.wasm) is not loaded: call \`await qif.loadModule('exact')\` (or its alias \`await qif.exact.load()\`) first, or load the toolkit with \`load({ exact: true })\``,
};

// The functions written in JavaScript, by namespace (typed in qif.d.ts, not in the table).
const JS_ONLY = {
  estimate: {
    /** The page's CSV/TSV reader (input/samples.js), throwing its error with the line it names. */
    readSamples: function readSamples(text, options = undefined) {
      const where = 'estimate.readSamples';
      const opts = loadOptions(where, options, ['onProgress']);
      if (typeof text !== 'string') throw argumentError(new TypeError(`${where}: text: expected a string, got ${describe(text)}`), { argument: 'text' });
      if (opts.onProgress !== undefined && typeof opts.onProgress !== 'function') {
        throw argumentError(new TypeError(`${where}: onProgress: expected a function, got ${describe(opts.onProgress)}`), { argument: 'onProgress' });
      }
      const r = readSamplesText(text, { onProgress: opts.onProgress });
      if (r.error) throw argumentError(new Error(`${where}: text: ${r.error}`), { argument: 'text', detail: r.error });
      return r;
    },
  },
};

// bind builds the API object over the first module's exports and the further modules' loaders.
function bind(main, further) {
  const { exact } = further;
  const specs = API.functions.map((f) => ({
    q: `${f.ns}.${f.name}`, module: moduleOf(f), params: f.params.map(prepare), callbacks: f.callbacks.length > 0,
  }));

  function call(id, args) {
    const s = specs[id];
    let dispatch = main.call;
    if (s.module !== 'main') {
      const m = further[s.module];
      if (!m.raw) throw new Error(NOT_LOADED[s.module](s.q));
      dispatch = m.raw.call;
    }
    const w = [localIds[id]];
    const state = s.callbacks ? { thrown: null } : null;
    const params = s.params;
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      let err;
      try {
        err = p.read(args[i], p, w, state);
      } catch (e) { // a throwing getter or Proxy trap in the caller's argument
        err = bad(p.label, `${p.label}: cannot be read: ${messageOf(e)}`);
      }
      if (err !== undefined) throw argumentError(new Error(`${s.q}: ${err.text}`), err);
    }
    const r = dispatch(...w);
    if (state && state.thrown) throw state.thrown.e;
    if (r instanceof Failure) {
      const e = argumentError(new Error(r.message), r);
      if (r.name !== 'Error') e.name = r.name;
      if (r.partial !== undefined && r.partial !== null) e.partial = jsonReady(r.partial);
      if (r.fields) Object.assign(e, r.fields);
      throw e;
    }
    return jsonReady(r);
  }

  const api = { version: main.version };
  const byWrapper = new WeakMap();
  const made = wrappers(call);
  // qif.exact: the loader of its module, then its namespaces (qif.exact.measure, ...).
  const exactAPI = {};
  Object.defineProperties(exactAPI, {
    loaded: { enumerable: true, get: () => exact.raw !== null },
    load: {
      enumerable: true,
      value: async function load(options = {}) {
        options = loadOptions('qif.exact.load', options, EXACT_LOAD_OPTIONS);
        sameVersion(main, await exact.start(options.wasmURL));
        return api.exact;
      },
    },
  });
  let id = 0;
  for (const ns of API.namespaces) {
    for (const f of Object.values(made[ns])) byWrapper.set(f, API.functions[id++]);
    if (ns.startsWith('exact.')) exactAPI[ns.slice('exact.'.length)] = Object.freeze(made[ns]);
    else api[ns] = Object.freeze(Object.assign(made[ns], JS_ONLY[ns]));
  }
  api.exact = Object.freeze(exactAPI);
  Object.defineProperties(api, {
    loadModule: {
      enumerable: false,
      value: async function loadModule(name) {
        if (!Object.hasOwn(further, name)) {
          throw argumentError(new Error(unknownName('loadModule: name', 'module', String(name), Object.keys(further))), { argument: 'name' });
        }
        sameVersion(main, await further[name].start());
        return api;
      },
    },
    moduleLoaded: {
      enumerable: false,
      value: function moduleLoaded(name) {
        if (name === 'main') return true;
        if (!Object.hasOwn(further, name)) throw new Error(unknownName('moduleLoaded: name', 'module', String(name), ['main', ...Object.keys(further)]));
        return further[name].raw !== null;
      },
    },
  });
  Object.defineProperty(api, 'describe', {
    enumerable: false,
    value: function describe(name = undefined) {
      if (name === undefined) return API;
      if (typeof name === 'function' && byWrapper.has(name)) return byWrapper.get(name);
      if (typeof name !== 'string') throw new Error('describe: expected a name ("measure.shannonCapacity"), a namespace or a function of the API');
      if (byName.has(name)) return byName.get(name);
      if (API.namespaces.includes(name)) return API.functions.filter((f) => f.ns === name);
      if (name === 'exact') return API.functions.filter((f) => f.ns.startsWith('exact.'));
      const same = API.functions.filter((f) => f.name === name);
      if (same.length === 1) return same[0];
      throw new Error(`describe: unknown function "${name}"${same.length ? `; it is in ${same.map((f) => f.ns).join(' and ')}` : ''}`);
    },
  });
  return api;
}
