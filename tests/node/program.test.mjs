// qif.program: programs as channels (served by the exact module, qif-exact.wasm). The paper's
// tables typed from Alvim, Andrés, Chatzikokolakis, Palamidessi, "Quantitative Information Flow
// and Applications to Differential Privacy" (FOSAD 2011), the shared examples, errors with their
// line and column as properties of the thrown Error, check() for editors, budgets, progress and
// cancellation, and the channel handed to the rest of the API.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load } from '../../web/qif.js';

const { examples } = JSON.parse(readFileSync(new URL('../../web/program-examples.json', import.meta.url), 'utf8'));
const program = (id) => examples.find((e) => e.id === id).program;

let qif;
before(async () => { qif = await load({ exact: true }); });

function expectTable(r, rows, cols, table) {
  assert.deepEqual(r.secrets, rows);
  assert.deepEqual(r.observations, cols);
  assert.deepEqual(r.exact.channel, table);
  assert.equal(r.channel.rows, rows.length);
  assert.equal(r.channel.cols, cols.length);
  table.flat().forEach((f, k) => {
    const [n, d = '1'] = f.split('/');
    assert.equal(r.channel.data[k], Number(n) / Number(d));
  });
}

const bits3 = ['[0, 0, 0]', '[0, 0, 1]', '[0, 1, 0]', '[0, 1, 1]', '[1, 0, 0]', '[1, 0, 1]', '[1, 1, 0]', '[1, 1, 1]'];

test('Table 2(a): the password checker, OK or Fail', () => {
  const r = qif.program.channel(program('password'));
  expectTable(r, bits3, ['Fail', 'OK'], [['1', '0'], ['1', '0'], ['1', '0'], ['1', '0'], ['1', '0'], ['1', '0'], ['0', '1'], ['1', '0']]);
  assert.deepEqual(r.exact.prior, Array(8).fill('1/8'));
  // A deterministic channel with 2 columns under a uniform prior on 8: V[π▷C] = 2/8.
  assert.equal(qif.measure.posteriorBayesVulnerability(r.prior, r.channel), 0.25);
});

test('Table 2(b): the iteration count observable; columns in the order the program meets them', () => {
  const r = qif.program.channel(program('password-timing'));
  expectTable(r, bits3, ['(Fail, 1)', '(Fail, 2)', 'OK', '(Fail, 3)'], [
    ['1', '0', '0', '0'], ['1', '0', '0', '0'], ['1', '0', '0', '0'], ['1', '0', '0', '0'],
    ['0', '1', '0', '0'], ['0', '1', '0', '0'], ['0', '0', '1', '0'], ['0', '0', '0', '1'],
  ]);
  // 4 columns: V[π▷C] = 4/8, twice Table 2(a)'s — the timing leak doubles the adversary's chance.
  assert.equal(qif.measure.posteriorBayesVulnerability(r.prior, r.channel), 0.5);
  assert.equal(qif.exact.measure.multiplicativeBayesLeakage(r.exact.prior, r.exact.channel), '4');
});

test('Table 3(a) and 3(b): the two-node DC-net, fair and biased coins', () => {
  const rows = ['(a, 1)', '(b, 1)', '(a, 0)', '(b, 0)'];
  const cols = ['10', '01', '00', '11'];
  expectTable(qif.program.channel(program('dcnet-fair')), rows, cols,
    [['1/2', '1/2', '0', '0'], ['1/2', '1/2', '0', '0'], ['0', '0', '1/2', '1/2'], ['0', '0', '1/2', '1/2']]);
  expectTable(qif.program.channel(program('dcnet-biased')), rows, cols,
    [['2/3', '1/3', '0', '0'], ['1/3', '2/3', '0', '0'], ['0', '0', '2/3', '1/3'], ['0', '0', '2/3', '1/3']]);
});

test('randomized response: Warner with a fair coin is 3/4 truthful, the prior as declared', () => {
  const r = qif.program.channel(program('randomized-response'));
  expectTable(r, ['yes', 'no'], ['yes', 'no'], [['3/4', '1/4'], ['1/4', '3/4']]);
  assert.deepEqual(r.exact.prior, ['3/10', '7/10']);
  // ε = ln 3 exactly: the largest ratio of a column's entries.
  assert.ok(Math.abs(qif.privacy.epsilon(r.channel, { n: 2, edges: [[0, 1]] }) - Math.log(3)) < 1e-12);
});

test('every example runs, rows sum to exactly 1', () => {
  for (const e of examples) {
    const r = qif.program.channel(e.program);
    for (const row of r.exact.channel) {
      let n = 0n;
      let d = 1n;
      for (const f of row) {
        const [a, b = '1'] = f.split('/');
        n = n * BigInt(b) + BigInt(a) * d;
        d *= BigInt(b);
      }
      assert.equal(n, d, `${e.id}: a row sums to ${n}/${d}`);
    }
  }
});

test('60 merged coin flips: 61 states, Binomial(60, 1/2) exactly', () => {
  const r = qif.program.channel(program('coin-flips'));
  assert.equal(r.states, 61);
  let c = 1n; // C(60, k), computed here
  for (let k = 0; k <= 60; k++) {
    const j = r.observations.indexOf(String(k));
    const two60 = 1n << 60n;
    const g = ((a, b) => { while (b) [a, b] = [b, a % b]; return a; })(c, two60);
    assert.equal(r.exact.channel[0][j], `${c / g}/${two60 / g}`);
    c = (c * BigInt(60 - k)) / BigInt(k + 1);
  }
});

test('errors: line and column as properties, the message starts with them', () => {
  const cases = [
    ['secret pwd in 0..3\nguess = 2\nok = guess == pw\nobserve ok', 3, 15, '`pw` is not defined — did you mean `pwd`?'],
    ['secret x in 0..3\nobserve "a" + 1', 2, 13, 'cannot add a string and a number'],
    ['secret x in 0..3\nl = [10, 20, 30]\nobserve l[x]', 3, 10, 'index 3 is out of range'],
    ['secret x in 0..1\ni = 0\nwhile i >= 0 {\n  i = i + 1\n}', 3, 1, 'has not finished after 1000 iterations'],
    ['secret x in {0: 0.5, 1: 0.25}\nobserve x', 1, 13, 'sum to 3/4, not 1'],
    ['secret x in 0..1\nobserve "abc', 2, 9, 'string is not closed'],
  ];
  for (const [src, line, column, words] of cases) {
    assert.throws(() => qif.program.channel(src, { stepBudget: 1000 }), (e) => {
      assert.equal(e.constructor, Error);
      assert.equal(e.line, line, src);
      assert.equal(e.column, column, src);
      assert.ok(e.message.startsWith(`program.channel: line ${line}, column ${column}: `), e.message);
      assert.ok(e.message.includes(words), e.message);
      return true;
    });
  }
  // An argument error has no position.
  assert.throws(() => qif.program.channel(42), (e) => e.line === undefined && /program\.channel: source: expected a string/.test(e.message));
  assert.throws(() => qif.program.channel('secret x in 0..1\nobserve x', { stepBudget: 0 }), /stepBudget: expected a positive integer/);
  assert.throws(() => qif.program.channel('secret x in 0..1\nobserve x', { steps: 5 }), /steps/);
});

test('check: every problem, in source order, without running', () => {
  const r = qif.program.check('secret pwd in 0..3\nobserve pw\nobserve "a" - 1\nobserve lenn(pwd)');
  assert.equal(r.ok, false);
  assert.deepEqual(r.diagnostics.map((d) => [d.line, d.column]), [[2, 9], [3, 13], [4, 9]]);
  assert.match(r.diagnostics[2].message, /`lenn` is not a function — did you mean `len`\?/);
  assert.deepEqual(qif.program.check(program('password')), { ok: true, diagnostics: [] });
  // A run-time problem is not a check's: index 3 of a 3-list is found only by running.
  assert.equal(qif.program.check('secret x in 0..3\nl = [10, 20, 30]\nobserve l[x]').ok, true);
});

test('onProgress reports {done, total} and cancels with an AbortError', () => {
  const seen = [];
  assert.throws(() => qif.program.channel('secret x in 0..99999\ns = 0\nfor i in 1..50 {\n  s = s + i * x\n}\nobserve s % 7', {
    onProgress: (p) => { seen.push(p); return false; },
  }), (e) => e.name === 'AbortError' && e.message === 'program.channel: cancelled');
  assert.equal(seen.length, 1);
  // The first report comes before any work: nothing done yet, the number of rows known.
  assert.deepEqual([seen[0].done, seen[0].total], [0, 100000]);
  // Later reports count the secret values run so far.
  const later = [];
  qif.program.channel('secret x in 0..99999\ns = 0\nfor i in 1..50 {\n  s = s + i * x\n}\nobserve s % 7', { onProgress: (p) => { later.push(p.done); } });
  assert.ok(later.every((d, i) => d >= 0 && d <= 100000 && (i === 0 || d >= later[i - 1])), `reports ${later.join(', ')}`);
});

test('the state budget is an option', () => {
  const src = 'secret x in 0..1\nv = 0\nfor i in 1..12 {\n  v = 2 * v + flip(1/2)\n}\nobserve v % 3';
  assert.equal(qif.program.channel(src).states, 4096);
  assert.throws(() => qif.program.channel(src, { stateBudget: 100 }), (e) => e.line === 3 && /more than 100 distinct states/.test(e.message));
});

test('before the exact module is loaded, a call says how to load it', async () => {
  const fresh = await load();
  assert.throws(() => fresh.program.check('secret x in 0..1'), /await qif\.exact\.load\(\)/);
  await fresh.exact.load();
  assert.equal(fresh.program.check('secret x in 0..1\nobserve x').ok, true);
});

test('long expressions run in a stack of fixed depth (no RangeError), and the engine stays usable', () => {
  const chain = (head, op, term, n) => head + (op + term).repeat(n);
  for (const n of [10000, 100000]) {
    const sources = [
      'secret x in 0..1\nobserve ' + chain('x', ' + ', '1', n),
      'secret x in 0..1\nt = x == x\nobserve ' + chain('t', ' and ', 't', n),
      'secret x in 0..1\ns = str(x)\nobserve len(' + chain('s', ' + ', 's', n / 10) + ')',
      'secret x in 0..1\ns = str(x)\nobserve ' + chain('s', '', '[0]', n),
      'secret x in 0..1\nobserve ' + chain('x', ' - ', 'x', n) + ' + flip(1/2)',
      'secret x in 0..1\nobserve ' + 'not '.repeat(100000) + '(x == 0)',
    ];
    for (const src of sources) {
      assert.deepEqual(qif.program.check(src), { ok: true, diagnostics: [] }, src.slice(0, 60));
      const r = qif.program.channel(src);
      assert.deepEqual(r.secrets, ['0', '1'], src.slice(0, 60));
    }
  }
  assert.deepEqual(qif.program.channel('secret x in 0..1\nobserve ' + chain('x', ' + ', '1', 10000)).observations, ['10000', '10001']);
  // Nesting that is not a chain (parentheses) is bounded, with a position.
  assert.throws(() => qif.program.channel('secret x in 0..1\nobserve ' + '('.repeat(300) + 'x' + ')'.repeat(300)),
    (e) => e.line === 2 && e.column > 9 && /nested too deeply/.test(e.message));
  // Values nested in a loop (l = [l]) stop at 1,000 levels, with the loop's line.
  assert.throws(() => qif.program.channel('secret x in 0..1\nl = [x]\nfor i in 1..15000 {\n  l = [l]\n}\nobserve l == l'),
    (e) => e.line === 4 && /nested more than 1000 levels deep/.test(e.message));
  assert.equal(qif.program.channel('secret x in 0..1\nobserve x').observations.length, 2);
});

test('messages: every compile error in error.errors, an index of 1/2, a string built to 100,000 characters', () => {
  const src = 'secret pwd in 0..3\nobserve pw\nobserve "a" - 1\nobserve lenn(pwd)';
  assert.throws(() => qif.program.channel(src), (e) => {
    assert.equal(e.line, 2);
    assert.equal(e.column, 9);
    assert.match(e.message, /^program\.channel: line 2, column 9: `pw` is not defined/);
    assert.deepEqual(e.errors, qif.program.check(src).diagnostics);
    assert.equal(e.errors.length, 3);
    return true;
  });
  // A run-time error has one position and no list.
  assert.throws(() => qif.program.channel('secret x in 0..1\nl = [1, 2]\nobserve l[x / 2]'),
    (e) => e.errors === undefined && e.line === 3 && /an index must be an integer, but this is 1\/2, not an integer/.test(e.message));
  // The work budget lets a string grow one character at a time to the 100,000-character limit.
  const r = qif.program.channel('secret x in 0..1\ns = ""\nfor i in 1..100000 {\n  s = s + "ab"[x]\n}\nobserve len(s)');
  assert.deepEqual(r.observations, ['100000']);
  assert.throws(() => qif.program.channel('secret x in 0..1\ns = ""\nfor i in 1..100001 {\n  s = s + "a"\n}\nobserve len(s)'),
    /a string grew beyond 100000 characters/);
});

test('messages elsewhere: an integer option past 2^53 names the largest accepted; mechanism.optimal refusal names the graph', async () => {
  const more = await load();
  assert.throws(() => more.channel.sample([0.5, 0.5], [[1, 0], [0, 1]], 3, { seed: 2 ** 60 }),
    (e) => e.argument === 'seed' && /seed: expected a non-negative integer of at most 2\^53 = 9007199254740992 in absolute value, got/.test(e.message));
  assert.throws(() => more.mechanism.optimal(more.graph.path(4), 1),
    (e) => e.argument === 'graph' && /^mechanism\.optimal: graph: Theorem 6\.2's mechanism/.test(e.message));
});
