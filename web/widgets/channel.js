// widgets/channel.js — <qif-channel>: a small editable channel (rows secrets, columns observables)
// with a prior; the chosen measures (keys of lib/measures.js — the API's names —,
// docs/mathematics.md#entropies-and-leakage) update live as cells change. When every entry is a
// decimal or a fraction, the rational-valued measures get their exact fraction from the engine's
// exact mode once the decimals are shown.
//
//   <qif-channel matrix="[[…]]" prior="[…]" preset="id" measures="key,key" alpha="2" gain="[[…]]"
//                gain-class="oneSpanningVulnerability|oneSpanningGain" row-labels="…" col-labels="…"
//                caption="…" readonly>

import { Superseded } from '../engine/pipeline.js';
import { presets, presetById } from '../lib/presets.js';
import { MEASURES, PANELS, PANEL_KEYS, GAIN_CLASSES, DEFAULT_GAIN_CLASS, measureKey, exactPlan, exactResults } from '../lib/measures.js';
import { parseNumber as readNumber } from '../input/number.js';
import { rationalVector, rationalMatrix } from '../input/grid.js';
import { exactPrefix, exactTitle } from '../lib/format.js';
import { h, replace } from '../lib/dom.js';
import { onceEach } from '../lib/row-names.js';
import { COMMON_ATTRIBUTES, fail, flag, oneOf, short, parseNumber, parseMatrix, parseVector, parseLabelList } from './attributes.js';
import { QifWidget, numberNode } from './base.js';
import { matrixGrid } from './matrix-grid.js';

// In the one-file bundle (scripts/widgets-bundle.mjs defines __qifBundle).
const IN_BUNDLE = typeof __qifBundle !== 'undefined';

const DEFAULT_MEASURES = ['shannonEntropy', 'mutualInformation', 'minEntropyLeakage', 'posteriorBayesVulnerability'];

const rowsOf = (cfg) => (cfg.texts ? cfg.texts.length : null);
const colsOf = (cfg) => (cfg.texts ? cfg.texts[0].length : null);
const uniformTexts = (n) => new Array(n).fill(`1/${n}`);
const given = (el, name) => (el.getAttribute(name) ?? '').trim() !== '';

// The chosen measures and what they depend on; <qif-program> has them too.
export const MEASURE_ATTRIBUTES = {
  measures: {
    blank: 'default',
    default: DEFAULT_MEASURES,
    read: (text, _cfg, name) => {
      const list = text.split(/[\s,]+/).filter(Boolean);
      const unknown = list.filter((k) => measureKey(k) === null);
      if (unknown.length) fail(name, `unknown measure${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `“${short(k)}”`).join(', ')}; known: ${Object.keys(MEASURES).join(', ')}`);
      return list;
    },
  },
  'gain-class': { key: 'gainClass', blank: 'default', default: DEFAULT_GAIN_CLASS, read: oneOf(GAIN_CLASSES.map((g) => g.id)) },
  alpha: {
    blank: 'default',
    default: 2,
    read: (text, _cfg, name) => {
      const a = parseNumber(name, text, { infinity: true });
      if (!(a >= 0)) fail(name, 'the order of a Rényi entropy must be ≥ 0');
      return a;
    },
  },
};

export class QifChannel extends QifWidget {
  // Read in this order: each attribute may be checked against those above it.
  static attributes = {
    preset: {
      blank: 'default',
      read: (text, _cfg, name) => presetById(text.trim()) ?? fail(name, `unknown preset “${short(text)}”; known: ${presets.map((q) => q.id).join(', ')}`),
    },
    // The entries as typed: the matrix given, else the preset's.
    matrix: {
      key: 'texts',
      read: (text, _cfg, name) => parseMatrix(name, text).texts,
      default: (cfg, el) => {
        if (cfg.preset) return cfg.preset.channel.map((r) => r.slice());
        if (!given(el, 'preset')) fail('matrix', 'give a channel matrix (matrix="[[…], …]") or a preset (preset="password-iterations")');
        return null;
      },
    },
    // The sizes are known only from a readable matrix; the checks that need them wait for one.
    'row-labels': { key: 'rowLabels', blank: 'default', read: (text, cfg, name) => parseLabelList(name, text, rowsOf(cfg)) },
    'col-labels': { key: 'colLabels', blank: 'default', read: (text, cfg, name) => parseLabelList(name, text, colsOf(cfg)) },
    prior: {
      blank: 'default',
      read: (text, cfg, name) => {
        if (text.trim() === 'uniform') return cfg.texts ? uniformTexts(rowsOf(cfg)) : null;
        const p = parseVector(name, text).texts;
        const n = rowsOf(cfg);
        if (n !== null && p.length !== n) fail(name, `has ${p.length} entries; the channel has ${n} rows (secrets)`);
        return p;
      },
      default: (cfg) => (cfg.texts ? uniformTexts(rowsOf(cfg)) : null),
    },
    ...MEASURE_ATTRIBUTES,
    gain: {
      blank: 'default',
      read: (text, cfg, name) => {
        const g = parseMatrix(name, text);
        const n = rowsOf(cfg);
        if (n !== null && g.values[0].length !== n) fail(name, `has ${g.values[0].length} columns; it needs one per secret (${n})`);
        return g;
      },
    },
    readonly: flag,
    ...COMMON_ATTRIBUTES,
  };

  defaultTitle() {
    return this.preset ? this.preset.name : 'Channel and leakage';
  }

  configure(v) {
    const p = v.preset;
    this.preset = p;
    this.source = p ? p.source : null;
    const { texts } = v;
    let rowLabels = null;
    let colLabels = null;
    if (texts) {
      const n = texts.length;
      const m = texts[0].length;
      // A preset's labels stay with its matrix, or with a matrix of the same size.
      const presetLabels = p && (!this.hasAttribute('matrix') || (p.secrets.length === n && p.observables.length === m));
      rowLabels = v.rowLabels ?? (presetLabels ? p.secrets.slice() : Array.from({ length: n }, (_, i) => `x${i + 1}`));
      colLabels = v.colLabels ?? (presetLabels ? p.observables.slice() : Array.from({ length: m }, (_, j) => `y${j + 1}`));
    }
    return {
      texts, prior: v.prior, rowLabels, colLabels, measures: v.measures, alpha: v.alpha,
      G: v.gain ? v.gain.values : null, gainTexts: v.gain ? v.gain.texts : null, gainClass: v.gainClass, readonly: v.readonly,
    };
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
    const list = this.resultsList(cfg);
    return h('div', { class: 'w-body' },
      h('div', {}, h('div', { class: 'mat-caption' }, 'Rows: secrets · columns: observables · C(x, y) = p(y | x)'), cfg.readonly ? readonlyTable(cfg) : this.grid.view),
      list);
  }

  // The list of the chosen measures, each pending until computed (this.rows: their boxes).
  resultsList(cfg) {
    this.rows = {};
    const list = h('dl', { class: 'results', 'data-testid': 'results' });
    for (const key of cfg.measures) {
      const d = MEASURES[measureKey(key)];
      const dd = h('dd', { 'data-status': 'pending', 'data-testid': `result-${key}` }, h('span', { class: 'value' }, '…'));
      list.append(h('dt', {}, d.name, h('span', { class: 'f' }, d.formula)), dd);
      this.rows[key] = { dd, unit: d.unit };
    }
    return list;
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
    // Shown once however many measures it stopped: without the function's name, the measures that
    // refuse the same channel give the same message.
    this.showError(onceEach(errors, labelled));
    return values;
  }

  // The exact fractions, after the decimals: "2/7 ≈ 0.2857" for each rational-valued measure
  // shown, from qif.exact (loaded on first use). Where exact arithmetic refuses (too large, a row
  // that sums to 1 only approximately), the decimals stay alone.
  // The one-file bundle leaves them out (its exact module, qif-widgets-exact.js, is downloaded only
  // for what needs it: <qif-program>, which sets exactInBundle).
  async afterUpdate(job, cfg) {
    if (IN_BUNDLE && !this.exactInBundle) return;
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


function readonlyTable(cfg) {
  return matrixGrid({ texts: cfg.texts, prior: cfg.prior, rowLabels: cfg.rowLabels, colLabels: cfg.colLabels, readonly: true, label: 'C', idPrefix: 'cell' }).view;
}
