// Package matmul multiplies dense matrices with plain loops.
//
// gonum's Dense.Mul goes through its BLAS implementation, which was the only reason its Dgemm
// (about 80 KB of code) was linked into the WebAssembly module; the three products of the
// toolkit (cascade, g-vulnerability, expected utility) need nothing more than this.
package matmul

import "gonum.org/v1/gonum/mat"

// Mul returns the product A·B of an n×m and an m×k matrix as a new n×k matrix. The loop order
// (row of A, then its entries, then a row of B) reads both operands row by row, and zero
// entries of A, common in channels, are skipped. It panics when the inner dimensions differ,
// as Dense.Mul does.
func Mul(a, b *mat.Dense) *mat.Dense {
	ra, rb := a.RawMatrix(), b.RawMatrix()
	if ra.Cols != rb.Rows {
		panic(mat.ErrShape)
	}
	n, m, k := ra.Rows, ra.Cols, rb.Cols
	out := mat.NewDense(n, k, nil)
	od := out.RawMatrix().Data
	for i := 0; i < n; i++ {
		dst := od[i*k : (i+1)*k]
		arow := ra.Data[i*ra.Stride : i*ra.Stride+m]
		for j, v := range arow {
			if v == 0 {
				continue
			}
			brow := rb.Data[j*rb.Stride : j*rb.Stride+k]
			for c, w := range brow {
				dst[c] += v * w
			}
		}
	}
	return out
}
