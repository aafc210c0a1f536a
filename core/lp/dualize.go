package lp

import (
	"math"
	"time"
)

// dualizeRatio: a problem is solved through its dual when it has at least this many rows per
// variable (and its variables are all nonnegative or free, its rows one-sided or equalities).
// The simplex basis then has as many rows as the primal has variables instead of as many as it
// has rows. On the optimal-mechanism LPs (2·|E|·n rows, n² variables) this cut the time by
// 1.8× (path 40) to 16× (clique 20); see the package doc.
const dualizeRatio = 1.5

// canDualize reports whether p has the simple form whose dual solveDual states: every variable
// in [0, +∞) or (−∞, +∞).
func canDualize(p *Problem) bool {
	n, m := len(p.Objective), len(p.RHS)
	if p.A == nil || float64(m) < dualizeRatio*float64(n) {
		return false
	}
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		if !(l == 0 && math.IsInf(u, 1)) && !(math.IsInf(l, -1) && math.IsInf(u, 1)) {
			return false
		}
	}
	return true
}

// dualProblem states the dual of p (see canDualize) in its natural orientation. For Maximize
// c·x subject to A x (op) b with x ≥ 0 or free it is
//
//	minimize b·u  subject to  (Aᵀu)_j ≥ c_j (x_j ≥ 0) or = c_j (x_j free),
//	                          u_i ≥ 0 (≤ rows), u_i ≤ 0 (≥ rows), u_i free (= rows),
//
// and for Minimize the same with maximize, ≤ c_j, and the signs of u exchanged. In both, u are
// the shadow prices of p's rows (Result.Duals) and the shadow prices of the dual's rows are x.
func dualProblem(p *Problem) *Problem {
	n, m := len(p.Objective), len(p.RHS)
	a := p.A
	nnz := a.ColStart[n]
	// Aᵀ in CSC is A in CSR.
	t := &CSC{Rows: n, Cols: m, ColStart: make([]int, m+1), RowIndex: make([]int, nnz), Value: make([]float64, nnz)}
	for _, i := range a.RowIndex[:nnz] {
		t.ColStart[i+1]++
	}
	for i := 0; i < m; i++ {
		t.ColStart[i+1] += t.ColStart[i]
	}
	next := append([]int(nil), t.ColStart[:m]...)
	for j := 0; j < n; j++ {
		for k := a.ColStart[j]; k < a.ColStart[j+1]; k++ {
			i := a.RowIndex[k]
			t.RowIndex[next[i]] = j
			t.Value[next[i]] = a.Value[k]
			next[i]++
		}
	}
	d := &Problem{Sense: Minimize, Objective: append([]float64(nil), p.RHS...), A: t,
		Ops: make([]Op, n), RHS: append([]float64(nil), p.Objective...), Lower: make([]float64, m), Upper: make([]float64, m)}
	rowOp, natural := GreaterEq, LessEq // Maximize: u ≥ 0 on ≤ rows
	if p.Sense == Minimize {
		d.Sense = Maximize
		rowOp, natural = LessEq, GreaterEq
	}
	for j := 0; j < n; j++ {
		if l, _ := p.bounds(j); l == 0 {
			d.Ops[j] = rowOp
		} else {
			d.Ops[j] = Equal
		}
	}
	for i := 0; i < m; i++ {
		switch p.Ops[i] {
		case Equal:
			d.Lower[i], d.Upper[i] = math.Inf(-1), math.Inf(1)
		case natural:
			d.Lower[i], d.Upper[i] = 0, math.Inf(1)
		default:
			d.Lower[i], d.Upper[i] = math.Inf(-1), 0
		}
	}
	return d
}

// solveDual solves p through its dual. It returns nil when the dual solve ends infeasible or
// unbounded (Solve then decides on p itself, so that the Farkas certificate or the ray refer to
// p); optimal, imprecise, cancelled and limited solves are mapped back as they are, with the
// solver (for a warm-started clean-up) and the dual problem it solved.
func solveDual(p *Problem, opt *Options) (*Result, *solver, *Problem) {
	d := dualProblem(p)
	start := time.Now()
	s := newSolver(d, opt)
	status := s.runStart(p, opt.Start, true)
	switch status {
	case Optimal, Imprecise, Cancelled, TimeLimit, IterationLimit:
	default:
		if opt.TimeLimit > 0 {
			if left := opt.TimeLimit - time.Since(start); left <= 0 {
				return &Result{Status: TimeLimit, X: make([]float64, len(p.Objective)), Duals: make([]float64, len(p.RHS)),
					ReducedCosts: make([]float64, len(p.Objective)), Iterations: s.iter}, nil, nil
			}
		}
		return nil, nil, nil
	}
	return fromDual(p, d, s, status, opt), s, d
}

// fromDual maps the dual solver's final point back to p: X from the dual's row prices (after a
// polish of an optimal basis), Duals from its solution.
func fromDual(p, d *Problem, s *solver, status Status, opt *Options) *Result {
	if status == Optimal {
		s.polish()
	}
	dr := s.result(d, status, opt)
	n, m := len(p.Objective), len(p.RHS)
	res := &Result{Status: status, Iterations: dr.Iterations}
	res.VarStatus, res.RowStatus = s.dualBasis(p)
	res.X = make([]float64, n)
	for j := 0; j < n; j++ {
		x := dr.Duals[j]
		if l, _ := p.bounds(j); l == 0 && x < 0 {
			x = 0 // a rounding below the bound
		}
		res.X[j] = x
	}
	res.Duals = make([]float64, m)
	for i := 0; i < m; i++ {
		// The dual's bounds make u sign-correct up to its feasibility tolerance; exact signs
		// keep complementary slackness readable.
		l, u := d.Lower[i], d.Upper[i]
		res.Duals[i] = math.Min(math.Max(dr.X[i], l), u)
	}
	finish(p, res, opt)
	return res
}

// polishTol is the dual feasibility that polish asks of the dual's optimal basis.
const polishTol = 1e-13

// polish removes the dual infeasibilities (within the tolerance) left at an optimum by a few
// more primal simplex iterations with a tighter tolerance. Through dualization these are the
// primal's row violations, and a primal solved directly has none beyond rounding (its basic
// solution satisfies the tight rows exactly); polishing keeps that property. When the extra
// iterations do not settle within a small budget the optimal basis is restored as it was.
func (s *solver) polish() {
	worst := 0.0
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic {
			worst = math.Max(worst, s.dualInfeasibility(j))
		}
	}
	if worst <= polishTol {
		return
	}
	head := append([]int(nil), s.head...)
	state := append([]int8(nil), s.state...)
	x := append([]float64(nil), s.x...)
	iter, maxIter, optTol, relTol := s.iter, s.maxIter, s.optTol, s.relTol
	s.maxIter = min(maxIter, s.iter+20+s.m/100)
	s.optTol, s.relTol = polishTol, false
	s.tolerances()
	s.phase = "primal"
	out := s.primalSimplex()
	s.maxIter, s.optTol, s.relTol = maxIter, optTol, relTol
	s.tolerances()
	if out == done && s.countPrimalInfeasible() == 0 {
		return
	}
	// Restore the optimal basis.
	copy(s.head, head)
	copy(s.state, state)
	copy(s.x, x)
	for j := range s.where {
		s.where[j] = -1
	}
	for p, j := range s.head {
		s.where[j] = p
	}
	s.iter = iter
	s.refactor()
}
