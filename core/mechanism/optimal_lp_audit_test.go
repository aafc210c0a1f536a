package mechanism

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// The audit below checks OptimalLP the way an outside auditor would, on random cases up to the
// extremes (ε = 40, ε·d = 700): the mechanism is a channel, the toolkit's own ε functions find
// it private (no tolerance), it does at least as well as randomized response (a private
// mechanism), and it is optimal — proved by weak duality in exact rational arithmetic from the
// solver's dual solution, over a program stated here (every pair of the graph or every pair
// of the metric, not the solver's pruned list), with negative multipliers replaced by 0 and
// each row dual raised until every dual constraint holds, so that no rounding of the solver
// or of the check can make the bound too small.

// auditConstraint is coef·H[x][z] ≤ H[t][z] for every output z.
type auditConstraint struct {
	x, t int
	coef float64
}

// auditConstraints states every privacy constraint of spec: both directions of every edge
// (factor e^{−ε}) or of every pair at finite distance (e^{−εd}; pairs at distance 0 give
// coefficient 1 both ways, i.e. equal rows).
func auditConstraints(spec LPSpec, n int) []auditConstraint {
	var out []auditConstraint
	add := func(a, b int, ed float64) {
		c := math.Exp(-ed)
		out = append(out, auditConstraint{a, b, c}, auditConstraint{b, a, c})
	}
	if spec.Graph != nil {
		for a := 0; a < n; a++ {
			for _, b := range spec.Graph.Adj[a] {
				if a < b {
					add(a, b, spec.Epsilon)
				}
			}
		}
		return out
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			if d := spec.Metric.At(a, b); !math.IsInf(d, 1) {
				add(a, b, spec.Epsilon*d)
			}
		}
	}
	return out
}

// certifiedBound returns an upper bound, exact in rationals, on Σ c[y][z]·H[y][z] over every
// row-stochastic H ≥ 0 that satisfies cons, from multipliers u (one per row sum) and v (keyed
// by constraint and output; missing or negative ones count as 0). For such H,
// c·H = Σ_y u_y + Σ v·(coef·H[x][z] − H[t][z]) + Σ H·red ≤ Σ_y u_y + Σ_y max(0, max_z red[y][z])
// with red = c − u − Σ v·a, because the middle sum is ≤ 0 and each row of H sums to 1.
func certifiedBound(c [][]float64, cons []auditConstraint, u []float64, v map[[3]int]float64) *big.Rat {
	n, w := len(c), len(c[0])
	red := make([][]*big.Rat, n)
	for y := range red {
		red[y] = make([]*big.Rat, w)
		for z := range red[y] {
			r := new(big.Rat).SetFloat64(c[y][z])
			red[y][z] = r.Sub(r, new(big.Rat).SetFloat64(u[y]))
		}
	}
	tmp := new(big.Rat)
	for _, k := range cons {
		for z := 0; z < w; z++ {
			m := v[[3]int{k.x, k.t, z}]
			if !(m > 0) {
				continue
			}
			mr := new(big.Rat).SetFloat64(m)
			red[k.x][z].Sub(red[k.x][z], tmp.Mul(mr, new(big.Rat).SetFloat64(k.coef)))
			red[k.t][z].Add(red[k.t][z], mr)
		}
	}
	bound := new(big.Rat)
	for y := 0; y < n; y++ {
		bound.Add(bound, new(big.Rat).SetFloat64(u[y]))
		worst := new(big.Rat)
		for z := 0; z < w; z++ {
			if red[y][z].Cmp(worst) > 0 {
				worst = red[y][z]
			}
		}
		bound.Add(bound, worst)
	}
	return bound
}

// auditUtility is Σ_z max_w Σ_y π_y g(w, y) H[y][z] (gain) or Σ_z min_w Σ_y π_y ℓ(w, y) H[y][z]
// (loss), with g the identity when both are nil: the best guess for each output.
func auditUtility(prior []float64, h *mat.Dense, gain, loss *mat.Dense) float64 {
	n, m := h.Dims()
	score, sign := gain, 1.0
	if loss != nil {
		score, sign = loss, -1
	}
	total := 0.0
	for z := 0; z < m; z++ {
		best := math.Inf(-1)
		guesses := n
		if score != nil {
			guesses, _ = score.Dims()
		}
		for w := 0; w < guesses; w++ {
			s := 0.0
			for y := 0; y < n; y++ {
				g := 0.0
				switch {
				case score != nil:
					g = score.At(w, y)
				case w == y:
					g = 1
				}
				s += prior[y] * g * h.At(y, z)
			}
			best = math.Max(best, sign*s)
		}
		total += best
	}
	return sign * total
}

func auditGraph(rng *rand.Rand, n int) *graph.Graph {
	for {
		var edges []graph.Edge
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				if rng.Float64() < 0.45 {
					edges = append(edges, graph.Edge{A: a, B: b})
				}
			}
		}
		if g, err := graph.New(n, edges); err == nil && g.Connected() {
			return g
		}
	}
}

func auditScore(rng *rand.Rand, n int) *mat.Dense {
	w := 2 + rng.IntN(5)
	s := mat.NewDense(w, n, nil)
	for i := 0; i < w; i++ {
		for j := 0; j < n; j++ {
			s.Set(i, j, math.Round(100*rng.Float64())/100)
		}
	}
	return s
}

// auditCases draws random connected graphs of 4–6 vertices at ε ∈ {0.1, 1, 5, 18, 20, 40} and
// Euclidean metrics on random points in the unit square with the largest ε·d at 1, 10, 50, 200
// and 700; random priors; the binary gain, a random gain or a random loss.
func auditCases(rng *rand.Rand, trials int) []LPSpec {
	var out []LPSpec
	for trial := 0; trial < trials; trial++ {
		n := 4 + rng.IntN(3)
		prior := randomPriorLP(rng, n)
		var gain, loss *mat.Dense
		switch trial % 3 {
		case 1:
			gain = auditScore(rng, n)
		case 2:
			loss = auditScore(rng, n)
		}
		g := auditGraph(rng, n)
		for _, eps := range []float64{0.1, 1, 5, 18, 20, 40} {
			out = append(out, LPSpec{Graph: g, Epsilon: eps, Prior: prior, Gain: gain, Loss: loss})
		}
		d := mat.NewDense(n, n, nil)
		pts := make([][2]float64, n)
		for i := range pts {
			pts[i] = [2]float64{rng.Float64(), rng.Float64()}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				d.Set(i, j, math.Hypot(pts[i][0]-pts[j][0], pts[i][1]-pts[j][1]))
			}
		}
		for _, ed := range []float64{1, 10, 50, 200, 700} {
			out = append(out, LPSpec{Metric: d, Epsilon: ed / mat.Max(d), Prior: prior, Gain: gain, Loss: loss})
		}
	}
	return out
}

// auditOne returns what is wrong with OptimalLP on spec ("" when nothing), the certified gap
// |optimum bound − utility| and the utility given up by the privacy repair. A gap above 1e−10
// is wrong.
func auditOne(spec LPSpec) (problem string, gap, givenUp float64) { return auditWithin(spec, 1e-10) }

// auditWithin is auditOne with the largest acceptable gap.
func auditWithin(spec LPSpec, maxGap float64) (problem string, gap, givenUp float64) {
	var n int
	if spec.Graph != nil {
		n = spec.Graph.N
	} else {
		n, _ = spec.Metric.Dims()
	}
	r, err := OptimalLP(spec)
	if err != nil {
		return "error: " + err.Error(), 0, 0
	}
	h := r.Mechanism
	if err := channel.Validate(h); err != nil {
		return "not a channel: " + err.Error(), 0, 0
	}
	var eps float64
	if spec.Graph != nil {
		eps, _, err = privacy.Epsilon(h, spec.Graph)
		if ok, _ := privacy.IsDP(h, spec.Graph, spec.Epsilon); !ok {
			return "IsDP is false", 0, 0
		}
	} else {
		eps, _, err = privacy.DPrivacyEpsilon(h, spec.Metric)
	}
	if err != nil || eps > spec.Epsilon {
		return "not private: ε = " + big.NewFloat(eps).String(), 0, 0
	}
	util := auditUtility(spec.Prior, h, spec.Gain, spec.Loss)
	if math.Abs(util-r.Utility) > 1e-12 {
		return "Utility differs from the best-guess utility", 0, 0
	}
	// Randomized response on the answers, private for every pair (for a metric at ε·d_min).
	edMin := spec.Epsilon
	if spec.Metric != nil {
		edMin = math.Inf(1)
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				edMin = math.Min(edMin, spec.Epsilon*spec.Metric.At(a, b))
			}
		}
	}
	rr, _ := RandomizedResponse(n, edMin, n)
	uRR := auditUtility(spec.Prior, rr, spec.Gain, spec.Loss)
	if spec.Loss == nil && util < uRR-1e-12 || spec.Loss != nil && util > uRR+1e-12 {
		return "worse than randomized response", 0, 0
	}
	// The certificate, in the maximized form: c = ±π_y·score(z, y).
	if r.dual == nil {
		return "no dual solution", 0, 0
	}
	_, m := h.Dims()
	c := make([][]float64, n)
	for y := range c {
		c[y] = make([]float64, m)
		for z := range c[y] {
			switch {
			case spec.Loss != nil:
				c[y][z] = -spec.Prior[y] * spec.Loss.At(z, y)
			case spec.Gain != nil:
				c[y][z] = spec.Prior[y] * spec.Gain.At(z, y)
			case y == z:
				c[y][z] = spec.Prior[y]
			}
		}
	}
	v := map[[3]int]float64{}
	for i, row := range r.rows {
		x, t, mult := row.x, row.t, r.dual.V[i]
		if row.eq && mult < 0 {
			x, t, mult = t, x, -mult
		}
		v[[3]int{x, t, row.z}] += mult
	}
	ub, _ := certifiedBound(c, auditConstraints(spec, n), r.dual.U, v).Float64()
	if spec.Loss != nil {
		util, r.Objective = -util, -r.Objective // maximized form, like ub
	}
	if util > ub+1e-12 {
		return "utility above the certified bound: the certificate is wrong", 0, 0
	}
	gap = ub - util
	if gap > maxGap {
		return "not optimal: certified bound " + big.NewFloat(ub).Text('g', 15) + ", utility " + big.NewFloat(util).Text('g', 15), gap, 0
	}
	return "", gap, r.Objective - util
}

func TestOptimalLPAudit(t *testing.T) {
	rng := rand.New(rand.NewPCG(2024, 12))
	cases := auditCases(rng, 60)
	wrong := 0
	maxGap, maxGivenUp := 0.0, 0.0
	for _, method := range []string{MethodDecomposition, MethodSimplex} {
		for i, spec := range cases {
			spec.Method = method
			problem, gap, givenUp := auditOne(spec)
			if problem != "" {
				wrong++
				kind := "graph"
				if spec.Metric != nil {
					kind = "metric"
				}
				t.Errorf("%s, case %d (%s, ε = %g, gain %v, loss %v): %s", method, i, kind, spec.Epsilon, spec.Gain != nil, spec.Loss != nil, problem)
				continue
			}
			maxGap, maxGivenUp = math.Max(maxGap, gap), math.Max(maxGivenUp, givenUp)
		}
	}
	t.Logf("%d of %d cases wrong (each by both methods); largest certified gap %.3g, largest utility given up by the repair %.3g", wrong, len(cases), maxGap, maxGivenUp)
}

// The cases an audit found wrong, each with an expected value computed independently.
func TestOptimalLPAuditedCases(t *testing.T) {
	g4, err := graph.New(4, []graph.Edge{{A: 0, B: 2}, {A: 0, B: 3}, {A: 1, B: 3}})
	if err != nil {
		t.Fatal(err)
	}
	p3 := lpMust(t)(graph.Path(3))
	p4 := lpMust(t)(graph.Path(4))
	zeroOne := mat.NewDense(3, 3, []float64{0, 1, 1, 1, 0, 1, 1, 1, 0})
	gain := mat.NewDense(3, 4, []float64{0.9, 1, 0, 1, 0.4, 0.6, 1, 0.1, 0, 0.5, 0.6, 1})
	alpha := math.Exp(-40)
	// On a path the truncated geometric mechanism with the best remap is optimal for every
	// prior and monotone loss (Ghosh, Roughgarden and Sundararajan, STOC 2009); with n = 3, the
	// uniform prior and α = e^{−ε} its utility is (1/3)(2/(1+α) + (1−α)/(1+α)) = (3−α)/(3(1+α)).
	tgUtility := (3 - alpha) / (3 * (1 + alpha))
	for _, c := range []struct {
		name string
		spec LPSpec
		want float64 // NaN: no closed form; the audit's certificate decides
	}{
		// Returned 0.8800 as optimal; randomized response reaches 0.99999999382.
		{"random graph, ε = 20", LPSpec{Graph: g4, Epsilon: 20, Prior: []float64{0.47, 0.12, 0.27, 0.14}}, math.NaN()},
		// Returned the constant mechanism (1/3) as optimal.
		{"path 3, ε = 40", LPSpec{Graph: p3, Epsilon: 40, ForceLP: true}, tgUtility},
		// Threw "iteration limit after 12 iterations".
		{"path 3, ε = 40, 0-1 loss", LPSpec{Graph: p3, Epsilon: 40, Loss: zeroOne}, 1 - tgUtility},
		// Right utility, but 5.55e-17 beside an exact 0: ε = ∞ for privacy.Epsilon.
		{"path 4, ε = 1, gain", LPSpec{Graph: p4, Epsilon: 1, Prior: []float64{0.59, 0.15, 0.22, 0.04}, Gain: gain}, math.NaN()},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.spec.Prior == nil {
				c.spec.Prior = uniformPrior(c.spec.Graph.N)
			}
			if problem, _, _ := auditOne(c.spec); problem != "" {
				t.Fatal(problem)
			}
			r, err := OptimalLP(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if !math.IsNaN(c.want) && math.Abs(r.Utility-c.want) > 1e-12 {
				t.Errorf("utility %.17g, want %.17g", r.Utility, c.want)
			}
			if r.Status != lp.Optimal || r.PrimalResidual > 1e-11 || r.DualResidual > 1e-11 {
				t.Errorf("status %v, residuals %g, %g", r.Status, r.PrimalResidual, r.DualResidual)
			}
		})
	}
	// The 0-1 loss at ε = 40 in numbers: the least expected loss is 4α/(3(1+α)) ≈ 5.66e−18, not 0.
	r, err := OptimalLP(LPSpec{Graph: p3, Epsilon: 40, Loss: zeroOne})
	if err != nil || r.Utility <= 0 || math.Abs(r.Utility-4*alpha/(3*(1+alpha))) > 1e-20 {
		t.Errorf("0-1 loss at ε = 40: %v (%v), want %v", r.Utility, err, 4*alpha/(3*(1+alpha)))
	}
}

// Closed forms too pass the toolkit's check exactly, also where e^{−εd} underflows.
func TestOptimalLPClosedFormPrivateAsChecked(t *testing.T) {
	c10 := lpMust(t)(graph.Cycle(10))
	q4 := lpMust(t)(graph.Hypercube(4))
	for _, g := range []*graph.Graph{c10, q4} {
		for _, eps := range []float64{0.1, 1, 200, 800} {
			r, err := OptimalLP(LPSpec{Graph: g, Epsilon: eps})
			if err != nil || r.Path != PathClosedForm {
				t.Fatalf("n = %d, ε = %g: %v %v", g.N, eps, r, err)
			}
			if e, _, _ := privacy.Epsilon(r.Mechanism, g); !(e <= eps) {
				t.Errorf("n = %d, ε = %g: privacy.Epsilon = %v", g.N, eps, e)
			}
			// The closed form's utility c = 1/Σ_d n_d e^{−εd}, by a BFS written here.
			if want := lpBFSClosedForm(g, eps); math.Abs(r.Utility-want) > 1e-12 {
				t.Errorf("n = %d, ε = %g: utility %.17g, want %.17g", g.N, eps, r.Utility, want)
			}
		}
	}
}

// A solve that cannot be checked optimal is an error that says so, never a mechanism labelled
// optimal: with tolerances of 10^−300 no floating-point solution passes.
func TestOptimalLPImpreciseIsAnError(t *testing.T) {
	g := lpMust(t)(graph.Path(4))
	_, err := OptimalLP(LPSpec{Graph: g, Epsilon: 0.3, Prior: []float64{0.1, 0.2, 0.3, 0.4},
		Solver: &lp.Options{FeasibilityTol: 1e-300, OptimalityTol: 1e-300}})
	if err == nil || !strings.Contains(err.Error(), "tolerances") || !strings.Contains(err.Error(), "imprecise") {
		t.Fatalf("error %v, want one naming the tolerances and the status", err)
	}
}

// Answers at ε·d far below the rounding of the logarithms the toolkit compares (10^−9 here):
// the repair gives them equal rows, and the result is still private as checked and within
// about ε·d of the optimum.
func TestOptimalLPNearbyAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 5))
	for trial := 0; trial < 20; trial++ {
		spec := auditCases(rng, 1)[7] // a metric case
		d := spec.Metric
		n, _ := d.Dims()
		for j := 2; j < n; j++ { // point 1 moved to 1e−9 from point 0
			d.Set(1, j, d.At(0, j)+1e-9)
			d.Set(j, 1, d.At(0, j)+1e-9)
		}
		d.Set(0, 1, 1e-9)
		d.Set(1, 0, 1e-9)
		for _, eps := range []float64{1, 30} {
			spec.Epsilon = eps
			if problem, _, _ := auditWithin(spec, 1e-8); problem != "" {
				t.Errorf("trial %d, ε = %g: %s", trial, eps, problem)
			}
		}
	}
}
