package exact

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/exact/ratlp"
	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/mechanism"
	"gonum.org/v1/gonum/mat"
)

// checkCertificate proves the answer optimal without the program the package builds: from the
// graph (or the metric's constrained pairs, listed by the caller) it checks that the mechanism
// is a channel satisfying every privacy constraint, that every price names a real
// constraint with the right factor and sign, that every reduced cost has its sign, and that
// the dual bound Σ_y μ_y equals the utility. Weak duality then makes the utility optimal:
// for any private mechanism H', Σ π g H' ≤ Σ_y μ_y Σ_w H'[y][w] − Σ λ·(slack of H') ≤ Σ μ.
func checkCertificate(t *testing.T, name string, pairs map[[2]int]*big.Rat, prior Vector, gain *Matrix, loss bool, res *OptimalResult) {
	t.Helper()
	H := res.Mechanism
	n, w := H.Rows, H.Cols
	if err := ValidateChannel(name+" mechanism", H); err != nil {
		t.Fatal(err)
	}
	for pr, f := range pairs {
		for z := 0; z < w; z++ {
			a, b := H.At(pr[0], z), H.At(pr[1], z)
			if new(big.Rat).Mul(f, b).Cmp(a) < 0 || new(big.Rat).Mul(f, a).Cmp(b) < 0 {
				t.Fatalf("%s: H[%d][%d] = %s and H[%d][%d] = %s break the factor %s", name, pr[0], z, a.RatString(), pr[1], z, b.RatString(), f.RatString())
			}
		}
	}
	// reduced[y][z] = π_y g[z][y] − μ_y − Σ prices·coefficients
	reduced := make([]*big.Rat, n*w)
	for y := 0; y < n; y++ {
		for z := 0; z < w; z++ {
			c := new(big.Rat)
			switch {
			case gain != nil:
				c.Mul(prior[y], gain.At(z, y))
			case y == z:
				c.Set(prior[y])
			}
			reduced[y*w+z] = c.Sub(c, res.Certificate.RowSums[y])
		}
	}
	for _, p := range res.Certificate.Privacy {
		f, ok := pairs[[2]int{min(p.From, p.To), max(p.From, p.To)}]
		if !ok || f.Cmp(p.Factor) != 0 {
			t.Fatalf("%s: a price on a constraint that does not exist: %+v", name, p)
		}
		// An equality (points at distance 0, factor 1) takes a price of either sign.
		if f.Cmp(one) != 0 && ((!loss && p.Price.Sign() < 0) || (loss && p.Price.Sign() > 0)) {
			t.Fatalf("%s: price %s of the wrong sign", name, p.Price.RatString())
		}
		r := reduced[p.From*w+p.Output]
		r.Sub(r, p.Price)
		r = reduced[p.To*w+p.Output]
		r.Add(r, new(big.Rat).Mul(p.Price, p.Factor))
	}
	for k, r := range reduced {
		if (!loss && r.Sign() > 0) || (loss && r.Sign() < 0) {
			t.Fatalf("%s: reduced cost of H[%d][%d] is %s", name, k/w, k%w, r.RatString())
		}
	}
	bound := new(big.Rat)
	for _, m := range res.Certificate.RowSums {
		bound.Add(bound, m)
	}
	if bound.Cmp(res.Utility) != 0 || !res.Certified {
		t.Fatalf("%s: dual bound %s, utility %s", name, bound.RatString(), res.Utility.RatString())
	}
}

func graphPairs(g *graph.Graph, e *big.Rat) map[[2]int]*big.Rat {
	m := map[[2]int]*big.Rat{}
	for _, ed := range g.Edges() {
		m[[2]int{ed.A, ed.B}] = e
	}
	return m
}

func uniformVec(n int) Vector {
	v := make(Vector, n)
	for i := range v {
		v[i] = big.NewRat(1, int64(n))
	}
	return v
}

// Table 1 of Alvim et al. (ICALP 2011): six cities, every two answers adjacent (a clique),
// ε = ln 2, binary gain. Uniform prior: 2/7, the utility of the paper's M2, which Theorem 6.2
// proves optimal (1/Σ_d n_d e^{−εd} = 1/(1 + 5/2)). Non-uniform prior p(A) = p(F) = 1/10,
// others 1/5: 8/25, derived by hand — feasible: output only B..E, column z with 2/5 at row z,
// 1/5 at the other three of B..E and 1/4 at A and F, utility 4·(1/5)(2/5); optimal: the four
// rows B..E of any ε-DP column hold its largest entry M_z once and at least M_z/2 three times,
// so 4 ≥ (5/2)·Σ_z M_z, and U ≤ (1/5)·Σ_z M_z ≤ 8/25.
func TestOptimalTable1(t *testing.T) {
	k6, _ := graph.Clique(6)
	two := MustParse("2")
	for _, c := range []struct {
		prior Vector
		want  string
	}{
		{nil, "2/7"},
		{vec("1/10", "1/5", "1/5", "1/5", "1/5", "1/10"), "8/25"},
	} {
		res, err := OptimalMechanism(MechanismSpec{Graph: k6, ExpEpsilon: two, Prior: c.prior})
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "Table 1 optimum", res.Utility, c.want)
		prior := c.prior
		if prior == nil {
			prior = uniformVec(6)
		}
		checkCertificate(t, "Table 1 "+c.want, graphPairs(k6, two), prior, nil, false, res)
		t.Logf("%s: %d float iterations, %d exact pivots", c.want, res.FloatIterations, res.Pivots)
	}
}

// Path 10, clique 10 and the 4×4 grid for ε = ln 2: certified, with the closed form on the
// clique (distance-regular: 1/(1 + 9/2) = 2/11) and the floating-point optimum elsewhere.
func TestOptimalGraphs(t *testing.T) {
	two := MustParse("2")
	p10, _ := graph.Path(10)
	k10, _ := graph.Clique(10)
	g4, _ := graph.Grid(4, 4)
	for _, c := range []struct {
		name string
		g    *graph.Graph
		want string
	}{{"path 10", p10, ""}, {"clique 10", k10, "2/11"}, {"grid 4", g4, ""}} {
		res, err := OptimalMechanism(MechanismSpec{Graph: c.g, ExpEpsilon: two})
		if err != nil {
			t.Fatal(c.name, err)
		}
		checkCertificate(t, c.name, graphPairs(c.g, two), uniformVec(c.g.N), nil, false, res)
		if c.want != "" {
			equal(t, c.name, res.Utility, c.want)
		}
		fl, err := mechanism.OptimalLP(mechanism.LPSpec{Graph: c.g, Epsilon: math.Ln2, ForceLP: true})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(float(res.Utility)-fl.Utility) > 1e-9 {
			t.Errorf("%s: exact %s, floating point %v", c.name, res.Utility.RatString(), fl.Utility)
		}
		t.Logf("%s: %s, %d float iterations, %d exact pivots, %d repaired", c.name, res.Utility.RatString(), res.FloatIterations, res.Pivots, res.Repaired)
	}
}

// Random gains, losses, priors and metrics on small instances: certified, and equal to the
// floating-point optimum.
func TestOptimalRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 30; trial++ {
		n := 2 + rng.IntN(4)
		e := big.NewRat(int64(3+rng.IntN(5)), 2)
		prior := randomDistribution(rng, n, 9, trial%3 == 0)
		spec := MechanismSpec{ExpEpsilon: e, Prior: prior}
		fspec := mechanism.LPSpec{Epsilon: math.Log(float(e)), Prior: prior.Floats(), ForceLP: true}
		var pairs map[[2]int]*big.Rat
		if trial%2 == 0 {
			g, _ := graph.Path(n)
			if trial%4 == 0 {
				g, _ = graph.Cycle(max(n, 3))
				n = g.N
				prior = randomDistribution(rng, n, 9, false)
				spec.Prior, fspec.Prior = prior, prior.Floats()
			}
			spec.Graph, fspec.Graph = g, g
			pairs = graphPairs(g, e)
		} else {
			// Integer points on a line, some coinciding (distance 0: equal rows).
			pos := make([]int64, n)
			for i := range pos {
				pos[i] = rng.Int64N(4)
			}
			d := NewMatrix(n, n)
			fd := mat.NewDense(n, n, nil)
			pairs = map[[2]int]*big.Rat{}
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					v := pos[a] - pos[b]
					if v < 0 {
						v = -v
					}
					d.Data[a*n+b].SetInt64(v)
					fd.Set(a, b, float64(v))
					if a < b {
						// Every pair: the constraints the program drops follow from the others,
						// so the certificate's mechanism must satisfy them all.
						pairs[[2]int{a, b}] = new(big.Rat).SetFrac(new(big.Int).Exp(e.Num(), big.NewInt(v), nil), new(big.Int).Exp(e.Denom(), big.NewInt(v), nil))
					}
				}
			}
			spec.Metric, fspec.Metric = d, fd
		}
		w := n
		var score *Matrix
		switch trial % 3 {
		case 1:
			w = 1 + rng.IntN(4)
			score = randomGain(rng, w, n)
			spec.Gain = score
			fspec.Gain = dense(score)
		case 2:
			w = 1 + rng.IntN(4)
			score = randomGain(rng, w, n)
			spec.Loss = score
			fspec.Loss = dense(score)
		}
		res, err := OptimalMechanism(spec)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		// Privacy is checked on every pair: the pairs a metric program drops are implied.
		checkCertificate(t, "random", pairs, prior, score, spec.Loss != nil, res)
		fl, err := mechanism.OptimalLP(fspec)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(float(res.Utility)-fl.Objective) > 1e-8*(1+math.Abs(fl.Objective)) {
			t.Errorf("trial %d: exact %s = %v, floating point %v", trial, res.Utility.RatString(), float(res.Utility), fl.Objective)
		}
	}
}

// Extremes: a huge e^ε (ε = 40·ln 2), a tiny ε, e^{ε·d} with a rational distance, and an
// ε·d of about 700 nats.
func TestOptimalExtremes(t *testing.T) {
	p5, _ := graph.Path(5)
	for _, e := range []string{"1099511627776", "1000001/1000000"} {
		ee := MustParse(e)
		res, err := OptimalMechanism(MechanismSpec{Graph: p5, ExpEpsilon: ee})
		if err != nil {
			t.Fatal(e, err)
		}
		checkCertificate(t, "e^ε = "+e, graphPairs(p5, ee), uniformVec(5), nil, false, res)
	}
	// d = 1/2 with e^ε = 4: factor 2, the clique's answer for e^ε = 2 (2/7 on six points).
	d := NewMatrix(6, 6)
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			if a != b {
				d.Data[a*6+b].SetFrac64(1, 2)
			}
		}
	}
	res, err := OptimalMechanism(MechanismSpec{Metric: d, ExpEpsilon: MustParse("4")})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "half distances", res.Utility, "2/7")
	// Line metric with distances up to 1000 and e^ε = 2 (ε·d ≈ 693 nats): the factors reach
	// 2^1000; the answer is that of the path with e^ε = 2^250 on four points 250 apart.
	line := NewMatrix(5, 5)
	for a := 0; a < 5; a++ {
		for b := 0; b < 5; b++ {
			line.Data[a*5+b].SetInt64(int64(250 * abs(a-b)))
		}
	}
	big1, err := OptimalMechanism(MechanismSpec{Metric: line, ExpEpsilon: MustParse("2")})
	if err != nil {
		t.Fatal(err)
	}
	e250 := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 250))
	big2, err := OptimalMechanism(MechanismSpec{Graph: p5, ExpEpsilon: e250})
	if err != nil {
		t.Fatal(err)
	}
	if big1.Utility.Cmp(big2.Utility) != 0 {
		t.Errorf("line metric %s, path %s", big1.Utility.RatString(), big2.Utility.RatString())
	}
	checkCertificate(t, "ε·d ≈ 700", graphPairs(p5, e250), uniformVec(5), nil, false, big2)
}

func TestOptimalErrors(t *testing.T) {
	k3, _ := graph.Clique(3)
	k50, _ := graph.Clique(50)
	asym := mtx(row("0", "1"), row("2", "0"))
	third := mtx(row("0", "1/3"), row("1/3", "0"))
	for _, c := range []struct {
		spec MechanismSpec
		msg  string
	}{
		{MechanismSpec{Graph: k3}, "expEpsilon: missing"},
		{MechanismSpec{Graph: k3, ExpEpsilon: MustParse("1")}, "greater than 1"},
		{MechanismSpec{ExpEpsilon: MustParse("2")}, "one of them is required"},
		{MechanismSpec{Graph: k3, Metric: asym, ExpEpsilon: MustParse("2")}, "not both"},
		{MechanismSpec{Metric: asym, ExpEpsilon: MustParse("2")}, "not symmetric"},
		{MechanismSpec{Metric: third, ExpEpsilon: MustParse("2")}, "not rational"},
		{MechanismSpec{Graph: k50, ExpEpsilon: MustParse("2")}, "limit"},
		{MechanismSpec{Graph: k3, ExpEpsilon: MustParse("2"), Prior: vec("1/2", "1/2")}, "prior: has 2 entries"},
		{MechanismSpec{Graph: k3, ExpEpsilon: MustParse("2"), Prior: vec("1/2", "1/4", "1/8")}, "sums to 7/8"},
		{MechanismSpec{Graph: k3, ExpEpsilon: MustParse("2"), Gain: mtx(row("1", "0"))}, "gain: has 2 columns"},
		{MechanismSpec{Graph: k3, ExpEpsilon: MustParse("2"), Gain: mtx(row("1", "0", "0")), Loss: mtx(row("1", "0", "0"))}, "not both"},
	} {
		if _, err := OptimalMechanism(c.spec); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("error %v, want %q", err, c.msg)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g4, _ := graph.Grid(4, 4)
	if _, err := OptimalMechanism(MechanismSpec{Graph: g4, ExpEpsilon: MustParse("2"), Context: ctx}); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("cancelled: %v", err)
	}
	calls := 0
	if _, err := OptimalMechanism(MechanismSpec{Graph: g4, ExpEpsilon: MustParse("2"), Progress: func(MechanismProgress) bool { calls++; return false }}); err == nil || !strings.Contains(err.Error(), "cancelled") || calls != 1 {
		t.Errorf("progress false: %v after %d calls", err, calls)
	}
	// Each stage starts with a report, even where neither reports on its own (Table 1 of Alvim et
	// al. (ICALP 2011): a short floating-point solve and no exact pivot), so that a caller can
	// cancel between them.
	k6, _ := graph.Clique(6)
	var stages []string
	if _, err := OptimalMechanism(MechanismSpec{Graph: k6, ExpEpsilon: MustParse("2"), Progress: func(p MechanismProgress) bool {
		stages = append(stages, p.Stage)
		return true
	}}); err != nil || strings.Join(stages, ", ") != "floating point, exact" {
		t.Errorf("stages %q, %v", stages, err)
	}
	stages = nil
	if _, err := OptimalMechanism(MechanismSpec{Graph: k6, ExpEpsilon: MustParse("2"), Progress: func(p MechanismProgress) bool {
		stages = append(stages, p.Stage)
		return p.Stage != "exact"
	}}); err == nil || !strings.Contains(err.Error(), "cancelled before the exact pivots") || len(stages) != 2 {
		t.Errorf("cancel at the exact stage: %v after %q", err, stages)
	}
}

// The exact pivots reach the same certified optimum from bases other than the floating-point
// solver's: the slack basis, and the optimal basis of a program with another e^ε.
func TestOptimalFromOtherBases(t *testing.T) {
	for _, c := range []struct {
		name string
		g    func() (*graph.Graph, error)
		want string
	}{{"clique 6", func() (*graph.Graph, error) { return graph.Clique(6) }, "2/7"}, {"path 6", func() (*graph.Graph, error) { return graph.Path(6) }, ""}} {
		g, _ := c.g()
		spec := MechanismSpec{Graph: g, ExpEpsilon: MustParse("2")}
		ref, err := OptimalMechanism(spec)
		if err != nil {
			t.Fatal(err)
		}
		pairs, _ := exactPairs(&spec, g.N)
		p, _ := mechanismProgram(&spec, uniformVec(g.N), pairs, g.N, g.N)
		other := MechanismSpec{Graph: g, ExpEpsilon: MustParse("5/2")}
		otherPairs, _ := exactPairs(&other, g.N)
		q, _ := mechanismProgram(&other, uniformVec(g.N), otherPairs, g.N, g.N)
		qres, err := ratlp.Solve(q, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, start := range []*ratlp.Basis{nil, &qres.Basis} {
			res, err := ratlp.Solve(p, start, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s from %v: %d pivots", c.name, start != nil, res.Pivots)
			if res.Objective.Cmp(ref.Utility) != 0 || (start == nil && res.Pivots == 0) {
				t.Errorf("%s: %s after %d pivots, want %s", c.name, res.Objective.RatString(), res.Pivots, ref.Utility.RatString())
			}
		}
		if c.want != "" {
			equal(t, c.name, ref.Utility, c.want)
		}
	}
}

// At e^ε = 1e300 the floating-point solve of the clique breaks down (its state overflows) and
// returns a basis it cannot vouch for; the exact pivots still reach the optimum, which on the
// clique of n answers with the uniform prior is a/(a+n−1) for a = e^ε (every used column holds
// its maximum once and at least max/a in the other n−1 rows, so Σ_z max_z ≤ n·a/(a+n−1); M2 of
// Alvim et al. (ICALP 2011) attains it).
func TestOptimalHugeExpEpsilon(t *testing.T) {
	k6, _ := graph.Clique(6)
	for _, e := range []string{"1e10", "1e300"} {
		a := MustParse(e)
		r, err := OptimalMechanism(MechanismSpec{Graph: k6, ExpEpsilon: a})
		if err != nil {
			t.Fatal(err)
		}
		want := new(big.Rat).Quo(a, new(big.Rat).Add(a, big.NewRat(5, 1)))
		if r.Utility.Cmp(want) != 0 || !r.Certified {
			t.Errorf("e^ε = %s: utility %s, want a/(a+5)", e, r.Utility.RatString())
		}
	}
}

// Large factors on a metric: the 4×4 and 2×4 grids of points with three times the Manhattan
// distance and e^ε = 1000, so that neighbours are bound by 10^9 and the optimal mechanism has
// entries of 10^−9, 10^−18, … down to 10^−54, which one floating-point solve takes for zero —
// its basis needed 228 exact pivots (7–14 s) on the 4×4 grid. Iterative refinement
// (ratlp.RefinedStart) resolves those scales in floating point. The answer is checked by
// checkCertificate against every pair of points (not only the pairs the program keeps), with
// the factor 1000^d computed here.
func TestOptimalLargeFactorsOnAGrid(t *testing.T) {
	grid := func(rows, cols int) (*Matrix, map[[2]int]*big.Rat) {
		n := rows * cols
		d := &Matrix{Rows: n, Cols: n, Data: make([]*big.Rat, n*n)}
		pairs := map[[2]int]*big.Rat{}
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				m := abs(a/cols-b/cols) + abs(a%cols-b%cols)
				d.Data[a*n+b] = big.NewRat(int64(3*m), 1)
				if a < b {
					pairs[[2]int{a, b}] = new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(1000), big.NewInt(int64(3*m)), nil))
				}
			}
		}
		return d, pairs
	}
	for _, sz := range [][2]int{{2, 4}, {4, 4}} {
		d, pairs := grid(sz[0], sz[1])
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := OptimalMechanism(MechanismSpec{Metric: d, ExpEpsilon: big.NewRat(1000, 1), Context: ctx})
		cancel()
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		checkCertificate(t, fmt.Sprintf("grid %v", sz), pairs, uniformVec(d.Rows), nil, false, res)
		t.Logf("grid %v: %d float iterations in %d correction rounds, %d exact pivots, utility 1 − %s", sz, res.FloatIterations, res.Rounds, res.Pivots, new(big.Rat).Sub(big.NewRat(1, 1), res.Utility).FloatString(30))
	}
}
