package channel

import (
	"fmt"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/internal/matmul"
	"gonum.org/v1/gonum/mat"
)

// Cascade returns the cascade A·B: the output of channel A (n×m) is fed to channel B (m×k),
// giving an n×k channel with (A·B)[x][z] = Σ_y A[x][y] B[y][z]. Errors name "A" or "B".
func Cascade(a, b mat.Matrix) (*mat.Dense, error) {
	if err := ValidateNamed("A", a); err != nil {
		return nil, err
	}
	if err := ValidateNamed("B", b); err != nil {
		return nil, err
	}
	n, m := a.Dims()
	mb, k := b.Dims()
	if mb != m {
		return nil, argerr.New("B", "has %s but A has %s", count(mb, "row", "rows"), count(m, "column", "columns"))
	}
	if float64(n)*float64(k) > MaxEntries {
		return nil, fmt.Errorf("cascade: the result would be %d×%d, more than the limit of %d entries", n, k, MaxEntries)
	}
	return matmul.Mul(asDense(a), asDense(b)), nil
}

// Parallel returns the parallel composition A∥B of two channels on the same secret, both of
// whose outputs are observed: (A∥B)[x][(y,z)] = A[x][y]·B[x][z]. A is n×m and B is n×k; the
// result is n×(m·k) and the pair (y,z) is column y·k + z (y major, z minor). Errors name "A"
// or "B".
func Parallel(a, b mat.Matrix) (*mat.Dense, error) {
	if err := ValidateNamed("A", a); err != nil {
		return nil, err
	}
	if err := ValidateNamed("B", b); err != nil {
		return nil, err
	}
	n, m := a.Dims()
	nb, k := b.Dims()
	if nb != n {
		return nil, argerr.New("B", "has %s but A has %s", count(nb, "row", "rows"), count(n, "row", "rows"))
	}
	if float64(n)*float64(m)*float64(k) > MaxEntries {
		return nil, fmt.Errorf("parallel: the result would be %d×%d, more than the limit of %d entries", n, m*k, MaxEntries)
	}
	ad, as, _, _ := denseOf(a)
	bd, bs, _, _ := denseOf(b)
	w := m * k
	out := make([]float64, n*w)
	for x := 0; x < n; x++ {
		arow := ad[x*as : x*as+m]
		brow := bd[x*bs : x*bs+k]
		dst := out[x*w : x*w+w]
		for y, av := range arow {
			d := dst[y*k : y*k+k]
			for z, bv := range brow {
				d[z] = av * bv
			}
		}
	}
	return mat.NewDense(n, w, out), nil
}

// asDense returns m as a *mat.Dense, copying it when it is another kind of matrix.
func asDense(m mat.Matrix) *mat.Dense {
	if d, ok := m.(*mat.Dense); ok {
		return d
	}
	return mat.DenseCopyOf(m)
}

// count writes n with its noun, in the singular for 1 ("1 row", "3 rows").
func count(n int, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", n, plural)
}
