package measure

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/metric"
	"gonum.org/v1/gonum/mat"
)

// The two additive capacities through the hyper-distribution, as libqif computes them: the mass
// of the point hyper [π] moves to every posterior δʸ with weight p(y), at the cost of the
// convex-separation quasimetric q(π, δʸ) = max_{x: π_x>0} (1 − δʸ_x/π_x) for the 1-spanning
// vulnerabilities and of the total variation for the 1-spanning gains.
func TestAdditiveGCapacityThroughPosteriors(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 300; trial++ {
		n, m := 1+rng.IntN(6), 1+rng.IntN(6)
		prior := randDist(rng, n, trial%2 == 0)
		C := randChannel(rng, n, m, trial%3 == 0)
		posts, outer := naivePosteriors(prior, C)
		wantV, wantG := 0.0, 0.0
		for k, d := range posts {
			q := 0.0
			for x, px := range prior {
				if px > 0 {
					q = math.Max(q, 1-d[x]/px)
				}
			}
			wantV += outer[k] * q
			tv, err := metric.TotalVariation(prior, d)
			if err != nil {
				t.Fatal(err)
			}
			wantG += outer[k] * tv
		}
		gotV := must(t)(AdditiveGCapacity(prior, C, OneSpanningVulnerability))
		gotG := must(t)(AdditiveGCapacity(prior, C, OneSpanningGain))
		near(t, "1-spanning V capacity", gotV, wantV, 1e-12)
		near(t, "1-spanning g capacity", gotG, wantG, 1e-12)
		if gotG > gotV+1e-12 {
			t.Errorf("the smaller class has the larger capacity: %v > %v", gotG, gotV)
		}
	}
}

// Every gain function with gains in [0, 1] belongs to both classes, so its additive leakage is
// bounded by both capacities; random gain functions, and the gains of the identity (Bayes), test
// the bounds from below.
func TestAdditiveGCapacityBoundsEveryMember(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for trial := 0; trial < 200; trial++ {
		n, m := 1+rng.IntN(5), 1+rng.IntN(5)
		prior := randDist(rng, n, trial%2 == 0)
		C := randChannel(rng, n, m, trial%3 == 0)
		capG := must(t)(AdditiveGCapacity(prior, C, OneSpanningGain))
		for k := 0; k < 20; k++ {
			w := 1 + rng.IntN(6)
			G := mat.NewDense(w, n, nil)
			for i := 0; i < w; i++ {
				for x := 0; x < n; x++ {
					if k%2 == 0 {
						G.Set(i, x, rng.Float64())
					} else {
						G.Set(i, x, float64(rng.IntN(2)))
					}
				}
			}
			leak := must(t)(AdditiveGLeakage(G, prior, C))
			if leak > capG+1e-12 {
				t.Fatalf("a gain in [0,1] leaks %v > capacity %v", leak, capG)
			}
		}
		bayes := must(t)(AdditiveBayesLeakage(prior, C))
		if bayes > capG+1e-12 {
			t.Fatalf("Bayes leaks %v > capacity %v", bayes, capG)
		}
	}
}

func TestAdditiveGCapacityClosedForms(t *testing.T) {
	// The identity on n secrets under the uniform prior: every posterior is a point mass, so
	// q(u, δ) = 1 and tv(u, δ) = 1 − 1/n.
	for n := 1; n <= 5; n++ {
		id := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			id.Set(i, i, 1)
		}
		wantV := 1.0
		if n == 1 {
			wantV = 0
		}
		near(t, "identity V", must(t)(AdditiveGCapacity(uniform(n), id, OneSpanningVulnerability)), wantV, 1e-15)
		near(t, "identity g", must(t)(AdditiveGCapacity(uniform(n), id, OneSpanningGain)), 1-1/float64(n), 1e-15)
	}
	// A channel whose rows are equal leaks nothing in either class.
	same := mat.NewDense(3, 2, []float64{0.3, 0.7, 0.3, 0.7, 0.3, 0.7})
	near(t, "no leak V", must(t)(AdditiveGCapacity([]float64{0.2, 0.3, 0.5}, same, OneSpanningVulnerability)), 0, 1e-15)
	near(t, "no leak g", must(t)(AdditiveGCapacity([]float64{0.2, 0.3, 0.5}, same, OneSpanningGain)), 0, 1e-15)
	// The 1-spanning-V capacity depends on the prior's support only: row 2 outside it.
	c := mat.NewDense(3, 2, []float64{0.9, 0.1, 0.4, 0.6, 0, 1})
	near(t, "support", must(t)(AdditiveGCapacity([]float64{0.5, 0.5, 0}, c, OneSpanningVulnerability)), 1-0.4-0.1, 1e-15)
	near(t, "support", must(t)(AdditiveGCapacity([]float64{0.1, 0.9, 0}, c, OneSpanningVulnerability)), 0.5, 1e-15)
	// Binary symmetric channel, flip p, prior (a, 1−a): p(0) = a(1−p) + (1−a)p, and
	// ½ Σ_x π_x Σ_y |C − p(y)| = a(1−a)(1−2p)·2 by hand.
	a, p := 0.3, 0.1
	bsc := mat.NewDense(2, 2, []float64{1 - p, p, p, 1 - p})
	near(t, "bsc g", must(t)(AdditiveGCapacity([]float64{a, 1 - a}, bsc, OneSpanningGain)), 2*a*(1-a)*(1-2*p), 1e-15)
	near(t, "bsc V", must(t)(AdditiveGCapacity([]float64{a, 1 - a}, bsc, OneSpanningVulnerability)), 1-2*p, 1e-15)
}

func TestMultiplicativeCapacitiesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for trial := 0; trial < 60; trial++ {
		n, m := 2+rng.IntN(2), 1+rng.IntN(4)
		C := randChannel(rng, n, m, trial%3 == 0)
		vcap := must(t)(MultiplicativeBayesCapacity(C))
		rcap, prior, err := MultiplicativeBayesRiskCapacity(C)
		if err != nil {
			t.Fatal(err)
		}
		// Attained: the uniform prior for vulnerability, the returned prior for risk.
		near(t, "Bayes capacity attained", must(t)(MultiplicativeBayesLeakage(uniform(n), C)), vcap, 1e-12)
		if !math.IsInf(rcap, 1) {
			r0 := must(t)(BayesRisk(prior))
			r1 := must(t)(PosteriorBayesRisk(prior, C))
			near(t, "risk capacity attained", r0/r1, rcap, 1e-9)
		}
		// Never exceeded on a grid of priors (step 1/40 on the simplex).
		const steps = 40
		var walk func(x int, left int, pi []float64)
		walk = func(x int, left int, pi []float64) {
			if x == n-1 {
				pi[x] = float64(left) / steps
				if v := must(t)(MultiplicativeBayesLeakage(pi, C)); v > vcap+1e-12 {
					t.Fatalf("prior %v leaks %v > capacity %v", pi, v, vcap)
				}
				r0 := must(t)(BayesRisk(pi))
				r1 := must(t)(PosteriorBayesRisk(pi, C))
				if r0 > 0 && r1 > 0 && r0/r1 > rcap*(1+1e-12) {
					t.Fatalf("prior %v: risk ratio %v > capacity %v", pi, r0/r1, rcap)
				}
				return
			}
			for k := 0; k <= left; k++ {
				pi[x] = float64(k) / steps
				walk(x+1, left-k, pi)
			}
		}
		walk(0, steps, make([]float64, n))
	}
	// By hand: rows (0.5, 0.5, 0) and (0, 0.5, 0.5) overlap in 0.5: capacity 2; disjoint rows:
	// +Inf; one row: 1.
	c := mat.NewDense(2, 3, []float64{0.5, 0.5, 0, 0, 0.5, 0.5})
	v, pr, _ := MultiplicativeBayesRiskCapacity(c)
	near(t, "risk capacity by hand", v, 2, 1e-15)
	if pr[0] != 0.5 || pr[1] != 0.5 {
		t.Errorf("prior %v", pr)
	}
	v, _, _ = MultiplicativeBayesRiskCapacity(mat.NewDense(2, 2, []float64{1, 0, 0, 1}))
	near(t, "disjoint rows", v, math.Inf(1), 0)
	v, pr, _ = MultiplicativeBayesRiskCapacity(mat.NewDense(1, 2, []float64{0.3, 0.7}))
	near(t, "one row", v, 1, 0)
	if pr[0] != 1 {
		t.Errorf("prior %v", pr)
	}
	// Nearly disjoint rows: overlap 1e-12 gives 1e12 (1 − diam/2 would have cancelled).
	v, _, _ = MultiplicativeBayesRiskCapacity(mat.NewDense(2, 2, []float64{1 - 1e-12, 1e-12, 1e-12, 1 - 1e-12}))
	near(t, "nearly disjoint", v, 0.5e12, 1e-9)
	near(t, "identity Bayes capacity", must(t)(MultiplicativeBayesCapacity(mat.NewDense(2, 2, []float64{1, 0, 0, 1}))), 2, 0)
}

func TestCapacityErrors(t *testing.T) {
	C := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.2, 0.8})
	for _, tc := range []struct {
		err  error
		name string
	}{
		{second(AdditiveGCapacity([]float64{0.5, 0.5, 0}, C, OneSpanningGain)), "prior"},
		{second(AdditiveGCapacity([]float64{0.5, 0.6}, C, OneSpanningGain)), "prior"},
		{second(AdditiveGCapacity([]float64{0.5, 0.5}, mat.NewDense(2, 2, []float64{0.5, 0.6, 0.2, 0.8}), OneSpanningGain)), "channel"},
		{second(AdditiveGCapacity([]float64{0.5, 0.5}, C, GainClass(7))), "gainClass"},
		{second(MultiplicativeBayesCapacity(nil)), "channel"},
		{third(MultiplicativeBayesRiskCapacity(mat.NewDense(1, 2, []float64{-0.5, 1.5}))), "channel"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), tc.name+":") {
			t.Errorf("error %v, want one naming %q", tc.err, tc.name)
		}
	}
	if _, err := ParseGainClass("oneSpanning"); err == nil || !strings.HasPrefix(err.Error(), "gainClass:") {
		t.Errorf("ParseGainClass: %v", err)
	}
	for _, g := range []GainClass{OneSpanningVulnerability, OneSpanningGain} {
		if p, err := ParseGainClass(g.String()); err != nil || p != g {
			t.Errorf("ParseGainClass(%q) = %v, %v", g.String(), p, err)
		}
	}
}

func second(_ float64, err error) error { return err }

func third(_ float64, _ []float64, err error) error { return err }
