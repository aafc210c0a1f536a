// engine/worker.js — the page's computation worker (a module worker; client.js starts it). It begins
// downloading and compiling qif.wasm before anything else: a module's static imports all load
// before its first line runs, and worker-serve.js with qif.js and the API table is ~170 KB that
// would otherwise hold the download back. Then it imports worker-serve.js and serves with the
// module being compiled; messages that arrive meanwhile wait here and are handed over in order.

const early = [];
self.onmessage = (event) => { early.push(event); };

const wasmModule = compile(new URL('../qif.wasm', import.meta.url));
wasmModule.catch(() => {}); // reported by serve(), as a fatal message, once it is running

// Every script the worker runs, requested at once rather than level by level as each import is
// read (worker-serve.js → qif.js → qif.gen.js, then wasm_exec.js): on HTTP/1.1 every level waits
// in the browser's queue behind the page's own modules. A file missing from this list still
// loads, through its importer.
const [{ serve }] = await Promise.all([
  import('./worker-serve.js'), import('../qif.js'), import('../api.gen.js'), import('../qif.gen.js'),
  import('./api-table.js'), import('../wasm_exec.js'),
]);
const handle = serve({ wasmModule });
for (const event of early) handle(event);

// Streaming when the server labels the file application/wasm, as qif.js would.
async function compile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`qif: cannot fetch ${response.url}: HTTP ${response.status}`);
  if (WebAssembly.compileStreaming && (response.headers.get('content-type') || '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
