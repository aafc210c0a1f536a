// Package labels is a column of sample labels — numbers or strings, compared only for equality —
// as the estimators read it and the bindings decode it. It is a package of its own so that both
// share one type while the exact module, which shares the bindings' decoder, links nothing of the
// estimation code.
package labels

// Column is one column of a sample: labels that are numbers or strings. Exactly one of Numbers
// and Strings is used; a label is only a name (two labels are equal or not, nothing more).
type Column struct {
	Numbers []float64
	Strings []string
}

// Len is the number of labels.
func (l Column) Len() int {
	if l.Strings != nil {
		return len(l.Strings)
	}
	return len(l.Numbers)
}
