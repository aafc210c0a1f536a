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
 * The address in references.html of a source such as "003 §3.2", "SPEC §1" or "004 Prop. 1"
 * (a paper without a section: its entry), or null.
 * @param {string} ref
 */
export function refHref(ref) {
  const m = /^(\d{3}|SPEC)\s*§\s*(\d+(?:\.\d+)*)/.exec(String(ref));
  if (m) return m[1] === 'SPEC' ? `references.html#spec-${m[2]}` : `references.html#p${m[1]}-${m[2]}`;
  const paper = /^(\d{3})\b/.exec(String(ref));
  return paper ? `references.html#p${paper[1]}` : null;
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
 * A card's source line ("000 §6, 001 §6.1", "002 Thm 3.1 · 004", "001 §3–5, Table 3") cut into
 * its parts and separators, each with the references.html address it names (refHref) or null:
 * the parts naming a paper or the SPEC get a link, the others ("Table 3", ", ") stay text.
 * @param {string} text
 * @returns {{text: string, href: string|null}[]}
 */
export function sourceParts(text) {
  return String(text).split(/(\s*[,·]\s*)/).filter(Boolean).map((part) => ({ text: part, href: refHref(part) }));
}

/**
 * The sources of a card as a <span class="source"> whose parts link to references.html
 * (see sourceParts).
 * @param {string} text  our own source line, never user input
 */
export function sourceRefs(text) {
  const span = document.createElement('span');
  span.className = 'source';
  for (const part of sourceParts(text)) span.append(part.href ? refLink(part.text) : part.text);
  return span;
}

/**
 * The formula of a section's result: the plain text (`children`, or `text`) now, which screen
 * readers keep reading; typesetFormulas adds the KaTeX rendering of `tex` beside it.
 * @param {string} text  the plain-text form
 * @param {string} tex   our own TeX, never user input
 * @param {(Node|string)[]} [children]  a richer plain form (sub- and superscripts)
 */
export function formulaSlot(text, tex, children) {
  const slot = document.createElement('span');
  slot.className = 'r-formula';
  if (tex) slot.dataset.texSource = tex; // without TeX, the plain text stays what is shown
  slot.append(...(children ?? [text]));
  return slot;
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
 * Typesets every formula under `root`: the channel section's results (FORMULAS, with a link to
 * the paper section) and the slots of formulaSlot. Idempotent: a slot is done once.
 * @param {ParentNode} root
 */
export async function typesetFormulas(root = document) {
  const todo = [];
  const prepare = (slot, texSource, ref) => {
    slot.dataset.tex = 'pending';
    slot.removeAttribute('aria-label'); // a generic span's aria-label is ignored; the text below is read instead
    const plain = document.createElement('span');
    plain.className = 'formula-text';
    plain.append(...slot.childNodes);
    const tex = document.createElement('span');
    tex.className = 'formula-tex';
    tex.setAttribute('aria-hidden', 'true');
    slot.append(plain, tex);
    if (ref) slot.append(' ', refLink(ref));
    todo.push({ slot, plain, tex, source: texSource });
  };
  for (const result of root.querySelectorAll('.result[data-key]')) {
    const def = FORMULAS[result.dataset.key];
    const slot = result.querySelector('.r-formula');
    if (def && slot && !slot.dataset.tex) prepare(slot, def.tex, def.ref);
  }
  for (const slot of root.querySelectorAll('.r-formula[data-tex-source]')) {
    if (!slot.dataset.tex) prepare(slot, slot.dataset.texSource, null);
  }
  // Rendered in slices of ~12 ms so that typing is never held up by typesetting.
  let sliceStart = performance.now();
  for (const { slot, plain, tex, source } of todo) {
    const ok = await renderTeX(tex, source);
    slot.dataset.tex = ok ? 'ok' : 'unavailable';
    if (ok) plain.classList.add('sr-only');
    if (performance.now() - sliceStart > 12) {
      await new Promise((r) => setTimeout(r, 0));
      sliceStart = performance.now();
    }
  }
}
