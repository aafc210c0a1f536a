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

// unjoined is the distance matrix of n points and no edges: 0 on the diagonal, +Inf elsewhere.
func unjoined(n int) [][]float64 {
	sp := make([][]float64, n)
	for a := range sp {
		sp[a] = make([]float64, n)
		for b := range sp[a] {
			if a != b {
				sp[a][b] = math.Inf(1)
			}
		}
	}
	return sp
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
			sp := unjoined(n)
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

// The greedy spanner is the greedy one: the same edges as the definition run naively here —
// pairs by increasing distance (ties in the order a, then b), each kept unless the edges kept
// so far join it within δ·d, their distances kept for every pair and updated edge by edge —
// on random points and on grids, whose many equal distances test the order of ties.
func TestGreedySpannerEdges(t *testing.T) {
	naive := func(d [][]float64, delta float64) [][2]int {
		n := len(d)
		type pair struct {
			a, b int
		}
		var all []pair
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if !math.IsInf(d[a][b], 1) {
					all = append(all, pair{a, b})
				}
			}
		}
		for i := 1; i < len(all); i++ { // insertion sort: stable
			for j := i; j > 0 && d[all[j].a][all[j].b] < d[all[j-1].a][all[j-1].b]; j-- {
				all[j], all[j-1] = all[j-1], all[j]
			}
		}
		sp := unjoined(n)
		var edges [][2]int
		for _, q := range all {
			w := d[q.a][q.b]
			if sp[q.a][q.b] <= delta*w {
				continue
			}
			edges = append(edges, [2]int{q.a, q.b})
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					sp[a][b] = math.Min(sp[a][b], math.Min(sp[a][q.a]+w+sp[q.b][b], sp[a][q.b]+w+sp[q.a][b]))
				}
			}
		}
		return edges
	}
	grid := func(side int) [][]float64 {
		n := side * side
		d := make([][]float64, n)
		for i := range d {
			d[i] = make([]float64, n)
			for j := range d[i] {
				d[i][j] = math.Hypot(float64(i%side-j%side), float64(i/side-j/side))
			}
		}
		return d
	}
	rng := rand.New(rand.NewPCG(9, 10))
	metrics := [][][]float64{grid(5), grid(7)}
	for trial := 0; trial < 10; trial++ {
		metrics = append(metrics, randomPlaneMetric(rng, 5+rng.IntN(40)))
	}
	for i, d := range metrics {
		for _, delta := range []float64{1, 1.1, 1.5, 2} {
			got, _ := GreedySpanner(d, delta)
			want := naive(d, delta)
			if len(got) != len(want) {
				t.Errorf("metric %d, δ %g: %d edges, the definition %d", i, delta, len(got), len(want))
				continue
			}
			for k := range got {
				if got[k] != want[k] {
					t.Errorf("metric %d, δ %g: edge %d is %v, the definition's %v", i, delta, k, got[k], want[k])
					break
				}
			}
		}
	}
}
