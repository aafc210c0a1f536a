package refine

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/mechanism"
	"gonum.org/v1/gonum/mat"
)

// Family is a family of mechanisms on the inputs 0..n−1 (docs/mathematics.md#mechanism-families,
// Chatzikokolakis et al. (CSF 2019) §6.1).
type Family int

const (
	// TruncatedGeometric is mechanism.TruncatedGeometric (m ≥ n outputs).
	TruncatedGeometric Family = iota
	// OverTruncatedGeometric is mechanism.OverTruncatedGeometric (m ≤ n outputs).
	OverTruncatedGeometric
	// RandomizedResponse is mechanism.RandomizedResponse.
	RandomizedResponse
	// Exponential is mechanism.Exponential parametrized, as in Chatzikokolakis et al. (CSF 2019) §6.1,
	// by its true ε for the metric |x − x'| (mechanism.ExponentialEpsilon): the nominal parameter is
	// found by bisection so that the true ε equals the requested one (relative 1e-12).
	Exponential
	// ExponentialNominal is mechanism.Exponential parametrized by its nominal ε (Chatzikokolakis et
	// al. (CSF 2019) Def. 12).
	ExponentialNominal
)

var familyNames = [...]string{"truncatedGeometric", "overTruncatedGeometric", "randomizedResponse", "exponential", "exponentialNominal"}

// String returns the family's name as ParseFamily accepts it ("truncatedGeometric", ...).
func (f Family) String() string {
	if f >= 0 && int(f) < len(familyNames) {
		return familyNames[f]
	}
	return fmt.Sprintf("Family(%d)", int(f))
}

// ParseFamily reads a family name: truncatedGeometric (or geometric), overTruncatedGeometric,
// randomizedResponse, exponential (true ε) or exponentialNominal; case-insensitive.
func ParseFamily(s string) (Family, error) {
	for i, name := range familyNames {
		if strings.EqualFold(s, name) {
			return Family(i), nil
		}
	}
	if strings.EqualFold(s, "geometric") {
		return TruncatedGeometric, nil
	}
	return 0, fmt.Errorf("family: unknown %q, expected one of %s", s, strings.Join(familyNames[:], ", "))
}

// Order is one of the three refinement orders.
type Order int

const (
	// OrderAvg is ⊑avg (Avg).
	OrderAvg Order = iota
	// OrderMax is ⊑max (Max).
	OrderMax
	// OrderPrv is ⊑prv (Prv).
	OrderPrv
)

var orderNames = [...]string{"avg", "max", "prv"}

// String returns "avg", "max" or "prv".
func (o Order) String() string {
	if o >= 0 && int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// ParseOrder reads "avg", "max" or "prv" (case-insensitive).
func ParseOrder(s string) (Order, error) {
	for i, name := range orderNames {
		if strings.EqualFold(s, name) {
			return Order(i), nil
		}
	}
	return 0, argerr.New("order", "unknown %q, expected avg, max or prv", s)
}

// Refines decides A ⊑ B for the given order with the default tolerances (opt may carry a
// context and a tolerance).
func Refines(order Order, A, B mat.Matrix, opt *Options) (bool, error) {
	switch order {
	case OrderAvg:
		r, err := AvgWith(A, B, opt)
		if err != nil {
			return false, err
		}
		return r.Holds, nil
	case OrderMax:
		r, err := MaxWith(A, B, opt)
		if err != nil {
			return false, err
		}
		return r.Holds, nil
	case OrderPrv:
		r, err := PrvWith(A, B, opt)
		if err != nil {
			return false, err
		}
		return r.Holds, nil
	}
	return false, argerr.New("order", "unknown order %d", int(order))
}

// Mechanism is a family with its numbers of inputs N and outputs M (M = 0 means M = N).
type Mechanism struct {
	Family Family
	N, M   int
}

func (m Mechanism) outputs() int {
	if m.M == 0 {
		return m.N
	}
	return m.M
}

// Channel returns the family's channel at privacy parameter eps.
func (m Mechanism) Channel(eps float64) (*mat.Dense, error) {
	k := m.outputs()
	switch m.Family {
	case TruncatedGeometric:
		return mechanism.TruncatedGeometric(m.N, eps, k)
	case OverTruncatedGeometric:
		return mechanism.OverTruncatedGeometric(m.N, k, eps)
	case RandomizedResponse:
		return mechanism.RandomizedResponse(m.N, eps, k)
	case ExponentialNominal:
		return mechanism.Exponential(m.N, eps, k)
	case Exponential:
		nominal, err := ExponentialNominalFor(m.N, eps, k)
		if err != nil {
			return nil, err
		}
		return mechanism.Exponential(m.N, nominal, k)
	}
	return nil, fmt.Errorf("family: unknown family %d", int(m.Family))
}

// ExponentialNominalFor returns the nominal ε' for which mechanism.Exponential(n, ε', m) has
// true ε (mechanism.ExponentialEpsilon) equal to eps, by bracketing and bisection to a relative
// 1e-12. When the true ε is identically 0 (n = 1 or m = 1: the channel does not depend on ε)
// it returns eps.
func ExponentialNominalFor(n int, eps float64, m int) (float64, error) {
	trueEps := func(e float64) (float64, error) { return mechanism.ExponentialEpsilon(n, e, m) }
	t, err := trueEps(eps)
	if err != nil {
		return 0, err
	}
	if t == 0 || t >= eps {
		return eps, nil
	}
	lo, hi := eps, 2*eps
	for i := 0; ; i++ {
		t, err := trueEps(hi)
		if err != nil {
			return 0, err
		}
		if t >= eps {
			break
		}
		if i == 60 || math.IsInf(hi, 0) {
			return 0, argerr.New("epsilon", "no exponential mechanism on %d inputs and %d outputs has true ε = %g", n, m, eps)
		}
		lo, hi = hi, 2*hi
	}
	for it := 0; hi-lo > 1e-12*hi && it < 200; it++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break // adjacent doubles (ε in the subnormal range): nothing left to halve
		}
		t, err := trueEps(mid)
		if err != nil {
			return 0, err
		}
		if t < eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}

// SearchOptions tune SafeEpsilon. Zero fields take the defaults.
type SearchOptions struct {
	// Context cancels the search; nil means context.Background().
	Context context.Context
	// Lo and Hi bound the searched ε2 (defaults ε1/1000 and 2·ε1).
	Lo, Hi float64
	// Resolution is the width at which the bisection stops (default ε1/1000): the largest
	// refining ε2 lies in [Epsilon2, Epsilon2 + Resolution]. It must be at least 4 units in the
	// last place of Hi, the finest width a bisection of doubles near Hi can reach.
	Resolution float64
}

// SafeEpsilonResult is the answer of SafeEpsilon for one ε1.
type SafeEpsilonResult struct {
	Epsilon1 float64
	// Epsilon2 is the largest ε2 found with F1(ε1) ⊑ F2(ε2): the refinement holds at Epsilon2
	// and fails at Epsilon2Fails (Epsilon2Fails − Epsilon2 ≤ Resolution). NaN when !Found.
	Epsilon2, Epsilon2Fails float64
	// Found is false when the refinement fails already at Lo.
	Found bool
	// Largest reports that Epsilon2 is within Resolution of the largest refining ε2 in [Lo, Hi]:
	// the refining ε2 form an interval because F2 is the truncated geometric or the randomized
	// response family, which refine themselves as ε decreases (see SafeEpsilon). When false,
	// Epsilon2 is a point where the verdict changes, each side verified, not known to be the
	// largest.
	Largest bool
	// AtUpper is true when the refinement still holds at Hi (Epsilon2 = Hi; the largest ε2
	// may be larger).
	AtUpper bool
	// Evaluations is the number of refinement tests made.
	Evaluations int
}

// SafeEpsilon returns the largest ε2 in [Lo, Hi] for which F1(ε1) ⊑ F2(ε2) under the order
// (Chatzikokolakis et al. (CSF 2019) §6.4, Figure 3), by bisection with the refinement test as the
// oracle, to the stated resolution. Bisection assumes that the refining ε2 form an interval [0,
// ε2*]: that holds within the truncated geometric and randomized response families and, across
// families, by transitivity whenever F2 refines itself for decreasing ε (Chatzikokolakis et al.
// (CSF 2019) Theorem 15; for the exponential family this rests on Conjecture 1 of Chatzikokolakis
// et al. (CSF 2019)). For the over-truncated geometric under ⊑avg or ⊑max it does not hold
// (Chatzikokolakis et al. (CSF 2019) Theorem 11): the result is then a point where the verdict
// changes, each side verified, not necessarily the largest.
func SafeEpsilon(f1 Mechanism, eps1 float64, f2 Mechanism, order Order, opt *SearchOptions) (*SafeEpsilonResult, error) {
	if math.IsNaN(eps1) || eps1 <= 0 || math.IsInf(eps1, 0) {
		return nil, argerr.New("epsilon1", "must be positive and finite, got %v", eps1)
	}
	if order < OrderAvg || order > OrderPrv {
		return nil, argerr.New("order", "unknown order %d", int(order))
	}
	var o SearchOptions
	if opt != nil {
		o = *opt
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"lo", o.Lo}, {"hi", o.Hi}, {"resolution", o.Resolution}} {
		if math.IsNaN(f.v) || f.v < 0 || math.IsInf(f.v, 0) {
			return nil, argerr.New(f.name, "must be a positive finite number (or 0 for the default), got %v", f.v)
		}
	}
	if o.Lo == 0 {
		o.Lo = eps1 / 1000
	}
	if o.Hi == 0 {
		o.Hi = 2 * eps1
	}
	if o.Resolution == 0 {
		o.Resolution = eps1 / 1000
	}
	if !(o.Lo < o.Hi) {
		return nil, fmt.Errorf("lo, hi: need lo < hi, got [%g, %g]", o.Lo, o.Hi)
	}
	// Below a few units in the last place the midpoint of [lo, hi] is lo or hi and a bisection
	// to that width would never end (resolution 1e−17 at ε ≈ 1 did not return).
	if floor := 4 * (math.Nextafter(o.Hi, math.Inf(1)) - o.Hi); o.Resolution < floor {
		return nil, argerr.New("resolution", "%g is finer than a double can resolve near ε2 = %g (4 units in the last place: %g)", o.Resolution, o.Hi, floor)
	}
	A, err := f1.Channel(eps1)
	if err != nil {
		return nil, fmt.Errorf("family1: %w", err)
	}
	res := &SafeEpsilonResult{Epsilon1: eps1, Epsilon2: math.NaN(), Epsilon2Fails: math.NaN(),
		Largest: f2.Family == TruncatedGeometric || f2.Family == RandomizedResponse}
	test := func(eps2 float64) (bool, error) {
		if err := o.Context.Err(); err != nil {
			return false, err
		}
		B, err := f2.Channel(eps2)
		if err != nil {
			return false, fmt.Errorf("family2: %w", err)
		}
		res.Evaluations++
		return Refines(order, A, B, &Options{Context: o.Context})
	}
	ok, err := test(o.Hi)
	if err != nil {
		return nil, err
	}
	if ok {
		res.Found, res.AtUpper, res.Epsilon2 = true, true, o.Hi
		return res, nil
	}
	ok, err = test(o.Lo)
	if err != nil {
		return nil, err
	}
	if !ok {
		res.Epsilon2Fails = o.Lo
		return res, nil
	}
	lo, hi := o.Lo, o.Hi
	for it := 0; hi-lo > o.Resolution && it < 2100; it++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		ok, err := test(mid)
		if err != nil {
			return nil, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	res.Found, res.Epsilon2, res.Epsilon2Fails = true, lo, hi
	return res, nil
}

// SafeEpsilonCurve runs SafeEpsilon for each ε1 in eps1s (the data of one curve of Chatzikokolakis
// et al. (CSF 2019) Figure 3). progress, when non-nil, is called after each point with the number
// done and the total; returning false stops the sweep. On cancellation (context or progress) it
// returns the points done so far together with the error.
func SafeEpsilonCurve(f1, f2 Mechanism, order Order, eps1s []float64, opt *SearchOptions, progress func(done, total int) bool) ([]SafeEpsilonResult, error) {
	if len(eps1s) == 0 {
		return nil, argerr.New("epsilon1", "empty list of values")
	}
	if len(eps1s) > 10000 {
		return nil, argerr.New("epsilon1", "%d values, at most 10000", len(eps1s))
	}
	out := make([]SafeEpsilonResult, 0, len(eps1s))
	for i, e := range eps1s {
		var o *SearchOptions
		if opt != nil {
			c := *opt
			o = &c
		}
		r, err := SafeEpsilon(f1, e, f2, order, o)
		if err != nil {
			return out, fmt.Errorf("epsilon1[%d] = %g: %w", i, e, err)
		}
		out = append(out, *r)
		if progress != nil && !progress(i+1, len(eps1s)) {
			return out, context.Canceled
		}
	}
	return out, nil
}
