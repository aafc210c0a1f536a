// sw.js — the service worker that makes the page work offline after the first visit.
//
// On install it caches the page's own files, listed with a version hash in sw-manifest.js
// (written by scripts/singlefile.mjs during scripts/build.sh). Requests are then answered
// cache-first, and each answer is refreshed from the network in the background, so a later
// visit sees edits even between builds. A rebuild changes the manifest, hence this worker (the
// browser compares imported scripts too): the new version precaches into a new cache and
// deletes the old one. Everything is relative to this file, so web/ works on any static host.
// Registered by page/register-sw.js, only over http(s).

const FALLBACK = {
  // Without a manifest (web/ served without running scripts/build.sh), cache the entry points;
  // the rest is cached as it is fetched.
  version: 'dev',
  files: ['index.html', 'style.css', 'app.js', 'page/sections.js', 'page/product.js', 'engine/start.js', 'engine/index.js', 'engine/client.js', 'api.gen.js', 'engine/pipeline.js', 'engine/worker.js', 'engine/worker-serve.js', 'engine/api-table.js', 'qif.js', 'wasm_exec.js', 'qif.wasm'],
};

let manifest = FALLBACK;
try {
  importScripts('./sw-manifest.js');
  if (self.QIF_PRECACHE && Array.isArray(self.QIF_PRECACHE.files)) manifest = self.QIF_PRECACHE;
} catch {
  // keep the fallback
}

const PREFIX = 'qif-toolkit-';
const CACHE = `${PREFIX}${manifest.version}`;
const SCOPE = new URL('./', self.location.href);
const INDEX = new URL('index.html', SCOPE).href;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // cache: 'reload' skips the HTTP cache, so the precache holds this build's files.
    await Promise.all(manifest.files.map(async (f) => {
      const url = new URL(f, SCOPE).href;
      const response = await fetch(new Request(url, { cache: 'reload' }));
      if (!response.ok) throw new Error(`cannot cache ${f}: HTTP ${response.status}`);
      await cache.put(url, await unredirected(response));
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// Many servers answer index.html with a redirect to "./". A redirected response cannot answer a
// navigation (the browser refuses it), so the cache keeps a plain copy.
async function unredirected(response) {
  if (!response.redirected) return response;
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

// The cache key of a request. A navigation drops its query and fragment, and a directory
// ("./", "docs/", the address a server redirects …/index.html to) stands for that directory's
// own index.html — not the tool's, or the documentation's start page would show the tool.
function keyOf(request) {
  const url = new URL(request.url);
  url.hash = '';
  if (request.mode !== 'navigate') return url.href;
  url.search = '';
  return url.pathname.endsWith('/') ? new URL('index.html', url).href : url.href;
}

async function refresh(cache, key, request) {
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(key, await unredirected(response.clone()));
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !request.url.startsWith(SCOPE.href)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const key = keyOf(request);
    const cached = await cache.match(key);
    if (cached) {
      // Serve at once; update in the background (an offline failure is expected, not an error).
      event.waitUntil(refresh(cache, key, request).catch(() => {}));
      return cached;
    }
    try {
      return await refresh(cache, key, request);
    } catch (err) {
      if (request.mode === 'navigate') {
        const page = await cache.match(INDEX);
        if (page) return page;
      }
      throw err;
    }
  })());
});
