// Every error message reads "<ns>.<name>: <argument>: <problem>" (or "<ns>.<name>: <problem>"
// for failures that are no argument's fault): never with the name of a Go package after the
// function ("lp.solve: lp: right-hand side of row 0 is NaN"). The sweep calls every function of
// the table with plausible arguments and then with one argument (or one option) made bad at a
// time, in the ways each kind of argument can be bad.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

const qif = await load();

// Go packages of the core whose names are not also argument names (channel, metric and graph
// are arguments: "channel: row 0 sums to 0.9").
const INTERNAL = /^(lp|ratlp|conelp|lu|refine|refine avg|refine additive metric|optimal mechanism|exact|measure|mechanism|privacy|infopriv|core|table)( [a-z]+)*: /;

// A plausible value of each kind, for 2 secrets and 2 outputs.
const GOOD = {
  matrix: () => [[0.5, 0.5], [0.25, 0.75]],
  vector: () => [0.5, 0.5],
  number: () => 1,
  integer: () => 2,
  graph: () => ({ n: 2, edges: [[0, 1]] }),
  indices: () => [0, 1],
  lpProblem: () => ({ sense: 'max', objective: [1], rows: [{ coeffs: [1], op: '<=', rhs: 1 }] }),
  ratMatrix: () => [['1/2', '1/2'], ['1/4', '3/4']],
  ratMetric: () => [[0, 1], [1, 0]],
  ratVector: () => ['1/2', '1/2'],
  rational: () => '2',
  enum: (p) => p.enum?.[0],
  object: () => ({}),
  boolean: () => true,
};

// The ways a value of each kind can be bad.
const BAD = {
  matrix: [[[NaN, 1], [0.5, 0.5]], [[0.5, 0.6], [0.5, 0.5]], [[-1, 2], [0.5, 0.5]], [[1]], [], [[1, 0, 0], [0, 1, 0], [0, 0, 1]]],
  vector: [[NaN, 1], [0.5, 0.6], [-1, 2], [1], []],
  number: [NaN, -1, 0, Infinity],
  integer: [-1, 1.5, 0, 1e12],
  graph: [{ n: 2, edges: [[0, 0]] }, { n: 0, edges: [] }, { n: 2, edges: [[0, 5]] }],
  indices: [[-1], [0.5], []],
  lpProblem: [
    { objective: [1], rows: [{ coeffs: [1], op: '<=', rhs: NaN }] },
    { objective: [NaN], rows: [{ coeffs: [1], op: '<=', rhs: 1 }] },
    { objective: [1, 1], rows: [{ coeffs: [[0, NaN]], op: '<=', rhs: 1 }] },
    { objective: [1], rows: [{ coeffs: [1], op: '<', rhs: 1 }] },
    { objective: [1], rows: [], lower: [2], upper: [1] },
    { objective: [1], lower: [NaN] },
  ],
  ratMatrix: [[['1/0', '1']], [['1/2', '1/3'], ['1/2', '1/2']], [['-1', '2'], ['1/2', '1/2']], [['x']]],
  ratMetric: [[[0, -1], [1, 0]], [[0, 1]], [[1, 1], [1, 0]]],
  ratVector: [['1/0'], ['1/2', '1/3'], ['-1', '2']],
  rational: ['1/0', 'x', '-3', '0'],
  enum: ['no such choice'],
  boolean: [],
  object: [],
};

// The names errors may start with: parameters, their labels, option keys.
function argNames(f) {
  const out = new Set();
  for (const p of f.params) {
    out.add(p.name);
    if (p.label) out.add(p.label);
    for (const k of p.fields ?? []) { out.add(k.name); if (k.label) out.add(k.label); }
  }
  return out;
}

function goodArgs(f) {
  return f.params.map((p) => {
    if (p.kind === 'options') {
      const o = {};
      for (const k of p.fields) if (k.required) o[k.name] = GOOD[k.kind]?.(k);
      return o;
    }
    if (p.kind === 'callback') return () => true;
    return p.optional ? undefined : GOOD[p.kind]?.(p);
  });
}

function* variants(f) {
  const base = goodArgs(f);
  yield base;
  for (let i = 0; i < f.params.length; i++) {
    const p = f.params[i];
    if (p.kind === 'options') {
      for (const k of p.fields) {
        for (const bad of BAD[k.kind] ?? []) {
          const args = base.slice();
          args[i] = { ...(base[i] ?? {}), [k.name]: bad };
          yield args;
        }
      }
      continue;
    }
    for (const bad of BAD[p.kind] ?? []) {
      const args = base.slice();
      args[i] = bad;
      yield args;
    }
  }
}

test('no error message carries a Go package name after the function name', () => {
  const fns = qif.describe().functions.filter((f) => f.ns !== 'debug');
  const offenders = new Map();
  let errors = 0;
  for (const f of fns) {
    const q = `${f.ns}.${f.name}`;
    const fn = f.ns.split('.').reduce((o, k) => o[k], qif)[f.name];
    for (const args of variants(f)) {
      let message;
      try { fn(...args); continue; } catch (e) { message = String(e?.message ?? e); }
      errors++;
      assert.ok(message.startsWith(q + ': '), `${q}: message without the function: ${message}`);
      const rest = message.slice(q.length + 2);
      const head = rest.slice(0, Math.max(0, rest.indexOf(': ')));
      if (INTERNAL.test(rest) && !argNames(f).has(head) && !offenders.has(q)) offenders.set(q, message);
    }
  }
  assert.ok(errors > 500, `the sweep raised only ${errors} errors`);
  assert.deepEqual([...offenders.values()], [], 'messages with an internal prefix');
});

test('lp.solve names the problem for what the solver refuses', () => {
  assert.throws(() => qif.lp.solve({ objective: [1], rows: [{ coeffs: [1], op: '<=', rhs: NaN }] }),
    /^Error: lp\.solve: problem: right-hand side of row 0 is NaN$/);
  assert.throws(() => qif.lp.solve({ objective: [1, 1], rows: [{ coeffs: [[0, NaN]], op: '<=', rhs: 1 }] }),
    /^Error: lp\.solve: problem: coefficient 0 \(row 0, column 0\) is NaN$/);
});
