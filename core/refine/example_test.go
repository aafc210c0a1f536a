package refine_test

import (
	"fmt"

	"github.com/qif-toolkit/qif/core/refine"
	"gonum.org/v1/gonum/mat"
)

// B forgets A's output with probability 1/2, so B is a post-processing of A.
func ExampleAvg() {
	A := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.2, 0.8})
	R := mat.NewDense(2, 2, []float64{0.75, 0.25, 0.25, 0.75})
	var B mat.Dense
	B.Mul(A, R)
	r, _ := refine.Avg(A, &B)
	fmt.Println("A ⊑avg B:", r.Holds)
	back, _ := refine.Avg(&B, A)
	ce := back.Counterexample
	fmt.Printf("B ⊑avg A: %v, V_g[π▷B] = %.4f < V_g[π▷A] = %.4f\n", back.Holds, ce.VulnerabilityA, ce.VulnerabilityB)
	// Output:
	// A ⊑avg B: true
	// B ⊑avg A: false, V_g[π▷B] = 1.0000 < V_g[π▷A] = 1.2500
}

// Swapping the rows of a 2-secret channel keeps its induced metric but mirrors its posteriors.
func ExamplePrv() {
	A := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.4, 0.6})
	B := mat.NewDense(2, 2, []float64{0.4, 0.6, 0.8, 0.2})
	p, _ := refine.Prv(A, B)
	m, _ := refine.Max(A, B)
	fmt.Printf("A ⊑prv B: %v; A ⊑max B: %v (posterior %.3f is %.4f from A's hull)\n",
		p.Holds, m.Holds, m.Counterexample.Posterior, m.Counterexample.Distance)
	// Output:
	// A ⊑prv B: true; A ⊑max B: false (posterior [0.750 0.250] is 0.1179 from A's hull)
}

func ExampleFromMetric() {
	D := mat.NewDense(3, 3, []float64{0, 1, 2, 1, 0, 1, 2, 1, 0})
	C, _ := refine.FromMetric(D)
	fmt.Printf("%.4f\n", mat.Formatted(C))
	// Output:
	// ⎡0.1667  0.0613  0.0226  0.7495⎤
	// ⎢0.0613  0.1667  0.0613  0.7107⎥
	// ⎣0.0226  0.0613  0.1667  0.7495⎦
}

func ExampleAdditiveMetric() {
	// A reveals whether the secret is 0; B reveals it completely. Under the uniform prior B
	// can leak up to 2/3 more than A: for instance the gain 1 for the right secret and −1 for
	// a wrong one (and the zero guess) is worth 1 with B and 1/3 with A, where only output 0
	// helps.
	A := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 1})
	B := mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
	r, _ := refine.AdditiveMetric([]float64{1. / 3, 1. / 3, 1. / 3}, A, B)
	fmt.Printf("%.4f (V_g[π▷B] = %.4f, V_g[π▷A] = %.4f)\n", r.Value, r.VulnerabilityB, r.VulnerabilityA)
	// Output: 0.6667 (V_g[π▷B] = 1.0000, V_g[π▷A] = 0.3333)
}

func ExampleFactorize() {
	// Randomized response on 3 values followed by merging outputs 1 and 2 is a
	// post-processing of randomized response: A = B·X.
	B := mat.NewDense(3, 3, []float64{0.5, 0.25, 0.25, 0.25, 0.5, 0.25, 0.25, 0.25, 0.5})
	A := mat.NewDense(3, 2, []float64{0.5, 0.5, 0.25, 0.75, 0.25, 0.75})
	f, _ := refine.Factorize(A, B)
	fmt.Println(f.Exists)
	fmt.Printf("%.3f\n", mat.Formatted(f.Witness))
	// The converse fails: B is no post-processing of A.
	g, _ := refine.Factorize(B, A)
	fmt.Println(g.Exists)
	// Output:
	// true
	// ⎡1.000  0.000⎤
	// ⎢0.000  1.000⎥
	// ⎣0.000  1.000⎦
	// false
}
