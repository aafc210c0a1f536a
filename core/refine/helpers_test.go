package refine

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomChannel draws an n×m channel with rows uniform on the simplex; with probability
// zeroProb each entry is first set to 0 (a row that would be all zero keeps one entry).
func randomChannel(rng *rand.Rand, n, m int, zeroProb float64) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	for x := 0; x < n; x++ {
		s := 0.0
		for y := 0; y < m; y++ {
			v := -math.Log(1 - rng.Float64())
			if rng.Float64() < zeroProb {
				v = 0
			}
			c.Set(x, y, v)
			s += v
		}
		if s == 0 {
			c.Set(x, rng.IntN(m), 1)
			s = 1
		}
		for y := 0; y < m; y++ {
			c.Set(x, y, c.At(x, y)/s)
		}
	}
	return c
}

func mul(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.Mul(a, b)
	return &c
}

// maxAbsDiff is max |a − b| entrywise.
func maxAbsDiff(t *testing.T, a, b mat.Matrix) float64 {
	t.Helper()
	ra, ca := a.Dims()
	rb, cb := b.Dims()
	if ra != rb || ca != cb {
		t.Fatalf("dimension mismatch %d×%d vs %d×%d", ra, ca, rb, cb)
	}
	d := 0.0
	for i := 0; i < ra; i++ {
		for j := 0; j < ca; j++ {
			d = math.Max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

func isStochastic(c mat.Matrix, tol float64) bool {
	r, k := c.Dims()
	for i := 0; i < r; i++ {
		s := 0.0
		for j := 0; j < k; j++ {
			v := c.At(i, j)
			if v < 0 || math.IsNaN(v) {
				return false
			}
			s += v
		}
		if math.Abs(s-1) > tol {
			return false
		}
	}
	return true
}
