// product.js — what makes the page a product rather than a set of sections: formulas rendered
// with KaTeX and linked to their paper sections, "Export" menus on the matrices and result
// tables, SVG/PNG buttons on every plot, and the state of each section in a shareable URL.
// It decorates what app.js and sections.js build, so they need not know about any of it.

import * as channel from './app.js';
import { sections } from './sections.js';
import { exportMenu, observePlots } from './export.js';
import { typesetFormulas } from './formulas.js';
import { installSharing, checkChannelState } from './share.js';

const $ = (sel, root = document) => root.querySelector(sel);

// ---------------------------------------------------------------- exports

function channelMatrix() {
  const s = channel.getState();
  return { kind: 'matrix', rows: s.cells, rowLabels: s.secrets, colLabels: s.observables };
}

function gainMatrix() {
  const s = channel.getState();
  return { kind: 'matrix', rows: s.gain, rowLabels: s.gainLabels, colLabels: s.secrets };
}

function priorVector() {
  const s = channel.getState();
  return { kind: 'matrix', rows: s.prior.map((p) => [p]), rowLabels: s.secrets, colLabels: ['π'] };
}

// Every measure shown, with its exact fraction when there is one.
function resultsTable() {
  const rows = [];
  for (const r of document.querySelectorAll('#results .result[data-key]')) {
    if (r.dataset.status !== 'ok') continue;
    const value = r.querySelector('output.value');
    if (!value || value.dataset.value === undefined) continue;
    const exact = r.querySelector('.exact')?.dataset.value ?? '';
    rows.push([r.querySelector('.r-name')?.textContent ?? r.dataset.key, Number(value.dataset.value), exact, r.querySelector('.unit')?.textContent ?? '']);
  }
  return { kind: 'table', colLabels: ['measure', 'value', 'exact', 'unit'], rows };
}

function hyperTable() {
  const t = $('[data-testid="hyper-table"]');
  if (!t) return null;
  const colLabels = [...t.tHead.rows[0].cells].map((c) => c.textContent);
  const rows = [...t.tBodies[0].rows].map((tr) => [tr.cells[0].textContent, ...[...tr.cells].slice(1).map((td) => Number(td.dataset.value))]);
  return { kind: 'table', colLabels, rows };
}

function addTo(container, menu) {
  if (container) container.append(menu);
}

addTo($('#matrix-title')?.parentElement, exportMenu(channelMatrix, { what: 'channel matrix', testid: 'export-channel', label: 'Export C' }));
addTo($('#matrix-title')?.parentElement, exportMenu(priorVector, { what: 'prior', testid: 'export-prior', label: 'Export π' }));
addTo($('#gain-title')?.parentElement, exportMenu(gainMatrix, { what: 'gain matrix', testid: 'export-gain', label: 'Export g' }));
{
  const results = $('#results');
  if (results) {
    const bar = document.createElement('div');
    bar.className = 'results-bar';
    const title = document.createElement('span');
    title.className = 'results-bar-title';
    title.textContent = 'Results';
    bar.append(title, exportMenu(resultsTable, { what: 'results table', testid: 'export-results' }));
    results.prepend(bar);
  }
  const hyperHead = $('#group-hyper')?.parentElement;
  addTo(hyperHead, exportMenu(hyperTable, { what: 'hyper-distribution table', testid: 'export-hyper' }));
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
  const main = document.getElementById('main');
  const mo = new MutationObserver(() => {
    if (main.dataset.busy === 'false') {
      mo.disconnect();
      start();
    }
  });
  mo.observe(main, { attributes: true, attributeFilter: ['data-busy'] });
  setTimeout(start, 1000);
}

// ---------------------------------------------------------------- sharing

installSharing({
  channel: { getState: channel.getState, setState: channel.setState, check: checkChannelState },
  ...sections,
});
document.documentElement.dataset.product = 'ready';
