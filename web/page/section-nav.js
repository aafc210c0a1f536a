// page/section-nav.js — the section menu (the sticky bar of index.html) marks the section being read
// with aria-current, and on a phone, where the links scroll sideways inside the bar, keeps that
// link in view. The links are plain anchors: the menu works without this module.

const nav = document.querySelector('nav.section-bar');
const links = new Map();
for (const a of nav?.querySelectorAll('a[href^="#"]') ?? []) {
  const section = document.getElementById(a.getAttribute('href').slice(1));
  if (section) links.set(section, a);
}

function mark(link) {
  if (link.hasAttribute('aria-current')) return;
  for (const a of links.values()) a.removeAttribute('aria-current');
  link.setAttribute('aria-current', 'location');
  if (nav.scrollWidth > nav.clientWidth) {
    nav.scrollTo({ left: link.offsetLeft - (nav.clientWidth - link.offsetWidth) / 2 });
  }
}

// The current section is the last whose top has passed a line a third of the way down the
// window, and the last section once the page is scrolled to its end (a short last section never
// reaches that line). It is worked out from the sections' boxes after each scroll or resize, at
// most once a frame (a page that grows as its sections fill in scrolls nobody: at the top, the
// first section stays the current one). A band watched by an IntersectionObserver left the mark
// on the section jumped from whenever it came to rest over the footer or a gap, as at the end.
const sections = [...links.keys()];
let queued = false;

function update() {
  queued = false;
  const line = window.innerHeight / 3;
  const root = document.documentElement;
  let current = sections[0];
  if (window.scrollY > 0 && window.scrollY + window.innerHeight >= root.scrollHeight - 2) {
    current = sections[sections.length - 1];
  } else {
    for (const s of sections) if (s.getBoundingClientRect().top <= line) current = s;
  }
  mark(links.get(current));
}

// After the next frame has been drawn, when the layout is up to date: reading the sections'
// boxes inside requestAnimationFrame forced a layout of its own (40 ms of a page load).
function queue() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => setTimeout(update, 0));
}

// A section's anchor (#geo, a link of the menu or an address) marks that section at once, and
// the page keeps it at the top while the sections above it are still being built: opened on
// #geo, the browser scrolled to a section that the ones above then pushed down a screen or more,
// so the page showed (and the menu marked) another section. Following stops when the reader
// scrolls, clicks or types, or after FOLLOW_MS.
const FOLLOW_MS = 15000;
let following = null;
function follow(section) {
  following?.stop();
  const link = links.get(section);
  if (!link) return;
  const t0 = performance.now();
  const keep = () => {
    if (performance.now() - t0 > FOLLOW_MS) { stop(); return; }
    const pad = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0; // below the sticky menu
    if (Math.abs(section.getBoundingClientRect().top - pad) > 2) section.scrollIntoView({ block: 'start' });
    mark(link);
  };
  const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(() => requestAnimationFrame(keep)) : null;
  ro?.observe(document.getElementById('main') ?? document.body);
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  function stop() {
    ro?.disconnect();
    for (const ev of events) window.removeEventListener(ev, stop, true);
    if (following?.stop === stop) following = null;
  }
  for (const ev of events) window.addEventListener(ev, stop, { capture: true, passive: true });
  following = { stop };
  mark(link);
  requestAnimationFrame(keep);
}
function followHash() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!/^[\w-]+$/.test(id)) return; // a shared state (#geo=…) is restored and scrolled by share.js
  const section = document.getElementById(id);
  if (section && links.has(section)) follow(section);
}

if (sections.length) {
  window.addEventListener('scroll', queue, { passive: true });
  window.addEventListener('resize', queue, { passive: true });
  // A click on the menu marks its section before the scroll ends (and follows it as above).
  nav.addEventListener('click', (e) => {
    const a = e.target.closest?.('a[href^="#"]');
    const section = a && document.getElementById(a.getAttribute('href').slice(1));
    if (section && links.has(section)) requestAnimationFrame(() => follow(section));
  });
  window.addEventListener('hashchange', followHash);
  followHash();
  // Otherwise nothing at load: index.html marks the first section. Reading scrollY or a box now
  // would force a layout of a page still being built (follow reads them in the next frame).
}
