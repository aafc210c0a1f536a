package conelp

import (
	"math"
	"sort"
)

// Pair generation. On location maps every pair of cells is constrained (Bordenabe,
// Chatzikokolakis and Palamidessi, CCS 2014), O(N²) pairs, but at the optimum few of them bind
// beyond the nearest cells. The pricing then runs on the cone K' of an active subset of the
// pairs, which contains K: its flow multipliers, extended by zero, still certify the bound for
// the full program (weak duality holds for any multipliers of a subset of the constraints),
// and every point it returns is closed over all the pairs (its logarithms lowered by shortest
// paths, which keeps it ≤ the priced point and puts it in K) before it enters the master, so
// the master's mechanism is always feasible for the full program. A pair whose constraint the
// closing had to enforce is activated for the next rounds. The bound reaches the master's
// value when the active pairs suffice, typically the neighbours of each cell and a few more.

// lazyDegree: pair generation is used when the pairs give more than this many arcs per node on
// average; it starts from each node's lazyStart shortest pairs.
const (
	lazyDegree = 16
	lazyStart  = 8
)

// pairGen holds the full cone and the active subset of the pairs.
type pairGen struct {
	pairs   []Pair
	full    *cone
	fullPr  *pricer // closes points over every pair (and builds the starting tents)
	active  []bool
	pending []int // pairs to activate at the end of the round
	lam     []float64
	before  []float64
	pred    []int
}

// newPairGen returns nil when pair generation does not pay (few pairs per node).
func newPairGen(n int, pairs []Pair, full *cone) *pairGen {
	if full.arcs() <= lazyDegree*n {
		return nil
	}
	g := &pairGen{pairs: pairs, full: full, fullPr: newPricer(full), active: make([]bool, len(pairs)),
		lam: make([]float64, n), before: make([]float64, n), pred: make([]int, n)}
	// Each node's lazyStart shortest pairs.
	for u := 0; u < n; u++ {
		ks := make([]int, 0, full.start[u+1]-full.start[u])
		for k := full.start[u]; k < full.start[u+1]; k++ {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(a, b int) bool { return full.length[ks[a]] < full.length[ks[b]] })
		for _, k := range ks[:min(lazyStart, len(ks))] {
			g.active[full.pair[k]/2] = true
		}
	}
	return g
}

// cone returns the cone of the active pairs.
func (g *pairGen) cone() *cone { return newConeOf(g.full.n, g.pairs, g.active) }

// close replaces h (a point of the active cone, entries in (0, 1]) by its closure over every
// pair and queues the pairs that had to be enforced. It reports whether h changed.
func (g *pairGen) close(h []float64) bool {
	for y, v := range h {
		g.lam[y] = -math.Log(v)
		g.before[y] = g.lam[y]
		g.pred[y] = -1
	}
	c := g.full
	g.fullPr.closeLogsFrom(g.lam, g.pred)
	changed := false
	for v, k := range g.pred {
		// Lowered by more than rounding: the pair of the arc that lowered it binds.
		if k >= 0 && g.lam[v] < g.before[v]-1e-12*math.Max(1, g.before[v]) {
			changed = true
			if i := c.pair[k] / 2; !g.active[i] {
				g.active[i] = true
				g.pending = append(g.pending, i)
			}
		}
	}
	if changed {
		pointFromLogs(g.lam, h)
	}
	return changed
}
