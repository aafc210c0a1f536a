// sections/channel/skeleton.js — the DOM of the "Channel & leakage" section that does not change:
// its heading, the cards of the inputs (example, matrix and prior, gain function) and the box of
// the results. Returns the elements the view fills in (els).
import { h } from '../../lib/dom.js';

export function buildSkeleton(root) {
  const table = (id, label, hint) => h('table', { id, class: 'grid', 'data-testid': id, 'aria-labelledby': label, 'aria-describedby': hint });
  const els = {
    preset: h('select', { id: 'preset', 'data-testid': 'preset-select' }),
    presetText: h('p', { id: 'preset-description', class: 'muted', 'data-testid': 'preset-description' }),
    channelTable: table('channel-table', 'matrix-title', 'matrix-hint'),
    gainTable: table('gain-table', 'gain-title', 'gain-hint'),
    errors: h('ul', { id: 'input-errors', class: 'error-list', 'data-testid': 'input-errors', 'aria-live': 'polite' }),
    pasteNote: h('p', { id: 'paste-note', class: 'paste-note', 'data-testid': 'paste-note', 'aria-live': 'polite' }),
    gridSize: h('p', { id: 'grid-size', class: 'grid-size', 'data-testid': 'grid-size', 'aria-live': 'polite' }),
    loading: h('div', { class: 'load-progress', 'data-testid': 'load-progress', role: 'status', hidden: true }),
    sortRows: h('select', { id: 'sort-rows', class: 'small', 'data-testid': 'sort-rows', 'aria-label': 'Sort the rows (secrets)' },
      h('option', { value: '', text: 'Sort rows…' }), h('option', { value: 'label', text: 'rows by label, A→Z' }), h('option', { value: 'label-desc', text: 'rows by label, Z→A' }),
      h('option', { value: 'prior', text: 'rows by prior, largest first' }), h('option', { value: 'reverse', text: 'rows reversed' })),
    sortCols: h('select', { id: 'sort-cols', class: 'small', 'data-testid': 'sort-cols', 'aria-label': 'Sort the columns (observables)' },
      h('option', { value: '', text: 'Sort columns…' }), h('option', { value: 'label', text: 'columns by label, A→Z' }), h('option', { value: 'label-desc', text: 'columns by label, Z→A' }),
      h('option', { value: 'probability', text: 'columns by probability p(y), largest first' }), h('option', { value: 'reverse', text: 'columns reversed' })),
    file: h('input', { type: 'file', id: 'load-file', class: 'file-input', 'data-testid': 'load-file', accept: '.csv,.tsv,.tab,.txt,text/csv,text/tab-separated-values,text/plain' }),
    channelWrap: null,
    note: h('p', { id: 'results-note', class: 'results-note', 'data-testid': 'results-note', 'aria-live': 'polite' }),
    exactNote: h('p', { id: 'exact-note', class: 'exact-note', 'data-testid': 'exact-note', 'aria-live': 'polite' }),
    results: h('div', { class: 'results', id: 'results', 'data-testid': 'results' }),
  };
  els.results.append(els.note, els.exactNote);
  els.channelWrap = h('div', { class: 'table-wrap channel-wrap', 'data-testid': 'channel-wrap' }, els.channelTable);
  const button = (id, testid, text) => h('button', { type: 'button', id, 'data-testid': testid, text });
  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'channel-title' }, 'Channel & leakage'),
      h('p', {}, 'A channel ', h('var', { text: 'C' }), ' maps each secret ', h('var', { text: 'x' }), ' to a distribution on observables ', h('var', { text: 'y' }), ': ',
        h('var', { text: 'C' }), '(', h('var', { text: 'x' }), ',', h('var', { text: 'y' }), ') = p(', h('var', { text: 'y' }), '|', h('var', { text: 'x' }), '). Given a prior ',
        h('var', { text: 'π' }), ' on secrets, the results say how much an adversary learns by observing ', h('var', { text: 'y' }), '.')),
    h('div', { class: 'layout' },
      h('div', { class: 'inputs' },
        h('div', { class: 'card', id: 'preset-card' },
          h('div', { class: 'preset-row' }, h('label', { for: 'preset', text: 'Example' }), els.preset),
          els.presetText),
        h('div', { class: 'card', id: 'matrix-card', 'data-testid': 'matrix-card' },
          h('div', { class: 'card-head' }, h('h3', { id: 'matrix-title' }, 'Channel matrix ', h('var', { text: 'C' }), ' and prior ', h('var', { text: 'π' }))),
          h('p', { class: 'hint', id: 'matrix-hint' }, 'Rows are secrets, columns observables; each row is a distribution and sums to 1. Type decimals, fractions (', h('kbd', { text: '1/3' }),
            ') or ', h('kbd', { text: 'ln' }), ' expressions. Paste a block copied from a spreadsheet into the first cell for a new channel, or into another cell to fill the grid from there: a header row and a first column of labels are recognised, and decimal commas are read (tabs, semicolons or quoted CSV). Undo or Ctrl+Z takes back any edit. Arrow keys and ', h('kbd', { text: 'Enter' }), ' move between cells; drag a row or column by its handle (⠿), or press ', h('kbd', { text: 'Alt+↑' }), ' ', h('kbd', { text: 'Alt+↓' }), ' in a row’s label (', h('kbd', { text: 'Alt+←' }), ' ', h('kbd', { text: 'Alt+→' }), ' in a column’s), to move it, or sort them with the menus below. Up to 2,000 × 2,000: paste it, or load a CSV/TSV file (or drop it here).'),
          els.gridSize,
          els.channelWrap,
          h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Matrix actions' },
            h('button', { type: 'button', id: 'undo', 'data-testid': 'undo', title: 'Undo the last edit (Ctrl+Z)', disabled: true, text: 'Undo' }),
            button('add-row', 'add-row', '+ Secret (row)'), button('add-col', 'add-col', '+ Observable (column)'), button('uniform', 'uniform-prior', 'Uniform prior'),
            els.sortRows, els.sortCols,
            els.file,
            h('label', { class: 'file-button', for: 'load-file', title: 'A CSV or TSV file of up to 2,000 × 2,000 entries, with or without a header row and a column of labels; or drop the file on the matrix' }, 'Load a CSV/TSV file…')),
          els.loading,
          els.pasteNote,
          els.errors),
        h('div', { class: 'card' },
          h('div', { class: 'card-head' }, h('h3', { id: 'gain-title' }, 'Gain function ', h('var', { text: 'g' }))),
          h('p', { class: 'hint', id: 'gain-hint' }, 'Rows are the adversary’s guesses ', h('var', { text: 'w' }), ', columns the secrets ', h('var', { text: 'x' }), ': ',
            h('var', { text: 'g' }), '(', h('var', { text: 'w' }), ',', h('var', { text: 'x' }), ') is the gain of guessing ', h('var', { text: 'w' }), ' when the secret is ', h('var', { text: 'x' }), '. The identity gives Bayes vulnerability.'),
          h('div', { class: 'table-wrap' }, els.gainTable),
          h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Gain actions' },
            button('add-guess', 'add-guess', '+ Guess (row)'), button('identity-gain', 'identity-gain', 'Identity gain')))),
      els.results));
  return els;
}
