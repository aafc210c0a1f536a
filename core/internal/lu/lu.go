// Package lu factorizes dense square matrices by Gaussian elimination with partial pivoting and
// solves linear systems with the factors.
//
// gonum's mat.LU goes through LAPACK (Dgetrf, Dgecon), which the WebAssembly module otherwise
// does not need; linking it cost about 100 KB of the gzipped module for one caller (the
// tight-constraints mechanism). This package is the few dozen lines that caller needs, with a
// condition estimate so that it can still refuse a nearly singular system.
package lu

import (
	"errors"
	"math"
)

// ErrSingular is returned by Factorize when a pivot column has no non-zero entry.
var ErrSingular = errors.New("lu: matrix is singular")

// LU holds the factors P·A = L·U of an n×n matrix A in one row-major array: the strictly lower
// part is L (unit diagonal, not stored), the upper part U.
type LU struct {
	n     int
	f     []float64 // factors, row-major n×n
	perm  []int     // row i of P·A is row perm[i] of A
	norm1 float64   // ‖A‖₁, for the condition estimate
}

// Factorize factorizes the row-major n×n matrix a (which it does not modify). It returns
// ErrSingular when a pivot is exactly zero.
func Factorize(n int, a []float64) (*LU, error) {
	if len(a) != n*n {
		return nil, errors.New("lu: matrix data has the wrong length")
	}
	f := append([]float64(nil), a...)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	norm1 := 0.0
	for j := 0; j < n; j++ {
		s := 0.0
		for i := 0; i < n; i++ {
			s += math.Abs(a[i*n+j])
		}
		norm1 = math.Max(norm1, s)
	}
	for k := 0; k < n; k++ {
		p, best := k, math.Abs(f[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := math.Abs(f[i*n+k]); v > best {
				p, best = i, v
			}
		}
		if best == 0 {
			return nil, ErrSingular
		}
		if p != k {
			rk, rp := f[k*n:(k+1)*n], f[p*n:(p+1)*n]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
			perm[k], perm[p] = perm[p], perm[k]
		}
		pivot := f[k*n+k]
		rowK := f[k*n+k+1 : (k+1)*n]
		for i := k + 1; i < n; i++ {
			l := f[i*n+k] / pivot
			f[i*n+k] = l
			if l == 0 {
				continue
			}
			rowI := f[i*n+k+1 : (i+1)*n]
			for j, v := range rowK {
				rowI[j] -= l * v
			}
		}
	}
	return &LU{n: n, f: f, perm: perm, norm1: norm1}, nil
}

// Solve returns x with A·x = b.
func (d *LU) Solve(b []float64) []float64 {
	n := d.n
	x := make([]float64, n)
	for i, p := range d.perm {
		x[i] = b[p]
	}
	for i := 0; i < n; i++ { // L·z = P·b
		row := d.f[i*n : i*n+i]
		s := x[i]
		for j, v := range row {
			s -= v * x[j]
		}
		x[i] = s
	}
	for i := n - 1; i >= 0; i-- { // U·x = z
		row := d.f[i*n : (i+1)*n]
		s := x[i]
		for j := i + 1; j < n; j++ {
			s -= row[j] * x[j]
		}
		x[i] = s / row[i]
	}
	return x
}

// solveTranspose returns x with Aᵀ·x = b (Uᵀ·Lᵀ·P·x = b).
func (d *LU) solveTranspose(b []float64) []float64 {
	n := d.n
	z := append([]float64(nil), b...)
	for i := 0; i < n; i++ { // Uᵀ·w = b
		s := z[i]
		for j := 0; j < i; j++ {
			s -= d.f[j*n+i] * z[j]
		}
		z[i] = s / d.f[i*n+i]
	}
	for i := n - 1; i >= 0; i-- { // Lᵀ·v = w
		s := z[i]
		for j := i + 1; j < n; j++ {
			s -= d.f[j*n+i] * z[j]
		}
		z[i] = s
	}
	x := make([]float64, n)
	for i, p := range d.perm {
		x[p] = z[i]
	}
	return x
}

// Cond estimates the 1-norm condition number ‖A‖₁·‖A⁻¹‖₁ with Hager's method as refined by
// Higham (the estimator behind LAPACK's Dgecon): a few solves with A and Aᵀ give a lower bound
// on ‖A⁻¹‖₁ that is almost always within a small factor of it. It returns +Inf when a solve
// overflows.
func (d *LU) Cond() float64 {
	n := d.n
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	est := 0.0
	for iter := 0; iter < 5; iter++ {
		y := d.Solve(x)
		norm := 0.0
		for _, v := range y {
			norm += math.Abs(v)
		}
		if math.IsNaN(norm) || math.IsInf(norm, 0) {
			return math.Inf(1)
		}
		if iter > 0 && norm <= est {
			break
		}
		est = norm
		xi := make([]float64, n)
		for i, v := range y {
			if v >= 0 {
				xi[i] = 1
			} else {
				xi[i] = -1
			}
		}
		z := d.solveTranspose(xi)
		j, zmax := 0, math.Abs(z[0])
		for i, v := range z {
			if math.Abs(v) > zmax {
				j, zmax = i, math.Abs(v)
			}
		}
		zx := 0.0
		for i := range z {
			zx += z[i] * x[i]
		}
		if zmax <= zx {
			break
		}
		for i := range x {
			x[i] = 0
		}
		x[j] = 1
	}
	// Higham's extra vector with alternating signs guards against the estimator's known
	// failures on specially structured matrices.
	alt := make([]float64, n)
	for i := range alt {
		s := 1.0
		if i%2 == 1 {
			s = -1
		}
		alt[i] = s * (1 + float64(i)/math.Max(1, float64(n-1)))
	}
	y := d.Solve(alt)
	altNorm := 0.0
	for _, v := range y {
		altNorm += math.Abs(v)
	}
	altNorm = 2 * altNorm / (3 * float64(n))
	if altNorm > est {
		est = altNorm
	}
	return d.norm1 * est
}
