package moreapi

import (
	. "github.com/qif-toolkit/qif/bindings/table"
	"time"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/privacy"
)

var (
	pDelta  = Param{Name: "delta", Kind: KindNumber, Doc: "δ, a probability"}
	pBudget = Param{Name: "budgetMs", Kind: KindNumber, Check: CheckPositive, Default: float64(graph.DefaultVTPlusBudget / time.Millisecond),
		Doc: "time for the automorphism search, milliseconds (at most 600000)"}
	fIndividuals = Param{Name: "individuals", Kind: KindInteger, Required: true, Doc: "number of individuals u (records in the database)"}
	fValues      = Param{Name: "values", Kind: KindInteger, Required: true, Doc: "number of values v of each record"}
	fEpsilon     = Param{Name: "epsilon", Kind: KindNumber, Required: true, Doc: "privacy parameter ε, nats"}
)

const (
	epsilonTeX = `\varepsilon(C) = \max_{x\sim x',\,y} \ln \frac{C(x,y)}{C(x',y)}`
	deltaTeX   = `\delta(\varepsilon) = \max_{x\sim x'} \sum_y \max\big(0,\ C(x,y) - e^{\varepsilon} C(x',y)\big)`
)

var privacyAPI = []Func{
	{NS: "privacy", Name: "epsilon", Params: []*Param{&pC, &pGraph}, Result: Number, Source: icalp + " §2.1", TeX: epsilonTeX,
		Doc:  "Smallest ε (nats) for which C is ε-DP on the adjacency graph (Infinity when none).",
		Call: func(a *Args) (any, error) { e, _, err := privacy.Epsilon(a.Mat("C"), a.Graph("graph")); return e, err }},
	{NS: "privacy", Name: "epsilonDetail", Params: []*Param{&pC, &pGraph}, Source: icalp + " §2.1", TeX: epsilonTeX,
		Result: Type{Name: "EpsilonDetail", Doc: "Where a privacy value is reached: inputs x ∼ x2 and output y (absent when there is no pair).", Fields: []Field{
			{Name: "epsilon", Type: Number, Doc: "Smallest ε, nats (Infinity when no ε suffices)."},
			{Name: "x", Type: Number, Optional: true}, {Name: "x2", Type: Number, Optional: true}, {Name: "y", Type: Number, Optional: true}}},
		Doc: "Smallest ε (nats) with the adjacent inputs x, x2 and output y where it is reached.",
		Call: func(a *Args) (any, error) {
			e, w, err := privacy.Epsilon(a.Mat("C"), a.Graph("graph"))
			out := Obj{"epsilon": e}
			if w.X >= 0 {
				out["x"], out["x2"] = w.X, w.X2
				if w.Y >= 0 {
					out["y"] = w.Y
				}
			}
			return out, err
		}},
	{NS: "privacy", Name: "isDP", Params: []*Param{&pC, &pGraph, &pEpsilon}, Result: Boolean, Source: icalp + " §2.1",
		Doc: "Whether C is ε-DP on the graph (ε in nats).", TeX: `C(x,y) \le e^{\varepsilon}\,C(x',y)\ \ \forall x\sim x',\,y`,
		Call: func(a *Args) (any, error) { return privacy.IsDP(a.Mat("C"), a.Graph("graph"), a.Float("epsilon")) }},
	{NS: "privacy", Name: "groupEpsilon", Params: []*Param{&pC, &pGraph, {Name: "k", Kind: KindInteger, Doc: "group size: inputs at graph distance ≤ k"}},
		Result: Number, Source: vadhan, TeX: `\varepsilon_k = \max_{d(x,x')\le k,\,y} \ln \frac{C(x,y)}{C(x',y)}`,
		Doc: "Smallest ε_k (nats) over inputs at graph distance ≤ k (group privacy; ≤ k·ε).",
		Call: func(a *Args) (any, error) {
			e, _, err := privacy.GroupEpsilon(a.Mat("C"), a.Graph("graph"), a.Int("k"))
			return e, err
		}},
	{NS: "privacy", Name: "delta", Params: []*Param{&pC, &pGraph, &pEpsilon}, Result: Number, Source: vadhan, TeX: deltaTeX,
		Doc: "Smallest δ (probability) for which C is (ε, δ)-DP on the graph, ε in nats.",
		Call: func(a *Args) (any, error) {
			d, _, err := privacy.Delta(a.Mat("C"), a.Graph("graph"), a.Float("epsilon"))
			return d, err
		}},
	{NS: "privacy", Name: "epsilonForDelta", Params: []*Param{&pC, &pGraph, &pDelta}, Result: Number, Source: vadhan,
		Doc: "Smallest ε (nats) for which C is (ε, δ)-DP on the graph (Infinity when none); infoPrivacy.epsilonForDelta is the same function.", TeX: epsilonForDeltaTeX,
		Call: epsilonForDelta},
	{NS: "privacy", Name: "dPrivacyEpsilon", Params: []*Param{&pC, &pMetric}, Result: Number, Source: csf + " §4.1",
		Doc: "Smallest ε (nats) with C ε·D-private for the metric D (d-privacy).", TeX: `\max_{x\ne x',\,y} \frac{\ln C(x,y) - \ln C(x',y)}{D(x,x')}`,
		Call: func(a *Args) (any, error) {
			e, _, err := privacy.DPrivacyEpsilon(a.Mat("C"), a.Mat("D"))
			return e, err
		}},
	{NS: "privacy", Name: "inducedMetric", Params: []*Param{&pC}, Result: MatrixOut, Source: csf + " §4.5",
		Doc: "Metric induced by C: d(x,x') = max_y |ln C[x][y] − ln C[x'][y]|, nats.", TeX: `d_C(x,x') = \max_y \big|\ln C(x,y) - \ln C(x',y)\big|`,
		Call: func(a *Args) (any, error) { return result(privacy.InducedMetric(a.Mat("C"))) }},
	{NS: "privacy", Name: "leakageBound", Params: []*Param{{Name: "options", Kind: KindOptions, Type: "HammingBoundOptions", Fields: []*Param{&fIndividuals, &fValues, &fEpsilon}}},
		Result: Number, Source: icalp + " Thm 5.1", TeX: `u\log_2 \frac{v\,e^{\varepsilon}}{v - 1 + e^{\varepsilon}}`,
		Doc: "Bound on the min-entropy leakage of any ε-DP mechanism on the Hamming graph, bits.",
		Call: func(a *Args) (any, error) {
			return privacy.LeakageBound(a.Int("individuals"), a.Int("values"), a.Float("epsilon"))
		}},
	{NS: "privacy", Name: "individualLeakageBound", Params: []*Param{{Name: "options", Kind: KindOptions, Fields: []*Param{&fValues, &fEpsilon}}},
		Result: Number, Source: icalp + " Prop. 2", TeX: `\log_2 \frac{v\,e^{\varepsilon}}{v - 1 + e^{\varepsilon}}`,
		Doc:  "Bound on the min-entropy leakage about one individual, bits.",
		Call: func(a *Args) (any, error) { return privacy.IndividualLeakageBound(a.Int("values"), a.Float("epsilon")) }},
	{NS: "privacy", Name: "hammingUtilityBound", Params: []*Param{{Name: "options", Kind: KindOptions, Type: "HammingBoundOptions", Fields: []*Param{&fIndividuals, &fValues, &fEpsilon}}},
		Result: Type{Fields: []Field{{Name: "bound", Type: Number}, {Name: "log2Bound", Type: Number}}},
		Source: icalp + " Thm 6.1", TeX: `\big(1 + (v-1)\,e^{-\varepsilon}\big)^{-u}`,
		Doc: "Analytic utility bound on the Hamming graph, any size: bound (probability) and its log₂.",
		Call: func(a *Args) (any, error) {
			b, lb, err := privacy.HammingUtilityBound(a.Int("individuals"), a.Int("values"), a.Float("epsilon"))
			return Obj{"bound": b, "log2Bound": lb}, err
		}},
	{NS: "privacy", Name: "utilityBound", Params: []*Param{&pGraph, &pEpsilon, {Name: "options", Kind: KindOptions, Optional: true, Fields: []*Param{&pBudget}}},
		Source: icalp + " Thms 4.1, 6.1", TeX: `\mathcal{U} \le \Big(\sum_d n_d\, e^{-\varepsilon d}\Big)^{-1}`,
		Doc: "Utility bound for the answer graph, with the graph's symmetry.",
		Result: Type{Name: "UtilityBound", Doc: "Result of privacy.utilityBound.", Fields: []Field{
			{Name: "bound", Type: Number, Doc: "Upper bound 1/Σ_d n_d e^{−εd} on the utility (probability) of any ε-DP mechanism on the graph."},
			{Name: "log2Bound", Type: Number, Doc: "log₂ of bound (finite where bound underflows)."},
			{Name: "vertex", Type: Number, Doc: "The vertex whose distance distribution gives the bound."},
			{Name: "sameForAllVertices", Type: Boolean, Doc: "Whether Σ_d n_d e^{−εd} is the same from every vertex."},
			{Name: "distanceRegular", Type: Boolean},
			{Name: "vtPlus", Type: Type{TS: "boolean | null"}, Doc: "Whether the graph is VT+ (null: the automorphism search ran out of budget)."},
			{Name: "tight", Type: Boolean, Doc: "Whether the bound is known to be reached: every vertex has the same distance distribution (as on distance-regular and VT+ graphs), so Theorem 6.2's mechanism attains it; false means not known."}}},
		Call: func(a *Args) (any, error) {
			budget, err := milliseconds(a, "budgetMs")
			if err != nil {
				return nil, err
			}
			r, err := privacy.UtilityBoundBudget(a.Graph("graph"), a.Float("epsilon"), budget)
			if err != nil {
				return nil, err
			}
			return Obj{"bound": r.Bound, "log2Bound": r.Log2Bound, "vertex": r.Vertex, "sameForAllVertices": r.SameForAllVertices,
				"distanceRegular": r.DistanceRegular, "vtPlus": answer(r.VTPlus), "tight": r.Tight}, nil
		}},
}

// milliseconds reads a budget in milliseconds, at most ten minutes.
func milliseconds(a *Args, name string) (time.Duration, error) {
	ms := a.Float(name)
	if ms > 600_000 {
		return 0, argerr.New(name, "at most 600000 milliseconds, got %v", ms)
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// answer is a three-valued graph answer as true, false or null.
func answer(a graph.Answer) any {
	switch a {
	case graph.Yes:
		return true
	case graph.No:
		return false
	}
	return nil
}

// epsilonForDelta is the one implementation of ε(δ) behind privacy.epsilonForDelta and
// infoPrivacy.epsilonForDelta.
func epsilonForDelta(a *Args) (any, error) {
	e, _, err := privacy.EpsilonForDelta(a.Mat("C"), a.Graph("graph"), a.Float("delta"))
	return e, err
}

const epsilonForDeltaTeX = `\min\{\varepsilon : \delta(\varepsilon) \le \delta\}`
