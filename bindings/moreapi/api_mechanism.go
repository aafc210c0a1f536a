package moreapi

import (
	"errors"
	. "github.com/qif-toolkit/qif/bindings/table"
	"strings"
	"time"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/mechanism"
)

var (
	pInputs   = Param{Name: "n", Kind: KindInteger, Doc: "number of inputs 0..n−1"}
	pOutputs  = Param{Name: "m", Kind: KindInteger, Optional: true, DefaultDoc: "n", Doc: "number of outputs 0..m−1"}
	pH        = Param{Name: "H", Label: "mechanism", Kind: KindMatrix, Doc: "mechanism: rows true answers, columns reported answers"}
	pGainOpt  = Param{Name: "gain", Kind: KindMatrix, Optional: true, DefaultDoc: "binary gain", Doc: "gain matrix: rows guesses, columns true answers"}
	fTimeLim  = Param{Name: "timeLimit", Kind: KindNumber, Check: CheckPositiveInf, DefaultDoc: "no limit", Doc: "wall-clock limit of the solve, milliseconds"}
	fLPReport = Param{Name: "onProgress", Kind: KindCallback, ArgsObject: true, CallArgs: []string{"iteration", "objective", "infeasibility", "phase", "bound"},
		Doc: "called every few hundred simplex iterations (decomposition: master pivots, and every 16 columns priced) with {iteration, objective, infeasibility, phase, bound}; return false to cancel"}
	// fMechReport is optimalLP's onProgress: the same reports, in the units of its result.
	fMechReport = Param{Name: "onProgress", Kind: KindCallback, ArgsObject: true, CallArgs: []string{"iteration", "objective", "infeasibility", "phase", "bound"},
		Doc: "called every few hundred simplex iterations (decomposition: master pivots, and every 16 columns priced) with {iteration, objective, infeasibility, phase, bound}; objective and bound are in the result's units (expected gain, or expected loss when loss is given), iteration counts the pivots of every phase so far; return false to cancel"}
	withGuess = Type{Fields: []Field{{Name: "utility", Type: Number}, {Name: "guess", Type: IntList, Doc: "the optimal guess for each output"}}}
)

const utilityTeX = `\mathcal{U}(H) = \sum_z \max_w \sum_y \pi(y)\,H(y,z)\,g(w,y)`

var mechanismAPI = []Func{
	{NS: "mechanism", Name: "truncatedGeometric", Result: MatrixOut, Source: csf + " Def. 10; " + libqif,
		Params: []*Param{&pInputs, &pEpsilon, &pOutputs, {Name: "options", Kind: KindOptions, Optional: true, Type: "GeometricWindowOptions",
			Doc: "given (even empty): the window form, on any input and output windows, m ≥ 2", Fields: []*Param{
				{Name: "firstInput", Kind: KindInteger, Default: 0, Doc: "the value of secret 0: the secrets are firstInput..firstInput+n−1"},
				{Name: "firstOutput", Kind: KindInteger, Default: 0, Doc: "the value of output 0: the outputs are firstOutput..firstOutput+m−1"}}}},
		Doc: "Truncated geometric mechanism on inputs 0..n−1, outputs 0..m−1 (m = n by default, m ≥ n), ε in nats; with options, the geometric mechanism clamped to any output window (m ≥ 2).",
		TeX: `C(x,y) = P\big(\mathrm{clamp}(x+Z) = y\big),\ P(Z=k) = \tfrac{1-\alpha}{1+\alpha}\,\alpha^{|k|},\ \alpha = e^{-\varepsilon}`,
		Call: func(a *Args) (any, error) {
			if !a.Has("options") {
				return result(mechanism.TruncatedGeometric(sizes(a)))
			}
			n, eps, m := sizes(a)
			return result(mechanism.GeometricWindow(n, eps, m, a.Int("firstInput"), a.Int("firstOutput")))
		}},
	{NS: "mechanism", Name: "tightConstraints", Params: []*Param{&pGround}, Result: MatrixOut, Source: libqif,
		Doc:  "Tight-constraints mechanism of the metric D (nats): C[x][y] = e^{−D[x][y]}·c_y with e^{−D}·c = 1; throws when some c_y < 0 (no such mechanism).",
		TeX:  `C(x,y) = e^{-D(x,y)}\,c_y,\quad e^{-D}\,c = \mathbf 1`,
		Call: func(a *Args) (any, error) { return result(mechanism.TightConstraints(a.Mat("D"))) }},
	{NS: "mechanism", Name: "randomizedResponse", Params: []*Param{&pInputs, &pEpsilon, &pOutputs}, Result: MatrixOut, Source: csf + " Def. 13",
		Doc:  "Randomized response on m outputs: e^ε/(m−1+e^ε) on the true value, ε in nats.",
		TeX:  `\tfrac{e^\varepsilon}{m-1+e^\varepsilon}\text{ on the true answer, }\tfrac{1}{m-1+e^\varepsilon}\text{ elsewhere}`,
		Call: func(a *Args) (any, error) { return result(mechanism.RandomizedResponse(sizes(a))) }},
	{NS: "mechanism", Name: "exponential", Params: []*Param{&pInputs, &pEpsilon, &pOutputs}, Result: MatrixOut, Source: csf + " Def. 12",
		Doc: "Exponential mechanism with metric |x−y|: C[x][y] ∝ e^{−ε|x−y|/2}, ε in nats.", TeX: `C(x,y) \propto e^{-\varepsilon |x-y|/2}`,
		Call: func(a *Args) (any, error) { return result(mechanism.Exponential(sizes(a))) }},
	{NS: "mechanism", Name: "exponentialEpsilon", Params: []*Param{&pInputs, &pEpsilon, &pOutputs}, Result: Number, Source: csf + " Def. 12",
		Doc:  "The true ε (nats) of exponential(n, epsilon, m) for the metric |x−x'| (at most the nominal ε).",
		Call: func(a *Args) (any, error) { return mechanism.ExponentialEpsilon(sizes(a)) }},
	{NS: "mechanism", Name: "geometric", Params: []*Param{&pInputs, &pEpsilon}, Result: MatrixOut, Source: csf + " Def. 9",
		Doc: "Reduced (n×n) form of the infinite geometric mechanism, ε in nats.", TeX: `C(x,y) \propto e^{-\varepsilon |x-y|}`,
		Call: func(a *Args) (any, error) { return result(mechanism.Geometric(a.Int("n"), a.Float("epsilon"))) }},
	{NS: "mechanism", Name: "overTruncatedGeometric", Result: MatrixOut, Source: csf + " Def. 11",
		Params: []*Param{&pInputs, {Name: "m", Kind: KindInteger, Doc: "number of outputs"}, &pEpsilon,
			{Name: "offset", Kind: KindInteger, Optional: true, Default: 0, Doc: "the input value of output 0"}},
		Doc: "Over-truncated geometric: outputs are the input values offset..offset+m−1 (offset 0 by default), ε in nats.",
		Call: func(a *Args) (any, error) {
			return result(mechanism.OverTruncatedGeometricAt(a.Int("n"), a.Int("m"), a.Int("offset"), a.Float("epsilon")))
		}},
	{NS: "mechanism", Name: "exponentialMetric", Params: []*Param{&pMetric, &pEpsilon}, Result: MatrixOut, Source: csf + " Def. 12",
		Doc:  "Exponential mechanism for a distance matrix D (D[x][y] from input x to output y): C[x][y] ∝ e^{−ε D[x][y]/2}.",
		TeX:  `C(x,y) \propto e^{-\varepsilon D(x,y)/2}`,
		Call: func(a *Args) (any, error) { return result(mechanism.ExponentialMetric(a.Mat("D"), a.Float("epsilon"))) }},
	{NS: "mechanism", Name: "optimal", Params: []*Param{&pGraph, &pEpsilon}, Result: MatrixOut, Source: icalp + " Thm 6.2", TeX: `H[i][j] = c_i\, e^{-\varepsilon\, d(i,j)}`,
		Doc: "The optimal ε-DP mechanism c·e^{−ε d(i,j)} of Theorem 6.2, on graphs where every vertex has the same distance distribution (distance-regular and VT+ graphs among them); other graphs are refused (mechanism.optimalLP finds their optimum, mechanism.optimalDetail gives the theorem's matrix with its actual ε).",
		Call: func(a *Args) (any, error) {
			h, err := mechanism.Optimal(a.Graph("graph"), a.Float("epsilon"))
			var no *mechanism.NotOptimalError
			if errors.As(err, &no) {
				// The refusal is about the graph: error.argument is 'graph', the message unchanged.
				msg := no.Explain("mechanism.optimalLP", "mechanism.optimalDetail")
				return nil, &argerr.Error{Arg: "graph", Detail: strings.TrimPrefix(msg, "graph: ")}
			}
			return h, err
		}},
	{NS: "mechanism", Name: "optimalDetail", Params: []*Param{&pGraph, &pEpsilon}, Source: icalp + " Thm 6.2", TeX: `H[i][j] = c_i\, e^{-\varepsilon\, d(i,j)}`,
		Doc: "Theorem 6.2's matrix on any graph, with its requested and true ε and normalizers: it is ε-DP and optimal when uniform; otherwise its rows are normalized each with its own c and actualEpsilon exceeds epsilon.",
		Result: Type{Name: "OptimalDetail", Doc: "Result of mechanism.optimalDetail (Theorem 6.2).", Fields: []Field{
			{Name: "mechanism", Type: MatrixOut},
			{Name: "epsilon", Type: Number, Doc: "The requested ε, nats."},
			{Name: "actualEpsilon", Type: Number, Doc: "The true ε of the mechanism on the graph, nats."},
			{Name: "uniform", Type: Boolean, Doc: "Whether every row has the same normalizer (the graph's n_d are the same from every vertex)."},
			{Name: "c", Type: VectorOut, Doc: "The normalizer c of each row."}}},
		Call: func(a *Args) (any, error) {
			r, err := mechanism.NewTheorem62(a.Graph("graph"), a.Float("epsilon"))
			if err != nil {
				return nil, err
			}
			return Obj{"mechanism": r.Mechanism, "epsilon": r.Epsilon, "actualEpsilon": r.ActualEpsilon, "uniform": r.Uniform, "c": r.C}, nil
		}},
	{NS: "mechanism", Name: "utility", Params: []*Param{&pPrior, &pH, &pGainOpt}, Result: Number, Source: icalp + " §6", TeX: utilityTeX,
		Doc:  "Expected gain (probability for the binary gain) with the optimal guess for each output.",
		Call: func(a *Args) (any, error) { return mechanism.Utility(a.Vec("prior"), a.Mat("H"), a.Mat("gain")) }},
	{NS: "mechanism", Name: "utilityDetail", Params: []*Param{&pPrior, &pH, &pGainOpt}, Result: withGuess, Source: icalp + " §6", TeX: utilityTeX,
		Doc: "Expected gain with the optimal guess for each output (the guesses included).",
		Call: func(a *Args) (any, error) {
			u, guess, err := mechanism.UtilityWithGuess(a.Vec("prior"), a.Mat("H"), a.Mat("gain"))
			return Obj{"utility": u, "guess": guess}, err
		}},
	{NS: "mechanism", Name: "expectedLoss", Source: icalp + " §6", TeX: `\sum_z \min_w \sum_y \pi(y)\,H(y,z)\,\ell(w,y)`,
		Params: []*Param{&pPrior, &pH, {Name: "loss", Kind: KindMatrix, Optional: true, DefaultDoc: "0-1 loss", Doc: "loss matrix: rows guesses, columns true answers"}},
		Result: Type{Fields: []Field{{Name: "loss", Type: Number}, {Name: "guess", Type: IntList, Doc: "the loss-minimizing guess for each output"}}},
		Doc:    "Expected loss (0-1 loss by default) with the loss-minimizing guess for each output.",
		Call: func(a *Args) (any, error) {
			v, guess, err := mechanism.ExpectedLoss(a.Vec("prior"), a.Mat("H"), a.Mat("loss"))
			return Obj{"loss": v, "guess": guess}, err
		}},
	{NS: "mechanism", Name: "optimalLP", Source: "Bordenabe et al. (CCS 2014); " + icalp + " Thm 6.2",
		Doc: "Mechanism of maximal expected gain (or least expected loss) under ε-DP or ε·d-privacy, by linear programming (decomposed over the columns of H) or Theorem 6.2.",
		TeX: `\max_{H\ \varepsilon\text{-DP}} \textstyle\sum_y \pi_y \sum_z H[y][z]\, g(z,y)`,
		Params: []*Param{{Name: "options", Kind: KindOptions, Type: "OptimalLPOptions", Doc: "the graph (ε-DP) or a metric (ε·d-privacy) and what to optimize", Fields: []*Param{
			{Name: "graph", Kind: KindGraph, Doc: "adjacency of the true answers 0..n−1 (ε-DP); give this or metric"},
			{Name: "metric", Kind: KindMatrix, Doc: "n×n distance matrix (ε·d-privacy, Infinity allowed); give this or graph"},
			{Name: "epsilon", Kind: KindNumber, Required: true, Doc: "privacy parameter ε > 0, nats"},
			{Name: "prior", Kind: KindVector, DefaultDoc: "uniform", Doc: "prior on the true answers"},
			{Name: "gain", Kind: KindMatrix, DefaultDoc: "binary gain", Doc: "gain matrix |W|×n (rows guesses, columns true answers)"},
			{Name: "loss", Kind: KindMatrix, Doc: "loss matrix |W|×n (rows outputs, columns true answers): minimize the expected loss instead"},
			{Name: "forceLP", Kind: KindBoolean, Default: false, Doc: "solve the linear program even where the closed form of Theorem 6.2 is optimal"},
			{Name: "spanner", Kind: KindNumber, DefaultDoc: "all pairs", Doc: "with a metric: a dilation δ ≥ 1; the constraints are imposed, with ε/δ, only on the edges of the greedy δ-spanner of the answers (still ε·d-private; see guaranteedEpsilon)"},
			{Name: "method", Kind: KindEnum, Enum: []string{"auto", "decomposition", "simplex"}, Default: "auto",
				Doc: "how the program is solved: by decomposition over the columns of H ('decomposition'), as one linear program by the simplex ('simplex'), or by decomposition with the simplex as fallback ('auto')"},
			&fTimeLim, &fMechReport}}},
		Result: Type{Name: "OptimalLP", Doc: "Result of mechanism.optimalLP.", Fields: []Field{
			{Name: "mechanism", Type: MatrixOut, Doc: "The mechanism H, n×|W|: rows true answers, columns the reported answers (= the guesses)."},
			{Name: "utility", Type: Number, Doc: "Expected gain of H with the optimal guess (probability for the binary gain), or its expected loss when loss was given."},
			{Name: "objective", Type: Number, Doc: "Optimal value of the linear program (the closed-form value on that path)."},
			{Name: "path", Type: Type{TS: "'closed-form' | 'lp'"}, Doc: "Whether the closed form of Theorem 6.2 was used or the linear program solved."},
			{Name: "reason", Type: String, Doc: "Why that path was taken, in words."},
			{Name: "status", Type: Type{TS: "LPStatus"}},
			{Name: "iterations", Type: Number, Doc: "Simplex iterations, variables and constraints of the program (0 on the closed-form path)."},
			{Name: "variables", Type: Number}, {Name: "constraints", Type: Number},
			{Name: "bound", Type: Number, Doc: "Upper bound on the expected gain of every ε-private mechanism (lower bound on the expected loss), from the solver's dual solution: the optimum lies between utility and bound."},
			{Name: "primalResidual", Type: Number, Doc: "Largest violation, in probability, of a row sum, H ≥ 0 or a privacy row e^{−εd}·H[y][w] ≤ H[y'][w] by the solver's H before the privacy repair (0 on the closed-form path)."},
			{Name: "dualResidual", Type: Number, Doc: "Largest violation of the dual constraints, in utility per unit of probability (0 on the closed-form path)."},
			{Name: "method", Type: Type{TS: "'decomposition' | 'simplex' | ''"}, Doc: "The method that solved the program ('' on the closed-form path); iterations counts its master pivots (decomposition) or simplex iterations."},
			{Name: "guaranteedEpsilon", Type: Number, Doc: "The ε the mechanism is guaranteed to have: epsilon, or with a spanner of dilation t, ε·t/δ ≤ ε."},
			{Name: "spanner", Type: Type{Name: "SpannerInfo", Doc: "The spanner the constraints were imposed on.", Fields: []Field{
				{Name: "dilation", Type: Number, Doc: "Largest ratio of spanner distance to distance over the pairs at finite positive distance (at most δ)."},
				{Name: "pairs", Type: Number, Doc: "Edges of the spanner: the constrained pairs."}}},
				Optional: true, Doc: "With spanner: the spanner used."}}},
		Call: func(a *Args) (any, error) {
			spec := mechanism.LPSpec{Graph: a.Graph("graph"), Metric: a.Mat("metric"), Epsilon: a.Float("epsilon"), Prior: a.Vec("prior"),
				Gain: a.Mat("gain"), Loss: a.Mat("loss"), ForceLP: a.Bool("forceLP"), Spanner: a.Float("spanner"), Solver: solverOptions(a)}
			if m := a.Str("method"); m != "auto" {
				spec.Method = m
			}
			if (spec.Graph == nil) == (spec.Metric == nil) {
				return nil, errors.New("graph, metric: give exactly one (the adjacency or the distance matrix of the answers)")
			}
			r, err := mechanism.OptimalLP(spec)
			if err != nil {
				return nil, err
			}
			out := Obj{"mechanism": r.Mechanism, "utility": r.Utility, "objective": r.Objective, "path": r.Path, "reason": r.Reason,
				"status": r.Status.String(), "iterations": r.Iterations, "variables": r.Variables, "constraints": r.Constraints,
				"bound": r.Bound, "primalResidual": r.PrimalResidual, "dualResidual": r.DualResidual,
				"method": r.Method, "guaranteedEpsilon": r.GuaranteedEpsilon}
			if r.Spanner != nil {
				out["spanner"] = Obj{"dilation": r.Spanner.Dilation, "pairs": r.Spanner.Pairs}
			}
			return out, nil
		}},
}

// sizes reads (n, epsilon, m?) with m defaulting to n.
func sizes(a *Args) (n int, eps float64, m int) {
	n, m = a.Int("n"), a.Int("m")
	if !a.Has("m") {
		m = n
	}
	return n, a.Float("epsilon"), m
}

// solverOptions reads timeLimit and onProgress into the simplex options.
func solverOptions(a *Args) *lp.Options {
	o := &lp.Options{}
	// Absent or Infinity (beyond what a Duration holds): no limit, which lp.Options writes 0.
	if ms := a.Float("timeLimit"); ms > 0 && ms < 1e12 {
		o.TimeLimit = max(time.Nanosecond, time.Duration(ms*float64(time.Millisecond)))
	}
	if p := a.Progress("onProgress"); p != nil {
		o.Progress = func(s lp.Progress) bool { return p(s.Iteration, s.Objective, s.Infeasibility, s.Phase, s.Bound) }
	}
	return o
}
