// The sections' pure modules (web/sections/<name>/state.js and web/mechanism-plan.js) in Node:
// state edits, pastes, validation, the call plans each stage sends to the engine, and the
// checks of a state from a URL. Where a plan's calls are run, they run in the real engine
// (web/qif.js) and the results are checked against independent formulas written here.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { reportToJob } from '../../web/client.js';
import * as CH from '../../web/sections/channel/state.js';
import { validateInputs } from '../../web/sections/channel/validate.js';
import * as ME from '../../web/sections/mechanism/state.js';
import * as CO from '../../web/sections/compare/state.js';
import * as IP from '../../web/sections/infopriv/state.js';
import { mechanismCall, matrixOf, WIDGET_MECHANISMS, edgeSpan, stepEpsilon, scalingText } from '../../web/mechanism-plan.js';
import { MEASURES } from '../../web/measures.js';

let qif;
before(async () => { qif = await load(); });

const close = (a, b, what, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const rows = (M) => Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols)));
// The engine's call, made directly.
const run = (c) => qif[c.ns][c.fn](...c.args);

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
  assert.deepEqual(r, { ok: true, decimalComma: true }, 'read with decimal commas, and said so');
  assert.deepEqual(s.secrets, ['s1', 's2', 's3', 's4', 's5']);
  assert.deepEqual(s.observables.slice(0, 3), ['A', 'B', 'C']);
  assert.deepEqual(s.cells.toTexts()[1].slice(0, 3), ['0.5', '0.25', '0.25']);
  assert.deepEqual(s.prior, new Array(5).fill('1/5'));
  // The old fourth column keeps its cells (0 for the new rows).
  assert.equal(s.observables.length, 4);
  // The prior column, pasted downwards (a column copied from a spreadsheet with decimal commas
  // cannot be told from two whole numbers per line: refused, and said why).
  assert.match(CH.pasteIntoChannel(s, 1, -1, '0,2\n0,3\n').error, /decimal comma/);
  assert.deepEqual(CH.pasteIntoChannel(s, 1, -1, '0.2\n0.3\n'), { ok: true, decimalComma: false });
  assert.deepEqual(s.prior.slice(0, 3), ['1/5', '0.2', '0.3']);
  assert.equal(s.priorUniform, false);
  // What can only be a decimal comma split in two is refused, never pasted wrong.
  assert.match(CH.pasteIntoChannel(s, 0, 0, '0,05,0,95\n1,0').error, /decimal comma/);
  assert.match(CH.pasteLabels(s, 'row', 0, 'one').error, /one label/);
  assert.deepEqual(CH.pasteLabels(s, 'col', 0, 'P\tQ\tR\tS\tT'), { ok: true });
  assert.deepEqual(s.observables, ['P', 'Q', 'R', 'S', 'T']);
  assert.equal(s.cells.cols, 5);
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
  const first = CH.panelPlan(CH.panelInputs(validateInputs(s)), {});
  for (const [name, p] of Object.entries(first)) assert.equal(p.action, 'run', name);
  const cap = first.capacity.calls[0];
  assert.equal(cap.fn, 'shannonCapacity');
  assert.equal(cap.args[1].tolerance, 1e-9);
  assert.equal(cap.args[1].onProgress, reportToJob, 'the capacity reports progress to its job');
  const last = Object.fromEntries(Object.entries(first).map(([k, p]) => [k, p.sig]));
  // α changes: only the Rényi panel runs again.
  s.alpha = '3';
  const second = CH.panelPlan(CH.panelInputs(validateInputs(s)), last);
  assert.deepEqual(Object.entries(second).filter(([, p]) => p.action === 'run').map(([k]) => k), ['renyi']);
  // 0.5 retyped as 1/2: the same inputs, nothing runs.
  s.alpha = '2';
  s.cells.set(0, 0, '0.5');
  const third = CH.panelPlan(CH.panelInputs(validateInputs(s)), last);
  assert.ok(Object.values(third).every((p) => p.action === 'same'));
  // A bad cell: the panels that need the channel are stale, the prior's are not.
  s.cells.set(0, 0, 'x');
  const fourth = CH.panelPlan(CH.panelInputs(validateInputs(s)), last);
  assert.equal(fourth.posterior.action, 'stale');
  assert.equal(fourth.capacity.action, 'stale');
  assert.equal(fourth.prior.action, 'same');
  // Each panel says which measures it fills, and together they fill every measure shown.
  const keys = Object.values(CH.PANEL_KEYS).flat();
  for (const k of Object.keys(MEASURES)) assert.ok(keys.includes(k), k);
});

test('channel: the plan’s calls run in the engine and resultsOf gives the data exports read', () => {
  const s = CH.createState('dcnet-fair');
  const plan = CH.panelPlan(CH.panelInputs(validateInputs(s)), {});
  const shown = {};
  for (const [name, p] of Object.entries(plan)) {
    const settled = p.calls.map((c) => {
      const args = c.args.map((a) => (a && typeof a === 'object' && 'onProgress' in a ? { ...a, onProgress: undefined } : a));
      try { return { ok: true, value: qif[c.ns][c.fn](...args) }; } catch (e) { return { ok: false, error: e.message }; }
    });
    Object.assign(shown, CH.derivePanel(name, settled));
  }
  const r = CH.resultsOf(shown, { measures: MEASURES, exact: { posteriorBayesVulnerability: '1/2' } });
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
  const labels = CH.posteriorLabels(shown.hyper.value, C, [0.25, 0.25, 0.25, 0.25], s.observables);
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
  // Each classic mechanism, built by the plan, is ε-DP on the graph (smallest ε ≤ target).
  for (const [g, name] of [[clique, 'clique'], [path, 'path'], [qif.graph.grid(3, 3), 'grid'], [qif.graph.petersen(), 'Petersen']]) {
    for (const key of ['tg', 'rr', 'exp']) {
      const H = matrixOf(key, run(mechanismCall(key, { graph: g, epsilon: 1 })));
      assert.ok(qif.privacy.epsilon(H, g) <= 1 + 1e-9, `${key} is 1-DP on the ${name}`);
    }
  }
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
  assert.deepEqual(ME.graphPlan({ ...base, kind: 'clique', n: '6' }), { base: { ns: 'graph', fn: 'clique', args: [6] } });
  assert.equal(ME.graphPlan({ ...base, kind: 'grid', w: '20', h: '20' }).field, 'h');
  assert.equal(ME.graphPlan({ ...base, kind: 'custom', cn: '4', edges: '0-1, 1' }).field, 'edges');
  assert.deepEqual(ME.graphPlan({ ...base, kind: 'custom', cn: '3', edges: '0-1 1-2' }).base, { literal: { n: 3, edges: [[0, 1], [1, 2]] } });
  assert.equal(ME.graphPlan({ ...base, kind: 'hamming', u: '12', v: '2' }).field, 'u');
  const induced = ME.graphPlan({ ...base, kind: 'induced', base: 'hamming', u: '3', v: '2', query: ME.countQuery(3, 2).join(', ') });
  assert.deepEqual(induced.query, [0, 1, 1, 2, 1, 2, 2, 3]);
  assert.equal(ME.graphPlan({ ...base, kind: 'induced', base: 'path', n: '4', query: '' }).field, 'query');

  const g = qif.graph.clique(6);
  const G = ME.graphStructure(g, rows(qif.graph.distances(g)), qif.graph.isDistanceRegular(g));
  assert.equal(G.diameter, 1);
  assert.equal(G.span, 5);
  const calls = ME.matricesPlan(G, Math.LN2);
  assert.deepEqual(calls.map((c) => c.fn), ['utilityBound', 'optimalDetail', 'truncatedGeometric', 'randomizedResponse', 'exponential']);
  close(calls[2].args[1], Math.LN2 / 5, 'page: truncated geometric at ε/5 on the clique');
  const settled = calls.map((c) => ({ ok: true, value: run(c) }));
  const m = ME.readMatrices(settled);
  close(m.bound.value.bound, 2 / 7, 'Theorem 6.1 on K6 at ln 2');
  const cur = { G, eps: Math.LN2, prior: new Array(6).fill(1 / 6), score: null, scoreError: undefined, loss: false };
  const up = ME.utilitiesPlan(G, m.matrices, cur);
  assert.equal(up.calls.length, 8, 'ε and utility of four mechanisms');
  const out = up.calls.map(run);
  close(out[up.at.rr.util], 2 / 7, 'randomized response reaches the bound on the clique');
  close(out[up.at.tg.eps], Math.LN2, 'M1 is exactly ln 2-DP on the clique', 1e-9);
  const sweep = ME.sweepPlan(cur, [0.5, 1], ME.sweepMatricesPlan(G, [0.5, 1]).map((c) => ({ ok: true, value: run(c) })), { withLP: true, timeLimit: 1000 });
  assert.equal(sweep.calls.length, 2 * 6, 'per ε: the optimum, four utilities, the bound');
  assert.deepEqual(sweep.layout.slice(0, 6).map(([, k]) => k), ['lp', 'thm62', 'tg', 'rr', 'exp', 'bound']);
  const db = ME.dbPlan({ u: '1e9', v: '2', epsilon: 'ln 2' });
  assert.equal(db.calls.length, 3);
  assert.match(ME.dbPlan({ u: '0', v: '2', epsilon: '1' }).u.error, /at least 1/);
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

test('compare: family and verdict plans', () => {
  const ok = CO.familyPlan({ kind: 'family', family: 'exponential', eps: 'ln 2', m: '' }, 4);
  assert.deepEqual(ok.calls.map((c) => c.fn), ['exponential', 'exponentialEpsilon']);
  close(ok.calls[0].args[1], Math.LN2, 'ε = ln 2');
  assert.equal(CO.familyPlan({ kind: 'family', family: 'randomizedResponse', eps: '0', m: '' }, 3).epsMsg, 'ε must be > 0');
  assert.match(CO.familyPlan({ kind: 'family', family: 'randomizedResponse', eps: 'log 2', m: '' }, 3).epsMsg, /ambiguous/);
  assert.equal(CO.familyPlan({ kind: 'family', family: 'randomizedResponse', eps: '1', m: '1.5' }, 3).mMsg, `an integer from 1 to ${CO.MAX_M}`);
  assert.equal(CO.familyPlan({ kind: 'family', family: 'overTruncatedGeometric', eps: '1', m: '3' }, 3).mMsg, 'fewer than n = 3');
  // B = A·R is a post-processing of A: ⊑avg holds; the counterexample's vulnerabilities of the
  // other direction agree with postGVuln.
  const A = [[0.8, 0.2], [0.3, 0.7]];
  const B = CO.multiply(A, [[0.9, 0.1], [0.4, 0.6]]);
  const calls = CO.verdictPlan(A, B);
  assert.deepEqual(calls.map((c) => c.fn), ['avg', 'max', 'prv', 'avg', 'max', 'prv']);
  const v = CO.readVerdicts(calls.map((c) => ({ ok: true, value: run(c) })));
  assert.deepEqual(v.forward.map((r) => r.value.holds), [true, true, true]);
  const back = v.reverse[0].value;
  assert.equal(back.holds, false);
  close(CO.postGVuln(back.counterexample.gain, Array.from(back.counterexample.prior), A), back.counterexample.vulnerabilityB, 'V_g[π▷A] recomputed', 1e-9);
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

test('channel: exports give an exact result as that number, not as the engine’s rounding of it', async () => {
  const { exactMeasures, exactText } = await import('../../web/format.js');
  const { presetById } = await import('../../web/presets.js');
  // The password checker at the uniform prior on 8 secrets: H(X) = log₂ 8 = 3 bits and, the
  // channel being deterministic with outputs of probability 1/2, 1/4, 1/8, 1/8,
  // I(X;Y) = H(1/2, 1/4, 1/8, 1/8) = 7/4 bits (closed forms, computed by hand).
  const s = CH.createState('password-iterations');
  assert.equal(s.secrets.length, presetById('password-iterations').secrets.length);
  const ex = exactMeasures(CH.exactInputs(s, 4096));
  assert.equal(String(ex.shannonEntropy), '3');
  assert.equal(String(ex.mutualInformation), '7/4');
  // The engine's value one ulp off is written as the exact one; a value that disagrees is not.
  const shown = { shannonEntropy: { ok: true, value: 2.9999999999999996 }, mutualInformation: { ok: true, value: 1.7500000000000002 } };
  const exact = { shannonEntropy: exactText(ex.shannonEntropy, 2.9999999999999996), mutualInformation: exactText(ex.mutualInformation, 1.7500000000000002) };
  const rows = CH.resultsOf(shown, { measures: MEASURES, exact }).measures;
  assert.deepEqual(rows.map((r) => [r.key, r.value, r.exact]), [['shannonEntropy', 3, '3'], ['mutualInformation', 1.75, '7/4']]);
  assert.equal(exactText(ex.shannonEntropy, 2.9), '', 'an exact value that disagrees with the engine is not used');
  // Entropies of distributions that are not powers of two have no exact value.
  const t = CH.createState('password-iterations');
  t.prior = ['1/3', '1/3', '1/3', '0', '0', '0', '0', '0'];
  t.priorUniform = false;
  assert.equal(exactMeasures(CH.exactInputs(t, 4096))?.shannonEntropy, undefined);
});
