// sections/compare.js — the "Compare two mechanisms" section (placeholder until it is built).
import { h } from '../dom.js';

export function mount(root) {
  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'compare-title', text: 'Compare two mechanisms' }),
      h('p', { class: 'muted', text: 'Coming soon.' })));
  return { getState: () => ({}), setState: () => {} };
}
