package lp

// BasisStatus is the place of a variable, or of a row's logical (its slack), in the simplex
// basis a solve ended with (Result.VarStatus and Result.RowStatus).
type BasisStatus int8

const (
	// Basic: in the basis. A basic row's logical is free to leave its bound: the row need not
	// hold with equality.
	Basic BasisStatus = iota
	// AtLower: nonbasic at the lower bound; for a row, a·x at the lower end of its interval
	// (≥ rows, and = rows).
	AtLower
	// AtUpper: nonbasic at the upper bound; for a row, a·x at the upper end (≤ rows).
	AtUpper
	// AtZero: a free variable, nonbasic at 0.
	AtZero
)

// String returns "basic", "at lower", "at upper" or "at zero".
func (b BasisStatus) String() string {
	switch b {
	case Basic:
		return "basic"
	case AtLower:
		return "at lower"
	case AtUpper:
		return "at upper"
	case AtZero:
		return "at zero"
	}
	return "BasisStatus(?)"
}

// Basis is a starting basis for Solve (Options.Start): one status per variable and one per row
// of the problem, as Result.VarStatus and Result.RowStatus report them. Only which members are
// Basic matters; nonbasic ones start at a bound they have.
type Basis struct {
	Vars, Rows []BasisStatus
}

// startBasic marks the solver's basic variables for a starting basis of p: for a solver of p
// itself, variable j and logical n+i as stated; for a solver of p's dual (see dualBasis, which
// this inverts), the dual's structural u_i (p's row i) is basic when p's row i is tight, and its
// logical m+j (p's variable j) when p's variable j is nonbasic. It returns nil when the basis
// does not fit p.
func startBasic(p *Problem, b *Basis, dual bool) []bool {
	n, m := len(p.Objective), len(p.RHS)
	if b == nil || len(b.Vars) != n || len(b.Rows) != m {
		return nil
	}
	in := make([]bool, n+m)
	for j, st := range b.Vars {
		if dual {
			in[m+j] = st != Basic
		} else {
			in[j] = st == Basic
		}
	}
	for i, st := range b.Rows {
		if dual {
			in[i] = st != Basic
		} else {
			in[n+i] = st == Basic
		}
	}
	return in
}

// rowStatus is the status of a nonbasic row of p: the end of its interval it holds at.
func rowStatus(p *Problem, i int) BasisStatus {
	if p.Ops[i] == LessEq {
		return AtUpper
	}
	return AtLower
}

// basis reads the final basis of a solver of p (solved as stated).
func (s *solver) basis(p *Problem) (vars, rows []BasisStatus) {
	vars = make([]BasisStatus, s.n)
	for j := range vars {
		switch s.state[j] {
		case atLower:
			vars[j] = AtLower
		case atUpper:
			vars[j] = AtUpper
		case atZero:
			vars[j] = AtZero
		}
	}
	rows = make([]BasisStatus, s.m)
	for i := range rows {
		if s.state[s.n+i] != basic {
			rows[i] = rowStatus(p, i)
		}
	}
	return vars, rows
}

// dualBasis maps the final basis of the solver of p's dual (see dualProblem) to p: by
// complementarity, p's variable j is basic exactly when the dual's row j is tight (its logical
// nonbasic), and p's row i is tight exactly when its price u_i is basic. The counts agree: the
// dual basis has one member per variable of p, and p's basis one per row.
func (s *solver) dualBasis(p *Problem) (vars, rows []BasisStatus) {
	n, m := len(p.Objective), len(p.RHS)
	vars = make([]BasisStatus, n)
	for j := range vars {
		if s.state[m+j] == basic {
			if l, _ := p.bounds(j); l == 0 {
				vars[j] = AtLower
			} else {
				vars[j] = AtZero
			}
		}
	}
	rows = make([]BasisStatus, m)
	for i := range rows {
		if s.state[i] == basic {
			rows[i] = rowStatus(p, i)
		}
	}
	return vars, rows
}
