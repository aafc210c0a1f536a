// sections/geo.js — the "Location privacy" section: its state and presets live in geo/state.js,
// its DOM and pipeline in geo/view.js.
export { mount } from './geo/view.js';
