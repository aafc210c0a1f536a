package refine

import (
	"context"
	"math/big"
	"time"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"gonum.org/v1/gonum/mat"
)

// Options tune a refinement check. The zero value (or nil) gives the defaults.
type Options struct {
	// Context cancels a long check (the linear programs of Avg poll it); nil means
	// context.Background().
	Context context.Context
	// Tolerance overrides the decision tolerance of the order (AvgTolerance, MaxTolerance or
	// PrvTolerance) when positive.
	Tolerance float64
	// TimeLimit bounds the exact phase of AdditiveMetric (0: DefaultAdditiveMetricTimeLimit,
	// negative: no limit); the other functions ignore it.
	TimeLimit time.Duration
}

func (o *Options) ctx() context.Context {
	if o == nil || o.Context == nil {
		return context.Background()
	}
	return o.Context
}

func (o *Options) tol(def float64) float64 {
	if o == nil || !(o.Tolerance > 0) {
		return def
	}
	return o.Tolerance
}

// checkOptions refuses a NaN, negative or absurdly large tolerance.
func checkOptions(o *Options) error {
	if o == nil {
		return nil
	}
	if o.Tolerance != o.Tolerance || o.Tolerance < 0 || o.Tolerance > 0.1 {
		return argerr.New("tolerance", "must be 0 (default) or in (0, 0.1], got %v", o.Tolerance)
	}
	return nil
}

// pair is a validated pair of channels on the same secrets, copied into row-major slices
// whose rows are renormalized to sum exactly 1 (validation accepts rows within
// channel.Tolerance of 1; the decisions below are far tighter and must not depend on how the
// input was rounded).
type pair struct {
	n          int
	a, b       []float64
	ma, mb     int
	colA, colB []int // indices of the non-zero columns
}

func newPair(A, B mat.Matrix) (*pair, error) {
	if err := channel.ValidateNamed("A", A); err != nil {
		return nil, err
	}
	if err := channel.ValidateNamed("B", B); err != nil {
		return nil, err
	}
	na, _ := A.Dims()
	nb, _ := B.Dims()
	if na != nb {
		return nil, argerr.New("B", "has %d rows (secrets) but A has %d; both channels must be on the same secrets", nb, na)
	}
	return pairOf(A, B), nil
}

// pairOf builds the pair of two validated channels with the same number of rows.
func pairOf(A, B mat.Matrix) *pair {
	na, ma := A.Dims()
	nb, mb := B.Dims()
	p := &pair{n: na, ma: ma, mb: mb, a: normalizedRows(A), b: normalizedRows(B)}
	p.colA = nonzeroColumns(p.a, na, ma)
	p.colB = nonzeroColumns(p.b, nb, mb)
	return p
}

// normalizedRows copies a validated channel into a row-major slice with every row divided by
// its sum.
func normalizedRows(c mat.Matrix) []float64 {
	n, m := c.Dims()
	out := rawRows(c)
	for i := 0; i < n; i++ {
		row := out[i*m : (i+1)*m]
		s := 0.0
		for _, v := range row {
			s += v
		}
		for j := range row {
			row[j] /= s
		}
	}
	return out
}

// rawRows copies a matrix into a row-major slice as given.
func rawRows(c mat.Matrix) []float64 {
	n, m := c.Dims()
	out := make([]float64, n*m)
	if d, ok := c.(*mat.Dense); ok {
		raw := d.RawMatrix()
		for i := 0; i < n; i++ {
			copy(out[i*m:(i+1)*m], raw.Data[i*raw.Stride:i*raw.Stride+m])
		}
	} else {
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				out[i*m+j] = c.At(i, j)
			}
		}
	}
	return out
}

// exactRows is normalizedRows without rounding: the entries of a validated channel read as the
// exact binary fractions they are, each row divided by its exact sum. normalizedRows is its
// float64 rounding; the two agree to within an ulp per entry.
func exactRows(c mat.Matrix) [][]*big.Rat {
	n, m := c.Dims()
	out := make([][]*big.Rat, n)
	for i := range out {
		row := make([]*big.Rat, m)
		s := new(big.Rat)
		for j := range row {
			row[j] = new(big.Rat).SetFloat64(c.At(i, j))
			s.Add(s, row[j])
		}
		for j := range row {
			if row[j].Sign() != 0 {
				row[j].Quo(row[j], s)
			}
		}
		out[i] = row
	}
	return out
}

func nonzeroColumns(c []float64, n, m int) []int {
	sums := make([]float64, m)
	for x := 0; x < n; x++ {
		for y, v := range c[x*m : (x+1)*m] {
			sums[y] += v
		}
	}
	var out []int
	for y, s := range sums {
		if s > 0 {
			out = append(out, y)
		}
	}
	return out
}

func uniform(n int) []float64 {
	u := make([]float64, n)
	for i := range u {
		u[i] = 1 / float64(n)
	}
	return u
}
