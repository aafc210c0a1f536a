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
// 1e-12·max|c| of 0 count as 0 (rounding of an exact 0). The solution is refined iteratively
// with residuals in double-double arithmetic and e^{−d} near 1 written as 1 − (−expm1(−d)),
// so that nearly singular systems (distances of 1e-9) keep their structure: the diagonal
// stays the largest entry of its column. The rows are checked to sum to 1 within 1e-9.
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
	// Iterative refinement with the residual r = 1 − e^{−D}·c in double-double arithmetic,
	// e^{−d} represented as 1 − (−expm1(−d)) where it is near 1: for small distances
	// e^{−D} is nearly singular (all entries ≈ 1) and rounding e^{−d} to float64 loses
	// the digits of 1 − e^{−d} that decide the solution (D = [[0, 1e-9], [1e-9, 0]] came out
	// with the off-diagonal above the diagonal). With the residual accurate to ~1e-32 the
	// iteration converges to the solution of the exact system while cond·2⁻⁵³ < 1.
	hi, lo := tightEntries(D, n)
	r := make([]float64, n)
	// It stops once no coefficient moves by more than 1e-17 of the largest. Small coefficients
	// (c_y ≈ ε/2 inside a geometric mechanism with ε = 1e-8) are then accurate to about
	// cond·2⁻⁵³·max|c| in absolute terms, not to their own last digits: −expm1 is accurate to
	// a relative 2⁻⁵³, and a change of that size in e^{−D} moves them that much.
	for step := 0; step < 10; step++ {
		for x := 0; x < n; x++ {
			r[x] = ddResidual(hi[x*n:(x+1)*n], lo[x*n:(x+1)*n], c)
		}
		change, size := 0.0, 0.0
		for y, v := range f.Solve(r) {
			c[y] += v
			change = math.Max(change, math.Abs(v))
			size = math.Max(size, math.Abs(c[y]))
		}
		if change <= 1e-17*size {
			break
		}
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
			p, e := twoProd(hi[x*n+y], c[y])
			v := p + (e + lo[x*n+y]*c[y])
			out.Set(x, y, v)
			s += v
		}
		if math.Abs(s-1) > 1e-9 {
			return nil, argerr.New("D", "the tight-constraints system is too ill-conditioned: row %d sums to %.12g", x, s)
		}
	}
	return out, nil
}

// tightEntries returns e^{−D} as double-double numbers hi + lo: where e^{−d} ≥ ½ it is
// 1 − ψ with ψ = −expm1(−d) (accurate to a relative 2⁻⁵³ of ψ, which is what the nearly
// singular systems need), elsewhere the float64 e^{−d}.
func tightEntries(D mat.Matrix, n int) (hi, lo []float64) {
	hi, lo = make([]float64, n*n), make([]float64, n*n)
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			d := D.At(x, y)
			if d < math.Ln2 {
				psi := -math.Expm1(-d)
				hi[x*n+y], lo[x*n+y] = twoSum(1, -psi)
			} else {
				hi[x*n+y] = math.Exp(-d)
			}
		}
	}
	return hi, lo
}

// ddResidual returns 1 − Σ_y (hi_y + lo_y)·c_y, accumulated in double-double arithmetic and
// rounded once.
func ddResidual(hi, lo, c []float64) float64 {
	sh, sl := 1.0, 0.0
	for y, cy := range c {
		p, e := twoProd(hi[y], cy)
		e += lo[y] * cy
		s, t := twoSum(sh, -p)
		sh, sl = s, sl+t-e
	}
	return sh + sl
}

// twoSum returns s = fl(a + b) and the exact error a + b − s (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// twoProd returns p = fl(a·b) and the exact error a·b − p.
func twoProd(a, b float64) (p, e float64) {
	p = a * b
	return p, math.FMA(a, b, -p)
}
