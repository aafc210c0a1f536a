// section-nav.js — the section menu (the sticky bar of index.html) marks the section being read
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

if (links.size && 'IntersectionObserver' in window) {
  // The current section is the first, in page order, crossing a band a third of the way down
  // the window; between two sections (or over the footer) the mark stays where it was.
  const crossing = new Set();
  const io = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) crossing.add(e.target);
      else crossing.delete(e.target);
    }
    const first = [...links.keys()].find((s) => crossing.has(s));
    if (first) mark(links.get(first));
  }, { rootMargin: '-30% 0px -60% 0px' });
  for (const section of links.keys()) io.observe(section);
}
