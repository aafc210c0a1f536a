// sections/observations/view.js — the "From observations" section: leakage estimated from samples
// of a black-box system (qif.estimate; leakiEst, Chothia et al. (CAV 2013), F-BLEAU, Cherubin et
// al. (S&P 2019), and the nearest-neighbour mutual information of Ross (PLoS ONE 2014)). The
// samples come from a CSV/TSV file (a secret column, then observation columns) read by the data
// worker, or are drawn from the channel and prior of the Channel section, whose exact values are
// then shown beside the estimates.
//
// The reading panel (controls.js) says how the observation columns were read — numbers compared by
// distance, or labels — and lets the user change it, choose k and bins, and swap the columns
// when the secret column looks like an observation. The calls are planned in plan.js; the
// estimates table (results.js) and the convergence plots (convergence.js) show what they return.
// Changing a choice estimates again from the samples read, without reading the file again.
//
// Nothing is computed on the page's thread but the counting the reading panel needs: the file is
// parsed in the data worker, every estimate in the engine's worker (one job, with progress and
// Cancel). What is computed, and when, is controller.js's: this file draws its store and forwards
// what people do to it.

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { dataWorker } from '../../engine/data-client.js';
import { parseNumber } from '../../input/number.js';
import { refLink } from '../../lib/formulas.js';
import * as S from './state.js';
import { readingPanel } from './controls.js';
import { estimatesView } from './results.js';
import { convergencePlots } from './convergence.js';
import { createObservationsController } from './controller.js';

/** The channel and prior of the Channel section, read from its inputs; or {error}. */
async function channelOfChannelSection() {
  const { sections } = await import('../../page/sections.js');
  const sec = sections.channel;
  if (!sec?.getResults) return { error: 'the Channel section is not loaded' };
  const { inputs } = sec.getResults();
  const C = [];
  for (let i = 0; i < inputs.cells.rows; i++) {
    const row = [];
    for (let j = 0; j < inputs.cells.cols; j++) row.push(inputs.cells.value(i, j));
    C.push(row);
  }
  const prior = inputs.prior.map((t) => parseNumber(t).value);
  if (prior.some((p) => !Number.isFinite(p)) || C.some((r) => r.some((v) => !Number.isFinite(v)))) {
    return { error: 'the Channel section has entries that are not numbers: fix them there first' };
  }
  return { C, prior, secrets: inputs.secrets, observables: inputs.observables };
}

export function mount(root, { engine, client }) {
  addStylesheet('sections/observations/style.css', 'observations');
  let version = '';
  client?.ready?.then((info) => { version = info?.version ?? ''; }, () => {});
  const ctl = createObservationsController({
    engine, channelSource: channelOfChannelSection, version: () => version,
    loadSamples: (file, options) => dataWorker.samples(file, options),
  });
  const state = ctl.model;

  const e = {
    n: h('input', { id: 'obs-n', class: 'num', inputmode: 'numeric', value: state.n, 'aria-describedby': 'obs-status' }),
    seed: h('input', { id: 'obs-seed', class: 'num', inputmode: 'numeric', value: state.seed }),
    draw: h('button', { type: 'button', 'data-testid': 'obs-draw' }, 'Draw and estimate'),
    file: h('input', { id: 'obs-file', type: 'file', accept: '.csv,.tsv,.txt,text/csv,text/tab-separated-values', 'data-testid': 'obs-file' }),
    cancel: h('button', { type: 'button', hidden: true, 'data-testid': 'obs-cancel' }, 'Cancel'),
    progress: h('progress', { max: 1, hidden: true }),
    status: h('p', { id: 'obs-status', class: 'obs-status', role: 'status', 'data-testid': 'obs-status' }),
    results: h('div', { 'data-testid': 'obs-results' }),
    plots: h('div', { class: 'obs-plots' }),
  };
  const panel = readingPanel({ state, onChange: () => ctl.again(), onSwap: () => ctl.swap() });
  replace(root,
    h('div', { class: 'section-head' }, h('h2', { id: 'observations-title' }, 'From observations')),
    h('p', {}, 'Leakage estimated from samples (secret, observation) of a system you can only run: mutual information and min-entropy leakage with 95% intervals and a zero-leakage test (leakiEst, ', refLink('Chothia et al. (CAV 2013)'), '), the Bayes risk by the frequentist, nearest-neighbour and k-NN rules (F-BLEAU, ', refLink('Cherubin et al. (S&P 2019)'), '), and for measurements such as timings the nearest-neighbour mutual information of Ross (2014). Draw samples from the channel of the Channel section to watch the estimates approach its exact values, or load your own. ',
      h('a', { href: 'docs/guides/estimating-leakage.html' }, 'What the numbers mean.')),
    h('div', { class: 'obs-source' },
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-n' }, 'Samples n'), e.n),
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-seed' }, 'Seed'), e.seed),
      e.draw,
      h('div', { class: 'obs-field' }, h('label', { for: 'obs-file' }, 'Or load a CSV/TSV file (secret, observation…; up to 10⁶ rows)'), e.file),
      e.cancel),
    e.progress, e.status, panel.element, e.results, e.plots);

  // ------------------------------------------------------------ DOM events → the controller
  e.n.addEventListener('input', () => ctl.setN(e.n.value));
  e.seed.addEventListener('input', () => ctl.setSeed(e.seed.value));
  e.draw.addEventListener('click', () => ctl.draw());
  e.file.addEventListener('change', () => ctl.loadFile(e.file.files?.[0] ?? null));
  e.cancel.addEventListener('click', () => ctl.cancel());

  // ------------------------------------------------------------ the controller's state → DOM
  ctl.subscribe((s, changed) => {
    const has = (k) => changed.includes(k);
    if (has('busy')) root.dataset.busy = String(s.busy);
    if (has('status')) { e.status.textContent = s.status.text; e.status.dataset.error = String(s.status.error); }
    if (has('progress')) {
      e.progress.hidden = s.progress === null;
      e.cancel.hidden = s.progress === null;
      if (s.progress !== null) e.progress.value = s.progress;
    }
    if (has('panel')) { if (s.panel) panel.show(s.panel); else panel.hide(); }
    if (has('shown')) {
      if (!s.shown) { replace(e.results); replace(e.plots); } else {
        const shown = s.shown.results;
        replace(e.results, ...estimatesView(shown, { names: s.shown.names, exportTable: () => S.resultsTable(shown, version), cite: S.citeLine(version) }));
        replace(e.plots, ...convergencePlots(shown));
      }
    }
    if (has('restored')) { e.n.value = state.n; e.seed.value = state.seed; panel.sync(); }
  });
  root.dataset.busy = 'false';

  return {
    getState: ctl.getState,
    setState: ctl.setState,
    check: ctl.check,
    getResults: ctl.getResults,
    /** For the tests: the results shown, as data. */
    shown: ctl.shown,
    /** Loads samples from text (as a file would be). */
    loadText: ctl.loadText,
  };
}
