package measure

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Channels of Alvim et al. (FOSAD 2011), Tables 2 and 3. The paper
// states the channels but no leakage numbers for them; the expected values below are derived by
// hand in the comments.

// passwordChecker is Table 2(a): password 110, outputs (Fail, OK).
var passwordChecker = mat.NewDense(8, 2, []float64{
	1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0,
})

// passwordCheckerIterations is Table 2(b): outputs (Fail,1), (Fail,2), (Fail,3), OK.
var passwordCheckerIterations = mat.NewDense(8, 4, []float64{
	1, 0, 0, 0,
	1, 0, 0, 0,
	1, 0, 0, 0,
	1, 0, 0, 0,
	0, 1, 0, 0,
	0, 1, 0, 0,
	0, 0, 0, 1,
	0, 0, 1, 0,
})

// dcNetFair is Table 3(a); rows (a,1), (b,1), (a,0), (b,0); columns 10, 01, 00, 11.
var dcNetFair = mat.NewDense(4, 4, []float64{
	0.5, 0.5, 0, 0,
	0.5, 0.5, 0, 0,
	0, 0, 0.5, 0.5,
	0, 0, 0.5, 0.5,
})

// dcNetBiased is Table 3(b): coins give 0 with probability 2/3.
var dcNetBiased = mat.NewDense(4, 4, []float64{
	2. / 3, 1. / 3, 0, 0,
	1. / 3, 2. / 3, 0, 0,
	0, 0, 2. / 3, 1. / 3,
	0, 0, 2. / 3, 1. / 3,
})

func TestExample3ShannonEntropy(t *testing.T) {
	// Alvim et al. (FOSAD 2011) Example 3: p(a) = p(b) = 1/4, p(c) = p(d) = 1/8, p(e..h) = 1/16; H =
	// 11/4.
	p := []float64{1. / 4, 1. / 4, 1. / 8, 1. / 8, 1. / 16, 1. / 16, 1. / 16, 1. / 16}
	near(t, "H(Example 3)", must(t)(ShannonEntropy(p)), 11./4, 1e-15)
	near(t, "H_1(Example 3)", must(t)(RenyiEntropy(p, 1)), 11./4, 1e-15)
}

func TestPasswordChecker(t *testing.T) {
	u := uniform(8)
	// One of 8 equally likely passwords is accepted: Y is Bernoulli(1/8) and determined by X,
	// so I = H(Y) = h(1/8).
	near(t, "I", must(t)(MutualInformation(u, passwordChecker)), h2(1./8), 1e-14)
	near(t, "H(X|Y)", must(t)(ConditionalShannonEntropy(u, passwordChecker)), 3-h2(1./8), 1e-14)
	// Deterministic with 2 reachable outputs: capacity log₂ 2 = 1 (prior ½ on 110, ½ on the rest).
	near(t, "capacity", must(t)(capacity(passwordChecker)), 1, 1e-8)
	// Columns maxima of J are 1/8 and 1/8: V[π▷C] = 1/4, V(π) = 1/8.
	near(t, "V post", must(t)(PosteriorBayesVulnerability(u, passwordChecker)), 0.25, 1e-15)
	near(t, "I_inf", must(t)(MinEntropyLeakage(u, passwordChecker)), 1, 1e-14)
	near(t, "H_inf(X|Y)", must(t)(ConditionalMinEntropy(u, passwordChecker)), 2, 1e-14)
	near(t, "min-capacity", must(t)(MinCapacity(passwordChecker)), 1, 1e-15)
	// Cachin: Fail (p = 7/8) leaves 7 equally likely secrets, OK (1/8) leaves one.
	near(t, "Cachin", must(t)(ConditionalMinEntropyCachin(u, passwordChecker)), 7./8*math.Log2(7), 1e-14)
	// Guessing: 4.5 before; after, Fail needs Σ_{i=1..7} i/8 = 3.5 and OK 1·1/8.
	near(t, "G(X)", must(t)(GuessingEntropy(u)), 4.5, 1e-15)
	near(t, "G(X|Y)", must(t)(PosteriorGuessingEntropy(u, passwordChecker)), 3.625, 1e-15)
	near(t, "V max", must(t)(MaxCasePosteriorBayesVulnerability(u, passwordChecker)), 1, 1e-15)
}

func TestPasswordCheckerIterations(t *testing.T) {
	u := uniform(8)
	// Deterministic: I = H(Y) with p(Y) = (1/2, 1/4, 1/8, 1/8): 1/2 + 2/4 + 3/8 + 3/8 = 7/4.
	near(t, "I", must(t)(MutualInformation(u, passwordCheckerIterations)), 1.75, 1e-14)
	near(t, "capacity", must(t)(capacity(passwordCheckerIterations)), 2, 1e-8)
	near(t, "min-capacity", must(t)(MinCapacity(passwordCheckerIterations)), 2, 1e-15)
	near(t, "I_inf", must(t)(MinEntropyLeakage(u, passwordCheckerIterations)), 2, 1e-14)
	near(t, "V post", must(t)(PosteriorBayesVulnerability(u, passwordCheckerIterations)), 0.5, 1e-15)
	// The timing side channel leaks more than the plain checker under every measure.
	if a, b := must(t)(MutualInformation(u, passwordChecker)), must(t)(MutualInformation(u, passwordCheckerIterations)); a >= b {
		t.Errorf("timing should leak more: %g ≥ %g", a, b)
	}
}

func TestDCNets(t *testing.T) {
	u := uniform(4)
	// Fair coins reveal exactly the broadcast bit and nothing about the sender: 1 bit.
	near(t, "fair I", must(t)(MutualInformation(u, dcNetFair)), 1, 1e-14)
	near(t, "fair capacity", must(t)(capacity(dcNetFair)), 1, 1e-8)
	near(t, "fair min-capacity", must(t)(MinCapacity(dcNetFair)), 1, 1e-15)
	near(t, "fair I_inf", must(t)(MinEntropyLeakage(u, dcNetFair)), 1, 1e-14)

	// Biased coins: column maxima 2/3, 2/3, 2/3, 1/3 give C_∞ = log₂(7/3).
	near(t, "biased min-capacity", must(t)(MinCapacity(dcNetBiased)), math.Log2(7./3), 1e-14)
	near(t, "biased I_inf at uniform", must(t)(MinEntropyLeakage(u, dcNetBiased)), math.Log2(7./3), 1e-14)
	// At the uniform prior p(Y) = (1/4, 1/4, 1/3, 1/6) and every row has entropy h(1/3).
	hy := 2*0.25*2 + math.Log2(3)/3 + math.Log2(6)/6
	near(t, "biased I", must(t)(MutualInformation(u, dcNetBiased)), hy-h2(1./3), 1e-14)
	// The channel is the sum of a binary symmetric channel with crossover 1/3 (capacity
	// 1 − h(1/3)) and a channel with identical rows (capacity 0) on disjoint outputs; Shannon's
	// sum-channel formula gives 2^C = 2^{C₁} + 2^{C₂}.
	near(t, "biased capacity", must(t)(capacity(dcNetBiased)), math.Log2(math.Exp2(1-h2(1./3))+1), 1e-8)
}

func capacity(c mat.Matrix) (float64, error) {
	r, err := ShannonCapacity(c, nil)
	if err == nil && !r.Converged {
		return r.Capacity, errNotConverged
	}
	return r.Capacity, err
}

type notConverged struct{}

func (notConverged) Error() string { return "Blahut–Arimoto did not converge" }

var errNotConverged = notConverged{}
