package refine

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/metric"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// PrvTolerance is the decision tolerance of Prv: d_B(x, x') counts as at most d_A(x, x') when
// d_B ≤ d_A + PrvTolerance·max(1, d_A). Distances are differences of logarithms, so this is
// a relative tolerance on the probability ratios. Additive perturbations are another matter:
// noise of 1e-12 on an entry of size p moves a distance by about 1e-12/p, and turning a 0 into
// 1e-12 turns a finite distance into +Inf — ⊑prv is by nature sensitive to tiny entries.
const PrvTolerance = 1e-9

// MetricTolerance is the relative tolerance of the metric checks of FromMetric: symmetry
// within MetricTolerance·max(1, |D[x][x']|) and the triangle inequality
// D[x][z] ≤ D[x][y] + D[y][z] + MetricTolerance·max(1, D[x][z]).
const MetricTolerance = 1e-9

// MaxFiniteDistance is the largest finite distance FromMetric realizes: the channel has an
// entry a·e^{−d} with a = 1/(2n), which must stay a normal float64 (e^{−700} ≈ 1e−304).
const MaxFiniteDistance = 700.0

// PairCounterexample is a pair of secrets that B distinguishes more than A:
// d_B(X, X2) > d_A(X, X2). B is then not d_A-private, although A is.
type PairCounterexample struct {
	X, X2  int
	DA, DB float64
}

// PrvResult is the verdict of Prv.
type PrvResult struct {
	// Holds reports A ⊑prv B: d_A ≥ d_B pointwise (within PrvTolerance).
	Holds bool
	// MetricA and MetricB are the induced metrics d_A and d_B (n×n, +Inf allowed).
	MetricA, MetricB *mat.Dense
	// Counterexample, when !Holds, is the pair with the largest excess d_B − d_A (an infinite
	// d_B against a finite d_A first).
	Counterexample *PairCounterexample
}

// Prv decides A ⊑prv B (docs/mathematics.md#refinement, Chatzikokolakis et al. (CSF 2019) §4.5):
// d_A(x, x') ≥ d_B(x, x') for every pair of secrets, with d_C(x, x') = max_y |ln C[x][y] − ln
// C[x'][y]| the induced metric (privacy.InducedMetric), equivalently: B is d-private for every
// metric d for which A is.
func Prv(A, B mat.Matrix) (*PrvResult, error) { return PrvWith(A, B, nil) }

// PrvWith is Prv with options (a different tolerance).
func PrvWith(A, B mat.Matrix, opt *Options) (*PrvResult, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	p, err := newPair(A, B)
	if err != nil {
		return nil, err
	}
	tol := opt.tol(PrvTolerance)
	da, err := privacy.InducedMetric(mat.NewDense(p.n, p.ma, p.a))
	if err != nil {
		return nil, err
	}
	db, err := privacy.InducedMetric(mat.NewDense(p.n, p.mb, p.b))
	if err != nil {
		return nil, err
	}
	res := &PrvResult{Holds: true, MetricA: da, MetricB: db}
	n := p.n
	a, b := da.RawMatrix().Data, db.RawMatrix().Data
	bestX, bestX2, bestExcess := -1, -1, 0.0
	for x := 0; x < n; x++ {
		for x2 := x + 1; x2 < n; x2++ {
			dA, dB := a[x*n+x2], b[x*n+x2]
			if math.IsInf(dA, 1) || dB <= dA+tol*math.Max(1, dA) {
				continue
			}
			excess := dB - dA // +Inf when dB is
			if bestX < 0 || excess > bestExcess {
				bestX, bestX2, bestExcess = x, x2, excess
			}
		}
	}
	if bestX >= 0 {
		res.Holds = false
		res.Counterexample = &PairCounterexample{X: bestX, X2: bestX2, DA: a[bestX*n+bestX2], DB: b[bestX*n+bestX2]}
	}
	return res, nil
}

// PrvMeet returns a channel whose induced metric is max(d_A, d_B), the greatest lower bound of A
// and B for ⊑prv (Chatzikokolakis et al. (CSF 2019) §7.3): PrvMeet ⊑prv A and PrvMeet ⊑prv B, and
// every C with C ⊑prv A and C ⊑prv B (d_C ≥ d_A, d_B) has C ⊑prv PrvMeet. The channel is
// FromMetric's.
func PrvMeet(A, B mat.Matrix) (*mat.Dense, error) {
	da, db, err := metrics(A, B)
	if err != nil {
		return nil, err
	}
	n, _ := da.Dims()
	d := mat.NewDense(n, n, nil)
	dd, a, b := d.RawMatrix().Data, da.RawMatrix().Data, db.RawMatrix().Data
	for i := range dd {
		dd[i] = math.Max(a[i], b[i])
	}
	return fromMetric(d, "metric max(d_A, d_B)")
}

// PrvJoin returns a channel whose induced metric is the shortest-path closure (Floyd–Warshall) of
// min(d_A, d_B), the least upper bound of A and B for ⊑prv (Chatzikokolakis et al. (CSF 2019)
// §7.3): A ⊑prv PrvJoin and B ⊑prv PrvJoin, and it is below every common upper bound. min(d_A, d_B)
// need not satisfy the triangle inequality; its closure is the largest metric below both. The
// channel is FromMetric's.
func PrvJoin(A, B mat.Matrix) (*mat.Dense, error) {
	da, db, err := metrics(A, B)
	if err != nil {
		return nil, err
	}
	n, _ := da.Dims()
	d := mat.NewDense(n, n, nil)
	dd, a, b := d.RawMatrix().Data, da.RawMatrix().Data, db.RawMatrix().Data
	for i := range dd {
		dd[i] = math.Min(a[i], b[i])
	}
	ShortestPathClosure(dd, n)
	return fromMetric(d, "metric closure of min(d_A, d_B)")
}

func metrics(A, B mat.Matrix) (da, db *mat.Dense, err error) {
	p, err := newPair(A, B)
	if err != nil {
		return nil, nil, err
	}
	if da, err = privacy.InducedMetric(mat.NewDense(p.n, p.ma, p.a)); err != nil {
		return nil, nil, err
	}
	if db, err = privacy.InducedMetric(mat.NewDense(p.n, p.mb, p.b)); err != nil {
		return nil, nil, err
	}
	return da, db, nil
}

// ShortestPathClosure replaces the n×n row-major distance matrix d (+Inf allowed) by its
// shortest-path closure, d[x][z] = min over paths of the summed distances (Floyd–Warshall). It
// is metric.ShortestPathClosure, kept here for the callers of this package.
func ShortestPathClosure(d []float64, n int) { metric.ShortestPathClosure(d, n) }

// FromMetric returns a channel C whose induced metric is exactly D (Chatzikokolakis et al. (CSF
// 2019) Theorem 17, docs/mathematics.md#refinement): for every pair, max_y |ln C[x][y] − ln
// C[x'][y]| = D[x][x'].
//
// D must be an extended pseudometric on n points: n×n, zero diagonal, entries ≥ 0 and not NaN
// (+Inf allowed: those secrets may be told apart completely; 0 off the diagonal allowed: those
// must get identical rows), symmetric, satisfying the triangle inequality (both within
// MetricTolerance), finite entries at most MaxFiniteDistance.
//
// The channel is n×(n+1). Column y < n has entries a·e^{−D[x][y]} with a = 1/(2n) (0 when D[x][y] =
// +Inf): between x and x' it attains |ln C[x][x] − ln C[x'][x]| = D[x][x'] and, by the triangle
// inequality, no column y exceeds it. The last column is the filler f_x = 1 − a·S_x, S_x = Σ_y
// e^{−D[x][y]}: since a·S_x ≤ 1/2 and |S_x − S_x'| ≤ n(1 − e^{−D[x][x']}), |ln f_x − ln f_x'| ≤ 1 −
// e^{−D[x][x']} ≤ D[x][x'], so the filler never exceeds the metric. The result is checked by
// recomputing its induced metric (relative 1e-9).
func FromMetric(D mat.Matrix) (*mat.Dense, error) {
	if err := ValidateMetric("D", D); err != nil {
		return nil, err
	}
	n, _ := D.Dims()
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			// Symmetrize exactly: symmetric within tolerance is accepted, the rows use one value.
			d[i*n+j] = D.At(min(i, j), max(i, j))
		}
	}
	return fromMetric(mat.NewDense(n, n, d), "D")
}

// fromMetric builds and checks the channel of a validated metric (name is used in errors).
func fromMetric(D *mat.Dense, name string) (*mat.Dense, error) {
	n, _ := D.Dims()
	d := D.RawMatrix().Data
	for i, v := range d {
		if !math.IsInf(v, 1) && v > MaxFiniteDistance {
			return nil, argerr.Cell(name, i/n, i%n, "= %g exceeds %g: a float64 channel cannot realize a probability ratio of e^%g (use +Inf to make the secrets fully distinguishable)", v, MaxFiniteDistance, v)
		}
	}
	a := 1 / (2 * float64(n))
	m := n + 1
	c := mat.NewDense(n, m, nil)
	cd := c.RawMatrix().Data
	for x := 0; x < n; x++ {
		row := cd[x*m : (x+1)*m]
		s := 0.0
		for y := 0; y < n; y++ {
			row[y] = a * math.Exp(-d[x*n+y]) // exp(−Inf) = 0
			s += row[y]
		}
		row[n] = 1 - s
	}
	got, err := privacy.InducedMetric(c)
	if err != nil {
		return nil, err
	}
	gd := got.RawMatrix().Data
	for i, want := range d {
		g := gd[i]
		if math.IsInf(want, 1) != math.IsInf(g, 1) || (!math.IsInf(want, 1) && math.Abs(g-want) > 1e-9*math.Max(1, want)) {
			return nil, argerr.New(name, "the constructed channel has induced distance %g at [%d][%d] instead of %g (is it really a metric?)", g, i/n, i%n, want)
		}
	}
	return c, nil
}

// ValidateMetric checks that D is an extended pseudometric (see FromMetric): square,
// non-empty, zero diagonal, entries ≥ 0 and not NaN (+Inf allowed), symmetric and satisfying
// the triangle inequality within MetricTolerance. Errors name the argument and the offending
// entries.
func ValidateMetric(name string, D mat.Matrix) error {
	if D == nil {
		return argerr.New(name, "missing distance matrix")
	}
	if d, ok := D.(*mat.Dense); ok && (d == nil || d.IsEmpty()) {
		return argerr.New(name, "empty distance matrix")
	}
	n, k := D.Dims()
	if n == 0 || k == 0 {
		return argerr.New(name, "empty distance matrix")
	}
	if float64(n)*float64(k) > 4_000_000 {
		return argerr.New(name, "%d×%d is too large (at most 2000×2000)", n, k)
	}
	if err := privacy.ValidateMetric(name, D, n); err != nil {
		return err
	}
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d[i*n+j] = D.At(i, j)
		}
	}
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			dxy := d[x*n+y]
			if math.IsInf(dxy, 1) {
				continue
			}
			for z := 0; z < n; z++ {
				dxz, dyz := d[x*n+z], d[y*n+z]
				if dxz > dxy+dyz+MetricTolerance*math.Max(1, dxz) {
					return argerr.New(name, "triangle inequality fails: D[%d][%d] = %g > D[%d][%d] + D[%d][%d] = %g + %g", x, z, dxz, x, y, y, z, dxy, dyz)
				}
			}
		}
	}
	return nil
}
