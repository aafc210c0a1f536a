package mechanism

import (
	"math"
	"sort"

	"github.com/qif-toolkit/qif/core/argerr"
)

// SpannerInfo describes the spanner an optimal mechanism was computed on (LPSpec.Spanner).
type SpannerInfo struct {
	// Dilation is the largest ratio, over the pairs of answers at finite positive distance, of
	// their distance in the spanner to their distance: at most the δ asked for.
	Dilation float64
	// Pairs is the number of edges of the spanner, the constrained pairs of the program.
	Pairs int
}

// newSpecProgram states the program of spec: with a spanner, on its edges with ε/δ, otherwise on
// the pairs of constrainedPairs.
func newSpecProgram(spec *LPSpec, n int) (*mechProgram, *SpannerInfo, error) {
	if spec.Spanner == 0 {
		return newMechProgram(spec, n), nil, nil
	}
	d := make([][]float64, n)
	for a := range d {
		d[a] = spec.Metric.RawRowView(a)
	}
	edges, dilation := greedySpanner(d, spec.Spanner)
	pairs := make([]lpPair, len(edges))
	for i, e := range edges {
		pairs[i] = lpPair{e[0], e[1], spec.Epsilon / spec.Spanner * d[e[0]][e[1]]}
	}
	return newMechProgramPairs(spec, n, pairs), &SpannerInfo{Dilation: dilation, Pairs: len(edges)}, nil
}

// checkSpanner validates LPSpec.Spanner.
func checkSpanner(spec *LPSpec) error {
	switch {
	case spec.Spanner == 0:
		return nil
	case spec.Metric == nil:
		return argerr.New("spanner", "applies to a metric (the graph's edges are the constraints already)")
	case math.IsNaN(spec.Spanner) || math.IsInf(spec.Spanner, 0) || spec.Spanner < 1:
		return argerr.New("spanner", "the dilation δ must be a number ≥ 1, got %v", spec.Spanner)
	}
	return nil
}

// greedySpanner returns the edges of the greedy δ-spanner of the metric d (Bordenabe et al.
// (CCS 2014) §5, after Althöfer et al.): the pairs at finite distance in order of increasing
// distance, each added when the spanner built so far does not already join it within δ times
// its distance. So every pair ends within δ·d in the spanner, and the spanner keeps few pairs
// (for points in the plane, a number linear in n). It also returns the dilation achieved, the
// largest spanner distance over distance among pairs at finite positive distance (pairs at
// distance 0 are joined at distance 0).
func greedySpanner(d [][]float64, delta float64) ([][2]int, float64) {
	n := len(d)
	type pair struct {
		a, b int
		d    float64
	}
	var all []pair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if !math.IsInf(d[a][b], 1) {
				all = append(all, pair{a, b, d[a][b]})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].d < all[j].d })
	adj := make([][]int, n)
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	var touched []int
	var h minHeap
	var edges [][2]int
	for _, q := range all {
		// Is q.b within δ·d of q.a? A Dijkstra search from q.a that never goes beyond.
		limit := delta * q.d
		touched = append(touched[:0], q.a)
		dist[q.a] = 0
		h = append(h[:0], heapEntry{0, q.a})
		joined := false
		for len(h) > 0 {
			it := h.pop()
			if it.key > dist[it.v] {
				continue
			}
			if it.v == q.b {
				joined = true
				break
			}
			for _, v := range adj[it.v] {
				nd := it.key + d[it.v][v]
				if nd <= limit && nd < dist[v] {
					if math.IsInf(dist[v], 1) {
						touched = append(touched, v)
					}
					dist[v] = nd
					h.push(heapEntry{nd, v})
				}
			}
		}
		for _, v := range touched {
			dist[v] = math.Inf(1)
		}
		if !joined {
			adj[q.a] = append(adj[q.a], q.b)
			adj[q.b] = append(adj[q.b], q.a)
			edges = append(edges, [2]int{q.a, q.b})
		}
	}
	// The dilation: shortest paths in the spanner from every point.
	dilation := 1.0
	for s := 0; s < n; s++ {
		for i := range dist {
			dist[i] = math.Inf(1)
		}
		dist[s] = 0
		h = append(h[:0], heapEntry{0, s})
		for len(h) > 0 {
			it := h.pop()
			if it.key > dist[it.v] {
				continue
			}
			for _, v := range adj[it.v] {
				if nd := it.key + d[it.v][v]; nd < dist[v] {
					dist[v] = nd
					h.push(heapEntry{nd, v})
				}
			}
		}
		for t := s + 1; t < n; t++ {
			if dst := d[s][t]; dst > 0 && !math.IsInf(dst, 1) {
				dilation = math.Max(dilation, dist[t]/dst)
			}
		}
	}
	return edges, dilation
}
