package exact_test

import (
	"fmt"
	"math/big"

	"github.com/qif-toolkit/qif/core/exact"
	"github.com/qif-toolkit/qif/core/graph"
)

// Typed numbers keep their value: 0.1 is a tenth, "1/3" a third.
func ExampleParse() {
	prior, _ := exact.ParseVector("prior", []string{"1/2", "1/3", "1/6"})
	C, _ := exact.ParseMatrix("channel", [][]string{{"3/4", "0.25"}, {"0.5", "0.5"}, {"0", "1"}})
	v, _ := exact.PosteriorBayesVulnerability(prior, C)
	l, _ := exact.MultiplicativeBayesLeakage(prior, C)
	fmt.Println(v.RatString(), l.RatString())
	_, err := exact.PosteriorBayesVulnerability(prior, &exact.Matrix{Rows: 3, Cols: 1, Data: exact.Vector{exact.MustParse("1"), exact.MustParse("0.9"), exact.MustParse("1")}})
	fmt.Println(err)
	// Output:
	// 13/24 13/12
	// channel: row 1 sums to 9/10, expected exactly 1
}

// Table 1 of Alvim et al. (ICALP 2011): the optimal ε-DP mechanism for six answers that are all
// neighbours, ε = ln 2, binary gain, with the prior p(A) = p(F) = 1/10 and 1/5 for the others.
func ExampleOptimalMechanism() {
	k6, _ := graph.Clique(6)
	prior, _ := exact.ParseVector("prior", []string{"0.1", "0.2", "0.2", "0.2", "0.2", "0.1"})
	res, err := exact.OptimalMechanism(exact.MechanismSpec{Graph: k6, ExpEpsilon: exact.MustParse("2"), Prior: prior})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("optimum", res.Utility.RatString(), "certified", res.Certified)
	bound := new(big.Rat)
	for _, mu := range res.Certificate.RowSums {
		bound.Add(bound, mu)
	}
	fmt.Println("dual bound", bound.RatString())
	// Output:
	// optimum 8/25 certified true
	// dual bound 8/25
}

// Randomized response after a truncated geometric mechanism is a post-processing of it, so it
// leaks no more (a witness exists); the converse fails, with a gain function to show it. In the
// counterexample, VulnerabilityA is the vulnerability of the first argument (here B).
func ExampleRefineAvg() {
	two := exact.MustParse("2")
	A, _ := exact.TruncatedGeometric(3, two, 3)
	R, _ := exact.RandomizedResponse(3, two, 3)
	B, _ := exact.Cascade(A, R)
	res, _ := exact.RefineAvg(A, B, nil)
	fmt.Println("A ⊑avg B:", res.Holds)
	res, _ = exact.RefineAvg(B, A, nil)
	ce := res.Counterexample
	fmt.Println("B ⊑avg A:", res.Holds)
	fmt.Println("a gain under which A leaks more, exactly:", ce.VulnerabilityA.Cmp(ce.VulnerabilityB) < 0)
	// Output:
	// A ⊑avg B: true
	// B ⊑avg A: false
	// a gain under which A leaks more, exactly: true
}
