package mechanism

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Any (n, m, ε, offset) either is refused with an error or gives a channel (finite,
// non-negative rows summing to 1) — never a panic, NaN or an unnormalized row.
func FuzzFamilies(f *testing.F) {
	f.Add(6, 6, math.Ln2/5, 0)
	f.Add(7, 3, 0.5, 2)
	f.Add(1, 1, 1e-300, 0)
	f.Add(3, 9, 900.0, 0)
	f.Add(0, -1, math.NaN(), -4)
	f.Fuzz(func(t *testing.T, n, m int, eps float64, offset int) {
		if n > 300 || m > 300 { // keep each case cheap; sizes are checked by TestBadInputs
			return
		}
		builders := []func() (*mat.Dense, error){
			func() (*mat.Dense, error) { return TruncatedGeometric(n, eps, m) },
			func() (*mat.Dense, error) { return OverTruncatedGeometricAt(n, m, offset, eps) },
			func() (*mat.Dense, error) { return RandomizedResponse(n, eps, m) },
			func() (*mat.Dense, error) { return Exponential(n, eps, m) },
		}
		for _, b := range builders {
			c, err := b()
			if err != nil {
				continue
			}
			r, k := c.Dims()
			for i := 0; i < r; i++ {
				s := 0.0
				for j := 0; j < k; j++ {
					v := c.At(i, j)
					if !(v >= 0) || math.IsInf(v, 0) {
						t.Fatalf("n=%d m=%d ε=%g: entry [%d][%d] = %v", n, m, eps, i, j, v)
					}
					s += v
				}
				if math.Abs(s-1) > 1e-9 {
					t.Fatalf("n=%d m=%d ε=%g: row %d sums to %.17g", n, m, eps, i, s)
				}
			}
		}
		if e, err := ExponentialEpsilon(n, eps, m); err == nil && (math.IsNaN(e) || e < 0 || e > eps*(1+1e-9)) {
			t.Fatalf("n=%d m=%d ε=%g: true ε %g", n, m, eps, e)
		}
	})
}
