//go:build js && wasm

package bindings

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
	"syscall/js"
)

// qif.measure: the measures of docs/mathematics.md#entropies-and-leakage (docs/api.md), plus the
// leakage, risk and strategy variants of core/measure.

func init() {
	// f(p)
	dist := func(name string, f func([]float64) (float64, error), arg string) {
		Register("measure", name, func(a *Args) (any, error) {
			p, err := a.Vector(0, arg)
			if err != nil {
				return nil, err
			}
			return f(p)
		})
	}
	// f(prior, C)
	priorChannel := func(name string, f func([]float64, mat.Matrix) (float64, error)) {
		Register("measure", name, func(a *Args) (any, error) {
			prior, err := a.Vector(0, "prior")
			if err != nil {
				return nil, err
			}
			c, err := a.Matrix(1, "channel")
			if err != nil {
				return nil, err
			}
			return f(prior, c)
		})
	}
	// f(G, prior)
	gainPrior := func(name, arg string, f func(mat.Matrix, []float64) (float64, error)) {
		Register("measure", name, func(a *Args) (any, error) {
			g, err := a.Matrix(0, arg)
			if err != nil {
				return nil, err
			}
			prior, err := a.Vector(1, "prior")
			if err != nil {
				return nil, err
			}
			return f(g, prior)
		})
	}
	// f(G, prior, C)
	gainPriorChannel := func(name, arg string, f func(mat.Matrix, []float64, mat.Matrix) (float64, error)) {
		Register("measure", name, func(a *Args) (any, error) {
			g, prior, c, err := gainPriorChannelArgs(a, arg)
			if err != nil {
				return nil, err
			}
			return f(g, prior, c)
		})
	}
	// f(P, Q)
	divergence := func(name string, f func(P, Q []float64) (float64, error)) {
		Register("measure", name, func(a *Args) (any, error) {
			p, err := a.Vector(0, "P")
			if err != nil {
				return nil, err
			}
			q, err := a.Vector(1, "Q")
			if err != nil {
				return nil, err
			}
			return f(p, q)
		})
	}

	dist("shannonEntropy", measure.ShannonEntropy, "p")
	dist("minEntropy", measure.MinEntropy, "p")
	dist("guessingEntropy", measure.GuessingEntropy, "p")
	dist("bayesVulnerability", measure.BayesVulnerability, "prior")
	dist("bayesRisk", measure.BayesRisk, "prior")
	Register("measure", "renyiEntropy", func(a *Args) (any, error) {
		p, err := a.Vector(0, "p")
		if err != nil {
			return nil, err
		}
		alpha, err := a.Float(1, "alpha")
		if err != nil {
			return nil, err
		}
		return measure.RenyiEntropy(p, alpha)
	})

	priorChannel("conditionalShannonEntropy", measure.ConditionalShannonEntropy)
	priorChannel("mutualInformation", measure.MutualInformation)
	priorChannel("conditionalMinEntropy", measure.ConditionalMinEntropy)
	priorChannel("conditionalMinEntropyCachin", measure.ConditionalMinEntropyCachin)
	priorChannel("minEntropyLeakage", measure.MinEntropyLeakage)
	priorChannel("posteriorBayesVulnerability", measure.PosteriorBayesVulnerability)
	priorChannel("posteriorBayesRisk", measure.PosteriorBayesRisk)
	priorChannel("multiplicativeBayesLeakage", measure.MultiplicativeBayesLeakage)
	priorChannel("additiveBayesLeakage", measure.AdditiveBayesLeakage)
	priorChannel("maxCasePosteriorBayesVulnerability", measure.MaxCasePosteriorBayesVulnerability)
	priorChannel("posteriorGuessingEntropy", measure.PosteriorGuessingEntropy)

	Register("measure", "minCapacity", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		return measure.MinCapacity(c)
	})

	Register("measure", "shannonCapacity", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		o, err := a.Options(1, "options")
		if err != nil {
			return nil, err
		}
		var opts measure.CapacityOptions
		if o.Has("tolerance") {
			if opts.Tolerance, err = o.Float("tolerance", 0); err != nil {
				return nil, err
			}
			if !(opts.Tolerance > 0) { // 0 would silently mean the default in Go
				return nil, fmt.Errorf("tolerance: must be a positive number of bits, got %v", opts.Tolerance)
			}
		}
		if o.Has("maxIterations") {
			if opts.MaxIterations, err = o.Int("maxIterations", 0); err != nil {
				return nil, err
			}
			if opts.MaxIterations <= 0 {
				return nil, fmt.Errorf("maxIterations: must be positive, got %d", opts.MaxIterations)
			}
		}
		if cb := o.Func("progress"); !cb.IsUndefined() {
			opts.Progress = func(it int, lower, upper float64) bool {
				return !(cb.Invoke(it, lower, upper).Equal(js.ValueOf(false)))
			}
		}
		r, err := measure.ShannonCapacity(c, &opts)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"capacity":   r.Capacity,
			"prior":      Vec(r.Prior),
			"iterations": r.Iterations,
			"upperBound": r.UpperBound,
			"converged":  r.Converged,
		}, nil
	})

	gainPrior("gVulnerability", "gain", measure.GVulnerability)
	gainPrior("lossRisk", "loss", measure.LossRisk)
	gainPriorChannel("posteriorGVulnerability", "gain", measure.PosteriorGVulnerability)
	gainPriorChannel("multiplicativeGLeakage", "gain", measure.MultiplicativeGLeakage)
	gainPriorChannel("additiveGLeakage", "gain", measure.AdditiveGLeakage)
	gainPriorChannel("posteriorLossRisk", "loss", measure.PosteriorLossRisk)
	Register("measure", "optimalStrategy", func(a *Args) (any, error) {
		g, prior, c, err := gainPriorChannelArgs(a, "gain")
		if err != nil {
			return nil, err
		}
		s, err := measure.OptimalStrategy(g, prior, c)
		if err != nil {
			return nil, err
		}
		return Ints(s), nil
	})

	divergence("klDivergence", measure.KLDivergence)
	divergence("maxDivergence", measure.MaxDivergence)
	divergence("statisticalDistance", measure.StatisticalDistance)
	Register("measure", "hockeyStick", func(a *Args) (any, error) {
		p, err := a.Vector(0, "P")
		if err != nil {
			return nil, err
		}
		q, err := a.Vector(1, "Q")
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(2, "epsilon")
		if err != nil {
			return nil, err
		}
		if math.IsNaN(eps) {
			return nil, fmt.Errorf("epsilon: expected a number ≥ 0, got NaN")
		}
		return measure.HockeyStick(p, q, eps)
	})
}

// gainPriorChannelArgs reads (G, prior, C), G named arg ("gain" or "loss").
func gainPriorChannelArgs(a *Args, arg string) (*mat.Dense, []float64, *mat.Dense, error) {
	g, err := a.Matrix(0, arg)
	if err != nil {
		return nil, nil, nil, err
	}
	prior, err := a.Vector(1, "prior")
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := a.Matrix(2, "channel")
	if err != nil {
		return nil, nil, nil, err
	}
	return g, prior, c, nil
}
