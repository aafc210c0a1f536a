// The sections' pure modules (web/sections/<name>/state.js and web/lib/mechanism-plan.js) in Node:
// state edits, pastes, validation, the call plans each stage sends to the engine, and the
// checks of a state from a URL. Where a plan's calls are run, they run in the real engine
// (web/qif.js) and the results are checked against independent formulas written here.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { reportToJob } from '../../web/engine/client.js';
import * as CH from '../../web/sections/channel/state.js';
import { History } from '../../web/sections/channel/history.js';
import * as CP from '../../web/sections/channel/plan.js';
import { validateInputs } from '../../web/sections/channel/validate.js';
import { EntryMatrix } from '../../web/input/matrix.js';
import * as ME from '../../web/sections/mechanism/state.js';
import * as MEP from '../../web/sections/mechanism/plan.js';
import * as CO from '../../web/sections/compare/state.js';
import * as CD from '../../web/sections/compare/distances.js';
import * as IP from '../../web/sections/infopriv/state.js';
import { mechanismCall, matrixOf, WIDGET_MECHANISMS, edgeSpan, stepEpsilon, scalingText } from '../../web/lib/mechanism-plan.js';
import { MEASURES, MEASURE_ALIASES, measureKey, exactResults, PANELS } from '../../web/lib/measures.js';

let qif;
before(async () => { qif = await load(); });

const close = (a, b, what, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const rows = (M) => Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));
// The engine's call, made directly (qif.exact.measure for ns "exact.measure"); a progress
// callback of the page's plan is dropped.
const run = (c) => {
  const args = c.args.map((a) => (a && typeof a === 'object' && a.onProgress === reportToJob ? { ...a, onProgress: undefined } : a));
  return c.ns.split('.').reduce((o, k) => o[k], qif)[c.fn](...args);
};
const settle = (c) => { try { return { ok: true, value: run(c) }; } catch (e) { return { ok: false, error: e.message }; } };

// ---------------------------------------------------------------- channel

test('channel: edits keep the uniform prior and the identity gain in step', () => {
  const s = CH.createState();
  assert.equal(s.secrets.length, 8);
  assert.deepEqual(s.prior, new Array(8).fill('1/8'));
  CH.addRow(s);
  assert.equal(s.secrets.length, 9);
  assert.deepEqual(s.prior, new Array(9).fill('1/9'));
  assert.equal(s.gain.length, 9);
  assert.equal(s.gain[8][8], '1');
  assert.deepEqual(s.cells.toTexts()[8], ['1/4', '1/4', '1/4', '1/4'], 'a new secret gets a uniform row');
  CH.addCol(s);
  assert.equal(s.cells.cols, 5);
  assert.equal(s.cells.text(3, 4), '0');
  CH.removeRow(s, 0);
  assert.equal(s.secrets[0], '001');
  // A typed prior no longer follows the size.
  s.prior[0] = '1/2';
  s.priorUniform = false;
  CH.addRow(s);
  assert.equal(s.prior.length, 9);
  assert.equal(s.prior[8], '0');
});

test('channel: a pasted spreadsheet block with labels and decimal commas', () => {
  const s = CH.createState('dcnet-fair');
  const r = CH.pasteIntoChannel(s, 0, 0, 'x\\y\tA\tB\tC\ns1\t1\t0\t0\ns2\t0,5\t0,25\t0,25\ns3\t0\t0\t1\ns4\t0\t1\t0\ns5\t1\t0\t0\n');
  assert.equal(r.ok, true);
  assert.equal(r.decimalComma, true, 'read with decimal commas, and said so');
  assert.equal(r.how, 'new', 'pasted at the first cell: a new channel');
  assert.deepEqual(s.secrets, ['s1', 's2', 's3', 's4', 's5']);
  assert.deepEqual(s.observables, ['A', 'B', 'C'], 'nothing of the example is kept');
  assert.deepEqual(s.cells.toTexts()[1], ['0.5', '0.25', '0.25']);
  assert.deepEqual(s.prior, new Array(5).fill('1/5'));
  assert.match(CH.pasteNote(r, s), /new 5 × 3 channel with the pasted labels/);
  assert.match(CH.pasteNote(r, s), /decimal commas.*0,5 → 0\.5/);
  // The prior column, pasted downwards (a column copied from a spreadsheet with decimal commas
  // cannot be told from two whole numbers per line: refused, and said why).
  assert.match(CH.pasteIntoChannel(s, 1, -1, '0,2\n0,3\n').error, /decimal comma/);
  const rp = CH.pasteIntoChannel(s, 1, -1, '0.2\n0.3\n');
  assert.deepEqual([rp.ok, rp.how, rp.rows, rp.decimalComma], [true, 'prior', 2, false]);
  assert.deepEqual(s.prior.slice(0, 3), ['1/5', '0.2', '0.3']);
  assert.equal(s.priorUniform, false);
  // What can only be a decimal comma split in two is refused, never pasted wrong.
  assert.match(CH.pasteIntoChannel(s, 0, 0, '0,05,0,95\n1,0').error, /decimal comma/);
  assert.match(CH.pasteLabels(s, 'row', 0, 'one').error, /one label/);
  assert.deepEqual(CH.pasteLabels(s, 'col', 0, 'P\tQ\tR\tS\tT'), { ok: true });
  assert.deepEqual(s.observables, ['P', 'Q', 'R', 'S', 'T']);
  assert.equal(s.cells.cols, 5);
});

test('channel: a 6 × 6 block pasted over the example is a new channel; pasted elsewhere it fills and says where', () => {
  // The identity on 6 secrets, tab-separated, as a spreadsheet copies it.
  const I6 = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => (i === j ? 1 : 0)).join('\t')).join('\n');
  const s = CH.createState('password-iterations'); // 8 × 4
  const r = CH.pasteIntoChannel(s, 0, 0, I6);
  assert.equal(r.how, 'new');
  assert.deepEqual([s.secrets.length, s.observables.length], [6, 6], 'not 8 × 6: nothing of the example is mixed in');
  assert.deepEqual(s.secrets, ['x1', 'x2', 'x3', 'x4', 'x5', 'x6'], 'fresh labels');
  assert.deepEqual(s.observables, ['y1', 'y2', 'y3', 'y4', 'y5', 'y6']);
  assert.deepEqual(s.prior, new Array(6).fill('1/6'), 'a uniform prior');
  assert.match(CH.pasteNote(r, s), /new 6 × 6 channel with fresh labels/);

  // Elsewhere: fills from there, keeps the rest, and says which rows and columns it filled.
  const t = CH.createState('password-iterations');
  const before = t.cells.toTexts();
  const f = CH.pasteIntoChannel(t, 2, 1, '0.5\t0.5\n1\t0');
  assert.equal(f.how, 'fill');
  assert.deepEqual([t.secrets.length, t.observables.length], [8, 4]);
  assert.deepEqual(t.cells.toTexts()[2], [before[2][0], '0.5', '0.5', before[2][3]]);
  assert.deepEqual(t.cells.toTexts()[0], before[0]);
  const note = CH.pasteNote(f, t);
  assert.match(note, new RegExp(`rows ${t.secrets[2]}–${t.secrets[3]} and columns ${t.observables[1].replace(/[()]/g, '\\$&')}–${t.observables[2].replace(/[()]/g, '\\$&')}`));
  assert.match(note, /the other cells are as they were/);
  const g = CH.pasteIntoChannel(t, 7, 3, '1\t0\n0\t1');
  assert.equal(g.grew, true);
  assert.match(CH.pasteNote(g, t), /it grew to 9 × 5/);
});

test('channel: Undo puts back the state before each edit; typing into one cell is one step', () => {
  const s = CH.createState('password-iterations');
  const original = CH.stateJSON(s);
  const hist = new History();
  hist.record(() => CH.snapshot(s));
  CH.pasteIntoChannel(s, 0, 0, '1\t0\n0\t1');
  hist.record(() => CH.snapshot(s), 'channel:cell:0:0');
  s.cells.set(0, 0, '0.');
  hist.record(() => CH.snapshot(s), 'channel:cell:0:0');
  s.cells.set(0, 0, '0.5');
  assert.equal(hist.steps.length, 2, 'two keys in one cell: one step');
  const afterPaste = hist.undo();
  CH.restore(s, afterPaste);
  assert.deepEqual(s.cells.toTexts(), [['1', '0'], ['0', '1']], 'the typing is undone as one');
  CH.restore(s, hist.undo());
  assert.deepEqual(CH.stateJSON(s), original, 'the example is back, labels and prior included');
  assert.equal(hist.undo(), null);
  // A snapshot is not changed by later edits of the state.
  const snap = CH.snapshot(s);
  s.cells.set(0, 0, '0');
  s.secrets[0] = 'changed';
  assert.notEqual(snap.cells.text(0, 0), '0');
  assert.notEqual(snap.secrets[0], 'changed');
  // The history keeps what fits: the oldest steps go first.
  const small = new History({ maxEntries: 40, maxSteps: 100 });
  for (let k = 0; k < 5; k++) small.record(() => CH.snapshot(s)); // 32 entries each
  assert.equal(small.steps.length, 1);
});

test('channel: validation speaks of the grammar’s problems, cell by cell', () => {
  const s = CH.createState('dcnet-fair');
  s.cells.set(0, 0, '0,5');
  s.cells.set(1, 1, 'log 2');
  s.alpha = 'ln 2';
  const c = validateInputs(s);
  assert.match(c.cell.get('c:0:0'), /decimal comma/);
  assert.match(c.cell.get('c:1:1'), /ambiguous.*ln/);
  assert.equal(c.channel, null);
  close(c.alpha, Math.log(2), 'α = ln 2');
  s.alpha = 'inf';
  assert.equal(validateInputs(s).alpha, Infinity);
  s.tolerance = '0';
  assert.equal(validateInputs(s).toleranceMsg, 'must be positive');
});

test('channel: the call plan runs only the panels whose inputs changed', () => {
  const s = CH.createState('dcnet-fair');
  const first = CP.panelPlan(CP.panelInputs(validateInputs(s)), {});
  for (const [name, p] of Object.entries(first)) assert.equal(p.action, 'run', name);
  const cap = first.capacity.calls[0];
  assert.equal(cap.fn, 'shannonCapacity');
  assert.equal(cap.args[1].tolerance, 1e-9);
  assert.equal(cap.args[1].onProgress, reportToJob, 'the capacity reports progress to its job');
  const last = Object.fromEntries(Object.entries(first).map(([k, p]) => [k, p.sig]));
  // α changes: only the Rényi panel runs again.
  s.alpha = '3';
  const second = CP.panelPlan(CP.panelInputs(validateInputs(s)), last);
  assert.deepEqual(Object.entries(second).filter(([, p]) => p.action === 'run').map(([k]) => k), ['renyi']);
  // 0.5 retyped as 1/2: the same inputs, nothing runs.
  s.alpha = '2';
  s.cells.set(0, 0, '0.5');
  const third = CP.panelPlan(CP.panelInputs(validateInputs(s)), last);
  assert.ok(Object.values(third).every((p) => p.action === 'same'));
  // A bad cell: the panels that need the channel are stale, the prior's are not.
  s.cells.set(0, 0, 'x');
  const fourth = CP.panelPlan(CP.panelInputs(validateInputs(s)), last);
  assert.equal(fourth.posterior.action, 'stale');
  assert.equal(fourth.capacity.action, 'stale');
  assert.equal(fourth.prior.action, 'same');
  // Each panel says which measures it fills, and together they fill every measure shown.
  const keys = Object.values(CH.PANEL_KEYS).flat();
  for (const k of Object.keys(MEASURES)) assert.ok(keys.includes(k), k);
});

test('channel: the plan’s calls run in the engine and resultsOf gives the data exports read', () => {
  const s = CH.createState('dcnet-fair');
  const plan = CP.panelPlan(CP.panelInputs(validateInputs(s)), {});
  const shown = {};
  for (const [name, p] of Object.entries(plan)) {
    const settled = p.calls.map((c) => {
      const args = c.args.map((a) => (a && typeof a === 'object' && 'onProgress' in a ? { ...a, onProgress: undefined } : a));
      try { return { ok: true, value: qif[c.ns][c.fn](...args) }; } catch (e) { return { ok: false, error: e.message }; }
    });
    Object.assign(shown, CP.derivePanel(name, settled));
  }
  const r = CP.resultsOf(shown, { measures: MEASURES, exact: { posteriorBayesVulnerability: '1/2' } });
  const byKey = Object.fromEntries(r.measures.map((m) => [m.key, m]));
  // The fair DC-net reveals the bit and nothing about the culprit: I(X;Y) = 1 bit.
  close(byKey.mutualInformation.value, 1, 'I(X;Y)');
  close(byKey.shannonCapacity.value, 1, 'capacity as a number');
  assert.equal(byKey.posteriorBayesVulnerability.exact, '1/2');
  assert.equal(byKey.shannonEntropy.unit, 'bits');
  assert.equal(r.hyper.outer.length, 2, 'two posteriors: bit 1 and bit 0');
  close(r.hyper.outer[0], 0.5, 'outer');
  assert.equal(r.capacity.prior.length, 4);
  // Posterior labels: each inner with the outputs whose posterior it is.
  const texts = s.cells.toTexts();
  const C = { rows: texts.length, cols: texts[0].length, data: Float64Array.from(texts.flat(), (t) => Number(eval(t))) }; // eslint-disable-line no-eval
  const labels = CP.posteriorLabels(shown.hyper.value, C, [0.25, 0.25, 0.25, 0.25], s.observables);
  assert.deepEqual(labels.map((l) => l.slice().sort()), [['01', '10'], ['00', '11']].map((l) => l.sort()));
});

test('channel: a state from a URL is checked field by field', () => {
  assert.throws(() => CH.checkState(null), /must be an object/);
  assert.throws(() => CH.checkState({ secrets: ['a'], observables: ['y'], cells: [['1', '0']] }), /channel row 1 has 2 entries, expected 1/);
  assert.throws(() => CH.checkState({ secrets: ['a'.repeat(300)], observables: ['y'], cells: [['1']] }), /longer than 200/);
  const ok = CH.checkState({ secrets: ['a', 'b'], observables: ['y'], cells: [['1'], ['1']], priorUniform: true, presetId: 'nope' });
  assert.equal(ok.edited, true, 'not a known preset: shown as edited');
  assert.equal(ok.alpha, CH.DEFAULT_ALPHA);
  const s = CH.createState();
  CH.assignState(s, ok);
  assert.deepEqual(s.prior, ['1/2', '1/2']);
  assert.equal(s.gain.length, 2);
});

test('channel: the exact plan sends the fractions as typed and gives the hand-computed values', async () => {
  await qif.exact.load();
  // C = [1/2 1/2 0; 1/4 1/4 1/2; 0 1/3 2/3], π = (1/2, 1/4, 1/4), G = [1 1 0; 0 0 1], by hand:
  // joint J = [1/4 1/4 0; 1/16 1/16 1/8; 0 1/12 1/6], V(π) = 1/2, V[π▷C] = 1/4 + 1/4 + 1/6 = 2/3,
  // G(X) = 1/2 + 2/4 + 3/4 = 7/4, G(X|Y) = 3/8 + 29/48 + 5/12 = 67/48, posteriors (4/5, 1/5, 0),
  // (12/19, 3/19, 4/19), (0, 3/7, 4/7) so V^max = 4/5; V_g(π) = 3/4, V_g[π▷C] = 19/24;
  // Σ_y max_x C = 1/2 + 1/2 + 2/3 = 5/3; the widest rows (1/2 1/2 0), (0 1/3 2/3) are 4/3 apart
  // in L1, so the Bayes-risk capacity is 1/(1 − 2/3) = 3; 1-spanning vulnerabilities:
  // 1 − Σ_y min_x C = 1 − (0 + 1/4 + 0) = 3/4.
  const s = CH.createState('dcnet-fair');
  s.secrets = ['a', 'b', 'c'];
  s.observables = ['y1', 'y2', 'y3'];
  s.cells = EntryMatrix.fromTexts([['1/2', '0.5', '0'], ['0.25', '1/4', '1/2'], ['0', '1/3', '2/3']]);
  s.prior = ['1/2', '1/4', '0.25'];
  s.priorUniform = false;
  s.gain = [['1', '1', '0'], ['0', '0', '1']];
  s.gainIdentity = false;
  const ex = CP.exactInputs(s);
  assert.deepEqual(ex.prior, ['1/2', '1/4', '1/4']);
  assert.deepEqual(ex.channel[0], ['1/2', '1/2', '0']);
  assert.equal(ex.why, null);
  const plan = CP.panelPlan(CP.panelInputs(validateInputs(s), { exact: ex }), {});
  const got = {};
  for (const p of Object.values(plan)) if (p.exact) Object.assign(got, exactResults(p.exact, p.exact.calls.map(settle)));
  const want = {
    bayesVulnerability: '1/2', bayesRisk: '1/2', guessingEntropy: '7/4', posteriorBayesVulnerability: '2/3', posteriorBayesRisk: '1/3',
    multiplicativeBayesLeakage: '4/3', additiveBayesLeakage: '1/6', maxCasePosteriorBayesVulnerability: '4/5', posteriorGuessingEntropy: '67/48',
    gVulnerability: '3/4', posteriorGVulnerability: '19/24', additiveGLeakage: '1/24', multiplicativeGLeakage: '19/18',
    multiplicativeBayesCapacity: '5/3', multiplicativeBayesRiskCapacity: '3', additiveGCapacity: '3/4',
  };
  for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k], { ok: true, value: v }, k);
  assert.deepEqual(got.hyper.value.outer.slice().sort(), ['19/48', '5/16', '7/24']);
  // Every exact key is a measure (or the hyper), and the float panels have no exact job of their own.
  for (const k of Object.keys(got)) assert.ok(k === 'hyper' || Object.hasOwn(MEASURES, k), k);
  assert.equal(plan.capacity.exact, null);
  assert.equal(plan.renyi.exact, null);

  // The class of gain functions: only the additive g-capacity runs again.
  const last = Object.fromEntries(Object.entries(plan).map(([k, p]) => [k, p.sig]));
  const again = CP.panelPlan(CP.panelInputs(validateInputs(s), { exact: ex, gainClass: 'oneSpanningGain' }), last);
  assert.deepEqual(Object.entries(again).filter(([, p]) => p.action === 'run').map(([k]) => k), ['gcapacity']);
  // Over 1-spanning gains: Σ_y p(y) tv(π, δʸ) = 5/16·3/10 + 19/48·5/38 + 7/24·1/2
  // = 9/96 + 5/96 + 14/96 = 7/24, by hand.
  assert.deepEqual(settle(again.gcapacity.exact.calls[0]), { ok: true, value: '7/24' });
  // 0.3333333333333333 is not 1/3: the same floats, another exact input, so the panels run again.
  const t = CH.createState('dcnet-fair');
  const first = CP.panelPlan(CP.panelInputs(validateInputs(t), { exact: CP.exactInputs(t) }), {});
  const sig = Object.fromEntries(Object.entries(first).map(([k, p]) => [k, p.sig]));
  t.prior = ['0.25', '0.25', '0.25', '0.25'];
  t.priorUniform = false;
  assert.equal(CP.panelPlan(CP.panelInputs(validateInputs(t), { exact: CP.exactInputs(t) }), sig).prior.action, 'same', '1/4 retyped as 0.25');
  t.prior = ['1/3', '1/3', '0.3333333333333333', '0'];
  const third = CP.panelPlan(CP.panelInputs(validateInputs(t), { exact: CP.exactInputs(t) }), sig);
  assert.equal(third.prior.action, 'run');
  // The exact mode then refuses the prior, naming its exact sum (the floats accept it):
  // 2/3 + 3333333333333333/10¹⁶ = (2·10¹⁶ + 3·3333333333333333)/(3·10¹⁶).
  const err = settle(third.prior.exact.calls[0]);
  assert.equal(err.ok, false);
  assert.match(err.error, /prior: sums to 29999999999999999\/30000000000000000, expected exactly 1/);
  assert.ok(validateInputs(t).prior, 'the floating-point check accepts it');
  // What cannot be exact: ln entries, and matrices beyond the page's limit.
  t.cells.set(0, 0, 'ln(1)');
  assert.match(CP.exactInputs(t).why, /decimal or a fraction/);
  const big = { cells: EntryMatrix.fromTexts(Array.from({ length: 65 }, () => new Array(64).fill('1/64'))), prior: new Array(65).fill('1/65'), gain: [['1']] };
  assert.match(CP.exactInputs(big).why, /up to 4,096 entries/);
  assert.equal(CP.exactInputs(big).channel, null);
  // A small channel whose gain is too large for exact values keeps its other exact values.
  const wide = { cells: EntryMatrix.fromTexts(Array.from({ length: 65 }, () => ['1'])), prior: new Array(65).fill('1/65'), gain: null };
  const wx = CP.exactInputs(wide);
  assert.equal(wx.gain, null);
  assert.equal(wx.prior.length, 65);
  assert.match(wx.why, /g-values/);
});

test('channel: the class of gains and the observed frequencies in a link; reading the frequencies', () => {
  const base = { secrets: ['a', 'b'], observables: ['y', 'z'], cells: [['1', '0'], ['0', '1']], priorUniform: true };
  assert.equal(CH.checkState(base).gainClass, 'oneSpanningVulnerability');
  assert.equal(CH.checkState({ ...base, gainClass: 'oneSpanningGain', observed: '3, 1' }).observed, '3, 1');
  assert.throws(() => CH.checkState({ ...base, gainClass: 'bayes' }), /class of gain functions must be one of/);
  assert.deepEqual(CP.parseObserved('30, 50, 20', 3), { value: [0.3, 0.5, 0.2], scaled: true });
  assert.deepEqual(CP.parseObserved('[0.25, "3/4"]', 2), { value: [0.25, 0.75], scaled: false });
  assert.match(CP.parseObserved('1, 2', 3).error, /2 values for 3 observables/);
  assert.match(CP.parseObserved('1, −2', 2).error, /≥ 0/);
  assert.match(CP.parseObserved('0 0', 2).error, /positive/);
  assert.match(CP.parseObserved('', 2).error, /one count/);
  // The estimate from the frequencies of π·C is π again (C invertible), by the engine.
  const C = [[0.75, 0.25], [0.25, 0.75]];
  const o = CP.parseObserved('0.625 0.375', 2).value; // (1/2·3/4 + … ) for π = (3/4, 1/4)
  const est = qif.channel.iterativeBayesianUpdate(C, o, { maxDiff: 1e-12 });
  close(est.prior[0], 0.75, 'π(a)', 1e-6);
});

test('measures: keys are the API names; the old keys of the widgets still name the same measures', () => {
  for (const k of Object.keys(MEASURES)) {
    const panel = Object.values(PANELS).find((p) => p.calls({ prior: [], C: [], G: [], alpha: 0, tolerance: 1, gainClass: 'x' }).some((c) => c.fn === k));
    assert.ok(panel, `${k} is computed by measure.${k}`);
    assert.equal(typeof qif.measure[k], 'function', `qif.measure.${k}`);
  }
  for (const [old, key] of Object.entries(MEASURE_ALIASES)) {
    assert.equal(measureKey(old), key);
    assert.ok(Object.hasOwn(MEASURES, key));
  }
  assert.equal(measureKey('mutualInformation'), 'mutualInformation');
  assert.equal(measureKey('nope'), null);
});

// ---------------------------------------------------------------- the mechanism plan

test('mechanism plan: ε-DP on the graph, explained', async () => {
  const clique = qif.graph.clique(6);
  const path = qif.graph.path(7);
  assert.equal(edgeSpan(clique), 5);
  assert.equal(edgeSpan(path), 1);
  assert.equal(edgeSpan({ n: 3, edges: [] }), 1);
  close(stepEpsilon('tg', Math.LN2, clique), Math.LN2 / 5, 'ε/5 on the clique');
  close(stepEpsilon('rr', Math.LN2, clique), Math.LN2, 'randomized response unscaled');
  assert.match(scalingText('tg', Math.LN2, clique, (x) => x.toFixed(4)), /α = e\^\(−ε\/5\) = 0\.8706: per step ε\/5 = 0\.1386/);
  assert.equal(scalingText('rr', 1, clique), '');
  // On a 3 × 3 grid the exponential mechanism measures the grid's own distance: cells 0 and 3
  // are neighbours (one step), though 3 indices apart. Its matrix is e^(−ε d/2), rows normalized,
  // with d the steps |Δcolumn| + |Δrow| between cells, written out here; the text names the metric.
  const grid = qif.graph.grid(3, 3);
  assert.equal(edgeSpan(grid), 3);
  assert.match(scalingText('exp', 1, grid), /the graph’s shortest-path distance/);
  assert.throws(() => mechanismCall('exp', { graph: grid, epsilon: 1 }), /needs the graph’s distances/);
  const steps = (a, b) => Math.abs((a % 3) - (b % 3)) + Math.abs(Math.floor(a / 3) - Math.floor(b / 3));
  const E = rows(matrixOf('exp', run(mechanismCall('exp', { graph: grid, epsilon: 1.2, distances: rows(qif.graph.distances(grid)) }))));
  for (let y = 0; y < 9; y++) {
    const w = Array.from({ length: 9 }, (_, z) => Math.exp((-1.2 * steps(y, z)) / 2));
    const sum = w.reduce((a, b) => a + b, 0);
    for (let z = 0; z < 9; z++) close(E[y][z], w[z] / sum, `exp on the grid [${y}][${z}]`);
  }
  // Each classic mechanism, built by the plan, is ε-DP on the graph (smallest ε ≤ target).
  for (const [g, name] of [[clique, 'clique'], [path, 'path'], [qif.graph.grid(3, 3), 'grid'], [qif.graph.petersen(), 'Petersen']]) {
    for (const key of ['tg', 'rr', 'exp']) {
      const H = matrixOf(key, run(mechanismCall(key, { graph: g, epsilon: 1, distances: rows(qif.graph.distances(g)) })));
      assert.ok(qif.privacy.epsilon(H, g) <= 1 + 1e-9, `${key} is 1-DP on the ${name}`);
    }
  }
  // On a path the graph's distance is |y − z|: the classic exponential mechanism.
  const onPath = rows(matrixOf('exp', run(mechanismCall('exp', { graph: path, epsilon: 0.8, distances: rows(qif.graph.distances(path)) }))));
  rows(qif.mechanism.exponential(7, 0.8)).forEach((r, y) => r.forEach((v, z) => close(onPath[y][z], v, `exp on the path [${y}][${z}]`)));
  // The truncated geometric on the clique at ln 2 is the M1 of Table 1: per-step α = 2^(−1/5),
  // written out here from its formula (inputs and outputs 0..5).
  const a = 2 ** (-1 / 5);
  const M1 = Array.from({ length: 6 }, (_, x) => Array.from({ length: 6 }, (_, y) => {
    if (y === 0) return a ** x / (1 + a);
    if (y === 5) return a ** (5 - x) / (1 + a);
    return ((1 - a) / (1 + a)) * a ** Math.abs(x - y);
  }));
  const H = rows(matrixOf('tg', run(mechanismCall('tg', { graph: clique, epsilon: Math.LN2 }))));
  H.forEach((r, i) => r.forEach((v, j) => close(v, M1[i][j], `M1[${i}][${j}]`)));
  // The widget's names stand for the same plan entries.
  assert.deepEqual(Object.values(WIDGET_MECHANISMS).sort(), ['exp', 'lp', 'rr', 'tg']);
  const lp = mechanismCall('lp', { graph: clique, epsilon: Math.LN2, prior: [0.1, 0.2, 0.2, 0.2, 0.2, 0.1], progress: true });
  assert.equal(lp.args[0].onProgress, reportToJob);
  close(run({ ...lp, args: [{ ...lp.args[0], onProgress: undefined }] }).utility, 0.32, 'Table 1 with the non-uniform prior: the LP optimum', 1e-7);
});

// ---------------------------------------------------------------- mechanism section

test('mechanism: ε in the one grammar, whole numbers, edges', () => {
  close(ME.parseEpsilon('ln 2 / 5').value, Math.LN2 / 5, 'ln 2 / 5');
  close(ME.parseEpsilon('ln(2/5) + 1').value, Math.log(0.4) + 1, 'ln(2/5) + 1');
  close(ME.parseEpsilon('2 ln 2').value, 2 * Math.LN2, '2 ln 2');
  assert.match(ME.parseEpsilon('log 2').error, /ambiguous/);
  assert.match(ME.parseEpsilon('−1').error, /positive, got −1/);
  assert.match(ME.parseEpsilon('ln(2/5)').error, /positive/);
  assert.match(ME.parseEpsilon('701').error, /at most 700/);
  assert.match(ME.parseEpsilon('').error, /enter ε/);
  assert.deepEqual(ME.parseCount('10^6', 'u', 1, 1e15), { value: 1e6 });
  assert.match(ME.parseCount('1', 'v', 2, 64).error, /^v: must be at least 2/);
  assert.deepEqual(ME.parseEdges('0-1, 1-2').value, [[0, 1], [1, 2]]);
  assert.match(ME.parseEdges('0-1, 1').error, /incomplete/);
  assert.deepEqual(ME.answerLabels('A, B, C', 3).labels, ['A', 'B', 'C']);
  assert.match(ME.answerLabels('A, B', 3).error, /2 labels for 3 answers/);
});

test('mechanism: the stages’ plans', () => {
  const base = { ...ME.DEFAULT_STATE };
  assert.deepEqual(MEP.graphPlan({ ...base, kind: 'clique', n: '6' }), { base: { ns: 'graph', fn: 'clique', args: [6] } });
  assert.equal(MEP.graphPlan({ ...base, kind: 'grid', w: '20', h: '20' }).field, 'h');
  assert.equal(MEP.graphPlan({ ...base, kind: 'custom', cn: '4', edges: '0-1, 1' }).field, 'edges');
  assert.deepEqual(MEP.graphPlan({ ...base, kind: 'custom', cn: '3', edges: '0-1 1-2' }).base, { literal: { n: 3, edges: [[0, 1], [1, 2]] } });
  assert.equal(MEP.graphPlan({ ...base, kind: 'hamming', u: '12', v: '2' }).field, 'u');
  const induced = MEP.graphPlan({ ...base, kind: 'induced', base: 'hamming', u: '3', v: '2', query: ME.countQuery(3, 2).join(', ') });
  assert.deepEqual(induced.query, [0, 1, 1, 2, 1, 2, 2, 3]);
  assert.equal(MEP.graphPlan({ ...base, kind: 'induced', base: 'path', n: '4', query: '' }).field, 'query');

  const g = qif.graph.clique(6);
  const G = MEP.graphStructure(g, rows(qif.graph.distances(g)), qif.graph.isDistanceRegular(g));
  assert.equal(G.diameter, 1);
  assert.equal(G.span, 5);
  const calls = MEP.matricesPlan(G, Math.LN2);
  assert.deepEqual(calls.map((c) => c.fn), ['utilityBound', 'optimalDetail', 'truncatedGeometric', 'randomizedResponse', 'exponentialMetric']);
  close(calls[2].args[1], Math.LN2 / 5, 'page: truncated geometric at ε/5 on the clique');
  const settled = calls.map((c) => ({ ok: true, value: run(c) }));
  const m = MEP.readMatrices(settled);
  close(m.bound.value.bound, 2 / 7, 'Theorem 6.1 on K6 at ln 2');
  const cur = { G, eps: Math.LN2, prior: new Array(6).fill(1 / 6), score: null, scoreError: undefined, loss: false };
  const up = MEP.utilitiesPlan(G, m.matrices, cur);
  assert.equal(up.calls.length, 8, 'ε and utility of four mechanisms');
  const out = up.calls.map(run);
  close(out[up.at.rr.util], 2 / 7, 'randomized response reaches the bound on the clique');
  close(out[up.at.tg.eps], Math.LN2, 'M1 is exactly ln 2-DP on the clique', 1e-9);
  const sweep = MEP.sweepPlan(cur, [0.5, 1], MEP.sweepMatricesPlan(G, [0.5, 1]).map((c) => ({ ok: true, value: run(c) })), { withLP: true, timeLimit: 1000 });
  assert.equal(sweep.calls.length, 2 * 6, 'per ε: the optimum, four utilities, the bound');
  assert.deepEqual(sweep.layout.slice(0, 6).map(([, k]) => k), ['lp', 'thm62', 'tg', 'rr', 'exp', 'bound']);
  const db = MEP.dbPlan({ u: '1e9', v: '2', epsilon: 'ln 2' });
  assert.equal(db.calls.length, 3);
  assert.match(MEP.dbPlan({ u: '0', v: '2', epsilon: '1' }).u.error, /at least 1/);
});

test('mechanism: the tight-constraints row, its metrics and its “no mechanism exists”', () => {
  const path = qif.graph.path(6);
  const Gp = MEP.graphStructure(path, rows(qif.graph.distances(path)), null);
  const st = { ...ME.DEFAULT_STATE, kind: 'path', n: '6' };
  assert.deepEqual(MEP.tcMetricPlan(st, Gp), { matrix: Gp.D });
  // For ε|y − z| on a path it is the truncated geometric mechanism, written out here.
  const eps = 0.7;
  const a = Math.exp(-eps);
  const calls = MEP.matricesPlan(Gp, eps, Gp.D);
  assert.equal(calls[calls.length - 1].fn, 'tightConstraints');
  const m = MEP.readMatrices(calls.map(settle));
  rows(m.matrices.tc).forEach((r, x) => r.forEach((v, y) => {
    const want = y === 0 ? a ** x / (1 + a) : y === 5 ? a ** (5 - x) / (1 + a) : ((1 - a) / (1 + a)) * a ** Math.abs(x - y);
    close(v, want, `tc[${x}][${y}]`);
  }));
  // The line preset of qif.metric is the same metric on a path.
  const line = MEP.tcMetricPlan({ ...st, tcMetric: 'line' }, Gp);
  assert.deepEqual(rows(run(line.call)), Gp.D);
  // The discrete metric gives randomized response: e^ε/(n − 1 + e^ε) on the diagonal.
  const disc = rows(run(MEP.tcMetricPlan({ ...st, tcMetric: 'discrete' }, Gp).call));
  const rr = rows(run(mechanismCall('tc', { graph: path, epsilon: eps, metric: disc })));
  close(rr[2][2], Math.exp(eps) / (5 + Math.exp(eps)), 'rr diagonal');
  close(rr[2][3], 1 / (5 + Math.exp(eps)), 'rr off the diagonal');
  // The Euclidean grid needs the grid graph; on a 3 × 3 grid at ε = 0.3 no tight-constraints
  // mechanism exists, and the row carries the engine's message.
  assert.match(MEP.tcMetricPlan({ ...st, tcMetric: 'gridEuclidean' }, Gp).error, /needs the grid graph/);
  const grid = qif.graph.grid(3, 3);
  const Gg = MEP.graphStructure(grid, rows(qif.graph.distances(grid)), null);
  const ge = MEP.tcMetricPlan({ ...st, kind: 'grid', w: '3', h: '3', tcMetric: 'gridEuclidean' }, Gg);
  const bad = MEP.readMatrices(MEP.matricesPlan(Gg, 0.3, rows(run(ge.call))).map(settle));
  assert.equal(bad.matrices.tc, null);
  assert.match(bad.errors.tc, /no tight-constraints mechanism exists/);
  // Without a metric the row is left out and says why; the sweep leaves it out too.
  assert.equal(MEP.readMatrices(MEP.matricesPlan(Gg, 0.3, null).map(settle), { tcError: 'why' }).errors.tc, 'why');
  assert.deepEqual(MEP.sweepKeys(null), ['thm62', 'tg', 'rr', 'exp']);
  assert.equal(MEP.sweepMatricesPlan(Gp, [0.5, 1], Gp.D).length, 10);
});

test('mechanism: the certified optimum of Table 1 (Alvim et al., ICALP 2011) is 2/7, and 8/25 with its prior', async () => {
  await qif.exact.load();
  const g = qif.graph.clique(6);
  const G = MEP.graphStructure(g, rows(qif.graph.distances(g)), null);
  const base = { ...ME.DEFAULT_STATE, kind: 'clique', n: '6', gain: 'binary' };
  const uniform = MEP.certifiedPlan({ ...base, epsilon: 'ln 2', prior: null }, G);
  assert.equal(uniform.expEpsilon, '2');
  assert.equal(run(uniform.call).utility, '2/7');
  const prior = MEP.certifiedPlan({ ...base, epsilon: 'ln 2', prior: ['0.1', '1/5', '1/5', '1/5', '1/5', '1/10'] }, G);
  assert.deepEqual(prior.call.args[0].prior, ['1/10', '1/5', '1/5', '1/5', '1/5', '1/10']);
  const r = run(prior.call);
  assert.equal(r.utility, '8/25', 'the paper prints 0.32');
  assert.equal(r.certified, true);
  // e^ε irrational, or a prior typed with ln: no certified optimum, and the reason.
  assert.match(MEP.certifiedPlan({ ...base, epsilon: '0.6931', prior: null }, G).why, /e\^ε rational/);
  assert.match(MEP.certifiedPlan({ ...base, epsilon: 'ln 2 / 5', prior: null }, G).why, /e\^ε rational/);
  assert.match(MEP.certifiedPlan({ ...base, epsilon: 'ln 2', prior: ['ln 2', '0', '0', '0', '0', '0'] }, G).why, /prior/);
  assert.equal(MEP.certifiedPlan({ ...base, epsilon: 'ln(3/2)', prior: null }, G).expEpsilon, '3/2');
  // The distance gain and the loss on a path, against the floating-point LP with the same
  // matrices (two solvers, one in rationals): they agree.
  const path = qif.graph.path(5);
  const Gp = MEP.graphStructure(path, rows(qif.graph.distances(path)), null);
  for (const gain of ['distance', 'loss']) {
    const plan = MEP.certifiedPlan({ ...base, kind: 'path', n: '5', gain, epsilon: 'ln 3', prior: null }, Gp);
    const exact = run(plan.call).utility;
    const score = ME.scoreMatrix(gain, Gp.D, Gp.diameter).matrix;
    const float = qif.mechanism.optimalLP({ graph: path, epsilon: Math.log(3), [gain === 'loss' ? 'loss' : 'gain']: score, forceLP: true }).utility;
    const [n, d = '1'] = exact.split('/');
    close(Number(n) / Number(d), float, `${gain}: exact ${exact}`, 1e-7);
  }
});

test('mechanism: a state from a URL keeps only what the menus offer', () => {
  const s = ME.sanitizeState({ kind: 'cycle', n: 5, gain: 'nonsense', prior: [0.5, '1/2'], db: { u: '10^6', evil: 'x' }, extra: 1 });
  assert.equal(s.kind, 'cycle');
  assert.equal(s.n, '5');
  assert.equal(s.gain, 'binary');
  assert.deepEqual(s.prior, ['0.5', '1/2']);
  assert.deepEqual(s.db, { ...ME.DEFAULT_STATE.db, u: '10^6' });
  assert.equal('extra' in s, false);
  assert.equal(ME.sanitizeState(null).kind, ME.DEFAULT_STATE.kind);
});

// ---------------------------------------------------------------- compare section

test('compare: validation, pastes and edits on two channels', () => {
  const s = CO.createState(2);
  CO.setCells(s.ch.A, [['1', '0'], ['0,5', 'x']]);
  const v = CO.validateChannel(s.ch.A);
  assert.match(v.cell.get('1:0'), /decimal comma/);
  assert.equal(v.cell.get('1:1'), 'not a number');
  assert.equal(v.matrix, null);
  CO.setCells(s.ch.A, [['1', '0'], ['1/3', '2/3']]);
  assert.deepEqual(CO.validateChannel(s.ch.A).matrix, [[1, 0], [1 / 3, 2 / 3]]);
  CO.setCells(s.ch.A, [['1', '0'], ['1/3', '1/3']]);
  assert.match(CO.validateChannel(s.ch.A).messages[0], /Row x1 sums to 0\.666667, expected 1/);
  assert.match(CO.validateChannel(s.ch.A, 'Channel A: fix ε').messages[0], /fix ε/);
  // A paste of three rows into B grows both channels; B gets a third column.
  assert.deepEqual(CO.paste(s, 'B', 0, 0, '0,5\t0,25\t0,25\n1\t0\t0\n0\t0\t1'), { ok: true });
  assert.equal(s.n, 3);
  assert.equal(s.ch.A.cells.length, 3);
  assert.deepEqual(s.ch.B.cells[0], ['0.5', '0.25', '0.25']);
  assert.deepEqual(CO.validateChannel(s.ch.B).matrix[0], [0.5, 0.25, 0.25]);
  assert.equal(CO.removeRow(s, 0), true);
  assert.equal(CO.removeRow(s, 0), false, 'two secrets at least');
  assert.equal(CO.removeCol(s.ch.A, 0), true);
  assert.equal(CO.removeCol(s.ch.A, 0), false, 'one output at least');
});

// A·R, the cascade of A and a row-stochastic R (a post-processing of A), written here.
const multiply = (A, R) => A.map((row) => R[0].map((_, z) => row.reduce((s, v, y) => s + v * R[y][z], 0)));

// V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y], written here from the definition
// (docs/mathematics.md#entropies-and-leakage); G as rows or as {rows, cols, data}.
function postGVuln(G, prior, C) {
  const g = Array.isArray(G) ? G : Array.from({ length: G.rows }, (_, i) => Array.from(G.data.subarray(i * G.cols, (i + 1) * G.cols)));
  let total = 0;
  for (let y = 0; y < C[0].length; y++) total += Math.max(...g.map((row) => row.reduce((s, gx, x) => s + gx * prior[x] * C[x][y], 0)));
  return total;
}

test('compare: family and verdict plans', () => {
  const ok = CO.familyPlan({ kind: 'family', family: 'exponential', eps: 'ln 2', m: '' }, 4);
  assert.deepEqual(ok.calls.map((c) => c.fn), ['exponential', 'exponentialEpsilon']);
  close(ok.calls[0].args[1], Math.LN2, 'ε = ln 2');
  assert.equal(CO.familyPlan({ kind: 'family', family: 'randomizedResponse', eps: '0', m: '' }, 3).epsMsg, 'ε must be > 0');
  assert.match(CO.familyPlan({ kind: 'family', family: 'randomizedResponse', eps: 'log 2', m: '' }, 3).epsMsg, /ambiguous/);
  assert.equal(CO.familyPlan({ kind: 'family', family: 'randomizedResponse', eps: '1', m: '1.5' }, 3).mMsg, `an integer from 1 to ${CO.MAX_M}`);
  assert.equal(CO.familyPlan({ kind: 'family', family: 'overTruncatedGeometric', eps: '1', m: '3' }, 3).mMsg, 'fewer than n = 3');
  // B = A·R is a post-processing of A: ⊑avg holds; the counterexample's vulnerabilities of the
  // other direction agree with the definition, and avgCheckPlan re-evaluates them with the measure.
  const A = [[0.8, 0.2], [0.3, 0.7]];
  const B = multiply(A, [[0.9, 0.1], [0.4, 0.6]]);
  const calls = CO.verdictPlan(A, B);
  assert.deepEqual(calls.map((c) => c.fn), ['avg', 'max', 'prv', 'avg', 'max', 'prv']);
  const v = CO.readVerdicts(calls.map((c) => ({ ok: true, value: run(c) })));
  assert.deepEqual(v.forward.map((r) => r.value.holds), [true, true, true]);
  const back = v.reverse[0].value;
  assert.equal(back.holds, false);
  close(postGVuln(back.counterexample.gain, Array.from(back.counterexample.prior), A), back.counterexample.vulnerabilityB, 'V_g[π▷A] recomputed', 1e-9);
  assert.equal(CO.avgCheckPlan(v.forward[0], A, B), null, 'nothing to check where ⊑avg holds');
  const check = CO.avgCheckPlan(v.reverse[0], B, A).map((c) => run(c));
  close(check[0], back.counterexample.vulnerabilityA, 'V_g[π▷B] by the measure', 1e-9);
  close(check[1], back.counterexample.vulnerabilityB, 'V_g[π▷A] by the measure', 1e-9);
  assert.match(CO.summary([true, true, true]), /all three orders/);
  assert.match(CO.summary([false, true, false]), /Inconsistent/);
});

test('compare: a state from a URL', () => {
  assert.equal(CO.channelsFrom({ n: 1 }), null);
  assert.equal(CO.channelsFrom({ n: 2, A: { source: { kind: 'custom' }, cells: [['1']] }, B: { source: { kind: 'custom' }, cells: [['1'], ['1']] } }), null);
  const ok = CO.channelsFrom({ n: 2, A: { source: { kind: 'family', family: 'exponential', eps: 1 } }, B: { source: { kind: 'custom' }, cells: [['1', 0], ['0', '1']] } });
  assert.equal(ok.ch.A.source.eps, '1');
  assert.deepEqual(ok.ch.B.cells, [['1', '0'], ['0', '1']]);
  const s = CO.createState(2);
  s.ch.A.exact[0][0] = 0.123456789;
  assert.equal(CO.channelState(s.ch.A).cells[0][0], '0.123456789', 'full precision in a link');
});

// ---------------------------------------------------------------- infopriv section

test('compare: the prior of “how much more can B leak”, and its gain’s guesses', () => {
  assert.deepEqual(CO.parsePrior('', 2), { value: [0.5, 0.5], uniform: true });
  assert.deepEqual(CO.parsePrior('uniform', 4).value, [0.25, 0.25, 0.25, 0.25]);
  assert.deepEqual(CO.parsePrior('1/2, 0.25, 1/4', 3), { value: [0.5, 0.25, 0.25], uniform: false });
  assert.match(CO.parsePrior('1/2 1/2', 3).error, /2 entries for 3 secrets/);
  assert.match(CO.parsePrior('0.5 0.6', 2).error, /sum to 1\.1, expected 1/);
  assert.match(CO.parsePrior('−0.5 1.5', 2).error, /negative/);
  // B = A·R, a post-processing: B can leak nothing more (the supremum is 0, Mathematics §8).
  const A = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]];
  const R = [[1, 0], [0.5, 0.5], [0, 1]];
  const B = multiply(A, R);
  close(run(CO.additiveMetricCall([1 / 3, 1 / 3, 1 / 3], A, B)).value, 0, 'post-processing', 1e-9);
  // The other way round, and the gain's rows: one guess per output of each channel, then w⊥;
  // the two vulnerabilities it reports are those of that gain, recomputed here.
  const prior = [0.5, 0.3, 0.2];
  const r = run(CO.additiveMetricCall(prior, B, A));
  assert.ok(r.value > 0);
  assert.deepEqual(CO.leakGainLabels(2, 3), ['w(y0)', 'w(y1)', 'w(z0)', 'w(z1)', 'w(z2)', 'w⊥']);
  assert.equal(r.gain.rows, CO.leakGainLabels(2, 3).length);
  close(postGVuln(r.gain, prior, B), r.vulnerabilityA, 'V_g[π▷B] (the first channel)', 1e-9);
  close(postGVuln(r.gain, prior, A), r.vulnerabilityB, 'V_g[π▷A] (the second channel)', 1e-9);
  close(r.vulnerabilityB - r.vulnerabilityA, r.value, 'the supremum is attained', 1e-9);
});

test('compare: distances between two rows, against formulas written here', () => {
  const A = [[0.5, 0.3, 0.2, 0], [0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]];
  const B = [[0.6, 0.4], [0.3, 0.7], [0.5, 0.5]];
  const plan = CD.distancePlan({ x: '0', x2: '1', metric: 'line', width: '2' }, { A, B });
  assert.equal(plan.x, 0);
  assert.equal(plan.x2, 1);
  const [DA, DB] = plan.metricCalls.map((c) => rows(run(c)));
  assert.deepEqual(DA[0], [0, 1, 2, 3]);
  const tv = (P, Q) => P.reduce((s, p, i) => s + Math.abs(p - Q[i]), 0) / 2;
  // On a line, the Kantorovich distance is the L1 distance of the cumulative distributions.
  const cdfL1 = (P, Q) => { let a = 0; let b = 0; let s = 0; for (let i = 0; i < P.length - 1; i++) { a += P[i]; b += Q[i]; s += Math.abs(a - b); } return s; };
  const tvx = (P, Q) => Math.max(...P.map((p, i) => (p === 0 && Q[i] === 0 ? 0 : Math.abs(Math.log(p) - Math.log(Q[i])))));
  const q = (a, b) => Math.max(...a.map((v, i) => (v > 0 ? 1 - b[i] / v : -Infinity)));
  for (const [M, D, K] of [[A, DA, 'A'], [B, DB, 'B']]) {
    const out = CD.distanceCalls(M, 0, 1, D).map(run);
    const [P, Q] = [M[0], M[1]];
    close(out[0], tv(P, Q), `${K} total variation`);
    if (tvx(P, Q) === Infinity) assert.equal(out[1], Infinity, `${K} multiplicative total variation`);
    else close(out[1], tvx(P, Q), `${K} multiplicative total variation`);
    close(out[2], Math.max(q(P, Q), q(Q, P)), `${K} convex separation`);
    close(out[3], cdfL1(P, Q), `${K} Kantorovich on a line`, 1e-9);
    assert.ok(out[4] >= 0, `${K} multiplicative Kantorovich`);
  }
  assert.equal(run(CD.distanceCalls(A, 0, 1, DA)[1]), Infinity, 'A(0, 3) = 0 < A(1, 3): infinitely apart');
  // Discrete ground metric: Kantorovich = total variation.
  const disc = CD.distancePlan({ x: '1', x2: '2', metric: 'discrete', width: '' }, { A, B });
  const Dd = rows(run(disc.metricCalls[0]));
  close(run(CD.distanceCalls(A, 1, 2, Dd)[3]), tv(A[1], A[2]), 'discrete Kantorovich', 1e-9);
  // A grid: A's 4 outputs fill width 2; B's 2 outputs fill width 2 too; width 3 fits neither.
  const grid = CD.distancePlan({ x: '0', x2: '2', metric: 'gridManhattan', width: '2' }, { A, B });
  assert.deepEqual(grid.metricCalls.map((c) => c.args), [[2, 2], [2, 1]]);
  assert.match(CD.distancePlan({ x: '0', x2: '2', metric: 'gridEuclidean', width: '3' }, { A, B }).error, /Channel A: 4 outputs do not fill a grid of width 3/);
  assert.equal(CD.distancePlan({ x: '3', x2: '0', metric: 'line', width: '' }, { A, B }).field, 'x');
  assert.deepEqual(CD.distFrom({ x: 1, metric: 'evil', width: '<b>' }), { ...CO.DEFAULT_DIST, x: '1', width: '<b>' });
});

test('infopriv: reading the inputs and the call plans', () => {
  const s = IP.createState();
  const r = IP.readSpec(s);
  assert.deepEqual(r.spec.table, [0, 1, 1, 2, 1, 2, 2, 3], 'count of ones over 3 binary records');
  assert.equal(r.info, '8 tuples → 4 answers (0 … 3); 3 individuals.');
  assert.deepEqual(IP.noiseCall(r.spec), { ns: 'mechanism', fn: 'randomizedResponse', args: [4, 1] });
  close(IP.readSpec({ ...s, epsilon: 'ln 2 / 5' }).epsilon, Math.LN2 / 5, 'ε in the one grammar');
  assert.match(IP.readSpec({ ...s, epsilon: '0' }).epsError, /ε must be > 0/);
  assert.match(IP.readSpec({ ...s, noise: 'bsc' }).noiseError, /exactly 2 answers; this query has 4/);
  const custom = IP.readSpec({ ...s, query: 'custom', custom: ['0', '1', 'x', '1', '40', '1', '1', '1'] });
  assert.equal(custom.spec, null);
  assert.deepEqual(custom.tableErrors, [[2, 'a whole number ≥ 0'], [4, `at most ${IP.MAX_ANSWER}`]]);
  assert.match(custom.tableMessage, /^Tuple \(0, 1, 0\): a whole number ≥ 0 \(and 1 more\)/);
  const none = IP.readSpec({ ...s, noise: 'none' }).spec;
  assert.deepEqual(none.noise, IP.identity(4));
  assert.equal(IP.noiseCall(none), null);
  const cur = { domains: [2, 2], C: { rows: 4, cols: 2, data: new Float64Array(8) }, graph: { n: 4, edges: [] } };
  const heavy = IP.heavyPlan(cur, 0.1, 11);
  assert.deepEqual(heavy.map((c) => c.fn), ['individualEpsilon', 'individualCapacity', 'deltaCurve', 'epsilonForDelta']);
  assert.equal(heavy[1].args[0].onProgress, reportToJob);
  assert.equal(IP.heavyPlan(cur, null, 11).length, 3, 'no ε for an invalid δ');
  assert.equal(IP.channelPlan(r.spec, [[1]], true).length, 1, 'a known record graph is not asked again');
});

test('infopriv: situations and a state from a URL', () => {
  const s = IP.sanitizeState({ domains: [2, 3, 9], query: 'custom', custom: ['1'], noise: 'evil', epsilon: 2, situation: 'custom', individual: 1, others: [5, -1] });
  assert.deepEqual(s.domains, [2, 2, 2], 'a value count out of range: the defaults');
  assert.equal(s.query, 'custom');
  assert.deepEqual(s.custom, IP.builtinTable('count', [2, 2, 2]).map(String), 'a table of the wrong length: the count');
  assert.equal(s.noise, 'rr');
  assert.equal(s.epsilon, '2');
  assert.deepEqual(IP.situation(s, null), { individual: 1, others: [1, 0] }, 'values clamped to the domains');
  assert.deepEqual(IP.situation({ ...s, situation: 'capacity' }, { cap: { individual: 2, others: [0, 1] } }), { individual: 2, others: [0, 1] });
  const url = IP.stateForURL(s, { p: '0.1' });
  assert.deepEqual(url.others, [5, 0]);
  assert.deepEqual(url.channels, { p: '0.1' });
});

test('channel: exports give an exact result as that number, not as the engine’s rounding of it', () => {
  // The password checker at the uniform prior on 8 secrets is deterministic with 4 outputs, so
  // V[π▷C] = Σ_y max_x π(x)C(x,y) = 4·(1/8) = 1/2, the multiplicative Bayes leakage is
  // (1/2)/(1/8) = 4 and the multiplicative Bayes capacity Σ_y max_x C(x,y) = 4 (by hand).
  const s = CH.createState('password-iterations');
  assert.equal(s.secrets.length, 8);
  const plan = CP.panelPlan(CP.panelInputs(validateInputs(s), { exact: CP.exactInputs(s) }), {});
  const got = {};
  for (const p of Object.values(plan)) if (p.exact) Object.assign(got, exactResults(p.exact, p.exact.calls.map(settle)));
  assert.deepEqual(got.posteriorBayesVulnerability, { ok: true, value: '1/2' });
  assert.deepEqual(got.multiplicativeBayesLeakage, { ok: true, value: '4' });
  assert.deepEqual(got.multiplicativeBayesCapacity, { ok: true, value: '4' });
  // A decimal one ulp off is written as the exact value's double; without one it stays as it is.
  const shown = {
    multiplicativeBayesLeakage: { ok: true, value: 3.9999999999999996 },
    posteriorBayesVulnerability: { ok: true, value: 0.5000000000000001 },
    shannonEntropy: { ok: true, value: 2.9999999999999996 },
  };
  const exact = { multiplicativeBayesLeakage: got.multiplicativeBayesLeakage.value, posteriorBayesVulnerability: got.posteriorBayesVulnerability.value };
  const rows = CP.resultsOf(shown, { measures: MEASURES, exact }).measures;
  const byKey = Object.fromEntries(rows.map((r) => [r.key, [r.value, r.exact]]));
  assert.deepEqual(byKey.multiplicativeBayesLeakage, [4, '4']);
  assert.deepEqual(byKey.posteriorBayesVulnerability, [0.5, '1/2']);
  assert.deepEqual(byKey.shannonEntropy, [2.9999999999999996, ''], 'the exact mode has no entropies');
});

// ---------------------------------------------------------------- location privacy section

test('geo: densities, the product mechanism, the expected distance and the auto-run rule', async () => {
  const GEO = await import('../../web/sections/geo/state.js');
  for (const d of GEO.DENSITIES) {
    const p = GEO.densityPrior(d.id, 7);
    assert.equal(p.length, 49);
    close(p.reduce((a, b) => a + b, 0), 1, `${d.id} sums to 1`);
    assert.ok(p.every((x) => x > 0), `${d.id}: every cell possible`);
  }
  const u = GEO.densityPrior('uniform', 3);
  for (const x of u) close(x, 1 / 9, 'uniform');
  // The centre preset peaks at the centre cell.
  assert.equal(GEO.densest(GEO.densityPrior('centre', 5)), 12);
  // Product of two 2×2 channels: K[(x,y)][(x′,y′)] = A[x][x′]·B[y][y′], cells row-major.
  const A = [[0.9, 0.1], [0.2, 0.8]];
  const B = [[0.6, 0.4], [0.3, 0.7]];
  const K = GEO.productMechanism(A, B);
  close(K[1][2], A[1][0] * B[0][1], 'K[(1,0)][(0,1)]');
  close(K[3][3], 0.8 * 0.7, 'K[(1,1)][(1,1)]');
  for (const r of K) close(r.reduce((a, b) => a + b, 0), 1, 'rows of K');
  // Expected distance by hand: identity → 0; always report cell 0 on a 2 × 1 map → π_1·1.
  const D = [[0, 1], [1, 0]];
  close(GEO.expectedDistance([0.3, 0.7], [[1, 0], [0, 1]], D), 0, 'identity');
  close(GEO.expectedDistance([0.3, 0.7], [[1, 0], [1, 0]], D), 0.7, 'constant');
  assert.equal(GEO.autoRun(49, null), true);
  assert.equal(GEO.autoRun(64, null), false);
  assert.equal(GEO.autoRun(64, 1.1), true);
  assert.equal(GEO.autoRun(64, 1.05), false);
  assert.equal(GEO.autoRun(64, 2), true);
  assert.equal(GEO.autoRun(100, 1.1), true, '10 × 10 with δ = 1.1 by itself');
  assert.equal(GEO.autoRun(121, 1.1), false, '11 × 11 waits');
  assert.equal(GEO.autoRun(64, null), false);
  // Large maps: a spanner unless one is typed; the other mechanisms wait above 16 × 16.
  assert.deepEqual(GEO.effectiveSpanner(16, null), { value: null, defaulted: false });
  assert.deepEqual(GEO.effectiveSpanner(17, null), { value: 1.1, defaulted: true });
  assert.deepEqual(GEO.effectiveSpanner(32, 1.5), { value: 1.5, defaulted: false });
  assert.ok(GEO.autoOthers(16) && !GEO.autoOthers(17));
  // A report of a loss program is in the loss's units: value 2, bound 1.5, gap 0.5.
  assert.deepEqual(GEO.lossProgress({ iteration: 7, objective: 2, bound: 1.5 }), { pivots: 7, value: 2, bound: 1.5, gap: 0.5 });
  assert.ok(Number.isNaN(GEO.lossProgress({ iteration: 1, objective: 2, bound: -Infinity }).gap), 'no bound yet: no gap');
  // The progress shown never goes back: a phase whose count restarts adds to the previous one,
  // a worse mechanism held after the phase change and a weaker bound do not replace the best.
  const track = GEO.progressTrack();
  const seen = [
    { iteration: 10, objective: 3, bound: -Infinity, phase: 'output generation' },
    { iteration: 40, objective: 2.5, bound: 1.9, phase: 'output generation' },
    { iteration: 60, objective: 2.2, bound: 2.0, phase: 'output generation' },
    { iteration: 5, objective: 2.9, bound: 1.95, phase: 'decomposition' },
    { iteration: 30, objective: 2.1, bound: 2.05, phase: 'decomposition' },
  ].map((p) => track.add(p));
  assert.deepEqual(seen.map((q) => q.pivots), [10, 40, 60, 65, 90]);
  assert.deepEqual(seen.map((q) => q.value), [3, 2.5, 2.2, 2.2, 2.1]);
  assert.ok(Number.isNaN(seen[0].bound) && Number.isNaN(seen[0].gap), 'no bound yet');
  assert.deepEqual(seen.slice(1).map((q) => q.bound), [1.9, 2.0, 2.0, 2.05]);
  for (let i = 2; i < seen.length; i++) assert.ok(seen[i].gap <= seen[i - 1].gap + 1e-15, `gap ${i} never rises`);
  close(seen[4].gap, 2.1 - 2.05, 'gap of the best found');
  // Per cent more, of the optimum's distance: 2.251 against 1.474 is 52.7 % more (by hand:
  // 0.777 / 1.474 = 0.52714…), not 34.5 % (0.777 / 2.251, the other's distance).
  close(GEO.percentMore(2.251, 1.474), 52.7137, 'per cent more', 1e-6);
  assert.equal(GEO.percentMore(1.474, 1.474), 0);
  assert.ok(Number.isNaN(GEO.percentMore(1, 0)), 'no base');
  // Input.
  assert.ok('error' in GEO.parseSide('1') && 'error' in GEO.parseSide('33') && GEO.parseSide('32').value === 32);
  assert.ok('error' in GEO.parseGeoEpsilon('0') && 'error' in GEO.parseGeoEpsilon('701'));
  close(GEO.parseGeoEpsilon('ln 2').value, Math.LN2, 'ε = ln 2');
  assert.deepEqual(GEO.parseSpanner(' '), { value: null });
  assert.ok('error' in GEO.parseSpanner('0.99') && 'error' in GEO.parseSpanner('Infinity'));
  assert.deepEqual(GEO.sanitizeState({ side: 9, density: 'nowhere', cell: -1, extra: 1 }), { ...GEO.DEFAULT_STATE, side: '9' });
});

test('geo: the calibration finds the largest ε′ whose exponential mechanism meets ε (engine)', async () => {
  const GEO = await import('../../web/sections/geo/state.js');
  const D = rows(qif.metric.gridEuclidean(4, 4));
  const eps = 0.7;
  const f = (x) => qif.privacy.dPrivacyEpsilon(qif.mechanism.exponentialMetric(D, x), D) - eps;
  let lo = { x: eps, f: f(eps) };
  assert.ok(lo.f < 0, 'ε′ = ε meets the target with room to spare');
  let hi = null;
  let steps = 0;
  for (let x; (x = GEO.nextCalibration(lo, hi, eps)) !== null && steps < 60; steps++) {
    const t = { x, f: f(x) };
    if (t.f <= 0) lo = t; else hi = t;
  }
  assert.ok(steps < 60, `converged in ${steps} steps`);
  assert.ok(lo.f <= 0 && -lo.f <= GEO.CALIBRATION_TOL * eps, `ε of the result ${lo.f + eps} within the tolerance of ${eps}`);
  // The result is the largest: a slightly larger ε′ breaks the target.
  assert.ok(f(lo.x * (1 + 1e-3)) > 0, 'just above ε′ the target fails');
});

test('channel validation: a block scanned where it was read (the data worker) checks as one scanned here', async () => {
  const { readMatrix } = await import('../../web/input/grid.js');
  const { scanRows } = await import('../../web/input/matrix.js');
  // Short rows (filled with 0), a word, a negative entry, an entry above 1, a row summing to 0.9.
  const text = '0.5,0.5,0\n0.25,abc,0.75\n-0.1,0.6,0.5\n1.5\n0.4,0.5\n1\n';
  const loaded = (scan) => {
    const b = readMatrix(text);
    assert.ok(!('error' in b), b.error);
    if (scan) b.scan = scanRows(b.data, b.rows, b.cols, b.lengths);
    const s = CH.createState();
    CH.loadBlock(s, b);
    return s;
  };
  const worker = loaded(true);
  assert.equal(worker.cells.scan?.version, worker.cells.version, 'the scan is adopted');
  const a = validateInputs(worker);
  const b = validateInputs(loaded(false));
  assert.deepEqual(a.messages, b.messages);
  assert.deepEqual([...a.cell], [...b.cell]);
  assert.deepEqual(a.row, b.row);
  assert.deepEqual(a.rowSums, b.rowSums);
  // Expected from the text itself: rows 2 (a word) and 3 (negative) have bad cells; row 4 has 1.5;
  // rows 5 and 6 are short (0.9 and 1).
  assert.deepEqual([...a.cell.keys()], ['c:1:1', 'c:2:0', 'c:3:0']);
  assert.ok(Number.isNaN(a.rowSums[1]));
  assert.equal(a.rowSums[4], 0.9);
  assert.equal(a.row[5], null);
  assert.match(a.row[4], /sums to 0\.9, expected 1/);
  assert.equal(a.channel, null);
  // An edit makes the scan stale: the values are scanned again.
  worker.cells.set(4, 2, '0.1');
  const c = validateInputs(worker);
  assert.equal(c.row[4], null);
  assert.equal(c.rowSums[4], 0.4 + 0.5 + 0.1);
});
