package channel

import (
	"math"
	"reflect"

	"github.com/qif-toolkit/qif/core/argerr"
	"gonum.org/v1/gonum/mat"
)

// Tolerance is the absolute tolerance on row sums and prior sums: a row is accepted as
// stochastic when |Σ_y C[x][y] − 1| ≤ Tolerance. It is loose enough for matrices typed with
// six decimals by hand and tight enough to catch a missing entry.
const Tolerance = 1e-6

// MaxEntries is the largest number of entries (rows × columns) a channel may have. It bounds
// memory at 8·MaxEntries bytes per copy (400 MB), which is what a browser tab can still hold.
const MaxEntries = 50_000_000

// Validate reports whether c is a channel: non-empty, at most MaxEntries entries, every entry
// finite and non-negative, every row summing to 1 within Tolerance. The error names the
// argument "channel" and the first offending row or entry.
func Validate(c mat.Matrix) error { return ValidateNamed("channel", c) }

// ValidateNamed is Validate with the argument name used in error messages (for example "A").
//
// The size is checked from the dimensions alone, before any entry is read, so an oversized
// matrix is refused without touching (or allocating) its data.
func ValidateNamed(name string, c mat.Matrix) error {
	if isNil(c) {
		return argerr.New(name, "missing matrix")
	}
	r, k := dims(c)
	if r <= 0 || k <= 0 {
		return argerr.New(name, "empty matrix (%d×%d)", r, k)
	}
	if float64(r)*float64(k) > MaxEntries {
		return argerr.New(name, "%d×%d has %.3g entries, more than the limit of %d", r, k, float64(r)*float64(k), MaxEntries)
	}
	if d, ok := c.(*mat.Dense); ok {
		raw := d.RawMatrix()
		for i := 0; i < r; i++ {
			if err := checkRow(name, i, raw.Data[i*raw.Stride:i*raw.Stride+k]); err != nil {
				return err
			}
		}
		return nil
	}
	row := make([]float64, k)
	for i := 0; i < r; i++ {
		for j := range row {
			row[j] = c.At(i, j)
		}
		if err := checkRow(name, i, row); err != nil {
			return err
		}
	}
	return nil
}

// checkRow checks that row i of a channel is a probability distribution.
func checkRow(name string, i int, row []float64) error {
	s := 0.0
	for j, v := range row {
		// One comparison catches NaN, ±Inf and negatives on the fast path.
		if !(v >= 0 && v <= math.MaxFloat64) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return argerr.Cell(name, i, j, "is %v, expected a probability", v)
			}
			return argerr.Cell(name, i, j, "is negative (%g)", v)
		}
		s += v
	}
	if math.Abs(s-1) > Tolerance {
		return argerr.Row(name, i, "sums to %.10g, expected 1", s)
	}
	return nil
}

// ValidateDistribution reports whether p is a probability distribution: non-empty, finite,
// non-negative entries summing to 1 within Tolerance. name is used in the error ("prior").
func ValidateDistribution(name string, p []float64) error {
	if len(p) == 0 {
		return argerr.New(name, "empty distribution")
	}
	if len(p) > MaxEntries {
		return argerr.New(name, "%d entries, more than the limit of %d", len(p), MaxEntries)
	}
	s := 0.0
	for i, v := range p {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return argerr.Entry(name, i, "is %v, expected a probability", v)
		}
		if v < 0 {
			return argerr.Entry(name, i, "is negative (%g)", v)
		}
		s += v
	}
	if math.Abs(s-1) > Tolerance {
		return argerr.New(name, "sums to %.10g, expected 1", s)
	}
	return nil
}

// ValidatePrior checks that prior is a distribution whose length matches the rows of c.
// It does not validate c itself.
func ValidatePrior(prior []float64, c mat.Matrix) error {
	if err := ValidateDistribution("prior", prior); err != nil {
		return err
	}
	if isNil(c) {
		return argerr.New("channel", "missing matrix")
	}
	if r, _ := dims(c); r != len(prior) {
		return argerr.New("prior", "has %s but the channel has %s", count(len(prior), "entry", "entries"), count(r, "row", "rows"))
	}
	return nil
}

// isNil reports whether m is nil or an interface holding a nil pointer (a nil *mat.Dense
// would otherwise panic inside Dims).
func isNil(m mat.Matrix) bool {
	if m == nil {
		return true
	}
	v := reflect.ValueOf(m)
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func:
		return v.IsNil()
	}
	return false
}

// dims returns the dimensions of m, treating an empty *mat.Dense (the zero value, which
// gonum's Dims reports as 0×0 but other methods refuse) as 0×0.
func dims(m mat.Matrix) (int, int) {
	if d, ok := m.(*mat.Dense); ok && d.IsEmpty() {
		return 0, 0
	}
	return m.Dims()
}
