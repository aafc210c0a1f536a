// engine/index.js — the one computation engine of the page: a single Web Worker (worker.js) running
// the wasm, shared by every section and widget so that the module is downloaded and compiled
// once. `engine` is its typed face (engine.measure.shannonEntropy(p) → promise, see client.js);
// sections and widgets run their jobs through a pipeline (pipeline.js) over it. A cancelled job
// restarts the worker without touching the jobs of others queued behind it.
import { QifClient, createEngine } from './client.js';
import { takeStartedWorker } from './start.js';

// The worker index.html has already started (start.js), or a new one.
export const client = new QifClient({ started: takeStartedWorker() });
export const engine = createEngine(client);
