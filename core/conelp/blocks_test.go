package conelp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
)

// randomMap is location privacy on n random points of the unit square with every pair
// constrained (enough pairs per point for output generation), a random prior, and either the
// expected distance as the loss or the binary gain.
func randomMap(rng *rand.Rand, n int, eps float64, loss bool) *Problem {
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = rng.Float64()*4, rng.Float64()*4
	}
	d := func(a, b int) float64 { return math.Hypot(x[a]-x[b], y[a]-y[b]) }
	var pairs []Pair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			pairs = append(pairs, Pair{a, b, eps * d(a, b)})
		}
	}
	prior := randomPrior(rng, n)
	cost := make([][]float64, n)
	for w := range cost {
		cost[w] = make([]float64, n)
		for v := range cost[w] {
			if loss {
				cost[w][v] = prior[v] * d(v, w)
			} else if v == w {
				cost[w][v] = prior[v]
			}
		}
	}
	p := &Problem{N: n, Cost: cost, Pairs: pairs, Sense: lp.Maximize, KeepMultipliers: true}
	if loss {
		p.Sense = lp.Minimize
	}
	return p
}

// Output generation and the decomposition alone reach the same optimum, and the result of
// output generation carries a certificate that checkResult verifies on its own (H against
// every pair in logarithms, the multipliers against the bound).
func TestOutputGeneration(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	used := 0
	for trial := 0; trial < 8; trial++ {
		n := 18 + rng.IntN(5)
		eps := []float64{0.3, 1, 3}[rng.IntN(3)]
		p := randomMap(rng, n, eps, trial%3 != 0)
		r, ref := againstDecomposition(t, fmt.Sprintf("trial %d (n %d, ε %g)", trial, n, eps), p)
		if gap := math.Abs(r.Bound - r.Objective); gap > 1e-10*math.Max(1, math.Abs(r.Objective)) {
			t.Errorf("trial %d: gap %g", trial, gap)
		}
		t.Logf("n %d ε %g: %d rounds, %d outputs; decomposition alone %d rounds", n, eps, r.Rounds, r.Outputs, ref.Rounds)
		if r.Outputs > 0 {
			used++ // certified by output generation
		}
	}
	if used == 0 {
		t.Error("output generation never ended with a restricted set of outputs")
	}
}

// Stopped during output generation, Solve returns the last restricted solution, which is
// feasible for the full program.
func TestOutputGenerationStopped(t *testing.T) {
	t.Parallel()
	p := geoProblem(6, 0.5)
	calls := 0
	r, err := Solve(p, &lp.Options{Progress: func(pg lp.Progress) bool {
		calls++
		if pg.Phase != "output generation" || math.IsNaN(pg.Objective) || !(pg.Infeasibility > 0) {
			t.Errorf("progress %+v", pg)
		}
		return false
	}})
	if err != nil || r.Status != lp.Cancelled || calls != 1 {
		t.Fatalf("cancelled at the first report: %v after %d calls (%v)", r.Status, calls, err)
	}
	checkResult(t, "stopped", p, r)
	if !(r.Bound <= r.Objective) { // minimizing: the bound is a lower bound
		t.Errorf("bound %g above the objective %g", r.Bound, r.Objective)
	}
	if r, _ := Solve(p, &lp.Options{TimeLimit: 1}); r.Status != lp.TimeLimit {
		t.Errorf("time limit: %v", r.Status)
	} else {
		checkResult(t, "time limit", p, r)
	}
}

// Two 5×5 maps 1000 apart with a hot spot each: pairs across them have ε·d near 600, so the
// restricted programs see factors of e^−599 that the simplex cannot tell from 0, and a column
// it returned was 0 on one map and positive on the other — "optimal" with no finite ε. The
// result must meet every pair as a ratio (checkResult, in logarithms) and equal the
// decomposition's optimum.
func TestOutputGenerationFarPairs(t *testing.T) {
	t.Parallel()
	const side = 5
	var xs, ys []float64
	for c := 0; c < 2; c++ {
		for v := 0; v < side*side; v++ {
			xs = append(xs, float64(v%side)+1000*float64(c))
			ys = append(ys, float64(v/side))
		}
	}
	n := len(xs)
	d := func(a, b int) float64 { return math.Hypot(xs[a]-xs[b], ys[a]-ys[b]) }
	var pairs []Pair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			pairs = append(pairs, Pair{a, b, 0.6 * d(a, b)})
		}
	}
	cost := make([][]float64, n)
	for w := range cost {
		cost[w] = make([]float64, n)
		for y := range cost[w] {
			dx, dy := float64(y%side)-2, ys[y]-2
			cost[w][y] = d(y, w) * (0.05 + math.Exp(-(dx*dx+dy*dy)/2)) // a hot spot in each map
		}
	}
	p := &Problem{N: n, Cost: cost, Pairs: pairs, Sense: lp.Minimize, KeepMultipliers: true}
	againstDecomposition(t, "far pairs", p)
}

// againstDecomposition solves p as it is and with the decomposition alone; both must be
// optimal with the same optimum, and p's result must carry a certificate checkResult verifies.
func againstDecomposition(t *testing.T, name string, p *Problem) (r, ref *Result) {
	t.Helper()
	r, err := Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := *p
	q.NoOutputs = true
	ref, err = Solve(&q, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != lp.Optimal || ref.Status != lp.Optimal {
		t.Fatalf("%s: statuses %v and %v", name, r.Status, ref.Status)
	}
	checkResult(t, name, p, r)
	if diff := math.Abs(r.Objective - ref.Objective); diff > 1e-9*math.Max(1, math.Abs(ref.Objective)) {
		t.Errorf("%s: optimum %.15g, the decomposition's %.15g", name, r.Objective, ref.Objective)
	}
	return r, ref
}

// On a spanner-like map (each point paired with its three nearest and its successor, so too
// few pairs for pair generation) output generation also applies when asked for (FewOutputs).
// It must reach the decomposition's optimum with a certificate checkResult verifies, for maps
// of up to 60 points, the restricted programs starting each from the last one's basis.
func TestOutputGenerationFewPairs(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	used := 0
	for trial := 0; trial < 5; trial++ {
		n := 30 + rng.IntN(31)
		eps := []float64{0.5, 1, 2}[rng.IntN(3)]
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = rng.Float64()*5, rng.Float64()*5
		}
		d := func(a, b int) float64 { return math.Hypot(x[a]-x[b], y[a]-y[b]) }
		seen := map[[2]int]bool{}
		var pairs []Pair
		add := func(a, b int) {
			if a > b {
				a, b = b, a
			}
			if a != b && !seen[[2]int{a, b}] {
				seen[[2]int{a, b}] = true
				pairs = append(pairs, Pair{a, b, eps * d(a, b)})
			}
		}
		for a := 0; a < n; a++ {
			if a+1 < n {
				add(a, a+1)
			}
			near := make([]int, 0, n)
			for b := 0; b < n; b++ {
				if b != a {
					near = append(near, b)
				}
			}
			for k := 0; k < 3; k++ { // the three nearest, by selection
				best := k
				for i := k + 1; i < len(near); i++ {
					if d(a, near[i]) < d(a, near[best]) {
						best = i
					}
				}
				near[k], near[best] = near[best], near[k]
				add(a, near[k])
			}
		}
		prior := randomPrior(rng, n)
		cost := make([][]float64, n)
		for w := range cost {
			cost[w] = make([]float64, n)
			for v := range cost[w] {
				cost[w][v] = prior[v] * d(v, w)
			}
		}
		p := &Problem{N: n, Cost: cost, Pairs: pairs, Sense: lp.Minimize, KeepMultipliers: true, FewOutputs: true}
		r, ref := againstDecomposition(t, fmt.Sprintf("trial %d (n %d, ε %g)", trial, n, eps), p)
		t.Logf("n %d, %d pairs, ε %g: %d rounds, %d outputs; decomposition alone %d rounds", n, len(pairs), eps, r.Rounds, r.Outputs, ref.Rounds)
		if r.Outputs > 0 {
			used++
		}
	}
	if used == 0 {
		t.Error("output generation never certified a map")
	}
}

// When output generation hands over to a decomposition that starts afresh (no pair generation:
// a spanner map, steep enough that a restricted column misses a pair as a ratio), the progress
// reports keep output generation's bound, a valid one, instead of showing none until the
// decomposition has priced a round.
func TestHandOverKeepsBound(t *testing.T) {
	t.Parallel()
	p := geoSpanner(6, 4, 1.5)
	var ogBound, decBound []float64
	r, err := Solve(p, &lp.Options{ProgressEvery: 1, Progress: func(pg lp.Progress) bool {
		switch pg.Phase {
		case "output generation":
			ogBound = append(ogBound, pg.Bound)
		case "decomposition":
			decBound = append(decBound, pg.Bound)
		}
		return true
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ogBound) == 0 || len(decBound) == 0 {
		t.Skipf("no hand-over on this map (%d and %d reports, %v)", len(ogBound), len(decBound), r.Status)
	}
	last := ogBound[len(ogBound)-1]
	for i, b := range decBound {
		// Minimizing: the bound is a lower bound, and the shown one never falls below it.
		if !(b >= last-1e-12*math.Max(1, math.Abs(last))) {
			t.Fatalf("decomposition report %d: bound %v, output generation had proved %v", i, b, last)
		}
	}
	if !(decBound[len(decBound)-1] <= r.Objective+1e-9) {
		t.Errorf("last bound %v above the objective %v", decBound[len(decBound)-1], r.Objective)
	}
}

// gridRandomPrior is the location map of geoProblem (side×side cells, every pair without a
// cell strictly between, the expected distance as the loss) with a random prior.
func gridRandomPrior(rng *rand.Rand, side int, eps float64) *Problem {
	p := geoProblem(side, eps)
	prior := randomPrior(rng, p.N)
	for w := range p.Cost {
		for y := range p.Cost[w] {
			d := math.Hypot(float64(w%side-y%side), float64(w/side-y/side))
			p.Cost[w][y] = prior[y] * d
		}
	}
	p.KeepMultipliers = true
	p.FewOutputs = true // as a map with a metric states it: 5×5 has too few pairs per cell for pair generation
	return p
}

// The partial pricings of output generation (the rounds between full ones price only until
// enough outputs price positive) and the pairs a joining output brings (joinPairs) change its
// path, never its answer: on 5×5 and 6×6 maps with random priors at ε = 0.5 and 1, with and
// without them, Solve ends Optimal with certificates that checkResult verifies against every
// pair, and the optima agree with each other and, on 5×5, with the general simplex on the
// whole program. The trace shows that partial rounds were taken.
func TestOutputDesignsAgree(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(34, 5))
	partialRounds, certified := 0, 0
	for _, side := range []int{5, 6} {
		for _, eps := range []float64{0.5, 1} {
			p := gridRandomPrior(rng, side, eps)
			name := fmt.Sprintf("%d×%d, ε %g", side, side, eps)
			var lines []string
			p.design.trace = func(f string, args ...any) { lines = append(lines, fmt.Sprintf(f, args...)) }
			r, err := Solve(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			q := *p
			q.design = design{fullPricing: true, noJoinPairs: true} // the design before both
			ref, err := Solve(&q, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != lp.Optimal || ref.Status != lp.Optimal {
				t.Fatalf("%s: statuses %v (partial) and %v (full)", name, r.Status, ref.Status)
			}
			if r.Outputs == 0 && ref.Outputs > 0 {
				t.Errorf("%s: certified by output generation only without partial pricings:\n%s", name, strings.Join(lines, "\n"))
			}
			checkResult(t, name+" partial", p, r)
			checkResult(t, name+" full", p, ref)
			if d := math.Abs(r.Objective - ref.Objective); d > 1e-9*math.Max(1, math.Abs(ref.Objective)) {
				t.Errorf("%s: optimum %.15g with partial pricings, %.15g without", name, r.Objective, ref.Objective)
			}
			if side == 5 {
				if opt := fullLP(t, p); math.Abs(r.Objective-opt) > 1e-8*math.Max(1, math.Abs(opt)) {
					t.Errorf("%s: optimum %.15g, the general simplex's %.15g", name, r.Objective, opt)
				}
			}
			for _, l := range lines {
				var round, outs, reached int
				var rest string
				if n, _ := fmt.Sscanf(l, "output round %d: %d outputs, %s", &round, &outs, &rest); n < 2 {
					continue
				}
				if i := strings.LastIndex(l, "("); i >= 0 {
					if _, err := fmt.Sscanf(l[i:], "(%d outputs)", &reached); err == nil && reached < p.N {
						partialRounds++
					}
				}
			}
			if r.Outputs > 0 {
				certified++
			}
			t.Logf("%s: %d rounds, %d pivots (%d and %d without partial pricings and joinPairs), %d outputs", name, r.Rounds, r.Iterations, ref.Rounds, ref.Iterations, r.Outputs)
		}
	}
	if partialRounds == 0 || certified < 2 {
		t.Errorf("%d rounds priced only part of the outputs, %d maps certified by output generation", partialRounds, certified)
	}
}
