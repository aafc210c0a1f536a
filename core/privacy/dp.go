package privacy

import (
	"math"
	"sort"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

// Tolerance is the slack of IsDP, in nats: C is accepted as ε-DP when its smallest ε is at most ε +
// Tolerance, i.e. when every ratio C[x][y]/C[x'][y] is at most e^ε·(1 + 10⁻⁹). This forgives the
// rounding of matrices built in floating point but not of matrices typed with a few decimals.
const Tolerance = 1e-9

// Witness names where a privacy parameter is attained: inputs X and X2 and output Y with
// C[X][Y] = e^ε·C[X2][Y]. Fields are −1 when nothing attains it (ε = 0 because no pair is
// constrained; Y for Delta, which sums over outputs).
type Witness struct{ X, X2, Y int }

var none = Witness{-1, -1, -1}

// flat returns the row-major entries of c with its dimensions (copying only when c is not a
// compact *mat.Dense).
func flat(c mat.Matrix) (data []float64, n, m int) {
	n, m = c.Dims()
	if d, ok := c.(*mat.Dense); ok {
		if raw := d.RawMatrix(); raw.Stride == m {
			return raw.Data[:n*m], n, m
		}
	}
	data = make([]float64, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			data[i*m+j] = c.At(i, j)
		}
	}
	return data, n, m
}

func checkChannelGraph(c mat.Matrix, g *graph.Graph) ([]float64, int, int, error) {
	if err := channel.Validate(c); err != nil {
		return nil, 0, 0, err
	}
	if g == nil || g.N < 1 {
		return nil, 0, 0, argerr.New("graph", "missing or empty graph")
	}
	data, n, m := flat(c)
	if g.N != n {
		return nil, 0, 0, argerr.New("graph", "%d vertices, but the channel has %d rows (one per input)", g.N, n)
	}
	return data, n, m, nil
}

func checkEpsilon(eps float64) error {
	if math.IsNaN(eps) || eps <= 0 {
		return argerr.New("epsilon", "must be a positive number of nats, got %v", eps)
	}
	return nil
}

// pairsEpsilon is the largest ln C[x][y] − ln C[x'][y] over the ordered pairs given by visit.
// It compares ratios (one division per entry) and takes logarithms only for the winner; a zero
// against a non-zero entry ends the search at +Inf.
func pairsEpsilon(data []float64, m int, visit func(yield func(x, x2 int))) (float64, Witness) {
	bestRatio, w := 1.0, none
	infinite := false
	visit(func(x, x2 int) {
		if infinite {
			return
		}
		rx, rx2 := data[x*m:(x+1)*m], data[x2*m:(x2+1)*m]
		for y, a := range rx {
			b := rx2[y]
			if a <= b { // the reverse orientation is visited too
				continue
			}
			if b == 0 {
				infinite, w = true, Witness{x, x2, y}
				return
			}
			// a/b may overflow to +Inf for a subnormal b; it still compares correctly.
			if r := a / b; r > bestRatio {
				bestRatio, w = r, Witness{x, x2, y}
			}
		}
	})
	if infinite {
		return math.Inf(1), w
	}
	if w.X < 0 {
		return 0, w
	}
	a, b := data[w.X*m+w.Y], data[w.X2*m+w.Y]
	return math.Log(a) - math.Log(b), w
}

// Epsilon returns the smallest ε for which C is ε-DP on the adjacency graph g
// (docs/mathematics.md#differential-privacy): max over adjacent x ∼ x' and outputs y of |ln C[x][y]
// − ln C[x'][y]|, where 0/0 contributes nothing and one zero against a non-zero gives +Inf. The
// witness is the ordered pair and output with C[X][Y] = e^ε·C[X2][Y] (all −1 when ε = 0 without a
// constrained pair, e.g. no edges).
func Epsilon(c mat.Matrix, g *graph.Graph) (float64, Witness, error) {
	data, _, m, err := checkChannelGraph(c, g)
	if err != nil {
		return 0, none, err
	}
	eps, w := pairsEpsilon(data, m, func(yield func(x, x2 int)) {
		for x, nb := range g.Adj {
			for _, x2 := range nb {
				yield(x, x2)
			}
		}
	})
	return eps, w, nil
}

// IsDP reports whether C is ε-DP on g, within Tolerance (see there).
func IsDP(c mat.Matrix, g *graph.Graph, eps float64) (bool, error) {
	if err := checkEpsilon(eps); err != nil {
		return false, err
	}
	e, _, err := Epsilon(c, g)
	if err != nil {
		return false, err
	}
	return e <= eps+Tolerance, nil
}

// GroupEpsilon returns the smallest ε_k with C[x][y] ≤ e^{ε_k}·C[x'][y] for all inputs x, x' at
// graph distance at most k (groups of k changes) and all y. Group privacy guarantees
// ε_k ≤ k·Epsilon(C, g); for the geometric mechanism on a path it is equal. Pairs in different
// components (distance +Inf) are never within k.
func GroupEpsilon(c mat.Matrix, g *graph.Graph, k int) (float64, Witness, error) {
	data, n, m, err := checkChannelGraph(c, g)
	if err != nil {
		return 0, none, err
	}
	if k < 1 {
		return 0, none, argerr.New("k", "group size must be at least 1, got %d", k)
	}
	eps, w := pairsEpsilon(data, m, func(yield func(x, x2 int)) {
		for x := 0; x < n; x++ {
			for x2, d := range g.BFS(x) {
				if d >= 1 && d <= k {
					yield(x, x2)
				}
			}
		}
	})
	return eps, w, nil
}

// Delta returns the smallest δ for which C is (ε, δ)-DP on g: the largest hockey-stick divergence
// Σ_y max(0, C[x][y] − e^ε·C[x'][y]) over ordered adjacent pairs
// (docs/mathematics.md#entropies-and-leakage), with the pair attaining it (Y = −1). ε = 0 is
// allowed here (δ is then the largest statistical distance); ε must not be negative or NaN. ε =
// +Inf gives the mass C puts where C[x'] has none.
func Delta(c mat.Matrix, g *graph.Graph, eps float64) (float64, Witness, error) {
	data, _, m, err := checkChannelGraph(c, g)
	if err != nil {
		return 0, none, err
	}
	if math.IsNaN(eps) || eps < 0 {
		return 0, none, argerr.New("epsilon", "must be a non-negative number of nats, got %v", eps)
	}
	t := math.Exp(eps)
	best, w := 0.0, none
	for x, nb := range g.Adj {
		rx := data[x*m : (x+1)*m]
		for _, x2 := range nb {
			rx2 := data[x2*m : (x2+1)*m]
			s := 0.0
			for y, a := range rx {
				b := rx2[y]
				if b == 0 { // avoids ∞·0 when e^ε overflows
					s += a
				} else if d := a - t*b; d > 0 {
					s += d
				}
			}
			if s > best {
				best, w = s, Witness{x, x2, -1}
			}
		}
	}
	return best, w, nil
}

// MaxPairWork bounds the work of EpsilonForDelta and of the δ(ε) curve of core/infopriv: the
// number of ordered adjacent pairs times (outputs + curve points) — a few seconds at most in a
// browser.
const MaxPairWork = 200_000_000

// CheckPairWork refuses a graph whose ordered adjacent pairs, times (outputs + points), exceed
// MaxPairWork, naming the argument "graph".
func CheckPairWork(g *graph.Graph, outputs, points int) error {
	pairs := 0
	for _, nb := range g.Adj {
		pairs += len(nb)
	}
	if w := float64(pairs) * float64(outputs+points); w > MaxPairWork {
		return argerr.New("graph", "%d ordered adjacent pairs × (%d outputs + %d points) is more than the limit of %d steps", pairs, outputs, points, MaxPairWork)
	}
	return nil
}

// EpsilonForDelta returns the smallest ε ≥ 0 for which C is (ε, δ)-DP on g, exactly: for each
// ordered adjacent pair the hockey-stick divergence is a piecewise-linear, decreasing function
// of t = e^ε, solved on the segment between consecutive likelihood ratios. It is +Inf when C puts
// more than δ of mass, from some x, where an adjacent x' puts none. δ must be in [0, 1];
// δ = 0 gives Epsilon(C, g). Graphs and channels with more than MaxPairWork steps are refused.
// It is the one implementation of ε(δ): the JavaScript API offers it as privacy.epsilonForDelta
// and, for readers of information privacy, as infoPrivacy.epsilonForDelta.
func EpsilonForDelta(c mat.Matrix, g *graph.Graph, delta float64) (float64, Witness, error) {
	data, _, m, err := checkChannelGraph(c, g)
	if err != nil {
		return 0, none, err
	}
	if math.IsNaN(delta) || delta < 0 || delta > 1 {
		return 0, none, argerr.New("delta", "must be in [0, 1], got %v", delta)
	}
	if err := CheckPairWork(g, m, 0); err != nil {
		return 0, none, err
	}
	type item struct{ r, a, b float64 }
	items := make([]item, 0, m)
	best, w := 0.0, none
	for x, nb := range g.Adj {
		rx := data[x*m : (x+1)*m]
		for _, x2 := range nb {
			rx2 := data[x2*m : (x2+1)*m]
			a0 := 0.0 // mass where C[x'] is 0: never removed by any finite e^ε
			items = items[:0]
			for y, a := range rx {
				b := rx2[y]
				if a <= b {
					continue // ratio ≤ 1: contributes nothing for t ≥ 1
				}
				if b == 0 {
					a0 += a
				} else {
					items = append(items, item{a / b, a, b})
				}
			}
			e := math.Inf(1)
			if a0 <= delta {
				sort.Slice(items, func(i, j int) bool { return items[i].r > items[j].r })
				// f(t) = a0 + Σ_{r_y > t} (a_y − t·b_y). Walk t down from +Inf.
				sa, sb := a0, 0.0
				e = 0
				for i, it := range items {
					sa += it.a
					sb += it.b
					lo := 1.0
					if i+1 < len(items) {
						lo = max(items[i+1].r, 1)
					}
					if sa-lo*sb > delta { // crosses δ inside [lo, r_i]
						t := (sa - delta) / sb
						e = math.Log(max(t, 1))
						break
					}
					if lo == 1 {
						break
					}
				}
			}
			if e > best || (w.X < 0 && e > 0) {
				best, w = e, Witness{x, x2, -1}
			}
		}
	}
	return best, w, nil
}
