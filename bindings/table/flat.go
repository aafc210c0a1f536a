package table

import (
	"github.com/qif-toolkit/qif/core/argerr"

	"gonum.org/v1/gonum/mat"
)

// This file is pure Go (no build tag): it holds the checks that turn the flat form of a matrix
// (rows, cols, row-major data) into a *mat.Dense, so that they are tested and fuzzed natively.

// MaxEntries bounds any matrix or vector crossing the boundary (see channel.MaxEntries).
const MaxEntries = 50_000_000

// CheckFlatDims checks the dimensions of a flat matrix before any data is allocated: both
// positive, and rows×cols at most the entry limit (computed without integer overflow).
// name is the argument named in the error.
func CheckFlatDims(name string, rows, cols int) error {
	if rows < 0 || cols < 0 {
		return argerr.New(name, "negative size (%d×%d)", rows, cols)
	}
	if rows == 0 || cols == 0 {
		return argerr.New(name, "empty matrix (%d×%d)", rows, cols)
	}
	if n := float64(rows) * float64(cols); n > MaxEntries {
		return argerr.New(name, "%d×%d has %.3g entries, more than the limit of %d", rows, cols, n, MaxEntries)
	}
	return nil
}

// FlatMatrix checks a flat matrix and wraps data (not copied) as a rows×cols *mat.Dense.
// data must hold exactly rows×cols entries in row-major order. Entries are not inspected: NaN
// and negative values are left for the core to reject with its own, more precise, message.
func FlatMatrix(name string, rows, cols int, data []float64) (*mat.Dense, error) {
	if err := CheckFlatDims(name, rows, cols); err != nil {
		return nil, err
	}
	if len(data) != rows*cols {
		return nil, argerr.New(name, "data has %d entries, expected rows×cols = %d", len(data), rows*cols)
	}
	return mat.NewDense(rows, cols, data), nil
}
