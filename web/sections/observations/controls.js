// sections/observations/controls.js — the "From observations" section's reading panel: how the
// samples were read (the observation columns as numbers or labels, decimal commas), the choices
// the user can change (read as, k of the k-NN rule, k of the MI estimator, bins), and the offer to
// swap the columns when the secret column looks like an observation.
//
//   const c = readingPanel({ state, onChange, onSwap });
//   c.element                       the panel (hidden until samples are read)
//   c.show(info)                    info: {name, rows, header, secretValues, observationColumns,
//                                   numeric, kind: {kind, why, forced, refused?}, decimalComma,
//                                   swap: {suspect, distinct, canSwap, why?}, swapped, ties?: text}
//   c.sync()                        the inputs from state (after setState)

import { h, replace } from '../../lib/dom.js';
import * as S from './state.js';

let ids = 0;

function field(label, input, note) {
  const id = `obs-ctl-${++ids}`;
  input.id = id;
  return h('div', { class: 'obs-field' }, h('label', { for: id }, label), h('div', { class: 'obs-inline' }, input, note ?? null));
}

export function readingPanel({ state, onChange, onSwap }) {
  const kind = h('select', { 'data-testid': 'obs-kind' },
    h('option', { value: 'auto' }, 'automatically'), h('option', { value: 'numbers' }, 'as numbers'), h('option', { value: 'labels' }, 'as labels'));
  const knnRule = h('select', { 'data-testid': 'obs-knn' },
    h('option', { value: 'ln' }, '⌈ln n⌉'), h('option', { value: 'log10' }, '⌈log₁₀ n⌉'), h('option', { value: 'number' }, 'a number'));
  const knnNumber = h('input', { class: 'num', inputmode: 'numeric', 'data-testid': 'obs-knn-number', 'aria-label': 'k of the k-NN rule', value: '5' });
  const miK = h('input', { class: 'num', inputmode: 'numeric', 'data-testid': 'obs-mik', value: state.miK });
  const binsRule = h('select', { 'data-testid': 'obs-bins' },
    h('option', { value: 'none' }, 'none'), h('option', { value: 'fd' }, 'Freedman–Diaconis'), h('option', { value: 'number' }, 'a number of bins'));
  const binsNumber = h('input', { class: 'num', inputmode: 'numeric', 'data-testid': 'obs-bins-number', 'aria-label': 'number of bins', value: '10' });
  const message = h('p', { class: 'obs-field-msg', role: 'alert', 'data-testid': 'obs-controls-msg' });
  const summary = h('p', { class: 'obs-reading', 'data-testid': 'obs-reading' });
  const comma = h('p', { class: 'obs-comma', 'data-testid': 'obs-decimal-comma', hidden: true });
  const ties = h('p', { class: 'obs-ties', 'data-testid': 'obs-ties', hidden: true });
  const swapBox = h('div', { class: 'msg obs-swap', role: 'alert', 'data-testid': 'obs-swap', hidden: true });
  const numbersOnly = h('div', { class: 'obs-numbers-only' },
    field('k-NN rule: k =', knnRule, knnNumber),
    field('MI estimator: k =', miK),
    field('Bins (for the counted estimates)', binsRule, binsNumber));
  const element = h('div', { class: 'obs-reading-panel', hidden: true, 'data-testid': 'obs-reading-panel' },
    summary, comma, ties, swapBox,
    h('div', { class: 'obs-controls' }, field('Read the observations', kind), numbersOnly),
    message);

  function sync() {
    kind.value = state.kind;
    const knn = String(state.knn);
    knnRule.value = knn === 'ln' || knn === 'log10' ? knn : 'number';
    if (knnRule.value === 'number') knnNumber.value = knn;
    knnNumber.hidden = knnRule.value !== 'number';
    miK.value = state.miK;
    const bins = String(state.bins);
    binsRule.value = bins === 'none' || bins === 'fd' ? bins : 'number';
    if (binsRule.value === 'number') binsNumber.value = bins;
    binsNumber.hidden = binsRule.value !== 'number';
  }

  // Reads the inputs into the state; returns false (and says why) when one is not valid.
  function read() {
    const knn = knnRule.value === 'number' ? knnNumber.value : knnRule.value;
    const bins = binsRule.value === 'number' ? binsNumber.value : binsRule.value;
    const errors = [S.parseKnn(knn).error, S.parseMiK(miK.value).error, S.parseBins(bins).error].filter(Boolean);
    knnNumber.hidden = knnRule.value !== 'number';
    binsNumber.hidden = binsRule.value !== 'number';
    message.textContent = errors.join('; ');
    if (errors.length) return false;
    Object.assign(state, { kind: kind.value, knn: String(knn).trim(), miK: miK.value.trim(), bins: String(bins).trim() });
    return true;
  }
  const changed = () => { if (read()) onChange(); };
  for (const el of [kind, knnRule, binsRule]) el.addEventListener('change', changed);
  for (const el of [knnNumber, miK, binsNumber]) el.addEventListener('change', changed);

  function show(info) {
    element.hidden = false;
    const k = info.kind;
    const cols = info.observationColumns;
    const colText = cols === 1 ? 'the observation column' : `the ${cols} observation columns`;
    const how = k.kind === 'numbers'
      ? `${colText} read as numbers (${cols > 1 ? 'a vector per sample, ' : ''}compared by distance)`
      : `${colText} read as labels (equal or not)`;
    const names = info.header ? ` (“${info.header[0]}” the secret)` : '';
    replace(summary,
      `${info.rows.toLocaleString('en')} samples ${info.name ? `from ${info.name}` : 'drawn'}${names}: ${info.secretValues.toLocaleString('en')} secret value${info.secretValues === 1 ? '' : 's'}, `,
      h('strong', { 'data-testid': 'obs-kind-read', 'data-kind': k.kind }, how),
      k.forced ? ', as you chose.' : ` — ${k.why}.`,
      k.refused ? h('span', { class: 'obs-refused' }, ` Not as numbers: ${k.refused}.`) : null,
      info.swapped ? ' The first two columns were swapped.' : null);
    kind.querySelector('option[value="numbers"]').disabled = !info.numeric;
    numbersOnly.hidden = k.kind !== 'numbers';
    comma.hidden = !info.decimalComma;
    comma.textContent = info.decimalComma ? 'Commas between digits were read as decimal commas (0,5 = one half).' : '';
    ties.hidden = !info.ties;
    ties.textContent = info.ties ?? '';
    const sw = info.swap;
    swapBox.hidden = !sw.suspect;
    if (sw.suspect) {
      const text = `The secret column has ${sw.distinct.toLocaleString('en')} distinct values in ${info.rows.toLocaleString('en')} samples: ` +
        'it looks like an observation column (a secret is usually one of few values). ';
      const button = h('button', { type: 'button', class: 'small', 'data-testid': 'obs-swap-button', disabled: !sw.canSwap }, 'Swap the first two columns');
      button.addEventListener('click', () => onSwap());
      replace(swapBox, text, sw.canSwap ? button : h('span', {}, `To swap them, ${sw.why}.`));
    }
  }

  sync();
  return { element, show, sync, hide: () => { element.hidden = true; } };
}
