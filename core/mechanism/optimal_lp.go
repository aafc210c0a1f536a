package mechanism

import (
	"context"
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
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
	// point between every two points, n³ steps (a 32×32 map, 1,024 points, is the limit; a
	// spanner skips that search).
	MaxLPMetricPoints = 1024
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
	// Spanner, with Metric, is a dilation δ ≥ 1: the constraints are imposed only on the edges
	// of the greedy δ-spanner of the answers, with ε/δ (see OptimalLP); 0 means all pairs.
	Spanner float64
	// Method chooses how the program is solved: MethodAuto (""), MethodDecomposition or
	// MethodSimplex (see OptimalLP).
	Method string
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
	// Objective is the optimal value of the linear program, c·H for the solver's H before the
	// privacy repair (the closed-form value c on the closed-form path). Utility agrees with it
	// to within the solver's tolerances (see OptimalLP).
	Objective float64
	// Bound is the value of the solver's dual solution made feasible: an upper bound on the
	// expected gain of every ε-private mechanism (a lower bound on the expected loss), so the
	// optimum lies between Utility and Bound. It equals Objective on the closed-form path.
	Bound float64
	// Path is PathClosedForm or PathLP.
	Path string
	// Reason says why the path was taken.
	Reason string
	// Status is the solver's status (lp.Optimal on the closed-form path).
	Status lp.Status
	// Iterations, Variables and Constraints describe the program solved (0 on the
	// closed-form path).
	Iterations, Variables, Constraints int
	// PrimalResidual is the largest violation, in probability, of a constraint of the program
	// by the solver's H before the privacy repair: |Σ_z H[y][z] − 1|, −H[y][z], and
	// e^{−εd}·H[x][z] − H[t][z] (the probability H[t][z] lacks) over the privacy rows in the
	// program. 0 on the closed-form path.
	PrimalResidual float64
	// DualResidual is the largest violation, in utility per unit of probability, of the dual
	// constraints by the solver's dual solution: a reduced cost π_y·g(z,y) − u_y − Σ v·a of an
	// entry H[y][z] above 0 (loss: below 0), or a privacy dual of the wrong sign. 0 on the
	// closed-form path.
	DualResidual float64

	// Method is the method that solved the program (MethodDecomposition or MethodSimplex; ""
	// on the closed-form path).
	Method string
	// Spanner describes the spanner the constraints were imposed on (nil without one).
	Spanner *SpannerInfo
	// GuaranteedEpsilon is the privacy the result is guaranteed to have: Mechanism is
	// GuaranteedEpsilon·d-private (ε-DP for a graph). It is Epsilon, or with a spanner of
	// dilation t, ε·t/δ ≤ ε.
	GuaranteedEpsilon float64

	dual *lpCheck // the solver's solution and duals, for the tests' certificates (nil on the closed-form path)
	rows []privRow
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
//	           e^{−ε d(y,y')}·H[y][w] ≤ H[y'][w]   for the constrained pairs y, y', both ways, every w.
//
// The privacy rows are stated in that "mass" form — the least probability H[y'][w] may have
// given H[y][w] — rather than as H[y][w] ≤ e^{εd}·H[y'][w]: every coefficient is then at most
// 1 in magnitude, the program needs no equilibration, and the solver's absolute tolerances are
// tolerances on probabilities and on utility (see mechProgram.model for what went wrong
// otherwise: from ε ≈ 18 the constant mechanism could come back as optimal).
//
// The constrained pairs are the edges of Graph (d = 1; distant pairs follow by group privacy),
// or, for Metric, every pair at finite distance except those with a point w strictly between
// them (d(y,w), d(w,y') > 0, both below d(y,y'), with d(y,w) + d(w,y') ≤ d(y,y')): chaining the
// constraints through w then implies theirs. For the |x−y| metric on a line that leaves only
// neighbours, the path graph. Pairs at distance 0 get equal rows. Pairs with e^{εd} above 2^60
// are left out of the program (libqif leaves out those above 10^200): no probability the
// program can tell from 0 depends on them, and the repair below enforces them.
//
// Checking. The solver works to tolerances of 10^−11 (unless Solver sets others), and the
// result is checked on the program above, in its units: PrimalResidual (probability) and
// DualResidual (utility per unit of probability) within the tolerances, and Bound — the value of
// the solver's dual solution made feasible, an upper bound on the utility of every ε-private
// mechanism — within n·(tolerances) of the objective. A solve that does not pass is an error
// that gives the residuals; so is one that ends without an optimum (cancelled, iteration or time
// limit). Utility ≤ optimum ≤ Bound always holds (for a loss, Bound ≤ optimum ≤ Utility).
//
// Privacy repair. A simplex solution meets its constraints only to within the tolerance — an
// entry the constraints want at 10^−17 may be 0 beside a positive one, which the toolkit's ε
// functions rightly count as ε = ∞. So the mechanism returned is not the
// solver's H but its repair (repairPrivacy): each column raised to its privacy closure with a
// margin of a few units in the last place, rows rescaled by one common factor, and the missing
// mass filled by a tiny mix with the uniform mechanism. The result is a channel whose ε, as
// privacy.Epsilon (graph) or privacy.DPrivacyEpsilon (metric) compute it, is at most Epsilon —
// no tolerance needed — at a cost in utility of about 10^−12 (the largest in a random audit of
// 660 graphs and metrics); answers at ε·d below 10^−7 get equal rows, and the worst case,
// answers near ε·d = 10^−7, costs about 10^−7. Where e^{−εd} underflows (ε·d above about 745) no double can hold the ratio
// exactly; every entry is then at least 10^−300/|W| (the mix), so each ratio is at most
// |W|·10^300 < e^{εd} and the check still passes: the mechanism is private, with neighbours
// that e^{−εd} would put below 10^−300 raised to that floor.
//
// At the optimum no other guess can do better on any output (it would improve the program),
// so Utility recomputed with the optimal guess equals Objective (up to the repair).
//
// The closed form. For a Graph, the uniform prior and the binary gain, when every vertex has
// the same distance distribution n_d (true on distance-regular and VT+ graphs) the Theorem 6.2
// mechanism c·e^{−ε d(y,z)} is ε-DP and its utility c = 1/Σ_d n_d e^{−εd} equals the upper
// bound of privacy.UtilityBound, which holds for every ε-DP mechanism on every graph; so it is
// optimal, exactly, and no program is solved (unless ForceLP). Where its floating-point matrix
// misses the check by a rounding, or underflows, it is repaired the same way.
//
// Programs with more than MaxLPVariables variables or MaxLPConstraints constraints are
// refused.
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
	return solveProgram(&spec, n)
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
			return 0, argerr.New("graph", "empty or malformed (N = %d, %d adjacency lists)", g.N, len(g.Adj))
		}
		for v, nb := range g.Adj {
			for _, w := range nb {
				if w < 0 || w >= g.N || w == v {
					return 0, argerr.New("graph", "vertex %d has an invalid neighbour %d (build graphs with graph.New)", v, w)
				}
			}
		}
		n = g.N
	case spec.Metric != nil:
		r, _ := spec.Metric.Dims()
		if r < 1 {
			return 0, argerr.New("metric", "empty distance matrix")
		}
		if r > MaxLPMetricPoints {
			return 0, argerr.New("metric", "%d points, more than the limit of %d for the optimal mechanism", r, MaxLPMetricPoints)
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
			return 0, argerr.New("prior", "has %d entries but there are %d answers", len(spec.Prior), n)
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
			return 0, argerr.New(s.name, "is %d×%d, expected |W|×%d (rows = guesses, columns = the %d answers)", w, c, n, n)
		}
		if err := checkFinite(s.name, s.m); err != nil {
			return 0, err
		}
	}
	w := n
	if s := spec.score(); s != nil {
		w, _ = s.Dims()
	}
	limit := MaxDecomposedVariables
	if spec.Method == MethodSimplex {
		limit = MaxLPVariables
	}
	if float64(n)*float64(w) > float64(limit) {
		return 0, argerr.New(spec.sizeArg(), "the program would have %d×%d = %d variables, more than the limit of %d", n, w, n*w, limit)
	}
	if err := checkMethod(spec); err != nil {
		return 0, err
	}
	if err := checkSpanner(spec); err != nil {
		return 0, err
	}
	return n, nil
}

// checkFinite2 is checkFinite for a metric, which may hold +Inf but not NaN or huge sizes.
func checkFinite2(d *mat.Dense) error {
	r, c := d.Dims()
	if float64(r)*float64(c) > channel.MaxEntries {
		return argerr.New("metric", "%d×%d has more than the limit of %d entries", r, c, channel.MaxEntries)
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
	t, err := NewTheorem62(spec.Graph, spec.Epsilon)
	if err != nil {
		return nil, false, err
	}
	if !t.Uniform {
		return nil, false, nil
	}
	h := t.Mechanism
	// In floating point the closed form may miss its ε by a rounding (ratios e^ε·(1 + 10^−16))
	// or, where e^{−εd} underflows, put a 0 beside a positive entry: repaired like an LP
	// solution, it then passes the toolkit's own check exactly.
	if ok, _, err := privateAsChecked(spec, h); err != nil {
		return nil, false, err
	} else if !ok {
		if h, err = repairPrivacy(spec, newMechProgram(spec, n), h.RawMatrix().Data); err != nil {
			return nil, false, err
		}
	}
	prior := spec.Prior
	if prior == nil {
		prior = uniformPrior(n)
	}
	u, err := Utility(prior, h, nil)
	if err != nil {
		return nil, false, err
	}
	reason := "every vertex has the same distance distribution n_d"
	if ok, _, _ := graph.IsDistanceRegular(spec.Graph); ok {
		reason = "the graph is distance-regular"
	}
	return &LPResult{
		Mechanism: h,
		Utility:   u,
		Objective: t.C[0],
		Bound:     t.C[0],
		Path:      PathClosedForm,
		Reason: reason + ", the prior uniform and the gain binary: the Theorem 6.2 mechanism " +
			"reaches the utility bound 1/Σ_d n_d e^(−εd), so it is optimal",
		Status:            lp.Optimal,
		GuaranteedEpsilon: spec.Epsilon,
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

// solveMechanismLP states the program of OptimalLP as one linear program, solves it with the
// simplex of package lp, checks the solution and repairs its privacy (see OptimalLP).
func solveMechanismLP(spec *LPSpec, p *mechProgram) (*LPResult, error) {
	n := p.n
	if float64(n)*float64(p.w) > MaxLPVariables {
		return nil, argerr.New(spec.sizeArg(), "the program would have %d×%d = %d variables, more than the limit of %d for the simplex method", n, p.w, n*p.w, MaxLPVariables)
	}
	if total := p.rowCount(); total > MaxLPConstraints {
		return nil, argerr.New(spec.sizeArg(), "the program would have %d constraints (%d variables), more than the limit of %d", total, n*p.w, MaxLPConstraints)
	}
	m, hb, rows := p.model()
	if err := m.Err(); err != nil {
		return nil, err
	}
	opt := lp.Options{}
	if o := solverOptions(spec); o != nil {
		opt = *o
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	opt.NoScaling = true // the program is equilibrated as stated (see mechProgram.model)
	if opt.FeasibilityTol == 0 {
		opt.FeasibilityTol = lpTolerance
	}
	if opt.OptimalityTol == 0 {
		opt.OptimalityTol = lpTolerance
	}
	res, err := m.Solve(&opt)
	if err != nil {
		return nil, err
	}
	out := &LPResult{
		Path:        PathLP,
		Method:      MethodSimplex,
		Status:      res.Status,
		Iterations:  res.Iterations,
		Variables:   m.NumVars(),
		Constraints: m.NumRows(),
	}
	if res.Status != lp.Optimal && res.Status != lp.Imprecise {
		return nil, fmt.Errorf("optimal mechanism: the solver stopped (%v) after %d iterations on %d variables and %d constraints",
			res.Status, res.Iterations, out.Variables, out.Constraints)
	}
	k := p.check(rows, hb, res)
	out.PrimalResidual, out.DualResidual = k.Primal, k.Dual
	out.Objective, out.Bound = k.Objective, k.Bound
	if p.loss {
		out.Objective, out.Bound = 0-k.Objective, 0-k.Bound
	}
	out.dual, out.rows = k, rows
	tolP, tolD := opt.FeasibilityTol, opt.OptimalityTol
	gap := k.Bound - k.Objective
	if res.Status != lp.Optimal || !(k.Primal <= tolP) || !(k.Dual <= tolD) || !(gap <= lpGapTol(tolP, tolD, n)) {
		out.Status = lp.Imprecise
		return nil, fmt.Errorf("optimal mechanism: the solver could not reach its tolerances (status %v after %d iterations: "+
			"primal residual %.3g, dual residual %.3g, gap to the dual bound %.3g)", res.Status, res.Iterations, k.Primal, k.Dual, gap)
	}
	return out, finishProgram(spec, p, k.H, out)
}

// lpTolerance is the solver's primal and dual tolerance for the mechanism program unless
// LPSpec.Solver sets others: probabilities and utilities are about 1, so 10^−11 leaves room
// for rounding while keeping the certified gap (Bound − Utility) near 10^−11; at the solver's
// default 10^−9 the dual simplex accepts constraints e^{−εd}·H[x] ≤ H[t] with e^{−εd} below
// 10^−9 as satisfied by H[t] = 0, and the gap reached 10^−9 on a path of 40.
const lpTolerance = 1e-11

// lpGapTol is how far the dual bound may lie above the solver's objective for the solution to
// count as optimal: each of the n row duals may be raised by the dual tolerance to make the
// dual feasible, and the row sums may be off by the primal tolerance.
func lpGapTol(tolP, tolD float64, n int) float64 {
	return float64(n) * (tolP + tolD)
}
