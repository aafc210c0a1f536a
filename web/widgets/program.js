// widgets/program.js — <qif-program>: a program in the toolkit's language (docs/program-language.md) as the
// element's text content; the widget shows the program's exact channel (rows: the secret's values,
// columns: what is observed, entries exact fractions) and the chosen measures on that channel and
// the program's prior, as <qif-channel> does (it is one: the same measures, the same exact values).
//
//   <qif-program measures="key,key" gain-class="…" alpha="2" caption="…">
//     secret guess in bits(3)
//     …
//     observe out
//   </qif-program>
//
// The channel comes from qif.program.channel in the engine's worker (the exact module, loaded on
// first use). The text is dedented first, so that the line and column of an error are those of the
// program as shown in the widget, whatever the indentation of the page's HTML.

import { h, replace } from '../lib/dom.js';
import { COMMON_ATTRIBUTES, MAX_SIDE } from './attributes.js';
import { QifChannel, MEASURE_ATTRIBUTES } from './channel.js';
import { matrixGrid } from './matrix-grid.js';

/** The program of an element's text: blank lines around it and the common indentation removed. */
export function programText(text) {
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)[0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
}

export class QifProgram extends QifChannel {
  static attributes = { ...MEASURE_ATTRIBUTES, ...COMMON_ATTRIBUTES };

  connectedCallback() {
    // The program is the text content: editing it re-renders, as changing an attribute does.
    if (!this.textObserver) {
      this.textObserver = new MutationObserver(() => this.queueRender());
      this.textObserver.observe(this, { childList: true, characterData: true, subtree: true });
    }
    super.connectedCallback();
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
    return { program: programText(this.textContent), measures: v.measures, alpha: v.alpha, gainClass: v.gainClass, G: null, gainTexts: null, readonly: true };
  }

  build(cfg) {
    const lines = cfg.program.split('\n');
    const code = h('pre', { class: 'program', 'data-testid': 'program' },
      ...lines.map((l, i) => h('span', { class: 'line', 'data-line': String(i + 1) }, h('span', { class: 'ln', 'aria-hidden': 'true' }, String(i + 1).padStart(String(lines.length).length), ' '), `${l}\n`)));
    this.channelBox = h('div', { 'data-testid': 'channel' }, h('span', { class: 'value' }, '…'));
    return h('div', { class: 'w-body' },
      h('div', {}, code, h('div', { class: 'mat-caption' }, 'Rows: secrets · columns: observables · C(x, y) = p(y | x)'), this.channelBox),
      this.resultsList(cfg));
  }

  async computeNow(job, cfg) {
    for (const el of this.root.querySelectorAll('.program .line.at')) el.classList.remove('at');
    if (!cfg.program.trim()) return this.refuse('write the program as the text of the element: <qif-program>secret … observe …</qif-program>');
    const [r] = await job.run([{ ns: 'program', fn: 'channel', args: [cfg.program] }]);
    if (!r.ok) {
      // The message names the place once ("line 4, column 12: …"); the line is marked in the code.
      if (Number.isInteger(r.line)) this.root.querySelector(`.program .line[data-line="${r.line}"]`)?.classList.add('at');
      return this.refuse(String(r.error).replace(/^program\.channel:\s*/, ''));
    }
    const { secrets, observations, exact } = r.value;
    if (secrets.length > MAX_SIDE || observations.length > MAX_SIDE) {
      return this.refuse(`the program's channel has ${secrets.length} secrets and ${observations.length} observations; a widget shows at most ${MAX_SIDE} of each (the page's program editor takes larger ones)`);
    }
    const table = { texts: exact.channel, prior: exact.prior, rowLabels: secrets, colLabels: observations };
    replace(this.channelBox, matrixGrid({ ...table, readonly: true, label: 'C', idPrefix: 'cell' }).view);
    const values = await super.computeNow(job, { ...cfg, ...table });
    return values && { ...values, secrets, observations, channel: exact.channel, prior: exact.prior };
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
