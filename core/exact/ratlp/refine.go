package ratlp

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/qif-toolkit/qif/core/lp"
)

// RefineOptions tune RefinedStart; nil gives the defaults.
type RefineOptions struct {
	// Context cancels the floating-point solves; nil means context.Background().
	Context context.Context
	// Progress, when set, is called during the floating-point solves with the round (0 for
	// the first solve) and the simplex iterations of all rounds so far; returning false
	// cancels.
	Progress func(round, iterations int) bool
	// MaxRounds bounds the correction rounds after the first solve (0: the default 8; a
	// negative value: none).
	MaxRounds int
}

// RefineResult is the outcome of RefinedStart.
type RefineResult struct {
	// Basis is the final basis of the last correction solve, mapped onto p, for Solve;
	// First is the basis of the first solve (the program itself), which a caller may prefer
	// when it is closer to optimal (see Infeasibilities).
	Basis, First *Basis
	// Rounds is the number of correction solves after the first; Iterations the simplex
	// iterations of all of them.
	Rounds, Iterations int
	// Cancelled is set when the context or the progress callback stopped a solve.
	Cancelled bool
}

// RefinedStart finds a starting basis for Solve by iterative refinement in floating point
// (Gleixner, Steffy and Wolter, "Iterative refinement for linear programming", 2016): the
// program is solved in float64, the primal and dual residuals of the accumulated solution
// are computed exactly, and a correction program — the same rows, its right-hand side, bounds
// and costs those residuals magnified by powers of two — is solved in float64 again. Each
// round resolves what the previous one could not see below its tolerances: in mechanism
// programs with factors e^{εd} of 10^9 and more, the optimal mechanism has entries of 10^−9,
// 10^−18, …, which a single floating-point solve takes for zero, so its basis is far from the
// exact optimum and every exact pivot that repairs it costs a rational factorization. The
// rounds stop when the basis no longer changes and the residuals vanish to their last scale,
// or after MaxRounds. Rows whose coefficients are beyond the float64 range are left out of the
// floating-point programs (their slacks start basic, as in StartFrom).
func RefinedStart(p *Problem, opt *RefineOptions) (*RefineResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	rf := newRefiner(p, opt)
	out := &RefineResult{}
	if !rf.firstSolve(out) {
		if rf.err != nil {
			return nil, rf.err
		}
		return out, nil
	}
	prev := out.Basis
	scaleP, scaleD := 0, 0 // log2 of the magnifications of the last round
	for round := 1; ; round++ {
		res := rf.residuals()
		if res.maxP == 0 && res.maxD == 0 {
			break // x, s and y are feasible; the basis of the last round is kept
		}
		// Magnifications: powers of two (exact), growing by at most 2^40 per round so that a
		// residual that is rounding of the last solve does not send the next one to scales
		// where the rest of the program is noise.
		kP, kD := scaleFor(res.maxP, scaleP), scaleFor(res.maxD, scaleD)
		// The primal magnification never exceeds the dual one: the next basis may have to
		// move variables by amounts of the order of the dual residual (tiny objective gains
		// restructure the mechanism at their own scale), and a bound magnified further would
		// be capped and make the correction infeasible.
		kP = min(kP, kD)
		scaleP, scaleD = kP, kD
		b, err := rf.correct(round, res, kP, kD, out)
		if err != nil {
			return nil, err
		}
		if out.Cancelled || b == nil {
			return out, nil // cancelled, or the correction did not solve: the last basis is kept
		}
		out.Rounds = round
		same := prev != nil && sameBasis(prev, b)
		prev = b
		out.Basis = b
		if round >= rf.o.MaxRounds || same {
			break
		}
		if rf.o.Progress != nil && !rf.o.Progress(round+1, out.Iterations) {
			out.Cancelled = true
			return out, nil
		}
	}
	return out, nil
}

// refiner holds the program in minimization form and the accumulated solution of
// RefinedStart: every inequality row gets a slack σ_i s_i with σ = +1 on ≤ rows and −1 on ≥
// rows, so that all rows are equalities.
type refiner struct {
	p               *Problem
	o               RefineOptions
	n, m            int
	cost            []*big.Rat  // c, negated for Maximize
	kept            []bool      // rows whose coefficients fit in float64
	fa              [][]float64 // float coefficients of the kept rows
	x, s, y         []*big.Rat  // primal values, slack values (0 on = rows), row prices (reduced cost c − Aᵀy)
	firstIterations int
	tmp             *big.Rat
	err             error
}

func newRefiner(p *Problem, opt *RefineOptions) *refiner {
	rf := &refiner{p: p, n: len(p.Objective), m: len(p.Rows), tmp: new(big.Rat)}
	if opt != nil {
		rf.o = *opt
	}
	if rf.o.Context == nil {
		rf.o.Context = context.Background()
	}
	switch {
	case rf.o.MaxRounds == 0:
		rf.o.MaxRounds = 8
	case rf.o.MaxRounds < 0:
		rf.o.MaxRounds = 0
	}
	n, m := rf.n, rf.m
	rf.cost = make([]*big.Rat, n)
	for j, c := range p.Objective {
		rf.cost[j] = new(big.Rat)
		if c != nil {
			rf.cost[j].Set(c)
			if p.Sense == Maximize {
				rf.cost[j].Neg(rf.cost[j])
			}
		}
	}
	rf.kept = make([]bool, m)
	rf.fa = make([][]float64, m)
	for i, r := range p.Rows {
		rf.kept[i] = true
		if b, _ := r.RHS.Float64(); math.IsInf(b, 0) {
			rf.kept[i] = false
			continue
		}
		rf.fa[i] = make([]float64, len(r.Terms))
		for k, t := range r.Terms {
			f, _ := t.Coef.Float64()
			if math.IsInf(f, 0) {
				rf.kept[i] = false
				break
			}
			rf.fa[i][k] = f
		}
	}
	rf.x = make([]*big.Rat, n)
	for j := range rf.x {
		rf.x[j] = new(big.Rat)
	}
	rf.s, rf.y = make([]*big.Rat, m), make([]*big.Rat, m)
	for i := range rf.s {
		rf.s[i], rf.y[i] = new(big.Rat), new(big.Rat)
	}
	return rf
}

// sigma is the sign of row i's slack: +1 on ≤ rows, −1 on ≥ rows, 0 on equalities.
func (rf *refiner) sigma(i int) int64 {
	switch rf.p.Rows[i].Op {
	case LessEq:
		return 1
	case GreaterEq:
		return -1
	}
	return 0
}

// firstSolve is round 0: the program as it stands (Float: rows as given, which core/lp may
// solve through its dual). Its basis is out.Basis and out.First; its solution starts the
// accumulation. It reports whether correction rounds follow (false with rf.err set on an
// error, or when cancelled, not solved or no rounds are asked for).
func (rf *refiner) firstSolve(out *RefineResult) bool {
	p, o := rf.p, rf.o
	fp, fkept, ok := p.Float()
	if !ok {
		return false
	}
	res0, err := lp.Solve(fp, &lp.Options{Context: o.Context, Progress: func(q lp.Progress) bool {
		return o.Progress == nil || o.Progress(0, q.Iteration)
	}})
	if err != nil {
		rf.err = err
		return false
	}
	out.Iterations = res0.Iterations
	if res0.Status == lp.Cancelled || o.Context.Err() != nil {
		out.Cancelled = true
		return false
	}
	out.Basis = StartFrom(p, fkept, res0)
	out.First = out.Basis
	if o.MaxRounds == 0 || (res0.Status != lp.Optimal && res0.Status != lp.Imprecise) || len(res0.X) != rf.n {
		return false
	}
	for j := 0; j < rf.n; j++ {
		rf.x[j] = ratLdexp(res0.X[j], 0)
	}
	for k, i := range fkept {
		rf.y[i] = ratLdexp(res0.Duals[k], 0)
		if p.Sense == Maximize {
			rf.y[i].Neg(rf.y[i])
		}
	}
	for i, row := range p.Rows {
		if sg := rf.sigma(i); sg != 0 {
			v := new(big.Rat).Set(row.RHS)
			for _, t := range row.Terms {
				v.Sub(v, rf.tmp.Mul(t.Coef, rf.x[t.Var]))
			}
			if sg < 0 {
				v.Neg(v)
			}
			rf.s[i] = v
		}
	}
	rf.firstIterations = res0.Iterations
	return true
}

// refineResiduals are the exact residuals of the accumulated solution: r_i = b_i − a_i·x −
// σ_i s_i, the reduced costs d of x and ds of the slacks, and the largest primal violation
// (residuals of kept rows, negative x and s) and dual violation (negative reduced costs).
type refineResiduals struct {
	r, d, ds   []*big.Rat
	maxP, maxD float64
}

func (rf *refiner) residuals() refineResiduals {
	p, x, s, y, tmp := rf.p, rf.x, rf.s, rf.y, rf.tmp
	res := refineResiduals{r: make([]*big.Rat, rf.m), d: make([]*big.Rat, rf.n), ds: make([]*big.Rat, rf.m)}
	for i, row := range p.Rows {
		v := new(big.Rat).Set(row.RHS)
		for _, t := range row.Terms {
			if x[t.Var].Sign() != 0 {
				v.Sub(v, tmp.Mul(t.Coef, x[t.Var]))
			}
		}
		switch rf.sigma(i) {
		case 1:
			v.Sub(v, s[i])
		case -1:
			v.Add(v, s[i])
		}
		res.r[i] = v
		if rf.kept[i] {
			res.maxP = math.Max(res.maxP, absFloat(v))
		}
		if s[i].Sign() < 0 {
			res.maxP = math.Max(res.maxP, absFloat(s[i]))
		}
	}
	for _, v := range x {
		if v.Sign() < 0 {
			res.maxP = math.Max(res.maxP, absFloat(v))
		}
	}
	for j := range res.d {
		res.d[j] = new(big.Rat).Set(rf.cost[j])
	}
	for i, row := range p.Rows {
		if y[i].Sign() == 0 {
			continue
		}
		for _, t := range row.Terms {
			res.d[t.Var].Sub(res.d[t.Var], tmp.Mul(t.Coef, y[i]))
		}
	}
	for i := range res.ds {
		res.ds[i] = new(big.Rat) // reduced cost of slack i: −σ_i y_i
		if sg := rf.sigma(i); sg != 0 {
			res.ds[i].Mul(y[i], big.NewRat(-sg, 1))
			if res.ds[i].Sign() < 0 {
				res.maxD = math.Max(res.maxD, absFloat(res.ds[i]))
			}
		}
	}
	for _, v := range res.d {
		if v.Sign() < 0 {
			res.maxD = math.Max(res.maxD, absFloat(v))
		}
	}
	return res
}

// correct solves the correction program of a round — a·x̂ + σ ŝ = 2^kP r, x̂ ≥ −2^kP x,
// ŝ ≥ −2^kP s, minimizing 2^kD (d·x̂ + ds·ŝ) — accumulates its solution exactly (x += x̂/2^kP,
// s += ŝ/2^kP, y += ŷ/2^kD) and returns its basis. A nil basis means the correction did not
// solve (or was cancelled: out.Cancelled), and the basis of the last round is kept.
func (rf *refiner) correct(round int, res refineResiduals, kP, kD int, out *RefineResult) (*Basis, error) {
	p, n, m := rf.p, rf.n, rf.m
	model := lp.NewModel(lp.Minimize)
	xv := model.AddBlock("x", 1, n)
	sv := make([]int, m)
	for i := range sv {
		sv[i] = -1
		if rf.sigma(i) != 0 && rf.kept[i] {
			sv[i] = model.AddVar("s", math.Inf(-1), math.Inf(1))
		}
	}
	for j := 0; j < n; j++ {
		model.SetBounds(xv.At(0, j), lowerBound(rf.x[j], kP), math.Inf(1))
		model.SetObjective(xv.At(0, j), costCapped(ldexp(res.d[j], kD), round))
	}
	rowOf := make([]int, 0, m)
	var terms []lp.Term
	for i, row := range p.Rows {
		if !rf.kept[i] {
			continue
		}
		terms = terms[:0]
		for k, t := range row.Terms {
			terms = append(terms, lp.Term{Var: xv.At(0, t.Var), Coef: rf.fa[i][k]})
		}
		if sv[i] >= 0 {
			model.SetBounds(sv[i], lowerBound(rf.s[i], kP), math.Inf(1))
			model.SetObjective(sv[i], costCapped(ldexp(res.ds[i], kD), round))
			terms = append(terms, lp.Term{Var: sv[i], Coef: float64(rf.sigma(i))})
		}
		model.AddEq(terms, ldexp(res.r[i], kP))
		rowOf = append(rowOf, i)
	}
	round0, iters0 := round, out.Iterations
	// A correction round may not take much longer than the first solve: when the magnified
	// program is hard for the floating-point simplex, the basis of the last round that solved
	// is kept.
	maxIt := 2*rf.firstIterations + 2*(model.NumVars()+model.NumRows()) + 500
	o := rf.o
	sol, err := model.Solve(&lp.Options{MaxIterations: maxIt, Context: o.Context, Progress: func(q lp.Progress) bool {
		return o.Progress == nil || o.Progress(round0, iters0+q.Iteration)
	}})
	if err != nil {
		return nil, fmt.Errorf("ratlp: correction program of round %d: %v", round, err)
	}
	out.Iterations += sol.Iterations
	if sol.Status == lp.Cancelled || o.Context.Err() != nil {
		out.Cancelled = true
		return nil, nil
	}
	if sol.Status != lp.Optimal && sol.Status != lp.Imprecise {
		return nil, nil
	}
	for j := 0; j < n; j++ {
		rf.x[j].Add(rf.x[j], ratLdexp(sol.X[xv.At(0, j)], -kP))
	}
	for k, i := range rowOf {
		if sv[i] >= 0 {
			rf.s[i].Add(rf.s[i], ratLdexp(sol.X[sv[i]], -kP))
		}
		rf.y[i].Add(rf.y[i], ratLdexp(sol.Duals[k], -kD))
	}
	b := &Basis{Var: make([]bool, n), Row: make([]bool, m)}
	// A variable whose magnified bound was capped and that stays positive is basic in the
	// exact basis even where the correction left it at the capped bound.
	for j := 0; j < n; j++ {
		b.Var[j] = sol.VarStatus[xv.At(0, j)] == lp.Basic
	}
	for i := range b.Row {
		b.Row[i] = !rf.kept[i]
	}
	for k, i := range rowOf {
		b.Row[i] = sol.RowStatus[k] == lp.Basic || (sv[i] >= 0 && (sol.VarStatus[sv[i]] == lp.Basic))
	}
	return b, nil
}

// boundCap and costCap bound the magnified bounds and costs of a correction program: a bound
// 10^6 away from residuals of size 1 does not bind, and a reduced cost of 100 keeps its
// variable nonbasic as surely as 10^16 would, without the badly scaled program that the true
// values make (bounds of 2^59 and costs of 10^16 stalled the simplex for tens of thousands of
// iterations). The cost cap is kept low because the dual tolerance of a column grows with its
// cost, and with it what the next round has to correct.
const (
	boundCap = 1e6
	costCap  = 100
)

// lowerBound is the magnified lower bound −2^k·v of a correction variable, or −∞ when it is
// beyond boundCap: the variable is then free in the correction (its value is positive and
// far from its bound at this scale) and basic in the exact basis.
func lowerBound(v *big.Rat, k int) float64 {
	return math.Max(-boundCap, -ldexp(v, k))
}

// costCapped caps a magnified reduced cost from above in the correction rounds (round 0 is the
// program itself and keeps its costs).
func costCapped(v float64, round int) float64 {
	if round == 0 {
		return v
	}
	return math.Min(costCap, v)
}

// scaleFor returns the exponent k of the magnification 2^k that brings a residual of size v to
// about 1, at most 40 above the previous exponent.
func scaleFor(v float64, prev int) int {
	if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return prev + 40
	}
	_, e := math.Frexp(v) // v = f·2^e, f in [0.5, 1)
	k := -e + 1
	if k > prev+40 {
		k = prev + 40
	}
	return k
}

// absFloat is |v| as a float64 (+Inf beyond the range, 0 below it).
func absFloat(v *big.Rat) float64 {
	f, _ := v.Float64()
	return math.Abs(f)
}

// ldexp returns v·2^k rounded to float64.
func ldexp(v *big.Rat, k int) float64 {
	t := new(big.Rat)
	if k >= 0 {
		t.SetFrac(new(big.Int).Lsh(v.Num(), uint(k)), v.Denom())
	} else {
		t.SetFrac(v.Num(), new(big.Int).Lsh(v.Denom(), uint(-k)))
	}
	f, _ := t.Float64()
	return f
}

// ratLdexp returns f·2^k exactly (f finite).
func ratLdexp(f float64, k int) *big.Rat {
	r := new(big.Rat)
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return r
	}
	r.SetFloat64(f)
	if k > 0 {
		return r.SetFrac(new(big.Int).Lsh(r.Num(), uint(k)), r.Denom())
	}
	return r.SetFrac(r.Num(), new(big.Int).Lsh(r.Denom(), uint(-k)))
}

func sameBasis(a, b *Basis) bool {
	for j := range a.Var {
		if a.Var[j] != b.Var[j] {
			return false
		}
	}
	for i := range a.Row {
		if a.Row[i] != b.Row[i] {
			return false
		}
	}
	return true
}

// Infeasibilities returns how far the basis b is from optimal for p, in exact arithmetic: the
// number of basic variables and slacks outside their bounds plus the number of nonbasic ones
// with a reduced cost of the wrong sign (after the repair Solve would make, whose variables
// count too). It costs one factorization and two solves, about one exact pivot, and lets a
// caller choose between candidate starting bases.
func Infeasibilities(p *Problem, b *Basis) (int, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	s := newSolver(p, nil)
	repaired, err := s.setBasis(b)
	if err != nil {
		return 0, err
	}
	s.computePrimal()
	s.computeDual(false)
	count := repaired
	for j := 0; j < s.n+s.m; j++ {
		switch {
		case s.isBasic(j):
			if s.infeasibility(j) != 0 {
				count++
			}
		case s.movable(j) && s.reducedCost(j, false).Sign() < 0:
			count++
		}
	}
	return count, nil
}
