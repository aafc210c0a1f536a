package mechanism

import "github.com/qif-toolkit/qif/core/lp"

// solverOptions copies spec.Solver (nil stays nil) with its Progress reporting in the result's
// units. Both solvers maximize c·H, and with a loss c is minus the weighted loss, so their
// reports' Objective and Bound are minus the expected loss and minus its lower bound; a caller
// that asked for a loss expects expected losses (as LPResult.Utility, Objective and Bound are),
// so the reports are negated back here, once for both paths. Infeasibility (a gap, or a sum of
// violations) is unsigned and passes unchanged.
func solverOptions(spec *LPSpec) *lp.Options {
	if spec.Solver == nil {
		return nil
	}
	o := *spec.Solver
	if spec.Loss != nil && o.Progress != nil {
		report := o.Progress
		o.Progress = func(p lp.Progress) bool {
			p.Objective, p.Bound = -p.Objective, -p.Bound
			return report(p)
		}
	}
	return &o
}
