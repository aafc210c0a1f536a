// sections/infopriv.js — the "Information privacy" section: its state and call plans live in
// infopriv/state.js, its DOM in infopriv/ui.js, infopriv/channels.js and infopriv/view.js.
export { mount } from './infopriv/view.js';
