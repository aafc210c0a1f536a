// sections/geo/view.js — the "Location privacy" section on the page: a map of cells with a
// density of where people are, and three mechanisms that report a cell instead of the true one,
// all ε·d-private for the Euclidean distance d between cell centres (geo-indistinguishability,
// Bordenabe et al. (CCS 2014)):
//   - the optimal mechanism: the least expected distance, by the engine's linear program
//     (optionally on a greedy δ-spanner of the cells, which guarantees ε·t/δ, t its dilation);
//   - the exponential mechanism ∝ e^(−ε′d/2), the discrete cousin of the planar Laplace: its
//     rows are normalized, which costs privacy, so ε′ is calibrated until the matrix's smallest
//     ε·d factor is the target ε (checked by the engine, never assumed);
//   - a geometric mechanism: a truncated geometric on each axis with ε/√2, private for the
//     Euclidean distance because |Δx| + |Δy| ≤ √2·d (its smallest ε is checked too).
// Their expected distances are shown side by side, and each mechanism's distribution of
// reported cells is drawn for the true cell the user clicks on.
//
// The logic (what is computed when, the progress, Cancel) is controller.js's; this file draws its
// state and forwards what people do to it. root.dataset.busy is "true" while anything is
// scheduled or running; root.dataset.started once the section, in view, has started.

import { h, replace, addStylesheet } from '../../lib/dom.js';
import { formatNumber } from '../../lib/numbers.js';
import { readingOf, setReading } from '../../lib/readings.js';
import * as S from './state.js';
import { ids, MECHS, buildSkeleton, mapFigure } from './skeleton.js';
import { exportMenu, download } from '../../lib/export.js';
import { MECH_NAMES } from './export.js';
import { createGeoController, lpSize, comparisonOf } from './controller.js';

// A number with its reading (lib/readings.js, by key) in the title and data-reading.
function withReading(el, x, key) {
  setReading(el, x, readingOf(key, x));
  return el;
}
function setNumber(el, x, key) {
  el.textContent = formatNumber(x);
  el.dataset.value = String(x);
  setReading(el, x, readingOf(key, x));
}
const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/** A gap, however small (formatNumber writes 0 below 1e-12, where a certified gap usually is). */
function formatGap(g) {
  if (!Number.isFinite(g) || g === 0 || Math.abs(g) >= 1e-12) return formatNumber(g, 2);
  const [m, ex] = g.toExponential(1).split('e');
  return `${m.replace(/\.0$/, '')}×10${[...ex.replace(/^\+/, '')].map((c) => SUPERSCRIPT[c]).join('')}`;
}
function clearNumber(el, text = '—') {
  el.textContent = text;
  el.title = '';
  delete el.dataset.value;
  delete el.dataset.reading;
}
const runButton = (text) => h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-run'), text });

export function mount(root, { engine }) {
  addStylesheet('sections/geo/style.css', 'geo');
  const e = buildSkeleton(root);
  const ctl = createGeoController({ engine });

  // ------------------------------------------------------------ DOM events → the controller
  e.density.addEventListener('change', () => ctl.setInput('density', e.density.value));
  e.side.addEventListener('input', () => ctl.setInput('side', e.side.value));
  e.eps.addEventListener('input', () => ctl.setInput('epsilon', e.eps.value));
  e.spanner.addEventListener('input', () => ctl.setInput('spanner', e.spanner.value));
  // Export, as in the other sections: the table, a mechanism with its cells named, each map.
  const which = h('select', { class: 'small geo-export-which', 'data-testid': ids('export-which'), 'aria-label': 'Which mechanism to export' },
    MECHS.map((m) => h('option', { value: m.key, text: MECH_NAMES[m.key] })));
  e.mechHead.append(h('div', { class: 'geo-exports' },
    exportMenu(() => ctl.tableData(), { what: 'table of the mechanisms', testid: ids('export-table'), label: 'Export table', file: 'location-mechanisms' }),
    which,
    exportMenu(() => ctl.mechanismData(which.value), { what: 'mechanism', testid: ids('export-mechanism'), label: 'Export K', file: 'location-mechanism' })));

  root.addEventListener('click', (ev) => {
    const act = ev.target.closest?.('button[data-action]')?.dataset.action;
    if (act === 'map-svg') {
      const svg = ctl.mapSVG(ev.target.closest('button').dataset.map);
      if (svg) download(new Blob([svg.text], { type: 'image/svg+xml' }), svg.file);
      return;
    }
    if (act === 'cancel-lp') { ctl.cancel(); return; }
    if (act === 'run-lp') { ctl.compute(); return; }
    const cell = ev.target.closest?.('[data-cell]');
    if (cell && root.contains(cell)) ctl.chooseCell(Number(cell.dataset.cell));
  });

  // ------------------------------------------------------------ the controller's state → DOM
  function writeInputs({ density, side, epsilon, spanner }) {
    // Only what differs: rewriting the field being typed in would move its caret.
    for (const [el, v] of [[e.density, density], [e.side, side], [e.eps, epsilon], [e.spanner, spanner]]) if (el.value !== v) el.value = v;
  }

  function setMsg(key, text) {
    e.msgs[key].textContent = text || '';
    const inp = e[key];
    inp.classList.toggle('invalid', Boolean(text));
    if (text) inp.setAttribute('aria-invalid', 'true'); else inp.removeAttribute('aria-invalid');
  }

  function renderRow(key, r) {
    const row = e.rows[key];
    row.tr.dataset.status = r.status;
    if (r.blank === 'error') {
      clearNumber(row.loss, 'error');
      clearNumber(row.remapped);
      clearNumber(row.eps);
      row.verdict.textContent = '';
      row.detail.textContent = r.detail;
      return;
    }
    row.detail.textContent = r.detail;
    if (r.blank) {
      clearNumber(row.loss, r.blank);
      clearNumber(row.remapped, r.blank);
      clearNumber(row.eps, r.blank);
      row.verdict.textContent = '';
      return;
    }
    const { m } = r;
    if (!m) return;
    setNumber(row.loss, m.loss, 'geo.loss');
    if (Number.isFinite(m.remapped)) setNumber(row.remapped, m.remapped, 'geo.remapped'); else clearNumber(row.remapped);
    if (m.epsilonPrime !== undefined) row.detail.dataset.epsilonPrime = String(m.epsilonPrime);
    if (m.ms !== undefined) row.detail.dataset.ms = String(m.ms);
    if (r.epsError) { clearNumber(row.eps, 'error'); row.verdict.textContent = r.epsError; return; }
    setNumber(row.eps, m.epsilon, key === 'lp' ? 'geo.epsilonLP' : 'geo.epsilon');
    const over = m.epsilon > r.target * (1 + 1e-9) + 1e-12;
    row.verdict.textContent = over ? `> ε = ${formatNumber(r.target)}: not ε·d-private` : `≤ ε = ${formatNumber(r.target)}: ε·d-private`;
    row.verdict.dataset.ok = String(!over);
    row.tr.dataset.private = String(!over);
  }

  const statNumber = (key, x, text) => {
    const el = h('output', { class: 'value', 'data-testid': ids(`lp-${key}`), dataset: { value: String(x) }, text });
    setReading(el, x, readingOf(`geo.progress.${key}`, x));
    return el;
  };

  // The solver's numbers on the progress line: the pivots of every phase, the best mechanism
  // found so far, the best bound proven and their gap (none of which goes back).
  function renderStats(el, s, cur) {
    if (!s) { replace(el); return; }
    if (s.kind === 'simplex') {
      el.textContent = `simplex, ${s.iteration} iterations (the simplex proves no bound before it ends)`;
      return;
    }
    const how = s.phase === 'output generation' ? 'the program restricted to the cells in use' : 'the master program';
    const bound = Number.isFinite(s.bound);
    replace(el,
      `${s.pivots.toLocaleString('en')} simplex pivots so far (now ${how}). Best mechanism found: expected distance `, statNumber('value', s.value, formatNumber(s.value, 8)),
      ` cell sides; proven lower bound on the optimum${cur.spanner === null ? '' : ' (of the program on the spanner)'}: `,
      bound ? statNumber('bound', s.bound, formatNumber(s.bound, 8)) : `— (it comes after the first pricing round, which prices all ${cur.n} reported cells)`,
      bound ? ' cell sides' : '',
      '; certified gap ', Number.isFinite(s.gap) ? statNumber('gap', s.gap, formatGap(s.gap)) : '—', Number.isFinite(s.gap) ? ' cell sides.' : '.');
  }

  let shownStats = null;
  function renderProgress(p, cur) {
    if (!p) {
      replace(e.progress);
      delete e.progress.dataset.state;
      return;
    }
    e.progress.dataset.state = p.state;
    if (p.state === 'running') {
      // The line (spinner, Cancel, text) stays while it runs: only its text and numbers change.
      let line = e.progress.querySelector('[data-role="text"]');
      if (!line) {
        replace(e.progress, h('div', { class: 'cap-stats progress' },
          h('span', { class: 'spinner', 'aria-hidden': 'true' }),
          h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-lp' }, 'data-testid': ids('lp-cancel'), text: 'Cancel' }),
          line = h('span', { dataset: { role: 'text' } }),
          h('span', { class: 'geo-lp-stats', dataset: { role: 'stats' }, 'data-testid': ids('lp-stats') })));
        shownStats = null;
      }
      line.textContent = p.text;
      if (p.stats !== shownStats) renderStats(e.progress.querySelector('[data-role="stats"]'), p.stats, cur);
      shownStats = p.stats;
      return;
    }
    if (p.state === 'waiting') {
      const others = p.othersWaiting ? ` On a map this large the exponential and geometric mechanisms wait for it too: checking a matrix’s ε compares every pair of cells at every reported cell (${formatNumber(cur.n ** 3, 2)} steps).` : '';
      replace(e.progress, h('p', { class: 'muted' },
        `The linear program (${lpSize(cur)}) may take from seconds to many minutes here; it runs on request, with its progress and a Cancel button.${others} `,
        runButton(others ? 'Compute the mechanisms' : 'Compute the optimal mechanism')));
      return;
    }
    // Cancelled or failed: the last numbers the solver reported, and Compute again.
    const q = p.last;
    const last = q && Number.isFinite(q.gap)
      ? ` When it stopped, the best mechanism the solver had found had expected distance ${formatNumber(q.value, 8)} cell sides, within ${formatGap(q.gap)} of the optimum (proven: no mechanism ${cur.spanner === null ? 'that is ε·d-private' : 'meeting the spanner’s constraints'} does better than ${formatNumber(q.bound, 8)}); the engine stops a computation by restarting its worker, so that mechanism is not kept.`
      : '';
    replace(e.progress, h('p', { class: 'muted', 'data-testid': ids('lp-stopped') },
      p.state === 'cancelled' ? `The computation was cancelled.${last} ` : `The linear program failed: ${p.message} `, runButton('Compute again')));
  }

  function renderSummary(cur) {
    e.summary.textContent = `${cur.side} × ${cur.side} = ${cur.n} cells, one unit of distance per cell side; the diameter is ${formatNumber(Math.SQRT2 * (cur.side - 1))}. ε = ${formatNumber(cur.eps)} per unit: two cells at distance d are e^(εd)-indistinguishable.`;
    if (cur.spannerDefaulted) {
      e.summary.textContent += ` Every pair of cells constrained would be about ${formatNumber((cur.n * cur.n * cur.n) / 2, 2)} privacy constraints (one per pair and reported cell), beyond what a browser solves: above ${S.EVERY_PAIR_MAX_SIDE} × ${S.EVERY_PAIR_MAX_SIDE} the optimal mechanism uses a spanner with δ = ${S.DEFAULT_SPANNER} unless you type another δ.`;
    }
    e.summary.dataset.spanner = cur.spannerDefaulted ? 'default' : cur.spannerTyped ? 'typed' : 'none';
  }

  // The optimum's certificate (its expected distance minus the lower bound the solver's dual
  // solution proves on every mechanism meeting the program's constraints), its guaranteed ε and
  // the comparison with the others; empty until it is computed.
  function renderOptimum(cur) {
    const m = cur.mech.lp;
    if (!m) {
      clearNumber(e.guaranteed);
      e.guaranteedNote.textContent = '';
      replace(e.gap);
      e.comparison.textContent = '';
      return;
    }
    const ok = m.status === 'optimal';
    const of = cur.spanner === null ? 'every ε·d-private mechanism' : 'every mechanism meeting the spanner’s constraints (ε/δ on its edges)';
    replace(e.gap,
      h('span', { class: 'geo-status', 'data-testid': ids('lp-status'), dataset: { ok: String(ok) }, text: m.status }),
      ': certified gap (expected distance − proven lower bound) = ',
      withReading(h('output', { class: 'value', 'data-testid': ids('gap-value'), dataset: { value: String(m.gap) }, text: formatGap(m.gap) }), m.gap, 'geo.gap'),
      ' cell sides.',
      h('span', { class: 'hint geo-gap-meaning', text: ` The solver’s dual solution proves that ${of} has an expected distance of at least ${formatNumber(m.bound, 10)}, so this mechanism is at most the gap from the optimum${ok ? '' : ' — it was not verified optimal'}.` }));
    setNumber(e.guaranteed, m.guaranteedEpsilon, 'geo.guaranteed');
    e.guaranteedNote.textContent = m.spanner
      ? `With the spanner (${m.spanner.pairs} pairs of cells, dilation t = ${formatNumber(m.spanner.dilation)} ≤ δ = ${formatNumber(cur.spanner)}), the program asks ε/δ on the spanner’s edges only, which guarantees ε·t/δ on every pair — a smaller (safer) ε than asked, for a slightly larger expected distance. ${cur.spannerDefaulted ? `δ = ${S.DEFAULT_SPANNER} is the default above ${S.EVERY_PAIR_MAX_SIDE} × ${S.EVERY_PAIR_MAX_SIDE}.` : `δ = ${formatNumber(cur.spanner)} as typed; clear the δ field to constrain every pair (the exact optimum).`}`
      : 'Every pair of cells is constrained: the mechanism is the exact optimum at ε.';
    e.guaranteedNote.textContent += ' Two ε for one mechanism: this guarantee is what the program’s constraints ask; the table’s “measured” ε is the smallest the matrix the solver returned satisfies, computed from its entries — above the guarantee only by what its floating-point solution misses a constraint by.';
    const others = comparisonOf(cur);
    if (!others.length) { e.comparison.textContent = ''; return; }
    const parts = [];
    others.forEach(({ key: k, loss, percentMore: pct }, i) => {
      if (i) parts.push(' and ');
      parts.push(`${k === 'exp' ? 'the exponential' : 'the geometric'} ${formatNumber(loss)}`);
      if (Number.isFinite(pct)) parts.push(' (', h('span', { 'data-testid': ids(`more-${k}`), dataset: { value: String(pct) }, text: `${formatNumber(pct, 3)} % more` }), ')');
    });
    replace(e.comparison, `The ${cur.spanner === null ? 'optimal' : 'spanner-optimal'} mechanism reports a cell at ${formatNumber(m.loss)} cell sides from the true one on average, against `, ...parts, '.');
  }

  function renderMaps(cur) {
    const { cell } = cur;
    e.cellName.textContent = `true cell ${S.cellName(cell, cur.side)} (prior ${formatNumber(cur.prior[cell])})`;
    const figs = [mapFigure('prior', 'Density π: where people are (click a cell)', cur.prior, cur.side, cell)];
    for (const m of MECHS) {
      const x = cur.mech[m.key];
      if (x) figs.push(mapFigure(m.key, `${m.key === 'lp' ? 'Optimal' : m.key === 'exp' ? 'Exponential' : 'Geometric'}: reported cell given ${S.cellName(cell, cur.side)}`, x.K[cell], cur.side, cell));
    }
    replace(e.maps, figs);
  }

  function render(s, changed) {
    const has = (k) => changed.includes(k);
    if (has('busy')) root.dataset.busy = String(s.busy);
    if (has('started') && s.started) root.dataset.started = 'true';
    if (has('inputs')) writeInputs(s.inputs);
    if (has('errors')) { setMsg('side', s.errors.side); setMsg('eps', s.errors.eps); setMsg('spanner', s.errors.spanner); }
    if (has('results') && s.results) { renderSummary(s.results); renderMaps(s.results); renderOptimum(s.results); }
    if (has('rows')) for (const k of Object.keys(e.rows)) renderRow(k, s.rows[k]);
    if (has('progress')) renderProgress(s.progress, s.results);
  }
  ctl.subscribe(render);
  writeInputs(ctl.get().inputs);
  root.dataset.busy = 'false';
  if (typeof IntersectionObserver === 'function') {
    const io = new IntersectionObserver((entries) => {
      if (entries.some((x) => x.isIntersecting)) { io.disconnect(); ctl.start(); }
    }, { rootMargin: '200px' });
    io.observe(root);
  } else ctl.start();

  return { getState: ctl.getState, setState: ctl.setState, getResults: ctl.getResults };
}
