package bindings

import (
	"errors"

	"github.com/qif-toolkit/qif/core/channel"
)

// Parameters shared across namespaces.
var (
	pC     = Param{Name: "C", Label: "channel", Kind: KindMatrix, Doc: "channel: rows secrets, columns observables, each row sums to 1"}
	pPrior = Param{Name: "prior", Kind: KindVector, Doc: "prior π on the secrets (non-negative, sums to 1)"}
	pA     = Param{Name: "A", Kind: KindMatrix, Doc: "a channel"}
	pB     = Param{Name: "B", Kind: KindMatrix, Doc: "a channel on the same secrets"}
)

// The papers functions come from.
const (
	csf    = "Chatzikokolakis et al. (CSF 2019)"
	icalp  = "Alvim et al. (ICALP 2011)"
	fosad  = "Alvim et al. (FOSAD 2011)"
	wu     = "Wu (2019)"
	vadhan = "Vadhan (2013)"
	// libqif is the source of the definitions that follow the libqif library (as in package moreapi).
	libqif = "Mathematics §8 (libqif)"
)

// result passes a typed result on as any, keeping a nil pointer from becoming a non-nil any.
func result[T any](v *T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// channelAPI holds the functions of the channel namespace that this module serves; the others,
// which need linear programming or sampling, are in bindings/moreapi/api_channel.go. Which module
// serves each channel function is stated once, in bindings/apigen/split.go, which the generator
// holds both tables to (a WebAssembly binary links its own package only, so the two halves cannot
// share a file without the first module linking the second's solvers).
var channelAPI = []Func{
	{NS: "channel", Name: "validate", Params: []*Param{&pC}, Result: Type{TS: "true"},
		Doc:  "Checks that C is a channel (finite, non-negative, rows summing to 1); returns true or throws.",
		TeX:  `C(x,y) \ge 0,\ \sum_y C(x,y) = 1`,
		Call: func(a *Args) (any, error) { return true, channel.Validate(a.Mat("C")) }},
	{NS: "channel", Name: "hyper", Params: []*Param{&pPrior, &pC}, Source: csf + " §2",
		Result: Type{Name: "Hyper", Doc: "The hyper-distribution [π▷C]: row k of `inners` is the k-th distinct posterior, `outer[k]` its probability.",
			Fields: []Field{{Name: "outer", Type: VectorOut}, {Name: "inners", Type: MatrixOut}}},
		Doc: "Hyper-distribution of prior π through C: the distinct posteriors (inners) and their probabilities (outer).",
		TeX: `[\pi\triangleright C] = \sum_y p(y)\,\big[\,p(\cdot\mid y)\,\big]`,
		Call: func(a *Args) (any, error) {
			h, err := channel.Hyper(a.Vec("prior"), a.Mat("C"))
			if err != nil {
				return nil, err
			}
			return Obj{"outer": h.Outer, "inners": h.Inners}, nil
		}},
	{NS: "channel", Name: "reduce", Params: []*Param{&pC}, Result: MatrixOut,
		Doc:  "Reduced channel: all-zero columns dropped, proportional columns merged (same leakage for every prior and gain).",
		Call: func(a *Args) (any, error) { return result(channel.Reduce(a.Mat("C"))) }},
	{NS: "channel", Name: "cascade", Params: []*Param{&pA, &pB}, Result: MatrixOut,
		Doc: "Cascade A·B: the output of A fed into B (A n×m, B m×k) → n×k channel.", TeX: `(AB)(x,z) = \sum_y A(x,y)\,B(y,z)`,
		Call: func(a *Args) (any, error) { return result(channel.Cascade(a.Mat("A"), a.Mat("B"))) }},
	{NS: "channel", Name: "parallel", Params: []*Param{&pA, &pB}, Result: MatrixOut,
		Doc: "Parallel composition A‖B on the same secret: outputs are pairs (y, z), column y·cols(B) + z.", TeX: `(A\parallel B)(x,(y,z)) = A(x,y)\,B(x,z)`,
		Call: func(a *Args) (any, error) { return result(channel.Parallel(a.Mat("A"), a.Mat("B"))) }},
	{NS: "channel", Name: "iterativeBayesianUpdate", Source: libqif,
		Params: []*Param{&pC, {Name: "observed", Kind: KindVector, Doc: "observed frequencies of the outputs (one per column of C, summing to 1)"},
			{Name: "options", Kind: KindOptions, Optional: true, Type: "IterativeBayesianUpdateOptions", Fields: []*Param{
				{Name: "maxDiff", Kind: KindNumber, Check: CheckPositive, Default: channel.DefaultIBUMaxDiff, Doc: "stop once a step moves the estimate by at most this much (L1)"},
				{Name: "maxIterations", Kind: KindInteger, Check: CheckPositive, Default: channel.DefaultIBUMaxIterations, Doc: "largest number of steps"},
				{Name: "accelerate", Kind: KindBoolean, Default: true, Doc: "extrapolate between steps (SQUAREM, Varadhan and Roland 2008): same fixed point and stopping rule, far fewer steps on noisy channels; false applies the plain steps, as libqif"},
				{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"iterations", "diff"}, Doc: "called about every 16 steps with the steps made and the L1 move of the last one; return false to cancel (error.partial holds the estimate so far)"}}}},
		Result: Type{Name: "IterativeBayesianUpdate", Doc: "Result of channel.iterativeBayesianUpdate.", Fields: []Field{
			{Name: "prior", Type: VectorOut, Doc: "The estimate of the input distribution (sums to 1)."},
			{Name: "iterations", Type: Number, Doc: "Steps π ↦ π' made, the converged step included (extrapolations are not counted)."},
			{Name: "converged", Type: Boolean, Doc: "Whether the last step moved the estimate by at most maxDiff (false when stopped by maxIterations)."}}},
		Doc: "Estimates the input distribution of C from observed output frequencies by the iterative Bayesian update (expectation–maximization from the uniform prior, accelerated by SQUAREM). An output observed with positive frequency that no secret can produce is an error naming observed.",
		TeX: `\pi'_x = \pi_x \sum_y C(x,y)\,\frac{o_y}{(\pi C)_y}`,
		Call: func(a *Args) (any, error) {
			opt := &channel.IBUOptions{Plain: !a.Bool("accelerate")}
			if p := a.Progress("onProgress"); p != nil {
				opt.Progress = func(q channel.IBUProgress) bool { return p(q.Iterations, q.Diff) }
			}
			r, err := channel.IterativeBayesianUpdateWith(a.Mat("C"), a.Vec("observed"), a.Float("maxDiff"), a.Int("maxIterations"), opt)
			if err != nil && !errors.Is(err, channel.ErrIBUCancelled) {
				return nil, err
			}
			return Obj{"prior": r.Prior, "iterations": r.Iterations, "converged": r.Converged}, nil
		}},
}
