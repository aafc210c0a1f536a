package mechanism

import "math"

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
	var h maxHeap
	for y, x := range v {
		if !math.IsInf(x, -1) {
			h.push(heapItem{y, x})
		}
	}
	for len(h) > 0 {
		it := h.pop()
		if it.val < v[it.y] {
			continue // a stale entry: v[it.y] was raised after it was pushed
		}
		for _, a := range adj[it.y] {
			c := it.val - a.ed
			if rel > 0 {
				eta := rel * math.Max(math.Max(1, a.ed), math.Max(math.Abs(it.val), math.Abs(c)))
				c += math.Min(eta, a.ed/4)
			}
			if c > v[a.to] {
				v[a.to] = c
				h.push(heapItem{a.to, c})
			}
		}
	}
}

type heapItem struct {
	y   int
	val float64
}

// maxHeap is a binary heap of items, largest value first.
type maxHeap []heapItem

func (h *maxHeap) push(it heapItem) {
	*h = append(*h, it)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if q[p].val >= q[i].val {
			break
		}
		q[p], q[i] = q[i], q[p]
		i = p
	}
}

func (h *maxHeap) pop() heapItem {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l, big := 2*i+1, i
		if l < len(q) && q[l].val > q[big].val {
			big = l
		}
		if r := l + 1; r < len(q) && q[r].val > q[big].val {
			big = r
		}
		if big == i {
			break
		}
		q[i], q[big] = q[big], q[i]
		i = big
	}
	*h = q
	return top
}
