package conelp

import (
	"math"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
)

// Every plateau is a point of the cone (it meets every pair), has its maximum 1 on the set it
// was built from, and is the smallest such point there: a neighbour of the set outside it sits
// exactly at e^{−Log} of its nearest member in the set when that is its shortest path.
func TestPlateausInCone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		n     int
		pairs []Pair
	}{
		{"path 30", 30, randomPriorPath(30).Pairs},
		{"grid 6×6", 36, gridPairs(6, 0.7)},
		{"geo 6×6 spanner", 36, geoSpanner(6, 0.5, 1.1).Pairs},
	} {
		pr := newPricer(newCone(c.n, c.pairs))
		for w := 0; w < c.n; w++ {
			cols, keys := pr.plateaus(w)
			if len(cols) == 0 || len(cols) != len(keys) {
				t.Fatalf("%s, w = %d: %d plateaus, %d keys", c.name, w, len(cols), len(keys))
			}
			for i, h := range cols {
				ones, top := 0, 0.0
				for _, v := range h {
					top = math.Max(top, v)
					if v == 1 {
						ones++
					}
				}
				if top != 1 || ones < 2<<i {
					t.Errorf("%s, w = %d, plateau %d: max %g, %d entries at 1, want ≥ %d", c.name, w, i, top, ones, 2<<i)
				}
				// Every pair, checked directly (not through the cone's own arcs).
				for _, q := range c.pairs {
					f := math.Exp(q.Log)
					if h[q.A] > f*h[q.B]*(1+1e-12) || h[q.B] > f*h[q.A]*(1+1e-12) {
						t.Errorf("%s, w = %d, plateau %d: pair (%d, %d) violated: %g, %g, e^Log %g", c.name, w, i, q.A, q.B, h[q.A], h[q.B], f)
					}
				}
			}
		}
	}
}

// The designs of the decomposition change its path, never its answer: with and without
// plateau columns, automatic smoothing and truncated pricing, every program ends Optimal with
// the same objective (to 1e−9) and a certificate that checkResult verifies against every pair.
func TestDesignsAgree(t *testing.T) {
	t.Parallel()
	programs := []struct {
		name string
		p    func() *Problem
	}{
		{"path 40, random prior", func() *Problem { return randomPriorPath(40) }},
		{"geo 5×5, every pair", func() *Problem { return geoProblem(5, 0.5) }},
		{"geo 5×5, spanner 1.1", func() *Problem { return geoSpanner(5, 0.5, 1.1) }},
	}
	for _, prog := range programs {
		ref := math.NaN()
		for _, d := range []struct {
			auto, plat bool
			trunc      int
		}{{false, false, 0}, {true, true, 0}, {true, true, 4}} {
			p := prog.p()
			p.design = design{fixedSmoothing: !d.auto, plateaus: d.plat, truncatePhases: d.trunc}
			p.KeepMultipliers = true
			r, err := Solve(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			name := prog.name
			if r.Status != lp.Optimal {
				t.Errorf("%s %+v: %v", name, d, r.Status)
				continue
			}
			checkResult(t, name, p, r)
			if math.IsNaN(ref) {
				ref = r.Objective
			} else if math.Abs(r.Objective-ref) > 1e-9*math.Max(1, math.Abs(ref)) {
				t.Errorf("%s %+v: objective %.15g, %.15g with every design off", name, d, r.Objective, ref)
			}
			t.Logf("%s %+v: %d rounds, %d pivots", name, d, r.Rounds, r.Iterations)
		}
	}
}
