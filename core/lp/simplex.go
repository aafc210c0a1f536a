package lp

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// Variable states of the simplex.
const (
	basic int8 = iota
	atLower
	atUpper
	atZero // nonbasic free variable, held at 0
)

// loop outcomes
type outcome int

const (
	done outcome = iota // phase finished (primal feasible for the dual, dual feasible for the primal)
	foundInfeasible
	foundUnbounded
	hitIterLimit
	hitTimeLimit
	wasCancelled
	brokeDown // no pivot where one must be: overflow or NaN in the solver's state
)

const (
	defaultFeasTol = 1e-9
	defaultOptTol  = 1e-9
	pivotTol       = 1e-7  // smallest |α| accepted as a pivot in a ratio test
	zeroTol        = 1e-14 // entries of solved vectors below this are dropped
	refactorEvery  = 100   // basis updates between refactorizations
	perturbBase    = 1e-7  // relative size of the dual simplex cost perturbation
	phase1Tol      = 1e-7  // dual infeasibility left by phase 1 that phase 2 may absorb
)

// solver holds a scaled copy of the problem in the internal form
//
//	minimize cost·x  subject to  [A I] x = 0,  lb ≤ x ≤ ub
//
// with n structural variables followed by m logical ones: logical n+i equals −A[i]·x, so its
// bounds are the negated row interval.
type solver struct {
	m, n, nt int

	aStart, aIdx []int // scaled A by columns
	aVal         []float64
	rStart, rIdx []int // scaled A by rows
	rVal         []float64

	lb, ub         []float64 // working bounds (phase 1 replaces them)
	origLB, origUB []float64
	cost, origCost []float64
	x, d           []float64 // values and reduced costs, length nt
	y              []float64 // row duals, length m
	state          []int8
	head           []int // basis position → variable
	where          []int // variable → basis position or −1

	lu      luFactor
	updates int
	dse     []float64 // dual steepest-edge weights by position

	rowScale, colScale []float64
	costScale          float64

	// work vectors
	rowWork, posWork, rho, alphaCol, tau []float64
	alphaRow                             []float64
	inRow                                []bool
	rowList, rhoNZ, colNZ                []int
	candJ                                []int     // ratio test candidates
	candRatio, candMag                   []float64 // their ratios and |α_rj|
	bStart, bIdx                         []int
	bVal                                 []float64

	// control
	ctx        context.Context
	progress   func(Progress) bool
	every      int
	deadline   time.Time
	maxIter    int
	iter       int
	feasTol    float64
	optTol     float64
	relTol     bool      // ptol and dtol follow the optimality check of Solve (see tolerances)
	ptol, dtol []float64 // primal and dual feasibility tolerance of each variable
	phase      string
	perturbed  bool
	rng        *rand.Rand
	farkas     []float64 // scaled row multipliers when infeasible
	ray        []float64 // scaled structural direction when unbounded
	noPerturb  bool
	lastReport int

	// Rescue of a ratio test that found no pivot above pivotTol (see rescueDualRow).
	noDrop   bool      // solved vectors keep their entries below zeroTol
	minPivot []float64 // per-candidate pivot thresholds, relative to the terms of each entry
}

func newSolver(p *Problem, opt *Options) *solver {
	n, m := len(p.Objective), len(p.RHS)
	s := &solver{m: m, n: n, nt: n + m}
	if opt == nil {
		opt = &Options{}
	}
	s.ctx = opt.Context
	if s.ctx == nil {
		s.ctx = context.Background()
	}
	s.progress = opt.Progress
	s.every = opt.ProgressEvery
	if s.every <= 0 {
		s.every = 200
	}
	if opt.TimeLimit > 0 {
		s.deadline = time.Now().Add(opt.TimeLimit)
	}
	s.maxIter = opt.MaxIterations
	if s.maxIter <= 0 {
		s.maxIter = 50*(n+m) + 10000
	}
	s.feasTol, s.optTol = opt.FeasibilityTol, opt.OptimalityTol
	if s.feasTol <= 0 {
		s.feasTol = defaultFeasTol
	}
	if s.optTol <= 0 {
		s.optTol = defaultOptTol
	}
	s.noPerturb = opt.NoPerturbation
	s.rng = rand.New(rand.NewPCG(0x5eed, uint64(n)*1000003+uint64(m)))

	// Columns of A.
	if p.A != nil {
		nnz := p.A.ColStart[n]
		s.aStart = append([]int(nil), p.A.ColStart...)
		s.aIdx = append([]int(nil), p.A.RowIndex[:nnz]...)
		s.aVal = append([]float64(nil), p.A.Value[:nnz]...)
	} else {
		s.aStart = make([]int, n+1)
	}
	s.rowScale = make([]float64, m)
	s.colScale = make([]float64, n)
	for i := range s.rowScale {
		s.rowScale[i] = 1
	}
	for j := range s.colScale {
		s.colScale[j] = 1
	}
	if !opt.NoScaling {
		s.scale()
	}
	s.buildRows()

	nt := s.nt
	s.lb, s.ub = make([]float64, nt), make([]float64, nt)
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		s.lb[j], s.ub[j] = l/s.colScale[j], u/s.colScale[j]
	}
	for i := 0; i < m; i++ {
		lo, hi := p.rowBounds(i)
		s.lb[n+i], s.ub[n+i] = -hi*s.rowScale[i], -lo*s.rowScale[i]
	}
	s.origLB = append([]float64(nil), s.lb...)
	s.origUB = append([]float64(nil), s.ub...)

	s.cost = make([]float64, nt)
	cmax := 0.0
	for j := 0; j < n; j++ {
		c := p.Objective[j]
		if p.Sense == Maximize {
			c = -c
		}
		s.cost[j] = c * s.colScale[j]
		cmax = math.Max(cmax, math.Abs(s.cost[j]))
	}
	s.costScale = 1
	if cmax > 0 {
		s.costScale = pow2(1 / cmax)
		for j := 0; j < n; j++ {
			s.cost[j] *= s.costScale
		}
	}
	s.origCost = append([]float64(nil), s.cost...)

	s.x, s.d = make([]float64, nt), make([]float64, nt)
	s.y = make([]float64, m)
	s.state = make([]int8, nt)
	s.head = make([]int, m)
	s.where = make([]int, nt)
	s.dse = make([]float64, m)
	s.rowWork = make([]float64, m)
	s.posWork = make([]float64, m)
	s.rho = make([]float64, m)
	s.alphaCol = make([]float64, m)
	s.tau = make([]float64, m)
	s.alphaRow = make([]float64, nt)
	s.inRow = make([]bool, nt)
	s.relTol = opt.relTol
	s.ptol, s.dtol = make([]float64, nt), make([]float64, nt)
	s.tolerances()
	return s
}

// pow2 is the power of two nearest v in the logarithm, 2^round(log₂ v), from the binary
// exponent (v = f·2^e with f in [½, 1), and log₂ f < −½ exactly when f < 1/√2): the scaling
// calls it for every entry of every pass, where Log2 and Exp2 were a noticeable part of a solve.
func pow2(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 1) {
		return math.Exp2(math.Round(math.Log2(v)))
	}
	f, e := math.Frexp(v)
	if f < math.Sqrt2/2 {
		e--
	}
	return math.Ldexp(1, e)
}

// scale equilibrates A by powers of two (exact in floating point): a few passes of geometric
// scaling of rows and then columns, so that the entries of each line straddle 1.
func (s *solver) scale() {
	n, m := s.n, s.m
	if len(s.aVal) == 0 {
		return
	}
	rmin, rmax := make([]float64, m), make([]float64, m)
	for pass := 0; pass < 6; pass++ {
		// A pass that changes no factor leaves the next ones nothing to change.
		changed := false
		for i := range rmin {
			rmin[i], rmax[i] = math.Inf(1), 0
		}
		for j := 0; j < n; j++ {
			for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
				a := math.Abs(s.aVal[k]) * s.colScale[j] * s.rowScale[s.aIdx[k]]
				i := s.aIdx[k]
				rmin[i] = math.Min(rmin[i], a)
				rmax[i] = math.Max(rmax[i], a)
			}
		}
		for i := 0; i < m; i++ {
			if rmax[i] > 0 {
				if f := pow2(1 / math.Sqrt(rmin[i]*rmax[i])); f != 1 {
					s.rowScale[i] *= f
					changed = true
				}
			}
		}
		for j := 0; j < n; j++ {
			lo, hi := math.Inf(1), 0.0
			for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
				a := math.Abs(s.aVal[k]) * s.colScale[j] * s.rowScale[s.aIdx[k]]
				lo, hi = math.Min(lo, a), math.Max(hi, a)
			}
			if hi > 0 {
				if f := pow2(1 / math.Sqrt(lo*hi)); f != 1 {
					s.colScale[j] *= f
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	for j := 0; j < n; j++ {
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			s.aVal[k] *= s.colScale[j] * s.rowScale[s.aIdx[k]]
		}
	}
}

func (s *solver) buildRows() {
	m, n := s.m, s.n
	s.rStart = make([]int, m+1)
	for _, i := range s.aIdx {
		s.rStart[i+1]++
	}
	for i := 0; i < m; i++ {
		s.rStart[i+1] += s.rStart[i]
	}
	s.rIdx = make([]int, len(s.aIdx))
	s.rVal = make([]float64, len(s.aIdx))
	next := append([]int(nil), s.rStart[:m]...)
	for j := 0; j < n; j++ {
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			i := s.aIdx[k]
			s.rIdx[next[i]] = j
			s.rVal[next[i]] = s.aVal[k]
			next[i]++
		}
	}
}

// nonbasicAt places nonbasic variable j at a bound: the one its reduced cost prefers when
// preferDual is set, else its lower bound when finite.
func (s *solver) place(j int, preferDual bool) {
	l, u := s.lb[j], s.ub[j]
	switch {
	case math.IsInf(l, -1) && math.IsInf(u, 1):
		s.state[j], s.x[j] = atZero, 0
	case math.IsInf(l, -1):
		s.state[j], s.x[j] = atUpper, u
	case math.IsInf(u, 1):
		s.state[j], s.x[j] = atLower, l
	case preferDual && s.d[j] < 0:
		s.state[j], s.x[j] = atUpper, u
	default:
		s.state[j], s.x[j] = atLower, l
	}
}

func (s *solver) slackBasis() {
	for j := 0; j < s.n; j++ {
		s.where[j] = -1
		s.place(j, false)
	}
	for i := 0; i < s.m; i++ {
		j := s.n + i
		s.head[i], s.where[j], s.state[j] = j, i, basic
	}
	for i := range s.dse {
		s.dse[i] = 1
	}
}

// refactor factorizes the basis, replacing dependent columns by logicals, and recomputes the
// basic values and the duals from scratch.

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
