// Tests of qif.lp.solve on small LPs with optima known by hand, and on bad input.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

const qif = await load();
const close = (a, b, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

test('lp.solve: a 2-variable LP (max 3x+2y, x+y<=4, x+3y<=7, x<=3) has optimum 11 at (3,1)', () => {
  const r = qif.lp.solve({
    sense: 'max', objective: [3, 2],
    rows: [{ coeffs: [1, 1], op: '<=', rhs: 4 }, { coeffs: [[0, 1], [1, 3]], op: '<=', rhs: 7 }],
    upper: [3, Infinity],
  });
  assert.equal(r.status, 'optimal');
  assert.ok(r.x instanceof Float64Array && r.duals instanceof Float64Array);
  close(r.objective, 11); close(r.x[0], 3); close(r.x[1], 1);
  // Shadow prices: the first row binds with dual 2 (each unit of rhs buys 2), the second is slack.
  close(r.duals[0], 2); close(r.duals[1], 0);
  close(r.reducedCosts[0], 1); close(r.reducedCosts[1], 0); // x sits at its upper bound 3
  assert.ok(r.iterations >= 1);
});

test('lp.solve: min with = and >= rows, free variable and bounds', () => {
  // min x - y s.t. x + y = 2, x - y >= -4, y free, x in [0, 10]: y = 2 - x, so the objective is
  // 2x - 2, smallest at x = 0 (then x - y = -2 >= -4 holds): x = 0, y = 2, objective -2.
  const r = qif.lp.solve({
    objective: [1, -1],
    rows: [{ coeffs: [1, 1], op: '=', rhs: 2 }, { coeffs: [[0, 1], [1, -1]], op: '>=', rhs: -4 }],
    lower: [0, -Infinity], upper: [10, null],
  });
  assert.equal(r.status, 'optimal');
  close(r.objective, -2); close(r.x[0], 0); close(r.x[1], 2);
});

test('lp.solve: the optimal 2-DP mechanism on a 4-clique has utility 1/(1+3/2) = 0.4', () => {
  const n = 4, k = 2, idx = (y, z) => y * n + z;
  const objective = new Array(n * n).fill(0);
  for (let y = 0; y < n; y++) objective[idx(y, y)] = 1 / n;
  const rows = [];
  for (let y = 0; y < n; y++) rows.push({ coeffs: [...Array(n).keys()].map((z) => [idx(y, z), 1]), op: '=', rhs: 1 });
  for (let y = 0; y < n; y++) for (let y2 = 0; y2 < n; y2++) if (y !== y2)
    for (let z = 0; z < n; z++) rows.push({ coeffs: [[idx(y, z), 1], [idx(y2, z), -k]], op: '<=', rhs: 0 });
  const r = qif.lp.solve({ sense: 'max', objective, rows });
  assert.equal(r.status, 'optimal');
  close(r.objective, 0.4);
  assert.ok(r.primalResidual < 1e-9 && r.dualResidual < 1e-9);
});

test('lp.solve: infeasible and unbounded problems', () => {
  const inf = qif.lp.solve({ objective: [1], rows: [{ coeffs: [1], op: '>=', rhs: 2 }, { coeffs: [1], op: '<=', rhs: 1 }] });
  assert.equal(inf.status, 'infeasible');
  assert.ok(Number.isNaN(inf.objective));
  // The certificate y: y·(row activities) ≥ Σ y_i·bound_i contradicts yᵀA = 0 here.
  assert.ok(inf.farkas instanceof Float64Array);
  close(inf.farkas[0] + inf.farkas[1], 0);
  assert.ok(2 * Math.max(inf.farkas[0], 0) + 1 * Math.min(inf.farkas[1], 0) > 0);
  const unb = qif.lp.solve({ sense: 'max', objective: [1, 1], rows: [{ coeffs: [1, -1], op: '<=', rhs: 1 }] });
  assert.equal(unb.status, 'unbounded');
  assert.ok(unb.ray[0] >= 0 && unb.ray[1] >= 0 && unb.ray[0] + unb.ray[1] > 0);
});

test('lp.solve: progress callback and cancellation', () => {
  const n = 12, idx = (y, z) => y * n + z;
  const objective = new Array(n * n).fill(0);
  for (let y = 0; y < n; y++) objective[idx(y, y)] = 1;
  const rows = [];
  for (let y = 0; y < n; y++) rows.push({ coeffs: [...Array(n).keys()].map((z) => [idx(y, z), 1]), op: '=', rhs: 1 });
  for (let y = 0; y < n; y++) for (let y2 = 0; y2 < n; y2++) if (y !== y2)
    for (let z = 0; z < n; z++) rows.push({ coeffs: [[idx(y, z), 1], [idx(y2, z), -2]], op: '<=', rhs: 0 });
  const seen = [];
  // Cancelling throws an AbortError carrying the solve as far as it got (status 'cancelled').
  let r;
  assert.throws(() => qif.lp.solve({ sense: 'max', objective, rows }, { progressEvery: 10, onProgress: (p) => { seen.push(p); return seen.length < 2; } }),
    (e) => { r = e.partial; return e.name === 'AbortError' && e.message === 'lp.solve: cancelled'; });
  assert.equal(r.status, 'cancelled');
  assert.equal(seen.length, 2);
  assert.ok(seen[0].iteration >= 10 && typeof seen[0].objective === 'number' && typeof seen[0].phase === 'string');
  const full = qif.lp.solve({ sense: 'max', objective, rows }, { onProgress: () => undefined });
  assert.equal(full.status, 'optimal');
  close(full.objective, n / (1 + (n - 1) / 2), 1e-8);
  assert.equal(qif.lp.solve({ sense: 'max', objective, rows }, { maxIterations: 2 }).status, 'iteration limit');
});

test('lp.solve: bad input throws errors naming the field', () => {
  const ok = { objective: [1, 1], rows: [{ coeffs: [1, 1], op: '>=', rhs: 1 }] };
  const bad = [
    [undefined, /missing argument/],
    [42, /problem: expected an object/],
    [{ ...ok, sense: 'up' }, /sense/],
    [{ ...ok, objective: [1, 'a'] }, /objective: entry 1/],
    [{ ...ok, objective: [] }, /empty problem/],
    [{ ...ok, objective: [NaN, 1] }, /objective coefficient 0 is NaN/],
    [{ ...ok, rows: [{ coeffs: [1], op: '>=', rhs: 1 }] }, /dense row needs 2 entries/],
    [{ ...ok, rows: [{ coeffs: [[5, 1]], op: '>=', rhs: 1 }] }, /variable 5 out of range/],
    [{ ...ok, rows: [{ coeffs: [[0, NaN]], op: '>=', rhs: 1 }] }, /NaN/],
    [{ ...ok, rows: [{ coeffs: [1, 1], op: '<', rhs: 1 }] }, /op/],
    [{ ...ok, rows: [{ coeffs: [1, 1], op: '<=', rhs: Infinity }] }, /right-hand side of row 0/],
    [{ ...ok, rows: [{ coeffs: [1, 1], op: '<=' }] }, /rhs/],
    [{ ...ok, lower: [0] }, /lower: expected an array of 2/],
    [{ ...ok, lower: [2, 0], upper: [1, 1] }, /above its upper bound/],
    [{ ...ok, rows: 'x' }, /rows/],
  ];
  for (const [p, re] of bad) assert.throws(() => (p === undefined ? qif.lp.solve() : qif.lp.solve(p)), re, String(JSON.stringify(p)));
  assert.throws(() => qif.lp.solve(ok, { timeLimit: -1 }), /timeLimit/);
});
