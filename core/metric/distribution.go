package metric

import "math"

// TotalVariation returns ½ Σ_i |P_i − Q_i|, the largest difference P(T) − Q(T) over events T.
func TotalVariation(P, Q []float64) (float64, error) {
	if err := twoDistributions(P, Q); err != nil {
		return 0, err
	}
	s := 0.0
	for i, p := range P {
		s += math.Abs(p - Q[i])
	}
	return s / 2, nil
}

// MultiplicativeTotalVariation returns max_i |ln P_i − ln Q_i| in nats: entries 0 in both
// distributions are ignored and an entry 0 in one only gives +Inf. It is the smallest ε with
// P_i ≤ e^ε Q_i and Q_i ≤ e^ε P_i for every i.
func MultiplicativeTotalVariation(P, Q []float64) (float64, error) {
	if err := twoDistributions(P, Q); err != nil {
		return 0, err
	}
	best := 0.0
	for i, p := range P {
		q := Q[i]
		if p == 0 && q == 0 {
			continue
		}
		if p == 0 || q == 0 {
			return math.Inf(1), nil
		}
		best = math.Max(best, logRatio(math.Max(p, q), math.Min(p, q)))
	}
	return best, nil
}

// logRatio returns ln(a/b) for 0 < b ≤ a without cancellation when a ≈ b (ln a − ln b would
// lose the digits of a − b) and without overflow when a/b exceeds the float range.
func logRatio(a, b float64) float64 {
	if a <= 2*b {
		return math.Log1p((a - b) / b)
	}
	if r := a / b; !math.IsInf(r, 1) {
		return math.Log(r)
	}
	return logPositive(a) - logPositive(b)
}

// logPositive is math.Log for x > 0, subnormal x included: the native amd64 math.Log of Go
// 1.26 is wrong by up to 35 for subnormal arguments (ln 5e-324 comes out as −709.09 instead
// of −744.44; the WebAssembly build is right), so they are scaled into the normal range first.
func logPositive(x float64) float64 {
	if x < 0x1p-1022 {
		return math.Log(x*0x1p600) - 600*math.Ln2
	}
	return math.Log(x)
}

// ConvexSeparation returns max(q(P,Q), q(Q,P)) with the quasimetric
// q(a,b) = max_{i: a_i>0} (1 − b_i/a_i) (and q = 0 when no term is positive): the largest
// relative loss of mass from one distribution to the other.
func ConvexSeparation(P, Q []float64) (float64, error) {
	if err := twoDistributions(P, Q); err != nil {
		return 0, err
	}
	return math.Max(convexSeparationQuasi(P, Q), convexSeparationQuasi(Q, P)), nil
}

func convexSeparationQuasi(a, b []float64) float64 {
	best := 0.0
	for i, ai := range a {
		if ai > 0 {
			// (ai − bi)/ai rather than 1 − bi/ai: exact 0 for equal entries, no cancellation.
			best = math.Max(best, (ai-b[i])/ai)
		}
	}
	return best
}
