package privacy

import (
	"math"
	"slices"
	"time"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
)

func checkEpsilonInf(eps float64) error {
	if math.IsNaN(eps) || eps <= 0 {
		return argerr.New("epsilon", "must be a positive number of nats, got %v", eps)
	}
	return nil
}

func checkUV(u, v int) error {
	if u < 1 {
		return argerr.New("individuals", "must be at least 1, got %d", u)
	}
	if v < 2 {
		return argerr.New("values", "must be at least 2 (the absent value included), got %d", v)
	}
	return nil
}

// lnLeakPerIndividual is ln(v·e^ε / (v−1+e^ε)) = −ln(1 − q) with q = (1 − 1/v)(1 − e^{−ε}),
// evaluated without cancellation: −log1p(−q) while q ≤ ½, and ln v − log1p((v−1)e^{−ε}) when
// q > ½ (then the result is at least ln 2, so the subtraction loses nothing).
func lnLeakPerIndividual(v int, eps float64) float64 {
	fv := float64(v)
	q := (1 - 1/fv) * -math.Expm1(-eps)
	if q <= 0.5 {
		return -math.Log1p(-q)
	}
	return math.Log(fv) - math.Log1p(math.Exp(math.Log(fv-1)-eps))
}

// LeakageBound is Theorem 5.1 of Alvim et al. (ICALP 2011): an ε-DP mechanism on the database
// domain V^u (u individuals, v values) leaks at most u·log₂(v·e^ε / (v−1+e^ε)) bits of min-entropy
// under the uniform prior. Computed in log space (log1p, expm1): accurate for u = 10⁶ and more and
// for large ε; ε = +Inf gives u·log₂ v (no privacy: everything may leak).
func LeakageBound(u, v int, eps float64) (float64, error) {
	if err := checkUV(u, v); err != nil {
		return 0, err
	}
	if err := checkEpsilonInf(eps); err != nil {
		return 0, err
	}
	return float64(u) * lnLeakPerIndividual(v, eps) / math.Ln2, nil
}

// IndividualLeakageBound is Proposition 2 of Alvim et al. (ICALP 2011): the leakage about one
// individual's value (v values, uniform prior) is at most log₂(v·e^ε / (v−1+e^ε)) bits, whatever
// the number of individuals.
func IndividualLeakageBound(v int, eps float64) (float64, error) {
	return LeakageBound(1, v, eps)
}

// HammingUtilityBound is the Theorem 4.1/6.1 bound on the Hamming graph V^u, analytically: Σ_d
// C(u,d)(v−1)^d e^{−εd} = (1 + (v−1)e^{−ε})^u, so bound = (1 + (v−1)e^{−ε})^{−u} and log2Bound =
// −u·log₂(1 + (v−1)e^{−ε}). log2Bound is finite for any u even where bound underflows to 0. It is
// tight: V^u is distance-regular and VT+ (Alvim et al. (ICALP 2011) Prop. 1).
func HammingUtilityBound(u, v int, eps float64) (bound, log2Bound float64, err error) {
	if err := checkUV(u, v); err != nil {
		return 0, 0, err
	}
	if err := checkEpsilonInf(eps); err != nil {
		return 0, 0, err
	}
	ln := -float64(u) * math.Log1p(math.Exp(math.Log(float64(v-1))-eps))
	return math.Exp(ln), ln / math.Ln2, nil
}

// UtilityBoundResult is the outcome of UtilityBound.
type UtilityBoundResult struct {
	// Bound = 1/Σ_d n_d e^{−εd} for the vertex Vertex; Log2Bound = log₂ Bound.
	Bound, Log2Bound float64
	// Vertex is the vertex whose distance distribution n_d gives the bound: the one with the
	// smallest Σ_d n_d e^{−εd} (any vertex when all agree).
	Vertex int
	// SameForAllVertices reports whether Σ_d n_d e^{−εd} is the same for every vertex (within
	// 1e-12 relative), as on distance-regular and VT+ graphs.
	SameForAllVertices bool
	// DistanceRegular and VTPlus report the symmetry of the graph (VTPlus may be Unknown when
	// the automorphism search ran out of budget).
	DistanceRegular bool
	VTPlus          graph.Answer
	// Tight reports whether the bound is known to be reached: every vertex has the same
	// distance distribution n_d (compared exactly, as integer counts), so that Theorem 6.2's
	// mechanism c·e^{−ε d(i,j)} is ε-DP and attains it (mechanism.Optimal). Distance-regular and
	// VT+ graphs have that property; it needs no automorphism search, so Tight does not depend
	// on VTPlus being decided within the budget. False means not known, not "not reached".
	Tight bool
}

// UtilityBound is the bound of Theorems 4.1 and 6.1 of Alvim et al. (ICALP 2011) on the utility
// (binary gain, optimal guess, uniform prior on answers) of any ε-DP mechanism on the answer graph
// g: U ≤ 1/Σ_d n_d e^{−εd}.
//
// Which n_d. The paper states the theorem for distance-regular or VT+ graphs, where n_d is the
// same from every vertex. For other graphs this function uses the vertex r with the smallest
// S(r) = Σ_d n_d(r) e^{−εd}, which keeps it a valid upper bound on every graph: for an ε-DP H let
// y_z be a row where column z is largest, M_z = H[y_z][z]; group privacy gives
// H[r][z] ≥ M_z e^{−ε d(r, y_z)}, summing row r gives 1 ≥ Σ_z M_z e^{−ε d(r, y_z)}, summing over r
// gives n ≥ Σ_z M_z S(y_z) ≥ min_r S(r)·Σ_z M_z, and U = (1/n)Σ_z M_z ≤ 1/min_r S(r). It is then
// generally not reached (Tight = false): the linear program of qif.mechanism finds the optimum.
// Vertices in other components count as at distance +Inf (e^{−∞} = 0).
//
// The VT+ search uses graph.DefaultVTPlusBudget; see UtilityBoundBudget.
func UtilityBound(g *graph.Graph, eps float64) (UtilityBoundResult, error) {
	return UtilityBoundBudget(g, eps, graph.DefaultVTPlusBudget)
}

// UtilityBoundBudget is UtilityBound with the time budget of the VT+ search.
func UtilityBoundBudget(g *graph.Graph, eps float64, budget time.Duration) (UtilityBoundResult, error) {
	if g == nil || g.N < 1 {
		return UtilityBoundResult{}, argerr.New("graph", "missing or empty graph")
	}
	if err := checkEpsilonInf(eps); err != nil {
		return UtilityBoundResult{}, err
	}
	res := UtilityBoundResult{Vertex: -1, SameForAllVertices: true}
	minS, maxS := math.Inf(1), 0.0
	sameCounts := true
	var first []int
	for r := 0; r < g.N; r++ {
		nd, _ := g.DistanceDistribution(r)
		if r == 0 {
			first = nd
		} else if sameCounts && !slices.Equal(first, nd) {
			sameCounts = false
		}
		s := 0.0
		for d := len(nd) - 1; d >= 0; d-- { // small terms first
			if d == 0 {
				s += float64(nd[0]) // e^{−ε·0} = 1, also for ε = +Inf
			} else if nd[d] > 0 {
				s += float64(nd[d]) * math.Exp(-eps*float64(d))
			}
		}
		if s < minS {
			minS, res.Vertex = s, r
		}
		maxS = max(maxS, s)
	}
	res.SameForAllVertices = maxS-minS <= 1e-12*maxS
	res.Bound = 1 / minS
	res.Log2Bound = -math.Log2(minS)
	res.DistanceRegular, _, _ = graph.IsDistanceRegular(g)
	vt, err := graph.IsVTPlus(g, budget)
	if err != nil {
		return UtilityBoundResult{}, err
	}
	res.VTPlus = vt.VTPlus
	res.Tight = sameCounts
	return res, nil
}
