// sections/channel/gain-view.js — the gain function's table of "Channel & leakage": one row of
// inputs per guess (the cells and their remove buttons are grid-view.js's), or one line that
// describes an identity gain too large to draw; and the gain's validation messages on its cells.
import { h, replace, setFieldMessage } from '../../lib/dom.js';
import { cellInput, removeButton } from './grid-cells.js';

// Beyond this many secrets the identity gain is described rather than drawn: an n×n grid of
// inputs nobody edits would only slow the page down.
const DRAW_IDENTITY_UP_TO = 16;

/** Rebuilds the gain table (or its one-line description for a large identity). */
export function renderGainTable(table, s) {
  const n = s.secrets.length;
  if (s.gainIdentity && n > DRAW_IDENTITY_UP_TO) {
    replace(table, h('tbody', {}, h('tr', {}, h('td', { class: 'identity-note' },
      `Identity gain on ${n.toLocaleString('en')} secrets: g(w, x) = 1 if w = x, else 0 (Bayes vulnerability). `,
      s.gain
        ? h('button', { type: 'button', class: 'small', dataset: { action: 'edit-gain' }, 'data-testid': 'edit-gain', text: 'Edit as a matrix' })
        : h('span', { class: 'muted', text: 'A gain other than the identity can be edited on up to 64 secrets.' })))));
    return;
  }
  const k = s.gain.length;
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

/** Applies the gain's validation messages (keys "g:w:x") to the gain table. */
export function showGainMessages(table, checked) {
  for (const input of table.querySelectorAll('input[data-grid="gain"][data-kind="gain"]')) {
    const msg = checked.cell.get(`g:${input.dataset.r}:${input.dataset.c}`) ?? null;
    if ((input.getAttribute('aria-invalid') === 'true') === !!msg && input.nextElementSibling.textContent === (msg ?? '')) continue;
    setFieldMessage(input, input.nextElementSibling, msg);
  }
}
