// engine.js — the one computation engine of the page: a single Web Worker (worker.js) running
// the wasm, shared by every section so that the module is downloaded and compiled once.
// Sections import { client } and submit jobs; a cancelled job restarts the worker without
// touching the jobs of other sections queued behind it (see client.js).
import { QifClient } from './client.js';

export const client = new QifClient();
