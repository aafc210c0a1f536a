// The job pipeline (web/engine/pipeline.js), the typed client's pure parts (web/engine/client.js) and the
// routing of callbacks by the API table (web/engine/api-table.js), against a fake engine whose jobs
// answer after a delay chosen by the test. No timing assertion: the order of events is checked.
// Time is a fake clock that the test advances: it fires one timer at a time, in the order of
// their due times, and lets every promise callback run in between (as Node and browsers do), so
// the order of events is the same on an idle machine and on a loaded one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPipeline, TIMING, Superseded } from '../../web/engine/pipeline.js';
import { extractCallbacks, createEngine, AbortError, isAbort } from '../../web/engine/client.js';
import { callbackSlot, indexTable } from '../../web/engine/api-table.js';
import { API } from '../../web/api.gen.js';

// Runs every promise callback that is ready: setImmediate comes after all of them.
const flush = () => new Promise((r) => setImmediate(r));

/** A clock for the pipeline and the fake engine; advance(ms) moves its time forward. */
function fakeClock() {
  let now = 0;
  let seq = 0;
  const timers = new Map(); // id → {at, fn, every}
  const add = (fn, ms, every) => {
    const id = ++seq;
    timers.set(id, { at: now + Math.max(0, Number(ms) || 0), fn, every, seq: id });
    return id;
  };
  const clear = (id) => { timers.delete(id); };
  return {
    setTimeout: (fn, ms) => add(fn, ms, 0),
    clearTimeout: clear,
    setInterval: (fn, ms) => add(fn, ms, Math.max(1, Number(ms) || 0)),
    clearInterval: clear,
    get now() { return now; },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        await flush();
        let next = null;
        for (const [id, t] of timers) if (t.at <= end && (!next || t.at < next[1].at || (t.at === next[1].at && t.seq < next[1].seq))) next = [id, t];
        if (!next) break;
        const [id, t] = next;
        now = t.at;
        if (t.every) timers.set(id, { ...t, at: t.at + t.every, seq: ++seq });
        else timers.delete(id);
        t.fn();
      }
      now = end;
      await flush();
    },
  };
}

const baseTiming = { debounceMs: 20, progressAfterMs: 40 };

// A fake engine: each call {fn: 'echo', args: [value, ms]} answers value after ms on the clock.
function fakeEngine(clock) {
  let next = 1;
  const jobs = new Map();
  const log = [];
  return {
    log,
    jobs,
    run(calls, { onProgress } = {}) {
      const id = next++;
      log.push(['run', id, calls.map((c) => c.args[0])]);
      const ms = Math.max(...calls.map((c) => c.args[1] ?? 0));
      const promise = new Promise((resolve, reject) => {
        const tick = clock.setInterval(() => onProgress?.([id], 0), 5);
        const t = clock.setTimeout(() => {
          clock.clearInterval(tick);
          jobs.delete(id);
          resolve(calls.map((c) => ({ ok: true, value: c.args[0] })));
        }, ms);
        jobs.set(id, { reject, t, tick });
      });
      return { id, promise };
    },
    cancel(id) {
      const j = jobs.get(id);
      if (!j) return false;
      clock.clearTimeout(j.t);
      clock.clearInterval(j.tick);
      jobs.delete(id);
      log.push(['cancel', id]);
      j.reject(new AbortError());
      return true;
    },
  };
}

// One clock per test: the pipeline, the engine and the test's waits share it.
function setup(options = {}) {
  const clock = fakeClock();
  const engine = fakeEngine(clock);
  const pipe = createPipeline({ engine, timing: baseTiming, clock, ...options });
  return { clock, engine, pipe, sleep: (ms) => clock.advance(ms) };
}
const echo = (v, ms = 0) => ({ ns: 't', fn: 'echo', args: [v, ms] });

test('one timing policy, stated once', () => {
  assert.equal(TIMING.debounceMs, 150);
  assert.equal(TIMING.progressAfterMs, 300);
  assert.ok(Object.isFrozen(TIMING));
});

test('debounce: a burst of edits runs once, with the last arguments; busy follows', async () => {
  const busy = [];
  const shown = [];
  const { engine, pipe, sleep } = setup({ onBusy: (b) => busy.push(b) });
  const t = pipe.task(async (job, x) => { shown.push(await job.call(echo(x, 5))); });
  t.schedule(1);
  t.schedule(2);
  t.schedule(3);
  assert.deepEqual(busy, [true], 'busy at once, before the debounce ends');
  await sleep(80);
  assert.deepEqual(engine.log, [['run', 1, [3]]]);
  assert.deepEqual(shown, [3]);
  assert.deepEqual(busy, [true, false]);
});

test('only the latest answer: a slow old run never shows', async () => {
  const shown = [];
  const { pipe, sleep } = setup();
  const t = pipe.task(async (job, x, ms) => { shown.push(await job.call(echo(x, ms))); });
  t.now('old', 60);
  await sleep(5);
  t.now('new', 5);
  await sleep(100);
  assert.deepEqual(shown, ['new']);
  // Scheduling is enough to make a running run stale, even before the new one starts.
  const shown2 = [];
  const t2 = pipe.task(async (job, x, ms) => { shown2.push(await job.call(echo(x, ms))); });
  t2.now('a', 30);
  await sleep(5);
  t2.schedule('b', 0);
  await sleep(100);
  assert.deepEqual(shown2, ['b']);
});

test('stages stop at the first await after a newer run starts', async () => {
  const stages = [];
  const { pipe, sleep } = setup();
  const t = pipe.task(async (job, x) => {
    await job.call(echo(`${x}1`, 20));
    stages.push(`${x} stage 2`);
    await job.call(echo(`${x}2`, 20));
    stages.push(`${x} done`);
  });
  t.now('A');
  await sleep(5);
  t.now('B');
  await sleep(120);
  assert.deepEqual(stages, ['B stage 2', 'B done']);
});

test('progress after a delay: slow() only for jobs still running then', async () => {
  const events = [];
  const { pipe, sleep } = setup();
  const t = pipe.task(async (job, ms) => {
    await job.run([echo(ms, ms)], { slow: () => events.push(`slow ${ms}`), onProgress: () => { if (!events.includes(`progress ${ms}`)) events.push(`progress ${ms}`); } });
    events.push(`done ${ms}`);
  });
  t.now(10);
  await sleep(80);
  t.now(100);
  await sleep(160);
  assert.deepEqual(events, ['progress 10', 'done 10', 'progress 100', 'slow 100', 'done 100']);
  const now = [];
  pipe.task(async (job) => { await job.run([echo(1, 10)], { slow: () => now.push('slow'), slowNow: true }); now.push('done'); }).now();
  await sleep(40);
  assert.deepEqual(now, ['slow', 'done'], 'slowNow shows at once');
});

test('cancel: the run sees an AbortError; cancelStale jobs stop when a newer run starts', async () => {
  const out = [];
  const { engine, pipe, sleep } = setup();
  const t = pipe.task(async (job, x) => {
    try {
      out.push(await job.call(echo(x, 200), { cancelStale: true }));
    } catch (e) {
      if (isAbort(e)) out.push(`cancelled ${x}`);
      else throw e;
    }
  });
  t.now('a');
  await sleep(10);
  t.cancel();
  await sleep(10);
  assert.deepEqual(out, ['cancelled a']);
  assert.deepEqual(engine.log.filter(([k]) => k === 'cancel').length, 1);
  t.now('b');
  await sleep(10);
  t.now('c');
  await sleep(10);
  // b's engine job was cancelled by c's start; b's run is superseded, not "cancelled".
  assert.equal(engine.log.filter(([k]) => k === 'cancel').length, 2);
  t.cancel();
  await sleep(10);
  assert.deepEqual(out, ['cancelled a', 'cancelled c']);
  // supersede() forgets the run; its cancelStale job is cancelled, a plain one runs on unseen.
  const seen = [];
  const u = pipe.task(async (job, x, stale) => { seen.push(await job.call(echo(x, 30), { cancelStale: stale })); });
  const before = engine.log.filter(([k]) => k === 'cancel').length;
  u.now('kept', false);
  await sleep(5);
  u.supersede();
  await sleep(50);
  u.now('dropped', true);
  await sleep(5);
  u.supersede();
  await sleep(50);
  assert.deepEqual(seen, [], 'a superseded run shows nothing');
  assert.equal(engine.log.filter(([k]) => k === 'cancel').length, before + 1, 'only the cancelStale job was cancelled');
});

test('errors of a body are reported, Superseded and AbortError are not', async () => {
  const errors = [];
  const { pipe, sleep } = setup({ onError: (e) => errors.push(e.message) });
  pipe.task(async () => { throw new Error('bug'); }).now();
  pipe.task(async () => { throw new Superseded(); }).now();
  pipe.task(async () => { throw new AbortError(); }).now();
  await sleep(10);
  assert.deepEqual(errors, ['bug']);
});

test('the typed client: functions from the table, callbacks and signals taken out of the arguments', async () => {
  const options = { tolerance: 1e-6, onProgress: () => {} };
  const x = extractCallbacks([[[1, 0], [0, 1]], options]);
  assert.deepEqual(x.args, [[[1, 0], [0, 1]], { tolerance: 1e-6 }]);
  assert.equal(x.callbacks.length, 1);
  assert.equal(x.callbacks[0].key, 'onProgress');
  assert.equal(x.callbacks[0].arg, 1);
  assert.equal(typeof options.onProgress, 'function', 'the caller’s object is left alone');
  const ac = new AbortController();
  const y = extractCallbacks([{ epsilon: 1, signal: ac.signal }, () => {}]);
  assert.equal(y.signal, ac.signal);
  assert.deepEqual(y.args, [{ epsilon: 1 }, undefined]);
  assert.deepEqual(y.callbacks.map(({ arg, key }) => ({ arg, key })), [{ arg: 1, key: null }]);

  const calls = [];
  const fake = { call: (ns, fn, ...args) => { calls.push([ns, fn, args]); return Promise.resolve(42); }, submit: () => ({ id: 1, promise: Promise.resolve([]) }), cancel: () => true };
  const engine = createEngine(fake);
  const table = indexTable(API);
  assert.equal(typeof engine.measure.shannonCapacity, 'function');
  assert.equal(engine.measure.shannonCapacity.length, 1, 'C required, options optional');
  assert.equal(engine.measure.posteriorBayesVulnerability.length, 2);
  const at = (root, ns) => ns.split('.').reduce((o, k) => o?.[k], root);
  for (const [key, f] of table) {
    assert.equal(typeof at(engine, f.ns)[f.name], 'function', key);
    assert.deepEqual(at(engine.plan, f.ns)[f.name].length, at(engine, f.ns)[f.name].length, key);
  }
  // The exact mode nests as in qif.js: engine.exact.measure, not engine['exact.measure'].
  assert.equal(engine['exact.measure'], undefined);
  assert.deepEqual(engine.plan.exact.measure.bayesVulnerability(['1/2', '1/2']), { ns: 'exact.measure', fn: 'bayesVulnerability', args: [['1/2', '1/2']] });
  assert.ok(Object.isFrozen(engine.exact) && Object.isFrozen(engine.plan.exact));
  assert.equal(engine.measure.shannonCapacity.name, 'shannonCapacity');
  assert.equal(await engine.measure.shannonEntropy([0.5, 0.5]), 42);
  assert.deepEqual(calls, [['measure', 'shannonEntropy', [[0.5, 0.5]]]]);
  assert.deepEqual(engine.plan.mechanism.utility([1], [[1]]), { ns: 'mechanism', fn: 'utility', args: [[1], [[1]]] });
  await assert.rejects(engine.measure.minEntropy([1], 'extra'), /measure\.minEntropy: expected at most 1 argument \(p\), got 2/);
  assert.throws(() => engine.plan.measure.minEntropy([1], 2), /measure\.minEntropy/);
  assert.equal(isAbort(new AbortError()), true);
  assert.equal(new AbortError().name, 'AbortError');
});

test('callbacks go where the table says', () => {
  const table = indexTable(API);
  const spec = (ns, fn) => table.get(`${ns}.${fn}`);
  // A caller's onProgress reaches the one callback the table lists, wherever it is.
  const cap = spec('measure', 'shannonCapacity');
  const [[capArg, capKey]] = cap.callbacks;
  assert.deepEqual(callbackSlot(cap, 'measure', 'shannonCapacity', 1, 'onProgress'), { arg: capArg, key: capKey });
  // The alias of a callback option reaches the option.
  const alias = cap.params[capArg].fields.find((f) => f.name === capKey).alias;
  if (alias) assert.deepEqual(callbackSlot(cap, 'measure', 'shannonCapacity', capArg, alias), { arg: capArg, key: capKey });
  assert.deepEqual(callbackSlot(spec('mechanism', 'optimalLP'), 'mechanism', 'optimalLP', 0, 'onProgress'), { arg: 0, key: 'onProgress' });
  // Not a callback of the function: refused, naming the function and its callbacks.
  assert.match(callbackSlot(spec('measure', 'minEntropy'), 'measure', 'minEntropy', 1, 'onProgress').error, /^measure\.minEntropy: option onProgress is a function, but measure\.minEntropy takes no callback/);
  assert.match(callbackSlot(cap, 'measure', 'shannonCapacity', 1, 'onProgres').error, /option onProgres is a function, but its callbacks are: option onProgress/);
  assert.match(callbackSlot(spec('measure', 'minEntropy'), 'measure', 'minEntropy', 0, null).error, /argument 1 is a function/);
  // A function outside the table goes where the caller put it.
  assert.deepEqual(callbackSlot(undefined, 'x', 'y', 2, 'cb'), { arg: 2, key: 'cb' });
  // Every long function of the table takes a callback, and every callback place is an argument
  // or an option of the function.
  for (const [key, s] of table) {
    if (s.long) assert.ok(s.callbacks.length > 0, `${key} is long and takes a callback`);
    for (const [a, k] of s.callbacks) {
      const p = s.params[a];
      assert.ok(p, `${key}: callback argument ${a}`);
      if (k === null) assert.equal(p.kind, 'callback', key);
      else assert.ok(p.fields.some((f) => f.name === k && f.kind === 'callback'), `${key}: option ${k}`);
    }
  }
});
