// The "Location privacy" section's controller (web/sections/geo/controller.js) without a browser:
// the toolkit loaded in Node stands in for the page's worker (in-process-engine.mjs). Expected
// numbers are computed here from the definitions — the Euclidean distance between cell centres,
// the truncated geometric mechanism in closed form on each axis, the expected distance
// Σ_x π_x Σ_z K[x][z] d(x,z) and the smallest ε·d factor max ln(K[x][z]/K[x′][z]) / d(x,x′) by
// brute force — never taken from the controller. The LP's progress and Cancel are driven by
// holding the engine's optimalLP call and sending reports chosen here.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';
import { createGeoController } from '../../web/sections/geo/controller.js';
import { inProcessEngine, idle, until } from './in-process-engine.mjs';

let qif;
before(async () => { qif = await load(); });

const timing = { debounceMs: 5, progressAfterMs: 5 };
const close = (a, b, what, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const xy = (i, side) => [i % side, Math.floor(i / side)];
const dist = (i, j, side) => { const [a, b] = xy(i, side); const [c, d] = xy(j, side); return Math.hypot(a - c, b - d); };
/** The truncated geometric mechanism on 0..n−1 with α = e^(−ε): (1−α)/(1+α)·α^|x−z| inside, α^|x−z|/(1+α) at the ends. */
function truncatedGeometric(n, eps) {
  const a = Math.exp(-eps);
  return Array.from({ length: n }, (_, x) => Array.from({ length: n }, (_, z) => (z === 0 || z === n - 1 ? a ** Math.abs(x - z) / (1 + a) : ((1 - a) / (1 + a)) * a ** Math.abs(x - z))));
}
function expectedDistance(prior, K, side) {
  let s = 0;
  K.forEach((row, x) => row.forEach((k, z) => { s += prior[x] * k * dist(x, z, side); }));
  return s;
}
function smallestEpsilon(K, side) {
  let e = 0;
  for (let x = 0; x < K.length; x++) for (let y = 0; y < K.length; y++) if (x !== y) {
    for (let z = 0; z < K.length; z++) e = Math.max(e, Math.log(K[x][z] / K[y][z]) / dist(x, y, side));
  }
  return e;
}

function controller(options) {
  const { engine, log } = inProcessEngine(qif, options);
  return { ctl: createGeoController({ engine, timing, onError: (e) => { throw e; } }), log };
}

test('geo controller: nothing runs before start; a 3 × 3 map, every mechanism checked against its definition', async () => {
  const { ctl, log } = controller();
  assert.equal(ctl.get().started, false);
  assert.equal(ctl.get().results, null);
  assert.deepEqual(log, [], 'no engine call before the section is in view');
  ctl.setState({ side: '3', epsilon: '1', spanner: '', density: 'uniform' });
  const s = await idle(ctl);
  assert.equal(s.started, true);
  const cur = s.results;
  assert.deepEqual([cur.side, cur.n, cur.eps, cur.spanner], [3, 9, 1, null]);
  cur.prior.forEach((p) => close(p, 1 / 9, 'uniform prior'));
  for (const k of ['lp', 'exp', 'geo']) assert.equal(s.rows[k].status, 'ok', `row ${k}`);
  // The geometric mechanism: the product of the truncated geometric with ε/√2 on each axis.
  const G = truncatedGeometric(3, 1 / Math.SQRT2);
  const K = ctl.mechanismData('geo').rows;
  K.forEach((row, i) => row.forEach((k, j) => close(k, G[xy(i, 3)[0]][xy(j, 3)[0]] * G[xy(i, 3)[1]][xy(j, 3)[1]], `K[${i}][${j}]`, 1e-12)));
  close(cur.mech.geo.loss, expectedDistance(cur.prior, K, 3), 'geometric: expected distance');
  close(cur.mech.geo.epsilon, smallestEpsilon(K, 3), 'geometric: smallest ε');
  // Every mechanism is ε·d-private by its own entries; the exponential one is calibrated up to ε.
  for (const k of ['lp', 'exp', 'geo']) {
    const M = ctl.mechanismData(k).rows;
    M.forEach((row) => close(row.reduce((a, b) => a + b, 0), 1, `${k}: a row sums to 1`));
    assert.ok(smallestEpsilon(M, 3) <= 1 + 1e-6, `${k} is ε·d-private`);
    close(cur.mech[k].loss, expectedDistance(cur.prior, M, 3), `${k}: expected distance`);
  }
  const epsExp = smallestEpsilon(ctl.mechanismData('exp').rows, 3);
  assert.ok(epsExp >= 1 - 1e-4, `the exponential mechanism is calibrated to ε: ${epsExp}`);
  // The optimum is the least, and the comparison is per cent of the optimum's distance.
  const lp = cur.mech.lp.loss;
  assert.ok(lp <= cur.mech.exp.loss + 1e-9 && lp <= cur.mech.geo.loss + 1e-9);
  assert.equal(cur.mech.lp.status, 'optimal');
  assert.ok(cur.mech.lp.gap >= -1e-9 && cur.mech.lp.gap < 1e-6, `certified gap ${cur.mech.lp.gap}`);
  const exp = ctl.tableData();
  assert.deepEqual(exp.rowLabels, ['optimal mechanism', 'exponential mechanism', 'geometric mechanism']);
  close(exp.rows[2][0], expectedDistance(cur.prior, K, 3), 'the table exports the geometric distance');
  const { comparisonOf } = await import('../../web/sections/geo/controller.js');
  const cmp = comparisonOf(cur);
  assert.deepEqual(cmp.map((c) => c.key), ['exp', 'geo']);
  for (const c of cmp) close(c.percentMore, (100 * (cur.mech[c.key].loss - lp)) / lp, `${c.key}: per cent more`);
});

test('geo controller: grid size, ε, density and the chosen cell', async () => {
  const { ctl } = controller();
  await idle(ctl, () => ctl.setState({ side: '3', epsilon: 'ln 2', spanner: '', density: 'hotspots', cell: 7 }));
  let cur = ctl.get().results;
  close(cur.eps, Math.LN2, 'ε typed as ln 2');
  assert.equal(cur.cell, 7, 'the chosen cell of a link is kept');
  assert.deepEqual(ctl.getState(), { side: '3', epsilon: 'ln 2', spanner: '', density: 'hotspots', cell: 7 });
  // Choosing a cell draws that cell's row of every mechanism, without computing again.
  ctl.chooseCell(2);
  assert.equal(ctl.get().busy, false);
  assert.equal(ctl.getState().cell, 2);
  assert.deepEqual(ctl.mapOf('geo').values, ctl.mechanismData('geo').rows[2]);
  assert.deepEqual(ctl.getResults().mechanisms.lp.row, ctl.mechanismData('lp').rows[2]);
  // A new side forgets the chosen cell: the densest cell is shown.
  await idle(ctl, () => ctl.setInput('side', '2'));
  cur = ctl.get().results;
  assert.equal(cur.n, 4);
  assert.equal(ctl.getState().cell, null);
  assert.equal(cur.cell, cur.prior.indexOf(Math.max(...cur.prior)));
  await idle(ctl, () => ctl.setInput('density', 'uniform'));
  ctl.get().results.prior.forEach((p) => close(p, 1 / 4, 'uniform prior'));
  // Bad input: a message per field, and what was shown stays (marked stale).
  const before = ctl.get().results;
  await idle(ctl, () => { ctl.setInput('epsilon', '-1'); ctl.setInput('side', '99'); ctl.setInput('spanner', '0.5'); });
  const s = ctl.get();
  assert.match(s.errors.eps, /positive/);
  assert.match(s.errors.side, /side/);
  assert.match(s.errors.spanner, /δ/);
  assert.equal(s.results, before);
  assert.equal(s.rows.lp.status, 'stale');
  await idle(ctl, () => { ctl.setInput('epsilon', '1'); ctl.setInput('side', '2'); ctl.setInput('spanner', '1.5'); });
  assert.deepEqual(Object.values(ctl.get().errors), [null, null, null]);
  assert.equal(ctl.get().results.spanner, 1.5);
  assert.ok(ctl.get().results.mech.lp.guaranteedEpsilon <= 1 + 1e-12, 'a spanner guarantees ε·t/δ ≤ ε');
});

test('geo controller: a map too large for itself waits for compute()', async () => {
  const { ctl, log } = controller({ intercept: (c) => { if (c.fn === 'optimalLP') throw new Error('the LP must wait'); } });
  await idle(ctl, () => ctl.setState({ side: '8', epsilon: '1', spanner: '', density: 'uniform' }));
  const s = ctl.get();
  assert.equal(s.rows.lp.status, 'waiting');
  assert.deepEqual(s.progress, { state: 'waiting', othersWaiting: false });
  assert.equal(s.rows.geo.status, 'ok');
  assert.ok(!log.includes('mechanism.optimalLP'));
  // Above 16 × 16 the others wait too, and an empty δ is the default spanner.
  const big = controller({ intercept: (c) => { if (c.fn !== 'gridEuclidean') throw new Error(`${c.fn} must wait`); } });
  await idle(big.ctl, () => big.ctl.setState({ side: '17', epsilon: '1', spanner: '', density: 'uniform' }));
  const b = big.ctl.get();
  assert.deepEqual(b.progress, { state: 'waiting', othersWaiting: true });
  assert.deepEqual([b.results.spanner, b.results.spannerDefaulted], [1.1, true]);
  assert.deepEqual(big.log, ['metric.gridEuclidean']);
});

test('geo controller: the LP job started, its progress never goes back, cancelled, then computed again', async () => {
  let hold = true;
  let solve = null;
  const { ctl } = controller({
    intercept: (c, ctx) => {
      if (c.fn !== 'optimalLP' || !hold) return undefined;
      solve = ctx;
      return new Promise(() => {}); // runs until cancelled
    },
  });
  ctl.setState({ side: '3', epsilon: '1', spanner: '', density: 'uniform' });
  await until(ctl, () => solve !== null);
  assert.equal(ctl.get().busy, true);
  assert.equal(ctl.get().rows.lp.status, 'pending');
  const stats = () => ctl.get().progress.stats;
  // Output generation, then a decomposition that restarts its pivot count with a worse master,
  // then a better mechanism and a weaker bound: what is shown only improves.
  solve.progress({ phase: 'output generation', iteration: 10, objective: 2, bound: -Infinity });
  assert.equal(ctl.get().progress.state, 'running');
  assert.match(ctl.get().progress.text, /Solving the linear program \(9 cells, 81 variables, every pair of cells constrained\)/);
  assert.deepEqual([stats().pivots, stats().value], [10, 2]);
  assert.ok(Number.isNaN(stats().bound) && Number.isNaN(stats().gap));
  solve.progress({ phase: 'decomposition', iteration: 3, objective: 2.5, bound: 1 });
  assert.deepEqual([stats().pivots, stats().value, stats().bound, stats().gap], [13, 2, 1, 1]);
  solve.progress({ phase: 'decomposition', iteration: 8, objective: 1.75, bound: 0.5 });
  assert.deepEqual([stats().pivots, stats().value, stats().bound, stats().gap], [18, 1.75, 1, 0.75]);
  solve.progress({ phase: 'simplex', iteration: 40, objective: 1.5 });
  assert.deepEqual(stats(), { kind: 'simplex', iteration: 40 });
  // Cancel: the job stops, the LP row says so with the last certified numbers, the rest stays.
  const done = idle(ctl, () => ctl.cancel());
  const s = await done;
  assert.equal(s.rows.lp.status, 'cancelled');
  assert.equal(s.progress.state, 'cancelled');
  assert.deepEqual([s.progress.last.value, s.progress.last.bound, s.progress.last.gap], [1.75, 1, 0.75]);
  assert.equal(s.rows.geo.status, 'ok');
  assert.equal(s.rows.exp.status, 'ok');
  assert.equal(ctl.tableData().rows.length, 2, 'the export holds what was computed');
  assert.equal(ctl.mechanismData('lp'), null);
  // Compute again, this time to the end.
  hold = false;
  await idle(ctl, () => ctl.compute());
  assert.equal(ctl.get().rows.lp.status, 'ok');
  assert.equal(ctl.get().progress, null);
  assert.equal(ctl.tableData().rows.length, 3);
});

test('geo controller: the exports — a mechanism with its cells named, the table, each map as SVG', async () => {
  const { ctl } = controller();
  assert.equal(ctl.tableData(), null);
  assert.equal(ctl.mapSVG('prior'), null);
  await idle(ctl, () => ctl.setState({ side: '2', epsilon: '2', spanner: '', density: 'uniform', cell: 1 }));
  const m = ctl.mechanismData('exp');
  assert.deepEqual(m.rowLabels, ['(0, 0)', '(1, 0)', '(0, 1)', '(1, 1)']);
  assert.deepEqual(m.colLabels, m.rowLabels);
  assert.equal(m.what, 'exponential mechanism');
  const t = ctl.tableData();
  assert.equal(t.rows[0][3], ctl.get().results.mech.lp.guaranteedEpsilon, 'the optimum’s guaranteed ε');
  close(t.rows[1][4], ctl.get().results.mech.exp.epsilonPrime, 'the exponential’s ε′');
  const svg = ctl.mapSVG('geo');
  assert.equal(svg.file, 'location-map-geo-2x2.svg');
  const G = truncatedGeometric(2, 2 / Math.SQRT2);
  const cells = [...svg.text.matchAll(/data-cell="(\d)" data-value="([^"]+)"/g)].map((x) => [Number(x[1]), Number(x[2])]);
  assert.equal(cells.length, 4);
  // Cell 1 = (1, 0) is the true cell: the map is its row of the product mechanism.
  for (const [j, v] of cells) close(v, G[1][j % 2] * G[0][Math.floor(j / 2)], `map value of cell ${j}`, 1e-12);
  assert.match(svg.text, /data-role="chosen"/);
});
