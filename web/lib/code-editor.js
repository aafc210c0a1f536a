// lib/code-editor.js — a small editor for program text: a textarea beside a gutter of line
// numbers, the lines with a problem marked in the gutter, and Tab / Shift-Tab indenting and
// dedenting (the line, or every line of the selection) instead of leaving the field. Escape, then
// Tab, leaves it as usual (so that a keyboard user is never trapped). No styles here: the host
// gives .code-editor, .code-lines (the gutter; .line.error marks a line) and .code-source theirs.
//
//   const ed = codeEditor({ value, label: 'Program', onInput: () => … });
//   parent.append(ed.el); ed.mark([3]); ed.value(); ed.setValue(text);

import { h, replace } from './dom.js';

/** One level of indentation, as the program examples write it. */
export const INDENT = '    ';

/**
 * The text after Tab (or Shift-Tab when `out`) on the selection [start, end) of `text`:
 * {text, start, end}. With no selection Tab inserts spaces up to the next multiple of the indent
 * width; a selection over one or more lines indents (dedents) each line it touches, and
 * Shift-Tab alone dedents the caret's line.
 */
export function indentEdit(text, start, end, out = false) {
  const w = INDENT.length;
  if (!out && start === end) {
    const col = start - (text.lastIndexOf('\n', start - 1) + 1);
    const pad = ' '.repeat(w - (col % w));
    return { text: text.slice(0, start) + pad + text.slice(end), start: start + pad.length, end: start + pad.length };
  }
  const first = text.lastIndexOf('\n', start - 1) + 1;
  // A selection that ends at the very start of a line does not touch that line.
  const stop = end > start && text[end - 1] === '\n' ? end - 1 : end;
  const lastEnd = text.indexOf('\n', stop);
  const to = lastEnd === -1 ? text.length : lastEnd;
  const lines = text.slice(first, to).split('\n');
  const strips = lines.map((line) => (!out ? 0 : line.startsWith('\t') ? 1 : Math.min(w, line.match(/^ */)[0].length)));
  const add = out ? 0 : w;
  const changed = lines.map((line, i) => (out ? line.slice(strips[i]) : INDENT + line));
  // Where a position of the old text is in the new one: after the lines above it moved, at its
  // line's start if it was inside the whitespace taken away.
  const map = (p) => {
    let shift = 0;
    let at = first;
    for (let i = 0; i < lines.length && p >= at; i++) {
      if (p < at + strips[i]) return at + shift;
      shift += add - strips[i];
      at += lines[i].length + 1;
    }
    return p + shift;
  };
  const s = map(start);
  const e = map(end);
  return { text: text.slice(0, first) + changed.join('\n') + text.slice(to), start: s, end: e };
}

/**
 * The editor. `value`: its text; `label`: the textarea's accessible name; `onInput(text)`: after
 * each edit; `testid`: data-testid prefix (…-source, …-lines).
 * @returns {{el: HTMLElement, textarea: HTMLTextAreaElement, value(): string, setValue(t: string): void, mark(lines: number[]): void}}
 */
export function codeEditor({ value = '', label = 'Program', onInput = () => {}, testid = 'editor', rows } = {}) {
  const lines = h('pre', { class: 'code-lines', 'aria-hidden': 'true', 'data-testid': `${testid}-lines` });
  const source = h('textarea', {
    class: 'code-source', 'data-testid': `${testid}-source`, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off',
    'aria-label': label, wrap: 'off',
  });
  // As tall as the text and as wide as its longest line and a little more, so that the program is
  // read without scrolling (a given `rows` wins).
  const fit = (text) => {
    const lines = text.split('\n');
    source.rows = rows ?? Math.max(3, lines.length);
    source.cols = Math.max(20, ...lines.map((l) => l.replace(/\t/g, INDENT).length)) + 3;
  };
  fit(value);
  source.value = value;
  const el = h('div', { class: 'code-editor' }, lines, source);
  let marked = new Set();

  function renderLines() {
    const n = source.value.split('\n').length;
    const spans = [];
    for (let i = 1; i <= n; i++) spans.push(h('span', { class: marked.has(i) ? 'line error' : 'line', 'data-line': String(i) }, `${i}\n`));
    replace(lines, ...spans);
    lines.scrollTop = source.scrollTop;
  }
  source.addEventListener('scroll', () => { lines.scrollTop = source.scrollTop; });

  // Escape lets the next Tab leave the field, as in most code editors of the web.
  let escaped = false;
  source.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { escaped = true; return; }
    if (e.key !== 'Tab' || e.ctrlKey || e.altKey || e.metaKey) { escaped = false; return; }
    if (escaped) { escaped = false; return; }
    e.preventDefault();
    const r = indentEdit(source.value, source.selectionStart, source.selectionEnd, e.shiftKey);
    if (r.text === source.value) return;
    // Through the editing commands where the browser has them, so that Undo undoes the indent.
    source.setSelectionRange(0, source.value.length);
    if (!(typeof document.execCommand === 'function' && document.execCommand('insertText', false, r.text)) || source.value !== r.text) {
      source.value = r.text;
      source.dispatchEvent(new Event('input', { bubbles: true }));
    }
    source.setSelectionRange(r.start, r.end);
  });
  source.addEventListener('input', () => {
    renderLines();
    onInput(source.value);
  });
  renderLines();

  return {
    el,
    textarea: source,
    value: () => source.value,
    setValue(t) {
      fit(t);
      source.value = t;
      renderLines();
    },
    mark(list) {
      marked = new Set(list);
      source.setAttribute('aria-invalid', marked.size ? 'true' : 'false');
      renderLines();
    },
  };
}
