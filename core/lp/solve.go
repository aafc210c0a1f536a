package lp

import (
	"fmt"
	"math"
	"time"
)

// Solve solves the linear program p. It returns an error only for invalid input (see
// Problem.Validate and Options); every outcome of the solve itself — optimal, infeasible,
// unbounded, a limit or a cancellation — is reported in Result.Status.
func Solve(p *Problem, opt *Options) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if opt != nil {
		for _, t := range []struct {
			name string
			v    float64
		}{{"FeasibilityTol", opt.FeasibilityTol}, {"OptimalityTol", opt.OptimalityTol}} {
			if math.IsNaN(t.v) || t.v < 0 || t.v > 1e-3 {
				return nil, fmt.Errorf("lp: option %s = %v, want 0 (default) or a value in (0, 1e-3]", t.name, t.v)
			}
		}
		if opt.MaxIterations < 0 || opt.ProgressEvery < 0 || opt.TimeLimit < 0 {
			return nil, fmt.Errorf("lp: negative MaxIterations, ProgressEvery or TimeLimit")
		}
	}
	start := time.Now()
	if (opt == nil || !opt.NoDualize) && canDualize(p) {
		if res := solveDual(p, opt); res != nil {
			return res, nil
		}
		// The dual is infeasible or unbounded: decide on p itself, so that the certificate
		// (Farkas or ray) refers to p, within what is left of the time limit.
		if opt != nil && opt.TimeLimit > 0 {
			o := *opt
			o.TimeLimit -= time.Since(start)
			opt = &o
		}
	}
	s := newSolver(p, opt)
	status := s.run()
	return s.result(p, status), nil
}

func (s *solver) result(p *Problem, status Status) *Result {
	n, m := s.n, s.m
	res := &Result{Status: status, Iterations: s.iter}
	res.VarStatus, res.RowStatus = s.basis(p)
	res.X = make([]float64, n)
	for j := 0; j < n; j++ {
		res.X[j] = s.x[j] * s.colScale[j]
	}
	sign := 1.0
	if p.Sense == Maximize {
		sign = -1
	}
	res.Duals = make([]float64, m)
	for i := 0; i < m; i++ {
		res.Duals[i] = sign * s.y[i] * s.rowScale[i] / s.costScale
	}
	res.ReducedCosts = make([]float64, n)
	for j := 0; j < n; j++ {
		res.ReducedCosts[j] = sign * s.d[j] / s.colScale[j] / s.costScale
	}
	for j, c := range p.Objective {
		res.Objective += c * res.X[j]
	}
	// Primal residual in the units of the input.
	act := make([]float64, m)
	if p.A != nil {
		for j := 0; j < n; j++ {
			for k := p.A.ColStart[j]; k < p.A.ColStart[j+1]; k++ {
				act[p.A.RowIndex[k]] += p.A.Value[k] * res.X[j]
			}
		}
	}
	for i := 0; i < m; i++ {
		lo, hi := p.rowBounds(i)
		res.PrimalResidual = math.Max(res.PrimalResidual, math.Max(lo-act[i], act[i]-hi))
	}
	for j := 0; j < n; j++ {
		l, u := p.bounds(j)
		res.PrimalResidual = math.Max(res.PrimalResidual, math.Max(l-res.X[j], res.X[j]-u))
	}
	// Dual residual: wrong-signed reduced costs, unscaled.
	for j := 0; j < s.nt; j++ {
		v := 0.0
		if s.state[j] == basic {
			v = math.Abs(s.d[j])
		} else {
			v = s.dualInfeasibility(j)
		}
		if j < n {
			v /= s.colScale[j]
		} else {
			v *= s.rowScale[j-n]
		}
		res.DualResidual = math.Max(res.DualResidual, v/s.costScale)
	}
	if status == Infeasible && s.farkas != nil {
		res.Farkas = make([]float64, m)
		for i, v := range s.farkas {
			res.Farkas[i] = v * s.rowScale[i]
		}
	}
	if status == Unbounded && s.ray != nil {
		res.Ray = make([]float64, n)
		for j, v := range s.ray {
			res.Ray[j] = v * s.colScale[j]
		}
	}
	return res
}
