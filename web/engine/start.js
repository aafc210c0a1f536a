// engine/start.js — starts the page's computation worker (worker.js) as soon as this file has
// been read. It imports nothing, so index.html's first script runs it before index.js
// and client.js (with the API table, ~140 KB) have loaded: the worker then downloads and
// compiles qif.wasm while the rest of the page loads. Until client.js takes the worker over
// (takeStartedWorker), its events are kept here, in order.

let started = null;
try {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'qif' });
  const events = [];
  const keep = (event) => {
    if (event.type === 'error') event.preventDefault(); // reported by the client, once it has it
    events.push(event);
  };
  for (const type of ['message', 'error', 'messageerror']) worker.addEventListener(type, keep);
  started = {
    worker,
    events,
    release() {
      for (const type of ['message', 'error', 'messageerror']) worker.removeEventListener(type, keep);
    },
  };
} catch {
  // A Content-Security-Policy or a browser without module workers: the client tries again and
  // says why it cannot.
}

/**
 * The worker started here, once ({worker, events, release}: its events so far, and the function
 * that stops keeping them), or null when it could not be started or was already taken.
 */
export function takeStartedWorker() {
  const s = started;
  started = null;
  return s;
}
