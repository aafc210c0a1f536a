package conelp

import (
	"flag"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/lp"
)

// hotSpots is a prior on a side×side grid with three bumps over a floor, like a city's density.
func hotSpots(side int) []float64 {
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
	return prior
}

// geoProblem is location privacy on a side×side grid: Euclidean distance between cells as the
// loss, ε per unit of distance, the hot-spot prior, constraints on every pair with no cell
// strictly between (gcd(dx, dy) = 1: the others follow from them).
func geoProblem(side int, eps float64) *Problem {
	n := side * side
	prior := hotSpots(side)
	dist := func(a, b int) float64 { return math.Hypot(float64(a%side-b%side), float64(a/side-b/side)) }
	gcd := func(a, b int) int {
		a, b = max(a, -a), max(b, -b)
		for b != 0 {
			a, b = b, a%b
		}
		return a
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

// benchLimit stops a benchmark program (the 20×20 and 30×30 maps can take minutes); a program
// stopped there is logged with its gap, not failed.
var benchLimit = flag.Duration("conelp.limit", time.Minute, "time limit of each BenchmarkSolve program")

// benchDesign switches the decomposition's designs for comparisons in one binary: a comma-
// separated list of "-auto" (the fixed smoothing weight), "+plateaus" (plateau columns at
// the start), "+truncate" (pricings stopped after 16 phases between exact rounds) and
// "+fullpricing" (output generation prices every output every round) and "-joinpairs" (no
// pairs activated from a joining output's priced point).
var benchDesign = flag.String("conelp.design", "", "designs to switch: -auto,+plateaus,+truncate,+fullpricing,-joinpairs")

// parseDesign reads a list of designs to switch (see benchDesign) into a design.
func parseDesign(tb testing.TB, designs string) design {
	var out design
	for _, d := range strings.Split(designs, ",") {
		switch d {
		case "":
		case "-auto":
			out.fixedSmoothing = true
		case "+plateaus":
			out.plateaus = true
		case "+truncate":
			out.truncatePhases = 16
		case "+fullpricing":
			out.fullPricing = true
		case "-joinpairs":
			out.noJoinPairs = true
		default:
			tb.Fatalf("unknown design %q", d)
		}
	}
	return out
}

// benchProgram is a named program of BenchmarkSolve (built when it runs: the spanners of the
// large maps take a while).
type benchProgram struct {
	name string
	p    func() *Problem
}

// benchPrograms lists the programs of BenchmarkSolve, which TestTrace looks up by name.
func benchPrograms() []benchProgram {
	eps := math.Ln2
	clique := func(n int) []Pair {
		var p []Pair
		for a := 0; a < n; a++ {
			for c := a + 1; c < n; c++ {
				p = append(p, Pair{a, c, eps})
			}
		}
		return p
	}
	path := func(n int) []Pair {
		var p []Pair
		for a := 0; a+1 < n; a++ {
			p = append(p, Pair{a, a + 1, eps})
		}
		return p
	}
	hot := func(side int) *Problem {
		prior := hotSpots(side)
		c := make([][]float64, side*side)
		for w := range c {
			c[w] = make([]float64, side*side)
			c[w][w] = prior[w]
		}
		return &Problem{N: side * side, Cost: c, Pairs: gridPairs(side, eps), Sense: lp.Maximize}
	}
	return []benchProgram{
		{"grid10", func() *Problem {
			return &Problem{N: 100, Cost: binaryUniform(100), Pairs: gridPairs(10, eps), Sense: lp.Maximize}
		}},
		{"grid20", func() *Problem {
			return &Problem{N: 400, Cost: binaryUniform(400), Pairs: gridPairs(20, eps), Sense: lp.Maximize}
		}},
		{"clique80", func() *Problem {
			return &Problem{N: 80, Cost: binaryUniform(80), Pairs: clique(80), Sense: lp.Maximize}
		}},
		{"path200", func() *Problem {
			return &Problem{N: 200, Cost: binaryUniform(200), Pairs: path(200), Sense: lp.Maximize}
		}},
		{"grid10-hotspots", func() *Problem { return hot(10) }},
		{"path200-random-prior", func() *Problem { return randomPriorPath(200) }},
		{"geo6", func() *Problem { return geoProblem(6, 0.5) }},
		{"geo6-decomposition", func() *Problem { return decompositionOnly(geoProblem(6, 0.5)) }},
		{"geo6-allpairs", func() *Problem { return allPairs(geoProblem(6, 0.5)) }},
		{"geo7", func() *Problem { return geoProblem(7, 0.5) }},
		{"geo7-decomposition", func() *Problem { return decompositionOnly(geoProblem(7, 0.5)) }},
		{"geo7-allpairs", func() *Problem { return allPairs(geoProblem(7, 0.5)) }},
		{"geo8", func() *Problem { return geoProblem(8, 0.5) }},
		{"geo8-decomposition", func() *Problem { return decompositionOnly(geoProblem(8, 0.5)) }},
		{"geo10", func() *Problem { return geoProblem(10, 0.5) }},
		{"geo10-decomposition", func() *Problem { return decompositionOnly(geoProblem(10, 0.5)) }},
		{"geo6u", func() *Problem { return uniformPrior(geoProblem(6, 0.5), 6) }},
		{"geo6e1", func() *Problem { return geoProblem(6, 1) }},
		{"geo7u", func() *Problem { return uniformPrior(geoProblem(7, 0.5), 7) }},
		{"geo7e1", func() *Problem { return geoProblem(7, 1) }},
		{"geo7ue1", func() *Problem { return uniformPrior(geoProblem(7, 1), 7) }},
		{"geo10u", func() *Problem { return uniformPrior(geoProblem(10, 0.5), 10) }},
		{"geo10e1", func() *Problem { return geoProblem(10, 1) }},
		{"geo20s1.1", func() *Problem { return geoSpanner(20, 0.5, 1.1) }},
		{"geo30s1.1", func() *Problem { return geoSpanner(30, 0.5, 1.1) }},
	}
}

// BenchmarkSolve: go test ./core/conelp -bench Solve -benchtime 1x (bench/lp/bench.mjs compares
// the same programs with HiGHS in WebAssembly).
func BenchmarkSolve(b *testing.B) {
	d := parseDesign(b, *benchDesign)
	for _, c := range benchPrograms() {
		b.Run(c.name, func(b *testing.B) {
			p := c.p()
			p.design = d
			var r *Result
			cpu0 := cpuSeconds()
			for b.Loop() {
				var err error
				if r, err = Solve(p, &lp.Options{TimeLimit: *benchLimit}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
			switch r.Status {
			case lp.Optimal:
			case lp.TimeLimit:
				b.Logf("stopped at the time limit: objective %.12g, bound %.12g (gap %.3g)", r.Objective, r.Bound, math.Abs(r.Bound-r.Objective))
			default:
				b.Fatalf("%v", r.Status)
			}
			b.ReportMetric(math.Abs(r.Bound-r.Objective), "gap")
			b.ReportMetric(float64(r.Rounds), "rounds")
			b.ReportMetric(float64(r.Iterations), "pivots")
			b.ReportMetric(float64(r.Pairs), "pairs")
		})
	}
}

// decompositionOnly turns output generation off.
func decompositionOnly(p *Problem) *Problem {
	p.NoOutputs = true
	return p
}

// geoSpanner is geoProblem with the constraints only on the edges of the greedy δ-spanner of
// the cells, with ε/δ (Bordenabe, Chatzikokolakis and Palamidessi, CCS 2014), as
// mechanism.OptimalLP states it with LPSpec.Spanner and bench/lp/bench.mjs as geo<side>s<δ>.
func geoSpanner(side int, eps, delta float64) *Problem {
	p := geoProblem(side, eps)
	n := p.N
	d := make([][]float64, n)
	for a := range d {
		d[a] = make([]float64, n)
		for b := range d[a] {
			d[a][b] = math.Hypot(float64(a%side-b%side), float64(a/side-b/side))
		}
	}
	edges, _ := graph.GreedySpanner(d, delta)
	p.FewOutputs = true
	p.Pairs = p.Pairs[:0]
	for _, e := range edges {
		p.Pairs = append(p.Pairs, Pair{e[0], e[1], eps / delta * d[e[0]][e[1]]})
	}
	return p
}

// uniformPrior replaces the hot-spot prior of a side×side geo map by the uniform one (the
// loss stays the expected distance).
func uniformPrior(p *Problem, side int) *Problem {
	for w := range p.Cost {
		for y := range p.Cost[w] {
			p.Cost[w][y] = math.Hypot(float64(w%side-y%side), float64(w/side-y/side)) / float64(p.N)
		}
	}
	return p
}

// allPairs turns pair generation off: the pricing uses every pair from the first round.
func allPairs(p *Problem) *Problem {
	p.AllPairs = true
	return p
}

// randomPriorPath is the path on n answers with ε = 0.5, the binary gain and a random prior
// (fixed seed).
func randomPriorPath(n int) *Problem {
	rng := rand.New(rand.NewPCG(1, 2))
	prior := make([]float64, n)
	s := 0.0
	for i := range prior {
		prior[i] = 0.05 + rng.Float64()
		s += prior[i]
	}
	c := make([][]float64, n)
	for w := range c {
		c[w] = make([]float64, n)
		c[w][w] = prior[w] / s
	}
	var pairs []Pair
	for a := 0; a+1 < n; a++ {
		pairs = append(pairs, Pair{a, a + 1, 0.5})
	}
	return &Problem{N: n, Cost: c, Pairs: pairs, Sense: lp.Maximize}
}
