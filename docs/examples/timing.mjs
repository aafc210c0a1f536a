// docs/examples/timing.mjs — writes timing.csv, the worked example of the guide "Estimating leakage
// from samples", and prints the exact leakage of the system it samples.
//
//   node docs/examples/timing.mjs > docs/examples/timing.csv     (the exact values go to stderr)
//
// The system: a 4-bit key drawn uniformly; an operation whose time grows by 3 µs with each set bit
// (square-and-multiply does one multiplication per set bit), 412 µs at weight 0, with Gaussian
// jitter of standard deviation 2 µs. The secret is the key's Hamming weight w (0..4, prior
// C(4, w)/16); the observation is the time in microseconds, to the nanosecond (0.001 µs). 10,000 samples, seed 2026.
//
// The exact values are integrals over the time t of the mixture p(t) = Σ_w π_w N(t; μ_w, σ²),
// computed here by Simpson's rule on a grid of 0.001 µs from μ_0 − 12σ to μ_4 + 12σ (the tails
// beyond hold less than 1e-30 of the mass):
//   I(W; T) = Σ_w π_w ∫ f_w(t) log₂(f_w(t) / p(t)) dt   (f_w the density of N(μ_w, σ²))
//   R* = 1 − ∫ max_w π_w f_w(t) dt,   min-entropy leakage = log₂((1 − R*) / max_w π_w).

const N = 10000, SEED = 2026, BASE = 412, STEP = 3, SIGMA = 2;
const prior = [1, 4, 6, 4, 1].map((c) => c / 16);
const mu = prior.map((_, w) => BASE + STEP * w);

// mulberry32: a small seeded generator, so that the file is the same on every machine.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function samples() {
  const u = generator(SEED);
  const lines = ['weight,time_us'];
  for (let i = 0; i < N; i++) {
    const key = Math.floor(u() * 16);
    const w = (key & 1) + ((key >> 1) & 1) + ((key >> 2) & 1) + ((key >> 3) & 1);
    // Box–Muller; 1 − u() is in (0, 1], so the logarithm is finite.
    const z = Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
    lines.push(`${w},${(mu[w] + SIGMA * z).toFixed(3)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The exact MI (bits), Bayes risk and min-entropy leakage (bits) of the system, by Simpson's rule. */
export function exactValues({ base = BASE, step = STEP, sigma = SIGMA, h = 0.001 } = {}) {
  const m = prior.map((_, w) => base + step * w);
  const lo = m[0] - 12 * sigma, hi = m[4] + 12 * sigma;
  const steps = 2 * Math.ceil((hi - lo) / h / 2);
  const dt = (hi - lo) / steps;
  const dens = (t, w) => Math.exp(-0.5 * ((t - m[w]) / sigma) ** 2) / (sigma * Math.sqrt(2 * Math.PI));
  let mi = 0, vpost = 0;
  for (let i = 0; i <= steps; i++) {
    const t = lo + i * dt;
    const weight = i === 0 || i === steps ? 1 : i % 2 ? 4 : 2;
    const a = prior.map((p, w) => p * dens(t, w));
    const p = a.reduce((s, x) => s + x, 0);
    // π_w f_w log₂(f_w / p) = a_w log₂(a_w / (π_w p)), a_w = π_w f_w.
    let term = 0;
    a.forEach((x, w) => { if (x > 0) term += x * Math.log2(x / (prior[w] * p)); });
    mi += weight * term;
    vpost += weight * Math.max(...a);
  }
  mi *= dt / 3;
  vpost *= dt / 3;
  return { mi, risk: 1 - vpost, minEntropyLeakage: Math.log2(vpost / Math.max(...prior)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(samples());
  const x = exactValues();
  process.stderr.write(`exact: I(W;T) = ${x.mi.toFixed(4)} bits, R* = ${x.risk.toFixed(4)}, min-entropy leakage = ${x.minEntropyLeakage.toFixed(4)} bits, 1 − max π = ${1 - Math.max(...prior)}\n`);
}
