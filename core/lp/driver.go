package lp

import "math"

// The driver: which method runs when, from a cold or a warm start, and the status a run ends
// with.

// run drives the phases and returns the final status.
func (s *solver) run() Status {
	s.slackBasis()
	s.refactor()
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic {
			s.placeByDual(j)
		}
	}
	s.computePrimal()
	if s.countDualInfeasible() > 0 {
		out, ok := s.dualPhase1()
		if out == foundInfeasible {
			// The auxiliary problem boxes every variable, so it is feasible: a "Farkas row"
			// here is made of entries below the pivot tolerance, a numerical failure.
			return Imprecise
		}
		if out != done {
			return s.limitStatus(out)
		}
		if !ok {
			return s.dualInfeasibleCase()
		}
	}
	if !s.noPerturb {
		s.perturbCosts()
	}
	return s.rounds()
}

// runStart runs from the starting basis b of p (see startBasic; dual when this solver's
// problem is p's dual), or from the all-logical basis when there is none or it does not fit.
func (s *solver) runStart(p *Problem, b *Basis, dual bool) Status {
	if in := startBasic(p, b, dual); in != nil {
		return s.runFrom(in)
	}
	return s.run()
}

// runFrom starts from the basis whose members in marks (length nt): at most m of them in
// order, completed with logicals, and nonbasic variables at a bound they have. Cost shifts make
// the start dual feasible for the dual simplex, which removes the primal infeasibilities; the
// shifts are then undone and the primal simplex finishes (see rounds).
func (s *solver) runFrom(in []bool) Status {
	for j := range s.where {
		s.where[j] = -1
	}
	k := 0
	for j := 0; j < s.nt && k < s.m; j++ {
		if in[j] {
			s.head[k], s.where[j], s.state[j] = j, k, basic
			k++
		}
	}
	for i := 0; i < s.m && k < s.m; i++ {
		if j := s.n + i; s.where[j] < 0 {
			s.head[k], s.where[j], s.state[j] = j, k, basic
			k++
		}
	}
	for j := 0; j < s.nt; j++ {
		if s.where[j] < 0 {
			s.place(j, false)
		}
	}
	for i := range s.dse {
		s.dse[i] = 1
	}
	s.refactor()
	if !s.noPerturb {
		s.perturbCosts()
	}
	return s.rounds()
}

// warmStart loads the basis of prev — a solver of the same problem, possibly scaled
// differently or with other tolerances — and runs the dual and primal clean-up rounds from it,
// without perturbation. Which variables are basic does not depend on the scaling, so a basis
// that was optimal for the scaled problem is optimal or a few pivots away on the unscaled one.
func (s *solver) warmStart(prev *solver) Status {
	copy(s.head, prev.head)
	copy(s.state, prev.state)
	for j := range s.where {
		s.where[j] = -1
	}
	for p, j := range s.head {
		s.where[j] = p
	}
	for j := 0; j < s.nt; j++ {
		// A solve stopped in its dual phase 1 leaves states of the auxiliary boxes (at an
		// upper bound of 1 that is +∞ here): those variables go to a bound they have.
		switch st := s.state[j]; {
		case st == atLower && !math.IsInf(s.lb[j], -1):
			s.x[j] = s.lb[j]
		case st == atUpper && !math.IsInf(s.ub[j], 1):
			s.x[j] = s.ub[j]
		case st == atZero && math.IsInf(s.lb[j], -1) && math.IsInf(s.ub[j], 1):
			s.x[j] = 0
		case st != basic:
			s.place(j, false)
		}
	}
	for i := range s.dse {
		s.dse[i] = 1
	}
	s.refactor()
	return s.rounds()
}

// rounds alternates the dual simplex (primal infeasibilities, with cost shifts absorbing dual
// ones) and, once perturbation and shifts are removed, the primal simplex, until a basis is
// both primal and dual feasible.
func (s *solver) rounds() Status {
	for round := 0; round < 20; round++ {
		s.phase = "dual"
		s.fixDualInfeasibilities()
		out := s.dualSimplex()
		switch out {
		case foundInfeasible:
			return Infeasible
		case done:
		default:
			return s.limitStatus(out)
		}
		if s.perturbed {
			s.restoreCosts()
		}
		if s.countDualInfeasible() == 0 {
			return Optimal
		}
		s.phase = "primal"
		out = s.primalSimplex()
		switch out {
		case foundUnbounded:
			return Unbounded
		case done:
		default:
			return s.limitStatus(out)
		}
		if s.countPrimalInfeasible() == 0 {
			return Optimal
		}
	}
	// The dual and primal clean-ups keep undoing each other: numerical trouble, not a limit.
	return Imprecise
}

func (s *solver) countPrimalInfeasible() int {
	c := 0
	for _, j := range s.head {
		if s.primalInfeasibility(j) > s.pt(j) {
			c++
		}
	}
	return c
}

// dualInfeasibleCase decides between infeasible and unbounded once no dual feasible basis
// exists: a dual simplex with zero costs finds a feasible point or a Farkas certificate, and a
// primal simplex from that point then finds an unbounded ray.
func (s *solver) dualInfeasibleCase() Status {
	for j := range s.cost {
		s.cost[j] = 0
	}
	s.computeDuals()
	s.phase = "dual"
	out := s.dualSimplex()
	switch out {
	case foundInfeasible:
		return Infeasible
	case done:
	default:
		return s.limitStatus(out)
	}
	copy(s.cost, s.origCost)
	s.computeDuals()
	for round := 0; round < 20; round++ {
		s.phase = "primal"
		out = s.primalSimplex()
		switch out {
		case foundUnbounded:
			return Unbounded
		case done:
		default:
			return s.limitStatus(out)
		}
		if s.countPrimalInfeasible() == 0 {
			return Optimal
		}
		s.phase = "dual"
		s.fixDualInfeasibilities()
		out = s.dualSimplex()
		switch out {
		case foundInfeasible:
			return Infeasible
		case done:
		default:
			return s.limitStatus(out)
		}
		if s.perturbed {
			s.restoreCosts()
		}
		if s.countDualInfeasible() == 0 {
			return Optimal
		}
	}
	return Imprecise
}

func (s *solver) limitStatus(out outcome) Status {
	switch out {
	case hitTimeLimit:
		return TimeLimit
	case wasCancelled:
		return Cancelled
	case brokeDown:
		return Imprecise
	}
	return IterationLimit
}
