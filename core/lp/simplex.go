package lp

// The simplex solver's state and its set-up: scaling, the row view and the first basis. The
// methods are in kernel.go (shared operations), dual.go, primal.go, phase1.go, ratio.go (ratio
// tests) and driver.go (which method runs when).

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
