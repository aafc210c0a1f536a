// The page's engine (web/engine/client.js createEngine) over the toolkit loaded in Node instead of
// a worker, for the sections' controllers: engine.plan.<ns>.<fn> builds calls, engine.run runs
// them as one job ({id, promise} of settled results, a call's progress callback forwarded to the
// job's onProgress as the worker does) and engine.cancel(id) rejects a job not yet finished with
// an AbortError. `intercept(call, ctx)` may take a call over (a test holding a long solve, sending
// its progress reports and letting it go): it returns undefined to let the toolkit run it, or a
// promise of its value; ctx.progress(...args) reports progress, ctx.run() runs the real call.
import { createEngine, AbortError, reportToJob } from '../../web/engine/client.js';
import { API } from '../../web/api.gen.js';

export function inProcessEngine(qif, { intercept = () => undefined } = {}) {
  let next = 1;
  const jobs = new Map(); // id → reject of a job not yet settled
  const log = [];
  const fnOf = (c) => c.ns.split('.').reduce((o, k) => o[k], qif)[c.fn];
  const client = {
    submit(calls, { onProgress } = {}) {
      const id = next++;
      const promise = new Promise((resolve, reject) => {
        jobs.set(id, reject);
        (async () => {
          const out = [];
          for (let i = 0; i < calls.length; i++) {
            await new Promise((r) => setImmediate(r)); // a worker answers later, never at once
            if (!jobs.has(id)) return;
            const c = calls[i];
            log.push(`${c.ns}.${c.fn}`);
            const progress = (...args) => { if (jobs.has(id)) onProgress?.(args, i); };
            const args = c.args.map((a) => (a && typeof a === 'object' && a.onProgress === reportToJob ? { ...a, onProgress: progress } : a));
            const run = () => fnOf(c)(...args);
            try {
              const held = intercept(c, { progress, run, id });
              out.push({ ok: true, value: held === undefined ? run() : await held });
            } catch (e) {
              out.push({ ok: false, error: e.message });
            }
            if (!jobs.has(id)) return;
          }
          jobs.delete(id);
          resolve(out);
        })();
      });
      return { id, promise };
    },
    cancel(id) {
      const reject = jobs.get(id);
      if (!reject) return false;
      jobs.delete(id);
      reject(new AbortError());
      return true;
    },
    call() { throw new Error('inProcessEngine: use engine.run'); },
  };
  const engine = createEngine(client, API);
  return { engine, log, pending: () => jobs.size };
}

/**
 * Resolves once the controller's store says it is idle (busy false) after `action` ran: a
 * controller reports busy at once when an action schedules work, so idle is what follows it.
 */
export function idle(ctl, action = () => {}) {
  action();
  return until(ctl, (s) => !s.busy);
}

/** Resolves with the store's state once `pred(state)` holds. */
export function until(ctl, pred) {
  return new Promise((resolve) => {
    if (pred(ctl.get())) { resolve(ctl.get()); return; }
    const stop = ctl.subscribe((s) => { if (pred(s)) { stop(); resolve(s); } });
  });
}
