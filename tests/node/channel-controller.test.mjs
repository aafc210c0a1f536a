// The "Channel & leakage" section's controller (web/sections/channel/controller.js) in Node, without a
// page: the reader's actions are its methods, what the page would draw is its state and the events
// it emits, and its jobs run in the real engine (web/qif.js loaded here) through the same typed
// engine the page uses (engine/client.js createEngine), with an in-process client in place of the
// worker. Values are checked against formulas written here (Bayes vulnerability as a sum of
// column maxima), never against the section's own code.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load } from '../../web/qif.js';
import { createEngine, reportToJob } from '../../web/engine/client.js';
import { ChannelController, check } from '../../web/sections/channel/controller.js';
import { parseNumber } from '../../web/input/number.js';
import { Store } from '../../web/lib/controller.js';

let qif;
let examples;
before(async () => {
  qif = await load({ exact: true });
  examples = JSON.parse(await readFile(new URL('../../web/program-examples.json', import.meta.url), 'utf8')).examples;
});

// The worker's part, in process: each call of a job run against qif, settled on its own as the
// worker settles it (an error keeps the argument and index the page names rows by); a shared
// matrix is kept here and put back in place of its reference.
function inProcessEngine() {
  const shared = new Map();
  let next = 1;
  const jobs = [];
  const resolve = (a) => {
    if (a && typeof a === 'object' && typeof a.$shared === 'string') return shared.get(a.$shared);
    if (a && typeof a === 'object' && a.onProgress === reportToJob) return { ...a, onProgress: undefined };
    return a;
  };
  const settle = ({ ns, fn, args }) => {
    try {
      return { ok: true, value: ns.split('.').reduce((o, k) => o[k], qif)[fn](...args.map(resolve)) };
    } catch (e) {
      const r = { ok: false, error: e.message, fn: `${ns}.${fn}` };
      if (typeof e.argument === 'string') Object.assign(r, { argument: e.argument, index: e.index, detail: e.detail });
      return r;
    }
  };
  const client = {
    submit(calls) {
      const id = next++;
      jobs.push(calls.map((c) => `${c.ns}.${c.fn}`));
      return { id, promise: new Promise((r) => setImmediate(r)).then(() => calls.map(settle)) };
    },
    cancel() {},
    share(key, value) {
      shared.set(key, value);
      return { $shared: key, v: next };
    },
  };
  return { engine: createEngine(client), jobs };
}

// A controller with the pipeline's delays shortened (the order of events is what is tested) and
// the events it emitted, by type.
function controller(options = {}) {
  const { engine, jobs } = inProcessEngine();
  const ctl = new ChannelController({ engine, timing: { debounceMs: 1, progressAfterMs: 60_000 }, ...options });
  const events = [];
  ctl.subscribe((e) => events.push(e));
  const of = (type) => events.filter((e) => e.type === type);
  return { ctl, events, of, jobs };
}

const value = (t) => parseNumber(String(t)).value;
const close = (a, b, what, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

// Bayes vulnerabilities of the inputs as typed, by their definitions: max_x π(x), and
// Σ_y max_x π(x) C(x, y).
function bayes(s) {
  const n = s.secrets.length;
  const m = s.observables.length;
  const p = s.prior.map(value);
  let post = 0;
  for (let y = 0; y < m; y++) {
    let best = 0;
    for (let x = 0; x < n; x++) best = Math.max(best, p[x] * value(s.cells.text(x, y)));
    post += best;
  }
  return { prior: Math.max(...p), post };
}

const number = (ctl, key) => {
  const r = ctl.state.shown[key];
  assert.ok(r?.ok, `${key} has a value (${r?.error})`);
  return r.value;
};

test('channel controller: imports and starts without a page, and computes the example', async () => {
  assert.equal(typeof globalThis.document, 'undefined', 'no DOM in this test');
  const { ctl, of } = controller();
  assert.equal(ctl.state.busy, true, 'busy until the first results');
  ctl.start();
  assert.equal(of('inputs').length, 1, 'the inputs drawn once');
  await ctl.idle();
  await ctl.firstShown;
  const b = bayes(ctl.inputs);
  close(number(ctl, 'bayesVulnerability'), b.prior, 'V(π)');
  close(number(ctl, 'posteriorBayesVulnerability'), b.post, 'V[π▷C]');
  close(number(ctl, 'multiplicativeBayesLeakage'), b.post / b.prior, 'multiplicative Bayes leakage');
  for (const key of ['bayesVulnerability', 'posteriorBayesVulnerability', 'hyper', 'shannonCapacity']) assert.equal(ctl.status(key), 'ok', key);
  // The example is typed in fractions: the exact job gave V[π▷C] as a fraction, equal to the decimal.
  const exact = ctl.state.exact.posteriorBayesVulnerability;
  assert.equal(typeof exact, 'string');
  close(value(exact), b.post, 'exact V[π▷C]', 1e-12);
  assert.equal(ctl.state.exactNote, '');
  assert.equal(of('busy').at(-1).busy, false);
});

test('channel controller: a bad cell is shown at once, its results go stale, and fixing it recomputes', async () => {
  const { ctl, of } = controller();
  ctl.start();
  await ctl.idle();
  const shownPost = () => of('number').filter((e) => e.key === 'posteriorBayesVulnerability').length;
  const shown0 = shownPost();
  const before = of('validation').length;
  ctl.editCell({ grid: 'channel', kind: 'cell', r: 0, c: 0 }, 'abc');
  // Validation is synchronous: the event is there before any job.
  const v = of('validation');
  assert.equal(v.length, before + 1);
  const { checked } = v.at(-1);
  assert.match(checked.cell.get('c:0:0'), /number/i, 'the cell says it is not a number');
  assert.equal(checked.channel, null, 'no channel to compute with');
  assert.ok(checked.messages.some((m) => m.where === 'c:0:0'), 'listed under the matrix');
  assert.equal(ctl.status('posteriorBayesVulnerability'), 'stale');
  assert.equal(ctl.status('bayesVulnerability'), 'ok', 'what depends on the prior only is still shown');
  await ctl.idle();
  assert.equal(ctl.status('posteriorBayesVulnerability'), 'stale', 'nothing computed from a bad channel');
  // A row that no longer sums to 1 names the row.
  const row0 = Array.from({ length: ctl.inputs.observables.length }, (_, j) => ctl.inputs.cells.text(0, j));
  ctl.editCell({ grid: 'channel', kind: 'cell', r: 0, c: 0 }, '0');
  const sumMsg = ctl.state.checked.row[0];
  if (value(row0[0]) !== 0) assert.match(sumMsg, /row 1 sums to .*expected 1/);
  // Moving the first row's whole mass to its first column: a valid channel, recomputed.
  row0.forEach((_, j) => ctl.editCell({ grid: 'channel', kind: 'cell', r: 0, c: j }, j === 0 ? '1' : '0'));
  assert.deepEqual(ctl.state.checked.messages, []);
  assert.equal(ctl.status('posteriorBayesVulnerability'), 'pending');
  await ctl.idle();
  const b = bayes(ctl.inputs);
  close(number(ctl, 'posteriorBayesVulnerability'), b.post, 'V[π▷C] of the edited channel');
  assert.equal(shownPost(), shown0 + 1, 'shown once more: computed for the new channel, not before');
  assert.equal(ctl.status('posteriorBayesVulnerability'), 'ok');
});

test('channel controller: a bad prior, α and tolerance have their own messages', async () => {
  const { ctl } = controller();
  ctl.start();
  await ctl.idle();
  ctl.editCell({ grid: 'channel', kind: 'prior', r: 1 }, '-1');
  assert.equal(ctl.state.checked.cell.get('p:1'), 'negative');
  assert.equal(ctl.inputs.priorUniform, false);
  assert.equal(ctl.status('bayesVulnerability'), 'stale');
  ctl.setAlpha('-2');
  assert.equal(ctl.state.checked.alphaMsg, 'α must be ≥ 0');
  ctl.setTolerance('0');
  assert.equal(ctl.state.checked.toleranceMsg, 'must be positive');
  await ctl.idle();
  ctl.uniformPrior();
  ctl.setAlpha('2');
  ctl.setTolerance('1e-9');
  assert.deepEqual(ctl.state.checked.messages, []);
  await ctl.idle();
  assert.equal(ctl.status('bayesVulnerability'), 'ok');
});

test('channel controller: Undo takes back one edit at a time; typing in one field is one step', async () => {
  const { ctl, of } = controller();
  ctl.start();
  assert.equal(ctl.undo(), false, 'nothing to undo at the start');
  const texts0 = ctl.inputs.cells.toTexts();
  const labels0 = ctl.inputs.secrets.slice();
  // Keys typed one after the other into one cell: one step.
  for (const t of ['0', '0.', '0.5']) ctl.editCell({ grid: 'channel', kind: 'cell', r: 0, c: 0 }, t);
  ctl.breakRun(); // focus left the cell
  ctl.editCell({ grid: 'channel', kind: 'label', r: 2, c: -2 }, 'two');
  assert.equal(ctl.inputs.secrets[2], 'two');
  assert.equal(ctl.inputs.gainLabels[2], 'two', 'an identity gain follows the secrets');
  assert.ok(of('gain').length >= 1, 'the gain table is drawn again (its headers are the secrets)');
  assert.equal(ctl.inputs.edited, true);
  ctl.addRow();
  assert.equal(ctl.inputs.secrets.length, labels0.length + 1);
  assert.equal(of('history').at(-1).canUndo, true);
  assert.equal(ctl.undo(), true);
  assert.equal(ctl.inputs.secrets.length, labels0.length, 'the row is gone');
  assert.equal(ctl.inputs.secrets[2], 'two', 'the label edit stays');
  assert.equal(of('inputs').at(-1).fields, true, 'the fields are set from the state restored');
  assert.match(ctl.state.pasteNote, /Undone/);
  ctl.undo();
  assert.deepEqual(ctl.inputs.secrets, labels0);
  assert.equal(ctl.inputs.cells.text(0, 0), '0.5', 'the typing is its own step');
  ctl.undo();
  assert.deepEqual(ctl.inputs.cells.toTexts(), texts0, 'the three keys taken back at once');
  assert.equal(ctl.state.canUndo, false);
  assert.equal(ctl.undo(), false);
  await ctl.idle();
  close(number(ctl, 'posteriorBayesVulnerability'), bayes(ctl.inputs).post, 'recomputed after Undo');
});

test('channel controller: a program\'s channel replaces the grid, labels included, and Undo brings the example back', async () => {
  const { ctl, of } = controller();
  ctl.start();
  await ctl.idle();
  const labels0 = ctl.inputs.secrets.slice();
  const cols0 = ctl.inputs.observables.slice();
  const ex = examples.find((e) => e.id === 'monty-hall') ?? examples[0];
  const r = qif.program.channel(ex.program);
  // What a view reads when it is told to draw: the program's channel, never the example's.
  const drawn = [];
  ctl.subscribe((e, st) => { if (e.type === 'inputs') drawn.push({ secrets: ctl.inputs.secrets.slice(), observables: ctl.inputs.observables.slice(), scrollTop: e.scrollTop, busy: st.busy }); });
  ctl.loadProgramChannel(r, ex.program);
  assert.equal(drawn.length, 1);
  assert.deepEqual(drawn[0].secrets, r.secrets.map(String));
  assert.deepEqual(drawn[0].observables, r.observations.map(String));
  assert.equal(drawn[0].scrollTop, true, 'the grid goes back to its first cell');
  assert.equal(ctl.inputs.program, ex.program);
  assert.equal(ctl.inputs.edited, true);
  assert.deepEqual(ctl.inputs.cells.toTexts(), r.exact.channel, 'the fractions as the program gave them');
  assert.notDeepEqual(ctl.inputs.secrets, labels0);
  assert.equal(ctl.state.pasteNote, '');
  await ctl.idle();
  // Its results: V[π▷C] from the program's own channel and prior, by the formula.
  const p = r.exact.prior.map(value);
  let post = 0;
  for (let y = 0; y < r.observations.length; y++) {
    let best = 0;
    for (let x = 0; x < r.secrets.length; x++) best = Math.max(best, p[x] * value(r.exact.channel[x][y]));
    post += best;
  }
  close(number(ctl, 'posteriorBayesVulnerability'), post, 'V[π▷C] of the program');
  close(value(ctl.state.exact.posteriorBayesVulnerability), post, 'its exact value', 1e-12);
  ctl.undo();
  assert.deepEqual(ctl.inputs.secrets, labels0);
  assert.deepEqual(ctl.inputs.observables, cols0);
  assert.equal(ctl.inputs.program, '');
  assert.deepEqual(drawn.at(-1).secrets, labels0, 'drawn again with the example\'s labels');
});

test('channel controller: pastes — a new channel at the first cell, a block that cannot be read says why, one value is the browser\'s', async () => {
  const { ctl, of } = controller();
  ctl.start();
  assert.equal(ctl.paste({ grid: 'channel', kind: 'cell', r: 1, c: 1 }, '0.5'), false, 'one value: typed by the browser');
  assert.equal(ctl.paste({ grid: 'channel', kind: 'cell', r: 0, c: 0 }, 'x\\y\tA\tB\ns\t1\t0\nt\t0,5\t0,5\n'), true);
  assert.deepEqual(ctl.inputs.secrets, ['s', 't']);
  assert.deepEqual(ctl.inputs.observables, ['A', 'B']);
  assert.deepEqual(ctl.inputs.prior, ['1/2', '1/2']);
  assert.match(ctl.state.pasteNote, /new 2 × 2 channel/);
  assert.equal(of('inputs').at(-1).scrollTop, true);
  // A block whose rows cannot be read: the grid is unchanged and the message is listed.
  assert.equal(ctl.paste({ grid: 'channel', kind: 'cell', r: 0, c: 0 }, '0,05,0,95\n1,0'), true);
  assert.deepEqual(ctl.inputs.secrets, ['s', 't']);
  const v = of('validation').at(-1);
  assert.match(v.pasteMessage, /decimal comma/);
  // The next edit forgets it.
  ctl.editCell({ grid: 'channel', kind: 'cell', r: 1, c: 0 }, '0.25');
  ctl.editCell({ grid: 'channel', kind: 'cell', r: 1, c: 1 }, '0.75');
  assert.equal(of('validation').at(-1).pasteMessage, null);
  await ctl.idle();
  // V[π▷C] = ½ max(1, 0.25) + ½ max(0, 0.75) = 0.875.
  close(number(ctl, 'posteriorBayesVulnerability'), 0.875, 'V[π▷C] of the pasted channel');
  // A block read elsewhere (a long paste, in the data worker) and a file.
  ctl.loadFileBlock('f.csv', { error: 'row 2 has 3 cells' });
  assert.equal(ctl.state.pasteMessage, 'f.csv: row 2 has 3 cells');
  ctl.undo();
  ctl.undo();
  ctl.undo();
  assert.equal(ctl.inputs.secrets.length, 8, 'three Undos: the edits and the paste, back to the example');
});

test('channel controller: sorting and moving rows carry the prior along; each is one edit', async () => {
  const { ctl } = controller();
  ctl.start();
  ctl.editCell({ grid: 'channel', kind: 'prior', r: 0 }, '1/2');
  for (let i = 1; i < 8; i++) ctl.editCell({ grid: 'channel', kind: 'prior', r: i }, '1/14');
  const labels = ctl.inputs.secrets.slice();
  const rows = ctl.inputs.cells.toTexts();
  assert.equal(ctl.move('row', 0, 2), true);
  assert.deepEqual(ctl.inputs.secrets, [labels[1], labels[2], labels[0], ...labels.slice(3)]);
  assert.equal(ctl.inputs.prior[2], '1/2', 'the prior moved with its row');
  assert.deepEqual(ctl.inputs.cells.toTexts()[2], rows[0]);
  assert.equal(ctl.move('row', 0, -1), false, 'nowhere to go');
  assert.equal(ctl.sort('row', 'prior'), true);
  assert.equal(ctl.inputs.secrets[0], labels[0], 'largest prior first');
  ctl.undo();
  ctl.undo();
  assert.deepEqual(ctl.inputs.secrets, labels);
  assert.deepEqual(ctl.inputs.cells.toTexts(), rows);
  await ctl.idle();
  close(number(ctl, 'bayesVulnerability'), 0.5, 'V(π) = max π');
});

test('channel controller: a state from a link, the results as data, examples and the estimate', async () => {
  const { ctl, of } = controller();
  ctl.start();
  await ctl.idle();
  const saved = ctl.getState();
  assert.equal(ctl.loadPreset('no-such-example'), false);
  assert.equal(ctl.loadPreset('dcnet-fair'), true);
  assert.notDeepEqual(ctl.inputs.secrets, saved.secrets);
  await ctl.idle();
  ctl.setState(check(saved));
  const last = of('inputs').at(-1);
  assert.deepEqual([last.fields, last.scrollTop, last.program], [true, true, true]);
  assert.deepEqual(ctl.inputs.secrets, saved.secrets);
  await ctl.idle();
  const res = ctl.getResults();
  const b = bayes(ctl.inputs);
  const row = res.measures.find((m) => m.key === 'posteriorBayesVulnerability');
  close(row.value, b.post, 'exported V[π▷C]');
  assert.ok(row.exact, 'with its fraction');
  assert.equal(res.hyper.inners.cols, ctl.inputs.secrets.length);
  // Only results shown as current are exported.
  ctl.editCell({ grid: 'channel', kind: 'cell', r: 0, c: 0 }, 'x');
  assert.equal(ctl.getResults().measures.some((m) => m.key === 'posteriorBayesVulnerability'), false);
  ctl.undo();
  await ctl.idle();
  // The estimate of the prior from observed outputs: observing what the uniform prior gives
  // (the output distribution πC) leaves a prior whose output distribution is the same.
  const s = ctl.inputs;
  const m = s.observables.length;
  const q = new Array(m).fill(0);
  for (let x = 0; x < s.secrets.length; x++) for (let y = 0; y < m; y++) q[y] += value(s.prior[x]) * value(s.cells.text(x, y));
  ctl.setObserved(q.join(', '));
  assert.equal(ctl.state.estimate.status, 'pending');
  await ctl.idle();
  assert.equal(ctl.state.estimate.status, 'ok');
  const est = ctl.state.estimate.result.value.prior;
  for (let y = 0; y < m; y++) {
    let qy = 0;
    for (let x = 0; x < s.secrets.length; x++) qy += est[x] * value(s.cells.text(x, y));
    close(qy, q[y], `output ${y} under the estimate`, 1e-4);
  }
  ctl.setObserved('1, 2');
  await ctl.idle();
  assert.match(ctl.state.estimate.message, /2 values for 4 observables/);
  assert.equal(ctl.state.estimate.status, 'idle');
});

test('lib/controller.js Store: set emits the fields changed, listeners unsubscribe, a throwing listener does not silence others', () => {
  const store = new Store({ a: 1 });
  const seen = [];
  const off = store.subscribe((e, st) => seen.push([e.type, e.keys, st.a]));
  store.subscribe(() => { throw new Error('boom'); });
  const third = [];
  store.subscribe((e) => third.push(e.type));
  assert.throws(() => store.set({ a: 2 }), /boom/);
  assert.deepEqual(seen, [['change', ['a'], 2]]);
  assert.deepEqual(third, ['change'], 'called despite the listener before it');
  off();
  assert.throws(() => store.emit({ type: 'x' }), /boom/);
  assert.equal(seen.length, 1);
  assert.deepEqual(third, ['change', 'x']);
});

test('the channel section\'s views stay small: its logic is the controller\'s, not a closure of the view', async () => {
  const { readdir } = await import('node:fs/promises');
  const dir = new URL('../../web/sections/channel/', import.meta.url);
  const views = (await readdir(dir)).filter((f) => f === 'view.js' || f.endsWith('-view.js'));
  assert.ok(views.includes('view.js') && views.includes('grid-view.js') && views.includes('results-view.js'));
  for (const f of views) {
    const lines = (await readFile(new URL(f, dir), 'utf8')).split('\n').length - 1;
    assert.ok(lines <= 400, `${f}: ${lines} lines (at most 400)`);
  }
  // The controller and its results part import nothing that needs a page.
  for (const f of ['controller.js', 'results.js']) {
    const text = await readFile(new URL(f, dir), 'utf8');
    assert.doesNotMatch(text, /\b(document|window)\.|requestAnimationFrame\(|lib\/dom\.js/, `${f} uses no DOM`);
  }
});
