package estimate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/qif-toolkit/qif/core/argerr"
)

func TestResolveKindRule(t *testing.T) {
	ints := func(n, distinct int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i % distinct)
		}
		return xs
	}
	nums := func(xs []float64) Observations { return Observations{Labels: Labels{Numbers: xs}} }
	cases := []struct {
		name    string
		obs     Observations
		integer bool
		want    string
	}{
		{"matrix", Observations{Vectors: mat.NewDense(3, 1, []float64{1, 2, 3})}, false, KindNumbers},
		{"strings", Observations{Labels: Labels{Strings: []string{"a", "b"}}}, false, KindLabels},
		{"integer typed array, all distinct", nums(ints(100, 100)), true, KindLabels},
		{"20 distinct integers of 100", nums(ints(100, 20)), false, KindLabels},
		{"21 distinct integers of 100", nums(ints(100, 21)), false, KindNumbers},
		{"50 distinct integers of 1000 (n/20)", nums(ints(1000, 50)), false, KindLabels},
		{"51 distinct integers of 1000", nums(ints(1000, 51)), false, KindNumbers},
		{"one non-integer", nums([]float64{0, 1, 0, 1, 0.5}), false, KindNumbers},
	}
	for _, c := range cases {
		got, kind, err := ResolveKind(KindAuto, c.obs, c.integer)
		if err != nil || kind != c.want {
			t.Errorf("%s: kind %q (%v), want %q", c.name, kind, err, c.want)
		}
		if (got.Vectors != nil) != (kind == KindNumbers) {
			t.Errorf("%s: kind %q but vectors %v", c.name, kind, got.Vectors != nil)
		}
	}
	// Overrides.
	got, kind, _ := ResolveKind(KindLabels, Observations{Vectors: mat.NewDense(3, 1, []float64{1.5, 2, 1.5})}, false)
	if kind != KindLabels || got.Vectors != nil || len(got.Labels.Numbers) != 3 {
		t.Errorf("labels of a column: %q %+v", kind, got)
	}
	if _, kind, _ = ResolveKind(KindNumbers, nums([]float64{1, 2, 1}), true); kind != KindNumbers {
		t.Errorf("numbers override: %q", kind)
	}
	var ae *argerr.Error
	if _, _, err := ResolveKind(KindNumbers, Observations{Labels: Labels{Strings: []string{"a"}}}, false); !errors.As(err, &ae) || ae.Arg != "observations" {
		t.Errorf("numbers of strings: %v", err)
	}
	if _, _, err := ResolveKind("count", nums([]float64{1}), false); !errors.As(err, &ae) || ae.Arg != "kind" {
		t.Errorf("unknown kind: %v", err)
	}
}

func labelSample(t *testing.T, secrets, obs []float64) *Sample {
	s, err := NewSample(Labels{Numbers: secrets}, Observations{Labels: Labels{Numbers: obs}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRefuseDistinctAndSecretWarning(t *testing.T) {
	n := 100
	sec, obs := make([]float64, n), make([]float64, n)
	for i := range sec {
		sec[i] = float64(i % 2)
	}
	for _, c := range []struct {
		distinct int
		refused  bool
	}{{20, false}, {21, true}, {100, true}} {
		for i := range obs {
			obs[i] = float64(i % c.distinct)
		}
		err := RefuseDistinct("the plug-in estimate", labelSample(t, sec, obs))
		if (err != nil) != c.refused {
			t.Errorf("%d distinct of %d: %v", c.distinct, n, err)
		}
		if err != nil && (!strings.Contains(err.Error(), "of the 100 observations are distinct") || !strings.Contains(err.Error(), "bins") || !strings.Contains(err.Error(), "kind: 'numbers'")) {
			t.Errorf("message: %v", err)
		}
	}
	// A tiny sample with a few labels is a small channel, not refused.
	if err := RefuseDistinct("x", labelSample(t, []float64{0, 1, 0, 1, 0}, []float64{0, 1, 2, 3, 4})); err != nil {
		t.Errorf("5 samples, 5 labels: %v", err)
	}
	// Secrets: more than n/2 distinct is a warning.
	many := make([]float64, n)
	for i := range many {
		many[i] = float64(i % 51)
	}
	if w := SecretWarnings(labelSample(t, many, sec)); len(w) != 1 || !strings.Contains(w[0], "swapped") {
		t.Errorf("51 secrets of 100: %v", w)
	}
	for i := range many {
		many[i] = float64(i % 50)
	}
	if w := SecretWarnings(labelSample(t, many, sec)); len(w) != 0 {
		t.Errorf("50 secrets of 100: %v", w)
	}
}

func TestBins(t *testing.T) {
	vec := func(xs ...float64) *Sample {
		sec := make([]float64, len(xs))
		for i := range sec {
			sec[i] = float64(i % 2)
		}
		s, err := NewSample(Labels{Numbers: sec}, Observations{Vectors: mat.NewDense(len(xs), 1, xs)})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := vec(0, 1, 2, 3, 4, 5, 6, 7, 8, 2)
	b, edges, err := Bin(s, Binning{Count: 4})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0, 2, 4, 6, 8}; !equalFloats(edges[0], want) {
		t.Errorf("equal width edges %v, want %v", edges[0], want)
	}
	// Bins [0,2) [2,4) [4,6) [6,8]: 0 1 | 2 3 2 | 4 5 | 6 7 8.
	wantBin := []int{0, 0, 1, 1, 2, 2, 3, 3, 3, 1}
	for i, w := range wantBin {
		if int(b.Obs[i]) != w {
			t.Errorf("value %v in bin %d, want %d", s.Vectors[i], b.Obs[i], w)
		}
	}
	if b.ObsNames[0] != "[0, 2)" || b.ObsNames[3] != "[6, 8]" {
		t.Errorf("names %v", b.ObsNames)
	}
	// Explicit edges: values beyond them go to the end bins.
	b, _, err = Bin(vec(-5, 0.5, 1.5, 9), Binning{Edges: []float64{0, 1, 2}})
	if err != nil || b.Obs[0] != 0 || b.Obs[1] != 0 || b.Obs[2] != 1 || b.Obs[3] != 1 {
		t.Errorf("explicit edges: %v %v", b, err)
	}
	var ae *argerr.Error
	if _, _, err := Bin(s, Binning{Edges: []float64{0, 2, 2}}); !errors.As(err, &ae) || ae.Arg != "bins" {
		t.Errorf("non-increasing edges: %v", err)
	}
	// Freedman–Diaconis on 0..999: IQR = 499.5 (interpolated quartiles 249.75, 749.25), width
	// 2·499.5/10 = 99.9, range 999: ⌈999/99.9⌉ = 10 bins.
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(i)
	}
	if _, edges, err := Bin(vec(xs...), Binning{FD: true}); err != nil || len(edges[0]) != 11 {
		t.Errorf("fd: %d edges, %v", len(edges[0]), err)
	}
	// Labels cannot be binned.
	if _, _, err := Bin(labelSample(t, []float64{0, 1}, []float64{1, 2}), Binning{Count: 2}); !errors.As(err, &ae) || ae.Arg != "bins" {
		t.Errorf("bins of labels: %v", err)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestNNMIBadInput(t *testing.T) {
	m := mixture{prior: []float64{0.5, 0.5}, mean: [][]float64{{0}, {1}}, scale: 1}
	s := numericSample(t, m, 200, 1)
	var ae *argerr.Error
	// A secret with 6 samples: fewer than 2k+1 = 7 for k = 3.
	sec := make([]float64, 0, 206)
	for _, x := range s.Secret {
		sec = append(sec, float64(x))
	}
	vals := append([]float64(nil), s.Vectors...)
	for i := 0; i < 6; i++ {
		sec, vals = append(sec, 2), append(vals, float64(i))
	}
	few, err := NewSample(Labels{Numbers: sec}, Observations{Vectors: mat.NewDense(len(vals), 1, vals)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NearestNeighbourMI(few, NNMIOptions{}); !errors.As(err, &ae) || ae.Arg != "secrets" || !strings.Contains(err.Error(), "2k+1 = 7") {
		t.Errorf("few samples of a secret: %v", err)
	}
	if _, err := NearestNeighbourMI(few, NNMIOptions{K: 2}); err != nil {
		t.Errorf("k = 2 needs 5: %v", err)
	}
	if _, err := NearestNeighbourMI(labelSample(t, []float64{0, 1}, []float64{0, 1}), NNMIOptions{}); !errors.As(err, &ae) || ae.Arg != "observations" {
		t.Errorf("labels: %v", err)
	}
	if _, err := NearestNeighbourMI(s, NNMIOptions{Confidence: 1}); !errors.As(err, &ae) || ae.Arg != "confidence" {
		t.Errorf("confidence 1: %v", err)
	}
	// Shuffles asked beyond the budget are lowered: 2·10⁷/n for one dimension (here 10⁵).
	if r, err := NearestNeighbourMI(s, NNMIOptions{Shuffles: 1_000_000, Progress: func(done, total int) bool { return done < 200*2 }}); r == nil || r.Shuffles != 10_000 || !errors.Is(err, ErrCancelled) {
		t.Errorf("shuffles capped at 10,000: %+v %v", r, err)
	}
	// Cancelled after the first estimate: the value, with ErrCancelled.
	r, err := NearestNeighbourMI(s, NNMIOptions{Progress: func(done, total int) bool { return false }})
	if !errors.Is(err, ErrCancelled) || r == nil || r.Value != r.Value {
		t.Errorf("cancel: %v %v", r, err)
	}
}

// Student's t quantiles against printed tables: t_{0.975, 9} = 2.262, t_{0.95, 29} = 1.699.
func TestTQuantile(t *testing.T) {
	for _, c := range []struct {
		p    float64
		df   int
		want float64
	}{{0.975, 9, 2.2622}, {0.95, 29, 1.6991}, {0.975, 1, 12.706}, {0.975, 1000, 1.9623}} {
		if got := tQuantile(c.p, c.df); got < c.want-2e-4*c.want || got > c.want+2e-4*c.want {
			t.Errorf("t(%v, %d) = %v, want %v", c.p, c.df, got, c.want)
		}
	}
}

// Observations at ±1e308, whose distances overflow to +Inf: every numeric estimator answers (no
// index out of range), and equal-width bins still have finite increasing edges.
func TestHugeObservations(t *testing.T) {
	r := newRand(1)
	n := 400
	sec, v := make([]float64, n), make([]float64, n)
	for i := range v {
		sec[i], v[i] = float64(i%2), 1e308
		if r.Float64() < 0.5 {
			v[i] = -1e308
		}
	}
	s, err := NewSample(Labels{Numbers: sec}, Observations{Vectors: mat.NewDense(n, 1, v)})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(0); seed < 20; seed++ {
		if _, err := BayesRisk(s, BayesRiskOptions{Seed: seed}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := NearestNeighbourMI(s, NNMIOptions{Shuffles: 10}); err != nil {
		t.Fatal(err)
	}
	_, edges, err := Bin(s, Binning{Count: 4})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range edges[0] {
		if math.IsNaN(e) || math.IsInf(e, 0) || (i > 0 && !(e > edges[0][i-1])) {
			t.Errorf("edges %v", edges[0])
		}
	}
}

// Without shuffles the NN estimator still says whether it leaks: from its interval.
func TestNNMIWithoutShuffles(t *testing.T) {
	m := mixture{prior: []float64{0.5, 0.5}, mean: [][]float64{{0}, {3}}, scale: 1}
	r, err := NearestNeighbourMI(numericSample(t, m, 2000, 3), NNMIOptions{Shuffles: -1})
	if err != nil || !r.Leaks || !(r.Lower > 0) {
		t.Errorf("separated Gaussians without shuffles: %+v %v", r, err)
	}
	m.mean[1][0] = 0
	r, err = NearestNeighbourMI(numericSample(t, m, 2000, 3), NNMIOptions{Shuffles: -1})
	if err != nil || r.Leaks != (r.Lower > 0) {
		t.Errorf("independent without shuffles: %+v %v", r, err)
	}
}

// The tree of the whole sample is built once and serves the shuffled copies: the estimate of a
// shuffle is the same as from a fresh copy of the observations (a fresh tree).
func TestNNMISharedTree(t *testing.T) {
	m := mixture{prior: []float64{0.5, 0.3, 0.2}, mean: [][]float64{{0, 0}, {1, 0}, {0, 1}}, scale: 1}
	s := numericSample(t, m, 600, 9)
	d := newRossData(s, 3)
	first := d.estimate(d.v, d.sec)
	sec := append([]int32(nil), d.sec...)
	r := newRand(2)
	for j := len(sec) - 1; j > 0; j-- {
		l := r.IntN(j + 1)
		sec[j], sec[l] = sec[l], sec[j]
	}
	shared := d.estimate(d.v, sec)
	fresh := d.estimate(append([]float64(nil), d.v...), sec)
	if shared != fresh || first != d.estimate(append([]float64(nil), d.v...), d.sec) {
		t.Errorf("shared tree %v, fresh %v", shared, fresh)
	}
}

// distinctVectors, which the refusal counts with, agrees with the coding of the vectors (their
// names) on samples with repeats, −0 and 0, in one and three coordinates.
func TestDistinctVectorsAgreesWithCoding(t *testing.T) {
	r := newRand(17)
	for _, dim := range []int{1, 3} {
		for trial := 0; trial < 20; trial++ {
			n := 1 + r.IntN(200)
			v := make([]float64, n*dim)
			for i := range v {
				v[i] = float64(r.IntN(4)) - 1.5
				if r.IntN(10) == 0 {
					v[i] = math.Copysign(0, -1)
				} else if r.IntN(10) == 0 {
					v[i] = 0
				}
			}
			_, names := codeVectors(v, n, dim)
			if got := distinctVectors(v, n, dim); got != len(names) {
				t.Fatalf("dim %d, n %d: %d distinct by hashing, %d by coding", dim, n, got, len(names))
			}
		}
	}
}
