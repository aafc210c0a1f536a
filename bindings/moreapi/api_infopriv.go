package moreapi

import (
	"context"
	"errors"
	. "github.com/qif-toolkit/qif/bindings/table"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/infopriv"
	"gonum.org/v1/gonum/mat"
)

var (
	fDomains  = Param{Name: "domains", Kind: KindIndices, Required: true, Doc: "domains[i]: the number of values of record i"}
	fChannel  = Param{Name: "channel", Kind: KindMatrix, Doc: "the tuple channel: one row per tuple, lexicographic order (record 0 most significant)"}
	fTable    = Param{Name: "table", Kind: KindIndices, Doc: "instead of channel: table[t], the answer index of tuple t of a deterministic query"}
	fNoise    = Param{Name: "noise", Kind: KindMatrix, Doc: "with table: the noise channel, one row per answer"}
	pDomains  = Param{Name: "domains", Kind: KindIndices, Doc: "domains[i]: the number of values of record i"}
	pCapacity = Param{Name: "capacity", Kind: KindNumber, Doc: "a capacity, bits"}
	pPower    = Param{Name: "power", Kind: KindNumber, Doc: "signal power P"}
)

// tupleChannel is the channel given as channel, or composed from table and noise.
func tupleChannel(a *Args) (*mat.Dense, error) {
	switch {
	case a.Has("channel") && (a.Has("table") || a.Has("noise")):
		return nil, errors.New("options: give either channel or table and noise, not both")
	case a.Has("channel"):
		return a.Mat("channel"), nil
	case a.Has("table") && a.Has("noise"):
		return infopriv.QueryChannel(a.Ints("domains"), a.Ints("table"), a.Mat("noise"))
	}
	return nil, argerr.New("channel", "missing; give channel (one row per tuple) or table and noise")
}

var infoPrivacyAPI = []Func{
	{NS: "infoPrivacy", Name: "individualCapacity", Source: wu + " Thm 3.1",
		Params: []*Param{{Name: "options", Kind: KindOptions, Type: "IndividualCapacityOptions", Doc: "the tuple channel: {domains, channel} or {domains, table, noise}", Fields: []*Param{&fDomains, &fChannel, &fTable, &fNoise,
			{Name: "tolerance", Kind: KindNumber, Check: CheckPositive, Default: 1e-9, Doc: "Blahut–Arimoto gap of each sub-channel, bits"}, &doneTotal}}},
		Result: Type{Name: "IndividualCapacity", Doc: "Result of infoPrivacy.individualCapacity.", Fields: []Field{
			{Name: "capacity", Type: Number, Doc: "Individual channel capacity, bits (the Shannon capacity of the worst sub-channel)."},
			{Name: "upperBound", Type: Number, Doc: "Certified upper bound, bits."},
			{Name: "individual", Type: Number, Doc: "The record i of the worst sub-channel."},
			{Name: "others", Type: IntList, Doc: "Values of the other records (j ≠ i, increasing j) in the worst sub-channel."},
			{Name: "prior", Type: VectorOut, Doc: "Capacity-achieving distribution on the values of that record."},
			{Name: "subChannels", Type: Number, Doc: "Number of sub-channels Σ_i Π_{j≠i} d_j."},
			{Name: "solved", Type: Number, Doc: "How many of them needed a Blahut–Arimoto run."}}},
		Doc: "Individual channel capacity: Shannon capacity of the worst individual over independent priors, bits.",
		TeX: `\max_i \max_{x_{-i}} \max_{p(x_i)} I(X_i; Y \mid x_{-i})`,
		Call: func(a *Args) (any, error) {
			c, err := tupleChannel(a)
			if err != nil {
				return nil, err
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := &infopriv.Options{Tolerance: a.Float("tolerance")}
			if p := a.Progress("onProgress"); p != nil {
				opts.Progress = func(done, total int) {
					if !p(done, total) {
						cancel()
					}
				}
			}
			r, err := infopriv.IndividualCapacity(ctx, a.Ints("domains"), c, opts)
			if err != nil {
				return nil, err
			}
			return Obj{"capacity": r.Capacity, "upperBound": r.UpperBound, "individual": r.Individual, "others": r.Others,
				"prior": r.Prior, "subChannels": r.SubChannels, "solved": r.Solved}, nil
		}},
	{NS: "infoPrivacy", Name: "individualEpsilon", Params: []*Param{{Name: "options", Kind: KindOptions, Doc: "the tuple channel: {domains, channel} or {domains, table, noise}", Fields: []*Param{&fDomains, &fChannel, &fTable, &fNoise, &fElapsed}}}, Source: wu + " Prop. 1",
		Result: Type{Name: "IndividualEpsilon", Doc: "Result of infoPrivacy.individualEpsilon: the max-case twin of individualCapacity.", Fields: []Field{
			{Name: "epsilon", Type: Number, Doc: "Smallest ε (nats) of ε-DP for \"differ in one record\" (Infinity when none)."},
			{Name: "individual", Type: Number}, {Name: "others", Type: IntList},
			{Name: "values", Type: IntList, Doc: "The two values (a, b) of the individual where ε is reached."},
			{Name: "output", Type: Number, Doc: "The output y where it is reached."}}},
		Doc: "Largest ε (nats) over individuals: ε-DP for \"differ in one record\" on the tuple channel.",
		TeX: `\max_{i,\,x_{-i},\,a,\,b,\,y} \ln \frac{C(y \mid a, x_{-i})}{C(y \mid b, x_{-i})}`,
		Call: func(a *Args) (any, error) {
			c, err := tupleChannel(a)
			if err != nil {
				return nil, err
			}
			r, err := infopriv.IndividualEpsilon(a.Context("onProgress"), a.Ints("domains"), c)
			if err != nil {
				return nil, err
			}
			return Obj{"epsilon": r.Epsilon, "individual": r.Individual, "others": r.Others, "values": r.Values[:], "output": r.Output}, nil
		}},
	{NS: "infoPrivacy", Name: "queryChannel", Result: MatrixOut, Source: wu + " Def. 2",
		Params: []*Param{{Name: "options", Kind: KindOptions, Fields: []*Param{&fDomains,
			{Name: "table", Kind: KindIndices, Required: true, Doc: "table[t]: the answer index of tuple t"},
			{Name: "noise", Kind: KindMatrix, Required: true, Doc: "the noise channel, one row per answer"}}}},
		Doc: "Tuple channel of a deterministic query table composed with a noise channel.",
		Call: func(a *Args) (any, error) {
			return result(infopriv.QueryChannel(a.Ints("domains"), a.Ints("table"), a.Mat("noise")))
		}},
	{NS: "infoPrivacy", Name: "subChannel", Result: MatrixOut, Source: wu + " §3.2",
		Params: []*Param{{Name: "options", Kind: KindOptions, Type: "SubChannelOptions", Doc: "the tuple channel: {domains, channel} or {domains, table, noise}", Fields: []*Param{&fDomains, &fChannel, &fTable, &fNoise,
			{Name: "individual", Kind: KindInteger, Required: true, Doc: "the record i"},
			{Name: "others", Kind: KindIndices, Required: true, Doc: "the values of the other records, in record order"}}}},
		Doc: "Sub-channel of record `individual` with the other records fixed to `others` (row v = value v).",
		Call: func(a *Args) (any, error) {
			c, err := tupleChannel(a)
			if err != nil {
				return nil, err
			}
			return result(infopriv.SubChannel(a.Ints("domains"), c, a.Int("individual"), a.Ints("others")))
		}},
	{NS: "infoPrivacy", Name: "recordGraph", Params: []*Param{&pDomains}, Result: GraphOut, Source: wu + " §2.2",
		Doc:  "Graph \"differ in exactly one record\" on the tuples (vertices numbered as the tuple channel's rows).",
		Call: func(a *Args) (any, error) { return result(infopriv.RecordGraph(a.Ints("domains"))) }},
	{NS: "infoPrivacy", Name: "tuple", Params: []*Param{&pDomains, {Name: "index", Kind: KindInteger, Doc: "a row of the tuple channel"}},
		Result: IntList, Doc: "Values of the records in tuple row `index`.",
		Call: func(a *Args) (any, error) { return infopriv.Tuple(a.Ints("domains"), a.Int("index")) }},
	{NS: "infoPrivacy", Name: "binarySymmetricCapacity", Params: []*Param{{Name: "p", Kind: KindNumber, Doc: "flip probability"}}, Result: Number, Source: wu + " §4.1", TeX: `1 - h(p),\quad h(p) = -p\log_2 p - (1-p)\log_2(1-p)`,
		Doc:  "Capacity 1 − h(p) of the binary symmetric channel with flip probability p, bits.",
		Call: func(a *Args) (any, error) { return infopriv.BinarySymmetricCapacity(a.Float("p")) }},
	{NS: "infoPrivacy", Name: "flipProbability", Params: []*Param{&pCapacity}, Result: Number, Source: wu + " §4.1", TeX: `p \in [0, \tfrac12] \text{ with } 1 - h(p) = c`,
		Doc:  "Flip probability p ∈ [0, ½] whose binary symmetric channel has the given capacity (bits).",
		Call: func(a *Args) (any, error) { return infopriv.FlipProbabilityForCapacity(a.Float("capacity")) }},
	{NS: "infoPrivacy", Name: "gaussianCapacity", Params: []*Param{&pPower, {Name: "sigma", Kind: KindNumber, Doc: "noise standard deviation σ"}}, Result: Number, Source: wu + " §5.1", TeX: `\tfrac12 \log_2\!\big(1 + P/\sigma^2\big)`,
		Doc:  "Capacity ½ log₂(1 + P/σ²) of the Gaussian channel with power P and noise σ, bits.",
		Call: func(a *Args) (any, error) { return infopriv.GaussianCapacity(a.Float("power"), a.Float("sigma")) }},
	{NS: "infoPrivacy", Name: "sigmaForCapacity", Params: []*Param{&pPower, &pCapacity}, Result: Number, Source: wu + " §5.1", TeX: `\sigma = \sqrt{P / (2^{2c} - 1)}`,
		Doc:  "Noise σ for which the Gaussian channel of power P has the given capacity (bits).",
		Call: func(a *Args) (any, error) { return infopriv.SigmaForCapacity(a.Float("power"), a.Float("capacity")) }},
	{NS: "infoPrivacy", Name: "exponentialBeta", Params: []*Param{{Name: "m", Kind: KindInteger, Doc: "number of outputs"}, &pCapacity}, Result: Number, Source: wu + " Def. 13",
		Doc:  "β for which the exponential privacy channel on m outputs has bound log₂ m − H(q) equal to capacity (bits).",
		Call: func(a *Args) (any, error) { return infopriv.ExponentialBetaForBound(a.Int("m"), a.Float("capacity")) }},
	{NS: "infoPrivacy", Name: "dataIndependent", Source: wu + " §4.2",
		Params: []*Param{&pC, {Name: "options", Kind: KindOptions, Optional: true, Fields: []*Param{{Name: "tolerance", Kind: KindNumber, Check: CheckPositive,
			Default: infopriv.DefaultTolerance, Doc: "how far sorted rows may differ and still count as permutations of each other"}}}},
		Result: Type{Name: "DataIndependence", Doc: "Result of infoPrivacy.dataIndependent.", Fields: []Field{
			{Name: "dataIndependent", Type: Boolean, Doc: "Whether every row is a permutation of one distribution q."},
			{Name: "q", Type: VectorOut, Doc: "Row 0 sorted decreasingly (the common q when data-independent)."},
			{Name: "bound", Type: Number, Doc: "log₂|Y| − H(q), bits: a capacity bound when data-independent (NaN otherwise)."},
			{Name: "weaklySymmetric", Type: Boolean},
			{Name: "reachable", Type: Boolean, Doc: "Whether bound is the capacity (some prior makes the output uniform)."},
			{Name: "capacity", Type: Number, Doc: "Shannon capacity, bits."}}},
		Doc: "Data-independence of a channel, its log₂|Y| − H(q) bound (bits) and capacity (bits).", TeX: `C \le \log_2 |Y| - H(q)`,
		Call: func(a *Args) (any, error) {
			r, err := infopriv.AnalyzeDataIndependence(a.Mat("C"), a.Float("tolerance"))
			return Obj{"dataIndependent": r.DataIndependent, "q": r.Q, "bound": r.Bound, "weaklySymmetric": r.WeaklySymmetric,
				"reachable": r.Reachable, "capacity": r.Capacity}, err
		}},
	{NS: "infoPrivacy", Name: "exponentialChannel", Source: wu + " Def. 13",
		Params: []*Param{{Name: "options", Kind: KindOptions, Fields: []*Param{
			{Name: "beta", Kind: KindNumber, Required: true, Doc: "the parameter β"},
			{Name: "distortion", Kind: KindMatrix, Doc: "distortion matrix; give this or n"},
			{Name: "n", Kind: KindInteger, Doc: "instead of distortion: answers 0..n−1 with distortion |r′ − r|"}}}},
		Result: Type{Fields: []Field{{Name: "channel", Type: MatrixOut}, {Name: "q", Type: VectorOut}, {Name: "entropy", Type: Number}, {Name: "bound", Type: Number}}},
		Doc:    "Discrete exponential privacy channel for a distortion matrix or answers 0..n−1 with |r′ − r|.",
		Call: func(a *Args) (any, error) {
			d := a.Mat("distortion")
			if a.Has("n") && d != nil {
				return nil, errors.New("distortion, n: give either distortion or n, not both")
			}
			if !a.Has("n") && d == nil {
				return nil, errors.New("distortion: missing; give distortion (a matrix) or n (answers 0..n−1 with |r′ − r|)")
			}
			var err error
			if d == nil {
				if d, err = infopriv.AbsoluteDistortion(a.Int("n")); err != nil {
					return nil, err
				}
			}
			r, err := infopriv.ExponentialChannel(d, a.Float("beta"))
			return Obj{"channel": r.Channel, "q": r.Q, "entropy": r.Entropy, "bound": r.Bound}, err
		}},
	{NS: "infoPrivacy", Name: "varianceComparison", Source: wu + " §5.2",
		Params: []*Param{{Name: "options", Kind: KindOptions, Fields: []*Param{
			{Name: "sensitivity", Kind: KindNumber, Required: true, Doc: "sensitivity Δ of the query"},
			{Name: "epsilon", Kind: KindNumber, Required: true, Doc: "ε, nats"},
			{Name: "delta", Kind: KindNumber, Required: true, Doc: "δ of the Gaussian mechanism"},
			{Name: "capacity", Kind: KindNumber, Required: true, Doc: "capacity of the Gaussian privacy channel, bits"},
			{Name: "power", Kind: KindNumber, DefaultDoc: "Δ²/4", Doc: "signal power P"}}}},
		Result: Type{Fields: []Field{{Name: "laplace", Type: Number}, {Name: "gaussianMechanism", Type: Number}, {Name: "gaussianPrivacyChannel", Type: Number}, {Name: "power", Type: Number}}},
		Doc:    "Noise variances of the Laplace and Gaussian mechanisms and the Gaussian privacy channel; ε nats, capacity bits.",
		TeX:    `2(\Delta/\varepsilon)^2,\quad 2 \ln(1.25/\delta)\, \Delta^2/\varepsilon^2,\quad P/(2^{2c}-1)`,
		Call: func(a *Args) (any, error) {
			d := a.Float("sensitivity")
			power := d * d / 4
			if a.Has("power") {
				power = a.Float("power")
			}
			v, err := infopriv.CompareVariances(d, a.Float("epsilon"), a.Float("delta"), a.Float("capacity"), power)
			return Obj{"laplace": v.Laplace, "gaussianMechanism": v.GaussianMechanism, "gaussianPrivacyChannel": v.GaussianPrivacyChannel, "power": v.Power}, err
		}},
	{NS: "infoPrivacy", Name: "deltaCurve", Source: vadhan,
		Params: []*Param{&pC, &pGraph, {Name: "options", Kind: KindOptions, Optional: true, Fields: []*Param{
			{Name: "points", Kind: KindInteger, Check: CheckPositive, Default: 101, Doc: "number of ε sampled (at least 2)"},
			{Name: "maxEpsilon", Kind: KindNumber, Check: CheckPositive, DefaultDoc: "where δ stops changing", Doc: "largest ε sampled, nats"}, &fElapsed}}},
		Result: Type{Fields: []Field{{Name: "epsilon", Type: VectorOut}, {Name: "delta", Type: VectorOut}, {Name: "pureEpsilon", Type: Number}}},
		Doc:    "δ(ε) sampled at `points` ε from 0 to maxEpsilon (nats); pureEpsilon is the smallest ε with δ = 0.",
		TeX:    `\delta(\varepsilon) = \max_{x\sim x'} \sum_y \max\big(0,\ C(x,y) - e^{\varepsilon} C(x',y)\big)`,
		Call: func(a *Args) (any, error) {
			r, err := infopriv.DeltaCurveOf(a.Context("onProgress"), a.Mat("C"), a.Graph("graph"), a.Int("points"), a.Float("maxEpsilon"))
			return Obj{"epsilon": r.Epsilon, "delta": r.Delta, "pureEpsilon": r.PureEpsilon}, err
		}},
	{NS: "infoPrivacy", Name: "epsilonForDelta", Params: []*Param{&pC, &pGraph, &pDelta}, Result: Number, Source: vadhan,
		Doc: "Smallest ε (nats) for which C is (ε, δ)-DP on the graph (Infinity when none): the same function as privacy.epsilonForDelta, offered here beside deltaCurve.", TeX: epsilonForDeltaTeX,
		Call: epsilonForDelta},
	{NS: "infoPrivacy", Name: "bayesRatios", Params: []*Param{&pPrior, &pC}, Source: vadhan,
		Result: Type{Fields: []Field{{Name: "ratios", Type: MatrixOut}, {Name: "max", Type: Number}, {Name: "min", Type: Number},
			{Name: "maxAt", Type: IntList}, {Name: "minAt", Type: IntList}, {Name: "epsilon", Type: Number}}},
		Doc: "Posterior/prior ratios C[x][y]/p(y), their extremes and the ε (nats) of C on the clique of its rows.",
		TeX: `e^{-\varepsilon} \le \frac{p(v\mid y)}{\pi(v)} = \frac{C(y\mid v)}{p(y)} \le e^{\varepsilon}`,
		Call: func(a *Args) (any, error) {
			r, err := infopriv.BayesRatiosOf(a.Vec("prior"), a.Mat("C"))
			if err != nil {
				return nil, err
			}
			return Obj{"ratios": r.Ratios, "max": r.Max, "min": r.Min, "maxAt": r.MaxAt[:], "minAt": r.MinAt[:], "epsilon": r.Epsilon}, nil
		}},
}
