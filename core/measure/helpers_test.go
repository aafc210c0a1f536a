package measure

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/qif-toolkit/qif/core/internal/testkit"

	"gonum.org/v1/gonum/mat"
)

// Test helpers: random inputs and naive, definition-level reference computations that share no
// code with the package.

// randDist draws a distribution; sparse ones have each entry 0 with probability 1/4.
func randDist(rng *rand.Rand, n int, sparse bool) []float64 {
	if sparse {
		return testkit.Dist(rng, n, 4)
	}
	return testkit.Dist(rng, n, 0)
}

// randChannel draws a channel whose rows are drawn by randDist.
func randChannel(rng *rand.Rand, n, m int, sparse bool) *mat.Dense {
	if sparse {
		return testkit.Channel(rng, n, m, 4)
	}
	return testkit.Channel(rng, n, m, 0)
}

var near = testkit.Near

// must(t)(f(...)) returns the value of f and fails the test on its error.
func must(t *testing.T) func(float64, error) float64 {
	return func(v float64, err error) float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func uniform(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

// naiveJoint returns J[x][y] = π_x C[x][y] and p(y) computed with At.
func naiveJoint(prior []float64, c mat.Matrix) ([][]float64, []float64) {
	n, m := c.Dims()
	j := make([][]float64, n)
	py := make([]float64, m)
	for x := 0; x < n; x++ {
		j[x] = make([]float64, m)
		for y := 0; y < m; y++ {
			j[x][y] = prior[x] * c.At(x, y)
			py[y] += j[x][y]
		}
	}
	return j, py
}

// naivePosteriors returns the posterior δʸ and p(y) of every output with p(y) > 0.
func naivePosteriors(prior []float64, c mat.Matrix) (posts [][]float64, outer []float64) {
	j, py := naiveJoint(prior, c)
	for y, p := range py {
		if p <= 0 {
			continue
		}
		d := make([]float64, len(prior))
		for x := range prior {
			d[x] = j[x][y] / p
		}
		posts = append(posts, d)
		outer = append(outer, p)
	}
	return posts, outer
}

func naiveH(p []float64) float64 {
	h := 0.0
	for _, v := range p {
		if v > 0 {
			h -= v * math.Log2(v)
		}
	}
	return h
}

// naiveMI is Σ_{x,y} J log₂(J / (π_x p(y))), the definition of I(X;Y) as a divergence.
func naiveMI(prior []float64, c mat.Matrix) float64 {
	j, py := naiveJoint(prior, c)
	s := 0.0
	for x := range j {
		for y, v := range j[x] {
			if v > 0 {
				s += v * math.Log2(v/(prior[x]*py[y]))
			}
		}
	}
	return s
}

func h2(p float64) float64 { return naiveH([]float64{p, 1 - p}) }

// permutations calls f with every permutation of 0..n−1.
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

// bruteGuessing is min over all guessing orders of the expected number of guesses.
func bruteGuessing(p []float64) float64 {
	best := math.Inf(1)
	permutations(len(p), func(order []int) {
		s := 0.0
		for i, x := range order {
			s += float64(i+1) * p[x]
		}
		best = math.Min(best, s)
	})
	return best
}
