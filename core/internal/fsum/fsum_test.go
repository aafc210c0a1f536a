package fsum

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/internal/bigref"
)

func TestExactInBinary(t *testing.T) {
	uniform8 := make([]float64, 8)
	for i := range uniform8 {
		uniform8[i] = 1.0 / 8
	}
	for _, tc := range []struct {
		p    []float64
		want float64
	}{
		{uniform8, 3},
		{[]float64{0.5, 0.25, 0.25}, 1.5},
		{[]float64{1}, 0},
		{[]float64{0.5, 0, 0.5}, 1},
		{[]float64{0.5, 0.25, 0.125, 0.0625, 0.0625}, 1.875},
	} {
		if got := Entropy(tc.p); got != tc.want {
			t.Errorf("H(%v) = %v, want exactly %v", tc.p, got, tc.want)
		}
	}
	// Small terms beside large ones are where compensation matters: a plain sum gives 0 here.
	var s Sum
	for i := 0; i < 1000; i++ {
		s.Add(1e16)
		s.Add(1)
		s.Add(-1e16)
	}
	if s.Value() != 1000 {
		t.Errorf("compensated sum %v, want 1000", s.Value())
	}
}

// Random distributions against a 256-bit reference: within 2 units in the last place.
func TestEntropyAgainstBigFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.IntN(100)
		p := make([]float64, n)
		sum := 0.0
		for i := range p {
			p[i] = rng.ExpFloat64()
			if rng.IntN(5) == 0 {
				p[i] = 0
			}
			sum += p[i]
		}
		if sum == 0 {
			continue
		}
		for i := range p {
			p[i] /= sum
		}
		got, want := Entropy(p), bigref.Entropy(p)
		ulp := math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want)
		if math.Abs(got-want) > 2*ulp+1e-300 {
			t.Errorf("n=%d: H = %.17g, reference %.17g (%.1f ulp)", n, got, want, math.Abs(got-want)/ulp)
		}
	}
}
