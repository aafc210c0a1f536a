//go:build js && wasm

package bindings

import (
	"context"
	"errors"
	"fmt"
	"math"
	"syscall/js"

	"github.com/qif-toolkit/qif/core/refine"
	"gonum.org/v1/gonum/mat"
)

func init() {
	Register("refine", "avg", func(a *Args) (any, error) {
		A, B, err := refinePair(a)
		if err != nil {
			return nil, err
		}
		r, err := refine.Avg(A, B)
		if err != nil {
			return nil, err
		}
		out := map[string]any{
			"holds":         r.Holds,
			"residual":      r.Residual,
			"method":        r.Method,
			"lpVariables":   r.LPVariables,
			"lpConstraints": r.LPConstraints,
		}
		if r.Holds {
			out["witness"] = Mat(r.Witness)
		} else {
			out["residualLowerBound"] = r.ResidualLowerBound
			ce := r.Counterexample
			out["counterexample"] = map[string]any{
				"gain":           Mat(ce.Gain),
				"prior":          Vec(ce.Prior),
				"vulnerabilityA": ce.VulnerabilityA,
				"vulnerabilityB": ce.VulnerabilityB,
				"guesses":        Ints(r.OutputsB),
			}
		}
		return out, nil
	})
	Register("refine", "max", func(a *Args) (any, error) {
		A, B, err := refinePair(a)
		if err != nil {
			return nil, err
		}
		r, err := refine.Max(A, B)
		if err != nil {
			return nil, err
		}
		out := map[string]any{
			"holds":     r.Holds,
			"outputsA":  Ints(r.OutputsA),
			"outputsB":  Ints(r.OutputsB),
			"distances": Vec(r.Distances),
		}
		if r.Holds {
			out["witness"] = Mat(r.Witness)
		} else {
			ce := r.Counterexample
			out["counterexample"] = map[string]any{
				"posterior":          Vec(ce.Posterior),
				"distance":           ce.Distance,
				"distanceLowerBound": ce.DistanceLowerBound,
				"output":             ce.Output,
				"nearest":            Vec(ce.Nearest),
			}
		}
		return out, nil
	})
	Register("refine", "prv", func(a *Args) (any, error) {
		A, B, err := refinePair(a)
		if err != nil {
			return nil, err
		}
		r, err := refine.Prv(A, B)
		if err != nil {
			return nil, err
		}
		out := map[string]any{"holds": r.Holds, "metricA": Mat(r.MetricA), "metricB": Mat(r.MetricB)}
		if !r.Holds {
			c := r.Counterexample
			out["counterexample"] = map[string]any{"x": c.X, "x2": c.X2, "dA": c.DA, "dB": c.DB}
		}
		return out, nil
	})
	Register("refine", "prvMeet", refineLattice(refine.PrvMeet))
	Register("refine", "prvJoin", refineLattice(refine.PrvJoin))
	Register("refine", "maxMeet", refineLattice(refine.MaxMeet))
	Register("refine", "posteriors", func(a *Args) (any, error) {
		C, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		p, outs, err := refine.Posteriors(C)
		if err != nil {
			return nil, err
		}
		return map[string]any{"posteriors": Mat(p), "outputs": Ints(outs)}, nil
	})
	Register("refine", "hullDistance", func(a *Args) (any, error) {
		C, err := a.Matrix(0, "channel")
		if err != nil {
			return nil, err
		}
		s, err := a.Vector(1, "sigma")
		if err != nil {
			return nil, err
		}
		return refine.HullDistance(C, s)
	})
	Register("refine", "familyEpsilon", func(a *Args) (any, error) {
		o, err := a.Options(0, "options")
		if err != nil {
			return nil, err
		}
		f1, f2, order, so, err := familyArgs(o)
		if err != nil {
			return nil, err
		}
		e1, err := o.RequireFloat("epsilon1")
		if err != nil {
			return nil, err
		}
		r, err := refine.SafeEpsilon(f1, e1, f2, order, so)
		if err != nil {
			return nil, err
		}
		return safeEpsilonJS(r), nil
	})
	Register("refine", "safeEpsilonCurve", func(a *Args) (any, error) {
		o, err := a.Options(0, "options")
		if err != nil {
			return nil, err
		}
		f1, f2, order, so, err := familyArgs(o)
		if err != nil {
			return nil, err
		}
		if !o.Has("epsilons1") {
			return nil, fmt.Errorf("options: missing field \"epsilons1\"")
		}
		eps, err := ToVector(o.Get("epsilons1"), "epsilons1")
		if err != nil {
			return nil, err
		}
		cb := a.Value(1)
		if cb.Type() != js.TypeFunction {
			cb = o.Func("onProgress")
		}
		var progress func(done, total int) bool
		if cb.Type() == js.TypeFunction {
			progress = func(done, total int) bool {
				r := cb.Invoke(done, total)
				return !(r.Type() == js.TypeBoolean && !r.Bool())
			}
		}
		pts, err := refine.SafeEpsilonCurve(f1, f2, order, eps, so, progress)
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
		list := make([]any, len(pts))
		for i := range pts {
			list[i] = safeEpsilonJS(&pts[i])
		}
		return map[string]any{"points": list, "complete": err == nil}, nil
	})
	Register("channel", "fromMetric", func(a *Args) (any, error) {
		D, err := a.Matrix(0, "D")
		if err != nil {
			return nil, err
		}
		C, err := refine.FromMetric(D)
		if err != nil {
			return nil, err
		}
		return Mat(C), nil
	})
}

func refinePair(a *Args) (*mat.Dense, *mat.Dense, error) {
	A, err := a.Matrix(0, "A")
	if err != nil {
		return nil, nil, err
	}
	B, err := a.Matrix(1, "B")
	if err != nil {
		return nil, nil, err
	}
	return A, B, nil
}

func refineLattice(f func(A, B mat.Matrix) (*mat.Dense, error)) Func {
	return func(a *Args) (any, error) {
		A, B, err := refinePair(a)
		if err != nil {
			return nil, err
		}
		C, err := f(A, B)
		if err != nil {
			return nil, err
		}
		return Mat(C), nil
	}
}

// familyArgs reads {family1, family2, order, n, m1?, m2?, lo?, hi?, resolution?}.
func familyArgs(o Options) (f1, f2 refine.Mechanism, order refine.Order, so *refine.SearchOptions, err error) {
	str := func(key string) (string, error) {
		v := o.Get(key)
		if v.Type() != js.TypeString {
			return "", fmt.Errorf("%s: expected a string, got %s", key, typeName(v))
		}
		return v.String(), nil
	}
	var s string
	if s, err = str("family1"); err != nil {
		return
	}
	if f1.Family, err = refine.ParseFamily(s); err != nil {
		err = fmt.Errorf("family1: %w", err)
		return
	}
	if s, err = str("family2"); err != nil {
		return
	}
	if f2.Family, err = refine.ParseFamily(s); err != nil {
		err = fmt.Errorf("family2: %w", err)
		return
	}
	s = "avg"
	if o.Has("order") {
		if s, err = str("order"); err != nil {
			return
		}
	}
	if order, err = refine.ParseOrder(s); err != nil {
		return
	}
	n, err := o.RequireInt("n")
	if err != nil {
		return
	}
	if n < 1 || n > 1000 {
		err = fmt.Errorf("n: must be between 1 and 1000, got %d", n)
		return
	}
	m := 0
	if m, err = o.Int("m", n); err != nil {
		return
	}
	f1.N, f2.N = n, n
	if f1.M, err = o.Int("m1", m); err != nil {
		return
	}
	if f2.M, err = o.Int("m2", m); err != nil {
		return
	}
	for _, k := range []int{f1.M, f2.M} {
		if k < 1 || k > 1000 {
			err = fmt.Errorf("m: numbers of outputs must be between 1 and 1000, got %d", k)
			return
		}
	}
	so = &refine.SearchOptions{}
	// In Go a zero field means the default; here an option given as 0 (or less) is an error,
	// never silently the default.
	for _, f := range []struct {
		key string
		v   *float64
	}{{"lo", &so.Lo}, {"hi", &so.Hi}, {"resolution", &so.Resolution}} {
		if !o.Has(f.key) {
			continue
		}
		if *f.v, err = o.Float(f.key, 0); err != nil {
			return
		}
		if !(*f.v > 0) {
			err = fmt.Errorf("%s: must be a positive number (omit it for the default), got %v", f.key, *f.v)
			return
		}
	}
	return
}

func safeEpsilonJS(r *refine.SafeEpsilonResult) map[string]any {
	nullable := func(v float64) any {
		if math.IsNaN(v) {
			return nil
		}
		return v
	}
	return map[string]any{
		"epsilon1":      r.Epsilon1,
		"epsilon2":      nullable(r.Epsilon2),
		"epsilon2Fails": nullable(r.Epsilon2Fails),
		"found":         r.Found,
		"atUpper":       r.AtUpper,
		"evaluations":   r.Evaluations,
	}
}
