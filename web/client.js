// client.js — the page's promise-based client for worker.js.
//
//   import { QifClient } from './client.js';
//   const qif = new QifClient();
//   await qif.ready;                                   // {version, api: {ns: [fn...]}}
//   const h = await qif.call('measure', 'shannonEntropy', [0.5, 0.5]);   // 1
//   const job = qif.submit([{ns: 'measure', fn: 'minEntropy', args: [[1, 0]]}, ...]);
//   job.id; await job.promise;                         // [{ok, value} | {ok: false, error}]
//   qif.cancel(job.id);                                // job.promise rejects with CancelledError
//
// Every request is a job with an id. The worker is single-threaded, so cancelling a running
// job means terminating the worker: the client then starts a fresh one and sends it again the
// other jobs that were still waiting, so only the cancelled job is lost. Errors thrown by the
// API come back as rejected promises carrying the API's message.

/** The error a cancelled job's promise rejects with (message "cancelled"). */
export class CancelledError extends Error {
  constructor(message = 'cancelled') {
    super(message);
    this.name = 'CancelledError';
  }
}

/** The error of an API function (bad input, a missing function): its message is the API's. */
export class QifError extends Error {
  constructor(message, { ns, fn } = {}) {
    super(message);
    this.name = 'QifError';
    this.ns = ns;
    this.fn = fn;
  }
}

export class QifClient {
  /**
   * @param {{workerURL?: string|URL}} [options]
   */
  constructor(options = {}) {
    this.workerURL = options.workerURL ?? new URL('./worker.js', import.meta.url);
    this.nextId = 1;
    /** @type {Map<number, {message: object, resolve: Function, reject: Function, onProgress?: Function}>} */
    this.jobs = new Map();
    this.listeners = new Set();
    this.start();
  }

  /** Starts (or restarts) the worker; `ready` resolves once the wasm is loaded. */
  start() {
    this.worker = new Worker(this.workerURL, { type: 'module', name: 'qif' });
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    // Nothing may go unhandled: callers await ready or their own jobs.
    this.ready.catch(() => {});
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      this.fail(`the computation worker stopped: ${e.message || 'unknown error'}`);
    };
    this.worker.onmessageerror = () => this.fail('a message from the computation worker could not be read');
    for (const job of this.jobs.values()) this.worker.postMessage(job.message);
  }

  onMessage(msg) {
    if (!msg) return;
    if (msg.type === 'ready') {
      this.info = { version: msg.version, api: msg.api };
      this.readyResolve(this.info);
      this.emit({ type: 'ready', ...this.info });
    } else if (msg.type === 'fatal') {
      this.fatal = msg.error;
      this.readyReject(new Error(msg.error));
      this.emit({ type: 'fatal', error: msg.error });
      for (const [id, job] of this.jobs) {
        this.jobs.delete(id);
        job.reject(new Error(`cannot load the WebAssembly module: ${msg.error}`));
      }
    } else if (msg.type === 'result') {
      const job = this.jobs.get(msg.id);
      if (!job) return; // cancelled meanwhile
      this.jobs.delete(msg.id);
      job.resolve(msg.results);
    } else if (msg.type === 'progress') {
      const job = this.jobs.get(msg.id);
      job?.onProgress?.(msg.data, msg.call);
    }
  }

  // The worker died: every job fails with the reason and a fresh worker takes over.
  fail(reason) {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    this.worker.terminate();
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
   * ({ok: true, value} or {ok: false, error}); it rejects only if the job is cancelled or the
   * worker fails.
   * @param {{ns: string, fn: string, args: any[], progress?: {arg: number, key: string}}[]} calls
   * @param {{onProgress?: (data: any, call: number) => void}} [options]
   * @returns {{id: number, promise: Promise<Array<{ok: boolean, value?: any, error?: string}>>}}
   */
  submit(calls, options = {}) {
    const id = this.nextId++;
    const message = { id, calls: calls.map(({ ns, fn, args = [], progress }) => ({ ns, fn, args, progress })) };
    const promise = new Promise((resolve, reject) => {
      if (this.fatal) {
        reject(new Error(`cannot load the WebAssembly module: ${this.fatal}`));
        return;
      }
      this.jobs.set(id, { message, resolve, reject, onProgress: options.onProgress });
    });
    if (this.jobs.has(id)) {
      try {
        this.worker.postMessage(message);
      } catch (err) {
        // Arguments that cannot be cloned (a DOM node, a function) are the caller's error.
        const job = this.jobs.get(id);
        this.jobs.delete(id);
        job.reject(new TypeError(`cannot send the arguments to the worker: ${err.message}`));
      }
    }
    return { id, promise };
  }

  /**
   * Calls qif[ns][fn](...args) in the worker. Resolves with its value; rejects with a QifError
   * carrying the API's message, or a CancelledError. The promise has a `jobId` property.
   */
  call(ns, fn, ...args) {
    const { id, promise } = this.submit([{ ns, fn, args }]);
    const p = promise.then(([r]) => {
      if (r.ok) return r.value;
      throw new QifError(r.error, { ns, fn });
    });
    p.jobId = id;
    return p;
  }

  /** Whether job `id` is still waiting or running. */
  pending(id) {
    return this.jobs.has(id);
  }

  /**
   * Cancels job `id`: its promise rejects with CancelledError. The worker is terminated and
   * restarted (the only way to stop a synchronous wasm call); other waiting jobs are sent to
   * the new worker. Returns false if the job had already settled.
   */
  cancel(id) {
    const job = this.jobs.get(id);
    if (!job) return false;
    this.jobs.delete(id);
    this.restart();
    job.reject(new CancelledError());
    return true;
  }

  /** Cancels every job. */
  cancelAll() {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    if (jobs.length) this.restart();
    for (const job of jobs) job.reject(new CancelledError());
  }

  restart() {
    this.worker.terminate();
    this.emit({ type: 'restart' });
    this.start();
  }

  /** Stops the worker for good; waiting jobs are cancelled. */
  terminate() {
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    this.worker.terminate();
    for (const job of jobs) job.reject(new CancelledError());
  }
}

/**
 * Keeps only the latest request per key: `latest(key, promise)` resolves like `promise` if no
 * newer request for `key` was made meanwhile, and with the STALE marker otherwise, so a slow
 * old answer can never overwrite a newer one on screen.
 */
export const STALE = Symbol('stale');
export function latestOnly() {
  const seq = new Map();
  return function latest(key, promise) {
    const n = (seq.get(key) ?? 0) + 1;
    seq.set(key, n);
    return promise.then(
      (v) => (seq.get(key) === n ? v : STALE),
      (e) => {
        if (seq.get(key) !== n) return STALE;
        throw e;
      },
    );
  };
}

/** Calls `fn` once `ms` milliseconds have passed without another call. */
export function debounce(fn, ms) {
  let timer = null;
  const d = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  d.flush = (...args) => {
    clearTimeout(timer);
    timer = null;
    fn(...args);
  };
  d.cancel = () => {
    clearTimeout(timer);
    timer = null;
  };
  return d;
}
