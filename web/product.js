// product.js — what makes the page a product rather than a set of sections: formulas rendered
// with KaTeX and linked to their paper sections, "Export" menus on the matrices and result
// tables, SVG/PNG buttons on every plot, and the state of each section in a shareable URL.
// It decorates what the sections build (sections.js), so they need not know about any of it.

import { sections } from './sections.js';
import { exportMenu, observePlots } from './export.js';
import { typesetFormulas } from './formulas.js';
import { installSharing } from './share.js';

const $ = (sel, root = document) => root.querySelector(sel);

// ---------------------------------------------------------------- exports
// They read the section's data (getResults), never the numbers back out of the page.

const channel = sections.channel;

function channelMatrix() {
  const s = channel.getResults().inputs;
  return { kind: 'matrix', rows: s.cells, rowLabels: s.secrets, colLabels: s.observables };
}

function gainMatrix() {
  const s = channel.getResults().inputs;
  return { kind: 'matrix', rows: s.gain, rowLabels: s.gainLabels, colLabels: s.secrets };
}

function priorVector() {
  const s = channel.getResults().inputs;
  return { kind: 'matrix', rows: s.prior.map((p) => [p]), rowLabels: s.secrets, colLabels: ['π'] };
}

// Every measure shown, with its exact fraction when there is one.
function resultsTable() {
  const rows = channel.getResults().measures.map((r) => [r.name, r.value, r.exact, r.unit]);
  return { kind: 'table', colLabels: ['measure', 'value', 'exact', 'unit'], rows };
}

function hyperTable() {
  const { hyper, inputs } = channel.getResults();
  if (!hyper) return null;
  const colLabels = ['outputs y', 'outer p(y)', ...inputs.secrets.map((x) => `p(${x}|y)`)];
  const rows = hyper.inners.map((inner, k) => [hyper.labels[k]?.length ? hyper.labels[k].join(', ') : `inner ${k + 1}`, hyper.outer[k], ...inner]);
  return { kind: 'table', colLabels, rows };
}

function addTo(container, menu) {
  if (container) container.append(menu);
}

if (channel) {
  addTo($('#matrix-title')?.parentElement, exportMenu(channelMatrix, { what: 'channel matrix', testid: 'export-channel', label: 'Export C' }));
  addTo($('#matrix-title')?.parentElement, exportMenu(priorVector, { what: 'prior', testid: 'export-prior', label: 'Export π' }));
  addTo($('#gain-title')?.parentElement, exportMenu(gainMatrix, { what: 'gain matrix', testid: 'export-gain', label: 'Export g' }));
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
  addTo($('#group-hyper')?.parentElement, exportMenu(hyperTable, { what: 'hyper-distribution table', testid: 'export-hyper' }));
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
