package metric

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/internal/testkit"

	"github.com/qif-toolkit/qif/core/mechanism"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// Helpers shared by the tests of the package.

// randDist draws a distribution; with zeros each entry is 0 with probability 1/3.
func randDist(rng *rand.Rand, n int, zeros bool) []float64 {
	if zeros {
		return testkit.Dist(rng, n, 3)
	}
	return testkit.Dist(rng, n, 0)
}

var near = testkit.NearRel

func wantErr(t *testing.T, err error, arg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("expected an error naming %q, got none", arg)
	}
	if !strings.HasPrefix(err.Error(), arg+":") {
		t.Errorf("error %q does not start with %q", err, arg+":")
	}
}

// lineMetric is |t_i − t_j|, written out independently of the package's constructors.
func lineMetric(t []float64) *mat.Dense {
	n := len(t)
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d.Set(i, j, math.Abs(t[i]-t[j]))
		}
	}
	return d
}

func TestGroundMetricsByHand(t *testing.T) {
	pts := [][]float64{{0, 0}, {3, 4}, {1, 1}}
	e, err := Euclidean(pts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Manhattan(pts)
	if err != nil {
		t.Fatal(err)
	}
	wantE := []float64{0, 5, math.Sqrt2, 5, 0, math.Sqrt(13), math.Sqrt2, math.Sqrt(13), 0}
	wantM := []float64{0, 7, 2, 7, 0, 5, 2, 5, 0}
	for k := range wantE {
		near(t, "euclidean", e.RawMatrix().Data[k], wantE[k], 1e-15)
		near(t, "manhattan", m.RawMatrix().Data[k], wantM[k], 0)
	}
	// One dimension and many: the distance of (1,2,3,4) and (2,4,6,8) is √30.
	e, _ = Euclidean([][]float64{{1, 2, 3, 4}, {2, 4, 6, 8}})
	near(t, "euclidean 4-D", e.At(0, 1), math.Sqrt(30), 1e-15)
	e, _ = Euclidean([][]float64{{-2}, {5}})
	near(t, "euclidean 1-D", e.At(1, 0), 7, 0)
	// Extremes: coordinates whose squares overflow or underflow.
	e, err = Euclidean([][]float64{{3e200, 0}, {0, 4e200}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "euclidean 1e200", e.At(0, 1), 5e200, 1e-15)
	e, _ = Euclidean([][]float64{{3e-200, 0}, {0, 4e-200}})
	near(t, "euclidean 1e-200", e.At(0, 1), 5e-200, 1e-15)
}

func TestGrid(t *testing.T) {
	// On a 4-wide grid cell 5 is (1,1) and cell 11 is (3,2).
	ge, err := GridEuclidean(4, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	gm, err := GridManhattan(4, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "grid euclidean (0,5)", ge.At(0, 5), math.Sqrt2, 1e-15)
	near(t, "grid euclidean (11,5)", ge.At(11, 5), math.Sqrt(5), 1e-15)
	near(t, "grid manhattan (0,5)", gm.At(0, 5), 2, 0)
	near(t, "grid manhattan (11,5)", gm.At(11, 5), 3, 0)
	// A cell size scales every distance; every pair checked against the formula.
	const w, h, size = 3, 4, 2.5
	ge, _ = GridEuclidean(w, h, size)
	gm, _ = GridManhattan(w, h, size)
	for i := 0; i < w*h; i++ {
		for j := 0; j < w*h; j++ {
			dx := float64(i%w-j%w) * size
			dy := float64(i/w-j/w) * size
			near(t, "scaled grid euclidean", ge.At(i, j), math.Hypot(dx, dy), 1e-15)
			near(t, "scaled grid manhattan", gm.At(i, j), math.Abs(dx)+math.Abs(dy), 1e-15)
		}
	}
	if r, c := ge.Dims(); r != w*h || c != w*h {
		t.Errorf("grid matrix is %d×%d", r, c)
	}
}

func TestDiscreteAndThreshold(t *testing.T) {
	for _, s := range []float64{0, 0.5, 3, math.Inf(1)} {
		d, err := Discrete(4, s)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				want := s
				if i == j {
					want = 0 // ∞·0 = 0
				}
				if d.At(i, j) != want {
					t.Errorf("Discrete(4, %v)[%d][%d] = %v", s, i, j, d.At(i, j))
				}
			}
		}
	}
	// Threshold of the line 0..5 at 2: pairs closer than 2 become 0, the others 1; +Inf → 1.
	D := lineMetric([]float64{0, 1, 2, 3, 4, 5})
	D.Set(0, 5, math.Inf(1))
	D.Set(5, 0, math.Inf(1))
	T, err := Threshold(D, 2)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		for j := 0; j < 6; j++ {
			want := 1.0
			if math.Abs(float64(i-j)) < 2 {
				want = 0
			}
			if T.At(i, j) != want {
				t.Errorf("Threshold[%d][%d] = %v, want %v", i, j, T.At(i, j), want)
			}
		}
	}
	T, _ = Threshold(D, math.Inf(1))
	if T.At(0, 5) != 1 || T.At(0, 4) != 0 {
		t.Errorf("Threshold at +Inf: [0][5] = %v, [0][4] = %v", T.At(0, 5), T.At(0, 4))
	}
}

// Every ground metric built here is a valid metric for the d-privacy functions and for the
// optimal-mechanism linear program.
func TestGroundMetricsAreUsable(t *testing.T) {
	pts := [][]float64{{0, 0}, {1, 0}, {0, 2}, {3, 1}}
	e, _ := Euclidean(pts)
	m, _ := Manhattan(pts)
	ge, _ := GridEuclidean(2, 2, 1.5)
	gm, _ := GridManhattan(2, 2, 1)
	d0, _ := Discrete(4, 0)
	d1, _ := Discrete(4, 1.25)
	dinf, _ := Discrete(4, math.Inf(1))
	th, _ := Threshold(e, 2)
	rr := mat.NewDense(4, 4, []float64{
		0.4, 0.2, 0.2, 0.2,
		0.2, 0.4, 0.2, 0.2,
		0.2, 0.2, 0.4, 0.2,
		0.2, 0.2, 0.2, 0.4,
	})
	for name, D := range map[string]*mat.Dense{"euclidean": e, "manhattan": m, "gridEuclidean": ge,
		"gridManhattan": gm, "discrete 0": d0, "discrete 1.25": d1, "discrete ∞": dinf, "threshold": th} {
		if err := privacy.ValidateMetric("D", D, 4); err != nil {
			t.Errorf("%s: privacy.ValidateMetric: %v", name, err)
			continue
		}
		eps, _, err := privacy.DPrivacyEpsilon(rr, D)
		if err != nil {
			t.Errorf("%s: DPrivacyEpsilon: %v", name, err)
		}
		// Randomized response with ratio 2 between the diagonal and the rest: ε·D-private
		// for ε = ln 2 / (smallest positive distance), +Inf at distance 0 and 0 at +Inf.
		switch name {
		case "discrete 1.25":
			near(t, name+" ε", eps, math.Ln2/1.25, 1e-15)
		case "discrete 0":
			near(t, name+" ε", eps, math.Inf(1), 0)
		case "discrete ∞":
			near(t, name+" ε", eps, 0, 0)
		}
		if name == "discrete 0" {
			continue // a mechanism private for distance 0 everywhere must be constant
		}
		res, err := mechanism.OptimalLP(mechanism.LPSpec{Metric: D, Epsilon: 1})
		if err != nil {
			t.Errorf("%s: OptimalLP: %v", name, err)
			continue
		}
		got, _, err := privacy.DPrivacyEpsilon(res.Mechanism, D)
		if err != nil || got > 1+1e-6 {
			t.Errorf("%s: the optimal mechanism is %v·D-private (%v), want ≤ 1", name, got, err)
		}
	}
}

func TestGroundMetricErrors(t *testing.T) {
	_, err := Euclidean(nil)
	wantErr(t, err, "points")
	_, err = Manhattan([][]float64{{1, 2}, {3}})
	wantErr(t, err, "points")
	_, err = Euclidean([][]float64{{}})
	wantErr(t, err, "points")
	_, err = Euclidean([][]float64{{1}, {math.NaN()}})
	wantErr(t, err, "points")
	_, err = Euclidean([][]float64{{-1e308, 0}, {1e308, 0}})
	wantErr(t, err, "points")
	_, err = GridEuclidean(0, 3, 1)
	wantErr(t, err, "width")
	_, err = GridManhattan(3, -1, 1)
	wantErr(t, err, "height")
	_, err = GridManhattan(3, 3, 0)
	wantErr(t, err, "cellSize")
	_, err = GridManhattan(3, 3, math.Inf(1))
	wantErr(t, err, "cellSize")
	_, err = GridEuclidean(10000, 10000, 1)
	wantErr(t, err, "width, height")
	_, err = Discrete(3, -1)
	wantErr(t, err, "scale")
	_, err = Discrete(3, math.NaN())
	wantErr(t, err, "scale")
	_, err = Discrete(0, 1)
	wantErr(t, err, "n")
	_, err = Discrete(MaxPoints+1, 1)
	wantErr(t, err, "n")
	D := lineMetric([]float64{0, 1, 2})
	_, err = Threshold(D, 0)
	wantErr(t, err, "t")
	_, err = Threshold(D, math.NaN())
	wantErr(t, err, "t")
	_, err = Threshold(nil, 1)
	wantErr(t, err, "D")
	_, err = Threshold(&mat.Dense{}, 1)
	wantErr(t, err, "D")
	asym := lineMetric([]float64{0, 1, 2})
	asym.Set(0, 1, 5)
	_, err = Threshold(asym, 1)
	wantErr(t, err, "D")
	_, err = Threshold(mat.NewDense(2, 3, nil), 1)
	wantErr(t, err, "D")
}

func TestDistributionDistances(t *testing.T) {
	u4 := []float64{.25, .25, .25, .25}
	p4 := []float64{1, 0, 0, 0}
	pi := []float64{0.1, 0.7, 0.1, 0.1}
	check := func(name string, f func(P, Q []float64) (float64, error), P, Q []float64, want float64) {
		t.Helper()
		for _, swap := range []bool{false, true} {
			a, b := P, Q
			if swap {
				a, b = Q, P
			}
			got, err := f(a, b)
			if err != nil {
				t.Fatal(err)
			}
			near(t, name, got, want, 1e-15)
		}
	}
	check("tv", TotalVariation, u4, u4, 0)
	check("tv", TotalVariation, u4, p4, 0.75)
	check("tv", TotalVariation, u4, pi, 0.45)
	check("mtv", MultiplicativeTotalVariation, p4, p4, 0)
	check("mtv", MultiplicativeTotalVariation, u4, p4, math.Inf(1))
	check("mtv", MultiplicativeTotalVariation, u4, pi, math.Log(0.7/0.25))
	check("convex separation", ConvexSeparation, u4, u4, 0)
	check("convex separation", ConvexSeparation, u4, p4, 1)
	// q(π, u) = 1 − 0.25/0.7 = 9/14 and q(u, π) = 1 − 0.1/0.25 = 0.6.
	check("convex separation", ConvexSeparation, u4, pi, 9.0/14)
	// Close entries: ln(0.5+1e-12) − ln(0.5−1e-12) = 4e-12 to first order, which ln a − ln b
	// would get only to about 1e-4 relative.
	check("mtv close", MultiplicativeTotalVariation, []float64{0.5 + 1e-12, 0.5 - 1e-12}, []float64{0.5 - 1e-12, 0.5 + 1e-12}, 4e-12)
	// Tiny entries: the ratio 1e-300/1e-310 = 1e10 without underflow trouble.
	check("mtv tiny", MultiplicativeTotalVariation, []float64{1 - 1e-300, 1e-300}, []float64{1 - 1e-310, 1e-310}, 10*math.Ln10)

	for _, f := range []func(P, Q []float64) (float64, error){TotalVariation, MultiplicativeTotalVariation, ConvexSeparation} {
		_, err := f([]float64{0.5, 0.5}, []float64{1, 0, 0})
		wantErr(t, err, "Q")
		_, err = f([]float64{0.5, 0.6}, []float64{1, 0})
		wantErr(t, err, "P")
		_, err = f([]float64{0.5, 0.5}, []float64{-0.5, 1.5})
		wantErr(t, err, "Q")
		_, err = f(nil, []float64{1})
		wantErr(t, err, "P")
	}
}

// The multiplicative total variation is the smallest ε with P ≤ e^ε Q and Q ≤ e^ε P, and the
// convex separation the smallest c with (1 − c)·a ≤ b and (1 − c)·b ≤ a: checked on random
// pairs by testing the inequalities just above and below the returned value.
func TestDistributionDistancesAsSmallestParameter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(6)
		P, Q := randDist(rng, n, false), randDist(rng, n, false)
		eps, _ := MultiplicativeTotalVariation(P, Q)
		holds := func(e float64) bool {
			for i := range P {
				if P[i] > math.Exp(e)*Q[i] || Q[i] > math.Exp(e)*P[i] {
					return false
				}
			}
			return true
		}
		if !holds(eps*(1+1e-9)+1e-12) || (eps > 1e-9 && holds(eps*(1-1e-6))) {
			t.Fatalf("mtv %v is not the smallest ε for %v, %v", eps, P, Q)
		}
		c, _ := ConvexSeparation(P, Q)
		within := func(c float64) bool {
			for i := range P {
				if (1-c)*P[i] > Q[i]+1e-15 || (1-c)*Q[i] > P[i]+1e-15 {
					return false
				}
			}
			return true
		}
		if !within(c+1e-12) || (c > 1e-9 && within(c-1e-6)) {
			t.Fatalf("convex separation %v is not the smallest c for %v, %v", c, P, Q)
		}
	}
}
