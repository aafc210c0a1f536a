package matmul

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMulAgreesWithGonum compares with gonum's Dense.Mul on random shapes, sparse entries and
// strided views.
func TestMulAgreesWithGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := 0; trial < 300; trial++ {
		n, m, k := 1+rng.IntN(9), 1+rng.IntN(9), 1+rng.IntN(9)
		fill := func(r, c int) *mat.Dense {
			big := mat.NewDense(r+2, c+3, nil)
			for i := 0; i < r+2; i++ {
				for j := 0; j < c+3; j++ {
					if rng.IntN(3) > 0 {
						big.Set(i, j, rng.NormFloat64())
					}
				}
			}
			return big.Slice(1, r+1, 2, c+2).(*mat.Dense) // a view with a stride
		}
		a, b := fill(n, m), fill(m, k)
		var want mat.Dense
		want.Mul(a, b)
		got := Mul(a, b)
		for i := 0; i < n; i++ {
			for j := 0; j < k; j++ {
				if d := math.Abs(got.At(i, j) - want.At(i, j)); d > 1e-12 {
					t.Fatalf("trial %d: (%d,%d) differs by %g", trial, i, j, d)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("no panic on mismatched shapes")
		}
	}()
	Mul(mat.NewDense(2, 3, nil), mat.NewDense(2, 3, nil))
}
