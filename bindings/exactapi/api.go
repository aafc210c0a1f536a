package exactapi

import (
	"errors"
	"math/big"

	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/exact"
	"github.com/qif-toolkit/qif/core/graph"
)

// Namespaces lists the exact mode's namespaces, in the order of the reference and the wire ids.
// "program" is mounted at qif.program (see api_program.go).
var Namespaces = []string{"exact.channel", "exact.measure", "exact.mechanism", "exact.refine", "program"}

// Module is the exact mode's table, served by web/qif-exact.wasm (wasm/exact).
var Module = table.NewModule("exact", Namespaces, channelAPI, measureAPI, mechanismAPI, refineAPI, programAPI)

// Limits are the sizes web/qif.js checks before it writes an exact argument as text.
var Limits = map[string]int{"exactMaxEntries": exact.MaxEntries}

var (
	pPrior    = table.Param{Name: "prior", Kind: table.KindRatVector, Doc: "prior π on the secrets: non-negative rationals summing to exactly 1"}
	pC        = table.Param{Name: "C", Label: "channel", Kind: table.KindRatMatrix, Doc: "channel: rows secrets, columns observables, each row summing to exactly 1"}
	pA        = table.Param{Name: "A", Kind: table.KindRatMatrix, Doc: "a channel"}
	pB        = table.Param{Name: "B", Kind: table.KindRatMatrix, Doc: "a channel on the same secrets"}
	pDist     = table.Param{Name: "p", Kind: table.KindRatVector, Doc: "a probability distribution"}
	pP        = table.Param{Name: "P", Kind: table.KindRatVector, Doc: "a distribution"}
	pQ        = table.Param{Name: "Q", Kind: table.KindRatVector, Doc: "a distribution on the same outcomes"}
	pGain     = table.Param{Name: "gain", Kind: table.KindRatMatrix, Doc: "gain matrix G: rows guesses w, columns secrets x"}
	pLoss     = table.Param{Name: "loss", Kind: table.KindRatMatrix, Doc: "loss matrix L: rows actions w, columns secrets x"}
	pExpEps   = table.Param{Name: "expEpsilon", Kind: table.KindRational, Doc: "the rational e^ε > 1 (2 for ε = ln 2)"}
	pInputs   = table.Param{Name: "n", Kind: table.KindInteger, Check: table.CheckPositive, Doc: "number of inputs 0..n−1"}
	pOutputs  = table.Param{Name: "m", Kind: table.KindInteger, Check: table.CheckPositive, Optional: true, DefaultDoc: "n", Doc: "number of outputs 0..m−1"}
	pH        = table.Param{Name: "H", Label: "mechanism", Kind: table.KindRatMatrix, Doc: "mechanism: rows true answers, columns reported answers"}
	fProgress = table.Param{Name: "onProgress", Kind: table.KindCallback, ArgsObject: true, Type: "ExactProgress",
		CallArgs: []string{"stage", "iterations", "pivots"},
		Doc:      "called during the floating-point solve and after every exact pivot with {stage, iterations, pivots}; return false to cancel"}

	fraction1  = table.Type{TS: "string"}
	fractionsT = table.Type{TS: "string[]"}
	matrixT    = table.Type{TS: "ExactMatrix"}
)

// The formula and the source of an exact function are those of its floating-point twin, the
// function of the same name without "exact." or the one Twins names (bindings/apigen copies them
// into the reference).

// Twins names the floating-point twin of the exact functions whose twin has another name.
var Twins = map[string]string{"exact.mechanism.optimal": "mechanism.optimalLP"}

var measureAPI = []table.Func{
	{NS: "exact.measure", Name: "bayesVulnerability", Params: []*table.Param{&pPrior}, Result: fraction1,
		Doc:  "Bayes vulnerability V(π) = max_x π_x, exactly.",
		Call: func(a *table.Args) (any, error) { return fraction(exact.BayesVulnerability(vec(a, "prior"))) }},
	{NS: "exact.measure", Name: "bayesRisk", Params: []*table.Param{&pPrior}, Result: fraction1,
		Doc:  "Bayes risk 1 − V(π), exactly.",
		Call: func(a *table.Args) (any, error) { return fraction(exact.BayesRisk(vec(a, "prior"))) }},
	{NS: "exact.measure", Name: "posteriorBayesVulnerability", Params: []*table.Param{&pPrior, &pC}, Result: fraction1,
		Doc: "Posterior Bayes vulnerability V[π▷C] = Σ_y max_x π_x C[x][y], exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.PosteriorBayesVulnerability(vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "posteriorBayesRisk", Params: []*table.Param{&pPrior, &pC}, Result: fraction1,
		Doc: "Posterior Bayes risk 1 − V[π▷C], exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.PosteriorBayesRisk(vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "multiplicativeBayesLeakage", Params: []*table.Param{&pPrior, &pC}, Result: fraction1,
		Doc: "Multiplicative Bayes leakage V[π▷C]/V(π), exactly (its log₂ is the min-entropy leakage).",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.MultiplicativeBayesLeakage(vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "additiveBayesLeakage", Params: []*table.Param{&pPrior, &pC}, Result: fraction1,
		Doc: "Additive Bayes leakage V[π▷C] − V(π), exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.AdditiveBayesLeakage(vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "maxCasePosteriorBayesVulnerability", Params: []*table.Param{&pPrior, &pC}, Result: fraction1,
		Doc: "Max-case posterior Bayes vulnerability: the largest Bayes vulnerability of a posterior of an output of positive probability, exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.MaxCasePosteriorBayesVulnerability(vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "gVulnerability", Params: []*table.Param{&pGain, &pPrior}, Result: fraction1,
		Doc: "g-vulnerability V_g(π) = max_w Σ_x G[w][x] π_x (G rows = guesses, cols = secrets), exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.GVulnerability(mat(a, "gain"), vec(a, "prior")))
		}},
	{NS: "exact.measure", Name: "posteriorGVulnerability", Params: []*table.Param{&pGain, &pPrior, &pC}, Result: fraction1,
		Doc: "Posterior g-vulnerability V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y], exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.PosteriorGVulnerability(mat(a, "gain"), vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "multiplicativeGLeakage", Params: []*table.Param{&pGain, &pPrior, &pC}, Result: fraction1,
		Doc: "Multiplicative g-leakage V_g[π▷C]/V_g(π), exactly (V_g(π) must be positive).",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.MultiplicativeGLeakage(mat(a, "gain"), vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "additiveGLeakage", Params: []*table.Param{&pGain, &pPrior, &pC}, Result: fraction1,
		Doc: "Additive g-leakage V_g[π▷C] − V_g(π), exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.AdditiveGLeakage(mat(a, "gain"), vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "lossRisk", Params: []*table.Param{&pLoss, &pPrior}, Result: fraction1,
		Doc:  "Loss risk U_ℓ(π) = min_w Σ_x L[w][x] π_x (L rows = actions, cols = secrets), exactly.",
		Call: func(a *table.Args) (any, error) { return fraction(exact.LossRisk(mat(a, "loss"), vec(a, "prior"))) }},
	{NS: "exact.measure", Name: "posteriorLossRisk", Params: []*table.Param{&pLoss, &pPrior, &pC}, Result: fraction1,
		Doc: "Posterior loss risk Σ_y min_w Σ_x L[w][x] π_x C[x][y], exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.PosteriorLossRisk(mat(a, "loss"), vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "guessingEntropy", Params: []*table.Param{&pDist}, Result: fraction1,
		Doc:  "Guessing entropy: the expected number of guesses (most likely first) to find the secret, exactly.",
		Call: func(a *table.Args) (any, error) { return fraction(exact.GuessingEntropy(vec(a, "p"))) }},
	{NS: "exact.measure", Name: "posteriorGuessingEntropy", Params: []*table.Param{&pPrior, &pC}, Result: fraction1,
		Doc: "Posterior guessing entropy Σ_y p(y) G(δʸ), the expected number of guesses after seeing the output, exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.PosteriorGuessingEntropy(vec(a, "prior"), mat(a, "C")))
		}},
	{NS: "exact.measure", Name: "multiplicativeBayesCapacity", Params: []*table.Param{&pC}, Result: fraction1,
		Doc:  "Multiplicative Bayes capacity Σ_y max_x C[x][y], the largest multiplicative Bayes leakage over priors, exactly (its log₂ is minCapacity).",
		Call: func(a *table.Args) (any, error) { return fraction(exact.MultiplicativeBayesCapacity(mat(a, "C"))) }},
	{NS: "exact.measure", Name: "multiplicativeBayesRiskCapacity", Params: []*table.Param{&pC}, Result: fraction1,
		Doc: "Multiplicative Bayes-risk capacity sup_π R(π)/R[π▷C] = 1/(1 − diam/2), diam the largest L1 distance between two rows, exactly; \"Infinity\" when two rows have disjoint supports. A channel whose n²/2·m row-distance work exceeds the exact work limit is refused on its size, before its entries are read.",
		Sizes: func(d table.Dims) error {
			if c, ok := d["C"]; ok {
				return exact.CheckBayesRiskCapacitySize(c[0], c[1])
			}
			return nil
		},
		Call: func(a *table.Args) (any, error) {
			v, infinite, err := exact.MultiplicativeBayesRiskCapacity(mat(a, "C"))
			if infinite {
				return "Infinity", err
			}
			return fraction(v, err)
		}},
	{NS: "exact.measure", Name: "additiveGCapacity", Result: fraction1,
		Params: []*table.Param{&pPrior, &pC, {Name: "options", Kind: table.KindOptions, Optional: true, Type: "ExactAdditiveGCapacityOptions", Fields: []*table.Param{
			{Name: "gainClass", Kind: table.KindEnum, Enum: []string{string(exact.OneSpanningVulnerability), string(exact.OneSpanningGain)},
				Default: string(exact.OneSpanningVulnerability), Doc: "the class of gain functions maximized over"}}}},
		Doc: "Additive g-capacity of C under the prior π over a class of gain functions (libqif's classes), exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.AdditiveGCapacity(vec(a, "prior"), mat(a, "C"), exact.GainClass(a.Str("gainClass"))))
		}},
	{NS: "exact.measure", Name: "statisticalDistance", Params: []*table.Param{&pP, &pQ}, Result: fraction1,
		Doc:  "Statistical (total variation) distance ½Σ|P − Q|, exactly.",
		Call: func(a *table.Args) (any, error) { return fraction(exact.StatisticalDistance(vec(a, "P"), vec(a, "Q"))) }},
	{NS: "exact.measure", Name: "hockeyStick", Result: fraction1,
		Params: []*table.Param{&pP, &pQ, {Name: "expEpsilon", Kind: table.KindRational, Doc: "the rational e^ε ≥ 1 (1 for ε = 0)"}},
		Doc:    "Hockey-stick divergence Σ_y max(0, P(y) − e^ε Q(y)), the smallest δ, exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.HockeyStick(vec(a, "P"), vec(a, "Q"), rat(a, "expEpsilon")))
		}},
}

var channelAPI = []table.Func{
	{NS: "exact.channel", Name: "hyper", Params: []*table.Param{&pPrior, &pC},
		Result: table.Type{Name: "ExactHyper", Doc: "The exact hyper-distribution [π▷C]: row k of `inners` is the k-th distinct posterior, `outer[k]` its probability.",
			Fields: []table.Field{{Name: "outer", Type: fractionsT, Doc: "Probability of each distinct posterior; they sum to exactly 1."},
				{Name: "inners", Type: matrixT, Doc: "The distinct posteriors, one per row, each summing to exactly 1."},
				{Name: "outputs", Type: table.Type{TS: "number[][]"}, Doc: "outputs[k]: the outputs of C (columns) whose posterior is row k."}}},
		Doc: "Hyper-distribution of π through C in exact arithmetic: outputs of probability 0 dropped, exactly equal posteriors merged.",
		Call: func(a *table.Args) (any, error) {
			h, err := exact.Hyper(vec(a, "prior"), mat(a, "C"))
			if err != nil {
				return nil, err
			}
			return table.Obj{"outer": fractions(h.Outer), "inners": matrixOut(h.Inners), "outputs": h.Outputs}, nil
		}},
	{NS: "exact.channel", Name: "reduce", Params: []*table.Param{&pC}, Result: matrixT,
		Doc: "Reduced channel in exact arithmetic: all-zero columns dropped, exactly proportional columns merged.",
		Call: func(a *table.Args) (any, error) {
			r, err := exact.Reduce(mat(a, "C"))
			if err != nil {
				return nil, err
			}
			return matrixOut(r.Channel), nil
		}},
	{NS: "exact.channel", Name: "cascade", Params: []*table.Param{&pA, &pB}, Result: matrixT,
		Doc:  "Cascade A·B in exact arithmetic: the output of A fed into B (A n×m, B m×k).",
		Call: func(a *table.Args) (any, error) { return matrix(exact.Cascade(mat(a, "A"), mat(a, "B"))) }},
	{NS: "exact.channel", Name: "parallel", Params: []*table.Param{&pA, &pB}, Result: matrixT,
		Doc:  "Parallel composition A‖B in exact arithmetic: outputs are pairs (y, z), column y·cols(B) + z.",
		Call: func(a *table.Args) (any, error) { return matrix(exact.Parallel(mat(a, "A"), mat(a, "B"))) }},
}

var mechanismAPI = []table.Func{
	{NS: "exact.mechanism", Name: "randomizedResponse", Params: []*table.Param{&pInputs, &pExpEps, &pOutputs}, Result: matrixT,
		Doc:  "Randomized response on m outputs (m = n by default) with e^ε = expEpsilon: e^ε/(m−1+e^ε) on the true value, exactly.",
		Call: func(a *table.Args) (any, error) { return matrix(exact.RandomizedResponse(sizes(a))) }},
	{NS: "exact.mechanism", Name: "truncatedGeometric", Params: []*table.Param{&pInputs, &pExpEps, &pOutputs}, Result: matrixT,
		Doc:  "Truncated geometric mechanism on inputs 0..n−1, outputs 0..m−1 (m ≥ n, m = n by default), with α = 1/expEpsilon, exactly.",
		Call: func(a *table.Args) (any, error) { return matrix(exact.TruncatedGeometric(sizes(a))) }},
	{NS: "exact.mechanism", Name: "utility", Result: fraction1,
		Params: []*table.Param{&pPrior, &pH, {Name: "gain", Kind: table.KindRatMatrix, Optional: true, DefaultDoc: "binary gain", Doc: "gain matrix: rows guesses, columns true answers"}},
		Doc:    "Expected gain of the mechanism with the optimal guess for each output (probability for the binary gain), exactly.",
		Call: func(a *table.Args) (any, error) {
			return fraction(exact.Utility(vec(a, "prior"), mat(a, "H"), mat(a, "gain")))
		}},
	{NS: "exact.mechanism", Name: "optimal",
		Doc: "Certified optimal mechanism: the linear program of mechanism.optimalLP in exact arithmetic, from the floating-point basis, with its dual certificate.",
		Params: []*table.Param{{Name: "options", Kind: table.KindOptions, Type: "ExactOptimalOptions", Doc: "the graph (ε-DP) or a metric (ε·d-privacy), e^ε and what to optimize", Fields: []*table.Param{
			{Name: "graph", Kind: table.KindGraph, Doc: "adjacency of the true answers 0..n−1 (ε-DP); give this or metric"},
			{Name: "metric", Kind: table.KindRatMetric, Doc: "n×n distance matrix (ε·d-privacy; Infinity allowed): expEpsilon^d must be rational (integer distances always are)"},
			{Name: "expEpsilon", Kind: table.KindRational, Required: true, Doc: "the rational e^ε > 1 (2 for ε = ln 2)"},
			{Name: "prior", Kind: table.KindRatVector, DefaultDoc: "uniform", Doc: "prior on the true answers"},
			{Name: "gain", Kind: table.KindRatMatrix, DefaultDoc: "binary gain", Doc: "gain matrix |W|×n (rows guesses, columns true answers)"},
			{Name: "loss", Kind: table.KindRatMatrix, Doc: "loss matrix |W|×n: minimize the expected loss instead"},
			&fProgress}}},
		Result: table.Type{Name: "ExactOptimal", Doc: "Result of exact.mechanism.optimal: the exact optimum and its proof.", Fields: []table.Field{
			{Name: "utility", Type: fraction1, Doc: "The exact optimum: expected gain of the mechanism with the optimal guess (or its expected loss when loss was given)."},
			{Name: "mechanism", Type: matrixT, Doc: "An optimal mechanism H, n×|W|: rows true answers, columns reported answers."},
			{Name: "certified", Type: table.Type{TS: "true"}, Doc: "Always true: the mechanism and the prices below were checked to satisfy every constraint and sign exactly, with equal values."},
			{Name: "certificate", Type: table.Type{Name: "ExactCertificate", Doc: "The dual prices proving the optimum: by LP duality Σ rowSums bounds the utility of every private mechanism, and equals it.",
				Fields: []table.Field{{Name: "rowSums", Type: fractionsT, Doc: "Price of Σ_w H[y][w] = 1 for each true answer y; they sum to the utility."},
					{Name: "privacy", Type: table.Type{TS: "ExactPrivacyPrice[]"}, Doc: "The privacy rows H[from][output] ≤ factor·H[to][output] with a nonzero price."}}}},
			{Name: "pivots", Type: table.Number, Doc: "Exact pivots made after the floating-point basis (0 when that basis was optimal as it was)."},
			{Name: "floatIterations", Type: table.Number, Doc: "Simplex iterations of the floating-point solve that found the starting basis."},
			{Name: "repaired", Type: table.Number, Doc: "Variables that basis lost because it was singular in exact arithmetic."},
			{Name: "variables", Type: table.Number, Doc: "Variables and constraints of the linear program."},
			{Name: "constraints", Type: table.Number}}},
		Call: optimal},
}

func optimal(a *table.Args) (any, error) {
	spec := exact.MechanismSpec{Metric: mat(a, "metric"), ExpEpsilon: rat(a, "expEpsilon"), Prior: vec(a, "prior"),
		Gain: mat(a, "gain"), Loss: mat(a, "loss")}
	if g, ok := a.Get("graph").(*graph.Graph); ok {
		spec.Graph = g
	}
	if (spec.Graph == nil) == (spec.Metric == nil) {
		return nil, errors.New("graph, metric: give exactly one (the adjacency or the distance matrix of the answers)")
	}
	spec.Progress = progress(a)
	r, err := exact.OptimalMechanism(spec)
	if err != nil {
		return nil, err
	}
	prices := make([]any, len(r.Certificate.Privacy))
	for i, p := range r.Certificate.Privacy {
		prices[i] = table.Obj{"from": p.From, "to": p.To, "output": p.Output, "factor": p.Factor.RatString(), "price": p.Price.RatString()}
	}
	return table.Obj{"utility": r.Utility.RatString(), "mechanism": matrixOut(r.Mechanism), "certified": r.Certified,
		"certificate": table.Obj{"rowSums": fractions(r.Certificate.RowSums), "privacy": prices},
		"pivots":      r.Pivots, "floatIterations": r.FloatIterations, "repaired": r.Repaired,
		"variables": r.Variables, "constraints": r.Constraints}, nil
}

var refineAPI = []table.Func{
	{NS: "exact.refine", Name: "avg", Params: []*table.Param{&pA, &pB, {Name: "options", Kind: table.KindOptions, Optional: true, Type: "ExactProgressOptions", Fields: []*table.Param{&fProgress}}},
		Doc: "Decides A ⊑avg B in exact arithmetic: a witness R with A·R = B exactly, or a gain and prior under which B is strictly more vulnerable, both vulnerabilities exact.",
		Result: table.Type{Name: "ExactAvgRefinement", Doc: "Result of exact.refine.avg: A ⊑avg B (B = A·R for a row-stochastic R).",
			Verdict: "holds", Branches: [2]string{"ExactAvgRefinementHolds", "ExactAvgRefinementFails"}, Fields: []table.Field{
				{Name: "holds", Type: table.Boolean},
				{Name: "witness", Type: matrixT, When: "true", Doc: "When holds: R (|outputs of A| × |outputs of B|), row-stochastic, with A·R = B exactly."},
				{Name: "counterexample", When: "false", Doc: "When not: a gain function (rows the outputs of B as guesses, columns the secrets) and the uniform prior, with V_g[π▷A] < V_g[π▷B] exactly.",
					Type: table.Type{Fields: []table.Field{{Name: "gain", Type: matrixT}, {Name: "prior", Type: fractionsT},
						{Name: "vulnerabilityA", Type: fraction1}, {Name: "vulnerabilityB", Type: fraction1}}}},
				{Name: "pivots", Type: table.Number, Doc: "Exact pivots made after the floating-point basis."},
				{Name: "floatIterations", Type: table.Number, Doc: "Simplex iterations of the floating-point solve."}}},
		Call: func(a *table.Args) (any, error) {
			r, err := exact.RefineAvg(mat(a, "A"), mat(a, "B"), &exact.RefineOptions{Progress: progress(a)})
			if err != nil {
				return nil, err
			}
			out := table.Obj{"holds": r.Holds, "pivots": r.Pivots, "floatIterations": r.FloatIterations}
			if r.Holds {
				out["witness"] = matrixOut(r.Witness)
			} else {
				ce := r.Counterexample
				out["counterexample"] = table.Obj{"gain": matrixOut(ce.Gain), "prior": fractions(ce.Prior),
					"vulnerabilityA": ce.VulnerabilityA.RatString(), "vulnerabilityB": ce.VulnerabilityB.RatString()}
			}
			return out, nil
		}},
}

// sizes reads (n, expEpsilon, m?) with m defaulting to n.
func sizes(a *table.Args) (n int, expEpsilon *big.Rat, m int) {
	n, m = a.Int("n"), a.Int("m")
	if !a.Has("m") {
		m = n
	}
	return n, rat(a, "expEpsilon"), m
}

// progress hands the onProgress callback to core/exact (nil when absent).
func progress(a *table.Args) func(exact.MechanismProgress) bool {
	p := a.Progress("onProgress")
	if p == nil {
		return nil
	}
	return func(mp exact.MechanismProgress) bool { return p(mp.Stage, mp.Iterations, mp.Pivots) }
}
