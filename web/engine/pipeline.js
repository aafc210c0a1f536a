// engine/pipeline.js — the one job pipeline between what people type and the engine, used by every
// section of the page and every widget, with one timing policy (TIMING):
//   - debounce: typing schedules a run; it starts once the input has been still for debounceMs;
//   - only the latest answer: a run superseded by a newer one of the same task stops at its next
//     await (job.run / job.call reject with a Superseded that the pipeline swallows), so an old
//     answer never reaches the screen;
//   - progress after a delay: `slow` is called when an engine job is still running after
//     progressAfterMs (at once with slowNow) — the place to show a spinner and Cancel;
//   - cancel: task.cancel() (or a newer run, for jobs started with cancelStale) stops the
//     engine job; the run sees an AbortError (isAbort) and may say "cancelled";
//   - busy: onBusy(true) while any run is scheduled or running, onBusy(false) once all settled.
//
//   const pipe = createPipeline({ engine, onBusy: (b) => { root.dataset.busy = String(b); } });
//   const verdicts = pipe.task(async (job, A, B) => {
//     const [avg] = await job.run([engine.plan.refine.avg(A, B)], { slow: showSpinner });
//     render(avg);
//   });
//   input.addEventListener('input', () => verdicts.schedule(readA(), readB()));
//
// No DOM: the pipeline runs in Node with a fake engine (tests/node/pipeline.test.mjs).

/** The page's one timing policy (milliseconds). */
export const TIMING = Object.freeze({ debounceMs: 150, progressAfterMs: 300 });

/** Thrown inside a run that a newer run of its task has replaced; the pipeline swallows it. */
export class Superseded extends Error {
  constructor() {
    super('superseded by a newer run');
    this.name = 'Superseded';
  }
}

const QUIET = (e) => e instanceof Superseded || (e && e.name === 'AbortError');

/**
 * @param {{engine: {run: Function, cancel: Function, client?: {pending(id: number): boolean}},
 *          onBusy?: (busy: boolean) => void, onError?: (e: Error) => void, timing?: typeof TIMING,
 *          clock?: {setTimeout: typeof setTimeout, clearTimeout: typeof clearTimeout}}} options
 *   clock: where the delays come from (the global timers; a test gives a clock of its own).
 */
export function createPipeline({ engine, onBusy = () => {}, onError = (e) => console.error(e), timing = TIMING, clock = globalThis }) {
  let scheduled = 0;
  let running = 0;
  let lastBusy = null;
  const report = () => {
    const b = scheduled + running > 0;
    if (b !== lastBusy) {
      lastBusy = b;
      onBusy(b);
    }
  };

  /**
   * A task: a body `async (job, ...args)` run for the latest arguments only.
   * @param {(job: Job, ...args: any[]) => Promise<any>} body
   * @param {{debounceMs?: number}} [options]
   */
  function task(body, options = {}) {
    const debounceMs = options.debounceMs ?? timing.debounceMs;
    let timer = null;
    let generation = 0;
    let current = null; // the Job of the latest run

    function start(args) {
      const job = new Job(++generation, () => generation, engine, timing, clock);
      if (current) current.supersede();
      current = job;
      running++;
      report();
      Promise.resolve()
        .then(() => body(job, ...args))
        .catch((e) => { if (!QUIET(e)) onError(e); })
        .finally(() => {
          job.settle();
          running--;
          report();
        });
      return job;
    }

    return {
      /** Runs after the debounce delay with these arguments (a newer schedule replaces them). */
      schedule(...args) {
        if (timer === null) scheduled++;
        clock.clearTimeout(timer);
        // Mark the running run stale at once: whatever it still shows is about old input.
        generation++;
        timer = clock.setTimeout(() => {
          timer = null;
          scheduled--;
          start(args);
        }, debounceMs);
        report();
      },
      /** Runs now (a pending schedule is dropped). Returns the run's Job. */
      now(...args) {
        if (timer !== null) {
          clock.clearTimeout(timer);
          timer = null;
          scheduled--;
        }
        return start(args);
      },
      /**
       * Forgets the current run: its answer is not shown. Its engine jobs run on, except those
       * started with cancelStale, which are cancelled.
       */
      supersede() {
        generation++;
        current?.supersede();
      },
      /** Drops a pending schedule and cancels the engine jobs of the current run. */
      cancel() {
        if (timer !== null) {
          clock.clearTimeout(timer);
          timer = null;
          scheduled--;
          report();
        }
        current?.cancel();
      },
      /** Whether a run is scheduled or has engine jobs in flight. */
      get busy() {
        return timer !== null || (current !== null && current.active);
      },
    };
  }

  return { task, timing };
}

/** One run of a task: the way its body talks to the engine. */
class Job {
  constructor(generation, latest, engine, timing, clock) {
    this.generation = generation;
    this.latest = latest;
    this.engine = engine;
    this.timing = timing;
    this.clock = clock;
    this.jobs = new Map(); // engine job id → {cancelStale}
    this.settled = false;
  }

  /** Whether this run is still the latest of its task (no newer run scheduled or started). */
  get current() {
    return this.latest() === this.generation;
  }

  get active() {
    return !this.settled;
  }

  /** Throws Superseded when a newer run has been scheduled or started. */
  check() {
    if (!this.current) throw new Superseded();
  }

  /**
   * Runs calls as one engine job. Resolves with the settled results; rejects with Superseded
   * when this run is no longer the latest by then, with an AbortError when cancelled.
   * @param {{ns: string, fn: string, args: any[]}[]} calls
   * @param {{onProgress?: (data: any[], call: number) => void, slow?: () => void, slowNow?: boolean, cancelStale?: boolean}} [options]
   */
  async run(calls, { onProgress, slow, slowNow = false, cancelStale = false } = {}) {
    this.check();
    const { id, promise } = this.engine.run(calls, {
      onProgress: onProgress && ((data, call) => { if (this.current) onProgress(data, call); }),
    });
    this.jobs.set(id, { cancelStale });
    let timer = null;
    if (slow) {
      const fire = () => { if (this.current && this.jobs.has(id)) slow(); };
      if (slowNow) fire();
      else timer = this.clock.setTimeout(fire, this.timing.progressAfterMs);
    }
    try {
      const results = await promise;
      this.check();
      return results;
    } catch (e) {
      if (!this.current) throw new Superseded();
      throw e;
    } finally {
      this.clock.clearTimeout(timer);
      this.jobs.delete(id);
    }
  }

  /** One call; resolves with its value or rejects with an Error carrying the engine's message. */
  async call(call, options) {
    const [r] = await this.run([call], options);
    if (!r.ok) {
      const e = new Error(r.error);
      e.name = 'QifError';
      throw e;
    }
    return r.value;
  }

  /** Cancels this run's engine jobs (they reject with an AbortError). */
  cancel() {
    for (const id of [...this.jobs.keys()]) this.engine.cancel(id);
  }

  // A newer run has started: cancel what was asked to be cancelled then.
  supersede() {
    for (const [id, j] of [...this.jobs]) if (j.cancelStale) this.engine.cancel(id);
  }

  settle() {
    this.settled = true;
  }
}
