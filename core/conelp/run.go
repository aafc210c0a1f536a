package conelp

import (
	"context"
	"math"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

// run is one solve of a Problem: the scaled program, the cones and pricers, the master, the
// status and the progress reports, shared by the steps of Solve.
type run struct {
	p      *Problem
	o      lp.Options
	d      design
	ctx    context.Context
	begin  time.Time
	n, W   int
	tolP   float64 // primal and dual tolerances of the status Optimal
	tolD   float64
	every  int     // master pivots between progress reports
	sign   float64 // +1 to maximize, −1 to minimize: the run always maximizes sign·Cost
	scale  float64 // the largest |Cost|: the run's costs are divided by it
	cost   [][]float64
	maxPiv int

	cn    *cone    // the cone priced on: every pair, or the active pairs
	gen   *pairGen // pair generation, nil when every pair is priced from the start
	tents *pricer  // on every pair: the starting columns must be in K
	pr    *pricer
	m     *master
	best  int // the output of largest total cost, whose constant column starts the master

	status    lp.Status
	lastGap   float64
	bestBound float64 // the least bound priced so far (scaled)
	carried   float64 // output generation's best bound, reported until the decomposition's is better
	// pivotsBefore is output generation's pivots when the decomposition follows it: the
	// reports count every pivot so far, as Result.Iterations does, so that they never go back.
	pivotsBefore int
	lastReport   int
	// pricingReport is the report made during a pricing pass (every 16 outputs).
	pricingReport func() bool

	// The pricing pass's buffers and results (see priceAll).
	g, h, res, rerr, rmax []float64
	hc                    []float64 // a priced point closed over every pair
	sub                   []float64 // Σ_w of the priced points: 1 − sub is a subgradient of the Lagrangian bound
	dualRes               float64   // largest r_wy of the last pricing
	colGain               []float64 // (Cost[w] − mu)·h of the point priced for w, 0 if none
	keep                  [][]float64
	points                [][]float64 // output generation: each output's last priced point in K (nil if it priced out)
	truncated             bool        // a column of the last priceAll stopped at maxPhases

	center    []float64 // the row prices of the best bound so far
	centerMax []float64 // their rmax
}

// newRun scales the costs (to a largest |Cost| of 1, maximized), reads the options and builds
// the cones.
func newRun(p *Problem, opt *lp.Options) *run {
	r := &run{p: p, d: p.design, n: p.N, W: len(p.Cost), begin: time.Now(), status: lp.Optimal}
	if opt != nil {
		r.o = *opt
	}
	r.ctx = r.o.Context
	if r.ctx == nil {
		r.ctx = context.Background()
	}
	r.tolP, r.tolD = primalTol, dualTol
	if r.o.FeasibilityTol > 0 {
		r.tolP = r.o.FeasibilityTol
	}
	if r.o.OptimalityTol > 0 {
		r.tolD = r.o.OptimalityTol
	}
	r.every = r.o.ProgressEvery
	if r.every <= 0 {
		r.every = 200
	}
	r.sign = 1
	if p.Sense == lp.Minimize {
		r.sign = -1
	}
	for _, c := range p.Cost {
		for _, v := range c {
			r.scale = math.Max(r.scale, math.Abs(v))
		}
	}
	if r.scale == 0 {
		r.scale = 1
	}
	r.cost = make([][]float64, r.W)
	for w, c := range p.Cost {
		r.cost[w] = make([]float64, r.n)
		for y, v := range c {
			r.cost[w][y] = r.sign * v / r.scale
		}
	}
	// Without a limit from the caller the master still stops, after far more pivots than any
	// solve here has needed (51,136 on the 20×20 spanner map in 120 s): a master that has lost
	// its accuracy can pivot without end, and a call must return.
	r.maxPiv = r.o.MaxIterations
	if r.maxPiv <= 0 {
		r.maxPiv = 1000*r.n + 100_000
	}
	r.cn = newCone(r.n, p.Pairs)
	if !p.AllPairs {
		r.gen = newPairGen(r.n, p.Pairs, r.cn)
	}
	r.tents = newPricer(r.cn)
	if r.gen != nil {
		r.tents = r.gen.fullPr
		r.cn = r.gen.cone()
	}
	r.pr = newPricer(r.cn)
	r.m = newMaster(r.n)
	n := r.n
	r.g, r.h, r.res, r.rerr, r.rmax = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	r.hc, r.sub = make([]float64, n), make([]float64, n)
	r.colGain = make([]float64, r.W)
	if p.KeepMultipliers {
		r.keep = make([][]float64, r.W)
	}
	r.center, r.centerMax = make([]float64, n), make([]float64, n)
	r.lastGap, r.bestBound, r.carried = math.Inf(1), math.Inf(1), math.Inf(1)
	r.pricingReport = func() bool { return r.report(r.lastGap) }
	return r
}

// start gives the master its first columns and basis: the constant column for the output of
// largest total cost (feasible alone), then for every output w the tent e^{−dist(·, y)} at
// the row y of largest Cost[w][y] (and plateaus when that design is on).
func (r *run) start() {
	n, m := r.n, r.m
	bestSum := math.Inf(-1)
	for w, c := range r.cost {
		s := 0.0
		for _, v := range c {
			s += v
		}
		if s > bestSum {
			r.best, bestSum = w, s
		}
	}
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	j0 := m.add(r.best, ones, bestSum)
	centre := make([]int, n) // tent column centred at each row, −1 if none
	for y := range centre {
		centre[y] = -1
	}
	plateauOf := map[string]int{}
	usePlateaus := r.d.plateaus && r.gen == nil
	for _, l := range r.cn.length {
		// Steep cones (a factor above e^4 on some pair) made the master, started with
		// plateaus, lose its accuracy: a random 6-row program with ε = 20 ended with a row sum
		// of 5. Their plateaus are nearly indicator vectors anyway.
		usePlateaus = usePlateaus && l <= 4
	}
	for w := 0; w < r.W; w++ {
		h := make([]float64, n)
		top := 0
		for y, v := range r.cost[w] {
			if v > r.cost[w][top] {
				top = y
			}
		}
		r.tents.tent(top, h)
		j := m.add(w, h, dot(r.cost[w], h))
		if centre[top] < 0 {
			centre[top] = j
		}
		if usePlateaus {
			// Outputs whose nearest sets coincide get the same plateau: keep it once, for
			// the output it costs least (identical columns made the master cycle).
			cols, keys := r.tents.plateaus(top)
			for i, col := range cols {
				c := dot(r.cost[w], col)
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
}

// stopped reports whether the run must stop (cancelled, out of time or of pivots), setting
// the status that says why.
func (r *run) stopped() bool {
	switch {
	case r.ctx.Err() != nil:
		r.status = lp.Cancelled
	case r.o.TimeLimit > 0 && time.Since(r.begin) > r.o.TimeLimit:
		r.status = lp.TimeLimit
	case r.m.iters >= r.maxPiv:
		r.status = lp.IterationLimit
	default:
		return false
	}
	return true
}

// report sends the decomposition's progress (in the units of the input) and records gap; it
// returns false when the caller cancelled.
func (r *run) report(gap float64) bool {
	r.lastGap = gap
	if r.o.Progress == nil {
		return true
	}
	shown := math.Min(r.bestBound, r.carried)
	if shown < r.bestBound {
		gap = shown - r.m.objective()
	}
	ok := r.o.Progress(lp.Progress{Iteration: r.pivotsBefore + r.m.iters, Objective: r.sign * r.scale * r.m.objective(),
		Infeasibility: r.scale * gap, Phase: "decomposition", Bound: r.sign * r.scale * shown})
	if !ok {
		r.status = lp.Cancelled
	}
	return ok
}

// stop is the master's test between pivots: stopped, or cancelled at a progress report.
func (r *run) stop() bool {
	if r.stopped() {
		return true
	}
	if r.m.iters-r.lastReport >= r.every {
		r.lastReport = r.m.iters
		return !r.report(r.lastGap)
	}
	return false
}
