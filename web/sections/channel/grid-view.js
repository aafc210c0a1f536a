// sections/channel/grid-view.js — the editable tables of the "Channel & leakage" section: the
// channel with its prior column and the gain function. Built from the state (state.js); the
// view rebuilds them only on structural changes, never while a cell is typed in, so that focus
// and the caret stay put. Validation messages are applied cell by cell (GridMessages).

import { h, replace, setFieldMessage } from '../../dom.js';
import { formatNumber, formatFull } from '../../numbers.js';

function cellInput({ grid, r, c, value, label, testid, kind }) {
  return h('input', {
    type: 'text',
    class: kind === 'label' ? 'label-input' : 'num',
    inputmode: kind === 'label' ? undefined : 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-label': label,
    'data-testid': testid,
    id: testid,
    dataset: { grid, r: String(r), c: String(c), kind },
    value,
  });
}

const removeButton = (action, index, label, title, disabled) => h('button', {
  type: 'button', class: 'remove', 'aria-label': label, title, dataset: { action, index: String(index) }, disabled, text: '×',
});

/** Rebuilds the channel table (labels, prior column, cells, row sums, prior sum). */
export function renderChannelTable(table, s) {
  const n = s.secrets.length;
  const m = s.observables.length;
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'corner' }, h('span', { class: 'corner-x', text: 'secret x' }), h('span', { class: 'corner-y', text: 'observable y →' })),
    h('th', { scope: 'col', class: 'prior-col', title: 'prior probability of each secret' }, 'π(x)'),
    s.observables.map((label, j) => h('th', { scope: 'col' },
      h('div', { class: 'col-head' },
        cellInput({ grid: 'channel', r: -1, c: j, value: label, label: `Label of observable ${j + 1}`, testid: `col-label-${j}`, kind: 'label' }),
        removeButton('remove-col', j, `Remove observable ${j + 1} (${label})`, 'Remove this column', m <= 1)))),
    h('th', { scope: 'col', class: 'sum-col', title: 'row sum, must be 1' }, 'Σ'));
  const body = s.secrets.map((label, i) => h('tr', {},
    h('th', { scope: 'row' },
      h('div', { class: 'row-head' },
        removeButton('remove-row', i, `Remove secret ${i + 1} (${label})`, 'Remove this row', n <= 1),
        cellInput({ grid: 'channel', r: i, c: -2, value: label, label: `Label of secret ${i + 1}`, testid: `row-label-${i}`, kind: 'label' }))),
    h('td', { class: 'prior-col' },
      cellInput({ grid: 'channel', r: i, c: -1, value: s.prior[i], label: `Prior probability of secret ${i + 1} (${label})`, testid: `prior-${i}`, kind: 'prior' }),
      h('span', { class: 'msg', id: `msg-p-${i}` })),
    s.observables.map((obs, j) => h('td', {},
      cellInput({ grid: 'channel', r: i, c: j, value: s.cells[i][j], label: `C(${label}, ${obs}): probability of observing ${obs} when the secret is ${label}`, testid: `cell-${i}-${j}`, kind: 'cell' }),
      h('span', { class: 'msg', id: `msg-c-${i}-${j}` }))),
    h('td', { class: 'sum-col', 'data-testid': `rowsum-${i}` }, h('span', { class: 'sum' }), h('span', { class: 'msg' }))));
  const foot = h('tr', {},
    h('th', { scope: 'row', class: 'foot-label', text: 'Σ prior' }),
    h('td', { class: 'prior-col prior-sum', 'data-testid': 'prior-sum' }, h('span', { class: 'sum' }), h('span', { class: 'msg', id: 'msg-prior' })),
    h('td', { colspan: String(m + 1) }));
  replace(table, h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, foot));
}

// Beyond this many secrets the identity gain is described rather than drawn: an n×n grid of
// inputs nobody edits would only slow the page down.
const DRAW_IDENTITY_UP_TO = 16;

/** Rebuilds the gain table (or its one-line description for a large identity). */
export function renderGainTable(table, s) {
  const n = s.secrets.length;
  const k = s.gain.length;
  if (s.gainIdentity && n > DRAW_IDENTITY_UP_TO) {
    replace(table, h('tbody', {}, h('tr', {}, h('td', { class: 'identity-note' },
      `Identity gain on ${n} secrets: g(w, x) = 1 if w = x, else 0 (Bayes vulnerability). `,
      h('button', { type: 'button', class: 'small', dataset: { action: 'edit-gain' }, 'data-testid': 'edit-gain', text: 'Edit as a matrix' })))));
    return;
  }
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'corner' }, h('span', { class: 'corner-x', text: 'guess w' }), h('span', { class: 'corner-y', text: 'secret x →' })),
    s.secrets.map((label) => h('th', { scope: 'col', class: 'static-label', text: label })));
  const body = s.gain.map((row, w) => h('tr', {},
    h('th', { scope: 'row' },
      h('div', { class: 'row-head' },
        removeButton('remove-guess', w, `Remove guess ${w + 1}`, 'Remove this guess', k <= 1),
        cellInput({ grid: 'gain', r: w, c: -2, value: s.gainLabels[w] ?? '', label: `Label of guess ${w + 1}`, testid: `gain-label-${w}`, kind: 'label' }))),
    Array.from({ length: n }, (_, x) => h('td', {},
      cellInput({ grid: 'gain', r: w, c: x, value: row[x], label: `g(${s.gainLabels[w] ?? w + 1}, ${s.secrets[x]}): gain of guess ${w + 1} when the secret is ${s.secrets[x]}`, testid: `gain-${w}-${x}`, kind: 'gain' }),
      h('span', { class: 'msg', id: `msg-g-${w}-${x}` })))));
  replace(table, h('thead', {}, head), h('tbody', {}, body));
}

/**
 * Applies validation results (validate.js) to the rendered tables, cheaply on large matrices:
 * only the cells whose message appears, changes or disappears are touched. index() after every
 * rebuild of the tables.
 */
export class GridMessages {
  constructor(root, channelTable) {
    this.root = root;
    this.channelTable = channelTable;
    this.index();
  }

  index() {
    this.inputs = new Map();
    for (const input of this.root.querySelectorAll('input[data-grid]')) {
      const { grid, r, c, kind } = input.dataset;
      if (grid === 'channel' && kind === 'cell') this.inputs.set(`c:${r}:${c}`, input);
      else if (grid === 'channel' && kind === 'prior') this.inputs.set(`p:${r}`, input);
      else if (grid === 'gain' && kind === 'gain') this.inputs.set(`g:${r}:${c}`, input);
    }
    this.shown = new Map(); // fresh inputs carry no message yet
    this.rows = [];
  }

  show(checked) {
    for (const key of new Set([...this.shown.keys(), ...checked.cell.keys()])) {
      const msg = checked.cell.get(key) ?? null;
      if ((this.shown.get(key) ?? null) === msg) continue;
      const input = this.inputs.get(key);
      if (input) setFieldMessage(input, input.nextElementSibling, msg);
    }
    this.shown = new Map(checked.cell);
    const rows = this.channelTable.tBodies[0]?.rows ?? [];
    for (let i = 0; i < rows.length; i++) {
      const sum = checked.rowSums[i];
      const key = `${sum}|${checked.row[i]}`;
      if (this.rows[i] === key) continue;
      this.rows[i] = key;
      const cell = rows[i].lastElementChild;
      const sumEl = cell.firstElementChild;
      sumEl.textContent = Number.isNaN(sum) ? '—' : formatNumber(sum, 6);
      sumEl.title = Number.isNaN(sum) ? 'a cell of this row is not a number' : formatFull(sum);
      cell.lastElementChild.textContent = checked.row[i] ?? '';
      cell.classList.toggle('invalid', !!checked.row[i]);
      rows[i].classList.toggle('row-invalid', !!checked.row[i]);
    }
    const ps = this.channelTable.querySelector('.prior-sum');
    if (ps) {
      ps.querySelector('.sum').textContent = Number.isNaN(checked.priorSum) ? '—' : formatNumber(checked.priorSum, 6);
      // The cell is narrow: the full sentence is in the error list under the table.
      ps.querySelector('.msg').textContent = checked.priorMsg ? 'expected 1' : '';
      ps.title = checked.priorMsg ?? '';
      ps.classList.toggle('invalid', !!checked.priorMsg);
    }
  }
}

/**
 * Spreadsheet-like movement in the tables: arrows across cells, Enter goes down (Shift+Enter
 * up); left and right leave a cell only from its edge, or when its whole text is selected (as it
 * is just after arriving in a cell).
 */
export function onGridKey(root, e) {
  const t = e.target;
  const d = t.dataset;
  if (!d || !d.grid || e.altKey || e.ctrlKey || e.metaKey) return;
  let dr = 0;
  let dc = 0;
  if (e.key === 'ArrowUp') dr = -1;
  else if (e.key === 'ArrowDown' || (e.key === 'Enter' && !e.shiftKey)) dr = 1;
  else if (e.key === 'Enter' && e.shiftKey) dr = -1;
  else if (e.key === 'ArrowLeft' && t.selectionStart === 0 && (t.selectionEnd === 0 || t.selectionEnd === t.value.length)) dc = -1;
  else if (e.key === 'ArrowRight' && t.selectionEnd === t.value.length && (t.selectionStart === t.value.length || t.selectionStart === 0)) dc = 1;
  else return;
  const inputs = [...root.querySelectorAll(`input[data-grid="${d.grid}"]`)];
  const r = Number(d.r);
  const c = Number(d.c);
  const at = (rr, cc) => inputs.find((el) => Number(el.dataset.r) === rr && Number(el.dataset.c) === cc);
  let target;
  if (dr) target = at(r + dr, c);
  else {
    const cols = [...new Set(inputs.filter((el) => Number(el.dataset.r) === r).map((el) => Number(el.dataset.c)))].sort((a, b) => a - b);
    const k = cols.indexOf(c) + dc;
    target = k >= 0 && k < cols.length ? at(r, cols[k]) : null;
  }
  if (target) {
    e.preventDefault();
    target.focus();
    target.select();
  }
}
