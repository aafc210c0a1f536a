// sections/mechanism.js — the "Design a mechanism" section: its state and call plans live in
// mechanism/state.js (the mechanisms in ../mechanism-plan.js), its DOM in mechanism/panels.js
// and mechanism/view.js.
export { mount } from './mechanism/view.js';
