// page/sections.js — mounts the page's sections and reports the engine's state in the header.
//
// Each section is a module web/sections/<name>/view.js exporting
//   mount(root, { engine, client }) → { getState(), setState(state), getResults?(), check?(state) }
// root is the (empty) <section data-section="<name>"> element of index.html; the module builds
// its content inside it, with an <h2 id="<name>-title">, and keeps root.dataset.busy "true"
// while anything it shows is being computed. getState/setState let the page save a section's
// whole state in the URL and restore it; getResults gives what it shows as data (exports).
// A section that fails to load is reported in place and leaves the others working. Where a
// section has a controller.js, its logic and state live there (no DOM; tests/node run it) and
// view.js only draws the controller's store and forwards DOM events to it.
//
// The first section mounts alone and the others once it has shown its first numbers (its
// firstShown promise, or at most FIRST_WAIT_MS): until then the page's thread, the network and
// the cores serve what the reader sees first — the engine's start-up, the first section's
// modules, its numbers — instead of laying out four sections below the fold. A page opened on
// another section (#compare) or on a shared state (a hash with "=") mounts them all at once.
import { client, engine } from '../engine/index.js';
import './register-sw.js'; // offline use after the first visit

export const sections = {};

const names = ['channel', 'mechanism', 'geo', 'compare', 'observations', 'infopriv', 'composition'];

const status = document.getElementById('engine-status');
client.ready.then(
  (info) => {
    status.dataset.state = 'ready';
    status.textContent = `WebAssembly engine ready${info.version ? ` · qif ${info.version}` : ''}`;
  },
  (err) => {
    status.dataset.state = 'error';
    status.textContent = `The WebAssembly engine could not be loaded: ${err.message}`;
  },
);
client.on((ev) => {
  if (ev.type === 'crash') {
    status.dataset.state = 'error';
    status.textContent = `${ev.error} — restarted.`;
  }
});

const FIRST_WAIT_MS = 3000;

async function mountSection(name) {
  const root = document.querySelector(`section[data-section="${name}"]`);
  if (!root) return;
  try {
    const mod = await import(`../sections/${name}/view.js`);
    // What index.html holds in the section until then (the first section's card of numbers
    // computed at build time) gives way to the section itself.
    root.replaceChildren();
    sections[name] = mod.mount(root, { engine, client });
  } catch (e) {
    root.textContent = `This section could not be loaded: ${e && e.message ? e.message : e}`;
    root.dataset.busy = 'false';
    console.error(e);
  }
}

const [first, ...rest] = names;
if (location.hash.length > 1 && location.hash !== `#${first}`) {
  await Promise.all(names.map(mountSection));
} else {
  await mountSection(first);
  await Promise.race([sections[first]?.firstShown, new Promise((resolve) => setTimeout(resolve, FIRST_WAIT_MS))]);
  await Promise.all(rest.map(mountSection));
}
