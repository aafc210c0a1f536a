// sections/channel.js — the "Channel & leakage" section: its state and call plan live in
// channel/state.js, its DOM in channel/view.js.
export { mount } from './channel/view.js';
