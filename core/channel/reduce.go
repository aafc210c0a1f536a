package channel

import (
	"github.com/qif-toolkit/qif/core/argerr"

	"gonum.org/v1/gonum/mat"
)

// Reduce returns the reduced (abstract) form of channel C: all-zero columns are dropped and
// proportional columns are merged into one column, their sum. Two non-zero columns are
// proportional when, each divided by its own sum, they agree within MergeTolerance in the max
// norm (each normalized column is the posterior of that output under the uniform prior).
//
// The columns of the result are in order of first appearance: column k of the result is the
// sum of the columns of its class, and classes are ordered by their smallest column index in C.
// The reduced channel has the same hyper-distribution as C for every prior.
func Reduce(c mat.Matrix) (*mat.Dense, error) {
	r, err := ReduceColumns(c)
	if err != nil {
		return nil, err
	}
	return r.Channel, nil
}

// Reduction is a reduced channel together with the map from its columns to the original ones.
type Reduction struct {
	// Channel is the reduced channel (see Reduce).
	Channel *mat.Dense
	// Columns[k] lists, in increasing order, the columns of the original channel summed into
	// column k of Channel. All-zero columns appear in no list.
	Columns [][]int
}

// ReduceColumns is Reduce that also reports which original columns form each reduced column.
func ReduceColumns(c mat.Matrix) (*Reduction, error) {
	if err := Validate(c); err != nil {
		return nil, err
	}
	data, stride, n, m := denseOf(c)
	sums := make([]float64, m)
	for x := 0; x < n; x++ {
		for y, v := range data[x*stride : x*stride+m] {
			sums[y] += v
		}
	}
	var nonzero []int
	for y, s := range sums {
		if s > 0 {
			nonzero = append(nonzero, y)
		}
	}
	if len(nonzero) == 0 {
		// Impossible for a validated channel (its rows sum to 1), kept as a guard.
		return nil, argerr.New("channel", "every column is zero")
	}
	// Normalized columns, one contiguous vector per column.
	flat := make([]float64, len(nonzero)*n)
	vecs := make([][]float64, len(nonzero))
	for k := range nonzero {
		vecs[k] = flat[k*n : k*n+n : k*n+n]
	}
	for x := 0; x < n; x++ {
		row := data[x*stride : x*stride+m]
		for k, y := range nonzero {
			vecs[k][x] = row[y] / sums[y]
		}
	}
	classes := groupEqual(vecs, MergeTolerance)
	k := len(classes)
	out := make([]float64, n*k)
	cols := make([][]int, k)
	for j, members := range classes {
		orig := make([]int, len(members))
		for i, idx := range members {
			orig[i] = nonzero[idx]
		}
		cols[j] = orig
	}
	for x := 0; x < n; x++ {
		row := data[x*stride : x*stride+m]
		dst := out[x*k : x*k+k]
		for j, orig := range cols {
			s := 0.0
			for _, y := range orig {
				s += row[y]
			}
			dst[j] = s
		}
	}
	return &Reduction{Channel: mat.NewDense(n, k, out), Columns: cols}, nil
}
