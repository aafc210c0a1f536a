// The "Design a mechanism" section's controller (web/sections/mechanism/controller.js) without a
// browser: the toolkit loaded in Node stands in for the page's worker (in-process-engine.mjs).
// Expected numbers are computed here from the definitions — randomized response and the
// truncated geometric mechanism in closed form, ε-DP on the answer graph by its definition
// (max over the edges y ~ y′ and outputs z of |ln H[y][z] / H[y′][z]|), the utility
// Σ_z max_y π_y H[y][z] and the expected loss Σ_z min_w Σ_y π_y H[y][z] d(y, w) by brute force —
// never taken from the controller. The LP's progress, the sweep's and Cancel are driven by
// holding the engine's optimalLP calls and sending reports chosen here.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { createMechanismController, lpComparison, withinTarget } from '../../web/sections/mechanism/controller.js';
import { inProcessEngine, idle, until } from './in-process-engine.mjs';

let qif;
before(async () => { qif = await load(); });

const timing = { debounceMs: 5, progressAfterMs: 5 };
const close = (a, b, what, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const rowsOf = (m) => Array.from({ length: m.rows }, (_, i) => Array.from(m.data).slice(i * m.cols, (i + 1) * m.cols));
const pathEdges = (n) => Array.from({ length: n - 1 }, (_, i) => [i, i + 1]);
/** The smallest ε for which H is ε-DP on the graph: the largest |ln H[y][z]/H[y′][z]| over its edges. */
function epsilonOnGraph(H, edges) {
  let e = 0;
  for (const [a, b] of edges) for (let z = 0; z < H[a].length; z++) e = Math.max(e, Math.abs(Math.log(H[a][z] / H[b][z])));
  return e;
}
const utility = (prior, H) => H[0].reduce((s, _, z) => s + Math.max(...H.map((row, y) => prior[y] * row[z])), 0);
function expectedLoss(prior, H, d) {
  let s = 0;
  for (let z = 0; z < H[0].length; z++) s += Math.min(...H.map((_, w) => H.reduce((t, row, y) => t + prior[y] * row[z] * d(y, w), 0)));
  return s;
}
const STATE = { kind: 'path', n: '5', epsilon: '0.5', gain: 'binary', prior: null, tcMetric: 'graph', show: 'tg' };

function controller(options) {
  const { engine, log } = inProcessEngine(qif, options);
  return { ctl: createMechanismController({ engine, timing, onError: (e) => { throw e; } }), log };
}

test('mechanism controller: nothing runs at creation; a path of 5 answers checked against the definitions', async () => {
  const { ctl, log } = controller();
  assert.equal(ctl.get().results, null);
  assert.deepEqual(log, [], 'no engine call before start or a state');
  const s = await idle(ctl, () => ctl.setState(STATE));
  const cur = s.results;
  const n = 5;
  const eps = 0.5;
  assert.equal(cur.G.n, n);
  assert.equal(cur.eps, eps);
  const prior = new Array(n).fill(1 / n);
  const edges = pathEdges(n);
  // Randomized response: e^ε/(n−1+e^ε) on the diagonal, 1/(n−1+e^ε) elsewhere.
  const RR = rowsOf(cur.matrices.rr);
  const den = n - 1 + Math.exp(eps);
  RR.forEach((row, y) => row.forEach((v, z) => close(v, (y === z ? Math.exp(eps) : 1) / den, `RR[${y}][${z}]`, 1e-12)));
  // The truncated geometric: α = e^(−ε), (1−α)/(1+α)·α^|y−z| inside, α^|y−z|/(1+α) at the ends.
  const a = Math.exp(-eps);
  const TG = rowsOf(cur.matrices.tg);
  TG.forEach((row, y) => row.forEach((v, z) => close(v, (z === 0 || z === n - 1 ? 1 / (1 + a) : (1 - a) / (1 + a)) * a ** Math.abs(y - z), `TG[${y}][${z}]`, 1e-12)));
  // Every mechanism's ε on the graph and its utility, by the definitions.
  for (const k of ['rr', 'tg', 'exp', 'thm62', 'tc']) {
    const H = rowsOf(cur.matrices[k]);
    close(cur.mechEps[k], epsilonOnGraph(H, edges), `${k}: smallest ε on the path`, 1e-7);
    close(cur.utils[k], utility(prior, H), `${k}: utility`);
  }
  close(cur.mechEps.rr, eps, 'randomized response is exactly ε-DP', 1e-9);
  close(cur.mechEps.tg, eps, 'the truncated geometric is exactly ε-DP on a path', 1e-9);
  // The optimum: ε-DP by its entries, its utility by brute force, at least every ε-DP mechanism's.
  assert.equal(s.lp.status, 'ok');
  const L = rowsOf(cur.lp.mechanism);
  assert.ok(epsilonOnGraph(L, edges) <= eps * (1 + 1e-6), 'the optimum is ε-DP');
  close(cur.lp.utility, utility(prior, L), 'the optimum’s utility');
  for (const k of ['rr', 'tg', 'exp', 'tc']) if (cur.mechEps[k] <= eps * (1 + 1e-9)) assert.ok(cur.lp.utility >= cur.utils[k] - 1e-9, `optimum ≥ ${k}`);
  // The sweep ran (5 answers): one point per ε of the grid for each kind, the chosen ε among them.
  assert.equal(s.sweep.status, 'done');
  const { xs, series } = cur.sweep;
  assert.ok(xs.includes(eps));
  assert.equal(series.rr.length, xs.length);
  const at = xs.indexOf(eps);
  close(series.rr[at][1], utility(prior, RR), 'the sweep’s RR at ε');
  // ε = 0.5 is not ln of a rational: no certified optimum, and it says why.
  assert.equal(s.certified.status, 'unavailable');
  assert.match(s.certified.why, /e\^ε rational/);
  const r = ctl.getResults();
  assert.deepEqual(r.graph.edges, edges);
  assert.deepEqual(r.mechanisms.rr.matrix, RR);
});

test('mechanism controller: the expected loss of each mechanism by brute force, with a prior', async () => {
  const { ctl } = controller();
  const prior = ['0.1', '0.2', '0.3', '0.4'];
  const s = await idle(ctl, () => ctl.setState({ ...STATE, n: '4', epsilon: '1', gain: 'loss', prior }));
  const cur = s.results;
  const p = prior.map(Number);
  const d = (y, w) => Math.abs(y - w);
  for (const k of ['rr', 'tg', 'exp']) close(cur.utils[k], expectedLoss(p, rowsOf(cur.matrices[k]), d), `${k}: expected loss`);
  const L = rowsOf(cur.lp.mechanism);
  close(cur.lp.utility, expectedLoss(p, L, d), 'the optimum’s expected loss', 1e-7);
  for (const k of ['rr', 'tg', 'exp']) assert.ok(cur.lp.utility <= cur.utils[k] + 1e-9, `the optimum loses no more than ${k}`);
});

test('mechanism controller: a bad ε or graph is refused with its message, what was shown stays', async () => {
  const { ctl } = controller();
  await idle(ctl, () => ctl.setState({ ...STATE, n: '3' }));
  const before = ctl.get().results;
  const events = [];
  ctl.subscribe((_, ev) => events.push(ev.type));
  for (const [text, msg] of [['-1', /ε must be positive/], ['0', /ε must be positive/], ['', /enter ε/], ['1000', /at most 700/], ['abc', /^ε:/]]) {
    await idle(ctl, () => ctl.setEpsilon(text));
    assert.match(ctl.get().messages.eps, msg, `ε = “${text}”`);
    assert.equal(ctl.get().results, before, 'nothing recomputed');
  }
  assert.ok(events.includes('stale'), 'the shown numbers are marked stale');
  assert.equal(ctl.getState().preset, null, 'an edit leaves the preset');
  await idle(ctl, () => { ctl.setEpsilon('1'); ctl.setField('n', '0'); });
  assert.equal(ctl.get().messages.eps, '');
  assert.ok(ctl.get().messages.n, 'n = 0 is refused');
  await idle(ctl, () => ctl.setField('n', '3'));
  assert.equal(ctl.get().results.eps, 1);
  assert.equal(ctl.get().messages.n, '');
  // A prior that does not sum to 1: its message, and no optimal mechanism.
  await idle(ctl, () => { ctl.setPriorUniform(false); });
  await idle(ctl, () => ctl.setPriorEntry(1, '0.9'));
  assert.match(ctl.get().messages.prior, /sum to/);
  assert.equal(ctl.get().lp.status, 'unavailable');
});

test('mechanism controller: the LP job shows progress that never goes back, is cancelled, then computed again', async () => {
  let hold = true;
  let solve = null;
  const { ctl } = controller({
    intercept: (c, ctx) => {
      if (c.fn !== 'optimalLP' || !hold) return undefined;
      solve = ctx;
      return new Promise(() => {}); // runs until cancelled
    },
  });
  ctl.setState({ ...STATE, n: '4' });
  await until(ctl, () => solve !== null);
  assert.equal(ctl.get().busy, true);
  const shown = [];
  ctl.subscribe((s, ev) => { if (ev.type === 'lp' && s.lp.progress) shown.push(s.lp.progress.iteration); });
  solve.progress({ phase: 'phase 1', iteration: 3, objective: 1 });
  solve.progress({ phase: 'phase 1', iteration: 7, objective: 0.5 });
  solve.progress({ phase: 'phase 1', iteration: 5, objective: 0.7 }); // older: dropped
  assert.equal(ctl.get().lp.status, 'running');
  assert.deepEqual(ctl.get().lp.progress, { phase: 'phase 1', iteration: 7, objective: 0.5 });
  for (let i = 1; i < shown.length; i++) assert.ok(shown[i] >= shown[i - 1], `progress went back: ${shown}`);
  // Cancel stops the LP's job; the run goes on to the sweep (whose LPs are let through).
  hold = false;
  const s = await idle(ctl, () => ctl.cancel());
  assert.equal(s.lp.status, 'cancelled');
  assert.equal(s.sweep.status, 'done');
  assert.equal(s.results.lp, null);
  assert.equal(ctl.getResults().mechanisms.lp, undefined);
  for (const k of ['rr', 'tg']) assert.ok(Number.isFinite(s.results.utils[k]), `${k} stays`);
  await idle(ctl, () => ctl.computeLP());
  assert.equal(ctl.get().lp.status, 'ok');
  close(ctl.get().results.lp.utility, utility(new Array(4).fill(1 / 4), rowsOf(ctl.get().results.lp.mechanism)), 'utility');
});

test('mechanism controller: the sweep counts its optimal mechanisms up, and Cancel stops it', async () => {
  let holdAt = Infinity;
  let lpCalls = 0;
  let held = null;
  const { ctl } = controller({
    intercept: (c, ctx) => {
      if (c.fn !== 'optimalLP') return undefined;
      lpCalls++;
      if (lpCalls >= holdAt) held = ctx;
      ctx.progress({ phase: 'phase 2', iteration: 1, objective: 0 }); // each LP reports once
      return held === ctx ? new Promise(() => {}) : undefined;
    },
  });
  const counts = [];
  ctl.subscribe((s, ev) => { if (ev.type === 'sweep' && s.sweep.status === 'running') counts.push(s.sweep.lpDone); });
  await idle(ctl, () => ctl.setState({ ...STATE, n: '3' }));
  const { xs } = ctl.get().results.sweep;
  assert.equal(ctl.get().sweep.lpCount, xs.length);
  assert.ok(counts.length > 1);
  for (let i = 1; i < counts.length; i++) assert.ok(counts[i] >= counts[i - 1], `the sweep's count went back: ${counts}`);
  assert.equal(counts[counts.length - 1], xs.length);
  // Hold the third LP of a new sweep, then cancel: the plot says so; the rest stays.
  holdAt = lpCalls + 3;
  ctl.plotSweep();
  await until(ctl, () => held !== null);
  const s = await idle(ctl, () => ctl.cancel());
  assert.equal(s.sweep.status, 'cancelled');
  assert.equal(s.lp.status, 'ok');
});

test('mechanism controller: no DOM in the logic, views of at most 400 lines', async () => {
  const { readFile } = await import('node:fs/promises');
  const dir = new URL('../../web/sections/mechanism/', import.meta.url);
  for (const f of ['controller.js', 'plan.js', 'state.js']) {
    const text = await readFile(new URL(f, dir), 'utf8');
    assert.doesNotMatch(text, /\b(document|window)\.|requestAnimationFrame\(|lib\/dom\.js|lib\/plot\.js/, `${f} uses no DOM`);
  }
  for (const f of ['view.js', 'optimal.js', 'sweep.js', 'panels.js']) {
    const lines = (await readFile(new URL(f, dir), 'utf8')).split('\n').length - 1;
    assert.ok(lines <= 400, `${f}: ${lines} lines (at most 400)`);
  }
});

test('mechanism controller: the verdicts — within the target ε, the optimum against Theorem 6.2', () => {
  assert.equal(withinTarget(1, 1), true);
  assert.equal(withinTarget(1 + 1e-10, 1), true, 'a relative 10⁻⁹ of slack');
  assert.equal(withinTarget(1.001, 1), false);
  assert.equal(withinTarget(Infinity, 1), false);
  assert.equal(withinTarget(NaN, 1), false);
  const cur = (lp, thm62, thmEps, loss = false) => ({ eps: 1, loss, utils: { lp, thm62 }, mechEps: { thm62: thmEps } });
  assert.equal(lpComparison(cur(NaN, 0.5, 1)), null);
  const b = lpComparison(cur(0.32, 2 / 7, 1));
  assert.equal(b.verdict, 'better');
  close(b.better, 0.32 - 2 / 7, 'better');
  close(b.percent, (100 * (0.32 - 2 / 7)) / (2 / 7), 'per cent');
  assert.equal(lpComparison(cur(0.3, 0.4, 1.5)).verdict, 'breaks');
  assert.equal(lpComparison(cur(0.3, 0.3, 1)).verdict, 'equal');
  assert.equal(lpComparison(cur(0.4, 0.3, 1.5)).verdict, 'notDP');
  // With a loss, lower is better: the optimum's 1 against Theorem 6.2's 1.5.
  assert.equal(lpComparison(cur(1, 1.5, 1, true)).verdict, 'better');
  assert.equal(lpComparison(cur(1.5, 1, 1.5, true)).verdict, 'breaks');
  assert.equal(lpComparison(cur(1.5, 1, 1, true)).verdict, null, 'an ε-DP mechanism losing less than the optimum: no verdict');
});

test('mechanism controller: the default (Table 1, a clique of 6, ε = ln 2): the optimum 2/7, certified', async () => {
  await qif.loadModule('exact'); // the page loads it on demand as well
  const { ctl } = controller();
  const s = await idle(ctl, () => ctl.start());
  const cur = s.results;
  assert.equal(cur.G.n, 6);
  // On a clique with the uniform prior and the binary gain, randomized response is optimal:
  // e^ε/(n−1+e^ε) = 2/(5+2).
  close(cur.utils.rr, 2 / 7, 'randomized response');
  close(cur.lp.utility, 2 / 7, 'the optimum');
  assert.equal(s.certified.status, 'done');
  assert.equal(s.certified.result.ok, true, s.certified.result.error);
  assert.equal(s.certified.result.value.utility, '2/7');
  assert.equal(ctl.getResults().mechanisms.lp.certified.expEpsilon, '2');
  // The database panel: u·log₂ v bits of domain, its three bounds computed.
  assert.equal(s.db.status, 'ok');
  assert.ok(s.db.results.every((r) => r.ok));
});

test('the readings of the utility column follow the gain: a loss reads as an expected loss', async () => {
  const { utilityKey } = await import('../../web/sections/mechanism/panels.js');
  // The inputs carry the gain's name; a computation's results carry the flag.
  assert.equal(utilityKey({ gain: 'loss' }), 'mech.expectedLoss');
  assert.equal(utilityKey({ loss: true, gain: 'binary' }), 'mech.expectedLoss');
  assert.equal(utilityKey({ gain: 'binary' }), 'mech.utilityProbability');
  assert.equal(utilityKey({ gain: 'distance' }), 'mech.utilityGain');
});
