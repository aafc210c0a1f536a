package infopriv_test

import (
	"context"
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/infopriv"
	"gonum.org/v1/gonum/mat"
)

func ExampleBinarySymmetricCapacity() {
	c, _ := infopriv.BinarySymmetricCapacity(0.11)
	p, _ := infopriv.FlipProbabilityForCapacity(0.5)
	fmt.Printf("1 − h(0.11) = %.4f bits; flip probability for ½ bit = %.4f\n", c, p)
	// Output: 1 − h(0.11) = 0.5001 bits; flip probability for ½ bit = 0.1100
}

func ExampleGaussianCapacity() {
	c, _ := infopriv.GaussianCapacity(3, 1)
	s, _ := infopriv.SigmaForCapacity(3, 0.5)
	fmt.Printf("½ log2(1 + 3/1) = %.3f bit; σ for ½ bit at P = 3: %.4f\n", c, s)
	// Output: ½ log2(1 + 3/1) = 1.000 bit; σ for ½ bit at P = 3: 1.7321
}

// Three binary records, a count query and randomized response on the 4 possible answers.
func ExampleIndividualCapacity() {
	domains := []int{2, 2, 2}
	table := []int{0, 1, 1, 2, 1, 2, 2, 3} // x0 + x1 + x2, tuples in lexicographic order
	eps := math.Log(3)
	noise := mat.NewDense(4, 4, nil)
	for i := 0; i < 4; i++ {
		for j := 0; j < 4; j++ {
			noise.Set(i, j, 1/(math.Exp(eps)+3))
		}
		noise.Set(i, i, math.Exp(eps)/(math.Exp(eps)+3))
	}
	c, _ := infopriv.QueryChannel(domains, table, noise)
	r, _ := infopriv.IndividualCapacity(context.Background(), domains, c, nil)
	e, _ := infopriv.IndividualEpsilon(context.Background(), domains, c)
	fmt.Printf("capacity %.4f bits (record %d, others %v, prior %.2f)\n", r.Capacity, r.Individual, r.Others, r.Prior)
	fmt.Printf("ε = %.4f = ln 3 (record %d, others %v)\n", e.Epsilon, e.Individual, e.Others)
	// Output:
	// capacity 0.1258 bits (record 0, others [0 0], prior [0.50 0.50])
	// ε = 1.0986 = ln 3 (record 0, others [0 0])
}

func ExampleBayesRatiosOf() {
	c := mat.NewDense(2, 2, []float64{0.75, 0.25, 0.25, 0.75})
	r, _ := infopriv.BayesRatiosOf([]float64{0.5, 0.5}, c)
	fmt.Printf("ratios in [%.2f, %.2f], e^±ε = [%.3f, %.0f]\n", r.Min, r.Max, math.Exp(-r.Epsilon), math.Exp(r.Epsilon))
	// Output: ratios in [0.50, 1.50], e^±ε = [0.333, 3]
}
