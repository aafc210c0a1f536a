package lp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Statuses are checked on the problem as stated: these tests feed the solver programs on which
// its scaled solve used to end "optimal" with a wrong answer (or "iteration limit" after a few
// iterations), and check every claim against values computed here.

// The mechanism program on the path 0–1–2 at large ε, stated with the factor e^ε as
// H[y][z] − e^ε·H[y'][z] ≤ 0. With α = e^{−ε} and the uniform prior, the optimum is that of the
// truncated geometric mechanism (Ghosh, Roughgarden and Sundararajan, STOC 2009: optimal on a
// path for every prior and monotone loss), (1/3)·(2/(1+α) + (1−α)/(1+α)) = (3−α)/(3(1+α)); with
// the 0-1 loss minimized it is 1 minus that, 4α/(3(1+α)). At ε = 40 the equilibrated dual had its
// right-hand side below the tolerance and the solver returned the constant mechanism (1/3) as
// optimal; the 0-1 loss version ended "iteration limit" after 12 iterations.
func TestLargeEpsilonPathHonest(t *testing.T) {
	for _, eps := range []float64{5, 18, 20, 30, 40} {
		alpha := math.Exp(-eps)
		for _, loss := range []bool{false, true} {
			m, H := mechanismModel(3, pathEdges(3), eps)
			want := (3 - alpha) / (3 * (1 + alpha))
			p, _ := m.Problem()
			if loss {
				p.Sense = Minimize
				for y := 0; y < 3; y++ {
					for z := 0; z < 3; z++ {
						p.Objective[H.At(y, z)] = 0
						if y != z {
							p.Objective[H.At(y, z)] = 1.0 / 3
						}
					}
				}
				want = 4 * alpha / (3 * (1 + alpha))
			}
			res, err := Solve(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Optimal {
				t.Errorf("ε = %g, loss %v: status %v (residuals %g, %g)", eps, loss, res.Status, res.PrimalResidual, res.DualResidual)
				continue
			}
			if math.Abs(res.Objective-want) > 1e-9 {
				t.Errorf("ε = %g, loss %v: objective %.17g, want %.17g", eps, loss, res.Objective, want)
			}
			if res.PrimalResidual > 1e-9 || res.DualResidual > 1e-9 {
				t.Errorf("ε = %g, loss %v: optimal with residuals %g, %g", eps, loss, res.PrimalResidual, res.DualResidual)
			}
			checkOptimality(t, p, res, 1e-9)
		}
	}
}

// On random connected graphs of 4–6 vertices with random priors, at ε up to 40, in the same
// statement: whatever the solver says must hold. Optimal must pass the independent optimality
// check (feasibility, dual signs, complementary slackness, equal objectives) and beat
// randomized response (feasible, utility Σ_y π_y·e^ε/(n−1+e^ε)); anything else could only be
// Imprecise — never an unverified Optimal, never a limit the options did not set — and with the
// warm-started clean-up none is.
func TestLargeEpsilonRandomGraphsHonest(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 40))
	optimal := 0
	imprecise := map[float64]int{}
	for trial := 0; trial < 40; trial++ {
		n := 4 + rng.IntN(3)
		var edges [][2]int
		for len(edges) == 0 || !connected(n, edges) {
			edges = edges[:0]
			for a := 0; a < n; a++ {
				for b := a + 1; b < n; b++ {
					if rng.Float64() < 0.45 {
						edges = append(edges, [2]int{a, b})
					}
				}
			}
		}
		prior := make([]float64, n)
		sum := 0.0
		for y := range prior {
			prior[y] = 0.05 + rng.Float64()
			sum += prior[y]
		}
		for _, eps := range []float64{1, 18, 20, 40} {
			m, H := mechanismModel(n, edges, eps)
			for y := 0; y < n; y++ {
				m.SetObjective(H.At(y, y), prior[y]/sum)
			}
			p, _ := m.Problem()
			res, err := Solve(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			switch res.Status {
			case Optimal:
				optimal++
				checkOptimality(t, p, res, 1e-9)
				if rr := math.Exp(eps) / (float64(n-1) + math.Exp(eps)); res.Objective < rr-1e-9 {
					t.Errorf("n = %d, ε = %g: optimal %.12g below randomized response %.12g", n, eps, res.Objective, rr)
				}
			case Imprecise:
				if eps == 1 {
					t.Errorf("n = %d, ε = 1: imprecise (residuals %g, %g)", n, res.PrimalResidual, res.DualResidual)
				}
				imprecise[eps]++
			default:
				t.Errorf("n = %d, ε = %g: status %v", n, eps, res.Status)
			}
		}
	}
	if optimal < 160 {
		t.Errorf("%d of 160 optimal; imprecise by ε: %v", optimal, imprecise)
	}
}

func connected(n int, edges [][2]int) bool {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	for _, e := range edges {
		parent[find(e[0])] = find(e[1])
	}
	for i := 1; i < n; i++ {
		if find(i) != find(0) {
			return false
		}
	}
	return true
}

// The residuals are those of the returned vectors on the problem as stated: recomputed here
// from X, Duals and the data, by the definitions of Result.
func TestResidualsAreRecomputable(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, 3))
	checked := 0
	for trial := 0; trial < 400; trial++ {
		p := randomProblem(rng)
		res, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Optimal && res.Status != Imprecise {
			continue
		}
		checked++
		n, m := len(p.Objective), len(p.RHS)
		act := make([]float64, m)
		primal := 0.0
		for j := 0; j < n; j++ {
			for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
				act[p.A.RowIndex[k]] += p.A.Value[k] * res.X[j]
			}
			l, u := p.bounds(j)
			primal = math.Max(primal, math.Max(l-res.X[j], res.X[j]-u))
		}
		for i := 0; i < m; i++ {
			lo, hi := p.rowBounds(i)
			primal = math.Max(primal, math.Max(lo-act[i], act[i]-hi))
		}
		if math.Abs(res.PrimalResidual-primal) > 1e-15*(1+primal) {
			t.Fatalf("trial %d: PrimalResidual %g, recomputed %g", trial, res.PrimalResidual, primal)
		}
		// Dual residual: every row dual of the wrong sign for a row at an end of its interval
		// (data are integers, so "at" is exact here up to rounding of X).
		sign := 1.0
		if p.Sense == Maximize {
			sign = -1
		}
		dual := 0.0
		for i := 0; i < m; i++ {
			lo, hi := p.rowBounds(i)
			y := sign * res.Duals[i]
			atLo, atHi := math.Abs(act[i]-lo) < 1e-9, math.Abs(act[i]-hi) < 1e-9
			switch {
			case atLo && atHi:
			case atLo:
				dual = math.Max(dual, -y)
			case atHi:
				dual = math.Max(dual, y)
			default:
				dual = math.Max(dual, math.Abs(y))
			}
		}
		if res.DualResidual < dual-1e-15 {
			t.Fatalf("trial %d: DualResidual %g below the row duals' violation %g", trial, res.DualResidual, dual)
		}
		if res.Status == Optimal && (primal > 1e-9*8 || res.DualResidual > 1e-9*8) {
			t.Fatalf("trial %d: optimal with residuals %g, %g", trial, primal, res.DualResidual)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d problems were solved", checked)
	}
}

// When no solve meets the tolerances the status says so: with a feasibility tolerance of
// 10^−300 no floating-point solution of a program with inexact data can pass, so every clean-up
// solve runs and the best point comes back as Imprecise, with its residuals.
func TestImpreciseWhenTolerancesCannotBeMet(t *testing.T) {
	m, _ := mechanismModel(4, pathEdges(4), 0.3)
	p, _ := m.Problem()
	one, err := Solve(p, nil)
	if err != nil || one.Status != Optimal {
		t.Fatalf("default tolerances: %v %v", one.Status, err)
	}
	res, err := Solve(p, &Options{FeasibilityTol: 1e-300})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Imprecise || res.Status.String() != "imprecise" {
		t.Fatalf("status %v, want imprecise", res.Status)
	}
	if !(math.Max(res.PrimalResidual, res.DualResidual) > 0) || res.Iterations <= one.Iterations {
		t.Fatalf("residuals %g, %g, iterations %d (one solve: %d): the clean-up solves did not run",
			res.PrimalResidual, res.DualResidual, res.Iterations, one.Iterations)
	}
	if math.Abs(res.Objective-one.Objective) > 1e-9 {
		t.Fatalf("best point has objective %g, the optimum is %g", res.Objective, one.Objective)
	}
}
