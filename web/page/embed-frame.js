// page/embed-frame.js - the iframe mode of embed.html, for pages that may not run scripts (learning
// management systems strip <script>) but may hold an iframe:
//
//   <iframe src="https://your-site.example/qif/embed.html?widget=channel&preset=password-iterations"
//           title="..." style="width: 100%; border: 0" height="560"></iframe>
//
// With ?widget=channel|mechanism|refinement|program|composition (its program in the parameter `program`), embed.html shows that one widget instead of the sample
// lesson; every other query parameter is an attribute of the element (matrix=..., epsilon=ln 2, ...,
// theme=dark, size=compact) and is checked by the widget itself, as attributes are. Parameters
// that are no attribute of the widget are listed under it, not dropped silently.
//
// The frame tells its parent how tall it is whenever that changes, by postMessage, in two forms:
//   {type: 'qif-embed:height', height, frame}   frame: the `frame` parameter, if given
//   {subject: 'lti.frameResize', height}         the form LTI platforms (Canvas, ...) act on
// A parent that listens (docs/widgets.md has the snippet) resizes the iframe; one that cannot run
// scripts keeps the height written on the iframe. Heights are not secret: any parent may hear them.
//
// A frame sandboxed without allow-same-origin (sandbox="allow-scripts", as some platforms make
// their frames) has an opaque origin, as has a file opened from disk: such a document may not load
// module scripts from its own site (the fetch of widgets.js is refused by CORS) nor start a worker
// from there, so the widgets come from the one-file bundle beside this page instead,
// qif-widgets.js (scripts/build.sh puts it into web/): a classic script, whose engine runs in a
// worker made from a Blob URL, with the WebAssembly inside it. It is written into the document
// here, so that it runs before the page's module script, and that module script is switched off
// before it is fetched (the parser hands it to MutationObservers before it prepares it).
//
// Light or dark: a frame cannot see the page around it, so unless the parameter theme says, its
// widget is theme=auto: the frame's prefers-color-scheme (the reader's system preference; in
// browsers that follow the CSS proposal, the color-scheme the host gives the iframe element). A
// host page that can run a script says its own look by posting {type: 'qif-embed:theme', theme:
// 'dark' | 'light'} to the frame (the snippet of docs/widgets.md does so when the frame reports its
// height, reading the host's background): the widget follows, also when the host switches later.
// The parameter theme, when given, wins over both.
//
// A classic script, loaded before widgets.js so that the lesson never flashes in a frame. Pure
// ASCII (non-ASCII text written as \u escapes), as every classic script of the widgets is.
(() => {
  const params = new URLSearchParams(location.search);
  const kind = params.get('widget');
  const opaque = self.origin === 'null';
  if (opaque) {
    const off = new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (n.localName !== 'script' || n.type !== 'module' || !/(^|\/)widgets\.js$/.test(n.getAttribute('src') ?? '')) continue;
          n.type = 'text/plain';
          n.removeAttribute('src');
          off.disconnect();
        }
      }
    });
    off.observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', () => off.disconnect(), { once: true });
    document.write('<script src="qif-widgets.js"><\/script>');
  }
  if (kind === null) return;
  const root = document.documentElement;
  root.dataset.frame = '';
  const KINDS = ['channel', 'mechanism', 'refinement', 'program', 'composition'];
  // <qif-program> takes its program as text content: in a frame, the parameter `program`.
  const TEXT_PARAMETER = { program: 'program' };
  // Attributes that only the stylesheet reads (not observed by the element).
  const STYLE_ATTRIBUTES = ['theme', 'size'];

  let last = -1;
  // No height is posted before the widget has rendered (a first 2 px would size the frame to
  // nothing until the next change): `shown` turns true when the widget is ready or in error, or
  // when there is no widget to wait for.
  let shown = false;
  const report = () => {
    if (!shown) return;
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    if (window.parent === window) return;
    window.parent.postMessage({ type: 'qif-embed:height', height, frame: params.get('frame') }, '*');
    window.parent.postMessage({ subject: 'lti.frameResize', height }, '*');
  };

  const note = (text) => {
    const p = document.createElement('p');
    p.className = 'frame-note';
    p.dataset.testid = 'frame-note';
    p.textContent = text;
    return p;
  };

  const start = async () => {
    const box = document.createElement('div');
    box.className = 'frame';
    // The lesson goes before widgets.js runs (modules run after readyState turns "interactive"),
    // so that its six widgets are never started in a frame.
    document.body.replaceChildren(box);
    new ResizeObserver(report).observe(root);
    if (!KINDS.includes(kind)) {
      box.append(note(`embed.html: unknown widget \u201C${kind.slice(0, 40)}\u201D; choose one of ${KINDS.join(', ')}.`));
      shown = true;
      report();
      return;
    }
    const tag = `qif-${kind}`;
    if (opaque && !customElements.get(tag)) {
      box.append(note(`This frame has an opaque origin (an iframe whose sandbox attribute has allow-scripts without allow-same-origin, or a file opened from disk), so its widgets must come from qif-widgets.js beside embed.html, which did not load: build it with scripts/build.sh and publish it with web/ (with qif-widgets-more.js and qif-widgets-exact.js), or add allow-same-origin to the iframe's sandbox.`));
      shown = true;
      report();
      return;
    }
    const cls = await customElements.whenDefined(tag);
    const allowed = new Set([...cls.observedAttributes, ...STYLE_ATTRIBUTES]);
    const el = document.createElement(tag);
    el.id = 'widget';
    const ignored = [];
    for (const [name, value] of params) {
      if (name === 'widget' || name === 'frame') continue;
      if (name === TEXT_PARAMETER[kind]) el.textContent = value;
      else if (allowed.has(name)) el.setAttribute(name, value);
      else ignored.push(name);
    }
    // Signals besides the ResizeObserver: a cross-origin frame below the fold is not rendered
    // (Chromium throttles it: no animation frames, no ResizeObserver until it is scrolled to, but
    // timers, MutationObservers and layout reads run), so the height is also read, which needs no
    // rendering, when the widget's state changes, after each of its updates, and after any change
    // of what it shows (a part that comes after 'ready', such as the program's exact fractions).
    const settled = () => {
      if (el.dataset.state !== 'ready' && el.dataset.state !== 'error') return;
      shown = true;
      report();
    };
    new MutationObserver(settled).observe(el, { attributes: true, attributeFilter: ['data-state'] });
    el.addEventListener('qif-update', () => setTimeout(settled, 0));
    let pending = 0;
    const soon = () => {
      if (!pending) pending = setTimeout(() => { pending = 0; report(); }, 50);
    };
    if (el.shadowRoot) new MutationObserver(soon).observe(el.shadowRoot, { childList: true, subtree: true, characterData: true, attributes: true });
    if (!el.hasAttribute('theme')) {
      el.setAttribute('theme', 'auto');
      // The host's word on its look (only the parent's; the values a theme takes).
      addEventListener('message', (e) => {
        if (e.source !== window.parent || !e.data || e.data.type !== 'qif-embed:theme') return;
        if (['light', 'dark', 'auto'].includes(e.data.theme) && el.getAttribute('theme') !== e.data.theme) el.setAttribute('theme', e.data.theme);
      });
    }
    box.append(el);
    if (ignored.length) {
      box.append(note(`Ignored parameters (not attributes of <${tag}>): ${[...new Set(ignored)].map((n) => n.slice(0, 40)).join(', ')}. Known: ${[...allowed].join(', ')}.`));
    }
  };
  if (document.readyState === 'loading') {
    document.addEventListener('readystatechange', start, { once: true });
  } else start();
})();
