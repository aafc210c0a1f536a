// sections/mechanism.js — the "Design a mechanism" section (placeholder until it is built).
import { h } from '../dom.js';

export function mount(root) {
  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'mechanism-title', text: 'Design a mechanism' }),
      h('p', { class: 'muted', text: 'Coming soon.' })));
  return { getState: () => ({}), setState: () => {} };
}
