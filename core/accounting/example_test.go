package accounting_test

import (
	"context"
	"fmt"

	"github.com/qif-toolkit/qif/core/accounting"
)

// Ten counting queries answered with the Laplace mechanism at ε = 0.1 each: exactly, the
// composition is not (1, 0)-DP's ε = 1 at δ = 10⁻⁵ but a little less.
func ExampleEpsilon() {
	events := []accounting.Event{{Mechanism: accounting.Pure, Epsilon: 0.1, Count: 10}}
	r, _ := accounting.Epsilon(context.Background(), events, 1e-5, nil)
	fmt.Printf("ε = %.4f (%s)\n", r.Epsilon, r.Method)
	// Output: ε = 0.9937 (optimal-composition)
}

// DP-SGD: 1,000 steps of the Gaussian mechanism (σ = 1) on Poisson samples at rate 0.01.
func ExampleEpsilon_dpsgd() {
	events := []accounting.Event{{Mechanism: accounting.Subsampled, Rate: 0.01, Count: 1000,
		Of: &accounting.Event{Mechanism: accounting.Gaussian, Sigma: 1}}}
	r, _ := accounting.Epsilon(context.Background(), events, 1e-5, nil)
	fmt.Printf("ε ∈ [%.3f, %.3f] (%s)\n", r.Lower, r.Upper, r.Method)
	// Output: ε ∈ [1.828, 1.828] (pld)
}
