// engine/worker-classic.js — the computation worker of the builds that carry it as one classic script
// (the single-file page and the widgets bundle: scripts/singlefile.mjs): there the wasm is inside
// the script, so nothing is gained by compiling before the rest has loaded (worker.js).
import { serve } from './worker-serve.js';

serve();
