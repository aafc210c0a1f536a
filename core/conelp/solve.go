package conelp

import (
	"context"
	"math"
	"math/rand/v2"
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
	gapTol = 1e-9
	// primalTol bounds the primal residual (row sums, privacy constraints) for Optimal.
	primalTol = 1e-9
)

var debugf func(string, ...any)

var smoothing = 0.5

var latticeColumns = true

var perturbSize = 0.0

var warmPricing = false

// maxWarmState bounds the floats kept for warm-started pricing (flows and potentials of every
// column).
const maxWarmState = 16 << 20

// Solve solves p by Dantzig–Wolfe decomposition over the columns of H (see the package
// documentation). It returns an error only for invalid input; a solve that ends without a
// verified optimum reports it in Result.Status (with the best H found, which is feasible).
// Options: Context, Progress (called after every pricing round and every few hundred master
// pivots; returning false cancels), TimeLimit and MaxIterations (master pivots); the
// tolerances of lp.Options are not used (see the constants of this package).
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
	pr := newPricer(cn)
	if warmPricing && float64(W)*float64(cn.arcs()+n) <= maxWarmState {
		pr.warm = make([][]float64, W)
	}
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
	for w := 0; w < W; w++ {
		h := make([]float64, n)
		top := 0
		for y, v := range cost[w] {
			if v > cost[w][top] {
				top = y
			}
		}
		pr.tent(top, h)
		j := m.add(w, h, dot(cost[w], h))
		if centre[top] < 0 {
			centre[top] = j
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
	stopped := func() bool {
		switch {
		case ctx.Err() != nil:
			status = lp.Cancelled
		case o.TimeLimit > 0 && time.Since(start) > o.TimeLimit:
			status = lp.TimeLimit
		case o.MaxIterations > 0 && m.iters >= o.MaxIterations:
			status = lp.IterationLimit
		default:
			return false
		}
		return true
	}
	report := func(infeas float64) bool {
		if o.Progress == nil {
			return true
		}
		ok := o.Progress(lp.Progress{Iteration: m.iters, Objective: sign * scale * m.objective(),
			Infeasibility: scale * infeas, Phase: "decomposition"})
		if !ok {
			status = lp.Cancelled
		}
		return ok
	}
	lastReport := 0
	stop := func() bool {
		if stopped() {
			return true
		}
		if m.iters-lastReport >= 200 {
			lastReport = m.iters
			return !report(math.NaN())
		}
		return false
	}

	g := make([]float64, n)
	h := make([]float64, n)
	res := make([]float64, n)
	rmax := make([]float64, n)
	cur := make([][]float64, W) // the master's current column of each output, max entry 1
	// priceAll prices every column at the row prices mu: it returns the bound
	// Σ_y (mu_y + max_w r⁺_wy) (valid for any mu, see the package documentation) with the
	// maxima in rmax and, when add is set, adds to the master every priced cone point (and its
	// lattice combinations with the output's current column) whose reduced cost at the
	// master's own prices is positive.
	priceAll := func(mu []float64, add bool, thr float64) (bound float64, added int, infeas float64) {
		for y := range rmax {
			rmax[y] = 0
		}
		for w := 0; w < W; w++ {
			if w%16 == 0 && stopped() {
				return math.Inf(1), 0, 0
			}
			for y := range g {
				g[y] = cost[w][y] - mu[y]
			}
			ok, val := pr.price(w, g, h, res, certTol)
			for y, r := range res {
				rmax[y] = math.Max(rmax[y], r)
			}
			if ok || !add {
				continue
			}
			infeas += math.Max(val, 0)
			if c := dot(cost[w], h); c-dot(m.mu, h) > thr {
				m.add(w, append([]float64(nil), h...), c)
				added++
			}
			if latticeColumns && cur[w] != nil {
				// K is closed under pointwise max and min: offer the master the current
				// column patched with the new point, which no nonnegative combination gives.
				for _, op := range []func(a, b float64) float64{math.Max, math.Min} {
					x := make([]float64, n)
					for y := range x {
						x[y] = op(cur[w][y], h[y])
					}
					if c := dot(cost[w], x); c-dot(m.mu, x) > thr {
						m.add(w, x, c)
						added++
					}
				}
			}
		}
		for y := range mu {
			bound += mu[y] + rmax[y]
		}
		return bound, added, infeas
	}
	currentColumns := func() {
		for w := range cur {
			cur[w] = nil
		}
		for i, j := range m.basis {
			if j < 0 || !(m.x[i] > 0) {
				continue
			}
			w := m.colW[j]
			if cur[w] == nil {
				cur[w] = make([]float64, n)
			}
			for y, v := range m.cols[j] {
				cur[w][y] += m.x[i] * v
			}
		}
		for _, c := range cur {
			if c == nil {
				continue
			}
			mx := 0.0
			for _, v := range c {
				mx = math.Max(mx, v)
			}
			for y := range c {
				c[y] /= mx
			}
		}
	}

	// The master's row sums are perturbed while iterating, against degenerate pivots; the
	// perturbation is removed (dual simplex) once the bound is reached, and the rounds go on
	// with the exact master until the bound is reached again.
	rng := rand.New(rand.NewPCG(uint64(n), uint64(W)))
	for y := range m.b {
		m.b[y] = 1 + perturbSize*(1+rng.Float64())
	}
	m.computeX()
	perturbed := true

	res0 := &Result{}
	converged := false
	bestBound := math.Inf(1)
	center := make([]float64, n)    // the row prices of the best bound so far
	centerMax := make([]float64, n) // their rmax
	trial := make([]float64, n)
	for round := 1; ; round++ {
		res0.Rounds = round
		if !m.optimize(enterTol, stop) {
			break
		}
		// The restricted master's value at the unperturbed row sums (its dual objective).
		lower := 0.0
		for _, v := range m.mu {
			lower += v
		}
		added, infeas := 0, 0.0
		if latticeColumns {
			currentColumns()
		}
		// Price at a point between the best prices so far and the master's (Wentges'
		// smoothing); if that gives the master nothing worth a round (reduced costs far below
		// the gap), at the master's prices, where the bound closes on the master's value as the
		// reduced costs vanish.
		for _, a := range []float64{smoothing, 0} {
			if (math.IsInf(bestBound, 1) || !perturbed) && a > 0 {
				continue
			}
			for y := range trial {
				trial[y] = a*center[y] + (1-a)*m.mu[y]
			}
			thr := enterTol
			if a > 0 {
				thr = math.Max(enterTol, 1e-3*(bestBound-lower)/float64(W))
			}
			var bound float64
			bound, added, infeas = priceAll(trial, true, thr)
			if status != lp.Optimal {
				break
			}
			if bound < bestBound {
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
		if debugf != nil {
			debugf("round %d: lower %.10f best %.10f added %d pivots %d cols %d t %v", round, lower, bestBound, added, m.iters, len(m.cols), time.Since(start))
		}
		if bestBound-lower <= gapTol/2*math.Max(1, math.Abs(lower)) {
			if !perturbed {
				converged = true
				break
			}
			perturbed = false
			for y := range m.b {
				m.b[y] = 1
			}
			if !m.cleanup(m.b, 10*n) {
				status = lp.IterationLimit
				break
			}

			continue
		}
		if !report(infeas) {
			break
		}
		if added == 0 {
			if perturbed {
				// Nothing improves the perturbed master: finish with the exact one.
				perturbed = false
				for y := range m.b {
					m.b[y] = 1
				}
				if !m.cleanup(m.b, 10*n) {
					status = lp.IterationLimit
					break
				}
				continue
			}
			// The bound is not reached but no improving cone point was found: the pricing is
			// stuck at the tolerances.
			status = lp.IterationLimit
			break
		}
		for j := range m.cols {
			if m.inB[j] < 0 {
				m.age[j]++
			}
		}
		m.purge(3, 4*n+2*W)
	}
	// A fresh inverse and, if that shows infeasibility, dual simplex pivots back to it.
	for y := range m.b {
		m.b[y] = 1
	}
	if !m.cleanup(m.b, 10*n) && status == lp.Optimal {
		status = lp.IterationLimit
	}
	res0.Iterations = m.iters
	res0.Columns = len(m.cols)
	if debugf != nil {
		perW := map[int]int{}
		for i, j := range m.basis {
			if j >= 0 && m.x[i] > 1e-12 {
				perW[m.colW[j]]++
			}
		}
		debugf("final row error %g", m.rowError())
		debugf("final basis: %d outputs used, rays per output %v", len(perW), perW)
		debugf("pricing: %d calls, %.1f phases and %.1f augmentations per call", pr.calls, float64(pr.phases)/float64(pr.calls), float64(pr.augments)/float64(pr.calls))
	}
	if converged {
		// The certificate: the best prices raised by their residual maxima are dual feasible
		// (Cost[w] − mu − Pᵀα_w ≤ 0 with the same α); price them once more to check that in
		// the units of the input.
		for y := range center {
			center[y] += centerMax[y]
		}
		priceAll(center, false, 0)
	}
	finish(p, cost, m, center, rmax, scale, sign, res0)
	if status == lp.Optimal && (!converged || !res0.verified()) {
		status = lp.IterationLimit
	}
	res0.Status = status
	return res0, nil
}

// finish builds H from the master's basis and computes the objective, the bound and the
// residuals in the units of the input.
func finish(p *Problem, cost [][]float64, m *master, mu, rmax []float64, scale, sign float64, r *Result) {
	n, W := p.N, len(p.Cost)
	H := make([]float64, n*W)
	for i, j := range m.basis {
		if j < 0 {
			continue
		}
		lam := m.x[i]
		if !(lam > 1e-300) {
			continue
		}
		w := m.colW[j]
		for y, v := range m.cols[j] {
			H[y*W+w] += lam * v
		}
	}
	r.H = H
	obj := 0.0
	for w, c := range p.Cost {
		for y, v := range c {
			obj += v * H[y*W+w]
		}
	}
	r.Objective = obj
	bound := 0.0
	r.Mu = make([]float64, n)
	for y := 0; y < n; y++ {
		bound += mu[y] + rmax[y]
		r.Mu[y] = sign * scale * mu[y]
		r.DualResidual = math.Max(r.DualResidual, scale*rmax[y])
	}
	r.Bound = sign * scale * bound
	// Primal residual against the original program.
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
		f := math.Exp(q.Log)
		if math.IsInf(f, 1) {
			continue
		}
		ra, rb := H[q.A*W:(q.A+1)*W], H[q.B*W:(q.B+1)*W]
		for w := 0; w < W; w++ {
			worst = math.Max(worst, math.Max(ra[w]-f*rb[w], rb[w]-f*ra[w]))
		}
	}
	r.PrimalResidual = worst
}

// verified reports whether the gap and the residuals meet the tolerances.
func (r *Result) verified() bool {
	gap := math.Abs(r.Bound - r.Objective)
	return r.PrimalResidual <= primalTol && gap <= gapTol*math.Max(1, math.Abs(r.Objective))
}
