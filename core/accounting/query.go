package accounting

import (
	"context"
	"errors"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
)

// tauProfile is the tail mass cut at each truncation when δ is not known in advance.
const tauProfile = 1e-18

// Delta is δ(ε) of the composition with a certified interval [Lower, Upper]; Delta is Upper
// unless a closed form gives it.
func Delta(ctx context.Context, events []Event, eps float64, opts *Options) (*DeltaResult, error) {
	if !(eps >= 0) || math.IsInf(eps, 1) {
		return nil, argerr.New("epsilon", "expected a non-negative finite number, got %v", eps)
	}
	if err := checkTolerance(opts); err != nil {
		return nil, err
	}
	scs, cfs, err := prepare(events)
	if err != nil {
		return nil, err
	}
	res := &DeltaResult{Method: MethodPLD, Details: Details{Scenarios: len(scs), Computed: computedWords(events, len(scs))}}
	if cfs != nil {
		res.Method = cfs[0].method
		for _, cf := range cfs {
			res.Upper = math.Max(res.Upper, cf.delta(eps))
			if cf.method != res.Method {
				res.Method = MethodEnumeration
			}
		}
		res.Lower, res.Delta = res.Upper, res.Upper
		return res, nil
	}
	err = refinePasses(ctx, scs, opts.tolerance(), tauProfile, 1e-14, false, opts, &res.Details, func(p, o []*pld) (float64, float64) {
		res.Upper, res.Lower = 0, 0
		for i := range p {
			res.Upper = math.Max(res.Upper, math.Min(p[i].delta(eps), 1))
			res.Lower = math.Max(res.Lower, o[i].delta(eps))
		}
		res.Lower = math.Min(res.Lower, res.Upper)
		res.Delta = res.Upper
		return res.Upper, res.Lower
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		return nil, err
	}
	return res, err
}

// ProfileResult is the privacy curve at the ε asked: Delta its upper bound (the exact value
// when a closed form applies), DeltaLower its lower bound.
type ProfileResult struct {
	Epsilon, Delta, DeltaLower []float64
	Method                     string
}

// Profile is δ(ε) of the composition at each ε of epsilons (certified upper and lower).
func Profile(ctx context.Context, events []Event, epsilons []float64, opts *Options) (*ProfileResult, error) {
	if len(epsilons) == 0 {
		return nil, argerr.New("epsilons", "empty: give at least one ε")
	}
	for i, e := range epsilons {
		if !(e >= 0) || math.IsInf(e, 1) {
			return nil, argerr.Entry("epsilons", i, "is %v, expected a non-negative finite number", e)
		}
	}
	if err := checkTolerance(opts); err != nil {
		return nil, err
	}
	scs, cfs, err := prepare(events)
	if err != nil {
		return nil, err
	}
	n := len(epsilons)
	res := &ProfileResult{Epsilon: append([]float64(nil), epsilons...), Delta: make([]float64, n), DeltaLower: make([]float64, n), Method: MethodPLD}
	if cfs != nil {
		res.Method = cfs[0].method
		for i, e := range epsilons {
			for _, cf := range cfs {
				res.Delta[i] = math.Max(res.Delta[i], cf.delta(e))
			}
			res.DeltaLower[i] = res.Delta[i]
		}
		return res, nil
	}
	var det Details
	err = refinePasses(ctx, scs, opts.tolerance(), tauProfile, 1e-14, false, opts, &det, func(p, o []*pld) (float64, float64) {
		worstUp, worstLow := 0.0, 0.0
		for i, e := range epsilons {
			up, low := 0.0, 0.0
			for s := range p {
				up = math.Max(up, math.Min(p[s].delta(e), 1))
				low = math.Max(low, o[s].delta(e))
			}
			res.Delta[i], res.DeltaLower[i] = up, math.Min(low, up)
			// The pass is judged by the point of worst relative width among δ above 1e-9 (below,
			// the FFT's rounding is of the order of δ itself).
			if up > 1e-9 && (worstUp == 0 || (up-low)/up > (worstUp-worstLow)/worstUp) {
				worstUp, worstLow = up, low
			}
		}
		return worstUp, worstLow
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		return nil, err
	}
	return res, err
}
