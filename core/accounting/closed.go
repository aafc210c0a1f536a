package accounting

import (
	"math"
	"sort"
)

// gaussianDelta is the exact profile of the Gaussian pair with μ = Δ/σ (Balle and Wang 2018):
// δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), the second term taken in logs.
func gaussianDelta(mu, eps float64) float64 {
	if math.IsInf(eps, 1) {
		return 0
	}
	a := 0.5 * math.Erfc((eps/mu-mu/2)/math.Sqrt2)
	lb := eps + logPhi(-eps/mu-mu/2)
	return math.Max(a-math.Exp(lb), 0)
}

// logPhi is ln Φ(x), accurate far in the lower tail.
func logPhi(x float64) float64 {
	if x > -30 {
		return math.Log(0.5 * math.Erfc(-x/math.Sqrt2))
	}
	// Φ(x) = φ(x)/|x| · (1 − 1/x² + 3/x⁴ − …) for x → −∞.
	x2 := x * x
	return -x2/2 - math.Log(-x*math.Sqrt(2*math.Pi)) + math.Log1p(-1/x2+3/(x2*x2)-15/(x2*x2*x2))
}

// bisectEpsilon is the least ε ≥ 0 with f(ε) ≤ δ for a non-increasing f, as a bracket
// [lo, hi] of relative width 1e-13 (f(hi) ≤ δ < f(lo) unless lo = 0). f(∞) ≤ δ is assumed
// unless the bracket runs away, when +∞ is returned.
func bisectEpsilon(f func(float64) float64, delta float64) (lo, hi float64) {
	if f(0) <= delta {
		return 0, 0
	}
	hi = 1
	for f(hi) > delta {
		lo, hi = hi, hi*2
		if hi > 1e15 {
			return math.Inf(1), math.Inf(1)
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-13*hi; i++ {
		mid := lo + (hi-lo)/2
		if f(mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo, hi
}

// atoms is a finite PLD: losses in increasing order with their masses under P, and the mass at
// +∞.
type atoms struct {
	l, w []float64
	inf  float64
}

// maxAtoms bounds the enumeration of output types: beyond it the PLD is discretized instead.
const maxAtoms = 1 << 21

// delta is inf + Σ_{ℓ > ε} w(1 − e^{ε−ℓ}).
func (a *atoms) delta(eps float64) float64 {
	s := 0.0
	for i := len(a.l) - 1; i >= 0 && a.l[i] > eps; i-- {
		s += a.w[i] * -math.Expm1(eps-a.l[i])
	}
	return a.inf + s
}

func (a *atoms) epsilon(delta float64) float64 {
	return epsilonOfAtoms(len(a.l), func(i int) (float64, float64) { return a.l[i], a.w[i] }, a.inf, delta)
}

// kfold enumerates the k-fold composition of a finite pair by output types: the type
// (t₁, …, t_m) (t_i copies of loss ℓ_i, Σ t_i = k) has loss Σ t_i ℓ_i and mass
// k!/Π t_i! · Π p_i^{t_i}, computed in logs (lgamma) so that k may be large. ok is false when
// there are more than maxAtoms types.
func kfold(d *discreteSource, k int) (out *atoms, ok bool) {
	m := len(d.atoms)
	if m == 2 && k+1 > maxAtoms {
		return kfold2(d, k)
	}
	// C(k+m−1, m−1) types, bounded before enumerating.
	if lc := lchoose(k+m-1, m-1); m > 1 && lc > math.Log(maxAtoms) {
		return nil, false
	}
	finite := 0.0
	for _, a := range d.atoms {
		finite += a.p
	}
	out = &atoms{inf: -math.Expm1(float64(k) * math.Log1p(-d.pInf))}
	if m == 0 || finite == 0 {
		out.inf = 1
		return out, true
	}
	lp := make([]float64, m)
	for i, a := range d.atoms {
		lp[i] = math.Log(a.p)
	}
	lk := lgamma(k + 1)
	t := make([]int, m)
	var rec func(i, left int, logw, loss float64)
	rec = func(i, left int, logw, loss float64) {
		if i == m-1 {
			t[i] = left
			logw += float64(left)*lp[i] - lgamma(left+1)
			loss += float64(left) * d.atoms[i].l
			out.l = append(out.l, loss)
			out.w = append(out.w, math.Exp(lk+logw))
			return
		}
		for c := 0; c <= left; c++ {
			t[i] = c
			rec(i+1, left-c, logw+float64(c)*lp[i]-lgamma(c+1), loss+float64(c)*d.atoms[i].l)
		}
	}
	rec(0, k, 0, 0)
	// The weights sum to (Σ pᵢ)^k (the multinomial theorem); normalizing to it removes the rounding
	// of lgamma(k + 1), common to every weight (1e-10 of the mass at k = 2·10⁵).
	sum := 0.0
	for _, w := range out.w {
		sum += w
	}
	scale := math.Exp(float64(k)*math.Log(finite)) / sum
	for i := range out.w {
		out.w[i] *= scale
	}
	out.sortMerge()
	return out, true
}

// kfold2 is kfold for two atoms and a large k: only the binomial types within 40 standard
// deviations of the mean, the others weighing less than e^{−800} together (0 in floating point).
// The weights come from the ratio of consecutive binomial terms, outwards from the mode, and are
// normalized so that they sum to (p₁ + p₂)^k: the rounding of lgamma(k), of the order of
// 1e-16·k ln k, would otherwise multiply every weight alike.
func kfold2(d *discreteSource, k int) (*atoms, bool) {
	p1, p2 := d.atoms[0].p, d.atoms[1].p
	finite := p1 + p2
	q := p1 / finite // probability of the lower loss, given a finite one
	sd := math.Sqrt(float64(k) * q * (1 - q))
	lo := max(0, int(float64(k)*q-40*sd-10))
	hi := min(k, int(float64(k)*q+40*sd+10))
	if hi-lo+1 > maxAtoms {
		return nil, false
	}
	mode := min(max(int(float64(k+1)*q), lo), hi)
	w := make([]float64, hi-lo+1) // w[i−lo] ∝ C(k, i) q^i (1−q)^{k−i}
	w[mode-lo] = 1
	r := q / (1 - q)
	for i := mode; i < hi; i++ {
		w[i+1-lo] = w[i-lo] * float64(k-i) / float64(i+1) * r
	}
	for i := mode; i > lo; i-- {
		w[i-1-lo] = w[i-lo] * float64(i) / float64(k-i+1) / r
	}
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	scale := math.Exp(float64(k)*math.Log(finite)) / sum // the finite mass, (p₁ + p₂)^k
	out := &atoms{inf: -math.Expm1(float64(k) * math.Log1p(-d.pInf))}
	for i := hi; i >= lo; i-- { // i copies of the lower loss: increasing loss as i decreases
		out.l = append(out.l, float64(i)*d.atoms[0].l+float64(k-i)*d.atoms[1].l)
		out.w = append(out.w, w[i-lo]*scale)
	}
	return out, true
}

// product is the composition of two finite PLDs (every pair of atoms), or ok = false when it
// would have more than maxAtoms atoms.
func product(a, b *atoms) (*atoms, bool) {
	if len(a.l)*len(b.l) > maxAtoms {
		return nil, false
	}
	out := &atoms{inf: a.inf + b.inf - a.inf*b.inf}
	for i := range a.l {
		for j := range b.l {
			out.l = append(out.l, a.l[i]+b.l[j])
			out.w = append(out.w, a.w[i]*b.w[j])
		}
	}
	out.sortMerge()
	return out, true
}

// sortMerge sorts the atoms by loss and merges losses equal up to rounding.
func (a *atoms) sortMerge() {
	idx := make([]int, len(a.l))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return a.l[idx[i]] < a.l[idx[j]] })
	l, w := make([]float64, 0, len(idx)), make([]float64, 0, len(idx))
	for _, i := range idx {
		if n := len(l); n > 0 && a.l[i]-l[n-1] <= 1e-12*math.Max(1, math.Abs(a.l[i])) {
			w[n-1] += a.w[i]
			continue
		}
		l, w = append(l, a.l[i]), append(w, a.w[i])
	}
	a.l, a.w = l, w
}

func lgamma(n int) float64 { v, _ := math.Lgamma(float64(n)); return v }

// lchoose is ln C(n, r).
func lchoose(n, r int) float64 { return lgamma(n+1) - lgamma(r+1) - lgamma(n-r+1) }
