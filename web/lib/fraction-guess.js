// lib/fraction-guess.js — a floating-point result read as the small fraction it stands for, when
// it is one: a witness R of a refinement computed in floating point has entries like
// 0.8333333333333334, which a reader recognises as 5/6 only when shown so. The fraction is
// shown only when it is within a tolerance of the value (the value itself stays in a tooltip and
// in data-value), so nothing is rounded silently.

/**
 * The fraction p/q with q ≤ maxDenominator nearest x among its continued-fraction convergents
 * (the best rational approximations), as text ("5/6", "−1/4", "3", "0"), when it is within
 * tolerance·max(1, |x|) of x; otherwise null.
 * @param {number} x
 * @param {{maxDenominator?: number, tolerance?: number}} [options]
 * @returns {string | null}
 */
export function guessFraction(x, { maxDenominator = 1000, tolerance = 1e-9 } = {}) {
  if (!Number.isFinite(x)) return null;
  const tol = tolerance * Math.max(1, Math.abs(x));
  const sign = x < 0 ? '−' : '';
  const ax = Math.abs(x);
  // Convergents h/k of the continued fraction of |x|.
  let [h0, h1, k0, k1] = [0, 1, 1, 0];
  let r = ax;
  for (let step = 0; step < 64; step++) {
    const a = Math.floor(r);
    [h0, h1] = [h1, a * h1 + h0];
    [k0, k1] = [k1, a * k1 + k0];
    if (k1 > maxDenominator) return null;
    if (Math.abs(ax - h1 / k1) <= tol) {
      if (h1 === 0) return '0';
      return k1 === 1 ? `${sign}${h1}` : `${sign}${h1}/${k1}`;
    }
    const frac = r - a;
    if (frac === 0) return null;
    r = 1 / frac;
  }
  return null;
}
