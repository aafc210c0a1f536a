// sections/channel/grid-cells.js — the elements the channel's and the gain's grids are made of:
// a cell's text input (its data-grid, data-r, data-c and data-kind say which entry it is), the
// handle that drags a row or a column, a row's or a column's remove button, and the spacers that
// stand for the rows and columns a large grid does not draw (grid-view.js).

import { h } from '../../lib/dom.js';

export function cellInput({ grid, r, c, value, label, testid, kind }) {
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
    title: kind === 'label' ? String(value) : undefined,
    value,
  });
}

/**
 * The handle that drags a row or a column to another place (drawn only when the whole grid is:
 * a windowed grid has no room to drop into what is not drawn). Moving also works from the
 * keyboard: Alt+arrows in a label (grid-keys.js).
 */
export const dragHandle = (kind, index, label) => h('span', {
  class: 'grip', draggable: 'true', 'aria-hidden': 'true', title: `Drag to move this ${kind === 'row' ? 'row' : 'column'} (${label}); or Alt+${kind === 'row' ? '↑/↓' : '←/→'} in its label`,
  dataset: { drag: kind, index: String(index) }, text: '⠿',
});

export const removeButton = (action, index, label, title, disabled) => h('button', {
  type: 'button', class: 'remove', 'aria-label': label, title, dataset: { action, index: String(index) }, disabled, text: '×',
});

export function spacerCell(tag, px) {
  const el = h(tag, { class: 'spacer', 'aria-hidden': 'true' });
  el.style.width = `${px}px`;
  el.style.minWidth = `${px}px`;
  el.style.maxWidth = `${px}px`;
  return el;
}

export function spacerRow(px, span) {
  const td = h('td', { colspan: String(span) });
  const tr = h('tr', { class: 'spacer', 'aria-hidden': 'true' }, td);
  td.style.height = `${px}px`;
  return tr;
}
