package conelp

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/lp"
)

// Pair is one ratio constraint of the cone: h[A] ≤ e^Log·h[B] and h[B] ≤ e^Log·h[A]. Log ≥ 0
// is ε·d(A,B) in nats; Log = 0 makes the two entries equal and Log = +Inf constrains nothing.
type Pair struct {
	A, B int
	Log  float64
}

// Problem is the program
//
//	maximize   Σ_w Cost[w]·H[·][w]
//	subject to Σ_w H[y][w] = 1 for every row y,  H ≥ 0,
//	           every column H[·][w] in the cone K = {h ≥ 0 : h[A] ≤ e^Log·h[B], h[B] ≤ e^Log·h[A]
//	           for every Pair}.
//
// With Minimize the objective is minimized instead. H is N×len(Cost).
type Problem struct {
	N     int
	Cost  [][]float64 // one vector of length N per column w: the objective coefficient of H[y][w] is Cost[w][y]
	Pairs []Pair
	Sense lp.Sense
	// KeepMultipliers asks for the multipliers of the certificate in Result.Multipliers
	// (len(Cost)·2·len(Pairs) numbers).
	KeepMultipliers bool
	// AllPairs prices over every pair from the first round. By default, when the pairs are
	// many (more than 8 per row on average, as on location maps with every pair constrained),
	// the pricing starts from each row's 8 closest pairs and adds the pairs that bind (see
	// lazy.go); the result and its certificate are for the full program either way.
	AllPairs bool
	// NoOutputs turns output generation off (see blocks.go): the decomposition alone. By
	// default a location map (where the pairs are many, as above, or FewOutputs is set) is
	// solved first by output generation, with the decomposition as the fallback.
	NoOutputs bool
	// FewOutputs says that the optimum is expected to use few of the outputs, as on location
	// maps (a loss over a metric of cells), so that output generation is tried even where the
	// pairs are too few for pair generation (a spanner of the map). It is not the default
	// there: on a path with the loss |y − w| output generation was 1.5 to 5 times slower than
	// the decomposition alone, its restricted programs never certifying (most outputs are
	// used).
	FewOutputs bool

	// design switches the decomposition's alternative designs (tests and benchmarks only).
	design design
}

// Size limits, checked before any work is done.
const (
	// MaxEntries bounds N·len(Cost), the entries of H: 1,024², a 32×32 map of cells.
	MaxEntries = 1 << 20
	// MaxPairs bounds the number of pairs.
	MaxPairs = 2_000_000
)

// Validate checks dimensions and values.
func (p *Problem) Validate() error {
	if p == nil {
		return fmt.Errorf("conelp: nil problem")
	}
	if p.N < 1 {
		return fmt.Errorf("conelp: N = %d, want at least one row", p.N)
	}
	if len(p.Cost) < 1 {
		return fmt.Errorf("conelp: no columns (Cost is empty)")
	}
	if float64(p.N)*float64(len(p.Cost)) > MaxEntries {
		return fmt.Errorf("conelp: %d×%d = %d entries, more than the limit of %d", p.N, len(p.Cost), p.N*len(p.Cost), MaxEntries)
	}
	if p.Sense != lp.Minimize && p.Sense != lp.Maximize {
		return fmt.Errorf("conelp: invalid sense %d", p.Sense)
	}
	for w, c := range p.Cost {
		if len(c) != p.N {
			return fmt.Errorf("conelp: Cost[%d] has %d entries, want N = %d", w, len(c), p.N)
		}
		for y, v := range c {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("conelp: Cost[%d][%d] is %v", w, y, v)
			}
		}
	}
	if len(p.Pairs) > MaxPairs {
		return fmt.Errorf("conelp: %d pairs, more than the limit of %d", len(p.Pairs), MaxPairs)
	}
	for k, q := range p.Pairs {
		if q.A < 0 || q.A >= p.N || q.B < 0 || q.B >= p.N || q.A == q.B {
			return fmt.Errorf("conelp: pair %d = (%d, %d): indices must be distinct rows in [0, %d)", k, q.A, q.B, p.N)
		}
		if math.IsNaN(q.Log) || q.Log < 0 {
			return fmt.Errorf("conelp: pair %d = (%d, %d) has Log = %v, want a number ≥ 0 (or +Inf)", k, q.A, q.B, q.Log)
		}
	}
	return nil
}

// Result is the outcome of Solve.
type Result struct {
	// Status is lp.Optimal only when the certificate below was verified: H satisfies the
	// program to PrimalResidual, every column of the cone prices non-positive against Mu to
	// DualResidual, and the duality gap Bound − Objective is within the tolerance.
	Status lp.Status
	// H is the N×W solution (row-major: H[y*W+w]), a nonnegative combination of points of the
	// cone in every column, so every column is in the cone up to rounding.
	H []float64
	// Objective is the objective of H.
	Objective float64
	// Bound is the bound on the optimum proved by the dual certificate: an upper bound when
	// maximizing, a lower bound when minimizing.
	Bound float64
	// Mu are the row prices (one per row sum), in the problem's own sense: Bound = Σ Mu plus
	// the dual residual correction.
	Mu []float64
	// PrimalResidual is the largest violation by H of a row sum, of nonnegativity or of a
	// constraint H[A][w] ≤ e^Log·H[B][w] (as H[A][w] − e^Log·H[B][w], in the units of H).
	PrimalResidual float64
	// DualResidual is the largest violation of dual feasibility in the units of Cost: the
	// largest positive entry of Cost[w] − Mu − Pᵀα_w over rows y and columns w, where α_w ≥ 0
	// are the multipliers of the pair constraints found for column w.
	DualResidual float64
	// Multipliers, with Problem.KeepMultipliers and status Optimal, are the multipliers α_w ≥ 0 of
	// the certificate: Multipliers[w][2k] belongs to H[A][w] − e^Log·H[B][w] ≤ 0 of Pairs[k],
	// Multipliers[w][2k+1] to H[B][w] − e^Log·H[A][w] ≤ 0. With P those rows,
	// Cost[w] − Mu − Pᵀα_w ≤ DualResidual entrywise when maximizing, and
	// Cost[w] − Mu + Pᵀα_w ≥ −DualResidual when minimizing.
	Multipliers [][]float64
	// Rounds is the number of pricing rounds, Iterations the number of master pivots, Columns
	// the number of cone points generated.
	Rounds, Iterations, Columns int
	// Outputs is the number of outputs of the restricted program that output generation
	// certified (see Problem.NoOutputs), 0 when the decomposition produced the result.
	Outputs int
	// Pairs is the number of pairs the pricing used in the end (all of them unless pair
	// generation left some out; see Problem.AllPairs).
	Pairs int
}
