package graph

import (
	"math"
	"math/rand/v2"
	"testing"
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
			edges, dilation := GreedySpanner(d, delta)
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
