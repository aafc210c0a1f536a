// formulas.js — each result's definition rendered with KaTeX (bundled in web/vendor/katex by
// scripts/build.sh; never a CDN) and a link to the paper section it comes from (references.html).
//
// KaTeX is loaded lazily, after the first results, so it never delays them. katex.render builds
// DOM and sets its few inline styles through the CSSOM (element.style), which the page's CSP
// (style-src 'self') allows; renderToString, whose HTML carries style attributes, is not used.
// Until KaTeX arrives (or if it cannot load), the plain-text formula stays visible; afterwards
// that text stays in the DOM, visually hidden, as what screen readers read.

import { FORMULAS } from './measures.js';

let katexPromise = null;

/** Loads web/vendor/katex (script and stylesheet) once; resolves with the katex object. */
export function loadKaTeX() {
  if (!katexPromise) {
    katexPromise = new Promise((resolve, reject) => {
      if (globalThis.katex) {
        resolve(globalThis.katex);
        return;
      }
      const css = document.createElement('link');
      css.rel = 'stylesheet';
      css.href = new URL('vendor/katex/katex.min.css', import.meta.url).href;
      document.head.append(css);
      const script = document.createElement('script');
      script.src = new URL('vendor/katex/katex.min.js', import.meta.url).href;
      script.onload = () => (globalThis.katex ? resolve(globalThis.katex) : reject(new Error('KaTeX did not define katex')));
      script.onerror = () => reject(new Error('KaTeX could not be loaded from vendor/katex (run scripts/build.sh)'));
      document.head.append(script);
    });
  }
  return katexPromise;
}

/**
 * The address in references.html of a source such as "003 §3.2" or "SPEC §1", or null.
 * @param {string} ref
 */
export function refHref(ref) {
  const m = /^(\d{3}|SPEC)\s*§\s*(\d+(?:\.\d+)*)/.exec(String(ref));
  if (!m) return null;
  return m[1] === 'SPEC' ? `references.html#spec-${m[2]}` : `references.html#p${m[1]}-${m[2]}`;
}

/** <a class="ref"> to the paper section `ref` ("003 §3.2"). */
export function refLink(ref) {
  const a = document.createElement('a');
  a.className = 'ref';
  a.textContent = ref;
  const href = refHref(ref);
  if (href) a.href = href;
  a.title = /^SPEC/.test(ref) ? `Defined in the project's SPEC, ${ref.replace(/^SPEC\s*/, '')}` : `From paper ${ref.replace(/\s*§/, ', section ')} (see References)`;
  return a;
}

/**
 * Renders TeX into `el` (inline math). Resolves true when KaTeX rendered it, false when KaTeX
 * is unavailable (el is left untouched then).
 * @param {HTMLElement} el
 * @param {string} tex   our own formula text, never user input
 */
export async function renderTeX(el, tex, { display = false } = {}) {
  let katex;
  try {
    katex = await loadKaTeX();
  } catch (e) {
    console.warn(e.message);
    return false;
  }
  katex.render(tex, el, { displayMode: display, output: 'html', throwOnError: false, strict: 'ignore' });
  return true;
}

/**
 * Adds the TeX rendering and the source link to every result of the channel section whose key
 * has an entry in FORMULAS. Idempotent.
 * @param {ParentNode} root
 */
export async function decorateChannelFormulas(root = document) {
  const todo = [];
  for (const result of root.querySelectorAll('.result[data-key]')) {
    const def = FORMULAS[result.dataset.key];
    const slot = result.querySelector('.r-formula');
    if (!def || !slot || slot.dataset.tex) continue;
    slot.dataset.tex = 'pending';
    slot.removeAttribute('aria-label'); // a generic span's aria-label is ignored; the text below is read instead
    const plain = document.createElement('span');
    plain.className = 'formula-text';
    plain.append(...slot.childNodes);
    const tex = document.createElement('span');
    tex.className = 'formula-tex';
    tex.setAttribute('aria-hidden', 'true');
    slot.append(plain, tex, ' ', refLink(def.ref));
    todo.push({ slot, plain, tex, def });
  }
  // Rendered in slices of ~12 ms so that typing is never held up by typesetting.
  let sliceStart = performance.now();
  for (const { slot, plain, tex, def } of todo) {
    const ok = await renderTeX(tex, def.tex);
    slot.dataset.tex = ok ? 'ok' : 'unavailable';
    if (ok) plain.classList.add('sr-only');
    if (performance.now() - sliceStart > 12) {
      await new Promise((r) => setTimeout(r, 0));
      sliceStart = performance.now();
    }
  }
}
