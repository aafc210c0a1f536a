package ratlp

import (
	"context"
	"fmt"
	"math/big"
)

// Sense says whether the objective is minimized or maximized.
type Sense int

const (
	// Minimize asks for the smallest value of c·x.
	Minimize Sense = iota
	// Maximize asks for the largest value of c·x.
	Maximize
)

// Op is the relation of a row a·x (op) b.
type Op int

const (
	// LessEq is a·x ≤ b.
	LessEq Op = iota
	// Equal is a·x = b.
	Equal
	// GreaterEq is a·x ≥ b.
	GreaterEq
)

// Term is one coefficient Coef·x[Var] of a row.
type Term struct {
	Var  int
	Coef *big.Rat
}

// Row is one constraint Σ Terms (Op) RHS. A variable may appear at most once in a row.
type Row struct {
	Terms []Term
	Op    Op
	RHS   *big.Rat
}

// Problem is a linear program over nonnegative variables x ≥ 0:
//
//	minimize or maximize  Objective·x  subject to  Rows.
//
// A nil objective coefficient counts as 0.
type Problem struct {
	Sense     Sense
	Objective []*big.Rat // one entry per variable
	Rows      []Row
}

// Size limits of one exact problem: exact pivoting factorizes the basis in rationals at every
// step, which is affordable only for small programs.
const (
	MaxVariables = 20_000
	MaxRows      = 200_000
	MaxNonzeros  = 1_000_000
)

// Validate checks the dimensions, the relations, that every coefficient is set and every
// variable index is in range and not repeated within a row.
func (p *Problem) Validate() error {
	if p == nil {
		return fmt.Errorf("ratlp: nil problem")
	}
	if p.Sense != Minimize && p.Sense != Maximize {
		return fmt.Errorf("ratlp: unknown sense %d", p.Sense)
	}
	n := len(p.Objective)
	if n == 0 {
		return fmt.Errorf("ratlp: empty problem (no variables)")
	}
	if n > MaxVariables || len(p.Rows) > MaxRows {
		return fmt.Errorf("ratlp: %d variables and %d rows, more than the limits of %d and %d for exact pivoting", n, len(p.Rows), MaxVariables, MaxRows)
	}
	nnz := 0
	seen := make([]int, n)
	for i, r := range p.Rows {
		if r.Op != LessEq && r.Op != Equal && r.Op != GreaterEq {
			return fmt.Errorf("ratlp: row %d has unknown relation %d", i, r.Op)
		}
		if r.RHS == nil {
			return fmt.Errorf("ratlp: row %d has no right-hand side", i)
		}
		for _, t := range r.Terms {
			if t.Var < 0 || t.Var >= n {
				return fmt.Errorf("ratlp: row %d: variable %d out of range [0,%d)", i, t.Var, n)
			}
			if t.Coef == nil {
				return fmt.Errorf("ratlp: row %d: variable %d has no coefficient", i, t.Var)
			}
			if seen[t.Var] == i+1 {
				return fmt.Errorf("ratlp: row %d repeats variable %d", i, t.Var)
			}
			seen[t.Var] = i + 1
		}
		nnz += len(r.Terms)
	}
	if nnz > MaxNonzeros {
		return fmt.Errorf("ratlp: %d coefficients, more than the limit of %d", nnz, MaxNonzeros)
	}
	return nil
}

// Status is the outcome of Solve.
type Status int

const (
	// Optimal: X and Duals are an optimal pair, checked by Verify.
	Optimal Status = iota
	// Infeasible: no x satisfies the rows; Farkas proves it (checked by VerifyFarkas).
	Infeasible
	// Unbounded: the objective improves without limit along Ray from X.
	Unbounded
)

// String returns "optimal", "infeasible" or "unbounded".
func (s Status) String() string {
	switch s {
	case Optimal:
		return "optimal"
	case Infeasible:
		return "infeasible"
	case Unbounded:
		return "unbounded"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Basis names a simplex basis: the basic variables and the rows whose slack is basic (the
// rows that need not hold with equality). A valid basis has as many basic variables as rows
// with a nonbasic slack, and a nonsingular matrix of those rows and variables; Solve repairs a
// starting basis that is neither.
type Basis struct {
	Var []bool // Var[j]: variable j is basic
	Row []bool // Row[i]: the slack of row i is basic
}

// Progress is what the progress callback receives.
type Progress struct {
	Pivots int    // exact pivots so far
	Phase  string // "dual" (restoring feasibility) or "primal" (restoring optimality)
}

// Options tune Solve; nil gives the defaults.
type Options struct {
	// Context cancels a solve (between pivots); nil means context.Background().
	Context context.Context
	// Progress, when set, is called after every pivot; returning false cancels.
	Progress func(Progress) bool
	// MaxPivots bounds the pivots (default 20·(variables + rows) + 1000): Bland's rule
	// terminates, but a bad starting basis can still be far from the optimum.
	MaxPivots int
}

// Result is the outcome of Solve.
//
// Duals follow the convention of core/lp: Duals[i] = ∂(optimal objective)/∂RHS[i] in the
// problem's own sense, so for Minimize Duals[i] ≤ 0 on ≤ rows and ≥ 0 on ≥ rows, reversed for
// Maximize; ReducedCosts = c − Aᵀ·Duals is ≥ 0 for Minimize and ≤ 0 for Maximize at an
// optimum, and Objective = c·X = b·Duals.
type Result struct {
	Status       Status
	X            []*big.Rat // a basic optimal solution (Optimal), the last basic solution otherwise
	Duals        []*big.Rat // row prices (Optimal)
	ReducedCosts []*big.Rat // c − Aᵀ·Duals (Optimal)
	Objective    *big.Rat   // c·X
	// Pivots is the number of exact pivots made from the starting basis after its repair;
	// 0 means the starting basis was optimal as given.
	Pivots int
	// Repaired is the number of variables the starting basis lost to make it square and
	// nonsingular (their rows' slacks took their place).
	Repaired int
	// Farkas, when Infeasible, holds row multipliers y with y ≤ 0 on ≤ rows, y ≥ 0 on ≥ rows,
	// yᵀA ≤ 0 and y·b > 0: no x ≥ 0 satisfies the rows (VerifyFarkas).
	Farkas []*big.Rat
	// Ray, when Unbounded, is a direction d ≥ 0 along which X + t·d stays feasible and the
	// objective improves without limit.
	Ray []*big.Rat
	// Basis is the final basis.
	Basis Basis
}
