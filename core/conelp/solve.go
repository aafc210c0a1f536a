package conelp

import (
	"context"
	"math"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

// Tolerances, relative to the largest |Cost| (costs are scaled to max 1 inside Solve).
const (
	// enterTol is the reduced cost a master column needs to enter the basis, and a priced cone
	// point to be added.
	enterTol = 1e-12
	// certTol is the obligation a row may keep in a dual certificate: the dual residual.
	certTol = 1e-12
	// gapTol bounds (Bound − Objective)/max(1, |Objective|) for the status Optimal.
	gapTol = 1e-11
	// primalTol bounds the primal residual (row sums, privacy constraints) for Optimal.
	primalTol = 1e-9
	// dualTol bounds the dual residual for Optimal (relative to the largest |Cost|).
	dualTol = 1e-9
)

// debugf, when set (by tests), receives a line per pricing round.
var debugf func(string, ...any)

// smoothing is the weight of the best prices so far in the prices the columns are priced at
// (Wentges' smoothing): it cut the pricing rounds by a third on the location-privacy programs.
const smoothing = 0.5

// autoSmoothing adapts the smoothing weight every round by the rule of Pessoa, Sadykov, Uchoa
// and Vanderbeck ("Automation and combination of linear-programming based stabilization
// techniques in column generation", INFORMS J. Computing 2018): a subgradient of the Lagrangian
// bound at the smoothed prices tells whether moving further towards the master's prices would
// lower the bound; if so the weight drops by 0.1, otherwise it rises by a tenth of what is left
// to 1. A variable so that tests and benchmarks can compare it with the fixed weight.
var autoSmoothing = true

// plateaus starts the master with plateau columns besides the tents (pricer.plateaus) when
// the pricing runs on every pair (no pair generation) and no pair is steep (a factor above
// e^4). Off by default: on the random-prior path of 200 answers they cut the rounds from 53 to
// 13–14 (7.5 → 1.3–2.0 s CPU) and on the 10×10 grid with hot spots from 104 to 86, but the
// master is then fragile — with automatic smoothing the same path once took 80,901 degenerate
// pivots (28 s), a 10×10 location map started with them stalled at its first vertex for more
// than 100,000 pivots, and a random 6-row program with ε = 20 lost its accuracy (a row sum of
// 5). A master that does not stall on degenerate vertices would let them on.
// -conelp.design=+plateaus turns them on.
var plateaus = false

// truncatePhases, when positive, stops the pricings of the smoothed rounds between exact ones
// (every exactEvery-th round) after that many phases (pricer.priceUpTo); bounds come only from
// exact rounds. Off: aimed at large maps, whose pricings take about 130 phases (20×20 with a
// spanner), it was measured only where they take about 13 (6×6 and 7×7 maps), and there a cap
// of 16 cost rounds (110 → 130, 129 → 186) and time (CPU +3% and +25%): the rounds without a
// bound keep the smoothing centre still. -conelp.design=+truncate turns it on.
var truncatePhases = 0

const exactEvery = 3

// purgeAge: a master column nonbasic for this many rounds in a row is dropped (when the
// master holds more than 4N + 2|W| columns). Dropped too early (after 3 rounds), columns that a
// degenerate master needs again are priced anew round after round: on a 200-answer path with
// ε = 0.5 and a random prior the master's value stood still for 300 of 384 rounds; with 30 it
// takes 79 rounds, and the 7×7 location map 140 instead of 157.
const purgeAge = 30

// Solve solves p by Dantzig–Wolfe decomposition over the columns of H (see the package
// documentation). It returns an error only for invalid input; a solve that ends without a
// verified optimum reports it in Result.Status (with the best H found, which is feasible).
// Options: Context, Progress (called after every 16 columns priced and every ProgressEvery
// master pivots; returning false cancels), TimeLimit, MaxIterations (master pivots; by
// default a thousand per row plus a hundred thousand), and FeasibilityTol and OptimalityTol,
// the primal and dual residuals (the latter relative to the
// largest |Cost|) a result must meet to be Optimal (default 1e−9; a result that converged
// without meeting them is Imprecise).
func Solve(p *Problem, opt *lp.Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var o lp.Options
	if opt != nil {
		o = *opt
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	start := time.Now()
	n, W := p.N, len(p.Cost)
	tolP, tolD := primalTol, dualTol
	if o.FeasibilityTol > 0 {
		tolP = o.FeasibilityTol
	}
	if o.OptimalityTol > 0 {
		tolD = o.OptimalityTol
	}
	every := o.ProgressEvery
	if every <= 0 {
		every = 200
	}
	sign := 1.0
	if p.Sense == lp.Minimize {
		sign = -1
	}
	scale := 0.0
	for _, c := range p.Cost {
		for _, v := range c {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	if scale == 0 {
		scale = 1
	}
	cost := make([][]float64, W)
	for w, c := range p.Cost {
		cost[w] = make([]float64, n)
		for y, v := range c {
			cost[w][y] = sign * v / scale
		}
	}
	cn := newCone(n, p.Pairs)
	var gen *pairGen
	if !p.AllPairs {
		gen = newPairGen(n, p.Pairs, cn)
	}
	tents := newPricer(cn) // on every pair: the starting columns must be in K
	if gen != nil {
		tents = gen.fullPr
		cn = gen.cone()
	}
	pr := newPricer(cn)
	m := newMaster(n)

	// Start: the constant column for the output of largest total cost (feasible alone), then
	// for every output w the tent e^{−dist(·, y)} at the row y of largest Cost[w][y].
	best := 0
	bestSum := math.Inf(-1)
	for w, c := range cost {
		s := 0.0
		for _, v := range c {
			s += v
		}
		if s > bestSum {
			best, bestSum = w, s
		}
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	j0 := m.add(best, ones, bestSum)
	centre := make([]int, n) // tent column centred at each row, −1 if none
	for y := range centre {
		centre[y] = -1
	}
	plateauOf := map[string]int{}
	usePlateaus := plateaus && gen == nil
	for _, l := range cn.length {
		// Steep cones (a factor above e^4 on some pair) made the master, started with
		// plateaus, lose its accuracy: a random 6-row program with ε = 20 ended with a row sum
		// of 5. Their plateaus are nearly indicator vectors anyway.
		usePlateaus = usePlateaus && l <= 4
	}
	for w := 0; w < W; w++ {
		h := make([]float64, n)
		top := 0
		for y, v := range cost[w] {
			if v > cost[w][top] {
				top = y
			}
		}
		tents.tent(top, h)
		j := m.add(w, h, dot(cost[w], h))
		if centre[top] < 0 {
			centre[top] = j
		}
		if usePlateaus {
			// Outputs whose nearest sets coincide get the same plateau: keep it once, for
			// the output it costs least (identical columns made the master cycle).
			cols, keys := tents.plateaus(top)
			for i, col := range cols {
				c := dot(cost[w], col)
				if j, ok := plateauOf[keys[i]]; ok {
					if c > m.cost[j] {
						m.colW[j], m.cost[j] = w, c
					}
					continue
				}
				plateauOf[keys[i]] = m.add(w, col, c)
			}
		}
	}
	// The first basis: the constant column and the tents of n − 1 distinct rows (artificials
	// where a row has no tent), a degenerate feasible basis whose prices already mean
	// something; if it is singular, the constant column and artificials.
	m.basis[0], m.inB[j0] = j0, 0
	for y := 1; y < n; y++ {
		if j := centre[y]; j >= 0 {
			m.basis[y], m.inB[j] = j, y
		}
	}
	if !m.reinvert() {
		for y := 1; y < n; y++ {
			if j := m.basis[y]; j >= 0 {
				m.inB[j] = -1
			}
			m.basis[y] = -1 - y
		}
		m.reinvert()
	}

	status := lp.Optimal
	// Without a limit from the caller the master still stops, after far more pivots than any
	// solve here has needed (51,136 on the 20×20 spanner map in 120 s): a master that has lost
	// its accuracy can pivot without end, and a call must return.
	maxPivots := o.MaxIterations
	if maxPivots <= 0 {
		maxPivots = 1000*n + 100_000
	}
	stopped := func() bool {
		switch {
		case ctx.Err() != nil:
			status = lp.Cancelled
		case o.TimeLimit > 0 && time.Since(start) > o.TimeLimit:
			status = lp.TimeLimit
		case m.iters >= maxPivots:
			status = lp.IterationLimit
		default:
			return false
		}
		return true
	}
	lastGap := math.Inf(1)
	bestBound := math.Inf(1) // the least bound priced so far (scaled; see the rounds below)
	// carried is output generation's best bound when the decomposition starts afresh after it:
	// still a valid bound, so the progress reports keep it until the decomposition's own is
	// better (the rounds do not use it).
	carried := math.Inf(1)
	// pivotsBefore is output generation's pivots when the decomposition follows it: the reports
	// count every pivot so far, as Result.Iterations does, so that they never go back.
	pivotsBefore := 0
	report := func(gap float64) bool {
		lastGap = gap
		if o.Progress == nil {
			return true
		}
		shown := math.Min(bestBound, carried)
		if shown < bestBound {
			gap = shown - m.objective()
		}
		ok := o.Progress(lp.Progress{Iteration: pivotsBefore + m.iters, Objective: sign * scale * m.objective(),
			Infeasibility: scale * gap, Phase: "decomposition", Bound: sign * scale * shown})
		if !ok {
			status = lp.Cancelled
		}
		return ok
	}
	lastReport := 0
	// pricingReport is the report made during a pricing pass (every 16 outputs).
	pricingReport := func() bool { return report(lastGap) }
	stop := func() bool {
		if stopped() {
			return true
		}
		if m.iters-lastReport >= every {
			lastReport = m.iters
			return !report(lastGap)
		}
		return false
	}

	g := make([]float64, n)
	h := make([]float64, n)
	res := make([]float64, n)
	rerr := make([]float64, n)
	rmax := make([]float64, n)
	dualRes := 0.0                // largest r_wy of the last pricing
	colGain := make([]float64, W) // (Cost[w] − mu)·h of the point priced for w, 0 if none
	var keep [][]float64
	if p.KeepMultipliers {
		keep = make([][]float64, W)
	}
	// priceAll prices every column at the row prices mu. It returns the bound
	// Σ_y (mu_y + max_w r⁺_wy), r_w = Cost[w] − mu − Pᵀα_w, valid for any mu (see the package
	// documentation; each r is rounded up by a bound on its rounding error), with the maxima in
	// rmax; when add is set it adds to the master every priced cone point whose reduced cost
	// at the master's own prices exceeds thr.
	hc := make([]float64, n)  // a priced point closed over every pair
	sub := make([]float64, n) // Σ_w of the priced points: 1 − sub is a subgradient of the Lagrangian bound
	truncated := false        // a column of the last priceAll stopped at maxPhases
	priceAll := func(mu []float64, add bool, thr float64, maxPhases int) (bound float64, added int) {
		truncated = false
		for y := range rmax {
			rmax[y] = 0
			sub[y] = 0
		}
		dualRes = 0
		for w := 0; w < W; w++ {
			if w%16 == 15 && (stopped() || !pricingReport()) {
				return math.Inf(1), 0
			}
			for y := range g {
				g[y] = cost[w][y] - mu[y]
			}
			ok, gain := pr.priceUpTo(g, h, res, rerr, certTol, maxPhases)
			truncated = truncated || pr.truncated
			colGain[w] = 0
			if !ok {
				colGain[w] = gain
			}

			if !add && !ok && gen != nil {
				// Output generation prices on the active pairs' cone, which contains K: the
				// bound stays valid, but the gain may come from pairs left out. The point
				// closed over every pair is in K: its gain is what the output can surely
				// bring, and the pairs the closing enforced join the next pricing.
				copy(hc, h)
				gen.close(hc)
				colGain[w] = math.Max(0, dot(g, hc))
			}
			if !add && keep != nil {
				// Output generation prices this way every round: reuse the vectors.
				if keep[w] == nil {
					keep[w] = make([]float64, 2*len(p.Pairs))
				} else {
					clear(keep[w])
				}
				for k, a := range pr.alpha {
					keep[w][cn.pair[k]] = scale * a
				}
			}
			for y, r := range res {
				rmax[y] = math.Max(rmax[y], r+rerr[y])
				dualRes = math.Max(dualRes, r)
			}
			if ok || !add {
				continue
			}
			for y, v := range h {
				sub[y] += v
			}
			if gen != nil {
				gen.close(h)
			}
			if c := dot(cost[w], h); c-dot(m.mu, h) > thr {
				m.add(w, append([]float64(nil), h...), c)
				added++
			}
		}
		margin := 0.0
		for y := range mu {
			bound += mu[y] + rmax[y]
			margin += math.Abs(mu[y]) + rmax[y]
		}
		return bound + 2*float64(n)*margin*0x1p-53, added
	}

	out := &Result{}
	var warm *outputGen
	// Output generation first on location maps (see blocks.go); the decomposition below is
	// the fallback when it ends without a certificate.
	if (gen != nil || p.FewOutputs) && !p.NoOutputs {
		var og *outputGen
		og = &outputGen{n: n, W: W, cost: cost, pairs: p.Pairs, ctx: ctx, start: start, timeLimit: o.TimeLimit,
			price: func(mu []float64) float64 {
				for {
					b, _ := priceAll(mu, false, 0, 0)
					if gen == nil || len(gen.pending) == 0 || status != lp.Optimal {
						return b
					}
					gen.pending = gen.pending[:0]
					cn = gen.cone()
					pr = newPricer(cn)
					for _, gw := range colGain {
						if gw > enterTol {
							return b // outputs to add: the new pairs count from the next round
						}
					}
					// Nothing to add, but the cone was too loose for the bound to tell:
					// price again on the grown one.
				}
			},
			gain: colGain, rmax: rmax, ok: func() bool { return status == lp.Optimal },
			report: func(obj, gap float64) bool {
				if o.Progress == nil {
					return true
				}
				if !o.Progress(lp.Progress{Iteration: og.pivots, Objective: sign * scale * obj, Infeasibility: scale * gap,
					Phase: "output generation", Bound: sign * scale * og.bestBound}) {
					status = lp.Cancelled
					return false
				}
				return true
			}}
		pricingReport = func() bool { return og.report(og.lastObj, og.lastGap) }
		H, mu, bound, done := og.run(best)
		pricingReport = func() bool { return report(lastGap) }
		out.Rounds, out.Iterations, out.Columns = og.rounds, og.pivots, og.columns
		pivotsBefore = og.pivots
		if done {
			finishH(p, H, mu, bound, scale, sign, out)
			out.DualResidual = scale * dualRes
			out.Multipliers = keep
			out.Pairs = og.activePairs
			out.Outputs = og.columns
			if out.verified(scale, tolP, tolD) {
				out.Status = lp.Optimal
				return out, nil
			}
		}
		if status != lp.Optimal || stopped() {
			// Cancelled or out of time: report the best feasible H, as the decomposition does.
			mu := og.bestMu
			if og.bestAt != nil {
				mu = og.bestAt // the prices of the bound reported
			}
			finishH(p, og.bestH, mu, og.bestBound, scale, sign, out)
			out.DualResidual = math.NaN() // no pricing at the returned prices was completed
			out.Status = status
			return out, nil
		}
		warm = og
	}
	preRounds := out.Rounds
	converged := false
	center := make([]float64, n)    // the row prices of the best bound so far
	centerMax := make([]float64, n) // their rmax
	if warm != nil && gen == nil {
		carried = warm.bestBound
	}
	if warm != nil && warm.bestAt != nil && gen != nil {
		// The decomposition takes over from output generation: its last solution's columns,
		// closed over every pair as the priced points are (gen.close: they lie in K exactly,
		// and the pairs the closing enforced join the pricing), enter the master, and its best
		// prices are the first centre. Without pair generation (maps with few pairs, such as
		// spanners) it starts afresh: on a random 5-row program with ε = 20 and a dense gain,
		// the master started from such columns lost its accuracy (a row sum of 4) and pivoted
		// without end, and started from its tents but smoothed towards output generation's
		// prices it ended with a row sum of 8.
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
			gen.close(col)
			m.add(w, append([]float64(nil), col...), dot(cost[w], col))
		}
		bestBound = warm.bestBound
		copy(center, warm.bestAt)
		copy(centerMax, warm.bestRmax)
	}
	trial := make([]float64, n)
	smooth := true
	alpha := smoothing
	for round := 1; ; round++ {
		out.Rounds = preRounds + round
		if !m.optimize(enterTol, stop) {
			break
		}
		lower := m.objective()
		added := 0
		// Price at a point between the best prices so far and the master's; if that gives the
		// master nothing worth a round (reduced costs far below the gap), at the master's
		// prices, where the bound closes on the master's value as the reduced costs vanish.
		for _, a := range []float64{alpha, 0} {
			if a > 0 && (!smooth || math.IsInf(bestBound, 1)) {
				continue
			}
			for y := range trial {
				trial[y] = a*center[y] + (1-a)*m.mu[y]
			}
			thr := enterTol
			if a > 0 {
				thr = math.Max(enterTol, 1e-3*(bestBound-lower)/float64(W))
			}
			// Between rounds that price exactly (for the bound), stop each pricing after
			// truncatePhases phases: the point it has then is all the master needs.
			phaseCap := 0
			if a > 0 && truncatePhases > 0 && round%exactEvery != 0 {
				phaseCap = truncatePhases
			}
			var bound float64
			bound, added = priceAll(trial, true, thr, phaseCap)
			if status != lp.Optimal {
				break
			}
			if a > 0 && autoSmoothing {
				// The Lagrangian bound Σ_y μ_y + Σ_w max{(Cost[w] − μ)·h : h ∈ K, h ≤ 1} has the
				// subgradient 1 − Σ_w h_w at the smoothed prices (h_w the priced points); along
				// the master's prices minus the centre it says whether to smooth less or more.
				slope := 0.0
				for y := range sub {
					slope += (1 - sub[y]) * (m.mu[y] - center[y])
				}
				if slope < 0 {
					alpha = math.Max(0, alpha-0.1)
				} else {
					alpha += 0.1 * (1 - alpha)
				}
			}
			if bound < bestBound && !truncated {
				bestBound = bound
				copy(center, trial)
				copy(centerMax, rmax)
			}
			if added > 0 {
				break
			}
		}
		if status != lp.Optimal {
			break
		}
		// New active pairs: price on their cone from now on (the bounds found so far stay
		// valid: they come from cones that contain K).
		grew := gen != nil && len(gen.pending) > 0
		if grew {
			gen.pending = gen.pending[:0]
			cn = gen.cone()
			pr = newPricer(cn)
		}
		gap := bestBound - lower
		if debugf != nil {
			debugf("round %d: lower %.10f bound %.10f added %d α %.2f pivots %d columns %d pairs %d after %v; pricings %d phases %d augments %d", round, lower, bestBound, added, alpha, m.iters, len(m.cols), cn.pairs, time.Since(start), pr.calls, pr.phases, pr.augments)
		}
		if !report(gap) {
			break
		}
		if (added == 0 && !grew) || gap <= gapTol/2*math.Max(1, math.Abs(lower)) {
			// Confirm the master's solution on a fresh inverse (dual simplex pivots if it
			// drifted or an artificial kept some mass); if that moved the basis, go on with
			// unsmoothed rounds.
			before := m.iters
			if !m.cleanup(10 * n) {
				status = lp.IterationLimit
				break
			}
			if m.iters != before {
				smooth = false
				continue
			}
			if lower = m.objective(); bestBound-lower <= gapTol/2*math.Max(1, math.Abs(lower)) {
				converged = true
				break
			}
			if added == 0 && !grew {
				// The bound is not reached but no improving cone point was found: the pricing
				// is stuck at the tolerances.
				status = lp.IterationLimit
				break
			}
		}
		for j := range m.cols {
			if m.inB[j] < 0 {
				m.age[j]++
			}
		}
		m.purge(purgeAge, 4*n+2*W)
	}
	if !converged && !m.cleanup(10*n) && status == lp.Optimal {
		status = lp.IterationLimit
	}
	out.Iterations += m.iters
	out.Columns += len(m.cols)
	out.Pairs = cn.pairs
	if converged {
		// The certificate: the best prices raised by their residual maxima are dual feasible
		// (Cost[w] − mu − Pᵀα_w ≤ 0 with the same α); price them once more to measure that in
		// the units of the input.
		for y := range center {
			center[y] += centerMax[y]
		}
		bestBound, _ = priceAll(center, false, 0, 0)
	}
	finish(p, cost, m, center, bestBound, scale, sign, out)
	out.DualResidual = scale * dualRes
	if converged {
		out.Multipliers = keep
	}
	switch {
	case status != lp.Optimal:
	case !converged:
		status = lp.IterationLimit
	case !out.verified(scale, tolP, tolD):
		status = lp.Imprecise
	}
	out.Status = status
	return out, nil
}

// finish builds H from the master's basis and computes the objective, the row prices, the
// bound and the primal residual in the units of the input.
func finish(p *Problem, cost [][]float64, m *master, mu []float64, bound, scale, sign float64, r *Result) {
	n, W := p.N, len(p.Cost)
	H := make([]float64, n*W)
	for i, j := range m.basis {
		if j < 0 || !(m.x[i] > 0) {
			continue
		}
		lam, w := m.x[i], m.colW[j]
		for y, v := range m.cols[j] {
			H[y*W+w] += lam * v
		}
	}
	finishH(p, H, mu, bound, scale, sign, r)
}

// finishH is finish for a given H (N×W, row-major, in probabilities).
func finishH(p *Problem, H []float64, mu []float64, bound, scale, sign float64, r *Result) {
	n, W := p.N, len(p.Cost)
	r.H = H
	obj := 0.0
	for w, c := range p.Cost {
		for y, v := range c {
			obj += v * H[y*W+w]
		}
	}
	r.Objective = obj
	r.Mu = make([]float64, n)
	for y := 0; y < n; y++ {
		r.Mu[y] = sign * scale * mu[y]
	}
	r.Bound = sign * scale * bound
	// Primal residual against the original program, in probability: row sums, signs, and
	// e^{−Log}·H[A][w] − H[B][w] both ways (the probability H[B][w] lacks).
	worst := 0.0
	for y := 0; y < n; y++ {
		s := 0.0
		for w := 0; w < W; w++ {
			v := H[y*W+w]
			s += v
			worst = math.Max(worst, -v)
		}
		worst = math.Max(worst, math.Abs(s-1))
	}
	for _, q := range p.Pairs {
		f := math.Exp(-q.Log)
		ra, rb := H[q.A*W:(q.A+1)*W], H[q.B*W:(q.B+1)*W]
		for w := 0; w < W; w++ {
			worst = math.Max(worst, math.Max(f*ra[w]-rb[w], f*rb[w]-ra[w]))
		}
	}
	r.PrimalResidual = worst
}

// verified reports whether the gap and the residuals meet the tolerances.
func (r *Result) verified(scale, tolP, tolD float64) bool {
	gap := math.Abs(r.Bound - r.Objective)
	return r.PrimalResidual <= tolP && r.DualResidual <= tolD*scale && gap <= gapTol*math.Max(1, math.Abs(r.Objective))
}
