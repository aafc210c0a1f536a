// sections/geo/state.js — the "Location privacy" section as data: a map of side × side cells,
// a density over them (a few hot spots), ε per unit of distance and an optional spanner
// dilation δ; what to compute for them and the few sums the page does itself. Pure (no DOM, no
// engine): tests/node/sections.test.mjs runs it.
//
// Geo-indistinguishability (Bordenabe et al. (CCS 2014)): a mechanism K from true cells x to
// reported cells z is ε·d-private when K[x][z] ≤ e^(ε d(x,x′)) K[x′][z] for all x, x′, z, with d
// the Euclidean distance between cell centres (one cell side = one unit). Its quality loss is
// the expected distance Σ_x π_x Σ_z K[x][z] d(x,z) between the true and the reported cell.

import { parseNumber, parseInteger } from '../../input/number.js';

/** Sides of the map the section accepts (side² cells, side⁴ LP variables: 32×32 is 1,024 cells, the engine's limit). */
export const MIN_SIDE = 2;
export const MAX_SIDE = 32;
/**
 * The linear program runs by itself up to AUTO_CELLS cells with every pair constrained, or up to
 * AUTO_CELLS_SPANNER (10×10) with a spanner of dilation at least AUTO_SPANNER_DELTA; larger maps
 * wait for "Compute". Measured with the engine in WebAssembly (Node, the page's three-hot-spot
 * density, ε = 1) on a 2-core machine: every pair, 6×6 in 0.65 s, 7×7 in 2.5 s, 8×8 in 9 s,
 * 10×10 in 66 s; with δ = 1.1, 8×8 in 1.6 s, 10×10 in 6.7 s, 12×12 in 20 s. A uniform density
 * solves several times faster.
 */
export const AUTO_CELLS = 49;
export const AUTO_CELLS_SPANNER = 100;
export const AUTO_SPANNER_DELTA = 1.1;
/**
 * Above AUTO_OTHERS_SIDE the exponential and geometric mechanisms wait for "Compute" too: each
 * check of a matrix's ε (privacy.dPrivacyEpsilon) and each remapping compares every pair of
 * cells at every reported cell, side⁶ steps — seconds per check at 32×32, and the exponential
 * mechanism's calibration checks several matrices.
 */
export const AUTO_OTHERS_SIDE = 16;
/**
 * Above EVERY_PAIR_MAX_SIDE an empty δ means DEFAULT_SPANNER, and the page says so: every pair
 * of a 32×32 map is about 1,024³/2 privacy constraints (one per pair and reported cell), a
 * program no solver here finishes in a browser, while the spanner keeps a few thousand pairs.
 */
export const EVERY_PAIR_MAX_SIDE = 16;
export const DEFAULT_SPANNER = 1.1;
/** The exponential mechanism's ε′ is calibrated until its smallest ε lies in [ε(1 − CALIBRATION_TOL), ε]. */
export const CALIBRATION_TOL = 1e-5;

/** Densities over the map: hot spots at fractions of the map, weight and spread (in sides). */
export const DENSITIES = [
  { id: 'hotspots', label: 'Three hot spots (a city centre, a station, a campus)', floor: 0.03, spots: [[0.3, 0.3, 1, 0.12], [0.75, 0.25, 0.6, 0.08], [0.6, 0.75, 0.8, 0.1]] },
  { id: 'centre', label: 'One city centre', floor: 0.02, spots: [[0.5, 0.5, 1, 0.15]] },
  { id: 'two', label: 'Two towns in the corners', floor: 0.01, spots: [[0.2, 0.2, 1, 0.08], [0.8, 0.8, 1, 0.08]] },
  { id: 'uniform', label: 'Uniform', floor: 1, spots: [] },
];

export const DEFAULT_STATE = Object.freeze({
  side: '6',
  epsilon: '1',
  spanner: '1.1',
  density: 'hotspots',
  cell: null, // the chosen true cell; null = the densest
});

export function densityById(id) {
  return DENSITIES.find((d) => d.id === id);
}

/** The side of the map: a whole number in [MIN_SIDE, MAX_SIDE]. */
export function parseSide(text) {
  return parseInteger(text, { min: MIN_SIDE, max: MAX_SIDE, what: 'side' });
}

/** ε per unit of distance (one cell side), nats: positive, at most 700. */
export function parseGeoEpsilon(text) {
  const r = parseNumber(text);
  if ('error' in r) return { error: r.error === 'empty' ? 'enter ε, e.g. 1 or ln 2' : `ε: ${r.error}` };
  if (!(r.value > 0)) return { error: 'ε must be positive' };
  if (r.value > 700) return { error: 'ε must be at most 700 (e^ε overflows)' };
  return { value: r.value };
}

/** The spanner dilation δ ≥ 1; empty = no spanner (every pair constrained). */
export function parseSpanner(text) {
  if (String(text ?? '').trim() === '') return { value: null };
  const r = parseNumber(text);
  if ('error' in r) return { error: `δ: ${r.error}` };
  if (!(r.value >= 1) || !Number.isFinite(r.value)) return { error: 'δ must be a number ≥ 1 (empty: no spanner)' };
  return { value: r.value };
}

/** Cell i (row-major) of a side × side map is the point (i mod side, ⌊i/side⌋). */
export function cellXY(i, side) {
  return [i % side, Math.floor(i / side)];
}

export function cellName(i, side) {
  const [x, y] = cellXY(i, side);
  return `(${x}, ${y})`;
}

/**
 * The prior of a density preset on a side × side map: a floor plus Gaussian bumps
 * w·exp(−r²/(2σ²)) around each hot spot, normalized to sum 1.
 */
export function densityPrior(id, side) {
  const d = densityById(id) ?? DENSITIES[0];
  const n = side * side;
  const top = Math.max(1, side - 1);
  const p = new Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const [x, y] = cellXY(i, side);
    let v = d.floor;
    for (const [fx, fy, w, spread] of d.spots) {
      const s = Math.max(0.5, spread * side);
      const r2 = (x - fx * top) ** 2 + (y - fy * top) ** 2;
      v += w * Math.exp(-r2 / (2 * s * s));
    }
    p[i] = v;
    sum += v;
  }
  return p.map((v) => v / sum);
}

/** The cell of largest prior (the first on ties). */
export function densest(prior) {
  let best = 0;
  for (let i = 1; i < prior.length; i++) if (prior[i] > prior[best]) best = i;
  return best;
}

/** Rows of a {rows, cols, data} matrix (or an array of rows) as arrays. */
export function rowsOf(m) {
  if (Array.isArray(m)) return m.map((r) => Array.from(r));
  const out = [];
  for (let i = 0; i < m.rows; i++) out.push(Array.from(m.data.slice(i * m.cols, (i + 1) * m.cols)));
  return out;
}

/**
 * The product of a mechanism A on the columns and B on the rows of the map:
 * K[(x,y)][(x′,y′)] = A[x][x′]·B[y][y′], cells row-major. Private for the Manhattan distance
 * with the larger per-axis ε, hence for the Euclidean one with √2 times it (|Δx| + |Δy| ≤
 * √2·d); the page checks the matrix itself.
 */
export function productMechanism(A, B) {
  const w = A.length;
  const hgt = B.length;
  const n = w * hgt;
  const K = [];
  for (let i = 0; i < n; i++) {
    const [x, y] = [i % w, Math.floor(i / w)];
    const row = new Array(n);
    for (let j = 0; j < n; j++) row[j] = A[x][j % w] * B[y][Math.floor(j / w)];
    K.push(row);
  }
  return K;
}

/** Σ_x π_x Σ_z K[x][z] D[x][z]: the expected distance between the true and the reported cell. */
export function expectedDistance(prior, K, D) {
  let s = 0;
  for (let x = 0; x < K.length; x++) {
    let r = 0;
    for (let z = 0; z < K[x].length; z++) r += K[x][z] * D[x][z];
    s += prior[x] * r;
  }
  return s;
}

/**
 * The spanner the program is solved with: δ as typed, or DEFAULT_SPANNER when δ is empty and the
 * map is larger than EVERY_PAIR_MAX_SIDE (defaulted: true, so that the page says so).
 */
export function effectiveSpanner(side, spanner) {
  if (spanner === null && side > EVERY_PAIR_MAX_SIDE) return { value: DEFAULT_SPANNER, defaulted: true };
  return { value: spanner, defaulted: false };
}

/** Whether the exponential and geometric mechanisms are computed by themselves for this side. */
export function autoOthers(side) {
  return side <= AUTO_OTHERS_SIDE;
}

/**
 * The certified gap of a loss-minimizing optimalLP result or progress report, in the loss's
 * units: the expected loss of the mechanism held minus the lower bound proven on every
 * mechanism's (≥ 0 up to rounding). NaN while no bound is known.
 */
export function lossGap({ value, bound }) {
  return Number.isFinite(bound) && Number.isFinite(value) ? value - bound : NaN;
}

/**
 * A progress report of optimalLP with a loss, as it comes: objective and bound are in the loss's
 * units (the engine reports them so), the bound ±Infinity until the first pricing round.
 */
export function lossProgress(p) {
  const value = p.objective;
  const bound = Number.isFinite(p.bound) ? p.bound : NaN;
  return { pivots: p.iteration, value, bound, gap: lossGap({ value, bound }) };
}

/**
 * The progress shown, which never goes back: the solver may change phase (output generation,
 * then a decomposition that starts afresh), where its master holds a worse mechanism for a while
 * and, from an engine that counts per phase, its pivot count restarts. Shown are the pivots of
 * every phase so far (a count that falls is a new phase, added to the previous), the least
 * expected distance of a mechanism held so far (each one held was feasible: a mixture of private
 * columns), the greatest lower bound proven so far (each bound holds for every mechanism) and
 * their difference, a certified gap of the best mechanism found that can only shrink.
 * Returns {add(report) → {pivots, value, bound, gap, phase}}.
 */
export function progressTrack() {
  let before = 0;
  let lastRaw = 0;
  let value = Infinity;
  let bound = -Infinity;
  return {
    add(p) {
      const q = lossProgress(p);
      if (q.pivots < lastRaw) before += lastRaw;
      lastRaw = q.pivots;
      if (Number.isFinite(q.value)) value = Math.min(value, q.value);
      if (Number.isFinite(q.bound)) bound = Math.max(bound, q.bound);
      const v = Number.isFinite(value) ? value : NaN;
      const b = Number.isFinite(bound) ? bound : NaN;
      return { pivots: before + q.pivots, value: v, bound: b, gap: lossGap({ value: v, bound: b }), phase: p.phase };
    },
  };
}

/**
 * How much more `other` is than `base`, in per cent of `base`: "2.251 is 52.7 % more than
 * 1.474" is (2.251 − 1.474) / 1.474. NaN when base is not positive.
 */
export function percentMore(other, base) {
  return base > 0 ? (100 * (other - base)) / base : NaN;
}

/** Whether the LP runs by itself for this map and spanner, or waits for "Compute". */
export function autoRun(cells, spanner) {
  if (cells <= AUTO_CELLS) return true;
  // More cells than AUTO_CELLS_SPANNER never run by themselves, whatever δ.
  return spanner !== null && spanner >= AUTO_SPANNER_DELTA && cells <= AUTO_CELLS_SPANNER;
}

/**
 * One step of the calibration of the exponential mechanism's ε′: regula falsi on
 * f(ε′) = (smallest ε of the mechanism) − target. `lo` is a tried ε′ whose mechanism meets the
 * target (f ≤ 0), `hi` one that does not (f > 0) or null when none is known yet; each is
 * {x, f, w?}, w the weight used for the secant (Illinois: the caller halves the weight of an end
 * kept twice in a row, so that both ends move). Returns the next ε′ to try, or null when lo is
 * close enough (its ε within CALIBRATION_TOL of the target) or the bracket cannot shrink.
 */
export function nextCalibration(lo, hi, target) {
  if (-lo.f <= CALIBRATION_TOL * target) return null;
  if (!hi) return lo.x * 2;
  if (hi.x - lo.x <= 1e-12 * hi.x) return null;
  const flo = lo.w ?? lo.f;
  const fhi = hi.w ?? hi.f;
  const x = lo.x - (flo * (hi.x - lo.x)) / (fhi - flo);
  // Stay strictly inside the bracket; bisect when the secant does not.
  return x > lo.x && x < hi.x ? x : (lo.x + hi.x) / 2;
}

/** A clean state from an untrusted one (a shared link). */
export function sanitizeState(next) {
  const s = { ...DEFAULT_STATE };
  if (!next || typeof next !== 'object') return s;
  for (const k of ['side', 'epsilon', 'spanner']) if (k in next && next[k] !== null && next[k] !== undefined) s[k] = String(next[k]);
  if (densityById(next.density)) s.density = next.density;
  if (Number.isInteger(next.cell) && next.cell >= 0) s.cell = next.cell;
  return s;
}
