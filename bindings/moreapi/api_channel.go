package moreapi

import (
	"errors"

	. "github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/estimate"
	"github.com/qif-toolkit/qif/core/refine"
)

// factorization is the result of channel.factorize and channel.leftFactorize.
var factorization = Type{Name: "Factorization", Doc: "Result of channel.factorize and channel.leftFactorize: whether a channel X reproduces A, and that X.",
	Verdict: "exists", Branches: [2]string{"FactorizationFound", "FactorizationNone"},
	Fields: []Field{
		{Name: "exists", Type: Boolean, Doc: "Whether such a channel X exists (A reproduced within the refinement tolerance)."},
		{Name: "witness", Type: MatrixOut, When: "true", Doc: "When exists: the row-stochastic X."},
		{Name: "maxError", Type: Number, When: "true", Doc: "When exists: the largest entry of |product − A|, recomputed by multiplying X back with A and B as given (rows within the validation tolerance of 1 are normalized for the search, not for this check)."},
		{Name: "lowerBound", Type: Number, When: "false", Optional: true, Doc: "When not and the sizes match: a certified lower bound on min over X of the mean, over the rows of A, of the L1 distance between a row of A and the same row of the product — the same unit in factorize and leftFactorize."},
		{Name: "reason", Type: String, When: "false", Doc: "When not: why, in words."}}}

// factorizationObj encodes a factorization with only the fields that apply.
func factorizationObj(f *refine.Factorization, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if f.Exists {
		return Obj{"exists": true, "witness": f.Witness, "maxError": f.MaxError}, nil
	}
	out := Obj{"exists": false, "reason": f.Reason}
	if f.LowerBound > 0 {
		out["lowerBound"] = f.LowerBound
	}
	return out, nil
}

// channelAPI holds the functions of the channel namespace that this module serves: the ones that
// search for a channel by linear programming (core/refine) or draw samples (core/estimate), kept
// out of the first module, which serves the rest of the namespace (bindings/api_channel.go).
// Which module serves each channel function is stated once, in bindings/apigen/split.go, which
// the generator holds both tables to.
var channelAPI = []Func{
	{NS: "channel", Name: "fromMetric", Params: []*Param{&pMetric}, Result: MatrixOut, Source: csf + " §7.3",
		Doc:  "A channel whose induced metric (privacy order ⊑prv) is exactly the metric D (nats).",
		Call: func(a *Args) (any, error) { return result(refine.FromMetric(a.Mat("D"))) }},
	{NS: "channel", Name: "factorize", Params: []*Param{&pA, &pB}, Result: factorization, Source: libqif,
		Doc:  "Finds a channel X with A = B·X (A is a post-processing of B, B ⊑avg A), or says that none exists (different numbers of rows included).",
		TeX:  `A = B\,X`,
		Call: func(a *Args) (any, error) { return factorizationObj(refine.Factorize(a.Mat("A"), a.Mat("B"))) }},
	{NS: "channel", Name: "leftFactorize", Params: []*Param{&pA, &pB}, Result: factorization, Source: libqif,
		Doc:  "Finds a channel X with A = X·B (every row of A a mixture of the rows of B), or says that none exists (different numbers of columns included).",
		TeX:  `A = X\,B`,
		Call: func(a *Args) (any, error) { return factorizationObj(refine.LeftFactorize(a.Mat("A"), a.Mat("B"))) }},
	{NS: "channel", Name: "sample", Source: fbleau,
		Params: []*Param{&pPrior, &pC, {Name: "n", Kind: KindInteger, Check: CheckNonNegative, Doc: "number of samples"},
			{Name: "options", Kind: KindOptions, Optional: true, Type: "ChannelSampleOptions", Fields: []*Param{&pSeed}}},
		Result: Type{Name: "ChannelSample", Doc: "Samples drawn from a channel, as row and column indices.", Fields: []Field{
			{Name: "secrets", Type: Type{TS: "Int32Array"}, Doc: "x_i ~ π, a row index."},
			{Name: "observations", Type: Type{TS: "Int32Array"}, Doc: "y_i ~ C[x_i], a column index."}}},
		Doc: "Draws n samples (secret, observation) from a prior and channel, reproducibly from a seed (to watch estimates converge to the exact values).",
		TeX: `x_i \sim \pi,\ y_i \sim C(x_i,\cdot)`,
		Call: func(a *Args) (any, error) {
			if n := a.Int("n"); n > MaxEntries {
				return nil, errors.New("n: more than the limit of 50,000,000 samples")
			}
			xs, ys, err := estimate.Draw(a.Vec("prior"), a.Mat("C"), a.Int("n"), uint64(a.Int("seed")))
			if err != nil {
				return nil, err
			}
			return Obj{"secrets": xs, "observations": ys}, nil
		}},
}
