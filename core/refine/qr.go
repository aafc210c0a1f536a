package refine

import "math"

// householderQR is the QR factorization A = Q·R of a tall n×k matrix (n ≥ k) by Householder
// reflections, with the two solves avgDirect needs. It replaces gonum's mat.QR, whose LAPACK
// routines were the only ones linked into the WebAssembly module (about 125 KB of code) for
// this one use.
type householderQR struct {
	n, k int
	a    []float64 // row-major n×k: R on and above the diagonal, the reflectors' tails below
	tau  []float64 // reflector i is I − tau[i]·v·vᵀ with v = (1, a[i+1..n−1][i])
	diag []float64 // R's diagonal
}

// newHouseholderQR factorizes the row-major n×k matrix a (copied), n ≥ k.
func newHouseholderQR(n, k int, a []float64) *householderQR {
	f := &householderQR{n: n, k: k, a: append([]float64(nil), a...), tau: make([]float64, k), diag: make([]float64, k)}
	m := f.a
	for j := 0; j < k; j++ {
		// Norm of column j from row j down, scaled against overflow.
		norm := 0.0
		for i := j; i < n; i++ {
			norm = math.Hypot(norm, m[i*k+j])
		}
		if norm == 0 {
			f.diag[j] = 0
			continue
		}
		alpha := -math.Copysign(norm, m[j*k+j]) // the sign that avoids cancellation in v₀
		v0 := m[j*k+j] - alpha
		for i := j + 1; i < n; i++ {
			m[i*k+j] /= v0
		}
		f.tau[j] = -v0 / alpha // = 2/(vᵀv) for v = (1, tail)
		f.diag[j] = alpha
		m[j*k+j] = alpha
		// Apply the reflector to the remaining columns.
		for c := j + 1; c < k; c++ {
			s := m[j*k+c]
			for i := j + 1; i < n; i++ {
				s += m[i*k+j] * m[i*k+c]
			}
			s *= f.tau[j]
			m[j*k+c] -= s
			for i := j + 1; i < n; i++ {
				m[i*k+c] -= s * m[i*k+j]
			}
		}
	}
	return f
}

// applyQT overwrites the row-major n×w matrix b with Qᵀ·b.
func (f *householderQR) applyQT(b []float64, w int) {
	for j := 0; j < f.k; j++ {
		f.reflect(j, b, w)
	}
}

// applyQ overwrites the row-major n×w matrix b with Q·b.
func (f *householderQR) applyQ(b []float64, w int) {
	for j := f.k - 1; j >= 0; j-- {
		f.reflect(j, b, w)
	}
}

// reflect applies reflector j (symmetric, so the same for Q and Qᵀ) to every column of b.
func (f *householderQR) reflect(j int, b []float64, w int) {
	t := f.tau[j]
	if t == 0 {
		return
	}
	n, k, m := f.n, f.k, f.a
	for c := 0; c < w; c++ {
		s := b[j*w+c]
		for i := j + 1; i < n; i++ {
			s += m[i*k+j] * b[i*w+c]
		}
		s *= t
		b[j*w+c] -= s
		for i := j + 1; i < n; i++ {
			b[i*w+c] -= s * m[i*k+j]
		}
	}
}

// cond is the 1-norm condition number ‖R‖₁·‖R⁻¹‖₁ of R (that of A in the sense that matters
// for the solves), +Inf when R is singular. R⁻¹ is formed explicitly: k is small here.
func (f *householderQR) cond() float64 {
	k, m := f.k, f.a
	for j := 0; j < k; j++ {
		if f.diag[j] == 0 {
			return math.Inf(1)
		}
	}
	normR := 0.0
	for c := 0; c < k; c++ {
		s := 0.0
		for r := 0; r <= c; r++ {
			s += math.Abs(m[r*k+c])
		}
		normR = math.Max(normR, s)
	}
	// Column c of R⁻¹ solves R·x = e_c by back substitution.
	normInv := 0.0
	x := make([]float64, k)
	for c := 0; c < k; c++ {
		for i := range x {
			x[i] = 0
		}
		x[c] = 1
		s := 0.0
		for r := c; r >= 0; r-- {
			v := x[r]
			for q := r + 1; q <= c; q++ {
				v -= m[r*k+q] * x[q]
			}
			x[r] = v / m[r*k+r]
			s += math.Abs(x[r])
		}
		normInv = math.Max(normInv, s)
	}
	return normR * normInv
}

// leastSquares returns the k×w solution X of min ‖A·X − B‖ for the row-major n×w matrix b.
func (f *householderQR) leastSquares(b []float64, w int) []float64 {
	n, k, m := f.n, f.k, f.a
	qtb := append([]float64(nil), b[:n*w]...)
	f.applyQT(qtb, w)
	x := qtb[:k*w]
	for c := 0; c < w; c++ {
		for r := k - 1; r >= 0; r-- {
			v := x[r*w+c]
			for q := r + 1; q < k; q++ {
				v -= m[r*k+q] * x[q*w+c]
			}
			x[r*w+c] = v / m[r*k+r]
		}
	}
	return append([]float64(nil), x...)
}

// minNormTransposed returns the n×w minimum-norm solution X of Aᵀ·X = M for the row-major k×w
// matrix mm: X = Q·[R⁻ᵀM; 0].
func (f *householderQR) minNormTransposed(mm []float64, w int) []float64 {
	n, k, m := f.n, f.k, f.a
	x := make([]float64, n*w)
	for c := 0; c < w; c++ {
		for r := 0; r < k; r++ { // forward substitution with Rᵀ
			v := mm[r*w+c]
			for q := 0; q < r; q++ {
				v -= m[q*k+r] * x[q*w+c]
			}
			x[r*w+c] = v / m[r*k+r]
		}
	}
	f.applyQ(x, w)
	return x
}
