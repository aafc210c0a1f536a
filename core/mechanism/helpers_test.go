package mechanism

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The helpers below recompute things from scratch, independently of the package code, so the
// tests compare two different computations.

// rows copies a matrix into [][]float64 through At (deliberately not the raw-data path).
func rows(c mat.Matrix) [][]float64 {
	r, k := c.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = make([]float64, k)
		for j := range out[i] {
			out[i][j] = c.At(i, j)
		}
	}
	return out
}

// bruteEpsilon is the smallest ε for which c is ε-DP on the given adjacent pairs, straight
// from the definition: max |ln c[x][y] − ln c[x'][y]|, 0/0 skipped, one zero → +Inf.
func bruteEpsilon(c [][]float64, pairs [][2]int) float64 {
	worst := 0.0
	for _, p := range pairs {
		for y := range c[p[0]] {
			a, b := c[p[0]][y], c[p[1]][y]
			switch {
			case a == 0 && b == 0:
			case a == 0 || b == 0:
				return math.Inf(1)
			default:
				worst = math.Max(worst, math.Abs(math.Log(a)-math.Log(b)))
			}
		}
	}
	return worst
}

// bruteMetricEpsilon is max over x ≠ x' and y of |ln c[x][y] − ln c[x'][y]| / |x − x'|.
func bruteMetricEpsilon(c [][]float64) float64 {
	worst := 0.0
	for x := range c {
		for x2 := range c {
			if x == x2 {
				continue
			}
			for y := range c[x] {
				worst = math.Max(worst, math.Abs(math.Log(c[x][y]/c[x2][y]))/math.Abs(float64(x-x2)))
			}
		}
	}
	return worst
}

func pathPairs(n int) [][2]int {
	var p [][2]int
	for i := 0; i+1 < n; i++ {
		p = append(p, [2]int{i, i + 1})
	}
	return p
}

func cliquePairs(n int) [][2]int {
	var p [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p = append(p, [2]int{i, j})
		}
	}
	return p
}

// naiveClampedGeometric adds two-sided geometric noise by summing its mass function over a
// wide window of integers and clamps to lo..lo+m−1 — no tail formulas involved.
func naiveClampedGeometric(n, m, lo int, eps float64) [][]float64 {
	alpha := math.Exp(-eps)
	k := (1 - alpha) / (1 + alpha)
	out := make([][]float64, n)
	for x := range out {
		out[x] = make([]float64, m)
		for v := -3000; v <= 3000; v++ {
			j := min(max(v, lo), lo+m-1) - lo
			out[x][j] += k * math.Pow(alpha, math.Abs(float64(x-v)))
		}
	}
	return out
}

func assertMatrix(t *testing.T, name string, got mat.Matrix, want [][]float64, tol float64) {
	t.Helper()
	r, c := got.Dims()
	if r != len(want) || c != len(want[0]) {
		t.Fatalf("%s: dims %d×%d, want %d×%d", name, r, c, len(want), len(want[0]))
	}
	for i := range want {
		for j := range want[i] {
			if g := got.At(i, j); math.Abs(g-want[i][j]) > tol || math.IsNaN(g) {
				t.Errorf("%s[%d][%d] = %.12g, want %.12g", name, i, j, g, want[i][j])
			}
		}
	}
}

func assertStochastic(t *testing.T, name string, c mat.Matrix) {
	t.Helper()
	for i, row := range rows(c) {
		s := 0.0
		for j, v := range row {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s[%d][%d] = %v", name, i, j, v)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("%s: row %d sums to %.17g", name, i, s)
		}
	}
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }
