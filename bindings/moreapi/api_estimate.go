package moreapi

import (
	"errors"
	. "github.com/qif-toolkit/qif/bindings/table"
	"math"

	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/estimate"
)

// The papers of estimation from samples.
const (
	fbleau   = "Cherubin et al. (S&P 2019)"
	leakiest = "Chothia et al. (CAV 2013)"
)

var (
	pSecrets = Param{Name: "secrets", Kind: table.KindLabels,
		Doc: "the secret of each sample: an array of labels (numbers or strings) or an Int32Array"}
	pObservations = Param{Name: "observations", Kind: table.KindSamples,
		Doc: "the observation of each sample: an array of labels, or a Matrix with one row per sample (a vector observation)"}
	pSeed       = Param{Name: "seed", Kind: KindInteger, Check: CheckNonNegative, Default: 0, Doc: "seed of the random draws (the same seed gives the same result)"}
	pConfidence = Param{Name: "confidence", Kind: KindNumber, Check: CheckPositive, Default: estimate.DefaultConfidence, Doc: "level of the interval (and of the zero-leakage test), strictly between 0 and 1"}
)

// priorVulnerability is max_x π̂(x) of a sample.
func priorVulnerability(s *estimate.Sample) float64 {
	count := make([]int, len(s.SecretNames))
	best := 0
	for _, x := range s.Secret {
		count[x]++
		best = max(best, count[x])
	}
	return float64(best) / float64(s.N)
}

// progress is the onProgress callback of a call as a core progress function (nil without one).
func progress(a *Args) func(done, total int) bool {
	p := a.Progress("onProgress")
	if p == nil {
		return nil
	}
	return func(done, total int) bool { return p(done, total) }
}

// warn adds a core estimate's warnings to the result's.
func (o *observed) warn(ws []string) {
	for _, w := range ws {
		o.warnings = append(o.warnings, w)
	}
}

// names turns a list of labels into a result (an array of strings).
func names(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

var estimateAPI = []Func{
	{NS: "estimate", Name: "channel", Params: []*Param{&pSecrets, &pObservations, {Name: "options", Kind: KindOptions, Optional: true, Type: "EstimateChannelOptions", Fields: []*Param{&pKind,
		{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"done", "total"}, Doc: "called with the steps done and their number (4): 0 once the samples are read (their labels coded), 1 once they are accepted (mostly distinct observations are refused in between), then the observation names sorted, the samples counted, the channel filled; return false to cancel"}}}}, Source: leakiest,
		Result: Type{Name: "EstimatedChannel", Doc: "The frequentist channel and prior of a sample, rows and columns named by the sorted distinct secrets and observations.", Fields: []Field{
			{Name: "channel", Type: MatrixOut, Doc: "Ĉ[x][o] = count(x, o)/count(x)."},
			{Name: "prior", Type: VectorOut, Doc: "π̂(x) = count(x)/n."},
			{Name: "secrets", Type: Type{TS: "string[]"}, Doc: "The row names: the distinct secrets, numbers in increasing order, strings in code-point order."},
			{Name: "observations", Type: Type{TS: "string[]"}, Doc: "The column names: the distinct observations (a vector as \"(a, b)\"), in the same order."},
			{Name: "counts", Type: MatrixOut, Doc: "count(x, o), the number of samples with that secret and observation."}, fKind, fWarnings}},
		Doc: "Estimates the channel and prior from samples (secret, observation): the frequentist channel, on which every measure is the plug-in estimate.",
		TeX: `\hat C(x,o) = \frac{\#(x,o)}{\#x},\quad \hat\pi(x) = \frac{\#x}{n}`,
		Call: func(a *Args) (any, error) {
			o, err := observe(a)
			if err != nil {
				return nil, err
			}
			p := progress(a)
			if p != nil && !p(0, 1+estimate.ChannelSteps) {
				return nil, nil // the interpreter reports the cancellation
			}
			if err := estimate.RefuseDistinct("the frequentist channel", o.s); err != nil {
				return nil, err
			}
			var after func(done, total int) bool
			if p != nil {
				if !p(1, 1+estimate.ChannelSteps) {
					return nil, nil
				}
				after = func(done, total int) bool { return p(1+done, 1+total) }
			}
			c, err := estimate.FrequentistChannelProgress(o.s, after)
			if errors.Is(err, estimate.ErrCancelled) {
				return nil, nil // the interpreter reports the cancellation (no partial channel)
			}
			if err != nil {
				return nil, err
			}
			return o.obj(Obj{"channel": c.Channel, "prior": c.Prior, "secrets": names(c.Secrets), "observations": names(c.Observations), "counts": c.Counts}), nil
		}},
	{NS: "estimate", Name: "mutualInformation", Source: leakiest,
		Params: []*Param{&pSecrets, &pObservations, {Name: "options", Kind: KindOptions, Optional: true, Type: "EstimateMutualInformationOptions", Fields: []*Param{
			&pConfidence,
			{Name: "shuffles", Kind: KindInteger, Check: CheckNonNegative, DefaultDoc: "100, at most 2·10⁷/n (at least 10); method 'nn': 30, at most 10⁷/n (10⁷/(8·d·n) for d coordinates; at least 10)", Doc: "copies of the data with the secrets shuffled, for the zero-leakage test (0: the χ² test alone; method 'nn': leaks is then whether the interval's lower end is above 0); more than 10,000 or 2·10⁷/n (at least 10; method 'nn': 2·10⁷/n in one dimension, 2·10⁷/(8·d·n) in d) are lowered to that"},
			&pSeed, &pKind, &pBins,
			{Name: "method", Kind: KindEnum, Enum: []string{"plugin", "nn"}, DefaultDoc: "'plugin' for labels, 'nn' for numbers", Doc: "the estimator: the plug-in of the frequentist channel (labels, or bins), or Ross's nearest-neighbour estimator (numbers)"},
			{Name: "k", Kind: KindInteger, Check: CheckPositive, Default: estimate.DefaultNNK, Doc: "neighbours of the nearest-neighbour estimator (method 'nn'); every secret needs 2k+1 samples"},
			{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"done", "total"}, Doc: "called with the work done and its total — the plug-in: shuffled copies and bootstrap replicates; method 'nn': the samples visited, (2 + shuffles)·n in all (the sample, its parts, each shuffled copy); return false to cancel"}}}},
		Result: Type{Name: "EstimatedMutualInformation", Doc: "Result of estimate.mutualInformation, in bits.", Fields: []Field{
			{Name: "value", Type: Number, Doc: "The estimate Î: the plug-in (biased upwards), or the nearest-neighbour estimate (method 'nn')."},
			{Name: "corrected", Type: Number, Doc: "Î − (|X̂|−1)(|Ô|−1)/(2n ln 2), the first-order bias correction (may be negative); method 'nn': the value."},
			{Name: "lower", Type: Number, Doc: "Lower end of the confidence interval (0 when the zero-leakage test does not reject)."},
			{Name: "upper", Type: Number, Doc: "Upper end of the confidence interval."},
			{Name: "zeroLeakageThreshold", Type: Number, Doc: "The larger of the χ² quantile /(2n ln 2) and the quantile of Î over shuffled data: what Î stays below when nothing leaks."},
			{Name: "leaks", Type: Boolean, Doc: "Whether value exceeds zeroLeakageThreshold: the data reject \"no leakage\" at the confidence level."},
			{Name: "method", Type: Type{TS: "'plugin' | 'nn'"}, Doc: "The estimator used."},
			{Name: "k", Type: Number, Doc: "The neighbours of method 'nn' (0 for the plug-in)."},
			fKind, fBins, fNote, fWarnings}},
		Doc: "Estimates the mutual information between secrets and observations from samples, with its bias correction, a zero-leakage test and a confidence interval.",
		TeX: `\hat I - \frac{(|\hat X|-1)(|\hat O|-1)}{2n\ln 2}`,
		Call: func(a *Args) (any, error) {
			o, err := observe(a)
			if err != nil {
				return nil, err
			}
			method := a.Str("method")
			if method == "" {
				method = map[string]string{estimate.KindLabels: "plugin", estimate.KindNumbers: "nn"}[o.kind]
				if a.Has("bins") {
					method = "plugin"
				}
			}
			if method == "nn" {
				if a.Has("bins") {
					return nil, argerr.New("bins", "bins go with method 'plugin' (the nearest-neighbour estimator reads the numbers themselves)")
				}
				if o.kind != estimate.KindNumbers {
					return nil, argerr.New("method", "'nn' needs numeric observations, but these are read as labels (kind: 'numbers' reads numbers)")
				}
				return nnMutualInformation(a, o)
			}
			s, edges, note, err := o.binned(a)
			if err != nil {
				return nil, err
			}
			if err := estimate.RefuseDistinct("the plug-in estimate and its tests", s); err != nil {
				return nil, err
			}
			if note == "" {
				note = "the plug-in estimate of the frequentist channel"
			}
			sh := a.Int("shuffles") // absent: 0, the core's default for the sample size
			if a.Has("shuffles") && sh == 0 {
				sh = -1 // none
			}
			r, err := estimate.MutualInformation(s, estimate.LeakageOptions{Confidence: a.Float("confidence"), Shuffles: sh, Seed: uint64(a.Int("seed")), Progress: progress(a)})
			if err != nil {
				return nil, err
			}
			o.warn(r.Warnings)
			return o.binsInto(Obj{"value": r.Value, "corrected": r.Corrected, "lower": r.Lower, "upper": r.Upper,
				"zeroLeakageThreshold": r.ZeroLeakageThreshold, "leaks": r.Leaks, "method": "plugin", "k": 0, "note": note}, edges), nil
		}},
	{NS: "estimate", Name: "minEntropyLeakage", Source: leakiest,
		Params: []*Param{&pSecrets, &pObservations, {Name: "options", Kind: KindOptions, Optional: true, Type: "EstimateMinEntropyLeakageOptions", Fields: []*Param{&pConfidence, &pSeed, &pKind, &pBins,
			{Name: "k", Kind: table.KindEnumOrInteger, Enum: []string{"ln", "log10"}, DefaultDoc: "'ln'", Doc: "numbers: neighbours of the k-NN rule whose Bayes risk gives the leakage: ⌈ln n⌉, ⌈log₁₀ n⌉ (n the training size) or a number"},
			{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"done", "total"}, Doc: "numbers: called with the k-NN predictions made and the total; return false to cancel (labels: one pass over the samples, nothing to report)"}}}},
		Result: Type{Name: "EstimatedLeakage", Doc: "An estimate with its confidence interval, in bits.", Fields: []Field{
			{Name: "value", Type: Number, Doc: "The estimate: the plug-in (labels or bins; biased upwards), or log₂((1 − R)/max π̂) from the k-NN Bayes risk R (numbers)."},
			{Name: "lower", Type: Number, Doc: "Lower end of the confidence interval."},
			{Name: "upper", Type: Number, Doc: "Upper end of the confidence interval."},
			{Name: "method", Type: Type{TS: "'plugin' | 'knn'"}, Doc: "How it was estimated."},
			{Name: "k", Type: Number, Doc: "The k of the k-NN rule (0 for the plug-in)."},
			{Name: "priorVulnerability", Type: Number, Doc: "max π̂(x): the chance of guessing the secret before observing (1 − it is the prior's Bayes risk, the baseline)."},
			{Name: "bayesRisk", Type: Type{TS: "{ value: number; lower: number; upper: number } | undefined"}, Doc: "Method 'knn': the Bayes-risk estimate and interval the leakage comes from."},
			fKind, fBins, fNote, fWarnings}},
		Doc: "Estimates the min-entropy leakage from samples: for labels (or bins) the plug-in estimate with a confidence interval from finite-sample bounds on the posterior and prior vulnerabilities (it allows for the plug-in's bias either way: upwards from noisy columns, downwards from tied prior counts); for numbers, from the k-NN Bayes risk.",
		TeX: `\log_2 \frac{\sum_o \max_x \#(x,o)}{\max_x \#x}`,
		Call: func(a *Args) (any, error) {
			o, err := observe(a)
			if err != nil {
				return nil, err
			}
			if o.kind == estimate.KindNumbers && !a.Has("bins") {
				return riskMinEntropyLeakage(a, o)
			}
			s, edges, note, err := o.binned(a)
			if err != nil {
				return nil, err
			}
			if err := estimate.RefuseDistinct("the plug-in estimate", s); err != nil {
				return nil, err
			}
			if note == "" {
				note = "the plug-in estimate of the frequentist channel"
			}
			r, err := estimate.MinEntropyLeakage(s, estimate.LeakageOptions{Confidence: a.Float("confidence"), Seed: uint64(a.Int("seed"))})
			if err != nil {
				return nil, err
			}
			o.warn(r.Warnings)
			return o.binsInto(Obj{"value": r.Value, "lower": r.Lower, "upper": r.Upper, "method": "plugin", "k": 0,
				"priorVulnerability": priorVulnerability(s), "note": note}, edges), nil
		}},
	{NS: "estimate", Name: "bayesRisk", Source: fbleau,
		Params: []*Param{&pSecrets, &pObservations, {Name: "options", Kind: KindOptions, Optional: true, Type: "EstimateBayesRiskOptions", Fields: []*Param{
			{Name: "method", Kind: KindEnum, Enum: []string{estimate.KNN, estimate.NN, estimate.Frequentist}, Default: estimate.KNN, Doc: "the rule: k nearest neighbours, the nearest neighbour, or the most frequent secret of each observation"},
			{Name: "k", Kind: table.KindEnumOrInteger, Enum: []string{"ln", "log10"}, DefaultDoc: "'ln'", Doc: "neighbours of the k-NN rule: ⌈ln n⌉, ⌈log₁₀ n⌉ (n the training size) or a number"},
			{Name: "testFraction", Kind: KindNumber, Check: CheckPositive, Default: 0.2, Doc: "part of the samples held out to test the rule, strictly between 0 and 1"},
			&pConfidence, &pSeed, &pKind,
			{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"done", "total"}, Doc: "called with the predictions made and the total; return false to cancel"}}}},
		Result: Type{Name: "EstimatedBayesRisk", Doc: "Result of estimate.bayesRisk.", Fields: []Field{
			{Name: "value", Type: Number, Doc: "The rule's error on the test part when trained on the whole training part."},
			{Name: "lower", Type: Number, Doc: "Lower end of the interval, a bound on R* at this sample size: 1 − the Clopper–Pearson upper end of the frequentist rule's success rate on the whole sample (it succeeds at least as often as the Bayes rule); 0 when the observations never repeat."},
			{Name: "upper", Type: Number, Doc: "Upper end, a bound on R* at this sample size: the Clopper–Pearson upper end of the rule's test error (any rule errs at least R*)."},
			{Name: "method", Type: String, Doc: "The rule used."},
			{Name: "k", Type: Number, Doc: "The k used at the full training size (1 for nn, 0 for frequentist)."},
			{Name: "nnBound", Type: Number, Doc: "(L−1)/L·(1 − √(1 − L/(L−1)·R_NN)) at the NN rule's test error R_NN: Cover and Hart's lower bound on R* when R_NN is the asymptotic NN error; at a finite sample an estimate, not a bound (it can exceed R*)."},
			{Name: "nnLower", Type: Number, Doc: "The same formula at the Clopper–Pearson lower end of R_NN: an asymptotic estimate like nnBound (the lower end of the interval before it was made a bound)."},
			{Name: "curve", Type: Type{TS: "{ n: Float64Array; estimate: Float64Array }"}, Doc: "The estimate against the training size n (increasing; the last point is value)."}, fKind, fWarnings}},
		Doc: "Estimates the Bayes risk (the adversary's least probability of error) from samples by training a rule on part of them and testing it on the rest, with an interval whose ends are bounds at the sample size used, the Cover–Hart NN estimate and a convergence curve.",
		TeX: `1 - \mathrm{CP}^{+}\Big(\tfrac{1}{n}\sum_o \max_x \#(x,o)\Big) \le R^* \le \mathrm{CP}^{+}(\hat R_{\text{test}})`,
		Call: func(a *Args) (any, error) {
			o, err := observe(a)
			if err != nil {
				return nil, err
			}
			s := o.s
			opt := riskOptions(a)
			opt.Method, opt.TestFraction = a.Str("method"), a.Float("testFraction")
			r, err := estimate.BayesRisk(s, opt)
			if r == nil {
				return nil, err
			}
			out := o.obj(Obj{"value": r.Value, "lower": r.Lower, "upper": r.Upper, "method": r.Method, "k": r.K,
				"nnBound": r.NNBound, "nnLower": r.NNLower, "curve": Obj{"n": r.CurveN, "estimate": r.CurveEstimate}})
			if errors.Is(err, estimate.ErrCancelled) {
				out["value"], out["lower"], out["upper"], out["nnBound"], out["nnLower"] = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
				return out, nil // the interpreter reports the cancellation, with the curve so far
			}
			return out, err
		}},
}
