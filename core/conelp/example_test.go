package conelp_test

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/conelp"
	"github.com/qif-toolkit/qif/core/lp"
)

// The optimal ε-DP mechanism on the clique of three answers (every pair adjacent) for the
// binary gain and the uniform prior: by symmetry it is randomized response, whose expected
// gain is e^ε/(e^ε + 2) = 1/2 at ε = ln 2.
func ExampleSolve() {
	const n = 3
	cost := make([][]float64, n)
	for w := range cost {
		cost[w] = make([]float64, n)
		cost[w][w] = 1.0 / n // the prior of y = w times the gain of guessing w
	}
	var pairs []conelp.Pair
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			pairs = append(pairs, conelp.Pair{A: a, B: b, Log: math.Ln2})
		}
	}
	r, err := conelp.Solve(&conelp.Problem{N: n, Cost: cost, Pairs: pairs, Sense: lp.Maximize}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Status)
	fmt.Printf("expected gain %.6f, certified bound %.6f\n", r.Objective, r.Bound)
	// Output:
	// optimal
	// expected gain 0.500000, certified bound 0.500000
}
