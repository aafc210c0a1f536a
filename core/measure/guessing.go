package measure

import (
	"slices"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/internal/fsum"
	"gonum.org/v1/gonum/mat"
)

// GuessingEntropy returns G(π) = Σ_{i=1..n} i·π_(i) with π sorted decreasingly: the expected
// number of guesses of the form "is X = x?" needed to find the secret when trying the most
// likely values first. It is 1 for a point mass and (n+1)/2 for the uniform prior.
func GuessingEntropy(p []float64) (float64, error) {
	if err := channel.ValidateDistribution("p", p); err != nil {
		return 0, err
	}
	s := append([]float64(nil), p...)
	return guesses(s), nil
}

// guesses sorts s and returns Σ i·s_(i) over s in decreasing order. slices.Sort (generic, no
// interface calls) is several times faster than sort.Sort(sort.Reverse(…)), which matters for
// the posterior on large channels: one sort per column.
func guesses(s []float64) float64 {
	slices.Sort(s)
	var g fsum.Sum
	n := len(s)
	for i := n - 1; i >= 0; i-- {
		g.Add(float64(n-i) * s[i])
	}
	return g.Value()
}

// PosteriorGuessingEntropy returns Σ_y p(y) G(δʸ), the expected number of guesses after
// seeing the output. Since p(y) G(δʸ) = Σ_i i·J_(i)[y] (the column of J sorted decreasingly),
// no division is needed.
func PosteriorGuessingEntropy(prior []float64, C mat.Matrix) (float64, error) {
	c, err := priorAndChannel(prior, C)
	if err != nil {
		return 0, err
	}
	// Transpose J so that each column is contiguous for sorting; keep only its non-zero
	// entries, which are the ones that can be guessed before the zeros.
	cols := make([][]float64, c.cols)
	for x, px := range prior {
		if px == 0 {
			continue
		}
		for y, v := range c.row(x) {
			if j := px * v; j > 0 {
				cols[y] = append(cols[y], j)
			}
		}
	}
	var g fsum.Sum
	for _, col := range cols {
		g.Add(guesses(col))
	}
	return g.Value(), nil
}
