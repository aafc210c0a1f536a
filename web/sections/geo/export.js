// sections/geo/export.js — what the "Location privacy" section exports, as data and text: a
// mechanism as a matrix whose rows and columns are named by their cells ("(x, y)"), the table of
// the mechanisms, and a map as a standalone SVG picture with its axes, its colour scale and a
// bar of one cell side. The formats (CSV, TSV, JSON, LaTeX) are lib/export-formats.js's, and the
// Export menus lib/export.js's, as in the other sections. Pure (no DOM): tests/node runs it.

import { cellName } from './state.js';

export const MECH_NAMES = { lp: 'optimal', exp: 'exponential', geo: 'geometric' };

/** The names of the cells of a side × side map, row-major: "(0, 0)", "(1, 0)", … */
export function cellLabels(side) {
  return Array.from({ length: side * side }, (_, i) => cellName(i, side));
}

/**
 * A mechanism K (rows: true cells, columns: reported cells) in export-formats.js's shape, or
 * null before it is computed.
 */
export function mechanismData(cur, key) {
  const m = cur?.mech?.[key];
  if (!m) return null;
  const labels = cellLabels(cur.side);
  return { kind: 'matrix', what: `${MECH_NAMES[key]} mechanism`, corner: 'true \\ reported', rowLabels: labels, colLabels: labels, rows: m.K.map((r) => r.slice()) };
}

/** The table of the mechanisms as shown: one row per mechanism computed. */
export function tableData(cur) {
  if (!cur) return null;
  const rows = [];
  const names = [];
  for (const key of ['lp', 'exp', 'geo']) {
    const m = cur.mech[key];
    if (!m) continue;
    names.push(`${MECH_NAMES[key]} mechanism`);
    rows.push([m.loss, m.remapped, m.epsilon, key === 'lp' ? m.guaranteedEpsilon ?? '' : '', key === 'exp' ? m.epsilonPrime ?? '' : '']);
  }
  if (!rows.length) return null;
  return {
    kind: 'table', what: 'mechanisms', corner: 'mechanism',
    colLabels: ['expected distance (cell sides)', 'after remapping (cell sides)', 'smallest ε per unit (measured)', 'guaranteed ε per unit', 'ε′ of the exponential'],
    rowLabels: names, rows,
  };
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** White → the page's accent blue, as the map on the page (skeleton.js mapFigure). */
export function cellColour(t) {
  const u = Math.max(0, Math.min(1, t));
  return `rgb(${Math.round(255 - u * 224)}, ${Math.round(255 - u * 160)}, ${Math.round(255 - u * 64)})`;
}

/** The ticks of an axis of `side` cells: 0, every `step`, and the last. */
export function axisTicks(side) {
  const step = side <= 10 ? 1 : side <= 20 ? 5 : 10;
  const ticks = [];
  for (let k = 0; k < side; k += step) ticks.push(k);
  if (ticks[ticks.length - 1] !== side - 1) {
    // The last cell always has its number; drop a tick too close to it.
    if (side - 1 - ticks[ticks.length - 1] < step / 2 && ticks.length > 1) ticks.pop();
    ticks.push(side - 1);
  }
  return ticks;
}

/**
 * A map as a standalone SVG document: the cells coloured by `values` (darker is larger, on the
 * map's own scale: white 0, blue the largest), x along the top edge and y down the left edge in
 * cells, the chosen cell outlined, a colour bar from 0 to the largest value and a bar one cell
 * side long. `format` writes a number.
 */
export function mapSVG({ title, values, side, chosen = -1, format = (x) => String(x) }) {
  const cell = Math.max(6, Math.min(28, Math.floor(336 / side)));
  const size = cell * side;
  const left = 40;
  const top = 46;
  const width = left + size + 90;
  const height = top + size + 50;
  const max = Math.max(0, ...values);
  const out = [];
  out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif" font-size="11">`);
  out.push(`<title>${esc(title)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="${left}" y="14" font-size="12" font-weight="600" fill="#1c2430">${esc(title)}</text>`);
  out.push(`<g data-role="cells">`);
  for (let i = 0; i < side * side; i++) {
    const x = i % side;
    const y = Math.floor(i / side);
    out.push(`<rect x="${left + x * cell}" y="${top + y * cell}" width="${cell}" height="${cell}" fill="${cellColour(max > 0 ? values[i] / max : 0)}" data-cell="${i}" data-value="${values[i]}"><title>cell (${x}, ${y}): ${esc(format(values[i]))}</title></rect>`);
  }
  out.push(`</g>`);
  out.push(`<rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#b8c0cb"/>`);
  if (chosen >= 0 && chosen < side * side) {
    out.push(`<rect x="${left + (chosen % side) * cell + 1}" y="${top + Math.floor(chosen / side) * cell + 1}" width="${cell - 2}" height="${cell - 2}" fill="none" stroke="#b91c1c" stroke-width="2" data-role="chosen"/>`);
  }
  // Axes: x along the top, y down the left, in cells.
  out.push(`<g data-role="axes" fill="#5a6472" font-size="10">`);
  out.push(`<text x="${left + size / 2}" y="${top - 20}" text-anchor="middle">x (cells)</text>`);
  out.push(`<text x="12" y="${top + size / 2}" text-anchor="middle" transform="rotate(-90 12 ${top + size / 2})">y (cells)</text>`);
  for (const k of axisTicks(side)) {
    const cx = left + (k + 0.5) * cell;
    const cy = top + (k + 0.5) * cell;
    out.push(`<text x="${cx}" y="${top - 5}" text-anchor="middle" data-axis="x">${k}</text>`);
    out.push(`<text x="${left - 5}" y="${cy + 3.5}" text-anchor="end" data-axis="y">${k}</text>`);
  }
  out.push(`</g>`);
  // The colour scale: 0 at the bottom, the largest value at the top.
  const bx = left + size + 18;
  out.push(`<defs><linearGradient id="geo-scale" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="${cellColour(0)}"/><stop offset="1" stop-color="${cellColour(1)}"/></linearGradient></defs>`);
  out.push(`<g data-role="colour-scale" font-size="10" fill="#5a6472">`);
  out.push(`<rect x="${bx}" y="${top}" width="12" height="${size}" fill="url(#geo-scale)" stroke="#b8c0cb"/>`);
  out.push(`<text x="${bx + 16}" y="${top + 8}" data-role="max">${esc(format(max))}</text>`);
  out.push(`<text x="${bx + 16}" y="${top + size}" data-role="min">0</text>`);
  out.push(`</g>`);
  // One cell side: the unit of distance.
  const sy = top + size + 22;
  out.push(`<g data-role="length-scale" fill="#5a6472" font-size="10">`);
  out.push(`<path d="M${left} ${sy - 4} V${sy + 4} M${left} ${sy} H${left + cell} M${left + cell} ${sy - 4} V${sy + 4}" stroke="#1c2430" fill="none"/>`);
  out.push(`<text x="${left + cell + 6}" y="${sy + 3.5}">1 cell side = 1 unit of distance; ε is per unit</text>`);
  out.push(`</g>`);
  out.push(`</svg>`);
  return `${out.join('\n')}\n`;
}
