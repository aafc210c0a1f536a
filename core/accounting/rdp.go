package accounting

import "math"

// rdpOrders are the Rényi orders tried; orders below 2 are skipped for subsampled Gaussians,
// whose closed form (Mironov, Talwar and Zhang 2019) holds at integer orders.
var rdpOrders = func() []float64 {
	o := []float64{1.1, 1.25, 1.5, 1.75}
	for a := 2.0; a <= 64; a++ {
		o = append(o, a)
	}
	for a := 72.0; a <= 256; a += 8 {
		o = append(o, a)
	}
	return append(o, 320, 384, 512, 768, 1024)
}()

// rdpOf is the Rényi divergence of order α of a source (ok false when no closed form here).
func rdpOf(s source, alpha float64) (float64, bool) {
	switch x := s.(type) {
	case gaussianSource:
		return alpha * x.mu * x.mu / 2, true
	case laplaceSource:
		// Mironov (2017), Table II: (1/(α−1)) ln(α/(2α−1) e^{(α−1)a} + (α−1)/(2α−1) e^{−αa}).
		a := x.a
		t1 := math.Log(alpha/(2*alpha-1)) + (alpha-1)*a
		t2 := math.Log((alpha-1)/(2*alpha-1)) - alpha*a
		return logAdd(t1, t2) / (alpha - 1), true
	case *discreteSource:
		if x.pInf > 0 {
			return math.Inf(1), true
		}
		s := math.Inf(-1)
		for _, at := range x.atoms {
			s = logAdd(s, alpha*math.Log(at.p)+(1-alpha)*math.Log(at.q))
		}
		return math.Max(s/(alpha-1), 0), true
	case subsampled:
		return sampledGaussianRDP(x, alpha)
	case reversed:
		// For the sampled Gaussian the remove direction bounds the add one (Mironov, Talwar
		// and Zhang 2019, Theorem 5).
		if sub, ok := x.s.(subsampled); ok {
			return sampledGaussianRDP(sub, alpha)
		}
	}
	return 0, false
}

// sampledGaussianRDP is Mironov, Talwar and Zhang's sum at an integer order α:
// (1/(α−1)) ln Σ_j C(α, j) (1−q)^{α−j} q^j e^{(j²−j)μ²/2}.
func sampledGaussianRDP(s subsampled, alpha float64) (float64, bool) {
	g, ok := s.s.(gaussianSource)
	if !ok || alpha != math.Trunc(alpha) || alpha < 2 {
		return 0, false
	}
	n := int(alpha)
	acc := math.Inf(-1)
	for j := 0; j <= n; j++ {
		t := lchoose(n, j) + float64(n-j)*math.Log1p(-s.q) + float64(j)*math.Log(s.q) + float64(j*j-j)*g.mu*g.mu/2
		if s.q == 1 && j < n {
			continue
		}
		acc = logAdd(acc, t)
	}
	return acc / (alpha - 1), true
}

// rdpEpsilon composes the Rényi divergences (sums, Gaussians merged exactly) and converts at
// each order by Canonne, Kamath and Steinke (2020): ε = ε_α + ln(1 − 1/α) − (ln δ + ln α)/(α − 1),
// the least over the orders; the maximum over scenarios at each order.
func rdpEpsilon(scs []scenario, delta float64) (float64, bool) {
	if !(delta > 0) {
		return 0, false
	}
	best := math.Inf(1)
	for _, alpha := range rdpOrders {
		worst, usable := 0.0, true
		for _, sc := range scs {
			v := alpha * sc.mu2 / 2
			for _, t := range sc.terms {
				d, ok := rdpOf(t.src, alpha)
				if !ok {
					usable = false
					break
				}
				v += float64(t.count) * d
			}
			if !usable {
				break
			}
			worst = math.Max(worst, v)
		}
		if !usable {
			continue
		}
		eps := worst + math.Log1p(-1/alpha) - (math.Log(delta)+math.Log(alpha))/(alpha-1)
		best = math.Min(best, math.Max(eps, 0))
	}
	return best, !math.IsInf(best, 1) || anyOrderUsable(scs)
}

// anyOrderUsable reports whether some order has a closed form for every term (so that an
// infinite result is an answer, not an absence).
func anyOrderUsable(scs []scenario) bool {
	for _, sc := range scs {
		for _, t := range sc.terms {
			if _, ok := rdpOf(t.src, 2); !ok {
				return false
			}
		}
	}
	return true
}
