package estimate

import (
	"math"
	"testing"
)

// P(1, x) = 1 − e^{−x} and P(½, x) = erf(√x), closed forms on both sides of a + 1 (series and
// continued fraction).
func TestGammaPClosedForms(t *testing.T) {
	for _, x := range []float64{0.01, 0.5, 1, 1.9, 3, 10, 40} {
		if got, want := gammaP(1, x), -math.Expm1(-x); math.Abs(got-want) > 1e-14 {
			t.Errorf("P(1, %v) = %v, want %v", x, got, want)
		}
		if got, want := gammaP(0.5, x), math.Erf(math.Sqrt(x)); math.Abs(got-want) > 1e-14 {
			t.Errorf("P(1/2, %v) = %v, want %v", x, got, want)
		}
	}
}

// I_x(e, m−e+1) = P(Bin(m, x) ≥ e), summed here term by term; the Clopper–Pearson ends for 0
// errors and for m errors in closed form, 1 − (α/2)^{1/m} and (α/2)^{1/m}; and the normal
// quantile's table value Φ⁻¹(0.975) = 1.959964.
func TestBetaAndClopperPearson(t *testing.T) {
	binomTail := func(m, e int, x float64) float64 {
		s := 0.0
		for k := e; k <= m; k++ {
			lc, _ := math.Lgamma(float64(m + 1))
			lk, _ := math.Lgamma(float64(k + 1))
			lmk, _ := math.Lgamma(float64(m - k + 1))
			s += math.Exp(lc - lk - lmk + float64(k)*math.Log(x) + float64(m-k)*math.Log1p(-x))
		}
		return s
	}
	for _, c := range []struct {
		m, e int
		x    float64
	}{{10, 3, 0.2}, {10, 3, 0.7}, {200, 50, 0.24}, {2000, 100, 0.06}, {50, 49, 0.9}} {
		if got, want := betaI(float64(c.e), float64(c.m-c.e+1), c.x), binomTail(c.m, c.e, c.x); math.Abs(got-want) > 1e-10 {
			t.Errorf("I_%v(%d, %d) = %v, binomial tail %v", c.x, c.e, c.m-c.e+1, got, want)
		}
	}
	for _, m := range []int{1, 10, 1000} {
		lo, hi := clopperPearson(0, m, 0.05)
		if lo != 0 || math.Abs(hi-(1-math.Pow(0.025, 1/float64(m)))) > 1e-12 {
			t.Errorf("0 of %d: [%v, %v]", m, lo, hi)
		}
		lo, hi = clopperPearson(m, m, 0.05)
		if hi != 1 || math.Abs(lo-math.Pow(0.025, 1/float64(m))) > 1e-12 {
			t.Errorf("%d of %d: [%v, %v]", m, m, lo, hi)
		}
	}
	// An interior case: the ends satisfy their defining tail equations.
	lo, hi := clopperPearson(30, 100, 0.05)
	if math.Abs(binomTail(100, 30, lo)-0.025) > 1e-10 || math.Abs(1-binomTail(100, 31, hi)-0.025) > 1e-10 {
		t.Errorf("30 of 100: [%v, %v]", lo, hi)
	}
	if math.Abs(normalQuantile(0.975)-1.959964) > 1e-6 || math.Abs(normalCDF(1.959964)-0.975) > 1e-6 {
		t.Error("normal quantile")
	}
}

// The binomial sampler against the exact probabilities (χ² goodness of fit, level 10⁻⁶, on
// 20,000 draws), and mean and variance for 10⁶ trials.
func TestBinomialSampler(t *testing.T) {
	r := newRand(3)
	for _, c := range []struct {
		n int
		p float64
	}{{10, 0.3}, {30, 0.5}, {100, 0.02}, {1000, 0.4}} {
		const draws = 20_000
		cnt := make([]float64, c.n+1)
		for i := 0; i < draws; i++ {
			cnt[binomial(c.n, c.p, r)]++
		}
		// Pool the tails so that every bin expects at least 5 draws.
		chi, bins, acc, accP := 0.0, 0, 0.0, 0.0
		for k := 0; k <= c.n; k++ {
			lc, _ := math.Lgamma(float64(c.n + 1))
			lk, _ := math.Lgamma(float64(k + 1))
			lnk, _ := math.Lgamma(float64(c.n - k + 1))
			acc += cnt[k]
			accP += math.Exp(lc - lk - lnk + float64(k)*math.Log(c.p) + float64(c.n-k)*math.Log1p(-c.p))
			if accP*draws >= 5 || k == c.n {
				e := accP * draws
				chi += (acc - e) * (acc - e) / e
				bins++
				acc, accP = 0, 0
			}
		}
		if q := ChiSquareQuantile(1-1e-6, bins-1); chi > q {
			t.Errorf("Bin(%d, %v): χ² = %v over %d bins, above %v", c.n, c.p, chi, bins, q)
		}
	}
	const n, p, draws = 1_000_000, 0.37, 2000
	s, s2 := 0.0, 0.0
	for i := 0; i < draws; i++ {
		x := float64(binomial(n, p, r))
		s += x
		s2 += x * x
	}
	mean, v := s/draws, s2/draws-(s/draws)*(s/draws)
	if sd := math.Sqrt(n * p * (1 - p)); math.Abs(mean-n*p) > 5*sd/math.Sqrt(draws) || math.Abs(v/(sd*sd)-1) > 0.15 {
		t.Errorf("Bin(10⁶, 0.37): mean %v, variance %v; want %v, %v", mean, v, n*p, sd*sd)
	}
}
