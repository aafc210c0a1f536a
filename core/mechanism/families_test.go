package mechanism

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Hand-computed with ε = ln 2, α = 1/2, (1−α)/(1+α) = 1/3, 1/(1+α) = 2/3.
func TestTruncatedGeometricByHand(t *testing.T) {
	c, err := TruncatedGeometric(3, math.Ln2, 3)
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "TG(3)", c, [][]float64{
		{2. / 3, 1. / 6, 1. / 6},
		{1. / 3, 1. / 3, 1. / 3},
		{1. / 6, 1. / 6, 2. / 3},
	}, 1e-15)
	// More outputs than inputs: inputs sit at 0..1, the tails go to columns 0 and 3.
	c, err = TruncatedGeometric(2, math.Ln2, 4)
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "TG(2,4)", c, [][]float64{
		{2. / 3, 1. / 6, 1. / 12, 1. / 12},
		{1. / 3, 1. / 3, 1. / 6, 1. / 6},
	}, 1e-15)
	g, err := Geometric(3, math.Ln2)
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "Geometric(3)", g, rows(c0(t, 3)), 0)
}

func c0(t *testing.T, n int) *mat.Dense {
	c, err := TruncatedGeometric(n, math.Ln2, n)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Over-truncation to 0..1 of inputs 0..3: column 1 takes P[x+Z ≥ 1], column 0 P[x+Z ≤ 0].
func TestOverTruncatedGeometricByHand(t *testing.T) {
	c, err := OverTruncatedGeometric(4, 2, math.Ln2)
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "OTG(4,2)", c, [][]float64{
		{2. / 3, 1. / 3},
		{1. / 3, 2. / 3},
		{1. / 6, 5. / 6},
		{1. / 12, 11. / 12},
	}, 1e-15)
	// It is the square truncated geometric with columns 1..3 summed (Chatzikokolakis et al. (CSF 2019)
	// Def. 11).
	sq := rows(c0(t, 4))
	for x := range sq {
		if s := sq[x][1] + sq[x][2] + sq[x][3]; !near(c.At(x, 1), s, 1e-15) {
			t.Errorf("row %d: last column %g, summed columns %g", x, c.At(x, 1), s)
		}
	}
	// Placed at 1..3 among inputs 0..4: columns {0,1} and {3,4} of TG(5) are summed.
	c, err = OverTruncatedGeometricAt(5, 3, 1, math.Ln2)
	if err != nil {
		t.Fatal(err)
	}
	sq = rows(c0(t, 5))
	for x := range sq {
		want := []float64{sq[x][0] + sq[x][1], sq[x][2], sq[x][3] + sq[x][4]}
		for j := range want {
			if !near(c.At(x, j), want[j], 1e-15) {
				t.Errorf("OTGAt[%d][%d] = %g, want %g", x, j, c.At(x, j), want[j])
			}
		}
	}
}

// Every geometric variant against noise summed over a wide window and clamped.
func TestGeometricFamilyAgainstNaive(t *testing.T) {
	for _, eps := range []float64{0.05, 0.3, math.Ln2, 2} {
		for _, tc := range []struct{ n, m, lo int }{{1, 1, 0}, {2, 2, 0}, {6, 6, 0}, {4, 9, 0}, {7, 3, 0}, {7, 3, 2}, {7, 3, 4}, {5, 1, 2}} {
			var c *mat.Dense
			var err error
			switch {
			case tc.m >= tc.n:
				c, err = TruncatedGeometric(tc.n, eps, tc.m)
			default:
				c, err = OverTruncatedGeometricAt(tc.n, tc.m, tc.lo, eps)
			}
			if err != nil {
				t.Fatal(err)
			}
			assertStochastic(t, "geometric", c)
			assertMatrix(t, "geometric", c, naiveClampedGeometric(tc.n, tc.m, tc.lo, eps), 1e-12)
		}
	}
}

func TestRandomizedResponseByHand(t *testing.T) {
	c, err := RandomizedResponse(3, math.Ln2, 3) // e^ε = 2: 2/4 and 1/4
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "RR(3)", c, [][]float64{{.5, .25, .25}, {.25, .5, .25}, {.25, .25, .5}}, 1e-15)
	c, err = RandomizedResponse(3, math.Ln2, 2) // 2/3, 1/3; input 2 is outside: uniform
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "RR(3,2)", c, [][]float64{{2. / 3, 1. / 3}, {1. / 3, 2. / 3}, {.5, .5}}, 1e-15)
	c, err = RandomizedResponse(2, math.Ln2, 4) // 2/5, 1/5
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "RR(2,4)", c, [][]float64{{.4, .2, .2, .2}, {.2, .4, .2, .2}}, 1e-15)
}

// n = 2: rows (1, a)/(1+a) and (a, 1)/(1+a), a = e^{−ε/2}: true ε = ε/2. n = 3, comparing
// rows 0 and 1 at column 0: ε/2 + ln((1+2a)/(1+a+a²)), the largest log-ratio.
func TestExponentialByHand(t *testing.T) {
	eps := 1.3
	a := math.Exp(-eps / 2)
	c, err := Exponential(2, eps, 2)
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "E(2)", c, [][]float64{{1 / (1 + a), a / (1 + a)}, {a / (1 + a), 1 / (1 + a)}}, 1e-15)
	if e, _ := ExponentialEpsilon(2, eps, 2); !near(e, eps/2, 1e-14) {
		t.Errorf("true ε of E(2) = %g, want ε/2 = %g", e, eps/2)
	}
	c, err = Exponential(3, eps, 3)
	if err != nil {
		t.Fatal(err)
	}
	z0, z1 := 1+a+a*a, 1+2*a
	assertMatrix(t, "E(3)", c, [][]float64{{1 / z0, a / z0, a * a / z0}, {a / z1, 1 / z1, a / z1}, {a * a / z0, a / z0, 1 / z0}}, 1e-15)
	want := eps/2 + math.Log(z1/z0)
	if e, _ := ExponentialEpsilon(3, eps, 3); !near(e, want, 1e-14) {
		t.Errorf("true ε of E(3) = %.15g, want %.15g", e, want)
	}
}

func TestExponentialTrueEpsilonBelowNominal(t *testing.T) {
	for _, eps := range []float64{0.1, 0.5, 1, 3} {
		for _, nm := range [][2]int{{2, 2}, {5, 5}, {8, 8}, {4, 7}, {7, 4}} {
			c, err := Exponential(nm[0], eps, nm[1])
			if err != nil {
				t.Fatal(err)
			}
			assertStochastic(t, "exponential", c)
			got, err := ExponentialEpsilon(nm[0], eps, nm[1])
			if err != nil {
				t.Fatal(err)
			}
			brute := bruteMetricEpsilon(rows(c))
			if !near(got, brute, 1e-12) {
				t.Errorf("n,m=%v ε=%g: ExponentialEpsilon %.15g, brute force %.15g", nm, eps, got, brute)
			}
			if got > eps+1e-12 || got <= 0 {
				t.Errorf("n,m=%v ε=%g: true ε %g not in (0, ε]", nm, eps, got)
			}
			// On the path (adjacent inputs) it is the same number: the metric is the path's.
			if e := bruteEpsilon(rows(c), pathPairs(nm[0])); !near(e, brute, 1e-12) {
				t.Errorf("path ε %g != metric ε %g", e, brute)
			}
			if mc, _ := MetricEpsilon(c, lineMetric(nm[0])); !near(mc, brute, 1e-12) {
				t.Errorf("MetricEpsilon %g != brute force %g", mc, brute)
			}
		}
	}
}

func lineMetric(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d.Set(i, j, math.Abs(float64(i-j)))
		}
	}
	return d
}

func TestExponentialMetricMatchesLine(t *testing.T) {
	want, _ := Exponential(6, 0.8, 6)
	got, err := ExponentialMetric(lineMetric(6), 0.8)
	if err != nil {
		t.Fatal(err)
	}
	assertMatrix(t, "ExponentialMetric", got, rows(want), 1e-15)
	// Infinite distances give probability 0; a huge ε·d cannot underflow a whole row.
	d := mat.NewDense(2, 3, []float64{1000, 1001, math.Inf(1), 5, 5, 5})
	got, err = ExponentialMetric(d, 10)
	if err != nil {
		t.Fatal(err)
	}
	a := math.Exp(-5)
	assertMatrix(t, "ExponentialMetric(inf)", got, [][]float64{{1 / (1 + a), a / (1 + a), 0}, {1. / 3, 1. / 3, 1. / 3}}, 1e-15)
}

// Each family's ε on its adjacency equals its nominal ε (docs/mathematics.md#mechanism-families):
// geometric variants on the path, randomized response on the clique.
func TestEpsilonEqualsNominal(t *testing.T) {
	for _, eps := range []float64{0.01, 0.4, math.Ln2, 1.7, 5} {
		check := func(name string, c *mat.Dense, err error, pairs [][2]int) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			assertStochastic(t, name, c)
			if e := bruteEpsilon(rows(c), pairs); !near(e, eps, 1e-9*math.Max(1, eps)) {
				t.Errorf("%s ε=%g: measured ε = %.15g", name, eps, e)
			}
		}
		c, err := TruncatedGeometric(6, eps, 6)
		check("TG(6)", c, err, pathPairs(6))
		c, err = TruncatedGeometric(4, eps, 9)
		check("TG(4,9)", c, err, pathPairs(4))
		c, err = Geometric(2, eps)
		check("G(2)", c, err, pathPairs(2))
		c, err = OverTruncatedGeometric(7, 3, eps)
		check("OTG(7,3)", c, err, pathPairs(7))
		c, err = OverTruncatedGeometricAt(7, 2, 3, eps)
		check("OTGAt(7,2,3)", c, err, pathPairs(7))
		for _, m := range []int{2, 5, 8} {
			c, err = RandomizedResponse(5, eps, m)
			check("RR", c, err, cliquePairs(5))
		}
	}
}

func TestLargeAndTinyEpsilon(t *testing.T) {
	for _, eps := range []float64{1e-12, 800, 1e6} {
		for name, f := range map[string]func() (*mat.Dense, error){
			"TG":  func() (*mat.Dense, error) { return TruncatedGeometric(5, eps, 7) },
			"OTG": func() (*mat.Dense, error) { return OverTruncatedGeometric(9, 3, eps) },
			"RR":  func() (*mat.Dense, error) { return RandomizedResponse(5, eps, 3) },
			"E":   func() (*mat.Dense, error) { return Exponential(9, eps, 3) },
		} {
			c, err := f()
			if err != nil {
				t.Fatal(err)
			}
			assertStochastic(t, name, c)
		}
		if e, err := ExponentialEpsilon(9, eps, 3); err != nil || math.IsNaN(e) || e > eps*(1+1e-9) {
			t.Errorf("ExponentialEpsilon(ε=%g) = %g, %v", eps, e, err)
		}
	}
}

func TestBadInputs(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name, want string
		err        func() error
	}{
		{"n=0", "n:", func() error { _, err := TruncatedGeometric(0, 1, 1); return err }},
		{"m=0", "m:", func() error { _, err := RandomizedResponse(3, 1, 0); return err }},
		{"m<n", "m:", func() error { _, err := TruncatedGeometric(4, 1, 3); return err }},
		{"m>n", "m:", func() error { _, err := OverTruncatedGeometric(3, 4, 1); return err }},
		{"offset", "offset:", func() error { _, err := OverTruncatedGeometricAt(5, 3, 3, 1); return err }},
		{"eps=0", "epsilon:", func() error { _, err := Exponential(3, 0, 3); return err }},
		{"eps<0", "epsilon:", func() error { _, err := Geometric(3, -1); return err }},
		{"eps NaN", "epsilon:", func() error { _, err := RandomizedResponse(3, nan, 3); return err }},
		{"eps Inf", "epsilon:", func() error { _, err := TruncatedGeometric(3, math.Inf(1), 3); return err }},
		{"too big", "n, m:", func() error { _, err := RandomizedResponse(100000, 1, 100000); return err }},
		{"ExpEps", "epsilon:", func() error { _, err := ExponentialEpsilon(3, nan, 3); return err }},
		{"metric NaN", "metric:", func() error {
			_, err := ExponentialMetric(mat.NewDense(1, 2, []float64{0, nan}), 1)
			return err
		}},
		{"metric neg", "metric:", func() error {
			_, err := ExponentialMetric(mat.NewDense(1, 2, []float64{0, -1}), 1)
			return err
		}},
		{"metric inf row", "metric:", func() error {
			_, err := ExponentialMetric(mat.NewDense(1, 2, []float64{math.Inf(1), math.Inf(1)}), 1)
			return err
		}},
		{"metric nil", "metric:", func() error { _, err := ExponentialMetric(nil, 1); return err }},
		{"MetricEpsilon dims", "metric:", func() error {
			c, _ := RandomizedResponse(3, 1, 3)
			_, err := MetricEpsilon(c, lineMetric(2))
			return err
		}},
		{"MetricEpsilon channel", "channel:", func() error {
			_, err := MetricEpsilon(mat.NewDense(2, 2, []float64{1, 1, 0, 1}), lineMetric(2))
			return err
		}},
	}
	for _, tc := range cases {
		err := tc.err()
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want prefix %q", tc.name, err, tc.want)
		}
	}
}

func TestMetricEpsilonConventions(t *testing.T) {
	c := mat.NewDense(3, 2, []float64{1, 0, 0.5, 0.5, 1, 0})
	d := mat.NewDense(3, 3, []float64{0, 1, math.Inf(1), 1, 0, 2, math.Inf(1), 2, 0})
	// Rows 0 and 2 are equal (0/0 skipped, and at distance ∞ anyway); rows 0 and 1 differ by
	// a zero against 0.5 at distance 1: +Inf.
	if e, err := MetricEpsilon(c, d); err != nil || !math.IsInf(e, 1) {
		t.Errorf("got %v, %v; want +Inf", e, err)
	}
	c = mat.NewDense(2, 2, []float64{0.8, 0.2, 0.2, 0.8})
	for _, tc := range []struct{ d, want float64 }{{2, math.Log(4) / 2}, {math.Inf(1), 0}, {0, math.Inf(1)}} {
		e, err := MetricEpsilon(c, mat.NewDense(2, 2, []float64{0, tc.d, tc.d, 0}))
		if err != nil || !(e == tc.want || near(e, tc.want, 1e-15)) {
			t.Errorf("d=%g: got %v, %v; want %v", tc.d, e, err, tc.want)
		}
	}
}
