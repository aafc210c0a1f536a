// app.js — the "Channel & leakage" section of the page: an editable channel, prior and gain
// function, and every measure of docs/mathematics.md#entropies-and-leakage computed in the worker
// (client.js → worker.js → wasm).
//
// Flow: an input event updates `state`, re-validates in JS (per-cell messages at once), marks
// the affected result panels pending and schedules a debounced recompute. The recompute sends
// one worker job per panel whose inputs changed; only the latest answer per panel is rendered.
// The DOM of the tables is rebuilt only on structural changes (rows, columns, presets, paste),
// never while typing in a cell, so focus and the caret stay put.

import { latestOnly, STALE, debounce } from './client.js';
import { client } from './engine.js';
import { presets, presetById, DEFAULT_PRESET } from './presets.js';
import { splitGrid, isNumeric, formatNumber, formatFull, uniformEntry } from './numbers.js';
import { validateInputs } from './validate.js';
import { MEASURES, GROUPS, PANELS } from './measures.js';
import { h, replace, byId } from './dom.js';
import { exactMeasures, showExact, exactCell } from './format.js';
import { sourceRefs } from './formulas.js';
import './register-sw.js'; // offline use after the first visit

const DEBOUNCE_MS = 150;
const MAX_HYPER_ROWS = 64;
const LABEL_POSTERIORS_UP_TO = 250_000; // entries of C; beyond, inners are numbered only

// ---------------------------------------------------------------- state

const state = {
  presetId: DEFAULT_PRESET,
  edited: false,
  secrets: [],
  observables: [],
  cells: [],
  prior: [],
  priorUniform: true,
  gainLabels: [],
  gain: [],
  gainIdentity: true,
  alpha: '2',
  tolerance: '1e-9',
};

let checked = validateInputs(state);

function loadPreset(p) {
  state.presetId = p.id;
  state.edited = false;
  state.secrets = p.secrets.slice();
  state.observables = p.observables.slice();
  state.cells = p.channel.map((r) => r.slice());
  state.priorUniform = true;
  state.gainIdentity = true;
  syncDerived();
}

// Keeps the uniform prior and the identity gain in step with the number of secrets.
function syncDerived() {
  const n = state.secrets.length;
  if (state.priorUniform) state.prior = new Array(n).fill(uniformEntry(n));
  if (state.gainIdentity) {
    state.gain = Array.from({ length: n }, (_, w) => Array.from({ length: n }, (_, x) => (w === x ? '1' : '0')));
    state.gainLabels = state.secrets.slice();
  }
}

function markEdited() {
  if (!state.edited) {
    state.edited = true;
    renderPresetMenu();
  }
}

// ---------------------------------------------------------------- structure edits

function addRow(at = state.secrets.length) {
  const m = state.observables.length;
  state.secrets.splice(at, 0, freshLabel(state.secrets, 'x', at + 1));
  state.cells.splice(at, 0, new Array(m).fill(m ? uniformEntry(m) : '0'));
  if (!state.priorUniform) state.prior.splice(at, 0, '0');
  if (!state.gainIdentity) for (const row of state.gain) row.splice(at, 0, '0');
  syncDerived();
}

function removeRow(i) {
  state.secrets.splice(i, 1);
  state.cells.splice(i, 1);
  if (!state.priorUniform) state.prior.splice(i, 1);
  if (!state.gainIdentity) for (const row of state.gain) row.splice(i, 1);
  syncDerived();
}

function addCol(at = state.observables.length) {
  state.observables.splice(at, 0, freshLabel(state.observables, 'y', at + 1));
  for (const row of state.cells) row.splice(at, 0, '0');
}

function removeCol(j) {
  state.observables.splice(j, 1);
  for (const row of state.cells) row.splice(j, 1);
}

function freshLabel(existing, prefix, k) {
  const taken = new Set(existing);
  while (taken.has(`${prefix}${k}`)) k++;
  return `${prefix}${k}`;
}

// ---------------------------------------------------------------- paste

// Fills the grid from the cell that received the paste, growing it as needed. A pasted block
// may carry its own labels: a first line of non-numbers (column labels) and/or a first column
// of non-numbers (row labels).
function pasteIntoChannel(r, c, text) {
  let grid = splitGrid(text);
  if (!grid.length) return false;
  let rowLabels = null;
  let colLabels = null;
  if (c >= 0 && grid.length > 1 && grid[0].some((t) => t !== '' && !isNumeric(t)) && grid.slice(1).every((row) => row.slice(1).every((t) => t === '' || isNumeric(t)))) {
    colLabels = grid[0];
    grid = grid.slice(1);
  }
  if (c >= 0 && grid.length && grid.every((row) => row.length > 1 && row[0] !== '' && !isNumeric(row[0]))) {
    rowLabels = grid.map((row) => row[0]);
    grid = grid.map((row) => row.slice(1));
    if (colLabels && colLabels.length === grid[0].length + 1) colLabels = colLabels.slice(1);
  }
  if (c === -1) {
    // The prior column: the pasted values, read row by row, fill the prior downwards.
    const values = grid.flat().filter((t) => t !== '');
    for (let k = 0; k < values.length && r + k < state.secrets.length; k++) state.prior[r + k] = values[k];
    state.priorUniform = false;
    return true;
  }
  const rows = grid.length;
  const cols = Math.max(...grid.map((row) => row.length), colLabels ? colLabels.length : 0);
  while (state.secrets.length < r + rows) addRow();
  while (state.observables.length < c + cols) addCol();
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < grid[i].length; j++) state.cells[r + i][c + j] = grid[i][j];
    if (rowLabels) state.secrets[r + i] = rowLabels[i];
  }
  if (colLabels) colLabels.forEach((t, j) => { if (t !== '') state.observables[c + j] = t; });
  syncDerived();
  return true;
}

function pasteLabels(kind, index, text) {
  const values = splitGrid(text).flat().filter((t) => t !== '');
  if (values.length < 2) return false;
  if (kind === 'row') {
    while (state.secrets.length < index + values.length) addRow();
    values.forEach((t, k) => { state.secrets[index + k] = t; });
    syncDerived();
  } else {
    while (state.observables.length < index + values.length) addCol();
    values.forEach((t, k) => { state.observables[index + k] = t; });
  }
  return true;
}

function pasteIntoGain(w, x, text) {
  const grid = splitGrid(text).map((row) => row.filter((t, j) => x + j < state.secrets.length));
  if (!grid.length) return false;
  state.gainIdentity = false;
  while (state.gain.length < w + grid.length) addGuess();
  grid.forEach((row, i) => row.forEach((t, j) => { state.gain[w + i][x + j] = t; }));
  return true;
}

function addGuess() {
  state.gainIdentity = false;
  state.gainLabels.push(freshLabel(state.gainLabels, 'w', state.gainLabels.length + 1));
  state.gain.push(new Array(state.secrets.length).fill('0'));
}

// ---------------------------------------------------------------- rendering: inputs

const channelTable = byId('channel-table');
const gainTable = byId('gain-table');

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

function renderChannelTable() {
  const n = state.secrets.length;
  const m = state.observables.length;
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'corner' }, h('span', { class: 'corner-x', text: 'secret x' }), h('span', { class: 'corner-y', text: 'observable y →' })),
    h('th', { scope: 'col', class: 'prior-col', title: 'prior probability of each secret' }, 'π(x)'),
    state.observables.map((label, j) => h('th', { scope: 'col' },
      h('div', { class: 'col-head' },
        cellInput({ grid: 'channel', r: -1, c: j, value: label, label: `Label of observable ${j + 1}`, testid: `col-label-${j}`, kind: 'label' }),
        h('button', { type: 'button', class: 'remove', 'aria-label': `Remove observable ${j + 1} (${label})`, title: 'Remove this column', dataset: { action: 'remove-col', index: String(j) }, disabled: m <= 1, text: '×' })))),
    h('th', { scope: 'col', class: 'sum-col', title: 'row sum, must be 1' }, 'Σ'));
  const body = state.secrets.map((label, i) => h('tr', {},
    h('th', { scope: 'row' },
      h('div', { class: 'row-head' },
        h('button', { type: 'button', class: 'remove', 'aria-label': `Remove secret ${i + 1} (${label})`, title: 'Remove this row', dataset: { action: 'remove-row', index: String(i) }, disabled: n <= 1, text: '×' }),
        cellInput({ grid: 'channel', r: i, c: -2, value: label, label: `Label of secret ${i + 1}`, testid: `row-label-${i}`, kind: 'label' }))),
    h('td', { class: 'prior-col' },
      cellInput({ grid: 'channel', r: i, c: -1, value: state.prior[i], label: `Prior probability of secret ${i + 1} (${label})`, testid: `prior-${i}`, kind: 'prior' }),
      h('span', { class: 'msg', id: `msg-p-${i}` })),
    state.observables.map((obs, j) => h('td', {},
      cellInput({ grid: 'channel', r: i, c: j, value: state.cells[i][j], label: `C(${label}, ${obs}): probability of observing ${obs} when the secret is ${label}`, testid: `cell-${i}-${j}`, kind: 'cell' }),
      h('span', { class: 'msg', id: `msg-c-${i}-${j}` }))),
    h('td', { class: 'sum-col', 'data-testid': `rowsum-${i}` }, h('span', { class: 'sum' }), h('span', { class: 'msg' }))));
  const foot = h('tr', {},
    h('th', { scope: 'row', class: 'foot-label', text: 'Σ prior' }),
    h('td', { class: 'prior-col prior-sum', 'data-testid': 'prior-sum' }, h('span', { class: 'sum' }), h('span', { class: 'msg', id: 'msg-prior' })),
    h('td', { colspan: String(m + 1) }));
  replace(channelTable, h('thead', {}, head), h('tbody', {}, body), h('tfoot', {}, foot));
}

// Beyond this many secrets the identity gain is described rather than drawn: an n×n grid of
// inputs nobody edits would only slow the page down.
const DRAW_IDENTITY_UP_TO = 16;

function renderGainTable() {
  const n = state.secrets.length;
  const k = state.gain.length;
  if (state.gainIdentity && n > DRAW_IDENTITY_UP_TO) {
    replace(gainTable, h('tbody', {}, h('tr', {}, h('td', { class: 'identity-note' },
      `Identity gain on ${n} secrets: g(w, x) = 1 if w = x, else 0 (Bayes vulnerability). `,
      h('button', { type: 'button', class: 'small', dataset: { action: 'edit-gain' }, 'data-testid': 'edit-gain', text: 'Edit as a matrix' })))));
    return;
  }
  const head = h('tr', {},
    h('th', { scope: 'col', class: 'corner' }, h('span', { class: 'corner-x', text: 'guess w' }), h('span', { class: 'corner-y', text: 'secret x →' })),
    state.secrets.map((label) => h('th', { scope: 'col', class: 'static-label', text: label })));
  const body = state.gain.map((row, w) => h('tr', {},
    h('th', { scope: 'row' },
      h('div', { class: 'row-head' },
        h('button', { type: 'button', class: 'remove', 'aria-label': `Remove guess ${w + 1}`, title: 'Remove this guess', dataset: { action: 'remove-guess', index: String(w) }, disabled: k <= 1, text: '×' }),
        cellInput({ grid: 'gain', r: w, c: -2, value: state.gainLabels[w] ?? '', label: `Label of guess ${w + 1}`, testid: `gain-label-${w}`, kind: 'label' }))),
    Array.from({ length: n }, (_, x) => h('td', {},
      cellInput({ grid: 'gain', r: w, c: x, value: row[x], label: `g(${state.gainLabels[w] ?? w + 1}, ${state.secrets[x]}): gain of guess ${w + 1} when the secret is ${state.secrets[x]}`, testid: `gain-${w}-${x}`, kind: 'gain' }),
      h('span', { class: 'msg', id: `msg-g-${w}-${x}` })))));
  replace(gainTable, h('thead', {}, head), h('tbody', {}, body));
}

function renderPresetMenu() {
  const select = byId('preset');
  const options = presets.map((p) => h('option', { value: p.id, text: p.name }));
  options.push(h('option', { value: 'custom', text: 'Custom (edited)', disabled: !state.edited }));
  replace(select, options);
  select.value = state.edited ? 'custom' : state.presetId;
  const p = presetById(state.presetId);
  byId('preset-description').textContent = state.edited
    ? `Edited from: ${p ? p.name : 'a preset'}. Choose an example to start again.`
    : `${p.description} Secrets: ${p.secretName}; observables: ${p.observableName}. Source: ${p.source}.`;
}

// Re-renders the tables keeping focus (and the caret) on the same grid position.
function rerenderInputs() {
  const a = document.activeElement;
  const pos = a && a.dataset && a.dataset.grid ? { grid: a.dataset.grid, r: a.dataset.r, c: a.dataset.c, s: a.selectionStart, e: a.selectionEnd } : null;
  renderChannelTable();
  renderGainTable();
  renderPresetMenu();
  indexInputs();
  if (pos) {
    const el = document.querySelector(`input[data-grid="${pos.grid}"][data-r="${pos.r}"][data-c="${pos.c}"]`);
    if (el) {
      el.focus();
      try { el.setSelectionRange(pos.s, pos.e); } catch { /* not a text input */ }
    }
  }
  changed();
}

// Applies the validation result to the inputs without rebuilding them.
// Inputs that carry a validation message, by key ("c:i:j", "p:i", "g:w:x"); filled when the
// tables are rendered so that validating touches only the cells whose message changed.
let inputsByKey = new Map();
let shownMessages = new Map();
let shownRows = [];

function indexInputs() {
  inputsByKey = new Map();
  for (const input of document.querySelectorAll('input[data-grid]')) {
    const { grid, r, c, kind } = input.dataset;
    if (grid === 'channel' && kind === 'cell') inputsByKey.set(`c:${r}:${c}`, input);
    else if (grid === 'channel' && kind === 'prior') inputsByKey.set(`p:${r}`, input);
    else if (grid === 'gain' && kind === 'gain') inputsByKey.set(`g:${r}:${c}`, input);
  }
  shownMessages = new Map(); // fresh inputs carry no message yet
  shownRows = [];
}

// Applies the validation result to the inputs without rebuilding them. Cheap on large
// matrices: only cells whose message appears, changes or disappears are touched.
function showValidation() {
  checked = validateInputs(state);
  const keys = new Set([...shownMessages.keys(), ...checked.cell.keys()]);
  for (const key of keys) {
    const msg = checked.cell.get(key) ?? null;
    if ((shownMessages.get(key) ?? null) === msg) continue;
    const input = inputsByKey.get(key);
    if (input) setInvalid(input, input.nextElementSibling, msg);
  }
  shownMessages = new Map(checked.cell);
  const rows = channelTable.tBodies[0]?.rows ?? [];
  for (let i = 0; i < rows.length; i++) {
    const sum = checked.rowSums[i];
    const shownRow = `${sum}|${checked.row[i]}`;
    if (shownRows[i] === shownRow) continue;
    shownRows[i] = shownRow;
    const cell = rows[i].lastElementChild;
    const sumEl = cell.firstElementChild;
    sumEl.textContent = Number.isNaN(sum) ? '—' : formatNumber(sum, 6);
    sumEl.title = Number.isNaN(sum) ? 'a cell of this row is not a number' : formatFull(sum);
    cell.lastElementChild.textContent = checked.row[i] ?? '';
    cell.classList.toggle('invalid', !!checked.row[i]);
    rows[i].classList.toggle('row-invalid', !!checked.row[i]);
  }
  const ps = channelTable.querySelector('.prior-sum');
  if (ps) {
    ps.querySelector('.sum').textContent = Number.isNaN(checked.priorSum) ? '—' : formatNumber(checked.priorSum, 6);
    // The cell is narrow: the full sentence is in the error list under the table.
    ps.querySelector('.msg').textContent = checked.priorMsg ? 'expected 1' : '';
    ps.title = checked.priorMsg ?? '';
    ps.classList.toggle('invalid', !!checked.priorMsg);
  }
  const alphaInput = document.getElementById('alpha');
  if (alphaInput) setInvalid(alphaInput, document.getElementById('alpha-msg'), checked.alphaMsg);
  const tolInput = document.getElementById('capacity-tolerance');
  if (tolInput) setInvalid(tolInput, document.getElementById('capacity-tolerance-msg'), checked.toleranceMsg);
  replace(byId('input-errors'), checked.messages.slice(0, 12).map((m) => h('li', { text: m.text })),
    checked.messages.length > 12 ? h('li', { text: `… and ${checked.messages.length - 12} more` }) : null);
  depCache.clear();
}

function setInvalid(input, msgEl, msg) {
  input.classList.toggle('invalid', !!msg);
  if (msg) {
    input.setAttribute('aria-invalid', 'true');
    if (msgEl) {
      input.setAttribute('aria-describedby', msgEl.id);
      msgEl.textContent = msg;
    }
  } else {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
    if (msgEl) msgEl.textContent = '';
  }
}

// ---------------------------------------------------------------- rendering: results

const resultsEl = byId('results');
const resultEls = new Map(); // measure key → {root, value, msg}
let extraEls = {};

function buildResults() {
  for (const g of GROUPS) {
    const items = Object.entries(MEASURES).filter(([, d]) => d.group === g.id);
    const card = h('section', { class: 'card result-group', 'aria-labelledby': `group-${g.id}`, 'data-testid': `group-${g.id}` },
      h('div', { class: 'card-head' }, h('h3', { id: `group-${g.id}`, text: g.title }), sourceRefs(g.source)));
    if (g.id === 'renyi') {
      card.append(h('div', { class: 'alpha-row' },
        h('label', { for: 'alpha' }, 'Order α of the Rényi entropy'),
        h('input', { id: 'alpha', type: 'text', class: 'num', 'data-testid': 'alpha', value: state.alpha, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', title: 'α ≥ 0; 0 gives Hartley entropy, 1 Shannon, ∞ (type inf) min-entropy' }),
        h('span', { class: 'msg', id: 'alpha-msg' })));
    }
    const list = h('dl', { class: 'result-list' });
    for (const [key, d] of items) {
      const value = h('output', { class: 'value', 'data-testid': `value-${key}`, id: `value-${key}`, text: '…' });
      const msg = h('div', { class: 'r-msg', 'data-testid': `msg-${key}` });
      const root = h('div', { class: 'result', 'data-testid': `result-${key}`, dataset: { status: 'pending', key } },
        h('dt', {}, h('span', { class: 'r-name', text: d.name }), h('span', { class: 'r-formula', 'aria-label': d.formula }, formula(d.formula))),
        h('dd', {}, h('span', { class: 'r-value' }, value, ' ', h('span', { class: 'unit', text: d.unit })), msg));
      resultEls.set(key, { root, value, msg });
      list.append(root);
    }
    card.append(list);
    if (g.id === 'shannon') {
      card.append(h('div', { class: 'alpha-row' },
        h('label', { for: 'capacity-tolerance' }, 'Capacity tolerance (bits)'),
        h('input', { id: 'capacity-tolerance', type: 'text', class: 'num', 'data-testid': 'capacity-tolerance', value: state.tolerance, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', title: 'Blahut–Arimoto stops once the certified upper bound is within this many bits of the capacity' }),
        h('span', { class: 'msg', id: 'capacity-tolerance-msg' })));
      extraEls.capacity = h('div', { class: 'capacity-detail', 'data-testid': 'capacity-detail' });
      card.append(extraEls.capacity);
    }
    if (g.id === 'hyper') {
      extraEls.hyper = h('div', { class: 'hyper', 'data-testid': 'hyper' });
      card.append(h('p', { class: 'hint', text: 'Each distinct posterior p(x|y) (an inner) with its probability p(y) (the outer); outputs with equal posteriors are merged and outputs of probability 0 dropped.' }), extraEls.hyper);
      const root = card;
      resultEls.set('hyper', { root, value: null, msg: null });
      root.dataset.status = 'pending';
    }
    resultsEl.append(card);
  }
}

const shown = {}; // measure key → last settled result shown

// Renders one of our own formula strings (never user text) with sub- and superscripts:
// "x_y", "x_{abc}", "x^y", "x^{abc}".
function formula(text) {
  const out = [];
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if ((ch === '_' || ch === '^') && i + 1 < text.length) {
      let body;
      if (text[i + 1] === '{') {
        const end = text.indexOf('}', i + 2);
        body = text.slice(i + 2, end);
        i = end;
      } else {
        const cp = String.fromCodePoint(text.codePointAt(i + 1));
        body = cp;
        i += cp.length;
      }
      if (plain) out.push(plain);
      plain = '';
      out.push(h(ch === '_' ? 'sub' : 'sup', { text: body }));
    } else plain += ch;
  }
  if (plain) out.push(plain);
  return out;
}

function showValue(key, r, exact) {
  const el = resultEls.get(key);
  if (!el) return;
  shown[key] = r;
  if (key === 'hyper') {
    renderHyper(r);
    return;
  }
  if (key === 'shannonCapacity') {
    renderCapacity(r);
    if (r.ok) r = { ok: true, value: r.value.capacity };
  }
  if (r.ok) {
    el.root.dataset.status = 'ok';
    el.value.textContent = formatNumber(r.value);
    el.value.title = formatFull(r.value);
    el.value.dataset.value = String(r.value);
    el.msg.textContent = '';
    showExact(el.value, exact, r.value); // "2/7 ≈" before the decimal when the inputs are simple fractions
  } else {
    showExact(el.value, null);
    const missing = /not available in this build/.test(r.error);
    el.root.dataset.status = missing ? 'unavailable' : 'error';
    el.value.textContent = missing ? 'n/a' : 'error';
    el.value.title = r.error;
    delete el.value.dataset.value;
    el.msg.textContent = r.error;
  }
}

// Labels appear in the hyper table and the capacity prior: redraw them when a label changes
// (the numbers do not change, so nothing is recomputed).
function refreshLabelled() {
  if (shown.hyper && resultEls.get('hyper').root.dataset.status === 'ok') renderHyper(shown.hyper);
  if (shown.shannonCapacity && resultEls.get('shannonCapacity').root.dataset.status === 'ok') renderCapacity(shown.shannonCapacity);
}

function renderCapacity(r) {
  const box = extraEls.capacity;
  box.dataset.status = r.ok ? 'ok' : 'error';
  if (!r.ok) {
    replace(box);
    return;
  }
  const { capacity, prior, iterations, upperBound, converged } = r.value;
  const gap = upperBound - capacity;
  const rows = Array.from(prior, (p, i) => h('tr', {}, h('th', { scope: 'row', text: state.secrets[i] ?? `x${i + 1}` }), h('td', { title: formatFull(p), text: formatNumber(p) })));
  replace(box,
    h('p', { class: 'cap-stats' },
      h('span', {}, 'Iterations: ', h('output', { 'data-testid': 'capacity-iterations', text: String(iterations) })),
      h('span', { title: `certified upper bound max_x D(C_x ‖ q) = ${formatFull(upperBound)} bits` }, 'Gap to upper bound: ', h('output', { 'data-testid': 'capacity-gap', 'data-value': String(gap), text: `${formatNumber(gap)} bits` })),
      converged === false ? h('span', { class: 'warn-text', text: 'stopped at the iteration limit before reaching the tolerance' }) : null),
    h('details', {},
      h('summary', {}, 'Capacity-achieving prior'),
      h('table', { class: 'mini', 'data-testid': 'capacity-prior' }, h('tbody', {}, rows)),
      h('button', { type: 'button', class: 'small', dataset: { action: 'use-capacity-prior' }, text: 'Use as prior' })));
  lastCapacityPrior = Array.from(prior);
}
let lastCapacityPrior = null;

// Labels each inner with the outputs whose posterior it is, when the channel is small enough
// to match them cheaply.
function posteriorLabels(hyper, C, prior) {
  const labels = Array.from({ length: hyper.inners.rows }, () => []);
  const n = C.length;
  const m = n ? C[0].length : 0;
  if (n * m > LABEL_POSTERIORS_UP_TO) return labels;
  const { rows, cols, data } = hyper.inners;
  for (let y = 0; y < m; y++) {
    let py = 0;
    for (let x = 0; x < n; x++) py += prior[x] * C[x][y];
    if (py <= 0) continue;
    for (let k = 0; k < rows; k++) {
      let same = true;
      for (let x = 0; x < cols && same; x++) same = Math.abs(data[k * cols + x] - (prior[x] * C[x][y]) / py) <= 1e-9;
      if (same) {
        labels[k].push(state.observables[y]);
        break;
      }
    }
  }
  return labels;
}

let lastHyperInputs = null;
let lastHyperExact = null;
function renderHyper(r) {
  const el = resultEls.get('hyper');
  const box = extraEls.hyper;
  if (!r.ok) {
    el.root.dataset.status = /not available/.test(r.error) ? 'unavailable' : 'error';
    replace(box, h('p', { class: 'r-msg', text: r.error }));
    return;
  }
  el.root.dataset.status = 'ok';
  const { outer, inners } = r.value;
  const labels = lastHyperInputs ? posteriorLabels(r.value, lastHyperInputs.C, lastHyperInputs.prior) : [];
  const visible = Math.min(inners.rows, MAX_HYPER_ROWS);
  const head = h('tr', {}, h('th', { scope: 'col', text: 'outputs y' }), h('th', { scope: 'col', class: 'outer', text: 'outer p(y)' }),
    Array.from({ length: inners.cols }, (_, x) => h('th', { scope: 'col', text: `p(${state.secrets[x] ?? x + 1}|y)` })));
  const body = [];
  for (let k = 0; k < visible; k++) {
    body.push(h('tr', { 'data-testid': `hyper-row-${k}` },
      h('th', { scope: 'row', text: labels[k]?.length ? labels[k].join(', ') : `inner ${k + 1}` }),
      h('td', { class: 'outer', title: formatFull(outer[k]), 'data-value': String(outer[k]), text: exactCell(outer[k], lastHyperExact) }),
      Array.from({ length: inners.cols }, (_, x) => {
        const v = inners.data[k * inners.cols + x];
        return h('td', { class: v === 0 ? 'zero' : undefined, title: formatFull(v), 'data-value': String(v), text: exactCell(v, lastHyperExact) });
      })));
  }
  replace(box,
    h('p', { class: 'muted', 'data-testid': 'hyper-summary', text: `${inners.rows} distinct posterior${inners.rows === 1 ? '' : 's'} from ${state.observables.length} output${state.observables.length === 1 ? '' : 's'}.` }),
    h('div', { class: 'table-wrap' }, h('table', { class: 'mini hyper-table', 'data-testid': 'hyper-table' }, h('thead', {}, head), h('tbody', {}, body))),
    inners.rows > visible ? h('p', { class: 'muted', text: `… ${inners.rows - visible} more not shown.` }) : null);
}

// ---------------------------------------------------------------- computation

const latest = latestOnly();
const panelKeys = {}; // panel → measure keys it fills
for (const [name, p] of Object.entries(PANELS)) {
  panelKeys[name] = Object.keys(p.derive(p.calls({ prior: [], C: [], G: [], alpha: 0 }).map(() => ({ ok: false, error: '' }))));
}
const lastSignature = {};
const running = new Set();
let scheduled = false;

// Matrices go to the worker as {rows, cols, data: Float64Array}: one cheap clone per job and
// one bulk copy into Go, however many calls of the job use them.
function flat(M) {
  const rows = M.length;
  const cols = rows ? M[0].length : 0;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) data.set(M[i], i * cols);
  return { rows, cols, data };
}

// Validated value of each input a panel may depend on (null when invalid), in the form sent
// to the worker, and its JSON for change detection; both cached until the next validation.
const depCache = new Map();
function dep(d) {
  if (!depCache.has(d)) {
    const raw = { prior: checked.prior, channel: checked.channel, gain: checked.gain, alpha: checked.alpha, tolerance: checked.tolerance }[d];
    const value = raw !== null && (d === 'channel' || d === 'gain') ? flat(raw) : raw;
    // String() keeps α = ∞ apart from null in JSON.
    const json = raw === null ? 'null' : typeof raw === 'number' ? String(raw) : JSON.stringify(raw);
    depCache.set(d, { value, json });
  }
  return depCache.get(d);
}

function panelInputs() {
  return { prior: dep('prior').value, C: dep('channel').value, G: dep('gain').value, alpha: dep('alpha').value, tolerance: dep('tolerance').value };
}

function depsValid(deps) {
  return deps.every((d) => dep(d).value !== null);
}

function signature(name) {
  return PANELS[name].deps.map((d) => dep(d).json).join('\u0000');
}

function setPanelStatus(name, status, note) {
  if (name === 'capacity') extraEls.capacity.dataset.status = status;
  for (const key of panelKeys[name]) {
    const el = resultEls.get(key);
    if (!el) continue;
    el.root.dataset.status = status;
    if (el.msg && note !== undefined) el.msg.textContent = note;
  }
}

// Called on every input: immediate validation, then a debounced recompute.
function changed() {
  showValidation();
  for (const name of Object.keys(PANELS)) {
    if (!depsValid(PANELS[name].deps)) {
      setPanelStatus(name, 'stale', '');
      lastSignature[name] = null;
    } else if (signature(name) !== lastSignature[name]) setPanelStatus(name, 'pending');
  }
  updateNote();
  scheduled = true;
  setBusy();
  recompute();
}

const recompute = debounce(() => {
  scheduled = false;
  const inputs = panelInputs();
  if (checked.channel && checked.prior) lastHyperInputs = { C: checked.channel, prior: checked.prior };
  const exact = checked.channel && checked.prior ? exactMeasures(state) : null;
  lastHyperExact = exact ? exact.hyper : null;
  for (const [name, p] of Object.entries(PANELS)) {
    if (!depsValid(p.deps)) continue;
    const sig = signature(name);
    if (sig === lastSignature[name]) {
      // Back to inputs already shown (e.g. 0.5 retyped as 1/2): nothing to recompute.
      if (!running.has(name)) for (const key of panelKeys[name]) if (resultEls.get(key)?.root.dataset.status === 'pending') resultEls.get(key).root.dataset.status = 'ok';
      continue;
    }
    lastSignature[name] = sig;
    runPanel(name, p, inputs, exact);
  }
  setBusy();
}, DEBOUNCE_MS);

const jobs = {}; // panel → id of its job in flight
const PROGRESS_AFTER_MS = 300;

function runPanel(name, p, inputs, exact) {
  // A capacity computation still running for older inputs only delays the new one: stop it.
  if (name === 'capacity' && jobs[name] !== undefined && client.pending(jobs[name])) client.cancel(jobs[name]);
  running.add(name);
  const job = client.submit(p.calls(inputs), name === 'capacity' ? { onProgress: showCapacityProgress } : {});
  jobs[name] = job.id;
  let progressTimer = null;
  if (name === 'capacity') {
    progressTimer = setTimeout(() => { if (client.pending(job.id)) showCapacityProgress(null); }, PROGRESS_AFTER_MS);
  }
  latest(name, job.promise).then(
    (results) => {
      clearTimeout(progressTimer);
      if (results === STALE) return;
      running.delete(name);
      const values = p.derive(results);
      for (const [key, r] of Object.entries(values)) showValue(key, r, exact?.[key]);
      setBusy();
    },
    (err) => {
      clearTimeout(progressTimer);
      running.delete(name);
      lastSignature[name] = null;
      const cancelled = err && err.name === 'CancelledError';
      setPanelStatus(name, cancelled ? 'cancelled' : 'error', cancelled ? 'Cancelled.' : err.message);
      for (const key of panelKeys[name]) {
        const el = resultEls.get(key);
        if (el?.value) {
          el.value.textContent = cancelled ? '—' : 'error';
          el.value.title = err.message;
          delete el.value.dataset.value;
        }
      }
      if (name === 'capacity') {
        replace(extraEls.capacity, cancelled
          ? h('p', { class: 'cap-stats' }, 'The capacity computation was cancelled. ',
            h('button', { type: 'button', class: 'small', dataset: { action: 'recompute-capacity' }, 'data-testid': 'capacity-recompute', text: 'Compute again' }))
          : null);
      }
      setBusy();
    },
  );
}

// Shown while Blahut–Arimoto runs longer than PROGRESS_AFTER_MS: the bounds it has reached
// (progress reports are [iteration, lower, upper] in bits) and a way to stop it.
function showCapacityProgress(data) {
  if (!running.has('capacity')) return;
  const [it, lower, upper] = Array.isArray(data) ? data : [];
  const text = it === undefined ? 'Computing the capacity…'
    : `Iteration ${it}: capacity between ${formatNumber(lower)} and ${formatNumber(upper)} bits`;
  const line = extraEls.capacity.querySelector('[data-testid="capacity-progress-text"]');
  if (line) {
    line.textContent = text;
    return;
  }
  replace(extraEls.capacity, h('p', { class: 'cap-stats progress', 'data-testid': 'capacity-progress', role: 'status' },
    // The button comes first so that it stays put while the text changes.
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-capacity' }, 'data-testid': 'capacity-cancel', text: 'Cancel' }),
    h('span', { 'data-testid': 'capacity-progress-text', text })));
}

function setBusy() {
  byId('main').dataset.busy = String(scheduled || running.size > 0);
}

function updateNote() {
  const note = byId('results-note');
  const n = checked.messages.length;
  note.textContent = n ? `The input has ${n} problem${n === 1 ? '' : 's'} (see the matrix): values that depend on it are marked stale.` : '';
  note.classList.toggle('warn', n > 0);
}

// ---------------------------------------------------------------- events

function onInput(e) {
  const t = e.target;
  if (t.id === 'alpha' || t.id === 'capacity-tolerance') {
    state[t.id === 'alpha' ? 'alpha' : 'tolerance'] = t.value;
    changed();
    return;
  }
  const d = t.dataset;
  if (!d || !d.grid) return;
  const r = Number(d.r);
  const c = Number(d.c);
  if (d.grid === 'channel') {
    if (d.kind === 'cell') state.cells[r][c] = t.value;
    else if (d.kind === 'prior') {
      state.prior[r] = t.value;
      state.priorUniform = false;
    } else if (r === -1) state.observables[c] = t.value;
    else {
      state.secrets[r] = t.value;
      if (state.gainIdentity) state.gainLabels[r] = t.value;
      renderGainTable(); // its column headers are the secrets
      indexInputs();
    }
    if (d.kind !== 'prior') markEdited();
    if (d.kind === 'label') refreshLabelled();
  } else if (d.grid === 'gain') {
    state.gainIdentity = false;
    if (d.kind === 'gain') state.gain[r][c] = t.value;
    else state.gainLabels[r] = t.value;
  }
  changed();
}

function onClick(e) {
  const b = e.target.closest('button');
  if (!b) return;
  const i = Number(b.dataset.index);
  switch (b.dataset.action ?? b.id) {
    case 'remove-row': removeRow(i); markEdited(); break;
    case 'remove-col': removeCol(i); markEdited(); break;
    case 'remove-guess':
      state.gainIdentity = false;
      state.gain.splice(i, 1);
      state.gainLabels.splice(i, 1);
      break;
    case 'add-row': addRow(); markEdited(); break;
    case 'add-col': addCol(); markEdited(); break;
    case 'uniform': state.priorUniform = true; syncDerived(); break;
    case 'add-guess': addGuess(); break;
    case 'identity-gain': state.gainIdentity = true; syncDerived(); break;
    case 'edit-gain': state.gainIdentity = false; break;
    case 'cancel-capacity':
      if (jobs.capacity !== undefined) client.cancel(jobs.capacity);
      return;
    case 'recompute-capacity':
      changed();
      return;
    case 'use-capacity-prior':
      if (!lastCapacityPrior || lastCapacityPrior.length !== state.secrets.length) return;
      state.prior = lastCapacityPrior.map((p) => String(Number(p.toPrecision(12))));
      state.priorUniform = false;
      break;
    default: return;
  }
  rerenderInputs();
}

function onPaste(e) {
  const t = e.target;
  const d = t.dataset;
  if (!d || !d.grid) return;
  const text = e.clipboardData?.getData('text/plain') ?? '';
  if (!/[\t\n,; ]/.test(text.trim())) return; // one value: the browser's own paste
  const r = Number(d.r);
  const c = Number(d.c);
  let done = false;
  if (d.grid === 'channel') {
    if (d.kind === 'label') done = pasteLabels(r === -1 ? 'col' : 'row', r === -1 ? c : r, text);
    else done = pasteIntoChannel(r, d.kind === 'prior' ? -1 : c, text);
    if (done && d.kind !== 'prior') markEdited();
  } else if (d.grid === 'gain' && d.kind === 'gain') done = pasteIntoGain(r, c, text);
  if (done) {
    e.preventDefault();
    rerenderInputs();
  }
}

// Spreadsheet-like movement: arrows across cells, Enter goes down (Shift+Enter up).
function onKeyDown(e) {
  const t = e.target;
  const d = t.dataset;
  if (!d || !d.grid || e.altKey || e.ctrlKey || e.metaKey) return;
  let dr = 0;
  let dc = 0;
  if (e.key === 'ArrowUp') dr = -1;
  else if (e.key === 'ArrowDown' || (e.key === 'Enter' && !e.shiftKey)) dr = 1;
  else if (e.key === 'Enter' && e.shiftKey) dr = -1;
  // Left/right leave the cell only from its edge, or when the whole text is selected (as it is
  // just after arriving in a cell).
  else if (e.key === 'ArrowLeft' && t.selectionStart === 0 && (t.selectionEnd === 0 || t.selectionEnd === t.value.length)) dc = -1;
  else if (e.key === 'ArrowRight' && t.selectionEnd === t.value.length && (t.selectionStart === t.value.length || t.selectionStart === 0)) dc = 1;
  else return;
  const target = neighbour(d.grid, Number(d.r), Number(d.c), dr, dc);
  if (target) {
    e.preventDefault();
    target.focus();
    target.select();
  }
}

function neighbour(grid, r, c, dr, dc) {
  const inputs = [...document.querySelectorAll(`input[data-grid="${grid}"]`)];
  const at = (rr, cc) => inputs.find((el) => Number(el.dataset.r) === rr && Number(el.dataset.c) === cc);
  if (dr) return at(r + dr, c);
  const cols = [...new Set(inputs.filter((el) => Number(el.dataset.r) === r).map((el) => Number(el.dataset.c)))].sort((a, b) => a - b);
  const k = cols.indexOf(c) + dc;
  return k >= 0 && k < cols.length ? at(r, cols[k]) : null;
}

function onPresetChange(e) {
  const p = presetById(e.target.value);
  if (!p) return;
  loadPreset(p);
  rerenderInputs();
}

// ---------------------------------------------------------------- URL state (share.js)

/** The section's whole input state as plain JSON (share.js carries it in the URL hash). */
export function getState() {
  return JSON.parse(JSON.stringify(state));
}

/** Restores a getState() object (share.js has checked it: URL text is untrusted) and recomputes. */
export function setState(s) {
  for (const k of Object.keys(state)) if (k in s) state[k] = JSON.parse(JSON.stringify(s[k]));
  syncDerived();
  for (const [id, k] of [['alpha', 'alpha'], ['capacity-tolerance', 'tolerance']]) {
    const el = document.getElementById(id);
    if (el) el.value = state[k];
  }
  rerenderInputs();
}

// ---------------------------------------------------------------- start

function start() {
  loadPreset(presetById(DEFAULT_PRESET));
  buildResults();
  const section = byId('channel');
  section.addEventListener('input', onInput);
  section.addEventListener('click', onClick);
  section.addEventListener('paste', onPaste);
  section.addEventListener('keydown', onKeyDown);
  byId('preset').addEventListener('change', onPresetChange);
  const status = byId('engine-status');
  client.ready.then(
    (info) => {
      status.dataset.state = 'ready';
      status.textContent = `WebAssembly engine ready${info.version ? ` · qif ${info.version}` : ''}`;
    },
    (err) => {
      status.dataset.state = 'error';
      status.textContent = `The WebAssembly engine could not be loaded: ${err.message}`;
    },
  );
  client.on((ev) => {
    if (ev.type === 'crash') {
      status.dataset.state = 'error';
      status.textContent = `${ev.error} — restarted.`;
      for (const name of Object.keys(lastSignature)) lastSignature[name] = null;
      changed();
    }
  });
  rerenderInputs();
  recompute.flush(); // the first results need no debounce: nobody is typing yet
}

start();
