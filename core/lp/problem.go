package lp

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Sense says whether the objective is minimized or maximized.
type Sense int

const (
	// Minimize asks for the smallest value of c·x.
	Minimize Sense = iota
	// Maximize asks for the largest value of c·x.
	Maximize
)

// Op is the relation of a constraint row a·x (op) b.
type Op int

const (
	// LessEq is a·x ≤ b.
	LessEq Op = iota
	// Equal is a·x = b.
	Equal
	// GreaterEq is a·x ≥ b.
	GreaterEq
)

// String returns "<=", "=" or ">=".
func (o Op) String() string {
	switch o {
	case LessEq:
		return "<="
	case Equal:
		return "="
	case GreaterEq:
		return ">="
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Size limits of one problem. Larger problems are refused with an error before any work is
// done, so that a page cannot ask the solver for more memory than a browser tab has.
const (
	MaxVariables   = 2_000_000  // structural variables
	MaxConstraints = 4_000_000  // constraint rows
	MaxNonzeros    = 20_000_000 // stored coefficients of A
)

// CSC is a sparse matrix in compressed sparse column form: the entries of column j are
// RowIndex[ColStart[j]:ColStart[j+1]] with values Value[ColStart[j]:ColStart[j+1]].
// Row indices within a column need not be sorted but must not repeat.
type CSC struct {
	Rows, Cols int
	ColStart   []int
	RowIndex   []int
	Value      []float64
}

// NewCSC builds a CSC matrix from coordinate triplets (rows[k], cols[k], vals[k]). Duplicate
// coordinates are summed and explicit zeros dropped. It fails on mismatched lengths, indices out
// of range and NaN or infinite values.
func NewCSC(nrows, ncols int, rows, cols []int, vals []float64) (*CSC, error) {
	if nrows < 0 || ncols < 0 {
		return nil, fmt.Errorf("lp: negative matrix dimensions %d×%d", nrows, ncols)
	}
	if len(rows) != len(cols) || len(rows) != len(vals) {
		return nil, fmt.Errorf("lp: triplet slices have lengths %d, %d, %d; they must be equal", len(rows), len(cols), len(vals))
	}
	if len(vals) > MaxNonzeros {
		return nil, fmt.Errorf("lp: %d coefficients, more than the limit of %d", len(vals), MaxNonzeros)
	}
	count := make([]int, ncols+1)
	for k, v := range vals {
		i, j := rows[k], cols[k]
		if i < 0 || i >= nrows {
			return nil, fmt.Errorf("lp: coefficient %d: row %d out of range [0,%d)", k, i, nrows)
		}
		if j < 0 || j >= ncols {
			return nil, fmt.Errorf("lp: coefficient %d: column %d out of range [0,%d)", k, j, ncols)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("lp: coefficient %d (row %d, column %d) is %v", k, i, j, v)
		}
		count[j+1]++
	}
	for j := 0; j < ncols; j++ {
		count[j+1] += count[j]
	}
	ri := make([]int, len(vals))
	rv := make([]float64, len(vals))
	next := append([]int(nil), count[:ncols]...)
	for k, v := range vals {
		j := cols[k]
		ri[next[j]] = rows[k]
		rv[next[j]] = v
		next[j]++
	}
	// Sum duplicates and drop zeros column by column, compacting in place.
	mark := make([]int, nrows)
	for i := range mark {
		mark[i] = -1
	}
	out := 0
	start := make([]int, ncols+1)
	for j := 0; j < ncols; j++ {
		start[j] = out
		for k := count[j]; k < count[j+1]; k++ {
			i := ri[k]
			if p := mark[i]; p >= start[j] {
				rv[p] += rv[k]
				continue
			}
			mark[i] = out
			ri[out], rv[out] = i, rv[k]
			out++
		}
		// drop zeros
		w := start[j]
		for k := start[j]; k < out; k++ {
			mark[ri[k]] = -1
			if rv[k] != 0 {
				ri[w], rv[w] = ri[k], rv[k]
				w++
			}
		}
		out = w
	}
	start[ncols] = out
	return &CSC{Rows: nrows, Cols: ncols, ColStart: start, RowIndex: ri[:out], Value: rv[:out]}, nil
}

// validate checks the structure of a CSC matrix.
func (a *CSC) validate() error {
	if a.Rows < 0 || a.Cols < 0 {
		return fmt.Errorf("lp: constraint matrix has negative dimensions %d×%d", a.Rows, a.Cols)
	}
	if len(a.ColStart) != a.Cols+1 {
		return fmt.Errorf("lp: constraint matrix: ColStart has length %d, want Cols+1 = %d", len(a.ColStart), a.Cols+1)
	}
	if a.ColStart[0] != 0 {
		return fmt.Errorf("lp: constraint matrix: ColStart[0] = %d, want 0", a.ColStart[0])
	}
	nnz := a.ColStart[a.Cols]
	if nnz > len(a.RowIndex) || nnz > len(a.Value) {
		return fmt.Errorf("lp: constraint matrix: ColStart ends at %d but RowIndex and Value have %d and %d entries", nnz, len(a.RowIndex), len(a.Value))
	}
	if nnz > MaxNonzeros {
		return fmt.Errorf("lp: %d coefficients, more than the limit of %d", nnz, MaxNonzeros)
	}
	seen := make([]int, a.Rows)
	for j := 0; j < a.Cols; j++ {
		if a.ColStart[j+1] < a.ColStart[j] {
			return fmt.Errorf("lp: constraint matrix: ColStart decreases at column %d", j)
		}
		for k := a.ColStart[j]; k < a.ColStart[j+1]; k++ {
			i, v := a.RowIndex[k], a.Value[k]
			if i < 0 || i >= a.Rows {
				return fmt.Errorf("lp: constraint matrix: column %d has row index %d out of range [0,%d)", j, i, a.Rows)
			}
			if seen[i] == j+1 {
				return fmt.Errorf("lp: constraint matrix: column %d repeats row %d", j, i)
			}
			seen[i] = j + 1
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("lp: constraint matrix: coefficient (row %d, column %d) is %v", i, j, v)
			}
		}
	}
	return nil
}

// Problem is a linear program in general form:
//
//	minimize or maximize  Objective·x
//	subject to            A[i]·x  Ops[i]  RHS[i]   for every row i
//	                      Lower[j] ≤ x[j] ≤ Upper[j]
//
// Lower and Upper may hold -Inf and +Inf; a nil Lower means all zeros and a nil Upper means
// all +Inf (the usual x ≥ 0).
type Problem struct {
	Sense     Sense
	Objective []float64 // c, one entry per variable
	A         *CSC      // constraint matrix, len(RHS) × len(Objective); nil when there are no rows
	Ops       []Op      // relation of each row
	RHS       []float64 // right-hand side of each row
	Lower     []float64 // lower bounds (nil: 0)
	Upper     []float64 // upper bounds (nil: +Inf)
}

// Validate checks dimensions and values: finite coefficients, right-hand sides and objective,
// bounds that are not NaN with Lower ≤ Upper, Lower < +Inf and Upper > -Inf, and the size limits.
func (p *Problem) Validate() error {
	if p == nil {
		return fmt.Errorf("lp: nil problem")
	}
	if p.Sense != Minimize && p.Sense != Maximize {
		return fmt.Errorf("lp: unknown sense %d", p.Sense)
	}
	n, m := len(p.Objective), len(p.RHS)
	if n == 0 {
		return fmt.Errorf("lp: empty problem (no variables)")
	}
	if n > MaxVariables {
		return fmt.Errorf("lp: %d variables, more than the limit of %d", n, MaxVariables)
	}
	if m > MaxConstraints {
		return fmt.Errorf("lp: %d constraints, more than the limit of %d", m, MaxConstraints)
	}
	if len(p.Ops) != m {
		return fmt.Errorf("lp: %d relations (Ops) for %d right-hand sides (RHS)", len(p.Ops), m)
	}
	if p.A == nil {
		if m > 0 {
			return fmt.Errorf("lp: %d constraint rows but no matrix A", m)
		}
	} else {
		if p.A.Rows != m || p.A.Cols != n {
			return fmt.Errorf("lp: constraint matrix is %d×%d, want %d×%d (rows × variables)", p.A.Rows, p.A.Cols, m, n)
		}
		if err := p.A.validate(); err != nil {
			return err
		}
	}
	for j, c := range p.Objective {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("lp: objective coefficient %d is %v", j, c)
		}
	}
	for i, b := range p.RHS {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return fmt.Errorf("lp: right-hand side of row %d is %v", i, b)
		}
		if op := p.Ops[i]; op != LessEq && op != Equal && op != GreaterEq {
			return fmt.Errorf("lp: row %d has unknown relation %d", i, op)
		}
	}
	if p.Lower != nil && len(p.Lower) != n {
		return fmt.Errorf("lp: %d lower bounds for %d variables", len(p.Lower), n)
	}
	if p.Upper != nil && len(p.Upper) != n {
		return fmt.Errorf("lp: %d upper bounds for %d variables", len(p.Upper), n)
	}
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		if math.IsNaN(l) || math.IsNaN(u) {
			return fmt.Errorf("lp: bound of variable %d is NaN", j)
		}
		if math.IsInf(l, 1) || math.IsInf(u, -1) {
			return fmt.Errorf("lp: variable %d has bounds [%v, %v]", j, l, u)
		}
		if l > u {
			return fmt.Errorf("lp: variable %d has lower bound %v above its upper bound %v", j, l, u)
		}
	}
	return nil
}

func (p *Problem) bounds(j int) (l, u float64) {
	l, u = 0, math.Inf(1)
	if p.Lower != nil {
		l = p.Lower[j]
	}
	if p.Upper != nil {
		u = p.Upper[j]
	}
	return l, u
}

// rowBounds gives row i as lo ≤ a·x ≤ hi.
func (p *Problem) rowBounds(i int) (lo, hi float64) {
	b := p.RHS[i]
	switch p.Ops[i] {
	case LessEq:
		return math.Inf(-1), b
	case GreaterEq:
		return b, math.Inf(1)
	}
	return b, b
}

// Status is the outcome of a solve.
type Status int

const (
	// Optimal: X and Duals meet the tolerances on the problem as stated (see Result: every
	// row and bound within FeasibilityTol, every reduced cost and row dual within
	// OptimalityTol, each relative to the size of its terms with a floor of 1).
	Optimal Status = iota
	// Infeasible: no x satisfies the constraints; Result.Farkas proves it (CheckFarkas accepts
	// it, with its relative tolerance of 1e-9).
	Infeasible
	// Unbounded: the objective can improve without limit; Result.X is a feasible point and
	// Result.Ray an improving direction from it (see Result.Ray for how it is checked).
	Unbounded
	// IterationLimit: Options.MaxIterations was reached.
	IterationLimit
	// TimeLimit: Options.TimeLimit was reached.
	TimeLimit
	// Cancelled: the context was cancelled or the progress callback asked to stop.
	Cancelled
	// Imprecise: the simplex stopped at a basis it took for optimal (or could not go on from
	// for numerical reasons), but the solution does not meet the tolerances on the problem as
	// stated, or an infeasibility or unboundedness certificate does not check, even after the
	// clean-up solves (see Solve). X and Duals are the best point found; PrimalResidual and
	// DualResidual say how far it is from optimal.
	Imprecise
)

var statusNames = [...]string{"optimal", "infeasible", "unbounded", "iteration limit", "time limit", "cancelled", "imprecise"}

// String returns a lower-case name: "optimal", "infeasible", "unbounded", "iteration limit",
// "time limit", "cancelled" or "imprecise".
func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Progress is what the progress callback receives.
type Progress struct {
	Iteration     int     // simplex iterations (decomposition: master pivots) so far
	Objective     float64 // current objective value (in the problem's sense; not yet optimal)
	Infeasibility float64 // current sum of primal infeasibilities (phase 2 dual simplex) or dual infeasibilities; decomposition: the gap of the last pricing round
	Phase         string  // "dual phase 1", "dual", "primal", or "decomposition" (package conelp)
	// Bound is the best bound on the optimal value proven so far, from a dual solution (an
	// upper bound when maximizing, a lower bound when minimizing), so the optimum lies between
	// Objective and Bound when Objective is the value of a feasible point (the decomposition's
	// master, always); ±Inf until the first bound. The simplex method proves none before it
	// ends: NaN.
	Bound float64
}

// Options tune a solve. The zero value (or nil) gives the defaults.
type Options struct {
	// Context cancels a solve; nil means context.Background().
	Context context.Context
	// Progress, when set, is called about every ProgressEvery iterations. Returning false
	// cancels the solve (status Cancelled).
	Progress func(Progress) bool
	// ProgressEvery is the number of iterations between progress calls (default 200).
	ProgressEvery int
	// MaxIterations bounds the number of simplex iterations (default 50·(rows+variables)+10000).
	MaxIterations int
	// TimeLimit bounds the wall-clock time (0: none).
	TimeLimit time.Duration
	// FeasibilityTol is the primal feasibility tolerance (default 1e-9): the simplex works to
	// it on the scaled problem, and Optimal requires it on the problem as stated (see Result).
	FeasibilityTol float64
	// OptimalityTol is the dual feasibility tolerance (default 1e-9), used like FeasibilityTol.
	OptimalityTol float64
	// NoScaling turns off the power-of-two equilibration of rows and columns.
	NoScaling bool
	// NoPerturbation turns off the cost perturbation of the dual simplex.
	NoPerturbation bool
	// NoDualize solves the problem as stated. By default a problem with many more rows than
	// variables (at least 1.5 per variable), all variables nonnegative or free, is solved
	// through its dual LP, whose basis is the size of the variable count; the result is
	// mapped back (X from the dual's row prices, Duals from its solution) and means the same.
	NoDualize bool
	// Start, when set, is the basis the simplex starts from instead of the all-logical one:
	// the statuses of an earlier Result (VarStatus and RowStatus), mapped by the caller onto
	// this problem when it has grown or shrunk since. A re-solve after rows or columns were
	// added then takes the pivots the change needs, not those of a solve from scratch. The
	// basis need not be feasible in either sense, nor of the right size: missing members are
	// made up with logicals, surplus ones dropped, dependent ones replaced. It affects the
	// speed only; the result is checked as any other, and the clean-up solves start cold.
	Start *Basis

	rowMax bool // clean-up setting: rows divided by their largest |a_ij| (a power of two), no other scaling
	relTol bool // clean-up setting: the simplex works to the tolerances of the check (see solver.tolerances)
	warm   bool // clean-up setting: continue from the first solve's basis (see cleanUp)
}

// Result is the outcome of Solve.
//
// Sign conventions: Duals[i] = ∂(optimal objective)/∂RHS[i], the shadow price of row i, in the
// problem's own sense. Hence for Minimize, Duals[i] ≥ 0 on ≥ rows and ≤ 0 on ≤ rows; for
// Maximize, Duals[i] ≤ 0 on ≥ rows and ≥ 0 on ≤ rows. ReducedCosts[j] = c_j − Σ_i Duals[i]·A[i][j];
// at an optimum, for Minimize it is ≥ 0 when x_j is at its lower bound and ≤ 0 at its upper bound
// (reversed for Maximize), and 0 when x_j is strictly between its bounds. Complementary slackness:
// Duals[i] ≠ 0 only on rows that hold with equality.
type Result struct {
	Status       Status
	X            []float64 // primal solution (Optimal); the last iterate otherwise
	Duals        []float64 // row duals y (Optimal), see the sign convention above
	ReducedCosts []float64 // c − Aᵀy (Optimal)
	Objective    float64   // c·X
	Iterations   int       // simplex iterations (all phases)
	// PrimalResidual is the largest violation of a row by X, absolute, in the units of the
	// problem as stated (computed from X and p, not from the solver's internal state): max over
	// rows of the distance of A[i]·X to [lo_i, hi_i]. X is within its bounds exactly: it is
	// projected onto them before the rows are measured, so that a bound left by a rounding
	// counts through what it does to the rows (10^−13 below a bound of 0 is a whole unit in a
	// row with a coefficient of 10^13).
	//
	// Optimal and Unbounded require, row by row, a violation of at most FeasibilityTol·max(1,
	// |b_i|, max_j |A[i][j]·X[j]|) — the tolerance relative to the largest term of the row,
	// never below the absolute tolerance. For data of size about 1 that is
	// PrimalResidual ≤ FeasibilityTol.
	PrimalResidual float64
	// DualResidual is the largest violation of dual feasibility and complementary slackness,
	// absolute, in objective units per unit of the variable or row, computed from Duals and p:
	// with the reduced costs d = c − Aᵀ·Duals in minimization form, a variable at its lower
	// bound counts max(0, −d_j), at its upper bound max(0, d_j), strictly between them or free
	// |d_j|; a row at the lower end of its interval counts max(0, −y_i), at the upper end
	// max(0, y_i), strictly inside |y_i| (y_i the dual in minimization form; equalities count
	// nothing). "At" means within the primal tolerance above (for a bound, within
	// FeasibilityTol·max(1, |bound|)). Optimal requires each variable's to be at most
	// OptimalityTol·max(1, |c_j|, max_i |A[i][j]·Duals[i]|), and each row's to move no reduced
	// cost by more than that: |y_i·A[i][j]| within the tolerance of column j, for every j (a
	// row without coefficients: OptimalityTol·max(1, max_j |c_j|)).
	DualResidual float64
	// Farkas, when Status is Infeasible, is a vector y of row multipliers proving infeasibility:
	// with r = yᵀA, the largest value of r·x over the variable bounds is smaller than the
	// smallest value of Σ_i y_i·(A[i]·x) allowed by the rows (y_i·lo_i or y_i·hi_i, whichever is
	// smaller, over each row's interval [lo_i, hi_i]). CheckFarkas verifies it.
	Farkas []float64
	// Ray, when Status is Unbounded, is a direction d with x+t·d feasible for all t ≥ 0 from the
	// returned X (itself feasible to the tolerance of PrimalResidual) and c·d improving (< 0 for
	// Minimize, > 0 for Maximize). Solve checks it in the units of the problem: d ≥ 0 where a
	// variable has a finite lower bound and ≤ 0 where a finite upper one (exactly: it is
	// projected onto those directions first, so that no improvement comes from leaving a
	// bound), each row that limits x+t·d left alone to FeasibilityTol times the sum of the
	// magnitudes of its terms |A[i][j]·d_j|, and c·d improving by more than FeasibilityTol
	// times Σ_j |c_j·d_j|.
	Ray []float64
	// VarStatus and RowStatus are the simplex basis the solve ended with (whatever the
	// status): one entry per variable and per row, exactly len(RHS) of them Basic. A nonbasic
	// row holds with equality. They let a caller re-solve the same basis in other arithmetic
	// (core/exact certifies optima that way). Through dualization they are mapped back to
	// this problem by complementarity.
	VarStatus, RowStatus []BasisStatus

	score  float64 // largest residual as a multiple of its tolerance (≤ 1: the optimality check passes)
	pscore float64 // the same for the primal residuals alone (≤ 1: X is feasible)
}

// farkasTol is the relative tolerance of CheckFarkas. An entry r_j = Σ_i y_i·A[i][j] of yᵀA
// counts as zero (when it would meet an infinite bound) if |r_j| ≤ farkasTol·Σ_i |y_i·A[i][j]|:
// a relative change of the coefficients A[i][j] by farkasTol cancels it, so it is within the
// rounding of the terms it sums. An absolute threshold cannot say that: in a row holding 1 and
// e^30 a genuine entry of e^−30 is no rounding. The gap, likewise, counts only beyond
// farkasTol times the sum of the magnitudes of its terms.
const farkasTol = 1e-9

// CheckFarkas returns the gap L(y) − U(y) of a Farkas certificate y for p, less its rounding
// margin, where U(y) = max over the variable bounds of (yᵀA)·x and L(y) = min over the row
// intervals of Σ y_i t_i. A positive result proves p infeasible: no x within the bounds
// satisfies the rows. Entries of yᵀA within rounding of their terms count as zero, and the
// margin is 1e-9 times the sum of the magnitudes of the terms of L and U (see farkasTol): a
// certificate that needs more tolerance than that does not prove infeasibility. An infinite
// bound that the certificate would use gives −Inf. To make the gap scale-free, y is first
// normalized to max |y_i| = 1.
func CheckFarkas(p *Problem, y []float64) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	m, n := len(p.RHS), len(p.Objective)
	if len(y) != m {
		return 0, fmt.Errorf("lp: certificate has %d entries for %d rows", len(y), m)
	}
	scale := 0.0
	for _, v := range y {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		return math.Inf(-1), nil
	}
	upper, size := 0.0, 0.0
	for j := 0; j < n; j++ {
		rj, mag := 0.0, 0.0
		if p.A != nil {
			for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
				t := y[p.A.RowIndex[k]] / scale * p.A.Value[k]
				rj += t
				mag += math.Abs(t)
			}
		}
		l, u := p.bounds(j)
		b := u
		if rj < 0 {
			b = l
		}
		if rj == 0 || math.IsInf(b, 0) && math.Abs(rj) <= farkasTol*mag {
			continue
		}
		upper += rj * b
		size += math.Abs(rj * b)
	}
	lower := 0.0
	for i, v := range y {
		v /= scale
		lo, hi := p.rowBounds(i)
		var t float64
		switch {
		case v > 0:
			t = v * lo
		case v < 0:
			t = v * hi
		}
		lower += t
		size += math.Abs(t)
	}
	g := lower - upper - farkasTol*size
	if math.IsNaN(g) {
		return math.Inf(-1), nil
	}
	return g, nil
}
