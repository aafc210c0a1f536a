// lib/code-editor.js — a small editor for program text: a textarea beside a gutter of line
// numbers, the lines with a problem marked in the gutter, and the page editor's keys
// (lib/code-editing.js: Tab / Shift-Tab indent and outdent; Escape, then Tab, leaves the
// field). No styles here: the host gives .code-editor, .code-lines (the gutter; .line.error
// marks a line) and .code-source theirs.
//
//   const ed = codeEditor({ value, label: 'Program', onInput: () => … });
//   parent.append(ed.el); ed.mark([3]); ed.value(); ed.setValue(text);

import { h, replace } from './dom.js';
import { INDENT, indentEdit, enableIndentKeys } from './code-editing.js';

export { INDENT, indentEdit };

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

  enableIndentKeys(source);
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
