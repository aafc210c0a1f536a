package channel

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"gonum.org/v1/gonum/mat"
)

// Defaults of IterativeBayesianUpdate for callers that have no values of their own (the
// JavaScript API): libqif's maxDiff, and an iteration limit that bounds the running time.
const (
	DefaultIBUMaxDiff       = 1e-6
	DefaultIBUMaxIterations = 10_000
)

// ibuAlmostZero is libqif's threshold below which an output probability of the current estimate
// is replaced by 1 in the update's division.
const ibuAlmostZero = 1e-6

// IBUResult is the outcome of IterativeBayesianUpdate.
type IBUResult struct {
	// Prior is the estimate of the input distribution after the last step.
	Prior []float64
	// Iterations is the number of update steps performed, the converged step included.
	Iterations int
	// Converged reports that the last step moved the estimate by at most maxDiff (L1); when
	// false, the iteration limit stopped it.
	Converged bool
}

// IterativeBayesianUpdate estimates the input distribution of the channel C from the observed
// frequencies of its outputs (the standard decoder of local differential privacy, libqif's
// definition): start from the uniform prior π and repeat
//
//	π'_x = π_x · Σ_y C[x][y]·o_y / (π·C)_y,
//
// where an output with (π·C)_y < 1e-6 divides by 1 instead, until ‖π' − π‖₁ ≤ maxDiff or
// maxIterations steps have been made; the count includes the step that converged. The estimate
// is not renormalized (libqif does not): it sums to 1 exactly in exact arithmetic unless the
// 1e-6 rule applies. It is the expectation–maximization iteration for the maximum-likelihood
// prior, and converges to it (slowly when the channel is noisy).
//
// observed must be a distribution (sums to 1 within Tolerance) with one entry per column of C;
// maxDiff ≥ 0 and maxIterations ≥ 1.
func IterativeBayesianUpdate(C mat.Matrix, observed []float64, maxDiff float64, maxIterations int) (*IBUResult, error) {
	if err := Validate(C); err != nil {
		return nil, err
	}
	n, m := dims(C)
	if err := ValidateDistribution("observed", observed); err != nil {
		return nil, err
	}
	if len(observed) != m {
		return nil, argerr.New("observed", "has %s but the channel has %s (one frequency per output)", count(len(observed), "entry", "entries"), count(m, "column", "columns"))
	}
	if math.IsNaN(maxDiff) || maxDiff < 0 || math.IsInf(maxDiff, 0) {
		return nil, argerr.New("maxDiff", "must be a finite number ≥ 0, got %v", maxDiff)
	}
	if maxIterations < 1 {
		return nil, argerr.New("maxIterations", "must be at least 1, got %d", maxIterations)
	}
	c := make([]float64, n*m)
	for x := 0; x < n; x++ {
		for y := 0; y < m; y++ {
			c[x*m+y] = C.At(x, y)
		}
	}
	pi := make([]float64, n)
	for x := range pi {
		pi[x] = 1 / float64(n)
	}
	next := make([]float64, n)
	out := make([]float64, m)
	ratio := make([]float64, m)
	for it := 1; ; it++ {
		for y := range out {
			out[y] = 0
		}
		for x, px := range pi {
			if px == 0 {
				continue
			}
			for y, v := range c[x*m : (x+1)*m] {
				out[y] += px * v
			}
		}
		for y, v := range out {
			if v < ibuAlmostZero {
				v = 1
			}
			ratio[y] = observed[y] / v
		}
		diff := 0.0
		for x, px := range pi {
			s := 0.0
			for y, v := range c[x*m : (x+1)*m] {
				s += v * ratio[y]
			}
			next[x] = px * s
			diff += math.Abs(next[x] - px)
		}
		pi, next = next, pi
		if diff <= maxDiff || it == maxIterations {
			return &IBUResult{Prior: pi, Iterations: it, Converged: diff <= maxDiff}, nil
		}
	}
}
