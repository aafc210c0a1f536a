package infopriv

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestBinarySymmetricCapacityBruteForce(t *testing.T) {
	for _, p := range []float64{0, 0.01, 0.1, 0.25, 0.4, 0.5, 0.6, 0.9, 1} {
		got, err := BinarySymmetricCapacity(p)
		if err != nil {
			t.Fatal(err)
		}
		// The BSC is symmetric, so the maximum is at the uniform prior, which lies on the grid.
		want := gridCapacity([][]float64{{1 - p, p}, {p, 1 - p}}, 1000)
		near(t, "BSC capacity", got, want, 1e-12)
	}
	// h(0.11) ≈ 0.4999 (the classical value h⁻¹(½) = 0.110027864…).
	got, _ := BinarySymmetricCapacity(0.11002786443835955)
	near(t, "1 − h(h⁻¹(½))", got, 0.5, 1e-12)
}

func TestFlipProbabilityForCapacity(t *testing.T) {
	p, err := FlipProbabilityForCapacity(0.5)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "h⁻¹(½)", p, 0.11002786443835955, 1e-14)
	for _, c := range []float64{0, 1e-6, 0.01, 0.3, 0.9, 0.999999, 1} {
		p, err := FlipProbabilityForCapacity(c)
		if err != nil {
			t.Fatal(err)
		}
		if p < 0 || p > 0.5 {
			t.Errorf("p(%v) = %v outside [0, ½]", c, p)
		}
		back, _ := BinarySymmetricCapacity(p)
		near(t, "1 − h(p(c))", back, c, 1e-12)
	}
	for _, bad := range []float64{-0.1, 1.1, math.NaN()} {
		_, err := FlipProbabilityForCapacity(bad)
		wantErr(t, "flip probability", err, "capacity")
		_, err = BinarySymmetricCapacity(bad)
		wantErr(t, "BSC capacity", err, "p")
	}
}

func TestGaussianCapacity(t *testing.T) {
	for _, tc := range []struct{ p, s, want float64 }{
		{1, 1, 0.5}, // ½ log2 2
		{3, 1, 1},   // ½ log2 4
		{15, 1, 2},  // ½ log2 16
		{0, 2, 0},   // no power, no information
		{12, 2, 1},  // P/σ² = 3
		{1, math.Sqrt(1 / (math.Pow(2, 0.2) - 1)), 0.1}, // P/σ² = 2^0.2 − 1
	} {
		got, err := GaussianCapacity(tc.p, tc.s)
		if err != nil {
			t.Fatal(err)
		}
		near(t, "Gaussian capacity", got, tc.want, 1e-12)
		if tc.p > 0 {
			s, err := SigmaForCapacity(tc.p, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			near(t, "σ for capacity", s, tc.s, 1e-9*tc.s)
		}
	}
	s, err := SigmaForCapacity(1, 0)
	if err != nil || !math.IsInf(s, 1) {
		t.Errorf("σ for capacity 0 = %v, %v; want +Inf", s, err)
	}
	_, err = GaussianCapacity(1, 0)
	wantErr(t, "σ = 0", err, "sigma")
	_, err = GaussianCapacity(1, -1)
	wantErr(t, "σ < 0", err, "sigma")
	_, err = GaussianCapacity(-1, 1)
	wantErr(t, "P < 0", err, "power")
	_, err = GaussianCapacity(math.NaN(), 1)
	wantErr(t, "P NaN", err, "power")
	_, err = GaussianCapacity(1, math.NaN())
	wantErr(t, "σ NaN", err, "sigma")
	_, err = SigmaForCapacity(0, 1)
	wantErr(t, "σ for P = 0", err, "power")
	_, err = SigmaForCapacity(1, -1)
	wantErr(t, "σ for c < 0", err, "capacity")
}

func TestCompareVariances(t *testing.T) {
	v, err := CompareVariances(1, 0.5, 1e-5, 0.5, 0.25)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "Laplace variance", v.Laplace, 8, 1e-12)                             // 2(1/0.5)²
	near(t, "Gaussian mechanism", v.GaussianMechanism, 8*math.Log(125000), 1e-9) // (2 ln(1.25e5))·4
	near(t, "Gaussian privacy channel", v.GaussianPrivacyChannel, 0.25, 1e-12)   // P/(2¹−1)
	// The variance of the Gaussian privacy channel is the σ² whose capacity is the target.
	c, _ := GaussianCapacity(v.Power, math.Sqrt(v.GaussianPrivacyChannel))
	near(t, "capacity at that σ", c, 0.5, 1e-12)
	for _, tc := range []struct {
		args []float64
		frag string
	}{
		{[]float64{0, 1, 0.1, 1, 1}, "sensitivity"},
		{[]float64{1, 0, 0.1, 1, 1}, "epsilon"},
		{[]float64{1, 1, 0, 1, 1}, "delta"},
		{[]float64{1, 1, 1, 1, 1}, "delta"},
		{[]float64{1, 1, 0.1, 0, 1}, "capacity"},
		{[]float64{1, 1, 0.1, 1, -1}, "power"},
		{[]float64{1, math.NaN(), 0.1, 1, 1}, "epsilon"},
	} {
		a := tc.args
		_, err := CompareVariances(a[0], a[1], a[2], a[3], a[4])
		wantErr(t, "CompareVariances", err, tc.frag)
	}
}

func TestDataIndependenceWeaklySymmetric(t *testing.T) {
	// Cover–Thomas's weakly symmetric example: rows are permutations, column sums equal.
	c := [][]float64{{1.0 / 3, 1.0 / 6, 1.0 / 2}, {1.0 / 3, 1.0 / 2, 1.0 / 6}}
	d, err := AnalyzeDataIndependence(dense(c), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Log2(3) - (1.0/3*math.Log2(3) + 1.0/6*math.Log2(6) + 0.5*math.Log2(2))
	if !d.DataIndependent || !d.WeaklySymmetric || !d.Reachable {
		t.Errorf("flags %+v, want data-independent, weakly symmetric, reachable", d)
	}
	near(t, "bound", d.Bound, want, 1e-12)
	near(t, "capacity vs brute force", gridCapacity(c, 2000), want, 1e-9)
	near(t, "capacity", d.Capacity, want, 1e-12)

	// A cyclic 3×3 channel (weakly symmetric) against a grid over the 2-simplex.
	c3 := [][]float64{{0.6, 0.3, 0.1}, {0.1, 0.6, 0.3}, {0.3, 0.1, 0.6}}
	d, _ = AnalyzeDataIndependence(dense(c3), 0)
	if !d.WeaklySymmetric {
		t.Errorf("cyclic channel not weakly symmetric: %+v", d)
	}
	near(t, "cyclic bound vs brute force", gridCapacity(c3, 300), d.Bound, 1e-9)
}

func TestDataIndependenceNotReached(t *testing.T) {
	// Rows permutations of q = (0.7, 0.2, 0.1), but the last column is 0.1 in every row, so no
	// prior makes the output uniform: capacity < log 3 − H(q).
	c := [][]float64{{0.7, 0.2, 0.1}, {0.2, 0.7, 0.1}}
	d, err := AnalyzeDataIndependence(dense(c), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !d.DataIndependent || d.WeaklySymmetric || d.Reachable {
		t.Errorf("flags %+v, want data-independent only", d)
	}
	brute := gridCapacity(c, 2000)
	near(t, "capacity", d.Capacity, brute, 1e-6)
	if brute >= d.Bound-1e-3 {
		t.Errorf("brute-force capacity %v should be well below the bound %v", brute, d.Bound)
	}

	// Reachable without weak symmetry: rows (0.8, 0.2), (0.2, 0.8), (0.8, 0.2) — column sums 1.8
	// and 1.2, yet the prior (¼, ½, ¼) gives a uniform output.
	c2 := [][]float64{{0.8, 0.2}, {0.2, 0.8}, {0.8, 0.2}}
	d, _ = AnalyzeDataIndependence(dense(c2), 0)
	if !d.DataIndependent || d.WeaklySymmetric || !d.Reachable {
		t.Errorf("flags %+v, want data-independent and reachable, not weakly symmetric", d)
	}
	near(t, "reachable bound", d.Bound, 1-binaryEntropyRef(0.2), 1e-12)

	// Not data-independent.
	d, _ = AnalyzeDataIndependence(dense([][]float64{{0.5, 0.5}, {0.9, 0.1}}), 0)
	if d.DataIndependent || !math.IsNaN(d.Bound) {
		t.Errorf("flags %+v, want not data-independent with NaN bound", d)
	}
	_, err = AnalyzeDataIndependence(dense([][]float64{{0.5, 0.6}}), 0)
	wantErr(t, "bad channel", err, "channel", "row 0")
}

func binaryEntropyRef(p float64) float64 { return -p*math.Log2(p) - (1-p)*math.Log2(1-p) }

func TestExponentialEntropyClosedForm(t *testing.T) {
	for _, m := range []int{1, 2, 3, 7, 50} {
		for _, beta := range []float64{1e-4, 0.1, 1, 3, 40} {
			got, err := ExponentialEntropy(m, beta)
			if err != nil {
				t.Fatal(err)
			}
			// Direct: normalize e^{−βk} and sum −q log q.
			q := make([]float64, m)
			z := 0.0
			for k := range q {
				q[k] = math.Exp(-beta * float64(k))
				z += q[k]
			}
			h := 0.0
			for _, v := range q {
				if v/z > 0 {
					h -= v / z * math.Log2(v/z)
				}
			}
			near(t, "H(q)", got, h, 1e-9)
		}
	}
	_, err := ExponentialEntropy(3, 0)
	wantErr(t, "β = 0", err, "beta")
	_, err = ExponentialEntropy(0, 1)
	wantErr(t, "m = 0", err, "m")
}

func TestExponentialChannel(t *testing.T) {
	// Two answers: the exponential channel is the BSC with p = e^{−β}/(1 + e^{−β}).
	d2, _ := AbsoluteDistortion(2)
	beta := 1.3
	e, err := ExponentialChannel(d2, beta)
	if err != nil {
		t.Fatal(err)
	}
	p := math.Exp(-beta) / (1 + math.Exp(-beta))
	near(t, "C[0][1]", e.Channel.At(0, 1), p, 1e-15)
	near(t, "C[1][0]", e.Channel.At(1, 0), p, 1e-15)
	bsc, _ := BinarySymmetricCapacity(p)
	near(t, "bound = BSC capacity", e.Bound, bsc, 1e-12)

	// Five answers with |r′ − r|: rows are permutations of q (data-independent), the ranking
	// follows the distortion, and the bound dominates the brute-force-free BA capacity.
	d5, _ := AbsoluteDistortion(5)
	e, err = ExponentialChannel(d5, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	di, err := AnalyzeDataIndependence(e.Channel, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !di.DataIndependent {
		t.Errorf("exponential channel not data-independent")
	}
	near(t, "bound agrees", di.Bound, e.Bound, 1e-12)
	if di.Capacity > e.Bound+1e-9 {
		t.Errorf("capacity %v exceeds the bound %v", di.Capacity, e.Bound)
	}
	// Row 2 (answer 2): ranks 2,1,3,0,4 → outputs 2 (rank 0), 1 (rank 1, tie with 3 broken by
	// index), 3, 0, 4.
	r := math.Exp(-0.7)
	z := 1 + r + r*r + r*r*r + r*r*r*r
	for y, k := range []int{3, 1, 0, 2, 4} {
		near(t, "row 2", e.Channel.At(2, y), math.Pow(r, float64(k))/z, 1e-15)
	}

	// β for a target bound.
	b, err := ExponentialBetaForBound(5, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	e, _ = ExponentialChannel(d5, b)
	near(t, "bound at β(0.8)", e.Bound, 0.8, 1e-9)
	_, err = ExponentialBetaForBound(4, 2)
	wantErr(t, "bound = log m", err, "capacity")

	_, err = ExponentialChannel(mat.NewDense(1, 2, []float64{0, -1}), 1)
	wantErr(t, "negative distortion", err, "distortion", "[0][1]")
	_, err = ExponentialChannel(d2, math.NaN())
	wantErr(t, "β NaN", err, "beta")
}

func TestFlipProbabilityRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		p := rng.Float64() / 2
		c, _ := BinarySymmetricCapacity(p)
		back, _ := FlipProbabilityForCapacity(c)
		if c > 1e-6 { // near ½ the inverse is ill-conditioned (h′(½) = 0)
			near(t, "p(c(p))", back, p, 1e-9)
		}
	}
}

// Capacities at their singular points — nearly noiseless (σ → 0, p → 0, β → ∞) and nearly
// useless (p → ½) — against 40-digit values (mpmath, the definitions as written), each to a
// relative 1e−14.
func TestCapacitiesAtTheExtremes(t *testing.T) {
	rel := func(what string, got, want float64) {
		t.Helper()
		if !(math.Abs(got-want) <= 1e-14*math.Abs(want)) {
			t.Errorf("%s = %.17g, want %.17g", what, got, want)
		}
	}
	// ½ log2(1 + P/σ²): σ² underflows and P/σ² overflows at σ = 1e−160 (it returned +Inf).
	for _, c := range []struct{ power, sigma, want float64 }{
		{1, 1e-160, 531.50849518197797568},
		{1e300, 1e-10, 531.50849518197797564},
		{2, 3, 0.14475330859749244665},
		{1e-300, 1e10, 1e-320 / (2 * math.Ln2)},
	} {
		got, err := GaussianCapacity(c.power, c.sigma)
		if err != nil {
			t.Fatal(err)
		}
		if c.want < 1e-300 {
			if math.Abs(got-c.want) > 1e-323 {
				t.Errorf("GaussianCapacity(%g, %g) = %g, want %g", c.power, c.sigma, got, c.want)
			}
			continue
		}
		rel("GaussianCapacity", got, c.want)
	}
	// Its inverse √(P/(2^{2c} − 1)): 2^{2c} overflows beyond 512 bits, P/(2^{2c} − 1) for tiny c.
	for _, c := range []struct{ power, c, want float64 }{
		{1, 531.5, 1.0059057822096823609e-160},
		{1e308, 1e-20, 8.4932180028801907067e+163},
		{1e300, 1100, 7.3621518290228628687e-182},
		{4, 1, 1.154700538379251529},
	} {
		got, err := SigmaForCapacity(c.power, c.c)
		if err != nil {
			t.Fatal(err)
		}
		rel("SigmaForCapacity", got, c.want)
	}
	// 1 − h(p): near ½ the capacity is (2/ln 2)(½ − p)² and 1 − h(p) was all rounding.
	for _, c := range []struct{ p, want float64 }{
		{0.5 - 1e-9, 2.8853902389117702613e-18},
		{0.5 - 1e-5, 2.8853900819760574467e-10},
		{0.3, 0.11870910076930739535},
		{0.25, 0.18872187554086713609},
		{0.75, 0.18872187554086713609},
		{0.1, 0.53100440641071876115},
		{0.9, 0.53100440641071884913},
		{1e-20, 0.99999999999999999932},
	} {
		got, err := BinarySymmetricCapacity(c.p)
		if err != nil {
			t.Fatal(err)
		}
		rel("BinarySymmetricCapacity", got, c.want)
		// The inverse returns the flip probability on [0, ½] to the last digits.
		if c.p <= 0.5 && c.p > 1e-3 {
			p, err := FlipProbabilityForCapacity(c.want)
			if err != nil || math.Abs(p-c.p) > 4e-16*c.p {
				t.Errorf("FlipProbabilityForCapacity(%g) = %.17g, want %.17g (%v)", c.want, p, c.p, err)
			}
		}
	}
	// The exponential channel's H(q) for a nearly noiseless channel (β = 30, m = 10).
	for _, c := range []struct {
		beta, want float64
	}{{30, 4.1850608380132427506e-12}, {1, 1.5006227545290947817}, {1e-6, 3.3219280948814112308}} {
		got, err := ExponentialEntropy(10, c.beta)
		if err != nil {
			t.Fatal(err)
		}
		rel("ExponentialEntropy", got, c.want)
	}
}
