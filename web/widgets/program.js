// widgets/program.js — <qif-program>: a program in the toolkit's language (docs/program-language.md);
// the widget shows the program, its exact channel (rows: the secret's values, columns: what is
// observed, entries exact fractions) and the chosen measures on that channel and the program's
// prior, as <qif-channel> does (it is one: the same measures, the same exact values).
//
//   <qif-program measures="key,key" gain-class="…" alpha="2" caption="…" editable show="…">
//     <script type="text/qif">
//       secret guess in bits(3)
//       …
//       observe out
//     </script>
//   </qif-program>
//   <qif-program src="checker.qif"></qif-program>
//
// Where the program comes from, first found first:
//   - a <script type="text/qif"> child: HTML reads nothing inside a script element, so `<` needs no
//     escaping there (only the text "</script" would end it);
//   - the `src` attribute: a file fetched relative to the page (not from a page opened from disk,
//     where browsers fetch nothing);
//   - the element's text. There HTML reads `<` followed by a letter as a tag, `<!` as a comment: the
//     program is cut there and the rest of the page may be swallowed into the widget. The widget
//     then says so, where, and how to fix it, rather than running what is left.
// The text is dedented first, so that the line and column of an error are those of the program as
// shown in the widget, whatever the indentation of the page's HTML.
//
// With `editable` the program is shown in an editor (lib/code-editor.js: line numbers, the line of
// an error marked, Tab indenting): the channel and the measures follow the reader's edits, and
// Reset puts back the author's program. `show` / `hide` choose the parts drawn (source, channel,
// measures), for slides and small frames.
//
// The channel comes from qif.program.channel in the engine's worker (the exact module, loaded on
// first use).

import { h, replace } from '../lib/dom.js';
import { codeEditor } from '../lib/code-editor.js';
import { COMMON_ATTRIBUTES, MAX_SIDE, fail, flag, partsAttributes, partsShown } from './attributes.js';
import { QifChannel, MEASURE_ATTRIBUTES } from './channel.js';
import { matrixGrid } from './matrix-grid.js';

/** The parts of the widget, in the order drawn (the values of show and hide). */
export const PROGRAM_PARTS = ['source', 'channel', 'measures'];

/** The type of the script child that holds a program. */
export const PROGRAM_SCRIPT_TYPE = 'text/qif';

/** The program of an element's text: blank lines around it and the common indentation removed. */
export function programText(text) {
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)[0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

const isProgramScript = (n) => n.nodeType === 1 && n.localName === 'script' && (n.getAttribute('type') ?? '').trim().toLowerCase() === PROGRAM_SCRIPT_TYPE;

const HOW_TO_FIX = 'Put the program in a <script type="text/qif"> child of the widget (HTML reads nothing inside it), or write each “<” as “&lt;” or with a space after it (i < n).';

/**
 * Where the program of element `el` comes from: {from: 'script' | 'text', text} or
 * {from: 'text', text, cut} when HTML cut the text (cut: the message saying where and why), or
 * {from: 'none', text: ''} when the element holds no program (then src may give one).
 */
export function programOf(el) {
  const script = [...el.children].find(isProgramScript);
  if (script) return { from: 'script', text: programText(script.text) };
  // The text up to the first node that is not text: what HTML left of the program.
  let before = '';
  let stop = null;
  for (const n of el.childNodes) {
    if (n.nodeType === 3 || n.nodeType === 4) before += n.data;
    else if (n.nodeType === 1 || n.nodeType === 8) { stop = n; break; }
  }
  if (!stop) return before.trim() ? { from: 'text', text: programText(before) } : { from: 'none', text: '' };
  const lead = before.replace(/^(?:[ \t]*\n)+/, '');
  const lines = lead.split('\n');
  const line = lines.length;
  const tail = lines[line - 1].trim();
  const after = tail ? `after “${tail.length > 30 ? `…${tail.slice(-30)}` : tail}”` : 'at its start';
  const read = stop.nodeType === 1
    ? `read “<${stop.localName}” as the start of a tag (a “<” followed by a letter), so that the rest of the program, up to the next “>”, is not text, and what follows it on the page may be inside the widget, hidden`
    : 'read “<!” or “<?” as the start of a comment, so that the rest of the program, up to the next “>”, is not text';
  return { from: 'text', text: programText(before), cut: `HTML cut this program on line ${line}, ${after}: it ${read}. ${HOW_TO_FIX}` };
}

// A program fetched by src, kept per URL for the page's life (Reset does not fetch it again).
const fetched = new Map();
function fetchProgram(url) {
  if (!fetched.has(url)) {
    const p = fetch(url).then(async (r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ''}`);
      return r.text();
    });
    p.catch(() => fetched.delete(url));
    fetched.set(url, p);
  }
  return fetched.get(url);
}

export class QifProgram extends QifChannel {
  static attributes = {
    src: { blank: 'default', read: (text) => text.trim() },
    ...MEASURE_ATTRIBUTES,
    editable: flag,
    ...partsAttributes(PROGRAM_PARTS),
    ...COMMON_ATTRIBUTES,
  };

  connectedCallback() {
    // The program is the element's content: editing it re-renders, as changing an attribute does.
    if (!this.textObserver) {
      this.textObserver = new MutationObserver(() => this.queueRender());
      this.textObserver.observe(this, { childList: true, characterData: true, subtree: true });
    }
    // While the page is being parsed the content may be half there: wait for the whole of it
    // (the parser would otherwise show a cut program, or none, for a moment).
    if (document.readyState === 'loading') {
      this.followPage();
      if (!this.waitingForParse) {
        this.waitingForParse = true;
        document.addEventListener('DOMContentLoaded', () => { this.waitingForParse = false; this.queueRender(); }, { once: true });
      }
      return;
    }
    super.connectedCallback();
  }

  queueRender() {
    if (this.waitingForParse) return;
    super.queueRender();
  }

  // The channel needs the exact module: in the one-file bundle too, the measures' exact fractions
  // then cost nothing more.
  exactInBundle = true;

  defaultTitle() {
    return 'Program and its channel';
  }

  configure(v) {
    this.preset = null;
    this.source = null;
    const given = programOf(this);
    let src = null;
    if (v.src) {
      if (given.from !== 'none') fail('src', `the program is given twice, by src and by the element's ${given.from === 'script' ? '<script type="text/qif"> child' : 'text'}: keep one`);
      src = new URL(v.src, this.baseURI).href;
    }
    return {
      program: given.text, cut: given.cut ?? null, src, editable: v.editable, parts: partsShown(PROGRAM_PARTS, v),
      measures: v.measures, alpha: v.alpha, gainClass: v.gainClass, G: null, gainTexts: null,
      // The channel is never edited in its grid (it is the program's); Reset restores the program.
      readonly: true, resettable: v.editable,
    };
  }

  build(cfg) {
    this.editor = null;
    this.codeBox = h('div', { class: 'program-box', 'data-part': 'source' });
    if (cfg.editable) {
      this.editor = codeEditor({
        value: cfg.program,
        label: 'Program (editable)',
        testid: 'program',
        onInput: () => {
          this.markEdited();
          this.setState('loading');
          for (const el of this.root.querySelectorAll('.results [data-status]')) el.dataset.status = 'pending';
          this.schedule();
        },
      });
      replace(this.codeBox, this.editor.el);
    } else this.showCode(cfg.program);
    this.channelBox = h('div', { 'data-testid': 'channel' }, h('span', { class: 'value' }, '…'));
    const results = this.resultsList(cfg);
    results.dataset.part = 'measures';
    const channel = h('div', { class: 'program-channel', 'data-part': 'channel' }, h('div', { class: 'mat-caption' }, 'Rows: secrets · columns: observables · C(x, y) = p(y | x)'), this.channelBox);
    for (const part of [this.codeBox, channel, results]) part.hidden = !cfg.parts.has(part.dataset.part);
    return h('div', { class: 'w-body program-body' }, this.codeBox, channel, results);
  }

  // The program, read-only, with its line numbers.
  showCode(program) {
    const lines = program.split('\n');
    replace(this.codeBox, h('pre', { class: 'program', 'data-testid': 'program' },
      ...lines.map((l, i) => h('span', { class: 'line', 'data-line': String(i + 1) }, h('span', { class: 'ln', 'aria-hidden': 'true' }, String(i + 1).padStart(String(lines.length).length), ' '), `${l}\n`))));
  }

  markLine(line) {
    if (this.editor) {
      this.editor.mark(Number.isInteger(line) ? [line] : []);
      return;
    }
    for (const el of this.root.querySelectorAll('.program .line.at')) el.classList.remove('at');
    if (Number.isInteger(line)) this.root.querySelector(`.program .line[data-line="${line}"]`)?.classList.add('at');
  }

  // The program now: the reader's (editable), else the author's (fetched for src).
  async currentProgram(cfg) {
    if (this.editor && this.edited) return this.editor.value();
    if (!cfg.src) return cfg.program;
    let text;
    try {
      text = programText(await fetchProgram(cfg.src));
    } catch (e) {
      const fromDisk = location.protocol === 'file:' ? ' (a page opened from disk cannot fetch files: put the program in a <script type="text/qif"> child instead)' : '';
      throw new Error(`src: could not load the program ${cfg.src}: ${e && e.message ? e.message : e}${fromDisk}`);
    }
    if (this.editor) {
      if (!this.edited) this.editor.setValue(text);
    } else this.showCode(text);
    return text;
  }

  async computeNow(job, cfg) {
    this.markLine(null);
    // A cut program is refused until the reader of an editable one has rewritten it.
    if (cfg.cut && !(this.editor && this.edited)) return this.refuse(cfg.cut);
    let program;
    try {
      program = await this.currentProgram(cfg);
    } catch (e) {
      return this.refuse(e.message);
    }
    if (!program.trim()) {
      return this.refuse(this.editor && this.edited
        ? 'the program is empty: write one, or press Reset for the page\'s'
        : 'write the program inside the element, in a script child: <qif-program><script type="text/qif">secret … observe …</script></qif-program>, or give its file with src');
    }
    const [r] = await job.run([{ ns: 'program', fn: 'channel', args: [program] }]);
    if (!r.ok) {
      // The message names the place once ("line 4, column 12: …"); the line is marked in the code.
      this.markLine(r.line);
      return this.refuse(String(r.error).replace(/^program\.channel:\s*/, ''));
    }
    const { secrets, observations, exact } = r.value;
    if (secrets.length > MAX_SIDE || observations.length > MAX_SIDE) {
      return this.refuse(`the program's channel has ${secrets.length} secrets and ${observations.length} observations; a widget shows at most ${MAX_SIDE} of each (the page's program editor takes larger ones)`);
    }
    const table = { texts: exact.channel, prior: exact.prior, rowLabels: secrets, colLabels: observations };
    replace(this.channelBox, matrixGrid({ ...table, readonly: true, label: 'C', idPrefix: 'cell' }).view);
    this.showError('');
    const values = await super.computeNow(job, { ...cfg, ...table });
    return values && { ...values, program, secrets, observations, channel: exact.channel, prior: exact.prior };
  }

  // A program that does not run: said once, nothing computed.
  refuse(message) {
    replace(this.channelBox, h('span', { class: 'value' }, '—'));
    for (const { dd } of Object.values(this.rows)) {
      dd.dataset.status = 'error';
      replace(dd, h('span', { class: 'value' }, '—'));
    }
    this.exactInputs = null;
    this.showError(message);
    this.setState('error');
    return null;
  }
}
