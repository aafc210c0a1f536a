package mechanism

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// RandomizedResponse returns the randomized response mechanism (Chatzikokolakis et al. (CSF 2019)
// Def. 13) on inputs 0..n−1 and outputs 0..m−1: an input x < m reports itself with probability
// e^ε/(m−1+e^ε) and each other output with probability 1/(m−1+e^ε); an input x ≥ m, which is not
// among the outputs, gets the uniform row 1/m. It is ε-DP for every pair of inputs (the clique,
// i.e. the discrete metric), also when m ≠ n.
func RandomizedResponse(n int, eps float64, m int) (*mat.Dense, error) {
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if err := checkEpsilon(eps); err != nil {
		return nil, err
	}
	// Divide through by e^ε so that large ε does not overflow: e^ε/(m−1+e^ε) = 1/(1+(m−1)e^{−ε}).
	a := math.Exp(-eps)
	den := 1 + float64(m-1)*a
	diag, off, uniform := 1/den, a/den, 1/float64(m)
	c := mat.NewDense(n, m, nil)
	data := c.RawMatrix().Data
	for x := 0; x < n; x++ {
		row := data[x*m : (x+1)*m]
		if x >= m {
			for j := range row {
				row[j] = uniform
			}
			continue
		}
		for j := range row {
			row[j] = off
		}
		row[x] = diag
	}
	return c, nil
}
