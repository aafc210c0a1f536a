// Package testkit holds the helpers the core packages' tests share: random distributions and
// channels drawn from a seeded generator, and comparisons of floats that report what differs.
// It is imported by tests only.
package testkit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Dist returns a random probability distribution on n points: each entry is drawn uniformly
// from [0, 1) and the vector normalized. With zeroOneIn > 0 each entry is 0 with probability
// 1/zeroOneIn (sparse distributions, which exercise the cases of zero probability); a vector
// that came out all zero puts its mass on one point drawn uniformly.
func Dist(rng *rand.Rand, n, zeroOneIn int) []float64 {
	p := make([]float64, n)
	s := 0.0
	for i := range p {
		if zeroOneIn > 0 && rng.IntN(zeroOneIn) == 0 {
			continue
		}
		p[i] = rng.Float64()
		s += p[i]
	}
	if s == 0 {
		p[rng.IntN(n)], s = 1, 1
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

// Channel returns an n×m channel whose rows are drawn by Dist.
func Channel(rng *rand.Rand, n, m, zeroOneIn int) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	for x := 0; x < n; x++ {
		c.SetRow(x, Dist(rng, m, zeroOneIn))
	}
	return c
}

// Near reports an error unless |got − want| ≤ tol (equal infinities pass).
func Near(t testing.TB, what string, got, want, tol float64) {
	t.Helper()
	if math.IsInf(want, 0) && got == want {
		return
	}
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.15g, want %.15g (±%g)", what, got, want, tol)
	}
}

// NearRel reports an error unless |got − want| ≤ tol·max(1, |want|) (equal values pass).
func NearRel(t testing.TB, what string, got, want, tol float64) {
	t.Helper()
	if got == want {
		return
	}
	if !(math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))) {
		t.Errorf("%s = %.17g, want %.17g (±%g)", what, got, want, tol)
	}
}
