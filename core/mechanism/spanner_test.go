package mechanism

import (
	"math"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/metric"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// Location privacy on a grid with the Euclidean metric and the expected distance as the loss:
// with a spanner the mechanism is still ε·d-private as the toolkit checks it, at most
// guaranteedEpsilon = ε·t/δ; it cannot beat the optimum over all pairs (its constraints are
// stronger); and both methods agree, with and without it.
func TestOptimalLPSpannerLocation(t *testing.T) {
	d, err := metric.GridEuclidean(4, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := d.Dims()
	prior := make([]float64, n)
	for i := range prior {
		prior[i] = float64(1 + (i*7)%5)
	}
	s := 0.0
	for _, v := range prior {
		s += v
	}
	for i := range prior {
		prior[i] /= s
	}
	for _, eps := range []float64{0.3, 1, 20} {
		exact := map[float64]float64{} // utility by δ
		for _, delta := range []float64{0, 1, 1.2, 2} {
			for _, method := range []string{MethodDecomposition, MethodSimplex} {
				spec := LPSpec{Metric: d, Epsilon: eps, Prior: prior, Loss: mat.DenseCopyOf(d), Spanner: delta, Method: method}
				r, err := OptimalLP(spec)
				if err != nil {
					t.Fatalf("ε %g, δ %g, %s: %v", eps, delta, method, err)
				}
				if r.Status != lp.Optimal || r.Method != method {
					t.Errorf("ε %g, δ %g: %v by %s", eps, delta, r.Status, r.Method)
				}
				got, _, err := privacy.DPrivacyEpsilon(r.Mechanism, d)
				if err != nil || got > eps || got > r.GuaranteedEpsilon*(1+1e-12) {
					t.Errorf("ε %g, δ %g, %s: DPrivacyEpsilon %v, guaranteed %v (%v)", eps, delta, method, got, r.GuaranteedEpsilon, err)
				}
				if delta == 0 {
					if r.Spanner != nil || r.GuaranteedEpsilon != eps {
						t.Errorf("ε %g without spanner: %+v, %v", eps, r.Spanner, r.GuaranteedEpsilon)
					}
				} else if r.Spanner == nil || r.Spanner.Dilation > delta || r.GuaranteedEpsilon > eps ||
					math.Abs(r.GuaranteedEpsilon-eps*r.Spanner.Dilation/delta) > 1e-15*eps {
					t.Errorf("ε %g, δ %g: spanner %+v, guaranteed %v", eps, delta, r.Spanner, r.GuaranteedEpsilon)
				}
				if v, ok := exact[delta]; ok && math.Abs(v-r.Utility) > 1e-9 {
					t.Errorf("ε %g, δ %g: the methods differ, %.12g and %.12g", eps, delta, v, r.Utility)
				}
				exact[delta] = r.Utility
				if all := exact[0]; delta > 0 && r.Utility < all-1e-9 {
					t.Errorf("ε %g, δ %g: expected distance %.12g below the optimum over all pairs %.12g", eps, delta, r.Utility, all)
				}
			}
		}
		// δ = 1 keeps every distance, so it loses nothing.
		if math.Abs(exact[1]-exact[0]) > 1e-9 {
			t.Errorf("ε %g: δ = 1 gives %.12g, all pairs %.12g", eps, exact[1], exact[0])
		}
	}
}
