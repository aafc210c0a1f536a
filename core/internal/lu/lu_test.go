package lu

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomMatrix(rng *rand.Rand, n int) []float64 {
	a := make([]float64, n*n)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	return a
}

// TestSolveResidual: the solution of A·x = b reproduces b, for A and for Aᵀ.
func TestSolveResidual(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 5, 30, 100} {
		a := randomMatrix(rng, n)
		b := randomMatrix(rng, 1)[:0]
		for i := 0; i < n; i++ {
			b = append(b, rng.NormFloat64())
		}
		f, err := Factorize(n, a)
		if err != nil {
			t.Fatal(err)
		}
		x, xt := f.Solve(b), f.solveTranspose(b)
		for i := 0; i < n; i++ {
			s, st := 0.0, 0.0
			for j := 0; j < n; j++ {
				s += a[i*n+j] * x[j]
				st += a[j*n+i] * xt[j]
			}
			if math.Abs(s-b[i]) > 1e-9 || math.Abs(st-b[i]) > 1e-9 {
				t.Fatalf("n=%d row %d: A·x = %g, Aᵀ·x = %g, b = %g", n, i, s, st, b[i])
			}
		}
	}
}

// TestCondAgainstInverse: the estimate is a lower bound of the exact 1-norm condition number
// (from gonum's explicit inverse) and within a factor 10 of it, on random and ill-conditioned
// matrices (Hilbert).
func TestCondAgainstInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(name string, n int, a []float64) {
		f, err := Factorize(n, a)
		if err != nil {
			t.Fatal(err)
		}
		var inv mat.Dense
		if err := inv.Inverse(mat.NewDense(n, n, a)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		exact := mat.Norm(mat.NewDense(n, n, a), 1) * mat.Norm(&inv, 1)
		got := f.Cond()
		if got > exact*(1+1e-6) || got < exact/10 {
			t.Errorf("%s: estimate %g, exact %g", name, got, exact)
		}
	}
	for _, n := range []int{2, 7, 40} {
		check("random", n, randomMatrix(rng, n))
	}
	for _, n := range []int{4, 8} {
		h := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				h[i*n+j] = 1 / float64(i+j+1)
			}
		}
		check("hilbert", n, h)
	}
}

func TestSingular(t *testing.T) {
	if _, err := Factorize(2, []float64{1, 2, 2, 4}); err == nil {
		// Rounding may leave a tiny pivot; then the condition estimate must be huge.
		f, _ := Factorize(2, []float64{1, 2, 2, 4})
		if f != nil && f.Cond() < 1e15 {
			t.Errorf("rank-1 matrix accepted with condition %g", f.Cond())
		}
	}
	if _, err := Factorize(2, []float64{0, 0, 0, 0}); err != ErrSingular {
		t.Errorf("zero matrix: err = %v", err)
	}
}
