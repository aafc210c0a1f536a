package lp

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checkBasis re-solves the reported basis independently: with every nonbasic variable at its
// bound and every nonbasic row at its bound, the basic variables and the activities of the
// basic rows must solve a square nonsingular system whose solution is X.
func checkBasis(t *testing.T, name string, p *Problem, res *Result) {
	t.Helper()
	n, m := len(p.Objective), len(p.RHS)
	if len(res.VarStatus) != n || len(res.RowStatus) != m {
		t.Fatalf("%s: %d variable and %d row statuses for %d×%d", name, len(res.VarStatus), len(res.RowStatus), m, n)
	}
	var basicVars, basicRows []int
	for j, s := range res.VarStatus {
		if s == Basic {
			basicVars = append(basicVars, j)
		}
	}
	for i, s := range res.RowStatus {
		if s == Basic {
			basicRows = append(basicRows, i)
		}
	}
	if len(basicVars)+len(basicRows) != m {
		t.Fatalf("%s: %d basic variables and %d basic rows, want %d in all", name, len(basicVars), len(basicRows), m)
	}
	// Unknowns: the basic variables and the activities r_i = a_i·x of the basic rows. Equations:
	// a_i·x − r_i = 0 for every row, with r_i at its bound for the nonbasic rows.
	k := m
	M := mat.NewDense(k, k, nil)
	rhs := make([]float64, k)
	col := map[int]int{}
	for c, j := range basicVars {
		col[j] = c
	}
	dense := make([][]float64, m)
	for i := range dense {
		dense[i] = make([]float64, n)
	}
	for j := 0; j < n; j++ {
		for q := p.A.ColStart[j]; q < p.A.ColStart[j+1]; q++ {
			dense[p.A.RowIndex[q]][j] = p.A.Value[q]
		}
	}
	rowCol := map[int]int{}
	for c, i := range basicRows {
		rowCol[i] = len(basicVars) + c
	}
	for i := 0; i < m; i++ {
		act := 0.0 // the nonbasic part, moved to the right-hand side
		for j := 0; j < n; j++ {
			if c, ok := col[j]; ok {
				M.Set(i, c, dense[i][j])
				continue
			}
			l, u := p.bounds(j)
			v := 0.0
			switch res.VarStatus[j] {
			case AtLower:
				v = l
			case AtUpper:
				v = u
			}
			act += dense[i][j] * v
		}
		if c, ok := rowCol[i]; ok {
			M.Set(i, c, -1)
			rhs[i] = -act
		} else {
			lo, hi := p.rowBounds(i)
			b := lo
			if res.RowStatus[i] == AtUpper {
				b = hi
			}
			rhs[i] = b - act
		}
	}
	var sol mat.VecDense
	if err := sol.SolveVec(M, mat.NewVecDense(k, rhs)); err != nil {
		t.Fatalf("%s: the basis is singular: %v", name, err)
	}
	for c, j := range basicVars {
		if math.Abs(sol.AtVec(c)-res.X[j]) > 1e-7*(1+math.Abs(res.X[j])) {
			t.Errorf("%s: basic x[%d] re-solved %v, reported %v", name, j, sol.AtVec(c), res.X[j])
		}
	}
	for j, s := range res.VarStatus {
		l, u := p.bounds(j)
		if (s == AtLower && res.X[j] != l) || (s == AtUpper && res.X[j] != u) || (s == AtZero && res.X[j] != 0) {
			t.Errorf("%s: x[%d] = %v is %v with bounds [%v, %v]", name, j, res.X[j], s, l, u)
		}
	}
}

func TestBasisRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	seen := 0
	for trial := 0; trial < 300; trial++ {
		p := randomProblem(rng)
		res, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Optimal {
			continue
		}
		seen++
		checkBasis(t, "random", p, res)
	}
	if seen < 50 {
		t.Errorf("only %d optimal problems", seen)
	}
}

// The mechanism programs are solved through their dual: the basis is mapped back.
func TestBasisDualized(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		edges [][2]int
	}{{"path 6", 6, pathEdges(6)}, {"clique 6", 6, cliqueEdges(6)}, {"grid 3", 9, gridEdges(3)}} {
		model, _ := mechanismModel(c.n, c.edges, math.Ln2)
		p, err := model.Problem()
		if err != nil {
			t.Fatal(err)
		}
		if !canDualize(p) {
			t.Fatalf("%s: not dualized", c.name)
		}
		res, err := Solve(p, nil)
		if err != nil || res.Status != Optimal {
			t.Fatalf("%s: %v %v", c.name, err, res.Status)
		}
		checkBasis(t, c.name, p, res)
		direct, _ := Solve(p, &Options{NoDualize: true})
		checkBasis(t, c.name+" (direct)", p, direct)
	}
}
