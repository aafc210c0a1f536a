// widgets.js — embeddable custom elements for course pages. One tag loads them all:
//
//   <script type="module" src="path/to/web/widgets.js"></script>
//   <qif-channel preset="password-iterations" measures="mutualInformation,minEntropyLeakage"></qif-channel>
//   <qif-mechanism graph="clique" n="6" epsilon="ln 2" mechanism="randomizedResponse"></qif-mechanism>
//   <qif-refinement a="[[1,0],[0,1]]" b="[[0.5,0.5],[0.5,0.5]]"></qif-refinement>
//
// Each element renders into its own shadow root, styled by one constructed stylesheet (no inline
// <style>, so a strict Content-Security-Policy needs nothing extra), and computes through the
// page's one shared worker (engine/index.js): any number of widgets share one wasm instance, and each
// widget runs its jobs through the page's job pipeline (engine/pipeline.js: debounce, latest answer
// only). Attributes are untrusted text read with the page's one grammar (input/): numbers as on
// the page (`ln 2 / 5` is (ln 2)/5, `log` is refused), matrices as JSON or `a b; c d`; a bad
// value is reported inside the widget, all of them at once — nothing is thrown into the page.
// Every attribute is observed; changing one re-renders the widget, and Reset (or el.reset())
// re-renders it from them, dropping a reader's edits. docs/widgets.md documents them all;
// dist/qif-widgets.js (scripts/widgets-bundle.mjs) is this module and its engine in one classic
// script, for pages on file:// or on another origin.
//
// Each widget reflects its state on the host element as data-state="loading|ready|error" and
// fires a `qif-update` event (detail: the computed values) after every successful computation.

import { engine, client } from './engine/index.js';
import { createPipeline, Superseded } from './engine/pipeline.js';
import { presets, presetById } from './lib/presets.js';
import { MEASURES, PANELS, PANEL_KEYS, GAIN_CLASSES, DEFAULT_GAIN_CLASS, measureKey, exactPlan, exactResults } from './lib/measures.js';
import { formatNumber, formatFull } from './lib/numbers.js';
import { parseNumber as readNumber, parseInteger as readInteger } from './input/number.js';
import { parseMatrixLiteral, parseVectorLiteral, parseLabels, rationalVector, rationalMatrix } from './input/grid.js';
import { exactPrefix, exactTitle } from './lib/format.js';
import { WIDGET_MECHANISMS, mechanismCall, matrixOf, utilityCall, scalingText } from './lib/mechanism-plan.js';
import { heatmap } from './lib/plot.js';
import { h, replace } from './lib/dom.js';
import { sourceParts } from './lib/formulas.js';
import { readerMessage } from './lib/row-names.js';

/** The largest matrix side a widget accepts: widgets are for small, readable examples. */
export const MAX_SIDE = 40;
const DEFAULT_MEASURES = ['shannonEntropy', 'mutualInformation', 'minEntropyLeakage', 'posteriorBayesVulnerability'];
const MECHANISMS = {
  optimal: 'Optimal (linear program; Thm 6.2 where it applies)',
  truncatedGeometric: 'Truncated geometric',
  randomizedResponse: 'Randomized response',
  exponential: 'Exponential (metric |x − y|)',
};
const GRAPHS = ['clique', 'path', 'cycle', 'grid'];

// ---------------------------------------------------------------- parsing attributes

/** An attribute problem, shown inside the widget. */
class AttributeError extends Error {
  /** @param {string[]} messages one per attribute problem */
  constructor(messages) {
    super(messages.join('\n'));
    this.messages = messages;
  }
}

function fail(attr, msg) {
  throw new AttributeError([`${attr}: ${msg}`]);
}

/**
 * Reads attributes one at a time, so that an author sees every problem at once: each(read,
 * fallback) runs read(); an attribute problem is noted and `fallback` stands for the value, so
 * that the reading goes on. throwIfAny() then throws them all as one AttributeError.
 */
function attributeReader() {
  const problems = [];
  const each = (read, fallback = null) => {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof AttributeError)) throw e;
      problems.push(...e.messages);
      return fallback;
    }
  };
  each.throwIfAny = () => {
    if (problems.length) throw new AttributeError(problems);
  };
  return each;
}

// A number as a course author would write it, in the page's grammar: 0.693, 2/7, ln 2, ln 2 / 5.
function parseNumber(attr, text, options) {
  const s = String(text).trim();
  const r = readNumber(s, options);
  if ('error' in r) fail(attr, `cannot read “${short(s)}” as a number (${r.error})`);
  return r.value;
}

function short(s) {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function entry(attr, text, where) {
  const r = readNumber(text);
  if ('error' in r) fail(attr, `${where} “${short(text)}”: ${r.error}`);
  return { value: r.value, text: text.trim() };
}

/** Parses a matrix attribute (see input/grid.js) into {values: number[][], texts: string[][]}. */
export function parseMatrix(attr, text) {
  const lit = parseMatrixLiteral(text);
  if ('error' in lit) fail(attr, lit.error);
  const rows = lit.rows;
  if (rows.length === 0) fail(attr, 'must be a non-empty array of rows');
  if (rows.length > MAX_SIDE) fail(attr, `has ${rows.length} rows; widgets take at most ${MAX_SIDE}`);
  const cols = rows[0].length;
  if (cols < 1) fail(attr, 'row 1 must be a non-empty array of numbers');
  if (cols > MAX_SIDE) fail(attr, `has ${cols} columns; widgets take at most ${MAX_SIDE}`);
  const values = [];
  const texts = [];
  rows.forEach((row, i) => {
    if (row.length !== cols) fail(attr, `row ${i + 1} has ${row.length} entries, row 1 has ${cols}`);
    const e = row.map((v, j) => entry(attr, v, `entry (${i + 1}, ${j + 1})`));
    values.push(e.map((x) => x.value));
    texts.push(e.map((x) => x.text));
  });
  return { values, texts };
}

/** Parses a vector attribute (JSON array, or entries separated by commas or spaces). */
export function parseVector(attr, text) {
  const lit = parseVectorLiteral(text);
  if ('error' in lit) fail(attr, lit.error);
  const v = lit.entries;
  if (v.length === 0) fail(attr, 'must be a non-empty array of numbers');
  if (v.length > MAX_SIDE * MAX_SIDE) fail(attr, 'is too long');
  const e = v.map((x, i) => entry(attr, x, `entry ${i + 1}`));
  return { values: e.map((x) => x.value), texts: e.map((x) => x.text) };
}

function parseInteger(attr, text, lo, hi) {
  const r = readInteger(text, { min: lo, max: hi });
  if ('error' in r) fail(attr, /must be at/.test(r.error) ? `must be between ${lo} and ${hi}, got ${short(String(text).trim())}` : `must be a whole number, got “${short(String(text).trim())}”`);
  return r.value;
}

function uniformTexts(n) {
  return new Array(n).fill(`1/${n}`);
}

// ---------------------------------------------------------------- shared look

// The colours a page may set, as --qif-<name> on the widgets or any ancestor, and their defaults
// [light, dark] (docs/widgets.md#styling says what each colours). A widget is dark when the reader's system prefers it
// (prefers-color-scheme) or when theme="dark"; theme="light" keeps it light.
const PALETTE = {
  accent: ['#1f5fbf', '#8ab4f8'],
  ink: ['#1c2430', '#e6e9ee'],
  muted: ['#5a6472', '#a3acb9'],
  line: ['#d9dee5', '#3d4552'],
  bg: ['#ffffff', '#1d2127'],
  error: ['#b3261e', '#f2b8b5'],
  warn: ['#8a5a00', '#f0c674'],
  ok: ['#1d7a3e', '#8fd19e'],
};
const palette = (k) => Object.entries(PALETTE).map(([name, c]) => `--w-${name}: var(--qif-${name}, ${c[k]});`).join(' ');

const CSS = `
:host {
  display: block;
  margin: 1.25rem 0;
  ${palette(0)}
  color-scheme: light;
  color: var(--w-ink);
  font-size: var(--qif-font-size, 0.95rem);
  line-height: 1.45;
  /* Inherited properties that slide decks set on everything (Reveal.js centres text): */
  text-align: start;
  text-transform: none;
  letter-spacing: normal;
}
@media (prefers-color-scheme: dark) {
  :host(:not([theme="light"])) { ${palette(1)} color-scheme: dark; }
}
:host([theme="dark"]) { ${palette(1)} color-scheme: dark; }
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
.w { border: 1px solid var(--w-line); border-radius: 8px; background: var(--w-bg); padding: 0.8em 1em; max-width: 100%; overflow-x: auto; container-type: inline-size; }
.w-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 1rem; margin-bottom: 0.5em; }
.w-title { font-weight: 600; margin: 0; font-size: 1.05em; margin-right: auto; }
.w-src { color: var(--w-muted); font-size: 0.84em; }
.w-src a { color: inherit; }
.w-reset { font: inherit; font-size: 0.84em; color: var(--w-accent); background: transparent; border: 1px solid var(--w-line); border-radius: 4px; padding: 0.1em 0.6em; cursor: pointer; }
.w-reset:disabled { color: var(--w-muted); cursor: default; opacity: 0.6; }
.w-reset:focus-visible { outline: 2px solid var(--w-accent); outline-offset: 1px; }
.w-body { display: flex; flex-wrap: wrap; gap: 1em 1.5em; align-items: flex-start; }
.w-body > * { min-width: 0; }
.w-error { margin: 0; padding: 0.5em 0.7em; border-radius: 6px; background: color-mix(in srgb, var(--w-error) 12%, var(--w-bg)); color: var(--w-error); border: 1px solid color-mix(in srgb, var(--w-error) 35%, var(--w-bg)); font-size: 0.92em; overflow-wrap: anywhere; }
.w-error:empty { display: none; }
.w-error p { margin: 0; }
.w-error ul { margin: 0.2em 0 0; padding-left: 1.2em; }
.w-warn { margin: 0.4em 0 0; padding: 0.35em 0.6em; border-radius: 6px; background: color-mix(in srgb, var(--w-warn) 12%, var(--w-bg)); color: var(--w-warn); border: 1px solid color-mix(in srgb, var(--w-warn) 35%, var(--w-bg)); font-size: 0.9em; max-width: 28rem; }
.w-warn:empty { display: none; }
.w-note { color: var(--w-muted); font-size: 0.86em; margin: 0.4em 0 0; }
.grid { border-collapse: collapse; font-size: 0.9em; }
.grid th, .grid td { padding: 1px 3px; text-align: center; }
.grid thead th { font-weight: 600; color: var(--w-muted); border-bottom: 1px solid var(--w-line); }
.grid tbody th { font-weight: 600; color: var(--w-muted); text-align: right; padding-right: 6px; font-family: ui-monospace, Menlo, Consolas, monospace; }
.grid .prior { border-left: 2px solid var(--w-line); padding-left: 6px; }
.grid input { width: 3.8em; font: inherit; font-family: ui-monospace, Menlo, Consolas, monospace; padding: 2px 4px; border: 1px solid var(--w-line); border-radius: 4px; text-align: right; color: inherit; background: var(--w-bg); }
.grid input:focus-visible { outline: 2px solid var(--w-accent); outline-offset: 0; }
.grid input[aria-invalid="true"] { border-color: var(--w-error); background: color-mix(in srgb, var(--w-error) 12%, var(--w-bg)); }
.grid td.ro { font-family: ui-monospace, Menlo, Consolas, monospace; text-align: right; padding: 1px 6px; }
/* A matrix wider than its widget scrolls in its own box, under a scrollbar that stays visible
   (a phone's overlay scrollbars show only while scrolling, so a hidden column went unseen), with
   the row labels and the π column held at the edges: every cell is on screen or one swipe away. */
.scroll { max-width: 100%; overflow-x: auto; overscroll-behavior-x: contain; }
.scroll::-webkit-scrollbar { height: 8px; }
.scroll::-webkit-scrollbar-track { background: color-mix(in srgb, var(--w-line) 60%, var(--w-bg)); border-radius: 4px; }
.scroll::-webkit-scrollbar-thumb { background: var(--w-muted); border-radius: 4px; }
@supports not selector(::-webkit-scrollbar) {
  .scroll { scrollbar-width: thin; scrollbar-color: var(--w-muted) color-mix(in srgb, var(--w-line) 60%, var(--w-bg)); }
}
.grid tbody th, .grid thead th:first-child { position: sticky; left: 0; z-index: 1; background: var(--w-bg); }
.grid .prior { position: sticky; right: 0; z-index: 1; background: var(--w-bg); }
.mats > * { min-width: 0; max-width: 100%; }
.scroll-hint { color: var(--w-muted); font-size: 0.8em; margin: 0.2em 0 0; }
.scroll-hint[hidden] { display: none; }
/* A narrow widget (a phone, a column of a slide): tighter cells, so that a few columns more fit
   before anything scrolls. */
@container (max-width: 420px) {
  .grid th, .grid td { padding: 1px 1px; }
  .grid tbody th { padding-right: 3px; }
  .grid .prior { padding-left: 3px; }
  .grid input { width: 3.2em; padding: 2px 2px; }
}
.mat-caption { font-size: 0.84em; color: var(--w-muted); margin: 0 0 0.2em; }
.results { margin: 0; display: grid; grid-template-columns: auto auto; gap: 0.15em 1em; align-items: baseline; min-width: 14em; }
.results dt { margin: 0; }
.results dt .f { display: block; color: var(--w-muted); font-size: 0.82em; font-family: ui-monospace, Menlo, Consolas, monospace; }
.results dd { margin: 0; text-align: right; white-space: nowrap; }
.value { font-weight: 650; font-variant-numeric: tabular-nums; }
.exact { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; margin-right: 0.15em; }
[data-status="pending"] .exact, [data-status="error"] .exact { display: none; }
.unit { color: var(--w-muted); font-size: 0.84em; margin-left: 0.25em; }
[data-status="pending"] .value { color: var(--w-muted); }
[data-status="error"] .value { color: var(--w-error); }
.msg { color: var(--w-error); font-size: 0.84em; display: block; white-space: normal; }
.controls { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: center; margin-bottom: 0.5em; }
.controls label { font-weight: 600; }
.controls input[type="range"] { width: min(16em, 60vw); accent-color: var(--w-accent); }
.controls output { font-variant-numeric: tabular-nums; font-family: ui-monospace, Menlo, Consolas, monospace; }
.verdicts { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.4em; min-width: 16em; max-width: 34em; }
.verdict { display: grid; grid-template-columns: 8.5em 1fr; gap: 0.1em 0.75em; align-items: baseline; padding: 0.35em 0.5em; border-radius: 6px; border: 1px solid var(--w-line); }
.verdict .order { font-family: Georgia, "DejaVu Serif", serif; }
.verdict .badge { font-weight: 700; }
.verdict[data-holds="true"] { border-color: color-mix(in srgb, var(--w-ok) 35%, var(--w-bg)); background: color-mix(in srgb, var(--w-ok) 8%, var(--w-bg)); }
.verdict[data-holds="true"] .badge { color: var(--w-ok); }
.verdict[data-holds="false"] { border-color: color-mix(in srgb, var(--w-error) 35%, var(--w-bg)); background: color-mix(in srgb, var(--w-error) 6%, var(--w-bg)); }
.verdict[data-holds="false"] .badge { color: var(--w-error); }
.verdict .why { grid-column: 1 / -1; font-size: 0.86em; color: var(--w-muted); }
.mats { display: flex; gap: 1em; flex-wrap: wrap; }
figure.plot { margin: 0; max-width: 22em; }
figure.plot .plot-svg { width: 100%; height: auto; display: block; background: var(--w-bg); }
figure.plot .plot-svg text { fill: var(--w-ink); }
figure.plot .plot-svg rect.heat { fill: var(--w-accent); }
figure.plot figcaption { font-size: 0.84em; color: var(--w-muted); }
figure.plot details.plot-data summary { cursor: pointer; font-size: 0.84em; color: var(--w-accent); }
table.mini { border-collapse: collapse; font-size: 0.8em; margin-top: 0.25em; }
table.mini th, table.mini td { border: 1px solid var(--w-line); padding: 1px 4px; text-align: right; }
var { font-style: italic; font-family: Georgia, "DejaVu Serif", serif; }
/* size="compact": for slides (a 1280×720 frame, or Reveal.js's 960×700): smaller type, the plot
   beside the numbers, and the explanatory notes left out. */
:host([size="compact"]) { margin: 0.5rem 0; font-size: var(--qif-font-size, 0.8rem); line-height: 1.3; }
:host([size="compact"]) .w { padding: 0.5em 0.7em; }
:host([size="compact"]) .w-body { flex-wrap: nowrap; gap: 0.75em 1.25em; }
:host([size="compact"]) .w-note.long { display: none; }
:host([size="compact"]) figure.plot { width: 15em; flex: none; }
:host([size="compact"]) figure.plot details.plot-data { display: none; }
:host([size="compact"]) .verdict .why { font-size: 0.8em; }
@media (max-width: 480px) {
  .w { padding: 0.6em; }
  .results { grid-template-columns: minmax(0, 1fr) auto; min-width: 0; }
}
`;

let sheet = null;
function styles(root) {
  if (!sheet && 'adoptedStyleSheets' in Document.prototype && typeof CSSStyleSheet === 'function') {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  if (sheet) {
    root.adoptedStyleSheets = [sheet];
  } else {
    // Older engines: a stylesheet beside this module (style-src 'self' allows it).
    root.append(h('link', { rel: 'stylesheet', href: new URL('./widgets.css', import.meta.url).href }));
  }
}

// The widget's source ("from Alvim et al. (FOSAD 2011) §3, Example 4"), its citations linked to
// the rendered references beside this module (web/docs/references.html), whichever page embeds it.
// In the one-file bundle (scripts/widgets-bundle.mjs defines __qifBundle) the rendered references
// are not beside the script: there the source is plain text.
const LINK_SOURCES = typeof __qifBundle === 'undefined';
function sourceLine(text) {
  return h('span', { class: 'w-src', 'data-testid': 'source' }, ...sourceParts(text).map((p) => (p.href && LINK_SOURCES
    ? h('a', { href: new URL(p.href, import.meta.url).href, target: '_blank', rel: 'noopener' }, p.text)
    : p.text)));
}

function numberNode(v, testid, unit) {
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

function messageOf(e) {
  return e && typeof e.message === 'string' ? e.message : String(e);
}

function toRowsOf(m) {
  // {rows, cols, data} from the API → number[][]
  if (Array.isArray(m)) return m;
  const out = [];
  for (let i = 0; i < m.rows; i++) out.push(Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols)));
  return out;
}

// ---------------------------------------------------------------- base element

/**
 * Common life cycle: attributes are read in render() (inside a try, so that a bad attribute
 * becomes an inline message), user edits schedule compute() with a debounce, and only the latest
 * computation is shown.
 */
class QifWidget extends HTMLElement {
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
    this.queueRender();
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
      const config = this.readAttributes(each);
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
    if (this.config && !this.config.readonly) {
      this.resetButton = h('button', { type: 'button', class: 'w-reset', 'data-testid': 'reset', title: 'Undo your edits: back to the values the page set', disabled: true }, 'Reset');
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

// An editable grid of text inputs; returns the table and a reader for the parsed values.
function matrixGrid({ texts, rowLabels, colLabels, prior, readonly, label, idPrefix, onInput }) {
  const table = h('table', { class: 'grid', 'data-testid': `${idPrefix}-table` });
  const head = h('tr', {}, h('th', { scope: 'col' }, h('span', { class: 'w-src' }, label)));
  colLabels.forEach((c) => head.append(h('th', { scope: 'col' }, c)));
  if (prior) head.append(h('th', { scope: 'col', class: 'prior' }, 'π'));
  table.append(h('thead', {}, head));
  const body = h('tbody');
  const cell = (text, testid, aria) => {
    if (readonly) return h('td', { class: 'ro', 'data-testid': testid }, text);
    const input = h('input', { type: 'text', value: text, 'aria-label': aria, 'data-testid': testid, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false' });
    input.addEventListener('input', () => onInput?.());
    return h('td', {}, input);
  };
  texts.forEach((row, i) => {
    const tr = h('tr', {}, h('th', { scope: 'row' }, rowLabels[i]));
    row.forEach((t, j) => tr.append(cell(t, `${idPrefix}-${i}-${j}`, `${label}(${rowLabels[i]}, ${colLabels[j]})`)));
    if (prior) {
      const td = cell(prior[i], `prior-${i}`, `π(${rowLabels[i]})`);
      td.classList.add('prior');
      tr.append(td);
    }
    body.append(tr);
  });
  table.append(body);
  // When the matrix is wider than the widget, a line under it says so: a phone shows its
  // scrollbar only while scrolling. A read-only matrix's box takes the focus, to scroll by keys.
  const box = h('div', { class: 'scroll', 'data-testid': `${idPrefix}-scroll`, ...(readonly ? { tabindex: '0', role: 'region', 'aria-label': `matrix ${label}` } : {}) }, table);
  const hint = h('p', { class: 'scroll-hint', 'data-testid': `${idPrefix}-scroll-hint`, hidden: true },
    `Scroll sideways for all ${colLabels.length} columns${prior ? '; the secrets and π stay in view' : ''}.`);
  const view = h('div', { class: 'scroll-wrap' }, box, hint);
  if (typeof ResizeObserver === 'function') {
    const fit = () => {
      const over = box.scrollWidth > box.clientWidth + 1;
      hint.hidden = !over;
      box.dataset.overflow = String(over);
    };
    const watch = new ResizeObserver(fit);
    watch.observe(box);
    watch.observe(table);
  }

  // Reads the current entries: {C, prior} or {error} naming the first bad cell.
  const read = () => {
    if (readonly) return null;
    const inputs = [...body.querySelectorAll('input')];
    const m = texts[0].length + (prior ? 1 : 0);
    const C = texts.map(() => []);
    const Ct = texts.map(() => []);
    const p = [];
    const pt = [];
    let error = null;
    inputs.forEach((input, k) => {
      const i = Math.floor(k / m);
      const j = k % m;
      const r = readNumber(input.value);
      const bad = 'error' in r;
      input.setAttribute('aria-invalid', bad ? 'true' : 'false');
      const where = prior && j === m - 1 ? `π(${rowLabels[i]})` : `${label}(${rowLabels[i]}, ${colLabels[j]})`;
      if (bad && !error) error = `${where}: ${r.error}`;
      if (prior && j === m - 1) {
        p.push(r.value);
        pt.push(input.value);
      } else {
        C[i].push(r.value);
        Ct[i].push(input.value);
      }
    });
    return error ? { error } : { C, prior: p, texts: { C: Ct, prior: pt } };
  };
  return { view, read };
}

// ---------------------------------------------------------------- <qif-channel>

/**
 * <qif-channel matrix="[[…]]" prior="[…]" preset="id" measures="key,key" alpha="2" gain="[[…]]"
 *              gain-class="oneSpanningVulnerability|oneSpanningGain" caption="…" readonly>
 * A small editable channel (rows secrets, columns observables) with a prior; the chosen measures
 * (keys of measures.js — the API's names —, docs/mathematics.md#entropies-and-leakage) update live
 * as cells change. When every entry is a decimal or a fraction, the rational-valued measures get
 * their exact fraction from the engine's exact mode once the decimals are shown.
 */
export class QifChannel extends QifWidget {
  static observedAttributes = ['matrix', 'prior', 'preset', 'measures', 'alpha', 'gain', 'gain-class', 'caption', 'readonly', 'row-labels', 'col-labels'];

  defaultTitle() {
    return this.preset ? this.preset.name : 'Channel and leakage';
  }

  readAttributes(each) {
    this.preset = null;
    this.source = null;
    let texts = null;
    let rowLabels = null;
    let colLabels = null;
    const presetId = this.getAttribute('preset');
    const presetGiven = presetId !== null && presetId.trim() !== '';
    if (presetGiven) {
      each(() => {
        const p = presetById(presetId.trim());
        if (!p) fail('preset', `unknown preset “${short(presetId)}”; known: ${presets.map((q) => q.id).join(', ')}`);
        this.preset = p;
        this.source = p.source;
        texts = p.channel.map((r) => r.slice());
        rowLabels = p.secrets.slice();
        colLabels = p.observables.slice();
      });
    }
    const matrixAttr = this.getAttribute('matrix');
    if (matrixAttr !== null) {
      const given = each(() => parseMatrix('matrix', matrixAttr).texts);
      if (given && texts && (given.length !== rowLabels.length || given[0].length !== colLabels.length)) {
        rowLabels = null;
        colLabels = null;
      }
      texts = given;
    }
    if (!presetGiven && matrixAttr === null) each(() => fail('matrix', 'give a channel matrix (matrix="[[…], …]") or a preset (preset="password-iterations")'));
    // The sizes are known only from a readable matrix; the checks that need them wait for one.
    const n = texts ? texts.length : null;
    const m = texts ? texts[0].length : null;
    const rl = each(() => labels('row-labels', this.getAttribute('row-labels'), n));
    const cl = each(() => labels('col-labels', this.getAttribute('col-labels'), m));
    if (texts) {
      rowLabels = rl ?? rowLabels ?? Array.from({ length: n }, (_, i) => `x${i + 1}`);
      colLabels = cl ?? colLabels ?? Array.from({ length: m }, (_, j) => `y${j + 1}`);
    }

    const priorAttr = this.getAttribute('prior');
    let prior = texts ? uniformTexts(n) : null;
    if (priorAttr !== null && priorAttr.trim() !== '' && priorAttr.trim() !== 'uniform') {
      prior = each(() => {
        const p = parseVector('prior', priorAttr).texts;
        if (n !== null && p.length !== n) fail('prior', `has ${p.length} entries; the channel has ${n} rows (secrets)`);
        return p;
      });
    }

    const measuresAttr = this.getAttribute('measures');
    let measures = DEFAULT_MEASURES;
    if (measuresAttr !== null && measuresAttr.trim() !== '') {
      measures = each(() => {
        const list = measuresAttr.split(/[\s,]+/).filter(Boolean);
        const unknown = list.filter((k) => measureKey(k) === null);
        if (unknown.length) fail('measures', `unknown measure${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `“${short(k)}”`).join(', ')}; known: ${Object.keys(MEASURES).join(', ')}`);
        return list;
      });
    }
    const gainClassAttr = this.getAttribute('gain-class');
    let gainClass = DEFAULT_GAIN_CLASS;
    if (gainClassAttr !== null && gainClassAttr.trim() !== '') {
      gainClass = each(() => {
        const c = gainClassAttr.trim();
        if (!GAIN_CLASSES.some((g) => g.id === c)) fail('gain-class', `must be one of ${GAIN_CLASSES.map((g) => g.id).join(', ')}`);
        return c;
      });
    }

    const alphaAttr = this.getAttribute('alpha');
    let alpha = 2;
    if (alphaAttr !== null && alphaAttr.trim() !== '') {
      alpha = each(() => {
        const a = parseNumber('alpha', alphaAttr, { infinity: true });
        if (!(a >= 0)) fail('alpha', 'the order of a Rényi entropy must be ≥ 0');
        return a;
      });
    }

    let G = null;
    let gainTexts = null;
    const gainAttr = this.getAttribute('gain');
    if (gainAttr !== null && gainAttr.trim() !== '') {
      const parsed = each(() => {
        const g = parseMatrix('gain', gainAttr);
        if (n !== null && g.values[0].length !== n) fail('gain', `has ${g.values[0].length} columns; it needs one per secret (${n})`);
        return g;
      });
      if (parsed) ({ values: G, texts: gainTexts } = parsed);
    }
    return { texts, prior, rowLabels, colLabels, measures, alpha, G, gainTexts, gainClass, readonly: this.hasAttribute('readonly') };
  }

  build(cfg) {
    this.grid = matrixGrid({
      texts: cfg.texts,
      prior: cfg.prior,
      rowLabels: cfg.rowLabels,
      colLabels: cfg.colLabels,
      readonly: cfg.readonly,
      label: 'C',
      idPrefix: 'cell',
      onInput: () => {
        this.markEdited();
        this.setState('loading');
        for (const el of this.root.querySelectorAll('.results [data-status]')) el.dataset.status = 'pending';
        this.schedule();
      },
    });
    this.rows = {};
    const list = h('dl', { class: 'results', 'data-testid': 'results' });
    for (const key of cfg.measures) {
      const d = MEASURES[measureKey(key)];
      const dd = h('dd', { 'data-status': 'pending', 'data-testid': `result-${key}` }, h('span', { class: 'value' }, '…'));
      list.append(h('dt', {}, d.name, h('span', { class: 'f' }, d.formula)), dd);
      this.rows[key] = { dd, unit: d.unit };
    }
    return h('div', { class: 'w-body' },
      h('div', {}, h('div', { class: 'mat-caption' }, 'Rows: secrets · columns: observables · C(x, y) = p(y | x)'), cfg.readonly ? readonlyTable(cfg) : this.grid.view),
      list);
  }

  async computeNow(job, cfg) {
    let C;
    let prior;
    let texts;
    if (cfg.readonly) {
      C = cfg.texts.map((r) => r.map((t) => readNumber(t).value));
      prior = cfg.prior.map((t) => readNumber(t).value);
      texts = { C: cfg.texts, prior: cfg.prior };
    } else {
      const r = this.grid.read();
      if (r.error) {
        this.showError(r.error);
        this.setState('error');
        return null;
      }
      ({ C, prior, texts } = r);
    }
    const n = C.length;
    const identity = (one, zero) => Array.from({ length: n }, (_, w) => Array.from({ length: n }, (_, x) => (w === x ? one : zero)));
    const G = cfg.G ?? identity(1, 0);
    const inputs = { C, prior, G, alpha: cfg.alpha, tolerance: 1e-9, gainClass: cfg.gainClass };
    // The same inputs as typed, for the exact mode (null where an entry is not rational).
    this.exactInputs = { C: rationalMatrix(texts.C), prior: rationalVector(texts.prior), G: cfg.G ? rationalMatrix(cfg.gainTexts) : identity('1', '0'), gainClass: cfg.gainClass };
    // Only the panels that yield a requested measure.
    const wanted = new Set(cfg.measures.map(measureKey));
    const names = Object.keys(PANELS).filter((name) => PANEL_KEYS[name].some((k) => wanted.has(k)));
    this.exactPanels = names;
    const panels = names.map((name) => PANELS[name]);
    const calls = [];
    const slices = panels.map((p) => {
      const c = p.calls(inputs);
      calls.push(...c.map(({ ns, fn, args }) => ({ ns, fn, args })));
      return c.length;
    });
    const results = await job.run(calls);
    const byKey = {};
    let k = 0;
    panels.forEach((p, i) => {
      Object.assign(byKey, p.derive(results.slice(k, k + slices[i])));
      k += slices[i];
    });
    const values = {};
    const errors = [];
    for (const key of cfg.measures) {
      let r = byKey[measureKey(key)];
      if (r && r.ok && r.value && typeof r.value === 'object' && 'capacity' in r.value) r = { ok: true, value: r.value.capacity };
      const { dd, unit } = this.rows[key];
      if (r && r.ok) {
        dd.dataset.status = 'ok';
        replace(dd, numberNode(r.value, `value-${key}`, unit));
        values[key] = r.value;
      } else {
        dd.dataset.status = 'error';
        replace(dd, h('span', { class: 'value' }, '—'));
        errors.push(r ?? 'not computed');
      }
    }
    // The API names the argument and counts from 0 (“channel: row 2 sums to 0.9, expected 1”);
    // the reader sees the row's label and its number from 1 (“row “x3” (row 3)”).
    const labelled = {
      channel: { rows: cfg.rowLabels, cols: cfg.colLabels },
      prior: { rows: cfg.rowLabels },
      gain: { cols: cfg.rowLabels },
    };
    this.showError([...new Set(errors.map((m) => readerMessage(m, labelled)))].join(' · '));
    return values;
  }

  // The exact fractions, after the decimals: "2/7 ≈ 0.2857" for each rational-valued measure
  // shown, from qif.exact (loaded on first use). Where exact arithmetic refuses (too large, a row
  // that sums to 1 only approximately), the decimals stay alone.
  async afterUpdate(job, cfg) {
    const x = this.exactInputs;
    if (!x || !x.C || !x.prior || !x.G) return;
    const plans = this.exactPanels.map((name) => exactPlan(name, { prior: x.prior, C: x.C, G: x.G, gainClass: x.gainClass })).filter(Boolean);
    if (!plans.length) return;
    let results;
    try {
      results = await job.run(plans.flatMap((p) => p.calls));
    } catch (e) {
      if (e instanceof Superseded || (e && e.name === 'AbortError')) throw e;
      return;
    }
    let k = 0;
    const exact = {};
    for (const p of plans) {
      Object.assign(exact, exactResults(p, results.slice(k, k + p.calls.length)));
      k += p.calls.length;
    }
    for (const key of cfg.measures) {
      const r = exact[measureKey(key)];
      const dd = this.rows[key]?.dd;
      const value = dd?.querySelector('.value');
      if (!r?.ok || typeof r.value !== 'string' || dd.dataset.status !== 'ok' || !value) continue;
      const prefix = exactPrefix(r.value, Number(value.dataset.value));
      value.before(h('span', { class: 'exact', 'data-testid': `exact-${key}`, 'data-value': r.value, title: exactTitle(r.value) }, prefix));
      dd.dataset.exact = r.value;
    }
  }
}

// Labels of the rows or columns; their number is checked once the matrix is known (count not null).
function labels(attr, text, count) {
  if (text === null || text.trim() === '') return null;
  const r = parseLabels(text);
  if ('error' in r) fail(attr, r.error);
  if (count !== null && r.labels.length !== count) fail(attr, `needs ${count} labels`);
  return r.labels.map((s) => short(s));
}

function readonlyTable(cfg) {
  return matrixGrid({ texts: cfg.texts, prior: cfg.prior, rowLabels: cfg.rowLabels, colLabels: cfg.colLabels, readonly: true, label: 'C', idPrefix: 'cell' }).view;
}

// ---------------------------------------------------------------- <qif-mechanism>

/**
 * <qif-mechanism graph="clique|path|cycle|grid|{n,edges}" n="6" epsilon="ln 2"
 *                mechanism="optimal|truncatedGeometric|randomizedResponse|exponential"
 *                prior="[…]" max-epsilon="3" caption="…">
 * An ε slider, the mechanism's heat map, its utility (binary gain, optimal guess,
 * docs/mathematics.md#optimal-mechanisms), the bound of Theorem 6.1 for the graph, and the
 * mechanism's actual ε on the graph.
 */
export class QifMechanism extends QifWidget {
  static observedAttributes = ['graph', 'n', 'epsilon', 'mechanism', 'prior', 'max-epsilon', 'caption'];

  defaultTitle() {
    return `${MECHANISMS[this.config?.mechanism ?? this.getAttribute('mechanism')] ?? 'Mechanism'} on a ${this.config?.graphName ?? 'graph'}`;
  }

  readAttributes(each) {
    this.source = 'Alvim et al. (ICALP 2011) §6';
    const mech = each(() => {
      const name = (this.getAttribute('mechanism') ?? 'optimal').trim();
      if (!Object.hasOwn(MECHANISMS, name)) fail('mechanism', `unknown mechanism “${short(name)}”; choose one of ${Object.keys(MECHANISMS).join(', ')}`);
      return name;
    });
    const g = each(() => this.readGraph()) ?? {};
    const maxEps = each(() => {
      const v = this.hasAttribute('max-epsilon') ? parseNumber('max-epsilon', this.getAttribute('max-epsilon')) : 3;
      if (!(v > 0 && v <= 50)) fail('max-epsilon', 'must be in (0, 50]');
      return v;
    }, 3);
    const epsilon = each(() => {
      const epsAttr = this.getAttribute('epsilon');
      const v = epsAttr === null || epsAttr.trim() === '' ? Math.log(2) : parseNumber('epsilon', epsAttr);
      if (!(v > 0)) fail('epsilon', `ε must be positive, got ${v}`);
      if (v > 50) fail('epsilon', 'ε above 50 leaves no privacy to speak of; use a smaller value');
      return v;
    });
    const n = g.n ?? null;
    const pAttr = this.getAttribute('prior');
    let prior = n === null ? null : new Array(n).fill(1 / n);
    let uniform = true;
    if (pAttr !== null && pAttr.trim() !== '' && pAttr.trim() !== 'uniform') {
      uniform = false;
      prior = each(() => {
        const p = parseVector('prior', pAttr).values;
        if (n !== null && p.length !== n) fail('prior', `has ${p.length} entries; the graph has ${n} vertices`);
        return p;
      });
    }
    return { mechanism: mech, graph: g.graph, graphName: g.graphName, n, epsilon, maxEps: Math.max(maxEps, epsilon ?? 0), prior, uniform };
  }

  // The graph and n attributes: {graph, graphName, n}.
  readGraph() {
    const gAttr = (this.getAttribute('graph') ?? 'clique').trim();
    if (gAttr.startsWith('{')) {
      let g;
      try {
        g = JSON.parse(gAttr);
      } catch (e) {
        fail('graph', `is not valid JSON (${e.message})`);
      }
      if (!g || !Number.isInteger(g.n) || g.n < 1 || g.n > MAX_SIDE) fail('graph', `needs an integer n between 1 and ${MAX_SIDE}`);
      if (!Array.isArray(g.edges) || !g.edges.every((e) => Array.isArray(e) && e.length === 2 && e.every((v) => Number.isInteger(v) && v >= 0 && v < g.n))) {
        fail('graph', `edges must be pairs [a, b] of vertices 0…${g.n - 1}`);
      }
      return { graph: { literal: { n: g.n, edges: g.edges.map(([a, b]) => [a, b]) } }, graphName: `graph on ${g.n} vertices`, n: g.n };
    }
    if (!GRAPHS.includes(gAttr)) fail('graph', `unknown graph “${short(gAttr)}”; choose one of ${GRAPHS.join(', ')} or give {"n": …, "edges": [[a, b], …]}`);
    const nAttr = (this.getAttribute('n') ?? '6').trim();
    if (gAttr === 'grid') {
      const m = /^(\d+)\s*[x×*]\s*(\d+)$/.exec(nAttr);
      if (!m) fail('n', 'for a grid, give width×height, e.g. n="3x3"');
      const w = parseInteger('n', m[1], 1, MAX_SIDE);
      const ht = parseInteger('n', m[2], 1, MAX_SIDE);
      if (w * ht > MAX_SIDE) fail('n', `the grid has ${w * ht} vertices; widgets take at most ${MAX_SIDE}`);
      return { graph: { fn: 'grid', args: [w, ht] }, graphName: `${w}×${ht} grid`, n: w * ht };
    }
    const n = parseInteger('n', nAttr, 2, MAX_SIDE);
    return { graph: { fn: gAttr, args: [n] }, graphName: `${gAttr} of ${n}`, n };
  }

  build(cfg) {
    this.epsilon = cfg.epsilon;
    const id = `eps-${Math.random().toString(36).slice(2, 8)}`;
    const out = h('output', { for: id, 'data-testid': 'epsilon-value' });
    const slider = h('input', {
      id, type: 'range', min: String(Math.min(0.01, cfg.epsilon)), max: String(cfg.maxEps), step: 'any',
      value: String(cfg.epsilon), 'data-testid': 'epsilon', 'aria-describedby': `${id}-out`,
    });
    out.id = `${id}-out`;
    const showEps = () => {
      out.textContent = `ε = ${formatNumber(this.epsilon)} nats · e^ε = ${formatNumber(Math.exp(this.epsilon))}`;
      out.title = `ε = ${formatFull(this.epsilon)}`;
    };
    showEps();
    slider.addEventListener('input', () => {
      this.epsilon = Number(slider.value);
      this.markEdited();
      showEps();
      this.setState('loading');
      this.schedule();
    });
    this.plotBox = h('div', { 'data-testid': 'heatmap' });
    this.results = h('dl', { class: 'results', 'data-testid': 'results' });
    this.warn = h('p', { class: 'w-warn', 'data-testid': 'warning', 'aria-live': 'polite' });
    this.scaling = h('p', { class: 'w-note', 'data-testid': 'scaling' });
    return h('div', {},
      h('div', { class: 'controls' }, h('label', { for: id }, 'Privacy ε'), slider, out),
      h('div', { class: 'w-body' }, this.plotBox, h('div', {}, this.results, this.warn,
        this.scaling,
        h('p', { class: 'w-note long' }, `Every mechanism is offered at ε on this graph (as on the page): the truncated geometric and exponential ones run at ε/s per step, s the longest edge |a − b| of the graph, so that they are ε-DP on it. Utility: expected binary gain of the best guess from the output, ${cfg.uniform ? 'uniform prior' : 'the given prior'}. The bound (Thm 6.1) holds for the uniform prior.`))));
  }

  async computeNow(job, cfg) {
    const eps = this.epsilon;
    const g = cfg.graph.literal ? cfg.graph.literal : await this.graphOf(job, cfg);
    // The same plan as the page's "Design a mechanism" section: same inputs, same matrix.
    const key = WIDGET_MECHANISMS[cfg.mechanism];
    const [mr, br] = await job.run([
      mechanismCall(key, { graph: g, epsilon: eps, prior: cfg.prior }),
      engine.plan.privacy.utilityBound(g, eps),
    ]);
    // The vertices are named 0…n−1, as in the graph attribute and the heat map.
    const names = { prior: { rows: Array.from({ length: cfg.prior?.length ?? 0 }, (_, i) => String(i)) } };
    if (!mr.ok) throw new Error(readerMessage(mr, names));
    const H = matrixOf(key, mr.value);
    const [ur, er] = await job.run([utilityCall(cfg.prior, H), engine.plan.privacy.epsilon(H, g)]);
    const M = toRowsOf(H);
    replace(this.plotBox, heatmap({
      title: `${MECHANISMS[cfg.mechanism]}, ε = ${formatNumber(eps)}: H[input][output]`,
      matrix: M,
      rowLabels: M.map((_, i) => String(i)),
      colLabels: M[0].map((_, j) => String(j)),
      max: 1,
    }));
    const rows = [];
    const row = (k, name, formula, r, unit) => {
      const dd = h('dd', { 'data-testid': `result-${k}`, 'data-status': r.ok ? 'ok' : 'error' },
        r.ok ? numberNode(r.value, `value-${k}`, unit) : [h('span', { class: 'value' }, '—'), h('span', { class: 'msg' }, readerMessage(r, names))]);
      rows.push(h('dt', {}, name, h('span', { class: 'f' }, formula)), dd);
    };
    row('utility', 'Utility', 'U = Σ_z max_y π(y) H(y, z)', ur, 'probability');
    row('bound', 'Utility bound (Thm 6.1)', 'U ≤ 1 / Σ_d n_d e^(−εd)', br.ok ? { ok: true, value: br.value.bound } : br, 'probability');
    row('actualEpsilon', 'Actual ε on the graph', 'max over edges x∼x′, y of ln H(x,y)/H(x′,y)', er, 'nats');
    replace(this.results, rows);
    this.scaling.textContent = scalingText(key, eps, g, formatNumber);
    const values = { epsilon: eps, utility: ur.ok ? ur.value : null, bound: br.ok ? br.value.bound : null, actualEpsilon: er.ok ? er.value : null, matrix: M };
    const notes = [];
    if (er.ok && er.value > eps * (1 + 1e-9) + 1e-12) notes.push(`this mechanism is not ${formatNumber(eps)}-DP on the ${cfg.graphName}: its actual ε is ${formatNumber(er.value)}`);
    if (br.ok && br.value.tight === false && cfg.mechanism === 'optimal') notes.push('the Theorem 6.1 bound is not known to be reached on this graph (it is where every vertex has the same distance distribution)');
    this.warn.textContent = notes.length ? `Note: ${notes.join('; ')}.` : '';
    return values;
  }

  async graphOf(job, cfg) {
    const key = `${cfg.graph.fn}(${cfg.graph.args.join(',')})`;
    if (this.graphKey === key) return this.graphValue;
    const g = await job.call({ ns: 'graph', fn: cfg.graph.fn, args: cfg.graph.args });
    this.graphKey = key;
    this.graphValue = g;
    return g;
  }
}

// ---------------------------------------------------------------- <qif-refinement>

const ORDERS = [
  { key: 'avg', fn: 'avg', name: 'A ⊑avg B', meaning: 'B is a post-processing of A: no prior and gain function lets an adversary gain more from B than from A.' },
  { key: 'max', fn: 'max', name: 'A ⊑max B', meaning: 'every posterior of B lies in the convex hull of A’s posteriors: B is safer for every max-case measure.' },
  { key: 'prv', fn: 'prv', name: 'A ⊑prv B', meaning: 'd_A ≥ d_B pointwise: B is d-private for every metric d for which A is.' },
];

/**
 * <qif-refinement a="[[…]]" b="[[…]]" caption="…" readonly> The three refinement verdicts of
 * docs/mathematics.md#refinement for two channels on the same secrets, with the witness or
 * counterexample the API returns.
 */
export class QifRefinement extends QifWidget {
  static observedAttributes = ['a', 'b', 'caption', 'readonly'];

  defaultTitle() {
    return 'Is B safe in place of A? Refinement A ⊑ B';
  }

  readAttributes(each) {
    this.source = 'Chatzikokolakis et al. (CSF 2019) §2–5';
    const aAttr = this.getAttribute('a');
    const bAttr = this.getAttribute('b');
    const A = each(() => (aAttr === null ? fail('a', 'give channel A, e.g. a="[[1,0],[0,1]]"') : parseMatrix('a', aAttr)));
    const B = each(() => (bAttr === null ? fail('b', 'give channel B, e.g. b="[[0.5,0.5],[0.5,0.5]]"') : parseMatrix('b', bAttr)));
    if (A && B && A.texts.length !== B.texts.length) each(() => fail('b', `has ${B.texts.length} rows; A has ${A.texts.length} (both channels take the same secrets)`));
    return { A, B, readonly: this.hasAttribute('readonly') };
  }

  build(cfg) {
    const edited = () => {
      this.markEdited();
      this.setState('loading');
      this.schedule();
    };
    const rowLabels = cfg.A.texts.map((_, i) => `x${i + 1}`);
    const colsA = cfg.A.texts[0].map((_, j) => `y${j + 1}`);
    const colsB = cfg.B.texts[0].map((_, j) => `z${j + 1}`);
    // Rows and columns named as the grids show them, in the API's messages too.
    this.names = { A: { rows: rowLabels, cols: colsA }, B: { rows: rowLabels, cols: colsB } };
    this.gridA = matrixGrid({ texts: cfg.A.texts, rowLabels, colLabels: colsA, readonly: cfg.readonly, label: 'A', idPrefix: 'a', onInput: edited });
    this.gridB = matrixGrid({ texts: cfg.B.texts, rowLabels, colLabels: colsB, readonly: cfg.readonly, label: 'B', idPrefix: 'b', onInput: edited });
    this.list = h('ul', { class: 'verdicts', 'data-testid': 'verdicts' });
    for (const o of ORDERS) this.list.append(h('li', { class: 'verdict', 'data-testid': `verdict-${o.key}` }, h('span', { class: 'order' }, o.name), h('span', { class: 'badge' }, '…')));
    return h('div', { class: 'w-body' },
      h('div', { class: 'mats' }, this.gridA.view, this.gridB.view),
      this.list);
  }

  async computeNow(job, cfg) {
    let A = cfg.A.values;
    let B = cfg.B.values;
    if (!cfg.readonly) {
      const a = this.gridA.read();
      const b = this.gridB.read();
      const err = a.error || b.error;
      if (err) {
        this.showError(err);
        this.setState('error');
        return null;
      }
      A = a.C;
      B = b.C;
    }
    const results = await job.run(ORDERS.map((o) => ({ ns: 'refine', fn: o.fn, args: [A, B] })));
    const verdicts = {};
    const errors = [];
    ORDERS.forEach((o, i) => {
      const r = results[i];
      const li = this.list.children[i];
      if (!r.ok) {
        li.dataset.holds = 'error';
        replace(li, h('span', { class: 'order' }, o.name), h('span', { class: 'badge' }, '—'));
        errors.push(r);
        return;
      }
      const holds = !!r.value.holds;
      verdicts[o.key] = holds;
      li.dataset.holds = String(holds);
      replace(li,
        h('span', { class: 'order' }, o.name),
        h('span', { class: 'badge', 'data-testid': `holds-${o.key}` }, holds ? 'holds' : 'fails'),
        h('span', { class: 'why' }, explain(o, r.value)));
    });
    this.showError([...new Set(errors.map((m) => readerMessage(m, this.names)))].join(' · '));
    return verdicts;
  }
}

function explain(order, v) {
  if (v.holds) {
    if (order.key === 'avg') return `Yes — ${order.meaning} Witness: B = A·R for a row-stochastic R.`;
    if (order.key === 'max') return `Yes — ${order.meaning}`;
    return `Yes — ${order.meaning}`;
  }
  const c = v.counterexample;
  if (order.key === 'avg' && c && 'vulnerabilityA' in c) {
    return `No — a gain function and prior give V_g[π▷B] = ${formatNumber(c.vulnerabilityB)} > V_g[π▷A] = ${formatNumber(c.vulnerabilityA)}.`;
  }
  if (order.key === 'max' && c && 'distance' in c) {
    return `No — a posterior of B lies at distance ${formatNumber(c.distance)} from the hull of A’s posteriors.`;
  }
  if (order.key === 'prv' && c && 'dA' in c) {
    return `No — for secrets x${c.x + 1}, x${c.x2 + 1}: d_B = ${formatNumber(c.dB)} > d_A = ${formatNumber(c.dA)}.`;
  }
  return 'No.';
}

// ---------------------------------------------------------------- registration

for (const [name, cls] of [['qif-channel', QifChannel], ['qif-mechanism', QifMechanism], ['qif-refinement', QifRefinement]]) {
  // A page may include the script twice (two course fragments): define once.
  if (!customElements.get(name)) customElements.define(name, cls);
}
