// The toolkit's modules: qif.wasm (channels, measures) and qif-more.wasm (the rest of qif.*), with
// qif-exact.wasm for qif.exact and qif.program. load() gives every function at once; load({ lazy:
// true }) only the first module's until qif.loadModule('more'), and a function of the second module
// throws until then, saying how to load it; the page's worker (engine/worker-serve.js, run here on
// a stand-in for the worker's global) loads the second module before the first job that needs it
// and not before. Numbers are checked against closed forms written here and against a full load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load } from '../../web/qif.js';
import { API } from '../../web/api.gen.js';

const moduleOf = (f) => f.module ?? 'main';
// Randomized response on n inputs at ε: truthful with probability e^ε/(e^ε + n − 1).
const rrDiagonal = (n, eps) => Math.exp(eps) / (Math.exp(eps) + n - 1);

test('the table splits the floating-point API between qif.wasm and qif-more.wasm', () => {
  const mods = new Set(API.functions.map(moduleOf));
  assert.deepEqual([...mods].sort(), ['exact', 'main', 'more']);
  const of = (q) => moduleOf(API.functions.find((f) => `${f.ns}.${f.name}` === q));
  assert.equal(of('measure.shannonCapacity'), 'main');
  assert.equal(of('channel.hyper'), 'main');
  for (const q of ['channel.factorize', 'channel.sample', 'mechanism.optimalLP', 'refine.avg', 'lp.solve', 'infoPrivacy.individualEpsilon', 'estimate.bayesRisk', 'metric.kantorovich', 'privacy.epsilon']) {
    assert.equal(of(q), 'more', q);
  }
});

test('load() gives every function of qif.* at once; load({ lazy: true }) leaves qif-more.wasm unloaded', async () => {
  const full = await load();
  assert.equal(full.moduleLoaded('main'), true);
  assert.equal(full.moduleLoaded('more'), true);
  assert.equal(full.moduleLoaded('exact'), false);
  for (const f of API.functions) {
    if (f.module === 'exact') continue;
    assert.equal(typeof full[f.ns][f.name], 'function', `${f.ns}.${f.name}`);
  }
  const M = full.mechanism.randomizedResponse(3, Math.log(2));
  assert.ok(Math.abs(M.data[0] - rrDiagonal(3, Math.log(2))) < 1e-12);

  const lazy = await load({ lazy: true });
  assert.equal(lazy.moduleLoaded('more'), false);
  assert.equal(lazy.measure.shannonEntropy([0.25, 0.25, 0.25, 0.25]), 2, 'the first module works at once');
  assert.throws(() => lazy.mechanism.randomizedResponse(3, Math.log(2)), (e) => e instanceof Error
    && e.message === "mechanism.randomizedResponse: the module qif-more.wasm is not loaded (the toolkit was loaded with { lazy: true }): call `await qif.loadModule('more')` first, or load the toolkit without lazy");
  assert.throws(() => lazy.channel.factorize([[1, 0], [0, 1]], [[1, 0], [0, 1]]), /channel\.factorize: the module qif-more\.wasm is not loaded/);
  assert.equal(lazy.channel.validate([[1, 0], [0, 1]]), true, 'the first module serves the rest of channel.*');
  assert.equal(await lazy.loadModule('more'), lazy);
  assert.equal(lazy.moduleLoaded('more'), true);
  assert.deepEqual(lazy.mechanism.randomizedResponse(3, Math.log(2)), M, 'the same as the full load');
  await assert.rejects(lazy.loadModule('mor'), (e) => e.argument === 'name' && /unknown module "mor" \(did you mean "more"\?\)/.test(e.message));
});

test('load refuses a moreWasmModule that is not qif-more.wasm', async () => {
  const first = await WebAssembly.compile(await readFile(new URL('../../web/qif.wasm', import.meta.url)));
  await assert.rejects(load({ moreWasmModule: first }), /moreWasmModule does not serve the functions of qif-more\.wasm/);
});

// engine/worker-serve.js on a stand-in for the worker's global: the page's messages go to its
// handler, its answers are recorded. moreWasmModule is a thenable that notes when qif.js first
// asks for the second module.
async function fakeWorker() {
  const posted = [];
  globalThis.self = { postMessage: (m) => posted.push(m), onmessage: null };
  const { serve } = await import('../../web/engine/worker-serve.js');
  const compiled = WebAssembly.compile(await readFile(new URL('../../web/qif-more.wasm', import.meta.url)));
  const asked = { more: false };
  const moreWasmModule = { then(resolve, reject) { asked.more = true; return compiled.then(resolve, reject); } };
  const handle = serve({ moreWasmModule });
  let id = 0;
  const job = async (calls) => {
    const mine = ++id;
    await handle({ data: { id: mine, calls } });
    return posted.find((m) => m.type === 'result' && m.id === mine).results;
  };
  return { posted, asked, job };
}

test('the worker loads qif-more.wasm on the first job that needs it, and answers as a full load does', async () => {
  const { posted, asked, job } = await fakeWorker();
  const [h] = await job([{ ns: 'measure', fn: 'shannonEntropy', args: [[0.5, 0.5]] }]);
  assert.deepEqual(h, { ok: true, value: 1 });
  const ready = posted.find((m) => m.type === 'ready');
  assert.ok(ready.api.mechanism.includes('randomizedResponse'), 'the ready message lists the second module\'s functions');
  assert.equal(asked.more, false, 'a job of the first module does not load the second');
  const [rr, mi] = await job([
    { ns: 'mechanism', fn: 'randomizedResponse', args: [4, Math.log(3)] },
    { ns: 'measure', fn: 'mutualInformation', args: [[0.5, 0.5], [[1, 0], [0, 1]]] },
  ]);
  assert.equal(asked.more, true);
  assert.equal(rr.ok, true, rr.error);
  const full = await load();
  assert.deepEqual(rr.value, full.mechanism.randomizedResponse(4, Math.log(3)));
  assert.ok(Math.abs(rr.value.data[0] - rrDiagonal(4, Math.log(3))) < 1e-12);
  assert.deepEqual(mi, { ok: true, value: 1 });
});

test('one table says which module serves each function, and which file each module is', async () => {
  assert.deepEqual(Object.keys(API.modules).sort(), ['exact', 'main', 'more']);
  for (const file of Object.values(API.modules)) {
    await readFile(new URL(`../../web/${file}`, import.meta.url)); // the build writes each beside qif.js
  }
  for (const f of API.functions) assert.ok(Object.hasOwn(API.modules, moduleOf(f)), `${f.ns}.${f.name}: module ${f.module}`);
  // Programs compute in rationals: the exact module serves them, as it serves qif.exact.
  for (const f of API.functions.filter((g) => g.ns === 'program' || g.ns.startsWith('exact.'))) assert.equal(f.module, 'exact', `${f.ns}.${f.name}`);
  // The channel namespace is split: each function once, served by the module the table says.
  const channel = API.functions.filter((f) => f.ns === 'channel');
  assert.equal(new Set(channel.map((f) => f.name)).size, channel.length);
  const qif = await load();
  for (const f of channel) {
    assert.equal(qif.describe(`channel.${f.name}`), f);
    assert.equal(moduleOf(f), ['factorize', 'fromMetric', 'leftFactorize', 'sample'].includes(f.name) ? 'more' : 'main', f.name);
  }
});

test('qif.loadModule is the one loader of the modules loaded on demand, the exact module (programs) included; qif.exact.load() is its alias', async () => {
  const qif = await load({ lazy: true });
  const src = 'secret x in 0..1\nobserve x';
  assert.equal(qif.moduleLoaded('exact'), false);
  assert.throws(() => qif.program.channel(src), (e) => e.message.startsWith('program.channel: the exact module (qif-exact.wasm) is not loaded: call `await qif.loadModule(\'exact\')`'));
  // Both loaders at once share one load: one instance, whichever is asked first.
  const [api, exact] = await Promise.all([qif.loadModule('exact'), qif.exact.load()]);
  assert.equal(api, qif);
  assert.equal(exact, qif.exact);
  assert.equal(qif.moduleLoaded('exact'), true);
  assert.equal(qif.exact.loaded, true);
  assert.equal(qif.moduleLoaded('more'), false, 'loading the exact module loads nothing else');
  // The identity channel on two secrets: each secret observed as itself.
  const ch = qif.program.channel(src);
  assert.deepEqual([ch.channel.rows, ch.channel.cols, [...ch.channel.data]], [2, 2, [1, 0, 0, 1]]);
  assert.equal(qif.exact.measure.bayesVulnerability(['1/3', '2/3']), '2/3');
  // Every module loaded on demand, and nothing else, is a name loadModule takes.
  const further = Object.keys(API.modules).filter((m) => m !== 'main');
  for (const m of further) assert.equal(await qif.loadModule(m), qif, m);
  await assert.rejects(qif.loadModule('main'), (e) => e.argument === 'name' && /unknown module "main"/.test(e.message));
  await assert.rejects(qif.loadModule('exakt'), (e) => e.argument === 'name' && /did you mean "exact"/.test(e.message));
});
