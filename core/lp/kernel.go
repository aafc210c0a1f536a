package lp

import (
	"math"
	"time"
)

// The operations both simplex methods share: refactorization, tolerances, primal and dual
// values, infeasibilities, the row and column solves, and the pivot.

func (s *solver) refactor() {
	for attempt := 0; ; attempt++ {
		s.bStart = append(s.bStart[:0], 0)
		s.bIdx, s.bVal = s.bIdx[:0], s.bVal[:0]
		for p := 0; p < s.m; p++ {
			j := s.head[p]
			if j < s.n {
				s.bIdx = append(s.bIdx, s.aIdx[s.aStart[j]:s.aStart[j+1]]...)
				s.bVal = append(s.bVal, s.aVal[s.aStart[j]:s.aStart[j+1]]...)
			} else {
				s.bIdx = append(s.bIdx, j-s.n)
				s.bVal = append(s.bVal, 1)
			}
			s.bStart = append(s.bStart, len(s.bIdx))
		}
		badPos, badRows := s.lu.factor(s.m, s.bStart, s.bIdx, s.bVal)
		if badPos == nil {
			break
		}
		if attempt >= 5 {
			// Should not happen; the all-logical basis is the identity and always factorizes.
			for j := 0; j < s.n; j++ {
				if s.state[j] == basic {
					s.where[j] = -1
					s.place(j, false)
				}
			}
			s.slackBasis()
			continue
		}
		for k, p := range badPos {
			j := s.head[p]
			s.where[j] = -1
			s.place(j, false)
			l := s.n + badRows[k]
			if s.where[l] >= 0 {
				continue // cannot happen: logicals of unpivoted rows are nonbasic
			}
			s.head[p], s.where[l], s.state[l] = l, p, basic
			s.dse[p] = 1
		}
	}
	s.updates = 0
	s.computePrimal()
	s.computeDuals()
	if s.relTol {
		s.tolerances()
	}
}

// tolerances sets the feasibility tolerances of each variable: feasTol and optTol, or with
// relTol those of the optimality check of Solve (see finish) carried into the scaled problem,
// from the current point and duals, so that the simplex works to what will be checked. The
// check's tolerances are relative to the size of each row's and column's terms; the scaled
// problem's are absolute, and where the data span many orders of magnitude (a row of 1 and
// e^30, costs of 10^4 and 10^14 with the objective scaled to max |c| = 1) no single absolute
// tolerance matches them. With x̃ = x/colScale, ã = a·rowScale·colScale and
// ỹ = y·costScale/rowScale:
//
//   - logical of row i: FeasibilityTol·max(rowScale_i, rowScale_i·|b_i|, max_j |ã_ij·x̃_j|)
//     (the check's max(1, |b_i|, max_j |a_ij·x_j|) in scaled units), and for its dual the
//     tightest min_j dtol_j/|ã_ij| that keeps every column of the row within its tolerance;
//   - structural j: OptimalityTol·max(colScale_j·costScale, |c̃_j|, max_i |ã_ij·ỹ_i|) (the
//     check's max(1, |c_j|, max_i |a_ij·y_i|)), and as primal tolerance the tightest
//     min_i ptol_i/|ã_ij| over its rows: the check projects X onto its bounds, so a bound
//     left by x̃_j costs |ã_ij|·(its distance) in every row i.
//
// They are refreshed at every refactorization.
func (s *solver) tolerances() {
	if !s.relTol {
		for j := range s.ptol {
			s.ptol[j], s.dtol[j] = s.feasTol, s.optTol
		}
		return
	}
	n := s.n
	for j := 0; j < n; j++ {
		mag := math.Max(s.colScale[j]*s.costScale, math.Abs(s.origCost[j]))
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			mag = math.Max(mag, math.Abs(s.aVal[k]*s.y[s.aIdx[k]]))
		}
		s.dtol[j] = s.optTol * mag
		// A structural's bound is met exactly once X is projected onto it (see finish);
		// its tolerance is what the projection may cost its rows, set below.
		s.ptol[j] = math.Inf(1)
	}
	for i := 0; i < s.m; i++ {
		l := n + i
		// The logical is −rowScale_i·(a_i·x): its bounds are the scaled right-hand side.
		mag := s.rowScale[i]
		for _, v := range []float64{s.origLB[l], s.origUB[l]} {
			if !math.IsInf(v, 0) {
				mag = math.Max(mag, math.Abs(v))
			}
		}
		dt := math.Inf(1)
		for k := s.rStart[i]; k < s.rStart[i+1]; k++ {
			j := s.rIdx[k]
			mag = math.Max(mag, math.Abs(s.rVal[k]*s.x[j]))
			dt = math.Min(dt, s.dtol[j]/math.Abs(s.rVal[k]))
		}
		pt := s.feasTol * mag
		s.ptol[l] = pt
		for k := s.rStart[i]; k < s.rStart[i+1]; k++ {
			j := s.rIdx[k]
			s.ptol[j] = math.Min(s.ptol[j], pt/math.Abs(s.rVal[k]))
		}
		if math.IsInf(dt, 1) {
			dt = s.optTol
		}
		s.dtol[l] = dt
	}
	for j := 0; j < n; j++ {
		if math.IsInf(s.ptol[j], 1) {
			s.ptol[j] = s.feasTol / s.colScale[j] // a column without coefficients
		}
	}
}

// pt and dt are the primal and dual feasibility tolerances of variable j (see tolerances); the
// first solve reads no slice for them.
func (s *solver) pt(j int) float64 {
	if s.relTol {
		return s.ptol[j]
	}
	return s.feasTol
}

func (s *solver) dt(j int) float64 {
	if s.relTol {
		return s.dtol[j]
	}
	return s.optTol
}

// computePrimal sets x_B = −B⁻¹ N x_N.
func (s *solver) computePrimal() {
	r := s.rowWork
	for i := range r {
		r[i] = 0
	}
	for j := 0; j < s.n; j++ {
		if s.state[j] == basic || s.x[j] == 0 {
			continue
		}
		v := s.x[j]
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			r[s.aIdx[k]] -= s.aVal[k] * v
		}
	}
	for i := 0; i < s.m; i++ {
		if j := s.n + i; s.state[j] != basic {
			r[i] -= s.x[j]
		}
	}
	s.lu.ftran(r, s.posWork)
	for p, j := range s.head {
		s.x[j] = s.posWork[p]
	}
}

// computeDuals sets y = B⁻ᵀ c_B and d = c − [A I]ᵀ y.
func (s *solver) computeDuals() {
	e := s.posWork
	for p, j := range s.head {
		e[p] = s.cost[j]
	}
	s.lu.btran(e, s.y)
	for j := 0; j < s.n; j++ {
		if s.state[j] == basic {
			s.d[j] = 0
			continue
		}
		v := s.cost[j]
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			v -= s.aVal[k] * s.y[s.aIdx[k]]
		}
		s.d[j] = v
	}
	for i := 0; i < s.m; i++ {
		j := s.n + i
		if s.state[j] == basic {
			s.d[j] = 0
		} else {
			s.d[j] = s.cost[j] - s.y[i]
		}
	}
}

// dualInfeasibility of nonbasic j: how much its reduced cost has the wrong sign.
func (s *solver) dualInfeasibility(j int) float64 {
	if s.lb[j] == s.ub[j] {
		return 0
	}
	switch s.state[j] {
	case atLower:
		return math.Max(0, -s.d[j])
	case atUpper:
		return math.Max(0, s.d[j])
	case atZero:
		return math.Abs(s.d[j])
	}
	return 0
}

func (s *solver) primalInfeasibility(j int) float64 {
	if v := s.lb[j] - s.x[j]; v > 0 {
		return v
	}
	if v := s.x[j] - s.ub[j]; v > 0 {
		return v
	}
	return 0
}

func (s *solver) objective() float64 {
	v := 0.0
	for j := 0; j < s.n; j++ {
		v += s.cost[j] * s.x[j]
	}
	return v
}

// check handles limits, cancellation and progress; it returns done when the solve may go on.
func (s *solver) check(infeas func() float64) outcome {
	if s.iter >= s.maxIter {
		return hitIterLimit
	}
	if s.iter%32 == 0 {
		if s.ctx.Err() != nil {
			return wasCancelled
		}
		if !s.deadline.IsZero() && time.Now().After(s.deadline) {
			return hitTimeLimit
		}
	}
	if s.progress != nil && s.iter-s.lastReport >= s.every {
		s.lastReport = s.iter
		obj := s.objective() / s.costScale
		if !s.progress(Progress{Iteration: s.iter, Objective: obj, Infeasibility: infeas(), Phase: s.phase, Bound: math.NaN()}) {
			return wasCancelled
		}
	}
	return done
}

func (s *solver) sumPrimalInfeasibility() float64 {
	v := 0.0
	for _, j := range s.head {
		v += s.primalInfeasibility(j)
	}
	return v
}

func (s *solver) sumDualInfeasibility() float64 {
	v := 0.0
	for j := 0; j < s.nt; j++ {
		if s.state[j] != basic {
			v += s.dualInfeasibility(j)
		}
	}
	return v
}

// gather lists the nonzero entries of v; with drop, those below zeroTol are zeroed instead.
func gather(v []float64, list []int, drop bool) []int {
	list = list[:0]
	for i, a := range v {
		if a != 0 {
			if drop && math.Abs(a) < zeroTol {
				v[i] = 0
				continue
			}
			list = append(list, i)
		}
	}
	return list
}

// btranRow computes ρ = B⁻ᵀ e_r and the pivot row α_r = ρᵀ[A I] over nonbasic variables,
// listed in rowList.
func (s *solver) btranRow(r int) {
	e := s.posWork
	for i := range e {
		e[i] = 0
	}
	e[r] = 1
	s.lu.btran(e, s.rho)
	s.rhoNZ = gather(s.rho, s.rhoNZ, !s.noDrop)
	alphaRow, inRow, state := s.alphaRow, s.inRow, s.state
	for _, j := range s.rowList {
		alphaRow[j] = 0
		inRow[j] = false
	}
	rowList := s.rowList[:0]
	rho, rStart, rIdx, rVal := s.rho, s.rStart, s.rIdx, s.rVal
	for _, i := range s.rhoNZ {
		v := rho[i]
		idx := rIdx[rStart[i]:rStart[i+1]]
		val := rVal[rStart[i]:rStart[i+1]]
		val = val[:len(idx)]
		for k, j := range idx {
			if state[j] == basic {
				continue
			}
			if !inRow[j] {
				inRow[j] = true
				rowList = append(rowList, j)
			}
			alphaRow[j] += v * val[k]
		}
		if j := s.n + i; state[j] != basic {
			inRow[j] = true
			rowList = append(rowList, j)
			alphaRow[j] = v
		}
	}
	s.rowList = rowList
}

// ftranCol computes α_q = B⁻¹ a_q into alphaCol, listing its nonzeros in colNZ.
func (s *solver) ftranCol(q int) {
	r := s.rowWork
	for i := range r {
		r[i] = 0
	}
	if q < s.n {
		for k := s.aStart[q]; k < s.aStart[q+1]; k++ {
			r[s.aIdx[k]] = s.aVal[k]
		}
	} else {
		r[q-s.n] = 1
	}
	s.lu.ftran(r, s.alphaCol)
	s.colNZ = gather(s.alphaCol, s.colNZ, !s.noDrop)
}

// pivot replaces the basic variable at position r by q (alphaCol must hold α_q).
func (s *solver) pivot(r, q int, leaveState int8) {
	p := s.head[r]
	s.lu.addEta(r, s.alphaCol, s.colNZ)
	s.updates++
	s.head[r] = q
	s.where[q] = r
	s.state[q] = basic
	s.where[p] = -1
	s.state[p] = leaveState
	if leaveState == atLower {
		s.x[p] = s.lb[p]
	} else if leaveState == atUpper {
		s.x[p] = s.ub[p]
	}
	s.d[q] = 0
}

func (s *solver) needRefactor() bool {
	return s.updates >= refactorEvery || s.lu.etaNonzeros() > 2*s.lu.nnzLU+2*s.m
}
