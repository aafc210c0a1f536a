package exact

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// vec parses a vector of constants.
func vec(s ...string) Vector {
	v := make(Vector, len(s))
	for i, t := range s {
		v[i] = MustParse(t)
	}
	return v
}

// mtx parses a matrix of constants given row by row.
func mtx(rows ...[]string) *Matrix {
	m, err := ParseMatrix("test", rows)
	if err != nil {
		panic(err)
	}
	return m
}

func row(s ...string) []string { return s }

// randomDistribution draws a distribution with k entries whose entries are integers in
// [0, maxNum] divided by their sum (at least one non-zero entry), so that the denominators
// vary from row to row; with zeros when zeros is set.
func randomDistribution(rng *rand.Rand, k int, maxNum int64, zeros bool) Vector {
	for {
		nums := make([]int64, k)
		var s int64
		for i := range nums {
			if zeros && rng.IntN(4) == 0 {
				continue
			}
			nums[i] = 1 + rng.Int64N(maxNum)
			s += nums[i]
		}
		if s == 0 {
			continue
		}
		v := make(Vector, k)
		for i, a := range nums {
			v[i] = big.NewRat(a, s)
		}
		return v
	}
}

// randomChannel draws an n×m channel with randomDistribution rows.
func randomChannel(rng *rand.Rand, n, m int, maxNum int64, zeros bool) *Matrix {
	c := &Matrix{Rows: n, Cols: m}
	for x := 0; x < n; x++ {
		c.Data = append(c.Data, randomDistribution(rng, m, maxNum, zeros)...)
	}
	return c
}

// randomGain draws a |W|×n matrix of signed fractions k/7.
func randomGain(rng *rand.Rand, w, n int) *Matrix {
	g := &Matrix{Rows: w, Cols: n}
	for k := 0; k < w*n; k++ {
		g.Data = append(g.Data, big.NewRat(rng.Int64N(15)-4, 7))
	}
	return g
}

func dense(m *Matrix) *mat.Dense { return mat.NewDense(m.Rows, m.Cols, m.Floats()) }

func float(r *big.Rat) float64 { f, _ := r.Float64(); return f }

// near checks an exact value against a floating-point one to a relative 1e-12.
func near(t *testing.T, what string, exact *big.Rat, fl float64) {
	t.Helper()
	e := float(exact)
	if math.Abs(e-fl) > 1e-12*math.Max(1, math.Abs(fl)) {
		t.Errorf("%s: exact %s = %.17g, floating point %.17g", what, exact.RatString(), e, fl)
	}
}

// equal checks an exact value against an expected fraction.
func equal(t *testing.T, what string, got *big.Rat, want string) {
	t.Helper()
	if got == nil || got.Cmp(MustParse(want)) != 0 {
		s := "<nil>"
		if got != nil {
			s = got.RatString()
		}
		t.Errorf("%s = %s, want %s", what, s, want)
	}
}

func mustMul(a, b *Matrix) *Matrix {
	c, err := mul(a, b)
	if err != nil {
		panic(err)
	}
	return c
}

// key is a canonical text of a vector of reduced fractions: equal vectors, equal keys.
func key(v Vector) string { return strings.Join(v.Strings(), ",") }
