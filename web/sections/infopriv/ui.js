// sections/infopriv/ui.js — small DOM builders shared by the "Information privacy" section:
// result rows in the look of the channel section (name / formula / value / unit), labelled
// fields with an inline message, and formula text with sub- and superscripts.

import { h } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { readingOf, setReading } from '../../lib/readings.js';
import { formulaSlot, plainFormula } from '../../lib/formulas.js';

/**
 * A result row: <div class="result"> with dt (name, formula: plain text, typeset from `tex` once
 * KaTeX is loaded), dd (value, unit) and a full-width dd (extra details, msg).
 * set({value}) shows a number (4 significant digits, full value in the tooltip and data-value) and,
 * with `reading` (a key of lib/readings.js), what it means in a line beside it and in the tooltip;
 * set({error}) shows the message; pending()/stale() mark it.
 */
export function resultRow({ id, name, formula: f, tex, unit = '', reading = null }) {
  const value = h('output', { class: 'value', 'data-testid': `ip-value-${id}`, text: '…' });
  const readingEl = h('div', { class: 'r-reading', 'data-testid': `ip-reading-${id}` });
  const extra = h('span', { class: 'ip-extra', 'data-testid': `ip-extra-${id}` });
  const msg = h('div', { class: 'r-msg', 'data-testid': `ip-msg-${id}` });
  const unitEl = h('span', { class: 'unit', text: unit });
  const root = h('div', { class: 'result', 'data-testid': `ip-result-${id}`, dataset: { status: 'pending' } },
    h('dt', {}, h('span', { class: 'r-name', text: name }), f ? formulaSlot(f, tex, plainFormula(f)) : null),
    h('dd', {}, h('span', { class: 'r-value' }, value, ' ', unitEl), readingEl),
    // Details (the situation, e^ε, …) and messages run under the whole row.
    h('dd', { class: 'ip-more' }, extra, msg));
  return {
    root,
    value,
    extra,
    msg,
    set(r, extraNodes) {
      if (r && 'error' in r) {
        root.dataset.status = r.cancelled ? 'cancelled' : 'error';
        value.textContent = r.cancelled ? '—' : 'error';
        value.title = r.error;
        delete value.dataset.value;
        delete value.dataset.reading;
        readingEl.textContent = '';
        msg.textContent = r.error;
        extra.replaceChildren();
        return;
      }
      root.dataset.status = 'ok';
      showNumber(value, r.value, reading);
      readingEl.textContent = value.dataset.reading ?? '';
      msg.textContent = '';
      extra.replaceChildren(...(extraNodes || []));
    },
    pending() {
      if (root.dataset.status === 'ok') root.dataset.status = 'stale';
      else if (root.dataset.status !== 'stale') root.dataset.status = 'pending';
    },
    stale(reason) {
      root.dataset.status = 'stale';
      if (reason !== undefined) msg.textContent = reason;
    },
  };
}

/**
 * Puts a number into an element: formatted text, data-value, and the full value with the reading
 * of `key` (lib/readings.js) as tooltip and data-reading.
 */
export function showNumber(el, x, key = null) {
  el.textContent = formatNumber(x);
  el.dataset.value = String(x);
  setReading(el, x, key ? readingOf(key, x) : '');
}

/** A number span (formatted, with tooltip, data-value and the reading of `key`). */
export function num(x, attrs = {}, key = null) {
  const el = h('span', { class: 'ip-num', ...attrs });
  showNumber(el, x, key);
  return el;
}

/**
 * A labelled text field with an inline message below it.
 * Returns {wrap, input, msg, setError(text)}.
 */
export function field({ id, label, value = '', title, width = 'num', inputmode = 'decimal', after }) {
  const input = h('input', {
    id, type: 'text', class: width === 'wide' ? 'num ip-wide' : 'num', inputmode, autocomplete: 'off', spellcheck: 'false',
    'data-testid': id, title, value, 'aria-describedby': `${id}-msg`,
  });
  const msg = h('span', { class: 'msg', id: `${id}-msg`, 'data-testid': `${id}-msg`, role: 'alert' });
  const wrap = h('div', { class: 'ip-field' },
    h('label', { for: id }, ...(Array.isArray(label) ? label : [label])),
    h('span', { class: 'ip-field-input' }, input, after || null),
    msg);
  return {
    wrap, input, msg,
    setError(text) {
      msg.textContent = text || '';
      input.classList.toggle('invalid', !!text);
      input.setAttribute('aria-invalid', text ? 'true' : 'false');
    },
  };
}

/** A labelled <select> from [[value, text], ...]. */
export function selectField({ id, label, options, value }) {
  const select = h('select', { id, 'data-testid': id },
    options.map(([v, t, disabled]) => h('option', { value: String(v), text: t, disabled: !!disabled })));
  select.value = String(value);
  const wrap = h('div', { class: 'ip-field' }, h('label', { for: id }, label), select);
  return { wrap, select };
}
