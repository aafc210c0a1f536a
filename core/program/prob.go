package program

import (
	"math/big"
	"math/bits"
)

// prob is an exact probability. Almost every probability of a teaching program has a numerator
// and denominator below 2^64 (60 fair flips: k/2^60), so it is kept as two machine words,
// reduced, and moves to a *big.Rat only when a product or sum does not fit: the arithmetic of
// the merged semantics then allocates nothing, which matters most in WebAssembly, where
// allocation and collection are slow.
type prob struct {
	n, d uint64   // n/d in lowest terms, d > 0, when r is nil
	r    *big.Rat // otherwise (never mutated)
}

var one = prob{n: 1, d: 1}

// bigOne is 1 as a *big.Rat, for comparisons of sums of weights.
var bigOne = big.NewRat(1, 1)

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// small returns n/d reduced (d > 0).
func small(n, d uint64) prob {
	if g := gcd64(n, d); g > 1 {
		n, d = n/g, d/g
	}
	return prob{n: n, d: d}
}

// probOf converts a non-negative rational.
func probOf(r *big.Rat) prob {
	if r.Num().IsUint64() && r.Denom().IsUint64() {
		return prob{n: r.Num().Uint64(), d: r.Denom().Uint64()}
	}
	return prob{r: r}
}

// Rat returns p as a *big.Rat (a new one for a small p).
func (p prob) Rat() *big.Rat {
	if p.r != nil {
		return p.r
	}
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(p.n), new(big.Int).SetUint64(p.d))
}

func (p prob) isZero() bool { return p.r == nil && p.n == 0 || p.r != nil && p.r.Sign() == 0 }

// bitLen is the size of the numerator plus the denominator, in bits.
func (p prob) bitLen() int {
	if p.r == nil {
		return bits.Len64(p.n) + bits.Len64(p.d)
	}
	return p.r.Num().BitLen() + p.r.Denom().BitLen()
}

func mulP(a, b prob) prob {
	if a.r == nil && b.r == nil {
		if a.n == 1 && a.d == 1 {
			return b
		}
		if b.n == 1 && b.d == 1 {
			return a
		}
		// Cross-reduce first, so that the products are as small as they can be.
		g1, g2 := gcd64(a.n, b.d), gcd64(b.n, a.d)
		if g1 == 0 {
			g1 = 1
		}
		if g2 == 0 {
			g2 = 1
		}
		nh, n := bits.Mul64(a.n/g1, b.n/g2)
		dh, d := bits.Mul64(a.d/g2, b.d/g1)
		if nh == 0 && dh == 0 {
			if n == 0 {
				return prob{n: 0, d: 1}
			}
			return prob{n: n, d: d}
		}
	}
	return probOf(new(big.Rat).Mul(a.Rat(), b.Rat()))
}

func addP(a, b prob) prob {
	if a.r == nil && b.r == nil {
		if a.d == b.d {
			if s, c := bits.Add64(a.n, b.n, 0); c == 0 {
				return small(s, a.d)
			}
		} else {
			// Over the least common multiple of the denominators (2^59 and 2^60: 2^60).
			g := gcd64(a.d, b.d)
			fa, fb := b.d/g, a.d/g
			h1, x := bits.Mul64(a.n, fa)
			h2, y := bits.Mul64(b.n, fb)
			h3, d := bits.Mul64(a.d, fa)
			if h1 == 0 && h2 == 0 && h3 == 0 {
				if s, c := bits.Add64(x, y, 0); c == 0 {
					return small(s, d)
				}
			}
		}
	}
	return probOf(new(big.Rat).Add(a.Rat(), b.Rat()))
}

// complement is 1 − p for 0 ≤ p ≤ 1.
func complement(p prob) prob {
	if p.r == nil {
		return prob{n: p.d - p.n, d: p.d}
	}
	return probOf(new(big.Rat).Sub(bigOne, p.r))
}
