// The "Compare two mechanisms" section's controller (web/sections/compare/controller.js) without a
// browser: the toolkit loaded in Node stands in for the page's worker (in-process-engine.mjs).
// Expectations are computed here, independently of the engine: the verdicts each example pair
// states (Chatzikokolakis, Fernandes, Palamidessi, "Comparing systems: max-case refinement orders
// and application to differential privacy", CSF 2019), ⊑prv from the induced metric
// d_C(x, x′) = max_y |ln C[x][y] − ln C[x′][y]| computed here, a ⊑avg witness R checked by the
// product A·R = B, a counterexample gain function re-evaluated here (V_g[π▷B] > V_g[π▷A]), and the
// additive leakage bound re-evaluated with the gain function it returns.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { createCompareController, DEFAULT_EXAMPLE } from '../../web/sections/compare/controller.js';
import { EXAMPLES } from '../../web/sections/compare/presets.js';
import { createCurvesController, sweep } from '../../web/sections/compare/curves-controller.js';
import { createPipeline } from '../../web/engine/pipeline.js';
import { inProcessEngine, idle, until } from './in-process-engine.mjs';

let qif;
before(async () => { qif = await load(); });

const timing = { debounceMs: 5, progressAfterMs: 5 };
const rowsOf = (M) => (Array.isArray(M) ? M.map((r) => Array.from(r)) : Array.from({ length: M.rows }, (_, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols))));
const mul = (A, R) => A.map((r) => R[0].map((_, j) => r.reduce((s, a, k) => s + a * R[k][j], 0)));
/** The metric a channel induces on its secrets: max over outputs of |ln C[x][y] − ln C[x′][y]|. */
function induced(C, x, x2) {
  let d = 0;
  C[x].forEach((p, y) => {
    const q = C[x2][y];
    if (p === 0 && q === 0) return;
    d = Math.max(d, p === 0 || q === 0 ? Infinity : Math.abs(Math.log(p) - Math.log(q)));
  });
  return d;
}
/** A ⊑prv B: B distinguishes no pair of secrets more than A does. */
function prvHolds(A, B) {
  for (let x = 0; x < A.length; x++) for (let x2 = x + 1; x2 < A.length; x2++) {
    const dA = induced(A, x, x2);
    const dB = induced(B, x, x2);
    if (dB > dA * (1 + 1e-9) + 1e-9) return false;
  }
  return true;
}
/** V_g[π▷C] = Σ_y max_w Σ_x π_x C[x][y] g[w][x] (g: rows guesses, columns secrets). */
function postVulnerability(g, prior, C) {
  let v = 0;
  for (let y = 0; y < C[0].length; y++) v += Math.max(...g.map((gw) => gw.reduce((s, gx, x) => s + prior[x] * C[x][y] * gx, 0)));
  return v;
}
const holds = (r) => (r.ok ? r.value.holds : null);

function controller(options = {}) {
  const { engine, log } = inProcessEngine(qif, options);
  return { ctl: createCompareController({ engine, timing, onError: (e) => { throw e; }, random: options.random }), log };
}
// A seeded generator (mulberry32), for Random and A·random R.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// What each example pair says of A ⊑ B, in the orders avg, max, prv (its description and source).
const STATED = {
  'swapped-rows': { forward: [false, false, true], reverse: [false, false, true] },
  'same-posteriors': { forward: [false, true, true], reverse: [true, true, true] },
  'post-processing': { forward: [true, true, true] },
  'over-truncated': { forward: [false, false, true] },
  'geometric-decreasing': { forward: [true, true, true] },
  'rr-vs-exponential': { forward: [false, false, false], reverse: [false, false, false] },
  'geometric-vs-rr': { forward: [false, false, null] },
};

test('compare controller: every example pair, its verdicts as stated and checked here', async () => {
  const { ctl } = controller();
  assert.deepEqual(Object.keys(STATED).sort(), EXAMPLES.map((e) => e.id).sort(), 'every example has its statement here');
  for (const ex of EXAMPLES) {
    const s = await idle(ctl, () => ctl.loadExample(ex.id));
    assert.deepEqual(s.example, { id: ex.id, text: ex.description });
    assert.equal(s.decision.status, 'done', ex.id);
    const A = s.checked.A.matrix;
    const B = s.checked.B.matrix;
    assert.equal(A.length, ex.n);
    const v = s.verdicts;
    const fwd = v.forward.map(holds);
    const rev = v.reverse.map(holds);
    const stated = STATED[ex.id];
    stated.forward.forEach((h, k) => { if (h !== null) assert.equal(fwd[k], h, `${ex.id}: order ${k} forward`); });
    stated.reverse?.forEach((h, k) => assert.equal(rev[k], h, `${ex.id}: order ${k} reverse`));
    // ⊑avg ⇒ ⊑max ⇒ ⊑prv, both ways.
    for (const f of [fwd, rev]) assert.ok((!f[0] || f[1]) && (!f[1] || f[2]), `${ex.id}: the implication chain`);
    assert.equal(fwd[2], prvHolds(A, B), `${ex.id}: ⊑prv from the induced metrics`);
    assert.equal(rev[2], prvHolds(B, A), `${ex.id}: ⊒prv from the induced metrics`);
    const avg = v.forward[0].value;
    if (avg.holds) {
      const AR = mul(A, rowsOf(avg.witness));
      AR.forEach((r, i) => r.forEach((x, j) => assert.ok(Math.abs(x - B[i][j]) < 1e-6, `${ex.id}: (A·R)[${i}][${j}] = ${x}, B has ${B[i][j]}`)));
    } else {
      const g = rowsOf(avg.counterexample.gain);
      const p = Array.from(avg.counterexample.prior);
      assert.ok(postVulnerability(g, p, B) > postVulnerability(g, p, A) + 1e-9, `${ex.id}: the counterexample prefers B`);
    }
    assert.equal(v.summary, fwd[0] ? 'B is safe in place of A for all three orders: B is a post-processing of A.'
      : fwd[1] ? 'B is safe in place of A against max-case adversaries and for d-privacy, but not against every average-case adversary.'
        : fwd[2] ? 'B is safe in place of A only for d-privacy: some max-case (and average-case) adversary prefers B.'
          : 'B is not safe in place of A under any of the three orders.');
    const r = ctl.getResults();
    assert.deepEqual(Object.keys(r.verdicts), ['avg', 'max', 'prv']);
    assert.equal(r.verdicts.prv.forward.value.holds, fwd[2]);
  }
  assert.equal(DEFAULT_EXAMPLE, 'geometric-vs-rr');
});

test('compare controller: edits, invalid cells, rows and columns, Swap, a state round trip', async () => {
  const { ctl, log } = controller();
  await idle(ctl, () => ctl.loadExample('post-processing'));
  // A bad cell: a message for it, the row sum flagged, nothing decided.
  const calls = log.length;
  let s = await idle(ctl, () => ctl.setCell('A', 0, 0, '0.5x'));
  assert.deepEqual(s.example, { id: '', text: 'Edited. Choose an example pair to start again.' });
  assert.ok(s.checked.A.cell.get('0:0'), 'the cell has a message');
  assert.equal(s.decision.status, 'invalid');
  assert.equal(s.decision.message, 'Fix the highlighted entries of the channels first.');
  assert.equal(s.leak.status, 'invalid');
  assert.ok(!log.slice(calls).some((c) => c.startsWith('refine.')), 'no verdict asked of the engine');
  s = await idle(ctl, () => ctl.setCell('A', 0, 0, '0.6'));
  assert.ok(s.checked.A.row[0], 'a row summing to 0.9 is flagged');
  s = await idle(ctl, () => ctl.setCell('A', 0, 0, '7/10'));
  assert.equal(s.decision.status, 'done');
  assert.deepEqual(s.verdicts.forward.map(holds), [true, true, true]);
  // A secret added to both, an output to one, then removed.
  s = await idle(ctl, () => ctl.addRow());
  assert.deepEqual([ctl.model.n, s.checked.A.matrix.length, s.checked.B.matrix.length], [4, 4, 4]);
  s = await idle(ctl, () => ctl.addCol('B'));
  assert.equal(s.checked.B.matrix[0].length, 3);
  s = await idle(ctl, () => { ctl.remove('B', 'remove-col', 2); ctl.remove('A', 'remove-row', 3); });
  assert.deepEqual([ctl.model.n, s.checked.B.matrix[0].length], [3, 2]);
  assert.deepEqual(s.verdicts.forward.map(holds), [true, true, true]);
  // Swap: the reverse verdicts become the forward ones.
  const before = s.verdicts;
  s = await idle(ctl, () => ctl.swap());
  assert.deepEqual(s.checked.A.matrix, before.B);
  assert.deepEqual(s.verdicts.forward.map(holds), before.reverse.map(holds));
  assert.deepEqual(s.verdicts.reverse.map(holds), before.forward.map(holds));
  // A state round trip, through JSON as a link carries it.
  const saved = JSON.parse(JSON.stringify(ctl.getState()));
  const other = controller().ctl;
  await idle(other, () => other.setState(saved));
  assert.equal(other.get().example.text, 'Restored from a link.');
  assert.deepEqual(other.get().checked.A.matrix, s.checked.A.matrix);
  assert.deepEqual(other.get().verdicts.forward.map(holds), s.verdicts.forward.map(holds));
  // A malformed state changes nothing.
  const n = other.model.n;
  other.setState({ n: 99, A: {}, B: {} });
  assert.equal(other.model.n, n);
  // A family pair round-trips as its family.
  await idle(ctl, () => ctl.loadExample('over-truncated'));
  const fam = controller().ctl;
  const st = ctl.getState();
  st.example = '';
  await idle(fam, () => fam.setState(st));
  assert.deepEqual(fam.getState().A, { source: { kind: 'family', family: 'overTruncatedGeometric', eps: '2', m: '3' } });
  assert.deepEqual(fam.get().checked.B.matrix, ctl.get().checked.B.matrix);
});

test('compare controller: families — ε typed, a bad ε named, the true ε of the exponential', async () => {
  const { ctl } = controller();
  await idle(ctl, () => ctl.loadExample('geometric-vs-rr'));
  let s = await idle(ctl, () => ctl.setParam('A', 'eps', 'abc'));
  assert.ok(s.familyMsgs.A.eps, 'the ε field says what is wrong');
  assert.match(s.genError.A, /^Channel A: fix the ε of the family\.$/);
  assert.equal(s.decision.status, 'invalid');
  s = await idle(ctl, () => ctl.setParam('A', 'eps', 'ln 3'));
  assert.equal(s.familyMsgs.A.eps, null);
  // The truncated geometric with α = e^(−ε) = 1/3 on 3 secrets: (1−α)/(1+α)·α^|x−y| inside,
  // α^|x−y|/(1+α) at the ends.
  const a = 1 / 3;
  const G = [0, 1, 2].map((x) => [0, 1, 2].map((y) => (y === 0 || y === 2 ? a ** Math.abs(x - y) / (1 + a) : ((1 - a) / (1 + a)) * a ** Math.abs(x - y))));
  s.checked.A.matrix.forEach((r, x) => r.forEach((c, y) => assert.ok(Math.abs(c - G[x][y]) < 1e-12, `A[${x}][${y}]`)));
  s = await idle(ctl, () => ctl.setFamily('B', 'exponential'));
  assert.equal(s.checked.B.messages.length, 0);
  assert.ok(Number.isFinite(s.trueEps.B) && s.trueEps.B > 0, 'the exponential family reports its true ε');
  assert.equal(s.trueEps.A, null);
  s = await idle(ctl, () => ctl.setFamily('B', 'custom'));
  assert.equal(ctl.model.ch.B.source.kind, 'custom');
  assert.equal(s.decision.status, 'done', 'the generated cells stay, now editable');
});

test('compare controller: Random and A · random R (seeded): B a post-processing of A', async () => {
  const { ctl } = controller({ random: seeded(7) });
  await idle(ctl, () => ctl.loadExample('swapped-rows'));
  let s = await idle(ctl, () => ctl.randomize('A'));
  const A = s.checked.A.matrix;
  A.forEach((r) => assert.ok(Math.abs(r.reduce((x, y) => x + y, 0) - 1) < 1e-12, 'a random row sums to 1'));
  s = await idle(ctl, () => ctl.postProcess());
  const B = s.checked.B.matrix;
  assert.deepEqual(s.verdicts.forward.map(holds), [true, true, true], 'A ⊑ A·R for every order');
  const R = rowsOf(s.verdicts.forward[0].value.witness);
  mul(A, R).forEach((r, i) => r.forEach((x, j) => assert.ok(Math.abs(x - B[i][j]) < 1e-6)));
  // A invalid: A · random R says why instead.
  s = await idle(ctl, () => ctl.setCell('A', 0, 0, ''));
  ctl.postProcess();
  assert.equal(ctl.get().notice.B, 'Channel A must be valid first.');
});

test('compare controller: a paste — a block placed, one value left to the browser, a bad block refused', async () => {
  const { ctl } = controller();
  await idle(ctl, () => ctl.loadExample('swapped-rows'));
  assert.equal(ctl.paste('A', 0, 0, '0.5'), false, 'one value: the browser’s own paste');
  let took;
  let s = await idle(ctl, () => { took = ctl.paste('B', 0, 0, '0.5\t0.5\n0.25\t0.75'); });
  assert.equal(took, true);
  assert.deepEqual(s.checked.B.matrix, [[0.5, 0.5], [0.25, 0.75]]);
  // Commas that may be decimal commas cannot be read either way: refused, and said why.
  assert.equal(ctl.paste('B', 0, 0, '0,05,0,95\n1,0'), true, 'a block of several lines the grid cannot read is refused by the section');
  assert.match(ctl.get().pasteError.B, /^Paste: .*decimal comma/);
  assert.deepEqual(ctl.get().checked.B.matrix, [[0.5, 0.5], [0.25, 0.75]], 'and the channel is left as it was');
  assert.equal(ctl.paste('B', 0, 0, '0,05,0,95'), false, 'on one line the cell itself says why');
});

test('compare controller: how much more B can leak, re-evaluated with its gain function', async () => {
  const { ctl } = controller();
  let s = await idle(ctl, () => ctl.loadExample('swapped-rows'));
  assert.equal(s.leak.status, 'done');
  let m = ctl.getResults().additiveMetric;
  const A = s.checked.A.matrix;
  const B = s.checked.B.matrix;
  const g = rowsOf(m.gain);
  const u = [0.5, 0.5];
  assert.ok(Math.abs(m.value - (postVulnerability(g, u, B) - postVulnerability(g, u, A))) < 1e-9, 'value = V_g[π▷B] − V_g[π▷A]');
  assert.ok(m.value > 1e-6, 'A ⋢avg B: B can leak more');
  g.forEach((r) => r.forEach((x) => assert.ok(x <= 1 + 1e-9)));
  s = await idle(ctl, () => ctl.setPrior('1/4, 3/4'));
  m = ctl.getResults().additiveMetric;
  assert.deepEqual(m.prior, [0.25, 0.75]);
  assert.ok(Math.abs(m.value - (postVulnerability(rowsOf(m.gain), [0.25, 0.75], B) - postVulnerability(rowsOf(m.gain), [0.25, 0.75], A))) < 1e-9);
  s = await idle(ctl, () => ctl.setPrior('1/2, 1/4'));
  assert.match(s.priorError, /sum to 0\.75/);
  assert.deepEqual(s.leak, { status: 'invalid', message: 'Fix the prior first.' });
  assert.equal(ctl.getResults().additiveMetric, null);
  // A post-processing leaks nothing more, for any prior.
  await idle(ctl, () => { ctl.setPrior('uniform'); ctl.loadExample('post-processing'); });
  assert.ok(Math.abs(ctl.getResults().additiveMetric.value) < 1e-7);
});

test('compare controller: deciding is shown when slow, and Cancel says how to decide again', async () => {
  let hold = true;
  const { ctl } = controller({ intercept: (c) => (hold && c.ns === 'refine' && c.fn === 'avg' ? new Promise(() => {}) : undefined) });
  ctl.loadExample('swapped-rows');
  await until(ctl, (s) => s.deciding);
  const s = await idle(ctl, () => ctl.cancelVerdicts());
  assert.equal(s.deciding, false);
  assert.deepEqual(s.decision, { status: 'cancelled', message: 'Cancelled — edit either channel to decide again.' });
  assert.equal(ctl.getResults().verdicts, null);
  hold = false;
  const t = await idle(ctl, () => ctl.setCell('A', 0, 0, '0.8'));
  assert.equal(t.decision.status, 'done');
});

test('compare controller: the ⊑prv meet and join, their induced metrics computed here', async () => {
  const { ctl } = controller();
  let s = await idle(ctl, () => ctl.loadExample('rr-vs-exponential'));
  const A = s.checked.A.matrix;
  const B = s.checked.B.matrix;
  const n = A.length;
  const pairs = [];
  for (let x = 0; x < n; x++) for (let x2 = 0; x2 < n; x2++) pairs.push([x, x2]);
  const dA = pairs.map(([x, x2]) => induced(A, x, x2));
  const dB = pairs.map(([x, x2]) => induced(B, x, x2));
  assert.equal(s.lattice.status, 'idle', 'nothing computed before it is asked for');
  s = await idle(ctl, () => ctl.computeLattice('prvMeet'));
  assert.equal(s.lattice.status, 'done');
  assert.equal(s.lattice.kind, 'prvMeet');
  const meet = s.lattice.rows;
  pairs.forEach(([x, x2], k) => {
    const want = Math.max(dA[k], dB[k]);
    assert.ok(Math.abs(induced(meet, x, x2) - want) <= 1e-6 * Math.max(1, want), `meet: d(${x}, ${x2}) = max(d_A, d_B)`);
  });
  // The join: the shortest-path closure of min(d_A, d_B) (Floyd–Warshall here).
  const d = Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, x2) => Math.min(dA[x * n + x2], dB[x * n + x2])));
  for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) d[i][j] = Math.min(d[i][j], d[i][k] + d[k][j]);
  s = await idle(ctl, () => ctl.computeLattice('prvJoin'));
  const join = s.lattice.rows;
  for (let x = 0; x < n; x++) for (let x2 = 0; x2 < n; x2++) {
    assert.ok(Math.abs(induced(join, x, x2) - d[x][x2]) <= 1e-6 * Math.max(1, d[x][x2]), `join: d(${x}, ${x2}) = ${induced(join, x, x2)}, closure ${d[x][x2]}`);
  }
  // Put in place of B, the join is safe in place of A for ⊑prv.
  s = await idle(ctl, () => ctl.useLattice('B'));
  assert.equal(s.checked.B.matrix.length, n);
  assert.equal(holds(s.verdicts.forward[2]), true, 'A ⊑prv A ⊔ B');
  assert.throws(() => ctl.computeLattice('meet'), /fn: expected 'prvMeet' or 'prvJoin'/);
  s = await idle(ctl, () => { ctl.setCell('A', 0, 0, 'x'); ctl.computeLattice('prvMeet'); });
  assert.deepEqual(s.lattice, { status: 'invalid', message: 'Both channels must be valid, on the same secrets.' });
});

test('safe-ε curves: randomized response refines itself on the diagonal, progress only grows, bad fields, Cancel', async () => {
  let hold = false;
  const { engine, log } = inProcessEngine(qif, { intercept: (c) => (hold && c.fn === 'safeEpsilonCurve' ? new Promise(() => {}) : undefined) });
  const pipe = createPipeline({ engine, timing, onError: (e) => { throw e; } });
  const c = createCurvesController({ pipe });
  assert.deepEqual(sweep(0.5, 2, 4), [0.5, 1, 1.5, 2]);
  c.setInputs({ family1: 'randomizedResponse', families2: ['randomizedResponse', 'truncatedGeometric'], order: 'avg', n: '3', from: '0.5', to: '2', points: '4' });
  assert.deepEqual(Object.values(c.get().errors), [null, null, null, null, null]);
  const seen = [];
  const statuses = [];
  c.subscribe((s, changed) => {
    if (changed.includes('progress')) seen.push(s.progress);
    if (changed.includes('status')) statuses.push(s.status);
  });
  c.run();
  const s = await until(c, (x) => x.status === 'done');
  assert.deepEqual(statuses.filter((x, i) => x !== statuses[i - 1]), ['running', 'idle', 'done']);
  assert.equal(s.running, false);
  assert.equal(s.text.startsWith('Done: 8 points, n = 3.'), true, s.text);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `progress ${seen}`);
  assert.equal(seen[seen.length - 1], 1);
  const rr = s.data.series.find((x) => x.family2 === 'randomizedResponse');
  assert.deepEqual(rr.points.map((p) => p[0]), [0.5, 1, 1.5, 2]);
  // Chatzikokolakis et al. (CSF 2019) Thm 13: RR(ε1) ⊑avg RR(ε2) exactly when ε2 ≤ ε1; the
  // bisection's resolution is ε1/1000.
  for (const [e1, e2] of rr.points) assert.ok(Math.abs(e2 - e1) <= 2e-3 * e1, `RR: ε2 ${e2} at ε1 ${e1}`);
  assert.deepEqual(c.getState().families2, ['randomizedResponse', 'truncatedGeometric']);
  // Bad fields: named, and nothing computed.
  c.setInputs({ from: '2', to: '1' });
  assert.equal(c.get().errors.to, 'must exceed “from”');
  c.setInputs({ families2: [], points: '99' });
  assert.equal(c.get().errors.families2, 'choose at least one family');
  assert.equal(c.get().errors.points, 'an integer from 2 to 60');
  const calls = log.length;
  await c.run();
  await until(c, (x) => x.text === 'Fix the highlighted inputs first.');
  assert.equal(log.length, calls);
  // Cancel a long computation: said, and Compute is offered again.
  c.setState({ ...c.getState(), from: '0.5', to: '1', points: '2', families2: ['exponential'] });
  assert.deepEqual(Object.values(c.get().errors), [null, null, null, null, null]);
  hold = true;
  c.run();
  await until(c, (x) => x.running);
  c.cancel();
  const t = await until(c, (x) => x.status === 'cancelled' && !x.running);
  assert.deepEqual([t.running, t.text], [false, 'Cancelled.']);
});
