package graph

import "testing"

// The bit-parallel BFS used for dense graphs against BFS, on dense and sparse graphs
// (random graphs of several densities, and sizes across a 64-bit word boundary).
func TestDistanceRowsMatchBFS(t *testing.T) {
	seed := uint64(12345)
	rnd := func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>11) / (1 << 53)
	}
	modes := map[bool]int{}
	for _, n := range []int{1, 2, 63, 64, 65, 130} {
		for _, p := range []float64{0, 0.02, 0.2, 0.9} {
			var edges []Edge
			for a := 0; a < n; a++ {
				for b := a + 1; b < n; b++ {
					if rnd() < p {
						edges = append(edges, Edge{A: a, B: b})
					}
				}
			}
			g, err := New(n, edges)
			if err != nil {
				t.Fatal(err)
			}
			r := NewDistanceRows(g)
			modes[r.dense]++
			for s := 0; s < n; s++ {
				want := g.BFS(s)
				got := r.From(s)
				for v := range want {
					if got[v] != want[v] {
						t.Fatalf("n=%d p=%g dense=%v: d(%d,%d) = %d, want %d", n, p, r.dense, s, v, got[v], want[v])
					}
				}
			}
		}
	}
	if modes[true] == 0 || modes[false] == 0 {
		t.Errorf("both BFS variants should be exercised: %v", modes)
	}
}
