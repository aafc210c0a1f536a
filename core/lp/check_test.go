package lp

import (
	"math"
	"testing"
)

// checkOptimality verifies a claimed optimum independently of the solver: primal feasibility,
// dual feasibility (signs of duals and reduced costs), complementary slackness and equal primal
// and dual objectives (strong duality), all to tol (relative to the size of the numbers).
func checkOptimality(t *testing.T, p *Problem, r *Result, tol float64) {
	t.Helper()
	n, m := len(p.Objective), len(p.RHS)
	sign := 1.0 // work in minimization form
	if p.Sense == Maximize {
		sign = -1
	}
	act := make([]float64, m)
	aty := make([]float64, n)
	for j := 0; j < n; j++ {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			i := p.A.RowIndex[k]
			act[i] += p.A.Value[k] * r.X[j]
			aty[j] += p.A.Value[k] * r.Duals[i]
		}
	}
	scale := 1.0
	for _, v := range r.X {
		scale = math.Max(scale, math.Abs(v))
	}
	// Primal feasibility.
	for i := 0; i < m; i++ {
		lo, hi := p.rowBounds(i)
		if act[i] < lo-tol*scale || act[i] > hi+tol*scale {
			t.Fatalf("row %d: activity %g outside [%g, %g]", i, act[i], lo, hi)
		}
	}
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		if r.X[j] < l-tol*scale || r.X[j] > u+tol*scale {
			t.Fatalf("x[%d] = %g outside [%g, %g]", j, r.X[j], l, u)
		}
	}
	// Reduced costs as documented.
	dscale := 1.0
	for _, v := range r.Duals {
		dscale = math.Max(dscale, math.Abs(v))
	}
	for j := 0; j < n; j++ {
		want := p.Objective[j] - aty[j]
		if math.Abs(r.ReducedCosts[j]-want) > 1e-7*dscale {
			t.Fatalf("reduced cost %d = %g, want c−Aᵀy = %g", j, r.ReducedCosts[j], want)
		}
	}
	// Dual feasibility and complementary slackness, in minimization form.
	dual := 0.0 // dual objective: Σ y_i b_i + Σ_j d_j·(bound x_j sits at)
	ctol := 1e-7 * dscale
	for i := 0; i < m; i++ {
		y := sign * r.Duals[i]
		lo, hi := p.rowBounds(i)
		slackLo, slackHi := act[i]-lo, hi-act[i]
		if y > ctol && (math.IsInf(lo, -1) || slackLo > 1e-7*scale) {
			t.Fatalf("row %d: dual %g > 0 but the row is not tight at its lower side (slack %g)", i, r.Duals[i], slackLo)
		}
		if y < -ctol && (math.IsInf(hi, 1) || slackHi > 1e-7*scale) {
			t.Fatalf("row %d: dual %g < 0 but the row is not tight at its upper side (slack %g)", i, r.Duals[i], slackHi)
		}
		if y > 0 {
			dual += y * lo
		} else if y < 0 {
			dual += y * hi
		}
	}
	for j := 0; j < n; j++ {
		d := sign * r.ReducedCosts[j]
		l, u := p.bounds(j)
		if d > ctol && (math.IsInf(l, -1) || r.X[j]-l > 1e-7*scale) {
			t.Fatalf("x[%d] = %g: reduced cost %g > 0 but x is not at its lower bound %g", j, r.X[j], r.ReducedCosts[j], l)
		}
		if d < -ctol && (math.IsInf(u, 1) || u-r.X[j] > 1e-7*scale) {
			t.Fatalf("x[%d] = %g: reduced cost %g < 0 but x is not at its upper bound %g", j, r.X[j], r.ReducedCosts[j], u)
		}
		if d > 0 {
			dual += d * l
		} else if d < 0 {
			dual += d * u
		}
	}
	primal := 0.0
	for j, c := range p.Objective {
		primal += sign * c * r.X[j]
	}
	if math.Abs(primal-dual) > 1e-7*(1+math.Abs(primal)) {
		t.Fatalf("duality gap: primal %.12g, dual %.12g", primal, dual)
	}
	if math.Abs(sign*r.Objective-primal) > 1e-9*(1+math.Abs(primal)) {
		t.Fatalf("Objective %g differs from c·x %g", r.Objective, sign*primal)
	}
}
