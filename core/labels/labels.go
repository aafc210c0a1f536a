// Package labels is a column of sample labels — numbers or strings, compared only for equality —
// as the estimators read it and the bindings decode it. It is a package of its own so that both
// share one type while the exact module, which shares the bindings' decoder, links nothing of the
// estimation code.
package labels

// Column is one column of a sample: labels that are numbers or strings. Exactly one of Numbers,
// Strings and Codes is used; a label is only a name (two labels are equal or not, nothing more).
//
// Codes is strings already coded: Codes[i] is the index of label i among the distinct labels,
// numbered in order of first appearance, and Names returns those distinct labels in that order.
// Names is called only when the labels themselves are needed (to sort them, or to name one in a
// message): a caller in another language can then code its strings where they live and send only
// the codes, so that a column an estimator refuses by the count of its distinct values (a
// million distinct strings) is refused before a single string is copied.
type Column struct {
	Numbers []float64
	Strings []string
	Codes   []int32
	Names   func() ([]string, error)
}

// Len is the number of labels.
func (l Column) Len() int {
	switch {
	case l.Strings != nil:
		return len(l.Strings)
	case l.Codes != nil:
		return len(l.Codes)
	}
	return len(l.Numbers)
}

// Text reports whether the labels are strings (given as Strings, or coded).
func (l Column) Text() bool { return l.Strings != nil || l.Codes != nil }

// Coded is strings coded as Column.Codes says: each string's index among the distinct ones,
// numbered in order of first appearance, and those distinct strings in that order (what the
// bindings' JavaScript side sends for string labels, and what Go callers may send alike).
func Coded(xs []string) (codes []int32, names []string) {
	first := map[string]int32{}
	codes = make([]int32, len(xs))
	for i, x := range xs {
		c, ok := first[x]
		if !ok {
			c = int32(len(names))
			first[x] = c
			names = append(names, x)
		}
		codes[i] = c
	}
	return codes, names
}
