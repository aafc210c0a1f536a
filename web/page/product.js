// page/product.js — what makes the page a product rather than a set of sections: formulas rendered
// with KaTeX and linked to their paper sections, "Export" menus (copy or save as CSV, TSV, JSON
// or LaTeX) on the matrices and result tables, SVG/PNG buttons on every plot, and the state of each section in a shareable URL.
// It decorates what the sections build (sections.js), so they need not know about any of it.

import { sections } from './sections.js';
import { exportMenu, observePlots } from '../lib/export.js';
import { typesetFormulas } from '../lib/formulas.js';
import { exactNumber } from '../lib/format.js';
import { installSharing } from './share.js';
import './section-nav.js';

const $ = (sel, root = document) => root.querySelector(sel);

// ---------------------------------------------------------------- exports
// They read the section's data (getResults), never the numbers back out of the page.

const channel = sections.channel;

// The channel as it is typed: values, and the texts of entries typed as fractions (1/3 is
// written \frac{1}{3} in LaTeX and as its nearest double in CSV).
function channelMatrix() {
  const s = channel.getResults().inputs;
  const M = s.cells;
  return { kind: 'matrix', block: { rows: M.rows, cols: M.cols, data: M.data, texts: M.texts }, rowLabels: s.secrets, colLabels: s.observables };
}

function gainMatrix() {
  const s = channel.getResults().inputs;
  if (s.gain) return { kind: 'matrix', rows: s.gain, rowLabels: s.gainLabels, colLabels: s.secrets };
  // An identity too large to write out in the page, written out here.
  const n = s.secrets.length;
  const data = new Float64Array(n * n);
  for (let x = 0; x < n; x++) data[x * n + x] = 1;
  return { kind: 'matrix', block: { rows: n, cols: n, data }, rowLabels: s.gainLabels, colLabels: s.secrets };
}

function priorVector() {
  const s = channel.getResults().inputs;
  return { kind: 'matrix', rows: s.prior.map((p) => [p]), rowLabels: s.secrets, colLabels: ['π'] };
}

// Every measure shown, with its exact value when the page knows it (the value column is then
// that exact value as the nearest double).
function resultsTable() {
  const rows = channel.getResults().measures.map((r) => [r.name, r.value, r.exact, r.unit]);
  return { kind: 'table', colLabels: ['measure', 'value', 'exact', 'unit'], rows };
}

// The hyper-distribution: one row per inner, its outer first; flat, so that a 2,000 × 2,000
// one is written without nested arrays. Values the page knows exactly are those exact values.
/**
 * Replaces each value of `data` within 1e-12 of one of the exact hyper's values (fraction
 * strings from the engine's exact mode) by that value's double: 5/16 is written 0.3125 even
 * when the decimal hyper has 0.31250000000000006. The exact hyper lists its posteriors in its
 * own order, so values are matched, not positions.
 */
function snapToExact(data, exact) {
  const values = [...exact.outer, ...exact.inners.flat()].map(exactNumber).filter(Number.isFinite).sort((a, b) => a - b);
  if (!values.length) return;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    let lo = 0;
    let hi = values.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[mid] < v) lo = mid + 1; else hi = mid;
    }
    for (const c of [values[lo], values[lo - 1]]) {
      if (c !== undefined && Math.abs(c - v) <= 1e-12) {
        data[i] = c;
        break;
      }
    }
  }
}

function hyperTable() {
  const { hyper, inputs } = channel.getResults();
  if (!hyper) return null;
  const { outer, inners } = hyper;
  const cols = inners.cols + 1;
  const data = new Float64Array(inners.rows * cols);
  for (let k = 0; k < inners.rows; k++) {
    data[k * cols] = outer[k];
    data.set(inners.data.subarray(k * inners.cols, (k + 1) * inners.cols), k * cols + 1);
  }
  if (hyper.exact) snapToExact(data, hyper.exact);
  return {
    kind: 'table',
    corner: 'outputs y',
    rowLabels: Array.from({ length: inners.rows }, (_, k) => (hyper.labels[k]?.length ? hyper.labels[k].join(', ') : `inner ${k + 1}`)),
    colLabels: ['outer p(y)', ...inputs.secrets.slice(0, inners.cols).map((x) => `p(${x}|y)`)],
    block: { rows: inners.rows, cols, data },
  };
}

function addTo(container, menu) {
  if (container) container.append(menu);
}

if (channel) {
  addTo($('#matrix-title')?.parentElement, exportMenu(channelMatrix, { what: 'channel matrix', testid: 'export-channel', label: 'Export C', file: 'channel' }));
  addTo($('#matrix-title')?.parentElement, exportMenu(priorVector, { what: 'prior', testid: 'export-prior', label: 'Export π', file: 'prior' }));
  addTo($('#gain-title')?.parentElement, exportMenu(gainMatrix, { what: 'gain matrix', testid: 'export-gain', label: 'Export g', file: 'gain' }));
  const results = $('#results');
  if (results) {
    const bar = document.createElement('div');
    bar.className = 'results-bar';
    const title = document.createElement('span');
    title.className = 'results-bar-title';
    title.textContent = 'Results';
    bar.append(title, exportMenu(resultsTable, { what: 'results table', testid: 'export-results', file: 'results' }));
    results.prepend(bar);
  }
  addTo($('#group-hyper')?.parentElement, exportMenu(hyperTable, { what: 'hyper-distribution table', testid: 'export-hyper', file: 'hyper' }));
}

observePlots(document.body);

// ---------------------------------------------------------------- formulas

// KaTeX comes after the first results are on screen (or at the latest in a second).
{
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    typesetFormulas(document.getElementById('main')).then(() => {
      document.documentElement.dataset.formulas = 'ready';
    });
  };
  const first = document.getElementById('channel');
  const mo = new MutationObserver(() => {
    if (first.dataset.busy === 'false') {
      mo.disconnect();
      start();
    }
  });
  mo.observe(first, { attributes: true, attributeFilter: ['data-busy'] });
  setTimeout(start, 1000);
}

// ---------------------------------------------------------------- sharing

installSharing(sections);
document.documentElement.dataset.product = 'ready';
