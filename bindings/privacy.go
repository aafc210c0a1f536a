//go:build js && wasm

package bindings

import (
	"fmt"
	"math"
	"time"

	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// witnessValue is {epsilon (or the named value), x?, x2?, y?}.
func witnessValue(key string, val float64, w privacy.Witness) map[string]any {
	out := map[string]any{key: val}
	if w.X >= 0 {
		out["x"], out["x2"] = w.X, w.X2
		if w.Y >= 0 {
			out["y"] = w.Y
		}
	}
	return out
}

// hammingArgs reads {individuals, values, epsilon}; individuals only when withU.
func hammingArgs(a *Args, withU bool) (u, v int, eps float64, err error) {
	if !a.Has(0) {
		return 0, 0, 0, a.missing(0, "options")
	}
	o, err := a.Options(0, "options")
	if err != nil {
		return 0, 0, 0, err
	}
	u = 1
	if withU {
		if u, err = o.RequireInt("individuals"); err != nil {
			return
		}
	}
	if v, err = o.RequireInt("values"); err != nil {
		return
	}
	eps, err = o.RequireFloat("epsilon")
	return
}

func channelGraph(a *Args) (*mat.Dense, *graph.Graph, error) {
	c, err := a.Matrix(0, "channel")
	if err != nil {
		return nil, nil, err
	}
	g, err := a.Graph(1, "graph")
	if err != nil {
		return nil, nil, err
	}
	return c, g, nil
}

func init() {
	Register("privacy", "epsilon", func(a *Args) (any, error) {
		c, g, err := channelGraph(a)
		if err != nil {
			return nil, err
		}
		eps, _, err := privacy.Epsilon(c, g)
		return eps, err
	})
	Register("privacy", "epsilonDetail", func(a *Args) (any, error) {
		c, g, err := channelGraph(a)
		if err != nil {
			return nil, err
		}
		eps, w, err := privacy.Epsilon(c, g)
		if err != nil {
			return nil, err
		}
		return witnessValue("epsilon", eps, w), nil
	})
	Register("privacy", "isDP", func(a *Args) (any, error) {
		c, g, err := channelGraph(a)
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(2, "epsilon")
		if err != nil {
			return nil, err
		}
		return privacy.IsDP(c, g, eps)
	})
	Register("privacy", "groupEpsilon", func(a *Args) (any, error) {
		c, g, err := channelGraph(a)
		if err != nil {
			return nil, err
		}
		k, err := a.Int(2, "k")
		if err != nil {
			return nil, err
		}
		eps, _, err := privacy.GroupEpsilon(c, g, k)
		return eps, err
	})
	Register("privacy", "delta", func(a *Args) (any, error) {
		c, g, err := channelGraph(a)
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(2, "epsilon")
		if err != nil {
			return nil, err
		}
		d, _, err := privacy.Delta(c, g, eps)
		return d, err
	})
	Register("privacy", "epsilonForDelta", func(a *Args) (any, error) {
		c, g, err := channelGraph(a)
		if err != nil {
			return nil, err
		}
		delta, err := a.Float(2, "delta")
		if err != nil {
			return nil, err
		}
		eps, _, err := privacy.EpsilonForDelta(c, g, delta)
		return eps, err
	})
	Register("privacy", "dPrivacyEpsilon", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		d, err := a.Matrix(1, "metric")
		if err != nil {
			return nil, err
		}
		eps, _, err := privacy.DPrivacyEpsilon(c, d)
		return eps, err
	})
	Register("privacy", "inducedMetric", func(a *Args) (any, error) {
		c, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		d, err := privacy.InducedMetric(c)
		if err != nil {
			return nil, err
		}
		return Mat(d), nil
	})
	Register("privacy", "leakageBound", func(a *Args) (any, error) {
		u, v, eps, err := hammingArgs(a, true)
		if err != nil {
			return nil, err
		}
		return privacy.LeakageBound(u, v, eps)
	})
	Register("privacy", "individualLeakageBound", func(a *Args) (any, error) {
		_, v, eps, err := hammingArgs(a, false)
		if err != nil {
			return nil, err
		}
		return privacy.IndividualLeakageBound(v, eps)
	})
	Register("privacy", "hammingUtilityBound", func(a *Args) (any, error) {
		u, v, eps, err := hammingArgs(a, true)
		if err != nil {
			return nil, err
		}
		b, lb, err := privacy.HammingUtilityBound(u, v, eps)
		if err != nil {
			return nil, err
		}
		return map[string]any{"bound": b, "log2Bound": lb}, nil
	})
	Register("privacy", "utilityBound", func(a *Args) (any, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(1, "epsilon")
		if err != nil {
			return nil, err
		}
		o, err := a.Options(2, "options")
		if err != nil {
			return nil, err
		}
		ms, err := o.Float("budgetMs", float64(graph.DefaultVTPlusBudget/time.Millisecond))
		if err != nil {
			return nil, err
		}
		if math.IsNaN(ms) || ms <= 0 || ms > 600_000 {
			return nil, fmt.Errorf("budgetMs: must be a positive number of milliseconds up to 600000, got %v", ms)
		}
		r, err := privacy.UtilityBoundBudget(g, eps, time.Duration(ms*float64(time.Millisecond)))
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"bound": r.Bound, "log2Bound": r.Log2Bound, "vertex": r.Vertex,
			"sameForAllVertices": r.SameForAllVertices, "distanceRegular": r.DistanceRegular,
			"vtPlus": answerValue(r.VTPlus), "tight": r.Tight,
		}, nil
	})
}
