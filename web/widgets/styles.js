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

// Every length is in em of the widget's type, and the type is a fraction of the font the widget
// inherits: 0.95 of it (0.8 with size="compact"). On a page of 16 px that is 15.2 px (12.8 px), as
// the widgets have always been; on a Reveal.js slide of 42 px it is 40 px (33.6 px), so a widget
// scales with the slide's text instead of shrinking beside it. The heat map's SVG and the matrix
// cells are sized in em too, so they scale alike.
const CSS = `
:host {
  display: block;
  margin: 1.3em 0;
  /* In a centred flex column (align-items: center, Reveal's r-vstack) a block is as wide as its
     content, and the widget's box measures none (container-type): keep a usable width
     (24rem on a page of 16 px). */
  min-inline-size: min(100%, 25.3em);
  ${palette(0)}
  color-scheme: light;
  color: var(--w-ink);
  font-size: var(--qif-font-size, 0.95em);
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
.w-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.26em 1.05em; margin-bottom: 0.5em; }
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
.program-box { min-width: 0; max-width: 100%; }
/* <qif-program editable>: the program in an editor (lib/code-editor.js), the gutter beside it. */
.code-editor { display: flex; align-items: stretch; margin: 0 0 0.6em; border-radius: 6px; border: 1px solid color-mix(in srgb, currentColor 20%, var(--w-bg)); overflow: hidden; font-size: 0.88em; line-height: 1.4; }
.code-lines { margin: 0; padding: 0.5em 0.45em 0.5em 0.6em; text-align: right; color: var(--w-muted); background: color-mix(in srgb, var(--w-line) 35%, var(--w-bg)); user-select: none; overflow: hidden; font: inherit; font-family: ui-monospace, Menlo, Consolas, monospace; min-width: 2.2em; }
.code-lines .line.error { color: var(--w-error); font-weight: 700; background: color-mix(in srgb, var(--w-error) 18%, var(--w-bg)); }
.code-source { flex: 1 1 auto; min-width: 14em; margin: 0; border: 0; padding: 0.5em 0.7em; font: inherit; font-family: ui-monospace, Menlo, Consolas, monospace; line-height: 1.4; color: inherit; background: var(--w-bg); resize: vertical; white-space: pre; overflow: auto; tab-size: 4; }
.code-source:focus-visible { outline: 2px solid var(--w-accent); outline-offset: -2px; }
.code-source[aria-invalid="true"] { box-shadow: inset 3px 0 0 var(--w-error); }
/* Parts left out by show / hide. */
[data-part][hidden], .no-reasons .verdict .why { display: none; }
.w-warn { margin: 0.4em 0 0; padding: 0.35em 0.6em; border-radius: 6px; background: color-mix(in srgb, var(--w-warn) 12%, var(--w-bg)); color: var(--w-warn); border: 1px solid color-mix(in srgb, var(--w-warn) 35%, var(--w-bg)); font-size: 0.9em; max-width: 29.5em; }
.w-warn:empty { display: none; }
.w-note { color: var(--w-muted); font-size: 0.86em; margin: 0.4em 0 0; }
.grid { border-collapse: collapse; font-size: 0.9em; }
.grid th, .grid td { padding: 0.073em 0.219em; text-align: center; }
.grid thead th { font-weight: 600; color: var(--w-muted); border-bottom: 1px solid var(--w-line); }
.grid tbody th { font-weight: 600; color: var(--w-muted); text-align: right; padding-right: 0.438em; font-family: ui-monospace, Menlo, Consolas, monospace; white-space: nowrap; }
.grid .prior { border-left: 2px solid var(--w-line); padding-left: 0.438em; }
.grid input { width: 3.8em; font: inherit; font-family: ui-monospace, Menlo, Consolas, monospace; padding: 0.146em 0.292em; border: 1px solid var(--w-line); border-radius: 4px; text-align: right; color: inherit; background: var(--w-bg); }
.grid input:focus-visible { outline: 2px solid var(--w-accent); outline-offset: 0; }
.grid input[aria-invalid="true"] { border-color: var(--w-error); background: color-mix(in srgb, var(--w-error) 12%, var(--w-bg)); }
.grid td.ro { font-family: ui-monospace, Menlo, Consolas, monospace; text-align: right; padding: 0.073em 0.438em; }
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
   before anything scrolls. In em of the widget's type (420 px at 15.2 px): the cells scale with it.
   The cells' paddings are in em of the grid's 13.68 px too (0.146em = 2 px there). */
@container (max-width: 27.6em) {
  .grid th, .grid td { padding: 0.073em; }
  .grid tbody th { padding-right: 0.219em; }
  .grid .prior { padding-left: 0.219em; }
  .grid input { width: 3.2em; padding: 0.146em; }
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
.verdict .order { font-family: Georgia, "DejaVu Serif", serif; white-space: nowrap; }
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
/* The heat map's cells and the values on them: lib/plot.js gives each cell its colour in both
   looks (heatColour, heatInk); the widget's look picks one. */
figure.plot .plot-svg rect.heat { fill: var(--heat-light); }
figure.plot .plot-svg text.heat-v { fill: var(--heat-ink-light); }
:host([data-qif-theme="dark"]:not([theme="light"])) figure.plot .plot-svg rect.heat,
:host([theme="dark"]) figure.plot .plot-svg rect.heat { fill: var(--heat-dark); }
:host([data-qif-theme="dark"]:not([theme="light"])) figure.plot .plot-svg text.heat-v,
:host([theme="dark"]) figure.plot .plot-svg text.heat-v { fill: var(--heat-ink-dark); }
figure.plot figcaption { font-size: 0.84em; color: var(--w-muted); }
figure.plot details.plot-data summary { cursor: pointer; font-size: 0.84em; color: var(--w-accent); }
table.mini { border-collapse: collapse; font-size: 0.8em; margin-top: 0.25em; }
table.mini th, table.mini td { border: 1px solid var(--w-line); padding: 1px 4px; text-align: right; }
/* <qif-composition>: the answer large, its interval and method under it, the bounds, the curve. */
.cmp-w-numbers { display: grid; gap: 0.4em; min-width: 14em; flex: 1 1 14em; }
.cmp-w-main { margin: 0; font-size: 1.15em; }
.cmp-w-main .value { font-size: 1.3em; }
.cmp-w-answer .w-note { margin: 0.1em 0 0; }
.cmp-w-answer [data-testid="lower"], .cmp-w-answer [data-testid="upper"] { font-family: ui-monospace, Menlo, Consolas, monospace; color: var(--w-ink); }
:host([size="compact"]) .cmp-w-numbers { min-width: 11em; }
:host([size="compact"]) .cmp-w-plot figure.plot { width: 15em; }
.cmp-w-numbers .w-note { margin: 0; }
/* A line plot's grid and axes on a dark widget: the widget's line colour, not the light page's. */
:host([data-qif-theme="dark"]:not([theme="light"])) figure.plot .plot-svg g.axes line,
:host([theme="dark"]) figure.plot .plot-svg g.axes line { stroke: var(--w-line); }
.cmp-w-plot figure.plot { max-width: 24em; }
var { font-style: italic; font-family: Georgia, "DejaVu Serif", serif; }
/* size="compact": for slides (a 1280×720 frame, or Reveal.js's 960×700): smaller type (0.8 of the
   inherited font), the plot beside the numbers, and the explanatory notes left out. */
:host([size="compact"]) { margin: 0.625em 0; min-inline-size: min(100%, 30em); font-size: var(--qif-font-size, 0.8em); line-height: 1.3; }
:host([size="compact"]) .w { padding: 0.5em 0.7em; }
:host([size="compact"]) .w-body { flex-wrap: nowrap; gap: 0.75em 1.25em; }
:host([size="compact"]) .w-note.long, :host([size="compact"]) .mat-caption { display: none; }
/* Beside a matrix, the numbers give way first (down to 10em), so that the matrix keeps its columns;
   rows a little tighter, so that the password checker's eight fit a 1280×720 slide. */
:host([size="compact"]) .results { min-width: 10em; }
:host([size="compact"]) .w-body > .results { flex: 1 1 10em; }
:host([size="compact"]) .grid { font-size: 0.85em; }
:host([size="compact"]) .grid input { padding: 0.06em 0.25em; line-height: 1.15; }
/* The heat map keeps its width beside the numbers (its box does not shrink) and its height within
   a 1280×720 slide under a heading: 12em wide is about 11em tall for the 6 × 6 default. */
:host([size="compact"]) .plot-box { flex: none; }
:host([size="compact"]) figure.plot { width: 12em; flex: none; }
:host([size="compact"]) figure.plot details.plot-data { display: none; }
:host([size="compact"]) .verdict .why { font-size: 0.8em; }
/* On a slide the refinement widget keeps its verdicts and the witness or counterexample; the menu,
   the preset's note and the sentences explaining them are left to the speaker. */
:host([size="compact"]) .ref-menu, :host([size="compact"]) .ref-preset, :host([size="compact"]) .ref-reading,
:host([size="compact"]) .ref-results:has(.ref-drawing:not(:empty)) .why { display: none; }
/* On a slide the two matrices stand side by side, the verdicts and the drawing go under them when
   they do not fit beside, and the three verdicts stand in one row where their box is wide enough
   (show="verdicts drawing" or show="matrices verdicts" then fits a 1280x720 slide at 40 px). */
:host([size="compact"]) .w-body:has(> .mats) { flex-wrap: wrap; }
/* A program with all three parts is wider than a slide: its parts wrap rather than scroll (on a
   1280x720 slide at 40 px, show two of them: docs/widgets.md). */
:host([size="compact"]) .program-body { flex-wrap: wrap; }
:host([size="compact"]) .mats { flex-wrap: nowrap; }
:host([size="compact"]) .ref-results { max-width: none; flex: 1 1 12em; min-width: 12em; container-type: inline-size; }
:host([size="compact"]) .verdicts { min-width: 0; }
:host([size="compact"]) .verdict { grid-template-columns: auto auto; justify-content: start; }
@container (min-width: 36em) {
  :host([size="compact"]) .verdicts { grid-template-columns: repeat(3, auto); max-width: none; justify-content: start; }
}
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
    // Engines without constructable stylesheets (Safari before 16.4): the same rules in a <style>
    // of the shadow root. A policy that forbids inline styles leaves the widget unstyled there;
    // it still computes.
    root.append(h('style', {}, CSS));
  }
}

