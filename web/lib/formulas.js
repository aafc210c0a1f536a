// lib/formulas.js — each result's definition rendered with KaTeX (bundled in web/vendor/katex by
// scripts/build.sh; never a CDN) and a link to the paper section it comes from (the rendered
// references, docs/references.html) or to the toolkit's statement of it (docs/mathematics.html).
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
      css.href = new URL('../vendor/katex/katex.min.css', import.meta.url).href;
      document.head.append(css);
      const script = document.createElement('script');
      script.src = new URL('../vendor/katex/katex.min.js', import.meta.url).href;
      script.onload = () => (globalThis.katex ? resolve(globalThis.katex) : reject(new Error('KaTeX did not define katex')));
      script.onerror = () => reject(new Error('KaTeX could not be loaded from vendor/katex (run scripts/build.sh)'));
      document.head.append(script);
    });
  }
  return katexPromise;
}

/**
 * The papers the page cites, by the short citation it shows, and their anchors in the rendered
 * references (docs/references.md → docs/references.html): "Alvim et al. (FOSAD 2011) §3.2" links
 * to docs/references.html#fosad2011-3.2, the paper alone to #fosad2011.
 */
export const PAPERS = [
  ['Alvim et al. (ICALP 2011)', 'icalp2011'],
  ['Alvim et al. (FOSAD 2011)', 'fosad2011'],
  ['Chatzikokolakis et al. (CSF 2019)', 'csf2019'],
  ['Wu (2019)', 'wu2019'],
  ['Vadhan (2013)', 'vadhan2013'],
  ['Bordenabe et al. (CCS 2014)', 'ccs2014'],
  ['Chothia et al. (CAV 2013)', 'cav2013'],
  ['Cherubin et al. (S&P 2019)', 'sp2019'],
];

/**
 * The numbered sections of the toolkit's own statement of the mathematics (docs/mathematics.md)
 * that the page cites as "Mathematics §2.5", and their stable anchors. A Node test checks them
 * against the headings of the rendered page.
 */
export const MATHEMATICS = {
  1: 'conventions', 2: 'entropies-and-leakage', 2.1: 'shannon', 2.2: 'min-entropy', 2.3: 'bayes-vulnerability',
  2.4: 'g-vulnerability', 2.5: 'guessing-entropy', 2.6: 'hyper-distributions', 2.7: 'divergences',
  3: 'differential-privacy', 3.1: 'epsilon-dp', 3.2: 'epsilon-delta', 3.3: 'd-privacy', 3.4: 'databases', 3.5: 'bayesian-reading',
  4: 'graphs-and-bounds', 4.1: 'graph-symmetries', 4.2: 'utility-bound', 4.3: 'leakage-bounds',
  5: 'optimal-mechanisms', 5.1: 'mechanism-families', 5.2: 'utility', 5.3: 'theorem-6-2', 5.4: 'optimal-lp', 5.5: 'reference-values',
  6: 'refinement', 6.1: 'refinement-avg', 6.2: 'refinement-max', 6.3: 'refinement-prv', 6.4: 'lattices', 6.5: 'refinement-families',
  7: 'information-privacy', 7.1: 'records', 7.2: 'individual-capacity', 7.3: 'individual-epsilon', 7.4: 'privacy-channels', 7.5: 'variances',
  8: 'metrics-and-capacities', 9: 'exact-results', 10: 'location-privacy', 11: 'linear-programs', 12: 'tolerances',
  13: 'estimation', 14: 'privacy-accounting',
};

/**
 * The address of a source such as "Alvim et al. (FOSAD 2011) §3.2" (the section in the rendered
 * references), "Vadhan (2013) §4, Proposition 1" (its first section), "Wu (2019)" (the paper's
 * entry) or "Mathematics §2.5" (the toolkit's own statement), relative to the page; or null.
 * @param {string} ref
 */
export function refHref(ref) {
  const text = String(ref).trim();
  // \u00A7 is the section sign (escaped in regular expressions: tests/node/ascii.test.mjs).
  const math = /^Mathematics\s*\u00A7\s*(\d+(?:\.\d+)?)/.exec(text);
  if (math) return Object.hasOwn(MATHEMATICS, math[1]) ? `docs/mathematics.html#${MATHEMATICS[math[1]]}` : null;
  for (const [cite, key] of PAPERS) {
    if (!text.startsWith(cite)) continue;
    const sec = /^\s*\u00A7\s*(\d+(?:\.\d+)*)/.exec(text.slice(cite.length));
    return `docs/references.html#${key}${sec ? `-${sec[1]}` : ''}`;
  }
  return null;
}

/** <a class="ref"> to the source `ref` ("Alvim et al. (FOSAD 2011) §3.2"). */
export function refLink(ref, href = refHref(ref)) {
  const a = document.createElement('a');
  a.className = 'ref';
  a.textContent = ref;
  if (href) a.href = href;
  a.title = /^Mathematics/.test(ref) ? `The toolkit's statement of the mathematics, ${ref.replace(/^Mathematics\s*/, '')}` : `${ref} (see the references)`;
  return a;
}

/**
 * A card's source line ("Alvim et al. (ICALP 2011) §6 · Chatzikokolakis et al. (CSF 2019) §6.1",
 * "Chatzikokolakis et al. (CSF 2019) §3–5, Table 3") cut into its parts and separators, each with
 * the address it names (refHref) or null: the parts naming a paper or a section of the
 * mathematics get a link, the others ("Table 3", ", ") stay text.
 * @param {string} text
 * @returns {{text: string, href: string|null}[]}
 */
export function sourceParts(text) {
  let cited = null; // the last paper named: a bare "§3.1" after it is a section of that paper
  return String(text).split(/(\s*[,\u00B7]\s*)/).filter(Boolean).map((part) => {
    let href = refHref(part);
    const paper = PAPERS.find(([cite]) => part.startsWith(cite));
    if (paper) cited = paper[0];
    else if (!href && cited && /^\u00A7\s*\d/.test(part)) href = refHref(`${cited} ${part}`);
    return { text: part, href };
  });
}

/**
 * The sources of a card as a <span class="source"> whose parts link to the references or the
 * mathematics (see sourceParts).
 * @param {string} text  our own source line, never user input
 */
export function sourceRefs(text) {
  const span = document.createElement('span');
  span.className = 'source';
  // A bare "§3.1" continues the paper before it: its address comes from sourceParts, not the text.
  for (const part of sourceParts(text)) span.append(part.href ? refLink(part.text, part.href) : part.text);
  return span;
}

/** Renders one of our own formula strings (never user text): "x_y", "x_{ab}", "x^y", "x^{ab}". */
export function plainFormula(text) {
  const out = [];
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if ((ch === '_' || ch === '^') && i + 1 < text.length) {
      let body;
      if (text[i + 1] === '{') {
        const end = text.indexOf('}', i + 2);
        body = text.slice(i + 2, end);
        i = end;
      } else {
        body = String.fromCodePoint(text.codePointAt(i + 1));
        i += body.length;
      }
      if (plain) out.push(plain);
      plain = '';
      const el = document.createElement(ch === '_' ? 'sub' : 'sup');
      el.textContent = body;
      out.push(el);
    } else plain += ch;
  }
  if (plain) out.push(plain);
  return out;
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
