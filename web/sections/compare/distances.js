// sections/compare/distances.js — the distances between the output distributions of two secrets
// x and x′ in A and in B (the card distances-card.js shows them): the ground metrics on outputs
// the reader can choose (METRICS), the reading of the card's fields (distancePlan), the engine
// calls (distanceCalls: qif.metric) and the card's state from a link (distFrom). Pure: no DOM, no
// worker; tests/node/sections.test.mjs runs it in Node.

import { parseInteger } from '../../input/number.js';
import { MAX_M, KEYS, DEFAULT_DIST } from './state.js';

/**
 * Ground metrics on the outputs 0..m−1 of a channel, for the Kantorovich distances: each builds
 * its distance matrix with qif.metric (call(m, width) → an engine call, or {error}).
 */
export const METRICS = {
  line: {
    name: 'Outputs on a line: |y − y′|',
    call: (m) => ({ ns: 'metric', fn: 'manhattan', args: [Array.from({ length: m }, (_, y) => [y])] }),
  },
  discrete: {
    name: 'Discrete: 1 between distinct outputs (Kantorovich = total variation)',
    call: (m) => ({ ns: 'metric', fn: 'discrete', args: [m, 1] }),
  },
  gridEuclidean: {
    name: 'Outputs on a grid of the given width, Euclidean',
    grid: true,
    call: (m, w) => gridCall('gridEuclidean', m, w),
  },
  gridManhattan: {
    name: 'Outputs on a grid of the given width, Manhattan',
    grid: true,
    call: (m, w) => gridCall('gridManhattan', m, w),
  },
};

function gridCall(fn, m, width) {
  if (!(width >= 1) || m % width !== 0) return { error: `${m} outputs do not fill a grid of width ${width}` };
  return { ns: 'metric', fn, args: [width, m / width] };
}


/** The distances of the panel, in table order: API function, name, unit. */
export const DISTANCES = [
  { fn: 'totalVariation', name: 'Total variation', formula: '½ Σ_y |P(y) − Q(y)|', unit: 'probability' },
  { fn: 'multiplicativeTotalVariation', name: 'Multiplicative total variation', formula: 'max_y |ln P(y) − ln Q(y)| = d_C(x, x′)', unit: 'nats' },
  { fn: 'convexSeparation', name: 'Convex separation', formula: 'max(q(P,Q), q(Q,P)), q(a,b) = max_{a_y>0} (1 − b_y/a_y)', unit: 'probability' },
  { fn: 'kantorovich', name: 'Kantorovich (earth mover’s)', formula: 'min over couplings Σ x_{yy′} d(y, y′)', unit: 'distance', metric: true },
  { fn: 'multiplicativeKantorovich', name: 'Multiplicative Kantorovich', formula: 'ln z* of the linear program for e^{d}', unit: 'nats', metric: true },
];

/**
 * What the distances panel computes for the valid matrices {A, B}: the rows x and x′ of each
 * channel and the ground metric on its outputs. Returns {x, x2, metricCalls: [A's, B's]} or
 * {error, field} naming the field to fix.
 */
export function distancePlan(dist, mats) {
  const n = mats.A.length;
  const index = (text, what) => {
    const r = parseInteger(text, { min: 0, max: n - 1 });
    return 'error' in r ? { error: `${what}: a secret from 0 to ${n - 1}` } : r;
  };
  const x = index(dist.x, 'x');
  if ('error' in x) return { error: x.error, field: 'x' };
  const x2 = index(dist.x2, 'x′');
  if ('error' in x2) return { error: x2.error, field: 'x2' };
  const metric = METRICS[dist.metric] ?? METRICS.line;
  let width = null;
  if (metric.grid) {
    const w = parseInteger(dist.width, { min: 1, max: MAX_M });
    if ('error' in w) return { error: `width: ${w.error}`, field: 'width' };
    width = w.value;
  }
  const metricCalls = [];
  for (const K of KEYS) {
    const c = metric.call(mats[K][0].length, width);
    if (c.error) return { error: `Channel ${K}: ${c.error}`, field: 'width' };
    metricCalls.push(c);
  }
  return { x: x.value, x2: x2.value, metricCalls };
}

/**
 * The distance calls for the rows x, x′ of channel M (rows of numbers) and its ground metric D,
 * in the order of DISTANCES.
 */
export function distanceCalls(M, x, x2, D) {
  const P = M[x];
  const Q = M[x2];
  return DISTANCES.map((d) => ({ ns: 'metric', fn: d.fn, args: d.metric ? [P, Q, D] : [P, Q] }));
}

/** The panel's settings from an untrusted state (a shared link): text fields, a known metric. */
export function distFrom(d) {
  const out = { ...DEFAULT_DIST };
  if (!d || typeof d !== 'object') return out;
  for (const k of ['x', 'x2', 'width']) if (d[k] !== undefined) out[k] = String(d[k]).slice(0, 20);
  if (Object.hasOwn(METRICS, d.metric)) out.metric = d.metric;
  return out;
}
