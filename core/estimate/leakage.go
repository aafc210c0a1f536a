package estimate

import (
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

// LeakageOptions tunes MutualInformation and MinEntropyLeakage; the zero value means the defaults.
type LeakageOptions struct {
	// Confidence is the level of the interval and of the zero-leakage test (default 0.95).
	Confidence float64
	// Shuffles is the number of shuffled copies of the data for the zero-leakage test (MI only;
	// negative: none; 0: DefaultShuffles, fewer for large samples — see ShufflesFor).
	Shuffles int
	// Bootstrap is the number of bootstrap replicates of the interval (default 500).
	Bootstrap int
	// Seed makes the shuffles and the bootstrap reproducible.
	Seed uint64

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
	// Lower and Upper bound the confidence interval (see the package doc).
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
	rng := newRand(opt.Seed)
	r := &MIResult{Value: mutualInformation(t)}
	r.DegreesOfFreedom = (t.rows - 1) * (t.cols - 1)
	bias := float64(r.DegreesOfFreedom) / (2 * float64(t.n) * math.Ln2)
	r.Corrected = r.Value - bias
	r.ChiSquareThreshold = chiSquareThreshold(r.DegreesOfFreedom, opt.Confidence, t.n)
	if opt.Shuffles > 0 {
		r.ShuffleThreshold = shuffleQuantile(s, t, opt.Shuffles, opt.Confidence, rng)
	}
	r.ZeroLeakageThreshold = math.Max(r.ChiSquareThreshold, r.ShuffleThreshold)
	r.Leaks = r.Value > r.ZeroLeakageThreshold
	r.Lower, r.Upper = bootstrapInterval(t, mutualInformation, r.Value, !r.Leaks, opt, rng)
	return r, nil
}

// ShufflesFor is the default number of shuffles for n samples: DefaultShuffles, but no more than
// 2·10⁷ shuffled samples in all (and at least 10), since each shuffle costs O(n) — 20 shuffles
// for 10⁶ samples. For large n the χ² approximation that the shuffles check is accurate anyway.
func ShufflesFor(n int) int { return min(DefaultShuffles, max(10, 20_000_000/max(n, 1))) }

// Bounds on the bootstrap's work: at most maxBootstrapDraws binomial draws in all (fewer replicates
// for tables with many non-empty cells, but never fewer than minBootstrap), and no plug-in
// estimate at all of a table with more than MaxLeakageCells non-empty cells.
const (
	maxBootstrapDraws = 20_000_000
	minBootstrap      = 100
	// MaxLeakageCells bounds the non-empty cells of the count table of MutualInformation and
	// MinEntropyLeakage. Beyond it the observations hardly repeat (continuous measurements), the
	// plug-in estimates say little, and the bootstrap would take minutes.
	MaxLeakageCells = 200_000
)

// leakageTable is the count table of a plug-in estimate, refused when it is too sparse.
func leakageTable(s *Sample) (*table, error) {
	t, err := counts(s)
	if err != nil {
		return nil, err
	}
	if c := t.nonEmpty(); c > MaxLeakageCells {
		return nil, argerr.New("observations", "%d distinct (secret, observation) pairs among %d samples, more than the limit of %d: plug-in estimates need observations that repeat (bin continuous measurements, or use the Bayes risk with the nn or knn rule)", c, t.n, MaxLeakageCells)
	}
	return t, nil
}

// nonEmpty is the number of cells with a positive count.
func (t *table) nonEmpty() int {
	c := 0
	for _, v := range t.cell {
		if v > 0 {
			c++
		}
	}
	return c
}

// LeakageResult is an estimate with its confidence interval, in bits.
type LeakageResult struct {
	Value, Lower, Upper float64
}

// MinEntropyLeakage estimates I∞ = log₂(V[π▷C]/V(π)) in bits from a sample: the plug-in
// estimate log₂(Σ_o max_x count(x, o) / max_x count(x)) and a confidence interval (see the package
// doc; the zero-leakage test it uses is the χ² one, without shuffles).
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
	lo, hi := bootstrapInterval(t, minEntropyLeakage, v, independent, opt, rng)
	return &LeakageResult{Value: v, Lower: lo, Upper: hi}, nil
}

// mutualInformation is the plug-in I(X;Y) of a count table, in bits, clamped at 0 (rounding).
func mutualInformation(t *table) float64 {
	n := float64(t.n)
	s := 0.0
	for x := 0; x < t.rows; x++ {
		if t.row[x] == 0 {
			continue
		}
		for o, c := range t.cell[x*t.cols : (x+1)*t.cols] {
			if c > 0 {
				s += c * math.Log(c*n/(t.row[x]*t.col[o]))
			}
		}
	}
	return math.Max(0, s/n*math.Log2E)
}

// minEntropyLeakage is the plug-in min-entropy leakage of a count table, in bits.
func minEntropyLeakage(t *table) float64 {
	post := 0.0
	for o := 0; o < t.cols; o++ {
		m := 0.0
		for x := 0; x < t.rows; x++ {
			m = math.Max(m, t.cell[x*t.cols+o])
		}
		post += m
	}
	return math.Max(0, math.Log2(post/slices.Max(t.row)))
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

// shuffleQuantile is the confidence-level quantile of Î over k copies of the sample with the
// secrets permuted against the observations (which keeps both margins and breaks any relation).
// Only the count table of a permuted copy matters, so with few secrets it is drawn without
// permuting anything: each observation in turn takes a secret drawn without replacement from an
// urn holding count(x) balls of each secret x — the same distribution as a uniform permutation,
// with every access in cache (Fisher–Yates on 10⁶ samples misses it at every swap).
func shuffleQuantile(s *Sample, t *table, k int, confidence float64, rng *rng) float64 {
	u := &table{rows: t.rows, cols: t.cols, n: t.n, cell: make([]float64, len(t.cell))}
	vals := make([]float64, k)
	var perm []int32
	urn := make([]int, t.rows)
	for j := range vals {
		clear(u.cell)
		if t.rows <= 32 {
			left := t.n
			for x := range urn {
				urn[x] = int(t.row[x])
			}
			for o := 0; o < t.cols; o++ {
				for c := int(t.col[o]); c > 0; c-- {
					r := rng.IntN(left)
					x := 0
					for r >= urn[x] {
						r -= urn[x]
						x++
					}
					urn[x]--
					left--
					u.cell[x*t.cols+o]++
				}
			}
		} else {
			if perm == nil {
				perm = slices.Clone(s.Secret)
			}
			for i := len(perm) - 1; i > 0; i-- {
				r := rng.IntN(i + 1)
				perm[i], perm[r] = perm[r], perm[i]
			}
			for i, x := range perm {
				u.cell[int(x)*t.cols+int(s.Obs[i])]++
			}
		}
		u.margins()
		vals[j] = mutualInformation(u)
	}
	return quantile(vals, confidence)
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

// design is a construction of a bootstrap interval. The tests measure the coverage of each;
// designBasicPercentile is the one used.
type design int

const (
	designBasicPercentile design = iota // [2θ̂ − q_hi, max(q_hi, 2θ̂ − q_lo)] ∪ percentile
	designPercentile                    // [q_lo, q_hi]
	designBasic                         // [2θ̂ − q_hi, 2θ̂ − q_lo]
	designBC                            // bias-corrected percentile (Efron, "Better bootstrap confidence intervals", 1987)
	designBCa                           // bias-corrected and accelerated (jackknife on the cells)
	designCount
)

var designNames = [...]string{"basic ∪ percentile", "percentile", "basic", "bias-corrected percentile (BC)", "BCa"}

// bootstrapInterval returns the interval of the statistic f at confidence opt.Confidence from
// opt.Bootstrap multinomial resamplings of the count table t (the parametric bootstrap from the
// empirical joint distribution). independent sets the lower end to 0 (see the package doc).
func bootstrapInterval(t *table, f func(*table) float64, theta float64, independent bool, opt LeakageOptions, rng *rng) (lo, hi float64) {
	b := opt.Bootstrap
	if cells := t.nonEmpty(); cells*b > maxBootstrapDraws {
		b = max(minBootstrap, maxBootstrapDraws/cells) // each replicate draws one binomial per cell
	}
	reps := bootstrap(t, f, b, rng)
	lo, hi = intervalOf(opt.design, t, f, theta, reps, opt.Confidence)
	if independent {
		lo = 0
	}
	lo = math.Max(0, lo)
	hi = math.Max(hi, lo)
	return lo, hi
}

// bootstrap returns f on b tables drawn from the multinomial distribution with t's n and cell
// frequencies, each drawn as a sequence of binomials.
func bootstrap(t *table, f func(*table) float64, b int, rng *rng) []float64 {
	u := &table{rows: t.rows, cols: t.cols, n: t.n, cell: make([]float64, len(t.cell))}
	reps := make([]float64, b)
	for j := range reps {
		left, mass := float64(t.n), float64(t.n)
		for k, c := range t.cell {
			switch {
			case c == 0 || left == 0:
				u.cell[k] = 0
			case c >= mass:
				u.cell[k] = left
			default:
				u.cell[k] = float64(binomial(int(left), c/mass, rng))
			}
			left -= u.cell[k]
			mass -= c
		}
		u.margins()
		reps[j] = f(u)
	}
	return reps
}

// intervalOf builds the two-sided interval of one design from the replicates.
func intervalOf(d design, t *table, f func(*table) float64, theta float64, reps []float64, confidence float64) (lo, hi float64) {
	alpha := 1 - confidence
	qlo, qhi := quantile(reps, alpha/2), quantile(reps, 1-alpha/2)
	switch d {
	case designPercentile:
		return qlo, qhi
	case designBasic:
		return 2*theta - qhi, 2*theta - qlo
	case designBasicPercentile:
		return math.Min(2*theta-qhi, qlo), math.Max(2*theta-qlo, qhi)
	}
	// BC and BCa: percentiles at Φ(z0 + (z0 + z)/(1 − a(z0 + z))).
	below := 0.0
	for _, r := range reps {
		if r < theta {
			below++
		} else if r == theta {
			below += 0.5
		}
	}
	frac := math.Min(math.Max(below/float64(len(reps)), 0.5/float64(len(reps))), 1-0.5/float64(len(reps)))
	z0 := normalQuantile(frac)
	a := 0.0
	if d == designBCa {
		a = acceleration(t, f)
	}
	at := func(z float64) float64 {
		w := z0 + z
		return quantile(reps, normalCDF(z0+w/(1-a*w)))
	}
	zl := normalQuantile(alpha / 2)
	return at(zl), at(-zl)
}

// acceleration is BCa's a from the jackknife: leaving one sample out changes one cell, so the
// n leave-one-out values are one per non-empty cell, weighted by its count. (0 for tables of more
// than 2,000 cells, where the K² work would not pay.)
func acceleration(t *table, f func(*table) float64) float64 {
	if len(t.cell) > 2000 {
		return 0
	}
	u := &table{rows: t.rows, cols: t.cols, n: t.n - 1, cell: slices.Clone(t.cell)}
	type loo struct{ w, v float64 }
	var js []loo
	mean := 0.0
	for k, c := range t.cell {
		if c == 0 {
			continue
		}
		u.cell[k]--
		u.margins()
		v := f(u)
		u.cell[k]++
		js = append(js, loo{c, v})
		mean += c * v
	}
	mean /= float64(t.n)
	num, den := 0.0, 0.0
	for _, j := range js {
		d := mean - j.v
		num += j.w * d * d * d
		den += j.w * d * d
	}
	if den == 0 {
		return 0
	}
	return num / (6 * math.Pow(den, 1.5))
}
