package conelp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
)

// TestProgressBrackets: every progress report's Objective and Bound bracket the optimum that
// the general simplex of package lp finds for the same program (fullLP), in both senses, and
// the bound is reported (finite) once a pricing round has priced every column.
func TestProgressBrackets(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sense := range []lp.Sense{lp.Maximize, lp.Minimize} {
		const side = 5
		n := side * side
		prior := randomPrior(rng, n)
		cost := make([][]float64, n)
		for w := range cost {
			cost[w] = make([]float64, n)
			for y := range cost[w] {
				d := math.Hypot(float64(w%side-y%side), float64(w/side-y/side))
				if sense == lp.Maximize {
					cost[w][y] = prior[y] * math.Exp(-d) // a gain that decays with the distance
				} else {
					cost[w][y] = prior[y] * d // the expected distance
				}
			}
		}
		p := &Problem{N: n, Cost: cost, Pairs: gridPairs(side, 0.7), Sense: sense}
		opt := fullLP(t, p)
		var reports []lp.Progress
		r, err := Solve(p, &lp.Options{ProgressEvery: 1, Progress: func(pg lp.Progress) bool {
			reports = append(reports, pg)
			return true
		}})
		if err != nil || r.Status != lp.Optimal {
			t.Fatalf("%v: %v %v", sense, r.Status, err)
		}
		finite := 0
		for _, pg := range reports {
			lo, hi := pg.Objective, pg.Bound // maximizing: a feasible value below, the bound above
			if sense == lp.Minimize {
				lo, hi = pg.Bound, pg.Objective
			}
			tol := 1e-9 * math.Max(1, math.Abs(opt))
			if math.IsNaN(pg.Bound) || lo > opt+tol || hi < opt-tol {
				t.Fatalf("%v: report %+v does not bracket the optimum %v", sense, pg, opt)
			}
			if !math.IsInf(pg.Bound, 0) {
				finite++
			}
		}
		if finite == 0 {
			t.Errorf("%v: no report carried a bound (%d reports)", sense, len(reports))
		}
		if last := reports[len(reports)-1]; math.Abs(last.Bound-last.Objective) > 1e-6*math.Max(1, math.Abs(opt)) {
			t.Errorf("%v: the last report's gap %v is not closing", sense, last.Bound-last.Objective)
		}
	}
}

// TestProgressPivotsNeverGoBack: the reports count every pivot so far, across output generation
// and the decomposition that may follow it, so the count never decreases and ends at most at
// Result.Iterations (which sums both phases). The page shows this count as the work done.
func TestProgressPivotsNeverGoBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	phases := map[string]bool{}
	for trial := 0; trial < 6; trial++ {
		side := 4 + trial%3
		n := side * side
		prior := randomPrior(rng, n)
		cost := make([][]float64, n)
		for w := range cost {
			cost[w] = make([]float64, n)
			for y := range cost[w] {
				cost[w][y] = prior[y] * math.Hypot(float64(w%side-y%side), float64(w/side-y/side))
			}
		}
		p := &Problem{N: n, Cost: cost, Pairs: gridPairs(side, 0.3+0.4*float64(trial%2)), Sense: lp.Minimize, FewOutputs: true}
		last, lastPhase := 0, ""
		r, err := Solve(p, &lp.Options{ProgressEvery: 1, Progress: func(pg lp.Progress) bool {
			if pg.Iteration < last {
				t.Errorf("trial %d: %s reported %d pivots after %s reported %d", trial, pg.Phase, pg.Iteration, lastPhase, last)
			}
			last, lastPhase = pg.Iteration, pg.Phase
			phases[pg.Phase] = true
			return true
		}})
		if err != nil || r.Status != lp.Optimal {
			t.Fatalf("trial %d: %v %v", trial, r.Status, err)
		}
		if last > r.Iterations {
			t.Errorf("trial %d: last report %d pivots, result %d", trial, last, r.Iterations)
		}
	}
	t.Logf("phases seen: %v", phases)
}
