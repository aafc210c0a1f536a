// sections/observations/state.js — the "From observations" section's inputs and what it says
// about the estimates, as pure functions (Node-tested in tests/node/observations-section.test.mjs).
//
// State: {source: 'channel' | 'file', n, seed, kind, knn, miK, bins} — the texts typed and the
// choices made; a loaded file is not part of the state (a link cannot carry it).
//   kind   'auto' | 'numbers' | 'labels': how the observation columns are read
//   knn    'ln' | 'log10' | a whole number: the k of the k-NN rule (⌈ln n⌉, ⌈log₁₀ n⌉ or k)
//   miK    a whole number: the neighbours of the nearest-neighbour mutual-information estimator
//   bins   'none' | 'fd' | a whole number: numeric observations also binned (Freedman–Diaconis or
//          that many equal-width bins) for the label estimators

export const DEFAULT_STATE = Object.freeze({ source: 'channel', n: '10000', seed: '1', kind: 'auto', knn: 'ln', miK: '3', bins: 'none' });

/** The most samples drawn or loaded (the data worker's limit too). */
export const MAX_SAMPLES = 1_000_000;

const INTEGER = /^\s*\d+\s*$/;

/** The number of samples to draw: an integer from 10 to MAX_SAMPLES. */
export function parseN(text) {
  if (!INTEGER.test(String(text))) return { error: 'the number of samples is a whole number, such as 10000' };
  const n = Number(text);
  if (n < 10 || n > MAX_SAMPLES) return { error: `between 10 and ${MAX_SAMPLES.toLocaleString('en')} samples` };
  return { value: n };
}

/** The seed: a non-negative integer. */
export function parseSeed(text) {
  if (!INTEGER.test(String(text)) || !Number.isSafeInteger(Number(text))) return { error: 'the seed is a whole number ≥ 0' };
  return { value: Number(text) };
}

/** The k-NN rule's k: 'ln', 'log10' or a whole number ≥ 1 (the engine's option as it takes it). */
export function parseKnn(text) {
  const t = String(text).trim();
  if (t === 'ln' || t === 'log10') return { value: t };
  if (!INTEGER.test(t) || Number(t) < 1 || Number(t) > 1000) return { error: 'k of the k-NN rule: ln, log10 or a whole number from 1 to 1000' };
  return { value: Number(t) };
}

/** The nearest-neighbour MI estimator's k: a whole number from 1 to 100. */
export function parseMiK(text) {
  const t = String(text).trim();
  if (!INTEGER.test(t) || Number(t) < 1 || Number(t) > 100) return { error: 'k of the MI estimator: a whole number from 1 to 100' };
  return { value: Number(t) };
}

/** The binning: null (none), 'fd' or a number of bins from 2 to 10,000. */
export function parseBins(text) {
  const t = String(text).trim();
  if (t === 'none' || t === '') return { value: null };
  if (t === 'fd') return { value: 'fd' };
  if (!INTEGER.test(t) || Number(t) < 2 || Number(t) > 10000) return { error: 'bins: none, fd (Freedman–Diaconis) or a whole number from 2 to 10,000' };
  return { value: Number(t) };
}

const CHECKS = {
  source: (v) => (v === 'channel' || v === 'file' ? null : `source: expected 'channel' or 'file'`),
  kind: (v) => (['auto', 'numbers', 'labels'].includes(v) ? null : `kind: expected 'auto', 'numbers' or 'labels'`),
  knn: (v) => parseKnn(v).error ?? null,
  miK: (v) => parseMiK(v).error ?? null,
  bins: (v) => parseBins(v).error ?? null,
};

/** A state from a link, checked: the clean state, or an Error naming what is wrong. */
export function checkState(s) {
  if (!s || typeof s !== 'object' || Array.isArray(s)) throw new Error('the state must be an object');
  for (const k of Object.keys(s)) if (!(k in DEFAULT_STATE)) throw new Error(`unknown key ${k}`);
  const out = { ...DEFAULT_STATE };
  for (const k of Object.keys(DEFAULT_STATE)) {
    if (s[k] === undefined) continue;
    const msg = CHECKS[k]?.(String(s[k]));
    if (msg) throw new Error(msg);
    out[k] = String(s[k]);
  }
  return out;
}

export function assignState(state, s) {
  for (const k of Object.keys(DEFAULT_STATE)) if (s[k] !== undefined) state[k] = String(s[k]);
}

// ---------------------------------------------------------------- reading the columns

/** Number of distinct values of a list, or of the rows of a {rows, cols, data} matrix. */
export function distinctCount(x) {
  if (x && x.data && x.cols > 1) {
    const seen = new Set();
    for (let i = 0; i < x.rows; i++) seen.add(Array.prototype.join.call(x.data.subarray(i * x.cols, (i + 1) * x.cols), ','));
    return seen.size;
  }
  return new Set(x && x.data ? x.data : x).size;
}

/**
 * How numeric observation columns are read when the user has not said: numbers (compared by
 * distance) when any value is not a whole number or when more than max(20, n/20) rows are
 * distinct, labels otherwise — the engine's rule for a plain array of numbers, applied to the
 * whole rows. Label observations (any cell not a number) are labels. Returns {kind, why}.
 */
export function autoKind(observations) {
  if (!observations || !observations.data) return { kind: 'labels', why: 'some cells are not numbers' };
  const { data, rows } = observations;
  if (!data.every(Number.isInteger)) return { kind: 'numbers', why: 'the values are not all whole numbers' };
  const d = distinctCount(observations);
  const limit = Math.max(20, rows / 20);
  if (d > limit) return { kind: 'numbers', why: `${d.toLocaleString('en')} distinct values, more than ${Math.floor(limit).toLocaleString('en')}` };
  return { kind: 'labels', why: `whole numbers with ${d.toLocaleString('en')} distinct values` };
}

/** The kind used: the user's choice where the data allow it, else the automatic one. */
export function kindOf(choice, observations) {
  const auto = autoKind(observations);
  if (choice === 'numbers' && !observations?.data) return { ...auto, forced: false, refused: 'some cells are not numbers, so they can only be labels' };
  if (choice === 'numbers' || choice === 'labels') return { kind: choice, why: 'as chosen', forced: true };
  return { ...auto, forced: false };
}

/**
 * Numeric observation rows as labels: Int32Array codes into names ("0.5" or "(0.5, 1)"), in
 * order of first appearance — for the label estimators and the estimated channel's table.
 */
export function asLabels(observations) {
  const { rows, cols, data } = observations;
  const at = new Map();
  const names = [];
  const codes = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const key = cols === 1 ? String(data[i]) : `(${Array.prototype.join.call(data.subarray(i * cols, (i + 1) * cols), ', ')})`;
    let c = at.get(key);
    if (c === undefined) { c = names.length; at.set(key, c); names.push(key); }
    codes[i] = c;
  }
  return { codes, names };
}

/**
 * A note for numeric observations of which fewer than half are distinct (values rounded to a
 * coarse unit): tied values are at distance 0. The engine's MI estimate spreads them within their
 * rounding step (it was biased low on them before: timings to 0.01 µs with 2 µs jitter, 1,685
 * distinct of 10,000 values); the Bayes-risk rules still see the ties. null when at least half are
 * distinct.
 */
export function tieNote(distinct, n) {
  if (!(n > 0) || distinct >= n / 2) return null;
  return `Only ${distinct.toLocaleString('en')} of the ${n.toLocaleString('en')} observations are distinct: the values are rounded, ` +
    'and rounded values tie at distance 0. The MI estimate spreads them within their rounding step first (which leaves the MI ' +
    'unchanged); the nearest-neighbour rules of the Bayes risk count every sample at the same distance. If the measurements ' +
    'have more digits than the file, keep them.';
}

/** Whether label estimators would refuse: more than n/5 distinct observations (with the count). */
export function mostlyDistinct(observations, n) {
  const d = distinctCount(observations);
  return { refused: d > n / 5, distinct: d };
}

/** The message shown where a label estimator refuses mostly-distinct data. */
export function refusalMessage(distinct, n) {
  return `Read as labels, ${distinct.toLocaleString('en')} of the ${n.toLocaleString('en')} observations are distinct: ` +
    'counting equal observations cannot tell a leak from none on such data, so mutual information and min-entropy ' +
    'leakage are not estimated from labels. Read the observations as numbers, or choose bins.';
}

// ---------------------------------------------------------------- the secret column

/** The prior estimated from the secrets: π̂ by value, its largest entry and 1 − max π̂. */
export function priorOf(secrets) {
  const counts = new Map();
  for (const s of secrets) counts.set(s, (counts.get(s) ?? 0) + 1);
  let max = 0;
  for (const c of counts.values()) if (c > max) max = c;
  const n = secrets.length;
  return { values: counts.size, maxPrior: n ? max / n : NaN, baseline: n ? 1 - max / n : NaN };
}

/**
 * Whether the columns look swapped: a secret column with more than n/2 distinct values is almost
 * surely an observation column. Returns {suspect, distinct, canSwap, why?}; canSwap when the first
 * observation column can become the secret (one observation column, or numeric secrets that can
 * join the others).
 */
export function swapSuspect(t) {
  const n = t.secrets.length;
  const distinct = new Set(t.secrets).size;
  const suspect = n > 0 && distinct > n / 2;
  const numeric = Boolean(t.observations?.data);
  const canSwap = suspect && (t.observationColumns === 1 || (numeric && !t.secretNames));
  return { suspect, distinct, canSwap, why: suspect && !canSwap ? 'reorder the columns in the file: the secret first' : undefined };
}

/**
 * The table read with its first two columns exchanged: the first observation column becomes the
 * secret, the secret the first observation column. Pure; t is readSamples' result.
 */
export function swapColumns(t) {
  const n = t.rows;
  const k = t.observationColumns;
  let secrets, secretNames = null;
  if (t.observations.data) {
    const col = new Float64Array(n);
    for (let i = 0; i < n; i++) col[i] = t.observations.data[i * k];
    secrets = col.every((x) => Number.isInteger(x) && Math.abs(x) < 2 ** 31) ? Int32Array.from(col) : col;
  } else {
    secrets = t.observations;
    secretNames = t.observationNames;
  }
  let observations, observationNames = null;
  if (!t.secretNames && (k === 1 || t.observations.data)) {
    const data = new Float64Array(n * k);
    for (let i = 0; i < n; i++) {
      data[i * k] = t.secrets[i];
      for (let j = 1; j < k; j++) data[i * k + j] = t.observations.data[i * k + j];
    }
    observations = { rows: n, cols: k, data };
  } else {
    observations = t.secrets;
    observationNames = t.secretNames;
  }
  const header = t.header ? [t.header[1], t.header[0], ...t.header.slice(2)] : null;
  return { ...t, secrets, secretNames, observations, observationNames, header, swapped: !t.swapped };
}

// ---------------------------------------------------------------- what is shown

/** The zero-leakage verdict of estimate.mutualInformation, in words. */
export function verdict(mi, fmt = String) {
  if (mi.method === 'nn') {
    // The nearest-neighbour estimate and its shuffled copies can be negative: the threshold is a
    // percentile of the estimator on shuffled data, said as such.
    const of = `${fmt(mi.zeroLeakageThreshold)} bits, the 95th percentile of the same estimator on shuffled data (the secrets permuted against the observations, which leak nothing)`;
    if (mi.leaks) return `The data show leakage: the estimate ${fmt(mi.value)} bits is above ${of}.`;
    return `No leakage detected: the estimate ${fmt(mi.value)} bits is not above ${of}. This does not show that nothing leaks: ` +
      'a smaller leak cannot be told from noise with this many samples.';
  }
  if (mi.leaks) {
    return `The data show leakage: the estimate ${fmt(mi.value)} bits is above ${fmt(mi.zeroLeakageThreshold)} bits, ` +
      'what independent secrets and observations stay below in 95% of samples this size (χ² test and shuffled data agree).';
  }
  return `No leakage detected: the estimate ${fmt(mi.value)} bits is within what independent secrets and observations ` +
    `produce (below ${fmt(mi.zeroLeakageThreshold)} bits in 95% of samples this size). This does not show that nothing leaks: ` +
    'a smaller leak cannot be told from noise with this many samples.';
}

/** The rules whose Bayes risk is shown: all three on labels, NN and k-NN on numbers. */
export function rulesFor(numbers) {
  return numbers ? ['nn', 'knn'] : ['frequentist', 'nn', 'knn'];
}

export const RULE_NAMES = { frequentist: 'Frequentist', nn: 'Nearest neighbour', knn: 'k nearest neighbours' };

/** Whether the estimated channel is small enough to show as a table. */
export const SHOW_CHANNEL_UP_TO = 400;

/**
 * The sizes of the convergence plot: about six doublings ending at n, none below `least` (the
 * smallest sample the estimator is given). Increasing; the last is n.
 */
export function convergenceSizes(n, least = 200, points = 6) {
  const out = [n];
  for (let m = Math.floor(n / 2); out.length < points && m >= least; m = Math.floor(m / 2)) out.unshift(m);
  return out;
}

/**
 * A seeded permutation of 0..n−1 (Fisher–Yates driven by mulberry32): the convergence plot's
 * subsets are prefixes of it, so that a file sorted by secret still gives every secret at every size.
 */
export function permutation(n, seed) {
  let a = (Number(seed) * 0x9e3779b1 + 0x6d2b79f5) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const t = p[i]; p[i] = p[j]; p[j] = t;
  }
  return p;
}

/** The first m samples of a permutation: secrets and observations (labels or a matrix). */
export function subsample(secrets, observations, perm, m) {
  const xs = new secrets.constructor(m);
  for (let i = 0; i < m; i++) xs[i] = secrets[perm[i]];
  let os;
  if (observations.data) {
    const { cols, data } = observations;
    const d = new Float64Array(m * cols);
    for (let i = 0; i < m; i++) d.set(data.subarray(perm[i] * cols, (perm[i] + 1) * cols), i * cols);
    os = { rows: m, cols, data: d };
  } else {
    os = new observations.constructor(m);
    for (let i = 0; i < m; i++) os[i] = observations[perm[i]];
  }
  return { secrets: xs, observations: os };
}

/**
 * The bins the engine reports, in words: a count, edges (one list, or one per observation column)
 * or {edges}; without a report, what was asked.
 */
export function binsText(reported, asked) {
  const edges = (e) => (Array.isArray(e) || ArrayBuffer.isView(e) ? e : e && (e.edges ?? null));
  const one = (e) => {
    const x = edges(e);
    if (typeof e === 'number') return `${e} bins`;
    if (!x || x.length < 2) return null;
    return `${x.length - 1} bins from ${+Number(x[0]).toPrecision(6)} to ${+Number(x[x.length - 1]).toPrecision(6)}`;
  };
  if (reported !== undefined && reported !== null) {
    const list = Array.isArray(reported) && reported.length && typeof reported[0] !== 'number' ? reported : [reported];
    const texts = list.map(one).filter(Boolean);
    if (texts.length === list.length) return texts.length === 1 ? texts[0] : texts.map((t, j) => `column ${j + 2}: ${t}`).join('; ');
  }
  if (asked === 'fd') return 'Freedman–Diaconis bins';
  if (typeof asked === 'number') return `${asked} equal-width bins`;
  return 'none';
}

/** What each estimate and its interval are, for the export (the engine's note when it gives one). */
export function intervalMethod(what, r) {
  if (r && typeof r.note === 'string' && r.note) return r.note;
  switch (what) {
    case 'mi-nn': return 'the spread of the nearest-neighbour estimate over disjoint parts of the sample, widened by the bias seen there';
    case 'mi': return 'union of the bootstrap intervals (basic ∪ percentile) of the plug-in and the corrected estimate; 0 when the zero-leakage test does not reject';
    case 'me': return 'finite-sample Clopper–Pearson bounds on the posterior and prior vulnerabilities; 0 when the zero-leakage test does not reject';
    case 'me-nn': return 'carried through from the Bayes-risk interval: log₂((1 − R)/max π̂)';
    default: return 'upper: Clopper–Pearson of the rule’s test error; lower: 1 − Clopper–Pearson of the frequentist rule’s success rate on all samples (both bounds at this n)';
  }
}

/** The "how to cite" line. */
export function citeLine(version) {
  return `QIF Toolkit${version ? ` ${version}` : ''} (https://github.com/qif-toolkit/qif; see its CITATION.cff), ` +
    'with the estimators of Chothia, Kawamoto and Novakovic, "A Tool for Estimating Information Leakage" (CAV 2013); ' +
    'Cherubin, Chatzikokolakis and Palamidessi, "F-BLEAU: Fast Black-box Leakage Estimation" (S&P 2019); and ' +
    'Ross, "Mutual Information between Discrete and Continuous Data Sets" (PLoS ONE 2014).';
}

/** The provenance of the results: [name, value] pairs, in the order a reader wants them. */
export function provenance(r, version) {
  const p = r.provenance ?? {};
  const out = [['source', p.source ?? ''], ['n', p.n ?? ''], ['seed', p.seed ?? ''], ['observations read as', r.kind ?? '']];
  if (r.knnK !== undefined) out.push(['k (k-NN rule)', r.knnK]);
  if (r.miK !== undefined) out.push(['k (MI estimator)', r.miK]);
  out.push(['bins', r.binsText ?? 'none']);
  out.push(['confidence', 0.95], ['toolkit version', version ?? '']);
  return out;
}

/**
 * The results as a table for the Export menu: one row per estimate, with its interval, the
 * interval's method and, when the samples were drawn from a known channel, the exact value; the
 * provenance and the citation travel with it (notes, cite).
 */
export function resultsTable(r, version) {
  const rows = [];
  const exact = (k) => (r.exact && Number.isFinite(r.exact[k]) ? r.exact[k] : '');
  if (r.miNN) rows.push([`Mutual information (bits), nearest neighbours (k = ${r.miNN.k ?? r.miK})`, r.miNN.value, '', r.miNN.lower, r.miNN.upper, exact('mi'), intervalMethod('mi-nn', r.miNN)]);
  if (r.meNN) rows.push(['Min-entropy leakage (bits), from the Bayes risk', r.meNN.value, '', r.meNN.lower, r.meNN.upper, exact('me'), intervalMethod('me-nn', r.meNN)]);
  const binned = r.binsText && r.binsText !== 'none' ? `, ${r.binsText}` : '';
  if (r.mi) rows.push([`Mutual information (bits), counted${binned}`, r.mi.value, r.mi.corrected, r.mi.lower, r.mi.upper, r.miNN ? '' : exact('mi'), intervalMethod('mi', r.mi)]);
  if (r.me) rows.push([`Min-entropy leakage (bits), counted${binned}`, r.me.value, '', r.me.lower, r.me.upper, r.meNN ? '' : exact('me'), intervalMethod('me', r.me)]);
  for (const [rule, b] of Object.entries(r.risk ?? {})) {
    rows.push([`Bayes risk, ${RULE_NAMES[rule]}${rule === 'knn' ? ` (k = ${b.k})` : ''}`, b.value, b.nnBound, b.lower, b.upper, exact('risk'), intervalMethod('risk', b)]);
  }
  if (Number.isFinite(r.baseline)) rows.push(['Prior’s baseline 1 − max π̂', r.baseline, '', '', '', '', '']);
  return {
    kind: 'table', what: 'estimates from samples', corner: 'estimate',
    colLabels: ['value', 'corrected / NN bound', 'lower (95%)', 'upper (95%)', 'exact', 'interval'],
    rowLabels: rows.map((x) => x[0]), rows: rows.map((x) => x.slice(1)),
    notes: provenance(r, version), cite: citeLine(version),
  };
}
