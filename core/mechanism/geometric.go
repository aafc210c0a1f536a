package mechanism

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"gonum.org/v1/gonum/mat"
)

// Geometric returns the geometric mechanism on inputs 0..n−1 (Chatzikokolakis et al. (CSF 2019)
// Def. 9). Its outputs are all the integers, C[x][y] = (1−α)/(1+α)·α^{|x−y|}, α = e^{−ε}; every
// column y ≤ 0 is proportional to column 0 and every column y ≥ n−1 to column n−1, so its reduced
// channel — the one returned, with the same leakage and privacy for every prior and gain — is the
// square truncated geometric TruncatedGeometric(n, ε, n).
func Geometric(n int, eps float64) (*mat.Dense, error) {
	return TruncatedGeometric(n, eps, n)
}

// TruncatedGeometric returns the truncated geometric mechanism (Chatzikokolakis et al. (CSF 2019)
// Def. 10) on inputs 0..n−1 and outputs 0..m−1 with m ≥ n, α = e^{−ε}:
//
//	C[x][y]   = (1−α)/(1+α)·α^{|x−y|}   for 0 < y < m−1,
//	C[x][0]   = α^{x}/(1+α),
//	C[x][m−1] = α^{m−1−x}/(1+α),
//
// that is, the geometric mechanism with its output clamped to 0..m−1 (the end columns take
// the tails). When m = 1 the only column is all ones. It is ε-DP for adjacent inputs
// (ε·|x−x'|-private). m < n is refused: that is OverTruncatedGeometric.
func TruncatedGeometric(n int, eps float64, m int) (*mat.Dense, error) {
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if m < n {
		return nil, argerr.New("m", "the truncated geometric needs m ≥ n outputs (n = %d, m = %d); use the over-truncated geometric for fewer outputs", n, m)
	}
	if err := checkEpsilon(eps); err != nil {
		return nil, err
	}
	return clampedGeometric(n, m, 0, eps), nil
}

// OverTruncatedGeometric returns the over-truncated geometric mechanism (Chatzikokolakis et al.
// (CSF 2019) Def. 11) on inputs 0..n−1 and the narrower output range 0..m−1, 1 ≤ m ≤ n: start from
// the square truncated geometric TruncatedGeometric(n, ε, n) and sum its columns m−1, m, …, n−1
// into the last output column m−1. The low end needs no summing because the output range starts,
// like the inputs, at 0 (the same placement as RandomizedResponse with m < n, whose inputs ≥ m are
// the ones outside the outputs). Equivalently: geometric noise, then clamping to 0..m−1. For a
// range placed elsewhere among the inputs (summing at both ends) see OverTruncatedGeometricAt. m =
// n gives the truncated geometric.
func OverTruncatedGeometric(n, m int, eps float64) (*mat.Dense, error) {
	return OverTruncatedGeometricAt(n, m, 0, eps)
}

// OverTruncatedGeometricAt is OverTruncatedGeometric with the output range placed at the
// input values offset..offset+m−1 (0 ≤ offset ≤ n−m): columns 0..offset of the square
// truncated geometric are summed into output 0 and columns offset+m−1..n−1 into output m−1;
// output j stands for the value offset+j.
func OverTruncatedGeometricAt(n, m, offset int, eps float64) (*mat.Dense, error) {
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if m > n {
		return nil, argerr.New("m", "the over-truncated geometric needs m ≤ n outputs (n = %d, m = %d); use the truncated geometric for more outputs", n, m)
	}
	if offset < 0 || offset > n-m {
		return nil, argerr.New("offset", "must be between 0 and n−m = %d, got %d", n-m, offset)
	}
	if err := checkEpsilon(eps); err != nil {
		return nil, err
	}
	return clampedGeometric(n, m, offset, eps), nil
}

// MaxWindowOffset bounds |firstInput| and |firstOutput| of GeometricWindow: beyond 2⁵³ the
// integers are no longer exact in a JavaScript number (or a float64).
const MaxWindowOffset = 1 << 53

// GeometricWindow returns the geometric mechanism on a window (libqif's form): secrets
// firstInput .. firstInput+n−1 (rows), outputs firstOutput .. firstOutput+m−1 (columns), m ≥ 2,
//
//	C[x][y] = P(clamp(x + Z) = y),   P(Z = k) = (1−α)/(1+α)·α^{|k|},  α = e^{−ε},
//
// where clamp maps values below the first output to the first output and values above the
// last output to the last. The windows may overlap in any way or not at all (then the outputs
// on the near side take almost all the mass). With firstInput = firstOutput it is
// TruncatedGeometric (m ≥ n) or OverTruncatedGeometric (m ≤ n); with an offset it is
// OverTruncatedGeometricAt or a truncated geometric whose outputs are shifted. Clamping is
// post-processing, so the matrix is ε-DP for adjacent secrets.
func GeometricWindow(n int, eps float64, m, firstInput, firstOutput int) (*mat.Dense, error) {
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if m < 2 {
		return nil, argerr.New("m", "the geometric mechanism on a window needs at least 2 outputs, got %d", m)
	}
	if err := checkEpsilon(eps); err != nil {
		return nil, err
	}
	for _, o := range []struct {
		name string
		v    int
	}{{"firstInput", firstInput}, {"firstOutput", firstOutput}} {
		if o.v > MaxWindowOffset || o.v < -MaxWindowOffset {
			return nil, argerr.New(o.name, "%d is beyond ±2⁵³", o.v)
		}
	}
	return clampedGeometric(n, m, firstOutput-firstInput, eps), nil
}

// clampedGeometric is P[clamp(x+Z, lo, lo+m−1) = lo+j] for inputs x = 0..n−1, outputs
// j = 0..m−1, Z two-sided geometric with parameter α = e^{−ε}. With P[x+Z = v] =
// k·α^{|x−v|}, k = (1−α)/(1+α) = tanh(ε/2), the tails are
//
//	P[x+Z ≤ v] = α^{x−v}/(1+α)        (v ≤ x),   1 − α^{v+1−x}/(1+α)   (v ≥ x),
//	P[x+Z ≥ v] = α^{v−x}/(1+α)        (v ≥ x),   1 − α^{x−v+1}/(1+α)   (v ≤ x).
//
// tanh(ε/2) keeps k accurate for tiny ε where 1−α would cancel; the "1 − …" forms subtract at
// most α/(1+α) < ½, so they do not cancel either.
func clampedGeometric(n, m, lo int, eps float64) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	if m == 1 {
		for i := range c.RawMatrix().Data {
			c.RawMatrix().Data[i] = 1
		}
		return c
	}
	k := math.Tanh(eps / 2)
	alpha := math.Exp(-eps)
	inv := 1 / (1 + alpha)
	// α^j for the |x−v| up to n+m, each from one Exp so that the error does not compound;
	// it underflows to 0 gracefully for large ε·j. A window far from the inputs (lo outside
	// −m..n) needs larger j, computed directly.
	powers := make([]float64, n+m+1)
	for j := range powers {
		powers[j] = math.Exp(-eps * float64(j))
	}
	pow := func(j int) float64 {
		if j < len(powers) {
			return powers[j]
		}
		return math.Exp(-eps * float64(j))
	}
	hi := lo + m - 1
	data := c.RawMatrix().Data
	for x := 0; x < n; x++ {
		row := data[x*m : (x+1)*m]
		if lo <= x {
			row[0] = pow(x-lo) * inv
		} else {
			row[0] = 1 - pow(lo+1-x)*inv
		}
		for j := 1; j < m-1; j++ {
			d := x - (lo + j)
			if d < 0 {
				d = -d
			}
			row[j] = k * pow(d)
		}
		if hi >= x {
			row[m-1] = pow(hi-x) * inv
		} else {
			row[m-1] = 1 - pow(x-hi+1)*inv
		}
	}
	return c
}
