// lib/code-editing.js — the keys of a program editor (a textarea): Tab indents and Shift-Tab
// outdents the current line or every selected line, as in the code editors students know.
//
// A textarea that keeps Tab traps keyboard users, so Escape releases it: after Escape, the next
// Tab (or Shift-Tab) moves the focus as usual; any other key takes Tab back. The editor's hint
// says so (INDENT_HINT). Edits go through execCommand('insertText') where the browser has it, so
// that Ctrl-Z undoes an indent like any typing; the fallback sets the text and sends 'input'.

/** One level of indentation: four spaces, as the examples and the documentation write. */
export const INDENT = '    ';

/** The sentence an editor's hint carries, so that keyboard users know how to leave it. */
export const INDENT_HINT = 'Tab indents and Shift-Tab outdents (the selected lines too); press Escape, then Tab, to leave the editor.';

/**
 * The text and selection after indenting (or outdenting, `out`) the lines the selection
 * [start, end) touches. A caret (start = end) indents by inserting INDENT at the caret, and
 * outdents its line. Pure: tests call it without a page.
 * @returns {{text: string, start: number, end: number, from: number, to: number, insert: string}}
 *   the new text and selection, and the replaced range [from, to) of the old text with its
 *   replacement (what an undoable insertText needs).
 */
export function indentEdit(text, start, end, out = false) {
  if (!out && start === end) {
    return { text: text.slice(0, start) + INDENT + text.slice(end), start: start + INDENT.length, end: start + INDENT.length, from: start, to: end, insert: INDENT };
  }
  const from = text.lastIndexOf('\n', start - 1) + 1;
  // A selection that ends at the start of a line does not take that line.
  const last = end > start && text[end - 1] === '\n' ? end - 1 : end;
  let to = text.indexOf('\n', last);
  if (to < 0) to = text.length;
  const lines = text.slice(from, to).split('\n');
  let shiftFirst = 0;
  let shiftAll = 0;
  const changed = lines.map((line, i) => {
    let delta;
    let next;
    if (out) {
      const lead = /^( {1,4}|\t)/.exec(line);
      delta = lead ? -lead[0].length : 0;
      next = lead ? line.slice(lead[0].length) : line;
    } else if (line.trim() === '' && lines.length > 1) {
      delta = 0; // empty lines of a block stay empty
      next = line;
    } else {
      delta = INDENT.length;
      next = INDENT + line;
    }
    if (i === 0) shiftFirst = delta;
    shiftAll += delta;
    return next;
  });
  const insert = changed.join('\n');
  const firstCol = start - from;
  // The caret or the selection's start moves with its line, never before the line's start.
  const newStart = start !== end && firstCol === 0 ? from : Math.max(from, start + (shiftFirst < 0 ? Math.max(shiftFirst, -firstCol) : shiftFirst));
  const newEnd = start === end ? newStart : Math.max(newStart, end + shiftAll);
  return { text: text.slice(0, from) + insert + text.slice(to), start: newStart, end: newEnd, from, to, insert };
}

/** Applies an edit to the textarea, undoably where the browser allows. */
function apply(ta, edit) {
  ta.setSelectionRange(edit.from, edit.to);
  let done = false;
  try {
    done = typeof document.execCommand === 'function' && document.execCommand('insertText', false, edit.insert);
  } catch { done = false; }
  if (!done || ta.value !== edit.text) {
    ta.value = edit.text;
    ta.dispatchEvent(new Event('input', { bubbles: true }));
  }
  ta.setSelectionRange(edit.start, edit.end);
}

/**
 * Gives the textarea Tab and Shift-Tab indentation, with Escape to let the next Tab leave.
 * Returns a function that removes the handler.
 */
export function enableIndentKeys(ta) {
  let released = false;
  const onKey = (ev) => {
    if (ev.key === 'Escape') { released = true; return; }
    if (ev.key !== 'Tab') {
      if (!['Shift', 'Control', 'Alt', 'Meta'].includes(ev.key)) released = false;
      return;
    }
    if (released || ev.ctrlKey || ev.altKey || ev.metaKey || ta.readOnly || ta.disabled) {
      released = false;
      return; // the browser moves the focus
    }
    ev.preventDefault();
    apply(ta, indentEdit(ta.value, ta.selectionStart, ta.selectionEnd, ev.shiftKey));
  };
  const onBlur = () => { released = false; };
  ta.addEventListener('keydown', onKey);
  ta.addEventListener('blur', onBlur);
  return () => { ta.removeEventListener('keydown', onKey); ta.removeEventListener('blur', onBlur); };
}
