package moreapi

import (
	"context"
	"errors"
	. "github.com/qif-toolkit/qif/bindings/table"
	"math"
	"time"

	"github.com/qif-toolkit/qif/core/refine"
)

var (
	families = []string{"truncatedGeometric", "geometric", "overTruncatedGeometric", "randomizedResponse", "exponential", "exponentialNominal"}
	fFamily1 = Param{Name: "family1", Kind: KindEnum, Enum: families, Required: true, Doc: "the first mechanism family"}
	fFamily2 = Param{Name: "family2", Kind: KindEnum, Enum: families, Required: true, Doc: "the second mechanism family"}
	fOrder   = Param{Name: "order", Kind: KindEnum, Enum: []string{"avg", "max", "prv"}, Default: "avg", Doc: "refinement order"}
	fInputs  = Param{Name: "n", Kind: KindInteger, Required: true, Doc: "number of inputs (1..1000)"}
	fM       = Param{Name: "m", Kind: KindInteger, DefaultDoc: "n", Doc: "number of outputs of both (1..1000)"}
	fM1      = Param{Name: "m1", Kind: KindInteger, DefaultDoc: "m", Doc: "number of outputs of family1"}
	fM2      = Param{Name: "m2", Kind: KindInteger, DefaultDoc: "m", Doc: "number of outputs of family2"}
	fLo      = Param{Name: "lo", Kind: KindNumber, Check: CheckPositive, DefaultDoc: "ε1/1000", Doc: "lower end of the search interval of ε2, nats"}
	fHi      = Param{Name: "hi", Kind: KindNumber, Check: CheckPositive, DefaultDoc: "2·ε1", Doc: "upper end of the search interval of ε2, nats"}
	fRes     = Param{Name: "resolution", Kind: KindNumber, Check: CheckPositive, DefaultDoc: "ε1/1000", Doc: "bisection resolution, nats; at least 4 units in the last place of hi"}
	fElapsed = Param{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"elapsedMs"},
		Doc: "called when the work starts and then about every 100 ms with the milliseconds elapsed; return false to cancel"}
	pProgressOnly = Param{Name: "options", Kind: KindOptions, Optional: true, Type: "ProgressOptions", Fields: []*Param{&fElapsed}}
	doneTotal     = Param{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"done", "total"}, Doc: "called after each step with the steps done and their total; return false to cancel"}
	safeEpsilon   = Type{Name: "SafeEpsilon", Doc: "The largest ε2 (nats) with family1(ε1) ⊑ family2(ε2), by bisection — known to be the largest where `largest` says so.", Fields: []Field{
		{Name: "epsilon1", Type: Number},
		{Name: "epsilon2", Type: Type{TS: "number | null"}, Doc: "Largest ε2 found where the refinement holds (null when it fails already at lo)."},
		{Name: "epsilon2Fails", Type: Type{TS: "number | null"}, Doc: "An ε2 where it fails, within resolution above epsilon2 (null when not found)."},
		{Name: "found", Type: Boolean},
		{Name: "largest", Type: Boolean, Doc: "Whether epsilon2 is known to be the largest (within resolution, in [lo, hi]): true when family2 is the truncated geometric or randomized response, which refine themselves as ε decreases; otherwise epsilon2 is a point where the verdict changes, each side verified."},
		{Name: "atUpper", Type: Boolean, Doc: "Whether it still holds at hi (the largest ε2 may be larger)."},
		{Name: "evaluations", Type: Number, Doc: "Number of refinement tests made."}}}
)

var refineAPI = []Func{
	{NS: "refine", Name: "additiveMetric", Source: libqif,
		Params: []*Param{&pPrior, &pA, &pB, {Name: "options", Kind: KindOptions, Optional: true, Type: "AdditiveMetricOptions", Fields: []*Param{&fElapsed,
			{Name: "timeLimit", Kind: KindNumber, Check: CheckPositiveInf, Default: float64(refine.DefaultAdditiveMetricTimeLimit / time.Millisecond),
				Doc: "wall-clock limit of the exact simplex, milliseconds (Infinity: none); needed only for channels with entries far below 1e-9, and the error then gives the certified bracket"}}}},
		Doc: "How much more B can leak than A for the prior π: the largest V_g[π▷B] − V_g[π▷A] over gain functions bounded by 1 (unbounded below) with a zero-gain guess, and a gain attaining it (0 when A ⊑avg B). Rows of A and B are divided by their sums; the floating-point solution is accepted only when an exactly evaluated gain and an exactly feasible dual bracket the supremum within 1e-9, and otherwise the program is solved exactly in rationals, so the value is the supremum even when it needs gains like −1e52 (channels with tiny entries; that exact phase is bounded by timeLimit). At most 1,000 variables (|outputs of B|·|supp π| + |outputs of A|, about 30×30); larger inputs are refused at once.",
		TeX: `\sup_{g \le 1,\ 0 \in g} \big(V_g[\pi\triangleright B] - V_g[\pi\triangleright A]\big)`,
		Result: Type{Name: "AdditiveMetric", Doc: "Result of refine.additiveMetric.", Fields: []Field{
			{Name: "value", Type: Number, Doc: "sup_g (V_g[π▷B] − V_g[π▷A]) ≥ 0, in gain units (at most 1): what the returned gain attains, computed exactly, at most 1e-9 below the supremum (certified by upperBound)."},
			{Name: "upperBound", Type: Number, Doc: "Certified upper bound on the supremum (value itself when the program was solved exactly)."},
			{Name: "method", Type: String, Doc: "'certified floating point' (the float solution, bracketed exactly within 1e-9) or 'exact' (the rational simplex)."},
			{Name: "gain", Type: MatrixOut, Doc: "A gain function attaining it: rows guesses (one per output of A, one per output of B, then the zero guess), columns secrets; usable with measure.posteriorGVulnerability. Entries can be hugely negative (of the order of 1/(smallest channel entry)); V_g of such a gain cancels in floating point, so compare with vulnerabilityA/B."},
			{Name: "vulnerabilityA", Type: Number, Doc: "V_g[π▷A] for that gain, computed exactly in rationals (rows normalized), then rounded."},
			{Name: "vulnerabilityB", Type: Number, Doc: "V_g[π▷B] for that gain, computed exactly; vulnerabilityB − vulnerabilityA = value within 1e-9 (checked)."},
			{Name: "lpVariables", Type: Number, Doc: "Size of the linear program solved."},
			{Name: "lpConstraints", Type: Number}}},
		Call: func(a *Args) (any, error) {
			limit := time.Duration(-1) // Infinity: no limit
			if ms := a.Float("timeLimit"); ms < 1e12 {
				limit = max(time.Nanosecond, time.Duration(ms*float64(time.Millisecond)))
			}
			r, err := refine.AdditiveMetricWith(a.Vec("prior"), a.Mat("A"), a.Mat("B"), &refine.Options{Context: a.Context("onProgress"), TimeLimit: limit})
			if err != nil {
				return nil, err
			}
			return Obj{"value": r.Value, "upperBound": r.UpperBound, "method": r.Method, "gain": r.Gain, "vulnerabilityA": r.VulnerabilityA, "vulnerabilityB": r.VulnerabilityB,
				"lpVariables": r.LPVariables, "lpConstraints": r.LPConstraints}, nil
		}},
	{NS: "refine", Name: "avg", Params: []*Param{&pA, &pB, &pProgressOnly}, Source: csf + " §2.2, §5.1", TeX: `A \sqsubseteq_{\mathrm{avg}} B \iff \exists R:\ B = A R`,
		Doc: "Decides average-case refinement A ⊑avg B, with a witness R or a verified gain/prior counterexample.",
		Result: Type{Name: "AvgRefinement", Doc: "Result of refine.avg: A ⊑avg B (B = A·R for a row-stochastic R).",
			Verdict: "holds", Branches: [2]string{"AvgRefinementHolds", "AvgRefinementFails"}, Fields: []Field{
				{Name: "holds", Type: Boolean},
				{Name: "residual", Type: Number, Doc: "ρ = (1/n) Σ|A·R − B| for the best R found (probability; holds when ≤ 1e-9)."},
				{Name: "method", Type: String, Doc: "'least squares' (full-column-rank A) or 'linear program'."},
				{Name: "lpVariables", Type: Number, Doc: "Size of the linear program solved (0 on the least-squares path)."},
				{Name: "lpConstraints", Type: Number},
				{Name: "witness", Type: MatrixOut, When: "true", Doc: "When holds: the row-stochastic R (|outputs of A| × |outputs of B|) with A·R = B."},
				{Name: "residualLowerBound", Type: Number, When: "false", Doc: "When not: certified lower bound on the minimum residual."},
				{Name: "counterexample", When: "false", Doc: "When not: a gain function and prior under which B is more vulnerable than A (verified; gain units).",
					Type: Type{Fields: []Field{{Name: "gain", Type: MatrixOut}, {Name: "prior", Type: VectorOut}, {Name: "vulnerabilityA", Type: Number},
						{Name: "vulnerabilityB", Type: Number}, {Name: "guesses", Type: IntList, Doc: "guesses[w]: the output of B that guess w (row w of gain) stands for."}}}}}},
		Call: func(a *Args) (any, error) {
			r, err := refine.AvgWith(a.Mat("A"), a.Mat("B"), &refine.Options{Context: a.Context("onProgress")})
			if err != nil {
				return nil, err
			}
			out := Obj{"holds": r.Holds, "residual": r.Residual, "method": r.Method, "lpVariables": r.LPVariables, "lpConstraints": r.LPConstraints}
			if r.Holds {
				out["witness"] = r.Witness
			} else {
				ce := r.Counterexample
				out["residualLowerBound"] = r.ResidualLowerBound
				out["counterexample"] = Obj{"gain": ce.Gain, "prior": ce.Prior, "vulnerabilityA": ce.VulnerabilityA, "vulnerabilityB": ce.VulnerabilityB, "guesses": r.OutputsB}
			}
			return out, nil
		}},
	{NS: "refine", Name: "max", Params: []*Param{&pA, &pB, &pProgressOnly}, Source: csf + " §3, §5.2", TeX: `A \sqsubseteq_{\max} B \iff \hat B = R\,\hat A`,
		Doc: "Decides max-case refinement A ⊑max B, with a witness or the posterior farthest from the hull.",
		Result: Type{Name: "MaxRefinement", Doc: "Result of refine.max: A ⊑max B (every posterior of B in the convex hull of A's).",
			Verdict: "holds", Branches: [2]string{"MaxRefinementHolds", "MaxRefinementFails"}, Fields: []Field{
				{Name: "holds", Type: Boolean},
				{Name: "outputsA", Type: IntList, Doc: "The non-zero columns of A and B (the outputs whose posteriors are compared)."},
				{Name: "outputsB", Type: IntList},
				{Name: "distances", Type: VectorOut, Doc: "distances[i]: Euclidean distance from the i-th posterior of B to the hull of A's."},
				{Name: "witness", Type: MatrixOut, When: "true", Doc: "When holds: the row-stochastic R with B̂ = R·Â (rows follow outputsB, columns outputsA)."},
				{Name: "counterexample", When: "false", Doc: "When not: the posterior of B farthest from the hull of A's.",
					Type: Type{Fields: []Field{{Name: "posterior", Type: VectorOut},
						{Name: "distance", Type: Number, Doc: "Euclidean distance to the hull, and a certified lower bound on it."},
						{Name: "distanceLowerBound", Type: Number}, {Name: "output", Type: Number, Doc: "The column of B whose posterior this is."},
						{Name: "nearest", Type: VectorOut, Doc: "The point of the hull nearest to it."}}}}}},
		Call: func(a *Args) (any, error) {
			r, err := refine.MaxWith(a.Mat("A"), a.Mat("B"), &refine.Options{Context: a.Context("onProgress")})
			if err != nil {
				return nil, err
			}
			out := Obj{"holds": r.Holds, "outputsA": r.OutputsA, "outputsB": r.OutputsB, "distances": r.Distances}
			if r.Holds {
				out["witness"] = r.Witness
			} else {
				ce := r.Counterexample
				out["counterexample"] = Obj{"posterior": ce.Posterior, "distance": ce.Distance, "distanceLowerBound": ce.DistanceLowerBound, "output": ce.Output, "nearest": ce.Nearest}
			}
			return out, nil
		}},
	{NS: "refine", Name: "prv", Params: []*Param{&pA, &pB}, Source: csf + " §4.5, §5.3", TeX: `A \sqsubseteq_{\mathrm{prv}} B \iff d_A \ge d_B`,
		Doc: "Decides privacy refinement A ⊑prv B (induced metrics d_A ≥ d_B, nats).",
		Result: Type{Name: "PrvRefinement", Doc: "Result of refine.prv: A ⊑prv B (d_A ≥ d_B pointwise).",
			Verdict: "holds", Branches: [2]string{"PrvRefinementHolds", "PrvRefinementFails"}, Fields: []Field{
				{Name: "holds", Type: Boolean},
				{Name: "metricA", Type: MatrixOut, Doc: "The induced metrics d_A and d_B, nats (Infinity allowed)."},
				{Name: "metricB", Type: MatrixOut},
				{Name: "counterexample", When: "false", Doc: "When not: the pair x, x2 with the largest excess d_B(x,x2) − d_A(x,x2) (nats).",
					Type: Type{Fields: []Field{{Name: "x", Type: Number}, {Name: "x2", Type: Number}, {Name: "dA", Type: Number}, {Name: "dB", Type: Number}}}}}},
		Call: func(a *Args) (any, error) {
			r, err := refine.Prv(a.Mat("A"), a.Mat("B"))
			if err != nil {
				return nil, err
			}
			out := Obj{"holds": r.Holds, "metricA": r.MetricA, "metricB": r.MetricB}
			if !r.Holds {
				c := r.Counterexample
				out["counterexample"] = Obj{"x": c.X, "x2": c.X2, "dA": c.DA, "dB": c.DB}
			}
			return out, nil
		}},
	{NS: "refine", Name: "prvMeet", Params: []*Param{&pA, &pB}, Result: MatrixOut, Source: csf + " §7.3",
		Doc:  "Meet under ⊑prv: a channel whose metric is max(d_A, d_B).",
		Call: func(a *Args) (any, error) { return result(refine.PrvMeet(a.Mat("A"), a.Mat("B"))) }},
	{NS: "refine", Name: "prvJoin", Params: []*Param{&pA, &pB}, Result: MatrixOut, Source: csf + " §7.3",
		Doc:  "Join under ⊑prv: a channel whose metric is the shortest-path closure of min(d_A, d_B).",
		Call: func(a *Args) (any, error) { return result(refine.PrvJoin(a.Mat("A"), a.Mat("B"))) }},
	{NS: "refine", Name: "maxMeet", Params: []*Param{&pA, &pB}, Result: MatrixOut, Source: csf + " §7.2",
		Doc:  "Meet under ⊑max: a channel whose posteriors are the union of A's and B's.",
		Call: func(a *Args) (any, error) { return result(refine.MaxMeet(a.Mat("A"), a.Mat("B"))) }},
	{NS: "refine", Name: "posteriors", Params: []*Param{&pC}, Source: csf + " §3",
		Result: Type{Fields: []Field{{Name: "posteriors", Type: MatrixOut}, {Name: "outputs", Type: IntList}}},
		Doc:    "Posteriors Ĉ under the uniform prior: row i is the posterior of output outputs[i] (zero columns dropped).",
		Call: func(a *Args) (any, error) {
			p, outs, err := refine.Posteriors(a.Mat("C"))
			return Obj{"posteriors": p, "outputs": outs}, err
		}},
	{NS: "refine", Name: "hullDistance", Params: []*Param{&pC, {Name: "sigma", Kind: KindVector, Doc: "a distribution on the secrets"}}, Result: Number,
		Doc: "Euclidean distance from the distribution sigma to the convex hull of C's posteriors (uniform prior).", Source: csf + " §5.2",
		Call: func(a *Args) (any, error) { return refine.HullDistance(a.Mat("C"), a.Vec("sigma")) }},
	{NS: "refine", Name: "familyEpsilon", Result: safeEpsilon, Source: csf + " §6.3",
		Params: []*Param{{Name: "options", Kind: KindOptions, Type: "FamilyEpsilonOptions", Fields: []*Param{
			&fFamily1, &fFamily2, &fOrder, &fInputs, &fM, &fM1, &fM2, &fLo, &fHi, &fRes, {Name: "epsilon1", Kind: KindNumber, Required: true, Doc: "ε1 of family1, nats"}, &fElapsed}}},
		Doc: "Largest ε2 (nats) with family1(epsilon1) ⊑ family2(ε2) under the order, by bisection.",
		Call: func(a *Args) (any, error) {
			f1, f2, order, so, err := familyArgs(a)
			if err != nil {
				return nil, err
			}
			so.Context = a.Context("onProgress")
			r, err := refine.SafeEpsilon(f1, a.Float("epsilon1"), f2, order, so)
			if err != nil {
				return nil, err
			}
			return safeEpsilonObj(r), nil
		}},
	{NS: "refine", Name: "safeEpsilonCurve", Source: csf + " §6.3",
		Params: []*Param{{Name: "options", Kind: KindOptions, Type: "SafeEpsilonCurveOptions", Fields: []*Param{
			&fFamily1, &fFamily2, &fOrder, &fInputs, &fM, &fM1, &fM2, &fLo, &fHi, &fRes, {Name: "epsilons1", Kind: KindVector, Required: true, Doc: "the values of ε1, nats"}, &doneTotal}},
			{Name: "onProgress", Kind: KindCallback, Optional: true, CallArgs: []string{"done", "total"}, Doc: "as options.onProgress (this argument wins)"}},
		Result: Type{Fields: []Field{{Name: "points", Type: Type{TS: "SafeEpsilon[]"}}}},
		Doc:    "familyEpsilon for each ε1 in epsilons1 (a curve of the safe ε2 against ε1).",
		Call: func(a *Args) (any, error) {
			f1, f2, order, so, err := familyArgs(a)
			if err != nil {
				return nil, err
			}
			var progress func(done, total int) bool
			if p := a.Progress("onProgress"); p != nil {
				progress = func(done, total int) bool { return p(done, total) }
			}
			pts, err := refine.SafeEpsilonCurve(f1, f2, order, a.Vec("epsilons1"), so, progress)
			list := make([]any, len(pts))
			for i := range pts {
				list[i] = safeEpsilonObj(&pts[i])
			}
			out := Obj{"points": list}
			if errors.Is(err, context.Canceled) {
				return out, nil // the partial result of the cancelled call
			}
			return out, err
		}},
}

// familyArgs reads the fields shared by familyEpsilon and safeEpsilonCurve.
func familyArgs(a *Args) (f1, f2 refine.Mechanism, order refine.Order, so *refine.SearchOptions, err error) {
	if f1.Family, err = refine.ParseFamily(a.Str("family1")); err != nil {
		return
	}
	if f2.Family, err = refine.ParseFamily(a.Str("family2")); err != nil {
		return
	}
	if order, err = refine.ParseOrder(a.Str("order")); err != nil {
		return
	}
	n := a.Int("n")
	m := n
	if a.Has("m") {
		m = a.Int("m")
	}
	f1.N, f2.N, f1.M, f2.M = n, n, m, m
	if a.Has("m1") {
		f1.M = a.Int("m1")
	}
	if a.Has("m2") {
		f2.M = a.Int("m2")
	}
	for _, k := range []int{n, f1.M, f2.M} {
		if k < 1 || k > 1000 {
			err = errors.New("n, m: numbers of inputs and outputs must be between 1 and 1000")
			return
		}
	}
	so = &refine.SearchOptions{Lo: a.Float("lo"), Hi: a.Float("hi"), Resolution: a.Float("resolution")}
	return
}

func safeEpsilonObj(r *refine.SafeEpsilonResult) Obj {
	nullable := func(v float64) any {
		if math.IsNaN(v) {
			return nil
		}
		return v
	}
	return Obj{"epsilon1": r.Epsilon1, "epsilon2": nullable(r.Epsilon2), "epsilon2Fails": nullable(r.Epsilon2Fails),
		"found": r.Found, "largest": r.Largest, "atUpper": r.AtUpper, "evaluations": r.Evaluations}
}
