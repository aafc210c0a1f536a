// qif.js — loads the QIF/DP toolkit's WebAssembly module and exposes its API (docs/api.md).
// Works in a page, in a (module) Web Worker and in Node ≥ 20 without flags or extra packages.
//
//   import { load } from './qif.js';
//   const qif = await load();                 // fetches qif.wasm beside this file
//   const qif2 = await load({ wasmURL });      // or from elsewhere
//   qif.measure.shannonEntropy([0.5, 0.5])    // 1
//
// Each call to load() starts an independent instance of the Go runtime.

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

async function wasmSource(wasmURL) {
  const url = wasmURL ? new URL(wasmURL, import.meta.url) : new URL('./qif.wasm', import.meta.url);
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

// Marshaling helpers called from Go: they turn any accepted matrix or vector shape into one
// Float64Array so that Go copies it with a single bulk copy.
function isNumberArrayLike(a) {
  return Array.isArray(a) || (ArrayBuffer.isView(a) && !(a instanceof DataView));
}

function toVector(v) {
  if (v instanceof Float64Array) return v;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Float64Array.from(v);
  if (!Array.isArray(v)) return `expected a vector (array of numbers), got ${describe(v)}`;
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== 'number') return `entry ${i} is ${describe(x)}, expected a number`;
    out[i] = x;
  }
  return out;
}

function toMatrix(m) {
  if (Array.isArray(m)) {
    const rows = m.length;
    if (rows === 0) return { rows: 0, cols: 0, data: new Float64Array(0) };
    if (!isNumberArrayLike(m[0])) return { error: `row 0 is ${describe(m[0])}, expected an array of numbers` };
    const cols = m[0].length;
    const data = new Float64Array(rows * cols);
    for (let i = 0; i < rows; i++) {
      const row = m[i];
      if (!isNumberArrayLike(row)) return { error: `row ${i} is ${describe(row)}, expected an array of numbers` };
      if (row.length !== cols) return { error: `ragged matrix: row ${i} has ${row.length} entries, row 0 has ${cols}` };
      for (let j = 0; j < cols; j++) {
        const x = row[j];
        if (typeof x !== 'number') return { error: `entry [${i}][${j}] is ${describe(x)}, expected a number` };
        data[i * cols + j] = x;
      }
    }
    return { rows, cols, data };
  }
  if (m && typeof m === 'object' && 'rows' in m && 'cols' in m && 'data' in m) {
    const { rows, cols } = m;
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
      return { error: `rows and cols must be non-negative integers, got ${rows}×${cols}` };
    }
    const data = toVector(m.data);
    if (typeof data === 'string') return { error: `data: ${data}` };
    if (data.length !== rows * cols) return { error: `data has ${data.length} entries, expected rows×cols = ${rows * cols}` };
    return { rows, cols, data };
  }
  return { error: `expected a matrix (array of rows or {rows, cols, data}), got ${describe(m)}` };
}

// flattenLP checks an lp.solve problem {sense, objective, rows, lower?, upper?} and flattens it
// into typed arrays (coordinate form) for Go; on bad input it returns {error}.
function flattenLP(p, maxNonzeros) {
  const fail = (msg) => ({ error: msg });
  if (p === null || typeof p !== 'object') return fail('problem: expected an object {sense, objective, rows}');
  const sense = p.sense === undefined ? 'min' : p.sense;
  if (sense !== 'min' && sense !== 'max') return fail("sense: expected 'min' or 'max', got " + String(sense));
  const obj = p.objective;
  if (obj === undefined || obj === null || typeof obj.length !== 'number') return fail('objective: expected an array of numbers');
  const n = obj.length;
  if (n === 0) return fail('objective: empty problem (no variables)');
  const c = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const v = obj[j];
    if (typeof v !== 'number') return fail('objective: entry ' + j + ' is not a number');
    c[j] = v;
  }
  const rows = p.rows === undefined || p.rows === null ? [] : p.rows;
  if (!Array.isArray(rows)) return fail('rows: expected an array of {coeffs, op, rhs}');
  const m = rows.length;
  let count = 0;
  for (let i = 0; i < m; i++) {
    const r = rows[i];
    if (r === null || typeof r !== 'object') return fail('rows[' + i + ']: expected {coeffs, op, rhs}');
    const co = r.coeffs;
    if (co === undefined || co === null || typeof co.length !== 'number') return fail('rows[' + i + '].coeffs: expected an array');
    if (co.length > 0 && Array.isArray(co[0])) count += co.length;
    else {
      if (co.length !== n) return fail('rows[' + i + '].coeffs: a dense row needs ' + n + ' entries, got ' + co.length);
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
    else return fail('rows[' + i + '].op: expected "<=", "=" or ">=", got ' + String(op));
    if (typeof r.rhs !== 'number') return fail('rows[' + i + '].rhs: expected a number');
    rhs[i] = r.rhs;
    const co = r.coeffs;
    if (co.length > 0 && Array.isArray(co[0])) {
      for (let t = 0; t < co.length; t++) {
        const e = co[t];
        if (!Array.isArray(e) || e.length !== 2) return fail('rows[' + i + '].coeffs[' + t + ']: expected [variable, coefficient]');
        const j = e[0], a = e[1];
        if (!Number.isInteger(j) || j < 0 || j >= n) return fail('rows[' + i + '].coeffs[' + t + ']: variable ' + String(j) + ' out of range [0,' + n + ')');
        if (typeof a !== 'number') return fail('rows[' + i + '].coeffs[' + t + ']: coefficient is not a number');
        ri[k] = i; ci[k] = j; v[k] = a; k++;
      }
    } else {
      for (let j = 0; j < n; j++) {
        const a = co[j];
        if (typeof a !== 'number') return fail('rows[' + i + '].coeffs[' + j + '] is not a number');
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
  return { n, m, max: sense === 'max', c, ops, rhs, ri: ri.subarray(0, k), ci: ci.subarray(0, k), v: v.subarray(0, k), lower, upper };
}

function describe(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'string') return `the string ${JSON.stringify(x.length > 20 ? x.slice(0, 20) + '…' : x)}`;
  return typeof x;
}

// plain copies arguments into plain data before they reach Go. wasm_exec.js cannot recover when
// a JS exception (a throwing getter, a revoked Proxy) is raised while Go reads a property, so the
// reading happens here, where it can fail cleanly. Typed arrays and functions pass through as they
// are (typed arrays are the fast path for large matrices).
function plain(v, depth) {
  if (v === null || typeof v !== 'object') return v;
  if (ArrayBuffer.isView(v)) return v;
  if (depth > 8) throw new Error('argument nested too deeply');
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = plain(v[i], depth + 1);
    return out;
  }
  const out = {};
  for (const k of Object.keys(v)) out[k] = plain(v[k], depth + 1);
  return out;
}

function wrapNamespace(ns, raw) {
  const out = {};
  for (const name of Object.keys(raw)) {
    const f = raw[name];
    out[name] = function (...args) {
      for (let i = 0; i < args.length; i++) {
        try {
          args[i] = plain(args[i], 0);
        } catch (e) {
          throw new Error(`${ns}.${name}: argument ${i + 1} cannot be read: ${e && e.message ? e.message : e}`);
        }
      }
      const r = f(...args);
      if (r instanceof Error) throw r;
      return r;
    };
  }
  return Object.freeze(out);
}

/**
 * Loads the WebAssembly module and returns the API object (docs/api.md).
 * @param {{wasmURL?: string|URL}} [options]
 */
export async function load(options = {}) {
  const compiled = wasmSource(options.wasmURL).then(compile);
  compiled.catch(() => {}); // awaited below; not unhandled if wasm_exec.js fails first
  const Go = await loadGoClass();
  const go = new Go();
  const name = `__qifExport${Date.now().toString(36)}_${counter++}`;
  const ready = new Promise((resolve) => {
    globalThis[name] = (api) => {
      if (api === null) return { toMatrix, toVector, flattenLP };
      delete globalThis[name];
      resolve(api);
      return undefined;
    };
  });
  go.env = { QIF_EXPORT: name };
  const instance = await WebAssembly.instantiate(await compiled, go.importObject);
  const exited = go.run(instance).then(() => { throw new Error('qif: the WebAssembly module exited'); });
  const raw = await Promise.race([ready, exited]);
  const api = { version: raw.version };
  for (const ns of Object.keys(raw)) {
    if (ns !== 'version') api[ns] = wrapNamespace(ns, raw[ns]);
  }
  return Object.freeze(api);
}
