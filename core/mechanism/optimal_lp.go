package mechanism

import (
	"context"
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// Size limits of the linear program OptimalLP builds. Larger programs are refused before any
// work is done: a browser tab has a few hundred megabytes, and a program at these limits
// already needs tens of them in the solver.
const (
	// MaxLPVariables bounds n·|W|, the entries of the mechanism (n answers, |W| outputs):
	// 40,000 is a 200×200 mechanism.
	MaxLPVariables = 40_000
	// MaxLPConstraints bounds n + (privacy rows); a graph with E edges gives 2·E·|W| privacy
	// rows, so the clique K_80 (505,680 rows) is within it and K_100 is not.
	MaxLPConstraints = 1_000_000
	// MaxLPMetricPoints bounds the size of a Metric: finding the pairs to constrain looks for a
	// point between every two points, n³ steps.
	MaxLPMetricPoints = 500
)

// Paths OptimalLP may take (LPResult.Path).
const (
	// PathClosedForm: the mechanism of Theorem 6.2, optimal in closed form; no LP was solved.
	PathClosedForm = "closed-form"
	// PathLP: the linear program was solved.
	PathLP = "lp"
)

// LPSpec describes an optimal-mechanism problem for OptimalLP. Exactly one of Graph and Metric
// is set, and at most one of Gain and Loss.
type LPSpec struct {
	// Graph is the adjacency of the true answers 0..n−1: H must be ε-DP on it
	// (H[y][z] ≤ e^ε·H[y'][z] for every edge y∼y' and every output z).
	Graph *graph.Graph
	// Metric is an n×n distance matrix (see privacy.ValidateMetric; +Inf allowed): H must be
	// ε·Metric-private, H[y][z] ≤ e^{ε·d(y,y')}·H[y'][z] for every pair with finite d.
	Metric *mat.Dense
	// Epsilon is the privacy parameter ε > 0, in nats.
	Epsilon float64
	// Prior on the true answers; nil means uniform.
	Prior []float64
	// Gain is |W|×n (rows = guesses w, columns = true answers y); nil (with Loss nil) means the
	// binary gain, W = the answers and gain 1 for the right answer.
	Gain *mat.Dense
	// Loss is |W|×n like Gain; when set, the expected loss is minimized instead.
	Loss *mat.Dense
	// ForceLP solves the linear program even where the closed form is known to be optimal
	// (for tests and benchmarks).
	ForceLP bool
	// Solver options: Context and Progress (cancellation and progress reports) and the limits
	// and tolerances of lp.Options. nil gives the defaults.
	Solver *lp.Options
}

// LPResult is the outcome of OptimalLP.
type LPResult struct {
	// Mechanism is H, n×|W|: rows are the true answers, columns the reported answers, which
	// are the guesses themselves (see OptimalLP).
	Mechanism *mat.Dense
	// Utility is the expected gain of Mechanism with the optimal guess (mechanism.Utility), or,
	// when a loss was given, its expected loss (mechanism.ExpectedLoss), recomputed from the
	// matrix.
	Utility float64
	// Objective is the optimal value of the linear program (the closed-form value c on the
	// closed-form path). Utility agrees with it to within the solver's tolerances.
	Objective float64
	// Path is PathClosedForm or PathLP.
	Path string
	// Reason says why the path was taken.
	Reason string
	// Status is the solver's status (lp.Optimal on the closed-form path).
	Status lp.Status
	// Iterations, Variables and Constraints describe the program solved (0 on the
	// closed-form path).
	Iterations, Variables, Constraints int
	// PrimalResidual is the largest violation of a constraint by the solver's solution, before
	// it is clipped at 0 and its rows renormalized into Mechanism.
	PrimalResidual float64
}

// OptimalLP finds the ε-private mechanism of best expected utility (or least expected loss) for the
// prior and gain of spec (docs/mathematics.md#optimal-mechanisms, Alvim et al. (ICALP 2011) §6).
//
// The program. With the gain G[w][y] and a mechanism H[y][z], the user's utility is
// Σ_z max_w Σ_y π_y H[y][z] G[w][y], which is not linear in H because of the max. But any
// mechanism followed by the user's best guess is again a mechanism — one whose outputs are
// the guesses — with the same utility, and post-processing keeps ε-privacy (each column of H·R,
// R deterministic, is a sum of columns of H, so every ratio bound survives). So without loss
// of generality the outputs are the guesses, z ∈ W, the user takes the output at face value,
// and the utility is linear (Alvim et al. (ICALP 2011) §6, Chatzikokolakis et al. (CSF 2019) §6):
//
//	maximize   Σ_y Σ_w π_y G[w][y] H[y][w]         (minimize, with Loss in place of G)
//	subject to Σ_w H[y][w] = 1 and H ≥ 0,
//	           H[y][w] ≤ e^{ε d(y,y')} H[y'][w]    for the constrained pairs y, y', every w.
//
// The constrained pairs are the edges of Graph (d = 1; distant pairs follow by group privacy),
// or, for Metric, every pair at finite distance except those with a point w strictly between
// them (d(y,w), d(w,y') > 0, both below d(y,y'), with d(y,w) + d(w,y') ≤ d(y,y')): chaining the
// constraints through w then implies theirs. For the |x−y| metric on a line that leaves only
// neighbours, the path graph. Pairs at distance 0 get equal rows.
//
// At the optimum no other guess can do better on any output (it would improve the program),
// so Utility recomputed with the optimal guess equals Objective.
//
// The closed form. For a Graph, the uniform prior and the binary gain, when every vertex has
// the same distance distribution n_d (true on distance-regular and VT+ graphs) the Theorem 6.2
// mechanism c·e^{−ε d(y,z)} is ε-DP and its utility c = 1/Σ_d n_d e^{−εd} equals the upper
// bound of privacy.UtilityBound, which holds for every ε-DP mechanism on every graph; so it is
// optimal, exactly, and no program is solved (unless ForceLP).
//
// Programs with more than MaxLPVariables variables or MaxLPConstraints constraints are
// refused. A solve that ends without an optimum (cancelled, iteration or time limit) is an
// error that gives the status.
func OptimalLP(spec LPSpec) (*LPResult, error) {
	n, err := checkLPSpec(&spec)
	if err != nil {
		return nil, err
	}
	if !spec.ForceLP {
		if res, ok, err := closedFormLP(&spec, n); err != nil || ok {
			return res, err
		}
	}
	return solveMechanismLP(&spec, n)
}

// checkLPSpec validates spec and returns the number of answers n.
func checkLPSpec(spec *LPSpec) (int, error) {
	if err := checkEpsilon(spec.Epsilon); err != nil {
		return 0, err
	}
	var n int
	switch {
	case spec.Graph != nil && spec.Metric != nil:
		return 0, fmt.Errorf("graph, metric: give one of them, not both")
	case spec.Graph != nil:
		g := spec.Graph
		if g.N < 1 || len(g.Adj) != g.N {
			return 0, fmt.Errorf("graph: empty or malformed (N = %d, %d adjacency lists)", g.N, len(g.Adj))
		}
		for v, nb := range g.Adj {
			for _, w := range nb {
				if w < 0 || w >= g.N || w == v {
					return 0, fmt.Errorf("graph: vertex %d has an invalid neighbour %d (build graphs with graph.New)", v, w)
				}
			}
		}
		n = g.N
	case spec.Metric != nil:
		r, _ := spec.Metric.Dims()
		if r < 1 {
			return 0, fmt.Errorf("metric: empty distance matrix")
		}
		if r > MaxLPMetricPoints {
			return 0, fmt.Errorf("metric: %d points, more than the limit of %d for the optimal mechanism", r, MaxLPMetricPoints)
		}
		if err := checkFinite2(spec.Metric); err != nil {
			return 0, err
		}
		if err := privacy.ValidateMetric("metric", spec.Metric, r); err != nil {
			return 0, err
		}
		n = r
	default:
		return 0, fmt.Errorf("graph, metric: one of them is required (the adjacency or the distances of the answers)")
	}
	if spec.Prior != nil {
		if len(spec.Prior) != n {
			return 0, fmt.Errorf("prior: has %d entries but there are %d answers", len(spec.Prior), n)
		}
		if err := channel.ValidateDistribution("prior", spec.Prior); err != nil {
			return 0, err
		}
	}
	if spec.Gain != nil && spec.Loss != nil {
		return 0, fmt.Errorf("gain, loss: give one of them, not both")
	}
	for _, s := range []struct {
		name string
		m    *mat.Dense
	}{{"gain", spec.Gain}, {"loss", spec.Loss}} {
		if s.m == nil {
			continue
		}
		w, c := s.m.Dims()
		if w < 1 || c != n {
			return 0, fmt.Errorf("%s: is %d×%d, expected |W|×%d (rows = guesses, columns = the %d answers)", s.name, w, c, n, n)
		}
		if err := checkFinite(s.name, s.m); err != nil {
			return 0, err
		}
	}
	w := n
	if s := spec.score(); s != nil {
		w, _ = s.Dims()
	}
	if float64(n)*float64(w) > MaxLPVariables {
		return 0, fmt.Errorf("%s: the program would have %d×%d = %d variables, more than the limit of %d",
			spec.sizeArg(), n, w, n*w, MaxLPVariables)
	}
	return n, nil
}

// checkFinite2 is checkFinite for a metric, which may hold +Inf but not NaN or huge sizes.
func checkFinite2(d *mat.Dense) error {
	r, c := d.Dims()
	if float64(r)*float64(c) > channel.MaxEntries {
		return fmt.Errorf("metric: %d×%d has more than the limit of %d entries", r, c, channel.MaxEntries)
	}
	return nil
}

func (spec *LPSpec) score() *mat.Dense {
	if spec.Loss != nil {
		return spec.Loss
	}
	return spec.Gain
}

// sizeArg names the argument that makes a program large.
func (spec *LPSpec) sizeArg() string {
	name := "graph"
	if spec.Metric != nil {
		name = "metric"
	}
	switch {
	case spec.Gain != nil:
		name += ", gain"
	case spec.Loss != nil:
		name += ", loss"
	}
	return name
}

// closedFormLP returns the Theorem 6.2 mechanism when it is provably optimal for spec.
func closedFormLP(spec *LPSpec, n int) (*LPResult, bool, error) {
	if spec.Graph == nil || spec.Loss != nil || !isIdentity(spec.Gain, n) || !isUniform(spec.Prior) {
		return nil, false, nil
	}
	t, err := Optimal(spec.Graph, spec.Epsilon)
	if err != nil {
		return nil, false, err
	}
	if !t.Uniform {
		return nil, false, nil
	}
	prior := spec.Prior
	if prior == nil {
		prior = uniformPrior(n)
	}
	u, err := Utility(prior, t.Mechanism, nil)
	if err != nil {
		return nil, false, err
	}
	reason := "every vertex has the same distance distribution n_d"
	if ok, _, _ := graph.IsDistanceRegular(spec.Graph); ok {
		reason = "the graph is distance-regular"
	}
	return &LPResult{
		Mechanism: t.Mechanism,
		Utility:   u,
		Objective: t.C[0],
		Path:      PathClosedForm,
		Reason: reason + ", the prior uniform and the gain binary: the Theorem 6.2 mechanism " +
			"reaches the utility bound 1/Σ_d n_d e^(−εd), so it is optimal",
		Status: lp.Optimal,
	}, true, nil
}

func isIdentity(g *mat.Dense, n int) bool {
	if g == nil {
		return true
	}
	if r, c := g.Dims(); r != n || c != n {
		return false
	}
	for i := 0; i < n; i++ {
		for j, v := range g.RawRowView(i) {
			if (i == j && v != 1) || (i != j && v != 0) {
				return false
			}
		}
	}
	return true
}

// isUniform reports whether the prior is nil or has equal entries (to 1e-12).
func isUniform(p []float64) bool {
	for _, v := range p {
		if math.Abs(v-p[0]) > 1e-12 {
			return false
		}
	}
	return true
}

func uniformPrior(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

// privacyPair is one constrained pair: H[A][w] ≤ Factor·H[B][w] and H[B][w] ≤ Factor·H[A][w].
type privacyPair struct {
	A, B   int
	Factor float64 // e^{ε d(A,B)}
}

// privacyPairs lists the constrained pairs of spec (see OptimalLP).
func privacyPairs(spec *LPSpec, n int) []privacyPair {
	if spec.Graph != nil {
		f := math.Exp(spec.Epsilon)
		var pairs []privacyPair
		for _, e := range spec.Graph.Edges() {
			pairs = append(pairs, privacyPair{e.A, e.B, f})
		}
		return pairs
	}
	dist := make([][]float64, n)
	for a := range dist {
		dist[a] = spec.Metric.RawRowView(a)
	}
	var pairs []privacyPair
	for a := 0; a < n; a++ {
		ra := dist[a]
	pair:
		for b := a + 1; b < n; b++ {
			dab := ra[b]
			if math.IsInf(dab, 1) {
				continue
			}
			// Strictly smaller parts make the implication an induction on the distance,
			// so no pair is dropped on the strength of another dropped pair of equal length.
			for w := 0; w < n; w++ {
				daw, dwb := ra[w], dist[w][b]
				if daw > 0 && dwb > 0 && daw < dab && dwb < dab && daw+dwb <= dab {
					continue pair
				}
			}
			pairs = append(pairs, privacyPair{a, b, math.Exp(spec.Epsilon * dab)})
		}
	}
	return pairs
}

// solveMechanismLP states and solves the program of OptimalLP.
func solveMechanismLP(spec *LPSpec, n int) (*LPResult, error) {
	score := spec.score()
	w := n
	if score != nil {
		w, _ = score.Dims()
	}
	pairs := privacyPairs(spec, n)
	rows := 0
	for _, p := range pairs {
		if p.Factor == 1 {
			rows += w // one equality per output
		} else if !math.IsInf(p.Factor, 1) {
			rows += 2 * w
		}
	}
	if total := n + rows; total > MaxLPConstraints {
		return nil, fmt.Errorf("%s: the program would have %d constraints (%d variables), more than the limit of %d",
			spec.sizeArg(), total, n*w, MaxLPConstraints)
	}
	prior := spec.Prior
	if prior == nil {
		prior = uniformPrior(n)
	}

	sense := lp.Maximize
	if spec.Loss != nil {
		sense = lp.Minimize
	}
	m := lp.NewModel(sense)
	H := m.AddBlock("H", n, w)
	for y := 0; y < n; y++ {
		if score == nil {
			m.SetObjective(H.At(y, y), prior[y])
			continue
		}
		for z := 0; z < w; z++ {
			if c := prior[y] * score.At(z, y); c != 0 {
				m.SetObjective(H.At(y, z), c)
			}
		}
	}
	row := make([]lp.Term, w)
	for y := 0; y < n; y++ {
		for z := range row {
			row[z] = lp.Term{Var: H.At(y, z), Coef: 1}
		}
		m.AddEq(row, 1)
	}
	for _, p := range pairs {
		switch {
		case math.IsInf(p.Factor, 1):
			// e^{εd} overflows: the constraint allows H[B][w] down to 1e−308·H[A][w], nothing
			// a float64 mechanism can tell from 0.
		case p.Factor == 1:
			for z := 0; z < w; z++ {
				m.AddEq([]lp.Term{{Var: H.At(p.A, z), Coef: 1}, {Var: H.At(p.B, z), Coef: -1}}, 0)
			}
		default:
			for z := 0; z < w; z++ {
				m.AddLe([]lp.Term{{Var: H.At(p.A, z), Coef: 1}, {Var: H.At(p.B, z), Coef: -p.Factor}}, 0)
				m.AddLe([]lp.Term{{Var: H.At(p.B, z), Coef: 1}, {Var: H.At(p.A, z), Coef: -p.Factor}}, 0)
			}
		}
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	opt := lp.Options{}
	if spec.Solver != nil {
		opt = *spec.Solver
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	res, err := m.Solve(&opt)
	if err != nil {
		return nil, err
	}
	out := &LPResult{
		Objective:      res.Objective,
		Path:           PathLP,
		Status:         res.Status,
		Iterations:     res.Iterations,
		Variables:      m.NumVars(),
		Constraints:    m.NumRows(),
		PrimalResidual: res.PrimalResidual,
	}
	switch {
	case spec.ForceLP:
		out.Reason = "the linear program was asked for (forceLP)"
	case spec.Metric != nil:
		out.Reason = "a metric was given: no closed form is known"
	case spec.Loss != nil || !isIdentity(spec.Gain, n):
		out.Reason = "the gain is not binary: no closed form is known"
	case !isUniform(spec.Prior):
		out.Reason = "the prior is not uniform: the Theorem 6.2 mechanism need not be optimal"
	default:
		out.Reason = "vertices have different distance distributions (the graph is neither distance-regular nor VT+): the Theorem 6.2 mechanism is not ε-DP there"
	}
	if res.Status != lp.Optimal {
		return nil, fmt.Errorf("optimal mechanism: the solver stopped (%v) after %d iterations on %d variables and %d constraints",
			res.Status, res.Iterations, out.Variables, out.Constraints)
	}
	// The solver's X satisfies the rows to within its tolerances (PrimalResidual); entries a
	// rounding below 0 are clipped and each row renormalized so that the result is a channel.
	h := mat.NewDense(n, w, nil)
	hd := h.RawMatrix().Data
	for y := 0; y < n; y++ {
		r := hd[y*w : (y+1)*w]
		s := 0.0
		for z := range r {
			r[z] = math.Max(0, res.X[H.At(y, z)])
			s += r[z]
		}
		if !(s > 0) {
			return nil, fmt.Errorf("optimal mechanism: the solver returned an all-zero row %d (primal residual %g)", y, res.PrimalResidual)
		}
		for z := range r {
			r[z] /= s
		}
	}
	out.Mechanism = h
	if spec.Loss != nil {
		out.Utility, _, err = ExpectedLoss(prior, h, spec.Loss)
	} else {
		out.Utility, err = Utility(prior, h, spec.Gain)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
