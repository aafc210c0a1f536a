package infopriv

import (
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
	r, err := measure.ShannonCapacity(c, &measure.CapacityOptions{Tolerance: tol})
	if err != nil {
		return capResult{}, err
	}
	return capResult{capacity: r.Capacity, upper: r.UpperBound, prior: r.Prior}, nil
}
