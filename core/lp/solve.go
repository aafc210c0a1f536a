package lp

import (
	"fmt"
	"math"
	"time"
)

// Solve solves the linear program p. It returns an error only for invalid input (see
// Problem.Validate and Options); every outcome of the solve itself — optimal, infeasible,
// unbounded, imprecise, a limit or a cancellation — is reported in Result.Status.
//
// Every outcome is checked on p as stated before it is reported: an optimum by its residuals
// (see Result), an infeasibility by its Farkas certificate (CheckFarkas), an unboundedness by its
// ray. When the check fails — the scaled problem looked solved but p is not, which equilibration
// can cause when it shrinks a right-hand side below the tolerance — Solve cleans up as mature
// solvers do: first it continues from the final basis on the unscaled problem with tolerances
// 100 times tighter and no perturbation (usually a few pivots), then it solves again with the
// settings that remove the causes one at a time: rows divided by their largest coefficient and
// nothing else scaled (when some row's coefficients span more than 2^8), no scaling, no scaling
// with tolerances 100 times tighter, no dualization, and no dualization, scaling or
// perturbation. The first solution that checks is returned; when none does, the status is
// Imprecise with the best point found. Limits (MaxIterations, TimeLimit) and cancellation apply
// to all the solves together, and Iterations counts them all.
func Solve(p *Problem, opt *Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	o := Options{}
	if opt != nil {
		o = *opt
	}
	for _, t := range []struct {
		name string
		v    float64
	}{{"FeasibilityTol", o.FeasibilityTol}, {"OptimalityTol", o.OptimalityTol}} {
		if math.IsNaN(t.v) || t.v < 0 || t.v > 1e-3 {
			return nil, fmt.Errorf("lp: option %s = %v, want 0 (default) or a value in (0, 1e-3]", t.name, t.v)
		}
	}
	if o.MaxIterations < 0 || o.ProgressEvery < 0 || o.TimeLimit < 0 {
		return nil, fmt.Errorf("lp: negative MaxIterations, ProgressEvery or TimeLimit")
	}
	if o.FeasibilityTol == 0 {
		o.FeasibilityTol = defaultFeasTol
	}
	if o.OptimalityTol == 0 {
		o.OptimalityTol = defaultOptTol
	}
	start := time.Now()
	var best *Result
	bestScore := math.Inf(1)
	iters := 0
	var first attempt
	list := strategies(p, o)
	for k := 0; k < len(list); k++ {
		a := list[k]
		if o.TimeLimit > 0 {
			left := o.TimeLimit - time.Since(start)
			if left <= 0 {
				return limitResult(p, best, TimeLimit, iters), nil
			}
			a.TimeLimit = left
		}
		if o.MaxIterations > 0 {
			if a.MaxIterations = o.MaxIterations - iters; a.MaxIterations <= 0 {
				return limitResult(p, best, IterationLimit, iters), nil
			}
		}
		if o.Progress != nil {
			offset := iters
			a.Progress = func(pr Progress) bool {
				pr.Iteration += offset
				return o.Progress(pr)
			}
		}
		var at attempt
		if a.warm {
			at = cleanUp(p, first, &a)
		} else {
			at = solveOnce(p, &a)
		}
		if k == 0 {
			first = at
		}
		res := at.res
		finish(p, res, &o) // checked with the caller's tolerances, whatever the attempt used
		iters += res.Iterations
		res.Iterations = iters
		switch res.Status {
		case Cancelled, TimeLimit, IterationLimit:
			return res, nil
		case Infeasible:
			if g, err := CheckFarkas(p, res.Farkas); err == nil && g > 0 {
				return res, nil
			}
		case Unbounded:
			if rayImproves(p, res.Ray, o.FeasibilityTol) {
				return res, nil
			}
		case Optimal:
			if res.score <= 1 {
				return res, nil
			}
		}
		if res.score < bestScore || best == nil {
			best, bestScore = res, res.score
		}
		if k == 0 && at.s != nil && (res.Status == Optimal || res.Status == Imprecise) {
			// First clean-up: continue from this basis (see cleanUp).
			w := o
			w.warm = true
			list = append(list[:1], append([]Options{w}, list[1:]...)...)
		}
	}
	best.Status = Imprecise
	best.Farkas, best.Ray = nil, nil
	return best, nil
}

// strategies lists the settings Solve tries in turn: o itself, then the clean-up solves (the
// warm-started clean-up, when the first solve leaves a basis, is inserted second by Solve).
func strategies(p *Problem, o Options) []Options {
	list := []Options{o}
	add := func(f func(*Options)) {
		a := o
		f(&a)
		for _, b := range list {
			if b.NoScaling == a.NoScaling && b.rowMax == a.rowMax && b.NoDualize == a.NoDualize && b.NoPerturbation == a.NoPerturbation &&
				b.FeasibilityTol == a.FeasibilityTol && b.OptimalityTol == a.OptimalityTol {
				return
			}
		}
		list = append(list, a)
	}
	if wideRows(p) {
		add(func(a *Options) { a.NoScaling, a.rowMax = true, true })
	}
	add(func(a *Options) { a.NoScaling = true })
	add(func(a *Options) {
		a.NoScaling = true
		a.FeasibilityTol, a.OptimalityTol = o.FeasibilityTol/100, o.OptimalityTol/100
	})
	if canDualize(p) {
		add(func(a *Options) { a.NoDualize = true })
		add(func(a *Options) { a.NoDualize, a.NoScaling, a.NoPerturbation = true, true, true })
	}
	return list
}

// limitResult is the outcome when a limit is reached between two solves: the best point so far
// (or zeros) with the limit's status.
func limitResult(p *Problem, best *Result, status Status, iters int) *Result {
	if best == nil {
		best = &Result{X: make([]float64, len(p.Objective)), Duals: make([]float64, len(p.RHS)),
			ReducedCosts: make([]float64, len(p.Objective))}
	}
	best.Status, best.Iterations, best.Farkas, best.Ray = status, iters, nil, nil
	return best
}

// wideRows reports whether some row's coefficients span more than a factor 2^8, where dividing
// each row by its largest coefficient (Options.rowMax) differs from geometric equilibration.
func wideRows(p *Problem) bool {
	if p.A == nil {
		return false
	}
	m := len(p.RHS)
	lo, hi := make([]float64, m), make([]float64, m)
	for i := range lo {
		lo[i] = math.Inf(1)
	}
	for k, i := range p.A.RowIndex[:p.A.ColStart[p.A.Cols]] {
		v := math.Abs(p.A.Value[k])
		lo[i], hi[i] = math.Min(lo[i], v), math.Max(hi[i], v)
	}
	for i := range lo {
		if hi[i] > 256*lo[i] {
			return true
		}
	}
	return false
}

// attempt is the outcome of one solve: the result, and the solver at its final basis with the
// problem it solved (p itself, or p's dual), for a warm-started clean-up.
type attempt struct {
	res  *Result
	s    *solver
	q    *Problem
	dual bool
}

// solveOnce is one solve with fixed settings: through the dual when canDualize allows it and
// the dual ends with a usable solution, else on p itself.
func solveOnce(p *Problem, opt *Options) attempt {
	if opt.rowMax {
		return attempt{res: solveRowMax(p, opt)}
	}
	start := time.Now()
	if !opt.NoDualize && canDualize(p) {
		if res, s, d := solveDual(p, opt); res != nil {
			return attempt{res, s, d, true}
		}
		// The dual is infeasible or unbounded: decide on p itself, so that the certificate
		// (Farkas or ray) refers to p, within what is left of the time limit.
		if opt.TimeLimit > 0 {
			o := *opt
			o.TimeLimit -= time.Since(start)
			opt = &o
		}
	}
	s := newSolver(p, opt)
	status := s.run()
	return attempt{s.result(p, status, opt), s, p, false}
}

// cleanUp continues from the final basis of a on the same problem unscaled, with tolerances
// 100 times tighter and no perturbation — what HiGHS calls cleaning up on the unscaled model. A
// basis that was optimal for the scaled problem but misses the tolerances on p by a little (a
// dualized solve that satisfies p's rows to 1.2·10^−9 only) is then usually a few pivots from
// one that meets them.
func cleanUp(p *Problem, a attempt, opt *Options) attempt {
	o := *opt
	o.warm, o.NoScaling, o.NoPerturbation = false, true, true
	o.FeasibilityTol, o.OptimalityTol = math.Max(o.FeasibilityTol/100, 1e-14), math.Max(o.OptimalityTol/100, 1e-14)
	s := newSolver(a.q, &o)
	status := s.warmStart(a.s)
	if a.dual {
		return attempt{fromDual(p, a.q, s, status, &o), s, a.q, true}
	}
	return attempt{s.result(p, status, &o), s, p, false}
}

// solveRowMax solves p with each row divided by a power of two near its largest |a_ij|, so
// that its largest coefficient is about 1, and nothing else scaled. A row
// H[a] − e^{40}·H[b] ≤ 0 becomes about e^{−40}·H[a] − H[b] ≤ 0: its variables keep their units
// and its dual its size, whereas geometric equilibration makes both coefficients e^{±20} and,
// through the dual, divides the objective by e^{20}. The result is mapped back to p (the dual
// of row i of p is r_i times that of the scaled row) and measured on p.
func solveRowMax(p *Problem, opt *Options) *Result {
	o := *opt
	o.rowMax = false
	m := len(p.RHS)
	r := make([]float64, m)
	for i := range r {
		r[i] = 1
	}
	q := *p
	if p.A != nil {
		big := make([]float64, m)
		for k, i := range p.A.RowIndex[:p.A.ColStart[p.A.Cols]] {
			big[i] = math.Max(big[i], math.Abs(p.A.Value[k]))
		}
		for i, b := range big {
			if b > 0 {
				r[i] = pow2(1 / b)
			}
		}
		a := *p.A
		a.Value = make([]float64, len(p.A.Value))
		for j := 0; j < a.Cols; j++ {
			for k := a.ColStart[j]; k < a.ColStart[j+1]; k++ {
				a.Value[k] = p.A.Value[k] * r[a.RowIndex[k]]
			}
		}
		q.A = &a
	}
	q.RHS = make([]float64, m)
	for i, b := range p.RHS {
		q.RHS[i] = b * r[i]
	}
	res := solveOnce(&q, &o).res
	for i := range res.Duals {
		res.Duals[i] *= r[i]
	}
	for i := range res.Farkas {
		res.Farkas[i] *= r[i]
	}
	finish(p, res, opt)
	return res
}

func (s *solver) result(p *Problem, status Status, opt *Options) *Result {
	n, m := s.n, s.m
	res := &Result{Status: status, Iterations: s.iter}
	res.VarStatus, res.RowStatus = s.basis(p)
	res.X = make([]float64, n)
	for j := 0; j < n; j++ {
		res.X[j] = s.x[j] * s.colScale[j]
	}
	sign := 1.0
	if p.Sense == Maximize {
		sign = -1
	}
	res.Duals = make([]float64, m)
	for i := 0; i < m; i++ {
		// In minimization form a ≤ row has a dual ≤ 0 and a ≥ row one ≥ 0; a rounding of the
		// other sign is cut to 0 (as the dual's bounds do when the problem is dualized), and
		// the residuals then measure what that costs.
		y := s.y[i] * s.rowScale[i] / s.costScale
		if p.Ops[i] == LessEq && y > 0 || p.Ops[i] == GreaterEq && y < 0 {
			y = 0
		}
		res.Duals[i] = sign * y
	}
	if status == Infeasible && s.farkas != nil {
		res.Farkas = make([]float64, m)
		for i, v := range s.farkas {
			res.Farkas[i] = v * s.rowScale[i]
		}
	}
	if status == Unbounded && s.ray != nil {
		res.Ray = make([]float64, n)
		for j, v := range s.ray {
			res.Ray[j] = v * s.colScale[j]
		}
	}
	finish(p, res, opt)
	return res
}

// finish completes a result from X and Duals alone: the objective, the reduced costs
// c − Aᵀ·Duals, the residuals and the score of the optimality check (see Result), all on p as
// stated. Reduced costs that the check found to be rounding — below the tolerance where they
// should vanish or have the wrong sign — are then set to 0, so that ReducedCosts has its
// documented signs; the residuals keep their true size.
func finish(p *Problem, res *Result, opt *Options) {
	tolP, tolD := opt.FeasibilityTol, opt.OptimalityTol
	if tolP <= 0 {
		tolP = defaultFeasTol
	}
	if tolD <= 0 {
		tolD = defaultOptTol
	}
	n, m := len(p.Objective), len(p.RHS)
	sign := 1.0 // minimization form
	if p.Sense == Maximize {
		sign = -1
	}
	act := make([]float64, m)
	rowMag := make([]float64, m) // largest |A[i][j]·X[j]|
	colMag := make([]float64, n) // largest |A[i][j]·Duals[i]|
	res.Objective = 0
	res.ReducedCosts = make([]float64, n)
	for j := 0; j < n; j++ {
		x := res.X[j]
		d := p.Objective[j]
		res.Objective += d * x
		if p.A != nil {
			for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
				i, a := p.A.RowIndex[k], p.A.Value[k]
				t := a * x
				act[i] += t
				rowMag[i] = math.Max(rowMag[i], math.Abs(t))
				u := a * res.Duals[i]
				d -= u
				colMag[j] = math.Max(colMag[j], math.Abs(u))
			}
		}
		res.ReducedCosts[j] = d
	}
	cmax := 0.0
	for _, c := range p.Objective {
		cmax = math.Max(cmax, math.Abs(c))
	}
	primal, dual, score := 0.0, 0.0, 0.0
	// one records a violation v of tolerance tol·max(1, mag).
	one := func(v, mag, tol float64, into *float64) {
		if v > 0 {
			*into = math.Max(*into, v)
			score = math.Max(score, v/(tol*math.Max(1, mag)))
		}
		if math.IsNaN(v) {
			score = math.Inf(1)
		}
	}
	for i := 0; i < m; i++ {
		lo, hi := p.rowBounds(i)
		mag := math.Max(rowMag[i], math.Abs(p.RHS[i]))
		one(math.Max(lo-act[i], act[i]-hi), mag, tolP, &primal)
		atLo := !math.IsInf(lo, -1) && act[i]-lo <= tolP*math.Max(1, mag)
		atHi := !math.IsInf(hi, 1) && hi-act[i] <= tolP*math.Max(1, mag)
		one(wrongSign(sign*res.Duals[i], atLo, atHi), cmax, tolD, &dual)
	}
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		x := res.X[j]
		bmag := 0.0
		if !math.IsInf(l, 0) {
			bmag = math.Abs(l)
		}
		if !math.IsInf(u, 0) {
			bmag = math.Max(bmag, math.Abs(u))
		}
		one(math.Max(l-x, x-u), bmag, tolP, &primal)
		atL := !math.IsInf(l, -1) && x-l <= tolP*math.Max(1, math.Abs(l))
		atU := !math.IsInf(u, 1) && u-x <= tolP*math.Max(1, math.Abs(u))
		mag := math.Max(colMag[j], math.Abs(p.Objective[j]))
		d := sign * res.ReducedCosts[j]
		one(wrongSign(d, atL, atU), mag, tolD, &dual)
		// Cosmetic: a reduced cost that is rounding where it should be 0 or have a sign.
		if v := wrongSign(d, atL, atU); v > 0 && v <= tolD*math.Max(1, mag) {
			res.ReducedCosts[j] = 0
		}
	}
	res.PrimalResidual, res.DualResidual, res.score = primal, dual, score
}

// wrongSign is the violation of a reduced cost or row dual y (minimization form) for a
// variable or row at its lower end (y ≥ 0 wanted), its upper end (y ≤ 0), both (anything), or
// neither (y = 0).
func wrongSign(y float64, atLo, atHi bool) float64 {
	switch {
	case atLo && atHi:
		return 0
	case atLo:
		return -y
	case atHi:
		return y
	}
	return math.Abs(y)
}

// rayImproves checks an unbounded ray d on p: c·d improving (< 0 in minimization form), and
// every row and bound that limits x + t·d in d's direction left alone, each to tol relative to
// the size of its terms, after d is normalized to max |d_j| = 1.
func rayImproves(p *Problem, d []float64, tol float64) bool {
	if len(d) != len(p.Objective) {
		return false
	}
	scale := 0.0
	for _, v := range d {
		scale = math.Max(scale, math.Abs(v))
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return false
	}
	sign := 1.0
	if p.Sense == Maximize {
		sign = -1
	}
	cd, cmag := 0.0, 0.0
	for j, c := range p.Objective {
		cd += sign * c * d[j] / scale
		cmag = math.Max(cmag, math.Abs(c*d[j]/scale))
	}
	if !(cd < -tol*math.Max(cmag, 1e-300)) {
		return false
	}
	ad := make([]float64, len(p.RHS))
	mag := make([]float64, len(p.RHS))
	for j := range p.Objective {
		v := d[j] / scale
		l, u := p.bounds(j)
		if (!math.IsInf(l, -1) && v < -tol) || (!math.IsInf(u, 1) && v > tol) {
			return false
		}
		if p.A == nil {
			continue
		}
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			t := p.A.Value[k] * v
			ad[p.A.RowIndex[k]] += t
			mag[p.A.RowIndex[k]] = math.Max(mag[p.A.RowIndex[k]], math.Abs(t))
		}
	}
	for i := range p.RHS {
		lo, hi := p.rowBounds(i)
		t := tol * math.Max(mag[i], 1e-300) * 10
		if (!math.IsInf(lo, -1) && ad[i] < -t) || (!math.IsInf(hi, 1) && ad[i] > t) {
			return false
		}
	}
	return true
}
