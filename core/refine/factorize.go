package refine

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/lp"
	"gonum.org/v1/gonum/mat"
)

// Factorization is the answer of Factorize and LeftFactorize.
type Factorization struct {
	// Exists reports that a channel X reproduces A within AvgTolerance: the mean L1 distance
	// per row for Factorize, the L1 distance of every row for LeftFactorize.
	Exists bool
	// Witness is that X (row-stochastic) when Exists; nil otherwise.
	Witness *mat.Dense
	// MaxError is the largest entry of |product − A| for Witness, recomputed by multiplying it
	// back with the channels as given (not as normalized), when Exists.
	MaxError float64
	// LowerBound, when !Exists and the sizes match, is a certified lower bound on how far every
	// product is from A, in the same unit for both functions: the mean over the rows of A of the
	// L1 distance between a row of A and the same row of the product,
	// min_X (1/n)·Σ_x ‖(product)[x] − A[x]‖₁. It is positive.
	LowerBound float64
	// Reason says why no factorization exists.
	Reason string
}

// Factorize finds a channel X with A = B·X: A is a post-processing of B (B ⊑avg A in the order
// of refinement). A is n×m and B is n×k (the same secrets); X is then k×m. Mismatched numbers of
// rows are not an error: no factorization exists, and Reason says why.
//
// It is the decision of Avg(B, A) — least squares when B has full column rank, the linear
// program of core/lp otherwise — with its witness, multiplied back to report MaxError, or the
// certified lower bound on the residual that proves no X exists.
func Factorize(A, B mat.Matrix) (*Factorization, error) {
	if err := channel.ValidateNamed("A", A); err != nil {
		return nil, err
	}
	if err := channel.ValidateNamed("B", B); err != nil {
		return nil, err
	}
	n, _ := A.Dims()
	nb, _ := B.Dims()
	if nb != n {
		return &Factorization{Reason: fmt.Sprintf("B has %d rows and A has %d: A = B·X needs the same rows (secrets)", nb, n)}, nil
	}
	p := pairOf(B, A)
	res, err := avgPair(p, nil)
	if err != nil {
		return nil, err
	}
	if !res.Holds {
		return &Factorization{LowerBound: res.ResidualLowerBound,
			Reason: fmt.Sprintf("no channel X brings B·X within %.3g of A (mean L1 distance per row, certified), more than the tolerance %g", res.ResidualLowerBound, AvgTolerance)}, nil
	}
	f := &Factorization{Exists: true, Witness: res.Witness}
	f.MaxError = productError(rawRows(B), res.Witness.RawMatrix().Data, rawRows(A), n, p.ma, p.mb)
	return f, nil
}

// LeftFactorize finds a channel X with A = X·B: every row of A is a convex combination of the
// rows of B. A is n×m and B is k×m (the same outputs); X is then n×k. Mismatched numbers of
// columns are not an error: no factorization exists, and Reason says why.
//
// Rows are decided one by one with a small linear program (core/lp): minimize the L1 distance
// Σ_z |Σ_y λ_y B[y][z] − A[x][z]| over distributions λ. A row is a mixture when the solver's λ,
// clipped and renormalized, is within AvgTolerance of it (L1, recomputed); otherwise the duals h
// of the program, clipped to [−1, 1], certify the distance is at least h·A[x] − max_y h·B[y]
// (weak duality), and that bound must exceed the tolerance. (The min-norm-point projection of
// Max is not used here: with as many points as dimensions it can stall on rows inside the hull.)
func LeftFactorize(A, B mat.Matrix) (*Factorization, error) {
	if err := channel.ValidateNamed("A", A); err != nil {
		return nil, err
	}
	if err := channel.ValidateNamed("B", B); err != nil {
		return nil, err
	}
	n, m := A.Dims()
	k, mb := B.Dims()
	if mb != m {
		return &Factorization{Reason: fmt.Sprintf("B has %d columns and A has %d: A = X·B needs the same columns (outputs)", mb, m)}, nil
	}
	a, b := normalizedRows(A), normalizedRows(B)
	X := mat.NewDense(n, k, nil)
	// Every row is decided, so that LowerBound can be the mean over all rows (rows that are
	// mixtures contribute 0); Reason names the first row that is not.
	first, total := -1, 0.0
	var firstLower float64
	for x := 0; x < n; x++ {
		row := a[x*m : (x+1)*m]
		lambda, lower, err := mixture(b, k, m, row)
		if err != nil {
			return nil, fmt.Errorf("%w (row %d of A)", err, x)
		}
		if lambda == nil {
			if first < 0 {
				first, firstLower = x, lower
			}
			total += lower
			continue
		}
		X.SetRow(x, lambda)
	}
	if first >= 0 {
		return &Factorization{LowerBound: total / float64(n),
			Reason: fmt.Sprintf("row %d of A is at least %.3g (L1, certified) away from every mixture of the rows of B, more than the tolerance %g", first, firstLower, AvgTolerance)}, nil
	}
	f := &Factorization{Exists: true, Witness: X}
	f.MaxError = productError(X.RawMatrix().Data, rawRows(B), rawRows(A), n, k, m)
	return f, nil
}

// mixture finds weights λ (a distribution on the k rows of the k×m row-major b) with
// ‖λ·b − t‖₁ ≤ AvgTolerance, or returns nil and a certified lower bound on min ‖λ·b − t‖₁ that
// exceeds it.
func mixture(b []float64, k, m int, t []float64) ([]float64, float64, error) {
	model := lp.NewModel(lp.Minimize)
	L := model.AddBlock("lambda", 1, k)
	over := model.AddBlock("over", 1, m)
	under := model.AddBlock("under", 1, m)
	sum := make([]lp.Term, k)
	for y := range sum {
		sum[y] = lp.Term{Var: L.At(0, y), Coef: 1}
	}
	model.AddEq(sum, 1)
	rows := make([]int, m)
	for z := 0; z < m; z++ {
		model.SetObjective(over.At(0, z), 1)
		model.SetObjective(under.At(0, z), 1)
		terms := []lp.Term{{Var: over.At(0, z), Coef: 1}, {Var: under.At(0, z), Coef: -1}}
		for y := 0; y < k; y++ {
			if v := b[y*m+z]; v != 0 {
				terms = append(terms, lp.Term{Var: L.At(0, y), Coef: v})
			}
		}
		rows[z] = model.AddEq(terms, t[z])
	}
	res, err := model.Solve(nil)
	if err != nil {
		return nil, 0, err
	}
	if res.Status != lp.Optimal {
		return nil, 0, fmt.Errorf("refine: the mixture program ended with status %v", res.Status)
	}
	lambda := make([]float64, k)
	s := 0.0
	for y := range lambda {
		lambda[y] = math.Max(0, res.X[L.At(0, y)])
		s += lambda[y]
	}
	if s > 0 {
		dist := 0.0
		for z := 0; z < m; z++ {
			v := 0.0
			for y, l := range lambda {
				v += l / s * b[y*m+z]
			}
			dist += math.Abs(v - t[z])
		}
		if dist <= AvgTolerance {
			for y := range lambda {
				lambda[y] /= s
			}
			return lambda, 0, nil
		}
	}
	lower := 0.0
	for _, sign := range []float64{1, -1} {
		h := make([]float64, m)
		bound := 0.0
		for z, r := range rows {
			h[z] = math.Max(-1, math.Min(1, sign*res.Duals[r]))
			bound += h[z] * t[z]
		}
		best := math.Inf(-1)
		for y := 0; y < k; y++ {
			v := 0.0
			for z, hz := range h {
				v += hz * b[y*m+z]
			}
			best = math.Max(best, v)
		}
		lower = math.Max(lower, bound-best)
	}
	if lower <= AvgTolerance {
		return nil, 0, fmt.Errorf("refine: a row could not be decided: the best mixture found is %.3g away (L1) and the certified lower bound is %.3g, on both sides of the tolerance %g", res.Objective, lower, AvgTolerance)
	}
	return nil, lower, nil
}

// productError is max |(L·R)[x][z] − T[x][z]| for row-major L (n×k), R (k×m) and T (n×m).
func productError(l, r, t []float64, n, k, m int) float64 {
	worst := 0.0
	acc := make([]float64, m)
	for x := 0; x < n; x++ {
		for z := range acc {
			acc[z] = 0
		}
		for y := 0; y < k; y++ {
			if v := l[x*k+y]; v != 0 {
				for z := range acc {
					acc[z] += v * r[y*m+z]
				}
			}
		}
		for z, v := range acc {
			worst = math.Max(worst, math.Abs(v-t[x*m+z]))
		}
	}
	return worst
}
