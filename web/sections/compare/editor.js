// sections/compare/editor.js — the DOM of one channel editor of "Compare two mechanisms": the
// family menu with ε and m, the grid of cells with row sums, and the messages of validation.
// It shows a channel of the state and reports edits through the callbacks it is given.

import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { readingOf, setReading } from '../../lib/readings.js';
import { parseNumber } from '../../input/number.js';
import { FAMILIES, FAMILY_IDS } from './presets.js';

/**
 * Builds the editor of channel K. `on` holds the section's handlers: family(K, id), param(K,
 * key, text), cell(K, input), remove(K, action, index), paste(K, event), randomize(K),
 * postProcess(), addRow(), addCol(K).
 */
export function buildEditor(K, on) {
  const preset = h('select', { id: `cmp-preset-${K}`, 'data-testid': `preset-${K}` },
    h('option', { value: 'custom', text: 'Custom matrix' }),
    FAMILY_IDS.map((f) => h('option', { value: f, text: FAMILIES[f].name })));
  const field = (key, title, inputmode) => h('input', { id: `cmp-${key}-${K}`, type: 'text', class: 'num', inputmode, autocomplete: 'off', spellcheck: 'false', 'data-testid': `${key}-${K}`, title });
  const eps = field('eps', 'privacy parameter ε > 0 (nats): a number, a fraction or ln x', 'decimal');
  const m = field('m', 'number of outputs', 'numeric');
  const epsMsg = h('span', { class: 'msg', id: `cmp-eps-${K}-msg` });
  const mMsg = h('span', { class: 'msg', id: `cmp-m-${K}-msg` });
  const eNote = h('span', { class: 'cmp-enote', 'data-testid': `enote-${K}` });
  const famRow = h('div', { class: 'cmp-family-row' },
    h('div', { class: 'cmp-field' }, h('label', { for: eps.id }, 'ε'), eps, epsMsg),
    h('div', { class: 'cmp-field' }, h('label', { for: m.id }, 'outputs m'), m, mMsg),
    eNote);
  const famNote = h('p', { class: 'hint cmp-family-note' });
  const table = h('table', { class: 'grid cmp-grid', 'data-testid': `grid-${K}`, 'aria-label': `Channel ${K}: rows are secrets x, columns outputs y` });
  const errors = h('ul', { class: 'error-list', 'data-testid': `errors-${K}`, 'aria-live': 'polite' });
  const title = K === 'A' ? 'Channel A — the mechanism in use' : 'Channel B — the candidate replacement';
  const card = h('section', { class: `card cmp-editor cmp-editor-${K}`, 'aria-labelledby': `cmp-title-${K}`, 'data-testid': `editor-${K}` },
    h('div', { class: 'card-head' }, h('h3', { id: `cmp-title-${K}` }, h('span', { class: `cmp-badge badge-${K}`, text: K }), ` ${title.slice(10)}`)),
    h('div', { class: 'preset-row' },
      h('label', { for: preset.id, text: 'Channel' }), preset,
      h('button', { type: 'button', 'data-testid': `random-${K}`, title: 'a random channel with the current size', text: 'Random', on: { click: () => on.randomize(K) } }),
      K === 'B' ? h('button', { type: 'button', 'data-testid': 'postprocess-B', title: 'B := A·R for a random row-stochastic R — then A ⊑avg B must hold', text: 'A · random R', on: { click: on.postProcess } }) : null),
    famRow, famNote,
    h('div', { class: 'table-wrap' }, table),
    h('div', { class: 'toolbar', role: 'group', 'aria-label': `Channel ${K} size` },
      h('button', { type: 'button', 'data-testid': `add-row-${K}`, title: 'adds a secret to both channels', text: '+ Secret (both)', on: { click: () => on.addRow() } }),
      h('button', { type: 'button', 'data-testid': `add-col-${K}`, text: '+ Output', on: { click: () => on.addCol(K) } })),
    errors);

  preset.addEventListener('change', () => on.family(K, preset.value));
  // ε and m are read separately: an m never typed stays '' and follows the number of secrets.
  eps.addEventListener('input', () => on.param(K, 'eps', eps.value.trim()));
  m.addEventListener('input', () => on.param(K, 'm', m.value.trim()));
  table.addEventListener('input', (ev) => { if (ev.target.dataset.r !== undefined) on.cell(K, ev.target); });
  table.addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-action]');
    if (b) on.remove(K, b.dataset.action, Number(b.dataset.index));
  });
  table.addEventListener('paste', (ev) => on.paste(K, ev));
  table.addEventListener('keydown', (ev) => {
    const input = ev.target;
    if (input.dataset.r === undefined) return;
    const mv = { ArrowUp: [-1, 0], ArrowDown: [1, 0], Enter: [1, 0] }[ev.key];
    if (!mv) return;
    const next = table.querySelector(`input[data-r="${Number(input.dataset.r) + mv[0]}"][data-c="${Number(input.dataset.c) + mv[1]}"]`);
    if (next) {
      ev.preventDefault();
      next.focus();
      next.select();
    }
  });
  return { K, card, preset, eps, m, epsMsg, mMsg, eNote, famRow, famNote, table, errors };
}

/** The family menu, ε, m and the note on e^ε (and the true ε of the exponential family). */
export function renderEditorHead(ed, ch, n, trueEps) {
  const src = ch.source;
  ed.preset.value = src.kind === 'family' ? src.family : 'custom';
  ed.famRow.hidden = src.kind !== 'family';
  ed.famNote.hidden = src.kind !== 'family';
  if (src.kind === 'family') {
    if (document.activeElement !== ed.eps) ed.eps.value = src.eps;
    if (document.activeElement !== ed.m) ed.m.value = src.m === '' ? String(FAMILIES[src.family].defaultM(n)) : src.m;
    ed.famNote.textContent = `${FAMILIES[src.family].name}: ${FAMILIES[src.family].note}`;
  }
  renderENote(ed, src, trueEps);
}

export function renderENote(ed, src, trueEps) {
  replace(ed.eNote);
  if (src.kind !== 'family') return;
  const r = parseNumber(src.eps);
  if ('error' in r || !(r.value > 0)) return;
  const exp = h('span', {}, `e^ε = ${formatNumber(Math.exp(r.value))}`);
  setReading(exp, Math.exp(r.value), readingOf('cmp.expEpsilon', Math.exp(r.value)));
  ed.eNote.append(exp);
  if (src.family === 'exponential' && trueEps !== null) {
    const t = h('span', { 'data-testid': `true-eps-${ed.K}`, 'data-value': String(trueEps) }, `true ε = ${formatNumber(trueEps)} nats`);
    setReading(t, trueEps, readingOf('cmp.trueEpsilon', trueEps));
    ed.eNote.append(' · ', t);
  }
}

/** Rebuilds the grid of cells, keeping focus and caret on the same cell. */
export function renderTable(ed, ch) {
  const K = ed.K;
  const n = ch.cells.length;
  const m = n ? ch.cells[0].length : 0;
  const a = document.activeElement;
  const focus = a && ed.table.contains(a) && a.dataset.r !== undefined ? { r: a.dataset.r, c: a.dataset.c, s: a.selectionStart, e: a.selectionEnd } : null;
  const cellInput = (i, j) => h('input', {
    type: 'text', class: 'num', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
    id: `cmp-${K}-${i}-${j}`, 'data-testid': `cell-${K}-${i}-${j}`,
    'aria-label': `${K}(x${i}, y${j}): probability of output y${j} when the secret is x${i}`,
    title: ch.exact[i][j] !== null ? formatFull(ch.exact[i][j]) : undefined,
    dataset: { r: String(i), c: String(j) },
    value: ch.cells[i][j],
  });
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'corner' }, h('span', { text: 'x \\ y' })),
    Array.from({ length: m }, (_, j) => h('th', { scope: 'col' },
      h('div', { class: 'col-head' },
        h('span', { class: 'static-label', text: `y${j}` }),
        h('button', { type: 'button', class: 'remove', 'aria-label': `Remove output y${j} of ${K}`, title: 'Remove this output', dataset: { action: 'remove-col', index: String(j) }, disabled: m <= 1, text: '×' })))),
    h('th', { scope: 'col', class: 'sum-col', title: 'row sum, must be 1' }, 'Σ'));
  const body = ch.cells.map((row, i) => h('tr', {},
    h('th', { scope: 'row' },
      h('div', { class: 'row-head' },
        h('button', { type: 'button', class: 'remove', 'aria-label': `Remove secret x${i} (from both channels)`, title: 'Remove this secret from both channels', dataset: { action: 'remove-row', index: String(i) }, disabled: n <= 2, text: '×' }),
        h('span', { class: 'static-label', text: `x${i}` }))),
    row.map((_, j) => h('td', {}, cellInput(i, j), h('span', { class: 'msg', id: `cmp-msg-${K}-${i}-${j}` }))),
    h('td', { class: 'sum-col', 'data-testid': `rowsum-${K}-${i}` }, h('span', { class: 'sum' }), h('span', { class: 'msg' }))));
  replace(ed.table, h('thead', {}, head), h('tbody', {}, body));
  if (focus) {
    const el = ed.table.querySelector(`input[data-r="${focus.r}"][data-c="${focus.c}"]`);
    if (el) {
      el.focus();
      try { el.setSelectionRange(focus.s, focus.e); } catch { /* not text */ }
    }
  }
}

/** Applies a validation (state.validateChannel) to the grid and the editor's message list. */
export function showValidation(ed, c, extra = null) {
  for (const input of ed.table.querySelectorAll('input[data-r]')) {
    const msg = c.cell.get(`${input.dataset.r}:${input.dataset.c}`) ?? null;
    setFieldMessage(input, input.nextElementSibling, msg);
  }
  const rows = ed.table.tBodies[0]?.rows ?? [];
  for (let i = 0; i < rows.length; i++) {
    const cell = rows[i].lastElementChild;
    const sum = c.sums[i];
    cell.firstElementChild.textContent = Number.isNaN(sum) ? '—' : formatNumber(sum, 6);
    if (Number.isNaN(sum)) setReading(cell.firstElementChild, 'a cell of this row is not a number', '');
    else setReading(cell.firstElementChild, sum, readingOf('cmp.rowSum', sum));
    cell.lastElementChild.textContent = c.row[i] ? 'expected 1' : '';
    cell.classList.toggle('invalid', !!c.row[i]);
    rows[i].classList.toggle('row-invalid', !!c.row[i]);
  }
  const messages = extra ? [extra, ...c.messages] : c.messages;
  replace(ed.errors, messages.slice(0, 6).map((t) => h('li', { text: t })));
}
