// sections/channel/program-view.js — the channel section's program editor: write the system (a
// secret, a computation, what is observed) and compute its exact channel, which then fills the
// grid with its row and column labels and its fractions, so that every measure updates.
//
// The editor is a textarea with a gutter of line numbers; as one types, the program is checked
// in the worker (engine.program.check, debounced) and each problem is listed with its line and
// column and marked in the gutter. The examples are web/program-examples.json, the list the
// documentation and the tests share. The language: docs/program-language.md (linked from the
// hint, rendered as docs/program-language.html). Tab and Shift-Tab indent (lib/code-editing.js);
// the engine's diagnostics get the habits of other languages named, and a program that observes
// nothing a warning (lib/program-habits.js).

import { h, replace } from '../../lib/dom.js';
import { enableIndentKeys, INDENT_HINT } from '../../lib/code-editing.js';
import { explainHabits, noObserveWarning } from '../../lib/program-habits.js';

const CHECK_DELAY_MS = 250;
/** The grid's limits (the channel section shows up to 2,000 × 2,000 entries). */
const MAX_SIDE = 2000;

/** The rendered page of the language's reference, relative to the page. */
export const LANGUAGE_DOCS = 'docs/program-language.html';

/**
 * Builds the program card. `onChannel(result, source)` receives what engine.program.channel
 * returned; the card shows what went wrong itself.
 * @returns {{el: HTMLElement, getSource(): string, setSource(text: string): void, nameOf(text: string): string}}
 */
export function createProgramCard({ engine, onChannel }) {
  const els = {
    examples: h('select', { id: 'program-example', 'data-testid': 'program-example' }, h('option', { value: '', text: 'Examples…' })),
    lines: h('pre', { class: 'program-lines', 'aria-hidden': 'true', 'data-testid': 'program-lines' }),
    source: h('textarea', { id: 'program-source', class: 'program-source', 'data-testid': 'program-source', spellcheck: 'false', rows: '12', 'aria-describedby': 'program-hint', 'aria-label': 'Program' }),
    diagnostics: h('ul', { class: 'error-list program-diagnostics', 'data-testid': 'program-diagnostics', 'aria-live': 'polite' }),
    run: h('button', { type: 'button', id: 'program-run', 'data-testid': 'program-run', text: 'Compute the channel' }),
    cancel: h('button', { type: 'button', class: 'small', 'data-testid': 'program-cancel', text: 'Cancel', hidden: true }),
    status: h('p', { class: 'muted', 'data-testid': 'program-status', 'aria-live': 'polite' }),
  };
  const el = h('details', { class: 'card program-card', id: 'program-card', 'data-testid': 'program-card' },
    h('summary', {}, h('h3', { id: 'program-title' }, 'From a program')),
    h('p', { class: 'hint', id: 'program-hint' }, 'Write the system instead of its matrix: declare the secret (', h('kbd', { text: 'secret x in 0..7' }), '), compute, and ',
      h('kbd', { text: 'observe' }), ' what the adversary sees. Random choices (', h('kbd', { text: 'flip(1/2)' }), ', ', h('kbd', { text: 'uniform(1..6)' }),
      ') are exact. The channel fills the grid below with its labels and fractions. The language is described in the documentation: ',
      h('a', { href: LANGUAGE_DOCS, target: '_blank', rel: 'noopener', 'data-testid': 'program-language-link', text: 'the program language' }), '. ', INDENT_HINT),
    h('div', { class: 'preset-row' }, h('label', { for: 'program-example', text: 'Example' }), els.examples),
    h('div', { class: 'program-editor' }, els.lines, els.source),
    els.diagnostics,
    h('div', { class: 'toolbar' }, els.run, els.cancel),
    els.status);

  let examples = [];
  fetch(new URL('../../program-examples.json', import.meta.url)).then((r) => r.json()).then((data) => {
    examples = data.examples;
    for (const e of examples) els.examples.append(h('option', { value: e.id, text: e.title }));
  }).catch(() => { els.examples.disabled = true; });
  els.examples.addEventListener('change', () => {
    const e = examples.find((x) => x.id === els.examples.value);
    if (!e) return;
    setSource(e.program.trimEnd());
    els.status.textContent = e.description;
    check();
  });

  // The gutter: one number per line, the lines with a problem marked.
  let marked = new Set();
  function renderLines() {
    const n = els.source.value.split('\n').length;
    const spans = [];
    for (let i = 1; i <= n; i++) spans.push(h('span', { class: marked.has(i) ? 'line error' : warned.has(i) ? 'line warning' : 'line', 'data-line': String(i), text: `${i}\n` }));
    replace(els.lines, ...spans);
    els.lines.scrollTop = els.source.scrollTop;
  }
  els.source.addEventListener('scroll', () => { els.lines.scrollTop = els.source.scrollTop; });

  // Errors first (with the habits of other languages named), then the warnings; only errors
  // make the program invalid. A warning's line is marked too, in its own colour.
  let warned = new Set();
  function showDiagnostics(list, src = els.source.value) {
    const errors = explainHabits(src, list);
    const warning = errors.length ? null : noObserveWarning(src);
    const all = warning ? [...errors, warning] : errors;
    marked = new Set(errors.map((d) => d.line));
    warned = new Set(warning ? [warning.line] : []);
    replace(els.diagnostics, ...all.map((d) => h('li', {
      class: d.severity === 'warning' ? 'warning' : null,
      'data-line': String(d.line), 'data-column': String(d.column), 'data-severity': d.severity ?? 'error', 'data-engine': d.engine,
      text: `${d.severity === 'warning' ? 'warning: ' : ''}line ${d.line}, column ${d.column}: ${d.message}`,
    })));
    els.source.setAttribute('aria-invalid', errors.length ? 'true' : 'false');
    renderLines();
  }

  let timer = null;
  let checking = null;
  function check() {
    clearTimeout(timer);
    checking?.cancel?.();
    const src = els.source.value;
    if (!src.trim()) {
      showDiagnostics([]);
      return;
    }
    const p = engine.program.check(src);
    checking = p;
    p.then((r) => { if (checking === p) showDiagnostics(r.diagnostics, src); }, () => {});
  }
  els.source.addEventListener('input', () => {
    renderLines();
    clearTimeout(timer);
    timer = setTimeout(check, CHECK_DELAY_MS);
  });

  let running = null;
  els.run.addEventListener('click', () => {
    running?.cancel?.();
    // A check still to come would replace what the run finds.
    clearTimeout(timer);
    checking = null;
    const src = els.source.value;
    els.status.textContent = 'Computing the channel…';
    el.dataset.busy = 'true';
    els.cancel.hidden = false;
    // Reports come about every 100 ms: the secret values run so far, out of their number.
    const p = engine.program.channel(src, {
      onProgress: ({ done, total }) => {
        if (running === p && total > 1) els.status.textContent = `Computing the channel… ${done.toLocaleString('en')} of ${total.toLocaleString('en')} secret values run.`;
      },
    });
    running = p;
    const settle = () => {
      el.dataset.busy = 'false';
      els.cancel.hidden = true;
    };
    p.then((r) => {
      if (running !== p) return;
      settle();
      if (r.secrets.length > MAX_SIDE || r.observations.length > MAX_SIDE) {
        els.status.textContent = `The channel has ${r.secrets.length.toLocaleString('en')} rows and ${r.observations.length.toLocaleString('en')} columns, more than the grid shows (${MAX_SIDE.toLocaleString('en')} × ${MAX_SIDE.toLocaleString('en')}).`;
        return;
      }
      showDiagnostics([], src);
      els.status.textContent = `${r.secrets.length} × ${r.observations.length} channel, exact; at most ${r.states} state${r.states === 1 ? '' : 's'} at once, ${r.steps.toLocaleString('en')} loop iteration${r.steps === 1 ? '' : 's'}.`;
      onChannel(r, src);
    }, (e) => {
      if (running !== p) return;
      settle();
      if (e && e.name === 'AbortError') {
        els.status.textContent = 'Cancelled.';
        return;
      }
      // A program's error names its line and column: list it like a check's (all of them when
      // it does not compile).
      if (Array.isArray(e?.errors) && e.errors.length > 0) {
        showDiagnostics(e.errors, src);
        els.status.textContent = '';
      } else if (Number.isInteger(e?.line)) {
        showDiagnostics([{ line: e.line, column: e.column, message: e.message.replace(/^program\.channel: line \d+, column \d+: /, '') }], src);
        els.status.textContent = '';
      } else {
        els.status.textContent = e?.message ?? String(e);
      }
    });
  });

  els.cancel.addEventListener('click', () => running?.cancel?.());

  function setSource(text) {
    els.source.value = text;
    renderLines();
  }
  enableIndentKeys(els.source);
  renderLines();

  // What a program is called where its channel is shown: the example's title while the source
  // is the example's, "edited from" it after a change, else its first comment, else nothing.
  function nameOf(text) {
    const src = String(text ?? '').trimEnd();
    const same = examples.find((x) => x.program.trimEnd() === src);
    if (same) return same.title;
    const chosen = examples.find((x) => x.id === els.examples.value);
    if (chosen) return `${chosen.title} (edited)`;
    const comment = /^\s*#\s*(.+)$/m.exec(src);
    return comment && comment.index === src.search(/\S/) ? comment[1].trim() : 'your program';
  }
  return {
    el,
    nameOf,
    getSource: () => els.source.value,
    setSource(text) {
      setSource(text);
      if (text) el.open = true;
      check();
    },
  };
}
