package table

import (
	"github.com/qif-toolkit/qif/core/labels"

	"gonum.org/v1/gonum/mat"
)

// Labels is a decoded column of sample labels: numbers or strings (exactly one is set), the type
// core/estimate reads (core/labels, a package of its own so that the exact module, which shares
// this package, links nothing of the estimation code).
type Labels = labels.Column

// Samples is a decoded observation column: Labels, or Vectors (one row per sample) when not nil.
// IntegerArray tells labels that came from an integer typed array (Int32Array, ...), which the
// rule of kind 'auto' reads as labels whatever their values.
type Samples struct {
	Labels       Labels
	Vectors      *mat.Dense
	IntegerArray bool
}

// Labels returns a column of labels (the zero Labels when absent).
func (a *Args) Labels(name string) Labels { x, _ := a.Get(name).(Labels); return x }

// Samples returns observations: labels or vectors (the zero value when absent).
func (a *Args) Samples(name string) Samples { x, _ := a.Get(name).(Samples); return x }
