package estimate

import (
	"fmt"
	"math"
	"slices"

	"github.com/qif-toolkit/qif/core/argerr"
)

// Defaults of LeakageOptions.
const (
	DefaultConfidence = 0.95
	DefaultShuffles   = 100
	DefaultBootstrap  = 500
)

// Bounds on the zero-leakage test's work: at most MaxShuffles shuffled copies, and at most
// MaxShuffledSamples shuffled samples in all (each copy costs O(n)); a Shuffles option above
// either is lowered to it, and MIResult.Shuffles says how many were used.
const (
	MaxShuffles        = 10_000
	MaxShuffledSamples = 20_000_000
)

// LeakageOptions tunes MutualInformation and MinEntropyLeakage; the zero value means the defaults.
type LeakageOptions struct {
	// Confidence is the level of the interval and of the zero-leakage test (default 0.95).
	Confidence float64
	// Shuffles is the number of shuffled copies of the data for the zero-leakage test (MI only;
	// negative: none; 0: DefaultShuffles, fewer for large samples — see ShufflesFor; at most
	// MaxShuffles and MaxShuffledSamples/n).
	Shuffles int
	// Bootstrap is the number of bootstrap replicates of the interval (default 500; fewer for
	// tables of many non-empty cells, see maxBootstrapDraws).
	Bootstrap int
	// Seed makes the shuffles, the bootstrap and the held-out split reproducible.
	Seed uint64
	// Progress, when set, is called with the work done and the total (shuffled copies and
	// bootstrap replicates); returning false cancels, and the call returns ErrCancelled.
	Progress func(done, total int) bool

	design design // the interval's construction (the tests compare the designs)
}

func (o *LeakageOptions) fill() error {
	if o.Confidence == 0 {
		o.Confidence = DefaultConfidence
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return argerr.New("confidence", "expected a number strictly between 0 and 1, got %v", o.Confidence)
	}
	if o.Bootstrap == 0 {
		o.Bootstrap = DefaultBootstrap
	}
	if o.Bootstrap < 20 {
		return argerr.New("bootstrap", "expected at least 20 replicates, got %d", o.Bootstrap)
	}
	return nil
}

// MIResult is the outcome of MutualInformation; every value is in bits.
type MIResult struct {
	// Value is the plug-in estimate Î = I(X;Y) of the frequentist channel and prior.
	Value float64
	// Corrected is Î − (|X̂|−1)(|Ô|−1)/(2n ln 2), the first-order bias correction.
	Corrected float64
	// Lower and Upper bound the confidence interval: the union of the bootstrap intervals of Î
	// and of the corrected estimate (see the package doc, "Intervals and what they cover").
	Lower, Upper float64
	// ChiSquareThreshold is the confidence-level quantile of χ² with DegreesOfFreedom degrees,
	// divided by 2n ln 2: what Î stays below, with that probability, when nothing leaks.
	ChiSquareThreshold float64
	// ShuffleThreshold is the confidence-level quantile of Î over the shuffled copies (0 when
	// there are none).
	ShuffleThreshold float64
	// ZeroLeakageThreshold is the larger of the two thresholds.
	ZeroLeakageThreshold float64
	// Leaks reports Value > ZeroLeakageThreshold: the data reject "no leakage" by both tests.
	Leaks bool
	// DegreesOfFreedom is (|X̂|−1)(|Ô|−1).
	DegreesOfFreedom int
	// Shuffles is the number of shuffled copies used (after the caps).
	Shuffles int
	// Warnings say where the estimate is weak: a sparse table (see SparseTable).
	Warnings []string
}

// MutualInformation estimates I(X;Y) in bits from a sample (see the package doc): the plug-in
// estimate, its first-order correction, a zero-leakage test and a confidence interval.
func MutualInformation(s *Sample, opt LeakageOptions) (*MIResult, error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	t, err := leakageTable(s)
	if err != nil {
		return nil, err
	}
	switch {
	case opt.Shuffles == 0:
		opt.Shuffles = ShufflesFor(t.n)
	case opt.Shuffles < 0:
		opt.Shuffles = 0
	}
	asked := opt.Shuffles
	opt.Shuffles = min(opt.Shuffles, MaxShuffles, max(10, MaxShuffledSamples/max(t.n, 1)))
	rng := newRand(opt.Seed)
	r := &MIResult{Value: mutualInformation(t), Shuffles: opt.Shuffles}
	if asked > opt.Shuffles {
		r.Warnings = append(r.Warnings, fmt.Sprintf("shuffles: %d asked, %d used (at most %d, and %d shuffled samples in all)", asked, opt.Shuffles, MaxShuffles, MaxShuffledSamples))
	}
	r.DegreesOfFreedom = (t.rows - 1) * (t.cols - 1)
	r.Corrected = correctedMI(t)
	r.ChiSquareThreshold = chiSquareThreshold(r.DegreesOfFreedom, opt.Confidence, t.n)
	w := &work{progress: opt.Progress, total: opt.Shuffles + bootstrapReplicates(t, opt.Bootstrap)}
	if opt.Shuffles > 0 {
		if r.ShuffleThreshold, err = shuffleQuantile(s, t, opt.Shuffles, opt.Confidence, rng, w); err != nil {
			return nil, err
		}
	}
	r.ZeroLeakageThreshold = math.Max(r.ChiSquareThreshold, r.ShuffleThreshold)
	r.Leaks = r.Value > r.ZeroLeakageThreshold
	if r.Lower, r.Upper, err = miInterval(t, r.Value, r.Corrected, !r.Leaks, opt, rng, w); err != nil {
		return nil, err
	}
	r.Warnings = append(r.Warnings, sparseWarning(t)...)
	return r, nil
}

// ShufflesFor is the default number of shuffles for n samples: DefaultShuffles, but no more than
// 2·10⁷ shuffled samples in all (and at least 10), since each shuffle costs O(n) — 20 shuffles
// for 10⁶ samples. For large n the χ² approximation that the shuffles check is accurate anyway.
func ShufflesFor(n int) int { return min(DefaultShuffles, max(10, 20_000_000/max(n, 1))) }

// Bounds on the bootstrap's work: at most maxBootstrapDraws random numbers in all (fewer
// replicates for large tables, but never fewer than minBootstrap), and no plug-in estimate at all
// of a table with more than MaxLeakageCells non-empty cells.
const (
	maxBootstrapDraws = 20_000_000
	minBootstrap      = 100
	// MaxLeakageCells bounds the non-empty cells of the count table of MutualInformation and
	// MinEntropyLeakage. Beyond it the observations hardly repeat (continuous measurements), the
	// plug-in estimates say little, and the bootstrap would take minutes.
	MaxLeakageCells = 200_000
)

// bootstrapReplicates is the number of replicates drawn for a table: b, fewer for large ones.
func bootstrapReplicates(t *table, b int) int {
	if c := drawCost(t); c*b > maxBootstrapDraws {
		b = max(minBootstrap, maxBootstrapDraws/c)
	}
	return b
}

// leakageTable is the count table of a plug-in estimate, refused when it is too sparse.
func leakageTable(s *Sample) (*table, error) {
	t := counts(s)
	if c := len(t.cnt); c > MaxLeakageCells {
		return nil, argerr.New("observations", "%d distinct (secret, observation) pairs among %d samples, more than the limit of %d: plug-in estimates need observations that repeat (bin continuous measurements, or use the Bayes risk with the nn or knn rule)", c, t.n, MaxLeakageCells)
	}
	t.xlnx = xlnxTable(t.n)
	return t, nil
}

// SparseTable is the fewest samples per cell of the table |X̂|×|Ô| below which the plug-in
// estimates are flagged: there their bias is of the order of the estimate and the intervals,
// which allow for it, are wide (the χ² rule of thumb asks for 5 per cell).
const SparseTable = 5

// sparseWarning is the warning of a table with fewer than SparseTable samples per cell.
func sparseWarning(t *table) []string {
	cells := float64(t.rows) * float64(t.cols)
	if float64(t.n) >= SparseTable*cells {
		return nil
	}
	return []string{fmt.Sprintf("sparse table: %d samples for %d secrets × %d observations (%.2g per cell, fewer than %d): the plug-in estimate is biased here by as much as it measures, and the interval is wide to allow for it; more samples, or fewer observations (bins), narrow it",
		t.n, t.rows, t.cols, float64(t.n)/cells, SparseTable)}
}

// LeakageResult is an estimate with its confidence interval, in bits.
type LeakageResult struct {
	Value, Lower, Upper float64
	// Warnings say where the estimate is weak: a sparse table (see SparseTable).
	Warnings []string
}

// MinEntropyLeakage estimates I∞ = log₂(V[π▷C]/V(π)) in bits from a sample: the plug-in
// estimate log₂(Σ_o max_x count(x, o) / max_x count(x)) and a confidence interval from
// finite-sample bounds on the two vulnerabilities (see the package doc; its lower end is 0
// when the χ² zero-leakage test does not reject).
func MinEntropyLeakage(s *Sample, opt LeakageOptions) (*LeakageResult, error) {
	if err := opt.fill(); err != nil {
		return nil, err
	}
	t, err := leakageTable(s)
	if err != nil {
		return nil, err
	}
	rng := newRand(opt.Seed)
	v := minEntropyLeakage(t)
	independent := mutualInformation(t) <= chiSquareThreshold((t.rows-1)*(t.cols-1), opt.Confidence, t.n)
	var lo, hi float64
	if opt.design == designPlugin {
		w := &work{progress: opt.Progress, total: bootstrapReplicates(t, opt.Bootstrap)}
		reps, err := bootstrap(t, bootstrapReplicates(t, opt.Bootstrap), rng, w, minEntropyLeakage)
		if err != nil {
			return nil, err
		}
		lo, hi = basicPercentile(v, reps[0], opt.Confidence)
	} else {
		lo, hi = meBounds(t, opt.Confidence, rng)
	}
	if independent {
		lo = 0
	}
	lo = math.Max(0, lo)
	return &LeakageResult{Value: v, Lower: lo, Upper: math.Max(hi, lo), Warnings: sparseWarning(t)}, nil
}

// mutualInformation is the plug-in I(X;Y) of a count table, in bits, clamped at 0 (rounding):
// (Σ_xo c·ln c − Σ_x r·ln r − Σ_o k·ln k + n·ln n)/n over the cell counts c, row sums r and
// column sums k, with c·ln c read from t.xlnx (counts are integers) when the table has it.
func mutualInformation(t *table) float64 {
	n := float64(t.n)
	f := t.xlnx
	xl := func(c float64) float64 {
		if int(c) < len(f) {
			return f[int(c)]
		}
		if c <= 0 {
			return 0
		}
		return c * math.Log(c)
	}
	s := xl(n)
	for _, c := range t.cnt {
		s += xl(c)
	}
	for _, r := range t.row {
		s -= xl(r)
	}
	for _, k := range t.col {
		s -= xl(k)
	}
	return math.Max(0, s/n*math.Log2E)
}

// xlnxTable is c·ln c for c = 0..n (0 for c = 0).
func xlnxTable(n int) []float64 {
	f := make([]float64, n+1)
	for c := 1; c <= n; c++ {
		x := float64(c)
		f[c] = x * math.Log(x)
	}
	return f
}

// correctedMI is Î − (|X̂|−1)(|Ô|−1)/(2n ln 2), |X̂| and |Ô| the secrets and observations of t
// with a positive count (a resampled table may miss some).
func correctedMI(t *table) float64 {
	return mutualInformation(t) - float64((positive(t.row)-1)*(positive(t.col)-1))/(2*float64(t.n)*math.Ln2)
}

// positive is the number of positive entries of v.
func positive(v []float64) int {
	k := 0
	for _, x := range v {
		if x > 0 {
			k++
		}
	}
	return k
}

// minEntropyLeakage is the plug-in min-entropy leakage of a count table, in bits.
func minEntropyLeakage(t *table) float64 {
	return math.Max(0, math.Log2(posteriorSuccesses(t)/slices.Max(t.row)))
}

// ChiSquareQuantile returns the p-quantile of the χ² distribution with dof degrees of freedom
// (0 for dof = 0, the point mass at 0).
func ChiSquareQuantile(p float64, dof int) float64 {
	if dof <= 0 {
		return 0
	}
	return chiSquareQuantile(p, dof)
}

// chiSquareThreshold is the zero-leakage threshold of Î in bits: 2n·ln2·Î is approximately χ²
// with dof degrees of freedom when nothing leaks.
func chiSquareThreshold(dof int, confidence float64, n int) float64 {
	return ChiSquareQuantile(confidence, dof) / (2 * float64(n) * math.Ln2)
}

// quantile is the p-quantile of vals (sorted in place) by linear interpolation between order
// statistics.
func quantile(vals []float64, p float64) float64 {
	slices.Sort(vals)
	h := p * float64(len(vals)-1)
	i := int(h)
	if i >= len(vals)-1 {
		return vals[len(vals)-1]
	}
	return vals[i] + (h-float64(i))*(vals[i+1]-vals[i])
}
