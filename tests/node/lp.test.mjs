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

// A program whose rows mix 1 and F = e^d: variables x00 x01 x10 x11 r0 r1 z ≥ 0, minimize z
// subject to x00 + x01 − r0 = 1, x10 + x11 − r1 = 0, x00 + F·x10 − r0 ≤ 0 and
// F·x01 + x11 − r1 − z ≤ 0. By hand: the first and third rows give x01 − F·x10 ≥ 1, the second
// r1 = x10 + x11, so the fourth reads z ≥ F·x01 − x10 ≥ F + (F² − 1)·x10 ≥ F; the optimum is F,
// at x01 = 1, z = F. (At d = 30 the solver used to call it infeasible, at d = 40 imprecise.)
const twoScales = (d, extra = []) => {
  const F = Math.exp(d);
  return {
    objective: [0, 0, 0, 0, 0, 0, 1],
    rows: [
      { coeffs: [1, 1, 0, 0, -1, 0, 0], op: '=', rhs: 1 },
      { coeffs: [0, 0, 1, 1, 0, -1, 0], op: '=', rhs: 0 },
      { coeffs: [1, 0, F, 0, -1, 0, 0], op: '<=', rhs: 0 },
      { coeffs: [0, F, 0, 1, 0, -1, -1], op: '<=', rhs: 0 },
      ...extra,
    ],
  };
};
// rowsOf lists the dense rows of twoScales-like problems as [coeffs, op, rhs].
const rowsOf = (p) => p.rows.map((r) => [r.coeffs, r.op, r.rhs]);

test('lp.solve: rows mixing 1 and e^d (d = 20…100) are solved right, with optimum e^d', () => {
  for (const d of [20, 22, 25, 30, 33, 35, 40, 41, 60, 100]) {
    const p = twoScales(d);
    const r = qif.lp.solve(p);
    assert.equal(r.status, 'optimal', `d = ${d}`);
    const F = Math.exp(d);
    assert.ok(Math.abs(r.objective / F - 1) <= 1e-9, `d = ${d}: objective ${r.objective}, want ${F}`);
    close(r.x[1], 1); // x01
    // Feasible, each row to 1e-9 of its largest term, and x ≥ 0.
    for (const [a, op, b] of rowsOf(p)) {
      let act = 0, mag = Math.abs(b);
      a.forEach((v, j) => { act += v * r.x[j]; mag = Math.max(mag, Math.abs(v * r.x[j])); });
      const viol = op === '=' ? Math.abs(act - b) : op === '<=' ? act - b : b - act;
      assert.ok(viol <= 1e-9 * Math.max(1, mag), `d = ${d}: row violated by ${viol}`);
    }
    assert.ok(r.x.every((v) => v >= 0));
  }
});

test('lp.solve: rows mixing 1 and e^30: infeasible with a certificate that checks, unbounded with a ray that checks', () => {
  const d = 30, F = Math.exp(d);
  // z ≤ F/2 contradicts z ≥ F (derived above): infeasible. Check the certificate here: with
  // r = yᵀA, every r_j must be ≤ 0 (x ≥ 0 unbounded above) up to 1e-9 of its terms, and
  // Σ_i y_i·b_i, with y_i ≤ 0 on ≤ rows, must be > 0.
  const inf = twoScales(d, [{ coeffs: [0, 0, 0, 0, 0, 0, 1], op: '<=', rhs: F / 2 }]);
  const ri = qif.lp.solve(inf);
  assert.equal(ri.status, 'infeasible');
  const y = ri.farkas, rows = rowsOf(inf);
  let yb = 0;
  rows.forEach(([, op, b], i) => {
    if (op === '<=') assert.ok(y[i] <= 0, `y[${i}] = ${y[i]} on a <= row`);
    yb += y[i] * b;
  });
  for (let j = 0; j < 7; j++) {
    let rj = 0, mag = 0;
    rows.forEach(([a], i) => { rj += y[i] * a[j]; mag += Math.abs(y[i] * a[j]); });
    assert.ok(rj <= 1e-9 * mag, `(yᵀA)[${j}] = ${rj} > 0`);
  }
  assert.ok(yb > 1e-9 * rows.reduce((s, [, , b], i) => s + Math.abs(y[i] * b), 0), `y·b = ${yb}`);
  // Maximizing z instead: z is bounded by nothing above, so the program is unbounded; x must
  // be feasible and the ray keep every row (= rows unchanged, ≤ rows not increased) and raise z.
  const unb = { ...twoScales(d), sense: 'max' };
  const ru = qif.lp.solve(unb);
  assert.equal(ru.status, 'unbounded');
  assert.ok(ru.ray[6] > 0 && ru.ray.every((v) => v >= 0));
  for (const [a, op] of rowsOf(unb)) {
    let ad = 0, mag = 0;
    a.forEach((v, j) => { ad += v * ru.ray[j]; mag += Math.abs(v * ru.ray[j]); });
    if (op === '=') assert.ok(Math.abs(ad) <= 1e-9 * mag);
    else assert.ok(ad <= 1e-9 * mag);
  }
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

test('lp.solve refuses misspelt keys in the problem and its rows, naming the key and the valid ones', () => {
  const rows = [{ coeffs: [1], op: '<=', rhs: 6 }];
  assert.throws(() => qif.lp.solve({ sense: 'max', objective: [1], rows, uper: [1] }),
    /^Error: lp\.solve: problem: unknown key "uper" \(did you mean "upper"\?\); valid keys: sense, objective, rows, lower, upper$/);
  assert.throws(() => qif.lp.solve({ sense: 'max', objective: [1], Rows: rows }), /problem: unknown key "Rows" \(did you mean "rows"\?\)/);
  assert.throws(() => qif.lp.solve({ sense: 'max', objective: [1], rows: [{ coef: [1], op: '<=', rhs: 6 }] }),
    /rows\[0\]: unknown key "coef" \(did you mean "coeffs"\?\); valid keys: coeffs, op, rhs/);
  // Spelt right, the bound is used: max x with x ≤ 6 and x ≤ 1 is 1.
  assert.equal(qif.lp.solve({ sense: 'max', objective: [1], rows, upper: [1] }).objective, 1);
});

test('lp.solve: an empty row is the constraint 0 (op) rhs, feasible or not', () => {
  const base = { coeffs: [1], op: '<=', rhs: 6 };
  for (const [op, rhs, feasible] of [['<=', 1, true], ['<=', -1, false], ['=', 0, true], ['=', 2, false], ['>=', -3, true], ['>=', 0.5, false]]) {
    const r = qif.lp.solve({ sense: 'max', objective: [1], rows: [base, { coeffs: [], op, rhs }] });
    assert.equal(r.status, feasible ? 'optimal' : 'infeasible', `0 ${op} ${rhs}`);
    if (feasible) assert.equal(r.objective, 6);
  }
});
