package graph

import (
	"math"
	"sort"

	"github.com/qif-toolkit/qif/core/internal/heap"
)

// GreedySpanner returns the edges of the greedy δ-spanner of the metric d (Bordenabe et al.
// (CCS 2014) §5, after Althöfer et al.): the pairs at finite distance in order of increasing
// distance, each added when the spanner built so far does not already join it within δ times
// its distance. So every pair ends within δ·d in the spanner, and the spanner keeps few pairs
// (for points in the plane, a number linear in n). It also returns the dilation achieved, the
// largest spanner distance over distance among pairs at finite positive distance (pairs at
// distance 0 are joined at distance 0).
func GreedySpanner(d [][]float64, delta float64) ([][2]int, float64) {
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
	var h heap.Min
	// dijkstra sets dist to the distances in the spanner built so far from s.
	dijkstra := func(s int) {
		for i := range dist {
			dist[i] = math.Inf(1)
		}
		dist[s] = 0
		h = append(h[:0], heap.Entry{Key: 0, V: s})
		for len(h) > 0 {
			it := h.Pop()
			if it.Key > dist[it.V] {
				continue
			}
			for _, v := range adj[it.V] {
				if nd := it.Key + d[it.V][v]; nd < dist[v] {
					dist[v] = nd
					h.Push(heap.Entry{Key: nd, V: v})
				}
			}
		}
	}
	// Is q.b within δ·d of q.a in the spanner so far? known[a] holds the spanner distances from
	// a when a was last searched from: the spanner only grows, so they are upper bounds, and a
	// pair they already join needs no search (Farshi and Gudmundsson, "Experimental study of
	// geometric t-spanners" (2009)). Otherwise one full search from a decides the pair and
	// refreshes known[a]: a few searches per point instead of one per pair (a 32×32 map with
	// δ = 1.1: 38 s → well under a second natively; the edges are the same).
	known := make([][]float64, n)
	var edges [][2]int
	for _, q := range all {
		limit := delta * q.d
		if k := known[q.a]; k != nil && k[q.b] <= limit {
			continue
		}
		dijkstra(q.a)
		if known[q.a] == nil {
			known[q.a] = make([]float64, n)
		}
		copy(known[q.a], dist)
		if dist[q.b] <= limit {
			continue
		}
		adj[q.a] = append(adj[q.a], q.b)
		adj[q.b] = append(adj[q.b], q.a)
		edges = append(edges, [2]int{q.a, q.b})
	}
	// The dilation: shortest paths in the spanner from every point.
	dilation := 1.0
	for s := 0; s < n; s++ {
		dijkstra(s)
		for t := s + 1; t < n; t++ {
			if dst := d[s][t]; dst > 0 && !math.IsInf(dst, 1) {
				dilation = math.Max(dilation, dist[t]/dst)
			}
		}
	}
	return edges, dilation
}
