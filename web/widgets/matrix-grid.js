// widgets/matrix-grid.js — the matrix of <qif-channel> and <qif-refinement>: a table of text inputs
// (or of plain text, read-only) that scrolls sideways in its own box when wider than the widget.
import { h } from '../lib/dom.js';
import { parseNumber as readNumber } from '../input/number.js';

// An editable grid of text inputs; returns the table and a reader for the parsed values.
export function matrixGrid({ texts, rowLabels, colLabels, prior, readonly, label, idPrefix, onInput }) {
  const table = h('table', { class: 'grid', 'data-testid': `${idPrefix}-table` });
  const head = h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'w-src' }, label)));
  colLabels.forEach((c) => head.append(h('th', { scope: 'col' }, c)));
  if (prior) head.append(h('th', { scope: 'col', class: 'prior' }, 'π'));
  table.append(h('thead', {}, head));
  const body = h('tbody');
  const cell = (text, testid, aria) => {
    if (readonly) return h('td', { class: 'ro', 'data-testid': testid }, text);
    const input = h('input', { type: 'text', value: text, 'aria-label': aria, 'data-testid': testid, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false' });
    input.addEventListener('input', () => onInput?.());
    return h('td', {}, input);
  };
  texts.forEach((row, i) => {
    const tr = h('tr', {}, h('th', { scope: 'row' }, rowLabels[i]));
    row.forEach((t, j) => tr.append(cell(t, `${idPrefix}-${i}-${j}`, `${label}(${rowLabels[i]}, ${colLabels[j]})`)));
    if (prior) {
      const td = cell(prior[i], `prior-${i}`, `π(${rowLabels[i]})`);
      td.classList.add('prior');
      tr.append(td);
    }
    body.append(tr);
  });
  table.append(body);
  // When the matrix is wider than the widget, a line under it says so: a phone shows its
  // scrollbar only while scrolling. A read-only matrix's box takes the focus, to scroll by keys.
  const box = h('div', { class: 'scroll', 'data-testid': `${idPrefix}-scroll`, ...(readonly ? { tabindex: '0', role: 'region', 'aria-label': `matrix ${label}` } : {}) }, table);
  const hint = h('p', { class: 'scroll-hint', 'data-testid': `${idPrefix}-scroll-hint`, hidden: true },
    `Scroll sideways for all ${colLabels.length} columns${prior ? '; the secrets and π stay in view' : ''}.`);
  const view = h('div', { class: 'scroll-wrap' }, box, hint);
  if (typeof ResizeObserver === 'function') {
    const fit = () => {
      const over = box.scrollWidth > box.clientWidth + 1;
      hint.hidden = !over;
      box.dataset.overflow = String(over);
    };
    const watch = new ResizeObserver(fit);
    watch.observe(box);
    watch.observe(table);
  }

  // Reads the current entries: {C, prior} or {error} naming the first bad cell.
  const read = () => {
    if (readonly) return null;
    const inputs = [...body.querySelectorAll('input')];
    const m = texts[0].length + (prior ? 1 : 0);
    const C = texts.map(() => []);
    const Ct = texts.map(() => []);
    const p = [];
    const pt = [];
    let error = null;
    inputs.forEach((input, k) => {
      const i = Math.floor(k / m);
      const j = k % m;
      const r = readNumber(input.value);
      const bad = 'error' in r;
      input.setAttribute('aria-invalid', bad ? 'true' : 'false');
      const where = prior && j === m - 1 ? `π(${rowLabels[i]})` : `${label}(${rowLabels[i]}, ${colLabels[j]})`;
      if (bad && !error) error = `${where}: ${r.error}`;
      if (prior && j === m - 1) {
        p.push(r.value);
        pt.push(input.value);
      } else {
        C[i].push(r.value);
        Ct[i].push(input.value);
      }
    });
    return error ? { error } : { C, prior: p, texts: { C: Ct, prior: pt } };
  };
  return { view, read };
}
