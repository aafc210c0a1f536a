package conelp

import (
	"math"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

// outputGeneration is the step run first on location maps (see blocks.go); the
// decomposition is the fallback when it ends without a certificate. It reports whether out
// is final (certified, or stopped), and otherwise returns the run to warm the decomposition.
func (r *run) outputGeneration(out *Result) (og *outputGen, finished bool) {
	og = &outputGen{n: r.n, W: r.W, cost: r.cost, pairs: r.p.Pairs, ctx: r.ctx, start: r.begin,
		timeLimit: r.o.TimeLimit, trace: r.d.trace, fullPricing: r.d.fullPricing,
		price: func(mu []float64, order []int, skip []bool, want int) (float64, int) {
			for {
				b, reached := r.priceSome(mu, order, skip, want)
				if r.status != lp.Optimal || !r.regrow() || reached < r.W {
					return b, reached
				}
				for _, gw := range r.colGain {
					if gw > enterTol {
						return b, r.W // outputs to add: the new pairs count from the next round
					}
				}
				// Nothing to add, but the cone was too loose for the bound to tell: price
				// again on the grown one.
			}
		},
		gain: r.colGain, rmax: r.rmax, ok: func() bool { return r.status == lp.Optimal }}
	og.report = func(obj, gap float64) bool {
		if r.o.Progress == nil {
			return true
		}
		if !r.o.Progress(lp.Progress{Iteration: og.pivots, Objective: r.sign * r.scale * obj, Infeasibility: r.scale * gap,
			Phase: "output generation", Bound: r.sign * r.scale * og.bestBound}) {
			r.status = lp.Cancelled
			return false
		}
		return true
	}
	r.pricingReport = func() bool { return og.report(og.lastObj, og.lastGap) }
	if !r.d.noJoinPairs {
		r.points = make([][]float64, r.W)
		og.points = r.points
	}
	H, mu, bound, done := og.run(r.best)
	r.pricingReport = func() bool { return r.report(r.lastGap) }
	out.Rounds, out.Iterations, out.Columns = og.rounds, og.pivots, og.columns
	r.pivotsBefore = og.pivots
	if done {
		finishH(r.p, H, mu, bound, r.scale, r.sign, out)
		out.DualResidual = r.scale * r.dualRes
		out.Multipliers = r.keep
		out.Pairs = og.activePairs
		out.Outputs = og.columns
		if out.verified(r.scale, r.tolP, r.tolD) {
			out.Status = lp.Optimal
			return og, true
		}
	}
	if r.status != lp.Optimal || r.stopped() {
		// Cancelled or out of time: report the best feasible H, as the decomposition does.
		mu := og.bestMu
		if og.bestAt != nil {
			mu = og.bestAt // the prices of the bound reported
		}
		finishH(r.p, og.bestH, mu, og.bestBound, r.scale, r.sign, out)
		out.DualResidual = math.NaN() // no pricing at the returned prices was completed
		out.Status = r.status
		return og, true
	}
	return og, false
}

// takeOver prepares the decomposition to go on from output generation. Without pair
// generation its best bound is only carried into the progress reports; with it, its last
// solution's columns, closed over every pair as the priced points are (gen.close: they lie in
// K exactly, and the pairs the closing enforced join the pricing), enter the master, and its
// best prices are the first centre. Without pair generation (maps with few pairs, such as
// spanners) the decomposition starts afresh: on a random 5-row program with ε = 20 and a
// dense gain, the master started from such columns lost its accuracy (a row sum of 4) and
// pivoted without end, and started from its tents but smoothed towards output generation's
// prices it ended with a row sum of 8.
func (r *run) takeOver(warm *outputGen) {
	if r.gen == nil {
		r.carried = warm.bestBound
		return
	}
	if warm.bestAt == nil {
		return
	}
	n, W := r.n, r.W
	col := make([]float64, n)
	for w := 0; w < W; w++ {
		top := 0.0
		for y := 0; y < n; y++ {
			top = math.Max(top, warm.bestH[y*W+w])
		}
		if !(top > 1e-9) {
			continue
		}
		for y := 0; y < n; y++ {
			col[y] = warm.bestH[y*W+w] / top
		}
		r.gen.close(col)
		r.m.add(w, append([]float64(nil), col...), dot(r.cost[w], col))
	}
	r.bestBound = warm.bestBound
	copy(r.center, warm.bestAt)
	copy(r.centerMax, warm.bestRmax)
}

// decompose is the Dantzig–Wolfe step: rounds of master optimization and pricing, at
// smoothed prices, until the master's value meets the best bound. It reports convergence.
func (r *run) decompose(out *Result, warm *outputGen) (converged bool) {
	if warm != nil {
		r.takeOver(warm)
	}
	preRounds := out.Rounds
	smooth := true
	alpha := smoothing
	for round := 1; ; round++ {
		out.Rounds = preRounds + round
		if !r.m.optimize(enterTol, r.stop) {
			return false
		}
		lower := r.m.objective()
		added := r.priceRound(round, smooth, &alpha, lower)
		if r.status != lp.Optimal {
			return false
		}
		grew := r.regrow()
		gap := r.bestBound - lower
		r.d.tracef("round %d: lower %.10f bound %.10f added %d α %.2f pivots %d columns %d pairs %d after %v; pricings %d phases %d augments %d", round, lower, r.bestBound, added, alpha, r.m.iters, len(r.m.cols), r.cn.pairs, time.Since(r.begin), r.pr.calls, r.pr.phases, r.pr.augments)
		if !r.report(gap) {
			return false
		}
		if (added == 0 && !grew) || gap <= gapTol/2*math.Max(1, math.Abs(lower)) {
			// Confirm the master's solution on a fresh inverse (dual simplex pivots if it
			// drifted or an artificial kept some mass); if that moved the basis, go on with
			// unsmoothed rounds.
			before := r.m.iters
			if !r.m.cleanup(10 * r.n) {
				r.status = lp.IterationLimit
				return false
			}
			if r.m.iters != before {
				smooth = false
				continue
			}
			if lower = r.m.objective(); r.bestBound-lower <= gapTol/2*math.Max(1, math.Abs(lower)) {
				return true
			}
			if added == 0 && !grew {
				// The bound is not reached but no improving cone point was found: the pricing
				// is stuck at the tolerances.
				r.status = lp.IterationLimit
				return false
			}
		}
		for j := range r.m.cols {
			if r.m.inB[j] < 0 {
				r.m.age[j]++
			}
		}
		r.m.purge(purgeAge, 4*r.n+2*r.W)
	}
}

// priceRound prices every output once in a decomposition round: at a point between the best
// prices so far and the master's; if that gives the master nothing worth a round (reduced
// costs far below the gap), at the master's prices, where the bound closes on the master's
// value as the reduced costs vanish. It adapts the smoothing weight alpha, keeps the best
// bound and its prices as the centre, and returns the number of columns added.
func (r *run) priceRound(round int, smooth bool, alpha *float64, lower float64) (added int) {
	trial := make([]float64, r.n)
	for _, a := range []float64{*alpha, 0} {
		if a > 0 && (!smooth || math.IsInf(r.bestBound, 1)) {
			continue
		}
		for y := range trial {
			trial[y] = a*r.center[y] + (1-a)*r.m.mu[y]
		}
		thr := enterTol
		if a > 0 {
			thr = math.Max(enterTol, 1e-3*(r.bestBound-lower)/float64(r.W))
		}
		// Between rounds that price exactly (for the bound), stop each pricing after
		// truncatePhases phases: the point it has then is all the master needs.
		phaseCap := 0
		if a > 0 && r.d.truncatePhases > 0 && round%exactEvery != 0 {
			phaseCap = r.d.truncatePhases
		}
		var bound float64
		bound, added = r.priceAll(trial, true, thr, phaseCap)
		if r.status != lp.Optimal {
			return added
		}
		if a > 0 && !r.d.fixedSmoothing {
			// The Lagrangian bound Σ_y μ_y + Σ_w max{(Cost[w] − μ)·h : h ∈ K, h ≤ 1} has the
			// subgradient 1 − Σ_w h_w at the smoothed prices (h_w the priced points); along
			// the master's prices minus the centre it says whether to smooth less or more.
			slope := 0.0
			for y := range r.sub {
				slope += (1 - r.sub[y]) * (r.m.mu[y] - r.center[y])
			}
			if slope < 0 {
				*alpha = math.Max(0, *alpha-0.1)
			} else {
				*alpha += 0.1 * (1 - *alpha)
			}
		}
		if bound < r.bestBound && !r.truncated {
			r.bestBound = bound
			copy(r.center, trial)
			copy(r.centerMax, r.rmax)
		}
		if added > 0 {
			return added
		}
	}
	return added
}
