// lib/plot.js — small SVG charts for the page, with no dependencies: line plots, heat maps and bar
// charts. Every chart is an <svg role="img"> with an accessible name, inside a <figure> that also
// holds its data as a <table> (the text alternative; visually collapsed in a <details>).
// Data reaches the SVG as text nodes and numeric attributes only, never as markup.
//
//   linePlot({ title, xLabel, yLabel, series: [{ name, points: [[x, y], ...], dashed?, dots?, key?,
//              band?: [[x, lower, upper], ...] }], hLines?: [{ y, label }], yLog?: false, xLog?: false,
//              legend?: 'top-left' | 'top-right' | 'bottom-left', width?, height? }) → <figure>
//              (band: a shaded interval around the series; xLog, yLog: logarithmic axes)
//   heatmap({ title, matrix: number[][], rowLabels?, colLabels?, max? })  → <figure>
//   barChart({ title, bars: [{ label, value }], yLabel, hLines?: [{ y, label }] }) → <figure>
//
// Series colours come from PALETTE (distinguishable, with contrast ≥ 3:1 against white); the cells of
// a heat map from heatColour (a ramp per look, light and dark) and their values' text from heatInk.

const NS = 'http://www.w3.org/2000/svg';
export const PALETTE = ['#1f5fbf', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#4b5563'];

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = String(text);
  return el;
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = String(v);
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, String(v));
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

/** fmt gives 4 significant digits, as the rest of the page. */
export function fmt(v) {
  if (!Number.isFinite(v)) return v > 0 ? '∞' : v < 0 ? '−∞' : '—';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(2).replace('-', '−');
  return String(Number(v.toPrecision(4))).replace('-', '−');
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** A power of ten as 1, 10, 0.1 or 10⁻⁵ (the ticks of a logarithmic axis). */
export function powerOfTen(v) {
  const e = Math.round(Math.log10(v));
  if (e >= -2 && e <= 2) return String(10 ** e);
  return `10${String(e).replace(/./g, (c) => SUPERSCRIPT[c])}`;
}

/** niceTicks returns about n round tick values covering [lo, hi]. */
export function niceTicks(lo, hi, n = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((st) => st >= raw) || raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

function figure(title, svg, table) {
  const details = el('details', { class: 'plot-data' }, el('summary', { text: 'Data table' }), table);
  return el('figure', { class: 'plot' }, svg, el('figcaption', { text: title }), details);
}

function dataTable(head, rows) {
  const t = el('table', { class: 'mini' });
  const tr = el('tr');
  for (const h of head) tr.append(el('th', { scope: 'col', text: h }));
  t.append(el('thead', {}, tr));
  const body = el('tbody');
  for (const r of rows) {
    const row = el('tr');
    for (const c of r) row.append(el('td', { text: typeof c === 'number' ? fmt(c) : c }));
    body.append(row);
  }
  t.append(body);
  return t;
}

const W = 560, H = 300, M = { l: 56, r: 16, t: 16, b: 44 };

function frame(title, w = W, ht = H) {
  return s('svg', { viewBox: `0 0 ${w} ${ht}`, role: 'img', 'aria-label': title, class: 'plot-svg', xmlns: NS });
}

function axes(svg, xs, ys, xLabel, yLabel, fx, fy, yFmt = fmt, W = 560, H = 300, xFmt = fmt) {
  const g = s('g', { class: 'axes', 'font-size': 11, fill: '#1c2430' });
  g.append(s('line', { x1: M.l, y1: H - M.b, x2: W - M.r, y2: H - M.b, stroke: '#5a6472' }));
  g.append(s('line', { x1: M.l, y1: M.t, x2: M.l, y2: H - M.b, stroke: '#5a6472' }));
  for (const t of xs) {
    g.append(s('line', { x1: fx(t), y1: H - M.b, x2: fx(t), y2: H - M.b + 4, stroke: '#5a6472' }));
    g.append(s('text', { x: fx(t), y: H - M.b + 16, 'text-anchor': 'middle' }, xFmt(t)));
  }
  for (const t of ys) {
    g.append(s('line', { x1: M.l, y1: fy(t), x2: W - M.r, y2: fy(t), stroke: '#e5e8ec' }));
    g.append(s('text', { x: M.l - 6, y: fy(t) + 4, 'text-anchor': 'end' }, yFmt(t)));
  }
  if (xLabel) g.append(s('text', { x: (M.l + W - M.r) / 2, y: H - 8, 'text-anchor': 'middle' }, xLabel));
  if (yLabel) g.append(s('text', { x: 14, y: (M.t + H - M.b) / 2, 'text-anchor': 'middle', transform: `rotate(-90 14 ${(M.t + H - M.b) / 2})` }, yLabel));
  svg.append(g);
}

export function linePlot({ title, xLabel = '', yLabel = '', series, hLines = [], yLog = false, xLog = false, legend = 'top-left', width = W, height = H }) {
  // A smaller drawing (width × height in its own units) shows the same text larger where it is shrunk to fit.
  const PW = width, PH = height;
  // On a logarithmic y axis a point is drawn at log10(y): zero and negative values have no place there.
  // The same for the x axis (xLog), and for a band's ends ([x, lower, upper]).
  const ok = ([x, ...ys]) => Number.isFinite(x) && (!xLog || x > 0) && ys.every((y) => Number.isFinite(y) && (!yLog || y > 0));
  const ty = yLog ? Math.log10 : (y) => y;
  const tx = xLog ? Math.log10 : (x) => x;
  const pts = series.flatMap((sr) => sr.points).filter(ok);
  const bands = series.flatMap((sr) => (sr.band ?? []).filter(ok));
  const xsAll = pts.map((p) => tx(p[0]));
  const ysAll = pts.map((p) => ty(p[1])).concat(bands.flatMap((b) => [ty(b[1]), ty(b[2])]),
    hLines.map((l) => l.y).filter((y) => Number.isFinite(y) && (!yLog || y > 0)).map(ty));
  let [x0, x1] = [Math.min(...xsAll), Math.max(...xsAll)];
  let [y0, y1] = yLog ? [Math.floor(Math.min(...ysAll)), Math.ceil(Math.max(...ysAll))] : [Math.min(0, ...ysAll), Math.max(...ysAll)];
  if (!(x1 > x0)) { x0 -= 1; x1 += 1; }
  if (!(y1 > y0)) { y1 = y0 + 1; }
  if (!yLog) y1 += (y1 - y0) * 0.05;
  const fx = (x) => M.l + ((tx(x) - x0) / (x1 - x0)) * (PW - M.l - M.r);
  const fy = (y) => PH - M.b - ((ty(y) - y0) / (y1 - y0)) * (PH - M.t - M.b);
  const svg = frame(title, PW, PH);
  // Log ticks: the powers of ten, every other one when there are many, drawn at their values.
  const yTicks = yLog
    ? Array.from({ length: y1 - y0 + 1 }, (_, k) => y0 + k).filter((e, _, all) => all.length <= 7 || (e - y0) % Math.ceil(all.length / 6) === 0).map((e) => 10 ** e)
    : niceTicks(y0, y1);
  // On a log x axis the ticks are the powers of ten in range (1, 2 and 5 times them when fewer than three).
  let xTicks = niceTicks(x0, x1);
  if (xLog) {
    xTicks = [];
    for (let e = Math.floor(x0); e <= Math.ceil(x1); e++) for (const m of [1, 2, 5]) xTicks.push(m * 10 ** e);
    const inRange = (t) => tx(t) >= x0 - 1e-9 && tx(t) <= x1 + 1e-9;
    const decades = xTicks.filter((t) => Math.log10(t) % 1 === 0);
    xTicks = (decades.filter(inRange).length >= 3 ? decades : xTicks).filter(inRange);
  }
  axes(svg, xTicks, yTicks, xLabel, yLabel, fx, fy, yLog ? powerOfTen : fmt, PW, PH);
  series.forEach((sr, i) => {
    const b = (sr.band ?? []).filter(ok);
    if (b.length < 2) return;
    const top = b.map(([x, , hi], k) => `${k ? 'L' : 'M'}${fx(x).toFixed(2)},${fy(hi).toFixed(2)}`).join('');
    const bottom = b.slice().reverse().map(([x, lo]) => `L${fx(x).toFixed(2)},${fy(lo).toFixed(2)}`).join('');
    svg.append(s('path', { d: `${top}${bottom}Z`, fill: sr.color || PALETTE[i % PALETTE.length], 'fill-opacity': 0.15, stroke: 'none', class: 'plot-band' }));
  });
  hLines.forEach((l) => {
    if (!Number.isFinite(l.y) || (yLog && !(l.y > 0))) return;
    svg.append(s('line', { x1: M.l, x2: PW - M.r, y1: fy(l.y), y2: fy(l.y), stroke: '#8a5a00', 'stroke-dasharray': '4 3' }));
    if (l.label) svg.append(s('text', { x: PW - M.r - 4, y: fy(l.y) - 4, 'text-anchor': 'end', 'font-size': 11, fill: '#8a5a00' }, l.label));
  });
  series.forEach((sr, i) => {
    const colour = sr.color || PALETTE[i % PALETTE.length];
    const d = sr.points.filter(ok)
      .map(([x, y], k) => `${k ? 'L' : 'M'}${fx(x).toFixed(2)},${fy(y).toFixed(2)}`).join('');
    svg.append(s('path', { d, fill: 'none', stroke: colour, 'stroke-width': sr.width ?? 2, 'stroke-dasharray': sr.dashed ? '6 4' : undefined, 'data-series': sr.key }));
    // A series of a few points (a bound known at some δ only) shows them as dots.
    if (sr.dots) for (const [x, y] of sr.points.filter(ok)) svg.append(s('circle', { cx: fx(x).toFixed(2), cy: fy(y).toFixed(2), r: 2.5, fill: colour }));
  });
  // Legend: at the top left, the top right, or the bottom left (where a curve falling from the
  // top left to the bottom right, as a privacy curve does, never goes).
  const right = legend === 'top-right';
  const bottom = legend === 'bottom-left';
  const lg = s('g', { 'font-size': 11, class: 'legend' });
  series.forEach((sr, i) => {
    const y = bottom ? PH - M.b - 10 - (series.length - 1 - i) * 15 : M.t + 6 + i * 15;
    const x = right ? PW - M.r - 10 : M.l + 10;
    const colour = sr.color || PALETTE[i % PALETTE.length];
    lg.append(s('line', { x1: right ? x - 18 : x, x2: right ? x : x + 18, y1: y, y2: y, stroke: colour, 'stroke-width': 2, 'stroke-dasharray': sr.dashed ? '6 4' : undefined }));
    lg.append(s('text', { x: right ? x - 22 : x + 22, y: y + 4, fill: '#1c2430', 'text-anchor': right ? 'end' : 'start' }, sr.name));
  });
  svg.append(lg);
  const xsUnion = [...new Set(series.flatMap((sr) => sr.points.map((p) => p[0])))].sort((a, b) => a - b);
  const cell = (list, x, j) => { const p = (list ?? []).find((q) => q[0] === x); return p ? p[j] : ''; };
  const rows = xsUnion.map((x) => [x, ...series.flatMap((sr) => (sr.band ? [cell(sr.points, x, 1), cell(sr.band, x, 1), cell(sr.band, x, 2)] : [cell(sr.points, x, 1)]))]);
  const head = series.flatMap((sr) => (sr.band ? [sr.name, `${sr.name}: lower`, `${sr.name}: upper`] : [sr.name]));
  return figure(title, svg, dataTable([xLabel || 'x', ...head], rows));
}

// ---------------------------------------------------------------- heat-map colours

// The ramps of the heat maps, from 0 to the largest value, as stops interpolated in OKLab (Ottosson,
// "A perceptual color space for image processing", 2020), so that equal steps of the value look
// like equal steps of colour. Light: near-white to dark blue. Dark (a dark widget, a projected
// slide): dark navy through blue to pale yellow — its lightness rises all the way, so the order of
// the values survives a washed-out projector or a greyscale print, and the hue change helps where
// lightness alone is hard to judge. tests/node/heat.test.mjs measures their contrast (WCAG 2).
const HEAT_STOPS = {
  light: ['#f7fbff', '#6aaee0', '#0b3d8c'],
  dark: ['#1f2a3a', '#3a78c8', '#f4e98c'],
};

const unGamma = (x) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
const gamma = (x) => (x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055);

function hexToOklab(c) {
  const [r, g, b] = [1, 3, 5].map((i) => unGamma(parseInt(c.slice(i, i + 2), 16) / 255));
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function oklabToHex([L, a, b]) {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const rgb = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  return `#${rgb.map((v) => Math.round(Math.min(1, Math.max(0, gamma(v))) * 255).toString(16).padStart(2, '0')).join('')}`;
}

const HEAT_LAB = Object.fromEntries(Object.entries(HEAT_STOPS).map(([k, stops]) => [k, stops.map(hexToOklab)]));

/** The colour (#rrggbb) of a heat-map cell at t ∈ [0, 1] (its value over the largest), look 'light' or 'dark'. */
export function heatColour(t, look = 'light') {
  const S = HEAT_LAB[look] ?? HEAT_LAB.light;
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0)) * (S.length - 1);
  const k = Math.min(S.length - 2, Math.floor(x));
  const u = x - k;
  return oklabToHex(S[k].map((v, i) => v + (S[k + 1][i] - v) * u));
}

/** The text colour for a value written on the cell heatColour(t, look): black or white, whichever contrasts more. */
export function heatInk(t, look = 'light') {
  const c = heatColour(t, look);
  const [r, g, b] = [1, 3, 5].map((i) => unGamma(parseInt(c.slice(i, i + 2), 16) / 255));
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with white (1.05 / (y + 0.05)) against contrast with black ((y + 0.05) / 0.05).
  return 1.05 / (y + 0.05) >= (y + 0.05) / 0.05 ? '#ffffff' : '#000000';
}

// A cell's value as written on it: two decimals at most, so that it fits the cell.
function cellText(v) {
  if (!Number.isFinite(v) || Math.abs(v) >= 100) return fmt(v);
  if (v === 0) return '0';
  if (Math.abs(v) < 0.01) return v > 0 ? '<0.01' : '>−0.01';
  return String(Number(v.toFixed(2))).replace('-', '−');
}

export function heatmap({ title, matrix, rowLabels, colLabels, max }) {
  const n = matrix.length, m = n ? matrix[0].length : 0;
  const top = Number.isFinite(max) ? max : Math.max(1e-300, ...matrix.flat().filter(Number.isFinite));
  const cw = Math.min(40, 480 / Math.max(1, m)), ch = Math.min(40, 480 / Math.max(1, n));
  // The labels' size: at the width a widget draws the map (22em), as large as the widget's text.
  const LABEL = 13;
  const lw = 40, th = 20;
  // Cells wide enough carry their value (a small matrix on a slide reads without hovering).
  const values = cw >= 28 && ch >= 16;
  const svg = s('svg', { viewBox: `0 0 ${lw + cw * m + 4} ${th + ch * n + 4}`, role: 'img', 'aria-label': title, class: 'plot-svg heatmap', xmlns: NS });
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const v = matrix[i][j];
      const t = Math.max(0, Math.min(1, v / top));
      // The fill is the light ramp's; a widget's stylesheet picks the dark one (--heat-dark) on a
      // dark widget. Custom properties through the CSSOM: a strict policy forbids style attributes.
      const rect = s('rect', { x: lw + j * cw, y: th + i * ch, width: cw - 1, height: ch - 1, class: 'heat', fill: heatColour(t, 'light') });
      rect.style.setProperty('--heat-light', heatColour(t, 'light'));
      rect.style.setProperty('--heat-dark', heatColour(t, 'dark'));
      rect.append(s('title', {}, `${rowLabels ? rowLabels[i] : i} → ${colLabels ? colLabels[j] : j}: ${fmt(v)}`));
      svg.append(rect);
      if (values) {
        const text = s('text', { x: lw + j * cw + (cw - 1) / 2, y: th + i * ch + (ch - 1) / 2 + 4, 'text-anchor': 'middle', 'font-size': Math.min(12, cw / 3.4), class: 'heat-v', fill: heatInk(t, 'light'), 'aria-hidden': 'true' }, cellText(v));
        text.style.setProperty('--heat-ink-light', heatInk(t, 'light'));
        text.style.setProperty('--heat-ink-dark', heatInk(t, 'dark'));
        svg.append(text);
      }
    }
    if (ch >= 10) svg.append(s('text', { x: lw - 4, y: th + i * ch + ch / 2 + 4, 'text-anchor': 'end', 'font-size': Math.min(LABEL, ch - 1) }, rowLabels ? rowLabels[i] : i));
  }
  if (cw >= 10) for (let j = 0; j < m; j++) svg.append(s('text', { x: lw + j * cw + cw / 2, y: th - 5, 'text-anchor': 'middle', 'font-size': Math.min(LABEL, cw - 1) }, colLabels ? colLabels[j] : j));
  const rows = matrix.map((row, i) => [rowLabels ? rowLabels[i] : String(i), ...row]);
  return figure(title, svg, dataTable(['', ...(colLabels || Array.from({ length: m }, (_, j) => String(j)))], rows));
}

export function barChart({ title, bars, yLabel = '', hLines = [] }) {
  const vals = bars.map((b) => b.value).filter(Number.isFinite).concat(hLines.map((l) => l.y).filter(Number.isFinite));
  const y0 = Math.min(0, ...vals);
  let y1 = Math.max(...vals, 0) * 1.08;
  if (!(y1 > y0)) y1 = y0 + 1;
  const fy = (y) => H - M.b - ((y - y0) / (y1 - y0)) * (H - M.t - M.b);
  const svg = frame(title);
  axes(svg, [], niceTicks(y0, y1), '', yLabel, () => 0, fy);
  const bw = (W - M.l - M.r) / Math.max(1, bars.length);
  bars.forEach((b, i) => {
    if (!Number.isFinite(b.value)) return;
    const x = M.l + i * bw + bw * 0.15;
    const rect = s('rect', { x, y: Math.min(fy(b.value), fy(0)), width: bw * 0.7, height: Math.abs(fy(0) - fy(b.value)), fill: b.color || PALETTE[0] });
    rect.append(s('title', {}, `${b.label}: ${fmt(b.value)}`));
    svg.append(rect);
    if (bars.length <= 24) svg.append(s('text', { x: x + bw * 0.35, y: H - M.b + 14, 'text-anchor': 'middle', 'font-size': 10 }, b.label));
  });
  hLines.forEach((l) => {
    if (!Number.isFinite(l.y)) return;
    svg.append(s('line', { x1: M.l, x2: W - M.r, y1: fy(l.y), y2: fy(l.y), stroke: '#b3261e', 'stroke-dasharray': '5 3' }));
    if (l.label) svg.append(s('text', { x: W - M.r - 4, y: fy(l.y) - 4, 'text-anchor': 'end', 'font-size': 11, fill: '#b3261e' }, l.label));
  });
  return figure(title, svg, dataTable(['', yLabel || 'value'], bars.map((b) => [b.label, b.value])));
}
