// sections/infopriv.js — the "Information privacy" section (placeholder until it is built).
import { h } from '../dom.js';

export function mount(root) {
  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'infopriv-title', text: 'Information privacy' }),
      h('p', { class: 'muted', text: 'Coming soon.' })));
  return { getState: () => ({}), setState: () => {} };
}
