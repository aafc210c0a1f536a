package ratlp

import (
	"math"

	"github.com/qif-toolkit/qif/core/lp"
)

// Float states p for the floating-point solver core/lp, every coefficient rounded to the
// nearest float64, so that its final basis can start Solve (StartFrom). Rows with a
// coefficient or right-hand side beyond the float64 range are left out (they start with a
// basic slack); kept[k] is the row of p stated as row k. An objective coefficient beyond the
// range makes ok false: no floating-point start is possible.
func (p *Problem) Float() (fp *lp.Problem, kept []int, ok bool) {
	sense := lp.Minimize
	if p.Sense == Maximize {
		sense = lp.Maximize
	}
	m := lp.NewModel(sense)
	x := m.AddBlock("x", 1, len(p.Objective))
	for j, c := range p.Objective {
		if c == nil || c.Sign() == 0 {
			continue
		}
		f, _ := c.Float64()
		if math.IsInf(f, 0) {
			return nil, nil, false
		}
		m.SetObjective(x.At(0, j), f)
	}
	var terms []lp.Term
row:
	for i, r := range p.Rows {
		b, _ := r.RHS.Float64()
		if math.IsInf(b, 0) {
			continue
		}
		terms = terms[:0]
		for _, t := range r.Terms {
			f, _ := t.Coef.Float64()
			if math.IsInf(f, 0) {
				continue row
			}
			terms = append(terms, lp.Term{Var: x.At(0, t.Var), Coef: f})
		}
		switch r.Op {
		case LessEq:
			m.AddLe(terms, b)
		case GreaterEq:
			m.AddGe(terms, b)
		default:
			m.AddEq(terms, b)
		}
		kept = append(kept, i)
	}
	fp, err := m.Problem()
	if err != nil {
		return nil, nil, false
	}
	return fp, kept, true
}

// StartFrom turns the final basis of a core/lp solve of p.Float() into a starting basis for
// Solve; the rows Float left out get basic slacks. It returns nil (the slack basis) when res
// carries no basis.
func StartFrom(p *Problem, kept []int, res *lp.Result) *Basis {
	if res == nil || len(res.VarStatus) != len(p.Objective) || len(res.RowStatus) != len(kept) {
		return nil
	}
	b := &Basis{Var: make([]bool, len(p.Objective)), Row: make([]bool, len(p.Rows))}
	for j, s := range res.VarStatus {
		b.Var[j] = s == lp.Basic
	}
	for i := range b.Row {
		b.Row[i] = true
	}
	for k, i := range kept {
		b.Row[i] = res.RowStatus[k] == lp.Basic
	}
	return b
}
