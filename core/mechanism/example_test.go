package mechanism_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/mechanism"
	"gonum.org/v1/gonum/mat"
)

// The truncated geometric with ε = ln 2 (α = ½) on three inputs.
func ExampleTruncatedGeometric() {
	c, _ := mechanism.TruncatedGeometric(3, math.Ln2, 3)
	fmt.Printf("%.4f\n", mat.Formatted(c))
	// Output:
	// ⎡0.6667  0.1667  0.1667⎤
	// ⎢0.3333  0.3333  0.3333⎥
	// ⎣0.1667  0.1667  0.6667⎦
}

// Inputs 0..3 reported on 0..1: the columns beyond output 1 are summed into it.
func ExampleOverTruncatedGeometric() {
	c, _ := mechanism.OverTruncatedGeometric(4, 2, math.Ln2)
	fmt.Printf("%.4f\n", mat.Formatted(c))
	// Output:
	// ⎡0.6667  0.3333⎤
	// ⎢0.3333  0.6667⎥
	// ⎢0.1667  0.8333⎥
	// ⎣0.0833  0.9167⎦
}

// Input 2 is not among the two outputs: it gets the uniform row.
func ExampleRandomizedResponse() {
	c, _ := mechanism.RandomizedResponse(3, math.Ln2, 2)
	fmt.Printf("%.4f\n", mat.Formatted(c))
	// Output:
	// ⎡0.6667  0.3333⎤
	// ⎢0.3333  0.6667⎥
	// ⎣0.5000  0.5000⎦
}

// The exponential mechanism built with ε = 1 is only ε/2-private on two inputs.
func ExampleExponentialEpsilon() {
	for _, n := range []int{2, 3, 10} {
		e, _ := mechanism.ExponentialEpsilon(n, 1, n)
		fmt.Printf("n = %2d: true ε = %.4f\n", n, e)
	}
	// Output:
	// n =  2: true ε = 0.5000
	// n =  3: true ε = 0.6141
	// n = 10: true ε = 0.7118
}

// Alvim et al. (ICALP 2011) Table 1: the truncated geometric M1 and the Theorem 6.2 mechanism M2 on
// the clique of 6 answers with ε = ln 2, under the uniform prior and p(A) = p(F) = 1/10.
func ExampleUtility() {
	m1, _ := mechanism.TruncatedGeometric(6, math.Ln2/5, 6)
	clique, _ := graph.Clique(6)
	m2, _ := mechanism.Optimal(clique, math.Ln2)
	for _, prior := range [][]float64{
		{1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6},
		{.1, .2, .2, .2, .2, .1},
	} {
		u1, _ := mechanism.Utility(prior, m1, nil)
		u2, _ := mechanism.Utility(prior, m2, nil)
		fmt.Printf("U(M1) = %.5f  U(M2) = %.5f\n", u1, u2)
	}
	// Output:
	// U(M1) = 0.22434  U(M2) = 0.28571
	// U(M1) = 0.24152  U(M2) = 0.28571
}

// On a path the distance distribution depends on the vertex, so the row-normalized
// Theorem 6.2 matrix is not ε-DP: its actual ε exceeds the target.
func ExampleNewTheorem62() {
	p7, _ := graph.Path(7)
	r, _ := mechanism.NewTheorem62(p7, math.Ln2)
	fmt.Printf("uniform %v, target ε %.4f, actual ε %.4f\n", r.Uniform, r.Epsilon, r.ActualEpsilon)
	c6, _ := graph.Cycle(6)
	r, _ = mechanism.NewTheorem62(c6, math.Ln2)
	fmt.Printf("uniform %v, target ε %.4f, actual ε %.4f\n", r.Uniform, r.Epsilon, r.ActualEpsilon)
	// Output:
	// uniform false, target ε 0.6931, actual ε 0.9116
	// uniform true, target ε 0.6931, actual ε 0.6931
}

// Optimal refuses a graph whose vertices see different distance distributions: there the
// theorem's matrix is neither ε-DP nor optimal, and OptimalLP finds the optimum (3/7 on P7).
func ExampleOptimal() {
	p7, _ := graph.Path(7)
	_, err := mechanism.Optimal(p7, math.Ln2)
	var no *mechanism.NotOptimalError
	fmt.Println(errors.As(err, &no), no.Differs)
	r, _ := mechanism.OptimalLP(mechanism.LPSpec{Graph: p7, Epsilon: math.Ln2})
	fmt.Printf("optimum %.4f\n", r.Utility)
	// Output:
	// true 1
	// optimum 0.4286
}

func ExampleTightConstraints() {
	// ε·discrete with ε = ln 2 on three secrets: randomized response, 1/2 on the diagonal.
	D := mat.NewDense(3, 3, []float64{0, math.Ln2, math.Ln2, math.Ln2, 0, math.Ln2, math.Ln2, math.Ln2, 0})
	C, _ := mechanism.TightConstraints(D)
	fmt.Printf("%.4f\n", mat.Formatted(C))
	// Output:
	// ⎡0.5000  0.2500  0.2500⎤
	// ⎢0.2500  0.5000  0.2500⎥
	// ⎣0.2500  0.2500  0.5000⎦
}

func ExampleGeometricWindow() {
	// Ages 30..33 reported on the window 31..32 with ε = ln 2: ages below 31 are clamped to
	// 31 and ages above 32 to 32. Age 30 reports 32 when Z ≥ 2: α²/(1+α) = 1/6.
	C, _ := mechanism.GeometricWindow(4, math.Ln2, 2, 30, 31)
	fmt.Printf("%.4f\n", mat.Formatted(C))
	// Output:
	// ⎡0.8333  0.1667⎤
	// ⎢0.6667  0.3333⎥
	// ⎢0.3333  0.6667⎥
	// ⎣0.1667  0.8333⎦
}
