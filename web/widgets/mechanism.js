// widgets/mechanism.js — <qif-mechanism>: an ε slider, the mechanism's heat map, its utility
// (binary gain, optimal guess, docs/mathematics.md#optimal-mechanisms), the bound of Theorem 6.1
// for the graph, and the mechanism's actual ε on the graph.
//
//   <qif-mechanism graph="clique|path|cycle|grid|{n,edges}" n="6" epsilon="ln 2"
//                  mechanism="optimal|truncatedGeometric|randomizedResponse|exponential"
//                  prior="[…]" max-epsilon="3" caption="…">

import { engine } from '../engine/index.js';
import { formatNumber, formatFull } from '../lib/numbers.js';
import { WIDGET_MECHANISMS, mechanismCall, matrixOf, utilityCall, scalingText } from '../lib/mechanism-plan.js';
import { heatmap } from '../lib/plot.js';
import { h, replace } from '../lib/dom.js';
import { readerMessage } from '../lib/row-names.js';
import { COMMON_ATTRIBUTES, MAX_SIDE, fail, short, parseNumber, parseVector, parseInteger } from './attributes.js';
import { QifWidget, numberNode, toRowsOf } from './base.js';

const MECHANISMS = {
  optimal: 'Optimal (linear program; Thm 6.2 where it applies)',
  truncatedGeometric: 'Truncated geometric',
  randomizedResponse: 'Randomized response',
  exponential: 'Exponential (the graph’s distance)',
};
const GRAPHS = ['clique', 'path', 'cycle', 'grid'];

// The graph attribute: a literal graph {graph: {literal}, graphName, n}, or the name of a family
// ({name}) whose size the n attribute gives.
function readGraph(text, name) {
  const t = text.trim();
  if (t.startsWith('{')) {
    let g;
    try {
      g = JSON.parse(t);
    } catch (e) {
      fail(name, `is not valid JSON (${e.message})`);
    }
    if (!g || !Number.isInteger(g.n) || g.n < 1 || g.n > MAX_SIDE) fail(name, `needs an integer n between 1 and ${MAX_SIDE}`);
    if (!Array.isArray(g.edges) || !g.edges.every((e) => Array.isArray(e) && e.length === 2 && e.every((v) => Number.isInteger(v) && v >= 0 && v < g.n))) {
      fail(name, `edges must be pairs [a, b] of vertices 0…${g.n - 1}`);
    }
    return { graph: { literal: { n: g.n, edges: g.edges.map(([a, b]) => [a, b]) } }, graphName: `graph on ${g.n} vertices`, n: g.n };
  }
  if (!GRAPHS.includes(t)) fail(name, `unknown graph “${short(t)}”; choose one of ${GRAPHS.join(', ')} or give {"n": …, "edges": [[a, b], …]}`);
  return { name: t };
}

// The n attribute for a family of graphs: {graph: {fn, args}, graphName, n}.
function sizedGraph(family, text, name) {
  const t = text.trim();
  if (family === 'grid') {
    // \u00D7 is the times sign (escaped in regular expressions: tests/node/ascii.test.mjs).
    const m = /^(\d+)\s*[x\u00D7*]\s*(\d+)$/.exec(t);
    if (!m) fail(name, 'for a grid, give width×height, e.g. n="3x3"');
    const w = parseInteger(name, m[1], 1, MAX_SIDE);
    const ht = parseInteger(name, m[2], 1, MAX_SIDE);
    if (w * ht > MAX_SIDE) fail(name, `the grid has ${w * ht} vertices; widgets take at most ${MAX_SIDE}`);
    return { graph: { fn: 'grid', args: [w, ht] }, graphName: `${w}×${ht} grid`, n: w * ht };
  }
  const n = parseInteger(name, t, 2, MAX_SIDE);
  return { graph: { fn: family, args: [n] }, graphName: `${family} of ${n}`, n };
}

// The graph the attributes describe, or null while they are wrong.
const describedGraph = (cfg) => (cfg.graph?.literal ? cfg.graph : cfg.sized) ?? null;

export class QifMechanism extends QifWidget {
  // Read in this order: each attribute may be checked against those above it.
  static attributes = {
    mechanism: {
      default: 'optimal',
      read: (text, _cfg, name) => {
        const t = text.trim();
        if (!Object.hasOwn(MECHANISMS, t)) fail(name, `unknown mechanism “${short(t)}”; choose one of ${Object.keys(MECHANISMS).join(', ')}`);
        return t;
      },
    },
    graph: { default: { name: 'clique' }, read: (text, _cfg, name) => readGraph(text, name) },
    // Ignored for a literal graph; not read while the graph is wrong.
    n: {
      key: 'sized',
      default: (cfg) => (cfg.graph?.name ? sizedGraph(cfg.graph.name, '6', 'n') : null),
      read: (text, cfg, name) => (cfg.graph?.name ? sizedGraph(cfg.graph.name, text, name) : null),
    },
    'max-epsilon': {
      key: 'maxEps',
      default: 3,
      fallback: 3,
      read: (text, _cfg, name) => {
        const v = parseNumber(name, text);
        if (!(v > 0 && v <= 50)) fail(name, 'must be in (0, 50]');
        return v;
      },
    },
    epsilon: {
      blank: 'default',
      default: Math.log(2),
      read: (text, _cfg, name) => {
        const v = parseNumber(name, text);
        if (!(v > 0)) fail(name, `ε must be positive, got ${v}`);
        if (v > 50) fail(name, 'ε above 50 leaves no privacy to speak of; use a smaller value');
        return v;
      },
    },
    // null: the uniform prior.
    prior: {
      blank: 'default',
      read: (text, cfg, name) => {
        if (text.trim() === 'uniform') return null;
        const p = parseVector(name, text).values;
        const n = describedGraph(cfg)?.n ?? null;
        if (n !== null && p.length !== n) fail(name, `has ${p.length} entries; the graph has ${n} vertices`);
        return p;
      },
    },
    ...COMMON_ATTRIBUTES,
  };

  defaultTitle() {
    return `${MECHANISMS[this.config?.mechanism ?? this.getAttribute('mechanism')] ?? 'Mechanism'} on a ${this.config?.graphName ?? 'graph'}`;
  }

  configure(v) {
    this.source = 'Alvim et al. (ICALP 2011) §6';
    const g = describedGraph(v) ?? {};
    const n = g.n ?? null;
    const uniform = v.prior === null;
    const prior = uniform ? (n === null ? null : new Array(n).fill(1 / n)) : v.prior;
    return { mechanism: v.mechanism, graph: g.graph, graphName: g.graphName, n, epsilon: v.epsilon, maxEps: Math.max(v.maxEps, v.epsilon ?? 0), prior, uniform };
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
    this.plotBox = h('div', { class: 'plot-box', 'data-testid': 'heatmap' });
    this.results = h('dl', { class: 'results', 'data-testid': 'results' });
    this.warn = h('p', { class: 'w-warn', 'data-testid': 'warning', 'aria-live': 'polite' });
    this.scaling = h('p', { class: 'w-note', 'data-testid': 'scaling' });
    return h('div', {},
      h('div', { class: 'controls' }, h('label', { for: id }, 'Privacy ε'), slider, out),
      h('div', { class: 'w-body' }, this.plotBox, h('div', {}, this.results, this.warn,
        this.scaling,
        h('p', { class: 'w-note long' }, `Every mechanism is offered at ε on this graph (as on the page): the truncated geometric one runs at ε/s per step, s the longest edge |a − b| of the graph, and the exponential one measures the graph’s shortest-path distance, so that they are ε-DP on it. Utility: expected binary gain of the best guess from the output, ${cfg.uniform ? 'uniform prior' : 'the given prior'}. The bound (Thm 6.1) holds for the uniform prior.`))));
  }

  async computeNow(job, cfg) {
    const eps = this.epsilon;
    const g = cfg.graph.literal ? cfg.graph.literal : await this.graphOf(job, cfg);
    // The same plan as the page's "Design a mechanism" section: same inputs, same matrix.
    const key = WIDGET_MECHANISMS[cfg.mechanism];
    const distances = key === 'exp' ? await job.call(engine.plan.graph.distances(g)) : null;
    const [mr, br] = await job.run([
      mechanismCall(key, { graph: g, epsilon: eps, prior: cfg.prior, distances }),
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
