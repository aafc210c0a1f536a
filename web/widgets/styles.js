// widgets/styles.js — the widgets' one stylesheet, constructed once and adopted by every widget's
// shadow root (no inline <style>, so a strict Content-Security-Policy needs nothing extra).
import { h } from '../lib/dom.js';

// The colours a page may set, as --qif-<name> on the widgets or any ancestor, and their defaults
// [light, dark] (docs/widgets.md#styling says what each colours). A widget is dark when theme="dark", light when
// theme="light", and otherwise follows the page it sits on (base.js pageTheme sets data-qif-theme from
// the background behind the widget, and from the page's color-scheme where nothing has one).
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
  /* In a centred flex column (align-items: center, Reveal's r-vstack) a block is as wide as its
     content, and the widget's box measures none (container-type): keep a usable width. */
  min-inline-size: min(100%, 24rem);
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
:host([data-qif-theme="dark"]:not([theme="light"])),
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
/* <qif-program>: the program with its line numbers; the line of an error is marked. */
.program { margin: 0 0 0.6em; padding: 0.5em 0.7em; border-radius: 6px; border: 1px solid color-mix(in srgb, currentColor 20%, var(--w-bg)); overflow-x: auto; font-size: 0.88em; line-height: 1.4; }
.program .ln { opacity: 0.5; user-select: none; }
.program .line.at { background: color-mix(in srgb, var(--w-error) 15%, var(--w-bg)); }
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
/* <qif-refinement>: the preset's note, and the witness or counterexample under the verdicts. */
.ref-preset { margin: 0 0 0.6em; max-width: 48em; }
.ref-cite { font-style: italic; }
.ref-results { display: grid; gap: 0.6em; min-width: 16em; max-width: 34em; }
.ref-drawing:empty { display: none; }
.ref-reading { margin: 0 0 0.3em; font-size: 0.9em; max-width: 34em; }
.ref-matrix td.num { font-family: ui-monospace, Menlo, Consolas, monospace; text-align: right; padding: 1px 6px; }
.ref-matrix tr.prior th, .ref-matrix tr.prior td { border-top: 2px solid var(--w-line); }
.ref-vg { margin-top: 0.3em; min-width: 0; width: max-content; max-width: 100%; }
.controls select { font: inherit; max-width: 100%; color: inherit; background: var(--w-bg); border: 1px solid var(--w-line); border-radius: 4px; }
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
/* On a slide the refinement widget keeps its verdicts and the witness or counterexample; the menu,
   the preset's note and the sentences explaining them are left to the speaker. */
:host([size="compact"]) .ref-menu, :host([size="compact"]) .ref-preset, :host([size="compact"]) .ref-reading,
:host([size="compact"]) .ref-results:has(.ref-drawing:not(:empty)) .why { display: none; }
@media (max-width: 480px) {
  .w { padding: 0.6em; }
  .results { grid-template-columns: minmax(0, 1fr) auto; min-width: 0; }
}
`;

let sheet = null;
export function styles(root) {
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

