package lp

import "math"

// Phase 1 of the dual simplex: a dual feasible basis from an auxiliary problem whose
// variables are boxed.

// dualPhase1 makes the basis dual feasible by solving the auxiliary problem in which every
// variable gets the box [0,0], [0,1], [−1,0] or [−1,1] according to which of its bounds are
// finite; at its optimum the objective is minus the total dual infeasibility. It reports false
// when the problem has no dual feasible basis (the primal is infeasible or unbounded).
func (s *solver) dualPhase1() (outcome, bool) {
	for j := 0; j < s.nt; j++ {
		l, u := s.origLB[j], s.origUB[j]
		lf, uf := !math.IsInf(l, -1), !math.IsInf(u, 1)
		switch {
		case lf && uf:
			s.lb[j], s.ub[j] = 0, 0
		case lf:
			s.lb[j], s.ub[j] = 0, 1
		case uf:
			s.lb[j], s.ub[j] = -1, 0
		default:
			s.lb[j], s.ub[j] = -1, 1
		}
		if s.state[j] != basic {
			s.placeByDual(j)
		}
	}
	s.computePrimal()
	s.phase = "dual phase 1"
	if !s.noPerturb {
		// The auxiliary problem is as dual degenerate as the problem itself (twin columns
		// whose costs differ by 1e-9 made the dual simplex cycle here).
		s.perturbCosts()
	}
	s.fixDualInfeasibilities()
	out := s.dualSimplex()
	copy(s.lb, s.origLB)
	copy(s.ub, s.origUB)
	if out != done {
		return out, false
	}
	if s.perturbed {
		s.restoreCosts()
	}
	ok := true
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic {
			s.placeByDual(j)
		}
	}
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.dualInfeasibility(j) > phase1Tol {
			ok = false
			break
		}
	}
	s.computePrimal()
	return done, ok
}

// placeByDual puts nonbasic j at the bound its reduced cost prefers when that bound is finite.
func (s *solver) placeByDual(j int) {
	l, u := s.lb[j], s.ub[j]
	lf, uf := !math.IsInf(l, -1), !math.IsInf(u, 1)
	switch {
	case lf && uf:
		if s.d[j] < 0 && l != u {
			s.state[j], s.x[j] = atUpper, u
		} else {
			s.state[j], s.x[j] = atLower, l
		}
	case lf:
		s.state[j], s.x[j] = atLower, l
	case uf:
		s.state[j], s.x[j] = atUpper, u
	default:
		s.state[j], s.x[j] = atZero, 0
	}
}

func (s *solver) countDualInfeasible() int {
	c := 0
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic && s.dualInfeasibility(j) > s.dt(j) {
			c++
		}
	}
	return c
}
