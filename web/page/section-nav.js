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

if (sections.length) {
  window.addEventListener('scroll', queue, { passive: true });
  window.addEventListener('resize', queue, { passive: true });
  // Nothing at load: index.html marks the first section, and a page opened on an anchor scrolls
  // (an event). Reading scrollY or a box now would force a layout of a page still being built.
}
