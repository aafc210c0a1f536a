// input/index.js — the grammar of everything people type or paste: numbers (number.js) and
// matrices, vectors, lists and labels built from them (grid.js). The page, the widgets and
// URL state all read input through this module.
export * from './number.js';
export * from './grid.js';
export * from './matrix.js';
