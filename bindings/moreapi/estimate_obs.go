package moreapi

import (
	"errors"
	"math"

	. "github.com/qif-toolkit/qif/bindings/table"

	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/estimate"
)

// The options that say how observations are read (every estimate function) and how numbers are
// grouped (mutualInformation, minEntropyLeakage).
var (
	pKind = Param{Name: "kind", Kind: KindEnum, Enum: []string{estimate.KindAuto, estimate.KindLabels, estimate.KindNumbers}, Default: estimate.KindAuto,
		Doc: "how the observations are read: 'numbers' (vectors compared by distance) or 'labels' (names, equal or not); 'auto': a Matrix, a Float64Array or an array of number vectors is numbers, strings and integer typed arrays are labels, and a plain array of numbers is numbers when a value is not an integer or more than max(20, n/20) values are distinct"}
	pBins = Param{Name: "bins", Kind: table.KindEnumIntegerOrVector, Enum: []string{"fd"},
		Doc: "group numeric observations into bins, each column alike, and estimate on the bins as labels: a number of equal-width bins, 'fd' (Freedman–Diaconis width 2·IQR·n^(−1/3)) or the edges (increasing; values beyond them go to the end bins)"}
	// The fields every estimate result has.
	fKind     = Field{Name: "kind", Type: Type{TS: "'labels' | 'numbers'"}, Doc: "How the observations were read."}
	fWarnings = Field{Name: "warnings", Type: Type{TS: "string[]"}, Doc: "What may be wrong with the data (e.g. a secret column with more than n/2 distinct values: swapped columns?); empty when nothing is."}
	fBins     = Field{Name: "bins", Type: Type{TS: "Float64Array[] | undefined"}, Doc: "Only when the observations were binned: the edges of each observation column's bins (k bins, k + 1 edges)."}
	fNote     = Field{Name: "note", Type: String, Doc: "What the value is an estimate of, in words (e.g. that binning can only lose information)."}
)

// observed is a validated sample with the kind its observations were read as and the warnings.
type observed struct {
	s        *estimate.Sample
	kind     string
	warnings []any
}

// observe reads the secrets, the observations and the kind option of a call.
func observe(a *Args) (*observed, error) {
	o := a.Samples("observations")
	obs, kind, err := estimate.ResolveKind(a.Str("kind"), estimate.Observations{Labels: estimate.Labels(o.Labels), Vectors: o.Vectors}, o.IntegerArray)
	if err != nil {
		return nil, err
	}
	s, err := estimate.NewSample(estimate.Labels(a.Labels("secrets")), obs)
	if err != nil {
		return nil, err
	}
	out := &observed{s: s, kind: kind, warnings: []any{}}
	for _, w := range estimate.SecretWarnings(s) {
		out.warnings = append(out.warnings, w)
	}
	return out, nil
}

// obj is a result with the fields every estimate function returns.
func (o *observed) obj(fields Obj) Obj {
	fields["kind"], fields["warnings"] = o.kind, o.warnings
	return fields
}

// binsInto is obj with the bins' edges when there are some.
func (o *observed) binsInto(fields Obj, edges any) Obj {
	if edges != nil {
		fields["bins"] = edges
	}
	return o.obj(fields)
}

// binned applies the bins option when given: the binned sample, the edges (as a result value) and
// the note; the sample unchanged otherwise.
func (o *observed) binned(a *Args) (*estimate.Sample, any, string, error) {
	if !a.Has("bins") {
		return o.s, nil, "", nil
	}
	var b estimate.Binning
	switch v := a.Get("bins").(type) {
	case string:
		b.FD = true
	case int:
		b.Count = v
	case []float64:
		b.Edges = v
	}
	s, edges, err := estimate.Bin(o.s, b)
	if err != nil {
		return nil, nil, "", err
	}
	cols := make([]any, len(edges))
	for i, e := range edges {
		cols[i] = e
	}
	return s, cols, "binned observations: a function of the observations can only lose information (data processing), so this estimates the leakage of the bins, at most that of the unbinned observations", nil
}

// nnMutualInformation is estimate.mutualInformation with method 'nn'.
func nnMutualInformation(a *Args, o *observed) (any, error) {
	opt := estimate.NNMIOptions{K: a.Int("k"), Confidence: a.Float("confidence"), Seed: uint64(a.Int("seed"))}
	if a.Has("shuffles") {
		opt.Shuffles = a.Int("shuffles")
		if opt.Shuffles == 0 {
			opt.Shuffles = -1
		}
	}
	if p := a.Progress("onProgress"); p != nil {
		opt.Progress = func(done, total int) bool { return p(done, total) }
	}
	r, err := estimate.NearestNeighbourMI(o.s, opt)
	if r == nil {
		return nil, err
	}
	note := "Ross's nearest-neighbour estimate for numeric observations (max-norm distance); the interval from the spread of the estimate over disjoint parts of the sample, widened by the bias seen there"
	if r.Jittered > 0 {
		// Said, because the values the estimator saw are not exactly those given.
		note += "; repeated values were first spread uniformly within their rounding step (offsets below half the least gap between distinct values), which leaves the mutual information unchanged"
	}
	out := o.obj(Obj{"value": r.Value, "corrected": r.Value, "lower": r.Lower, "upper": r.Upper,
		"zeroLeakageThreshold": r.ZeroLeakageThreshold, "leaks": r.Leaks, "method": "nn", "k": r.K,
		"note": note})
	if errors.Is(err, estimate.ErrCancelled) {
		return out, nil // the interpreter reports the cancellation with this partial result
	}
	return out, err
}

// riskOptions reads what every Bayes-risk estimate takes: k (a rule's name or a number),
// confidence, seed and onProgress.
func riskOptions(a *Args) estimate.BayesRiskOptions {
	opt := estimate.BayesRiskOptions{Confidence: a.Float("confidence"), Seed: uint64(a.Int("seed"))}
	switch k := a.Get("k").(type) {
	case string:
		opt.KRule = k
	case int:
		opt.K = k
	}
	if p := a.Progress("onProgress"); p != nil {
		opt.Progress = func(done, total int) bool { return p(done, total) }
	}
	return opt
}

// riskMinEntropyLeakage is estimate.minEntropyLeakage for numeric observations: from the k-NN
// Bayes risk.
func riskMinEntropyLeakage(a *Args, o *observed) (any, error) {
	opt := riskOptions(a)
	opt.Method = estimate.KNN
	r, err := estimate.MinEntropyLeakageFromRisk(o.s, opt)
	if r == nil || r.Risk == nil {
		return nil, err
	}
	out := o.obj(Obj{"value": r.Value, "lower": r.Lower, "upper": r.Upper, "method": "knn", "k": r.Risk.K,
		"priorVulnerability": r.PriorVulnerability,
		"bayesRisk":          Obj{"value": r.Risk.Value, "lower": r.Risk.Lower, "upper": r.Risk.Upper},
		"note":               riskNote(r)})
	if errors.Is(err, estimate.ErrCancelled) {
		out["value"], out["lower"], out["upper"] = math.NaN(), math.NaN(), math.NaN()
		return out, nil
	}
	return out, err
}

// riskNote says what the min-entropy leakage from the Bayes risk is, and why its upper end is the
// prior's log₂(1/max π̂) when the risk's lower end is 0.
func riskNote(r *estimate.RiskLeakageResult) string {
	note := "log₂((1 − R)/max π̂) with R the k-nearest-neighbour estimate of the Bayes risk on held-out samples; the interval is R's carried through"
	if r.Risk.Lower == 0 {
		note += "; its upper end is log₂(1/max π̂), the most any observation can leak, because measurements that never repeat give no lower bound on the Bayes risk at this sample size"
	}
	return note
}
