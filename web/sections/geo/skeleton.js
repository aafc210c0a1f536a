// sections/geo/skeleton.js — the DOM of the "Location privacy" section: its fields, the table of
// the mechanisms and the cards of the maps (buildSkeleton, returning the elements the view fills
// in), and one map of cells coloured by a distribution (mapFigure).
import { h } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { formulaSlot, sourceRefs } from '../../lib/formulas.js';
import * as S from './state.js';
import { axisTicks, cellColour } from './export.js';

export const ids = (k) => `geo-${k}`;
export const MECHS = [
  { key: 'lp', name: 'Optimal mechanism (linear program)', formula: 'min Σ_x π_x Σ_z K[x][z] d(x,z) over ε·d-private K', tex: String.raw`\min_{K\ \varepsilon d\text{-private}} \textstyle\sum_x \pi_x \sum_z K[x][z]\, d(x,z)` },
  { key: 'exp', name: 'Exponential (planar-Laplace-like)', formula: 'K[x][z] ∝ e^(−ε′ d(x,z)/2)', tex: String.raw`K[x][z] \propto e^{-\varepsilon' d(x,z)/2}` },
  { key: 'geo', name: 'Geometric on each axis', formula: 'K = G_x ⊗ G_y, truncated geometric with ε/√2 per axis', tex: String.raw`K = G_{\varepsilon/\sqrt2} \otimes G_{\varepsilon/\sqrt2}` },
];

export function buildSkeleton(root) {
  const e = { msgs: {}, rows: {} };
  const field = (key, label, hint, attrs = {}) => {
    e[key] = h('input', { type: 'text', class: 'num', id: ids(key), 'data-testid': ids(key), autocomplete: 'off', spellcheck: 'false', inputmode: 'decimal', ...attrs });
    e.msgs[key] = h('span', { class: 'msg', 'data-testid': ids(`${key}-msg`), role: 'alert' });
    return h('div', { class: 'geo-field' }, h('label', { for: ids(key), text: label }), e[key], hint ? h('span', { class: 'hint', text: hint }) : null, e.msgs[key]);
  };
  e.density = h('select', { id: ids('density'), 'data-testid': ids('density') }, S.DENSITIES.map((d) => h('option', { value: d.id, text: d.label })));
  e.summary = h('p', { class: 'hint', 'data-testid': ids('summary') });

  const body = h('tbody');
  for (const m of MECHS) {
    const loss = h('output', { class: 'value', 'data-testid': ids(`loss-${m.key}`) });
    const remapped = h('output', { class: 'value', 'data-testid': ids(`remapped-${m.key}`) });
    const eps = h('output', { class: 'value', 'data-testid': ids(`eps-${m.key}`) });
    const verdict = h('span', { class: 'geo-verdict', 'data-testid': ids(`verdict-${m.key}`) });
    const detail = h('span', { class: 'geo-detail', 'data-testid': ids(`detail-${m.key}`) });
    const tr = h('tr', { 'data-testid': ids(`row-${m.key}`), dataset: { status: 'pending' } },
      h('th', { scope: 'row' }, h('span', { class: 'r-name', text: m.name }), formulaSlot(m.formula, m.tex), detail),
      h('td', {}, loss), h('td', {}, remapped), h('td', {}, eps, h('br'), verdict));
    e.rows[m.key] = { tr, loss, remapped, eps, verdict, detail };
    body.append(tr);
  }
  e.progress = h('div', { class: 'geo-progress', 'data-testid': ids('lp-progress'), role: 'status' });
  e.comparison = h('p', { class: 'results-note', 'data-testid': ids('comparison') });
  e.gap = h('p', { class: 'geo-gap', 'data-testid': ids('gap'), 'aria-live': 'polite' });
  e.guaranteed = h('output', { class: 'value', 'data-testid': ids('guaranteed') });
  e.guaranteedNote = h('p', { class: 'hint', 'data-testid': ids('guaranteed-note') });
  const mechCard = h('section', { class: 'card', 'aria-labelledby': ids('mechs-title') },
    e.mechHead = h('div', { class: 'card-head' }, h('h3', { id: ids('mechs-title'), text: 'Expected distance at the same guarantee' }), sourceRefs('Bordenabe et al. (CCS 2014)')),
    h('p', { class: 'hint', text: 'Each mechanism reports a cell z instead of the true cell x and is ε·d-private: K[x][z] ≤ e^(ε d(x,x′)) K[x′][z] for every x, x′, z. Expected distance Σ π_x K[x][z] d(x,z) in cell sides (lower is better); the next column lets an observer who knows π move each report to the cell of least expected distance (a remapping, which keeps the privacy). The last column is the smallest ε each matrix actually satisfies, computed from the matrix.' }),
    e.progress, e.comparison, e.gap,
    h('div', { class: 'table-wrap' }, h('table', { class: 'geo-table', 'data-testid': ids('table') },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Mechanism' }), h('th', { scope: 'col', text: 'Expected distance' }), h('th', { scope: 'col', text: 'After remapping' }), h('th', { scope: 'col', text: 'Smallest ε per unit (measured on the matrix)', title: 'The smallest ε that the matrix as computed satisfies, from its entries: max over x, x′, z of ln(K[x][z] / K[x′][z]) / d(x, x′)' }))),
      body)),
    h('p', { class: 'geo-guarantee', title: 'What the linear program’s constraints ask of its solution; the table’s last column is what the solution returned satisfies, measured from its entries' }, 'Guaranteed ε of the optimal mechanism (asked by the program’s constraints): ', e.guaranteed, ' per unit of distance'),
    e.guaranteedNote);

  e.cellName = h('output', { class: 'geo-cell-name', 'data-testid': ids('cell') });
  e.maps = h('div', { class: 'geo-maps', 'data-testid': ids('maps') });
  const mapCard = h('section', { class: 'card', 'aria-labelledby': ids('maps-title') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('maps-title'), text: 'Where each mechanism reports' })),
    h('p', { class: 'hint' }, 'Click a cell of any map to choose the true cell: the other maps show the probability of each reported cell (darker is more probable, each map on its own scale). Showing ', e.cellName, '.'),
    e.maps);

  const inputs = h('div', { class: 'inputs' },
    h('div', { class: 'card', 'aria-labelledby': ids('map-title') },
      h('h3', { id: ids('map-title'), text: 'Map and privacy' }),
      h('div', { class: 'geo-fields' },
        h('div', { class: 'geo-field geo-wide' }, h('label', { for: ids('density'), text: 'Density of people' }), e.density),
        field('side', 'Side of the map (cells)', `${S.MIN_SIDE}–${S.MAX_SIDE}`, { inputmode: 'numeric' }),
        field('eps', 'ε per cell side (nats)', 'a number, a fraction or ln x'),
        field('spanner', 'Spanner δ (optional)', 'δ ≥ 1; empty: every pair')),
      e.summary,
      h('p', { class: 'hint', 'data-testid': ids('limits'), text: `The optimal mechanism is computed by itself up to ${S.AUTO_CELLS} cells with every pair constrained, and up to ${Math.sqrt(S.AUTO_CELLS_SPANNER)} × ${Math.sqrt(S.AUTO_CELLS_SPANNER)} with a spanner of δ ≥ ${S.AUTO_SPANNER_DELTA}; larger maps, up to ${S.MAX_SIDE} × ${S.MAX_SIDE}, wait for “Compute” and show the solver’s progress and certified gap, with Cancel. Above ${S.AUTO_OTHERS_SIDE} × ${S.AUTO_OTHERS_SIDE} the other mechanisms wait for it too, and an empty δ means δ = ${S.DEFAULT_SPANNER}.` })));
  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'geo-title', text: 'Location privacy' }),
      h('p', { text: 'Report a nearby cell instead of where you are, so that cells at distance d stay e^(εd)-indistinguishable (geo-indistinguishability). The optimal mechanism for a density of people, found by linear programming, against the exponential and geometric mechanisms at the same guarantee.' })),
    h('div', { class: 'layout' }, inputs, h('div', { class: 'results' }, mechCard, mapCard)));
  return e;
}

/**
 * One map: the cells coloured by `values` (white 0, blue the map's largest value), with x along
 * the top and y down the left in cells (ticks from export.js's axisTicks), a colour scale from 0
 * to the largest value, a bar one cell side long (the unit of distance), and a button that saves
 * the map as SVG (the view answers it: data-action "map-svg").
 */
export function mapFigure(key, title, values, side, chosen) {
  const top = Math.max(1e-300, ...values);
  // Colours through the CSSOM: the page's policy forbids inline style attributes.
  const grid = h('div', { class: 'geo-map', role: 'grid', 'aria-label': title, 'data-testid': ids(`map-${key}`) });
  for (let y = 0; y < side; y++) {
    const tr = h('div', { class: 'geo-map-row', role: 'row' });
    for (let x = 0; x < side; x++) {
      const i = y * side + x;
      const b = h('button', {
        type: 'button', role: 'gridcell', class: i === chosen ? 'geo-cell chosen' : 'geo-cell',
        dataset: { cell: String(i), value: String(values[i]) },
        'aria-label': `cell (${x}, ${y}): ${formatNumber(values[i])}`, title: `cell (${x}, ${y}): ${formatFull(values[i])}`,
      });
      // White → the page's accent blue, as the heat maps of lib/plot.js.
      b.style.background = cellColour(values[i] / top);
      tr.append(b);
    }
    grid.append(tr);
  }
  const ticks = new Set(axisTicks(side));
  const axis = (dir) => h('div', { class: `geo-axis geo-axis-${dir}`, 'aria-hidden': 'true', 'data-testid': ids(`axis-${dir}-${key}`) },
    Array.from({ length: side }, (_, k) => h('span', { text: ticks.has(k) ? String(k) : '' })));
  const max = Math.max(0, ...values);
  const legend = h('div', { class: 'geo-legend', 'data-testid': ids(`legend-${key}`), title: 'colour scale of this map: white is 0, the darkest blue its largest value' },
    h('span', { class: 'geo-legend-max', dataset: { value: String(max) }, text: formatNumber(max, 3) }),
    h('span', { class: 'geo-legend-bar', 'aria-hidden': 'true' }),
    h('span', { class: 'geo-legend-min', text: '0' }));
  const length = h('div', { class: 'geo-length', 'data-testid': ids(`length-${key}`) },
    h('span', { class: 'geo-length-bar', 'aria-hidden': 'true' }), h('span', { text: '1 cell side' }));
  const frame = h('div', { class: 'geo-map-frame' },
    h('span', { class: 'geo-axis-name geo-axis-name-x', 'aria-hidden': 'true', text: 'x →' }),
    axis('x'), h('span', { class: 'geo-axis-name geo-axis-name-y', 'aria-hidden': 'true', text: 'y ↓' }), axis('y'), grid, legend, length);
  frame.style.setProperty('--side', String(side));
  return h('figure', { class: 'geo-fig', dataset: { map: key } }, frame, h('figcaption', { text: title }),
    h('div', { class: 'plot-actions' }, h('button', { type: 'button', class: 'small', dataset: { action: 'map-svg', map: key }, 'data-testid': ids(`map-svg-${key}`), 'aria-label': `Save the map “${title}” as SVG`, text: 'SVG' })));
}
