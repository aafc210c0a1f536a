// The page's program editor without a browser: indentation (lib/code-editing.js), the habits of
// other languages named over the engine's diagnostics and the warning of a program that observes
// nothing (lib/program-habits.js), and reordering the channel's rows and columns
// (sections/channel/order.js). Expected texts and orders are written here by hand.
import test from 'node:test';
import assert from 'node:assert/strict';
import { indentEdit, INDENT } from '../../web/lib/code-editing.js';
import { habitOn, explainHabits, noObserveWarning, maskLine } from '../../web/lib/program-habits.js';
import * as O from '../../web/sections/channel/order.js';
import { EntryMatrix } from '../../web/input/matrix.js';

test('Tab indents at the caret or every selected line; Shift-Tab outdents', () => {
  assert.equal(INDENT, '    ');
  // A caret: four spaces inserted there, the caret after them.
  let e = indentEdit('if c {\nx = 1\n}', 7, 7);
  assert.equal(e.text, 'if c {\n    x = 1\n}');
  assert.deepEqual([e.start, e.end], [11, 11]);
  // Two lines selected (from the middle of the first to the middle of the second): both move.
  const src = 'a = 1\nb = 2\nc = 3';
  e = indentEdit(src, 2, 8);
  assert.equal(e.text, '    a = 1\n    b = 2\nc = 3');
  assert.deepEqual([e.start, e.end], [6, 16]);
  // A selection ending at the start of a line does not take that line.
  e = indentEdit(src, 0, 6);
  assert.equal(e.text, '    a = 1\nb = 2\nc = 3');
  // Shift-Tab: at most one level off each line, none off a line without indentation.
  e = indentEdit('    a\n  b\nc', 0, 11, true);
  assert.equal(e.text, 'a\nb\nc');
  e = indentEdit('x\n        y', 6, 6, true);
  assert.equal(e.text, 'x\n    y');
  assert.equal(e.start, 2, 'the caret moves with its text (4 spaces left)');
  // The replaced range and its text rebuild the new text (what an undoable insert needs).
  for (const [t, s0, s1, out] of [[src, 2, 8, false], ['    a\n  b\nc', 0, 11, true], ['abc', 1, 1, false]]) {
    const r = indentEdit(t, s0, s1, out);
    assert.equal(t.slice(0, r.from) + r.insert + t.slice(r.to), r.text);
  }
});

test('habits of Python, C and JavaScript are named, at their own column', () => {
  const cases = [
    ['    break', 5, /no `break`/],
    ['    return x', 5, /no `return`/],
    ['if a = b {', 6, /did you mean `==`\?/],
    ['} else if guess[i] = 1 {', 20, /did you mean `==`\?/],
    ['} elif x == 1 {', 3, /no `elif`; write `\} else if c \{`/],
    ['if a && b {', 6, /no `&&`; write `and`/],
    ['if a || b {', 6, /no `\|\|`; write `or`/],
    ['if !done {', 4, /no `!` for “not”; write `not`/],
    ['x += 1', 3, /no `\+=`; write `x = x \+ …`/],
    ['i++', 2, /no `\+\+`/],
    ['ok = True', 6, /writes `true`/],
    ['for (i = 0; i < 3; i = i + 1) {', 5, /C-style/],
    ['for i in range(3) {', 10, /no `range`/],
    ['if x == 1:', 10, /braces/],
    ['print(x)', 1, /no `print`/],
    ['y = a ^ b', 7, /write `xor`/],
  ];
  for (const [line, column, re] of cases) {
    const hb = habitOn(line);
    assert.ok(hb, `${line}: a habit`);
    assert.match(hb.message, re, line);
    assert.equal(hb.column, column, `${line}: column`);
  }
  // Valid lines of the language are left alone, and so are habits inside strings and comments.
  for (const line of ['if a == b and not c {', 'while i < 3 and out != "OK" {', 'x = a xor b', 'observe "a && b; break"',
    '} else if x <= 1 {', 'y = x # break here, like C', 'for x in 0..7 {', 'd = choose {1: 1/2, 0: 1/2}', 'x = 3 - -1']) {
    assert.equal(habitOn(line), null, line);
  }
  assert.equal(maskLine('x = "a#b" # c').length, 'x = "a#b" # c'.length);
  // Over the engine's diagnostics: the message replaced, the engine's kept; other errors untouched.
  const src = 'secret x in 0..3\nif x = 1 {\n    observe 1\n}\nobserve y';
  const out = explainHabits(src, [{ line: 2, column: 6, message: 'expected `{`' }, { line: 5, column: 9, message: '`y` is not defined' }]);
  assert.deepEqual(out[0], { line: 2, column: 6, message: out[0].message, engine: 'expected `{`' });
  assert.match(out[0].message, /did you mean `==`/);
  assert.deepEqual(out[1], { line: 5, column: 9, message: '`y` is not defined' });
  // A brace noticed one line late: the habit on the line before is named.
  const late = explainHabits('secret x in 0..1\nif x == 1:\n    observe x', [{ line: 3, column: 5, message: 'expected `{`' }]);
  assert.equal(late[0].line, 2);
});

test('a program that observes nothing gets a warning on its last line of code', () => {
  const w = noObserveWarning('secret x in 0..7\ny = x + 1\n# no observe here\n\n');
  assert.equal(w.severity, 'warning');
  assert.equal(w.line, 2, 'the last line with code');
  assert.match(w.message, /^nothing is observed: every secret gives the same output/);
  assert.equal(noObserveWarning('secret x in 0..7\nobserve x % 2'), null);
  assert.equal(noObserveWarning('secret x in 0..1\nif x == 1 { observe "a" }'), null);
  assert.notEqual(noObserveWarning('secret x in 0..1\ny = "observe"'), null, 'a string is not a statement');
  assert.equal(noObserveWarning('   '), null, 'nothing written, nothing to warn about');
});

function channelState(secrets, observables, rows, prior = null) {
  const n = secrets.length;
  const m = observables.length;
  const M = new EntryMatrix(n, m);
  rows.forEach((r, i) => r.forEach((v, j) => M.set(i, j, String(v))));
  return {
    secrets: secrets.slice(), observables: observables.slice(), cells: M,
    prior: prior ?? new Array(n).fill(`1/${n}`), priorUniform: !prior,
    gainIdentity: false, gain: [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map((r) => r.map(String)), gainLabels: ['g1', 'g2', 'g3'],
  };
}

test('rows and columns sorted by label or value, and moved, keep every entry with its labels', () => {
  const s = channelState(['x10', 'x2', 'x1'], ['b', 'a', 'c'], [[0.5, 0.5, 0], [0, 0, 1], [0.25, 0.25, 0.5]], ['1/2', '1/3', '1/6']);
  const before = new Map();
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) before.set(`${s.secrets[i]}|${s.observables[j]}`, s.cells.text(i, j));
  // By label, numbers as numbers: x1, x2, x10.
  assert.deepEqual(O.rowOrder(s, 'label'), [2, 1, 0]);
  assert.deepEqual(O.rowOrder(s, 'prior'), [0, 1, 2], 'prior 1/2, 1/3, 1/6: already largest first');
  // p(y) = Σ π(x) C(x, y): b = 1/2·1/2 + 1/6·1/4 = 7/24, a = 7/24, c = 1/3 + 1/12 = 5/12.
  const q = O.outputProbabilities(s);
  [7 / 24, 7 / 24, 5 / 12].forEach((v, j) => assert.ok(Math.abs(q[j] - v) < 1e-15, `p(y${j})`));
  assert.deepEqual(O.colOrder(s, 'probability'), [2, 0, 1], 'c first, then b and a in their order (a stable sort)');
  assert.ok(O.permuteRows(s, O.rowOrder(s, 'label')));
  assert.ok(O.permuteCols(s, O.colOrder(s, 'label')));
  assert.deepEqual(s.secrets, ['x1', 'x2', 'x10']);
  assert.deepEqual(s.observables, ['a', 'b', 'c']);
  assert.deepEqual(s.prior, ['1/6', '1/3', '1/2'], 'the prior follows its rows');
  assert.deepEqual(s.gain, [['0', '0', '1'], ['0', '1', '0'], ['1', '0', '0']], 'the gain’s columns follow the secrets');
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(s.cells.text(i, j), before.get(`${s.secrets[i]}|${s.observables[j]}`), `(${s.secrets[i]}, ${s.observables[j]})`);
  // Moving: item 0 to place 2, the others in their order.
  assert.deepEqual(O.moveOrder(4, 0, 2), [1, 2, 0, 3]);
  assert.deepEqual(O.moveOrder(4, 3, 0), [3, 0, 1, 2]);
  O.permuteCols(s, O.moveOrder(3, 2, 0));
  assert.deepEqual(s.observables, ['c', 'a', 'b']);
  assert.equal(s.cells.text(0, 0), before.get('x1|c'));
  assert.equal(O.permuteRows(s, [0, 1, 2]), false, 'the same order is no edit');
});
