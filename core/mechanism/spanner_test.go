package mechanism

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/metric"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// randomPlaneMetric: n random points in the unit square, some repeated (distance 0), in two
// groups with no distance between them (+Inf).
func randomPlaneMetric(rng *rand.Rand, n int) [][]float64 {
	pts := make([][2]float64, n)
	for i := range pts {
		if i > 0 && rng.IntN(6) == 0 {
			pts[i] = pts[rng.IntN(i)]
			continue
		}
		pts[i] = [2]float64{rng.Float64(), rng.Float64()}
	}
	d := make([][]float64, n)
	for a := range d {
		d[a] = make([]float64, n)
		for b := range d[a] {
			d[a][b] = math.Hypot(pts[a][0]-pts[b][0], pts[a][1]-pts[b][1])
			if (a%5 == 0) != (b%5 == 0) {
				d[a][b] = math.Inf(1)
			}
		}
	}
	return d
}

// The greedy spanner against Floyd–Warshall on its edges: every pair at finite distance is
// joined within δ·d, the dilation returned is the largest ratio, and δ = 1 keeps every distance.
func TestGreedySpanner(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(30)
		d := randomPlaneMetric(rng, n)
		for _, delta := range []float64{1, 1.1, 1.5, 3} {
			edges, dilation := greedySpanner(d, delta)
			sp := make([][]float64, n)
			for a := range sp {
				sp[a] = make([]float64, n)
				for b := range sp[a] {
					if a != b {
						sp[a][b] = math.Inf(1)
					}
				}
			}
			for _, e := range edges {
				sp[e[0]][e[1]], sp[e[1]][e[0]] = d[e[0]][e[1]], d[e[0]][e[1]]
			}
			for k := 0; k < n; k++ {
				for a := 0; a < n; a++ {
					for b := 0; b < n; b++ {
						sp[a][b] = math.Min(sp[a][b], sp[a][k]+sp[k][b])
					}
				}
			}
			worst := 1.0
			for a := 0; a < n; a++ {
				for b := a + 1; b < n; b++ {
					switch dab := d[a][b]; {
					case math.IsInf(dab, 1):
					case dab == 0:
						if sp[a][b] != 0 {
							t.Errorf("trial %d, δ %g: coinciding points %d, %d at %g in the spanner", trial, delta, a, b, sp[a][b])
						}
					default:
						worst = math.Max(worst, sp[a][b]/dab)
					}
				}
			}
			if worst > delta*(1+1e-12) || math.Abs(worst-dilation) > 1e-12*worst {
				t.Errorf("trial %d, δ %g: dilation %g, Floyd–Warshall %g", trial, delta, dilation, worst)
			}
			if delta == 1 && worst > 1+1e-12 {
				t.Errorf("trial %d: the 1-spanner stretches a distance by %g", trial, worst)
			}
		}
	}
}

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
