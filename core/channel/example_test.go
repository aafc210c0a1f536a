package channel_test

import (
	"fmt"

	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

// The two-node dc-net with coins biased towards 0 (Alvim et al. (FOSAD 2011), Table 3b): inputs
// (a,1), (b,1), (a,0), (b,0); outputs 10, 01, 00, 11. Outputs 00 and 11 reveal the same thing, so
// the hyper-distribution has three inners, not four.
func ExampleHyper() {
	c := mat.NewDense(4, 4, []float64{
		2. / 3, 1. / 3, 0, 0,
		1. / 3, 2. / 3, 0, 0,
		0, 0, 2. / 3, 1. / 3,
		0, 0, 2. / 3, 1. / 3,
	})
	h, err := channel.Hyper([]float64{0.25, 0.25, 0.25, 0.25}, c)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, o := range h.Outer {
		fmt.Printf("%.2f  %.3f  outputs %v\n", o, h.Inners.RawRowView(k), h.Outputs[k])
	}
	// Output:
	// 0.25  [0.667 0.333 0.000 0.000]  outputs [0]
	// 0.25  [0.333 0.667 0.000 0.000]  outputs [1]
	// 0.50  [0.000 0.000 0.500 0.500]  outputs [2 3]
}

func ExamplePosteriors() {
	// Password checker for the password 11 on two-bit guesses: outputs Fail, OK.
	c := mat.NewDense(4, 2, []float64{1, 0, 1, 0, 1, 0, 0, 1})
	post, _ := channel.Posteriors([]float64{0.25, 0.25, 0.25, 0.25}, c)
	for _, p := range post {
		fmt.Printf("y=%d p=%.2f δ=%.3f\n", p.Output, p.Prob, p.Dist)
	}
	// Output:
	// y=0 p=0.75 δ=[0.333 0.333 0.333 0.000]
	// y=1 p=0.25 δ=[0.000 0.000 0.000 1.000]
}

func ExampleJoint() {
	c := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.2, 0.8})
	J, _ := channel.Joint([]float64{0.5, 0.5}, c)
	p, _ := channel.OutputDistribution([]float64{0.5, 0.5}, c)
	fmt.Printf("%.2f\n", mat.Formatted(J))
	fmt.Printf("p(y) = %.2f\n", p)
	// Output:
	// ⎡0.45  0.05⎤
	// ⎣0.10  0.40⎦
	// p(y) = [0.55 0.45]
}

func ExampleReduce() {
	// Column 1 is all zero; columns 0 and 2 are proportional (both ∝ (1, 2)).
	c := mat.NewDense(2, 4, []float64{
		0.1, 0, 0.3, 0.6,
		0.2, 0, 0.6, 0.2,
	})
	r, _ := channel.Reduce(c)
	fmt.Printf("%.1f\n", mat.Formatted(r))
	// Output:
	// ⎡0.4  0.6⎤
	// ⎣0.8  0.2⎦
}

func ExampleCascade() {
	// A noisy bit followed by a second noisy bit: the flips compound.
	A := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.1, 0.9})
	AB, _ := channel.Cascade(A, A)
	fmt.Printf("%.2f\n", mat.Formatted(AB))
	// Output:
	// ⎡0.82  0.18⎤
	// ⎣0.18  0.82⎦
}

func ExampleParallel() {
	// Two independent observations of the same bit; column y·2+z is the pair (y, z).
	A := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.1, 0.9})
	AA, _ := channel.Parallel(A, A)
	fmt.Printf("%.2f\n", mat.Formatted(AA))
	// Output:
	// ⎡0.81  0.09  0.09  0.01⎤
	// ⎣0.01  0.09  0.09  0.81⎦
}

func ExampleCascade_error() {
	A := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	B := mat.NewDense(3, 1, []float64{1, 1, 1})
	_, err := channel.Cascade(A, B)
	fmt.Println(err)
	// Output:
	// B: has 3 rows but A has 2 columns
}

func ExampleValidate() {
	c := mat.NewDense(2, 2, []float64{0.5, 0.5, 0.3, 0.6})
	fmt.Println(channel.Validate(c))
	// Output:
	// channel: row 1 sums to 0.9, expected 1
}

func ExampleIterativeBayesianUpdate() {
	// Randomized response with probability 3/4 of telling the truth; the observed answers
	// are 60% "yes". The estimated true proportion is (0.6 − 0.25)/(0.75 − 0.25) = 0.7.
	rr := mat.NewDense(2, 2, []float64{0.75, 0.25, 0.25, 0.75})
	r, _ := channel.IterativeBayesianUpdate(rr, []float64{0.6, 0.4}, 1e-12, 10000)
	fmt.Printf("%.6f %.6f converged: %v\n", r.Prior[0], r.Prior[1], r.Converged)
	// Output: 0.700000 0.300000 converged: true
}
