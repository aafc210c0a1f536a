package estimate

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
)

// DefaultNNK is the default number of neighbours of the nearest-neighbour MI estimator (Ross's
// and Kraskov et al.'s choice: a small k has little bias, a large one little variance).
const DefaultNNK = 3

// NNMIOptions tunes NearestNeighbourMI; the zero value means the defaults.
type NNMIOptions struct {
	// K is the number of neighbours (default 3).
	K int
	// Confidence is the level of the interval and of the zero-leakage test (default 0.95).
	Confidence float64
	// Shuffles is the number of copies with the secrets permuted for the zero-leakage test
	// (0: NNShufflesFor(n, dim); negative: none; at most 10,000 and twice the default's work).
	Shuffles int
	// Groups is the number of disjoint random parts the interval is estimated from (0: default).
	Groups int
	// Seed makes the groups and the shuffles reproducible.
	Seed uint64
	// Progress, when set, is called with the samples visited and their total ((2 + Shuffles)·n:
	// the sample, its parts, each shuffled copy); false cancels.
	Progress func(done, total int) bool
}

// NNMIResult is the outcome of NearestNeighbourMI, in bits.
type NNMIResult struct {
	// Value is the estimate on the whole sample.
	Value float64
	// Lower and Upper bound the confidence interval (see NearestNeighbourMI).
	Lower, Upper float64
	// ZeroLeakageThreshold is what Value stays below, at the confidence level, when secrets and
	// observations are independent (from the permuted copies); 0 without shuffles.
	ZeroLeakageThreshold float64
	// Leaks reports Value > ZeroLeakageThreshold; without shuffles, that the interval's lower end
	// is above 0 (never a flat "no" for want of a test).
	Leaks bool
	// K, Shuffles and Groups are those used.
	K, Shuffles, Groups int
	// Jittered counts the coordinates whose repeated values were spread within their rounding
	// step before the estimate (see NearestNeighbourMI); 0 when every value was distinct.
	Jittered int
}

// NearestNeighbourMI estimates I(X;Y) in bits between the secrets and the numeric observations
// (Vectors) of s by Ross's nearest-neighbour estimator (see rossData), with an interval and a
// zero-leakage test:
//
//   - the interval: the sample is split at random into G disjoint groups of m ≈ n/G samples and
//     the estimator run on each; their spread, scaled by √(m/n), estimates the standard error at
//     n (se = sd/√G), and Î ± t_{G−1}·se is widened on one side by the difference between the
//     groups' mean and Î — the estimator's bias at m, larger than at n, with the same sign — so
//     that a bias the spread cannot show is allowed for (twice that difference: BiasWidening).
//     (A bootstrap with replacement does not work here: duplicated points are neighbours at
//     distance 0.) The lower end is at least 0.
//   - the zero-leakage test: the estimator on Shuffles copies with the secrets permuted; Î is
//     said to leak when it exceeds their mean + t_{R−1}·sd·√(1 + 1/R), the one-sided prediction
//     bound of a new draw from their (nearly normal) distribution. When it does not, the lower
//     end is 0.
//
// Repeated values (timings rounded to a clock tick) are first spread within their rounding step:
// in each coordinate with a repeated value, every value gets an independent uniform offset in
// (−Δ/2, Δ/2), Δ the least gap between distinct values of that coordinate (seeded by Seed). The
// offsets' intervals of distinct values do not overlap, so the rounded value is a function of the
// spread one and the spread one a noisy function of it, and I(X; Y + U) = I(X; Y) exactly; the
// estimator, which is biased low on repeated values (measured: 0.79 instead of 0.85 bits on
// timings rounded to 0.01 µs), then sees continuous data. Result.Jittered counts such coordinates.
//
// Every secret needs at least 2k+1 samples; observations must be finite (NewSample checks).
// Cancelled through Progress, it returns the result so far (Value) with ErrCancelled.
func NearestNeighbourMI(s *Sample, opt NNMIOptions) (*NNMIResult, error) {
	if s.Vectors == nil || s.Dim < 1 {
		return nil, argerr.New("observations", "the nearest-neighbour estimator needs numeric observations (kind: 'numbers'), with at least one coordinate")
	}
	if opt.K == 0 {
		opt.K = DefaultNNK
	}
	if opt.K < 1 {
		return nil, argerr.New("k", "expected a positive integer, got %d", opt.K)
	}
	if opt.Confidence == 0 {
		opt.Confidence = DefaultConfidence
	}
	if !(opt.Confidence > 0 && opt.Confidence < 1) {
		return nil, argerr.New("confidence", "expected a number strictly between 0 and 1, got %v", opt.Confidence)
	}
	count := make([]int, len(s.SecretNames))
	for _, x := range s.Secret {
		count[x]++
	}
	for x, c := range count {
		if c < 2*opt.K+1 {
			return nil, argerr.New("secrets", "secret %s has %d samples, fewer than 2k+1 = %d that the nearest-neighbour estimator with k = %d needs (lower k, or gather more samples of it)", s.SecretNames[x], c, 2*opt.K+1, opt.K)
		}
	}
	switch {
	case opt.Shuffles == 0:
		opt.Shuffles = NNShufflesFor(s.N, s.Dim)
	case opt.Shuffles < 0:
		opt.Shuffles = 0
	default: // what is asked, within 10,000 and twice the default budget of work
		opt.Shuffles = min(opt.Shuffles, 10_000, max(10, 2*10_000_000/nnCost(s.N, s.Dim)))
	}
	if opt.Groups == 0 {
		opt.Groups = groupsFor(s.N)
	}
	if opt.Groups < 2 {
		return nil, argerr.New("groups", "expected at least 2, got %d", opt.Groups)
	}
	d := newRossData(s, opt.K)
	r := &NNMIResult{K: opt.K, Shuffles: opt.Shuffles, Groups: opt.Groups, Value: math.NaN(), Lower: math.NaN(), Upper: math.NaN()}
	r.Jittered = d.breakTies(newRand(opt.Seed ^ 0x6a09e667f3bcc908))
	// Progress counts samples visited: n per estimate (the groups together are one), reported
	// every progressStep samples within an estimate and at its end.
	total, done := (2+opt.Shuffles)*s.N, 0
	if opt.Progress != nil {
		d.visit = func(points int) bool {
			if d.cancelled || !opt.Progress(min(done+points, total), total) {
				d.cancelled = true
			}
			return !d.cancelled
		}
	}
	tick := func() bool {
		if d.cancelled {
			return false
		}
		done += s.N
		return opt.Progress == nil || opt.Progress(done, total)
	}
	r.Value = d.estimate(d.v, d.sec)
	if !tick() {
		return r, ErrCancelled
	}
	rng := newRand(opt.Seed)
	d.seen = 0
	groups := d.groups(opt.Groups, rng)
	if !tick() {
		return r, ErrCancelled
	}
	alpha := 1 - opt.Confidence
	mean, sd := meanSD(groups)
	se := sd / math.Sqrt(float64(len(groups)))
	t := tQuantile(1-alpha/2, len(groups)-1)
	// The bias at n is allowed for as twice the difference seen between m and n: if it shrinks
	// like n^(−γ), it is (θ_m − θ_n)/((n/m)^γ − 1), at most twice that difference for γ ≥ 0.18
	// with n/m = 10 (the estimator's bias shrinks slowly on mixtures: 0.002 bits at 10⁶ samples
	// of the timing example).
	bias := BiasWidening * (mean - r.Value)
	r.Lower = r.Value - t*se - math.Max(0, bias)
	r.Upper = r.Value + t*se + math.Max(0, -bias)
	if opt.Shuffles > 0 {
		perm := make([]float64, 0, opt.Shuffles)
		sec := append([]int32(nil), d.sec...)
		for i := 0; i < opt.Shuffles; i++ {
			for j := len(sec) - 1; j > 0; j-- {
				l := rng.IntN(j + 1)
				sec[j], sec[l] = sec[l], sec[j]
			}
			d.seen = 0
			perm = append(perm, d.estimate(d.v, sec))
			if !tick() {
				return r, ErrCancelled
			}
		}
		pm, psd := meanSD(perm)
		R := float64(len(perm))
		r.ZeroLeakageThreshold = pm + tQuantile(opt.Confidence, len(perm)-1)*psd*math.Sqrt(1+1/R)
		if len(perm) == 1 {
			r.ZeroLeakageThreshold = math.Inf(1) // one copy says nothing of the spread
		}
		r.Leaks = r.Value > r.ZeroLeakageThreshold
		if !r.Leaks {
			r.Lower = 0
		}
	}
	if opt.Shuffles == 0 {
		r.Leaks = r.Lower > 0
	}
	r.Lower = math.Max(0, r.Lower)
	r.Upper = math.Max(r.Upper, r.Lower)
	return r, nil
}

// NNShufflesFor is the default number of shuffled copies of the nearest-neighbour zero-leakage
// test for n samples of dim coordinates: 30 (the test needs their mean and spread, not their
// tail), no more than 10⁷ shuffled samples in all in one dimension — 10⁷/(8·dim) in more, where
// the k-d trees cost about that much more per sample — and at least 10.
func NNShufflesFor(n, dim int) int { return min(30, max(10, 10_000_000/nnCost(n, dim))) }

// nnCost is the work of one estimate in units of a one-dimensional sample.
func nnCost(n, dim int) int {
	if dim > 1 {
		return max(n, 1) * 8 * dim
	}
	return max(n, 1)
}

// BiasWidening is how many times the difference between the groups' mean and the estimate the
// interval is widened by, on the side the bias points to (see NearestNeighbourMI).
const BiasWidening = 2.0

// groupsFor is the default number of groups of the interval: 10, fewer for small samples (each
// group keeps at least 100 samples), and at least 4.
func groupsFor(n int) int { return min(10, max(4, n/100)) }

// groups splits the sample at random into g disjoint groups of nearly equal size and returns the
// estimate on each.
func (d *rossData) groups(g int, rng *rng) []float64 {
	n := len(d.sec)
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	member := make([]int32, n)
	for r, i := range perm {
		member[i] = int32(r % g)
	}
	idx := make([][]int32, g)
	for i, m := range member {
		idx[m] = append(idx[m], int32(i))
	}
	out := make([]float64, g)
	for j := range idx {
		out[j] = d.estimate(d.subset(idx[j]))
	}
	return out
}

// meanSD is the mean and the sample standard deviation (n − 1 in the denominator).
func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	if len(xs) > 1 {
		sd = math.Sqrt(sd / float64(len(xs)-1))
	}
	return mean, sd
}

// tQuantile is the p-quantile (p ≥ 1/2) of Student's t distribution with df degrees of freedom:
// P(T ≤ t) = 1 − I_{df/(df+t²)}(df/2, 1/2)/2 for t ≥ 0.
func tQuantile(p float64, df int) float64 {
	if df < 1 {
		return math.Inf(1)
	}
	v := float64(df)
	cdf := func(t float64) float64 { return 1 - 0.5*betaI(v/2, 0.5, v/(v+t*t)) }
	hi := 10.0
	for cdf(hi) < p && hi < 1e12 {
		hi *= 10
	}
	return invert(cdf, p, 0, hi)
}
