package accounting

import (
	"context"
	"math"
)

// Bound is one accountant's ε at the δ asked, with what it guarantees in words.
type Bound struct {
	Epsilon   float64
	Guarantee string
}

// Comparison is ε(δ) of the same composition by each accountant; a nil bound does not apply
// (naive and advanced need every event to be (ε, δ)-DP; Rényi DP needs a Rényi closed form for
// every event; Exact needs a closed form).
type Comparison struct {
	Naive, Advanced, RDP, PLD, Exact *Bound
	// PLDLower is the certified lower end of the PLD's interval.
	PLDLower float64
}

// eventDP is an (ε, δ) that the event satisfies by itself (ok false for the Gaussian, which
// satisfies none with δ = 0 and a family otherwise).
func eventDP(e *Event) (eps, delta float64, ok bool) {
	switch e.Mechanism {
	case Laplace:
		return e.sensitivity() / e.Scale, 0, true
	case Geometric, RandomizedResponse, Pure:
		return e.Epsilon, 0, true
	case Approximate:
		return e.Epsilon, e.Delta, true
	case Channel:
		for _, ed := range edgeList([]Event{*e}) {
			d := pairSource(e.Channel.RawRowView(ed[0]), e.Channel.RawRowView(ed[1]))
			if d.pInf > 0 {
				return math.Inf(1), 0, true
			}
			_, hi := d.bounds()
			eps = math.Max(eps, hi)
		}
		return eps, 0, true
	case Subsampled:
		eps, delta, ok = eventDP(e.Of)
		// Amplification by subsampling: ln(1 + q(e^ε − 1)), qδ.
		return math.Log1p(e.Rate * math.Expm1(eps)), e.Rate * delta, ok
	}
	return 0, 0, false
}

// naiveAdvanced is the basic composition theorem and the advanced one of Dwork, Rothblum and
// Vadhan (in its form for mechanisms with different εᵢ: √(2 ln(1/δ') Σ εᵢ²) + Σ εᵢ(e^{εᵢ} − 1)
// at δ = Σ δᵢ + δ'), or nil when an event is not (ε, δ)-DP.
func naiveAdvanced(events []Event, delta float64) (naive, adv *Bound) {
	var sum, sum2, drift, sumDelta float64
	for i := range events {
		eps, d, ok := eventDP(&events[i])
		if !ok {
			return nil, nil
		}
		k := float64(events[i].count())
		sum += k * eps
		sum2 += k * eps * eps
		drift += k * eps * math.Expm1(eps)
		sumDelta += k * d
	}
	naive = &Bound{Epsilon: sum, Guarantee: "upper bound: basic composition, (Σεᵢ, Σδᵢ)-DP; infinite when Σδᵢ exceeds the δ asked"}
	adv = &Bound{Epsilon: math.Sqrt(2*math.Log(1/(delta-sumDelta))*sum2) + drift,
		Guarantee: "upper bound: advanced composition (Dwork, Rothblum, Vadhan 2010) at δ' = δ − Σδᵢ; may exceed the naive bound for few events"}
	if sumDelta > delta {
		naive.Epsilon = math.Inf(1)
	}
	if !(delta-sumDelta > 0) || math.IsInf(sum, 1) {
		adv.Epsilon = math.Inf(1)
	}
	return naive, adv
}

// Compare computes ε(δ) of the composition by every accountant that applies.
func Compare(ctx context.Context, events []Event, delta float64, opts *Options) (*Comparison, error) {
	r, err := Epsilon(ctx, events, delta, opts)
	if err != nil {
		return nil, err
	}
	c := &Comparison{PLD: &Bound{Epsilon: r.Upper, Guarantee: "certified upper bound: pessimistic privacy loss distribution (the lower end of its interval is pldLower)"}, PLDLower: r.Lower}
	if r.Method != MethodPLD {
		c.Exact = &Bound{Epsilon: r.Epsilon, Guarantee: "exact (" + r.Method + "): the least ε with δ(ε) ≤ δ"}
		c.PLD.Guarantee = "exact: a closed form applies, the PLD is not needed"
	}
	c.Naive, c.Advanced = naiveAdvanced(events, delta)
	if eps, ok := rdpEpsilon(scenarios(events), delta); ok {
		c.RDP = &Bound{Epsilon: eps, Guarantee: "upper bound: Rényi DP composed and converted to (ε, δ) by Canonne, Kamath and Steinke (2020), best order"}
	}
	return c, nil
}
