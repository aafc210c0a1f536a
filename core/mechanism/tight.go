package mechanism

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/internal/lu"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// MaxTightConstraintsPoints bounds the metric of TightConstraints: it factorizes an n×n matrix,
// n³/3 operations (a few seconds at 2000 points).
const MaxTightConstraintsPoints = 2000

// tightCond is the condition number of e^{−D} beyond which TightConstraints calls the system
// singular: the coefficients c would then carry fewer than about four correct digits.
const tightCond = 1e12

// TightConstraints returns the tight-constraints mechanism of the metric D (libqif's
// construction): C[x][y] = e^{−D[x][y]}·c_y, where c solves e^{−D}·c = 1 (e^{−D} taken entrywise,
// e^{−∞} = 0), so that every row sums to 1. Between any two secrets x, x' the ratio
// C[x][y]/C[x'][y] = e^{D[x'][y] − D[x][y]} is then at most e^{D[x][x']} by the triangle
// inequality, with equality for y = x': every privacy constraint that can be tight is. The
// outputs are the secrets (C is n×n). For D = ε·|i−j| it is the geometric mechanism
// (TruncatedGeometric(n, ε, n)), for ε times the discrete metric randomized response.
//
// No such mechanism exists when some c_y < 0, and none is defined when e^{−D} is singular (two
// secrets at distance 0, for instance); both are errors naming D. Coefficients within
// 1e-12·max|c| of 0 count as 0 (rounding of an exact 0). The solution is refined by one step of
// iterative refinement, and the rows are checked to sum to 1 within 1e-9.
func TightConstraints(D mat.Matrix) (*mat.Dense, error) {
	if D == nil {
		return nil, argerr.New("D", "missing distance matrix")
	}
	if d, ok := D.(*mat.Dense); ok && (d == nil || d.IsEmpty()) {
		return nil, argerr.New("D", "empty distance matrix")
	}
	n, k := D.Dims()
	if n != k || n == 0 {
		return nil, argerr.New("D", "must be square and non-empty, got %d×%d", n, k)
	}
	if n > MaxTightConstraintsPoints {
		return nil, argerr.New("D", "%d points, more than the limit of %d", n, MaxTightConstraintsPoints)
	}
	if err := privacy.ValidateMetric("D", D, n); err != nil {
		return nil, err
	}
	phi := make([]float64, n*n) // e^{−D}, row-major
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			phi[x*n+y] = math.Exp(-D.At(x, y))
		}
	}
	f, err := lu.Factorize(n, phi)
	if err != nil {
		return nil, argerr.New("D", "the system e^{−D}·c = 1 is singular, so no tight-constraints mechanism is defined (are two secrets at distance 0?)")
	}
	if cond := f.Cond(); !(cond <= tightCond) {
		return nil, argerr.New("D", "the system e^{−D}·c = 1 is singular or nearly so (condition number %.3g), so no tight-constraints mechanism is defined (are two secrets at distance 0?)", cond)
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	c := f.Solve(ones)
	// One step of iterative refinement: r = 1 − e^{−D}·c, c += e^{−D}⁻¹·r.
	r := make([]float64, n)
	for x := 0; x < n; x++ {
		s := 1.0
		for y, v := range phi[x*n : (x+1)*n] {
			s -= v * c[y]
		}
		r[x] = s
	}
	for y, v := range f.Solve(r) {
		c[y] += v
	}
	scale := 0.0
	for y := 0; y < n; y++ {
		scale = math.Max(scale, math.Abs(c[y]))
	}
	for y := 0; y < n; y++ {
		v := c[y]
		if v < -1e-12*scale {
			return nil, argerr.New("D", "no tight-constraints mechanism exists for this metric: the coefficient of output %d is %.6g < 0", y, v)
		}
		if v < 0 {
			c[y] = 0
		}
	}
	out := mat.NewDense(n, n, nil)
	for x := 0; x < n; x++ {
		s := 0.0
		for y := 0; y < n; y++ {
			v := phi[x*n+y] * c[y]
			out.Set(x, y, v)
			s += v
		}
		if math.Abs(s-1) > 1e-9 {
			return nil, argerr.New("D", "the tight-constraints system is too ill-conditioned: row %d sums to %.12g", x, s)
		}
	}
	return out, nil
}
