// page/register-sw.js — registers the service worker (sw.js) that keeps the page working offline.
// Only over http(s): a page opened from file:// cannot have one (the single-file build,
// dist/qif-toolkit.html, is the offline copy for that case). Imported by sections.js.
import { client } from '../engine/index.js';

const single = typeof globalThis !== 'undefined' && globalThis.__qifSingleFile;
if (!single && 'serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
  const register = () => {
    // Relative to the page, which sits beside sw.js at the root of web/.
    navigator.serviceWorker.register('sw.js').catch((err) => {
      console.warn(`Offline use is unavailable: ${err && err.message ? err.message : err}`);
    });
  };
  // After load and after the engine has its module, so that the service worker's download of
  // every file (the 1.2 MB module among them) never competes with the first computation.
  const loaded = document.readyState === 'complete' ? Promise.resolve()
    : new Promise((resolve) => addEventListener('load', resolve, { once: true }));
  Promise.all([loaded, client.ready.catch(() => {})]).then(register);
}
