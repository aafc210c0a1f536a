package measure_test

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
)

func ExampleShannonEntropy() {
	// Alvim et al. (FOSAD 2011) Example 3.
	h, _ := measure.ShannonEntropy([]float64{1. / 4, 1. / 4, 1. / 8, 1. / 8, 1. / 16, 1. / 16, 1. / 16, 1. / 16})
	fmt.Println(h)
	// Output: 2.75
}

func ExampleRenyiEntropy() {
	p := []float64{0.5, 0.25, 0.25}
	for _, a := range []float64{0, 1, 2, math.Inf(1)} {
		h, _ := measure.RenyiEntropy(p, a)
		fmt.Printf("H_%v = %.4f\n", a, h)
	}
	// Output:
	// H_0 = 1.5850
	// H_1 = 1.5000
	// H_2 = 1.4150
	// H_+Inf = 1.0000
}

func ExampleMutualInformation() {
	bsc := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.1, 0.9})
	i, _ := measure.MutualInformation([]float64{0.5, 0.5}, bsc)
	fmt.Printf("%.4f bits\n", i)
	// Output: 0.5310 bits
}

func ExampleShannonCapacity() {
	bsc := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.1, 0.9})
	r, _ := measure.ShannonCapacity(bsc, &measure.CapacityOptions{Tolerance: 1e-9})
	fmt.Printf("capacity %.6f bits at prior (%.3f, %.3f), certified gap ≤ 1e-9: %v\n",
		r.Capacity, r.Prior[0], r.Prior[1], r.UpperBound-r.Capacity <= 1e-9)
	// Output: capacity 0.531004 bits at prior (0.500, 0.500), certified gap ≤ 1e-9: true
}

func ExamplePosteriorBayesVulnerability() {
	// The password checker of Alvim et al. (FOSAD 2011) Table 2(a): one of 8 passwords is accepted.
	c := mat.NewDense(8, 2, []float64{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0})
	prior := []float64{1. / 8, 1. / 8, 1. / 8, 1. / 8, 1. / 8, 1. / 8, 1. / 8, 1. / 8}
	v, _ := measure.PosteriorBayesVulnerability(prior, c)
	l, _ := measure.MinEntropyLeakage(prior, c)
	fmt.Println(v, l)
	// Output: 0.25 1
}

func ExampleMinCapacity() {
	c := mat.NewDense(2, 3, []float64{0.5, 0.5, 0, 0, 0.5, 0.5})
	cap, _ := measure.MinCapacity(c)
	fmt.Println(cap)
	// Output: 0.5849625007211563
}

func ExamplePosteriorGVulnerability() {
	// Two secrets, a guess for each, and a third action "pass" worth 0.6 whatever the secret.
	g := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0.6, 0.6})
	c := mat.NewDense(2, 2, []float64{0.8, 0.2, 0.3, 0.7})
	prior := []float64{0.5, 0.5}
	pre, _ := measure.GVulnerability(g, prior)
	post, _ := measure.PosteriorGVulnerability(g, prior, c)
	s, _ := measure.OptimalStrategy(g, prior, c)
	fmt.Printf("%.2f %.2f %v\n", pre, post, s)
	// Output: 0.60 0.75 [0 1]
}

func ExampleGuessingEntropy() {
	g, _ := measure.GuessingEntropy([]float64{0.1, 0.6, 0.3})
	fmt.Printf("%.1f\n", g)
	// Output: 1.5
}

func ExampleMaxDivergence() {
	// Randomized response on one bit with ε = ln 3: the two rows.
	p, q := []float64{0.75, 0.25}, []float64{0.25, 0.75}
	e, _ := measure.MaxDivergence(p, q)
	d, _ := measure.HockeyStick(p, q, math.Log(2))
	s, _ := measure.StatisticalDistance(p, q)
	fmt.Printf("ε = %.4f = ln 3, δ(ln 2) = %.2f, SD = %.1f\n", e, d, s)
	// Output: ε = 1.0986 = ln 3, δ(ln 2) = 0.25, SD = 0.5
}

func ExampleAdditiveGCapacity() {
	// A binary symmetric channel with flip probability 0.1 and the prior (0.3, 0.7).
	bsc := mat.NewDense(2, 2, []float64{0.9, 0.1, 0.1, 0.9})
	prior := []float64{0.3, 0.7}
	v, _ := measure.AdditiveGCapacity(prior, bsc, measure.OneSpanningVulnerability)
	g, _ := measure.AdditiveGCapacity(prior, bsc, measure.OneSpanningGain)
	fmt.Printf("1-spanning vulnerabilities %.3f, 1-spanning gains %.3f\n", v, g)
	// Output: 1-spanning vulnerabilities 0.800, 1-spanning gains 0.336
}

func ExampleMultiplicativeBayesRiskCapacity() {
	c := mat.NewDense(3, 2, []float64{0.8, 0.2, 0.5, 0.5, 0.3, 0.7})
	cap, prior, _ := measure.MultiplicativeBayesRiskCapacity(c)
	fmt.Printf("%.4f at prior %v\n", cap, prior)
	// Output: 2.0000 at prior [0.5 0 0.5]
}
