//go:build js && wasm

package bindings

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
	"github.com/qif-toolkit/qif/core/mechanism"
	"syscall/js"
)

// qif.mechanism.optimalLP (docs/api.md): the optimal ε-DP (graph) or ε·d-private (metric) mechanism
// for a prior and a gain or loss, by linear programming or, where it is provably optimal, by
// the closed form of Theorem 6.2 (mechanism.OptimalLP).
//
//	optimalLP({graph?, metric?, epsilon, prior?, gain?, loss?, forceLP?, timeLimit?, onProgress?})
//	  → {mechanism, utility, objective, bound, path: 'closed-form'|'lp', reason, status, iterations,
//	     variables, constraints, primalResidual, dualResidual}
//
// Beyond the first version of the API: forceLP (boolean) solves the program even where the closed
// form applies; timeLimit (milliseconds, as in lp.solve) bounds the solve; onProgress({iteration,
// objective, infeasibility, phase}) is called every few hundred simplex iterations and cancels the
// solve by returning false. The mechanism's columns are the guesses (|W| of them: n for the binary
// gain).
func init() {
	Register("mechanism", "optimalLP", func(a *Args) (any, error) {
		if !a.Has(0) {
			return nil, errors.New("options: missing argument 1 ({graph or metric, epsilon, prior?, gain?, loss?})")
		}
		o, err := a.Options(0, "options")
		if err != nil {
			return nil, err
		}
		var spec mechanism.LPSpec
		if o.Has("graph") {
			if spec.Graph, err = ToGraph(o.Get("graph"), "graph"); err != nil {
				return nil, err
			}
		}
		if spec.Metric, err = o.Matrix("metric"); err != nil {
			return nil, err
		}
		if spec.Graph == nil && spec.Metric == nil {
			return nil, errors.New("graph, metric: one of them is required (the adjacency or the distance matrix of the answers)")
		}
		if !o.Has("epsilon") {
			return nil, errors.New("epsilon: missing (the privacy parameter ε, in nats)")
		}
		if spec.Epsilon, err = o.Float("epsilon", 0); err != nil {
			return nil, err
		}
		if spec.Prior, err = o.Vector("prior"); err != nil {
			return nil, err
		}
		if spec.Gain, err = o.Matrix("gain"); err != nil {
			return nil, err
		}
		if spec.Loss, err = o.Matrix("loss"); err != nil {
			return nil, err
		}
		if o.Has("forceLP") {
			f := o.Get("forceLP")
			if f.Type() != js.TypeBoolean {
				return nil, fmt.Errorf("forceLP: expected a boolean, got %s", typeName(f))
			}
			spec.ForceLP = f.Bool()
		}
		solver := &lp.Options{}
		if o.Has("timeLimit") {
			s, err := o.Float("timeLimit", 0)
			if err != nil {
				return nil, err
			}
			if !(s > 0) || math.IsInf(s, 1) {
				return nil, fmt.Errorf("timeLimit: must be a positive number of milliseconds, got %v", s)
			}
			solver.TimeLimit = time.Duration(s * float64(time.Millisecond))
		}
		var cbErr error
		if o.Has("onProgress") {
			cb := o.Func("onProgress")
			if cb.IsUndefined() {
				return nil, fmt.Errorf("onProgress: expected a function, got %s", typeName(o.Get("onProgress")))
			}
			solver.Progress = func(p lp.Progress) bool {
				r := cb.Invoke(map[string]any{
					"iteration":     p.Iteration,
					"objective":     p.Objective,
					"infeasibility": p.Infeasibility,
					"phase":         p.Phase,
				})
				if r.Type() == js.TypeBoolean && !r.Bool() {
					cbErr = errors.New("optimalLP: cancelled by onProgress")
					return false
				}
				return true
			}
		}
		spec.Solver = solver
		r, err := mechanism.OptimalLP(spec)
		if cbErr != nil {
			return nil, cbErr
		}
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"mechanism":   Mat(r.Mechanism),
			"utility":     r.Utility,
			"objective":   r.Objective,
			"path":        r.Path,
			"reason":      r.Reason,
			"status":      r.Status.String(),
			"iterations":  r.Iterations,
			"variables":   r.Variables,
			"constraints": r.Constraints,
			// Additions: the certificate (see mechanism.LPResult).
			"bound":          r.Bound,
			"primalResidual": r.PrimalResidual,
			"dualResidual":   r.DualResidual,
		}, nil
	})
}
