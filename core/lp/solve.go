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
// (see Result), an infeasibility by its Farkas certificate (CheckFarkas), an unboundedness by a
// feasible point and its ray (see Result.Ray). When the check fails — the scaled problem looked
// solved but p is not, which equilibration can cause when it shrinks a right-hand side below
// the tolerance, and absolute tolerances on a problem whose data span many orders of
// magnitude — Solve cleans up as mature solvers do, whatever the status that failed: first it
// continues from the final basis on the unscaled problem with tolerances 100 times tighter
// and no perturbation (usually a few pivots), then it solves again with the settings that
// remove the causes one at a time: rows divided by their largest coefficient and nothing else
// scaled (when some row's coefficients span more than 2^8), no scaling, no scaling with
// tolerances 100 times tighter, no dualization, and no dualization, scaling or perturbation.
// These clean-up solves work to the check's own tolerances, relative to the terms of each row
// and column, carried variable by variable into the scaled problem. The first solution that
// checks is returned; when none does, the status is Imprecise with the best point found.
// Limits (MaxIterations, TimeLimit) and cancellation apply to all the solves together, and
// Iterations counts them all; the default iteration limit, which only a cycling solve
// reaches, ends one solve, not the clean-up.
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
		case IterationLimit:
			if o.MaxIterations > 0 {
				return res, nil
			}
			// The default limit, 50 iterations per row and variable, is reached only by a
			// solve that cycles: a numerical failure like the others.
		case Cancelled, TimeLimit:
			return res, nil
		case Infeasible:
			if g, err := CheckFarkas(p, res.Farkas); err == nil && g > 0 {
				return res, nil
			}
		case Unbounded:
			// The ray proves unboundedness only from a feasible point.
			if ray := verifiedRay(p, res.Ray, o.FeasibilityTol); res.pscore <= 1 && ray != nil {
				res.Ray = ray
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
		if k == 0 && at.s != nil {
			// First clean-up, whatever the status that failed its check: continue from this
			// basis (see cleanUp).
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
// warm-started clean-up, when the first solve leaves a basis, is inserted second by Solve),
// which work to the tolerances of the check variable by variable (Options.relTol).
func strategies(p *Problem, o Options) []Options {
	list := []Options{o}
	if o.Start != nil {
		// A start that leads nowhere (a basis of another problem, numerically poor) must not
		// cost the solve: the next attempt is the same solve from scratch.
		cold := o
		cold.Start = nil
		list = append(list, cold)
	}
	add := func(f func(*Options)) {
		a := o
		a.relTol, a.Start = true, nil
		f(&a)
		for _, b := range list {
			if b.NoScaling == a.NoScaling && b.rowMax == a.rowMax && b.NoDualize == a.NoDualize && b.NoPerturbation == a.NoPerturbation &&
				b.FeasibilityTol == a.FeasibilityTol && b.OptimalityTol == a.OptimalityTol && b.relTol == a.relTol {
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
	}
	add(func(a *Options) { a.NoDualize, a.NoScaling, a.NoPerturbation = true, true, true })
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
	status := s.runStart(p, opt.Start, false)
	return attempt{s.result(p, status, opt), s, p, false}
}

// cleanUp continues from the final basis of a on the same problem unscaled, with tolerances
// 100 times tighter and no perturbation — what HiGHS calls cleaning up on the unscaled model. A
// basis that was optimal for the scaled problem but misses the tolerances on p by a little (a
// dualized solve that satisfies p's rows to 1.2·10^−9 only) is then usually a few pivots from
// one that meets them.
func cleanUp(p *Problem, a attempt, opt *Options) attempt {
	o := *opt
	o.warm, o.NoScaling, o.NoPerturbation, o.relTol = false, true, true, true
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
		// X is projected onto its bounds first: a bound left by a rounding of 10^−13 would
		// otherwise count as met, while a coefficient of 10^13 turns it into a whole unit of
		// its rows; projected, the rows measure what it costs.
		l, u := p.bounds(j)
		x := math.Min(math.Max(res.X[j], l), u)
		res.X[j] = x
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
	primal, dual, pscore, dscore := 0.0, 0.0, 0.0, 0.0
	// one records a violation v of tolerance tol·max(1, mag) in the residual into and the
	// score sc.
	one := func(v, mag, tol float64, into, sc *float64) {
		if v > 0 {
			*into = math.Max(*into, v)
			*sc = math.Max(*sc, v/(tol*math.Max(1, mag)))
		}
		if math.IsNaN(v) {
			*sc = math.Inf(1)
		}
	}
	// A row dual of the wrong sign (or on a row that does not hold with equality) is
	// measured by what it does to the reduced costs: y_i·A[i][j] against the tolerance of
	// column j. A row holding 1 and e^30 cannot carry a wrong sign 10^−9 that would move a
	// reduced cost by 10^4. A row without coefficients is measured against max |c_j|.
	effect := make([]float64, m) // max_j |A[i][j]| / max(1, |c_j|, max_k |A[k][j]·Duals[k]|)
	if p.A != nil {
		for j := 0; j < n; j++ {
			mag := math.Max(1, math.Max(colMag[j], math.Abs(p.Objective[j])))
			for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
				effect[p.A.RowIndex[k]] = math.Max(effect[p.A.RowIndex[k]], math.Abs(p.A.Value[k])/mag)
			}
		}
	}
	for i := 0; i < m; i++ {
		lo, hi := p.rowBounds(i)
		mag := math.Max(rowMag[i], math.Abs(p.RHS[i]))
		one(math.Max(lo-act[i], act[i]-hi), mag, tolP, &primal, &pscore)
		atLo := !math.IsInf(lo, -1) && act[i]-lo <= tolP*math.Max(1, mag)
		atHi := !math.IsInf(hi, 1) && hi-act[i] <= tolP*math.Max(1, mag)
		v := wrongSign(sign*res.Duals[i], atLo, atHi)
		if effect[i] == 0 {
			one(v, cmax, tolD, &dual, &dscore)
		} else {
			one(v*effect[i], 0, tolD, new(float64), &dscore)
			dual = math.Max(dual, v)
		}
	}
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		x := res.X[j] // within its bounds, projected above
		atL := !math.IsInf(l, -1) && x-l <= tolP*math.Max(1, math.Abs(l))
		atU := !math.IsInf(u, 1) && u-x <= tolP*math.Max(1, math.Abs(u))
		mag := math.Max(colMag[j], math.Abs(p.Objective[j]))
		d := sign * res.ReducedCosts[j]
		one(wrongSign(d, atL, atU), mag, tolD, &dual, &dscore)
		// Cosmetic: a reduced cost that is rounding where it should be 0 or have a sign.
		if v := wrongSign(d, atL, atU); v > 0 && v <= tolD*math.Max(1, mag) {
			res.ReducedCosts[j] = 0
		}
	}
	res.PrimalResidual, res.DualResidual = primal, dual
	res.pscore, res.score = pscore, math.Max(pscore, dscore)
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

// verifiedRay checks an unbounded ray d on p in the units of p and returns it projected onto the
// directions the bounds allow (d_j ≥ 0 where x_j has a finite lower bound, ≤ 0 where it has a
// finite upper one), or nil when it fails. The projection comes first, so that no improvement
// can come from leaving a bound. Then every row that limits x + t·d in d's direction must be
// left alone to tol times the sum of the magnitudes of its terms |A[i][j]·d_j| (a relative
// change of the row's coefficients by tol makes it exact), and c·d must improve (< 0 in
// minimization form) by more than tol times Σ_j |c_j·d_j|, more than its rounding.
func verifiedRay(p *Problem, d []float64, tol float64) []float64 {
	n := len(p.Objective)
	if len(d) != n {
		return nil
	}
	v := make([]float64, n)
	for j, dj := range d {
		l, u := p.bounds(j)
		if !math.IsInf(l, -1) {
			dj = math.Max(dj, 0)
		}
		if !math.IsInf(u, 1) {
			dj = math.Min(dj, 0)
		}
		if math.IsNaN(dj) || math.IsInf(dj, 0) {
			return nil
		}
		v[j] = dj
	}
	sign := 1.0
	if p.Sense == Maximize {
		sign = -1
	}
	cd, cmag := 0.0, 0.0
	for j, c := range p.Objective {
		cd += sign * c * v[j]
		cmag += math.Abs(c * v[j])
	}
	if !(cd < -tol*cmag) {
		return nil
	}
	if p.A == nil {
		return v
	}
	ad := make([]float64, len(p.RHS))
	mag := make([]float64, len(p.RHS))
	for j := range p.Objective {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			t := p.A.Value[k] * v[j]
			ad[p.A.RowIndex[k]] += t
			mag[p.A.RowIndex[k]] += math.Abs(t)
		}
	}
	for i := range p.RHS {
		lo, hi := p.rowBounds(i)
		if (!math.IsInf(lo, -1) && ad[i] < -tol*mag[i]) || (!math.IsInf(hi, 1) && ad[i] > tol*mag[i]) {
			return nil
		}
	}
	return v
}
