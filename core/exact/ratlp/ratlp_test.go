package ratlp

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
)

func r(a, b int64) *big.Rat { return big.NewRat(a, b) }

// denseProblem builds a problem from dense rows of fractions given as num/den pairs over den.
func denseProblem(sense Sense, c []*big.Rat, rows [][]*big.Rat, ops []Op, rhs []*big.Rat) *Problem {
	p := &Problem{Sense: sense, Objective: c}
	for i, row := range rows {
		var terms []Term
		for j, v := range row {
			if v != nil && v.Sign() != 0 {
				terms = append(terms, Term{j, v})
			}
		}
		p.Rows = append(p.Rows, Row{Terms: terms, Op: ops[i], RHS: rhs[i]})
	}
	return p
}

func randomProblem(rng *rand.Rand) *Problem {
	n, m := 1+rng.IntN(7), 1+rng.IntN(7)
	x0 := make([]int64, n)
	for j := range x0 {
		x0[j] = rng.Int64N(4)
	}
	feasible := rng.IntN(2) == 0
	p := &Problem{Sense: Sense(rng.IntN(2)), Objective: make([]*big.Rat, n)}
	for j := range p.Objective {
		p.Objective[j] = r(rng.Int64N(9)-4, 2)
	}
	for i := 0; i < m; i++ {
		var row Row
		var act int64
		for j := 0; j < n; j++ {
			if rng.Float64() < 0.6 {
				a := rng.Int64N(9) - 4
				if a != 0 {
					row.Terms = append(row.Terms, Term{j, r(a, 1+rng.Int64N(3))})
					act += a * x0[j] // only the sign pattern matters for feasibility below
				}
			}
		}
		if len(row.Terms) == 0 {
			row.Terms = []Term{{rng.IntN(n), r(1, 1)}}
		}
		row.Op = Op(rng.IntN(3))
		if feasible {
			a := new(big.Rat)
			for _, t := range row.Terms {
				a.Add(a, new(big.Rat).Mul(t.Coef, r(x0[t.Var], 1)))
			}
			slack := r(rng.Int64N(3), 1)
			switch row.Op {
			case LessEq:
				row.RHS = a.Add(a, slack)
			case GreaterEq:
				row.RHS = a.Sub(a, slack)
			default:
				row.RHS = a
			}
		} else {
			row.RHS = r(rng.Int64N(11)-5, 1)
		}
		p.Rows = append(p.Rows, row)
	}
	return p
}

func statusOf(s lp.Status) Status {
	switch s {
	case lp.Infeasible:
		return Infeasible
	case lp.Unbounded:
		return Unbounded
	}
	return Optimal
}

// On random programs, the exact solve from the slack basis and from the floating-point
// solver's basis agree with the floating-point status and value, and every answer carries a
// certificate that Verify or VerifyFarkas accepts.
func TestAgainstFloatingPoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	count := map[Status]int{}
	asGiven, floatOptimal := 0, 0
	for trial := 0; trial < 400; trial++ {
		p := randomProblem(rng)
		fp, kept, ok := p.Float()
		if !ok {
			t.Fatal("no floating-point problem")
		}
		fres, err := lp.Solve(fp, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, start := range []*Basis{nil, StartFrom(p, kept, fres)} {
			res, err := Solve(p, start, nil)
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if res.Status != statusOf(fres.Status) {
				t.Fatalf("trial %d: exact %v, floating point %v", trial, res.Status, fres.Status)
			}
			count[res.Status]++
			switch res.Status {
			case Optimal:
				if err := Verify(p, res.X, res.Duals); err != nil {
					t.Errorf("trial %d: %v", trial, err)
				}
				f, _ := res.Objective.Float64()
				if math.Abs(f-fres.Objective) > 1e-9*(1+math.Abs(f)) {
					t.Errorf("trial %d: exact optimum %s, floating point %v", trial, res.Objective.RatString(), fres.Objective)
				}
			case Infeasible:
				if err := VerifyFarkas(p, res.Farkas); err != nil {
					t.Errorf("trial %d: %v", trial, err)
				}
			case Unbounded:
				checkRay(t, p, res)
			}
			if start != nil && res.Status == Optimal {
				if res.Repaired != 0 {
					t.Errorf("trial %d: the floating-point basis needed a repair", trial)
				}
				if res.Pivots == 0 {
					asGiven++
				}
				floatOptimal++
			}
		}
	}
	t.Logf("outcomes %v; %d of %d floating-point optimal bases optimal as given", count, asGiven, floatOptimal)
	if asGiven < floatOptimal*9/10 {
		t.Errorf("only %d of %d floating-point optimal bases were optimal exactly", asGiven, floatOptimal)
	}
	if count[Optimal] < 100 || count[Infeasible] < 50 || count[Unbounded] < 20 {
		t.Errorf("too few of some outcome: %v", count)
	}
}

// checkRay checks an unbounded answer: X feasible, the ray nonnegative, keeping every row
// (A·d within the row's direction) and improving the objective.
func checkRay(t *testing.T, p *Problem, res *Result) {
	t.Helper()
	for j, d := range res.Ray {
		if d.Sign() < 0 || res.X[j].Sign() < 0 {
			t.Fatalf("ray or point negative at %d", j)
		}
	}
	for i, row := range p.Rows {
		a, ad := activity(row, res.X), activity(row, res.Ray)
		c := a.Cmp(row.RHS)
		if (row.Op == LessEq && (c > 0 || ad.Sign() > 0)) || (row.Op == GreaterEq && (c < 0 || ad.Sign() < 0)) || (row.Op == Equal && (c != 0 || ad.Sign() != 0)) {
			t.Fatalf("row %d broken along the ray", i)
		}
	}
	g := objective(p, res.Ray)
	if (p.Sense == Minimize && g.Sign() >= 0) || (p.Sense == Maximize && g.Sign() <= 0) {
		t.Fatalf("the ray does not improve: %s", g.RatString())
	}
}

func TestBeale(t *testing.T) {
	// Beale (1955): Dantzig's rule with the textbook ratio test cycles here; optimum −5/4.
	p := denseProblem(Minimize, []*big.Rat{r(-3, 4), r(20, 1), r(-1, 2), r(6, 1)},
		[][]*big.Rat{{r(1, 4), r(-8, 1), r(-1, 1), r(9, 1)}, {r(1, 2), r(-12, 1), r(-1, 2), r(3, 1)}, {nil, nil, r(1, 1), nil}},
		[]Op{LessEq, LessEq, LessEq}, []*big.Rat{r(0, 1), r(0, 1), r(1, 1)})
	res, err := Solve(p, nil, nil)
	if err != nil || res.Status != Optimal || res.Objective.Cmp(r(-5, 4)) != 0 {
		t.Fatalf("Beale: %v %v %v", err, res.Status, res.Objective)
	}
}

func TestInfeasibleAndRepair(t *testing.T) {
	// x + y ≤ 1 and x + y ≥ 2.
	p := denseProblem(Minimize, []*big.Rat{r(1, 1), r(1, 1)}, [][]*big.Rat{{r(1, 1), r(1, 1)}, {r(1, 1), r(1, 1)}},
		[]Op{LessEq, GreaterEq}, []*big.Rat{r(1, 1), r(2, 1)})
	res, err := Solve(p, nil, nil)
	if err != nil || res.Status != Infeasible || VerifyFarkas(p, res.Farkas) != nil {
		t.Fatalf("%v %v", err, res.Status)
	}
	// A starting basis with both (dependent) columns basic and no slack is repaired.
	q := denseProblem(Maximize, []*big.Rat{r(1, 1), r(2, 1)}, [][]*big.Rat{{r(1, 1), r(1, 1)}, {r(2, 1), r(2, 1)}},
		[]Op{LessEq, LessEq}, []*big.Rat{r(3, 1), r(6, 1)})
	res, err = Solve(q, &Basis{Var: []bool{true, true}, Row: []bool{false, false}}, nil)
	if err != nil || res.Status != Optimal || res.Objective.Cmp(r(6, 1)) != 0 || res.Repaired != 1 {
		t.Fatalf("repair: %v %+v", err, res)
	}
	if _, err := Solve(q, &Basis{Var: []bool{true}}, nil); err == nil {
		t.Error("a basis of the wrong size was accepted")
	}
	if err := Verify(q, []*big.Rat{r(3, 1), r(0, 1)}, []*big.Rat{r(2, 1), r(0, 1)}); err == nil {
		t.Error("a suboptimal point passed Verify")
	}
}

func TestCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(randomProblem(rng), nil, &Options{Context: ctx}); !errors.Is(err, ErrCancelled) {
		t.Errorf("cancelled context: %v", err)
	}
	// A problem that needs pivots from the slack basis, stopped by its progress callback.
	p := denseProblem(Maximize, []*big.Rat{r(1, 1), r(1, 1)}, [][]*big.Rat{{r(1, 1), r(2, 1)}, {r(3, 1), r(1, 1)}},
		[]Op{LessEq, LessEq}, []*big.Rat{r(4, 1), r(6, 1)})
	calls := 0
	_, err := Solve(p, nil, &Options{Progress: func(Progress) bool { calls++; return false }})
	if !errors.Is(err, ErrCancelled) || calls != 1 {
		t.Errorf("progress false: %v after %d calls", err, calls)
	}
	res, err := Solve(p, nil, nil)
	if err != nil || res.Objective.Cmp(r(14, 5)) != 0 { // x = 8/5, y = 6/5
		t.Errorf("%v %v", err, res.Objective)
	}
}
