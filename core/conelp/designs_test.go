package conelp

import (
	"math"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
)

// The designs of the decomposition change its path, never its answer: with and without
// automatic smoothing, every program ends Optimal with the same objective (to 1e−9) and a
// certificate that checkResult verifies against every pair.
func TestDesignsAgree(t *testing.T) {
	defer func() { autoSmoothing = true }()
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
			auto bool
		}{{false}, {true}} {
			autoSmoothing = d.auto
			p := prog.p()
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
