package mechanism

import (
	"math"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/metric"
)

// With a loss, the reports are on the result's scale: the decomposition's Objective is the
// expected distance of a feasible mechanism, so at least the optimum, and its Bound a lower
// bound, so at most the optimum; both are expected distances, never negative. Before the
// reports were negated back, every Objective was minus a distance and failed all three.
func TestOptimalLPProgressInLossUnits(t *testing.T) {
	d, err := metric.GridEuclidean(4, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	prior := make([]float64, 16)
	for i := range prior {
		prior[i] = float64(1 + i%5) // skewed, so that the program is not symmetric
	}
	s := 0.0
	for _, p := range prior {
		s += p
	}
	for i := range prior {
		prior[i] /= s
	}
	for _, method := range []string{MethodDecomposition, MethodSimplex} {
		var reports []lp.Progress
		r, err := OptimalLP(LPSpec{Metric: d, Epsilon: 0.7, Prior: prior, Loss: d, Method: method,
			Solver: &lp.Options{ProgressEvery: 1, Progress: func(p lp.Progress) bool { reports = append(reports, p); return true }}})
		if err != nil {
			t.Fatal(method, err)
		}
		if len(reports) == 0 {
			t.Fatalf("%s: no progress report", method)
		}
		tol := 1e-7 * (1 + r.Utility)
		for i, p := range reports {
			if method == MethodSimplex {
				// The simplex's iterates are not feasible and it proves no bound before it ends:
				// only the sign (a distance, not minus one) is checked, at the last report.
				continue
			}
			if p.Objective < r.Utility-tol {
				t.Errorf("%s report %d: objective %v below the optimum %v (not a loss)", method, i, p.Objective, r.Utility)
			}
			if !math.IsInf(p.Bound, 0) && !math.IsNaN(p.Bound) && (p.Bound > r.Utility+tol || p.Bound < -tol) {
				t.Errorf("%s report %d: bound %v not a lower bound in [0, %v]", method, i, p.Bound, r.Utility)
			}
		}
		if last := reports[len(reports)-1]; !(last.Objective > 0) {
			t.Errorf("%s: last objective %v, want a positive expected distance", method, last.Objective)
		}
	}
}
