package estimate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/qif-toolkit/qif/core/labels"

	"gonum.org/v1/gonum/mat"

	"github.com/qif-toolkit/qif/core/argerr"
)

// MaxCells bounds |X̂|·|Ô|, the size of the count table of a discrete estimate, so that a
// sample whose observations are nearly all distinct is refused with an error instead of
// exhausting memory.
const MaxCells = 20_000_000

// ErrCancelled is returned (with the partial result) when a progress function returned false.
var ErrCancelled = errors.New("estimate: cancelled")

// Labels is one column of a sample: labels that are numbers or strings. Exactly one of Numbers
// and Strings is used; a label is only a name (two labels are equal or not, nothing more). The
// bindings decode into the same type.
type Labels = labels.Column

// Observations is the observation column of a sample: Labels (discrete), or Vectors with one
// row per sample (continuous; compared by Euclidean distance). Vectors is used when not nil.
type Observations struct {
	Labels  Labels
	Vectors *mat.Dense
}

// Sample is a validated sample with its labels coded as indices into sorted name lists.
type Sample struct {
	// N is the number of samples.
	N int
	// Secret[i] is the row index of sample i's secret in SecretNames.
	Secret      []int32
	SecretNames []string
	// Obs[i] is the column index of sample i's observation in ObsNames (distinct vectors are
	// distinct observations; for vectors both are filled by Discrete, when first needed, since
	// the k-NN rule does without them).
	Obs      []int32
	ObsNames []string
	// obsOrder, when not nil, puts ObsNames in order and recodes Obs (see codeObservations);
	// SortObservations calls it.
	obsOrder func() error
	// Vectors holds the observation vectors row-major (Dim per sample), nil for labels.
	Vectors []float64
	Dim     int
}

// NewSample validates and codes a sample. Errors name the argument: "secrets" and
// "observations" (mismatched lengths, an empty sample, NaN or infinite numbers, fewer than two
// distinct secrets).
func NewSample(secrets Labels, obs Observations) (*Sample, error) {
	n := secrets.Len()
	if n == 0 {
		return nil, errors.New("secrets: empty sample (no secrets given)")
	}
	m := obs.Labels.Len()
	if obs.Vectors != nil {
		m, _ = obs.Vectors.Dims()
	}
	if m != n {
		return nil, argerr.New("observations", "%d observations for %d secrets (one per sample expected)", m, n)
	}
	s := &Sample{N: n}
	var err error
	if s.Secret, s.SecretNames, err = codeLabels("secrets", secrets); err != nil {
		return nil, err
	}
	if len(s.SecretNames) < 2 {
		return nil, argerr.New("secrets", "fewer than two distinct secrets (all are %q): nothing can leak", s.SecretNames[0])
	}
	if obs.Vectors == nil {
		if err := s.codeObservations(obs.Labels); err != nil {
			return nil, err
		}
		return s, nil
	}
	_, s.Dim = obs.Vectors.Dims()
	raw := obs.Vectors.RawMatrix()
	s.Vectors = make([]float64, n*s.Dim)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+s.Dim]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, argerr.New("observations", "row %d, column %d is %v, expected a finite number", i, j, v)
			}
		}
		copy(s.Vectors[i*s.Dim:], row)
	}
	return s, nil
}

// Discrete fills Obs and ObsNames for vector observations (a no-op for labels) and returns s.
func (s *Sample) Discrete() *Sample {
	if s.Obs == nil {
		s.Obs, s.ObsNames = codeVectors(s.Vectors, s.N, s.Dim)
	}
	return s
}

// codeObservations codes the observation labels like codeLabels, except that when more than
// n·MaxDistinctFraction of them are distinct — data the label estimators refuse — the sort of
// their names is put off until SortObservations asks for it: Obs codes them by first appearance
// and ObsNames holds empty names of the right number. Sorting 10⁶ distinct strings took half of
// the time of a call that then refused them; for coded strings (Labels.Codes) the names are not
// even fetched until then.
func (s *Sample) codeObservations(l Labels) error {
	if !l.Text() {
		var err error
		s.Obs, s.ObsNames, err = codeLabels("observations", l)
		return err
	}
	codes, distinct, err := firstCodesOf("observations", l)
	if err != nil {
		return err
	}
	s.Obs = codes
	d := len(distinct)
	if l.Codes != nil {
		d = distinctCodes(codes)
	}
	order := func() error {
		if distinct == nil {
			if distinct, err = codedNames("observations", l, d); err != nil {
				return err
			}
		}
		s.ObsNames, err = rankSortText("observations", codes, distinct)
		return err
	}
	if float64(d) > MaxDistinctFraction*float64(len(codes)) {
		s.ObsNames, s.obsOrder = make([]string, d), order
		return nil
	}
	return order()
}

// SortObservations puts the observation names in order (numbers numerically, strings by byte
// order, vectors lexicographically) and recodes Obs to match, if they are not already (see
// codeObservations). Every function of the package that reports observation names calls it; its
// error is that of coded labels whose names are malformed (see Labels).
func (s *Sample) SortObservations() error {
	s.Discrete()
	if s.obsOrder != nil {
		order := s.obsOrder
		s.obsOrder = nil
		return order()
	}
	return nil
}

// codeLabels maps labels to indices into their sorted distinct values.
func codeLabels(name string, l Labels) ([]int32, []string, error) {
	if l.Text() {
		codes, distinct, err := firstCodesOf(name, l)
		if err != nil {
			return nil, nil, err
		}
		if distinct == nil {
			if distinct, err = codedNames(name, l, distinctCodes(codes)); err != nil {
				return nil, nil, err
			}
		}
		names, err := rankSortText(name, codes, distinct)
		return codes, names, err
	}
	integral, lo, hi := true, math.Inf(1), math.Inf(-1)
	for i, v := range l.Numbers {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("%s: entry %d is %v, expected a finite number or a string", name, i, v)
		}
		integral = integral && v == math.Trunc(v)
		lo, hi = min(lo, v), max(hi, v)
	}
	if integral && hi-lo < float64(max(1<<16, 2*len(l.Numbers))) {
		return codeIntegers(l.Numbers, int(lo), int(hi))
	}
	codes, names, _ := codeOrdered(l.Numbers, func(a, b float64) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}, func(x float64) string {
		if x == 0 {
			return "0" // −0 and 0 are one label, as in JS
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	})
	return codes, names, nil
}

// firstCodesOf codes string labels by first appearance: Strings by a hash map, returning the
// distinct ones; Codes as given once checked (a copy, recoded later in place), with distinct nil
// (their names not fetched yet).
func firstCodesOf(name string, l Labels) ([]int32, []entry[string], error) {
	if l.Codes == nil {
		codes, distinct := firstCodes(l.Strings)
		return codes, distinct, nil
	}
	codes := make([]int32, len(l.Codes))
	next := int32(0)
	for i, c := range l.Codes {
		if c < 0 || c > next {
			return nil, nil, fmt.Errorf("%s: malformed coded labels: entry %d has code %d, but codes are numbered by first appearance (at most %d there)", name, i, c, next)
		}
		if c == next {
			next++
		}
		codes[i] = c
	}
	if l.Names == nil {
		return nil, nil, fmt.Errorf("%s: malformed coded labels: no names", name)
	}
	return codes, nil, nil
}

// distinctCodes is the number of distinct codes numbered by first appearance: the largest + 1.
func distinctCodes(codes []int32) int {
	m := int32(-1)
	for _, c := range codes {
		m = max(m, c)
	}
	return int(m) + 1
}

// codedNames fetches the d distinct names of coded labels, each with its code.
func codedNames(name string, l Labels, d int) ([]entry[string], error) {
	names, err := l.Names()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(names) != d {
		return nil, fmt.Errorf("%s: malformed coded labels: %d distinct codes but %d names", name, d, len(names))
	}
	out := make([]entry[string], d)
	for i, x := range names {
		out[i] = entry[string]{x, int32(i)}
	}
	return out, nil
}

// rankSortText is rankSort for strings (byte order, which is code-point order), refusing names
// given twice (coded labels whose codes do not tell them apart).
func rankSortText(name string, codes []int32, distinct []entry[string]) ([]string, error) {
	names := rankSort(codes, distinct, strings.Compare, func(x string) string { return x })
	for r := 1; r < len(names); r++ {
		if names[r] == names[r-1] {
			return nil, fmt.Errorf("%s: malformed coded labels: the name %q has two codes", name, names[r])
		}
	}
	return names, nil
}

// codeIntegers is codeLabels for integers in lo..hi, a range not much longer than the sample:
// an array indexed by value instead of a hash map (the usual case — indices, Int32Arrays — and
// ten times faster in WebAssembly).
func codeIntegers(vals []float64, lo, hi int) ([]int32, []string, error) {
	rank := make([]int32, hi-lo+1)
	for _, v := range vals {
		rank[int(v)-lo] = 1
	}
	var names []string
	for i, seen := range rank {
		if seen != 0 {
			rank[i] = int32(len(names))
			names = append(names, strconv.Itoa(i+lo))
		}
	}
	codes := make([]int32, len(vals))
	for i, v := range vals {
		codes[i] = rank[int(v)-lo]
	}
	return codes, names, nil
}

// codeOrdered codes values by the rank of their distinct value in cmp's order.
func codeOrdered[T comparable](vals []T, cmp func(a, b T) int, str func(T) string) ([]int32, []string, error) {
	codes, distinct := firstCodes(vals)
	return codes, rankSort(codes, distinct, cmp, str), nil
}

// entry is a distinct value and its code by first appearance.
type entry[T any] struct {
	v T
	c int32
}

// firstCodes codes values by first appearance (a hash map) and returns the distinct ones.
func firstCodes[T comparable](vals []T) ([]int32, []entry[T]) {
	first := make(map[T]int32)
	var distinct []entry[T]
	codes := make([]int32, len(vals))
	for i, v := range vals {
		c, ok := first[v]
		if !ok {
			c = int32(len(distinct))
			first[v] = c
			distinct = append(distinct, entry[T]{v, c})
		}
		codes[i] = c
	}
	return codes, distinct
}

// rankSort sorts the distinct values (each with its code beside it, so that a comparison reads
// both from the slice being sorted), recodes codes in place to their ranks and returns the names
// in order.
func rankSort[T any](codes []int32, distinct []entry[T], cmp func(a, b T) int, str func(T) string) []string {
	slices.SortFunc(distinct, func(a, b entry[T]) int { return cmp(a.v, b.v) })
	rank := make([]int32, len(distinct))
	names := make([]string, len(distinct))
	for r, e := range distinct {
		rank[e.c] = int32(r)
		names[r] = str(e.v)
	}
	for i, c := range codes {
		codes[i] = rank[c]
	}
	return names
}

// codeVectors codes the distinct vectors, ordered lexicographically by their coordinates; a
// vector's name is its coordinates in parentheses, "(0.5, 2)".
func codeVectors(v []float64, n, d int) ([]int32, []string) {
	key := make([]byte, 8*d)
	first := make(map[string]int32)
	var distinct []int // a sample holding each distinct vector
	codes := make([]int32, n)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x := v[i*d+j]
			if x == 0 {
				x = 0 // −0 and 0 are one observation
			}
			b := math.Float64bits(x)
			for k := 0; k < 8; k++ {
				key[8*j+k] = byte(b >> (8 * k))
			}
		}
		c, ok := first[string(key)]
		if !ok {
			c = int32(len(distinct))
			first[string(key)] = c
			distinct = append(distinct, i)
		}
		codes[i] = c
	}
	order := make([]int32, len(distinct))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return slices.Compare(v[distinct[a]*d:distinct[a]*d+d], v[distinct[b]*d:distinct[b]*d+d])
	})
	rank := make([]int32, len(distinct))
	names := make([]string, len(distinct))
	for r, c := range order {
		rank[c] = int32(r)
		parts := make([]string, d)
		for j := range parts {
			parts[j] = strconv.FormatFloat(v[distinct[c]*d+j]+0, 'g', -1, 64)
		}
		names[r] = "(" + strings.Join(parts, ", ") + ")"
	}
	for i, c := range codes {
		codes[i] = rank[c]
	}
	return codes, names
}
