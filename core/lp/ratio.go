package lp

import "math"

// The ratio tests of both methods (Harris's two passes) and their rescues when no acceptable
// pivot is found.

// dualCandidates is the first pass of the dual ratio test on the pivot row in alphaRow, for a
// step in direction dir: it lists the candidates (candJ, with their exact ratios and |α_rj|)
// and returns the Harris bound, +Inf when there is none. An entry is a candidate when |α_rj|
// exceeds pivotTol, or minPivot[j] when minPivot is set.
func (s *solver) dualCandidates(dir float64, minPivot []float64) float64 {
	thetaMax := math.Inf(1)
	s.candJ, s.candRatio, s.candMag = s.candJ[:0], s.candRatio[:0], s.candMag[:0]
	d, state, lb, ub, alphaRow := s.d, s.state, s.lb, s.ub, s.alphaRow
	for _, j := range s.rowList {
		a := dir * alphaRow[j]
		pt := pivotTol
		if minPivot != nil {
			pt = minPivot[j]
		}
		var ratio, bound, mag float64
		switch state[j] {
		case atLower:
			if a >= -pt {
				continue
			}
			mag = -a
			dj := d[j]
			if dj < 0 {
				dj = 0
			}
			ratio, bound = dj/mag, (dj+s.dt(j))/mag
		case atUpper:
			if a <= pt {
				continue
			}
			mag = a
			dj := -d[j]
			if dj < 0 {
				dj = 0
			}
			ratio, bound = dj/mag, (dj+s.dt(j))/mag
		case atZero:
			mag = math.Abs(a)
			if mag <= pt {
				continue
			}
			ratio, bound = 0, s.dt(j)/mag
		default:
			continue
		}
		if lb[j] == ub[j] {
			continue
		}
		if bound < thetaMax {
			thetaMax = bound
		}
		s.candJ = append(s.candJ, j)
		s.candRatio = append(s.candRatio, ratio)
		s.candMag = append(s.candMag, mag)
	}
	return thetaMax
}

// rescueDualRow is called when the pivot row r has no entry above pivotTol that could enter:
// before the row is taken for a proof of infeasibility, it is recomputed with nothing
// dropped, and an entry counts when it exceeds farkasTol times the sum of the magnitudes of
// the terms ρ_i·a_ij that make it — an entry that is not rounding, however small. In a row
// that mixes 1 and e^30 the only way back to feasibility can be a pivot of e^−30, and a row
// whose genuine entries are dropped is no Farkas certificate (CheckFarkas applies the same
// test to it). It returns the Harris bound over those candidates, +Inf when the row proves
// infeasibility; rho and rhoNZ then hold the row without drops.
func (s *solver) rescueDualRow(r int, dir float64) float64 {
	s.noDrop = true
	s.btranRow(r)
	s.noDrop = false
	if len(s.minPivot) < s.nt {
		s.minPivot = make([]float64, s.nt)
	}
	for _, j := range s.rowList {
		if j >= s.n {
			s.minPivot[j] = farkasTol * math.Abs(s.rho[j-s.n])
			continue
		}
		mag := 0.0
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			mag += math.Abs(s.rho[s.aIdx[k]] * s.aVal[k])
		}
		s.minPivot[j] = farkasTol * mag
	}
	return s.dualCandidates(dir, s.minPivot)
}

// primalBound is the first pass of the primal ratio test on the column in alphaCol, for a step
// of the entering variable in direction dir (basic x_i moves by −dir·α_i per unit step): the
// Harris bound, +Inf when no basic variable limits the step. An entry counts when |α_i|
// exceeds pivotTol, or minPivot[i] when minPivot is set.
func (s *solver) primalBound(dir float64, minPivot []float64) float64 {
	thetaMax := math.Inf(1)
	for _, i := range s.colNZ {
		g := -dir * s.alphaCol[i]
		j := s.head[i]
		pt := pivotTol
		if minPivot != nil {
			pt = minPivot[i]
		}
		if g < -pt && !math.IsInf(s.lb[j], -1) {
			thetaMax = math.Min(thetaMax, (s.x[j]-s.lb[j]+s.pt(j))/-g)
		} else if g > pt && !math.IsInf(s.ub[j], 1) {
			thetaMax = math.Min(thetaMax, (s.ub[j]-s.x[j]+s.pt(j))/g)
		}
	}
	return thetaMax
}

// rescuePrimalColumn is called when no entry of the column of q above pivotTol limits its
// step: before the column is taken for an unbounded ray, it is recomputed with nothing
// dropped and its small entries are judged as verifiedRay judges a ray. With Δ the move of
// the structural variables per unit step, a basic logical's entry counts when it exceeds
// farkasTol times Σ_j |ã_kj·Δ_j| over its row k, and a basic structural's when its move is
// more than farkasTol of the terms of some row it appears in — when dropping it would leave
// that row violated beyond rounding. It returns the Harris bound over those entries (+Inf:
// the column is a ray, with alphaCol and colNZ holding it without drops); minPivot then
// holds the threshold by basis position, 0 or +Inf.
func (s *solver) rescuePrimalColumn(q int, dir float64) float64 {
	s.noDrop = true
	s.ftranCol(q)
	s.noDrop = false
	if len(s.minPivot) < s.nt {
		s.minPivot = make([]float64, s.nt)
	}
	delta := make([]float64, s.n)
	if q < s.n {
		delta[q] = dir
	}
	for _, i := range s.colNZ {
		if j := s.head[i]; j < s.n {
			delta[j] = -dir * s.alphaCol[i]
		}
	}
	terms := make([]float64, s.m) // Σ_j |ã_kj·Δ_j| by row
	for j, dj := range delta {
		if dj == 0 {
			continue
		}
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			terms[s.aIdx[k]] += math.Abs(s.aVal[k] * dj)
		}
	}
	for _, i := range s.colNZ {
		s.minPivot[i] = math.Inf(1)
		j := s.head[i]
		if j >= s.n {
			if math.Abs(s.alphaCol[i]) > farkasTol*terms[j-s.n] {
				s.minPivot[i] = 0
			}
			continue
		}
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			if math.Abs(s.aVal[k]*delta[j]) > farkasTol*terms[s.aIdx[k]] {
				s.minPivot[i] = 0
				break
			}
		}
	}
	return s.primalBound(dir, s.minPivot)
}
