// The one job pipeline (web/engine/pipeline.js) over the real worker, in headless Chromium: only the
// latest answer is shown, a run can be cancelled and the worker keeps answering, progress shows
// only for jobs still running after the policy's delay; and the page and the <qif-mechanism>
// widget build the same matrices for the same inputs (one mechanism plan, one grammar).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, settled, valueOf } from './harness.mjs';
import { slowChannel } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

function assertNoErrors(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

test('the pipeline over the worker: latest answer only, cancel, progress after the delay', async () => {
  const page = await h.newPage();
  await page.goto(h.url);
  await settled(page);
  const r = await page.evaluate(async ({ small, big }) => {
    const { engine } = await import('./engine/index.js');
    const { createPipeline, TIMING } = await import('./engine/pipeline.js');
    const { isAbort } = await import('./engine/client.js');
    const out = { timing: TIMING, busy: [] };
    const pipe = createPipeline({ engine, onBusy: (b) => out.busy.push(b) });
    const shown = [];
    // Blahut–Arimoto to a tolerance it cannot reach runs to its iteration limit: seconds on the
    // big channel, a fraction of one on the small.
    const long = (tol, C = big) => engine.plan.measure.shannonCapacity(C, { tolerance: tol });
    // Latest answer only: a slow old run (capacity at a tiny tolerance) and a quick new one.
    const t = pipe.task(async (job, label, call) => { shown.push([label, await job.call(call)]); });
    t.now('old', long(1e-15, small));
    await new Promise((r) => setTimeout(r, 20));
    t.now('new', engine.plan.measure.shannonEntropy([0.5, 0.5]));
    await new Promise((resolve) => {
      const wait = () => (out.busy[out.busy.length - 1] === false ? resolve() : setTimeout(wait, 20));
      wait();
    });
    out.shown = shown;

    // Progress after the delay: never for a quick job, once for a long one, before its answer.
    const events = [];
    const p = pipe.task(async (job, label, call) => {
      await job.run([call], { slow: () => events.push(`slow ${label}`) });
      events.push(`done ${label}`);
    });
    await new Promise((resolve) => { p.now('quick', engine.plan.measure.minEntropy([0.5, 0.5])); setTimeout(resolve, TIMING.progressAfterMs * 3); });
    const started = performance.now();
    const longDone = new Promise((resolve) => {
      const q = pipe.task(async (job) => {
        await job.run([long(5e-324)], { slow: () => events.push(`slow long after ${Math.round(performance.now() - started)} ms`) });
        events.push('done long');
        resolve();
      });
      q.now();
    });
    await longDone;
    out.events = events;

    // Cancel (at once: slowNow), the run sees an AbortError, the worker restarts and answers the
    // next call.
    const seen = [];
    const c = pipe.task(async (job) => {
      try {
        await job.run([long(5e-324)], { slow: () => c.cancel(), slowNow: true });
        seen.push('finished');
      } catch (e) {
        seen.push(isAbort(e) ? 'cancelled' : `error ${e.message}`);
      }
    });
    c.now();
    await new Promise((resolve) => {
      const wait = () => (seen.length ? resolve() : setTimeout(wait, 20));
      wait();
    });
    out.cancel = seen;
    out.after = await engine.measure.bayesVulnerability([0.3, 0.7]);
    return out;
  }, { small: slowChannel(120), big: slowChannel(300) });
  assert.deepEqual(r.timing, { debounceMs: 150, progressAfterMs: 300 });
  assert.deepEqual(r.shown, [['new', 1]], 'the old run never shows');
  assert.equal(r.busy[0], true);
  assert.equal(r.events[0], 'done quick', 'a quick job shows no progress');
  assert.equal(r.events.length, 3);
  assert.match(r.events[1], /^slow long after \d+ ms$/);
  assert.ok(Number(/(\d+) ms/.exec(r.events[1])[1]) >= 300 - 5, 'progress appears after the delay, not before');
  assert.equal(r.events[2], 'done long');
  assert.deepEqual(r.cancel, ['cancelled']);
  assert.ok(Math.abs(r.after - 0.7) < 1e-12, 'the worker answers after a cancel');
  assertNoErrors(page);
});

test('typing fast: only the answer for the last input is shown', async () => {
  const page = await h.newPage();
  await page.goto(h.url);
  await settled(page);
  // α of the Rényi entropy typed one character at a time, with no pause: each keystroke is an
  // input; the debounce runs one job, for the last text.
  const alpha = page.locator('[data-testid="alpha"]');
  await alpha.click();
  await alpha.press('Control+a');
  await alpha.pressSequentially('0.5', { delay: 0 });
  await settled(page);
  // H_α of the uniform prior on 8 strings is log2 8 = 3 for every α; take a non-uniform prior.
  await page.evaluate(async () => {
    const { sections } = await import('./page/sections.js');
    const s = sections.channel.getState();
    sections.channel.setState({ ...s, prior: ['1/2', '1/4', '1/8', '1/16', '1/32', '1/64', '1/128', '1/128'], priorUniform: false });
  });
  await settled(page);
  for (const a of ['3', '0.5', '2']) {
    await alpha.click();
    await alpha.press('Control+a');
    await alpha.pressSequentially(a, { delay: 0 });
  }
  await settled(page);
  const p = [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 128];
  const h2 = -Math.log2(p.reduce((s, x) => s + x * x, 0)); // Rényi entropy of order 2
  assert.ok(Math.abs((await valueOf(page, 'renyiEntropy')) - h2) < 1e-12, 'H_2 of the prior');
  assertNoErrors(page);
});

test('the page and the <qif-mechanism> widget build the same matrices for the same inputs', async () => {
  const page = await h.newPage();
  await page.goto(`${h.url}#mechanism`);
  await page.waitForFunction(() => document.querySelector('#mechanism')?.dataset.busy === 'false', null, { timeout: 60000 });
  const cases = [
    { page: { kind: 'clique', n: '6', epsilon: 'ln 2' }, widget: { graph: 'clique', n: '6', epsilon: 'ln 2' } },
    { page: { kind: 'path', n: '5', epsilon: 'ln 2 / 5' }, widget: { graph: 'path', n: '5', epsilon: 'ln 2 / 5' } },
    { page: { kind: 'grid', w: '3', h: '2', epsilon: '2 ln 2' }, widget: { graph: 'grid', n: '3x2', epsilon: '2 ln 2' } },
    { page: { kind: 'cycle', n: '7', epsilon: '0.8' }, widget: { graph: 'cycle', n: '7', epsilon: '0.8' } },
  ];
  const widgetName = { tg: 'truncatedGeometric', rr: 'randomizedResponse', exp: 'exponential' };
  for (const c of cases) {
    const got = await page.evaluate(async ({ c, widgetName }) => {
      const { sections } = await import('./page/sections.js');
      await import('./widgets.js');
      const sec = sections.mechanism;
      sec.setState({ ...sec.getState(), ...c.page, prior: null, gain: 'binary' });
      await new Promise((resolve) => {
        const wait = () => (document.querySelector('#mechanism').dataset.busy === 'false' ? resolve() : setTimeout(wait, 20));
        setTimeout(wait, 50);
      });
      const pageRes = sec.getResults();
      const out = { page: pageRes, widget: {} };
      for (const [key, mechanism] of Object.entries(widgetName)) {
        const el = document.createElement('qif-mechanism');
        for (const [k, v] of Object.entries({ ...c.widget, mechanism })) el.setAttribute(k, v);
        const done = new Promise((resolve) => el.addEventListener('qif-update', (e) => resolve(e.detail), { once: true }));
        document.body.append(el);
        out.widget[key] = await done;
        el.remove();
      }
      return out;
    }, { c, widgetName });
    for (const key of Object.keys(widgetName)) {
      const a = got.page.mechanisms[key].matrix;
      const b = got.widget[key].matrix;
      assert.deepEqual(b, a, `${JSON.stringify(c.page)} ${key}: the widget's matrix is the page's`);
      assert.equal(got.widget[key].epsilon, got.page.epsilon, `${key}: same ε read from the same text`);
      assert.ok(Math.abs(got.widget[key].utility - got.page.mechanisms[key].utility) < 1e-15, `${key}: same utility`);
      // Both are ε-DP on the graph.
      assert.ok(got.widget[key].actualEpsilon <= got.page.epsilon * (1 + 1e-9), `${key} is ε-DP on the graph`);
    }
  }
  assertNoErrors(page);
});
