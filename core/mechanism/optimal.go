package mechanism

import (
	"fmt"
	"math"
	"slices"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// Theorem62 is the mechanism of Alvim et al. (ICALP 2011) Theorem 6.2 built on an adjacency graph,
// together with what is needed to judge it: its normalizing constants, whether one constant served
// every row, and the ε it actually satisfies.
type Theorem62 struct {
	// Mechanism is H[i][j] = C[i]·e^{−ε d(i,j)}, d the shortest-path distance of the graph
	// (e^{−ε·∞} = 0 between components).
	Mechanism *mat.Dense
	// C[i] = 1/Σ_d n_d(i)·e^{−εd}, n_d(i) the number of vertices at distance d from i.
	C []float64
	// Uniform reports that every vertex has the same distance distribution n_d, so that a
	// single c normalizes every row: H is then the paper's matrix (6). It is true on
	// distance-regular and VT+ graphs, where H is ε-DP and optimal for the uniform prior.
	Uniform bool
	// Epsilon is the target ε the matrix was built with.
	Epsilon float64
	// ActualEpsilon is the smallest ε for which H is ε-DP on the graph. It equals Epsilon
	// when Uniform (and the graph has an edge), and exceeds it otherwise: see NewTheorem62.
	ActualEpsilon float64
	// Differs is a vertex whose distance distribution differs from vertex 0's, −1 when Uniform.
	Differs int
}

// NotOptimalError is the refusal of Optimal on a graph where Theorem 6.2's matrix is neither
// ε-DP nor optimal: vertices 0 and Differs have different distance distributions, so the rows
// need different normalizers and the matrix has ε = ActualEpsilon > Epsilon.
type NotOptimalError struct {
	Differs                int
	Epsilon, ActualEpsilon float64
}

// Error says why, and where the optimum and the theorem's matrix are, in Go's names.
func (e *NotOptimalError) Error() string { return e.Explain("OptimalLP", "NewTheorem62") }

// Explain is the message of Error with the names under which the caller's API offers the true
// optimum and the theorem's matrix with its actual ε (the JavaScript bindings give theirs).
func (e *NotOptimalError) Explain(optimum, theorem string) string {
	return fmt.Sprintf("graph: Theorem 6.2's mechanism is ε-DP and optimal only where every vertex has the "+
		"same distance distribution (distance-regular and VT+ graphs among them); here vertices 0 and %d differ, "+
		"and the row-normalized matrix would have ε = %.4g, not %.4g. "+
		"%s finds the optimal mechanism on any graph; %s gives the theorem's matrix with its actual ε",
		e.Differs, e.ActualEpsilon, e.Epsilon, optimum, theorem)
}

// Optimal returns the optimal ε-DP mechanism of Alvim et al. (ICALP 2011) Theorem 6.2,
// H[i][j] = c·e^{−ε d(i,j)}, c = 1/Σ_d n_d e^{−εd}, on a graph where every vertex has the same
// distance distribution n_d, and refuses other graphs with a *NotOptimalError.
//
// Why that condition and no other. When every vertex has the same n_d, one c normalizes every
// row, so the ratio of two entries in a column across an edge is e^{±ε} at most (distances
// differ by at most 1): H is ε-DP. Its utility under the uniform prior and the binary gain is c,
// and c bounds the utility of every ε-DP mechanism on such a graph (the counting argument of
// privacy.UtilityBound, with S(r) = 1/c for every r): H is optimal. Distance-regular and VT+
// graphs, the paper's hypotheses, have this property; the test is exact (integer counts), costs
// one breadth-first search per vertex, and needs no automorphism search — so there is no
// "unknown" case. On other graphs the row-normalized matrix misses ε (NewTheorem62 reports by how
// much) and OptimalLP finds the optimum.
func Optimal(g *graph.Graph, eps float64) (*mat.Dense, error) {
	t, err := NewTheorem62(g, eps)
	if err != nil {
		return nil, err
	}
	if !t.Uniform {
		return nil, &NotOptimalError{Differs: t.Differs, Epsilon: eps, ActualEpsilon: t.ActualEpsilon}
	}
	return t.Mechanism, nil
}

// NewTheorem62 builds the Theorem 6.2 mechanism H[i][j] = c_i·e^{−ε d(i,j)} on the graph g with c_i =
// 1/Σ_d n_d(i)·e^{−εd}. On distance-regular and VT+ graphs every c_i equals the paper's c, H is
// ε-DP and reaches the utility bound of Theorem 6.1 (docs/mathematics.md#optimal-mechanisms). On
// other graphs n_d depends on the vertex and each row gets its own c_i so that H is still a
// channel; it is then generally not ε-DP, which ActualEpsilon reports.
//
// ActualEpsilon is computed in closed form. For an edge x∼x' and a column y,
// ln H[x][y] − ln H[x'][y] = (ln c_x − ln c_x') − ε(d(x,y) − d(x',y)) with d(x,y) − d(x',y) ∈
// {−1, 0, 1}, and both ±1 occur (at y = x and y = x'), so the largest |log-ratio| on that edge
// is |ln c_x − ln c_x'| + ε: the actual ε is ε + max over edges of |ln c_x − ln c_x'|, and 0 on
// a graph without edges (no pair to protect). Being in log space it is the ε of the exact
// matrix even where ε·d is so large that entries of the float matrix underflow to 0.
//
// Disconnected graphs are accepted: vertices in different components are at distance +∞, so H is 0
// between components and each row is normalized within its component. No edge crosses components,
// so the privacy constraints are met, but the output reveals the component of the input exactly —
// which the graph says is not protected (no finite chain of adjacent inputs links them;
// docs/mathematics.md#differential-privacy). The graph may have at most √channel.MaxEntries
// vertices (H is n×n).
func NewTheorem62(g *graph.Graph, eps float64) (*Theorem62, error) {
	if g == nil || g.N < 1 {
		return nil, argerr.New("graph", "missing or empty graph")
	}
	n := g.N
	if float64(n)*float64(n) > channel.MaxEntries {
		return nil, argerr.New("graph", "%d vertices give a %d×%d mechanism, more than the limit of %d entries", n, n, n, channel.MaxEntries)
	}
	if len(g.Adj) != n {
		return nil, argerr.New("graph", "has N = %d but %d adjacency lists", n, len(g.Adj))
	}
	for v, nb := range g.Adj {
		for _, w := range nb {
			if w < 0 || w >= n || w == v {
				return nil, argerr.New("graph", "vertex %d has an invalid neighbour %d (build graphs with graph.New)", v, w)
			}
		}
	}
	if err := checkEpsilon(eps); err != nil {
		return nil, err
	}
	weight := make([]float64, n) // e^{−εd}, d = 0..n−1
	for d := range weight {
		weight[d] = math.Exp(-eps * float64(d))
	}
	h := mat.NewDense(n, n, nil)
	data := h.RawMatrix().Data
	res := &Theorem62{Mechanism: h, C: make([]float64, n), Uniform: true, Epsilon: eps, Differs: -1}
	logC := make([]float64, n)
	var first, counts []int
	rowsFrom := graph.NewDistanceRows(g)
	for i := 0; i < n; i++ {
		dist := rowsFrom.From(i)
		counts = counts[:0]
		for _, d := range dist {
			if d < 0 {
				continue
			}
			for len(counts) <= d {
				counts = append(counts, 0)
			}
			counts[d]++
		}
		// Σ_d n_d e^{−εd} in the order of d, from the counts, so that vertices with the
		// same distance distribution get bit-identical constants.
		s := 0.0
		for d, k := range counts {
			s += float64(k) * weight[d]
		}
		res.C[i] = 1 / s
		logC[i] = -math.Log(s)
		row := data[i*n : (i+1)*n]
		for j, d := range dist {
			if d >= 0 {
				row[j] = res.C[i] * weight[d]
			}
		}
		if i == 0 {
			first = append([]int(nil), counts...)
		} else if res.Uniform && !slices.Equal(first, counts) {
			res.Uniform, res.Differs = false, i
		}
	}
	spread, hasEdge := 0.0, false
	for x, nb := range g.Adj {
		for _, x2 := range nb {
			hasEdge = true
			spread = math.Max(spread, math.Abs(logC[x]-logC[x2]))
		}
	}
	if hasEdge {
		res.ActualEpsilon = eps + spread
	}
	return res, nil
}
