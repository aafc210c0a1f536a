// format.js — exact results for the "Channel & leakage" section. When every input is a simple
// fraction (reduced denominator ≤ MAX_DENOMINATOR) and the matrices are small, the rational-valued
// measures of docs/mathematics.md#entropies-and-leakage (vulnerabilities, risks, leakages,
// g-vulnerability, guessing entropy, the hyper-distribution) are rational too: the page shows them
// as "2/7 ≈ 0.2857" next to the decimal from the wasm. So are the logarithmic measures whose
// logarithms are of powers of two (a uniform prior on 8 secrets has H = 3 bits, a posterior
// (1/2, 1/4, 1/4) an entropy of 3/2): exports then write 3, not the engine's 2.9999999999999996. The arithmetic here is exact (BigInt
// numerators and denominators); it is a second, independent computation, and a fraction is shown
// only when it agrees with the engine's value. Pure functions except showExact/exactCell, which
// build DOM through textContent only.

import { formatNumber, formatFull } from './numbers.js';
import { parseRational } from './input/number.js';
import { Fraction } from './rational.js';

export { Fraction };

/** Largest reduced denominator of an input entry for which exact results are shown. */
export const MAX_DENOMINATOR = 1000n;
/** Largest number of matrix entries (n·m, and |W|·n) for which exact results are computed. */
export const MAX_ENTRIES = 4096;
/** Largest denominator of a result still shown as a fraction (beyond, it is no longer "simple"). */
export const MAX_RESULT_DENOMINATOR = 10n ** 12n;

const ZERO = new Fraction(0n);
const ONE = new Fraction(1n);

/**
 * Reads a typed entry exactly with the page's one grammar (input/number.js): "0.25", "1/3",
 * "2.5e-3", "1 − 1/3" … Returns null for anything else (logarithms, exponents beyond ±60, text).
 * @param {string} text
 * @returns {Fraction | null}
 */
export function parseFraction(text) {
  return parseRational(text);
}

/** Parses an entry and accepts it only when its reduced denominator is ≤ MAX_DENOMINATOR. */
export function simpleFraction(text) {
  const f = parseFraction(text);
  return f && f.d <= MAX_DENOMINATOR ? f : null;
}

function simpleVector(texts) {
  const out = [];
  for (const t of texts) {
    const f = simpleFraction(t);
    if (!f) return null;
    out.push(f);
  }
  return out;
}

function simpleMatrix(rows) {
  const out = [];
  for (const r of rows) {
    const v = simpleVector(r);
    if (!v) return null;
    out.push(v);
  }
  return out;
}

const sum = (xs) => xs.reduce((a, b) => a.add(b), ZERO);

const powerOfTwo = (b) => b > 0n && (b & (b - 1n)) === 0n;

/** log₂ f when f is a power of two (2^k, k a whole number), else null. */
export function log2Exact(f) {
  if (f.sign() <= 0) return null;
  if (f.n === 1n && powerOfTwo(f.d)) return new Fraction(-BigInt(f.d.toString(2).length - 1));
  if (f.d === 1n && powerOfTwo(f.n)) return new Fraction(BigInt(f.n.toString(2).length - 1));
  return null;
}

/** Shannon entropy in bits of a distribution whose non-zero entries are powers of two, else null. */
function entropyExact(p) {
  let h = ZERO;
  for (const x of p) {
    if (x.isZero()) continue;
    const l = log2Exact(x);
    if (!l) return null;
    h = h.sub(x.mul(l));
  }
  return h;
}
const max = (xs) => xs.reduce((a, b) => (b.cmp(a) > 0 ? b : a));

/** Guessing entropy Σ_i i·q_(i) of non-negative weights q sorted decreasingly (i from 1). */
function guessing(q) {
  const sorted = q.slice().sort((a, b) => b.cmp(a));
  return sorted.reduce((acc, v, i) => acc.add(v.mul(new Fraction(BigInt(i + 1)))), ZERO);
}

/**
 * The exact values of the rational-valued measures of docs/mathematics.md#entropies-and-leakage for
 * the inputs as typed, or null when some input is not a simple fraction, a row or the prior does
 * not sum to exactly 1, or the matrices are too large. Keys are those of measures.js; the gain
 * measures are present only when the gain is simple too; `hyper` lists every outer and inner value
 * of [π▷C].
 * @param {{cells: string[][], prior: string[], gain?: string[][]}} s
 * @returns {Record<string, Fraction> & {hyper?: Fraction[]} | null}
 */
export function exactMeasures(s) {
  const n = s.cells.length;
  const m = n ? s.cells[0].length : 0;
  if (!n || !m || n * m > MAX_ENTRIES || s.prior.length !== n || s.cells.some((r) => r.length !== m)) return null;
  const C = simpleMatrix(s.cells);
  const prior = simpleVector(s.prior);
  if (!C || !prior) return null;
  if (prior.some((p) => p.sign() < 0) || !sum(prior).eq(ONE)) return null;
  if (C.some((row) => row.some((c) => c.sign() < 0) || !sum(row).eq(ONE))) return null;

  // Joint J[x][y] = π(x) C(x,y), by columns.
  const cols = Array.from({ length: m }, (_, y) => Array.from({ length: n }, (_, x) => prior[x].mul(C[x][y])));
  const outer = cols.map(sum);
  const V = max(prior);
  const Vpost = sum(cols.map(max));
  const out = {
    bayesVulnerability: V,
    bayesRiskPrior: ONE.sub(V),
    posteriorBayesVulnerability: Vpost,
    bayesRiskPosterior: ONE.sub(Vpost),
    bayesLeakageAdd: Vpost.sub(V),
    guessingEntropy: guessing(prior),
    // Σ_y p(y) G(δʸ) = Σ_y G(J[·][y]): the guessing sum is linear in the weights.
    posteriorGuessingEntropy: sum(cols.map(guessing)),
  };
  if (!V.isZero()) out.bayesLeakageMult = Vpost.div(V);
  let vmax = null;
  const values = [];
  for (let y = 0; y < m; y++) {
    if (outer[y].isZero()) continue;
    const post = cols[y].map((j) => j.div(outer[y]));
    const v = max(post);
    if (!vmax || v.cmp(vmax) > 0) vmax = v;
    values.push(outer[y], ...post);
  }
  // Equal posteriors merge in the hyper: their outers add up.
  for (let a = 0; a < m; a++) {
    let merged = outer[a];
    for (let b = a + 1; b < m; b++) {
      if (outer[a].isZero() || outer[b].isZero()) continue;
      if (cols[a].every((j, x) => j.div(outer[a]).eq(cols[b][x].div(outer[b])))) merged = merged.add(outer[b]);
    }
    if (merged !== outer[a]) values.push(merged);
  }
  out.hyper = values;
  if (vmax) out.maxCaseBayesVulnerability = vmax;

  // Logarithmic measures, exact where every logarithm is of a power of two.
  const H = entropyExact(prior);
  if (H) out.shannonEntropy = H;
  let Hpost = ZERO;
  let cachin = ZERO;
  for (let y = 0; y < m && (Hpost || cachin); y++) {
    if (outer[y].isZero()) continue;
    const post = cols[y].map((j) => j.div(outer[y]));
    const h = Hpost && entropyExact(post);
    const v = cachin && log2Exact(max(post));
    Hpost = h ? Hpost.add(outer[y].mul(h)) : null;
    cachin = v ? cachin.sub(outer[y].mul(v)) : null;
  }
  if (Hpost) out.conditionalShannonEntropy = Hpost;
  if (H && Hpost) out.mutualInformation = H.sub(Hpost);
  if (cachin) out.conditionalMinEntropyCachin = cachin;
  const lV = log2Exact(V);
  const lVpost = log2Exact(Vpost);
  if (lV) out.minEntropy = ZERO.sub(lV);
  if (lVpost) out.conditionalMinEntropy = ZERO.sub(lVpost);
  if (!V.isZero()) {
    const leak = log2Exact(Vpost.div(V));
    if (leak) out.minEntropyLeakage = leak;
  }
  const cmax = log2Exact(sum(Array.from({ length: m }, (_, y) => max(C.map((row) => row[y])))));
  if (cmax) out.minCapacity = cmax;
  // Rényi entropies of a prior uniform on 2^k secrets are all k.
  const support = prior.filter((p) => !p.isZero());
  if (support.every((p) => p.eq(support[0]))) {
    const k = log2Exact(new Fraction(BigInt(support.length)));
    if (k) out.renyiEntropy = k;
  }

  const k = s.gain ? s.gain.length : 0;
  const G = k && k * n <= MAX_ENTRIES && s.gain.every((r) => r.length === n) ? simpleMatrix(s.gain) : null;
  if (G) {
    const Vg = max(G.map((row) => sum(row.map((g, x) => g.mul(prior[x])))));
    const Vgpost = sum(cols.map((col) => max(G.map((row) => sum(row.map((g, x) => g.mul(col[x])))))));
    out.gVulnerability = Vg;
    out.posteriorGVulnerability = Vgpost;
    out.gLeakageAdd = Vgpost.sub(Vg);
    if (Vg.sign() > 0) out.gLeakageMult = Vgpost.div(Vg);
  }
  return out;
}

/** Whether a fraction is worth showing beside the decimal: not an integer, and not too long. */
function showable(f) {
  return f instanceof Fraction && f.d !== 1n && f.d <= MAX_RESULT_DENOMINATOR;
}

/** Whether the engine's value v is the fraction f (relative 1e-9: they are computed apart). */
export function agrees(f, v) {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(f.toNumber() - v) <= 1e-9 * Math.max(1, Math.abs(v));
}

/** The exact value "n/d" of a result the page shows beside the engine's v, or ''. */
export function exactValue(f, v) {
  return showable(f) && agrees(f, v) ? `${f.n}/${f.d}` : '';
}

/**
 * The exact value of a result as exports write it — "n/d", or "n" for a whole number — when
 * the page knows it and it agrees with the engine's v, else ''.
 */
export function exactText(f, v) {
  if (!(f instanceof Fraction) || f.d > MAX_RESULT_DENOMINATOR || !agrees(f, v)) return '';
  return f.d === 1n ? `${f.n}` : `${f.n}/${f.d}`;
}

/** The double nearest to the exact candidate that v is (the hyper's values), else v itself. */
export function exactNumber(v, candidates) {
  const f = candidates ? candidates.find((c) => agrees(c, v) && Math.abs(c.toNumber() - v) <= 1e-12) : null;
  return f ? f.toNumber() : v;
}

/**
 * The text beside a decimal: "2/7 ≈ " (or "1/4 = " when the decimal shown is exact), or ''
 * when there is no fraction to show or it disagrees with v.
 * @param {Fraction | null | undefined} f
 * @param {number} v   the engine's value
 */
export function exactPrefix(f, v) {
  if (!showable(f) || !agrees(f, v)) return '';
  const shown = parseFraction(formatNumber(v).replace(/\u2212/g, '-'));
  return `${f} ${shown && shown.eq(f) ? '=' : '≈'} `;
}

/**
 * Shows (or clears) the exact fraction in a <span class="exact"> just before a value element.
 * @param {HTMLElement} valueEl the <output> showing the decimal
 * @param {Fraction | null | undefined} f
 * @param {number} v
 */
export function showExact(valueEl, f, v) {
  let span = valueEl.previousElementSibling;
  if (!span || !span.classList.contains('exact')) {
    if (!showable(f)) return;
    span = document.createElement('span');
    span.className = 'exact';
    if (valueEl.dataset.testid) span.dataset.testid = valueEl.dataset.testid.replace(/^value-/, 'exact-');
    valueEl.before(span);
  }
  span.textContent = exactPrefix(f, v);
  if (span.textContent) span.dataset.value = `${f.n}/${f.d}`;
  else delete span.dataset.value;
}

/**
 * Text of a table cell holding v: "2/7 ≈ 0.2857" when v is one of the exact candidates (the
 * hyper values of exactMeasures), else the decimal alone.
 * @param {number} v
 * @param {Fraction[] | null | undefined} candidates
 */
export function exactCell(v, candidates) {
  const f = candidates ? candidates.find((c) => agrees(c, v) && Math.abs(c.toNumber() - v) <= 1e-12) : null;
  return `${exactPrefix(f, v)}${formatNumber(v)}`;
}

export { formatNumber, formatFull };
