//go:build js && wasm

package bindings

import (
	"context"
	"errors"
	"fmt"

	"github.com/qif-toolkit/qif/core/infopriv"
	"gonum.org/v1/gonum/mat"
	"syscall/js"
)

// tupleChannelArgs reads {domains, channel} or {domains, table, noise} from options object i,
// composing the latter into the tuple channel.
func tupleChannelArgs(a *Args, i int) (Options, []int, *mat.Dense, error) {
	if !a.Has(i) {
		return Options{}, nil, nil, fmt.Errorf("options: missing argument %d, expected {domains, channel} or {domains, table, noise}", i+1)
	}
	o, err := a.Options(i, "options")
	if err != nil {
		return o, nil, nil, err
	}
	if !o.Has("domains") {
		return o, nil, nil, fmt.Errorf("domains: missing field (number of values of each record)")
	}
	domains, err := ToIndices(o.Get("domains"), "domains")
	if err != nil {
		return o, nil, nil, err
	}
	if o.Has("channel") {
		if o.Has("table") || o.Has("noise") {
			return o, nil, nil, fmt.Errorf("options: give either channel or table and noise, not both")
		}
		c, err := o.Matrix("channel")
		return o, domains, c, err
	}
	if !o.Has("table") || !o.Has("noise") {
		return o, nil, nil, fmt.Errorf("channel: missing field; give channel (one row per tuple) or table and noise")
	}
	c, err := queryChannelFrom(o, domains)
	return o, domains, c, err
}

func queryChannelFrom(o Options, domains []int) (*mat.Dense, error) {
	table, err := ToIndices(o.Get("table"), "table")
	if err != nil {
		return nil, err
	}
	noise, err := o.Matrix("noise")
	if err != nil {
		return nil, err
	}
	return infopriv.QueryChannel(domains, table, noise)
}

func init() {
	Register("infoPrivacy", "individualCapacity", func(a *Args) (any, error) {
		o, domains, c, err := tupleChannelArgs(a, 0)
		if err != nil {
			return nil, err
		}
		tol, err := o.Float("tolerance", 0)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		opts := &infopriv.Options{Tolerance: tol}
		var cbErr error
		if f := o.Func("onProgress"); !f.IsUndefined() {
			opts.Progress = func(done, total int) {
				if ctx.Err() != nil {
					return
				}
				r := f.Invoke(done, total)
				if r.Type() == js.TypeBoolean && !r.Bool() {
					cbErr = errors.New("individualCapacity: cancelled by onProgress")
					cancel()
				}
			}
		}
		r, err := infopriv.IndividualCapacity(ctx, domains, c, opts)
		if cbErr != nil {
			return nil, cbErr
		}
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"capacity":    r.Capacity,
			"upperBound":  r.UpperBound,
			"individual":  r.Individual,
			"others":      Ints(r.Others),
			"prior":       Vec(r.Prior),
			"subChannels": r.SubChannels,
			"solved":      r.Solved,
		}, nil
	})

	Register("infoPrivacy", "individualEpsilon", func(a *Args) (any, error) {
		_, domains, c, err := tupleChannelArgs(a, 0)
		if err != nil {
			return nil, err
		}
		r, err := infopriv.IndividualEpsilon(context.Background(), domains, c)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"epsilon":    r.Epsilon,
			"individual": r.Individual,
			"others":     Ints(r.Others),
			"values":     Ints(r.Values[:]),
			"output":     r.Output,
		}, nil
	})

	Register("infoPrivacy", "queryChannel", func(a *Args) (any, error) {
		o, err := a.Options(0, "options")
		if err != nil {
			return nil, err
		}
		for _, k := range []string{"domains", "table", "noise"} {
			if !o.Has(k) {
				return nil, fmt.Errorf("%s: missing field (queryChannel takes {domains, table, noise})", k)
			}
		}
		domains, err := ToIndices(o.Get("domains"), "domains")
		if err != nil {
			return nil, err
		}
		c, err := queryChannelFrom(o, domains)
		if err != nil {
			return nil, err
		}
		return Mat(c), nil
	})

	Register("infoPrivacy", "subChannel", func(a *Args) (any, error) {
		o, domains, c, err := tupleChannelArgs(a, 0)
		if err != nil {
			return nil, err
		}
		i, err := o.RequireInt("individual")
		if err != nil {
			return nil, err
		}
		if !o.Has("others") {
			return nil, fmt.Errorf("others: missing field (values of the other records)")
		}
		others, err := ToIndices(o.Get("others"), "others")
		if err != nil {
			return nil, err
		}
		s, err := infopriv.SubChannel(domains, c, i, others)
		if err != nil {
			return nil, err
		}
		return Mat(s), nil
	})

	Register("infoPrivacy", "recordGraph", func(a *Args) (any, error) {
		if !a.Has(0) {
			return nil, fmt.Errorf("domains: missing argument 1")
		}
		domains, err := ToIndices(a.Value(0), "domains")
		if err != nil {
			return nil, err
		}
		return graphResult(infopriv.RecordGraph(domains))
	})

	Register("infoPrivacy", "tuple", func(a *Args) (any, error) {
		if !a.Has(0) {
			return nil, fmt.Errorf("domains: missing argument 1")
		}
		domains, err := ToIndices(a.Value(0), "domains")
		if err != nil {
			return nil, err
		}
		idx, err := a.Int(1, "index")
		if err != nil {
			return nil, err
		}
		t, err := infopriv.Tuple(domains, idx)
		if err != nil {
			return nil, err
		}
		return Ints(t), nil
	})

	Register("infoPrivacy", "binarySymmetricCapacity", func(a *Args) (any, error) {
		p, err := a.Float(0, "p")
		if err != nil {
			return nil, err
		}
		return infopriv.BinarySymmetricCapacity(p)
	})

	Register("infoPrivacy", "flipProbability", func(a *Args) (any, error) {
		c, err := a.Float(0, "capacity")
		if err != nil {
			return nil, err
		}
		return infopriv.FlipProbabilityForCapacity(c)
	})

	Register("infoPrivacy", "gaussianCapacity", func(a *Args) (any, error) {
		p, err := a.Float(0, "power")
		if err != nil {
			return nil, err
		}
		s, err := a.Float(1, "sigma")
		if err != nil {
			return nil, err
		}
		return infopriv.GaussianCapacity(p, s)
	})

	Register("infoPrivacy", "sigmaForCapacity", func(a *Args) (any, error) {
		p, err := a.Float(0, "power")
		if err != nil {
			return nil, err
		}
		c, err := a.Float(1, "capacity")
		if err != nil {
			return nil, err
		}
		return infopriv.SigmaForCapacity(p, c)
	})

	Register("infoPrivacy", "dataIndependent", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		o, err := a.Options(1, "options")
		if err != nil {
			return nil, err
		}
		tol, err := o.Float("tolerance", 0)
		if err != nil {
			return nil, err
		}
		r, err := infopriv.AnalyzeDataIndependence(c, tol)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"dataIndependent": r.DataIndependent,
			"q":               Vec(r.Q),
			"bound":           r.Bound,
			"weaklySymmetric": r.WeaklySymmetric,
			"reachable":       r.Reachable,
			"capacity":        r.Capacity,
		}, nil
	})

	Register("infoPrivacy", "exponentialChannel", func(a *Args) (any, error) {
		o, err := a.Options(0, "options")
		if err != nil {
			return nil, err
		}
		beta, err := o.RequireFloat("beta")
		if err != nil {
			return nil, err
		}
		var d *mat.Dense
		switch {
		case o.Has("distortion") && o.Has("n"):
			return nil, fmt.Errorf("options: give either distortion or n, not both")
		case o.Has("distortion"):
			if d, err = o.Matrix("distortion"); err != nil {
				return nil, err
			}
		case o.Has("n"):
			n, err := o.Int("n", 0)
			if err != nil {
				return nil, err
			}
			if d, err = infopriv.AbsoluteDistortion(n); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("distortion: missing; give distortion (a matrix) or n (answers 0..n−1 with |r′ − r|)")
		}
		r, err := infopriv.ExponentialChannel(d, beta)
		if err != nil {
			return nil, err
		}
		return map[string]any{"channel": Mat(r.Channel), "q": Vec(r.Q), "entropy": r.Entropy, "bound": r.Bound}, nil
	})

	Register("infoPrivacy", "exponentialBeta", func(a *Args) (any, error) {
		m, err := a.Int(0, "m")
		if err != nil {
			return nil, err
		}
		c, err := a.Float(1, "capacity")
		if err != nil {
			return nil, err
		}
		return infopriv.ExponentialBetaForBound(m, c)
	})

	Register("infoPrivacy", "varianceComparison", func(a *Args) (any, error) {
		o, err := a.Options(0, "options")
		if err != nil {
			return nil, err
		}
		vals := map[string]float64{}
		for _, k := range []string{"sensitivity", "epsilon", "delta", "capacity"} {
			if vals[k], err = o.RequireFloat(k); err != nil {
				return nil, err
			}
		}
		d := vals["sensitivity"]
		power, err := o.Float("power", d*d/4)
		if err != nil {
			return nil, err
		}
		v, err := infopriv.CompareVariances(d, vals["epsilon"], vals["delta"], vals["capacity"], power)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"laplace":                v.Laplace,
			"gaussianMechanism":      v.GaussianMechanism,
			"gaussianPrivacyChannel": v.GaussianPrivacyChannel,
			"power":                  v.Power,
		}, nil
	})

	Register("infoPrivacy", "deltaCurve", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		g, err := a.Graph(1, "graph")
		if err != nil {
			return nil, err
		}
		o, err := a.Options(2, "options")
		if err != nil {
			return nil, err
		}
		points, err := o.Int("points", 101)
		if err != nil {
			return nil, err
		}
		maxEps, err := o.Float("maxEpsilon", 0)
		if err != nil {
			return nil, err
		}
		r, err := infopriv.DeltaCurveOf(context.Background(), c, g, points, maxEps)
		if err != nil {
			return nil, err
		}
		return map[string]any{"epsilon": Vec(r.Epsilon), "delta": Vec(r.Delta), "pureEpsilon": r.PureEpsilon}, nil
	})

	Register("infoPrivacy", "epsilonForDelta", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		g, err := a.Graph(1, "graph")
		if err != nil {
			return nil, err
		}
		d, err := a.Float(2, "delta")
		if err != nil {
			return nil, err
		}
		return infopriv.EpsilonForDelta(c, g, d)
	})

	Register("infoPrivacy", "bayesRatios", func(a *Args) (any, error) {
		prior, err := a.Vector(0, "prior")
		if err != nil {
			return nil, err
		}
		c, err := a.Matrix(1, "channel")
		if err != nil {
			return nil, err
		}
		r, err := infopriv.BayesRatiosOf(prior, c)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"ratios":  Mat(r.Ratios),
			"max":     r.Max,
			"min":     r.Min,
			"maxAt":   Ints(r.MaxAt[:]),
			"minAt":   Ints(r.MinAt[:]),
			"epsilon": r.Epsilon,
		}, nil
	})
}
