package conelp

import (
	"fmt"
	"math"
	"os"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

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

func binaryUniform(n int) [][]float64 {
	c := make([][]float64, n)
	for w := range c {
		c[w] = make([]float64, n)
		c[w][w] = 1 / float64(n)
	}
	return c
}

func TestScaleProbe(t *testing.T) {
	if os.Getenv("CONELP_PROBE") == "" {
		t.Skip()
	}
	eps := math.Ln2
	cases := map[string]*Problem{}
	for _, s := range []int{10, 15, 20} {
		cases["grid"+string(rune('0'+s/10))+string(rune('0'+s%10))] = &Problem{N: s * s, Cost: binaryUniform(s * s), Pairs: gridPairs(s, eps), Sense: lp.Maximize}
	}
	for _, name := range []string{"grid10", "grid15", "grid20"} {
		p := cases[name]
		t0 := time.Now()
		r, err := Solve(p, &lp.Options{Progress: func(pg lp.Progress) bool {
			t.Logf("  %s it %d obj %.10f infeas %.3g %v", name, pg.Iteration, pg.Objective, pg.Infeasibility, time.Since(t0))
			return true
		}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v obj %.12f bound %.12f res %.2g %.2g rounds %d iters %d cols %d in %v", name, r.Status, r.Objective, r.Bound, r.PrimalResidual, r.DualResidual, r.Rounds, r.Iterations, r.Columns, time.Since(t0))
	}
}

func TestGridSmallAgainstFull(t *testing.T) {
	for _, s := range []int{4, 6} {
		p := &Problem{N: s * s, Cost: binaryUniform(s * s), Pairs: gridPairs(s, math.Ln2), Sense: lp.Maximize}
		want := fullLP(t, p)
		r, _ := Solve(p, nil)
		t.Logf("grid %d: %v %.12f full %.12f", s, r.Status, r.Objective, want)
		if math.Abs(r.Objective-want) > 1e-9 {
			t.Error("differ")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// geoProblem: side×side cells, Euclidean metric, ε per unit, prior with hot spots, loss = distance.
func geoProblem(side int, eps float64) *Problem {
	n := side * side
	prior := make([]float64, n)
	spots := [][3]float64{{0.25, 0.3, 0.12}, {0.7, 0.65, 0.08}, {0.4, 0.8, 0.1}}
	s := 0.0
	for v := range prior {
		x, y := float64(v%side)/float64(side-1), float64(v/side)/float64(side-1)
		d := 0.05
		for _, sp := range spots {
			d += math.Exp(-((x-sp[0])*(x-sp[0]) + (y-sp[1])*(y-sp[1])) / (2 * sp[2] * sp[2]))
		}
		prior[v] = d
		s += d
	}
	for v := range prior {
		prior[v] /= s
	}
	dist := func(a, b int) float64 {
		dx, dy := float64(a%side-b%side), float64(a/side-b/side)
		return math.Hypot(dx, dy)
	}
	var pairs []Pair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if gcd(a%side-b%side, a/side-b/side) == 1 {
				pairs = append(pairs, Pair{a, b, eps * dist(a, b)})
			}
		}
	}
	cost := make([][]float64, n)
	for w := range cost {
		cost[w] = make([]float64, n)
		for y := range cost[w] {
			cost[w][y] = prior[y] * dist(w, y)
		}
	}
	return &Problem{N: n, Cost: cost, Pairs: pairs, Sense: lp.Minimize}
}

func hotPrior(side int) []float64 {
	return geoProblemPrior(side)
}

func geoProblemPrior(side int) []float64 {
	p := geoProblem(side, 1)
	n := side * side
	prior := make([]float64, n)
	for y := 0; y < n; y++ {
		// cost[w][y] = prior[y]·dist(w,y): take w at distance 1
		w := y + 1
		if y%side == side-1 {
			w = y - 1
		}
		prior[y] = p.Cost[w][y]
	}
	return prior
}

func TestScaleProbe2(t *testing.T) {
	if os.Getenv("CONELP_PROBE") == "" {
		t.Skip()
	}
	run := func(name string, p *Problem) {
		t0 := time.Now()
		r, err := Solve(p, &lp.Options{Progress: func(pg lp.Progress) bool {
			t.Logf("  %s it %d obj %.10f infeas %.3g %v", name, pg.Iteration, pg.Objective, pg.Infeasibility, time.Since(t0))
			return true
		}})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v obj %.12f bound %.12f res %.2g %.2g rounds %d iters %d cols %d in %v", name, r.Status, r.Objective, r.Bound, r.PrimalResidual, r.DualResidual, r.Rounds, r.Iterations, r.Columns, time.Since(t0))
	}
	for _, side := range []int{} {
		n := side * side
		prior := hotPrior(side)
		c := make([][]float64, n)
		for w := range c {
			c[w] = make([]float64, n)
			c[w][w] = prior[w]
		}
		run("gridhot", &Problem{N: n, Cost: c, Pairs: gridPairs(side, math.Ln2), Sense: lp.Maximize})
	}
	for _, side := range []int{8} {
		run("geo", geoProblem(side, 0.5))
	}
}

func TestRounds(t *testing.T) {
	if os.Getenv("CONELP_ROUNDS") == "" {
		t.Skip()
	}
	debugf = func(f string, a ...any) {
		if os.Getenv("CONELP_ROUNDS") == "v" {
			t.Logf(f, a...)
		}
	}
	defer func() { debugf = nil }()
	run := func(name string, p *Problem) {
		t0 := time.Now()
		c0 := cpuTime()
		r, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v obj %.12f bound %.12f res %.2g %.2g rounds %d iters %d cols %d in %v (cpu %v)", name, r.Status, r.Objective, r.Bound, r.PrimalResidual, r.DualResidual, r.Rounds, r.Iterations, r.Columns, time.Since(t0), cpuTime()-c0)
	}
	side := 10
	n := side * side
	prior := hotPrior(side)
	c := make([][]float64, n)
	for w := range c {
		c[w] = make([]float64, n)
		c[w][w] = prior[w]
	}
	run("gridhot10", &Problem{N: n, Cost: c, Pairs: gridPairs(side, math.Ln2), Sense: lp.Maximize})
	run("geo8", geoProblem(8, 0.5))
}

func TestTargets(t *testing.T) {
	if os.Getenv("CONELP_TARGETS") == "" {
		t.Skip()
	}
	eps := math.Ln2
	run := func(name string, p *Problem) {
		t0 := time.Now()
		r, err := Solve(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v obj %.12f bound %.12f res %.2g %.2g rounds %d iters %d cols %d in %v", name, r.Status, r.Objective, r.Bound, r.PrimalResidual, r.DualResidual, r.Rounds, r.Iterations, r.Columns, time.Since(t0))
	}
	var clique []Pair
	for i := 0; i < 80; i++ {
		for j := i + 1; j < 80; j++ {
			clique = append(clique, Pair{i, j, eps})
		}
	}
	run("clique80", &Problem{N: 80, Cost: binaryUniform(80), Pairs: clique, Sense: lp.Maximize})
	var path []Pair
	for i := 0; i+1 < 200; i++ {
		path = append(path, Pair{i, i + 1, eps})
	}
	run("path200", &Problem{N: 200, Cost: binaryUniform(200), Pairs: path, Sense: lp.Maximize})
	run("grid20", &Problem{N: 400, Cost: binaryUniform(400), Pairs: gridPairs(20, eps), Sense: lp.Maximize})
}

// greedySpanner: pairs by increasing distance; add (a,b) when the spanner distance exceeds δ·d.
func greedySpanner(n int, d func(a, b int) float64, delta float64) [][2]int {
	type pr struct {
		a, b int
		d    float64
	}
	var all []pr
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			all = append(all, pr{a, b, d(a, b)})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].d < all[j].d })
	adj := make([][]int, n)
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	var out [][2]int
	for _, q := range all {
		// bounded Dijkstra from q.a
		lim := delta * q.d
		touched := []int{q.a}
		dist[q.a] = 0
		h := &distHeap{}
		h.push(0, q.a)
		found := false
		for h.len() > 0 {
			dd, u := h.pop()
			if dd > dist[u] {
				continue
			}
			if u == q.b {
				found = dd <= lim*(1+1e-12)
				break
			}
			for _, v := range adj[u] {
				nd := dd + d(u, v)
				if nd <= lim*(1+1e-12) && nd < dist[v] {
					if math.IsInf(dist[v], 1) {
						touched = append(touched, v)
					}
					dist[v] = nd
					h.push(nd, v)
				}
			}
		}
		for _, u := range touched {
			dist[u] = math.Inf(1)
		}
		if !found {
			adj[q.a] = append(adj[q.a], q.b)
			adj[q.b] = append(adj[q.b], q.a)
			out = append(out, [2]int{q.a, q.b})
		}
	}
	return out
}

func TestGeo(t *testing.T) {
	spec := os.Getenv("CONELP_GEO")
	if spec == "" {
		t.Skip()
	}
	var side int
	var eps, delta float64
	fmt.Sscanf(spec, "%d,%g,%g", &side, &eps, &delta)
	p := geoProblem(side, eps)
	if delta >= 1 {
		dist := func(a, b int) float64 {
			return math.Hypot(float64(a%side-b%side), float64(a/side-b/side))
		}
		sp := greedySpanner(side*side, dist, delta)
		p.Pairs = p.Pairs[:0]
		for _, e := range sp {
			p.Pairs = append(p.Pairs, Pair{e[0], e[1], eps / delta * dist(e[0], e[1])})
		}
	}
	debugf = func(f string, a ...any) {
		if os.Getenv("CONELP_ROUNDS") == "v" {
			t.Logf(f, a...)
		}
	}
	defer func() { debugf = nil }()
	t0 := time.Now()
	c0 := cpuTime()
	r, err := Solve(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("geo %s (%d pairs): %v obj %.12f bound %.12f res %.2g %.2g rounds %d iters %d cols %d in %v (cpu %v)", spec, len(p.Pairs), r.Status, r.Objective, r.Bound, r.PrimalResidual, r.DualResidual, r.Rounds, r.Iterations, r.Columns, time.Since(t0), cpuTime()-c0)
}
