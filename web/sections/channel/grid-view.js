// sections/channel/grid-view.js — the editable channel of the "Channel & leakage" section, with its
// prior column (the gain's table is gain-view.js). Built from the state (state.js); the tables are
// rebuilt on structural changes and (the channel) on scrolling, never while a cell is typed in,
// so that focus and the caret stay put. Validation messages are applied cell by cell. Its cells
// are grid-cells.js; the keyboard moves and the drags of rows and columns, grid-keys.js.
//
// The channel grid renders only what is in view once it is larger than FULL_ROWS × FULL_COLS:
// the rows and columns around the scroll position, with spacers standing for the others, so
// that a 2,000 × 2,000 channel is ~500 inputs rather than 4,000,000. The row labels stay at the
// left edge and the row sums (with their messages) at the right edge of the grid at every width.

import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { cellInput, dragHandle, removeButton, spacerCell, spacerRow } from './grid-cells.js';

/** Up to this many rows (and columns) the channel grid is drawn whole. */
export const FULL_ROWS = 40;
export const FULL_COLS = 30;
/** Rows and columns drawn beyond those in view on each side. */
const OVERSCAN = 3;

/**
 * The channel grid: labels, prior column, cells, row sums and the prior's sum, drawn for the
 * window in view (the whole matrix when it is small).
 */
export class ChannelGrid {
  /**
   * @param {HTMLTableElement} table
   * @param {HTMLElement} wrap   its scrolling container
   * @param {() => object} state  the section's state (state.js)
   * @param {(window: {r0, r1, c0, c1, n, m, virtual: boolean}) => void} [onWindow]  after each drawing
   */
  constructor(table, wrap, state, onWindow = () => {}) {
    this.table = table;
    this.wrap = wrap;
    this.state = state;
    this.onWindow = onWindow;
    this.rowH = 36;
    this.colW = 92;
    this.measured = false;
    this.measuring = false; // a measure() is waiting for the next frame
    this.win = null;
    this.inputs = new Map(); // "c:i:j" | "p:i" → input, for the window drawn
    this.sums = new Map(); // row → its sum cell
    this.shown = new Map(); // message shown per key
    this.checked = null;
    let pending = false;
    wrap.addEventListener('scroll', () => {
      if (pending || !this.virtual) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        const w = this.window();
        const old = this.win;
        // Redraw once the view leaves the rows and columns drawn beyond it.
        if (!old || w.r0 !== old.r0 || w.c0 !== old.c0 || w.r1 !== old.r1 || w.c1 !== old.c1) this.render();
      });
    }, { passive: true });
  }

  get virtual() {
    const s = this.state();
    return s.secrets.length > FULL_ROWS || s.observables.length > FULL_COLS;
  }

  /** The rows [r0, r1) and columns [c0, c1) to draw for the current scroll position. */
  window() {
    const s = this.state();
    const n = s.secrets.length;
    const m = s.observables.length;
    const virtual = n > FULL_ROWS || m > FULL_COLS;
    if (!virtual) return { r0: 0, r1: n, c0: 0, c1: m, n, m, virtual };
    let r0 = 0;
    let r1 = n;
    if (n > FULL_ROWS) {
      const view = Math.ceil((this.wrap.clientHeight || 600) / this.rowH);
      r0 = Math.max(0, Math.min(n - view, Math.floor(this.wrap.scrollTop / this.rowH) - OVERSCAN));
      r0 = Math.max(0, r0 - (r0 % 2)); // even: stripes and sizes do not flicker
      r1 = Math.min(n, r0 + view + 2 * OVERSCAN);
    }
    let c0 = 0;
    let c1 = m;
    if (m > FULL_COLS) {
      const view = Math.ceil((this.wrap.clientWidth || 900) / this.colW);
      c0 = Math.max(0, Math.min(m - view, Math.floor(this.wrap.scrollLeft / this.colW) - OVERSCAN));
      c1 = Math.min(m, c0 + view + 2 * OVERSCAN);
    }
    return { r0, r1, c0, c1, n, m, virtual };
  }

  /** Draws the window in view, keeping focus (and the caret) on the same cell if it is drawn. */
  render() {
    const a = document.activeElement;
    const focus = a && this.table.contains(a) && a.dataset.grid === 'channel' ? { r: a.dataset.r, c: a.dataset.c, s: a.selectionStart, e: a.selectionEnd } : null;
    const w = this.window();
    this.win = w;
    // A focused input keeps the cell it stands for: the window is built anew around it.
    if (focus || !this.refill(w)) this.draw(w);
    if (w.virtual && !this.measured && !this.measuring) {
      // Measured in the next frame, where the browser lays the page out anyway: reading the sizes
      // here would force a layout of the new grid inside this task, and another after the writes
      // that follow it (validation messages, focus).
      this.measuring = true;
      requestAnimationFrame(() => {
        this.measuring = false;
        if (this.win?.virtual && !this.measured) this.measure(this.win);
      });
    }
    if (focus) {
      const el = this.table.querySelector(`input[data-grid="channel"][data-r="${focus.r}"][data-c="${focus.c}"]`);
      if (el) {
        el.focus({ preventScroll: true });
        try { el.setSelectionRange(focus.s, focus.e); } catch { /* not a text input */ }
      }
    }
    if (this.checked) this.show(this.checked, true);
    this.onWindow(w);
  }

  // The size of a drawn row and column, once: spacers are sized from them. The window drawn (w,
  // the one on the page) is kept (its overscan absorbs the difference) and only the spacers are
  // resized: drawing it a second time would double the longest task of a large paste.
  measure(w) {
    const row = this.table.tBodies[0]?.querySelector('tr:not(.spacer)');
    const cell = row?.querySelector('td:not(.prior-col):not(.sum-col):not(.spacer)');
    if (!row || !cell || !row.offsetHeight || !cell.offsetWidth) return;
    this.measured = true;
    if (Math.abs(row.offsetHeight - this.rowH) <= 1 && Math.abs(cell.offsetWidth - this.colW) <= 1) return;
    this.rowH = row.offsetHeight;
    this.colW = cell.offsetWidth;
    const size = (el, px, prop) => { if (el) el.style[prop] = `${px}px`; };
    const rows = this.table.tBodies[0].rows;
    const top = rows[0]?.classList.contains('spacer') ? rows[0] : null;
    const bottom = rows[rows.length - 1]?.classList.contains('spacer') ? rows[rows.length - 1] : null;
    size(top?.cells[0], w.r0 * this.rowH, 'height');
    size(bottom?.cells[0], (w.n - w.r1) * this.rowH, 'height');
    for (const tr of [this.table.tHead?.rows[0], ...rows]) {
      if (!tr || tr.classList.contains('spacer')) continue;
      const sp = tr.querySelectorAll(':scope > .spacer');
      const left = w.c0 > 0 ? sp[0] : null;
      const right = w.c1 < w.m ? sp[sp.length - 1] : null;
      for (const [el, px] of [[left, w.c0 * this.colW], [right, (w.m - w.c1) * this.colW]]) {
        if (!el) continue;
        for (const prop of ['width', 'minWidth', 'maxWidth']) size(el, px, prop);
      }
    }
  }

  // The shape of the window drawn: what must be equal for refill() to reuse its elements.
  static shapeOf({ r0, r1, c0, c1, n, m, virtual }) {
    return [r1 - r0, c1 - c0, r0 > 0, r1 < n, c0 > 0, c1 < m, n, m, virtual].join(',');
  }

  /**
   * Shows window w in the elements of the one drawn, when it has the same shape (a scroll of a
   * large grid): its inputs get the values, names and labels of the cells now in view. Creating
   * ~400 inputs anew costs several times more (each text input brings its own shadow tree to
   * style and lay out) and made a jump through a 2,000 × 2,000 grid one long task.
   * Returns false when there is nothing of that shape to reuse.
   */
  refill(w) {
    const { r0, r1, c0, c1, n, m } = w;
    if (!this.drawn || this.drawn !== ChannelGrid.shapeOf(w) || !this.table.tBodies[0]) return false;
    const s = this.state();
    const M = s.cells;
    // The messages shown belong to the cells that were there.
    for (const key of this.shown.keys()) {
      const input = this.inputs.get(key);
      if (input) {
        setFieldMessage(input, input.nextElementSibling, null);
        input.title = '';
      }
    }
    const setInput = (input, { r, c, value, label, testid }) => {
      input.value = value;
      input.setAttribute('aria-label', label);
      input.setAttribute('data-testid', testid);
      input.id = testid;
      input.dataset.r = String(r);
      input.dataset.c = String(c);
    };
    const setRemove = (button, index, label) => {
      button.dataset.index = String(index);
      button.setAttribute('aria-label', label);
    };
    const sizeSpacer = (el, px) => { for (const prop of ['width', 'minWidth', 'maxWidth']) el.style[prop] = `${px}px`; };
    const first = 2 + (c0 > 0 ? 1 : 0); // the first cell of a column in view, in head and rows
    const head = this.table.tHead.rows[0];
    if (c0 > 0) sizeSpacer(head.cells[2], c0 * this.colW);
    if (c1 < m) sizeSpacer(head.cells[first + c1 - c0], (m - c1) * this.colW);
    for (let j = c0; j < c1; j++) {
      const cell = head.cells[first + j - c0];
      const input = cell.querySelector('input');
      const button = cell.querySelector('button.remove');
      const label = s.observables[j];
      setInput(input, { r: -1, c: j, value: label, label: `Label of observable ${j + 1}`, testid: `col-label-${j}` });
      setRemove(button, j, `Remove observable ${j + 1} (${label})`);
    }
    const rows = this.table.tBodies[0].rows;
    if (r0 > 0) rows[0].cells[0].style.height = `${r0 * this.rowH}px`;
    if (r1 < n) rows[rows.length - 1].cells[0].style.height = `${(n - r1) * this.rowH}px`;
    this.inputs = new Map();
    this.sums = new Map();
    for (let i = r0; i < r1; i++) {
      const tr = rows[i - r0 + (r0 > 0 ? 1 : 0)];
      const label = s.secrets[i];
      tr.setAttribute('aria-rowindex', String(i + 2));
      tr.dataset.r = String(i);
      const button = tr.cells[0].querySelector('button.remove');
      const labelInput = tr.cells[0].querySelector('input');
      setRemove(button, i, `Remove secret ${i + 1} (${label})`);
      setInput(labelInput, { r: i, c: -2, value: label, label: `Label of secret ${i + 1}`, testid: `row-label-${i}` });
      labelInput.title = String(label);
      const prior = tr.cells[1].firstElementChild;
      setInput(prior, { r: i, c: -1, value: s.prior[i], label: `Prior probability of secret ${i + 1} (${label})`, testid: `prior-${i}` });
      prior.nextElementSibling.id = `msg-p-${i}`;
      this.inputs.set(`p:${i}`, prior);
      if (c0 > 0) sizeSpacer(tr.cells[2], c0 * this.colW);
      if (c1 < m) sizeSpacer(tr.cells[first + c1 - c0], (m - c1) * this.colW);
      for (let j = c0; j < c1; j++) {
        const input = tr.cells[first + j - c0].firstElementChild;
        const obs = s.observables[j];
        setInput(input, { r: i, c: j, value: M.text(i, j), label: `C(${label}, ${obs}): probability of observing ${obs} when the secret is ${label}`, testid: `cell-${i}-${j}` });
        input.nextElementSibling.id = `msg-c-${i}-${j}`;
        this.inputs.set(`c:${i}:${j}`, input);
      }
      const sum = tr.cells[tr.cells.length - 1];
      sum.setAttribute('data-testid', `rowsum-${i}`);
      sum.id = `rowsum-${i}`;
      this.sums.set(i, sum);
    }
    this.shown = new Map();
    return true;
  }

  draw(w) {
    const { r0, r1, c0, c1, n, m, virtual } = w;
    this.drawn = ChannelGrid.shapeOf(w);
    const s = this.state();
    const M = s.cells;
    const leftPx = c0 * this.colW;
    const rightPx = (m - c1) * this.colW;
    const head = h('tr', { 'aria-rowindex': '1' },
      h('th', { scope: 'col', class: 'corner' }, h('span', { class: 'corner-x', text: 'secret x' }), h('span', { class: 'corner-y', text: 'observable y →' })),
      h('th', { scope: 'col', class: 'prior-col', title: 'prior probability of each secret' }, 'π(x)'),
      leftPx ? spacerCell('th', leftPx) : null,
      Array.from({ length: c1 - c0 }, (_, k) => {
        const j = c0 + k;
        const label = s.observables[j];
        return h('th', { scope: 'col', dataset: { col: String(j) } },
          h('div', { class: 'col-head' },
            cellInput({ grid: 'channel', r: -1, c: j, value: label, label: `Label of observable ${j + 1}`, testid: `col-label-${j}`, kind: 'label' }),
            h('div', { class: 'col-tools' },
              virtual || m <= 1 ? null : dragHandle('col', j, label),
              removeButton('remove-col', j, `Remove observable ${j + 1} (${label})`, 'Remove this column', m <= 1))));
      }),
      rightPx ? spacerCell('th', rightPx) : null,
      h('th', { scope: 'col', class: 'sum-col', title: 'row sum, must be 1' }, 'Σ'));
    const span = 3 + (c1 - c0) + (leftPx ? 1 : 0) + (rightPx ? 1 : 0);
    const body = [];
    if (r0 > 0) body.push(spacerRow(r0 * this.rowH, span));
    this.inputs = new Map();
    this.sums = new Map();
    for (let i = r0; i < r1; i++) {
      const label = s.secrets[i];
      const prior = cellInput({ grid: 'channel', r: i, c: -1, value: s.prior[i], label: `Prior probability of secret ${i + 1} (${label})`, testid: `prior-${i}`, kind: 'prior' });
      this.inputs.set(`p:${i}`, prior);
      const cells = [];
      for (let j = c0; j < c1; j++) {
        const obs = s.observables[j];
        const input = cellInput({ grid: 'channel', r: i, c: j, value: M.text(i, j), label: `C(${label}, ${obs}): probability of observing ${obs} when the secret is ${label}`, testid: `cell-${i}-${j}`, kind: 'cell' });
        this.inputs.set(`c:${i}:${j}`, input);
        cells.push(h('td', {}, input, h('span', { class: 'msg', id: `msg-c-${i}-${j}` })));
      }
      const sum = h('td', { class: 'sum-col', 'data-testid': `rowsum-${i}`, id: `rowsum-${i}` }, h('span', { class: 'sum' }), h('span', { class: 'msg' }));
      this.sums.set(i, sum);
      body.push(h('tr', { 'aria-rowindex': String(i + 2), dataset: { r: String(i) } },
        h('th', { scope: 'row' },
          h('div', { class: 'row-head' },
            removeButton('remove-row', i, `Remove secret ${i + 1} (${label})`, 'Remove this row', n <= 1),
            virtual || n <= 1 ? null : dragHandle('row', i, label),
            cellInput({ grid: 'channel', r: i, c: -2, value: label, label: `Label of secret ${i + 1}`, testid: `row-label-${i}`, kind: 'label' }))),
        h('td', { class: 'prior-col' }, prior, h('span', { class: 'msg', id: `msg-p-${i}` })),
        leftPx ? spacerCell('td', leftPx) : null,
        cells,
        rightPx ? spacerCell('td', rightPx) : null,
        sum));
    }
    if (r1 < n) body.push(spacerRow((n - r1) * this.rowH, span));
    const foot = h('tr', {},
      h('th', { scope: 'row', class: 'foot-label', text: 'Σ prior' }),
      h('td', { class: 'prior-col prior-sum', 'data-testid': 'prior-sum' }, h('span', { class: 'sum' }), h('span', { class: 'msg', id: 'msg-prior' })),
      h('td', { colspan: String(span - 2) }));
    this.table.classList.toggle('virtual', virtual);
    // A windowed grid's row labels share one width, that of the longest label (style.css).
    let longest = 6;
    for (const l of s.secrets) longest = Math.max(longest, String(l).length);
    this.table.style.setProperty('--row-label-ch', String(Math.min(24, longest)));
    this.table.setAttribute('aria-rowcount', String(n + 2));
    this.table.setAttribute('aria-colcount', String(m + 3));
    replace(this.table, h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, foot));
    this.shown = new Map();
  }

  /**
   * Applies validation results (validate.js) to the cells drawn: only those whose message
   * appears, changes or disappears are touched (all of them after a redraw).
   */
  show(checked, redrawn = false) {
    this.checked = checked;
    const w = this.win;
    if (!w) return;
    const keys = new Set(this.shown.keys());
    for (const key of checked.cell.keys()) if (this.inputs.has(key)) keys.add(key);
    for (const key of keys) {
      const msg = checked.cell.get(key) ?? null;
      if (!redrawn && (this.shown.get(key) ?? null) === msg) continue;
      const input = this.inputs.get(key);
      if (!input) continue;
      setFieldMessage(input, input.nextElementSibling, msg);
      // In a large grid the message is the cell's tooltip: rows keep their height.
      input.title = msg && w.virtual ? msg : '';
    }
    this.shown = new Map([...checked.cell].filter(([key]) => this.inputs.has(key)));
    for (const [i, cell] of this.sums) {
      const sum = checked.rowSums[i];
      const sumEl = cell.firstElementChild;
      sumEl.textContent = Number.isNaN(sum) ? '—' : formatNumber(sum, 6);
      sumEl.title = Number.isNaN(sum) ? 'a cell of this row is not a number' : formatFull(sum);
      cell.lastElementChild.textContent = checked.row[i] ?? '';
      cell.classList.toggle('invalid', !!checked.row[i]);
      cell.parentElement.classList.toggle('row-invalid', !!checked.row[i] || (Number.isNaN(sum) && w.virtual));
    }
    const ps = this.table.querySelector('.prior-sum');
    if (ps) {
      ps.querySelector('.sum').textContent = Number.isNaN(checked.priorSum) ? '—' : formatNumber(checked.priorSum, 6);
      // The cell is narrow: the full sentence is in the error list under the table.
      ps.querySelector('.msg').textContent = checked.priorMsg ? 'expected 1' : '';
      ps.title = checked.priorMsg ?? '';
      ps.classList.toggle('invalid', !!checked.priorMsg);
    }
  }

  /**
   * Brings cell (r, c) into view (c −2 is the row's label, −1 its prior; r −1 the column
   * labels) and returns its input, drawn.
   */
  reveal(r, c) {
    const key = `input[data-grid="channel"][data-r="${r}"][data-c="${c}"]`;
    let el = this.table.querySelector(key);
    const w = this.win;
    const inRows = !w || r < 0 || (r >= w.r0 + 1 && r < w.r1 - 1) || (r === w.r0 && r === 0) || (r === w.r1 - 1 && r === w.n - 1);
    const inCols = !w || c < 0 || (c >= w.c0 + 1 && c < w.c1 - 1) || (c === w.c0 && c === 0) || (c === w.c1 - 1 && c === w.m - 1);
    if (el && inRows && inCols) return el;
    const head = this.table.tHead?.offsetHeight ?? 0;
    if (r >= 0) {
      const top = head + r * this.rowH;
      if (top - head < this.wrap.scrollTop) this.wrap.scrollTop = top - head;
      else if (top + this.rowH > this.wrap.scrollTop + this.wrap.clientHeight) this.wrap.scrollTop = top + this.rowH - this.wrap.clientHeight;
    }
    if (c >= 0) {
      const lead = this.table.tBodies[0]?.querySelector('tr:not(.spacer) > th')?.offsetWidth ?? 0;
      const prior = this.table.tBodies[0]?.querySelector('td.prior-col')?.offsetWidth ?? 0;
      const sums = this.table.tBodies[0]?.querySelector('td.sum-col')?.offsetWidth ?? 0;
      const left = lead + prior + c * this.colW;
      if (left - lead < this.wrap.scrollLeft) this.wrap.scrollLeft = left - lead;
      else if (left + this.colW > this.wrap.scrollLeft + this.wrap.clientWidth - sums) this.wrap.scrollLeft = left + this.colW - this.wrap.clientWidth + sums;
    }
    this.render();
    el = this.table.querySelector(key);
    return el;
  }
}
