package estimate

import (
	"encoding/binary"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/qif-toolkit/qif/core/argerr"
)

// How observations are read: as labels (names, equal or not) or as numbers (vectors compared by
// distance). KindAuto decides by the rule of ResolveKind.
const (
	KindAuto    = "auto"
	KindLabels  = "labels"
	KindNumbers = "numbers"
)

// ResolveKind decides how the observations are read and returns them in that form: labels
// (Observations.Labels) or numbers (Observations.Vectors, one row per sample). The rule of
// KindAuto: vectors are numbers; strings are labels; numbers that came from an integer typed
// array (integerArray) are labels; otherwise a column of numbers is read as numbers when any
// value is not an integer or when more than max(20, n/20) values are distinct — a timing or a
// score hardly repeats, while the codes of a discrete observation do — and as labels otherwise.
// KindLabels turns a one-column matrix into number labels (wider vectors stay vectors, each
// distinct vector one label); KindNumbers turns number labels into a one-column matrix and
// refuses strings.
func ResolveKind(kind string, obs Observations, integerArray bool) (Observations, string, error) {
	switch kind {
	case "", KindAuto:
		switch {
		case obs.Vectors != nil:
			return obs, KindNumbers, nil
		case obs.Labels.Text() || integerArray:
			return obs, KindLabels, nil
		case looksNumeric(obs.Labels.Numbers):
			return asVectors(obs.Labels.Numbers), KindNumbers, nil
		}
		return obs, KindLabels, nil
	case KindLabels:
		if obs.Vectors != nil {
			if _, c := obs.Vectors.Dims(); c == 1 {
				return Observations{Labels: Labels{Numbers: mat.Col(nil, 0, obs.Vectors)}}, KindLabels, nil
			}
		}
		return obs, KindLabels, nil
	case KindNumbers:
		if obs.Vectors != nil {
			return obs, KindNumbers, nil
		}
		if obs.Labels.Text() {
			return obs, "", argerr.New("observations", "kind 'numbers' asked, but the observations are strings (labels); give numbers, or kind 'labels'")
		}
		return asVectors(obs.Labels.Numbers), KindNumbers, nil
	}
	return obs, "", argerr.New("kind", "expected 'auto', 'labels' or 'numbers', got %q", kind)
}

// looksNumeric is the automatic rule for a plain column of numbers: any non-integer, or more
// than max(20, n/20) distinct values.
func looksNumeric(xs []float64) bool {
	limit := max(20, len(xs)/20)
	seen := make(map[float64]struct{}, min(len(xs), limit+1))
	for _, x := range xs {
		if x != math.Trunc(x) {
			return !math.IsInf(x, 0) // NaN and ±∞ are refused later, with their position
		}
		if len(seen) <= limit {
			seen[x+0] = struct{}{} // −0 and 0 are one value
		}
	}
	return len(seen) > limit
}

// asVectors makes a one-column matrix of a column of numbers (an empty column stays empty).
func asVectors(xs []float64) Observations {
	if len(xs) == 0 {
		return Observations{Labels: Labels{Numbers: xs}}
	}
	return Observations{Vectors: mat.NewDense(len(xs), 1, xs)}
}

// MaxDistinctFraction: label estimators give no verdict when more than n·MaxDistinctFraction
// observations are distinct.
const MaxDistinctFraction = 0.2

// MinRefusedDistinct: a sample with at most this many distinct observations is never refused (a
// handful of labels from a tiny sample is a small channel, not a continuous measurement).
const MinRefusedDistinct = 10

// RefuseDistinct is the guard of the label estimators (the frequentist channel, the plug-in MI
// and min-entropy leakage and their χ² and shuffle tests): when more than n/5 observations of s
// are distinct (and more than MinRefusedDistinct), the counts are mostly ones, the plug-in MI is near H(X) whether or not anything
// leaks and the shuffled copies look the same, so no verdict can be given. what names the
// estimator in the message ("the plug-in estimate").
func RefuseDistinct(what string, s *Sample) error {
	var d int
	if s.Obs == nil {
		// Vectors not coded yet: count them by hashing, which a refusal needs and coding (a sort
		// of the vectors with their names) does not — 10⁶ distinct timings took 0.76 s to code.
		d = distinctVectors(s.Vectors, s.N, s.Dim)
		if float64(d) <= MaxDistinctFraction*float64(s.N) || d <= MinRefusedDistinct {
			s.Discrete()
		}
	} else {
		d = len(s.ObsNames)
	}
	if float64(d) <= MaxDistinctFraction*float64(s.N) || d <= MinRefusedDistinct {
		return nil
	}
	return argerr.New("observations", "%s of the %s observations are distinct (more than n/5), too many for %s, which counts them as labels: "+
		"such counts cannot tell a leak from none; read them as numbers (kind: 'numbers', the nearest-neighbour estimators) or group them (bins: 'fd' or a number of bins)",
		thousands(d), thousands(s.N), what)
}

// distinctVectors is the number of distinct vectors among the n of dim coordinates in v (−0 and
// 0 equal, as they are to every comparison here).
func distinctVectors(v []float64, n, dim int) int {
	if dim == 1 {
		seen := make(map[uint64]struct{}, min(n, 1<<16))
		for _, x := range v[:n] {
			seen[math.Float64bits(x+0)] = struct{}{}
		}
		return len(seen)
	}
	seen := make(map[string]struct{}, min(n, 1<<16))
	key := make([]byte, 8*dim)
	for i := 0; i < n; i++ {
		for j, x := range v[i*dim : (i+1)*dim] {
			binary.LittleEndian.PutUint64(key[8*j:], math.Float64bits(x+0))
		}
		seen[string(key)] = struct{}{}
	}
	return len(seen)
}

// SecretWarnings are the warnings about the secret column: more than n/2 distinct secrets is
// what an observation column looks like (the columns are likely swapped).
func SecretWarnings(s *Sample) []string {
	if d := len(s.SecretNames); 2*d > s.N {
		return []string{fmt.Sprintf("secrets: %s distinct values in %s samples (more than half): this looks like an observation column — are the secret and observation columns swapped?", thousands(d), thousands(s.N))}
	}
	return nil
}

// thousands writes a count with thousands separators: 20000 as "20,000".
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
