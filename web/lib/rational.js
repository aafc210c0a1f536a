// lib/rational.js — exact rational numbers (BigInt numerator and denominator), shared by the input
// grammar (the exact reading of what people type) and the page's exact results (format.js).

export const abs = (a) => (a < 0n ? -a : a);
function gcd(a, b) {
  a = abs(a);
  b = abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

/** An exact rational number n/d with d > 0 and gcd(n, d) = 1. Immutable. */
export class Fraction {
  constructor(n, d = 1n) {
    n = BigInt(n);
    d = BigInt(d);
    if (d === 0n) throw new RangeError('Fraction: zero denominator');
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = gcd(n, d) || 1n;
    this.n = n / g;
    this.d = d / g;
    Object.freeze(this);
  }
  add(o) { return new Fraction(this.n * o.d + o.n * this.d, this.d * o.d); }
  sub(o) { return new Fraction(this.n * o.d - o.n * this.d, this.d * o.d); }
  mul(o) { return new Fraction(this.n * o.n, this.d * o.d); }
  div(o) { return new Fraction(this.n * o.d, this.d * o.n); }
  cmp(o) {
    const l = this.n * o.d;
    const r = o.n * this.d;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  eq(o) { return this.n === o.n && this.d === o.d; }
  isZero() { return this.n === 0n; }
  sign() { return this.n < 0n ? -1 : this.n > 0n ? 1 : 0; }
  /** Nearest double (exact for small parts; the division keeps ~17 significant digits otherwise). */
  toNumber() {
    const q = Number(this.n) / Number(this.d);
    if (Number.isFinite(q)) return q;
    // Huge parts: scale both down by the same power of two first.
    const shift = BigInt(Math.max(this.n.toString(2).length, this.d.toString(2).length) - 1000);
    return Number(this.n >> shift) / Number(this.d >> shift);
  }
  /** "2/7", "−3/4", "5" (with a real minus sign). */
  toString() {
    const s = this.d === 1n ? abs(this.n).toString() : `${abs(this.n)}/${this.d}`;
    return this.n < 0n ? `−${s}` : s;
  }
  /** TeX: \frac{2}{7}, -\frac{3}{4}, 5. */
  toTeX() {
    const s = this.d === 1n ? abs(this.n).toString() : `\\frac{${abs(this.n)}}{${this.d}}`;
    return this.n < 0n ? `-${s}` : s;
  }
}
