package infopriv

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/internal/testkit"

	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// naiveMI is I(X;Y) in bits straight from the definition Σ J log(J / (π p(y))).
func naiveMI(prior []float64, c [][]float64) float64 {
	m := len(c[0])
	py := make([]float64, m)
	for x, row := range c {
		for y, v := range row {
			py[y] += prior[x] * v
		}
	}
	s := 0.0
	for x, row := range c {
		for y, v := range row {
			j := prior[x] * v
			if j > 0 {
				s += j * math.Log2(v/py[y])
			}
		}
	}
	return s
}

// gridCapacity maximizes naiveMI over priors on a grid of step 1/steps (2 or 3 rows).
func gridCapacity(c [][]float64, steps int) float64 {
	best := 0.0
	switch len(c) {
	case 2:
		for a := 0; a <= steps; a++ {
			p := float64(a) / float64(steps)
			best = max(best, naiveMI([]float64{p, 1 - p}, c))
		}
	case 3:
		for a := 0; a <= steps; a++ {
			for b := 0; a+b <= steps; b++ {
				p, q := float64(a)/float64(steps), float64(b)/float64(steps)
				best = max(best, naiveMI([]float64{p, q, 1 - p - q}, c))
			}
		}
	default:
		panic("gridCapacity: 2 or 3 rows")
	}
	return best
}

func rows(m *mat.Dense) [][]float64 {
	r, c := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, c)
		for j := range out[i] {
			out[i][j] = m.At(i, j)
		}
	}
	return out
}

func dense(r [][]float64) *mat.Dense {
	m := mat.NewDense(len(r), len(r[0]), nil)
	for i, row := range r {
		m.SetRow(i, row)
	}
	return m
}

func randDist(rng *rand.Rand, n int) []float64 { return testkit.Dist(rng, n, 0) }

func randChannel(rng *rand.Rand, n, m int) *mat.Dense { return testkit.Channel(rng, n, m, 0) }

// randomizedResponse is k-ary randomized response: e^ε/(e^ε+k−1) on the diagonal.
func randomizedResponse(k int, eps float64) *mat.Dense {
	c := mat.NewDense(k, k, nil)
	z := math.Exp(eps) + float64(k-1)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			if i == j {
				c.Set(i, j, math.Exp(eps)/z)
			} else {
				c.Set(i, j, 1/z)
			}
		}
	}
	return c
}

var near = testkit.Near

func wantErr(t *testing.T, what string, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("%s: error %q does not mention %q", what, err, f)
		}
	}
}

// epsilonForDelta is privacy.EpsilonForDelta, the one implementation of ε(δ), tested here too
// against this package's definitions of the hockey-stick divergence.
func epsilonForDelta(c *mat.Dense, g *graph.Graph, delta float64) (float64, error) {
	e, _, err := privacy.EpsilonForDelta(c, g, delta)
	return e, err
}
