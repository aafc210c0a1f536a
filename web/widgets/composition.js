// widgets/composition.js — <qif-composition>: the privacy of several mechanisms run on the same data,
// for a lesson: ε at a given δ (or δ at a given ε) with its certified interval and the method that
// gave it, the naive, advanced and Rényi bounds beside it, and a small privacy curve δ(ε).
//
//   <qif-composition events="laplace epsilon=0.1 x10; gaussian sigma=1 x100" delta="1e-5"></qif-composition>
//   <qif-composition preset="dpsgd" size="compact"></qif-composition>
//   <qif-composition epsilon="1">
//     <script type="application/json">[{"mechanism": "randomizedResponse", "epsilon": 1.0986, "count": 10}]</script>
//   </qif-composition>
//
// The events are written in the grammar of lib/accounting-events.js (docs/widgets.md), or given as
// the API's event objects in a <script type="application/json"> child (a list, or {events: […]});
// the attribute wins when both are there. Without either, the preset (default: ten counting
// queries). The numbers come from qif.accounting in the page's one engine worker (the second
// module, loaded on first use).

import { h, replace } from '../lib/dom.js';
import { formatNumber } from '../lib/numbers.js';
import { linePlot, PALETTE } from '../lib/plot.js';
import { parseNumber as readNumber } from '../input/number.js';
import { PRESETS, parseEvents, checkDraft, draftOfEvent } from '../lib/accounting-events.js';
import { COMMON_ATTRIBUTES, fail, short, parseNumber } from './attributes.js';
import { QifWidget, numberNode } from './base.js';

/** The δ of the small curve's bound points. */
const CURVE_DELTAS = [1e-1, 1e-2, 1e-4, 1e-6, 1e-8];
const METHOD_NAMES = {
  'gaussian-dp': 'exact (Gaussian DP)',
  'optimal-composition': 'exact (optimal composition)',
  enumeration: 'exact (enumerated outputs)',
  pld: 'privacy loss distribution',
};

// The events of a text in the grammar, or of the API's event objects: engine events, or fail(name, …).
function eventsOf(drafts, name) {
  const events = [];
  drafts.forEach((d, i) => {
    const r = checkDraft(d);
    if (r.errors) fail(name, `${drafts.length > 1 ? `event ${i + 1}: ` : ''}${r.errors.map((e) => e.message).join('; ')}`);
    events.push(r.event);
  });
  return events;
}

// The <script type="application/json"> child: its events, null when there is none, or fail().
function scriptEvents(el) {
  const s = [...el.children].find((c) => c.localName === 'script' && /^application\/json$/i.test(c.type));
  if (!s) return null;
  let v;
  try {
    v = JSON.parse(s.textContent);
  } catch (e) {
    fail('script', `its JSON cannot be read (${e.message})`);
  }
  const list = Array.isArray(v) ? v : v && Array.isArray(v.events) ? v.events : null;
  if (!list || !list.length) fail('script', 'give a non-empty list of events, or {"events": [...]}');
  const drafts = list.map((ev, i) => {
    const r = draftOfEvent(ev);
    if (r.error) fail('script', `event ${i + 1}: ${r.error}`);
    return r.draft;
  });
  return eventsOf(drafts, 'script');
}

export class QifComposition extends QifWidget {
  // Read in this order: each attribute may be checked against those above it.
  static attributes = {
    preset: {
      blank: 'default',
      default: 'counting',
      read: (text, _cfg, name) => {
        const t = text.trim();
        if (!Object.hasOwn(PRESETS, t)) fail(name, `unknown preset “${short(t)}”; choose one of ${Object.keys(PRESETS).join(', ')}`);
        return t;
      },
    },
    // null: the script child's events, or the preset's.
    events: {
      blank: 'default',
      read: (text, _cfg, name) => {
        const r = parseEvents(text);
        if (r.error) fail(name, r.error);
        return eventsOf(r.drafts, name);
      },
    },
    delta: {
      blank: 'default',
      read: (text, _cfg, name) => {
        const v = parseNumber(name, text);
        if (!(v >= 0 && v < 1)) fail(name, `δ must be in [0, 1), got ${v}`);
        return v;
      },
    },
    epsilon: {
      blank: 'default',
      read: (text, cfg, name) => {
        if (cfg.delta !== null && cfg.delta !== undefined) fail(name, 'give delta (to ask for ε) or epsilon (to ask for δ), not both');
        const v = parseNumber(name, text);
        if (!(v >= 0)) fail(name, `ε must be ≥ 0, got ${v}`);
        return v;
      },
    },
    ...COMMON_ATTRIBUTES,
  };

  connectedCallback() {
    // The script child may come after the element is connected (the parser), or change.
    if (!this.childObserver) {
      this.childObserver = new MutationObserver(() => this.queueRender());
      this.childObserver.observe(this, { childList: true, characterData: true, subtree: true });
    }
    super.connectedCallback();
  }

  defaultTitle() {
    if (this.config?.fromPreset) return PRESETS[this.config.fromPreset].label;
    return 'Privacy of a composition';
  }

  configure(v, each) {
    this.source = 'Mathematics §14';
    const fromScript = v.events === null ? each(() => scriptEvents(this)) : null;
    let events = v.events ?? fromScript;
    let fromPreset = null;
    if (!events && v.events === null && v.preset) {
      fromPreset = v.preset;
      events = eventsOf(PRESETS[v.preset].drafts(), 'preset');
    }
    const askDelta = v.epsilon !== null && v.epsilon !== undefined;
    const presetDelta = readNumber(PRESETS[v.preset ?? 'counting'].delta).value;
    return { events, fromPreset, ask: askDelta ? 'delta' : 'epsilon', value: askDelta ? v.epsilon : v.delta ?? presetDelta, readonly: true };
  }

  build(cfg) {
    this.answer = h('div', { class: 'cmp-w-answer', 'data-testid': 'answer', 'data-status': 'pending' }, h('span', { class: 'value' }, '…'));
    this.bounds = h('dl', { class: 'results', 'data-testid': 'results' });
    this.boundsNote = h('p', { class: 'w-note', 'data-testid': 'bounds-note' });
    this.plotBox = h('div', { class: 'plot-box cmp-w-plot', 'data-testid': 'curve' });
    return h('div', { class: 'w-body' },
      h('div', { class: 'cmp-w-numbers' }, this.answer, this.boundsNote, this.bounds,
        h('p', { class: 'w-note long' }, 'δ(ε): the smallest δ for which the composition is (ε, δ)-DP. The naive, advanced and Rényi bounds are guarantees too, looser than the privacy loss distribution (PLD).')),
      this.plotBox);
  }

  async computeNow(job, cfg) {
    const { events, ask, value } = cfg;
    const first = ask === 'epsilon'
      ? { ns: 'accounting', fn: 'epsilon', args: [events, { delta: value }] }
      : { ns: 'accounting', fn: 'delta', args: [events, { epsilon: value }] };
    const [ar] = await job.run([first]);
    if (!ar.ok) throw new Error(ar.error);
    const a = ar.value;
    const delta = ask === 'epsilon' ? value : a.delta;
    // An ε of null is ∞ (no finite ε reaches the δ).
    const main = ask === 'epsilon' ? a.epsilon ?? Infinity : a.delta;
    const sym = ask === 'epsilon' ? 'ε' : 'δ';
    replace(this.answer,
      h('p', { class: 'cmp-w-main' }, `${sym} = `, ...numberNode(main, 'value', ask === 'epsilon' ? 'nats' : ''),
        h('span', { class: 'unit' }, ask === 'epsilon' ? ` at δ = ${formatNumber(value)}` : ` at ε = ${formatNumber(value)}`)),
      Number.isFinite(main)
        ? h('p', { class: 'w-note', 'data-testid': 'interval' }, 'certified in [', h('span', { 'data-testid': 'lower', 'data-value': String(a.lower) }, formatNumber(a.lower)), ', ',
          h('span', { 'data-testid': 'upper', 'data-value': String(a.upper) }, formatNumber(a.upper)), '] · ', h('span', { 'data-testid': 'method', 'data-method': a.method }, METHOD_NAMES[a.method] ?? a.method))
        : h('p', { class: 'w-note', 'data-testid': 'interval' }, 'no finite ε reaches this δ'));
    this.answer.dataset.status = 'ok';
    // The bounds at the same δ, then the curve.
    const calls = [];
    if (delta > 0 && delta < 1) calls.push({ ns: 'accounting', fn: 'compare', args: [events, { delta }] });
    for (const d of CURVE_DELTAS) calls.push({ ns: 'accounting', fn: 'compare', args: [events, { delta: d }] });
    const res = await job.run(calls);
    const here = delta > 0 && delta < 1 ? res.shift() : null;
    const rows = [];
    const compare = here?.ok ? here.value : null;
    for (const [key, name] of [['rdp', 'Rényi DP'], ['advanced', 'advanced'], ['naive', 'naive Σεᵢ']]) {
      const c = compare?.[key];
      if (!c) continue;
      rows.push(h('dt', { title: c.guarantee }, name),
        h('dd', { 'data-testid': `result-${key}`, 'data-status': 'ok' }, numberNode(c.epsilon ?? Infinity, `value-${key}`, 'nats')));
    }
    replace(this.bounds, rows);
    this.boundsNote.textContent = rows.length ? `Upper bounds on ε at δ = ${formatNumber(delta)} (hover for what each guarantees):` : '';
    // The curve from the comparisons: the PLD's ε (or the exact one) and Rényi's at each δ. A
    // comparison the engine cannot compute (a grid too fine, at a very small δ) is left out.
    const sweep = res.map((r) => (r.ok ? r.value : null));
    const at = (key) => CURVE_DELTAS.map((d, i) => [key === 'pld' ? sweep[i]?.exact?.epsilon ?? sweep[i]?.pld?.epsilon : sweep[i]?.[key]?.epsilon, d]).filter(([e]) => Number.isFinite(e));
    const pld = at('pld');
    if (ask === 'epsilon' && Number.isFinite(a.epsilon) && delta > 0) pld.push([a.epsilon, delta]);
    pld.sort((p, q) => p[0] - q[0] || q[1] - p[1]);
    const series = [{ key: 'pld', name: 'δ(ε), PLD', points: pld, color: PALETTE[0], dots: true }];
    const rdp = at('rdp');
    if (rdp.length) series.push({ key: 'rdp', name: 'Rényi DP', points: rdp, color: PALETTE[1], dots: true });
    const hLines = delta > 0 ? [{ y: delta, label: `δ = ${formatNumber(delta)}` }] : [];
    if (pld.length) replace(this.plotBox, linePlot({ title: 'Privacy curve δ(ε) (δ on a log scale)', xLabel: 'ε (nats)', yLabel: 'δ', series, hLines, yLog: true, legend: 'bottom-left', width: 380, height: 250 }));
    else replace(this.plotBox);
    return {
      ask, value, method: a.method, lower: a.lower, upper: a.upper,
      [ask === 'epsilon' ? 'epsilon' : 'delta']: main,
      compare, curve: pld.map(([e, d]) => ({ epsilon: e, delta: d })),
    };
  }
}
