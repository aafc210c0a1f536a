// Package fsum sums the terms of entropies, informations and leakages so that results that are
// exact in binary come out exact: x·log₂x is exact when x is a power of two (math.Log2 returns
// the exponent itself there, by math.Frexp), and a Neumaier-compensated sum adds the terms
// without losing their low-order bits. The uniform distribution on 8 then has entropy 3, not
// 2.9999999999999996, and every other sum is within a few units in the last place of the exact
// sum of its rounded terms.
package fsum

import "math"

// Sum is a running Neumaier (improved Kahan–Babuška) compensated sum; the zero value is 0.
type Sum struct{ s, c float64 }

// Add adds x.
func (a *Sum) Add(x float64) {
	t := a.s + x
	if math.Abs(a.s) >= math.Abs(x) {
		a.c += (a.s - t) + x
	} else {
		a.c += (x - t) + a.s
	}
	a.s = t
}

// Value is the sum so far.
func (a *Sum) Value() float64 { return a.s + a.c }

// XLog2X is x·log₂x, 0 for x = 0 (its limit), exact when x is a power of two.
func XLog2X(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log2(x)
}

// Entropy is −Σ p log₂ p over the positive entries, compensated (entries are not checked).
func Entropy(p []float64) float64 {
	var s Sum
	for _, v := range p {
		if v > 0 {
			s.Add(-XLog2X(v))
		}
	}
	return s.Value()
}
