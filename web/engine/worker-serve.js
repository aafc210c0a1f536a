// engine/worker-serve.js — what the computation worker does: every computation of the page runs in
// it, so that a long call (capacity iterations, an LP) never freezes typing. serve() loads the
// wasm through qif.js and answers messages from client.js. The page's module worker is
// worker.js, which starts compiling qif.wasm before this file and its imports have loaded; the
// single-file page and the widgets bundle run worker-classic.js as one classic script.
//
//   page → worker  {id, calls: [{ns, fn, args, callbacks?: [{arg, key}]}]}
//                  {type: 'share', key, v, rows, cols}   a matrix kept for the calls that follow,
//                  {type: 'share-piece', key, v, offset, data}   sent in pieces
//   worker → page  {type: 'ready', version, api: {ns: [fn, ...]}}
//                  {type: 'fatal', error}                      the module could not be loaded
//                  {type: 'result', id, results: [{ok: true, value} | {ok: false, error, fn, argument?, index?, detail?}]}
//                  {type: 'progress', id, call, callback, data: [args]}   a callback's report
//
// Calls of one message run in order and each settles on its own, so one failing measure does
// not hide the others. `callbacks` says where the caller had put functions (argument `arg`,
// option `key`, or the argument itself when key is null); the API table (api.gen.js, generated
// from bindings/) says where the function's callbacks go, and the worker puts there a function
// that forwards its arguments to the page (api-table.js callbackSlot). The worker loads qif.wasm
// alone (load's lazy mode: channels and measures, the page's first numbers); the first message
// with a call of another module (the table's `module`: qif-more.wasm, or qif-exact.wasm for
// "exact.measure", qif.exact.measure, and qif.program) loads that module before it runs. An argument {$shared: key, v} is the matrix shared under key
// (client.js share); the buffers of results go back transferred, not copied.

import { load } from '../qif.js';
import { API } from '../api.gen.js';
import { callbackSlot, indexTable } from './api-table.js';

const TABLE = indexTable(API);

let qif = null;
const moduleError = {}; // why a further module could not be loaded, for the calls that need it

/**
 * Matrices shared by the page: key → {v, value, missing, ready}. A matrix arrives as a header
 * ({type: 'share'}) and pieces ({type: 'share-piece'}); `ready` resolves when the last piece has
 * arrived, or when the matrix is replaced (the calls waiting for it then fail, "replaced").
 */
const shared = new Map();

function receiveShare(msg) {
  const old = shared.get(msg.key);
  if (msg.type === 'share') {
    let done;
    const ready = new Promise((resolve) => { done = resolve; });
    const length = msg.rows * msg.cols;
    shared.set(msg.key, { v: msg.v, value: { rows: msg.rows, cols: msg.cols, data: new Float64Array(length) }, missing: length, ready, done });
    if (length === 0) done();
    old?.done();
    return;
  }
  if (!old || old.v !== msg.v) return; // a piece of a matrix replaced since
  old.value.data.set(msg.data, msg.offset);
  old.missing -= msg.data.length;
  if (old.missing <= 0) old.done();
}

// The shared matrices the calls of a message use, once they have all arrived.
function sharedArrived(calls) {
  const waits = [];
  for (const call of calls) {
    for (const a of Array.isArray(call.args) ? call.args : []) if (isShared(a)) waits.push(shared.get(a.$shared)?.ready);
  }
  return Promise.all(waits);
}

function isShared(a) {
  return !!a && typeof a === 'object' && typeof a.$shared === 'string';
}

let loaded = null;

// The compilation of qif-more.wasm, started by the first message with a call of that module: a
// lesson with a mechanism widget then downloads and compiles both modules at once (two cores
// compile two modules), where it used to wait for qif.wasm to start before asking for the second.
// The URL is a literal beside this file, which the one-file builds answer from their copy
// (scripts/singlefile.mjs: their worker's fetch asks the page or inflates it).
const moreCompiled = {};
moreCompiled.promise = new Promise((resolve) => { moreCompiled.resolve = resolve; });
moreCompiled.promise.catch(() => {}); // reported by the call that needs the module

function startCompiling(calls) {
  if (moreCompiled.started || !calls.some((c) => TABLE.get(`${c?.ns}.${c?.fn}`)?.module === 'more')) return;
  moreCompiled.started = true;
  moreCompiled.resolve(compileWasm(new URL('../qif-more.wasm', import.meta.url)));
}

// Streaming when the server labels the file application/wasm, as qif.js would.
async function compileWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`qif: cannot fetch ${response.url}: HTTP ${response.status}`);
  if (WebAssembly.compileStreaming && (response.headers.get('content-type') || '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * Loads the wasm with load's `options` (a wasmModule already being compiled, say) and answers the
 * page's messages from now on. Returns the message handler, for messages that arrived before.
 * @returns {(event: MessageEvent) => Promise<void>}
 */
export function serve(options = {}) {
  // qif-more.wasm is handed to load() as a module compiled on demand: the first message that
  // needs it starts its download and compilation (startCompiling) even while qif.wasm is still
  // compiling or starting, rather than after it. A caller that brings its own (options.
  // moreWasmModule, compiled or a thenable) keeps it, and nothing is fetched here.
  if (options.moreWasmModule !== undefined) moreCompiled.started = true;
  const moreWasmModule = options.moreWasmModule ?? moreCompiled.promise;
  loaded = load({ ...options, lazy: true, moreWasmModule }).then(ready, (err) => {
    self.postMessage({ type: 'fatal', error: messageOf(err) });
  });
  self.onmessage = onMessage;
  return onMessage;
}

// The wasm is loaded: tell the page which functions it can call.
function ready(api) {
  qif = api;
  const names = {};
  for (const ns of Object.keys(api)) {
    if (ns === 'exact') {
      // qif.exact.measure and the like, as "exact.measure" (their module loads on first use).
      for (const sub of Object.keys(api.exact)) {
        if (api.exact[sub] && typeof api.exact[sub] === 'object') names[`exact.${sub}`] = Object.keys(api.exact[sub]).sort();
      }
    } else if (api[ns] && typeof api[ns] === 'object') names[ns] = Object.keys(api[ns]).sort();
  }
  self.postMessage({ type: 'ready', version: api.version, api: names });
}

function messageOf(err) {
  if (err && typeof err.message === 'string') return err.message;
  return String(err);
}

// Forward at most ~10 reports a second: an iterative method may call back thousands of times,
// and the page only needs to show that work goes on.
const REPORT_EVERY_MS = 100;

function runCall(id, index, call) {
  const { ns, fn } = call;
  const args = Array.isArray(call.args) ? call.args.slice() : [];
  for (let i = 0; i < args.length; i++) {
    if (!isShared(args[i])) continue;
    const s = shared.get(args[i].$shared);
    if (!s || s.v !== args[i].v) return { ok: false, error: `the shared input ${args[i].$shared} was replaced before this call ran` };
    args[i] = s.value;
  }
  const spec = TABLE.get(`${ns}.${fn}`);
  if (spec?.module && moduleError[spec.module]) return { ok: false, error: moduleError[spec.module] };
  const namespace = typeof ns === 'string' ? ns.split('.').reduce((o, k) => (o && typeof o === 'object' ? o[k] : undefined), qif) : undefined;
  const f = namespace && namespace[fn];
  if (typeof f !== 'function') {
    return { ok: false, error: `qif.${ns}.${fn} is not available in this build` };
  }
  for (const [k, c] of (call.callbacks ?? []).entries()) {
    const slot = callbackSlot(spec, ns, fn, c.arg, c.key ?? null);
    if (slot.error) return { ok: false, error: slot.error };
    let last = 0;
    const forward = (...data) => {
      const now = Date.now();
      if (now - last >= REPORT_EVERY_MS) {
        last = now;
        self.postMessage({ type: 'progress', id, call: index, callback: k, data });
      }
    };
    if (slot.key === null) args[slot.arg] = forward;
    else {
      const opts = args[slot.arg] && typeof args[slot.arg] === 'object' ? { ...args[slot.arg] } : {};
      opts[slot.key] = forward;
      args[slot.arg] = opts;
    }
  }
  try {
    return { ok: true, value: f(...args) };
  } catch (err) {
    // A program's error has its position (error.line, error.column) and, when it does not
    // compile, every problem (error.errors): they travel with the message.
    const at = err && Number.isInteger(err.line) && Number.isInteger(err.column) ? { line: err.line, column: err.column } : {};
    if (at.line !== undefined && Array.isArray(err.errors)) at.errors = err.errors;
    return { ok: false, error: messageOf(err), fn: `${ns}.${fn}`, ...argumentOf(err), ...at };
  }
}

// argumentOf copies what an API error says about the argument at fault — error.argument,
// error.index and error.detail (web/qif.js sets them from the engine's data) — so that the page
// can name the row or cell without reading the message.
function argumentOf(err) {
  const out = {};
  if (err && typeof err.argument === 'string') {
    out.argument = err.argument;
    if (err.index !== undefined) out.index = err.index;
    if (typeof err.detail === 'string') out.detail = err.detail;
  }
  return out;
}

// The ArrayBuffers of typed arrays in results (values, or fields of object values), to transfer:
// never those of shared matrices, which stay here.
function transferables(results) {
  const keep = new Set([...shared.values()].map((s) => s.value.data.buffer));
  const out = new Set();
  const visit = (v, depth) => {
    if (!v || typeof v !== 'object' || depth > 3) return;
    if (ArrayBuffer.isView(v)) {
      if (!keep.has(v.buffer) && v.buffer.byteLength > 0) out.add(v.buffer);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) visit(x, depth + 1);
  };
  for (const r of results) if (r.ok) visit(r.value, 0);
  return [...out];
}

// Loads the modules that the calls need and that are not loaded yet (each once: qif.loadModule
// shares the promise), noting for their calls why one could not be loaded.
async function modulesLoaded(calls) {
  startCompiling(calls);
  const needed = new Set(calls.map((c) => TABLE.get(`${c.ns}.${c.fn}`)?.module).filter((m) => m && !qif.moduleLoaded(m)));
  await Promise.all([...needed].map((m) => {
    delete moduleError[m];
    return qif.loadModule(m).catch((err) => { moduleError[m] = `the module ${MODULE_FILES[m]} could not be loaded: ${messageOf(err)}`; });
  }));
}

// The file of each module: the table's (API.modules), which also names each function's module.
const MODULE_FILES = API.modules;

async function onMessage(event) {
  const msg = event.data;
  if (msg && (msg.type === 'share' || msg.type === 'share-piece') && typeof msg.key === 'string') {
    receiveShare(msg);
    return;
  }
  if (!msg || typeof msg.id !== 'number' || !Array.isArray(msg.calls)) return;
  startCompiling(msg.calls);
  await loaded;
  await sharedArrived(msg.calls);
  if (!qif) return; // the fatal message already told the page
  await modulesLoaded(msg.calls);
  const results = msg.calls.map((call, i) => runCall(msg.id, i, call));
  try {
    self.postMessage({ type: 'result', id: msg.id, results }, transferables(results));
  } catch (err) {
    // A result that cannot be cloned (a function, say) must still settle the job.
    self.postMessage({
      type: 'result',
      id: msg.id,
      results: results.map(() => ({ ok: false, error: `result cannot be sent to the page: ${messageOf(err)}` })),
    });
  }
}
