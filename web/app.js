// app.js — the page's entry script (index.html loads it). The page is built in three layers:
//   engine/   the computation engine: engine/start.js starts its worker at once (index.html runs it
//             first, on its own), engine/index.js is the page's one shared client over it;
//   sections/ the five sections, mounted by page/sections.js (each sections/<name>/view.js
//             exports mount(root, {engine, client}));
//   page/     the shell around them: section navigation, sharing, exports and formulas
//             (page/product.js), the service worker's registration.
// Shared utilities (numbers, formats, plots, presets, formulas) are in lib/, the input grammar in input/.
import './page/sections.js';
import './page/product.js';

// The footer's version, written by scripts/build.sh: a page served without a build has none,
// which must not stop the rest.
import('./page/version.js').catch(() => {});
