package graph

import (
	"math"
	"sort"

	"github.com/qif-toolkit/qif/core/argerr"
)

// MaxVertices bounds the graphs this package builds explicitly, so that an all-pairs distance
// matrix (8·n² bytes) still fits in a browser tab.
const MaxVertices = 20000

// Graph is a simple undirected graph on vertices 0..N−1. Adj[v] lists the neighbours of v in
// increasing order. Build graphs with New or the family constructors; the zero value is the
// empty graph.
type Graph struct {
	N   int
	Adj [][]int
}

// Edge is an undirected edge {A, B}.
type Edge struct{ A, B int }

// New builds a graph on n vertices from an edge list. It refuses self-loops, vertices out of
// range and duplicate edges (in either orientation), naming the offending edge.
func New(n int, edges []Edge) (*Graph, error) {
	if n < 1 {
		return nil, argerr.New("graph", "n must be at least 1, got %d", n)
	}
	if n > MaxVertices {
		return nil, argerr.New("graph", "%d vertices, more than the limit of %d", n, MaxVertices)
	}
	g := &Graph{N: n, Adj: make([][]int, n)}
	seen := make(map[[2]int]int, len(edges))
	for k, e := range edges {
		if e.A < 0 || e.A >= n || e.B < 0 || e.B >= n {
			return nil, argerr.Item("graph", "edge", k, "(%d,%d) has a vertex outside 0..%d", e.A, e.B, n-1)
		}
		if e.A == e.B {
			return nil, argerr.Item("graph", "edge", k, "(%d,%d) is a self-loop", e.A, e.B)
		}
		key := [2]int{min(e.A, e.B), max(e.A, e.B)}
		if prev, dup := seen[key]; dup {
			return nil, argerr.Item("graph", "edge", k, "(%d,%d) duplicates edge %d", e.A, e.B, prev)
		}
		seen[key] = k
		g.Adj[e.A] = append(g.Adj[e.A], e.B)
		g.Adj[e.B] = append(g.Adj[e.B], e.A)
	}
	for _, a := range g.Adj {
		sort.Ints(a)
	}
	return g, nil
}

// Edges lists every edge once, with A < B, in lexicographic order.
func (g *Graph) Edges() []Edge {
	var out []Edge
	for a, nb := range g.Adj {
		for _, b := range nb {
			if a < b {
				out = append(out, Edge{a, b})
			}
		}
	}
	return out
}

// Adjacent reports whether a and b are joined by an edge.
func (g *Graph) Adjacent(a, b int) bool {
	nb := g.Adj[a]
	lo, hi := 0, len(nb)
	for lo < hi {
		m := (lo + hi) / 2
		if nb[m] < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(nb) && nb[lo] == b
}

// BFS returns the distances (in edges) from r to every vertex; unreachable vertices get −1.
func (g *Graph) BFS(r int) []int {
	dist := make([]int, g.N)
	for i := range dist {
		dist[i] = -1
	}
	dist[r] = 0
	queue := []int{r}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.Adj[v] {
			if dist[w] < 0 {
				dist[w] = dist[v] + 1
				queue = append(queue, w)
			}
		}
	}
	return dist
}

// Distances returns the all-pairs shortest-path distances, with math.Inf(1) between vertices in
// different components (no finite ε-DP guarantee links them:
// docs/mathematics.md#differential-privacy).
func (g *Graph) Distances() [][]float64 {
	d := make([][]float64, g.N)
	rows := NewDistanceRows(g)
	for r := range d {
		row := make([]float64, g.N)
		for v, k := range rows.From(r) {
			if k < 0 {
				row[v] = math.Inf(1)
			} else {
				row[v] = float64(k)
			}
		}
		d[r] = row
	}
	return d
}
