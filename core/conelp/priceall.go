package conelp

import "math"

// priceAll prices every column at the row prices mu. It returns the bound
// Σ_y (mu_y + max_w r⁺_wy), r_w = Cost[w] − mu − Pᵀα_w, valid for any mu (see the package
// documentation; each r is rounded up by a bound on its rounding error), with the maxima in
// rmax; when add is set it adds to the master every priced cone point whose reduced cost
// at the master's own prices exceeds thr. maxPhases, when positive, stops each pricing after
// that many phases (r.truncated then says so).
func (r *run) priceAll(mu []float64, add bool, thr float64, maxPhases int) (bound float64, added int) {
	r.truncated = false
	for y := range r.rmax {
		r.rmax[y] = 0
		r.sub[y] = 0
	}
	r.dualRes = 0
	for w := 0; w < r.W; w++ {
		if w%16 == 15 && (r.stopped() || !r.pricingReport()) {
			return math.Inf(1), 0
		}
		ok := r.priceOne(w, mu, add, maxPhases)
		if ok || !add {
			continue
		}
		for y, v := range r.h {
			r.sub[y] += v
		}
		if r.gen != nil {
			r.gen.close(r.h)
		}
		if c := dot(r.cost[w], r.h); c-dot(r.m.mu, r.h) > thr {
			r.m.add(w, append([]float64(nil), r.h...), c)
			added++
		}
	}
	return r.boundAt(mu), added
}

// priceSome prices the outputs at mu in the given order and stops as soon as want of those
// not in skip price positive (want 0: never). It returns how many it priced, order[:reached];
// only when that is every output are the bound, rmax and the residuals those of priceAll (the
// bound is +Inf otherwise). Outputs it did not reach have colGain 0. Output generation uses it between its certifying
// rounds, where only the outputs to join the restricted program are needed.
func (r *run) priceSome(mu []float64, order []int, skip []bool, want int) (bound float64, reached int) {
	if want == 0 || len(order) < r.W {
		b, _ := r.priceAll(mu, false, 0, 0)
		return b, r.W
	}
	r.truncated = false
	clear(r.rmax)
	clear(r.sub)
	clear(r.colGain)
	r.dualRes = 0
	found := 0
	for k, w := range order {
		if k%16 == 15 && (r.stopped() || !r.pricingReport()) {
			return math.Inf(1), k
		}
		r.priceOne(w, mu, false, 0)
		if !skip[w] && r.colGain[w] > enterTol {
			if found++; found >= want && k+1 < len(order) {
				return math.Inf(1), k + 1
			}
		}
	}
	return r.boundAt(mu), r.W
}

// boundAt is the bound Σ_y (mu_y + rmax_y) of a pricing of every output, raised by a bound on
// its rounding error.
func (r *run) boundAt(mu []float64) (bound float64) {
	margin := 0.0
	for y := range mu {
		bound += mu[y] + r.rmax[y]
		margin += math.Abs(mu[y]) + r.rmax[y]
	}
	return bound + 2*float64(r.n)*margin*0x1p-53
}

// priceOne prices output w at mu: the point in r.h, its gain in r.colGain[w], the residual
// maxima in r.rmax. It reports whether the output prices out (no point of positive gain).
func (r *run) priceOne(w int, mu []float64, add bool, maxPhases int) bool {
	for y := range r.g {
		r.g[y] = r.cost[w][y] - mu[y]
	}
	ok, gain := r.pr.priceUpTo(r.g, r.h, r.res, r.rerr, certTol, maxPhases)
	r.truncated = r.truncated || r.pr.truncated
	r.colGain[w] = 0
	if !ok {
		r.colGain[w] = gain
	}
	if !add && !ok && r.gen != nil {
		// Output generation prices on the active pairs' cone, which contains K: the bound
		// stays valid, but the gain may come from pairs left out. The point closed over every
		// pair is in K: its gain is what the output can surely bring, and the pairs the
		// closing enforced join the next pricing.
		copy(r.hc, r.h)
		r.gen.close(r.hc)
		r.colGain[w] = math.Max(0, dot(r.g, r.hc))
	}
	if !add && r.points != nil {
		// Output generation: the point, in K, whose tight pairs a joining output brings to
		// the restricted program (outputGen.joinPairs).
		r.points[w] = r.points[w][:0]
		if !ok {
			pt := r.h
			if r.gen != nil {
				pt = r.hc
			}
			r.points[w] = append(r.points[w], pt...)
		}
	}
	if !add && r.keep != nil {
		// Output generation prices this way every round: reuse the vectors.
		if r.keep[w] == nil {
			r.keep[w] = make([]float64, 2*len(r.p.Pairs))
		} else {
			clear(r.keep[w])
		}
		for k, a := range r.pr.alpha {
			r.keep[w][r.cn.pair[k]] = r.scale * a
		}
	}
	for y, v := range r.res {
		r.rmax[y] = math.Max(r.rmax[y], v+r.rerr[y])
		r.dualRes = math.Max(r.dualRes, v)
	}
	return ok
}

// regrow prices on the active pairs' cone after pair generation found new ones (the bounds
// found so far stay valid: they come from cones that contain K). It reports whether the cone
// grew.
func (r *run) regrow() bool {
	if r.gen == nil || len(r.gen.pending) == 0 {
		return false
	}
	r.gen.pending = r.gen.pending[:0]
	r.cn = r.gen.cone()
	r.pr = newPricer(r.cn)
	return true
}
