package lp

import "math"

// The dual simplex method, with the cost shifts that keep its iterates dual feasible.

// dualSimplex runs the dual simplex until the basis is primal feasible (done) or the problem is
// found infeasible. The basis must be (nearly) dual feasible for the working costs and bounds.
func (s *solver) dualSimplex() outcome {
	retries := 0
	for {
		if out := s.check(s.sumPrimalInfeasibility); out != done {
			return out
		}
		if s.needRefactor() {
			s.refactor()
			s.fixDualInfeasibilities()
		}
		// CHUZR: dual steepest edge pricing.
		r, best := -1, 0.0
		{
			x, lb, ub, dse := s.x, s.lb, s.ub, s.dse[:len(s.head)]
			for p, j := range s.head {
				v := lb[j] - x[j]
				if v <= s.pt(j) {
					v = x[j] - ub[j]
					if v <= s.pt(j) {
						continue
					}
				}
				if sc := v * v / dse[p]; sc > best {
					r, best = p, sc
				}
			}
		}
		if r < 0 {
			if s.updates > 0 {
				// Confirm with a fresh factorization before declaring the phase finished.
				s.refactor()
				s.fixDualInfeasibilities()
				continue
			}
			return done
		}
		p := s.head[r]
		dir := 1.0 // p leaves at its lower bound
		if s.x[p] > s.ub[p] {
			dir = -1
		}
		s.btranRow(r)

		// CHUZC: Harris two-pass ratio test on d_j + t·dir·α_rj (see dualCandidates); the
		// second pass picks the largest |α_rj| among the candidates within the Harris bound.
		thetaMax := s.dualCandidates(dir, nil)
		rescued := false
		if math.IsInf(thetaMax, 1) {
			// No entering variable: the row proves primal infeasibility — unless entries
			// below the pivot tolerance are genuine (see rescueDualRow).
			if thetaMax = s.rescueDualRow(r, dir); math.IsInf(thetaMax, 1) {
				s.farkas = make([]float64, s.m)
				for _, i := range s.rhoNZ {
					s.farkas[i] = -dir * s.rho[i]
				}
				return foundInfeasible
			}
			rescued = true
		}
		q, qMag, t := -1, 0.0, 0.0
		for k, j := range s.candJ {
			if s.candRatio[k] <= thetaMax && s.candMag[k] > qMag {
				q, qMag, t = j, s.candMag[k], s.candRatio[k]
			}
		}

		s.noDrop = rescued
		s.ftranCol(q)
		s.noDrop = false
		alphaRQ := s.alphaCol[r]
		bad := math.Abs(alphaRQ-s.alphaRow[q]) > 1e-8*(1+math.Abs(alphaRQ)) || math.Abs(alphaRQ) < pivotTol
		if rescued {
			// A small pivot is expected here; FTRAN and BTRAN must still agree.
			bad = !(math.Abs(alphaRQ-s.alphaRow[q]) <= 1e-6*math.Abs(s.alphaRow[q]))
		}
		if bad {
			if s.updates > 0 && retries < 3 {
				retries++
				s.refactor()
				s.fixDualInfeasibilities()
				continue
			}
		}
		retries = 0

		// Update the duals. Bound flips of boxed variables that the step made dual
		// infeasible; cost shifts for the others.
		flipped := false
		step := t * dir
		for _, j := range s.rowList {
			dj := s.d[j] + step*s.alphaRow[j]
			s.d[j] = dj
			if j == q {
				continue
			}
			switch s.state[j] {
			case atLower:
				if dj >= -s.dt(j) {
					continue
				}
			case atUpper:
				if dj <= s.dt(j) {
					continue
				}
			case atZero:
				if math.Abs(dj) <= s.dt(j) {
					continue
				}
			default:
				continue
			}
			if s.lb[j] == s.ub[j] {
				continue
			}
			if math.IsInf(s.lb[j], 0) || math.IsInf(s.ub[j], 0) {
				s.shiftCost(j)
				continue
			}
			var delta float64
			if s.state[j] == atLower && s.d[j] < -s.dt(j) {
				s.state[j], s.x[j], delta = atUpper, s.ub[j], s.ub[j]-s.lb[j]
			} else if s.state[j] == atUpper && s.d[j] > s.dt(j) {
				s.state[j], s.x[j], delta = atLower, s.lb[j], s.lb[j]-s.ub[j]
			} else {
				continue
			}
			if !flipped {
				for i := range s.rowWork {
					s.rowWork[i] = 0
				}
				flipped = true
			}
			if j < s.n {
				for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
					s.rowWork[s.aIdx[k]] += s.aVal[k] * delta
				}
			} else {
				s.rowWork[j-s.n] += delta
			}
		}
		if flipped {
			s.lu.ftran(s.rowWork, s.tau)
			for pp, jj := range s.head {
				s.x[jj] -= s.tau[pp]
			}
		}

		// Primal step: p reaches its violated bound.
		bound := s.lb[p]
		if dir < 0 {
			bound = s.ub[p]
		}
		thetaP := (s.x[p] - bound) / alphaRQ
		for _, i := range s.colNZ {
			s.x[s.head[i]] -= thetaP * s.alphaCol[i]
		}
		s.x[q] += thetaP

		// Dual steepest-edge weights: w_i ← w_i − 2(α_i/α_r)τ_i + (α_i/α_r)² w_r with τ = B⁻¹ρ.
		wr := 0.0
		for _, i := range s.rhoNZ {
			wr += s.rho[i] * s.rho[i]
		}
		copy(s.rowWork, s.rho)
		s.lu.ftran(s.rowWork, s.tau)
		for _, i := range s.colNZ {
			if i == r {
				continue
			}
			ratio := s.alphaCol[i] / alphaRQ
			w := s.dse[i] + ratio*(ratio*wr-2*s.tau[i])
			if w < 1e-4 {
				w = 1e-4
			}
			s.dse[i] = w
		}
		s.dse[r] = math.Max(wr/(alphaRQ*alphaRQ), 1e-4)

		leave := atLower
		if dir < 0 {
			leave = atUpper
		}
		s.pivot(r, q, leave)
		s.d[p] = dir * t
		s.iter++
		if rescued {
			s.updates = refactorEvery // a small pivot stays in no eta file
		}
	}
}

// shiftCost moves the cost of nonbasic j so that its reduced cost becomes zero, removing a dual
// infeasibility that a bound flip cannot remove. Shifts, like the perturbation, are undone by
// restoreCosts before the final primal clean-up.
func (s *solver) shiftCost(j int) {
	s.cost[j] -= s.d[j]
	s.d[j] = 0
	s.perturbed = true
}

// fixDualInfeasibilities flips boxed variables and shifts the costs of the others whose reduced
// costs have the wrong sign beyond the tolerance, so the dual simplex starts dual feasible.
func (s *solver) fixDualInfeasibilities() {
	flipped := false
	for j := 0; j < s.nt; j++ {
		if s.state[j] == basic || s.dualInfeasibility(j) <= s.dt(j) {
			continue
		}
		if !math.IsInf(s.lb[j], 0) && !math.IsInf(s.ub[j], 0) {
			if s.d[j] < 0 {
				s.state[j], s.x[j] = atUpper, s.ub[j]
			} else {
				s.state[j], s.x[j] = atLower, s.lb[j]
			}
			flipped = true
			continue
		}
		s.shiftCost(j)
	}
	if flipped {
		s.computePrimal()
	}
}
