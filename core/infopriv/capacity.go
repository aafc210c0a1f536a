package infopriv

import (
	"math"

	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
)

// capResult is a Shannon capacity with its certified upper bound.
type capResult struct {
	capacity, upper float64
	prior           []float64
}

// gap is the certified distance to the true capacity.
func (r capResult) gap() float64 { return r.upper - r.capacity }

// capacityOf is measure.ShannonCapacity (Blahut–Arimoto) with its default tolerance.
func capacityOf(c mat.Matrix) (capResult, error) {
	return capacityTol(c, 0)
}

// capacityTol is capacityOf with a tolerance in bits (0 = measure's default).
func capacityTol(c mat.Matrix, tol float64) (capResult, error) {
	r, _, err := capacityBelow(c, tol, math.Inf(-1))
	return r, err
}

// capacityBelow is capacityTol that gives up as soon as the certified upper bound falls to
// threshold or below (beaten = false): the caller then knows the capacity is ≤ threshold
// without paying for full convergence. Blahut–Arimoto's upper bound usually drops fast while
// the lower bound creeps up, so most losing sub-channels stop after a few iterations.
func capacityBelow(c mat.Matrix, tol, threshold float64) (r capResult, beaten bool, err error) {
	stopped := false
	o := &measure.CapacityOptions{Tolerance: tol}
	if !math.IsInf(threshold, -1) {
		o.Progress = func(_ int, _, upper float64) bool {
			stopped = upper <= threshold
			return !stopped
		}
	}
	res, err := measure.ShannonCapacity(c, o)
	if err != nil {
		return capResult{}, false, err
	}
	r = capResult{capacity: res.Capacity, upper: res.UpperBound, prior: res.Prior}
	if stopped || (!res.Converged && res.UpperBound <= threshold) {
		return r, false, nil
	}
	return r, true, nil
}
