package lp

import (
	"math"
	"testing"
)

// A factor e^ε near the top of the float64 range (e^ε = 1e300 on the clique of six answers)
// overflowed the state of the primal simplex to ±Inf and NaN; its ratio test then found no
// leaving row and indexed row −1. The solve must end with a status instead, and whatever it
// calls optimal must be the optimum a/(a+5) (Alvim et al. (ICALP 2011) Thm 6.2), here 1 to
// within 1e-299.
func TestHugeFactorEndsWithAStatus(t *testing.T) {
	var edges [][2]int
	for a := 0; a < 6; a++ {
		for b := a + 1; b < 6; b++ {
			edges = append(edges, [2]int{a, b})
		}
	}
	for _, eps := range []float64{math.Log(1e200), math.Log(1e300), 709} {
		m, _ := mechanismModel(6, edges, eps)
		p, _ := m.Problem()
		res, err := Solve(p, nil)
		switch {
		case err != nil:
			t.Errorf("ε = %g: %v", eps, err)
		case res.Status == Optimal && math.Abs(res.Objective-1) > 1e-9:
			t.Errorf("ε = %g: optimal %v, want 1", eps, res.Objective)
		case res.Status != Optimal && res.Status != Imprecise:
			t.Errorf("ε = %g: status %v", eps, res.Status)
		}
	}
}
