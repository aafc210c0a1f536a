// The indenting of lib/code-editor.js (Tab and Shift-Tab in <qif-program editable>), on text and a
// selection, with the expected texts and carets written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indentEdit as edit } from '../../web/lib/code-editor.js';

// The text and selection of an edit (the page's editor also returns the replaced range).
const indentEdit = (...a) => { const r = edit(...a); return { text: r.text, start: r.start, end: r.end }; };

test('Tab without a selection inserts one indent at the caret', () => {
  assert.deepEqual(indentEdit('ab\ncd', 1, 1), { text: 'a    b\ncd', start: 5, end: 5 });
  assert.deepEqual(indentEdit('x', 0, 0), { text: '    x', start: 4, end: 4 });
});

test('Tab over a selection indents every line it touches, and the selection moves with the text', () => {
  // From "b" of line 1 to "c" of line 2 (offset 4): both lines, not the third.
  assert.deepEqual(indentEdit('ab\ncd\nef', 1, 4), { text: '    ab\n    cd\nef', start: 5, end: 12 });
  // A selection ending at the start of a line does not touch that line; one starting at a line's
  // start keeps its whole first line, indent included.
  assert.deepEqual(indentEdit('ab\ncd\n', 0, 3), { text: '    ab\ncd\n', start: 0, end: 7 });
});

test('Shift-Tab dedents by up to four spaces or one tab; a caret inside the removed spaces goes to the line start', () => {
  assert.deepEqual(indentEdit('    ab\n  cd\nef', 2, 9, true), { text: 'ab\ncd\nef', start: 0, end: 3 });
  assert.deepEqual(indentEdit('\t\tx', 3, 3, true), { text: '\tx', start: 2, end: 2 });
  assert.deepEqual(indentEdit('      y', 7, 7, true), { text: '  y', start: 3, end: 3 });
  // Nothing to dedent: the text is unchanged.
  assert.deepEqual(indentEdit('z', 1, 1, true), { text: 'z', start: 1, end: 1 });
});
