package testkit

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every drawn row is a distribution, sparse rows have zeros at about the asked rate, and a
// fully zeroed draw still sums to 1.
func TestDistAndChannel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	zeros, entries := 0, 0
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(6)
		p := Dist(rng, n, 4)
		s := 0.0
		for _, v := range p {
			if v < 0 {
				t.Fatalf("negative entry %g", v)
			}
			if v == 0 {
				zeros++
			}
			s += v
		}
		entries += n
		if math.Abs(s-1) > 1e-12 {
			t.Fatalf("sum %g", s)
		}
	}
	if rate := float64(zeros) / float64(entries); rate < 0.15 || rate > 0.3 {
		t.Errorf("zero rate %.3f, want about 1/4", rate)
	}
	c := Channel(rng, 5, 7, 0)
	for x := 0; x < 5; x++ {
		s := 0.0
		for y := 0; y < 7; y++ {
			if c.At(x, y) <= 0 {
				t.Errorf("dense channel has entry %g", c.At(x, y))
			}
			s += c.At(x, y)
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d sums to %g", x, s)
		}
	}
}

// Near and NearRel fail on values outside the tolerance and pass inside it.
func TestNear(t *testing.T) {
	var rec testing.T
	Near(&rec, "x", 1.05, 1, 0.1)
	NearRel(&rec, "x", 1000.5, 1000, 1e-3)
	Near(&rec, "inf", math.Inf(1), math.Inf(1), 0)
	if rec.Failed() {
		t.Errorf("values within tolerance failed")
	}
	for _, c := range []struct {
		f              func(testing.TB, string, float64, float64, float64)
		got, want, tol float64
	}{{Near, 1.2, 1, 0.1}, {NearRel, 1002, 1000, 1e-3}, {Near, math.NaN(), 1, 1}} {
		var r testing.T
		c.f(&r, "x", c.got, c.want, c.tol)
		if !r.Failed() {
			t.Errorf("%g against %g ± %g passed", c.got, c.want, c.tol)
		}
	}
}
