package lp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// tallProblem is a random LP of the form Solve dualizes: 2–3 rows per variable, variables
// nonnegative or free, rows of all three kinds; about half are feasible by construction.
func tallProblem(rng *rand.Rand) *Problem {
	n := 1 + rng.IntN(6)
	m := 2*n + rng.IntN(n+1)
	c := make([]float64, n)
	lower, upper := make([]float64, n), make([]float64, n)
	x0 := make([]float64, n)
	for j := range c {
		c[j] = math.Round(rng.NormFloat64()*4) / 2
		upper[j] = math.Inf(1)
		x0[j] = float64(rng.IntN(4))
		if rng.IntN(4) == 0 {
			lower[j] = math.Inf(-1)
			x0[j] -= 2
		}
	}
	feasible := rng.IntN(2) == 0
	rows := make([][]float64, m)
	ops := make([]Op, m)
	rhs := make([]float64, m)
	for i := range rows {
		rows[i] = make([]float64, n)
		for j := range rows[i] {
			if rng.Float64() < 0.5 {
				rows[i][j] = float64(rng.IntN(9) - 4)
			}
		}
		rows[i][rng.IntN(n)] = float64(1 + rng.IntN(3))
		ops[i] = Op(rng.IntN(3))
		act := 0.0
		for j, a := range rows[i] {
			act += a * x0[j]
		}
		switch {
		case !feasible:
			rhs[i] = float64(rng.IntN(11) - 5)
		case ops[i] == LessEq:
			rhs[i] = act + float64(rng.IntN(3))
		case ops[i] == GreaterEq:
			rhs[i] = act - float64(rng.IntN(3))
		default:
			rhs[i] = act
		}
	}
	sense := Minimize
	if rng.IntN(2) == 0 {
		sense = Maximize
	}
	return dense(sense, c, rows, ops, rhs, lower, upper)
}

// checkProof verifies the certificate that comes with each status.
func checkProof(t *testing.T, p *Problem, res *Result) {
	t.Helper()
	switch res.Status {
	case Optimal:
		checkOptimality(t, p, res, 1e-9)
	case Infeasible:
		if g, err := CheckFarkas(p, res.Farkas); err != nil || g <= 1e-9 {
			t.Fatalf("Farkas certificate %v has gap %g (%v)", res.Farkas, g, err)
		}
	case Unbounded:
		if res.PrimalResidual > 1e-9 {
			t.Fatalf("unbounded but the point is infeasible by %g", res.PrimalResidual)
		}
		checkRay(t, p, res.Ray)
	default:
		t.Fatalf("status %v", res.Status)
	}
}

// TestDualizedAgreesWithDirect solves random tall LPs through the dual (the default for them)
// and as stated, checks each answer's certificate independently, and compares the two.
func TestDualizedAgreesWithDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	counts := map[Status]int{}
	for trial := 0; trial < 500; trial++ {
		p := tallProblem(rng)
		if !canDualize(p) {
			t.Fatalf("trial %d: the generator must give dualizable problems", trial)
		}
		viaDual, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		direct, err := Solve(p, &Options{NoDualize: true})
		if err != nil {
			t.Fatal(err)
		}
		checkProof(t, p, viaDual)
		checkProof(t, p, direct)
		if viaDual.Status != direct.Status {
			t.Fatalf("trial %d: via the dual %v, directly %v", trial, viaDual.Status, direct.Status)
		}
		if viaDual.Status == Optimal && math.Abs(viaDual.Objective-direct.Objective) > 1e-9*(1+math.Abs(direct.Objective)) {
			t.Fatalf("trial %d: optimum %.15g via the dual, %.15g directly", trial, viaDual.Objective, direct.Objective)
		}
		counts[viaDual.Status]++
	}
	if counts[Optimal] < 100 || counts[Infeasible] < 50 || counts[Unbounded] < 10 {
		t.Fatalf("too few of some status to test the mapping: %v", counts)
	}
}

// TestDualizedMechanism compares the two routes on mechanism LPs without a closed form (path
// and grid), and checks the solution of the dual route by duality.
func TestDualizedMechanism(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		edges [][2]int
	}{{"path 12", 12, pathEdges(12)}, {"grid 4", 16, gridEdges(4)}, {"clique 7", 7, cliqueEdges(7)}} {
		m, _ := mechanismModel(c.n, c.edges, 0.3)
		p, _ := m.Problem()
		viaDual, _ := Solve(p, nil)
		direct, _ := Solve(p, &Options{NoDualize: true})
		if viaDual.Status != Optimal || direct.Status != Optimal {
			t.Fatalf("%s: status %v via the dual, %v directly", c.name, viaDual.Status, direct.Status)
		}
		checkOptimality(t, p, viaDual, 1e-9)
		if math.Abs(viaDual.Objective-direct.Objective) > 1e-10 {
			t.Fatalf("%s: %.15g via the dual, %.15g directly", c.name, viaDual.Objective, direct.Objective)
		}
		if viaDual.PrimalResidual > 1e-9 || viaDual.DualResidual > 1e-9 {
			t.Fatalf("%s: residuals %g, %g", c.name, viaDual.PrimalResidual, viaDual.DualResidual)
		}
	}
}

// TestTwinRowsFeasibility is the feasibility LP of the refinement tests (zero objective,
// equalities stated as two rows 2e-9 apart) that made the dual phase 1 cycle before it was
// perturbed: it must end with a proof.
func TestTwinRowsFeasibility(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 100; trial++ {
		k, n := 2+rng.IntN(4), 3+rng.IntN(4)
		m := NewModel(Minimize)
		R := m.AddBlock("R", k, k)
		for i := 0; i < k; i++ {
			row := make([]Term, k)
			for j := range row {
				row[j] = Term{R.At(i, j), 1}
			}
			m.AddEq(row, 1)
			for x := 0; x < n; x++ {
				terms := make([]Term, k)
				target := 0.0
				for j := range terms {
					v := float64(rng.IntN(3)) / 2
					terms[j] = Term{R.At(i, j), v}
					if j == i {
						target = v // the identity is feasible when the trial says so
					}
				}
				if trial%2 == 1 {
					target += 0.25
				}
				m.AddLe(terms, target+1e-9)
				m.AddGe(terms, target-1e-9)
			}
		}
		p, _ := m.Problem()
		res, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Optimal && res.Status != Infeasible {
			t.Fatalf("trial %d: %v after %d iterations", trial, res.Status, res.Iterations)
		}
		checkProof(t, p, res)
		if trial%2 == 0 && res.Status != Optimal {
			t.Fatalf("trial %d: the identity is feasible, got %v", trial, res.Status)
		}
	}
}
