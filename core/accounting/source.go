package accounting

import (
	"math"
	"sort"
)

// source is one direction (P, Q) of a mechanism: the laws of L = ln(P(y)/Q(y)) under P and Q.
// The discretizations only ask it for the masses of intervals of losses, so that a continuous
// mechanism never has to be sampled on a grid of outputs.
type source interface {
	// mass is (P(L ∈ I), Q(L ∈ I)) over finite losses, I = [lo, hi) or, when right, (lo, hi];
	// lo may be −∞ and hi +∞ (finite losses only).
	mass(lo, hi float64, right bool) (p, q float64)
	// inf is P(L = +∞) (outputs Q never gives) and Q(L = −∞) (outputs P never gives).
	inf() (pInf, qNegInf float64)
	// bounds are the least and the greatest finite loss of positive mass (±∞ when unbounded).
	bounds() (lo, hi float64)
}

// in reports whether x lies in [lo, hi) (or (lo, hi] when right).
func in(x, lo, hi float64, right bool) bool {
	if right {
		return x > lo && x <= hi
	}
	return x >= lo && x < hi
}

// normalMass is the mass of N(m, s²) on the interval between lo and hi, computed from the
// nearer tail so that tiny masses keep their digits.
func normalMass(m, s, lo, hi float64) float64 {
	if !(hi > lo) {
		return 0
	}
	a, b := (lo-m)/(s*math.Sqrt2), (hi-m)/(s*math.Sqrt2)
	switch {
	case a >= 0:
		return 0.5 * (math.Erfc(a) - math.Erfc(b))
	case b <= 0:
		return 0.5 * (math.Erfc(-b) - math.Erfc(-a))
	}
	return 1 - 0.5*(math.Erfc(-a)+math.Erfc(b))
}

// gaussianSource is N(0, σ²) against N(Δ, σ²): L ~ N(μ²/2, μ²) under P and N(−μ²/2, μ²) under
// Q, μ = Δ/σ. It is its own reverse.
type gaussianSource struct{ mu float64 }

func (g gaussianSource) mass(lo, hi float64, _ bool) (float64, float64) {
	v := g.mu * g.mu / 2
	return normalMass(v, g.mu, lo, hi), normalMass(-v, g.mu, lo, hi)
}
func (g gaussianSource) inf() (float64, float64)    { return 0, 0 }
func (g gaussianSource) bounds() (float64, float64) { return math.Inf(-1), math.Inf(1) }

// laplaceSource is Lap(0, b) against Lap(Δ, b), a = Δ/b: L = a when y ≤ 0, a − 2y/b between, −a
// when y ≥ Δ — atoms at ±a and a continuous part. It is its own reverse.
type laplaceSource struct{ a float64 }

func (l laplaceSource) mass(lo, hi float64, right bool) (p, q float64) {
	a := l.a
	ea := math.Exp(-a)
	if in(a, lo, hi, right) { // y ≤ 0
		p, q = p+0.5, q+0.5*ea
	}
	if in(-a, lo, hi, right) { // y ≥ Δ
		p, q = p+0.5*ea, q+0.5
	}
	// Continuous part: L ∈ (lo, hi) ⇔ u = y/b ∈ ((a − hi)/2, (a − lo)/2), clipped to (0, a).
	u1, u2 := math.Max((a-hi)/2, 0), math.Min((a-lo)/2, a)
	if u2 > u1 {
		p += 0.5 * math.Exp(-u1) * -math.Expm1(-(u2 - u1))
		q += 0.5 * math.Exp(u1-a) * math.Expm1(u2-u1)
	}
	return p, q
}
func (l laplaceSource) inf() (float64, float64)    { return 0, 0 }
func (l laplaceSource) bounds() (float64, float64) { return -l.a, l.a }

// atom is one finite loss with its masses under P and Q.
type atom struct{ l, p, q float64 }

// discreteSource is a finite pair: atoms sorted by loss, and the masses at ±∞.
type discreteSource struct {
	atoms         []atom
	pInf, qNegInf float64
}

func (d *discreteSource) mass(lo, hi float64, right bool) (p, q float64) {
	i := sort.Search(len(d.atoms), func(i int) bool { return d.atoms[i].l >= lo })
	for ; i < len(d.atoms) && d.atoms[i].l <= hi; i++ {
		if in(d.atoms[i].l, lo, hi, right) {
			p, q = p+d.atoms[i].p, q+d.atoms[i].q
		}
	}
	return p, q
}
func (d *discreteSource) inf() (float64, float64) { return d.pInf, d.qNegInf }
func (d *discreteSource) bounds() (float64, float64) {
	if len(d.atoms) == 0 {
		return 0, 0
	}
	return d.atoms[0].l, d.atoms[len(d.atoms)-1].l
}

// pairSource is the pair (p, q) of two distributions on the same outputs, with equal losses
// merged (so that a channel's types are few).
func pairSource(p, q []float64) *discreteSource {
	d := &discreteSource{}
	for y := range p {
		switch {
		case p[y] > 0 && q[y] > 0:
			d.atoms = append(d.atoms, atom{math.Log(p[y] / q[y]), p[y], q[y]})
		case p[y] > 0:
			d.pInf += p[y]
		case q[y] > 0:
			d.qNegInf += q[y]
		}
	}
	sort.Slice(d.atoms, func(i, j int) bool { return d.atoms[i].l < d.atoms[j].l })
	merged := d.atoms[:0]
	for _, a := range d.atoms {
		if n := len(merged); n > 0 && a.l-merged[n-1].l <= 1e-13*math.Max(1, math.Abs(a.l)) {
			merged[n-1].p += a.p
			merged[n-1].q += a.q
			continue
		}
		merged = append(merged, a)
	}
	d.atoms = merged
	return d
}

// rrSource is binary randomized response with parameter ε₀, scaled by 1 − δ₀, with δ₀ at ±∞:
// the pair that dominates every (ε₀, δ₀)-DP mechanism (Kairouz, Oh and Viswanath 2015).
func rrSource(eps, delta float64) *discreteSource {
	p := 1 / (1 + math.Exp(-eps)) // e^ε/(1+e^ε)
	r := 1 - delta
	d := pairSource([]float64{delta, r * p, r * (1 - p), 0}, []float64{0, r * (1 - p), r * p, delta})
	for i := range d.atoms { // the losses are ±ε₀ exactly (ln(p/q) may differ in the last digit)
		d.atoms[i].l = math.Copysign(eps, d.atoms[i].l)
		if eps == 0 {
			d.atoms[i].l = 0
		}
	}
	return d
}

// reversed is the direction (Q, P) of a source: loss −L, under Q.
type reversed struct{ s source }

func (r reversed) mass(lo, hi float64, right bool) (float64, float64) {
	p, q := r.s.mass(-hi, -lo, !right)
	return q, p
}
func (r reversed) inf() (float64, float64) { p, q := r.s.inf(); return q, p }
func (r reversed) bounds() (float64, float64) {
	lo, hi := r.s.bounds()
	return -hi, -lo
}

// subsampled is Poisson subsampling at rate q of a source (P, Q): the pair (qP + (1−q)Q, Q),
// whose loss is ln(q e^L + 1 − q), an increasing function of L.
type subsampled struct {
	s source
	q float64
}

// back maps a loss t of the subsampled pair to the base loss with the same output set.
func (s subsampled) back(t float64) float64 {
	if t <= math.Log1p(-s.q) {
		return math.Inf(-1)
	}
	if math.IsInf(t, 1) {
		return t
	}
	return math.Log(math.Expm1(t)+s.q) - math.Log(s.q)
}

// forward is the loss of the subsampled pair at base loss l.
func (s subsampled) forward(l float64) float64 {
	if math.IsInf(l, -1) {
		return math.Log1p(-s.q)
	}
	if l > 30 { // q e^l dominates: ln(q e^l (1 + (1−q)e^{−l}/q))
		return math.Log(s.q) + l + math.Log1p((1-s.q)*math.Exp(-l)/s.q)
	}
	return math.Log1p(s.q * math.Expm1(l))
}

func (s subsampled) mass(lo, hi float64, right bool) (float64, float64) {
	bp, bq := s.s.mass(s.back(lo), s.back(hi), right)
	p, q := s.q*bp+(1-s.q)*bq, bq
	if _, qn := s.s.inf(); qn > 0 && in(math.Log1p(-s.q), lo, hi, right) {
		p, q = p+(1-s.q)*qn, q+qn
	}
	return p, q
}
func (s subsampled) inf() (float64, float64) { p, _ := s.s.inf(); return s.q * p, 0 }
func (s subsampled) bounds() (float64, float64) {
	lo, hi := s.s.bounds()
	lo, hi = s.forward(lo), s.forward(hi)
	if _, qn := s.s.inf(); qn > 0 {
		lo = math.Min(lo, math.Log1p(-s.q))
	}
	return lo, hi
}
