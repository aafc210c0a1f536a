package conelp

import (
	"math"

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

// smoothing is the weight of the best prices so far in the prices the columns are priced at
// (Wentges' smoothing): it cut the pricing rounds by a third on the location-privacy programs.
const smoothing = 0.5

const exactEvery = 3

// purgeAge: a master column nonbasic for this many rounds in a row is dropped (when the
// master holds more than 4N + 2|W| columns). Dropped too early (after 3 rounds), columns that a
// degenerate master needs again are priced anew round after round: on a 200-answer path with
// ε = 0.5 and a random prior the master's value stood still for 300 of 384 rounds; with 30 it
// takes 79 rounds, and the 7×7 location map 140 instead of 157.
const purgeAge = 30

// design holds the decomposition's alternative designs, which tests and benchmarks compare
// in one binary. It travels with the Problem (unexported), so that solves running in
// parallel never share a switch; the zero value is the production design.
type design struct {
	// fixedSmoothing keeps the smoothing weight at smoothing. By default the weight adapts
	// every round by the rule of Pessoa, Sadykov, Uchoa and Vanderbeck ("Automation and
	// combination of linear-programming based stabilization techniques in column
	// generation", INFORMS J. Computing 2018): a subgradient of the Lagrangian bound at the
	// smoothed prices tells whether moving further towards the master's prices would lower
	// the bound; if so the weight drops by 0.1, otherwise it rises by a tenth of what is left
	// to 1.
	fixedSmoothing bool
	// plateaus starts the master with plateau columns besides the tents (pricer.plateaus)
	// when the pricing runs on every pair (no pair generation) and no pair is steep (a factor
	// above e^4). Off by default: on the random-prior path of 200 answers they cut the rounds
	// from 53 to 13–14 (7.5 → 1.3–2.0 s CPU) and on the 10×10 grid with hot spots from 104
	// to 86, but the master is then fragile — with automatic smoothing the same path once took
	// 80,901 degenerate pivots (28 s), a 10×10 location map started with them stalled at its
	// first vertex for more than 100,000 pivots, and a random 6-row program with ε = 20 lost
	// its accuracy (a row sum of 5). A master that does not stall on degenerate vertices would
	// let them on.
	plateaus bool
	// truncatePhases, when positive, stops the pricings of the smoothed rounds between exact
	// ones (every exactEvery-th round) after that many phases (pricer.priceUpTo); bounds come
	// only from exact rounds. Off: aimed at large maps, whose pricings take about 130 phases
	// (20×20 with a spanner), it was measured only where they take about 13 (6×6 and 7×7
	// maps), and there a cap of 16 cost rounds (110 → 130, 129 → 186) and time (CPU +3% and
	// +25%): the rounds without a bound keep the smoothing centre still.
	truncatePhases int
	// fullPricing makes every round of output generation price every output, as it did
	// before its partial pricings (outputGen.pricingOrder).
	fullPricing bool
	// noJoinPairs leaves the pairs tight at a joining output's priced point to the row
	// generation of the restricted program (outputGen.joinPairs).
	noJoinPairs bool
	// trace, when set, receives a line per pricing round and per output round.
	trace func(string, ...any)
}

// tracef writes a trace line when a trace is set.
func (d *design) tracef(format string, args ...any) {
	if d.trace != nil {
		d.trace(format, args...)
	}
}

// Solve solves p by Dantzig–Wolfe decomposition over the columns of H (see the package
// documentation). It returns an error only for invalid input; a solve that ends without a
// verified optimum reports it in Result.Status (with the best H found, which is feasible).
// Options: Context, Progress (called after every 16 columns priced and every ProgressEvery
// master pivots; returning false cancels), TimeLimit, MaxIterations (master pivots; by
// default a thousand per row plus a hundred thousand), and FeasibilityTol and OptimalityTol,
// the primal and dual residuals (the latter relative to the
// largest |Cost|) a result must meet to be Optimal (default 1e−9; a result that converged
// without meeting them is Imprecise).
//
// A solve runs in named steps: start (the master's first columns and basis), output
// generation (location maps: restricted programs over a growing set of outputs, which
// usually ends with a certificate), decomposition (the fallback, and the method for every
// other program) and finish (H, the certificate and its check).
func Solve(p *Problem, opt *lp.Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	r := newRun(p, opt)
	r.start()
	out := &Result{}
	var warm *outputGen
	if (r.gen != nil || p.FewOutputs) && !p.NoOutputs {
		og, finished := r.outputGeneration(out)
		if finished {
			return out, nil
		}
		warm = og
	}
	converged := r.decompose(out, warm)
	r.finishDecomposition(out, converged)
	return out, nil
}

// finishDecomposition builds the decomposition's result: on convergence the certificate (the
// best prices raised by their residual maxima, priced once more to measure their residual in
// the units of the input), then H, the checks and the status.
func (r *run) finishDecomposition(out *Result, converged bool) {
	if !converged && !r.m.cleanup(10*r.n) && r.status == lp.Optimal {
		r.status = lp.IterationLimit
	}
	out.Iterations += r.m.iters
	out.Columns += len(r.m.cols)
	out.Pairs = r.cn.pairs
	if converged {
		for y := range r.center {
			r.center[y] += r.centerMax[y]
		}
		r.bestBound, _ = r.priceAll(r.center, false, 0, 0)
	}
	finish(r.p, r.cost, r.m, r.center, r.bestBound, r.scale, r.sign, out)
	out.DualResidual = r.scale * r.dualRes
	if converged {
		out.Multipliers = r.keep
	}
	switch {
	case r.status != lp.Optimal:
	case !converged:
		r.status = lp.IterationLimit
	case !out.verified(r.scale, r.tolP, r.tolD):
		r.status = lp.Imprecise
	}
	out.Status = r.status
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
