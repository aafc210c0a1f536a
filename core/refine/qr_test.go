package refine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestHouseholderQR checks the three operations against their defining properties on random
// tall matrices: the least-squares residual is orthogonal to the columns of A (normal
// equations), the transposed solve satisfies Aᵀ·X = M with X in the column space of A (so it
// is the minimum-norm solution), RᵀR = AᵀA, and cond is ‖R‖₁·‖R⁻¹‖₁.
func TestHouseholderQR(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := 0; trial < 200; trial++ {
		k := 1 + rng.IntN(6)
		n := k + rng.IntN(4)
		w := 1 + rng.IntN(3)
		a := randMat(rng, n, k)
		f := newHouseholderQR(n, k, a)
		b := randMat(rng, n, w)
		x := f.leastSquares(b, w)
		// Aᵀ(AX − B) = 0.
		for g := 0; g < k; g++ {
			for c := 0; c < w; c++ {
				s := 0.0
				for i := 0; i < n; i++ {
					r := -b[i*w+c]
					for q := 0; q < k; q++ {
						r += a[i*k+q] * x[q*w+c]
					}
					s += a[i*k+g] * r
				}
				if math.Abs(s) > 1e-9 {
					t.Fatalf("trial %d: normal equation (%d,%d) = %g", trial, g, c, s)
				}
			}
		}
		m := randMat(rng, k, w)
		y := f.minNormTransposed(m, w)
		for g := 0; g < k; g++ {
			for c := 0; c < w; c++ {
				s := 0.0
				for i := 0; i < n; i++ {
					s += a[i*k+g] * y[i*w+c]
				}
				if math.Abs(s-m[g*w+c]) > 1e-9 {
					t.Fatalf("trial %d: (AᵀX)[%d][%d] = %g, want %g", trial, g, c, s, m[g*w+c])
				}
			}
		}
		// X = A·Z for some Z: its least-squares fit by A leaves no residual.
		z := f.leastSquares(y, w)
		for i := 0; i < n; i++ {
			for c := 0; c < w; c++ {
				s := 0.0
				for q := 0; q < k; q++ {
					s += a[i*k+q] * z[q*w+c]
				}
				if math.Abs(s-y[i*w+c]) > 1e-9 {
					t.Fatalf("trial %d: minimum-norm solution not in the column space of A", trial)
				}
			}
		}
		// R (upper triangle of the factor) satisfies RᵀR = AᵀA, and cond is ‖R‖₁·‖R⁻¹‖₁ with
		// R⁻¹ from Gauss–Jordan elimination.
		r := make([]float64, k*k)
		for i := 0; i < k; i++ {
			for j := i; j < k; j++ {
				r[i*k+j] = f.a[i*k+j]
			}
		}
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				rr, aa := 0.0, 0.0
				for q := 0; q < k; q++ {
					rr += r[q*k+i] * r[q*k+j]
				}
				for q := 0; q < n; q++ {
					aa += a[q*k+i] * a[q*k+j]
				}
				if math.Abs(rr-aa) > 1e-9 {
					t.Fatalf("trial %d: (RᵀR)[%d][%d] = %g, (AᵀA) = %g", trial, i, j, rr, aa)
				}
			}
		}
		want := norm1(r, k) * norm1(inverse(t, r, k), k)
		if got := f.cond(); math.Abs(got-want) > 1e-8*want {
			t.Fatalf("trial %d: cond %g, want %g", trial, got, want)
		}
	}
	// Rank deficiency is reported as an infinite condition number.
	f := newHouseholderQR(3, 2, []float64{1, 2, 2, 4, 3, 6})
	if c := f.cond(); !(c > 1e15) {
		t.Fatalf("cond of a rank-1 matrix = %g", c)
	}
}

func randMat(rng *rand.Rand, r, c int) []float64 {
	m := make([]float64, r*c)
	for i := range m {
		m[i] = rng.Float64()*2 - 1
	}
	return m
}

func norm1(a []float64, k int) float64 {
	best := 0.0
	for c := 0; c < k; c++ {
		s := 0.0
		for r := 0; r < len(a)/k; r++ {
			s += math.Abs(a[r*k+c])
		}
		best = math.Max(best, s)
	}
	return best
}

// inverse is Gauss–Jordan elimination with partial pivoting on a copy of the k×k matrix a.
func inverse(t *testing.T, a []float64, k int) []float64 {
	m := append([]float64(nil), a...)
	inv := make([]float64, k*k)
	for i := 0; i < k; i++ {
		inv[i*k+i] = 1
	}
	for c := 0; c < k; c++ {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(m[r*k+c]) > math.Abs(m[p*k+c]) {
				p = r
			}
		}
		if m[p*k+c] == 0 {
			t.Fatal("singular test matrix")
		}
		for q := 0; q < k; q++ {
			m[c*k+q], m[p*k+q] = m[p*k+q], m[c*k+q]
			inv[c*k+q], inv[p*k+q] = inv[p*k+q], inv[c*k+q]
		}
		d := m[c*k+c]
		for q := 0; q < k; q++ {
			m[c*k+q] /= d
			inv[c*k+q] /= d
		}
		for r := 0; r < k; r++ {
			if r != c && m[r*k+c] != 0 {
				f := m[r*k+c]
				for q := 0; q < k; q++ {
					m[r*k+q] -= f * m[c*k+q]
					inv[r*k+q] -= f * inv[c*k+q]
				}
			}
		}
	}
	return inv
}
