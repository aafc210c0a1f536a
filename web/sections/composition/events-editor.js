// sections/composition/events-editor.js — the list of events of the "Composition" section: one row
// per event (its mechanism, parameters, optional Poisson subsampling, how many times it runs, a
// Remove button), an Add button and the list as text in the widget's grammar. It edits the drafts
// of the section's state in place and calls onChange(structural) after each edit; nothing
// computes here.

import { h, replace } from '../../lib/dom.js';
import { MECHANISMS, PARAMS, MAX_EVENTS, newDraft, formatDrafts, parseEvents } from '../../lib/accounting-events.js';

/**
 * @param {{state: {drafts: object[]}, onChange: (structural: boolean) => void}} deps
 * @returns {{el: HTMLElement, list: HTMLElement, render(): void, showErrors(errors): void, addDraft(d): void}}
 */
export function eventsEditor({ state, onChange }) {
  const list = h('ol', { class: 'cmp-events', 'data-testid': 'cmp-events', 'aria-label': 'Events, in the order they run' });
  const add = h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-add' }, '+ Add an event');
  const listMsg = h('p', { class: 'msg cmp-block-msg', role: 'alert', 'data-testid': 'cmp-list-msg' });
  const asText = h('textarea', { class: 'cmp-text', rows: '3', spellcheck: 'false', 'data-testid': 'cmp-text', 'aria-label': 'The events as text' });
  const textMsg = h('p', { class: 'msg cmp-block-msg', role: 'alert', 'data-testid': 'cmp-text-msg' });
  const apply = h('button', { type: 'button', class: 'small', 'data-testid': 'cmp-text-apply' }, 'Use this text');
  const textBox = h('details', { class: 'cmp-text-box' },
    h('summary', {}, 'As text (the widget’s events attribute)'),
    h('p', { class: 'hint' }, 'One event a line or separated by “;”: ', h('code', {}, 'laplace epsilon=0.1 x10; subsampled rate=0.01 of gaussian sigma=1 x10000'), '. Paste it into ', h('code', {}, '<qif-composition events="…">'), ' or edit it here.'),
    asText, h('div', { class: 'cmp-row' }, apply), textMsg);

  add.addEventListener('click', () => {
    if (state.drafts.length >= MAX_EVENTS) return;
    state.drafts.push(newDraft('gaussian', { sigma: '1' }));
    onChange(true);
    list.querySelector('li:last-child select')?.focus();
  });
  apply.addEventListener('click', () => {
    const r = parseEvents(asText.value);
    textMsg.textContent = r.error ?? '';
    if (r.error) return;
    state.drafts.splice(0, state.drafts.length, ...r.drafts);
    onChange(true);
  });

  list.addEventListener('change', (e) => {
    const t = e.target;
    const i = indexOf(t);
    if (i < 0) return;
    const d = state.drafts[i];
    if (t.dataset.field === 'mechanism') {
      const keep = {};
      for (const k of MECHANISMS[t.value].params) if (d.params[k] !== undefined) keep[k] = d.params[k];
      state.drafts[i] = newDraft(t.value, keep, d.count, d.rate);
      onChange(true);
    } else if (t.dataset.field === 'subsampled') {
      d.rate = t.checked ? '0.01' : null;
      onChange(true);
    }
  });
  list.addEventListener('input', (e) => {
    const t = e.target;
    const i = indexOf(t);
    const f = t.dataset.field;
    if (i < 0 || !f || f === 'mechanism' || f === 'subsampled') return;
    const d = state.drafts[i];
    if (f === 'count') d.count = t.value;
    else if (f === 'rate') d.rate = t.value;
    else d.params[f] = t.value;
    onChange(false);
  });
  list.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-action="remove"]');
    if (!b) return;
    const i = indexOf(b);
    state.drafts.splice(i, 1);
    onChange(true);
    (list.querySelectorAll('button[data-action="remove"]')[Math.min(i, state.drafts.length - 1)] ?? add).focus();
  });

  function indexOf(t) {
    const li = t.closest('li[data-index]');
    return li ? Number(li.dataset.index) : -1;
  }

  function field(i, key, label, value, { wide = false, title = '' } = {}) {
    const id = `cmp-${i}-${key}`;
    return h('span', { class: 'cmp-param' },
      h('label', { for: id }, label),
      h('input', { id, type: 'text', class: wide ? 'num cmp-wide' : 'num', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', value, title, dataset: { field: key }, 'data-testid': id, 'aria-describedby': `cmp-${i}-msg` }));
  }

  function row(d, i) {
    const mech = h('select', { id: `cmp-${i}-mechanism`, dataset: { field: 'mechanism' }, 'data-testid': `cmp-${i}-mechanism`, 'aria-label': `Mechanism of event ${i + 1}` },
      Object.entries(MECHANISMS).map(([k, m]) => h('option', { value: k, text: m.label })));
    mech.value = d.mechanism;
    const params = MECHANISMS[d.mechanism].params.map((k) => field(i, k, PARAMS[k].symbol, d.params[k] ?? '', { title: PARAMS[k].name }));
    const channel = d.mechanism === 'channel'
      ? h('span', { class: 'cmp-param cmp-channel' },
        h('label', { for: `cmp-${i}-channel` }, 'rows'),
        h('textarea', { id: `cmp-${i}-channel`, rows: '2', spellcheck: 'false', dataset: { field: 'channel' }, 'data-testid': `cmp-${i}-channel`, 'aria-describedby': `cmp-${i}-msg`, title: 'The channel as JSON rows: row x is the distribution of outputs on data set x; every two rows are neighbours' }, d.params.channel ?? ''))
      : null;
    const subId = `cmp-${i}-subsampled`;
    const sub = h('span', { class: 'cmp-param cmp-sub' },
      h('input', { id: subId, type: 'checkbox', dataset: { field: 'subsampled' }, 'data-testid': subId, checked: d.rate !== null }),
      h('label', { for: subId, title: 'Each record is in the sample with probability q, independently (Poisson subsampling)' }, 'on a sample'),
      d.rate !== null ? field(i, 'rate', 'q', d.rate, { title: 'sampling rate q in (0, 1]' }) : null);
    return h('li', { class: 'cmp-event', dataset: { index: String(i) }, 'data-testid': `cmp-event-${i}` },
      h('div', { class: 'cmp-event-main' },
        mech, ...params, channel,
        field(i, 'count', '×', d.count, { title: 'How many times it runs (a whole number ≥ 1)' })),
      h('div', { class: 'cmp-event-more' }, sub, h('span', { class: 'hint cmp-note', text: MECHANISMS[d.mechanism].note }),
        h('button', { type: 'button', class: 'small cmp-remove', dataset: { action: 'remove' }, 'data-testid': `cmp-${i}-remove`, 'aria-label': `Remove event ${i + 1}`, title: 'Remove this event' }, 'Remove')),
      h('p', { class: 'msg', id: `cmp-${i}-msg`, role: 'alert', 'data-testid': `cmp-${i}-msg` }));
  }

  function render() {
    replace(list, state.drafts.map(row));
    add.disabled = state.drafts.length >= MAX_EVENTS;
    syncText();
  }

  function syncText() {
    if (document.activeElement !== asText) asText.value = formatDrafts(state.drafts, { lines: true });
    textMsg.textContent = '';
  }

  /** Marks the fields named in errors ([{index, field, message}]) and says why under their row. */
  function showErrors(errors) {
    for (const li of list.children) {
      const i = Number(li.dataset.index);
      const mine = errors.filter((e) => e.index === i);
      for (const input of li.querySelectorAll('[data-field]')) {
        const bad = mine.some((e) => e.field === input.dataset.field);
        input.classList.toggle('invalid', bad);
        input.setAttribute('aria-invalid', String(bad));
      }
      li.querySelector('.msg').textContent = mine.map((e) => e.message).join('; ');
    }
    listMsg.textContent = errors.filter((e) => e.index === -1).map((e) => e.message).join('; ');
  }

  function addDraft(d) {
    state.drafts.push(d);
    onChange(true);
  }

  const el = h('div', { class: 'cmp-editor' }, list, listMsg, h('div', { class: 'cmp-row' }, add), textBox);
  return { el, list, render, syncText, showErrors, addDraft };
}
