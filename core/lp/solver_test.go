package lp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	gonumlp "gonum.org/v1/gonum/optimize/convex/lp"
)

// dense builds a Problem from dense rows.
func dense(sense Sense, c []float64, rows [][]float64, ops []Op, rhs []float64, lower, upper []float64) *Problem {
	var ri, ci []int
	var v []float64
	for i, r := range rows {
		for j, a := range r {
			if a != 0 {
				ri, ci, v = append(ri, i), append(ci, j), append(v, a)
			}
		}
	}
	a, err := NewCSC(len(rows), len(c), ri, ci, v)
	if err != nil {
		panic(err)
	}
	return &Problem{Sense: sense, Objective: c, A: a, Ops: ops, RHS: rhs, Lower: lower, Upper: upper}
}

// toGonum converts p to gonum's standard form min c·z, Az = b, z ≥ 0 and returns a function
// mapping z back to x.
func toGonum(p *Problem) (c []float64, A *mat.Dense, b []float64, back func([]float64) []float64) {
	n, m := len(p.Objective), len(p.RHS)
	type part struct {
		col  int
		coef float64 // x_j = shift + Σ coef·z_col
	}
	parts := make([][]part, n)
	shift := make([]float64, n)
	ncol := 0
	var extraRows [][2]float64 // (column, upper) for boxed variables: z + s = u − l
	sign := 1.0
	if p.Sense == Maximize {
		sign = -1
	}
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		switch {
		case !math.IsInf(l, -1):
			shift[j] = l
			parts[j] = []part{{ncol, 1}}
			if !math.IsInf(u, 1) {
				extraRows = append(extraRows, [2]float64{float64(ncol), u - l})
			}
			ncol++
		case !math.IsInf(u, 1):
			shift[j] = u
			parts[j] = []part{{ncol, -1}}
			ncol++
		default:
			parts[j] = []part{{ncol, 1}, {ncol + 1, -1}}
			ncol += 2
		}
	}
	nslack := 0
	for i := 0; i < m; i++ {
		if p.Ops[i] != Equal {
			nslack++
		}
	}
	nslack += len(extraRows)
	rows := m + len(extraRows)
	cols := ncol + nslack
	A = mat.NewDense(rows, cols, nil)
	b = make([]float64, rows)
	c = make([]float64, cols)
	for j := 0; j < n; j++ {
		for _, pt := range parts[j] {
			c[pt.col] += sign * p.Objective[j] * pt.coef
		}
	}
	copy(b, p.RHS)
	for j := 0; j < n; j++ {
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			i, a := p.A.RowIndex[k], p.A.Value[k]
			b[i] -= a * shift[j]
			for _, pt := range parts[j] {
				A.Set(i, pt.col, A.At(i, pt.col)+a*pt.coef)
			}
		}
	}
	s := ncol
	for i := 0; i < m; i++ {
		switch p.Ops[i] {
		case LessEq:
			A.Set(i, s, 1)
			s++
		case GreaterEq:
			A.Set(i, s, -1)
			s++
		}
	}
	for k, e := range extraRows {
		A.Set(m+k, int(e[0]), 1)
		A.Set(m+k, s, 1)
		b[m+k] = e[1]
		s++
	}
	back = func(z []float64) []float64 {
		x := make([]float64, n)
		for j := 0; j < n; j++ {
			x[j] = shift[j]
			for _, pt := range parts[j] {
				x[j] += pt.coef * z[pt.col]
			}
		}
		return x
	}
	return c, A, b, back
}

// gonumSimplex calls gonum's simplex, which panics on some inputs (more rows than columns).
func gonumSimplex(c []float64, A *mat.Dense, b []float64) (f float64, z []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gonum panicked: %v", r)
		}
	}()
	return gonumlp.Simplex(c, A, b, 1e-10, nil)
}

func randomProblem(rng *rand.Rand) *Problem {
	n := 1 + rng.IntN(7)
	m := 1 + rng.IntN(7)
	c := make([]float64, n)
	for j := range c {
		c[j] = math.Round(rng.NormFloat64()*4) / 2
	}
	lower, upper := make([]float64, n), make([]float64, n)
	for j := 0; j < n; j++ {
		switch rng.IntN(6) {
		case 0, 1, 2:
			lower[j], upper[j] = 0, math.Inf(1)
		case 3:
			lower[j], upper[j] = float64(rng.IntN(3)-1), float64(rng.IntN(4)+1)
		case 4:
			lower[j], upper[j] = math.Inf(-1), float64(rng.IntN(5)-2)
		default:
			lower[j], upper[j] = math.Inf(-1), math.Inf(1)
		}
	}
	rows := make([][]float64, m)
	ops := make([]Op, m)
	rhs := make([]float64, m)
	// A reference point makes about half of the problems feasible.
	x0 := make([]float64, n)
	for j := range x0 {
		x0[j] = math.Max(lower[j], math.Min(upper[j], float64(rng.IntN(5)-1)))
	}
	feasible := rng.IntN(2) == 0
	for i := 0; i < m; i++ {
		rows[i] = make([]float64, n)
		nz := 0
		for j := 0; j < n; j++ {
			if rng.Float64() < 0.6 {
				rows[i][j] = float64(rng.IntN(9) - 4)
				if rows[i][j] != 0 {
					nz++
				}
			}
		}
		if nz == 0 {
			rows[i][rng.IntN(n)] = 1
		}
		ops[i] = Op(rng.IntN(3))
		act := 0.0
		for j := range x0 {
			act += rows[i][j] * x0[j]
		}
		if feasible {
			switch ops[i] {
			case LessEq:
				rhs[i] = act + float64(rng.IntN(3))
			case GreaterEq:
				rhs[i] = act - float64(rng.IntN(3))
			default:
				rhs[i] = act
			}
		} else {
			rhs[i] = float64(rng.IntN(11) - 5)
		}
	}
	sense := Minimize
	if rng.IntN(2) == 0 {
		sense = Maximize
	}
	return dense(sense, c, rows, ops, rhs, lower, upper)
}

func checkRay(t *testing.T, p *Problem, ray []float64) {
	t.Helper()
	scale := 0.0
	for _, v := range ray {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 {
		t.Fatalf("zero ray")
	}
	tol := 1e-9
	act := make([]float64, len(p.RHS))
	for j, v := range ray {
		v /= scale
		for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
			act[p.A.RowIndex[k]] += p.A.Value[k] * v
		}
		l, u := p.bounds(j)
		if (!math.IsInf(l, -1) && v < -tol) || (!math.IsInf(u, 1) && v > tol) {
			t.Fatalf("ray leaves the bounds of x[%d]: %g", j, v)
		}
	}
	for i, a := range act {
		lo, hi := p.rowBounds(i)
		if (!math.IsInf(lo, -1) && a < -tol) || (!math.IsInf(hi, 1) && a > tol) {
			t.Fatalf("ray leaves row %d: A·d = %g", i, a)
		}
	}
	cd := 0.0
	for j, v := range ray {
		cd += p.Objective[j] * v / scale
	}
	if (p.Sense == Minimize && cd >= -tol) || (p.Sense == Maximize && cd <= tol) {
		t.Fatalf("ray does not improve the objective: c·d = %g", cd)
	}
}

func TestAgainstGonumRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	counts := map[Status]int{}
	agree, gonumWrong := 0, 0
	for trial := 0; trial < 600; trial++ {
		p := randomProblem(rng)
		c, A, b, back := toGonum(p)
		fOpt, z, gerr := gonumSimplex(c, A, b)
		var want Status
		switch {
		case gerr == nil:
			want = Optimal
		case errors.Is(gerr, gonumlp.ErrInfeasible):
			want = Infeasible
		case errors.Is(gerr, gonumlp.ErrUnbounded):
			want = Unbounded
		default:
			continue // gonum cannot decide (singular, zero row...)
		}
		res, err := Solve(p, nil)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		// Every answer of ours carries a proof, checked independently of the solver: an
		// optimum by primal and dual feasibility with no duality gap, infeasibility by a Farkas
		// certificate, unboundedness by a feasible point and an improving ray.
		switch res.Status {
		case Optimal:
			checkOptimality(t, p, res, 1e-9)
		case Infeasible:
			g, err := CheckFarkas(p, res.Farkas)
			if err != nil || g <= 1e-9 {
				t.Fatalf("trial %d: Farkas certificate %v has gap %g (%v)", trial, res.Farkas, g, err)
			}
		case Unbounded:
			if res.PrimalResidual > 1e-9 {
				t.Fatalf("trial %d: unbounded but the point is infeasible by %g", trial, res.PrimalResidual)
			}
			checkRay(t, p, res.Ray)
		default:
			t.Fatalf("trial %d: status %v", trial, res.Status)
		}
		counts[res.Status]++
		if res.Status != want {
			// gonum's dense simplex is sometimes wrong (see the issue); our proof was checked.
			gonumWrong++
			t.Logf("trial %d: status %v (proved), gonum says %v", trial, res.Status, want)
			continue
		}
		if want == Optimal {
			sign := 1.0
			if p.Sense == Maximize {
				sign = -1
			}
			for j, cj := range p.Objective { // gonum's objective omits the constant of the shift
				l, u := p.bounds(j)
				if !math.IsInf(l, -1) {
					fOpt += sign * cj * l
				} else if !math.IsInf(u, 1) {
					fOpt += sign * cj * u
				}
			}
			if math.Abs(sign*fOpt-res.Objective) > 1e-7*(1+math.Abs(fOpt)) {
				t.Fatalf("trial %d: objective %.12g, gonum %.12g (x %v)", trial, res.Objective, sign*fOpt, back(z))
			}
		}
		agree++
	}
	if gonumWrong > agree/20 {
		t.Errorf("%d disagreements with gonum, %d agreements", gonumWrong, agree)
	}
	t.Logf("statuses: %v; %d agreements with gonum, %d proved disagreements", counts, agree, gonumWrong)
	for _, s := range []Status{Optimal, Infeasible, Unbounded} {
		if counts[s] < 30 {
			t.Errorf("only %d %v problems were drawn", counts[s], s)
		}
	}
}

func TestBealeCycling(t *testing.T) {
	// Beale (1955): Dantzig's rule with the textbook ratio test cycles on this LP.
	p := dense(Minimize, []float64{-0.75, 20, -0.5, 6},
		[][]float64{{0.25, -8, -1, 9}, {0.5, -12, -0.5, 3}, {0, 0, 1, 0}},
		[]Op{LessEq, LessEq, LessEq}, []float64{0, 0, 1}, nil, nil)
	for _, opt := range []*Options{nil, {NoPerturbation: true}, {NoScaling: true, NoPerturbation: true}} {
		res, err := Solve(p, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Optimal || math.Abs(res.Objective+1.25) > 1e-12 {
			t.Fatalf("Beale: %v %v, want optimum −5/4", res.Status, res.Objective)
		}
		checkOptimality(t, p, res, 1e-12)
	}
}

func TestKleeMinty(t *testing.T) {
	// Chvátal's form: max Σ 10^{D−j} x_j, 2 Σ_{j<i} 10^{i−j} x_j + x_i ≤ 100^{i−1}: optimum 100^{D−1}.
	for D := 1; D <= 8; D++ {
		c := make([]float64, D)
		rows := make([][]float64, D)
		rhs := make([]float64, D)
		ops := make([]Op, D)
		for j := 0; j < D; j++ {
			c[j] = math.Pow(10, float64(D-1-j))
		}
		for i := 0; i < D; i++ {
			rows[i] = make([]float64, D)
			for j := 0; j < i; j++ {
				rows[i][j] = 2 * math.Pow(10, float64(i-j))
			}
			rows[i][i] = 1
			rhs[i] = math.Pow(100, float64(i))
		}
		p := dense(Maximize, c, rows, ops, rhs, nil, nil)
		res, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := math.Pow(100, float64(D-1))
		if res.Status != Optimal || math.Abs(res.Objective-want) > 1e-9*want {
			t.Fatalf("Klee–Minty D=%d: %v %v, want %v", D, res.Status, res.Objective, want)
		}
		checkOptimality(t, p, res, 1e-9)
	}
}

// TestAssignment: the assignment LP is totally unimodular and very degenerate; its optimum equals
// the best permutation, found by brute force.
func TestAssignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 5; trial++ {
		k := 7
		cost := make([][]float64, k)
		for i := range cost {
			cost[i] = make([]float64, k)
			for j := range cost[i] {
				cost[i][j] = float64(rng.IntN(4)) // many ties
			}
		}
		m := NewModel(Minimize)
		X := m.AddBlock("X", k, k)
		for i := 0; i < k; i++ {
			var r, c []Term
			for j := 0; j < k; j++ {
				m.SetObjective(X.At(i, j), cost[i][j])
				r = append(r, Term{X.At(i, j), 1})
				c = append(c, Term{X.At(j, i), 1})
			}
			m.AddEq(r, 1)
			m.AddEq(c, 1)
		}
		res, err := m.Solve(nil)
		if err != nil {
			t.Fatal(err)
		}
		best := math.Inf(1)
		perm := make([]int, k)
		for i := range perm {
			perm[i] = i
		}
		var rec func(int)
		rec = func(d int) {
			if d == k {
				s := 0.0
				for i, j := range perm {
					s += cost[i][j]
				}
				best = math.Min(best, s)
				return
			}
			for i := d; i < k; i++ {
				perm[d], perm[i] = perm[i], perm[d]
				rec(d + 1)
				perm[d], perm[i] = perm[i], perm[d]
			}
		}
		rec(0)
		if res.Status != Optimal || math.Abs(res.Objective-best) > 1e-9 {
			t.Fatalf("assignment: %v %v, want %v", res.Status, res.Objective, best)
		}
		p, _ := m.Problem()
		checkOptimality(t, p, res, 1e-9)
	}
}

// TestEqualityHeavy: random square-ish systems of equalities with a known feasible point; the
// optimum must be at least as good as that point and satisfy the optimality conditions.
func TestEqualityHeavy(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 40; trial++ {
		n := 10 + rng.IntN(20)
		m := n - 1 - rng.IntN(4)
		x0 := make([]float64, n)
		for j := range x0 {
			x0[j] = rng.Float64() * 3
		}
		rows := make([][]float64, m)
		rhs := make([]float64, m)
		ops := make([]Op, m)
		for i := range rows {
			rows[i] = make([]float64, n)
			for j := range rows[i] {
				if rng.Float64() < 0.3 {
					rows[i][j] = rng.NormFloat64()
				}
				rhs[i] += rows[i][j] * x0[j]
			}
			ops[i] = Equal
		}
		c := make([]float64, n)
		upper := make([]float64, n)
		for j := range c {
			c[j] = rng.NormFloat64()
			upper[j] = 5
		}
		p := dense(Minimize, c, rows, ops, rhs, nil, upper)
		res, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		f0 := 0.0
		for j := range c {
			f0 += c[j] * x0[j]
		}
		if res.Status != Optimal || res.Objective > f0+1e-9 {
			t.Fatalf("trial %d: %v %v (feasible point has %v)", trial, res.Status, res.Objective, f0)
		}
		checkOptimality(t, p, res, 1e-9)
	}
}

func TestInfeasibleFarkas(t *testing.T) {
	// x + y ≤ 1, x + y ≥ 3.
	p := dense(Minimize, []float64{1, 1}, [][]float64{{1, 1}, {1, 1}}, []Op{LessEq, GreaterEq}, []float64{1, 3}, nil, nil)
	res, err := Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Infeasible {
		t.Fatalf("status %v", res.Status)
	}
	if g, _ := CheckFarkas(p, res.Farkas); g < 1-1e-9 {
		t.Fatalf("certificate %v gap %v, want 1 (after normalization to max |y| = 1: 3−1 over 2)", res.Farkas, g)
	}
	// Infeasible through bounds only: x ≤ 1 as a bound, x ≥ 2 as a row.
	p = dense(Maximize, []float64{1}, [][]float64{{1}}, []Op{GreaterEq}, []float64{2}, nil, []float64{1})
	res, _ = Solve(p, nil)
	if g, _ := CheckFarkas(p, res.Farkas); res.Status != Infeasible || g <= 0 {
		t.Fatalf("status %v certificate %v gap %v", res.Status, res.Farkas, g)
	}
	// A bogus certificate must fail the check.
	if g, _ := CheckFarkas(p, []float64{-1}); g > 0 {
		t.Fatalf("bogus certificate accepted with gap %v", g)
	}
}

func TestUnbounded(t *testing.T) {
	p := dense(Maximize, []float64{1, 1}, [][]float64{{1, -1}}, []Op{LessEq}, []float64{1}, nil, nil)
	res, err := Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Unbounded {
		t.Fatalf("status %v", res.Status)
	}
	checkRay(t, p, res.Ray)
}

func TestBadInput(t *testing.T) {
	ok := func() *Problem {
		return dense(Minimize, []float64{1, 2}, [][]float64{{1, 1}}, []Op{GreaterEq}, []float64{1}, nil, nil)
	}
	cases := []struct {
		name string
		mut  func(p *Problem)
		want string
	}{
		{"nil objective", func(p *Problem) { p.Objective = nil }, "empty"},
		{"NaN objective", func(p *Problem) { p.Objective[1] = math.NaN() }, "objective coefficient 1"},
		{"Inf rhs", func(p *Problem) { p.RHS[0] = math.Inf(1) }, "right-hand side of row 0"},
		{"NaN coefficient", func(p *Problem) { p.A.Value[0] = math.NaN() }, "coefficient"},
		{"ops length", func(p *Problem) { p.Ops = nil }, "relations"},
		{"bad op", func(p *Problem) { p.Ops[0] = 7 }, "unknown relation"},
		{"matrix shape", func(p *Problem) { p.A.Cols = 3 }, "constraint matrix is"},
		{"bounds length", func(p *Problem) { p.Lower = []float64{0} }, "lower bounds"},
		{"crossed bounds", func(p *Problem) { p.Lower = []float64{2, 0}; p.Upper = []float64{1, 1} }, "above its upper bound"},
		{"NaN bound", func(p *Problem) { p.Upper = []float64{math.NaN(), 1} }, "NaN"},
		{"row index", func(p *Problem) { p.A.RowIndex[0] = 5 }, "out of range"},
		{"bad sense", func(p *Problem) { p.Sense = 9 }, "sense"},
		{"too many vars", func(p *Problem) { p.Objective = make([]float64, MaxVariables+1) }, "limit"},
	}
	for _, c := range cases {
		p := ok()
		c.mut(p)
		_, err := Solve(p, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := Solve(nil, nil); err == nil {
		t.Errorf("nil problem accepted")
	}
	if _, err := NewCSC(2, 2, []int{0, 1}, []int{0}, []float64{1, 2}); err == nil {
		t.Errorf("ragged triplets accepted")
	}
	if _, err := NewCSC(2, 2, []int{0}, []int{2}, []float64{1}); err == nil {
		t.Errorf("column out of range accepted")
	}
	if _, err := Solve(ok(), &Options{FeasibilityTol: math.NaN()}); err == nil {
		t.Errorf("NaN tolerance accepted")
	}
	// The model builder reports its first error.
	m := NewModel(Minimize)
	x := m.AddBlock("x", 2, 2)
	m.AddLe([]Term{{x.At(2, 0), 1}}, 1)
	m.AddLe([]Term{{x.At(0, 0), math.NaN()}}, 1)
	if _, err := m.Solve(nil); err == nil || !strings.Contains(err.Error(), "variable -1") {
		t.Errorf("model error %v", err)
	}
}

func TestNoRowsAndEmptyColumns(t *testing.T) {
	// No constraints: each variable goes to the bound its cost prefers.
	p := &Problem{Sense: Maximize, Objective: []float64{1, -1, 0}, Lower: []float64{0, -2, -1}, Upper: []float64{3, 4, 1}}
	res, err := Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Optimal || res.Objective != 5 {
		t.Fatalf("%v %v", res.Status, res.Objective)
	}
	p = &Problem{Sense: Minimize, Objective: []float64{-1}}
	res, _ = Solve(p, nil)
	if res.Status != Unbounded {
		t.Fatalf("min −x over x ≥ 0: %v", res.Status)
	}
}

func TestCancellation(t *testing.T) {
	m, _ := mechanismModel(12, cliqueEdges(12), math.Ln2)
	p, _ := m.Problem()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(p, &Options{Context: ctx})
	if err != nil || res.Status != Cancelled {
		t.Fatalf("cancelled context: %v %v", res.Status, err)
	}
	calls := 0
	res, err = Solve(p, &Options{ProgressEvery: 5, Progress: func(pr Progress) bool {
		calls++
		if pr.Iteration <= 0 || math.IsNaN(pr.Objective) || pr.Phase == "" {
			t.Errorf("bad progress %+v", pr)
		}
		return calls < 3
	}})
	if err != nil || res.Status != Cancelled || calls != 3 {
		t.Fatalf("progress cancel: %v %v after %d calls", res.Status, err, calls)
	}
	res, _ = Solve(p, &Options{MaxIterations: 3})
	if res.Status != IterationLimit {
		t.Fatalf("iteration limit: %v", res.Status)
	}
}
