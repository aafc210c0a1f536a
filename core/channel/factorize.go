package channel

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/lp"
	"gonum.org/v1/gonum/mat"
)

// FactorTolerance decides Factorize and LeftFactorize: a factorization exists when a witness X
// (a channel) reproduces A with a residual (1/n)·Σ_{x,z} |(product)[x][z] − A[x][z]| — the mean
// over A's n rows of the L1 distance between a row and its reproduction — of at most 1e-9.
const FactorTolerance = 1e-9

// MaxFactorVariables bounds the linear program of a factorization (one variable per entry of X
// and two per entry of A); larger problems are refused before anything is built.
const MaxFactorVariables = 1_000_000

// Factorization is the answer of Factorize and LeftFactorize.
type Factorization struct {
	// Exists reports that a channel X reproduces A within FactorTolerance.
	Exists bool
	// Witness is that X (row-stochastic, rows summing to 1 exactly up to rounding) when
	// Exists; nil otherwise.
	Witness *mat.Dense
	// Residual is (1/n)·Σ |(product)[x][z] − A[x][z]|: when Exists, recomputed from Witness;
	// otherwise a certified lower bound on it for every channel X (from the dual prices of the
	// linear program), greater than FactorTolerance. 0 when the sizes do not match.
	Residual float64
	// MaxError is the largest entry of |product − A| for Witness (when Exists).
	MaxError float64
	// Reason says why no factorization exists (mismatched sizes, or the smallest residual).
	Reason string
}

// Factorize finds a channel X with A = B·X: A is post-processing of B by X (in the order of
// refinement, B ⊑avg A). A is n×m and B is n×k (the same secrets); X is then k×m. Mismatched
// numbers of rows are not an error: no factorization exists, and Reason says why.
//
// It solves the linear program minimize (1/n)·Σ_{x,z} (s⁺ + s⁻) subject to B·X + s⁺ − s⁻ = A,
// X row-stochastic, s± ≥ 0 with core/lp (rows of A and B are first divided by their sums, which
// are 1 within Tolerance), so the answer is the smallest residual as well as the witness; the
// witness is clipped to a channel and multiplied back to recompute the residual it achieves.
func Factorize(A, B mat.Matrix) (*Factorization, error) {
	a, n, m, err := factorInput("A", A)
	if err != nil {
		return nil, err
	}
	b, nb, k, err := factorInput("B", B)
	if err != nil {
		return nil, err
	}
	if nb != n {
		return &Factorization{Reason: fmt.Sprintf("B has %s and A has %s: A = B·X needs the same rows (secrets)", count(nb, "row", "rows"), count(n, "row", "rows"))}, nil
	}
	// (B·X)[x][z] = Σ_y B[x][y]·X[y][z].
	cell := func(x, z int, X func(i, j int) int, terms []lp.Term) []lp.Term {
		for y := 0; y < k; y++ {
			if v := b[x*k+y]; v != 0 {
				terms = append(terms, lp.Term{Var: X(y, z), Coef: v})
			}
		}
		return terms
	}
	product := func(X []float64) []float64 {
		p := make([]float64, n*m)
		for x := 0; x < n; x++ {
			for y := 0; y < k; y++ {
				if v := b[x*k+y]; v != 0 {
					for z := 0; z < m; z++ {
						p[x*m+z] += v * X[y*m+z]
					}
				}
			}
		}
		return p
	}
	return factorLP(a, n, m, k, m, cell, product)
}

// LeftFactorize finds a channel X with A = X·B: every row of A is a convex combination of the
// rows of B. A is n×m and B is k×m (the same outputs); X is then n×k. Mismatched numbers of
// columns are not an error: no factorization exists, and Reason says why. The method is that of
// Factorize, with the residual of X·B.
func LeftFactorize(A, B mat.Matrix) (*Factorization, error) {
	a, n, m, err := factorInput("A", A)
	if err != nil {
		return nil, err
	}
	b, k, mb, err := factorInput("B", B)
	if err != nil {
		return nil, err
	}
	if mb != m {
		return &Factorization{Reason: fmt.Sprintf("B has %s and A has %s: A = X·B needs the same columns (outputs)", count(mb, "column", "columns"), count(m, "column", "columns"))}, nil
	}
	// (X·B)[x][z] = Σ_y X[x][y]·B[y][z].
	cell := func(x, z int, X func(i, j int) int, terms []lp.Term) []lp.Term {
		for y := 0; y < k; y++ {
			if v := b[y*m+z]; v != 0 {
				terms = append(terms, lp.Term{Var: X(x, y), Coef: v})
			}
		}
		return terms
	}
	product := func(X []float64) []float64 {
		p := make([]float64, n*m)
		for x := 0; x < n; x++ {
			for y := 0; y < k; y++ {
				if v := X[x*k+y]; v != 0 {
					for z := 0; z < m; z++ {
						p[x*m+z] += v * b[y*m+z]
					}
				}
			}
		}
		return p
	}
	return factorLP(a, n, m, n, k, cell, product)
}

// factorInput validates a channel and returns its rows divided by their sums, row-major.
func factorInput(name string, c mat.Matrix) ([]float64, int, int, error) {
	if err := ValidateNamed(name, c); err != nil {
		return nil, 0, 0, err
	}
	r, k := dims(c)
	out := make([]float64, r*k)
	for i := 0; i < r; i++ {
		s := 0.0
		for j := 0; j < k; j++ {
			out[i*k+j] = c.At(i, j)
			s += out[i*k+j]
		}
		for j := 0; j < k; j++ {
			out[i*k+j] /= s
		}
	}
	return out, r, k, nil
}

// factorLP solves min (1/n)·Σ |product(X) − A| over p×q row-stochastic X, where cell(x, z, …)
// appends the terms of product(X)[x][z] and product computes it for a given X.
func factorLP(a []float64, n, m, p, q int,
	cell func(x, z int, X func(i, j int) int, terms []lp.Term) []lp.Term,
	product func(X []float64) []float64) (*Factorization, error) {
	if vars := float64(p)*float64(q) + 2*float64(n)*float64(m); vars > MaxFactorVariables {
		return nil, fmt.Errorf("A, B: the factorization program would have %.3g variables, more than the limit of %d", vars, MaxFactorVariables)
	}
	model := lp.NewModel(lp.Minimize)
	X := model.AddBlock("X", p, q)
	over := model.AddBlock("over", n, m)
	under := model.AddBlock("under", n, m)
	inv := 1 / float64(n)
	for x := 0; x < n; x++ {
		for z := 0; z < m; z++ {
			model.SetObjective(over.At(x, z), inv)
			model.SetObjective(under.At(x, z), inv)
		}
	}
	terms := make([]lp.Term, 0, max(p, q)+2)
	for i := 0; i < p; i++ {
		terms = terms[:0]
		for j := 0; j < q; j++ {
			terms = append(terms, lp.Term{Var: X.At(i, j), Coef: 1})
		}
		model.AddEq(terms, 1)
	}
	cellRow := make([]int, n*m)
	for x := 0; x < n; x++ {
		for z := 0; z < m; z++ {
			terms = cell(x, z, X.At, terms[:0])
			terms = append(terms, lp.Term{Var: over.At(x, z), Coef: 1}, lp.Term{Var: under.At(x, z), Coef: -1})
			cellRow[x*m+z] = model.AddEq(terms, a[x*m+z])
		}
	}
	res, err := model.Solve(nil)
	if err != nil {
		return nil, err
	}
	if res.Status != lp.Optimal {
		return nil, fmt.Errorf("channel: the factorization program ended with status %v", res.Status)
	}
	// The witness: the solution clipped at 0, rows renormalized (a row of zeros, which the
	// solver cannot return for a row-stochastic block, would become a point mass).
	w := make([]float64, p*q)
	for i := 0; i < p; i++ {
		row := w[i*q : (i+1)*q]
		s := 0.0
		for j := range row {
			row[j] = math.Max(0, res.X[X.At(i, j)])
			s += row[j]
		}
		if !(s > 0) {
			row[0], s = 1, 1
		}
		for j := range row {
			row[j] /= s
		}
	}
	got := product(w)
	residual, maxErr := 0.0, 0.0
	for i, v := range got {
		d := math.Abs(v - a[i])
		residual += d
		maxErr = math.Max(maxErr, d)
	}
	residual /= float64(n)
	if residual <= FactorTolerance {
		return &Factorization{Exists: true, Witness: mat.NewDense(p, q, w), Residual: residual, MaxError: maxErr}, nil
	}
	// No witness: certify that none exists. For any H with |H[x][z]| ≤ 1/n and any channel X,
	// (1/n)·Σ|P(X) − A| ≥ Σ H·A − Σ H·P(X) ≥ Σ H·A − Σ_i max_j (coefficient of X[i][j] in
	// Σ H·P(X)) (weak duality); the solver's duals of the cell rows give H.
	lower := 0.0
	for _, sign := range []float64{1, -1} {
		coef := make([]float64, p*q)
		bound := 0.0
		for x := 0; x < n; x++ {
			for z := 0; z < m; z++ {
				h := sign * res.Duals[cellRow[x*m+z]]
				h = math.Max(-inv, math.Min(inv, h))
				bound += h * a[x*m+z]
				for _, t := range cell(x, z, X.At, terms[:0]) {
					coef[t.Var] += h * t.Coef // X is the first block: its variable i·q+j is X[i][j]
				}
			}
		}
		for i := 0; i < p; i++ {
			best := math.Inf(-1)
			for _, c := range coef[i*q : (i+1)*q] {
				best = math.Max(best, c)
			}
			bound -= best
		}
		lower = math.Max(lower, bound)
	}
	if lower <= FactorTolerance {
		return nil, fmt.Errorf("channel: the factorization could not be decided: the best witness found leaves a residual of %.3g and the certified lower bound is %.3g, on both sides of the tolerance %g", residual, lower, FactorTolerance)
	}
	return &Factorization{Residual: lower, Reason: fmt.Sprintf("no channel X brings the product within %.3g of A per row (L1 mean, certified by LP duality), more than the tolerance %g", lower, FactorTolerance)}, nil
}
