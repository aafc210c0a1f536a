package mechanism

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

// Exponential returns the exponential mechanism (Chatzikokolakis et al. (CSF 2019) Def. 12) on
// inputs 0..n−1 and outputs 0..m−1 with the metric |x−y|: C[x][y] = e^{−ε|x−y|/2}/Z_x, Z_x = Σ_y
// e^{−ε|x−y|/2}. The nominal ε bounds its privacy (it is ε·|x−x'|-private) but its true ε,
// ExponentialEpsilon, is smaller: the factor ½ pays for the ratio of the normalizers Z_x/Z_x',
// which is rarely as large as e^{ε/2}.
func Exponential(n int, eps float64, m int) (*mat.Dense, error) {
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if err := checkEpsilon(eps); err != nil {
		return nil, err
	}
	beta := expHalfPowers(n, m, eps)
	c := mat.NewDense(n, m, nil)
	data := c.RawMatrix().Data
	for x := 0; x < n; x++ {
		row := data[x*m : (x+1)*m]
		// Inputs beyond the outputs are shifted by their smallest distance so that a
		// large ε·(x−m+1) cannot underflow the whole row; the shift cancels in the ratio.
		shift := nearest(x, m)
		z := 0.0
		for y := range row {
			row[y] = beta[absInt(x-y)-shift]
			z += row[y]
		}
		for y := range row {
			row[y] /= z
		}
	}
	return c, nil
}

// ExponentialEpsilon is the true ε of Exponential(n, ε, m) for the metric |x−x'| on the
// inputs: the smallest ε' such that C[x][y] ≤ e^{ε'|x−x'|} C[x'][y] for all x, x', y. Because
// ln C[x][y] − ln C[x'][y] telescopes along x, x+1, …, x', only adjacent inputs need checking,
// and the logarithms are taken in closed form, ln C[x][y] = −ε|x−y|/2 − ln Z_x, so that
// entries which underflow to 0 for large ε do not turn the answer into +Inf. It is at most
// the nominal ε, and 0 when n = 1 (no pair of inputs).
func ExponentialEpsilon(n int, eps float64, m int) (float64, error) {
	if err := checkSize(n, m); err != nil {
		return 0, err
	}
	if err := checkEpsilon(eps); err != nil {
		return 0, err
	}
	beta := expHalfPowers(n, m, eps)
	logZ := make([]float64, n)
	for x := range logZ {
		shift := nearest(x, m)
		z := 0.0
		for y := 0; y < m; y++ {
			z += beta[absInt(x-y)-shift]
		}
		logZ[x] = math.Log(z) - eps*float64(shift)/2
	}
	worst := 0.0
	for x := 0; x+1 < n; x++ {
		dz := logZ[x+1] - logZ[x]
		for y := 0; y < m; y++ {
			v := math.Abs(-eps*float64(absInt(x-y)-absInt(x+1-y))/2 + dz)
			worst = math.Max(worst, v)
		}
	}
	return worst, nil
}

// ExponentialMetric returns the exponential mechanism for a general score distance: D is n×m,
// D[x][y] ≥ 0 the distance from input x to output y (+Inf allowed: probability 0), and
// C[x][y] = e^{−ε D[x][y]/2} / Σ_y' e^{−ε D[x][y']/2}. Every row needs a finite entry. Each
// row is shifted by its smallest distance before exponentiating, which leaves C unchanged but
// keeps large ε·D from underflowing a whole row. For a metric D on a common domain (square,
// outputs = inputs) the true ε is MetricEpsilon(C, D).
func ExponentialMetric(D *mat.Dense, eps float64) (*mat.Dense, error) {
	if D == nil || D.IsEmpty() {
		return nil, argerr.New("metric", "empty matrix")
	}
	n, m := D.Dims()
	if err := checkSize(n, m); err != nil {
		return nil, fmt.Errorf("metric: %w", err)
	}
	if err := checkEpsilon(eps); err != nil {
		return nil, err
	}
	c := mat.NewDense(n, m, nil)
	data := c.RawMatrix().Data
	for x := 0; x < n; x++ {
		drow := D.RawRowView(x)
		dmin := math.Inf(1)
		for y, d := range drow {
			if math.IsNaN(d) || d < 0 || math.IsInf(d, -1) {
				return nil, argerr.Cell("metric", x, y, "is %v, expected a non-negative distance", d)
			}
			dmin = math.Min(dmin, d)
		}
		if math.IsInf(dmin, 1) {
			return nil, argerr.Row("metric", x, "has no finite distance, so no output is possible")
		}
		row := data[x*m : (x+1)*m]
		z := 0.0
		for y, d := range drow {
			row[y] = math.Exp(-eps * (d - dmin) / 2) // d = +Inf gives exactly 0
			z += row[y]
		}
		for y := range row {
			row[y] /= z
		}
	}
	return c, nil
}

// MetricEpsilon is the smallest ε such that the channel C is ε·D-private
// (docs/mathematics.md#differential-privacy): max over x ≠ x' and y of (ln C[x][y] − ln C[x'][y]) /
// D[x][x'], where D is an n×n matrix of non-negative distances between the inputs (+Inf allowed).
// Conventions: 0/0 entries contribute nothing; a pair at distance +Inf imposes nothing; a zero
// entry opposite a non-zero one at a finite distance, or different rows at distance 0, give +Inf.
// It is 0 when n = 1. Cost O(n²m).
func MetricEpsilon(C, D *mat.Dense) (float64, error) {
	if err := channel.Validate(C); err != nil {
		return 0, err
	}
	n, m := C.Dims()
	if D == nil || D.IsEmpty() {
		return 0, argerr.New("metric", "empty matrix")
	}
	if r, k := D.Dims(); r != n || k != n {
		return 0, argerr.New("metric", "is %d×%d but the channel has %d inputs, expected %d×%d", r, k, n, n, n)
	}
	for x := 0; x < n; x++ {
		for y, d := range D.RawRowView(x) {
			if math.IsNaN(d) || d < 0 {
				return 0, argerr.Cell("metric", x, y, "is %v, expected a non-negative distance", d)
			}
		}
	}
	logC := make([]float64, n*m)
	cr := C.RawMatrix()
	for x := 0; x < n; x++ {
		for y := 0; y < m; y++ {
			logC[x*m+y] = math.Log(cr.Data[x*cr.Stride+y]) // −Inf for zero entries
		}
	}
	worst := 0.0
	for x := 0; x < n; x++ {
		lx := logC[x*m : (x+1)*m]
		drow := D.RawRowView(x)
		for x2 := 0; x2 < n; x2++ {
			d := drow[x2]
			if x2 == x || math.IsInf(d, 1) {
				continue
			}
			lx2 := logC[x2*m : (x2+1)*m]
			for y := range lx {
				if math.IsInf(lx[y], -1) {
					continue // C[x][y] = 0 can only be the smaller side
				}
				diff := lx[y] - lx2[y] // +Inf when C[x2][y] = 0
				if diff <= 0 {
					continue
				}
				if d == 0 {
					return math.Inf(1), nil
				}
				worst = math.Max(worst, diff/d)
			}
		}
	}
	return worst, nil
}

// expHalfPowers returns e^{−ε j/2} for j = 0..max(n, m), the weights of the exponential
// mechanism with the metric |x−y|.
func expHalfPowers(n, m int, eps float64) []float64 {
	p := make([]float64, max(n, m)+1)
	for j := range p {
		p[j] = math.Exp(-eps * float64(j) / 2)
	}
	return p
}

// nearest is the distance from input x to the nearest output 0..m−1.
func nearest(x, m int) int { return max(0, x-(m-1)) }

func absInt(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
