package lp_test

import (
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/exact/ratlp"
	"github.com/qif-toolkit/qif/core/lp"
)

// Statuses are verified on badly scaled programs: small random LPs whose rows mix
// coefficients of 1 and e^d for d up to 35, built feasible, infeasible or unbounded by
// construction, and decided independently by the exact rational simplex of core/exact/ratlp on
// the same float64 data. Every status core/lp reports must agree with it; Imprecise (no claim)
// is counted separately.

var (
	scaledCases = flag.Int("lp.scaled", 1500, "number of random badly scaled programs in TestScaledStatusesAgainstExact")
	scaledSeed  = flag.Uint64("lp.scaledseed", 2024, "seed of TestScaledStatusesAgainstExact")
)

// scaledKind is how a random program was built, which fixes its status.
type scaledKind int

const (
	feasibleBounded scaledKind = iota // a known point, an objective ≥ 0 to minimize: optimal
	feasibleBox                       // a known point, any objective, a row Σ x_j ≤ M: optimal
	unboundedRay                      // a known point and a known improving ray: unbounded
	infeasibleRow                     // a feasible program plus a row contradicting a nonnegative combination of its rows
	twoScales                         // the four-row program with optimum e^d (see scaledTwoRows)
)

func (k scaledKind) String() string {
	return [...]string{"feasible", "feasible, boxed", "unbounded", "infeasible", "two scales"}[k]
}

// scaledCase is a program with the status its construction guarantees (want < 0: not fixed).
type scaledCase struct {
	kind scaledKind
	p    *lp.Problem
	want ratlp.Status
}

// exactRat is the exact rational value of a float64.
func exactRat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// roundRat rounds r to a float64 in the direction dir (−1 down, +1 up, 0 nearest).
func roundRat(r *big.Rat, dir int) float64 {
	f, exact := r.Float64()
	if exact || dir == 0 {
		return f
	}
	if c := exactRat(f).Cmp(r); dir > 0 && c < 0 {
		f = math.Nextafter(f, math.Inf(1))
	} else if dir < 0 && c > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

// dotRat is a·x in exact arithmetic.
func dotRat(a, x []float64) *big.Rat {
	s, t := new(big.Rat), new(big.Rat)
	for j, v := range a {
		if v != 0 && x[j] != 0 {
			s.Add(s, t.Mul(exactRat(v), exactRat(x[j])))
		}
	}
	return s
}

// scaledCoef is a coefficient of a row: a small integer or e^d for d up to 35, either sign.
func scaledCoef(rng *rand.Rand) float64 {
	v := float64(1 + rng.IntN(3))
	if rng.IntN(2) == 0 {
		v = math.Exp(35 * rng.Float64())
		if rng.IntN(2) == 0 {
			v = math.Round(v)
		}
	}
	if rng.IntN(3) == 0 {
		v = -v
	}
	return v
}

// denseProblem states min or max c·x subject to rows (op) rhs, x ≥ 0.
func denseProblem(sense lp.Sense, c []float64, rows [][]float64, ops []lp.Op, rhs []float64) *lp.Problem {
	return lp.Dense(sense, c, rows, ops, rhs, nil, nil)
}

// scaledTwoRows is the program min z subject to x00 + x01 − r0 = 1, x10 + x11 − r1 = 0,
// x00 + F·x10 − r0 ≤ 0, F·x01 + x11 − r1 − z ≤ 0 over x00, x01, x10, x11, r0, r1, z ≥ 0,
// F = e^d. Its optimum is F: the first and third rows give x01 − F·x10 ≥ 1, the second
// r1 = x10 + x11, so the fourth reads z ≥ F·x01 − x10 ≥ F + (F² − 1)·x10 ≥ F, with equality
// at x01 = 1, z = F.
func scaledTwoRows(d float64) *lp.Problem {
	f := math.Exp(d)
	return denseProblem(lp.Minimize, []float64{0, 0, 0, 0, 0, 0, 1}, twoRows(f), []lp.Op{lp.Equal, lp.Equal, lp.LessEq, lp.LessEq}, []float64{1, 0, 0, 0})
}

func twoRows(f float64) [][]float64 {
	return [][]float64{
		{1, 1, 0, 0, -1, 0, 0},
		{0, 0, 1, 1, 0, -1, 0},
		{1, 0, f, 0, -1, 0, 0},
		{0, f, 0, 1, 0, -1, -1},
	}
}

// scaledTwoRowsCapped is scaledTwoRows with the row z ≤ e^d/2, which contradicts z ≥ e^d:
// infeasible.
func scaledTwoRowsCapped(d float64) *lp.Problem {
	f := math.Exp(d)
	return denseProblem(lp.Minimize, []float64{0, 0, 0, 0, 0, 0, 1}, append(twoRows(f), []float64{0, 0, 0, 0, 0, 0, 1}),
		[]lp.Op{lp.Equal, lp.Equal, lp.LessEq, lp.LessEq, lp.LessEq}, []float64{1, 0, 0, 0, f / 2})
}

// TestTwoScalesProgram: the program of scaledTwoRows is optimal with value e^d for every d from
// 20 to 100 (at d = 30 it was reported infeasible, at d = 40 imprecise), and with the row
// z ≤ e^d/2 added, infeasible with a certificate that CheckFarkas and the exact arithmetic of
// ratlp both accept.
func TestTwoScalesProgram(t *testing.T) {
	for d := 20.0; d <= 100; d++ {
		p := scaledTwoRows(d)
		res, err := lp.Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f := math.Exp(d); res.Status != lp.Optimal || !(math.Abs(res.Objective/f-1) <= 1e-9) {
			t.Errorf("d = %g: %v, objective %.17g, want %.17g", d, res.Status, res.Objective, f)
		}
		if d > 40 {
			continue
		}
		q := scaledTwoRowsCapped(d)
		res, err = lp.Solve(q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != lp.Infeasible {
			t.Errorf("d = %g with z ≤ e^d/2: %v, want infeasible", d, res.Status)
			continue
		}
		if g, err := lp.CheckFarkas(q, res.Farkas); err != nil || !(g > 0) {
			t.Errorf("d = %g: certificate %v has gap %g (%v)", d, res.Farkas, g, err)
		}
		// The exact reference agrees, with a certificate checked in exact arithmetic.
		ref, err := ratlp.Solve(exactProblem(q), nil, nil)
		if err != nil || ref.Status != ratlp.Infeasible || ratlp.VerifyFarkas(exactProblem(q), ref.Farkas) != nil {
			t.Errorf("d = %g: exact reference %v (%v)", d, ref, err)
		}
	}
}

// randomScaled builds one program of the given kind.
func randomScaled(rng *rand.Rand, kind scaledKind) scaledCase {
	if kind == twoScales {
		return scaledCase{kind, scaledTwoRows(15 + 25*rng.Float64()), ratlp.Optimal}
	}
	n, m := 3+rng.IntN(5), 2+rng.IntN(5)
	rows := make([][]float64, m)
	ops := make([]lp.Op, m)
	for i := range rows {
		rows[i] = make([]float64, n)
		for j := range rows[i] {
			if rng.Float64() < 0.6 {
				rows[i][j] = scaledCoef(rng)
			}
		}
		ops[i] = lp.Op(rng.IntN(3))
	}
	// A known point: small integers, some of them 0.
	x0 := make([]float64, n)
	for j := range x0 {
		x0[j] = float64(rng.IntN(3))
	}
	c := make([]float64, n)
	for j := range c {
		if rng.IntN(3) > 0 {
			c[j] = math.Abs(scaledCoef(rng))
		}
	}
	want := ratlp.Optimal
	switch kind {
	case feasibleBox:
		for j := range c {
			if rng.IntN(2) == 0 {
				c[j] = -c[j]
			}
		}
	case unboundedRay:
		// A direction d0 ∈ {0,1}^n with a_i·d0 ≤ −δ_i on ≤ rows and ≥ δ_i on ≥ rows
		// (δ_i ≥ 10^−3 of the terms, by one coefficient on its support set to make it so,
		// rounded the safe way), = rows free of the support, and c·d0 ≤ −10^−3 of its terms:
		// unbounded, and still so after any relative change of the data by 10^−4.
		d0 := make([]float64, n)
		var supp []int
		for len(supp) == 0 {
			supp = supp[:0]
			for j := range d0 {
				d0[j] = float64(rng.IntN(2))
				if d0[j] == 1 {
					supp = append(supp, j)
				}
			}
		}
		// margin is −Σ_{j∈supp} a_j − 10^−3·(1 + Σ_{j∈supp} |a_j|) − extra, exactly, with
		// a_k = 0 for the coefficient k it replaces.
		margin := func(a []float64, k int) *big.Rat {
			a[k] = 0
			s, size := new(big.Rat).Neg(dotRat(a, d0)), new(big.Rat).SetInt64(1)
			for _, j := range supp {
				size.Add(size, new(big.Rat).Abs(exactRat(a[j])))
			}
			s.Sub(s, size.Mul(size, big.NewRat(1, 1000)))
			if rng.IntN(2) == 0 {
				s.Sub(s, exactRat(math.Abs(scaledCoef(rng))))
			}
			return s
		}
		for i, r := range rows {
			k := supp[rng.IntN(len(supp))]
			switch ops[i] {
			case lp.LessEq:
				r[k] = roundRat(margin(r, k), -1)
			case lp.GreaterEq:
				for _, j := range supp {
					r[j] = -r[j]
				}
				r[k] = roundRat(margin(r, k), -1)
				for _, j := range supp {
					r[j] = -r[j]
				}
			default:
				for _, j := range supp {
					r[j] = 0
				}
			}
		}
		c[supp[0]] = roundRat(margin(c, supp[0]), -1)
		want = ratlp.Unbounded
	}
	// Right-hand sides from the known point, rounded so that it stays feasible exactly; slack
	// on some inequality rows.
	rhs := make([]float64, m)
	for i, r := range rows {
		act := dotRat(r, x0)
		if ops[i] != lp.Equal && rng.IntN(2) == 0 {
			slack := exactRat(math.Abs(scaledCoef(rng)))
			if ops[i] == lp.LessEq {
				act.Add(act, slack)
			} else {
				act.Sub(act, slack)
			}
		}
		switch ops[i] {
		case lp.LessEq:
			rhs[i] = roundRat(act, +1)
		case lp.GreaterEq:
			rhs[i] = roundRat(act, -1)
		default:
			if rhs[i] = roundRat(act, 0); exactRat(rhs[i]).Cmp(act) != 0 {
				ops[i] = lp.LessEq
				rhs[i] = roundRat(act, +1)
			}
		}
	}
	if kind == feasibleBox {
		// Σ_j x_j ≤ M with M above Σ_j x0_j: the known point stays feasible, and the
		// objective is bounded whatever its signs.
		box := make([]float64, n)
		for j := range box {
			box[j] = 1
		}
		rows = append(rows, box)
		ops = append(ops, lp.LessEq)
		rhs = append(rhs, roundRat(dotRat(box, x0), +1)+math.Abs(scaledCoef(rng)))
	}
	if kind == infeasibleRow {
		// Multipliers y (≥ 0 on ≤ rows, ≤ 0 on ≥ rows, any sign on = rows, not all 0): every
		// feasible x ≥ 0 has g·x ≤ h for g = Σ y_i a_i, h = Σ y_i b_i. The new row
		// g'·x ≥ h + δ contradicts it, with δ > 10^−3 of |y|·|b| and g'_j below g_j by
		// 10^−3 of Σ_i |y_i·a_ij| (rounded down): infeasible, and still so after any
		// relative change of the data below 10^−4 — a contradiction only in the last digits
		// of cancelling terms would be no test of a solver with tolerances.
		y := make([]float64, m)
		for allZero := true; allZero; {
			for i := range y {
				y[i] = float64(rng.IntN(3))
				if ops[i] == lp.GreaterEq || ops[i] == lp.Equal && rng.IntN(2) == 0 {
					y[i] = -y[i]
				}
				allZero = allZero && y[i] == 0
			}
		}
		g := make([]float64, n)
		col := make([]float64, m)
		for j := range g {
			for i := range rows {
				col[i] = rows[i][j]
			}
			gj, size := dotRat(y, col), new(big.Rat)
			for i, v := range y {
				size.Add(size, new(big.Rat).Abs(exactRat(v*col[i])))
			}
			gj.Sub(gj, size.Mul(size, big.NewRat(1, 1000)))
			if rng.IntN(2) == 0 {
				gj.Sub(gj, exactRat(math.Abs(scaledCoef(rng))))
			}
			g[j] = roundRat(gj, -1)
		}
		h := dotRat(y, rhs)
		size := new(big.Rat)
		for i, v := range y {
			size.Add(size, new(big.Rat).Abs(exactRat(v*rhs[i])))
		}
		delta := new(big.Rat).Mul(size, big.NewRat(1, 1000))
		delta.Add(delta, big.NewRat(1, 1))
		rows = append(rows, g)
		ops = append(ops, lp.GreaterEq)
		rhs = append(rhs, roundRat(h.Add(h, delta), +1))
		want = ratlp.Infeasible
	}
	sense := lp.Minimize
	if rng.IntN(2) == 0 {
		sense = lp.Maximize
		for j := range c {
			c[j] = -c[j]
		}
	}
	return scaledCase{kind, denseProblem(sense, c, rows, ops, rhs), want}
}

// exactProblem is p (x ≥ 0, no other bounds) in rationals, every float64 exactly.
func exactProblem(p *lp.Problem) *ratlp.Problem {
	q := &ratlp.Problem{Sense: ratlp.Minimize, Objective: make([]*big.Rat, len(p.Objective)), Rows: make([]ratlp.Row, len(p.RHS))}
	if p.Sense == lp.Maximize {
		q.Sense = ratlp.Maximize
	}
	for j, c := range p.Objective {
		q.Objective[j] = exactRat(c)
	}
	for i := range q.Rows {
		q.Rows[i] = ratlp.Row{Op: ratlp.Op(p.Ops[i]), RHS: exactRat(p.RHS[i])}
	}
	for j := 0; j < p.A.Cols; j++ {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			i := p.A.RowIndex[k]
			q.Rows[i].Terms = append(q.Rows[i].Terms, ratlp.Term{Var: j, Coef: exactRat(p.A.Value[k])})
		}
	}
	return q
}

// scaledVerdict compares a core/lp result with the exact reference: "" when it is right,
// "imprecise" when it claims nothing, else what is wrong. A status must be the exact one. An
// optimal value must be as close to the exact optimum as the tolerances that Optimal promises
// (see optimalErrorBound); further off, the claim "optimal" was not true to its definition.
// ill reports an optimal value that is right by that measure but more than 1e-9 (relative to
// max(1, |optimum|)) from the exact optimum: the program is ill-conditioned.
func scaledVerdict(p *lp.Problem, res *lp.Result, ref *ratlp.Result) (verdict string, ill bool) {
	if res.Status == lp.Imprecise {
		return "imprecise", false
	}
	want := map[ratlp.Status]lp.Status{ratlp.Optimal: lp.Optimal, ratlp.Infeasible: lp.Infeasible, ratlp.Unbounded: lp.Unbounded}[ref.Status]
	if res.Status != want {
		return fmt.Sprintf("status %v, exact %v", res.Status, ref.Status), false
	}
	if want != lp.Optimal {
		return "", false
	}
	errLo, errHi, gap := optimalErrorBound(p, res, ref)
	opt, _ := ref.Objective.Float64()
	if !(gap >= -errLo && gap <= errHi) {
		return fmt.Sprintf("objective %.17g, exact %.17g: c·X − optimum = %.3g, outside [−%.3g, %.3g]", res.Objective, opt, gap, errLo, errHi), false
	}
	return "", !(math.Abs(res.Objective-opt) <= 1e-9*math.Max(1, math.Abs(opt)))
}

// optimalErrorBound returns the difference c·X − c·x* (minimization form, exactly, then
// rounded) between a claimed optimum X and the exact optimum x*, and the interval that the
// documented tolerances of Optimal allow it, derived from the exact optimal pair (x*, y*) and
// the claimed duals y with reduced costs d = c − Aᵀy (minimization form, x ≥ 0):
//
//	c·X − c·x* = y*·(AX − b) + d*·X ≥ −Σ_i |y*_i|·viol_i(X) − Σ_j d*_j·max(0, −X_j),
//	c·X − c·x* ≤ y·(AX − b) + d·X + Σ_j max(0, −d_j)·x*_j     (y of the right signs),
//
// with each row violation viol_i at most 1e-9·max(1, |b_i|, max_j |a_ij X_j|), each bound
// violation at most 1e-9, and each wrong-signed reduced cost at most 1e-9·max(1, |c_j|,
// max_i |a_ij y_i|). The complementarity gap y·(AX − b) + d·X is the claim's own and is
// computed exactly.
func optimalErrorBound(p *lp.Problem, res *lp.Result, ref *ratlp.Result) (errLo, errHi, gap float64) {
	const tol = 1e-9
	n, m := len(p.Objective), len(p.RHS)
	sign := 1.0
	if p.Sense == lp.Maximize {
		sign = -1
	}
	rowMag := make([]float64, m)
	colMag := make([]float64, n)
	for i, b := range p.RHS {
		rowMag[i] = math.Abs(b)
	}
	for j, c := range p.Objective {
		colMag[j] = math.Abs(c)
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			i, a := p.A.RowIndex[k], p.A.Value[k]
			rowMag[i] = math.Max(rowMag[i], math.Abs(a*res.X[j]))
			colMag[j] = math.Max(colMag[j], math.Abs(a*res.Duals[i]))
		}
	}
	// Exact: c·X − c·x* and the gap y·(AX − b) + d·X, with d = c − Aᵀy.
	diff := new(big.Rat)
	cx := new(big.Rat)
	for j, c := range p.Objective {
		cx.Add(cx, new(big.Rat).Mul(exactRat(sign*c), exactRat(res.X[j])))
	}
	opt := new(big.Rat).Mul(exactRat(sign), ref.Objective)
	diff.Sub(cx, opt)
	// y·(AX − b) + d·X = y·AX − y·b + c·X − y·AX = c·X − y·b.
	yb := new(big.Rat)
	for i, b := range p.RHS {
		yb.Add(yb, new(big.Rat).Mul(exactRat(sign*res.Duals[i]), exactRat(b)))
	}
	g := new(big.Rat).Sub(cx, yb)
	// Σ_j max(0, −d_j)·x*_j and Σ_i |y*_i|·max(1, rowMag_i), Σ_j d*_j.
	for j := range p.Objective {
		d := sign * p.Objective[j]
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			d -= p.A.Value[k] * sign * res.Duals[p.A.RowIndex[k]]
		}
		xs, _ := ref.X[j].Float64()
		errHi += xs * tol * math.Max(1, colMag[j])
		ds, _ := ref.ReducedCosts[j].Float64()
		errLo += math.Abs(ds) * tol
	}
	for i := range p.RHS {
		ys, _ := ref.Duals[i].Float64()
		errLo += math.Abs(ys) * tol * math.Max(1, rowMag[i])
	}
	gf, _ := g.Float64()
	gap, _ = diff.Float64()
	// The claim's own gap, within what its complementarity tolerances allow: every term
	// y_i·(a_i·X − b_i) and d_j·X_j within 1e-9 of the size of its parts.
	gapMax := 0.0
	for i, b := range p.RHS {
		gapMax += math.Abs(res.Duals[i]) * (math.Max(1, rowMag[i]) + math.Abs(b))
	}
	for j, x := range res.X {
		gapMax += math.Abs(x) * math.Max(1, colMag[j])
	}
	gapMax *= tol * float64(n+m)
	if gf > gapMax {
		return 0, 0, math.NaN() // fails any interval
	}
	// Rounding of the bounds themselves.
	errLo = errLo*(1+1e-12) + 1e-300
	errHi = (errHi+math.Max(gf, 0))*(1+1e-12) + 1e-300
	return errLo, errHi, gap
}

// TestScaledStatusesAgainstExact: every status of core/lp on random badly scaled programs
// agrees with the exact rational simplex, and optimal values with the exact optimum.
func TestScaledStatusesAgainstExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(*scaledSeed, 35))
	n := *scaledCases
	if testing.Short() {
		n /= 5
	}
	wrong, imprecise, ill := 0, 0, 0
	byKind := map[scaledKind][2]int{}
	byRef := map[ratlp.Status]int{}
	for trial := 0; trial < n; trial++ {
		kind := scaledKind(trial % 5)
		c := randomScaled(rng, kind)
		ref, err := ratlp.Solve(exactProblem(c.p), nil, nil)
		if err != nil {
			t.Fatalf("case %d (%v): exact solve: %v", trial, kind, err)
		}
		if c.want >= 0 && ref.Status != c.want {
			t.Fatalf("case %d (%v): built %v, the exact solve says %v", trial, kind, c.want, ref.Status)
		}
		byRef[ref.Status]++
		res, err := solveNoPanic(c.p)
		if err != nil {
			t.Fatalf("case %d: %v", trial, err)
		}
		k := byKind[kind]
		v, isIll := "panic", false
		if res != nil {
			v, isIll = scaledVerdict(c.p, res, ref)
		}
		if isIll {
			ill++
		}
		switch v {
		case "":
		case "imprecise":
			imprecise++
			k[1]++
		default:
			wrong++
			k[0]++
			t.Errorf("case %d (%v): %s", trial, kind, v)
		}
		byKind[kind] = k
	}
	t.Logf("%d programs (exact statuses %v): %d wrong, %d imprecise, %d optimal values within the tolerances but off the exact optimum by more than 1e-9; [wrong, imprecise] by kind %v",
		n, byRef, wrong, imprecise, ill, byKind)
	if imprecise > n/100 {
		t.Errorf("%d of %d imprecise", imprecise, n)
	}
}

// solveNoPanic is lp.Solve with a panic reported as a nil result, so that one failure does not
// hide the others.
func solveNoPanic(p *lp.Problem) (res *lp.Result, err error) {
	defer func() {
		if recover() != nil {
			res, err = nil, nil
		}
	}()
	return lp.Solve(p, nil)
}
