package metric

import (
	"reflect"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

// validateGround checks that D is a ground metric (square, at most MaxPoints points, entries
// ≥ 0 or +Inf, zero diagonal, symmetric: privacy.ValidateMetric) on n points, or on any number
// of points when n < 0, and returns that number.
func validateGround(name string, D mat.Matrix, n int) (int, error) {
	if D == nil || (reflect.ValueOf(D).Kind() == reflect.Pointer && reflect.ValueOf(D).IsNil()) {
		return 0, argerr.New(name, "missing distance matrix")
	}
	if d, ok := D.(*mat.Dense); ok && d.IsEmpty() {
		return 0, argerr.New(name, "empty distance matrix")
	}
	r, c := D.Dims()
	switch {
	case r == 0 || c == 0:
		return 0, argerr.New(name, "empty distance matrix")
	case r != c:
		return 0, argerr.New(name, "must be square, got %d×%d", r, c)
	case r > MaxPoints:
		return 0, argerr.New(name, "%d×%d is more than the limit of %d points", r, c, MaxPoints)
	case n >= 0 && r != n:
		return 0, argerr.New(name, "%d×%d, but the distributions have %d entries", r, c, n)
	}
	return r, privacy.ValidateMetric(name, D, r)
}

// twoDistributions validates P and Q as distributions on the same number of points.
func twoDistributions(p, q []float64) error {
	if err := channel.ValidateDistribution("P", p); err != nil {
		return err
	}
	if err := channel.ValidateDistribution("Q", q); err != nil {
		return err
	}
	if len(p) != len(q) {
		return argerr.New("Q", "has %d entries but P has %d; both distributions must be on the same points", len(q), len(p))
	}
	return nil
}
