package estimate

import (
	"math"
	"slices"
)

// RiskLeakageResult is the min-entropy leakage estimated from the Bayes risk, in bits.
type RiskLeakageResult struct {
	// Value, Lower and Upper: log₂((1 − R)/max π̂) at the Bayes-risk estimate and at the ends of
	// its interval (the upper end of R gives the lower end of the leakage), each at least 0.
	Value, Lower, Upper float64
	// PriorVulnerability is max_x π̂(x), the adversary's chance of guessing before observing.
	PriorVulnerability float64
	// Risk is the Bayes-risk estimate it comes from.
	Risk *BayesRiskResult
}

// MinEntropyLeakageFromRisk estimates the min-entropy leakage log₂(V[π▷C]/V(π)) of numeric (or
// any) observations through the Bayes risk: V[π▷C] = 1 − R*, so the leakage is
// log₂((1 − R*)/max_x π(x)), with R* estimated by BayesRisk (opt) and max π by the sample's
// largest secret frequency. The interval is R's carried through this decreasing function; it is
// clamped at 0, which the true leakage never goes below. Cancelled, it returns the partial risk
// with ErrCancelled.
func MinEntropyLeakageFromRisk(s *Sample, opt BayesRiskOptions) (*RiskLeakageResult, error) {
	r, err := BayesRisk(s, opt)
	out := &RiskLeakageResult{Risk: r, Value: math.NaN(), Lower: math.NaN(), Upper: math.NaN()}
	if err != nil || r == nil {
		return out, err
	}
	count := make([]int, len(s.SecretNames))
	for _, x := range s.Secret {
		count[x]++
	}
	out.PriorVulnerability = float64(slices.Max(count)) / float64(s.N)
	leak := func(risk float64) float64 {
		return math.Max(0, math.Log2((1-risk)/out.PriorVulnerability))
	}
	out.Value, out.Lower, out.Upper = leak(r.Value), leak(r.Upper), leak(r.Lower)
	return out, nil
}
