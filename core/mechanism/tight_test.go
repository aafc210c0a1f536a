package mechanism

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/metric"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

func scaled(d *mat.Dense, s float64) *mat.Dense {
	var out mat.Dense
	out.Scale(s, d)
	return &out
}

func maxDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	m := 0.0
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// Tight constraints for ε|i−j| is the geometric mechanism, for ε·discrete randomized response
// (libqif's tests, and the closed forms of this package).
func TestTightConstraintsClosedForms(t *testing.T) {
	for _, n := range []int{1, 2, 5, 10, 40} {
		line := make([][]float64, n)
		for i := range line {
			line[i] = []float64{float64(i)}
		}
		d, _ := metric.Manhattan(line)
		disc, _ := metric.Discrete(n, 1)
		for _, eps := range []float64{0.01, 0.3, 0.9 * 1.1, 2, 10, 40} {
			tc, err := TightConstraints(scaled(d, eps))
			if err != nil {
				t.Fatalf("n = %d, ε = %v: %v", n, eps, err)
			}
			geo, _ := TruncatedGeometric(n, eps, n)
			if e := maxDiff(tc, geo); e > 1e-12 {
				t.Errorf("n = %d, ε = %v: tight constraints differ from the geometric by %v", n, eps, e)
			}
			tc, err = TightConstraints(scaled(disc, eps))
			if err != nil {
				t.Fatalf("discrete n = %d, ε = %v: %v", n, eps, err)
			}
			rr, _ := RandomizedResponse(n, eps, n)
			if e := maxDiff(tc, rr); e > 1e-12 {
				t.Errorf("n = %d, ε = %v: tight constraints differ from randomized response by %v", n, eps, e)
			}
		}
	}
}

// On a 3×3 grid (libqif's test: cell size 1.1, ε = 0.9) the mechanism exists and is exactly
// ε·d-private, as on every metric where it exists (the triangle inequality makes every ratio at
// most e^{d(x,x')}, attained at y = x').
func TestTightConstraintsPrivacy(t *testing.T) {
	grid, _ := metric.GridEuclidean(3, 3, 1.1)
	tc, err := TightConstraints(scaled(grid, 0.9))
	if err != nil {
		t.Fatal(err)
	}
	eps, _, err := privacy.DPrivacyEpsilon(tc, grid)
	if err != nil || math.Abs(eps-0.9) > 1e-12 {
		t.Errorf("grid: ε = %v (%v), want 0.9", eps, err)
	}
	rng := rand.New(rand.NewPCG(51, 52))
	exists, missing := 0, 0
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(7)
		// Clusters of points make the coefficients of crowded outputs negative.
		spread := []float64{0.2, 1, 3}[trial%3]
		pts := make([][]float64, n)
		for i := range pts {
			pts[i] = []float64{rng.Float64() * spread, rng.Float64() * spread}
		}
		D, _ := metric.Euclidean(pts)
		tc, err := TightConstraints(D)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "D: no tight-constraints mechanism exists") {
				t.Fatalf("unexpected error %v", err)
			}
			// Independent check of the verdict: solve e^{−D}·c = 1 with gonum directly.
			phi := mat.NewDense(n, n, nil)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					phi.Set(i, j, math.Exp(-D.At(i, j)))
				}
			}
			var c mat.VecDense
			ones := mat.NewVecDense(n, nil)
			for i := 0; i < n; i++ {
				ones.SetVec(i, 1)
			}
			if err := c.SolveVec(phi, ones); err != nil {
				t.Fatal(err)
			}
			if mat.Min(&c) >= 0 {
				t.Fatalf("refused, but c = %v is non-negative", c.RawVector().Data)
			}
			missing++
			continue
		}
		exists++
		for x := 0; x < n; x++ {
			s := 0.0
			for y := 0; y < n; y++ {
				s += tc.At(x, y)
			}
			if math.Abs(s-1) > 1e-12 {
				t.Fatalf("row %d sums to %v", x, s)
			}
			for x2 := 0; x2 < n; x2++ {
				// Tight: C[x][x2]/C[x2][x2] = e^{−d(x,x2)}.
				if r := tc.At(x, x2) / tc.At(x2, x2); math.Abs(r-math.Exp(-D.At(x, x2))) > 1e-12 {
					t.Fatalf("ratio %v, want e^{−%v}", r, D.At(x, x2))
				}
			}
		}
		eps, _, err := privacy.DPrivacyEpsilon(tc, D)
		if err != nil || math.Abs(eps-1) > 1e-9 {
			t.Fatalf("random points: ε = %v (%v), want 1", eps, err)
		}
	}
	if exists < 20 || missing < 20 {
		t.Errorf("too few cases: %d with a mechanism, %d without", exists, missing)
	}
}

func TestTightConstraintsErrors(t *testing.T) {
	zero, _ := metric.Discrete(3, 0)
	if _, err := TightConstraints(zero); err == nil || !strings.Contains(err.Error(), "singular") {
		t.Errorf("zero metric: %v", err)
	}
	// Two secrets at distance 0 (a pseudometric): equal rows in e^{−D}.
	D := mat.NewDense(3, 3, []float64{0, 0, 1, 0, 0, 1, 1, 1, 0})
	if _, err := TightConstraints(D); err == nil || !strings.HasPrefix(err.Error(), "D:") {
		t.Errorf("pseudometric: %v", err)
	}
	for _, bad := range []mat.Matrix{nil, &mat.Dense{}, mat.NewDense(2, 3, nil),
		mat.NewDense(2, 2, []float64{0, 1, 2, 0}), mat.NewDense(2, 2, []float64{0, -1, -1, 0}),
		mat.NewDense(2, 2, []float64{1, 1, 1, 0}), mat.NewDense(2, 2, []float64{0, math.NaN(), math.NaN(), 0})} {
		if _, err := TightConstraints(bad); err == nil || !strings.HasPrefix(err.Error(), "D:") {
			t.Errorf("%v: error %v", bad, err)
		}
	}
	// +Inf distances: e^{−∞} = 0, the mechanism of each component separately.
	inf, _ := metric.Discrete(3, math.Inf(1))
	tc, err := TightConstraints(inf)
	if err != nil || maxDiff(tc, mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})) != 0 {
		t.Errorf("∞·discrete: %v, %v", tc, err)
	}
	// ε·d = 700 (e^{−700} ≈ 1e-304) and 800 (underflows to 0): still the identity-like answer.
	for _, s := range []float64{700, 800} {
		d, _ := metric.Discrete(4, s)
		tc, err := TightConstraints(d)
		if err != nil || tc.At(0, 0) != 1 || tc.At(0, 1) > 1e-300 {
			t.Errorf("scale %v: %v, %v", s, err, tc)
		}
	}
}

// Nearly singular systems keep their structure. Two secrets at distance d: c = 1/(1 + e^{−d}),
// so the diagonal is 1/(2 − ψ) and the off-diagonal (1 − ψ)/(2 − ψ) with ψ = 1 − e^{−d} =
// −expm1(−d), computed here without cancellation; the diagonal is the larger. Four points on
// a line at ε|i−j| with ε small: the truncated geometric mechanism, written out with
// 1 − α = −expm1(−ε); its small entries (≈ ε/2) are determined only to about cond·2⁻⁵³
// absolute (cond ≈ 7e8 at ε = 1e-8, by a high-precision singular value decomposition), so they
// are compared to 1e-15.
func TestTightConstraintsNearlySingular(t *testing.T) {
	for _, d := range []float64{1e-11, 1e-9, 1e-7, 1e-4, 0.1} {
		C, err := TightConstraints(mat.NewDense(2, 2, []float64{0, d, d, 0}))
		if err != nil {
			t.Fatalf("d = %v: %v", d, err)
		}
		psi := -math.Expm1(-d)
		diag, off := 1/(2-psi), (1-psi)/(2-psi)
		for x := 0; x < 2; x++ {
			if math.Abs(C.At(x, x)-diag) > 2e-16 || math.Abs(C.At(x, 1-x)-off) > 2e-16 || !(C.At(x, x) > C.At(x, 1-x)) {
				t.Errorf("d = %v: row %d is %v, want [%.17g %.17g]", d, x, C.RawRowView(x), diag, off)
			}
		}
	}
	for _, eps := range []float64{1e-8, 1e-6, 1e-3} {
		n := 4
		D := mat.NewDense(n, n, nil)
		a, oneMinus := math.Exp(-eps), -math.Expm1(-eps)
		want := mat.NewDense(n, n, nil)
		for x := 0; x < n; x++ {
			for y := 0; y < n; y++ {
				k := math.Abs(float64(x - y))
				D.Set(x, y, eps*k)
				if y == 0 || y == n-1 {
					want.Set(x, y, math.Pow(a, k)/(1+a))
				} else {
					want.Set(x, y, oneMinus/(1+a)*math.Pow(a, k))
				}
			}
		}
		C, err := TightConstraints(D)
		if err != nil {
			t.Fatalf("ε = %v: %v", eps, err)
		}
		for x := 0; x < n; x++ {
			for y := 0; y < n; y++ {
				if w := want.At(x, y); math.Abs(C.At(x, y)-w) > 1e-15 {
					t.Fatalf("ε = %v: C[%d][%d] = %.17g, want %.17g", eps, x, y, C.At(x, y), w)
				}
				if x != y && !(C.At(y, y) > C.At(x, y)) {
					t.Errorf("ε = %v: column %d: C[%d][%d] = %v is not below the diagonal %v", eps, y, x, y, C.At(x, y), C.At(y, y))
				}
			}
		}
	}
}
