package infopriv

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// checkChannelGraph validates c and that g has one vertex per row of c.
func checkChannelGraph(c *mat.Dense, g *graph.Graph) error {
	if err := channel.Validate(c); err != nil {
		return err
	}
	if g == nil {
		return argerr.New("graph", "missing")
	}
	if n, _ := c.Dims(); g.N != n {
		return argerr.New("graph", "has %d vertices but the channel has %d rows", g.N, n)
	}
	if len(g.Adj) != g.N {
		return argerr.New("graph", "adjacency lists %d vertices, expected %d", len(g.Adj), g.N)
	}
	for v, nb := range g.Adj {
		for _, w := range nb {
			if w < 0 || w >= g.N {
				return argerr.New("graph", "vertex %d has neighbour %d outside 0..%d", v, w, g.N-1)
			}
		}
	}
	return nil
}

// pairProfile is the hockey-stick divergence δ_t(P‖Q) = Σ_y max(0, P(y) − t·Q(y)) of one ordered
// pair of rows as a function of t = e^ε: a convex, non-increasing, piecewise-linear function of
// t. ratio[k] are the finite likelihood ratios P(y)/Q(y) > 1 in decreasing order, with prefix
// sums a[k] = Σ_{j<k} P, b[k] = Σ_{j<k} Q over them, and inf = Σ_{y: Q(y)=0} P(y), the mass no
// finite ε covers. For ratio[k] ≥ t ≥ ratio[k+1], δ_t = inf + a[k+1] − t·b[k+1].
type pairProfile struct {
	ratio, a, b []float64
	inf         float64
}

// build fills pp from rows p and q, reusing its slices.
func (pp *pairProfile) build(p, q []float64, idx []int) []int {
	pp.inf = 0
	idx = idx[:0]
	for y, v := range p {
		if v <= 0 {
			continue
		}
		if q[y] <= 0 {
			pp.inf += v
		} else if v > q[y] {
			idx = append(idx, y)
		}
	}
	sort.Slice(idx, func(i, j int) bool {
		// Compare p_i/q_i > p_j/q_j without dividing twice.
		return p[idx[i]]*q[idx[j]] > p[idx[j]]*q[idx[i]]
	})
	pp.ratio = pp.ratio[:0]
	pp.a = append(pp.a[:0], 0)
	pp.b = append(pp.b[:0], 0)
	sa, sb := 0.0, 0.0
	for _, y := range idx {
		pp.ratio = append(pp.ratio, p[y]/q[y])
		sa += p[y]
		sb += q[y]
		pp.a = append(pp.a, sa)
		pp.b = append(pp.b, sb)
	}
	return idx
}

// at evaluates δ_t for t ≥ 1.
func (pp *pairProfile) at(t float64) float64 {
	// k = number of ratios strictly above t.
	k := sort.Search(len(pp.ratio), func(i int) bool { return pp.ratio[i] <= t })
	d := pp.inf + pp.a[k] - t*pp.b[k]
	if d < pp.inf {
		d = pp.inf
	}
	return d
}

// forEachOrderedPair calls f(x, x′) for every ordered pair of adjacent vertices.
func forEachOrderedPair(g *graph.Graph, f func(x, x2 int)) {
	for x, nb := range g.Adj {
		for _, x2 := range nb {
			f(x, x2)
		}
	}
}

// largestFiniteLogRatio is the largest finite ln C[x][y] − ln C[x′][y] over adjacent x ∼ x′ (0
// without such a pair): where δ(ε) stops changing when the pure ε is infinite.
func largestFiniteLogRatio(c *mat.Dense, g *graph.Graph) float64 {
	_, m := c.Dims()
	raw := c.RawMatrix()
	maxRatio := 1.0
	forEachOrderedPair(g, func(x, x2 int) {
		p := raw.Data[x*raw.Stride : x*raw.Stride+m]
		q := raw.Data[x2*raw.Stride : x2*raw.Stride+m]
		for y, v := range p {
			if v > 0 && q[y] > 0 && v/q[y] > maxRatio {
				maxRatio = v / q[y]
			}
		}
	})
	return math.Log(maxRatio)
}

// DeltaCurve is δ(ε) sampled on an even grid of ε.
type DeltaCurve struct {
	// Epsilon holds the sample points, from 0 to the maximum, in nats.
	Epsilon []float64
	// Delta[k] is the smallest δ for which the channel is (Epsilon[k], δ)-DP on the graph.
	Delta []float64
	// PureEpsilon is the smallest ε with δ(ε) = 0 (+Inf when there is none).
	PureEpsilon float64
}

// MaxCurvePoints bounds the number of samples of a δ(ε) curve.
const MaxCurvePoints = 100_000

// DeltaCurveOf samples δ(ε) = max over ordered adjacent pairs x ∼ x′ of the hockey-stick divergence
// Σ_y max(0, C[x][y] − e^ε C[x′][y]) (docs/mathematics.md#epsilon-delta, Vadhan (2013)) at points ≥
// 2 evenly spaced ε from 0 to maxEps. maxEps ≤ 0 selects the channel's smallest pure-DP ε on g, or
// — when that is infinite — the largest finite log-ratio between adjacent rows, beyond which δ(ε)
// is constant (the mass on outputs that one row of a pair can produce and the other cannot); 1 when
// either is 0. Each pair's divergence is evaluated exactly on its piecewise-linear profile in e^ε,
// so the cost is O(|E|·m log m + points·|E|·log m).
func DeltaCurveOf(ctx context.Context, c *mat.Dense, g *graph.Graph, points int, maxEps float64) (DeltaCurve, error) {
	if err := checkChannelGraph(c, g); err != nil {
		return DeltaCurve{}, err
	}
	if points < 2 || points > MaxCurvePoints {
		return DeltaCurve{}, argerr.New("points", "%d, expected between 2 and %d", points, MaxCurvePoints)
	}
	if math.IsNaN(maxEps) || math.IsInf(maxEps, 0) {
		return DeltaCurve{}, fmt.Errorf("maxEpsilon: %v, expected a finite number (≤ 0 for automatic)", maxEps)
	}
	_, m := c.Dims()
	if err := privacy.CheckPairWork(g, m, points); err != nil {
		return DeltaCurve{}, err
	}
	pure, _, err := privacy.Epsilon(c, g)
	if err != nil {
		return DeltaCurve{}, err
	}
	if maxEps <= 0 {
		maxEps = pure
		if math.IsInf(pure, 1) {
			maxEps = largestFiniteLogRatio(c, g)
		}
		if maxEps <= 0 {
			maxEps = 1
		}
	}
	res := DeltaCurve{Epsilon: make([]float64, points), Delta: make([]float64, points), PureEpsilon: pure}
	ts := make([]float64, points)
	for k := range res.Epsilon {
		e := maxEps * float64(k) / float64(points-1)
		res.Epsilon[k] = e
		ts[k] = math.Exp(e)
	}
	raw := c.RawMatrix()
	var pp pairProfile
	idx := make([]int, 0, m)
	count := 0
	forEachOrderedPair(g, func(x, x2 int) {
		if err != nil {
			return
		}
		if count++; count&1023 == 0 {
			if err = ctx.Err(); err != nil {
				return
			}
		}
		idx = pp.build(raw.Data[x*raw.Stride:x*raw.Stride+m], raw.Data[x2*raw.Stride:x2*raw.Stride+m], idx)
		for k, t := range ts {
			if d := pp.at(t); d > res.Delta[k] {
				res.Delta[k] = d
			}
		}
	})
	if err != nil {
		return DeltaCurve{}, err
	}
	// At and beyond the pure ε the channel is ε-DP, so δ is 0 by definition; e^ε·Q computed in
	// floating point can fall short of P by an ulp there and leave 1e-17 instead.
	for k, e := range res.Epsilon {
		if e >= pure {
			res.Delta[k] = 0
		}
	}
	return res, nil
}

// BayesRatios is the Bayesian reading of a channel on one individual (Vadhan (2013) Prop. 1).
type BayesRatios struct {
	// Ratios[x][y] = posterior/prior = C[x][y]/p(y), the factor Bayes' rule multiplies π_x by
	// on seeing y (defined whatever π_x, since the posterior is π_x·C[x][y]/p(y)); NaN where
	// p(y) = 0.
	Ratios *mat.Dense
	// Max and Min are the largest and smallest defined ratios; MaxAt and MinAt their (x, y),
	// the first in row-major order.
	Max, Min     float64
	MaxAt, MinAt [2]int
	// Epsilon is the smallest ε for which the channel is ε-DP when all its rows are adjacent
	// (the values of one individual, all others fixed): max |ln C[x][y] − ln C[x′][y]|.
	// By Vadhan (2013) Prop. 1 every ratio lies in [e^{−ε}, e^{ε}].
	Epsilon float64
}

// BayesRatiosOf computes the posterior/prior ratios C[x][y]/p(y) for prior π on the rows of c
// (the values of one individual) and every y with p(y) = Σ_x π_x C[x][y] > 0, their extremes and
// the channel's ε on the clique of its rows. Since p(y) is a π-average of the column, each ratio
// lies within the column's extreme ratios, so e^{±ε} bounds them; the bound is approached as π
// concentrates on the row with the smallest entry in a column and reached when π is a point mass
// there (the ratio of another row is then exactly C[x][y]/C[x′][y]).
func BayesRatiosOf(prior []float64, c *mat.Dense) (BayesRatios, error) {
	if err := channel.Validate(c); err != nil {
		return BayesRatios{}, err
	}
	if err := channel.ValidatePrior(prior, c); err != nil {
		return BayesRatios{}, err
	}
	n, m := c.Dims()
	raw := c.RawMatrix()
	py := make([]float64, m)
	for x := 0; x < n; x++ {
		if prior[x] == 0 {
			continue
		}
		for y, v := range raw.Data[x*raw.Stride : x*raw.Stride+m] {
			py[y] += prior[x] * v
		}
	}
	out := mat.NewDense(n, m, nil)
	o := out.RawMatrix()
	res := BayesRatios{Ratios: out, Max: math.Inf(-1), Min: math.Inf(1), MaxAt: [2]int{-1, -1}, MinAt: [2]int{-1, -1}}
	for x := 0; x < n; x++ {
		for y, v := range raw.Data[x*raw.Stride : x*raw.Stride+m] {
			if py[y] <= 0 {
				o.Data[x*o.Stride+y] = math.NaN()
				continue
			}
			r := v / py[y]
			o.Data[x*o.Stride+y] = r
			if r > res.Max {
				res.Max, res.MaxAt = r, [2]int{x, y}
			}
			if r < res.Min {
				res.Min, res.MinAt = r, [2]int{x, y}
			}
		}
	}
	res.Epsilon = columnEpsilon(c)
	return res, nil
}

// columnEpsilon is max_y ln(max_x C[x][y] / min_x C[x][y]) over columns that are not all zero.
func columnEpsilon(c *mat.Dense) float64 {
	n, m := c.Dims()
	raw := c.RawMatrix()
	eps := 0.0
	for y := 0; y < m; y++ {
		lo, hi := math.Inf(1), 0.0
		for x := 0; x < n; x++ {
			v := raw.Data[x*raw.Stride+y]
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi == 0 {
			continue
		}
		if lo == 0 {
			return math.Inf(1)
		}
		eps = max(eps, math.Log(hi/lo))
	}
	return eps
}
