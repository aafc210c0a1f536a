// sections/compare/simplex.js — the probability simplex on three secrets (Chatzikokolakis et al.
// (CSF 2019) Figure 2): each channel's posteriors under the uniform prior as points, their convex
// hulls as polygons, and one highlighted posterior (the max-case counterexample: a posterior of B
// outside A's hull).
//
//   simplexPlot({ title, labels: [3 strings], sets: [{ name, points, weights?, className }],
//                 highlight?: { point, name, target? } })  → <figure> with an SVG and a table
//
// It draws points it is given (the posteriors come from the engine: simplex-card.js); weights
// are their probabilities, shown in the data table.
//
// The triangle is equilateral with side L, so the drawing is an isometry of the simplex in R³
// scaled by L/√2: a drawn length ℓ is a Euclidean distance ℓ·√2/L. All data enter the SVG as
// numeric attributes and text nodes only.

import { formatNumber, formatFull } from '../../lib/numbers.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 420;
const H = 390;
const L = 340; // side of the triangle in px
const TOP = { x: W / 2, y: 40 };
// Vertices: secret 0 at the top, secret 1 bottom left, secret 2 bottom right.
const V = [TOP, { x: W / 2 - L / 2, y: 40 + (L * Math.sqrt(3)) / 2 }, { x: W / 2 + L / 2, y: 40 + (L * Math.sqrt(3)) / 2 }];

/** Pixel length → Euclidean distance in the simplex. */
export const PX_TO_DISTANCE = Math.SQRT2 / L;

function s(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = String(text);
  return el;
}

/** Barycentric (p0, p1, p2) → pixel coordinates. */
export function toXY(p) {
  const t = p[0] + p[1] + p[2] || 1;
  return {
    x: (p[0] * V[0].x + p[1] * V[1].x + p[2] * V[2].x) / t,
    y: (p[0] * V[0].y + p[1] * V[1].y + p[2] * V[2].y) / t,
  };
}

/** Convex hull of 2-D points (Andrew's monotone chain), counter-clockwise, no repeats. */
export function convexHull(points) {
  const pts = dedupe(points).sort((a, b) => a.x - b.x || a.y - b.y);
  if (pts.length <= 2) return pts;
  const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 1e-9) lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 1e-9) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

function dedupe(points) {
  const out = [];
  for (const p of points) if (!out.some((q) => Math.hypot(q.x - p.x, q.y - p.y) < 1e-6)) out.push(p);
  return out;
}

/** The point of the (2-D, convex, counter-clockwise) polygon `hull` nearest to p, and whether p is inside. */
export function nearestOnHull(hull, p) {
  if (!hull.length) return null;
  if (hull.length >= 3) {
    let inside = true;
    for (let i = 0; i < hull.length; i++) {
      const a = hull[i];
      const b = hull[(i + 1) % hull.length];
      if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < -1e-9) inside = false;
    }
    if (inside) return { point: p, distance: 0, inside: true };
  }
  let best = { point: hull[0], distance: Math.hypot(p.x - hull[0].x, p.y - hull[0].y) };
  const k = hull.length === 1 ? 0 : hull.length === 2 ? 1 : hull.length;
  for (let i = 0; i < k; i++) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
    const q = { x: a.x + t * dx, y: a.y + t * dy };
    const d = Math.hypot(p.x - q.x, p.y - q.y);
    if (d < best.distance) best = { point: q, distance: d };
  }
  return { ...best, inside: best.distance < 1e-9 };
}

/**
 * The simplex figure. sets: [{ name, points: number[][] (each a distribution on 3 secrets),
 * className: 'set-a' | 'set-b' }]. highlight: { point: number[3], name } drawn as a ring, with
 * a dashed segment to the nearest point of the first set's hull (its length is the distance).
 */
export function simplexPlot({ title, labels, sets, highlight = null }) {
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title, class: 'simplex-svg', xmlns: NS, 'data-testid': 'simplex-svg' });
  svg.append(s('title', {}, title));
  // The triangle, its grid lines at 1/4, 1/2, 3/4 and the vertex labels.
  svg.append(s('polygon', { class: 'simplex-frame', points: V.map((v) => `${v.x},${v.y}`).join(' ') }));
  const grid = s('g', { class: 'simplex-grid' });
  for (const t of [0.25, 0.5, 0.75]) {
    for (let k = 0; k < 3; k++) {
      const a = [0, 0, 0];
      const b = [0, 0, 0];
      a[k] = t; a[(k + 1) % 3] = 1 - t;
      b[k] = t; b[(k + 2) % 3] = 1 - t;
      const pa = toXY(a);
      const pb = toXY(b);
      grid.append(s('line', { x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y }));
    }
  }
  svg.append(grid);
  const offsets = [{ dx: 0, dy: -12, anchor: 'middle' }, { dx: -6, dy: 20, anchor: 'start' }, { dx: 6, dy: 20, anchor: 'end' }];
  V.forEach((v, k) => {
    svg.append(s('text', { class: 'simplex-vertex', x: v.x + offsets[k].dx, y: v.y + offsets[k].dy, 'text-anchor': offsets[k].anchor }, `x = ${labels[k]}`));
  });
  // The centre: the uniform prior itself.
  const c = toXY([1, 1, 1]);
  svg.append(s('circle', { class: 'simplex-centre', cx: c.x, cy: c.y, r: 2.5 }));

  const hulls = [];
  for (const set of sets) {
    const xy = set.points.map(toXY);
    const hull = convexHull(xy);
    hulls.push(hull);
    const g = s('g', { class: `simplex-set ${set.className}`, 'data-testid': `simplex-${set.className}` });
    if (hull.length >= 3) {
      g.append(s('polygon', { class: 'hull', 'data-testid': `hull-${set.className}`, points: hull.map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`).join(' ') }));
    } else if (hull.length === 2) {
      g.append(s('polyline', { class: 'hull', 'data-testid': `hull-${set.className}`, points: hull.map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`).join(' ') }));
    }
    set.points.forEach((p, i) => {
      const q = xy[i];
      const dot = s(set.className === 'set-a' ? 'circle' : 'rect', set.className === 'set-a'
        ? { class: 'pt', cx: q.x.toFixed(2), cy: q.y.toFixed(2), r: 5 }
        : { class: 'pt', x: (q.x - 4.5).toFixed(2), y: (q.y - 4.5).toFixed(2), width: 9, height: 9, transform: `rotate(45 ${q.x.toFixed(2)} ${q.y.toFixed(2)})` });
      dot.append(s('title', {}, `${set.name}: (${p.map((v) => formatNumber(v)).join(', ')})`));
      g.append(dot);
    });
    svg.append(g);
  }
  let drawnDistance = null;
  if (highlight) {
    const q = toXY(highlight.point);
    const near = hulls[0] ? nearestOnHull(hulls[0], q) : null;
    const g = s('g', { class: 'simplex-highlight', 'data-testid': 'simplex-highlight' });
    if (near && !near.inside) {
      drawnDistance = near.distance * PX_TO_DISTANCE;
      g.append(s('line', { class: 'gap', x1: q.x, y1: q.y, x2: near.point.x, y2: near.point.y }));
    }
    g.append(s('circle', { class: 'ring', cx: q.x, cy: q.y, r: 11 }));
    g.append(s('title', {}, highlight.name));
    svg.append(g);
  }
  svg.dataset.drawnDistance = drawnDistance === null ? '' : String(drawnDistance);

  const legend = document.createElement('ul');
  legend.className = 'simplex-legend';
  for (const set of sets) {
    const li = document.createElement('li');
    li.className = set.className;
    li.textContent = `${set.name} (${set.points.length} posterior${set.points.length === 1 ? '' : 's'})`;
    legend.append(li);
  }
  if (highlight) {
    const li = document.createElement('li');
    li.className = 'set-highlight';
    li.textContent = highlight.name;
    legend.append(li);
  }

  const fig = document.createElement('figure');
  fig.className = 'plot simplex';
  fig.append(svg);
  const cap = document.createElement('figcaption');
  cap.textContent = title;
  fig.append(legend, cap, pointsTable(labels, sets, highlight));
  return fig;
}

// The text alternative: every point with its coordinates.
function pointsTable(labels, sets, highlight) {
  const details = document.createElement('details');
  details.className = 'plot-data';
  const summary = document.createElement('summary');
  summary.textContent = 'Data table';
  const t = document.createElement('table');
  t.className = 'mini';
  t.dataset.testid = 'simplex-table';
  const head = document.createElement('tr');
  for (const text of ['channel', 'probability', ...labels.map((l) => `p(x = ${l})`)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = text;
    head.append(th);
  }
  const thead = document.createElement('thead');
  thead.append(head);
  const body = document.createElement('tbody');
  const row = (name, weight, p, cls) => {
    const tr = document.createElement('tr');
    if (cls) tr.className = cls;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    const out = document.createElement('td');
    out.textContent = weight;
    tr.append(th, out);
    for (const v of p) {
      const td = document.createElement('td');
      td.textContent = formatNumber(v);
      td.title = formatFull(v);
      tr.append(td);
    }
    body.append(tr);
  };
  for (const set of sets) set.points.forEach((p, i) => row(set.name, set.weights ? formatNumber(set.weights[i]) : '—', p));
  if (highlight) row('outside the hull', '—', highlight.point, 'highlight-row');
  t.append(thead, body);
  details.append(summary, t);
  return details;
}
