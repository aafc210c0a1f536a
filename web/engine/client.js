// engine/client.js — the page's client for worker.js, typed by the API table (api.gen.js).
//
//   import { client, engine } from './index.js';            // the page's one shared worker
//   const H = await engine.measure.shannonEntropy([0.5, 0.5]);                     // 1
//   const p = engine.measure.shannonCapacity(C, { tolerance: 1e-6, onProgress: (it, lo, hi) => … });
//   p.cancel();                                 // p rejects with an Error named 'AbortError'
//   await engine.measure.shannonCapacity(C, { signal: controller.signal });        // or a signal
//   await engine.measure.minEntropy(p, { signal });  // a trailing {signal} for any function
//   const job = engine.run([engine.plan.measure.minEntropy(p), engine.plan.channel.hyper(p, C)]);
//   await engine.exact.measure.bayesVulnerability(['1/2', '1/3', '1/6']);          // '1/2'
//   await job.promise;                          // [{ok: true, value} | {ok: false, error}] per call
//
// Every request is a job with an id; a job's calls run in order in the worker and each settles
// on its own. The worker is single-threaded, so cancelling a running job terminates it: the
// client starts a fresh one and sends it again the jobs that were still waiting, so only the
// cancelled job is lost. There is one cancellation outcome: an Error whose name is 'AbortError'.
//
// Callbacks: a function given as an argument or as an option of a call cannot travel to the
// worker. The client takes it out and tells the worker where it was; the worker puts a
// forwarding function where the API table says that function's callback goes (a caller's
// `onProgress` reaches the engine's progress callback whatever the engine calls it), and the
// client calls the caller's function with the reports. Its return value cannot stop the engine
// from here: cancel the promise (or abort the signal) instead.
//
// Large matrices: share(key, {rows, cols, data}) sends a matrix to the worker once, its buffer
// transferred, and returns a small reference ({$shared: key, v}) that calls take in its place,
// so that the several jobs of a 2,000 × 2,000 channel do not each copy 32 MB on the page's
// thread. Results come back with their buffers transferred too.

import { API } from '../api.gen.js';
import { namespacesOf } from './api-table.js';

/**
 * Entries of a shared matrix per message (512 KB: a copy of that size is well under a
 * millisecond), and the time the page's thread spends copying pieces before it yields to the
 * page (input, drawing) for a task.
 */
const SHARE_PIECE = 1 << 16;
const SHARE_SLICE_MS = 8;

/** The error of a cancelled call or job (name 'AbortError', as fetch() uses for the same). */
export class AbortError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'AbortError';
  }
}

/** Whether `e` is the outcome of a cancellation. */
export function isAbort(e) {
  return !!e && e.name === 'AbortError';
}

/** The error of an API function (bad input, a missing function): its message is the engine's. */
export class QifError extends Error {
  constructor(message, { ns, fn, argument, index, detail } = {}) {
    super(message);
    this.name = 'QifError';
    this.ns = ns;
    this.fn = fn;
    // The argument at fault, as the engine's error gives it (see web/qif.js): its name, the row or
    // entry (a number, or [row, column]) and what is wrong — for naming it without the message.
    if (typeof argument === 'string') Object.assign(this, { argument, index, detail });
  }
}

/**
 * The progress callback of a planned call ({ns, fn, args} built ahead of time): it does nothing
 * itself; the client forwards the engine's reports to the onProgress of the job that runs it.
 */
export function reportToJob() {}

const isSignal = (v) => !!v && typeof v === 'object' && typeof v.aborted === 'boolean' && typeof v.addEventListener === 'function';
const isPlainObject = (v) => !!v && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

/**
 * Takes the functions (and an AbortSignal) out of a call's arguments. Returns the arguments to
 * send, the callbacks as {arg, key} (key null for a function given as an argument) and the
 * signal, if any. The caller's objects are not modified.
 */
export function extractCallbacks(args) {
  const out = [];
  const callbacks = [];
  let signal = null;
  args.forEach((a, i) => {
    if (typeof a === 'function') {
      callbacks.push({ arg: i, key: null, fn: a });
      out.push(undefined);
    } else if (isPlainObject(a)) {
      let copy = null;
      for (const [k, v] of Object.entries(a)) {
        if (typeof v === 'function') callbacks.push({ arg: i, key: k, fn: v });
        else if (k === 'signal' && isSignal(v)) signal = v;
        else continue;
        copy ??= { ...a };
        delete copy[k];
      }
      out.push(copy ?? a);
    } else out.push(a);
  });
  return { args: out, callbacks, signal };
}

export class QifClient {
  /**
   * @param {{workerURL?: string|URL, workerType?: 'module'|'classic', started?: {worker: Worker,
   *   events: Event[], release: () => void} | null, wasmSource?: (file: string) => Promise<string>}}
   *   [options] the worker script (default
   *   worker.js beside this module, a module worker); a bundle that carries its worker as one
   *   classic script (scripts/widgets-bundle.mjs) passes its Blob URL and 'classic'. `started` is
   *   that worker already running (start.js), with the events it has sent so far: the
   *   client uses it instead of starting its own, the first time. `wasmSource` answers a worker
   *   that asks the page for a module it does not carry (the widgets bundle's worker, for
   *   qif-more.wasm): the module's gzipped bytes in base64.
   */
  constructor(options = {}) {
    this.workerURL = options.workerURL ?? new URL('./worker.js', import.meta.url);
    this.workerType = options.workerType ?? 'module';
    this.wasmSource = options.wasmSource ?? null;
    this.started = options.started ?? null;
    this.nextId = 1;
    /** @type {Map<number, {message: object, resolve: Function, reject: Function, onProgress?: Function, callbacks: Function[][]}>} */
    this.jobs = new Map();
    /** @type {Map<string, {v: number, rows: number, cols: number, pieces: [number, Float64Array][]}>} */
    this.shared = new Map();
    this.sharedVersion = 0;
    this.listeners = new Set();
    this.start();
  }

  /** Starts (or restarts) the worker; `ready` resolves once the wasm is loaded. */
  start() {
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    // Nothing may go unhandled: callers await ready or their own jobs.
    this.ready.catch(() => {});
    this.workerReady = false;
    const started = this.started;
    this.started = null;
    try {
      this.worker = started?.worker ?? new Worker(this.workerURL, { type: this.workerType, name: 'qif' });
    } catch (e) {
      // A page's Content-Security-Policy (worker-src) or a browser without workers: no engine.
      this.worker = null;
      this.die(`the browser refused to start the computation worker (${e && e.message ? e.message : e})`);
      return;
    }
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      const why = `the computation worker stopped: ${e.message || 'unknown error'}`;
      // A worker that fails before it is ready would fail again: that is the end of the engine.
      if (!this.workerReady) this.die(`the computation worker could not start (${e.message || 'its script did not load'})`);
      else this.fail(why);
    };
    this.worker.onmessageerror = () => this.fail('a message from the computation worker could not be read');
    if (started) {
      // What the worker said before this client had it, in order, as if it had just said it.
      started.release();
      for (const e of started.events) this.worker[`on${e.type}`](e);
    }
    // A fresh worker (after a cancel) gets the shared matrices again (the pieces copied so far;
    // the rest follow), then the waiting jobs.
    for (const [key, entry] of this.shared) {
      this.worker.postMessage({ type: 'share', key, v: entry.v, rows: entry.rows, cols: entry.cols });
      for (const [offset, data] of entry.pieces) this.worker.postMessage({ type: 'share-piece', key, v: entry.v, offset, data });
    }
    for (const job of this.jobs.values()) this.worker.postMessage(job.message);
  }

  /**
   * Keeps the matrix `value` ({rows, cols, data: Float64Array}) in the worker under `key`,
   * replacing what was there, and returns the reference that calls pass in its place. The
   * matrix goes in pieces of SHARE_PIECE entries, copied SHARE_SLICE_MS at a time, so that a
   * 2,000 × 2,000 matrix (32 MB) never holds the page's thread for long; the worker runs a call
   * that uses it once every piece has arrived. The copies are kept here for a restarted worker.
   * The caller must not change `value.data` until then, or share it again (which stops the
   * copying and makes the calls with the old reference fail, "replaced").
   * @returns {{$shared: string, v: number}}
   */
  share(key, value) {
    const v = ++this.sharedVersion;
    const { rows, cols, data } = value;
    const entry = { v, rows, cols, pieces: [] };
    this.shared.set(key, entry);
    this.worker.postMessage({ type: 'share', key, v, rows, cols });
    // Pieces are copied for up to SHARE_SLICE_MS per task. The copy kept here is cloned into the
    // message (the worker's own piece), not transferred: a restarted worker needs it again.
    const copy = (offset) => {
      if (this.shared.get(key) !== entry) return; // replaced: stop
      const t0 = performance.now();
      do {
        const piece = data.slice(offset, offset + SHARE_PIECE);
        entry.pieces.push([offset, piece]);
        this.worker.postMessage({ type: 'share-piece', key, v, offset, data: piece });
        offset += SHARE_PIECE;
      } while (offset < data.length && performance.now() - t0 < SHARE_SLICE_MS);
      if (offset < data.length) setTimeout(copy, 0, offset);
    };
    copy(0);
    return { $shared: key, v };
  }

  // The engine cannot run at all (the worker or the wasm cannot start): `ready` and every job,
  // waiting or future, reject with the reason, and no worker is started again.
  die(reason) {
    this.fatal = reason;
    this.worker?.terminate();
    this.readyReject(new Error(reason));
    this.emit({ type: 'fatal', error: reason });
    for (const [id, job] of this.jobs) {
      this.jobs.delete(id);
      job.reject(new Error(`cannot load the WebAssembly module: ${reason}`));
    }
  }

  onMessage(msg) {
    if (!msg) return;
    if (msg.type === 'ready') {
      this.workerReady = true;
      this.info = { version: msg.version, api: msg.api };
      this.readyResolve(this.info);
      this.emit({ type: 'ready', ...this.info });
    } else if (msg.type === 'fatal') {
      this.die(msg.error);
    } else if (msg.type === 'result') {
      const job = this.jobs.get(msg.id);
      if (!job) return; // cancelled meanwhile
      this.jobs.delete(msg.id);
      job.resolve(msg.results);
    } else if (msg.type === 'wasm-request') {
      // A worker that carries no copy of a module asks the page for it (the widgets bundle's,
      // for qif-more.wasm: options.wasmSource); the answer goes to the worker that asked.
      const worker = this.worker;
      const file = String(msg.file);
      Promise.resolve()
        .then(() => { if (!this.wasmSource) throw new Error('this page has no source for it'); return this.wasmSource(file); })
        .then((gz) => worker?.postMessage({ type: 'wasm', file, gz }), (e) => worker?.postMessage({ type: 'wasm', file, error: e && e.message ? e.message : String(e) }));
    } else if (msg.type === 'progress') {
      const job = this.jobs.get(msg.id);
      if (!job) return;
      const data = Array.isArray(msg.data) ? msg.data : [];
      job.callbacks[msg.call]?.[msg.callback]?.(...data);
      job.onProgress?.(data, msg.call);
    }
  }

  // The worker died: every job fails with the reason and a fresh worker takes over.
  fail(reason) {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    this.worker?.terminate();
    for (const job of jobs) job.reject(new Error(reason));
    this.emit({ type: 'crash', error: reason });
    if (!this.fatal) this.start();
  }

  /** Subscribes to worker events ({type: 'ready'|'fatal'|'crash'|'restart', ...}). */
  on(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event) {
    for (const l of this.listeners) l(event);
  }

  /**
   * Submits several calls as one job. The promise resolves with one settled result per call
   * ({ok: true, value} or {ok: false, error}); it rejects only if the job is cancelled (an
   * AbortError) or the worker fails. Functions among a call's arguments or options are its
   * callbacks (see the header); `onProgress(data, callIndex)` hears every report of the job.
   * @param {{ns: string, fn: string, args?: any[]}[]} calls
   * @param {{onProgress?: (data: any[], call: number) => void, signal?: AbortSignal}} [options]
   * @returns {{id: number, promise: Promise<Array<{ok: boolean, value?: any, error?: string}>>}}
   */
  submit(calls, options = {}) {
    const id = this.nextId++;
    const callbacks = [];
    const message = {
      id,
      calls: calls.map(({ ns, fn, args = [] }) => {
        const x = extractCallbacks(args);
        callbacks.push(x.callbacks.map((c) => c.fn));
        const call = { ns, fn, args: x.args };
        if (x.callbacks.length) call.callbacks = x.callbacks.map(({ arg, key }) => ({ arg, key }));
        return call;
      }),
    };
    const promise = new Promise((resolve, reject) => {
      if (this.fatal) {
        reject(new Error(`cannot load the WebAssembly module: ${this.fatal}`));
        return;
      }
      if (options.signal?.aborted) {
        reject(new AbortError());
        return;
      }
      this.jobs.set(id, { message, resolve, reject, onProgress: options.onProgress, callbacks });
    });
    if (this.jobs.has(id)) {
      options.signal?.addEventListener('abort', () => this.cancel(id), { once: true });
      try {
        this.worker.postMessage(message);
      } catch (err) {
        // Arguments that cannot be cloned (a DOM node, say) are the caller's error.
        const job = this.jobs.get(id);
        this.jobs.delete(id);
        job.reject(new TypeError(`cannot send the arguments to the worker: ${err.message}`));
      }
    }
    return { id, promise };
  }

  /**
   * Calls qif[ns][fn](...args) in the worker. Resolves with its value; rejects with a QifError
   * carrying the API's message, or an AbortError. The promise has `jobId` and `cancel()`.
   */
  call(ns, fn, ...args) {
    const signal = args.map((a) => (isPlainObject(a) && isSignal(a.signal) ? a.signal : null)).find(Boolean);
    // An object that held only the signal is no argument of the function.
    const last = args[args.length - 1];
    if (isPlainObject(last) && Object.keys(last).length === 1 && isSignal(last.signal)) args = args.slice(0, -1);
    const { id, promise } = this.submit([{ ns, fn, args }], { signal });
    const p = promise.then(([r]) => {
      if (r.ok) return r.value;
      const e = new QifError(r.error, { ns, fn, argument: r.argument, index: r.index, detail: r.detail });
      if (r.line !== undefined) Object.assign(e, { line: r.line, column: r.column });
      if (Array.isArray(r.errors)) e.errors = r.errors;
      throw e;
    });
    p.jobId = id;
    p.cancel = () => this.cancel(id);
    return p;
  }

  /** Whether job `id` is still waiting or running. */
  pending(id) {
    return this.jobs.has(id);
  }

  /**
   * Cancels job `id`: its promise rejects with an AbortError. The worker is terminated and
   * restarted (the only way to stop a synchronous wasm call); other waiting jobs are sent to
   * the new worker. Returns false if the job had already settled.
   */
  cancel(id) {
    const job = this.jobs.get(id);
    if (!job) return false;
    this.jobs.delete(id);
    this.restart();
    job.reject(new AbortError());
    return true;
  }

  /** Cancels every job. */
  cancelAll() {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    if (jobs.length) this.restart();
    for (const job of jobs) job.reject(new AbortError());
  }

  restart() {
    if (this.fatal) return;
    this.worker?.terminate();
    this.emit({ type: 'restart' });
    this.start();
  }

  /** Stops the worker for good; waiting jobs are cancelled. */
  terminate() {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    this.worker?.terminate();
    for (const job of jobs) job.reject(new AbortError());
  }
}

/**
 * The typed face of a client: one method per function of the API table.
 *   engine.<ns>.<fn>(...args)        → promise of the value, with cancel() and jobId
 *   engine.plan.<ns>.<fn>(...args)   → the call {ns, fn, args}, to run several as one job
 *   engine.run(calls, {onProgress, signal}) → {id, promise} of settled results
 *   engine.share(key, matrix)        → a reference to pass in place of a large matrix
 * Methods carry the function's name and, as `length`, its number of required parameters. A call
 * with more arguments than the table lists is refused here, naming the function.
 * @param {QifClient} client
 * @param {{functions: {ns: string, name: string, params: {name: string, optional?: boolean}[]}[]}} [api]
 */
export function createEngine(client, api = API) {
  const engine = { client, api, plan: {}, run: (calls, options) => client.submit(calls, options), cancel: (id) => client.cancel(id), share: (key, value) => client.share(key, value) };
  for (const [ns, rows] of Object.entries(namespacesOf(api))) {
    const calls = {};
    const plans = {};
    for (const { name: fn, params = [] } of rows) {
      const required = params.filter((p) => !p.optional).length;
      const check = (args) => {
        if (args.length > params.length) {
          throw new QifError(`${ns}.${fn}: expected at most ${params.length} argument${params.length === 1 ? '' : 's'} (${params.map((p) => p.name).join(', ')}), got ${args.length}`, { ns, fn });
        }
      };
      plans[fn] = named(fn, required, (...args) => {
        check(args);
        return { ns, fn, args };
      });
      calls[fn] = named(fn, required, (...args) => {
        // A trailing {signal} beyond the function's parameters is the caller's, not the engine's.
        const last = args[args.length - 1];
        let signal;
        if (args.length === params.length + 1 && isPlainObject(last) && Object.keys(last).every((k) => k === 'signal') && isSignal(last.signal)) {
          signal = last.signal;
          args = args.slice(0, -1);
        }
        try {
          check(args);
        } catch (e) {
          const p = Promise.reject(e);
          p.cancel = () => false;
          return p;
        }
        return signal ? client.call(ns, fn, ...args, { signal }) : client.call(ns, fn, ...args);
      });
    }
    // "exact.measure" (qif.exact.measure) nests as engine.exact.measure, as in qif.js.
    setPath(engine, ns, Object.freeze(calls));
    setPath(engine.plan, ns, Object.freeze(plans));
  }
  for (const root of [engine, engine.plan]) if (root.exact) Object.freeze(root.exact);
  Object.freeze(engine.plan);
  return Object.freeze(engine);
}

function setPath(root, ns, value) {
  const parts = ns.split('.');
  const last = parts.pop();
  let o = root;
  for (const p of parts) o = o[p] ??= {};
  o[last] = value;
}

function named(name, length, f) {
  Object.defineProperty(f, 'name', { value: name });
  Object.defineProperty(f, 'length', { value: length });
  return f;
}
