//go:build js && wasm

package bindings

import (
	"github.com/qif-toolkit/qif/core/mechanism"
	"gonum.org/v1/gonum/mat"
)

// qif.mechanism (docs/api.md): the mechanism families of docs/mathematics.md#mechanism-families,
// the Theorem 6.2 mechanism and expected utility. qif.mechanism.optimalLP (the LP optimum) is
// registered in mechanism_lp.go.

// sizeArgs reads (n, epsilon, m?) with m defaulting to n.
func sizeArgs(a *Args) (n int, eps float64, m int, err error) {
	if n, err = a.Int(0, "n"); err != nil {
		return
	}
	if eps, err = a.Float(1, "epsilon"); err != nil {
		return
	}
	m = n
	if a.Has(2) {
		m, err = a.Int(2, "m")
	}
	return
}

// family registers a function (n, epsilon, m?) → Matrix.
func family(name string, build func(n int, eps float64, m int) (*mat.Dense, error)) {
	Register("mechanism", name, func(a *Args) (any, error) {
		n, eps, m, err := sizeArgs(a)
		if err != nil {
			return nil, err
		}
		c, err := build(n, eps, m)
		if err != nil {
			return nil, err
		}
		return Mat(c), nil
	})
}

// optionalMatrix reads argument i as a matrix, or nil when it is absent, undefined or null.
func optionalMatrix(a *Args, i int, name string) (*mat.Dense, error) {
	if !a.Has(i) {
		return nil, nil
	}
	return a.Matrix(i, name)
}

func init() {
	family("truncatedGeometric", mechanism.TruncatedGeometric)
	family("randomizedResponse", mechanism.RandomizedResponse)
	family("exponential", mechanism.Exponential)

	// geometric(n, epsilon): the reduced form of the (infinite) geometric mechanism.
	Register("mechanism", "geometric", func(a *Args) (any, error) {
		n, err := a.Int(0, "n")
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(1, "epsilon")
		if err != nil {
			return nil, err
		}
		c, err := mechanism.Geometric(n, eps)
		if err != nil {
			return nil, err
		}
		return Mat(c), nil
	})

	// overTruncatedGeometric(n, m, epsilon, offset?): outputs are the values
	// offset..offset+m−1 of the inputs (offset 0 by default).
	Register("mechanism", "overTruncatedGeometric", func(a *Args) (any, error) {
		n, err := a.Int(0, "n")
		if err != nil {
			return nil, err
		}
		m, err := a.Int(1, "m")
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(2, "epsilon")
		if err != nil {
			return nil, err
		}
		offset := 0
		if a.Has(3) {
			if offset, err = a.Int(3, "offset"); err != nil {
				return nil, err
			}
		}
		c, err := mechanism.OverTruncatedGeometricAt(n, m, offset, eps)
		if err != nil {
			return nil, err
		}
		return Mat(c), nil
	})

	// exponentialEpsilon(n, epsilon, m?) → the true ε of exponential(n, epsilon, m) for |x−x'|.
	Register("mechanism", "exponentialEpsilon", func(a *Args) (any, error) {
		n, eps, m, err := sizeArgs(a)
		if err != nil {
			return nil, err
		}
		return mechanism.ExponentialEpsilon(n, eps, m)
	})

	// exponentialMetric(D, epsilon): D[x][y] the distance from input x to output y.
	Register("mechanism", "exponentialMetric", func(a *Args) (any, error) {
		d, err := a.Matrix(0, "metric")
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(1, "epsilon")
		if err != nil {
			return nil, err
		}
		c, err := mechanism.ExponentialMetric(d, eps)
		if err != nil {
			return nil, err
		}
		return Mat(c), nil
	})

	theorem62 := func(a *Args) (*mechanism.Theorem62, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		eps, err := a.Float(1, "epsilon")
		if err != nil {
			return nil, err
		}
		return mechanism.Optimal(g, eps)
	}
	// optimal(graph, epsilon) → Matrix of Theorem 6.2 (row-normalized where n_d varies).
	Register("mechanism", "optimal", func(a *Args) (any, error) {
		r, err := theorem62(a)
		if err != nil {
			return nil, err
		}
		return Mat(r.Mechanism), nil
	})
	// optimalDetail(graph, epsilon) → {mechanism, epsilon, actualEpsilon, uniform, c}.
	Register("mechanism", "optimalDetail", func(a *Args) (any, error) {
		r, err := theorem62(a)
		if err != nil {
			return nil, err
		}
		return map[string]any{
			"mechanism":     Mat(r.Mechanism),
			"epsilon":       r.Epsilon,
			"actualEpsilon": r.ActualEpsilon,
			"uniform":       r.Uniform,
			"c":             Vec(r.C),
		}, nil
	})

	utilityArgs := func(a *Args, scoreName string) ([]float64, *mat.Dense, *mat.Dense, error) {
		prior, err := a.Vector(0, "prior")
		if err != nil {
			return nil, nil, nil, err
		}
		h, err := a.Matrix(1, "mechanism")
		if err != nil {
			return nil, nil, nil, err
		}
		s, err := optionalMatrix(a, 2, scoreName)
		return prior, h, s, err
	}
	// utility(prior, H, gain?) → expected gain with the optimal guess (binary gain by default).
	Register("mechanism", "utility", func(a *Args) (any, error) {
		prior, h, gain, err := utilityArgs(a, "gain")
		if err != nil {
			return nil, err
		}
		return mechanism.Utility(prior, h, gain)
	})
	// utilityDetail(prior, H, gain?) → {utility, guess: number[]} (the optimal guess per output).
	Register("mechanism", "utilityDetail", func(a *Args) (any, error) {
		prior, h, gain, err := utilityArgs(a, "gain")
		if err != nil {
			return nil, err
		}
		u, guess, err := mechanism.UtilityWithGuess(prior, h, gain)
		if err != nil {
			return nil, err
		}
		return map[string]any{"utility": u, "guess": Ints(guess)}, nil
	})
	// expectedLoss(prior, H, loss?) → {loss, guess: number[]} (0-1 loss by default).
	Register("mechanism", "expectedLoss", func(a *Args) (any, error) {
		prior, h, loss, err := utilityArgs(a, "loss")
		if err != nil {
			return nil, err
		}
		l, guess, err := mechanism.ExpectedLoss(prior, h, loss)
		if err != nil {
			return nil, err
		}
		return map[string]any{"loss": l, "guess": Ints(guess)}, nil
	})
}
