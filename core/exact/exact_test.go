package exact

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/measure"
	"github.com/qif-toolkit/qif/core/mechanism"
	"gonum.org/v1/gonum/mat"
)

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0.1", "1/10"}, {"1/3", "1/3"}, {" -2/7 ", "-2/7"}, {"0.25", "1/4"}, {".5", "1/2"},
		{"3.", "3"}, {"1e-3", "1/1000"}, {"2.5E2", "250"}, {"010", "10"}, {"1/2.5", "2/5"},
		{"+4/6", "2/3"}, {"0/5", "0"}, {"1e+2", "100"},
	} {
		r, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		equal(t, "Parse("+c.in+")", r, c.want)
	}
	for _, c := range []struct{ in, msg string }{
		{"1/0", "zero denominator"}, {"1/0.0", "zero denominator"}, {"abc", "not a number"},
		{"", "not a number"}, {"0x10", "not a number"}, {"1/-2", "sign"}, {"--1", "not a number"},
		{"1e99999", "exponent"}, {"1/2/3", "not a number"}, {"NaN", "not a number"}, {"Infinity", "not a number"},
		{"1 2", "not a number"}, {"1e", "not a number"}, {".", "not a number"}, {strings.Repeat("1", MaxNumberLength+1), "limit"},
	} {
		if _, err := Parse(c.in); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Parse(%q): error %v, want one mentioning %q", c.in, err, c.msg)
		}
	}
	// Shortest decimal: the value typed, not the binary fraction.
	for _, c := range []struct {
		in   float64
		want string
	}{{0.1, "1/10"}, {1.0 / 3, "3333333333333333/10000000000000000"}, {-2.5, "-5/2"}, {1e-300, "1/1" + strings.Repeat("0", 300)}, {0, "0"}} {
		r, err := FromFloat(c.in)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "FromFloat", r, c.want)
	}
	if _, err := FromFloat(mathNaN()); err == nil {
		t.Error("FromFloat(NaN) accepted")
	}
	d, err := ParseMetric("metric", [][]string{{"0", "Infinity"}, {"∞", "0.5"}})
	if err != nil || d.At(0, 1) != nil || d.At(1, 0) != nil || d.At(1, 1).Cmp(MustParse("1/2")) != 0 {
		t.Errorf("ParseMetric: %v", err)
	}
	if _, err := ParseMetric("metric", [][]string{{"0", "-Infinity"}}); err == nil {
		t.Error("ParseMetric accepted −∞")
	}
	if v, err := VectorFromFloats("prior", []float64{0.1, 0.2, 0.7}); err != nil || ValidateDistribution("prior", v) != nil {
		t.Errorf("0.1 + 0.2 + 0.7 typed as floats must sum to exactly 1: %v", err)
	}
}

func mathNaN() float64 { z := 0.0; return z / z }

func TestValidation(t *testing.T) {
	for _, c := range []struct {
		err error
		msg string
	}{
		{ValidateDistribution("prior", vec("1/2", "1/3")), "prior: sums to 5/6, expected exactly 1"},
		{ValidateDistribution("prior", vec("3/2", "-1/2")), "prior: entry 1 is negative (-1/2)"},
		{ValidateDistribution("prior", nil), "prior: empty"},
		{ValidateChannel("channel", mtx(row("1/2", "1/2"), row("1/3", "7/12"))), "channel: row 1 sums to 11/12, expected exactly 1"},
		{ValidateChannel("A", &Matrix{Rows: 1, Cols: 2, Data: []*big.Rat{big.NewRat(1, 1)}}), "A: 1 entries for a 1×2 matrix"},
		{ValidateChannel("A", &Matrix{}), "A: empty matrix"},
		{ValidateChannel("A", nil), "A: missing"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.msg) {
			t.Errorf("error %v, want %q", c.err, c.msg)
		}
	}
	// Three entries 0.3333333333333333 (what JavaScript writes for 1/3) sum to 1 − 10⁻¹⁶: the
	// message says to write fractions; 5/6 is far from 1 and gets no such hint.
	third := vec("0.3333333333333333", "0.3333333333333333", "0.3333333333333333")
	if err := ValidateDistribution("prior", third); err == nil ||
		!strings.Contains(err.Error(), "prior: sums to 9999999999999999/10000000000000000, expected exactly 1") || !strings.Contains(err.Error(), `"1/3"`) {
		t.Errorf("prior of floats: %v", err)
	}
	if err := ValidateDistribution("prior", vec("1/2", "1/3")); err == nil || strings.Contains(err.Error(), `"1/3"`) {
		t.Errorf("5/6 needs no hint: %v", err)
	}
	if _, err := ParseMatrix("gain", [][]string{{"1", "1/0"}}); err == nil || !strings.Contains(err.Error(), "gain: entry [0][1]") {
		t.Errorf("ParseMatrix: %v", err)
	}
	if _, err := PosteriorBayesVulnerability(vec("1/2", "1/2"), mtx(row("1"))); err == nil || !strings.Contains(err.Error(), "prior: has 2 entries but the channel has 1 rows") {
		t.Errorf("size mismatch: %v", err)
	}
	if _, err := MultiplicativeGLeakage(mtx(row("0", "0")), vec("1/2", "1/2"), mtx(row("1"), row("1"))); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Errorf("V_g(π) = 0: %v", err)
	}
	if _, err := RandomizedResponse(3, MustParse("1"), 3); err == nil || !strings.Contains(err.Error(), "expEpsilon") {
		t.Errorf("e^ε = 1: %v", err)
	}
	if _, err := TruncatedGeometric(3, MustParse("2"), 2); err == nil || !strings.Contains(err.Error(), "m ≥ n") {
		t.Errorf("m < n: %v", err)
	}
}

func TestSizeLimits(t *testing.T) {
	// A cascade of 100×100 channels with 4,000-bit entries is refused before any work; one product is not.
	big1 := new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 4000), new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 4000), big.NewInt(1)))
	c := NewMatrix(100, 100)
	for x := 0; x < 100; x++ {
		c.Data[x*100].Set(big1)
		c.Data[x*100+1].Sub(one, big1)
	}
	prior := make(Vector, 100)
	for i := range prior {
		prior[i] = big.NewRat(1, 100)
	}
	if _, err := Cascade(c, c); err == nil || !strings.Contains(err.Error(), "too large for exact arithmetic") {
		t.Errorf("huge cascade: %v", err)
	}
	if _, err := PosteriorBayesVulnerability(prior, c); err != nil {
		t.Errorf("100×100 with 4,000-bit entries should be within the limit: %v", err)
	}
	if _, err := RandomizedResponse(2000, MustParse("2"), 2000); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("RR 2000×2000: %v", err)
	}
}

// A small example worked by hand: π = (1/2, 1/3, 1/6), C rows (3/4, 1/4), (1/2, 1/2), (0, 1),
// so J = [[3/8, 1/8], [1/6, 1/6], [0, 1/6]] and p(y) = (13/24, 11/24).
func TestHandExample(t *testing.T) {
	prior := vec("1/2", "1/3", "1/6")
	C := mtx(row("3/4", "1/4"), row("1/2", "1/2"), row("0", "1"))
	G := mtx(row("1", "0", "0"), row("0", "1", "1")) // "it is x0" or "it is not"
	L := mtx(row("0", "1", "1"), row("1", "0", "0")) // 1 − G
	check := func(name string, f func() (*big.Rat, error), want string) {
		t.Helper()
		v, err := f()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		equal(t, name, v, want)
	}
	check("V(π)", func() (*big.Rat, error) { return BayesVulnerability(prior) }, "1/2")
	check("R(π)", func() (*big.Rat, error) { return BayesRisk(prior) }, "1/2")
	// max col 0 = 3/8, max col 1 = 1/6
	check("V[π▷C]", func() (*big.Rat, error) { return PosteriorBayesVulnerability(prior, C) }, "13/24")
	check("R[π▷C]", func() (*big.Rat, error) { return PosteriorBayesRisk(prior, C) }, "11/24")
	check("ML×", func() (*big.Rat, error) { return MultiplicativeBayesLeakage(prior, C) }, "13/12")
	check("ML+", func() (*big.Rat, error) { return AdditiveBayesLeakage(prior, C) }, "1/24")
	// posteriors (9/13, 4/13, 0) and (3/11, 4/11, 4/11)
	check("V^max", func() (*big.Rat, error) { return MaxCasePosteriorBayesVulnerability(prior, C) }, "9/13")
	check("V_g(π)", func() (*big.Rat, error) { return GVulnerability(G, prior) }, "1/2")
	// G·J = [[3/8, 1/8], [1/6, 1/3]]
	check("V_g[π▷C]", func() (*big.Rat, error) { return PosteriorGVulnerability(G, prior, C) }, "17/24")
	check("ML_g×", func() (*big.Rat, error) { return MultiplicativeGLeakage(G, prior, C) }, "17/12")
	check("ML_g+", func() (*big.Rat, error) { return AdditiveGLeakage(G, prior, C) }, "5/24")
	check("U_ℓ(π)", func() (*big.Rat, error) { return LossRisk(L, prior) }, "1/2")
	check("U_ℓ[π▷C]", func() (*big.Rat, error) { return PosteriorLossRisk(L, prior, C) }, "7/24")
	// 1·1/2 + 2·1/3 + 3·1/6
	check("G(π)", func() (*big.Rat, error) { return GuessingEntropy(prior) }, "5/3")
	// column 0: 3/8 + 2·1/6; column 1: 1/6 + 2·1/6 + 3·1/8
	check("G[π▷C]", func() (*big.Rat, error) { return PosteriorGuessingEntropy(prior, C) }, "19/12")
	check("ML(C)", func() (*big.Rat, error) { return MultiplicativeBayesCapacity(C) }, "7/4")
	// largest L1 distance 3/2 (rows 0 and 2): 1/(1 − 3/4)
	check("risk capacity", func() (*big.Rat, error) {
		v, inf, err := MultiplicativeBayesRiskCapacity(C)
		if inf {
			t.Error("infinite")
		}
		return v, err
	}, "4")
	check("1-spanning V", func() (*big.Rat, error) { return AdditiveGCapacity(prior, C, "") }, "3/4")
	// ½ Σ_y Σ_x π_x |p(y) − C[x][y]| = ½ (5/24 + 5/24)
	check("1-spanning gain", func() (*big.Rat, error) { return AdditiveGCapacity(prior, C, OneSpanningGain) }, "5/24")
	check("SD", func() (*big.Rat, error) { return StatisticalDistance(vec("1/2", "1/2", "0"), vec("1/3", "1/3", "1/3")) }, "1/3")
	check("δ at e^ε = 5/4", func() (*big.Rat, error) {
		return HockeyStick(vec("1/2", "1/2", "0"), vec("1/3", "1/3", "1/3"), MustParse("5/4"))
	}, "1/6")
	check("δ at e^ε = 2", func() (*big.Rat, error) {
		return HockeyStick(vec("1/2", "1/2", "0"), vec("1/3", "1/3", "1/3"), MustParse("2"))
	}, "0")
	if _, inf, err := MultiplicativeBayesRiskCapacity(mtx(row("1", "0"), row("0", "1"))); err != nil || !inf {
		t.Errorf("disjoint rows: infinite %v, %v", inf, err)
	}

	h, err := Hyper(prior, C)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.Outer.Strings(), " ") + " | " + strings.Join(h.Inners.Strings(), " "); got != "13/24 11/24 | 9/13 4/13 0 3/11 4/11 4/11" {
		t.Errorf("hyper %s", got)
	}
}

func TestMechanismFamiliesByHand(t *testing.T) {
	rr, err := RandomizedResponse(3, MustParse("2"), 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rr.Strings(), " "); got != "1/2 1/4 1/4 1/4 1/2 1/4 1/4 1/4 1/2" {
		t.Errorf("RR %s", got)
	}
	rr, _ = RandomizedResponse(3, MustParse("3"), 2) // row 2 is not an output: uniform
	if got := strings.Join(rr.Strings(), " "); got != "3/4 1/4 1/4 3/4 1/2 1/2" {
		t.Errorf("RR 3×2 %s", got)
	}
	// α = 1/2: end columns α^k·2/3, inner columns (1/3)·α^|x−y|.
	tg, err := TruncatedGeometric(3, MustParse("2"), 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tg.Strings(), " "); got != "2/3 1/6 1/6 1/3 1/3 1/3 1/6 1/6 2/3" {
		t.Errorf("geometric %s", got)
	}
	// Table 1 of Alvim et al. (ICALP 2011): M2 = 2/7 on the diagonal, 1/7 elsewhere, utility
	// 2/7 (the paper's 0.2857) under the uniform prior and under p(A) = p(F) = 1/10, others 1/5.
	m2 := NewMatrix(6, 6)
	for y := 0; y < 6; y++ {
		for z := 0; z < 6; z++ {
			m2.Data[y*6+z].SetFrac64(1+int64(b2i(y == z)), 7)
		}
	}
	for _, p := range []Vector{vec("1/6", "1/6", "1/6", "1/6", "1/6", "1/6"), vec("1/10", "1/5", "1/5", "1/5", "1/5", "1/10")} {
		u, err := Utility(p, m2, nil)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "U(M2)", u, "2/7")
		l, _ := ExpectedLoss(p, m2, nil)
		equal(t, "0-1 loss of M2", l, "5/7")
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Every exact measure agrees with the floating-point engine on random rational inputs.
func TestAgreesWithFloatingPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		n, m, w := 1+rng.IntN(7), 1+rng.IntN(7), 1+rng.IntN(4)
		prior := randomDistribution(rng, n, 50, trial%2 == 0)
		C := randomChannel(rng, n, m, 30, trial%3 == 0)
		G := randomGain(rng, w, n)
		pf, Cf, Gf := prior.Floats(), dense(C), dense(G)
		type pair struct {
			name  string
			exact func() (*big.Rat, error)
			float func() (float64, error)
		}
		for _, c := range []pair{
			{"V", func() (*big.Rat, error) { return BayesVulnerability(prior) }, func() (float64, error) { return measure.BayesVulnerability(pf) }},
			{"V post", func() (*big.Rat, error) { return PosteriorBayesVulnerability(prior, C) }, func() (float64, error) { return measure.PosteriorBayesVulnerability(pf, Cf) }},
			{"R post", func() (*big.Rat, error) { return PosteriorBayesRisk(prior, C) }, func() (float64, error) { return measure.PosteriorBayesRisk(pf, Cf) }},
			{"ML×", func() (*big.Rat, error) { return MultiplicativeBayesLeakage(prior, C) }, func() (float64, error) { return measure.MultiplicativeBayesLeakage(pf, Cf) }},
			{"ML+", func() (*big.Rat, error) { return AdditiveBayesLeakage(prior, C) }, func() (float64, error) { return measure.AdditiveBayesLeakage(pf, Cf) }},
			{"V max", func() (*big.Rat, error) { return MaxCasePosteriorBayesVulnerability(prior, C) }, func() (float64, error) { return measure.MaxCasePosteriorBayesVulnerability(pf, Cf) }},
			{"V_g", func() (*big.Rat, error) { return GVulnerability(G, prior) }, func() (float64, error) { return measure.GVulnerability(Gf, pf) }},
			{"V_g post", func() (*big.Rat, error) { return PosteriorGVulnerability(G, prior, C) }, func() (float64, error) { return measure.PosteriorGVulnerability(Gf, pf, Cf) }},
			{"U_ℓ", func() (*big.Rat, error) { return LossRisk(G, prior) }, func() (float64, error) { return measure.LossRisk(Gf, pf) }},
			{"U_ℓ post", func() (*big.Rat, error) { return PosteriorLossRisk(G, prior, C) }, func() (float64, error) { return measure.PosteriorLossRisk(Gf, pf, Cf) }},
			{"G", func() (*big.Rat, error) { return GuessingEntropy(prior) }, func() (float64, error) { return measure.GuessingEntropy(pf) }},
			{"G post", func() (*big.Rat, error) { return PosteriorGuessingEntropy(prior, C) }, func() (float64, error) { return measure.PosteriorGuessingEntropy(pf, Cf) }},
			{"ML(C)", func() (*big.Rat, error) { return MultiplicativeBayesCapacity(C) }, func() (float64, error) { c, err := measure.MinCapacity(Cf); return math.Exp2(c), err }},
			{"U", func() (*big.Rat, error) { return Utility(prior, C, G) }, func() (float64, error) { return mechanism.Utility(pf, Cf, Gf) }},
			{"U binary", func() (*big.Rat, error) { return Utility(prior, C, nil) }, func() (float64, error) { return mechanism.Utility(pf, Cf, nil) }},
		} {
			e, err := c.exact()
			f, ferr := c.float()
			if (err == nil) != (ferr == nil) {
				t.Errorf("trial %d %s: exact error %v, float error %v", trial, c.name, err, ferr)
				continue
			}
			if err == nil {
				near(t, c.name, e, f)
			}
		}
		if pre, _ := GVulnerability(G, prior); pre.Sign() > 0 {
			e, err := MultiplicativeGLeakage(G, prior, C)
			f, ferr := measure.MultiplicativeGLeakage(Gf, pf, Cf)
			if err != nil || ferr != nil {
				t.Fatal(err, ferr)
			}
			near(t, "ML_g×", e, f)
		}
		e, _ := AdditiveGLeakage(G, prior, C)
		f, _ := measure.AdditiveGLeakage(Gf, pf, Cf)
		near(t, "ML_g+", e, f)
		Q := randomDistribution(rng, n, 20, true)
		e, _ = StatisticalDistance(prior, Q)
		f, _ = measure.StatisticalDistance(pf, Q.Floats())
		near(t, "SD", e, f)
		e, _ = HockeyStick(prior, Q, MustParse("3/2"))
		f, _ = measure.HockeyStick(pf, Q.Floats(), math.Log(1.5))
		near(t, "δ", e, f)

		h, err := Hyper(prior, C)
		if err != nil {
			t.Fatal(err)
		}
		hf, _ := channel.Hyper(pf, Cf)
		if len(h.Outer) != len(hf.Outer) {
			t.Errorf("trial %d: %d exact classes, %d floating-point ones", trial, len(h.Outer), len(hf.Outer))
		} else {
			for k := range h.Outer {
				near(t, "outer", h.Outer[k], hf.Outer[k])
				for x := 0; x < n; x++ {
					near(t, "inner", h.Inners.At(k, x), hf.Inners.At(k, x))
				}
			}
		}
		B := randomChannel(rng, m, 1+rng.IntN(5), 9, true)
		cas, _ := Cascade(C, B)
		casf, _ := channel.Cascade(Cf, dense(B))
		par, _ := Parallel(C, randomChannel(rng, n, 3, 5, false))
		if !mat.EqualApprox(dense(cas), casf, 1e-12) || par.Cols != 3*m {
			t.Errorf("trial %d: cascade disagrees", trial)
		}
	}
}

func TestFamiliesAgreeWithFloatingPoint(t *testing.T) {
	for _, e := range []string{"2", "3/2", "101/100", "1000"} {
		ee := MustParse(e)
		eps := math.Log(float(ee))
		for _, nm := range [][2]int{{1, 1}, {1, 3}, {4, 4}, {5, 3}, {3, 7}} {
			n, m := nm[0], nm[1]
			rr, err := RandomizedResponse(n, ee, m)
			if err != nil {
				t.Fatal(err)
			}
			rf, _ := mechanism.RandomizedResponse(n, eps, m)
			if ValidateChannel("RR", rr) != nil || !mat.EqualApprox(dense(rr), rf, 1e-12) {
				t.Errorf("RR(%d, %s, %d) = %v", n, e, m, rr.Strings())
			}
			if m < n {
				continue
			}
			tg, err := TruncatedGeometric(n, ee, m)
			if err != nil {
				t.Fatal(err)
			}
			tf, _ := mechanism.TruncatedGeometric(n, eps, m)
			if ValidateChannel("TG", tg) != nil || !mat.EqualApprox(dense(tg), tf, 1e-12) {
				t.Errorf("TG(%d, %s, %d) = %v", n, e, m, tg.Strings())
			}
			// ε-DP exactly: adjacent rows differ by a factor of at most e^ε, and at least one
			// ratio reaches it.
			reached := n == 1 || m == 1
			for x := 0; x+1 < n; x++ {
				for y := 0; y < m; y++ {
					r := new(big.Rat).Quo(tg.At(x, y), tg.At(x+1, y))
					if r.Cmp(ee) > 0 || new(big.Rat).Mul(r, ee).Cmp(one) < 0 {
						t.Errorf("TG(%d, %s, %d): ratio %s at [%d][%d]", n, e, m, r.RatString(), x, y)
					}
					reached = reached || r.Cmp(ee) == 0
				}
			}
			if !reached {
				t.Errorf("TG(%d, %s, %d): no ratio reaches e^ε", n, e, m)
			}
		}
	}
}

// Exact properties: posteriors are distributions, the hyper averages back to the prior, the
// reduced channel has the same hyper, cascade is associative.
func TestExactProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 30; trial++ {
		n, m := 1+rng.IntN(6), 1+rng.IntN(6)
		prior := randomDistribution(rng, n, 20, true)
		// Duplicate and scale columns so that merging has something to do.
		C := randomChannel(rng, n, m, 6, true)
		post, err := Posteriors(prior, C)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range post {
			if err := ValidateDistribution("posterior", p.Dist); err != nil {
				t.Errorf("trial %d: %v", trial, err)
			}
		}
		h, _ := Hyper(prior, C)
		if err := ValidateDistribution("outer", h.Outer); err != nil {
			t.Errorf("trial %d: %v", trial, err)
		}
		back := make(Vector, n)
		for x := range back {
			back[x] = new(big.Rat)
			for k := range h.Outer {
				back[x].Add(back[x], new(big.Rat).Mul(h.Outer[k], h.Inners.At(k, x)))
			}
			if back[x].Cmp(prior[x]) != 0 {
				t.Errorf("trial %d: Σ outer·inner [%d] = %s, prior %s", trial, x, back[x].RatString(), prior[x].RatString())
			}
		}
		for k := range h.Outer {
			for j := 0; j < k; j++ {
				if key(h.Inners.Row(k)) == key(h.Inners.Row(j)) {
					t.Errorf("trial %d: inners %d and %d are equal", trial, j, k)
				}
			}
		}
		red, err := Reduce(C)
		if err != nil {
			t.Fatal(err)
		}
		hr, _ := Hyper(prior, red.Channel)
		if key(hr.Outer) != key(h.Outer) || !equalMatrices(hr.Inners, h.Inners) {
			// Reduction keeps the hyper for every prior with full support; with zeros in the
			// prior, distinct columns can give equal posteriors, so compare as sets.
			if !sameHyper(h, hr) {
				t.Errorf("trial %d: the reduced channel has another hyper", trial)
			}
		}
		B := randomChannel(rng, m, 1+rng.IntN(5), 9, true)
		D := randomChannel(rng, B.Cols, 1+rng.IntN(5), 9, true)
		ab, _ := Cascade(C, B)
		l, _ := Cascade(ab, D)
		bd, _ := Cascade(B, D)
		r, _ := Cascade(C, bd)
		if !equalMatrices(l, r) || ValidateChannel("cascade", l) != nil {
			t.Errorf("trial %d: (CB)D ≠ C(BD)", trial)
		}
		E := randomChannel(rng, n, 1+rng.IntN(3), 5, true)
		par, _ := Parallel(C, E)
		if ValidateChannel("parallel", par) != nil {
			t.Errorf("trial %d: parallel is not a channel", trial)
		}
		// Summing out B's output gives A back.
		for x := 0; x < n; x++ {
			for y := 0; y < m; y++ {
				s := new(big.Rat)
				for z := 0; z < E.Cols; z++ {
					s.Add(s, par.At(x, y*E.Cols+z))
				}
				if s.Cmp(C.At(x, y)) != 0 {
					t.Errorf("trial %d: marginal of A∥B at [%d][%d] is %s", trial, x, y, s.RatString())
				}
			}
		}
	}
	// Merging: proportional columns give one posterior, and their outputs are listed.
	h, _ := Hyper(vec("1/2", "1/2"), mtx(row("1/4", "1/4", "1/2"), row("1/8", "1/8", "3/4")))
	if len(h.Outer) != 2 || len(h.Outputs[0]) != 2 || h.Outer[0].Cmp(MustParse("3/8")) != 0 {
		t.Errorf("merge: %v %v", h.Outer.Strings(), h.Outputs)
	}
	red, _ := Reduce(mtx(row("1/4", "0", "1/4", "1/2"), row("1/8", "0", "1/8", "3/4")))
	if got := strings.Join(red.Channel.Strings(), " "); got != "1/2 1/2 1/4 3/4" {
		t.Errorf("reduce: %s %v", got, red.Columns)
	}
}

func sameHyper(a, b *HyperDistribution) bool {
	w := map[string]string{}
	for k := range a.Outer {
		w[key(a.Inners.Row(k))] = a.Outer[k].RatString()
	}
	if len(w) != len(b.Outer) {
		return false
	}
	for k := range b.Outer {
		if w[key(b.Inners.Row(k))] != b.Outer[k].RatString() {
			return false
		}
	}
	return true
}

// Errors give the exact sum, abbreviated when it has hundreds of digits.
func TestLongSumInMessage(t *testing.T) {
	err := ValidateDistribution("prior", vec("1e-300", "1"))
	want := "prior: sums to 100000000000…000001/100000000000…000000 (301/301 digits, ≈ 1), expected exactly 1"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if err := ValidateDistribution("prior", vec("1/3", "1/3")); err == nil || err.Error() != "prior: sums to 2/3, expected exactly 1" {
		t.Errorf("short sums stay whole: %v", err)
	}
}

// A 700×700 channel typed with a different 21-bit denominator per row (a prime each, so the
// common denominator of the whole channel would have about 14,700 bits): the Bayes-risk
// capacity (n²/2 row distances) is refused on the sizes alone, and the additive capacity over
// 1-spanning vulnerabilities — which needs only the column minima — is computed and agrees
// with the same sum taken in floating point.
func TestLargeChannelRefusedOrComputedWithoutCommonDenominator(t *testing.T) {
	n := 700
	rng := rand.New(rand.NewPCG(71, 72))
	C := NewMatrix(n, n)
	d := int64(1_000_003)
	for x := 0; x < n; x++ {
		for !big.NewInt(d).ProbablyPrime(10) {
			d += 2
		}
		rem := d
		for y := 0; y < n; y++ {
			a := min(rem, int64(rng.IntN(int(2*d/int64(n)))))
			if y == n-1 {
				a = rem
			}
			rem -= a
			C.Data[x*n+y] = big.NewRat(a, d)
		}
		d += 2
	}
	prior := make(Vector, n)
	for i := range prior {
		prior[i] = big.NewRat(1, int64(n))
	}
	start := time.Now()
	if _, _, err := MultiplicativeBayesRiskCapacity(C); err == nil || !strings.Contains(err.Error(), "too large for exact arithmetic") {
		t.Errorf("Bayes-risk capacity: %v", err)
	}
	t.Logf("refused in %v", time.Since(start))
	got, err := AdditiveGCapacity(prior, C, "")
	if err != nil {
		t.Fatal(err)
	}
	want := 1.0
	for y := 0; y < n; y++ {
		m := math.Inf(1)
		for x := 0; x < n; x++ {
			v, _ := C.At(x, y).Float64()
			m = math.Min(m, v)
		}
		want -= m
	}
	if f, _ := got.Float64(); math.Abs(f-want) > 1e-12 {
		t.Errorf("additive capacity %v, floating point %v", f, want)
	}
}
