package moreapi

import (
	"fmt"
	. "github.com/qif-toolkit/qif/bindings/table"
	"math"

	"github.com/qif-toolkit/qif/bindings/table"

	"github.com/qif-toolkit/qif/core/lp"
)

var lpAPI = []Func{
	{NS: "lp", Name: "solve", Doc: "Solves a linear program by the simplex method (sparse LU), with duals and certificates.",
		TeX: `\min / \max\ c^{\top}x \ \text{ s.t. } \ a_i^{\top}x\ (\le, =, \ge)\ b_i,\ \ l \le x \le u`,
		Params: []*Param{{Name: "problem", Kind: KindLPProblem, Doc: "{sense?, objective, rows: [{coeffs, op, rhs}], lower?, upper?}"},
			{Name: "options", Kind: KindOptions, Optional: true, Type: "LPOptions", Fields: []*Param{&fLPReport,
				{Name: "progressEvery", Kind: KindInteger, Check: CheckPositive, Default: 200, Doc: "iterations between progress calls"},
				{Name: "maxIterations", Kind: KindInteger, Check: CheckPositive, DefaultDoc: "50·(rows + variables) + 10000", Doc: "largest number of simplex iterations"},
				&fTimeLim}}},
		Result: Type{Name: "LPResult", Doc: "Result of lp.solve.", Fields: []Field{
			{Name: "status", Type: Type{TS: "LPStatus"}},
			{Name: "x", Type: VectorOut, Doc: "The solution, one entry per variable."},
			{Name: "duals", Type: VectorOut, Doc: "duals[i] = ∂objective/∂rhs[i]."},
			{Name: "reducedCosts", Type: VectorOut},
			{Name: "objective", Type: Number, Doc: "Optimal objective value (NaN unless status is 'optimal')."},
			{Name: "iterations", Type: Number},
			{Name: "primalResidual", Type: Number, Doc: "Largest violation of a row by x, absolute, in the problem's units; x is within its bounds exactly (projected onto them). 'optimal' and 'unbounded' require each row within 1e-9 times the largest of 1, |rhs| and its terms |a·x|."},
			{Name: "dualResidual", Type: Number, Doc: "Largest wrong-signed reduced cost or row dual (complementary slackness included), absolute, in objective units."},
			{Name: "farkas", Type: VectorOut, Optional: true, Doc: "Certificate of infeasibility (status 'infeasible'): row multipliers y, checked in the problem's units (entries of yᵀA count as zero only within 1e-9 of the sum of their terms)."},
			{Name: "ray", Type: VectorOut, Optional: true, Doc: "Unbounded direction from x (status 'unbounded'), checked in the problem's units."}}},
		Call: func(a *Args) (any, error) {
			opt := solverOptions(a)
			opt.MaxIterations, opt.ProgressEvery = a.Int("maxIterations"), a.Int("progressEvery")
			res, err := lp.Solve(a.Get("problem").(*lp.Problem), opt)
			if err != nil { // the problem failed validation: "right-hand side of row 0 is NaN"
				return nil, fmt.Errorf("problem: %s", table.StripInternalPrefixes(err.Error()))
			}
			obj := res.Objective
			if res.Status != lp.Optimal {
				obj = math.NaN()
			}
			out := Obj{"status": res.Status.String(), "x": res.X, "duals": res.Duals, "reducedCosts": res.ReducedCosts, "objective": obj,
				"iterations": res.Iterations, "primalResidual": res.PrimalResidual, "dualResidual": res.DualResidual}
			if res.Farkas != nil {
				out["farkas"] = res.Farkas
			}
			if res.Ray != nil {
				out["ray"] = res.Ray
			}
			return out, nil
		}},
}
