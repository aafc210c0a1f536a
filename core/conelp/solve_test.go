package conelp

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

// References used below: the same program stated row by row and solved by the general simplex
// of package lp; closed forms (Theorem 6.2 of Alvim et al. (ICALP 2011): on a graph where every
// vertex has the same distance distribution n_d, the uniform prior and the binary gain, the
// optimum is 1/Σ_d n_d e^{−εd}, with n_d counted here by a BFS); and the certificate checked
// entry by entry from Result.Multipliers by weak duality.

// fullLP solves p with the general simplex of package lp, stated row by row.
func fullLP(t *testing.T, p *Problem) float64 {
	t.Helper()
	n, W := p.N, len(p.Cost)
	m := lp.NewModel(p.Sense)
	H := m.AddBlock("H", n, W)
	for w, c := range p.Cost {
		for y, v := range c {
			if v != 0 {
				m.SetObjective(H.At(y, w), v)
			}
		}
	}
	for y := 0; y < n; y++ {
		row := make([]lp.Term, W)
		for w := range row {
			row[w] = lp.Term{Var: H.At(y, w), Coef: 1}
		}
		m.AddEq(row, 1)
	}
	for _, q := range p.Pairs {
		if q.Log > 60 {
			continue // beyond what the simplex resolves; see TestLargeEpsilon
		}
		f := math.Exp(-q.Log) // mass form: e^{−Log}·H[a] ≤ H[b]
		for w := 0; w < W; w++ {
			m.AddLe([]lp.Term{{Var: H.At(q.A, w), Coef: f}, {Var: H.At(q.B, w), Coef: -1}}, 0)
			m.AddLe([]lp.Term{{Var: H.At(q.B, w), Coef: f}, {Var: H.At(q.A, w), Coef: -1}}, 0)
		}
	}
	r, err := m.Solve(&lp.Options{NoScaling: true, FeasibilityTol: 1e-11, OptimalityTol: 1e-11})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != lp.Optimal {
		t.Fatalf("full LP: %v", r.Status)
	}
	return r.Objective
}

// checkResult checks r against p by itself: H is feasible (rows sum to 1, H ≥ 0, every pair's
// ratio within e^Log up to rounding), its objective is Objective, and the multipliers prove
// Bound: Cost[w] − Mu ∓ Pᵀα_w within DualResidual, and Bound ≥ Σ_y Mu_y + Σ_y max_w r_wy.
func checkResult(t *testing.T, name string, p *Problem, r *Result) {
	t.Helper()
	n, W := p.N, len(p.Cost)
	if len(r.H) != n*W {
		t.Fatalf("%s: H has %d entries", name, len(r.H))
	}
	obj := 0.0
	for y := 0; y < n; y++ {
		s := 0.0
		for w := 0; w < W; w++ {
			h := r.H[y*W+w]
			if h < 0 {
				t.Errorf("%s: H[%d][%d] = %g", name, y, w, h)
			}
			s += h
			obj += p.Cost[w][y] * h
		}
		if math.Abs(s-1) > 1e-9 {
			t.Errorf("%s: row %d sums to %.17g", name, y, s)
		}
	}
	if math.Abs(obj-r.Objective) > 1e-12*math.Max(1, math.Abs(obj)) {
		t.Errorf("%s: objective %.17g, H gives %.17g", name, r.Objective, obj)
	}
	for _, q := range p.Pairs {
		if math.IsInf(q.Log, 1) {
			continue
		}
		for w := 0; w < W; w++ {
			a, b := r.H[q.A*W+w], r.H[q.B*W+w]
			// in logarithms, so that e^Log may overflow
			if a > 0 && (b == 0 || math.Log(a)-math.Log(b) > q.Log+1e-12*math.Max(1, q.Log)) ||
				b > 0 && (a == 0 || math.Log(b)-math.Log(a) > q.Log+1e-12*math.Max(1, q.Log)) {
				t.Errorf("%s: pair (%d, %d), Log %g, column %d: %g and %g", name, q.A, q.B, q.Log, w, a, b)
			}
		}
	}
	if r.Multipliers == nil {
		return
	}
	sign := 1.0
	if p.Sense == lp.Minimize {
		sign = -1
	}
	// Maximized form: c = sign·Cost, prices sign·Mu; r_w = c_w − μ − Pᵀα_w ≤ DualResidual.
	bound := 0.0
	worst := make([]float64, n)
	for w := 0; w < W; w++ {
		res := make([]float64, n)
		size := make([]float64, n)
		for y := range res {
			res[y] = sign*p.Cost[w][y] - sign*r.Mu[y]
			size[y] = math.Abs(p.Cost[w][y]) + math.Abs(r.Mu[y])
		}
		for k, q := range p.Pairs {
			for dir, ab := range [2][2]int{{q.A, q.B}, {q.B, q.A}} {
				m := r.Multipliers[w][2*k+dir]
				if m < 0 {
					t.Fatalf("%s: negative multiplier %g", name, m)
				}
				if m == 0 {
					continue
				}
				res[ab[0]] -= m
				res[ab[1]] += m * math.Exp(q.Log)
				size[ab[0]] += m
				size[ab[1]] += m * math.Exp(q.Log)
			}
		}
		for y, v := range res {
			if v > r.DualResidual+1e-14*size[y] {
				t.Errorf("%s: column %d row %d: reduced cost %g above the dual residual %g", name, w, y, v, r.DualResidual)
			}
			worst[y] = math.Max(worst[y], v)
		}
	}
	for y := range worst {
		bound += sign*r.Mu[y] + worst[y]
	}
	if sign*r.Bound < bound-1e-12*math.Max(1, math.Abs(bound)) {
		t.Errorf("%s: Bound %.17g below what the multipliers prove, %.17g", name, r.Bound, sign*bound)
	}
}

func randomGraphPairs(rng *rand.Rand, n int, eps float64) []Pair {
	var pairs []Pair
	for v := 1; v < n; v++ { // a random spanning tree, then random extra edges
		pairs = append(pairs, Pair{rng.IntN(v), v, eps})
	}
	for k := 0; k < n; k++ {
		if a, b := rng.IntN(n), rng.IntN(n); a != b {
			pairs = append(pairs, Pair{a, b, eps})
		}
	}
	return pairs
}

// randomMetricPairs: points on a line with some coinciding (Log 0) and a gap that cuts them in
// two groups with no constraint between them (Log +Inf).
func randomMetricPairs(rng *rand.Rand, n int, eps float64) []Pair {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(rng.IntN(n))
	}
	var pairs []Pair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			l := eps * math.Abs(x[a]-x[b])
			if (x[a] < 2) != (x[b] < 2) {
				l = math.Inf(1)
			}
			pairs = append(pairs, Pair{a, b, l})
		}
	}
	return pairs
}

func randomPrior(rng *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	s := 0.0
	for i := range p {
		p[i] = rng.Float64() + 0.05
		s += p[i]
	}
	for i := range p {
		p[i] /= s
	}
	return p
}

func randomProblem(rng *rand.Rand, eps float64) *Problem {
	n := 2 + rng.IntN(7)
	prior := randomPrior(rng, n)
	p := &Problem{N: n, KeepMultipliers: true}
	if rng.IntN(3) == 0 {
		p.Pairs = randomMetricPairs(rng, n, eps)
	} else {
		p.Pairs = randomGraphPairs(rng, n, eps)
	}
	kind := rng.IntN(3)
	W := n
	if kind == 2 {
		W = 1 + rng.IntN(n+2)
	}
	p.Cost = make([][]float64, W)
	for w := range p.Cost {
		p.Cost[w] = make([]float64, n)
		for y := range p.Cost[w] {
			switch kind {
			case 0: // binary gain
				if y == w {
					p.Cost[w][y] = prior[y]
				}
			case 1: // |w − y| loss
				p.Cost[w][y] = prior[y] * math.Abs(float64(w-y))
			default: // a random gain
				p.Cost[w][y] = prior[y] * rng.Float64()
			}
		}
	}
	p.Sense = lp.Maximize
	if kind == 1 {
		p.Sense = lp.Minimize
	}
	return p
}

func TestAgainstFullLP(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		eps := []float64{0.01, 0.1, 0.5, 1, 2, 5, 20}[rng.IntN(7)]
		p := randomProblem(rng, eps)
		want := fullLP(t, p)
		r, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != lp.Optimal || math.Abs(r.Objective-want) > 1e-9 || math.Abs(r.Bound-want) > 1e-9 {
			t.Errorf("trial %d (n %d, W %d, ε %g): %v objective %.12g bound %.12g, simplex %.12g; residuals %g %g",
				trial, p.N, len(p.Cost), eps, r.Status, r.Objective, r.Bound, want, r.PrimalResidual, r.DualResidual)
		}
		checkResult(t, "random", p, r)
	}
}

// At ε = 40 (and ε·d up to 700) the simplex can no longer tell the constraints from 0; the
// decomposition must still return a feasible H whose certificate checks, and do at least as
// well as randomized response, which is private at every ε.
func TestLargeEpsilon(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 100; trial++ {
		eps := []float64{40, 100, 700}[rng.IntN(3)]
		p := randomProblem(rng, eps)
		r, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != lp.Optimal {
			t.Errorf("trial %d (ε %g): %v", trial, eps, r.Status)
			continue
		}
		checkResult(t, "large ε", p, r)
		// Randomized response with ratio e^{min Log} between its diagonal and the rest.
		minLog := math.Inf(1)
		for _, q := range p.Pairs {
			minLog = math.Min(minLog, q.Log)
		}
		n, W := p.N, len(p.Cost)
		if W != n || math.IsInf(minLog, 1) {
			continue
		}
		f := math.Exp(math.Min(minLog, 700))
		rr := 0.0
		for w := range p.Cost {
			for y := 0; y < n; y++ {
				h := 1 / (float64(n-1) + f)
				if y == w {
					h *= f
				}
				rr += p.Cost[w][y] * h
			}
		}
		if p.Sense == lp.Maximize && r.Objective < rr-1e-12 || p.Sense == lp.Minimize && r.Objective > rr+1e-12 {
			t.Errorf("trial %d (ε %g): objective %.17g worse than randomized response %.17g", trial, eps, r.Objective, rr)
		}
	}
}

// distanceCounts returns n_d from vertex 0 by BFS over the pairs (all of Log eps).
func distanceCounts(n int, pairs []Pair) []int {
	adj := make([][]int, n)
	for _, q := range pairs {
		adj[q.A] = append(adj[q.A], q.B)
		adj[q.B] = append(adj[q.B], q.A)
	}
	dist := make([]int, n)
	for i := range dist {
		dist[i] = -1
	}
	dist[0] = 0
	queue := []int{0}
	var counts []int
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for len(counts) <= dist[v] {
			counts = append(counts, 0)
		}
		counts[dist[v]]++
		for _, u := range adj[v] {
			if dist[u] < 0 {
				dist[u] = dist[v] + 1
				queue = append(queue, u)
			}
		}
	}
	return counts
}

func binaryUniform(n int) [][]float64 {
	c := make([][]float64, n)
	for w := range c {
		c[w] = make([]float64, n)
		c[w][w] = 1 / float64(n)
	}
	return c
}

func TestClosedForms(t *testing.T) {
	t.Parallel()
	clique := func(n int) []Pair {
		var p []Pair
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				p = append(p, Pair{a, b, 0})
			}
		}
		return p
	}
	cycle := func(n int) []Pair {
		var p []Pair
		for a := 0; a < n; a++ {
			p = append(p, Pair{a, (a + 1) % n, 0})
		}
		return p
	}
	hypercube := func(d int) []Pair {
		var p []Pair
		for v := 0; v < 1<<d; v++ {
			for b := 0; b < d; b++ {
				if u := v ^ 1<<b; u > v {
					p = append(p, Pair{v, u, 0})
				}
			}
		}
		return p
	}
	for _, g := range []struct {
		name  string
		n     int
		pairs []Pair
	}{{"K12", 12, clique(12)}, {"C9", 9, cycle(9)}, {"C20", 20, cycle(20)}, {"Q5", 32, hypercube(5)}} {
		for _, eps := range []float64{0.05, math.Ln2, 3, 20, 40} {
			pairs := append([]Pair(nil), g.pairs...)
			for i := range pairs {
				pairs[i].Log = eps
			}
			want := 0.0
			for d, c := range distanceCounts(g.n, pairs) {
				want += float64(c) * math.Exp(-eps*float64(d))
			}
			want = 1 / want
			p := &Problem{N: g.n, Cost: binaryUniform(g.n), Pairs: pairs, Sense: lp.Maximize, KeepMultipliers: true}
			r, err := Solve(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != lp.Optimal || math.Abs(r.Objective-want) > 1e-11 || math.Abs(r.Bound-want) > 1e-11 {
				t.Errorf("%s, ε = %g: %v objective %.17g bound %.17g, want %.17g", g.name, eps, r.Status, r.Objective, r.Bound, want)
			}
			checkResult(t, g.name, p, r)
		}
	}
}

func gridPairs(side int, eps float64) []Pair {
	var e []Pair
	for r := 0; r < side; r++ {
		for c := 0; c < side; c++ {
			v := r*side + c
			if c+1 < side {
				e = append(e, Pair{v, v + 1, eps})
			}
			if r+1 < side {
				e = append(e, Pair{v, v + side, eps})
			}
		}
	}
	return e
}

func TestStopping(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	prior := randomPrior(rng, 36)
	cost := make([][]float64, 36)
	for w := range cost {
		cost[w] = make([]float64, 36)
		cost[w][w] = prior[w]
	}
	p := &Problem{N: 36, Cost: cost, Pairs: gridPairs(6, 0.5), Sense: lp.Maximize}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := Solve(p, &lp.Options{Context: ctx}); err != nil || r.Status != lp.Cancelled {
		t.Errorf("cancelled context: %v %v", r.Status, err)
	}
	calls := 0
	r, err := Solve(p, &lp.Options{Progress: func(pg lp.Progress) bool {
		calls++
		if pg.Phase != "decomposition" || math.IsNaN(pg.Objective) {
			t.Errorf("progress %+v", pg)
		}
		return calls < 3
	}})
	if err != nil || r.Status != lp.Cancelled || calls != 3 {
		t.Errorf("progress returning false: %v after %d calls (%v)", r.Status, calls, err)
	}
	if r, _ := Solve(p, &lp.Options{TimeLimit: time.Nanosecond}); r.Status != lp.TimeLimit {
		t.Errorf("time limit: %v", r.Status)
	}
	if r, _ := Solve(p, &lp.Options{MaxIterations: 3}); r.Status != lp.IterationLimit {
		t.Errorf("iteration limit: %v", r.Status)
	}
	// Tolerances no floating-point solution meets: converged, but not Optimal.
	if r, _ := Solve(p, &lp.Options{FeasibilityTol: 1e-300, OptimalityTol: 1e-300}); r.Status != lp.Imprecise {
		t.Errorf("tolerances 1e-300: %v", r.Status)
	}
	// Whatever the status, H is feasible.
	for _, o := range []*lp.Options{{MaxIterations: 3}, {TimeLimit: time.Nanosecond}} {
		r, _ := Solve(p, o)
		checkResult(t, "stopped", p, r)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	good := func() *Problem {
		return &Problem{N: 2, Cost: [][]float64{{1, 0}, {0, 1}}, Pairs: []Pair{{0, 1, 1}}}
	}
	for _, c := range []struct {
		edit func(*Problem)
		want string
	}{
		{func(p *Problem) { p.N = 0 }, "N = 0"},
		{func(p *Problem) { p.Cost = nil }, "no columns"},
		{func(p *Problem) { p.Cost[1] = []float64{1} }, "Cost[1] has 1 entries"},
		{func(p *Problem) { p.Cost[0][1] = math.NaN() }, "Cost[0][1] is NaN"},
		{func(p *Problem) { p.Cost[0][1] = math.Inf(-1) }, "Cost[0][1] is -Inf"},
		{func(p *Problem) { p.Pairs[0].B = 0 }, "distinct rows"},
		{func(p *Problem) { p.Pairs[0].B = 2 }, "distinct rows"},
		{func(p *Problem) { p.Pairs[0].Log = -1 }, "Log = -1"},
		{func(p *Problem) { p.Pairs[0].Log = math.NaN() }, "Log = NaN"},
		{func(p *Problem) { p.Sense = 7 }, "sense"},
		{func(p *Problem) { p.N, p.Cost = 2000, make([][]float64, 1000) }, "limit"},
	} {
		p := good()
		c.edit(p)
		if _, err := Solve(p, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
	if _, err := Solve(nil, nil); err == nil {
		t.Error("nil problem accepted")
	}
}

// Pair generation: a 6×6 location map with every pair constrained (836 arcs, more than 16 per
// cell) starts pricing from each cell's 8 closest pairs. Its mechanism must be feasible for
// every pair and its multipliers must prove its bound against every pair (checkResult), and
// its optimum must be that of the solve that prices over all the pairs from the start.
func TestPairGeneration(t *testing.T) {
	t.Parallel()
	lazy := geoProblem(6, 0.5)
	lazy.KeepMultipliers = true
	all := geoProblem(6, 0.5)
	all.AllPairs = true
	rl, err := Solve(lazy, nil)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := Solve(all, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rl.Status != lp.Optimal || ra.Status != lp.Optimal {
		t.Fatalf("statuses %v and %v", rl.Status, ra.Status)
	}
	checkResult(t, "geo6 with pair generation", lazy, rl)
	if rl.Pairs >= len(lazy.Pairs) {
		t.Errorf("pair generation used %d of %d pairs: it did not start from a subset", rl.Pairs, len(lazy.Pairs))
	}
	if d := math.Abs(rl.Objective - ra.Objective); d > 1e-9 {
		t.Errorf("optimum %.15g with pair generation, %.15g without", rl.Objective, ra.Objective)
	}
	t.Logf("pairs %d of %d; rounds %d and %d", rl.Pairs, len(lazy.Pairs), rl.Rounds, ra.Rounds)
}
