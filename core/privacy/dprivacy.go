package privacy

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

// MetricTolerance is the relative tolerance of the symmetry check on distance matrices:
// |D[x][x'] − D[x'][x]| ≤ MetricTolerance·max(1, |D[x][x']|).
const MetricTolerance = 1e-9

// ValidateMetric checks that D is a distance matrix on n points: n×n, entries non-negative and
// not NaN (+Inf allowed: no constraint between those points), symmetric within MetricTolerance,
// zero on the diagonal. Zero off the diagonal is allowed (a pseudometric: those inputs must get
// identical rows), and the triangle inequality is not required — each pair is taken as given.
func ValidateMetric(name string, d mat.Matrix, n int) error {
	if d == nil {
		return argerr.New(name, "missing distance matrix")
	}
	r, k := d.Dims()
	if r != k {
		return argerr.New(name, "must be square, got %d×%d", r, k)
	}
	if r != n {
		return argerr.New(name, "%d×%d, but the channel has %d rows (one per input)", r, k, n)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			v := d.At(i, j)
			if math.IsNaN(v) || v < 0 {
				return argerr.Cell(name, i, j, "is %v, expected a distance ≥ 0", v)
			}
			if i == j && v != 0 {
				return argerr.New(name, "diagonal entry [%d][%d] is %v, expected 0", i, i, v)
			}
			if w := d.At(j, i); j > i && v != w && (math.IsInf(v, 0) || math.IsInf(w, 0) || math.Abs(v-w) > MetricTolerance*math.Max(1, math.Abs(v))) {
				return argerr.New(name, "not symmetric: [%d][%d] = %v but [%d][%d] = %v", i, j, v, j, i, w)
			}
		}
	}
	return nil
}

// DPrivacyEpsilon returns the smallest ε for which C is ε·D-private
// (docs/mathematics.md#differential-privacy): max over x ≠ x' and y of (ln C[x][y] − ln C[x'][y]) /
// D[x][x']. 0/0 entries contribute nothing; pairs at distance +Inf impose nothing; a pair at
// distance 0 whose rows differ gives +Inf, as does a zero entry against a non-zero one at finite
// distance. With D the shortest-path distances of a graph it equals Epsilon on that graph. The
// witness names the attaining x, x', y.
func DPrivacyEpsilon(c mat.Matrix, d mat.Matrix) (float64, Witness, error) {
	if err := channel.Validate(c); err != nil {
		return 0, none, err
	}
	data, n, m := flat(c)
	if err := ValidateMetric("metric", d, n); err != nil {
		return 0, none, err
	}
	dd, _, _ := flat(d)
	// The logarithms once (n·m of them) rather than two per compared entry (n²·m): on a 32×32
	// map that is 130 s → a few seconds in WebAssembly. The ratio of a pair is the same
	// difference ln a − ln b as logRatio's, so the result is the same to the bit.
	logs := make([]float64, len(data))
	for i, v := range data {
		logs[i] = math.Log(v) // −Inf for zeros
	}
	best, w := 0.0, none
	consider := func(r float64, x, x2, y int) {
		if r > best {
			best, w = r, Witness{x, x2, y}
		}
	}
	for x := 0; x < n; x++ {
		rx, lx := data[x*m:(x+1)*m], logs[x*m:(x+1)*m]
		for x2 := 0; x2 < n; x2++ {
			dist := dd[x*n+x2]
			if x == x2 || math.IsInf(dist, 1) {
				continue
			}
			if dist == 0 { // rows that differ at all: +Inf
				for y, a := range rx {
					if a > data[x2*m+y] && !math.IsInf(best, 1) {
						consider(math.Inf(1), x, x2, y)
					}
				}
				continue
			}
			if x2 < x && dd[x2*n+x] == dist {
				continue // done with (x2, x), both ways
			}
			// max_y ln a − ln b over y with a > b, both ways in one pass (a zero b gives +Inf;
			// a zero a, −Inf or NaN, never wins), then one division each: dividing by dist > 0
			// keeps the order.
			up, down, uy, dy := 0.0, 0.0, -1, -1
			lx2 := logs[x2*m : x2*m+len(lx)]
			for y, la := range lx {
				lb := lx2[y]
				if r := la - lb; r > up {
					up, uy = r, y
				}
				if r := lb - la; r > down {
					down, dy = r, y
				}
			}
			if uy >= 0 {
				consider(up/dist, x, x2, uy)
			}
			if dy >= 0 && x2 > x && dd[x2*n+x] == dist {
				consider(down/dist, x2, x, dy)
			}
		}
	}
	return best, w, nil
}

// InducedMetric returns d_C(x, x') = max_y |ln C[x][y] − ln C[x'][y]| (Chatzikokolakis et al. (CSF
// 2019) §4.5, docs/mathematics.md#differential-privacy), the smallest metric for which C is
// d-private (0/0 contributes nothing, one zero against a non-zero gives +Inf). It is an n×n matrix
// with a zero diagonal.
func InducedMetric(c mat.Matrix) (*mat.Dense, error) {
	if err := channel.Validate(c); err != nil {
		return nil, err
	}
	data, n, m := flat(c)
	logs := make([]float64, len(data))
	for i, v := range data {
		logs[i] = math.Log(v) // −Inf for zeros
	}
	out := mat.NewDense(n, n, nil)
	od := out.RawMatrix().Data
	for x := 0; x < n; x++ {
		for x2 := x + 1; x2 < n; x2++ {
			best := 0.0
			lx, lx2 := logs[x*m:(x+1)*m], logs[x2*m:(x2+1)*m]
			for y, a := range lx {
				b := lx2[y]
				if math.IsInf(a, -1) && math.IsInf(b, -1) {
					continue
				}
				if r := math.Abs(a - b); r > best {
					best = r
				}
			}
			od[x*n+x2], od[x2*n+x] = best, best
		}
	}
	return out, nil
}
