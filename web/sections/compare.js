// sections/compare.js — the "Compare two mechanisms" section: its state and call plans live in
// compare/state.js, its DOM in compare/editor.js, compare/details.js and compare/view.js.
export { mount } from './compare/view.js';
