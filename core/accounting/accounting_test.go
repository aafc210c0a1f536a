package accounting

import (
	"context"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/argerr"
	"gonum.org/v1/gonum/mat"
)

var bg = context.Background()

// phi is the standard normal CDF, written here apart from the package's own.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// bisect is the least ε ≥ 0 with f(ε) ≤ δ for a decreasing f, by plain bisection.
func bisect(f func(float64) float64, delta float64) float64 {
	lo, hi := 0.0, 1.0
	for f(hi) > delta {
		hi *= 2
	}
	for i := 0; i < 200; i++ {
		mid := (lo + hi) / 2
		if f(mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// negligible is an event that forces the privacy loss distribution without changing the
// answer beyond rounding (a Laplace mechanism of loss at most 1e-9).
var negligible = Event{Mechanism: Laplace, Scale: 1e9}

// Any mix of Gaussians is one Gaussian with μ² = Σ kᵢ(Δᵢ/σᵢ)², whose δ(ε) is Balle and Wang's
// formula: checked by the formula written here, and the PLD's interval must contain it.
func TestGaussianMixExact(t *testing.T) {
	events := []Event{{Mechanism: Gaussian, Sigma: 2, Count: 5}, {Mechanism: Gaussian, Sigma: 0.7, Sensitivity: 0.5, Count: 3}, {Mechanism: Gaussian, Sigma: 5}}
	mu := math.Sqrt(5*0.25 + 3*(0.5/0.7)*(0.5/0.7) + 0.04)
	exact := func(e float64) float64 { return phi(-e/mu+mu/2) - math.Exp(e)*phi(-e/mu-mu/2) }
	for _, delta := range []float64{1e-3, 1e-5, 1e-8} {
		want := bisect(exact, delta)
		r, err := Epsilon(bg, events, delta, nil)
		if err != nil || r.Method != MethodGaussianDP || math.Abs(r.Epsilon-want) > 1e-9*want {
			t.Fatalf("δ=%g: %+v %v, want ε=%v by the closed form", delta, r, err, want)
		}
		p, err := Epsilon(bg, append(events, negligible), delta, &Options{Tolerance: 1e-3})
		if err != nil || p.Method != MethodPLD || !(p.Lower <= want+1e-9 && want <= p.Upper+1e-9) || p.Upper-p.Lower > 1e-3*p.Upper {
			t.Errorf("δ=%g: PLD [%v, %v] does not contain %v at the width asked (%+v, %v)", delta, p.Lower, p.Upper, want, p.Details, err)
		}
	}
	for _, e := range []float64{0, 0.5, 2, 5} {
		d, _ := Delta(bg, events, e, nil)
		if math.Abs(d.Delta-exact(e)) > 1e-12 {
			t.Errorf("δ(%v) = %v, want %v", e, d.Delta, exact(e))
		}
	}
}

// kovExact is Kairouz, Oh and Viswanath's sum for k pure ε₀ mechanisms, in 256-bit floats:
// δ(ε) = Σ_i C(k,i) p^{k−i}(1−p)^i (1 − e^{ε−(k−2i)ε₀})₊, p = e^{ε₀}/(1+e^{ε₀}).
func kovExact(k int, eps0, eps float64) float64 {
	const prec = 256
	f := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	// e^x to 256 bits from its series (|x| is small enough here to converge fast with halving).
	exp := func(x float64) *big.Float {
		n := 0
		for math.Abs(x) > 0.5 {
			x /= 2
			n++
		}
		sum, term := f(1), f(1)
		for i := 1; i < 80; i++ {
			term.Mul(term, f(x))
			term.Quo(term, f(float64(i)))
			sum.Add(sum, term)
		}
		for ; n > 0; n-- {
			sum.Mul(sum, sum)
		}
		return sum
	}
	e0 := exp(eps0)
	p := new(big.Float).SetPrec(prec).Quo(e0, new(big.Float).SetPrec(prec).Add(f(1), e0))
	q := new(big.Float).SetPrec(prec).Sub(f(1), p)
	total := f(0)
	for i := 0; i <= k; i++ {
		loss := float64(k-2*i) * eps0
		if loss <= eps {
			continue
		}
		c := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Binomial(int64(k), int64(i)))
		for j := 0; j < k-i; j++ {
			c.Mul(c, p)
		}
		for j := 0; j < i; j++ {
			c.Mul(c, q)
		}
		factor := new(big.Float).SetPrec(prec).Sub(f(1), exp(eps-loss))
		total.Add(total, c.Mul(c, factor))
	}
	out, _ := total.Float64()
	return out
}

// The optimal composition of k pure mechanisms is the exact sum (computed here in 256-bit
// arithmetic); the PLD's interval contains it.
func TestPureExactSum(t *testing.T) {
	for _, c := range []struct {
		k    int
		eps0 float64
	}{{10, 0.1}, {50, 0.3}, {200, 0.05}} {
		for _, eps := range []float64{0, 0.5, 1.3} {
			want := kovExact(c.k, c.eps0, eps)
			for _, mech := range []string{Pure, RandomizedResponse, Geometric} {
				d, err := Delta(bg, []Event{{Mechanism: mech, Epsilon: c.eps0, Count: c.k}}, eps, nil)
				if err != nil || d.Method != MethodOptimalComposition || math.Abs(d.Delta-want) > 1e-12*math.Max(want, 1e-3) {
					t.Fatalf("k=%d ε₀=%v %s δ(%v) = %+v %v, want %v", c.k, c.eps0, mech, eps, d, err, want)
				}
			}
			if c.k > 50 || eps > 1 {
				continue // the PLD's bracket is checked on the smaller cases (each takes a second)
			}
			p, err := Delta(bg, []Event{{Mechanism: Pure, Epsilon: c.eps0, Count: c.k}, negligible}, eps, &Options{Tolerance: 1e-3})
			if err != nil || !(p.Lower <= want*(1+1e-9) && want <= p.Upper*(1+1e-9)) {
				t.Errorf("k=%d ε₀=%v: PLD δ(%v) ∈ [%v, %v], exact %v (%v)", c.k, c.eps0, eps, p.Lower, p.Upper, want, err)
			}
		}
	}
	// Large k: the sum in logs keeps its digits (k = 10⁵, checked against the normal limit's
	// neighbourhood and the upper bound by advanced composition).
	r, err := Epsilon(bg, []Event{{Mechanism: Pure, Epsilon: 0.01, Count: 100000}}, 1e-6, nil)
	if err != nil || math.IsNaN(r.Epsilon) || r.Epsilon <= 0 {
		t.Fatalf("k=1e5: %+v %v", r, err)
	}
	adv := 0.01*math.Sqrt(2*1e5*math.Log(1e6)) + 1e5*0.01*math.Expm1(0.01)
	if !(r.Epsilon < adv) || !(r.Epsilon > 0.01*math.Sqrt(1e5)) {
		t.Errorf("k=1e5: ε = %v, not below advanced composition %v", r.Epsilon, adv)
	}
}

// A 3×3 channel composed 20 times, every pair of rows neighbours: δ(ε) by enumerating the output
// types here (multinomial counts), the maximum over ordered pairs of rows.
func TestChannelTwentyTimes(t *testing.T) {
	C := mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.25, 0.25, 0.5})
	const k = 20
	lf := func(n int) float64 { v, _ := math.Lgamma(float64(n + 1)); return v }
	exact := func(eps float64) float64 {
		best := 0.0
		for x := 0; x < 3; x++ {
			for y := 0; y < 3; y++ {
				if x == y {
					continue
				}
				d := 0.0
				for a := 0; a <= k; a++ {
					for b := 0; a+b <= k; b++ {
						c := k - a - b
						lp := lf(k) - lf(a) - lf(b) - lf(c)
						lq := lp
						n := [3]int{a, b, c}
						for j := 0; j < 3; j++ {
							lp += float64(n[j]) * math.Log(C.At(x, j))
							lq += float64(n[j]) * math.Log(C.At(y, j))
						}
						d += math.Max(math.Exp(lp)-math.Exp(eps+lq), 0)
					}
				}
				best = math.Max(best, d)
			}
		}
		return best
	}
	events := []Event{{Mechanism: Channel, Channel: C, Count: k}}
	for _, eps := range []float64{0, 1, 3, 6} {
		want := exact(eps)
		d, err := Delta(bg, events, eps, nil)
		if err != nil || d.Method != MethodEnumeration || math.Abs(d.Delta-want) > 1e-12 {
			t.Errorf("δ(%v) = %+v %v, want %v", eps, d, err, want)
		}
		p, err := Delta(bg, append(events, negligible), eps, &Options{Tolerance: 1e-3})
		if err != nil || !(p.Lower <= want+1e-12 && want <= p.Upper+1e-12) {
			t.Errorf("PLD δ(%v) ∈ [%v, %v], exact %v (%v)", eps, p.Lower, p.Upper, want, err)
		}
	}
	r, _ := Epsilon(bg, events, 1e-3, nil)
	if got := exact(r.Epsilon); got > 1e-3*(1+1e-9) || exact(r.Epsilon*(1-1e-6)) <= 1e-3 {
		t.Errorf("ε(1e-3) = %v is not the least ε with δ(ε) ≤ 1e-3 (δ there %v)", r.Epsilon, got)
	}
	if !strings.Contains(r.Details.Computed, "ordered pairs") || r.Details.Scenarios != 6 {
		t.Errorf("details %+v", r.Details)
	}
}

// One Laplace mechanism, a = Δ/b: δ(ε) = 1 − e^{(ε−a)/2} on [0, a] (the hockey-stick divergence
// of two Laplace laws, integrated by hand); the PLD's interval contains it, and narrows with the
// tolerance. Two directions of a subsampled Laplace are both accounted.
func TestIntervalContainsExact(t *testing.T) {
	for _, a := range []float64{0.3, 1, 2.5} {
		for _, eps := range []float64{0, a / 3, a * 0.9} {
			want := -math.Expm1((eps - a) / 2)
			for _, tol := range []float64{1e-2, 1e-4} {
				d, err := Delta(bg, []Event{{Mechanism: Laplace, Scale: 1 / a}}, eps, &Options{Tolerance: tol})
				if err != nil || !(d.Lower <= want*(1+1e-12) && want <= d.Upper*(1+1e-12)) || d.Upper-d.Lower > tol*d.Upper {
					t.Errorf("a=%v δ(%v) ∈ [%v, %v] tol %v, exact %v (%v)", a, eps, d.Lower, d.Upper, tol, want, err)
				}
			}
		}
	}
	// Subsampled randomized response is finite: enumerated exactly, both directions; the PLD
	// (forced) contains it.
	ev := []Event{{Mechanism: Subsampled, Rate: 0.3, Of: &Event{Mechanism: RandomizedResponse, Epsilon: 2}, Count: 30}}
	ex, err := Epsilon(bg, ev, 1e-4, nil)
	if err != nil || ex.Method != MethodEnumeration || ex.Details.Scenarios != 2 {
		t.Fatalf("%+v %v", ex, err)
	}
	p, err := Epsilon(bg, append(ev, negligible), 1e-4, nil)
	if err != nil || !(p.Lower <= ex.Epsilon+1e-9 && ex.Epsilon <= p.Upper+1e-9) {
		t.Errorf("subsampled RR: PLD [%v, %v], exact %v", p.Lower, p.Upper, ex.Epsilon)
	}
}

// δ(ε) is non-increasing in ε, and the lower curve is below the upper one.
func TestProfileMonotone(t *testing.T) {
	eps := []float64{0, 0.25, 0.5, 1, 1.5, 2, 3, 4, 6}
	for _, ev := range [][]Event{
		{{Mechanism: Laplace, Scale: 2, Count: 10}},
		{{Mechanism: Subsampled, Rate: 0.05, Of: &Event{Mechanism: Gaussian, Sigma: 1.2}, Count: 200}},
		{{Mechanism: Gaussian, Sigma: 3, Count: 4}, {Mechanism: Pure, Epsilon: 0.2, Count: 5}},
	} {
		r, err := Profile(bg, ev, eps, &Options{Tolerance: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		for i := range eps {
			if r.DeltaLower[i] > r.Delta[i] || (i > 0 && r.Delta[i] > r.Delta[i-1]) || (i > 0 && r.DeltaLower[i] > r.DeltaLower[i-1]+1e-15) {
				t.Errorf("%v: not monotone at %v: %v %v", ev[0].Mechanism, eps[i], r.Delta, r.DeltaLower)
			}
		}
	}
}

// Naive, advanced and Rényi bounds are each at least the exact (or certified lower) value.
func TestBoundsAboveExact(t *testing.T) {
	cases := [][]Event{
		{{Mechanism: Pure, Epsilon: 0.1, Count: 10}},
		{{Mechanism: Pure, Epsilon: 0.1, Count: 500}},
		{{Mechanism: Pure, Epsilon: 1, Count: 3}},
		{{Mechanism: Laplace, Scale: 10, Count: 100}},
		{{Mechanism: Approximate, Epsilon: 0.2, Delta: 1e-7, Count: 50}},
		{{Mechanism: Gaussian, Sigma: 4, Count: 20}},
		{{Mechanism: Subsampled, Rate: 0.01, Of: &Event{Mechanism: Gaussian, Sigma: 1}, Count: 1000}},
	}
	for _, ev := range cases {
		c, err := Compare(bg, ev, 1e-5, &Options{Tolerance: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		floor := c.PLDLower
		if c.Exact != nil {
			floor = c.Exact.Epsilon
		}
		for name, b := range map[string]*Bound{"naive": c.Naive, "advanced": c.Advanced, "rdp": c.RDP} {
			if b != nil && b.Epsilon < floor*(1-1e-9) {
				t.Errorf("%s ×%d: %s %v below the exact %v", ev[0].Mechanism, ev[0].Count, name, b.Epsilon, floor)
			}
		}
		if (c.Naive == nil) != (ev[0].Mechanism == Gaussian || (ev[0].Of != nil && ev[0].Of.Mechanism == Gaussian)) {
			t.Errorf("%s: naive present: %v", ev[0].Mechanism, c.Naive != nil)
		}
		if ev[0].Mechanism != Approximate && c.RDP == nil {
			t.Errorf("%s: no Rényi bound", ev[0].Mechanism)
		}
	}
	// Few events: advanced composition exceeds the naive bound (both shown).
	c, _ := Compare(bg, []Event{{Mechanism: Pure, Epsilon: 1, Count: 3}}, 1e-5, nil)
	if !(c.Advanced.Epsilon > c.Naive.Epsilon) || c.Naive.Epsilon != 3 {
		t.Errorf("naive %v advanced %v", c.Naive.Epsilon, c.Advanced.Epsilon)
	}
}

// δ = 0: the greatest loss (ε = Σ εᵢ for pure mechanisms), ∞ for a Gaussian, said as such.
func TestDeltaZero(t *testing.T) {
	r, err := Epsilon(bg, []Event{{Mechanism: Gaussian, Sigma: 1}}, 0, nil)
	if err != nil || !math.IsInf(r.Epsilon, 1) || !strings.Contains(r.Details.Note, "Gaussian") {
		t.Errorf("%+v %v", r, err)
	}
	r, err = Epsilon(bg, []Event{{Mechanism: Laplace, Scale: 2, Count: 4}, {Mechanism: Pure, Epsilon: 0.3}}, 0, nil)
	if err != nil || math.Abs(r.Epsilon-2.3) > 1e-12 || r.Lower != r.Upper {
		t.Errorf("%+v %v", r, err)
	}
}

// Values of Google's dp_accounting (PLD, value_discretization_interval 1e-4, pessimistic
// estimate; the copy at commit b5b0286 run once by bench/accounting/peer.py): the certified
// interval here must contain them up to their own discretization, and be within 1e-3.
func TestAgainstDPAccounting(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds")
	}
	for _, c := range []struct {
		name   string
		events []Event
		peer   float64
	}{
		{"1e6 Gaussians σ=1000", []Event{{Mechanism: Gaussian, Sigma: 1000, Count: 1000000}}, 4.377178100028768},
		{"1e6 Laplace b=1000", []Event{{Mechanism: Laplace, Scale: 1000, Count: 1000000}}, 4.376327072077736},
		{"DP-SGD q=0.01 σ=1 ×1e4", []Event{{Mechanism: Subsampled, Rate: 0.01, Of: &Event{Mechanism: Gaussian, Sigma: 1}, Count: 10000}}, 6.187744976039963},
		// from_laplace_mechanism(parameter=1, sampling_prob=0.1).self_compose(100)
		{"subsampled Laplace q=0.1 b=1 ×100", []Event{{Mechanism: Subsampled, Rate: 0.1, Of: &Event{Mechanism: Laplace, Scale: 1}, Count: 100}}, 4.152301140349795},
	} {
		r, err := Epsilon(bg, c.events, 1e-5, &Options{Tolerance: 1e-4})
		if err != nil || math.Abs(r.Epsilon-c.peer) > 1e-3 || r.Upper-r.Lower > 1e-2*r.Epsilon {
			t.Errorf("%s: %+v %v, dp_accounting %v", c.name, r, err, c.peer)
		}
	}
}

// dp_accounting, from_gaussian_mechanism(standard_deviation=2, sampling_prob=0.3), 50-fold, at
// δ = 1e-6 (discretization 1e-4): the interval at the default tolerance holds it within its width.
func TestSubsampledGaussianAgainstDPAccounting(t *testing.T) {
	const peer = 6.103555683363146
	r, err := Epsilon(bg, []Event{{Mechanism: Subsampled, Rate: 0.3, Of: &Event{Mechanism: Gaussian, Sigma: 2}, Count: 50}}, 1e-6, nil)
	if err != nil || r.Details.Scenarios != 2 || !(r.Lower-1e-4 <= peer && peer <= r.Upper+1e-4) {
		t.Errorf("%+v %v, dp_accounting %v", r, err, peer)
	}
}

// Bad input: errors name the argument.
func TestBadInput(t *testing.T) {
	cases := []struct {
		events []Event
		delta  float64
		arg    string
		detail string
	}{
		{nil, 1e-5, "events", "empty"},
		{[]Event{{Mechanism: "gausian", Sigma: 1}}, 1e-5, "events[0].mechanism", `did you mean "gaussian"`},
		{[]Event{{Mechanism: Gaussian, Sigma: 0}}, 1e-5, "events[0].sigma", "positive"},
		{[]Event{{Mechanism: Gaussian, Sigma: -1}}, 1e-5, "events[0].sigma", "positive"},
		{[]Event{{Mechanism: Subsampled, Rate: 1.5, Of: &Event{Mechanism: Pure, Epsilon: 1}}}, 1e-5, "events[0].rate", "(0, 1]"},
		{[]Event{{Mechanism: Subsampled, Rate: 0, Of: &Event{Mechanism: Pure, Epsilon: 1}}}, 1e-5, "events[0].rate", "(0, 1]"},
		{[]Event{{Mechanism: Subsampled, Rate: 0.5, Of: &Event{Mechanism: Pure, Epsilon: -1}}}, 1e-5, "events[0].of.epsilon", "positive"},
		{[]Event{{Mechanism: Approximate, Epsilon: 1, Delta: 1}}, 1e-5, "events[0].delta", "[0, 1)"},
		{[]Event{{Mechanism: Pure, Epsilon: 1, Count: -2}}, 1e-5, "events[0].count", "positive integer"},
		{[]Event{{Mechanism: Channel, Channel: mat.NewDense(2, 2, []float64{0.5, 0.4, 0.5, 0.5})}}, 1e-5, "events[0].channel", "sums to"},
		{[]Event{{Mechanism: Pure, Epsilon: 1}}, 1, "delta", "[0, 1)"},
		{[]Event{{Mechanism: Pure, Epsilon: 1}}, -0.1, "delta", "[0, 1)"},
	}
	for _, c := range cases {
		_, err := Epsilon(bg, c.events, c.delta, nil)
		var ae *argerr.Error
		if !errors.As(err, &ae) || ae.Arg != c.arg || !strings.Contains(err.Error(), c.detail) {
			t.Errorf("%v: error %v, want argument %s with %q", c.events, err, c.arg, c.detail)
		}
	}
	// JSON: unknown keys, counts, NaN written as {$number}.
	for text, want := range map[string]string{
		`[{"mechanism": "pure", "epsilon": 1, "sigma": 2}]`:                      `events[0]: unknown key "sigma"`,
		`[{"mechanism": "pure", "epsilon": 1, "count": 2.5}]`:                    "events[0].count: expected a positive integer",
		`[{"mechanism": "gaussian", "sigma": {"$number": "NaN"}}]`:               "", // decoded; Validate refuses it
		`{"mechanism": "pure"}`:                                                  "events: expected an array",
		`[{"mechanism": "laplace", "scale": 1, "sensitivity": 0}]`:               "events[0].sensitivity: expected a positive",
		`[{"mechanism": "channel", "channel": [[1, 0], [0.5]]}]`:                 "events[0].channel: row 1",
		`[{"mechanism": "subsampled", "rate": 0.1, "of": {"mechanism": "pur"}}]`: `did you mean "pure"`,
	} {
		ev, err := DecodeEvents(text)
		if want == "" {
			if err == nil {
				_, err = Epsilon(bg, ev, 1e-5, nil)
			}
			if err == nil || !strings.Contains(err.Error(), "events[0].sigma: expected a positive finite number, got NaN") {
				t.Errorf("%s: %v", text, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", text, err, want)
		}
	}
}

// For a large k only the binomial types near the mean are summed: the same δ(ε) as the sum over
// every type where both can be computed.
func TestKfoldSignificantTypes(t *testing.T) {
	d := rrSource(0.02, 0)
	all, ok1 := kfold(d, 200000)
	near, ok2 := kfold2(d, 200000)
	if !ok1 || !ok2 || len(near.l) >= len(all.l) {
		t.Fatalf("%v %v %d %d", ok1, ok2, len(near.l), len(all.l))
	}
	// Both are normalized to the total mass; what remains is lgamma's rounding term by term in
	// the full sum (about 1e-16 of lgamma(k) ≈ 2·10⁶, so 1e-10 in the log of a term).
	for _, eps := range []float64{0, 30, 45, 60, 75} {
		if a, b := all.delta(eps), near.delta(eps); math.Abs(a-b) > 1e-10*math.Max(a, 1e-3) {
			t.Errorf("δ(%v): %v over every type, %v near the mean", eps, a, b)
		}
	}
}
