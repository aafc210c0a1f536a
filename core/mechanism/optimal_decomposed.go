package mechanism

import (
	"errors"
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/conelp"
	"github.com/qif-toolkit/qif/core/lp"
)

// Methods of OptimalLP (LPSpec.Method, LPResult.Method).
const (
	// MethodAuto solves by decomposition and falls back to the simplex method when the
	// decomposition stops without a verified optimum and the program is small enough for it.
	MethodAuto = ""
	// MethodDecomposition solves by Dantzig–Wolfe decomposition over the columns of the
	// mechanism (package conelp).
	MethodDecomposition = "decomposition"
	// MethodSimplex states the program as one linear program and solves it with the simplex
	// method of package lp.
	MethodSimplex = "simplex"
)

// MaxDecomposedVariables bounds n·|W| for the decomposition: its master keeps an n×n inverse
// and a few thousand columns of length n; a 500×500 mechanism needs about 40 MB, and a 32×32
// map (1,024 cells, the limit) with a δ = 1.1 spanner held about 75 MB natively.
const MaxDecomposedVariables = 1 << 20

func checkMethod(spec *LPSpec) error {
	switch spec.Method {
	case MethodAuto, MethodDecomposition, MethodSimplex:
		return nil
	}
	return fmt.Errorf("method: %q is not one of \"decomposition\", \"simplex\" (or empty for automatic)", spec.Method)
}

// solveProgram states the program of spec and solves it by the method spec asks for.
func solveProgram(spec *LPSpec, n int) (*LPResult, error) {
	p, info, err := newSpecProgram(spec, n)
	if err != nil {
		return nil, err
	}
	var out *LPResult
	switch spec.Method {
	case MethodSimplex:
		out, err = solveMechanismLP(spec, p)
	case MethodDecomposition:
		out, err = solveDecomposed(spec, p)
	default:
		out, err = solveDecomposed(spec, p)
		var stuck *decompositionStuck
		if errors.As(err, &stuck) && float64(n)*float64(p.w) <= MaxLPVariables && p.rowCount() <= MaxLPConstraints {
			out, err = solveMechanismLP(spec, p)
		}
	}
	if err != nil {
		return nil, err
	}
	out.Reason = lpReason(spec, n)
	out.Spanner = info
	out.GuaranteedEpsilon = spec.Epsilon
	if info != nil {
		out.GuaranteedEpsilon = spec.Epsilon * info.Dilation / spec.Spanner
	}
	return out, nil
}

// lpReason says why the program was solved rather than the closed form used.
func lpReason(spec *LPSpec, n int) string {
	switch {
	case spec.ForceLP:
		return "the linear program was asked for (forceLP)"
	case spec.Metric != nil:
		return "a metric was given: no closed form is known"
	case spec.Loss != nil || !isIdentity(spec.Gain, n):
		return "the gain is not binary: no closed form is known"
	case !isUniform(spec.Prior):
		return "the prior is not uniform: the Theorem 6.2 mechanism need not be optimal"
	}
	return "vertices have different distance distributions (the graph is neither distance-regular nor VT+): the Theorem 6.2 mechanism is not ε-DP there"
}

// decompositionStuck is the error of a decomposition that stopped without a verified optimum
// for a reason other than the caller's limits (MethodAuto then falls back to the simplex).
type decompositionStuck struct{ msg string }

func (e *decompositionStuck) Error() string { return e.msg }

// solveDecomposed solves the program p of spec with package conelp: every column of H lies in
// the same cone of ratio constraints, only the row sums link the columns.
func solveDecomposed(spec *LPSpec, p *mechProgram) (*LPResult, error) {
	n, w := p.n, p.w
	prob := &conelp.Problem{N: n, Cost: make([][]float64, w), Sense: lp.Maximize}
	for z := range prob.Cost {
		c := make([]float64, n)
		for y := range c {
			c[y] = p.c[y*w+z]
		}
		prob.Cost[z] = c
	}
	// Small programs keep the certificate's multipliers, so that the tests can check the
	// certificate in exact arithmetic as they do the simplex's duals.
	prob.KeepMultipliers = 2*len(p.pairs)*w <= keepCertificateRows
	// A metric means a map of locations, whose optimal mechanisms report few of them.
	prob.FewOutputs = spec.Metric != nil
	prob.Pairs = make([]conelp.Pair, len(p.pairs))
	for i, q := range p.pairs {
		prob.Pairs[i] = conelp.Pair{A: q.a, B: q.b, Log: q.ed}
	}
	res, err := conelp.Solve(prob, solverOptions(spec))
	if err != nil {
		return nil, err
	}
	out := &LPResult{
		Path:           PathLP,
		Method:         MethodDecomposition,
		Status:         res.Status,
		Iterations:     res.Iterations,
		Variables:      n * w,
		Constraints:    p.rowCount(),
		Objective:      res.Objective,
		Bound:          res.Bound,
		PrimalResidual: res.PrimalResidual,
		DualResidual:   res.DualResidual,
	}
	if p.loss {
		out.Objective, out.Bound = -res.Objective, -res.Bound
	}
	switch res.Status {
	case lp.Optimal:
	case lp.Cancelled, lp.TimeLimit:
		return nil, fmt.Errorf("optimal mechanism: the decomposition stopped (%v) after %d pricing rounds and %d master pivots",
			res.Status, res.Rounds, res.Iterations)
	default:
		return nil, &decompositionStuck{fmt.Sprintf("optimal mechanism: the decomposition stopped without a verified optimum "+
			"(%v after %d pricing rounds: primal residual %.3g, dual residual %.3g, gap to the dual bound %.3g)",
			res.Status, res.Rounds, res.PrimalResidual, res.DualResidual, res.Bound-res.Objective)}
	}
	if res.Multipliers != nil {
		out.dual, out.rows = decomposedCertificate(p, res)
	}
	return out, finishProgram(spec, p, res.H, out)
}

// keepCertificateRows bounds the privacy rows (2·pairs·|W|) for which the certificate is kept.
const keepCertificateRows = 1 << 16

// decomposedCertificate states the decomposition's certificate like the simplex's duals: the
// row prices U, and for every pair, direction and output the multiplier V of the privacy row in
// mass form, e^{−εd}·H[x][z] − H[t][z] ≤ 0 (V = α·e^{εd} for the row H[x][z] − e^{εd}·H[t][z] ≤ 0).
func decomposedCertificate(p *mechProgram, res *conelp.Result) (*lpCheck, []privRow) {
	k := &lpCheck{H: res.H, U: res.Mu}
	var rows []privRow
	for i, q := range p.pairs {
		f := math.Exp(-q.ed)
		for z, a := range res.Multipliers {
			for dir, xt := range [2][2]int{{q.a, q.b}, {q.b, q.a}} {
				m := a[2*i+dir]
				if m == 0 {
					continue
				}
				rows = append(rows, privRow{x: xt[0], t: xt[1], z: z, coef: f})
				k.V = append(k.V, m/f)
			}
		}
	}
	return k, rows
}

// finishProgram repairs the privacy of the solver's h (see OptimalLP) into out.Mechanism and
// computes out.Utility from it.
func finishProgram(spec *LPSpec, p *mechProgram, h []float64, out *LPResult) error {
	m, err := repairPrivacy(spec, p, h)
	if err != nil {
		return err
	}
	out.Mechanism = m
	prior := spec.Prior
	if prior == nil {
		prior = uniformPrior(p.n)
	}
	if spec.Loss != nil {
		out.Utility, _, err = ExpectedLoss(prior, m, spec.Loss)
	} else {
		out.Utility, err = Utility(prior, m, spec.Gain)
	}
	return err
}
