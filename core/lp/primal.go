package lp

import "math"

// The primal simplex method, with the cost perturbation that breaks its ties.

// primalSimplex runs the primal simplex from a primal feasible basis until it is dual feasible
// (done) or an unbounded ray is found.
func (s *solver) primalSimplex() outcome {
	retries := 0
	for {
		if out := s.check(s.sumDualInfeasibility); out != done {
			return out
		}
		if s.needRefactor() {
			s.refactor()
		}
		// CHUZC: Dantzig pricing (dualInfeasibility written out: this loop runs over all
		// variables every iteration, and in WASM the call and math.Max are not inlined).
		q, best := -1, 0.0
		d, lb, ub := s.d[:s.nt], s.lb[:s.nt], s.ub[:s.nt]
		for j, st := range s.state[:s.nt] {
			var v float64
			switch st {
			case atLower:
				v = -d[j]
			case atUpper:
				v = d[j]
			case atZero:
				v = math.Abs(d[j])
			default:
				continue
			}
			if v > best && v > s.dt(j) && lb[j] != ub[j] {
				q, best = j, v
			}
		}
		if q < 0 {
			if s.updates > 0 {
				s.refactor()
				continue
			}
			return done
		}
		dir := 1.0 // x_q increases
		if s.d[q] > 0 {
			dir = -1
		}
		s.ftranCol(q)
		// CHUZR: Harris two-pass ratio test (see primalBound); the second pass picks the
		// largest |α_i| among the candidates within the Harris bound.
		thetaMax := s.primalBound(dir, nil)
		span := s.ub[q] - s.lb[q]
		var minPivot []float64
		if math.IsInf(thetaMax, 1) && math.IsInf(span, 1) {
			// No basic variable limits the step: the column is an unbounded ray — unless
			// entries below the pivot tolerance are genuine (see rescuePrimalColumn).
			if thetaMax = s.rescuePrimalColumn(q, dir); !math.IsInf(thetaMax, 1) {
				minPivot = s.minPivot
			}
		}
		if math.IsInf(thetaMax, 1) && math.IsInf(span, 1) {
			s.ray = make([]float64, s.n)
			if q < s.n {
				s.ray[q] = dir
			}
			for _, i := range s.colNZ {
				if j := s.head[i]; j < s.n {
					s.ray[j] = -dir * s.alphaCol[i]
				}
			}
			return foundUnbounded
		}
		if span <= thetaMax {
			// Bound flip of the entering variable, no basis change.
			for _, i := range s.colNZ {
				s.x[s.head[i]] -= dir * span * s.alphaCol[i]
			}
			if dir > 0 {
				s.state[q], s.x[q] = atUpper, s.ub[q]
			} else {
				s.state[q], s.x[q] = atLower, s.lb[q]
			}
			s.iter++
			continue
		}
		r, rMag, theta := -1, 0.0, 0.0
		leave := atLower
		for _, i := range s.colNZ {
			g := -dir * s.alphaCol[i]
			j := s.head[i]
			pt := pivotTol
			if minPivot != nil {
				pt = minPivot[i]
			}
			var ratio float64
			var st int8
			if g < -pt && !math.IsInf(s.lb[j], -1) {
				ratio, st = (s.x[j]-s.lb[j])/-g, atLower
			} else if g > pt && !math.IsInf(s.ub[j], 1) {
				ratio, st = (s.ub[j]-s.x[j])/g, atUpper
			} else {
				continue
			}
			if ratio <= thetaMax && math.Abs(g) > rMag {
				r, rMag, theta, leave = i, math.Abs(g), ratio, st
			}
		}
		if r < 0 {
			// The first pass bounded the step, so a row must attain it; none does when the
			// state has overflowed to ±Inf or NaN (coefficients near 1e300): give up, honestly.
			return brokeDown
		}
		if theta < 0 {
			theta = 0
		}
		alphaRQ := s.alphaCol[r]
		rescued := minPivot != nil
		s.noDrop = rescued
		s.btranRow(r)
		s.noDrop = false
		bad := math.Abs(alphaRQ-s.alphaRow[q]) > 1e-8*(1+math.Abs(alphaRQ))
		if rescued {
			// A small pivot is expected here; FTRAN and BTRAN must still agree.
			bad = !(math.Abs(alphaRQ-s.alphaRow[q]) <= 1e-6*math.Abs(alphaRQ))
		}
		if bad {
			if s.updates > 0 && retries < 3 {
				retries++
				s.refactor()
				continue
			}
		}
		retries = 0
		p := s.head[r]
		for _, i := range s.colNZ {
			s.x[s.head[i]] -= dir * theta * s.alphaCol[i]
		}
		s.x[q] += dir * theta
		thetaD := s.d[q] / alphaRQ
		for _, j := range s.rowList {
			s.d[j] -= thetaD * s.alphaRow[j]
		}
		wr := 0.0
		for _, i := range s.rhoNZ {
			wr += s.rho[i] * s.rho[i]
		}
		s.dse[r] = math.Max(wr/(alphaRQ*alphaRQ), 1e-4)
		if s.lb[p] == s.ub[p] {
			leave = atLower
		}
		s.pivot(r, q, leave)
		s.d[p] = -thetaD
		s.iter++
		if rescued {
			s.updates = refactorEvery // a small pivot stays in no eta file
		}
	}
}

// perturbCosts shifts the structural costs by small random amounts in the direction that keeps
// the current basis dual feasible, which breaks the ties of dual degenerate problems.
func (s *solver) perturbCosts() {
	for j := 0; j < s.n; j++ {
		if s.lb[j] == s.ub[j] {
			continue
		}
		xi := perturbBase * (1 + math.Abs(s.cost[j])) * (1 + s.rng.Float64())
		switch s.state[j] {
		case atLower:
			s.cost[j] += xi
		case atUpper:
			s.cost[j] -= xi
		case basic:
			if math.IsInf(s.ub[j], 1) {
				s.cost[j] += xi
			} else if math.IsInf(s.lb[j], -1) {
				s.cost[j] -= xi
			} else if s.rng.IntN(2) == 0 {
				s.cost[j] += xi
			} else {
				s.cost[j] -= xi
			}
		}
	}
	s.perturbed = true
	s.computeDuals()
}

func (s *solver) restoreCosts() {
	copy(s.cost, s.origCost)
	s.perturbed = false
	s.computeDuals()
}
