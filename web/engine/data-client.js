// engine/data-client.js — the page's client for data-worker.js: reading a large paste or a CSV/TSV file
// into a matrix, and writing a large export, off the page's thread.
//
//   import { dataWorker } from './data-client.js';
//   const job = dataWorker.read(file, { onProgress: (f) => bar.value = f });
//   const block = await job.promise;          // readMatrix's result; job.cancel() stops it
//   const blob = await dataWorker.write('CSV', data, 'blob').promise;
//
// The worker starts on first use. Cancelling a job ends the worker (the only way to stop a
// running read); the jobs waiting behind it are sent to a fresh one. A cancelled job rejects
// with an Error named 'AbortError', as the engine's jobs do.

import { AbortError } from './client.js';

export class DataClient {
  constructor(url = new URL('./data-worker.js', import.meta.url)) {
    this.url = url;
    this.worker = null;
    this.nextId = 1;
    /** @type {Map<number, {message: object, resolve: Function, reject: Function, onProgress?: Function}>} */
    this.jobs = new Map();
  }

  start() {
    this.worker = new Worker(this.url, { type: 'module', name: 'qif-data' });
    this.worker.onmessage = (e) => this.onMessage(e.data);
    this.worker.onerror = (e) => {
      e.preventDefault?.();
      const jobs = [...this.jobs.values()];
      this.jobs.clear();
      this.worker.terminate();
      this.worker = null;
      for (const job of jobs) job.reject(new Error(`the data worker stopped: ${e.message || 'unknown error'}`));
    };
    for (const job of this.jobs.values()) this.worker.postMessage(job.message);
  }

  onMessage(msg) {
    const job = msg && this.jobs.get(msg.id);
    if (!job) return;
    if (msg.type === 'progress') job.onProgress?.(msg.fraction);
    else {
      this.jobs.delete(msg.id);
      if (msg.type === 'result') job.resolve(msg.value);
      else job.reject(new Error(msg.error));
    }
  }

  submit(message, onProgress) {
    const id = this.nextId++;
    message.id = id;
    const promise = new Promise((resolve, reject) => this.jobs.set(id, { message, resolve, reject, onProgress }));
    if (!this.worker) this.start();
    else this.worker.postMessage(message);
    return { id, promise, cancel: () => this.cancel(id) };
  }

  /** Reads text or a file (a Blob) into a matrix (input/grid.js readMatrix). */
  read(source, { onProgress } = {}) {
    return this.submit(typeof source === 'string' ? { op: 'read', text: source } : { op: 'read', file: source }, onProgress);
  }

  /** Reads a table of samples from text or a CSV/TSV file (input/samples.js readSamples). */
  samples(source, { onProgress } = {}) {
    return this.submit(typeof source === 'string' ? { op: 'samples', text: source } : { op: 'samples', file: source }, onProgress);
  }
  /** Writes data (lib/export-formats.js) in a format, as text or as a Blob. */
  write(format, data, as = 'text') {
    return this.submit({ op: 'write', format, data, as });
  }

  /** Cancels job id (it rejects with an AbortError); returns false if it had settled. */
  cancel(id) {
    const job = this.jobs.get(id);
    if (!job) return false;
    this.jobs.delete(id);
    this.worker?.terminate();
    this.worker = null;
    if (this.jobs.size) this.start();
    job.reject(new AbortError());
    return true;
  }
}

/** The page's one data worker. */
export const dataWorker = new DataClient();
