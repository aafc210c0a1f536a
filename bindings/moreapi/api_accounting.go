package moreapi

import (
	"context"
	"errors"
	. "github.com/qif-toolkit/qif/bindings/table"

	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/accounting"
)

// The papers of privacy accounting.
const (
	kov       = "Kairouz et al. (ICML 2015)"
	balleWang = "Balle and Wang (ICML 2018)"
	zhu       = "Zhu et al. (AISTATS 2022)"
)

var (
	pEvents = Param{Name: "events", Kind: table.KindEvents,
		Doc: "the mechanisms composed: an array of {mechanism, count?, ...} (gaussian sigma, laplace scale, geometric/randomizedResponse/pure epsilon, approximate epsilon and delta, channel with graph?, subsampled rate and of)"}
	fTolerance    = Param{Name: "tolerance", Kind: KindNumber, Check: CheckPositive, Default: accounting.DefaultTolerance, Doc: "relative width asked of the certified interval"}
	fPassProgress = Param{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"done", "total"}, Doc: "called after each pass of the privacy loss distribution (each on a finer grid) with the passes done and the most there may be; return false to cancel"}
	tDetails      = Type{Name: "AccountingDetails", Doc: "How an accounting result was computed.", Fields: []Field{
		{Name: "scenarios", Type: Number, Doc: "Pairs of neighbouring data sets (ordered edges of a channel's graph, orientations of subsampled events) accounted; the result is the worst."},
		{Name: "grid", Type: Number, Doc: "Width h of the loss grid of the last pass (0 for a closed form)."},
		{Name: "passes", Type: Number, Doc: "Passes of the privacy loss distribution (0 for a closed form)."},
		{Name: "computed", Type: String, Doc: "What the maximum is taken over, in words."},
		{Name: "note", Type: String, Optional: true, Doc: "What the number alone does not say (ε = ∞ at δ = 0 for a Gaussian, a tolerance not reached)."}}}
	tBound = Type{Name: "AccountingBound", Doc: "One accountant's ε.", Fields: []Field{
		{Name: "epsilon", Type: Number, Doc: "ε at the δ asked (Infinity when the accountant gives none)."},
		{Name: "guarantee", Type: String, Doc: "What it guarantees, in words."}}}
)

// eventsOf decodes the events argument.
func eventsOf(a *Args) ([]accounting.Event, error) { return accounting.DecodeEvents(a.Str("events")) }

// passOptions are the core's options from the call's tolerance and onProgress.
func passOptions(a *Args) *accounting.Options {
	o := &accounting.Options{Tolerance: a.Float("tolerance")}
	if p := a.Progress("onProgress"); p != nil {
		o.Progress = func(done, total int) bool { return p(done, total) }
	}
	return o
}

// detailsObj is the details of a result as an object.
func detailsObj(d accounting.Details) Obj {
	o := Obj{"scenarios": d.Scenarios, "grid": d.Grid, "passes": d.Passes, "computed": d.Computed}
	if d.Note != "" {
		o["note"] = d.Note
	}
	return o
}

// boundObj is a bound as an object (nil stays absent).
func boundObj(b *accounting.Bound) any {
	if b == nil {
		return nil
	}
	return Obj{"epsilon": b.Epsilon, "guarantee": b.Guarantee}
}

// partial passes a result on, and a cancelled call's result as error.partial.
func partial(v Obj, err error) (any, error) {
	if errors.Is(err, context.Canceled) {
		return v, nil // Invoke reports the cancellation, with v as the partial result
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

var accountingAPI = []Func{
	{NS: "accounting", Name: "epsilon", Source: balleWang + "; " + kov + "; " + zhu,
		Params: []*Param{&pEvents, {Name: "options", Kind: KindOptions, Type: "AccountingEpsilonOptions", Fields: []*Param{
			{Name: "delta", Kind: KindNumber, Required: true, Doc: "δ, in [0, 1)"}, &fTolerance, &fPassProgress}}},
		Result: Type{Name: "AccountingEpsilon", Doc: "Result of accounting.epsilon.", Fields: []Field{
			{Name: "epsilon", Type: Number, Doc: "The least ε with δ(ε) ≤ δ for the composition, nats: upper unless a closed form gives it (Infinity when none)."},
			{Name: "lower", Type: Number, Doc: "Certified lower bound on ε."},
			{Name: "upper", Type: Number, Doc: "Certified upper bound on ε."},
			{Name: "method", Type: Type{TS: "'gaussian-dp' | 'optimal-composition' | 'enumeration' | 'pld'"}, Doc: "The closed form used, or 'pld' (pessimistic and optimistic privacy loss distributions)."},
			{Name: "details", Type: tDetails}}},
		Doc: "ε(δ) of a composition of mechanisms: the least ε such that the composition is (ε, δ)-DP, with a certified interval.",
		TeX: `\varepsilon(\delta) = \min\{\varepsilon : \max_{x \sim x'} H_{e^\varepsilon}(P_{x} \,\|\, P_{x'}) \le \delta\}`,
		Call: func(a *Args) (any, error) {
			ev, err := eventsOf(a)
			if err != nil {
				return nil, err
			}
			r, err := accounting.Epsilon(context.Background(), ev, a.Float("delta"), passOptions(a))
			if r == nil {
				return nil, err
			}
			return partial(Obj{"epsilon": r.Epsilon, "lower": r.Lower, "upper": r.Upper, "method": r.Method, "details": detailsObj(r.Details)}, err)
		}},
	{NS: "accounting", Name: "delta", Source: balleWang + "; " + kov + "; " + zhu,
		Params: []*Param{&pEvents, {Name: "options", Kind: KindOptions, Type: "AccountingDeltaOptions", Fields: []*Param{
			{Name: "epsilon", Kind: KindNumber, Required: true, Doc: "ε, nats, ≥ 0"}, &fTolerance, &fPassProgress}}},
		Result: Type{Name: "AccountingDelta", Doc: "Result of accounting.delta.", Fields: []Field{
			{Name: "delta", Type: Number, Doc: "δ(ε) of the composition: upper unless a closed form gives it."},
			{Name: "lower", Type: Number, Doc: "Certified lower bound on δ(ε)."},
			{Name: "upper", Type: Number, Doc: "Certified upper bound on δ(ε)."},
			{Name: "method", Type: Type{TS: "'gaussian-dp' | 'optimal-composition' | 'enumeration' | 'pld'"}},
			{Name: "details", Type: tDetails}}},
		Doc: "δ(ε) of a composition of mechanisms (the hockey-stick divergence at e^ε, worst neighbours), with a certified interval.",
		TeX: `\delta(\varepsilon) = \max_{x \sim x'} \sum_y \big(P_x(y) - e^\varepsilon P_{x'}(y)\big)_+`,
		Call: func(a *Args) (any, error) {
			ev, err := eventsOf(a)
			if err != nil {
				return nil, err
			}
			r, err := accounting.Delta(context.Background(), ev, a.Float("epsilon"), passOptions(a))
			if r == nil {
				return nil, err
			}
			return partial(Obj{"delta": r.Delta, "lower": r.Lower, "upper": r.Upper, "method": r.Method, "details": detailsObj(r.Details)}, err)
		}},
	{NS: "accounting", Name: "profile", Source: zhu,
		Params: []*Param{&pEvents, {Name: "options", Kind: KindOptions, Type: "AccountingProfileOptions", Fields: []*Param{
			{Name: "epsilons", Kind: KindVector, Required: true, Doc: "the ε (nats, ≥ 0) at which δ(ε) is wanted"}, &fTolerance, &fPassProgress}}},
		Result: Type{Name: "AccountingProfile", Doc: "Result of accounting.profile: the privacy curve.", Fields: []Field{
			{Name: "epsilon", Type: VectorOut, Doc: "The ε asked."},
			{Name: "delta", Type: VectorOut, Doc: "δ(ε): the certified upper bound (the exact value when a closed form applies)."},
			{Name: "deltaLower", Type: VectorOut, Doc: "The certified lower bound on δ(ε)."},
			{Name: "method", Type: Type{TS: "'gaussian-dp' | 'optimal-composition' | 'enumeration' | 'pld'"}}}},
		Doc: "The privacy curve δ(ε) of a composition at the ε given, upper and lower.",
		Call: func(a *Args) (any, error) {
			ev, err := eventsOf(a)
			if err != nil {
				return nil, err
			}
			r, err := accounting.Profile(context.Background(), ev, a.Vec("epsilons"), passOptions(a))
			if r == nil {
				return nil, err
			}
			return partial(Obj{"epsilon": r.Epsilon, "delta": r.Delta, "deltaLower": r.DeltaLower, "method": r.Method}, err)
		}},
	{NS: "accounting", Name: "compare", Source: balleWang + "; " + kov,
		Params: []*Param{&pEvents, {Name: "options", Kind: KindOptions, Type: "AccountingCompareOptions", Fields: []*Param{
			{Name: "delta", Kind: KindNumber, Required: true, Doc: "δ, in (0, 1) for the bounds (0 gives the exact or PLD value only)"}, &fTolerance}}},
		Result: Type{Name: "AccountingComparison", Doc: "Result of accounting.compare: ε(δ) by each accountant; every bound is ≥ the exact value.", Fields: []Field{
			{Name: "naive", Type: tBound, Optional: true, Doc: "Basic composition (Σεᵢ, Σδᵢ): present when every event is (ε, δ)-DP."},
			{Name: "advanced", Type: tBound, Optional: true, Doc: "Advanced composition (Dwork, Rothblum, Vadhan): present when every event is (ε, δ)-DP."},
			{Name: "rdp", Type: tBound, Optional: true, Doc: "Rényi DP converted (Canonne, Kamath, Steinke): present when every event has a Rényi closed form here."},
			{Name: "pld", Type: tBound, Doc: "The privacy loss distribution's certified upper bound."},
			{Name: "pldLower", Type: Number, Doc: "The certified lower bound of the same interval."},
			{Name: "exact", Type: tBound, Optional: true, Doc: "The exact value, when a closed form applies."}}},
		Doc: "ε(δ) of a composition by the naive, advanced, Rényi and PLD accountants (and exactly where a closed form exists), each labelled with what it guarantees.",
		Call: func(a *Args) (any, error) {
			ev, err := eventsOf(a)
			if err != nil {
				return nil, err
			}
			c, err := accounting.Compare(context.Background(), ev, a.Float("delta"), &accounting.Options{Tolerance: a.Float("tolerance")})
			if err != nil {
				return nil, err
			}
			o := Obj{"pld": boundObj(c.PLD), "pldLower": c.PLDLower}
			for k, b := range map[string]*accounting.Bound{"naive": c.Naive, "advanced": c.Advanced, "rdp": c.RDP, "exact": c.Exact} {
				if b != nil {
					o[k] = boundObj(b)
				}
			}
			return o, nil
		}},
}
