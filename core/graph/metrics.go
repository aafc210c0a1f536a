package graph

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
)

func (g *Graph) checkVertex(name string, v int) error {
	if g == nil || g.N < 1 {
		return argerr.New("graph", "empty graph")
	}
	if v < 0 || v >= g.N {
		return argerr.New(name, "vertex %d outside 0..%d", v, g.N-1)
	}
	return nil
}

// DistanceDistribution returns n_d(vertex) for d = 0..e, the number of vertices at distance d from
// vertex, where e is the eccentricity of vertex within its component
// (docs/mathematics.md#optimal-mechanisms). Vertices in other components are at distance +Inf and
// are not counted: the entries sum to the size of vertex's component.
func (g *Graph) DistanceDistribution(vertex int) ([]int, error) {
	if err := g.checkVertex("vertex", vertex); err != nil {
		return nil, err
	}
	return distanceDistribution(g.BFS(vertex)), nil
}

func distanceDistribution(dist []int) []int {
	var nd []int
	for _, k := range dist {
		if k < 0 {
			continue
		}
		for len(nd) <= k {
			nd = append(nd, 0)
		}
		nd[k]++
	}
	return nd
}

// Diameter is the largest distance between two vertices: +Inf when the graph is disconnected
// (no chain of adjacent inputs links its components, so ε-DP says nothing about such pairs).
func (g *Graph) Diameter() float64 {
	diam := 0
	for r := 0; r < g.N; r++ {
		for _, k := range g.BFS(r) {
			if k < 0 {
				return math.Inf(1)
			}
			diam = max(diam, k)
		}
	}
	return float64(diam)
}

// Connected reports whether every vertex is reachable from vertex 0.
func (g *Graph) Connected() bool {
	for _, k := range g.BFS(0) {
		if k < 0 {
			return false
		}
	}
	return true
}

// Degree is the number of neighbours of v (0 when v is out of range).
func (g *Graph) Degree(v int) int {
	if v < 0 || v >= g.N {
		return 0
	}
	return len(g.Adj[v])
}

// Regular reports whether every vertex has the same degree k, and returns k.
func (g *Graph) Regular() (k int, ok bool) {
	if g.N == 0 {
		return 0, true
	}
	k = len(g.Adj[0])
	for _, a := range g.Adj {
		if len(a) != k {
			return 0, false
		}
	}
	return k, true
}

// MaxInducedAnswers bounds the number of answers of a query in Induced.
const MaxInducedAnswers = MaxVertices

// Induced returns the graph that a query f induces on its answers (Alvim et al. (ICALP 2011) §6,
// docs/mathematics.md#differential-privacy): answers are 0..m−1 with m = 1 + max f, and y ∼ y' iff
// y = f(x), y' = f(x') for some adjacent x ∼ x' with y ≠ y'. f[x] is the answer of input vertex x,
// so len(f) must be g.N. An oblivious mechanism K = f;H is ε-DP on g iff H is ε-DP on the induced
// graph. Answers that f never takes are isolated vertices.
func Induced(g *Graph, f []int) (*Graph, error) {
	if g == nil || g.N < 1 {
		return nil, argerr.New("graph", "empty graph")
	}
	if len(f) != g.N {
		return nil, argerr.New("query", "%d answers given for a graph on %d vertices, expected one answer per vertex", len(f), g.N)
	}
	m := 0
	for x, y := range f {
		if y < 0 {
			return nil, argerr.Entry("query", x, "is %d, expected an answer index ≥ 0", y)
		}
		if y >= MaxInducedAnswers {
			return nil, argerr.Entry("query", x, "is %d, more than the limit of %d answers", y, MaxInducedAnswers)
		}
		m = max(m, y+1)
	}
	seen := make(map[[2]int]bool)
	var e []Edge
	for x, nb := range g.Adj {
		for _, x2 := range nb {
			a, b := f[x], f[x2]
			if a >= b { // each unordered answer pair once; equal answers give no edge
				continue
			}
			if k := [2]int{a, b}; !seen[k] {
				seen[k] = true
				e = append(e, Edge{a, b})
			}
		}
	}
	return New(m, e)
}
