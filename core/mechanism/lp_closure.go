package mechanism

import (
	"math"

	"github.com/qif-toolkit/qif/core/internal/heap"
)

// privacyArc is one direction of a constrained pair: H[to][z] ≥ e^{−εd}·H[from][z], stored in
// the adjacency list of from.
type privacyArc struct {
	to int
	ed float64 // ε·d(from, to), nats
}

// logClosure raises v (natural logarithms of one column of a mechanism, −Inf for 0) to the
// smallest vector above it whose arcs hold with a margin: v[to] ≥ v[from] − ε·d + η for every
// arc, where η = min(rel·max(1, |v[from]|, |v[from] − ε·d|, ε·d), ε·d/4) (η = 0 when rel = 0:
// the plain privacy closure max_{y'} v[y'] − ε·dist(y', y)). It is Dijkstra's algorithm from
// every finite entry at once: the step val ↦ val − ε·d + η is non-decreasing in val and never
// above it. Working with logarithms, nothing underflows however long the paths.
func logClosure(v []float64, adj [][]privacyArc, rel float64) {
	// Largest value first: the min-heap holds −value (negation is exact).
	var h heap.Min
	for y, x := range v {
		if !math.IsInf(x, -1) {
			h.Push(heap.Entry{Key: -x, V: y})
		}
	}
	for len(h) > 0 {
		it := h.Pop()
		val := -it.Key
		if val < v[it.V] {
			continue // a stale entry: v[it.V] was raised after it was pushed
		}
		for _, a := range adj[it.V] {
			c := val - a.ed
			if rel > 0 {
				eta := rel * math.Max(math.Max(1, a.ed), math.Max(math.Abs(val), math.Abs(c)))
				c += math.Min(eta, a.ed/4)
			}
			if c > v[a.to] {
				v[a.to] = c
				h.Push(heap.Entry{Key: -c, V: a.to})
			}
		}
	}
}
