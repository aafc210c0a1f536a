package accounting

import (
	"errors"
	"math"
)

// pld is a privacy loss distribution on the grid of width h: entry j of m is the mass (under
// P) of the loss (off + j)·h; inf is the mass at +∞. The masses need not sum to 1 − inf: an
// optimistic PLD drops what it cannot place.
type pld struct {
	h     float64
	off   int
	shift float64 // the grid is shift + jh: an event's top atom sits on it (see discretize)
	m     []float64
	inf   float64
	// slack bounds the mass an FFT power may have misplaced (optimistic PLDs only): δ(ε) is
	// lowered by it.
	slack float64
}

// maxPoints bounds the entries of one PLD, so that a tolerance asked too small stops with an
// error instead of exhausting the memory of a browser tab.
const maxPoints = 1 << 22

var errTooFine = errors.New("the grid needed has more than 2^22 points")

// tailRange returns losses lo ≤ hi with P(L < lo) ≤ tau and P(L ≥ hi) ≤ tau (finite losses),
// inside the source's bounds, by bisection on the tails.
func tailRange(s source, tau float64) (lo, hi float64) {
	blo, bhi := s.bounds()
	inner := median(s, blo, bhi)
	find := func(sign, bound float64) float64 {
		tail := func(t float64) float64 {
			if sign > 0 {
				p, _ := s.mass(t, math.Inf(1), false)
				return p
			}
			p, _ := s.mass(math.Inf(-1), t, false)
			return p
		}
		outer := bound
		if math.IsInf(bound, 0) {
			outer = sign
			for i := 0; i < 1100 && tail(outer) > tau; i++ {
				outer *= 2
			}
		} else if tail(bound) > tau {
			return bound // an atom, or mass up to the bound itself
		}
		if tail(inner) <= tau {
			return inner
		}
		// tail(inner) > tau ≥ tail(outer): bisect.
		in := inner
		for i := 0; i < 60; i++ {
			mid := in + (outer-in)/2
			if tail(mid) <= tau {
				outer = mid
			} else {
				in = mid
			}
		}
		return outer
	}
	return find(-1, blo), find(1, bhi)
}

// median is a loss t with P(L < t) ≤ 1/2 ≤ P(L ≤ t) roughly (bisection on the lower tail, from
// 0 outwards by doubling): the point from which the tails are searched, so that a loss law far
// from 0 (a Gaussian of μ = 1000) is not searched from 0.
func median(s source, blo, bhi float64) float64 {
	below := func(t float64) float64 { p, _ := s.mass(math.Inf(-1), t, false); return p }
	total, _ := s.mass(math.Inf(-1), math.Inf(1), false)
	half := total / 2
	lo, hi := -1.0, 1.0
	for i := 0; i < 1100 && below(lo) > half; i++ {
		lo *= 2
	}
	for i := 0; i < 1100 && below(hi) < half; i++ {
		hi *= 2
	}
	for i := 0; i < 100; i++ {
		mid := lo + (hi-lo)/2
		if below(mid) < half {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Min(math.Max(hi, blo), bhi)
}

// discretize is the pessimistic (pess) or optimistic PLD of s on the grid of width h, with the
// tails beyond mass tau moved to +∞ or the least loss (pessimistic) or dropped (optimistic).
//
// Pessimistic: the outputs whose loss lies in [a, a + h) have masses (P, Q) with P/Q = e^ℓ,
// a ≤ ℓ ≤ a + h; they are replaced by two outputs of losses a and a + h with masses that keep
// both P and Q. Merging those two outputs gives the original back, so the new pair dominates
// the mechanism, and the loss's mean grows by at most h²/8.
//
// Optimistic: the same buckets are merged into one output each (a post-processing), and a
// sweep from the least loss mixes each remainder with part of the next output so that the
// mixture's loss is exactly the next grid point: every step merges outputs, so the mechanism
// dominates the result.
//
// The grid is shifted so that the greatest loss, when it is an atom (Laplace's a, randomized
// response's ε₀), lies on it: the optimistic sweep then ends on a grid point instead of rounding
// the atom down, which would cost a first-order error per event.
func discretize(s source, h float64, pess bool, tau float64) (*pld, error) {
	c := 0.0
	if _, bhi := s.bounds(); !math.IsInf(bhi, 0) {
		if top, _ := s.mass(bhi, math.Inf(1), false); top > 0 {
			c = bhi - math.Floor(bhi/h)*h
		}
	}
	s = shifted{s, c}
	lo, hi := tailRange(s, tau)
	// Buckets [jh, (j+1)h) for jlo ≤ j < jhi cover [lo, hi] (hi included: it may be an atom).
	// One bucket more on each side, so that rounding in lo/h or hi/h never leaves an atom out.
	jlo, jhi := math.Floor(lo/h)-1, math.Floor(hi/h)+2
	if jhi-jlo+1 > maxPoints {
		return nil, errTooFine
	}
	n := int(jhi - jlo)
	pInf, _ := s.inf()
	out := &pld{h: h, off: int(jlo), shift: c, m: make([]float64, n+1), inf: pInf}
	tailLo, _ := s.mass(math.Inf(-1), jlo*h, false)
	tailHi, _ := s.mass(jhi*h, math.Inf(1), false)
	if pess {
		out.m[0] += tailLo
		out.inf += tailHi
	}
	var sw sweep
	for j := 0; j < n; j++ {
		a, b := (jlo+float64(j))*h, (jlo+float64(j+1))*h
		p, q := s.mass(a, b, false)
		if !(p > 0) {
			continue
		}
		if !pess {
			// An atom exactly on the grid point a is an output of loss a: kept as it is.
			if ap, aq := s.(shifted).atom(a); ap > 0 && ap <= p {
				out.m[j] += ap
				p, q = p-ap, math.Max(q-aq, 0)
				if !(p > 1e-300) {
					continue
				}
			}
			if !(q > 0) { // Q's mass underflowed (a loss of hundreds): round down to a
				out.m[j] += p
				continue
			}
			sw.add(out, p, q)
			continue
		}
		if !(q > 0) { // the ratio overflowed: round up
			out.m[j+1] += p
			continue
		}
		x := math.Min(math.Max(math.Log(p/q)-c-a, 0), h)
		wb := math.Expm1(-x) / math.Expm1(-h)
		out.m[j] += p * (1 - wb)
		out.m[j+1] += p * wb
	}
	if !pess {
		sw.flush(out)
	}
	out.normalize(pess)
	return out, nil
}

// sweep merges consecutive outputs (in increasing loss) into outputs whose losses are grid
// points: the optimistic discretization.
type sweep struct{ p, q float64 }

// add takes the next output (masses p, q; its loss is not below the remainder's).
func (s *sweep) add(out *pld, p, q float64) {
	if s.p == 0 {
		s.p, s.q = p, q
		s.emitIfOnGrid(out)
		return
	}
	h := out.h
	lr := math.Log(s.p/s.q) - out.shift
	t := math.Ceil(lr / h)
	T := t * h
	ln := math.Log(p/q) - out.shift
	if !(q > 0) {
		ln = math.Inf(1)
	}
	if ln > T {
		// s of the next output mixed with the remainder gives loss T exactly.
		frac := s.p * math.Expm1(T-lr) / (-p * math.Expm1(T-ln))
		if math.IsInf(ln, 1) {
			frac = (s.q*math.Exp(T+out.shift) - s.p) / p
		}
		frac = math.Max(frac, 0)
		if frac <= 1 {
			out.put(int(t), s.p+frac*p)
			s.p, s.q = (1-frac)*p, (1-frac)*q
			s.emitIfOnGrid(out)
			return
		}
	}
	s.p, s.q = s.p+p, s.q+q
}

// emitIfOnGrid emits a remainder whose loss is (within rounding) a grid point.
func (s *sweep) emitIfOnGrid(out *pld) {
	if !(s.q > 0) || !(s.p > 0) {
		return
	}
	l := (math.Log(s.p/s.q) - out.shift) / out.h
	if r := math.Round(l); math.Abs(l-r) < 1e-9 && r <= l {
		out.put(int(r), s.p)
		s.p, s.q = 0, 0
	}
}

// flush places the last remainder: mixed with part of an output already on the grid above it
// (the greatest first: an atom such as Laplace's largest loss lifts the most per unit of mass) so
// that the mixture's loss is the grid point just above the remainder's — a merge, and an error
// of order h times the distance instead of h — or, when no output above can, rounded down.
func (s *sweep) flush(out *pld) {
	if !(s.p > 0 && s.q > 0) {
		s.p, s.q = 0, 0
		return
	}
	h := out.h
	lr := math.Log(s.p/s.q) - out.shift
	t := int(math.Ceil(lr / h))
	T := float64(t) * h
	for j := len(out.m) - 1; j >= 0 && out.off+j > t; j-- {
		W := out.m[j]
		if !(W > 0) {
			continue
		}
		G := float64(out.off+j) * h
		frac := s.p * math.Expm1(T-lr) / (-W * math.Expm1(T-G))
		if frac >= 0 && frac <= 1 {
			out.m[j] -= frac * W
			out.put(t, s.p+frac*W)
			s.p, s.q = 0, 0
			return
		}
	}
	out.put(int(math.Floor(lr/h)), s.p)
	s.p, s.q = 0, 0
}

// put adds mass at grid index j (absolute), growing the array when j is outside it.
func (d *pld) put(j int, mass float64) {
	i := j - d.off
	if i < 0 {
		d.m = append(make([]float64, -i), d.m...)
		d.off = j
		i = 0
	}
	for i >= len(d.m) {
		d.m = append(d.m, 0)
	}
	d.m[i] += mass
}

// shifted is a source with every loss lowered by c: masses of [lo, hi) are those of
// [lo + c, hi + c). Its P/Q ratios are the original ones (the callers subtract c).
type shifted struct {
	s source
	c float64
}

func (x shifted) mass(lo, hi float64, right bool) (float64, float64) {
	return x.s.mass(x.back(lo), x.back(hi), right)
}

// atom is the masses of the loss t exactly (an atom of the source at t + c).
func (x shifted) atom(t float64) (float64, float64) {
	b := x.back(t)
	return x.s.mass(b, math.Nextafter(b, math.Inf(1)), false)
}

// back is t + c, snapped to the source's least or greatest loss when within rounding of it,
// so that a bucket boundary meant to sit on an atom does sit on it.
func (x shifted) back(t float64) float64 {
	u := t + x.c
	blo, bhi := x.s.bounds()
	for _, b := range [2]float64{blo, bhi} {
		if !math.IsInf(b, 0) && math.Abs(u-b) <= 1e-12*math.Max(1, math.Abs(b)) {
			return b
		}
	}
	return u
}
func (x shifted) inf() (float64, float64) { return x.s.inf() }
func (x shifted) bounds() (float64, float64) {
	lo, hi := x.s.bounds()
	return lo - x.c, hi - x.c
}

// normalize makes the rounding of the masses err on the right side: a pessimistic PLD's masses
// and +∞ sum to 1 (a deficit goes to +∞), an optimistic one's to at most 1 (an excess is taken off
// the finite masses proportionally). Unchecked, a deficit of 1e-16 per event is 1e-10 of the mass
// after 10⁶ events — a change of δ that moves ε by 1e-5.
func (d *pld) normalize(pess bool) {
	sum, c := 0.0, 0.0 // Kahan summation
	for _, x := range d.m {
		y := x - c
		t := sum + y
		c = (t - sum) - y
		sum = t
	}
	switch total := sum + d.inf; {
	case pess && total < 1:
		d.inf += 1 - total
	case !pess && total > 1 && sum > 0:
		f := math.Max(1-d.inf, 0) / sum * (1 - 1e-15)
		for i := range d.m {
			d.m[i] *= f
		}
	}
}

// truncate removes the tails of mass at most tau, and beyond them the entries below the
// rounding noise of the FFT (1e-15 of the largest entry, which would otherwise keep a tail of
// noise growing with every product): the upper tail goes to +∞ and the lower one onto the least
// loss kept (pessimistic), or both are dropped (optimistic). Either way the result still bounds
// the truth, whatever mass moves. Negative entries (rounding) become 0.
func (d *pld) truncate(tau float64, pess bool) {
	top := 0.0
	for i, x := range d.m {
		if !(x > 0) {
			d.m[i] = 0
		}
		top = math.Max(top, d.m[i])
	}
	floor := 1e-15 * top
	lo, s := 0, 0.0
	for lo < len(d.m)-1 && (s+d.m[lo] <= tau || d.m[lo] < floor) {
		s += d.m[lo]
		lo++
	}
	loMass := s
	hi, s := len(d.m)-1, 0.0
	for hi > lo && (s+d.m[hi] <= tau || d.m[hi] < floor) {
		s += d.m[hi]
		hi--
	}
	if pess {
		d.m[lo] += loMass
		d.inf += s
	}
	d.m = d.m[lo : hi+1]
	d.off += lo
	d.normalize(pess)
}

// delta is P(L = ∞) + Σ_{ℓ > ε} m(ℓ)(1 − e^{ε−ℓ}).
func (d *pld) delta(eps float64) float64 {
	s := 0.0
	for j := len(d.m) - 1; j >= 0; j-- {
		l := float64(d.off+j)*d.h + d.shift
		if l <= eps {
			break
		}
		s += d.m[j] * -math.Expm1(eps-l)
	}
	return math.Max(d.inf+s-d.slack, 0)
}

// epsilon is the least ε ≥ 0 with delta(ε) ≤ δ (+∞ when none).
func (d *pld) epsilon(delta float64) float64 {
	return epsilonOfAtoms(len(d.m), func(i int) (float64, float64) {
		return float64(d.off+i)*d.h + d.shift, d.m[i]
	}, d.inf-d.slack, delta)
}

// epsilonOfAtoms is the least ε ≥ 0 with inf + Σ_{ℓ > ε} w(1 − e^{ε−ℓ}) ≤ δ for atoms given in
// increasing loss by at(i). On an interval between consecutive losses δ(ε) = A − e^ε B with
// A = Σ w and B = Σ w e^{−ℓ} over the atoms above, so the root is ln((A + inf − δ)/B) there.
func epsilonOfAtoms(n int, at func(i int) (float64, float64), inf, delta float64) float64 {
	if inf > delta {
		return math.Inf(1)
	}
	A, lB := 0.0, math.Inf(-1) // lB = ln B, kept in logs (losses may be large)
	root := func(lower float64) (float64, bool) {
		if A == 0 || inf+A-math.Exp(lower+lB) <= delta {
			return 0, false
		}
		return math.Max(math.Log(inf+A-delta)-lB, lower), true
	}
	for i := n - 1; i >= 0; i-- {
		l, w := at(i)
		if !(w > 0) {
			continue
		}
		if l <= 0 {
			break
		}
		// The atoms added so far are those above l: on [l, the last one) δ(ε) = inf + A − e^ε B.
		if eps, ok := root(l); ok {
			return eps
		}
		A += w
		lB = logAdd(lB, math.Log(w)-l)
	}
	if eps, ok := root(0); ok {
		return eps
	}
	return 0
}

// logAdd is ln(e^a + e^b).
func logAdd(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}
