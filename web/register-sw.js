// register-sw.js — registers the service worker (sw.js) that keeps the page working offline.
// Only over http(s): a page opened from file:// cannot have one (the single-file build,
// dist/qif-toolkit.html, is the offline copy for that case). Imported by app.js.

const single = typeof globalThis !== 'undefined' && globalThis.__qifSingleFile;
if (!single && 'serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
  const register = () => {
    // Relative to the page, which sits beside sw.js at the root of web/.
    navigator.serviceWorker.register('sw.js').catch((err) => {
      console.warn(`Offline use is unavailable: ${err && err.message ? err.message : err}`);
    });
  };
  // After load, so that caching the files never competes with the page's first computation.
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
