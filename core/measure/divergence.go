package measure

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/internal/fsum"
)

// KLDivergence returns the Kullback–Leibler divergence D(P‖Q) = Σ_y P(y) log₂(P(y)/Q(y)) in
// bits. Terms with P(y) = 0 count 0; the result is +Inf when P has mass where Q has none.
func KLDivergence(P, Q []float64) (float64, error) {
	if err := twoDistributions(P, Q); err != nil {
		return 0, err
	}
	var sum fsum.Sum // in bits, compensated: exact in binary when the ratios are powers of two
	for y, p := range P {
		if p == 0 {
			continue
		}
		if Q[y] == 0 {
			return math.Inf(1), nil
		}
		sum.Add(p * math.Log2(p/Q[y]))
	}
	s := sum.Value()
	if s < 0 {
		s = 0 // Gibbs' inequality; rounding only
	}
	return s, nil
}

// MaxDivergence returns D_∞(P‖Q) = max_y ln(P(y)/Q(y)) in nats (Vadhan (2013) §2): the smallest ε
// with P(T) ≤ e^ε Q(T) for every event T. Outputs with P(y) = Q(y) = 0 are ignored; the result is
// +Inf when Q(y) = 0 < P(y). It is ≥ 0 for distributions.
func MaxDivergence(P, Q []float64) (float64, error) {
	if err := twoDistributions(P, Q); err != nil {
		return 0, err
	}
	best := 0.0
	for y, p := range P {
		if p == 0 {
			continue
		}
		if Q[y] == 0 {
			return math.Inf(1), nil
		}
		if d := math.Log(p / Q[y]); d > best {
			best = d
		}
	}
	return best, nil
}

// StatisticalDistance returns the total variation distance max_T |P(T) − Q(T)| = ½ Σ_y |P(y) −
// Q(y)|, a number in [0, 1].
func StatisticalDistance(P, Q []float64) (float64, error) {
	if err := twoDistributions(P, Q); err != nil {
		return 0, err
	}
	s := 0.0
	for y, p := range P {
		s += math.Abs(p - Q[y])
	}
	return math.Min(s/2, 1), nil
}

// HockeyStick returns the hockey-stick divergence δ_ε(P‖Q) = Σ_y max(0, P(y) − e^ε Q(y)) = max_T
// P(T) − e^ε Q(T), the smallest δ with P(T) ≤ e^ε Q(T) + δ for every event T ((ε,δ)-DP, Vadhan
// (2013)). ε is in nats and must be ≥ 0 (ε = 0 gives the statistical distance; ε = +Inf gives the
// limit P({y: Q(y) = 0})).
func HockeyStick(P, Q []float64, epsilon float64) (float64, error) {
	if math.IsNaN(epsilon) || epsilon < 0 {
		return 0, argerr.New("epsilon", "must be ≥ 0 (nats), got %v", epsilon)
	}
	if err := twoDistributions(P, Q); err != nil {
		return 0, err
	}
	e := math.Exp(epsilon)
	s := 0.0
	for y, p := range P {
		d := p
		if Q[y] > 0 { // e^ε·0 = 0 even for ε = +Inf
			d -= e * Q[y]
		}
		if d > 0 {
			s += d
		}
	}
	return s, nil
}
