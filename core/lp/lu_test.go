package lp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomBasis returns a sparse nonsingular-ish m×m matrix in column form: a permuted diagonal
// plus random off-diagonal entries, and its dense copy.
func randomBasis(rng *rand.Rand, m int, density float64) (start, idx []int, val []float64, dense [][]float64) {
	dense = make([][]float64, m)
	for i := range dense {
		dense[i] = make([]float64, m)
	}
	perm := rng.Perm(m)
	for j := 0; j < m; j++ {
		dense[perm[j]][j] = 1 + rng.Float64()
		for i := 0; i < m; i++ {
			if rng.Float64() < density {
				dense[i][j] += rng.NormFloat64()
			}
		}
	}
	start = []int{0}
	for j := 0; j < m; j++ {
		for i := 0; i < m; i++ {
			if dense[i][j] != 0 {
				idx = append(idx, i)
				val = append(val, dense[i][j])
			}
		}
		start = append(start, len(idx))
	}
	return
}

func TestLUSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		m := 1 + rng.IntN(30)
		start, idx, val, B := randomBasis(rng, m, 0.15)
		var f luFactor
		if bp, _ := f.factor(m, start, idx, val); bp != nil {
			continue // singular draw
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		// FTRAN: B x = b
		a := append([]float64(nil), b...)
		x := make([]float64, m)
		f.ftran(a, x)
		for i := 0; i < m; i++ {
			s := 0.0
			for j := 0; j < m; j++ {
				s += B[i][j] * x[j]
			}
			if math.Abs(s-b[i]) > 1e-8*(1+math.Abs(b[i])) {
				t.Fatalf("trial %d: ftran residual %g at row %d", trial, s-b[i], i)
			}
		}
		// BTRAN: Bᵀ y = b
		e := append([]float64(nil), b...)
		y := make([]float64, m)
		f.btran(e, y)
		for j := 0; j < m; j++ {
			s := 0.0
			for i := 0; i < m; i++ {
				s += B[i][j] * y[i]
			}
			if math.Abs(s-b[j]) > 1e-8*(1+math.Abs(b[j])) {
				t.Fatalf("trial %d: btran residual %g at column %d", trial, s-b[j], j)
			}
		}
		// A product-form update: replace column p by a random column and solve again.
		p := rng.IntN(m)
		col := make([]float64, m)
		for i := range col {
			col[i] = rng.NormFloat64()
		}
		alpha := make([]float64, m)
		f.ftran(append([]float64(nil), col...), alpha)
		if math.Abs(alpha[p]) < 1e-3 {
			continue
		}
		nz := make([]int, m)
		for i := range nz {
			nz[i] = i
		}
		f.addEta(p, alpha, nz)
		for i := 0; i < m; i++ {
			B[i][p] = col[i]
		}
		f.ftran(append([]float64(nil), b...), x)
		for i := 0; i < m; i++ {
			s := 0.0
			for j := 0; j < m; j++ {
				s += B[i][j] * x[j]
			}
			if math.Abs(s-b[i]) > 1e-7*(1+math.Abs(b[i])) {
				t.Fatalf("trial %d: ftran after update residual %g", trial, s-b[i])
			}
		}
		f.btran(append([]float64(nil), b...), y)
		for j := 0; j < m; j++ {
			s := 0.0
			for i := 0; i < m; i++ {
				s += B[i][j] * y[i]
			}
			if math.Abs(s-b[j]) > 1e-7*(1+math.Abs(b[j])) {
				t.Fatalf("trial %d: btran after update residual %g", trial, s-b[j])
			}
		}
	}
}

func TestLUSingular(t *testing.T) {
	// Two equal columns.
	start := []int{0, 2, 4, 5}
	idx := []int{0, 1, 0, 1, 2}
	val := []float64{1, 2, 1, 2, 3}
	var f luFactor
	bp, br := f.factor(3, start, idx, val)
	if len(bp) != 1 || len(br) != 1 {
		t.Fatalf("singular matrix: bad positions %v rows %v, want one of each", bp, br)
	}
}

// TestPow2 compares pow2 with its definition, 2^round(log₂ v), over many magnitudes.
func TestPow2(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for k := 0; k < 100000; k++ {
		v := math.Exp((rng.Float64() - 0.5) * 1400)
		want := math.Exp2(math.Round(math.Log2(v)))
		if got := pow2(v); got != want && math.Abs(math.Log2(v)-math.Round(math.Log2(v))) < 0.4999 {
			t.Fatalf("pow2(%g) = %g, want %g", v, got, want)
		}
	}
	for _, v := range []float64{1, 2, 0.75, 3, 1e-300, 1e300} {
		if got, want := pow2(v), math.Exp2(math.Round(math.Log2(v))); got != want {
			t.Errorf("pow2(%g) = %g, want %g", v, got, want)
		}
	}
}
