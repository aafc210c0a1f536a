package ratlp

import (
	"fmt"
	"math/big"
)

// structurals returns X for the current basis (nonbasic variables at 0).
func (s *solver) structurals() []*big.Rat {
	x := make([]*big.Rat, s.n)
	for j := range x {
		if c := s.posS[j]; c >= 0 {
			x[j] = new(big.Rat).Set(s.xS[c])
		} else {
			x[j] = new(big.Rat)
		}
	}
	return x
}

func (s *solver) basis() Basis {
	return Basis{Var: append([]bool(nil), s.basicVar...), Row: append([]bool(nil), s.basicRow...)}
}

func objective(p *Problem, x []*big.Rat) *big.Rat {
	v, t := new(big.Rat), new(big.Rat)
	for j, c := range p.Objective {
		if c != nil && x[j].Sign() != 0 {
			v.Add(v, t.Mul(c, x[j]))
		}
	}
	return v
}

func (s *solver) optimalResult(p *Problem) (*Result, error) {
	res := &Result{Status: Optimal, X: s.structurals(), Pivots: s.piv, Basis: s.basis()}
	res.Objective = objective(p, res.X)
	// Internal prices are for the minimization form of the rows a'_i = sign_i·a_i.
	res.Duals = make([]*big.Rat, s.m)
	for i, yi := range s.y {
		res.Duals[i] = new(big.Rat).Set(yi)
		if (s.sign[i] < 0) != (p.Sense == Maximize) {
			res.Duals[i].Neg(res.Duals[i])
		}
	}
	res.ReducedCosts = reducedCosts(p, res.Duals)
	if err := Verify(p, res.X, res.Duals); err != nil {
		return nil, fmt.Errorf("ratlp: internal error: the optimal basis fails its certificate: %v", err)
	}
	return res, nil
}

// infeasibleResult turns the pivot row of a leaving variable that no variable can move into a
// Farkas certificate: the row reads x_leave + Σ_j α_j x_j = β with β < 0 and every α_j ≥ 0
// (leave must rise), or, for an = row's slack, s + Σ_j α_j x_j = β > 0 with every α_j ≤ 0.
func (s *solver) infeasibleResult(p *Problem, dir int) (*Result, error) {
	y := make([]*big.Rat, s.m)
	for i, r := range s.farkasRho {
		y[i] = new(big.Rat).Set(r)
		if (dir > 0) != (s.sign[i] < 0) {
			y[i].Neg(y[i])
		}
	}
	if err := VerifyFarkas(p, y); err != nil {
		return nil, fmt.Errorf("ratlp: internal error: the infeasibility certificate fails: %v", err)
	}
	x := s.structurals()
	return &Result{Status: Infeasible, X: x, Objective: objective(p, x), Farkas: y, Pivots: s.piv, Basis: s.basis()}, nil
}

func (s *solver) unboundedResult(p *Problem, d *direction) *Result {
	ray := make([]*big.Rat, s.n)
	for j := range ray {
		ray[j] = new(big.Rat)
		if c := s.posS[j]; c >= 0 {
			ray[j].Neg(d.w.S[c])
		}
	}
	if d.enter < s.n {
		ray[d.enter].SetInt64(1)
	}
	x := s.structurals()
	return &Result{Status: Unbounded, X: x, Objective: objective(p, x), Ray: ray, Pivots: s.piv, Basis: s.basis()}
}

// reducedCosts is c − Aᵀy.
func reducedCosts(p *Problem, y []*big.Rat) []*big.Rat {
	d := make([]*big.Rat, len(p.Objective))
	for j, c := range p.Objective {
		d[j] = new(big.Rat)
		if c != nil {
			d[j].Set(c)
		}
	}
	t := new(big.Rat)
	for i, r := range p.Rows {
		if y[i].Sign() == 0 {
			continue
		}
		for _, tm := range r.Terms {
			d[tm.Var].Sub(d[tm.Var], t.Mul(tm.Coef, y[i]))
		}
	}
	return d
}

// activity is a_i·x.
func activity(r Row, x []*big.Rat) *big.Rat {
	v, t := new(big.Rat), new(big.Rat)
	for _, tm := range r.Terms {
		v.Add(v, t.Mul(tm.Coef, x[tm.Var]))
	}
	return v
}

// Verify checks, from the problem alone and in exact arithmetic, that x is optimal with the
// row prices y as its certificate: x ≥ 0 satisfies every row; y has the sign its row allows
// (Minimize: ≤ 0 on ≤ rows, ≥ 0 on ≥ rows; reversed for Maximize); the reduced costs c − Aᵀy
// are ≥ 0 (Minimize) or ≤ 0 (Maximize); and c·x = b·y. The last makes the dual bound b·y,
// which every feasible point respects (weak duality), equal to the value of x. It returns an
// error naming the first condition that fails.
func Verify(p *Problem, x, y []*big.Rat) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if len(x) != len(p.Objective) || len(y) != len(p.Rows) {
		return fmt.Errorf("ratlp: certificate has %d values and %d prices for %d variables and %d rows", len(x), len(y), len(p.Objective), len(p.Rows))
	}
	for j, v := range x {
		if v == nil || v.Sign() < 0 {
			return fmt.Errorf("ratlp: x[%d] is missing or negative", j)
		}
	}
	sense := 1 // prices and reduced costs in minimization form
	if p.Sense == Maximize {
		sense = -1
	}
	by := new(big.Rat)
	for i, r := range p.Rows {
		a := activity(r, x)
		c := a.Cmp(r.RHS)
		if (r.Op == LessEq && c > 0) || (r.Op == GreaterEq && c < 0) || (r.Op == Equal && c != 0) {
			return fmt.Errorf("ratlp: row %d: a·x = %s violates %s %s", i, a.RatString(), opString(r.Op), r.RHS.RatString())
		}
		if y[i] == nil {
			return fmt.Errorf("ratlp: price of row %d is missing", i)
		}
		ys := y[i].Sign() * sense
		if (r.Op == LessEq && ys > 0) || (r.Op == GreaterEq && ys < 0) {
			return fmt.Errorf("ratlp: price %s of row %d (%s) has the wrong sign", y[i].RatString(), i, opString(r.Op))
		}
		by.Add(by, new(big.Rat).Mul(y[i], r.RHS))
	}
	for j, d := range reducedCosts(p, y) {
		if d.Sign()*sense < 0 {
			return fmt.Errorf("ratlp: reduced cost %s of variable %d has the wrong sign", d.RatString(), j)
		}
	}
	if cx := objective(p, x); cx.Cmp(by) != 0 {
		return fmt.Errorf("ratlp: c·x = %s but b·y = %s", cx.RatString(), by.RatString())
	}
	return nil
}

// VerifyFarkas checks in exact arithmetic that y proves p infeasible: y ≤ 0 on ≤ rows, y ≥ 0
// on ≥ rows, yᵀA ≤ 0 and y·b > 0. (For x ≥ 0 satisfying the rows, y·(Ax) would be both ≤ 0
// and ≥ y·b > 0.)
func VerifyFarkas(p *Problem, y []*big.Rat) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if len(y) != len(p.Rows) {
		return fmt.Errorf("ratlp: %d multipliers for %d rows", len(y), len(p.Rows))
	}
	yb := new(big.Rat)
	ya := make([]*big.Rat, len(p.Objective))
	for j := range ya {
		ya[j] = new(big.Rat)
	}
	t := new(big.Rat)
	for i, r := range p.Rows {
		if y[i] == nil {
			return fmt.Errorf("ratlp: multiplier of row %d is missing", i)
		}
		if (r.Op == LessEq && y[i].Sign() > 0) || (r.Op == GreaterEq && y[i].Sign() < 0) {
			return fmt.Errorf("ratlp: multiplier %s of row %d (%s) has the wrong sign", y[i].RatString(), i, opString(r.Op))
		}
		yb.Add(yb, t.Mul(y[i], r.RHS))
		for _, tm := range r.Terms {
			ya[tm.Var].Add(ya[tm.Var], t.Mul(y[i], tm.Coef))
		}
	}
	for j, v := range ya {
		if v.Sign() > 0 {
			return fmt.Errorf("ratlp: (yᵀA)[%d] = %s is positive", j, v.RatString())
		}
	}
	if yb.Sign() <= 0 {
		return fmt.Errorf("ratlp: y·b = %s is not positive", yb.RatString())
	}
	return nil
}

func opString(o Op) string {
	switch o {
	case LessEq:
		return "≤"
	case GreaterEq:
		return "≥"
	}
	return "="
}
