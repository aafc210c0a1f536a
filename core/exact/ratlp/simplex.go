package ratlp

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
)

// ErrCancelled is returned (wrapped) when the context is cancelled or the progress callback
// asks to stop.
var ErrCancelled = errors.New("ratlp: cancelled")

// solver holds a problem in the internal form
//
//	minimize cost·x  subject to  a'_i·x + s_i = b'_i,  x ≥ 0,  s_i ≥ 0 (s_i = 0 on = rows),
//
// where a'_i, b'_i are row i negated when it is a ≥ row. Variables are numbered structurals
// first (0..n−1), then slacks (n+i); Bland's rules choose by this number. Every nonbasic
// variable is 0, so a basis determines its point: with S the basic structurals, T the rows
// whose slack is nonbasic and L the others, the basic structurals solve K·x_S = b'_T with
// K = A'[T, S] (square), and the basic slacks follow from their rows.
type solver struct {
	n, m  int
	rows  [][]entry // a'_i, sorted by variable
	cols  [][]entry // a'_j by variable, entries' col field holding the row
	b     []*big.Rat
	fixed []bool     // s_i fixed at 0 (= rows)
	sign  []int      // +1, or −1 for a negated ≥ row
	cost  []*big.Rat // minimization form, length n + m (slacks 0)
	shift []*big.Rat // cost shifts of the dual phase, length n + m

	basicVar, basicRow []bool
	S, T               []int // sorted
	posS               []int // variable → position in S, or −1
	f                  *lu

	xS        []*big.Rat // basic structurals by position in S
	sL        []*big.Rat // slack values by row (nil for T rows)
	y         []*big.Rat // row prices by row (0 on L rows)
	farkasRho []*big.Rat // the pivot row that proved infeasibility
	tmp       *big.Rat
	opt       Options
	piv       int
}

// Solve solves p exactly, starting from the basis start (nil: the slack basis, every slack
// basic). A starting basis that is not square or is singular is first repaired: variables
// that make it singular leave it and slacks take their place (Result.Repaired). From there:
//
//   - If the basis is primal feasible, the primal simplex pivots to optimality.
//   - Otherwise the costs of dual infeasible nonbasic variables are shifted so that the basis
//     is dual feasible, the dual simplex pivots to primal feasibility (or proves the problem
//     infeasible), the shifts are dropped and the primal simplex finishes.
//
// Both use Bland's smallest-index rules, which cannot cycle, so every solve terminates (and
// Options.MaxPivots bounds the work of a bad start). An
// optimal answer is checked by Verify before it is returned; an error is returned only for an
// invalid problem, a cancellation, the pivot limit, or a failed check (a bug).
func Solve(p *Problem, start *Basis, opt *Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	s := newSolver(p, opt)
	repaired, err := s.setBasis(start)
	if err != nil {
		return nil, err
	}
	res, err := s.run(p)
	if err != nil {
		return nil, err
	}
	res.Repaired = repaired
	return res, nil
}

func newSolver(p *Problem, opt *Options) *solver {
	n, m := len(p.Objective), len(p.Rows)
	s := &solver{n: n, m: m, tmp: new(big.Rat)}
	if opt != nil {
		s.opt = *opt
	}
	if s.opt.Context == nil {
		s.opt.Context = context.Background()
	}
	if s.opt.MaxPivots <= 0 {
		s.opt.MaxPivots = 20*(n+m) + 1000
	}
	s.rows = make([][]entry, m)
	s.cols = make([][]entry, n)
	s.b = make([]*big.Rat, m)
	s.fixed = make([]bool, m)
	s.sign = make([]int, m)
	for i, r := range p.Rows {
		s.sign[i] = 1
		if r.Op == GreaterEq {
			s.sign[i] = -1
		}
		s.fixed[i] = r.Op == Equal
		s.b[i] = new(big.Rat).Set(r.RHS)
		if s.sign[i] < 0 {
			s.b[i].Neg(s.b[i])
		}
		row := make([]entry, 0, len(r.Terms))
		for _, t := range r.Terms {
			if t.Coef.Sign() == 0 {
				continue
			}
			v := new(big.Rat).Set(t.Coef)
			if s.sign[i] < 0 {
				v.Neg(v)
			}
			row = append(row, entry{t.Var, v})
		}
		sort.Slice(row, func(a, b int) bool { return row[a].col < row[b].col })
		s.rows[i] = row
		for _, e := range row {
			s.cols[e.col] = append(s.cols[e.col], entry{i, e.v})
		}
	}
	s.cost = make([]*big.Rat, n+m)
	s.shift = make([]*big.Rat, n+m)
	for j := range s.cost {
		s.cost[j] = new(big.Rat)
		s.shift[j] = new(big.Rat)
		if j < n && p.Objective[j] != nil {
			s.cost[j].Set(p.Objective[j])
			if p.Sense == Maximize {
				s.cost[j].Neg(s.cost[j])
			}
		}
	}
	return s
}

// setBasis installs start (or the slack basis), repairs it and factorizes it. It returns the
// number of variables that left the basis in the repair.
func (s *solver) setBasis(start *Basis) (int, error) {
	s.basicVar = make([]bool, s.n)
	s.basicRow = make([]bool, s.m)
	if start == nil {
		for i := range s.basicRow {
			s.basicRow[i] = true
		}
	} else {
		if len(start.Var) != s.n || len(start.Row) != s.m {
			return 0, fmt.Errorf("ratlp: starting basis has %d variable and %d row entries for %d variables and %d rows", len(start.Var), len(start.Row), s.n, s.m)
		}
		copy(s.basicVar, start.Var)
		copy(s.basicRow, start.Row)
	}
	s.factor()
	repaired := len(s.f.freeCols)
	if len(s.f.freeRows) > 0 || len(s.f.freeCols) > 0 {
		for _, c := range s.f.freeCols {
			s.basicVar[s.S[c]] = false
		}
		for _, r := range s.f.freeRows {
			s.basicRow[s.T[r]] = true
		}
		s.factor()
		if len(s.f.freeRows)+len(s.f.freeCols) > 0 {
			return 0, fmt.Errorf("ratlp: internal error: the repaired basis is singular")
		}
	}
	return repaired, nil
}

// factor rebuilds S, T and the factorization of K = A'[T, S].
func (s *solver) factor() {
	s.S, s.T = s.S[:0], s.T[:0]
	if s.posS == nil {
		s.posS = make([]int, s.n)
	}
	for j := 0; j < s.n; j++ {
		s.posS[j] = -1
		if s.basicVar[j] {
			s.posS[j] = len(s.S)
			s.S = append(s.S, j)
		}
	}
	for i := 0; i < s.m; i++ {
		if !s.basicRow[i] {
			s.T = append(s.T, i)
		}
	}
	k := make([][]entry, len(s.T))
	for r, i := range s.T {
		for _, e := range s.rows[i] {
			if c := s.posS[e.col]; c >= 0 {
				k[r] = append(k[r], entry{c, e.v})
			}
		}
	}
	s.f = factorize(k, len(s.T), len(s.S))
}

// computePrimal sets xS and sL for the current basis.
func (s *solver) computePrimal() {
	bT := make([]*big.Rat, len(s.T))
	for r, i := range s.T {
		bT[r] = s.b[i]
	}
	s.xS = s.f.solve(bT)
	s.sL = make([]*big.Rat, s.m)
	for i := 0; i < s.m; i++ {
		if s.basicRow[i] {
			s.sL[i] = new(big.Rat).Sub(s.b[i], s.rowDot(i, s.xS))
		}
	}
}

// rowDot is a'_i[S]·v for v indexed by position in S.
func (s *solver) rowDot(i int, v []*big.Rat) *big.Rat {
	t := new(big.Rat)
	for _, e := range s.rows[i] {
		if c := s.posS[e.col]; c >= 0 && v[c].Sign() != 0 {
			t.Add(t, s.tmp.Mul(e.v, v[c]))
		}
	}
	return t
}

// computeDual sets y for the costs plus shifts when shifted is set.
func (s *solver) computeDual(shifted bool) {
	cS := make([]*big.Rat, len(s.S))
	for c, j := range s.S {
		cS[c] = s.costOf(j, shifted)
	}
	yT := s.f.solveT(cS)
	s.y = make([]*big.Rat, s.m)
	for i := range s.y {
		s.y[i] = new(big.Rat)
	}
	for r, i := range s.T {
		s.y[i] = yT[r]
	}
}

func (s *solver) costOf(j int, shifted bool) *big.Rat {
	if !shifted {
		return s.cost[j]
	}
	return new(big.Rat).Add(s.cost[j], s.shift[j])
}

// reducedCost is the reduced cost of variable j for y and the given costs.
func (s *solver) reducedCost(j int, shifted bool) *big.Rat {
	if j >= s.n {
		d := new(big.Rat).Neg(s.y[j-s.n])
		return d.Add(d, s.costOf(j, shifted))
	}
	d := new(big.Rat).Set(s.costOf(j, shifted))
	for _, e := range s.cols[j] {
		if yi := s.y[e.col]; yi.Sign() != 0 {
			d.Sub(d, s.tmp.Mul(e.v, yi))
		}
	}
	return d
}

func (s *solver) isBasic(j int) bool {
	if j < s.n {
		return s.basicVar[j]
	}
	return s.basicRow[j-s.n]
}

// movable: a nonbasic variable that may increase (every one but the slack of an = row).
func (s *solver) movable(j int) bool { return j < s.n || !s.fixed[j-s.n] }

// basicValue of basic variable j.
func (s *solver) basicValue(j int) *big.Rat {
	if j < s.n {
		return s.xS[s.posS[j]]
	}
	return s.sL[j-s.n]
}

// infeasibility of basic variable j: +1 when it must increase, −1 when it must decrease, 0
// when it is within its bounds.
func (s *solver) infeasibility(j int) int {
	v := s.basicValue(j).Sign()
	switch {
	case v < 0:
		return 1
	case v > 0 && j >= s.n && s.fixed[j-s.n]:
		return -1
	}
	return 0
}

// run pivots from the installed basis to an answer.
func (s *solver) run(p *Problem) (*Result, error) {
	primalPhase := false
	for {
		if err := s.opt.Context.Err(); err != nil {
			return nil, fmt.Errorf("%w after %d pivots: %v", ErrCancelled, s.piv, err)
		}
		s.computePrimal()
		if !primalPhase {
			leave, dir := -1, 0
			for j := 0; j < s.n+s.m && leave < 0; j++ {
				if s.isBasic(j) {
					if d := s.infeasibility(j); d != 0 {
						leave, dir = j, d
					}
				}
			}
			if leave < 0 {
				primalPhase = true
				continue
			}
			if err := s.dualStep(leave, dir); err != nil {
				if errors.Is(err, errInfeasible) {
					return s.infeasibleResult(p, dir)
				}
				return nil, err
			}
		} else {
			done, unbounded, err := s.primalStep()
			if err != nil {
				return nil, err
			}
			if unbounded != nil {
				return s.unboundedResult(p, unbounded), nil
			}
			if done {
				return s.optimalResult(p)
			}
		}
	}
}

var errInfeasible = errors.New("infeasible")

// dualStep makes one dual simplex pivot with leaving variable leave, which must move in
// direction dir (+1 up to 0, −1 down to 0). Costs of dual infeasible nonbasic variables are
// shifted first so that the basis is dual feasible for the shifted costs.
func (s *solver) dualStep(leave, dir int) error {
	s.computeDual(true)
	d := make(map[int]*big.Rat)
	for j := 0; j < s.n+s.m; j++ {
		if s.isBasic(j) || !s.movable(j) {
			continue
		}
		dj := s.reducedCost(j, true)
		if dj.Sign() < 0 {
			s.shift[j].Sub(s.shift[j], dj)
			dj.SetInt64(0)
		}
		d[j] = dj
	}
	rho := s.rowOfInverse(leave)
	alpha := s.pivotRow(rho)
	enter := -1
	var best *big.Rat
	ratio := new(big.Rat)
	for j := 0; j < s.n+s.m; j++ {
		dj, ok := d[j]
		if !ok {
			continue
		}
		a := alpha[j]
		if a == nil || a.Sign() == 0 || a.Sign() == dir {
			continue // moving j up would move leave the wrong way (or not at all)
		}
		ratio.Quo(dj, a)
		ratio.Abs(ratio)
		if best == nil || ratio.Cmp(best) < 0 {
			best, enter = new(big.Rat).Set(ratio), j
		}
	}
	if enter < 0 {
		s.farkasRho = rho
		return errInfeasible
	}
	return s.pivot(enter, leave, "dual")
}

// rowOfInverse returns ρ (by row) with Bᵀρ = e_leave: the row of B⁻¹ of the basic variable
// leave, so that ρ·(a'_j, e_j) is leave's entry in the column of j in the tableau.
func (s *solver) rowOfInverse(leave int) []*big.Rat {
	rhs := make([]*big.Rat, len(s.S))
	for c := range rhs {
		rhs[c] = new(big.Rat)
	}
	rho := make([]*big.Rat, s.m)
	for i := range rho {
		rho[i] = new(big.Rat)
	}
	if leave < s.n {
		rhs[s.posS[leave]].SetInt64(1)
	} else {
		r := leave - s.n
		rho[r].SetInt64(1)
		for _, e := range s.rows[r] {
			if c := s.posS[e.col]; c >= 0 {
				rhs[c].Neg(e.v)
			}
		}
	}
	yT := s.f.solveT(rhs)
	for q, i := range s.T {
		rho[i] = yT[q]
	}
	return rho
}

// pivotRow returns α_j = ρ·column j for every nonbasic variable j (nil where zero).
func (s *solver) pivotRow(rho []*big.Rat) []*big.Rat {
	alpha := make([]*big.Rat, s.n+s.m)
	for i, r := range rho {
		if r.Sign() == 0 {
			continue
		}
		for _, e := range s.rows[i] {
			if s.basicVar[e.col] {
				continue
			}
			if alpha[e.col] == nil {
				alpha[e.col] = new(big.Rat)
			}
			alpha[e.col].Add(alpha[e.col], s.tmp.Mul(r, e.v))
		}
		if !s.basicRow[i] {
			alpha[s.n+i] = r
		}
	}
	return alpha
}

// primalStep makes one primal simplex pivot with the true costs. It reports done when the
// basis is optimal, or the unbounded direction (by position) when no variable blocks.
func (s *solver) primalStep() (done bool, ray *direction, err error) {
	s.computeDual(false)
	enter := -1
	for j := 0; j < s.n+s.m; j++ {
		if !s.isBasic(j) && s.movable(j) && s.reducedCost(j, false).Sign() < 0 {
			enter = j
			break
		}
	}
	if enter < 0 {
		return true, nil, nil
	}
	w := s.column(enter)
	leave := -1
	var best *big.Rat
	ratio := new(big.Rat)
	consider := func(j int, wj, xj *big.Rat) {
		fixed := j >= s.n && s.fixed[j-s.n]
		if wj == nil || wj.Sign() == 0 || (wj.Sign() < 0 && !fixed) {
			return
		}
		if fixed {
			ratio.SetInt64(0)
		} else {
			ratio.Quo(xj, wj)
		}
		if best == nil || ratio.Cmp(best) < 0 || (ratio.Cmp(best) == 0 && j < leave) {
			best, leave = new(big.Rat).Set(ratio), j
		}
	}
	for c, j := range s.S {
		consider(j, w.S[c], s.xS[c])
	}
	for i := 0; i < s.m; i++ {
		if s.basicRow[i] {
			consider(s.n+i, w.L[i], s.sL[i])
		}
	}
	if leave < 0 {
		return false, &direction{enter: enter, w: w}, nil
	}
	return false, nil, s.pivot(enter, leave, "primal")
}

// direction is B⁻¹·(column of enter): S by position, L by row.
type direction struct {
	enter int
	w     *columnImage
}

type columnImage struct {
	S []*big.Rat
	L []*big.Rat
}

// column returns B⁻¹ times the column of variable j.
func (s *solver) column(j int) *columnImage {
	col := make([]*big.Rat, s.m) // the column of j by row
	for i := range col {
		col[i] = new(big.Rat)
	}
	if j < s.n {
		for _, e := range s.cols[j] {
			col[e.col].Set(e.v)
		}
	} else {
		col[j-s.n].SetInt64(1)
	}
	bT := make([]*big.Rat, len(s.T))
	for r, i := range s.T {
		bT[r] = col[i]
	}
	w := &columnImage{S: s.f.solve(bT), L: make([]*big.Rat, s.m)}
	for i := 0; i < s.m; i++ {
		if s.basicRow[i] {
			w.L[i] = new(big.Rat).Sub(col[i], s.rowDot(i, w.S))
		}
	}
	return w
}

// pivot exchanges enter and leave and refactorizes.
func (s *solver) pivot(enter, leave int, phase string) error {
	for _, x := range []struct {
		j     int
		basic bool
	}{{enter, true}, {leave, false}} {
		if x.j < s.n {
			s.basicVar[x.j] = x.basic
		} else {
			s.basicRow[x.j-s.n] = x.basic
		}
	}
	s.factor()
	if len(s.f.freeRows)+len(s.f.freeCols) > 0 {
		return fmt.Errorf("ratlp: internal error: pivot (%d in, %d out) made the basis singular", enter, leave)
	}
	s.piv++
	if s.piv > s.opt.MaxPivots {
		return fmt.Errorf("ratlp: more than %d exact pivots", s.opt.MaxPivots)
	}
	if s.opt.Progress != nil && !s.opt.Progress(Progress{Pivots: s.piv, Phase: phase}) {
		return fmt.Errorf("%w by the progress callback after %d pivots", ErrCancelled, s.piv)
	}
	return nil
}
