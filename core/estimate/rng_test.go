package estimate

import (
	"math"
	"testing"
)

// xoshiro256** from the state {1, 2, 3, 4}, by hand from its definition: the first output is
// rotl(2·5, 7)·9 = 1280·9 = 11520; the update makes s₁ = 2 ⊕ (3 ⊕ 1) = 0, so the second is 0.
// SplitMix64's first output for the seed 0 is 0xe220a8397b1dcdaf (Vigna's reference code).
func TestRNGByHand(t *testing.T) {
	r := &rng{s: [4]uint64{1, 2, 3, 4}}
	if a, b := r.Uint64(), r.Uint64(); a != 11520 || b != 0 {
		t.Errorf("xoshiro256** from {1,2,3,4}: %d, %d; want 11520, 0", a, b)
	}
	if got := newRand(0).s[0]; got != 0xe220a8397b1dcdaf {
		t.Errorf("SplitMix64(0) = %#x", got)
	}
}

// IntN is uniform: a χ² goodness-of-fit test on 10⁵ draws for a few n (fails with probability
// 10⁻⁶ per n when uniform; deterministic here), and Float64 stays in [0, 1).
func TestIntNUniform(t *testing.T) {
	r := newRand(42)
	for _, n := range []int{2, 3, 10, 1000, 1 << 33} {
		bins := min(n, 100)
		cnt := make([]float64, bins)
		const draws = 100_000
		for i := 0; i < draws; i++ {
			v := r.IntN(n)
			if v < 0 || v >= n {
				t.Fatalf("IntN(%d) = %d", n, v)
			}
			cnt[int(float64(v)/float64(n)*float64(bins))]++
		}
		chi := 0.0
		for _, c := range cnt {
			e := float64(draws) / float64(bins)
			chi += (c - e) * (c - e) / e
		}
		if q := ChiSquareQuantile(1-1e-6, bins-1); chi > q {
			t.Errorf("IntN(%d): χ² = %v over %d bins, above %v", n, chi, bins, q)
		}
	}
	for i := 0; i < 1000; i++ {
		if f := r.Float64(); f < 0 || f >= 1 || math.IsNaN(f) {
			t.Fatal(f)
		}
	}
}
