// reference.mjs — plain-JS reference values of docs/mathematics.md#entropies-and-leakage (and the
// g-vulnerability and induced metric of the refinement tests), written from the definitions and
// independent of the Go code, so the tests can check the numbers the page and the API give. Small
// inputs only: clarity over speed.

const log2 = Math.log2;

export function shannon(p) {
  return -p.reduce((s, q) => (q > 0 ? s + q * log2(q) : s), 0);
}

export function renyi(p, alpha) {
  if (alpha === 1) return shannon(p);
  if (alpha === Infinity) return -log2(Math.max(...p));
  if (alpha === 0) return log2(p.filter((q) => q > 0).length);
  return log2(p.reduce((s, q) => (q > 0 ? s + q ** alpha : s), 0)) / (1 - alpha);
}

export function joint(prior, C) {
  return C.map((row, x) => row.map((c) => prior[x] * c));
}

/** Output probabilities p(y) and posteriors δʸ for the outputs with p(y) > 0. */
export function posteriors(prior, C) {
  const J = joint(prior, C);
  const m = C[0].length;
  const out = [];
  for (let y = 0; y < m; y++) {
    const py = J.reduce((s, row) => s + row[y], 0);
    if (py > 0) out.push({ y, py, post: J.map((row) => row[y] / py) });
  }
  return out;
}

export function guessing(p) {
  return [...p].sort((a, b) => b - a).reduce((s, q, i) => s + (i + 1) * q, 0);
}

export function gVuln(G, p) {
  return Math.max(...G.map((row) => row.reduce((s, g, x) => s + g * p[x], 0)));
}

export function all(prior, C, G = null, alpha = 2) {
  const n = prior.length;
  const J = joint(prior, C);
  const m = C[0].length;
  const posts = posteriors(prior, C);
  const H = shannon(prior);
  const HXY = posts.reduce((s, { py, post }) => s + py * shannon(post), 0);
  let colMaxJ = 0;
  let colMaxC = 0;
  for (let y = 0; y < m; y++) {
    colMaxJ += Math.max(...J.map((row) => row[y]));
    colMaxC += Math.max(...C.map((row) => row[y]));
  }
  const V = Math.max(...prior);
  const Vpost = colMaxJ;
  const Gm = G ?? Array.from({ length: n }, (_, w) => Array.from({ length: n }, (_, x) => (w === x ? 1 : 0)));
  let gpost = 0;
  for (let y = 0; y < m; y++) gpost += Math.max(...Gm.map((row) => row.reduce((s, g, x) => s + g * J[x][y], 0)));
  const gprior = gVuln(Gm, prior);
  return {
    shannonEntropy: H,
    conditionalShannonEntropy: HXY,
    mutualInformation: H - HXY,
    renyiEntropy: renyi(prior, alpha),
    minEntropy: -log2(V),
    conditionalMinEntropy: -log2(Vpost),
    conditionalMinEntropyCachin: -posts.reduce((s, { py, post }) => s + py * log2(Math.max(...post)), 0),
    minEntropyLeakage: log2(Vpost / V),
    minCapacity: log2(colMaxC),
    bayesVulnerability: V,
    posteriorBayesVulnerability: Vpost,
    bayesRisk: 1 - V,
    posteriorBayesRisk: 1 - Vpost,
    multiplicativeBayesLeakage: Vpost / V,
    additiveBayesLeakage: Vpost - V,
    maxCasePosteriorBayesVulnerability: Math.max(...posts.map(({ post }) => Math.max(...post))),
    guessingEntropy: guessing(prior),
    posteriorGuessingEntropy: posts.reduce((s, { py, post }) => s + py * guessing(post), 0),
    gVulnerability: gprior,
    posteriorGVulnerability: gpost,
    multiplicativeGLeakage: gpost / gprior,
    additiveGLeakage: gpost - gprior,
    // Capacities: the largest multiplicative Bayes leakage (attained at the uniform prior), the
    // largest ratio of prior to posterior Bayes risk, 1/(1 − diam/2) with diam the largest L1
    // distance between two rows (infinite for two disjoint rows), and the additive g-capacity for
    // this prior over 1-spanning vulnerabilities, 1 − Σ_y min over the secrets of positive
    // prior of C(x, y).
    multiplicativeBayesCapacity: colMaxC,
    multiplicativeBayesRiskCapacity: riskCapacity(C),
    additiveGCapacity: 1 - Array.from({ length: m }, (_, y) => Math.min(...C.filter((_, x) => prior[x] > 0).map((row) => row[y]))).reduce((s, v) => s + v, 0),
  };
}

function riskCapacity(C) {
  let diam = 0;
  for (const r of C) for (const q of C) diam = Math.max(diam, r.reduce((s, v, y) => s + Math.abs(v - q[y]), 0));
  // Two disjoint rows: diam = 2 up to rounding, and the posterior risk can be 0.
  return diam >= 2 - 1e-12 ? Infinity : 1 / (1 - diam / 2);
}

/** Number of distinct posteriors (merged within 1e-9): the rows of the hyper's inners. */
export function distinctPosteriors(prior, C) {
  const seen = [];
  for (const { post } of posteriors(prior, C)) {
    if (!seen.some((q) => q.every((v, i) => Math.abs(v - post[i]) <= 1e-9))) seen.push(post);
  }
  return seen.length;
}

/** A channel on which Blahut–Arimoto needs many iterations (random rows with a heavy skew). */
export function slowChannel(n) {
  let s = 7;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
  return Array.from({ length: n }, () => {
    const r = Array.from({ length: n }, () => rnd() ** 4);
    const t = r.reduce((a, b) => a + b, 0);
    return r.map((v) => v / t);
  });
}

/**
 * A seeded n × m channel whose entries are k/10⁶ (short decimals, as a spreadsheet holds them):
 * each row's integers sum to 10⁶ exactly, so each row sums to 1 up to the rounding of its
 * decimals. Rows are skewed so that the measures are not those of a uniform channel.
 */
export function decimalChannel(n, m, seed = 11) {
  let s = seed;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647;
  const D = 1_000_000;
  const C = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    const w = Array.from({ length: m }, () => (rnd() < 0.3 ? 0 : rnd() ** 4));
    w[i % m] += 2; // a heavy entry per row
    const total = w.reduce((a, b) => a + b, 0);
    let left = D;
    for (let j = 0; j < m; j++) {
      const k = j === m - 1 ? left : Math.floor((w[j] / total) * D);
      left -= k;
      C[i * m + j] = k / D;
    }
  }
  return C;
}

/**
 * The n × m channel C (row-major) as the CSV text an export writes: a header row of quoted
 * output labels y1…ym, then each row's quoted label x1…xn and its entries.
 */
export function labelledCSV(C, n, m) {
  const out = [['', ...Array.from({ length: m }, (_, j) => `"y${j + 1}"`)].join(',')];
  for (let i = 0; i < n; i++) out.push([`"x${i + 1}"`, ...C.subarray(i * m, (i + 1) * m)].join(','));
  return `${out.join('\n')}\n`;
}

/** V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y] (rows of G guesses, columns secrets), by brute force. */
export function postG(G, prior, C) {
  let v = 0;
  for (let y = 0; y < C[0].length; y++) {
    let best = -Infinity;
    for (const g of G) best = Math.max(best, g.reduce((s, gx, x) => s + gx * prior[x] * C[x][y], 0));
    v += best;
  }
  return v;
}

/** d_C(x, x′) = max_y |ln C[x][y] − ln C[x′][y]| (docs/mathematics.md#d-privacy); 0/0 adds nothing, one 0 gives ∞. */
export function inducedMetric(C) {
  return C.map((r) => C.map((r2) => r.reduce((d, v, y) => {
    const w = r2[y];
    if (v === 0 && w === 0) return d;
    if (v === 0 || w === 0) return Infinity;
    return Math.max(d, Math.abs(Math.log(v) - Math.log(w)));
  }, 0)));
}
