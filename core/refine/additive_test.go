package refine

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
)

// ratVg is V_g[π▷C] = Σ_y max_w Σ_x π_x C[x][y] g[w][x] in rationals, straight from the
// definition, with the rows of C divided by their sums (the package's normalization).
func ratVg(g mat.Matrix, prior []float64, C mat.Matrix) *big.Rat {
	n, m := C.Dims()
	w, _ := g.Dims()
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	total := new(big.Rat)
	for y := 0; y < m; y++ {
		var best *big.Rat
		for i := 0; i < w; i++ {
			s := new(big.Rat)
			for x := 0; x < n; x++ {
				sum := new(big.Rat)
				for j := 0; j < m; j++ {
					sum.Add(sum, rat(C.At(x, j)))
				}
				e := new(big.Rat).Mul(rat(prior[x]), rat(C.At(x, y)))
				e.Quo(e, sum)
				s.Add(s, e.Mul(e, rat(g.At(i, x))))
			}
			if best == nil || s.Cmp(best) > 0 {
				best = s
			}
		}
		total.Add(total, best)
	}
	return total
}

func randomPrior(rng *rand.Rand, n int, zeros bool) []float64 {
	p := randomChannel(rng, 1, n, map[bool]float64{true: 0.3, false: 0}[zeros]).RawRowView(0)
	return append([]float64(nil), p...)
}

func additive(t *testing.T, prior []float64, A, B mat.Matrix) *AdditiveMetricResult {
	t.Helper()
	r, err := AdditiveMetric(prior, A, B)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := A.Dims()
	_, ma := A.Dims()
	_, mb := B.Dims()
	if rr, cc := r.Gain.Dims(); rr != ma+mb+1 || cc != n {
		t.Fatalf("gain is %d×%d, want %d×%d", rr, cc, ma+mb+1, n)
	}
	for x := 0; x < n; x++ {
		if r.Gain.At(ma+mb, x) != 0 {
			t.Fatalf("the last guess has gain %v, want 0", r.Gain.At(ma+mb, x))
		}
	}
	if !(r.UpperBound >= r.Value && r.UpperBound <= r.Value+AdditiveMetricTolerance) || (r.Method != "exact" && r.Method != "certified floating point") {
		t.Fatalf("value %v, upper bound %v, method %q", r.Value, r.UpperBound, r.Method)
	}
	if mat.Max(r.Gain) > 1 || r.Value < 0 {
		t.Fatalf("gain above 1 (%v) or negative value %v", mat.Max(r.Gain), r.Value)
	}
	// The gain attains the value: V_g evaluated in rationals by the definition (below), and
	// with core/measure in floating point where the gains are moderate (with −1e50 entries the
	// terms cancel in float64).
	va, vb := ratVg(r.Gain, prior, A), ratVg(r.Gain, prior, B)
	if d, _ := new(big.Rat).Sub(new(big.Rat).Sub(vb, va), new(big.Rat).SetFloat64(r.Value)).Float64(); math.Abs(d) > 1e-9 {
		t.Fatalf("exactly V_g[π▷B] − V_g[π▷A] = %v + value %v", d, r.Value)
	}
	if big := math.Max(-mat.Min(r.Gain), 1); big < 1e6 {
		na, _ := A.Dims()
		fa, _ := measure.PosteriorGVulnerability(r.Gain, prior, mat.NewDense(na, ma, normalizedRows(A)))
		fb, _ := measure.PosteriorGVulnerability(r.Gain, prior, mat.NewDense(na, mb, normalizedRows(B)))
		if math.Abs(fb-fa-r.Value) > 1e-9*big || math.Abs(fa-r.VulnerabilityA) > 1e-9*big || math.Abs(fb-r.VulnerabilityB) > 1e-9*big {
			t.Fatalf("core/measure: V_g[π▷B] − V_g[π▷A] = %v − %v, value %v", fb, fa, r.Value)
		}
	}
	return r
}

// Against a channel that reveals nothing, the metric is the additive capacity of B over the
// 1-spanning vulnerabilities, 1 − Σ_y min_{x ∈ supp π} B[x][y] — a formula sharing nothing with
// the linear program.
func TestAdditiveMetricAgainstNothingIsTheCapacity(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	for trial := 0; trial < 100; trial++ {
		n, m := 1+rng.IntN(6), 1+rng.IntN(6)
		B := randomChannel(rng, n, m, 0.3*float64(trial%2))
		prior := randomPrior(rng, n, trial%3 == 0)
		nothing := mat.NewDense(n, 2, nil)
		for x := 0; x < n; x++ {
			nothing.Set(x, 0, 0.25)
			nothing.Set(x, 1, 0.75)
		}
		r := additive(t, prior, nothing, B)
		want, _ := measure.AdditiveGCapacity(prior, B, measure.OneSpanningVulnerability)
		if math.Abs(r.Value-want) > 1e-9 {
			t.Fatalf("trial %d: metric %v, capacity %v", trial, r.Value, want)
		}
	}
	// The identity against nothing, uniform prior: 1.
	id := mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
	one := mat.NewDense(3, 1, []float64{1, 1, 1})
	if r := additive(t, []float64{1. / 3, 1. / 3, 1. / 3}, one, id); math.Abs(r.Value-1) > 1e-12 {
		t.Errorf("identity against nothing: %v", r.Value)
	}
}

// 0 exactly when A ⊑avg B (full-support priors): post-processings of A give 0, and every random
// pair that refine.Avg rejects gives a positive value, with the gain function as a counterexample.
func TestAdditiveMetricZeroIffAvgRefinement(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	holds, fails := 0, 0
	for trial := 0; trial < 150; trial++ {
		n, m := 2+rng.IntN(4), 1+rng.IntN(5)
		A := randomChannel(rng, n, m, 0.2*float64(trial%2))
		var B *mat.Dense
		if trial%2 == 0 {
			B = mul(A, randomChannel(rng, m, 1+rng.IntN(5), 0.3))
		} else {
			B = randomChannel(rng, n, 1+rng.IntN(5), 0.2)
		}
		prior := randomPrior(rng, n, false)
		r := additive(t, prior, A, B)
		avg, err := Avg(A, B)
		if err != nil {
			t.Fatal(err)
		}
		if avg.Holds {
			holds++
			if r.Value > 1e-9 {
				t.Fatalf("trial %d: A ⊑avg B but the metric is %v", trial, r.Value)
			}
		} else {
			fails++
			if !(r.Value > 1e-9) {
				t.Fatalf("trial %d: A ⋢avg B (residual %v) but the metric is %v", trial, avg.Residual, r.Value)
			}
		}
	}
	if holds < 50 || fails < 40 {
		t.Errorf("too few cases: %d refinements, %d not", holds, fails)
	}
	// Everything refines the identity's view: the identity leaks at least as much as any B.
	id := mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
	B := randomChannel(rng, 3, 4, 0)
	if r := additive(t, []float64{0.2, 0.3, 0.5}, id, B); r.Value > 1e-12 {
		t.Errorf("identity ⊑avg B: %v", r.Value)
	}
}

// No gain function of the class does better than the supremum: random gains with values ≤ 1
// and a zero guess, brute force.
func TestAdditiveMetricBoundsRandomGains(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 66))
	for trial := 0; trial < 60; trial++ {
		n := 2 + rng.IntN(3)
		A := randomChannel(rng, n, 2+rng.IntN(3), 0.2)
		B := randomChannel(rng, n, 2+rng.IntN(3), 0.2)
		prior := randomPrior(rng, n, trial%2 == 0)
		r := additive(t, prior, A, B)
		best := 0.0
		for k := 0; k < 400; k++ {
			w := 2 + rng.IntN(4)
			G := mat.NewDense(w, n, nil) // the last row stays 0: the zero guess
			for i := 0; i < w-1; i++ {
				for x := 0; x < n; x++ {
					G.Set(i, x, 1-3*rng.Float64())
				}
			}
			va, _ := measure.PosteriorGVulnerability(G, prior, A)
			vb, _ := measure.PosteriorGVulnerability(G, prior, B)
			best = math.Max(best, vb-va)
		}
		if best > r.Value+1e-9 {
			t.Fatalf("trial %d: a random gain gets %v > the supremum %v", trial, best, r.Value)
		}
	}
}

// The prior matters through its support and weights: with a prior on a single secret nothing
// can be learnt, and for secrets outside the support the gain is 0.
func TestAdditiveMetricPriors(t *testing.T) {
	A := mat.NewDense(3, 2, []float64{1, 0, 1, 0, 0, 1})
	B := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 1})
	r := additive(t, []float64{0, 1, 0}, A, B)
	if r.Value != 0 {
		t.Errorf("point prior: %v", r.Value)
	}
	// Secrets 0 and 1 (A confuses them, B tells them apart), prior ½, ½, 0: on the support A
	// reveals nothing, so the value is B's capacity 1 − Σ_y min_{x∈{0,1}} B[x][y] = 1 (a gain of
	// 1 for the right secret and −1 for the wrong one: V_g[π▷B] = 1, V_g[π▷A] = max(0, 0) = 0).
	r = additive(t, []float64{0.5, 0.5, 0}, A, B)
	if math.Abs(r.Value-1) > 1e-12 {
		t.Errorf("two secrets: %v", r.Value)
	}
	for w := 0; w < 5; w++ {
		if r.Gain.At(w, 2) != 0 {
			t.Errorf("gain on a secret outside the support: %v", r.Gain.At(w, 2))
		}
	}
}

func TestAdditiveMetricErrors(t *testing.T) {
	A := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.2, 0.8})
	for _, tc := range []struct {
		prior []float64
		A, B  mat.Matrix
		arg   string
	}{
		{[]float64{0.5, 0.5, 0}, A, A, "prior"},
		{[]float64{0.5, 0.6}, A, A, "prior"},
		{[]float64{0.5, 0.5}, mat.NewDense(2, 2, []float64{0.5, 0.6, 0.2, 0.8}), A, "A"},
		{[]float64{0.5, 0.5}, A, mat.NewDense(3, 2, []float64{1, 0, 1, 0, 1, 0}), "B"},
		{[]float64{0.5, 0.5}, A, nil, "B"},
	} {
		if _, err := AdditiveMetric(tc.prior, tc.A, tc.B); err == nil || !strings.HasPrefix(err.Error(), tc.arg+":") {
			t.Errorf("%s: error %v", tc.arg, err)
		}
	}
}

// additiveMetricLibqif is libqif's linear program, stated independently: one guess per output of
// A and of B, gains ≤ 1 free below, each guess of A the best on its output (and at least the
// zero guess); maximize Σ_z J_B·g_z − Σ_y J_A·g_y. It is the reference and the peer of the
// benchmark.
func additiveMetricLibqif(prior []float64, A, B mat.Matrix) (float64, error) {
	n, ma := A.Dims()
	_, mb := B.Dims()
	m := lp.NewModel(lp.Maximize)
	G := m.AddBlock("g", ma+mb, n)
	for w := 0; w < ma+mb; w++ {
		for x := 0; x < n; x++ {
			m.SetBounds(G.At(w, x), math.Inf(-1), 1)
			if w < ma {
				m.SetObjective(G.At(w, x), -prior[x]*A.At(x, w))
			} else {
				m.SetObjective(G.At(w, x), prior[x]*B.At(x, w-ma))
			}
		}
	}
	for y := 0; y < ma; y++ {
		for w := 0; w <= ma+mb; w++ { // w = ma+mb: the zero guess
			if w == y {
				continue
			}
			var terms []lp.Term
			for x := 0; x < n; x++ {
				if v := prior[x] * A.At(x, y); v != 0 {
					terms = append(terms, lp.Term{Var: G.At(y, x), Coef: v})
					if w < ma+mb {
						terms = append(terms, lp.Term{Var: G.At(w, x), Coef: -v})
					}
				}
			}
			m.AddGe(terms, 0)
		}
	}
	res, err := m.Solve(nil)
	if err != nil {
		return 0, err
	}
	if res.Status != lp.Optimal {
		return 0, fmt.Errorf("status %v", res.Status)
	}
	return res.Objective, nil
}

func TestAdditiveMetricAgainstLibqifProgram(t *testing.T) {
	rng := rand.New(rand.NewPCG(67, 68))
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.IntN(6)
		A := randomChannel(rng, n, 1+rng.IntN(5), 0.3)
		B := randomChannel(rng, n, 1+rng.IntN(5), 0.3)
		prior := randomPrior(rng, n, trial%2 == 0)
		r := additive(t, prior, A, B)
		want, err := additiveMetricLibqif(prior, A, B)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Value-want) > 1e-9 {
			t.Fatalf("trial %d: %v, libqif's program %v", trial, r.Value, want)
		}
	}
}

// BenchmarkAdditiveMetric compares the reduced program with libqif's on the same random n×n
// channels and full-support prior, timed in the same iteration:
// go test -bench AdditiveMetric -run '^$' ./core/refine.
func BenchmarkAdditiveMetric(b *testing.B) {
	for _, n := range []int{10, 20, 30} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		A := randomChannel(rng, n, n, 0)
		B := randomChannel(rng, n, n, 0)
		prior := randomPrior(rng, n, false)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var ours, theirs time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				r, err := AdditiveMetric(prior, A, B)
				if err != nil {
					b.Fatal(err)
				}
				ours += time.Since(start)
				start = time.Now()
				v, err := additiveMetricLibqif(prior, A, B)
				if err != nil {
					b.Fatal(err)
				}
				theirs += time.Since(start)
				if math.Abs(v-r.Value) > 1e-9 {
					b.Fatalf("values differ: %v, %v", r.Value, v)
				}
			}
			b.ReportMetric(float64(ours.Microseconds())/float64(b.N)/1000, "reduced-ms")
			b.ReportMetric(float64(theirs.Microseconds())/float64(b.N)/1000, "libqif-ms")
			b.ReportMetric(float64(theirs)/float64(ours), "libqif/reduced")
		})
	}
}

// A prior accepted within the tolerance of 1 (summing to s = 1 − 5e-7) is used as given: both
// vulnerabilities are linear in π, so the value is s times the capacity of the normalized prior.
func TestAdditiveMetricPriorWithinTolerance(t *testing.T) {
	A := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.2, 0.8})
	one := mat.NewDense(2, 1, []float64{1, 1})
	prior := []float64{0.3, 0.7 - 5e-7}
	r := additive(t, prior, one, A)
	want, _ := measure.AdditiveGCapacity(prior, A, measure.OneSpanningVulnerability)
	if math.Abs(r.Value-want*(1-5e-7)) > 1e-12 {
		t.Errorf("value %v, capacity %v", r.Value, want)
	}
}

// Truncated geometric mechanisms with ε = 40 and 60 nats on 4 secrets, uniform prior: B tells
// every secret apart with certainty up to entries of e^−60·k, A up to e^−40·k, so an adversary
// who guesses the secret of the output (gain 1) and pays a huge price for the others wins 1 on
// B and gains nothing on A; the supremum is 1, and it needs gains of the order of −e^{120}.
func TestAdditiveMetricTinyEntries(t *testing.T) {
	A, B := mechanismTruncatedGeometric(4, 40), mechanismTruncatedGeometric(4, 60)
	r := additive(t, []float64{0.25, 0.25, 0.25, 0.25}, A, B)
	if math.Abs(r.Value-1) > 1e-9 {
		t.Errorf("value %v, want 1", r.Value)
	}
	if mat.Min(r.Gain) > -1e40 {
		t.Errorf("the gain attaining 1 should have huge negative entries; its least is %v", mat.Min(r.Gain))
	}
	// The floating-point solution is far off here (it reports 0): the exact solver decides.
	if r.Method != "exact" {
		t.Errorf("method %q", r.Method)
	}
}

// mechanismTruncatedGeometric is the truncated geometric mechanism on 0..n−1 written out from
// its definition (Ghosh, Roughgarden and Sundararajan, "Universally utility-maximizing privacy
// mechanisms", 2009): α = e^−ε, C[x][y] = (1−α)/(1+α)·α^|x−y| inside, α^|x−y|/(1+α) at the ends.
func mechanismTruncatedGeometric(n int, eps float64) *mat.Dense {
	a := math.Exp(-eps)
	C := mat.NewDense(n, n, nil)
	for x := 0; x < n; x++ {
		for y := 0; y < n; y++ {
			v := math.Pow(a, math.Abs(float64(x-y)))
			if y == 0 || y == n-1 {
				C.Set(x, y, v/(1+a))
			} else {
				C.Set(x, y, v*(1-a)/(1+a))
			}
		}
	}
	return C
}

// Rows accepted within the tolerance are divided by their sums: B's first row [.6, .4000005]
// becomes B₀ = A₀ + δ·(−1, 1) with δ = 0.6 − 0.6/1.0000005 ≈ 3e-7, and then B = A·R with
// R = I + A⁻¹(B − A) = [[1 − 7δ/3, 7δ/3], [δ, 1 − δ]] row-stochastic, so A ⊑avg B and the metric
// is 0 (it used to throw "could not be verified").
func TestAdditiveMetricRowsWithinTolerance(t *testing.T) {
	A := mat.NewDense(2, 2, []float64{.6, .4, .3, .7})
	B := mat.NewDense(2, 2, []float64{.6, .4000005, .3, .7})
	r := additive(t, []float64{.5, .5}, A, B)
	if r.Value > 1e-15 {
		t.Errorf("value %v, want 0", r.Value)
	}
	if avg, err := Avg(A, B); err != nil || !avg.Holds {
		t.Errorf("refine.Avg: %v %v", avg, err)
	}
	// The other way round B ⋢avg A, and the value is positive.
	if r := additive(t, []float64{.5, .5}, B, A); !(r.Value > 0) {
		t.Errorf("reversed: value %v", r.Value)
	}
}

// Too large a program is refused at once, naming both channels.
func TestAdditiveMetricSizeLimit(t *testing.T) {
	n := 40
	C := mat.NewDense(n, n, nil)
	for x := 0; x < n; x++ {
		C.Set(x, x, 1)
	}
	start := time.Now()
	_, err := AdditiveMetric(uniform(n), C, C)
	if err == nil || !strings.HasPrefix(err.Error(), "A, B:") || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Logf("the refusal took %v", d)
	}
}

// The exact phase is bounded: truncated geometric mechanisms on 8 values with ε = 40 and 60
// need the exact simplex (floating point reports trouble), and with a limit of 1 ms the error
// says so and gives the certified bracket. Random channels are settled by the certified
// floating-point path.
func TestAdditiveMetricTimeLimitAndMethods(t *testing.T) {
	A, B := mechanismTruncatedGeometric(8, 40), mechanismTruncatedGeometric(8, 60)
	_, err := AdditiveMetricWith(uniform(8), A, B, &Options{TimeLimit: time.Millisecond})
	if err == nil || !strings.HasPrefix(err.Error(), "A, B: the exact simplex did not finish within the time limit") || !strings.Contains(err.Error(), "certified to lie in") {
		t.Errorf("error %v", err)
	}
	rng := rand.New(rand.NewPCG(69, 70))
	certified := 0
	for trial := 0; trial < 20; trial++ {
		n := 3 + rng.IntN(4)
		r := additive(t, randomPrior(rng, n, false), randomChannel(rng, n, n, 0), randomChannel(rng, n, n, 0))
		if r.Method == "certified floating point" {
			certified++
		}
	}
	if certified < 15 {
		t.Errorf("only %d of 20 random pairs settled in floating point", certified)
	}
}
