package estimate

import (
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/qif-toolkit/qif/core/argerr"
)

// MaxBins bounds the number of bins of one observation column.
const MaxBins = 100_000

// Binning says how numeric observations are grouped into labels: Count equal-width bins between
// each column's smallest and largest value, the Freedman–Diaconis rule (FD), or the explicit
// increasing Edges (the same for every column). Exactly one is set.
type Binning struct {
	Count int
	FD    bool
	Edges []float64
}

// Bin groups the numeric observations of s (Vectors) into bins, column by column, and returns the
// sample whose observations are the bins (a label per tuple of bin indices, named "[a, b)" for one
// column) with the edges used for each column. Values below the first edge fall in the first bin
// and values above the last in the last one (explicit edges); the last bin is closed. Binning is
// a function of the observation, so by the data-processing inequality the binned MI and
// min-entropy leakage are at most those of the unbinned observations.
func Bin(s *Sample, b Binning) (*Sample, [][]float64, error) {
	if s.Vectors == nil {
		return nil, nil, argerr.New("bins", "bins group numeric observations, but these are read as labels (kind: 'numbers' reads numbers)")
	}
	edges := make([][]float64, s.Dim)
	col := make([]float64, s.N)
	idx := make([]float64, s.N*s.Dim)
	for j := 0; j < s.Dim; j++ {
		for i := range col {
			col[i] = s.Vectors[i*s.Dim+j]
		}
		e, err := edgesOf(col, b)
		if err != nil {
			return nil, nil, err
		}
		edges[j] = e
		for i, v := range col {
			// The bin of v: the last edge ≤ v, within 0..len(e)−2.
			k := sort.SearchFloat64s(e, v)
			if k < len(e) && e[k] == v {
				k++
			}
			idx[i*s.Dim+j] = float64(min(max(k-1, 0), len(e)-2))
		}
	}
	out := &Sample{N: s.N, Secret: s.Secret, SecretNames: s.SecretNames}
	var names []string
	out.Obs, names = codeVectors(idx, s.N, s.Dim)
	if s.Dim == 1 {
		e := edges[0]
		for i, nm := range names {
			var k int
			for _, r := range nm[1 : len(nm)-1] {
				k = 10*k + int(r-'0')
			}
			close := ")"
			if k == len(e)-2 {
				close = "]"
			}
			names[i] = "[" + fmtNum(e[k]) + ", " + fmtNum(e[k+1]) + close
		}
	}
	out.ObsNames = names
	return out, edges, nil
}

// edgesOf computes the edges of one column.
func edgesOf(col []float64, b Binning) ([]float64, error) {
	if b.Edges != nil {
		if len(b.Edges) < 2 {
			return nil, argerr.New("bins", "expected at least 2 edges, got %d", len(b.Edges))
		}
		for i, e := range b.Edges {
			if math.IsNaN(e) || math.IsInf(e, 0) {
				return nil, argerr.New("bins", "edge %d is %v, expected a finite number", i, e)
			}
			if i > 0 && !(e > b.Edges[i-1]) {
				return nil, argerr.New("bins", "edges must increase, but edge %d (%v) is not above edge %d (%v)", i, e, i-1, b.Edges[i-1])
			}
		}
		return slices.Clone(b.Edges), nil
	}
	lo, hi := slices.Min(col), slices.Max(col)
	count := b.Count
	if b.FD {
		count = fdCount(col, lo, hi)
	}
	if count < 1 || count > MaxBins {
		return nil, argerr.New("bins", "expected between 1 and %d bins, got %d", MaxBins, count)
	}
	if hi == lo {
		return []float64{lo, lo + 1}, nil // one value: one bin
	}
	e := make([]float64, count+1)
	for i := range e {
		t := float64(i) / float64(count)
		e[i] = lo + (hi-lo)*t
		if math.IsInf(hi-lo, 0) { // a range beyond the floats: interpolate without the difference
			e[i] = lo*(1-t) + hi*t
		}
	}
	e[count] = hi
	return e, nil
}

// fdCount is the Freedman–Diaconis number of bins: width 2·IQR·n^(−1/3) (Freedman and Diaconis,
// "On the histogram as a density estimator: L2 theory", 1981); Sturges' ⌈log₂ n⌉ + 1 when the
// interquartile range is 0; at most MaxBins.
func fdCount(col []float64, lo, hi float64) int {
	s := slices.Clone(col)
	slices.Sort(s)
	iqr := quantileSorted(s, 0.75) - quantileSorted(s, 0.25)
	n := float64(len(s))
	if iqr <= 0 || hi == lo {
		return int(math.Ceil(math.Log2(n))) + 1
	}
	w := 2 * iqr / math.Cbrt(n)
	return int(min(MaxBins, math.Max(1, math.Ceil((hi-lo)/w))))
}

// quantileSorted is the p-quantile of sorted values, by linear interpolation between order
// statistics.
func quantileSorted(s []float64, p float64) float64 {
	h := p * float64(len(s)-1)
	i := int(h)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

// fmtNum writes an edge with 6 significant digits.
func fmtNum(x float64) string { return strconv.FormatFloat(x+0, 'g', 6, 64) }
