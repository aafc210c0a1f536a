// sections.js — mounts the page's sections other than "Channel & leakage" (app.js).
//
// Each section is a module web/sections/<name>.js exporting
//   mount(root, { client }) → { getState(): object, setState(state: object): void }
// root is the (empty) <section data-section="<name>"> element of index.html; the module builds
// its content inside it, with an <h2 id="<name>-title">. getState/setState let the page save a
// section's whole state in the URL and restore it. A section that fails to load is
// reported in place and leaves the others working.
import { client } from './engine.js';

export const sections = {};

const names = ['mechanism', 'compare', 'infopriv'];

await Promise.all(names.map(async (name) => {
  const root = document.querySelector(`section[data-section="${name}"]`);
  if (!root) return;
  try {
    const mod = await import(`./sections/${name}.js`);
    sections[name] = mod.mount(root, { client });
  } catch (e) {
    root.textContent = `This section could not be loaded: ${e && e.message ? e.message : e}`;
    console.error(e);
  }
}));
