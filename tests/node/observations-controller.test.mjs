// The "From observations" section's controller (web/sections/observations/controller.js) without a
// browser: the toolkit loaded in Node stands in for the page's worker (in-process-engine.mjs) and
// input/samples.js's reader for the data worker. Exact values are computed here for a binary
// symmetric channel of crossover p with a uniform prior: mutual information 1 − H(p) bits,
// min-entropy leakage log₂ 2(1 − p), Bayes risk p. The samples are drawn with a fixed seed, so
// the checks of the estimates against them are deterministic.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { readSamples } from '../../web/input/samples.js';
import { createObservationsController } from '../../web/sections/observations/controller.js';
import { inProcessEngine, idle } from './in-process-engine.mjs';

let qif;
before(async () => { qif = await load(); });

const timing = { debounceMs: 5, progressAfterMs: 5 };
const p = 0.1;
const H = (x) => -x * Math.log2(x) - (1 - x) * Math.log2(1 - x);
const bsc = { C: [[1 - p, p], [p, 1 - p]], prior: [0.5, 0.5], secrets: ['s0', 's1'], observables: ['o0', 'o1'] };

function controller(options = {}) {
  const { engine } = inProcessEngine(qif);
  let reads = 0;
  const loadSamples = (file, { onProgress }) => {
    reads++;
    return {
      promise: file.text().then((text) => {
        const b = readSamples(text, { onProgress });
        if ('error' in b) throw new Error(b.error);
        return b;
      }),
      cancel() {},
    };
  };
  const ctl = createObservationsController({ engine, timing, onError: (e) => { throw e; }, loadSamples, version: () => 'test', channelSource: async () => options.channel ?? bsc });
  return { ctl, reads: () => reads };
}

test('observations controller: samples drawn from a channel, the estimates near its exact values', async () => {
  const { ctl } = controller();
  assert.equal(ctl.shown(), null);
  ctl.setN('20000');
  ctl.setSeed('7');
  const s = await idle(ctl, () => ctl.draw());
  assert.equal(s.status.error, false, s.status.text);
  assert.equal(s.status.text, 'Estimated from 20,000 samples.');
  assert.equal(s.progress, null);
  assert.ok(s.panel, 'the reading panel says how the samples were read');
  const r = ctl.shown();
  const mi = 1 - H(p);
  const me = Math.log2(2 * (1 - p));
  assert.ok(Math.abs(r.exact.mi - mi) < 1e-12, `exact MI ${r.exact.mi} vs ${mi}`);
  assert.ok(Math.abs(r.exact.me - me) < 1e-12, `exact min-entropy leakage ${r.exact.me} vs ${me}`);
  assert.ok(Math.abs(r.exact.risk - p) < 1e-12);
  assert.ok(r.mi.lower <= mi && mi <= r.mi.upper && Math.abs(r.mi.corrected - mi) < 0.02, `MI ${r.mi.corrected} [${r.mi.lower}, ${r.mi.upper}]`);
  assert.ok(r.me.lower <= me && me <= r.me.upper, `min-entropy leakage [${r.me.lower}, ${r.me.upper}]`);
  assert.ok(r.risk.frequentist.lower <= p && p <= r.risk.frequentist.upper);
  assert.deepEqual(r.provenance, { source: 'drawn from the channel of the Channel section', n: 20000, seed: 7 });
  assert.ok(r.curve.length >= 2 && r.curve.every((c, i) => i === 0 || c.n > r.curve[i - 1].n), 'the convergence curve, by growing n');
  assert.ok(ctl.getResults(), 'the results table for the export');
  assert.deepEqual(ctl.get().shown.names, { secrets: ['s0', 's1'], observables: ['o0', 'o1'] });
});

test('observations controller: a file read once, estimated again on a new choice, a bad line named, a bad seed', async () => {
  const { ctl, reads } = controller();
  // The observation names the secret: no error, a Bayes risk of 0 (no header line: a header of
  // labels over columns of labels cannot be told from a sample).
  const lines = [];
  for (let i = 0; i < 400; i++) lines.push(`${i % 2 ? 'a' : 'b'},${i % 2 ? 'x' : 'y'}`);
  let s = await idle(ctl, () => ctl.loadText(`${lines.join('\n')}\n`, 'identity.csv'));
  assert.equal(s.status.error, false, s.status.text);
  assert.equal(ctl.shown().provenance.source, 'identity.csv');
  assert.equal(ctl.shown().provenance.n, 400);
  assert.ok(ctl.shown().risk.frequentist.value <= 1e-12);
  assert.equal(reads(), 1);
  ctl.model.knn = '3';
  s = await idle(ctl, () => ctl.again());
  assert.equal(reads(), 1, 'a new choice estimates again without reading the file again');
  assert.ok(ctl.shown());
  s = await idle(ctl, () => ctl.loadText('secret,obs\na,x\nb\n', 'short.csv'));
  assert.equal(s.status.error, true);
  assert.match(s.status.text, /^short\.csv: .*line 3/);
  assert.equal(ctl.shown(), null);
  ctl.setSeed('-1');
  s = await idle(ctl, () => ctl.draw());
  assert.equal(s.status.error, true);
  assert.match(s.status.text, /seed/i);
  // A state restored: the fields are said to be put back.
  ctl.setState({ n: '500', seed: '3' });
  assert.equal(ctl.get().restored, 1);
  assert.deepEqual([ctl.getState().n, ctl.getState().seed], ['500', '3']);
});
