package estimate

import (
	"math"
	"slices"
)

// work counts the steps of a long estimate and reports them to its progress function (every
// step here is a whole shuffled copy or bootstrap replicate, milliseconds at most).
type work struct {
	progress    func(done, total int) bool
	done, total int
}

// step records one step; ErrCancelled when the progress function says stop.
func (w *work) step() error {
	w.done++
	if w.progress != nil && !w.progress(w.done, max(w.total, w.done)) {
		return ErrCancelled
	}
	return nil
}

// shuffleQuantile is the confidence-level quantile of Î over k copies of the sample with the
// secrets permuted against the observations (which keeps both margins and breaks any relation).
// Only the count table of a permuted copy matters, so with few secrets it is drawn without
// permuting anything: each observation in turn takes a secret drawn without replacement from an
// urn holding count(x) balls of each secret x — the same distribution as a uniform permutation,
// with every access in cache (Fisher–Yates on 10⁶ samples misses it at every swap).
func shuffleQuantile(s *Sample, t *table, k int, confidence float64, rng *rng, w *work) (float64, error) {
	vals := make([]float64, k)
	var perm []int32
	urn := make([]int, t.rows)
	scratch := make([]float64, t.rows)
	u := &table{rows: t.rows, cols: t.cols, n: t.n, xlnx: t.xlnx}
	for j := range vals {
		if t.rows <= 32 {
			u.x, u.o, u.cnt = u.x[:0], u.o[:0], u.cnt[:0]
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
					scratch[x]++
				}
				for x, c := range scratch {
					if c > 0 {
						u.x, u.o, u.cnt = append(u.x, int32(x)), append(u.o, int32(o)), append(u.cnt, c)
						scratch[x] = 0
					}
				}
			}
			u.margins()
			vals[j] = mutualInformation(u)
		} else {
			if perm == nil {
				perm = slices.Clone(s.Secret)
			}
			for i := len(perm) - 1; i > 0; i-- {
				r := rng.IntN(i + 1)
				perm[i], perm[r] = perm[r], perm[i]
			}
			v := tally(t.rows, t.cols, perm, s.Obs)
			v.xlnx = t.xlnx
			vals[j] = mutualInformation(v)
		}
		if err := w.step(); err != nil {
			return 0, err
		}
	}
	return quantile(vals, confidence), nil
}

// bootstrap returns, for each statistic f, its values on b tables drawn from the multinomial
// distribution with t's n and cell frequencies (the parametric bootstrap from the empirical joint
// distribution). A table is drawn as a sequence of binomials, one per cell, when the cells are
// few for n (each binomial of a large remainder costs about log₂ n Beta draws: 199,000 cells of
// one sample each took a minute that way), and otherwise by blocks: the cells are cut into blocks
// of about blockSamples samples, the blocks' totals are drawn as binomials, and each block's
// samples by drawing that many of its own samples — the same multinomial, with every draw in a
// block that stays in cache (drawing among all n samples missed it at nearly every draw).
func bootstrap(t *table, b int, rng *rng, w *work, fs ...func(*table) float64) ([][]float64, error) {
	u := t.like()
	reps := make([][]float64, len(fs))
	for i := range reps {
		reps[i] = make([]float64, b)
	}
	var blocks *table // for draws by blocks: one "cell" per block, its count the block's samples
	var owner []int32 // the cell of each sample, block after block
	var first []int   // the first sample of each block in owner, and n after the last
	if !byBinomials(t) {
		blocks = &table{n: t.n}
		owner = make([]int32, 0, t.n)
		for k, c := range t.cnt {
			if len(owner) >= len(first)*blockSamples {
				first = append(first, len(owner))
				blocks.cnt = append(blocks.cnt, 0)
			}
			for ; c > 0; c-- {
				owner = append(owner, int32(k))
			}
			blocks.cnt[len(blocks.cnt)-1] += t.cnt[k]
		}
		first = append(first, t.n)
	}
	total := make([]float64, 0, len(first))
	for j := 0; j < b; j++ {
		if blocks != nil {
			total = multinomial(blocks.cnt, t.n, total[:0], rng)
			clear(u.cnt)
			for i, m := range total {
				from, size := first[i], first[i+1]-first[i]
				for ; m > 0; m-- {
					u.cnt[owner[from+rng.IntN(size)]]++
				}
			}
		} else {
			multinomial(t.cnt, t.n, u.cnt[:0], rng)
		}
		u.margins()
		for i, f := range fs {
			reps[i][j] = f(u)
		}
		if err := w.step(); err != nil {
			return nil, err
		}
	}
	return reps, nil
}

// blockSamples is the size of the blocks of a bootstrap drawn by blocks: 4,096 samples, whose
// owners (16 KB) and counts stay in cache.
const blockSamples = 4096

// multinomial appends to out n draws from the multinomial distribution with cell counts cnt
// (frequencies cnt/Σcnt), as a sequence of binomials, and returns it.
func multinomial(cnt []float64, n int, out []float64, rng *rng) []float64 {
	left, mass := float64(n), float64(n)
	for _, c := range cnt {
		v := 0.0
		switch {
		case left == 0:
		case c >= mass:
			v = left
		default:
			v = float64(binomial(int(left), c/mass, rng))
		}
		out = append(out, v)
		left -= v
		mass -= c
	}
	return out
}

// byBinomials says whether a replicate of t is cheaper drawn as one binomial per cell (about
// 20 random numbers each) than as n draws of a sample.
func byBinomials(t *table) bool { return 20*len(t.cnt) < t.n }

// drawCost is the random numbers drawn for one bootstrap replicate of t.
func drawCost(t *table) int { return min(20*len(t.cnt), t.n) }

// basicPercentile is the union of the basic ("reflected") bootstrap interval
// [2θ̂ − q_{1−α/2}, 2θ̂ − q_{α/2}] and the percentile interval [q_{α/2}, q_{1−α/2}].
func basicPercentile(theta float64, reps []float64, confidence float64) (lo, hi float64) {
	alpha := 1 - confidence
	qlo, qhi := quantile(reps, alpha/2), quantile(reps, 1-alpha/2)
	return math.Min(2*theta-qhi, qlo), math.Max(2*theta-qlo, qhi)
}

// design is a construction of an interval. The tests measure the coverage of each; the zero
// value is the one used.
type design int

const (
	designKept      design = iota // MI: plug-in ∪ corrected; min-entropy leakage: meBounds
	designPlugin                  // basic ∪ percentile of the plug-in estimate alone
	designCorrected               // MI: basic ∪ percentile of the corrected estimate alone
	designCount
)

var designNames = [...]string{"kept", "plug-in basic ∪ percentile", "corrected basic ∪ percentile"}

// tinySample is the sample size below which MI's interval reaches up to log₂ |X̂|.
const tinySample = 20

// miInterval is the interval of MI: the union of the basic ∪ percentile bootstrap intervals of
// the plug-in Î (biased upwards: its lower end is the one that can miss on sparse tables) and of
// the corrected estimate, recomputed on each replicate (biased downwards where many cells are
// empty or nearly so: its upper end can miss). independent sets the lower end to 0.
func miInterval(t *table, value, corrected float64, independent bool, opt LeakageOptions, rng *rng, w *work) (lo, hi float64, err error) {
	reps, err := bootstrap(t, bootstrapReplicates(t, opt.Bootstrap), rng, w, mutualInformation, correctedMI)
	if err != nil {
		return 0, 0, err
	}
	lo, hi = basicPercentile(value, reps[0], opt.Confidence)
	lc, hc := basicPercentile(corrected, reps[1], opt.Confidence)
	switch opt.design {
	case designKept:
		lo, hi = math.Min(lo, lc), math.Max(hi, hc)
	case designCorrected:
		lo, hi = lc, hc
	}
	if independent {
		lo = 0
	}
	lo = math.Max(0, lo)
	// I(X;Y) ≤ H(X) ≤ log₂ |X̂| when the secrets seen are all the secrets (not the observations
	// seen: on a small sample many are not). On fewer than tinySample samples, or a single
	// observation seen, no resampling of the sample shows what it does not contain, and the upper
	// end is that bound.
	most := math.Log2(float64(positive(t.row)))
	if t.n < tinySample || positive(t.col) < 2 {
		hi = most
	}
	hi = math.Min(hi, most)
	return lo, math.Max(hi, lo), nil
}
