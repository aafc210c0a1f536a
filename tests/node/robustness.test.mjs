// Robustness: every function of the loaded API (whatever the namespaces hold, including functions
// added later and those of qif.exact) is called with seeded random junk. Each call must return or
// throw an Error (a promise: resolve or reject with one) — never throw a non-Error, hang, or
// crash — and afterwards the same instance must still compute, in both modules.
//
// The calls run in a worker thread with a watchdog, so that a call that hangs or runs out of
// memory fails this test with the offending call named instead of stalling the whole suite.
// QIF_GARBAGE_SEED=<n> replays another seed; QIF_GARBAGE_SKIP=ns.name,... leaves functions out
// (to look past a known failure while it is being fixed).
import { isMainThread, Worker, parentPort, workerData } from 'node:worker_threads';
import { rng } from './seeded-random.mjs';

const CALL_BUDGET_MS = 6000; // total time spent calling, spread over the functions
const STALL_MS = 8000; // a single call taking this long counts as a hang
const MAX_CALLS_PER_FUNCTION = 200;


function junkMaker(r) {
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const numbers = [NaN, Infinity, -Infinity, -1, 0, -0, 1, 2, 3, 4, 0.5, 1e-300, 5e-324, 1e5, 1e9, -1e9, 1e300,
    2 ** 53, 2 ** 31, Math.LN2, 0.1];
  const throwingGetter = () => ({ get rows() { throw new Error('getter'); }, cols: 1, data: [1] });
  const nonErrorGetter = () => ({ get rows() { throw 'a string'; }, cols: 1, data: [1] }); // eslint-disable-line no-throw-literal
  const matrices = [
    () => [[1]], () => [[0.5, 0.5], [1, 0]], () => [[0.5, 0.5], [0.25, 0.75], [0, 1]],
    () => [[1, 0], [0, 1]], () => [[1], [1, 2]], () => [[NaN]], () => [[-1, 2]], () => [[]], () => [],
    () => [[1, 'x']], () => [null], () => [[Infinity, 0]],
    () => ({ rows: 1e5, cols: 1e5, data: [] }), () => ({ rows: 1e9, cols: 1e9, data: new Float64Array(2) }),
    () => ({ rows: 2, cols: 2, data: new Float64Array(4) }), () => ({ rows: 2, cols: 2, data: [0.5, 0.5, 1, 0] }),
    () => ({ rows: 'a', cols: 1, data: [] }), () => ({ rows: -2, cols: -2, data: [1, 1, 1, 1] }),
    () => ({ rows: 1, cols: 1, data: 'x' }), () => ({ rows: 0, cols: 1e300, data: [] }),
    throwingGetter, nonErrorGetter,
    () => [Float64Array.of(0.5, 0.5), Float64Array.of(1, 0)],
  ];
  const vectors = [() => [1], () => [0.5, 0.5], () => Float64Array.of(1, NaN), () => new Array(3), () => [1, 'x'],
    () => [-1, 2], () => [], () => new Float64Array(1000).fill(0.001), () => Int32Array.of(1, 0), () => [1, 0, 0, 0]];
  const graphs = [() => ({ n: 3, edges: [[0, 1], [1, 2]] }), () => ({ n: -1, edges: [] }), () => ({ n: 1e9, edges: [] }),
    () => ({ n: 2, edges: [[0, 5]] }), () => ({ n: 3, edges: 'x' }), () => ({ n: 2, edges: [[0]] }),
    () => ({ n: NaN, edges: [] }), () => ({ n: 4, edges: [[0, 1], [1, 2], [2, 3], [3, 0]] }), () => ({ n: 1, edges: [] }),
    () => ({ n: 2, edges: [[0, 0]] }), () => ({ edges: [[0, 1]] })];
  const others = [() => null, () => undefined, () => true, () => '', () => 'abc', () => '1', () => ({}),
    () => Symbol('s'), () => 10n, () => () => 1, () => () => { throw 'not an error'; }, // eslint-disable-line no-throw-literal
    () => new Proxy({}, { get() { throw new TypeError('proxy'); } }), () => new Date(0), () => new ArrayBuffer(8)];
  const optionKeys = ['individuals', 'values', 'epsilon', 'domains', 'channel', 'graph', 'metric', 'prior', 'gain',
    'loss', 'tolerance', 'budgetMs', 'm', 'n', 'alpha'];
  let depth = 0;
  const junk = () => {
    depth++;
    try {
      const k = r();
      if (k < 0.3) return pick(numbers);
      if (k < 0.5) return pick(matrices)();
      if (k < 0.62) return pick(vectors)();
      if (k < 0.72) return pick(graphs)();
      if (k < 0.85 && depth < 3) {
        // An options object with a few plausible keys holding junk.
        const o = {};
        const count = 1 + Math.floor(r() * 4);
        for (let i = 0; i < count; i++) o[pick(optionKeys)] = junk();
        return o;
      }
      return pick(others)();
    } finally {
      depth--;
    }
  };
  return junk;
}

function describe(v, depth = 0) {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol' || typeof v === 'function' || v == null || typeof v === 'boolean') return String(v);
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})[${Array.from(v.slice(0, 4)).join(',')}${v.length > 4 ? ',…' : ''}]`;
  if (depth > 2) return '…';
  try {
    if (Array.isArray(v)) return `[${v.slice(0, 4).map((x) => describe(x, depth + 1)).join(',')}${v.length > 4 ? ',…' : ''}]`;
    const keys = Object.getOwnPropertyNames(v);
    return `{${keys.map((k) => {
      const d = Object.getOwnPropertyDescriptor(v, k);
      return `${k}:${d && 'value' in d ? describe(d.value, depth + 1) : '<getter>'}`;
    }).join(',')}}`;
  } catch {
    return '<object>';
  }
}

async function workerMain() {
  const { load } = await import(new URL('../../web/qif.js', import.meta.url).href);
  const qif = await load({ exact: true });
  const r = rng(workerData.seed);
  const junk = junkMaker(r);
  const fns = [];
  // Namespaces and the namespaces within them (qif.exact.measure).
  const collect = (obj, path) => {
    for (const name of Object.keys(obj).sort()) {
      const v = obj[name];
      if (typeof v === 'function') fns.push([path, name, v]);
      else if (v && typeof v === 'object' && !path.includes('.')) collect(v, `${path}.${name}`);
    }
  };
  for (const ns of Object.keys(qif).sort()) {
    if (qif[ns] && typeof qif[ns] === 'object') collect(qif[ns], ns);
  }
  const skip = new Set(workerData.skip);
  const failures = [];
  let calls = 0;
  const perFunctionMs = CALL_BUDGET_MS / Math.max(1, fns.length);
  for (const [ns, name, f] of fns) {
    if (skip.has(`${ns}.${name}`)) continue;
    const start = Date.now();
    for (let i = 0; i < MAX_CALLS_PER_FUNCTION && Date.now() - start < perFunctionMs; i++) {
      const argc = Math.floor(r() * 5);
      const args = Array.from({ length: argc }, junk);
      const call = `qif.${ns}.${name}(${args.map((a) => describe(a)).join(', ')})`;
      parentPort.postMessage({ type: 'call', call });
      calls++;
      const bad = (e) => {
        if (!(e instanceof Error)) failures.push(`${call} threw a non-Error: ${describe(e)}`);
        else if (typeof e.message !== 'string' || e.message === '') failures.push(`${call} threw an Error without a message`);
      };
      try {
        const out = f(...args);
        if (out instanceof Promise) await out.catch(bad); // qif.exact.load
      } catch (e) {
        bad(e);
      }
    }
  }
  let stillWorks;
  try {
    stillWorks = qif.channel.validate([[1]]) === true && qif.exact.measure.bayesVulnerability(['1/3', '2/3']) === '2/3';
  } catch (e) {
    stillWorks = `threw ${e && e.message}`;
  }
  parentPort.postMessage({ type: 'done', failures, calls, functions: fns.length, stillWorks });
}

if (!isMainThread) {
  await workerMain();
} else {
  const { test } = await import('node:test');
  const assert = (await import('node:assert/strict')).default;
  const seed = Number(process.env.QIF_GARBAGE_SEED ?? 20240601);
  const skip = (process.env.QIF_GARBAGE_SKIP ?? '').split(',').filter(Boolean);

  test(`every API function survives random junk (seed ${seed})`, { timeout: 60000 }, async (t) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { seed, skip } });
    const result = await new Promise((resolve, reject) => {
      let last = '(before the first call)';
      let timer;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          worker.terminate();
          reject(new Error(`call did not return within ${STALL_MS} ms: ${last}`));
        }, STALL_MS);
      };
      arm();
      worker.on('message', (m) => {
        if (m.type === 'call') {
          last = m.call;
          arm();
        } else if (m.type === 'done') {
          clearTimeout(timer);
          resolve(m);
        }
      });
      worker.on('error', (e) => { clearTimeout(timer); reject(new Error(`worker died (${e && e.message}) during ${last}`)); });
      worker.on('exit', (code) => { clearTimeout(timer); reject(new Error(`worker exited with code ${code} during ${last}`)); });
    });
    await worker.terminate();
    t.diagnostic(`${result.calls} calls over ${result.functions} functions`);
    assert.ok(result.functions > 0, 'the API exposes functions');
    assert.deepEqual(result.failures, [], `${result.failures.length} bad calls`);
    assert.equal(result.stillWorks, true, 'channel.validate and exact.measure.bayesVulnerability after the junk');
  });
}
