// widgets/base.js — what the three widget elements share: QifWidget, their base class (its life
// cycle: read the attributes of the element's table, build, compute through the page's job
// pipeline, report), and the small pieces of DOM they all show.
//
// Each widget renders into its own shadow root (styles.js) and computes through the page's one
// shared worker (engine/index.js): any number of widgets share one wasm instance, and each widget
// runs its jobs through the page's job pipeline (engine/pipeline.js: debounce, latest answer only).
// A bad attribute is reported inside the widget, all of them at once — nothing is thrown into the
// page. Every attribute of the table is observed; changing one re-renders the widget, and Reset
// (or el.reset()) re-renders it from them, dropping a reader's edits.

import { engine, client } from '../engine/index.js';
import { createPipeline, Superseded } from '../engine/pipeline.js';
import { formatNumber, formatFull } from '../lib/numbers.js';
import { h, replace } from '../lib/dom.js';
import { sourceParts } from '../lib/formulas.js';
import { AttributeError, COMMON_ATTRIBUTES, attributeReader, observed, readAttributes } from './attributes.js';
import { styles } from './styles.js';

// The widget's source ("from Alvim et al. (FOSAD 2011) §3, Example 4"), its citations linked to
// the rendered references of the folder that holds widgets.js (web/docs/references.html), whichever
// page embeds it.
// In the one-file bundle (scripts/widgets-bundle.mjs defines __qifBundle) the rendered references
// are not beside the script: there the source is plain text.
const LINK_SOURCES = typeof __qifBundle === 'undefined';
const WEB_ROOT = new URL('../', import.meta.url);
function sourceLine(text) {
  return h('span', { class: 'w-src', 'data-testid': 'source' }, ...sourceParts(text).map((p) => (p.href && LINK_SOURCES
    ? h('a', { href: new URL(p.href, WEB_ROOT).href, target: '_blank', rel: 'noopener' }, p.text)
    : p.text)));
}

export function numberNode(v, testid, unit) {
  return [
    h('span', { class: 'value', title: formatFull(v), 'data-testid': testid, 'data-value': String(v) }, formatNumber(v)),
    unit ? h('span', { class: 'unit' }, unit) : null,
  ];
}

// The engine could not start: every widget says why in its own box, and the console says once
// what the page's author can do about it.
let advised = false;
function engineFailure(reason) {
  reason = String(reason).replace(/[.\s]+$/, '');
  if (!advised) {
    advised = true;
    console.error(`QIF widgets: the computation engine could not start: ${reason}. ${adviceFor(reason)}`);
  }
  return `The computation engine could not start, so nothing can be computed here: ${reason}.`;
}

function adviceFor(reason) {
  if (/cannot be accessed from origin|cross.origin/i.test(reason)) {
    return 'widgets.js starts its worker from its own folder, which must be on the page\'s origin; from another origin (a CDN, an asset host) or from file://, include the one-file bundle qif-widgets.js instead (<script src=".../qif-widgets.js"></script>).';
  }
  if (/Content.Security.Policy|unsafe-eval|Refused|worker could not start/i.test(reason)) {
    return 'Most often the page\'s Content-Security-Policy refuses it (the console shows the refusal): it must allow the engine with script-src \'wasm-unsafe-eval\' (to compile the WebAssembly module), and worker-src blob: for qif-widgets.js or worker-src \'self\' for widgets.js.';
  }
  if (/WebAssembly|DecompressionStream|Worker is not defined/i.test(reason)) {
    return 'This browser lacks what the engine needs (Web Workers, WebAssembly, DecompressionStream): use a current Chrome, Edge, Firefox or Safari.';
  }
  return 'Reload the page; if it happens again, open the browser console for the cause.';
}

export function messageOf(e) {
  return e && typeof e.message === 'string' ? e.message : String(e);
}

export function toRowsOf(m) {
  // {rows, cols, data} from the API → number[][]
  if (Array.isArray(m)) return m;
  const out = [];
  for (let i = 0; i < m.rows; i++) out.push(Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
  return out;
}

/**
 * Common life cycle: attributes are read in render() (inside a try, so that a bad attribute
 * becomes an inline message), user edits schedule compute() with a debounce, and only the latest
 * computation is shown.
 *
 * A subclass declares its attributes once, as `static attributes` (see attributes.js: the
 * common ones and its own), and implements configure(values, each) → config (what the table's
 * values mean together; `each` notes a problem that involves several attributes), build(config)
 * → its body, computeNow(job, config) → the values announced, and defaultTitle().
 */
// rgb()/rgba() of a computed colour, or null (a colour the browser gives in another syntax).
function rgba(c) {
  const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(c);
  return m ? { r: +m[1], g: +m[2], b: +m[3], a: m[4] === undefined ? 1 : +m[4] } : null;
}

/**
 * 'dark' or 'light': the page behind el. The first ancestor (across shadow roots) with an opaque
 * enough background decides by its relative luminance (WCAG 2); where none has one, the canvas
 * is dark only when the page declares a dark color-scheme that applies.
 */
export function pageTheme(el) {
  const parent = (n) => n.parentElement ?? n.getRootNode?.().host ?? null;
  for (let n = parent(el); n; n = parent(n)) {
    const c = rgba(getComputedStyle(n).backgroundColor);
    if (!c || c.a < 0.5) continue;
    const lin = (v) => { const x = v / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b) < 0.18 ? 'dark' : 'light';
  }
  const scheme = getComputedStyle(document.documentElement).colorScheme || '';
  if (!/\bdark\b/.test(scheme)) return 'light';
  if (!/\blight\b/.test(scheme)) return 'dark';
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export class QifWidget extends HTMLElement {
  static attributes = COMMON_ATTRIBUTES;

  /** The attributes whose change re-renders the widget: those of its table. */
  static get observedAttributes() {
    return observed(this.attributes);
  }

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    styles(this.root);
    this.scheduled = false;
    this.task = createPipeline({ engine }).task((job) => this.compute(job));
  }

  /** Recomputes after the pipeline's debounce (a reader is typing or sliding). */
  schedule() {
    this.task.schedule();
  }

  connectedCallback() {
    this.followPage();
    this.queueRender();
  }

  /**
   * Light or dark as the page behind the widget is (data-qif-theme, read by the stylesheet
   * unless theme is set): a dark slide deck gets a dark widget, a light lesson page a light one
   * whatever the reader's system prefers. Read when the widget is put on the page and when the
   * system's preference changes (a page that follows it may change its background then).
   */
  followPage() {
    this.readTheme();
    // theme is read by the stylesheet; readTheme reads it too when it is "auto".
    if (!this.themeAttributeWatch) {
      this.themeAttributeWatch = new MutationObserver(() => this.readTheme());
      this.themeAttributeWatch.observe(this, { attributes: true, attributeFilter: ['theme'] });
    }
    if (!this.themeWatch && typeof matchMedia === 'function') {
      this.themeWatch = matchMedia('(prefers-color-scheme: dark)');
      this.themeWatch.addEventListener('change', () => this.readTheme());
    }
    // A slide deck gives the page its background from a script run after the widgets are put
    // on it (Reveal.js sets .reveal-viewport at its initialisation): look again once the page
    // has loaded, and when the first results come (readTheme in compute).
    if (document.readyState !== 'complete') window.addEventListener('load', () => this.readTheme(), { once: true });
  }

  readTheme() {
    if (!this.isConnected) return;
    // theme="auto": the reader's (or, in an iframe, the embedding page's) prefers-color-scheme.
    const t = this.getAttribute('theme') === 'auto'
      ? (typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')
      : pageTheme(this);
    if (this.dataset.qifTheme !== t) this.dataset.qifTheme = t;
  }

  disconnectedCallback() {
    this.task.supersede();
  }

  attributeChangedCallback(_name, oldValue, newValue) {
    if (oldValue !== newValue && this.isConnected) this.queueRender();
  }

  // Several attributes set in a row re-render once.
  queueRender() {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (this.isConnected) this.render();
    });
  }

  render() {
    this.task.supersede();
    this.errorBox = h('div', { class: 'w-error', role: 'alert', 'data-testid': 'error' });
    this.edited = false;
    let body;
    try {
      const each = attributeReader();
      const config = this.configure(readAttributes(this.constructor.attributes, this, each), each);
      each.throwIfAny();
      this.config = config;
      body = this.build(this.config);
    } catch (e) {
      if (!(e instanceof AttributeError)) console.warn(e); // a bug, not the author's mistake
      this.config = null;
      if (e instanceof AttributeError && e.messages.length > 1) {
        replace(this.errorBox, h('p', {}, `${e.messages.length} attributes need fixing:`), h('ul', {}, ...e.messages.map((m) => h('li', {}, m))));
      } else this.errorBox.textContent = messageOf(e);
      this.setState('error');
      replace(this.root, h('div', { class: 'w', part: 'widget' }, this.head(), this.errorBox));
      return;
    }
    replace(this.root, h('div', { class: 'w', part: 'widget' }, this.head(), body, this.errorBox));
    this.task.now();
  }

  /** Puts the widget back as the author wrote it (attributes), dropping the reader's edits. */
  reset() {
    this.render();
  }

  // A reader changed a cell or the slider: the Reset control becomes useful.
  markEdited() {
    if (this.edited) return;
    this.edited = true;
    if (this.resetButton) this.resetButton.disabled = false;
  }

  head() {
    const caption = this.getAttribute('caption');
    this.resetButton = null;
    if (this.config && (!this.config.readonly || this.config.resettable)) {
      this.resetButton = h('button', { type: 'button', class: 'w-reset', 'data-testid': 'reset', title: 'Undo your edits: back to what the page set', disabled: true }, 'Reset');
      this.resetButton.addEventListener('click', () => this.reset());
    }
    return h('div', { class: 'w-head' },
      h('p', { class: 'w-title', 'data-testid': 'title' }, caption || this.defaultTitle()),
      this.source ? sourceLine(this.source) : null,
      this.resetButton);
  }

  setState(s) {
    if (this.dataset.state !== s) this.dataset.state = s;
  }

  showError(msg) {
    if (this.errorBox) this.errorBox.textContent = msg || '';
  }

  // One run of the pipeline: computeNow(job, config) resolves with the values to announce, or
  // null when an edit is invalid (it has said so). A newer run supersedes it at its next await.
  async compute(job) {
    if (!this.config || !this.isConnected) return;
    this.setState('loading');
    try {
      const r = await this.computeNow(job, this.config);
      if (r === null) return;
      this.readTheme();
      this.lastValues = r;
      this.setState(this.errorBox.textContent ? 'error' : 'ready');
      this.dispatchEvent(new CustomEvent('qif-update', { detail: r ?? {}, bubbles: true, composed: true }));
      // What comes after the values announced (the exact fractions of <qif-channel>).
      await this.afterUpdate?.(job, this.config);
    } catch (e) {
      if (e instanceof Superseded || (e && e.name === 'AbortError')) throw e;
      this.showError(client.fatal ? engineFailure(client.fatal) : messageOf(e));
      this.setState('error');
    }
  }

  /** What the widget shows, as data (the detail of its last qif-update event). */
  getResults() {
    return this.lastValues ?? null;
  }
}

