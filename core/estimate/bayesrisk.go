package estimate

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/qif-toolkit/qif/core/argerr"
)

// Rules of BayesRisk.
const (
	Frequentist = "frequentist"
	NN          = "nn"
	KNN         = "knn"
)

// BayesRiskOptions tunes BayesRisk; the zero value means the defaults.
type BayesRiskOptions struct {
	// Method is the rule: Frequentist, NN or KNN (default KNN).
	Method string
	// K is the number of neighbours of KNN; 0 means the rule KRule.
	K int
	// KRule is "ln" (k = ⌈ln n⌉, the default) or "log10" (k = ⌈log₁₀ n⌉), n the training size.
	KRule string
	// TestFraction is the part of the sample held out to test the rule (default 0.2).
	TestFraction float64
	// Confidence is the level of the interval (default 0.95).
	Confidence float64
	// Seed makes the split reproducible.
	Seed uint64
	// Progress, when set, is called with the work done and the total (test predictions over
	// every point of the curve); returning false cancels.
	Progress func(done, total int) bool
}

// BayesRiskResult is F-BLEAU's estimate of the Bayes risk R* = 1 − V[π▷C].
type BayesRiskResult struct {
	// Value is the rule's error on the test part, trained on all of the training part.
	Value float64
	// Lower and Upper bound the confidence interval of R*, each end a bound at the sample size
	// used (not only asymptotically), at level 1 − α/2 each: Upper is the Clopper–Pearson upper
	// end of the rule's test error (any rule errs at least R*); Lower is 1 − the Clopper–Pearson
	// upper end of the frequentist rule's success rate on the whole sample (see
	// resubstitutionSuccesses) — 0 for observations that never repeat.
	Lower, Upper float64
	// Method is the rule used; K the k of the full training size (1 for NN, 0 for Frequentist).
	Method string
	K      int
	// NNBound is (L−1)/L·(1 − √(1 − L/(L−1)·R_NN)) with L the number of secrets and R_NN the NN
	// rule's test error. Cover and Hart ("Nearest neighbor pattern classification", 1967) prove
	// it a lower bound on R* when R_NN is the NN rule's error in the limit of infinitely many
	// training samples; with R_NN measured at a finite n it is an asymptotic estimate, not a
	// bound: the finite-sample NN error exceeds its limit (unseen observations, neighbours far
	// away in many dimensions), and then so can this value exceed R* — as it does for two
	// Gaussians in 31 dimensions at n = 1,000. Lower is the bound.
	NNBound float64
	// NNLower is the Cover–Hart formula at the Clopper–Pearson lower end (level 1 − α/2) of the NN
	// rule's test error: the lower end this interval had when the formula was taken for a bound.
	// An asymptotic estimate like NNBound, tighter than Lower where it holds (many samples, few
	// dimensions), above R* where it does not.
	NNLower float64
	// CurveN are training sizes (increasing, the last one the whole training part) and
	// CurveEstimate the rule's test error when trained on that many samples.
	CurveN, CurveEstimate []float64
}

// kFor is k of the rule for n training samples.
func (o *BayesRiskOptions) kFor(n int) int {
	switch {
	case o.Method == NN:
		return 1
	case o.K > 0:
		return o.K
	case o.KRule == "log10":
		return max(1, int(math.Ceil(math.Log10(float64(n)))))
	}
	return max(1, int(math.Ceil(math.Log(float64(n)))))
}

// NNBound is Cover and Hart's lower bound on the Bayes risk evaluated at the nearest-neighbour
// rule's error r with L secrets: (L−1)/L·(1 − √(1 − L/(L−1)·r)) (the square root of 0 when r
// exceeds (L−1)/L, where the value is (L−1)/L). It bounds R* when r is the NN rule's asymptotic
// error; at a measured, finite-sample r it is an estimate (see BayesRiskResult.NNBound).
func NNBound(r float64, L int) float64 {
	l := float64(L)
	return (l - 1) / l * (1 - math.Sqrt(math.Max(0, 1-l/(l-1)*r)))
}

// BayesRisk estimates the Bayes risk from a sample, F-BLEAU's way (see the package doc): a seeded
// split, the rule trained on growing prefixes of the training part (the curve) and tested on the
// test part. Label observations use the discrete metric (equal or not), so there the NN rule is
// the frequentist one; vector observations use the Euclidean distance and a k-d tree, and the
// frequentist rule treats each distinct vector as a label. On cancellation the result so far is
// returned with ErrCancelled.
func BayesRisk(s *Sample, opt BayesRiskOptions) (*BayesRiskResult, error) {
	if opt.Method == "" {
		opt.Method = KNN
	}
	if opt.Method != Frequentist && opt.Method != NN && opt.Method != KNN {
		return nil, argerr.New("method", "expected 'frequentist', 'nn' or 'knn', got %q", opt.Method)
	}
	if opt.KRule == "" {
		opt.KRule = "ln"
	}
	if opt.KRule != "ln" && opt.KRule != "log10" {
		return nil, argerr.New("k", "expected 'ln', 'log10' or a positive integer, got %q", opt.KRule)
	}
	if opt.K < 0 {
		return nil, argerr.New("k", "expected a positive integer, got %d", opt.K)
	}
	if opt.TestFraction == 0 {
		opt.TestFraction = 0.2
	}
	if !(opt.TestFraction > 0 && opt.TestFraction < 1) {
		return nil, argerr.New("testFraction", "expected a number strictly between 0 and 1, got %v", opt.TestFraction)
	}
	if opt.Confidence == 0 {
		opt.Confidence = DefaultConfidence
	}
	if !(opt.Confidence > 0 && opt.Confidence < 1) {
		return nil, argerr.New("confidence", "expected a number strictly between 0 and 1, got %v", opt.Confidence)
	}
	nTest := int(math.Round(opt.TestFraction * float64(s.N)))
	nTest = min(max(nTest, 1), s.N-1)
	if s.N < 2 {
		return nil, argerr.New("secrets", "%d sample, at least 2 needed to split into training and test parts", s.N)
	}
	// The split: a seeded permutation; the test part first, the training part after it.
	perm := make([]int32, s.N)
	for i := range perm {
		perm[i] = int32(i)
	}
	rng := newRand(opt.Seed)
	for i := len(perm) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		perm[i], perm[j] = perm[j], perm[i]
	}
	test, train := perm[:nTest], perm[nTest:]
	sizes := curveSizes(len(train))
	// The points of the curve before the last are tested on the first curveTest test samples
	// only: the curve shows the trend (its test error is then within about ±0.01), and testing
	// every point on the whole test part would cost as many full evaluations as there are points.
	curveTest := min(nTest, CurveTestSize)
	total := nTest + (len(sizes)-1)*curveTest
	if s.Vectors != nil && opt.Method == Frequentist {
		total += nTest // the NN rule for the bound, at the full size
	}
	r := &BayesRiskResult{Method: opt.Method}
	p := &predictor{s: s, test: test, L: len(s.SecretNames), progress: opt.Progress, total: total}
	// A first report before the rule is trained on the whole training part, which on 10⁶ samples
	// takes a good part of a second before the first prediction.
	if p.progress != nil && !p.progress(0, total) {
		return r, ErrCancelled
	}
	var nnErrors int
	if s.Vectors != nil && opt.Method == Frequentist {
		// The NN rule for the bound, first: the training part shrinks along the curve below.
		var ok bool
		if nnErrors, _, ok = p.run(train, 1); !ok {
			return r, ErrCancelled
		}
	}
	// The curve from the whole training part down, so that each smaller training set is filtered
	// from the previous one (one-dimensional observations: newLine), then put in increasing order.
	defer func() {
		slices.Reverse(r.CurveN)
		slices.Reverse(r.CurveEstimate)
	}()
	for j := len(sizes) - 1; j >= 0; j-- {
		m := sizes[j]
		k := opt.kFor(m)
		if opt.Method == Frequentist {
			k = 0
		}
		p.test = test
		if j < len(sizes)-1 {
			p.test = test[:curveTest]
		}
		errs, nnErrs, ok := p.run(train[:m], k)
		if !ok {
			return r, ErrCancelled
		}
		r.CurveN = append(r.CurveN, float64(m))
		r.CurveEstimate = append(r.CurveEstimate, float64(errs)/float64(len(p.test)))
		if j == len(sizes)-1 {
			r.Value, r.K = float64(errs)/float64(nTest), k
			if s.Vectors == nil || opt.Method != Frequentist {
				nnErrors = nnErrs
			}
		}
	}
	L := len(s.SecretNames)
	r.NNBound = NNBound(float64(nnErrors)/float64(nTest), L)
	alpha := 1 - opt.Confidence
	errs := int(math.Round(r.Value * float64(nTest)))
	_, r.Upper = clopperPearson(errs, nTest, alpha)
	r.Lower = 1 - oneSidedUpper(resubstitutionSuccesses(s), float64(s.N), alpha/2)
	nnLo, _ := clopperPearson(nnErrors, nTest, alpha)
	r.NNLower = NNBound(nnLo, L)
	return r, nil
}

// resubstitutionSuccesses is Σ_o max_x count(x, o) over the whole sample, each distinct
// observation (label or vector) a cell: the successes of the frequentist rule on its own training
// data. They are at least those of the Bayes rule, which are Binomial(n, 1 − R*), so the upper
// Clopper–Pearson bound of their rate bounds 1 − R* from above at any n — the lower end of the
// Bayes risk's interval. For observations that never repeat it is n and the bound is 0: no lower
// bound on R* can be drawn from n distinct observations without assumptions on their distribution.
func resubstitutionSuccesses(s *Sample) float64 {
	if s.Vectors == nil && len(s.ObsNames) == s.N {
		return float64(s.N) // labels that never repeat: each its own cell, without a table of n cells
	}
	if s.Vectors == nil || s.Obs != nil {
		return posteriorSuccesses(counts(s))
	}
	// Vectors: group equal ones by their bits, without the sorted names of Discrete.
	groups := make([]int32, s.N)
	next := int32(0)
	if s.Dim == 1 {
		id := make(map[uint64]int32)
		for i, v := range s.Vectors {
			b := math.Float64bits(v + 0) // −0 and 0 are one observation
			g, ok := id[b]
			if !ok {
				g, next = next, next+1
				id[b] = g
			}
			groups[i] = g
		}
	} else {
		id := make(map[string]int32)
		key := make([]byte, 8*s.Dim)
		for i := 0; i < s.N; i++ {
			for j, v := range s.Vectors[i*s.Dim : (i+1)*s.Dim] {
				binary.LittleEndian.PutUint64(key[8*j:], math.Float64bits(v+0))
			}
			g, ok := id[string(key)]
			if !ok {
				g, next = next, next+1
				id[string(key)] = g
			}
			groups[i] = g
		}
	}
	return posteriorSuccesses(tally(len(s.SecretNames), int(next), s.Secret, groups))
}

// CurveTestSize is the number of test samples of the points of the curve before the last.
const CurveTestSize = 10_000

// curveSizes are the training sizes of the curve: the whole training part and its halves down
// to 10 samples, increasing.
func curveSizes(n int) []int {
	var out []int
	for m := n; m >= 10 || len(out) == 0; m /= 2 {
		out = append(out, m)
	}
	slices.Reverse(out)
	return out
}

// clopperPearson is the exact two-sided binomial interval of level 1 − alpha for e errors in m
// trials.
func clopperPearson(e, m int, alpha float64) (lo, hi float64) {
	lo, hi = 0, 1
	if e > 0 {
		lo = betaQuantile(alpha/2, float64(e), float64(m-e+1))
	}
	if e < m {
		hi = betaQuantile(1-alpha/2, float64(e+1), float64(m-e))
	}
	return lo, hi
}

// predictor trains rules and counts their errors on the test part.
type predictor struct {
	s        *Sample
	test     []int32
	line     []linePt // one-dimensional observations: the training part sorted once
	sorted   []linePt // and the test part sorted (sortedTest)
	pairs    []pair   // labels: (observation, secret) of every sample in split order
	L        int
	progress func(done, total int) bool
	done     int
	total    int
	votes    []float64
	touched  []int32
}

// tick reports progress every 4,096 predictions; false means cancelled.
func (p *predictor) tick() bool {
	p.done++
	if p.progress != nil && (p.done&4095 == 0 || p.done == p.total) {
		return p.progress(p.done, p.total)
	}
	return true
}

// run trains on train and returns the test errors of the rule (k = 0: frequentist; else k-NN
// with ties counted) and of the NN rule (the same as the rule's for the frequentist rule and for
// label observations, where they coincide or are not computed).
func (p *predictor) run(train []int32, k int) (errs, nnErrs int, ok bool) {
	if k == 0 || p.s.Vectors == nil {
		// The split's samples as (observation, secret) pairs in split order, read in sequence:
		// the test part and every training prefix are ranges of it.
		if p.pairs == nil {
			s := p.s.Discrete()
			all := p.test[:cap(p.test)]
			p.pairs = make([]pair, len(all))
			for j, i := range all {
				p.pairs[j] = pair{s.Obs[i], s.Secret[i]}
			}
		}
		nTest := len(p.pairs) - cap(train)
		trainPairs, testPairs := p.pairs[nTest:nTest+len(train)], p.pairs[:len(p.test)]
		pred := p.frequentist(trainPairs, k)
		for _, q := range testPairs {
			if pred[q.o] != q.x {
				errs++
			}
			if !p.tick() {
				return 0, 0, false
			}
		}
		if k <= 1 {
			return errs, errs, true
		}
		// The NN rule on labels is the frequentist one (ties in distance 0 all counted).
		nn := p.frequentist(trainPairs, 1)
		for _, q := range testPairs {
			if nn[q.o] != q.x {
				nnErrs++
			}
		}
		return errs, nnErrs, true
	}
	s := p.s
	d := s.Dim
	var t *kdTree
	if d == 1 {
		if p.line == nil { // train is a prefix of the training part, which is sorted once here
			all := train[:cap(train)]
			xs, secs := make([]float64, len(all)), make([]int32, len(all))
			for j, i := range all {
				xs[j], secs[j] = s.Vectors[i], s.Secret[i]
			}
			p.line = sortLine(xs, secs)
		}
		t, p.line = newLine(p.line, len(train))
	} else {
		vecs := make([]float64, len(train)*d)
		secs := make([]int32, len(train))
		for j, i := range train {
			copy(vecs[j*d:], s.Vectors[int(i)*d:int(i)*d+d])
			secs[j] = s.Secret[i]
		}
		t = newKDTree(vecs, secs, d)
	}
	q := &searcher{t: t}
	count := func(best, nn, secret int32) bool {
		if best != secret {
			errs++
		}
		if nn != secret {
			nnErrs++
		}
		return p.tick()
	}
	predict := func(x []float64) (best, nn int32) {
		q.neighbours(x, k)
		best = p.vote(t, q.h, math.Inf(1))
		nn = best
		if k > 1 {
			dmin := math.Inf(1)
			for _, c := range q.h {
				dmin = min(dmin, c.d)
			}
			nn = p.vote(t, q.h, dmin)
		}
		return best, nn
	}
	if d == 1 {
		x := make([]float64, 1)
		for _, pt := range p.sortedTest() {
			x[0] = pt.x
			best, nn := predict(x)
			if !count(best, nn, pt.s) {
				return 0, 0, false
			}
		}
		return errs, nnErrs, true
	}
	for _, i := range p.test {
		best, nn := predict(s.Vectors[int(i)*d : int(i)*d+d])
		if !count(best, nn, s.Secret[i]) {
			return 0, 0, false
		}
	}
	return errs, nnErrs, true
}

// sortedTest returns the test part (value and secret) in increasing order of its
// one-dimensional observations, so that successive queries walk along the line (neighbours1D)
// instead of each starting with a binary search whose every step misses the cache, and so that
// the secrets are read in order too.
func (p *predictor) sortedTest() []linePt {
	if len(p.sorted) != len(p.test) {
		xs, secs := make([]float64, len(p.test)), make([]int32, len(p.test))
		for j, i := range p.test {
			xs[j], secs[j] = p.s.Vectors[i], p.s.Secret[i]
		}
		p.sorted = sortLine(xs, secs)
	}
	return p.sorted
}

// vote returns the secret with the most votes among the candidates at squared distance ≤ dmax
// (all of them for +Inf), ties to the smaller secret.
func (p *predictor) vote(t *kdTree, h candHeap, dmax float64) int32 {
	for _, c := range h {
		if c.d > dmax {
			continue
		}
		hs := t.hist[t.off[c.pt]:t.off[c.pt+1]]
		for j := 0; j < len(hs); j += 2 {
			p.addVotes(hs[j], float64(hs[j+1]))
		}
	}
	return p.winner()
}

// addVotes gives secret x w more votes.
func (p *predictor) addVotes(x int32, w float64) {
	if p.votes == nil {
		p.votes = make([]float64, p.L)
	}
	if p.votes[x] == 0 {
		p.touched = append(p.touched, x)
	}
	p.votes[x] += w
}

// winner is the secret with the most votes (ties to the smaller secret), and clears the votes.
func (p *predictor) winner() int32 {
	best, bv := int32(-1), -1.0
	for _, x := range p.touched {
		if v := p.votes[x]; v > bv || v == bv && x < best {
			best, bv = x, v
		}
		p.votes[x] = 0
	}
	p.touched = p.touched[:0]
	return best
}

// frequentist trains the frequentist rule: the most frequent secret of each observation (ties
// to the smaller secret), and for an observation not seen, the most frequent secret overall. With
// k > 1 (k-NN under the discrete metric) an observation seen fewer than k times also gets the
// most frequent secret overall: its k nearest include every training sample at distance 1.
func (p *predictor) frequentist(train []pair, k int) []int32 {
	nObs := len(p.s.ObsNames)
	overall := make([]int32, p.L)
	for _, q := range train {
		overall[q.x]++
	}
	fallback := int32(0)
	for x, c := range overall {
		if c > overall[fallback] {
			fallback = int32(x)
		}
	}
	pred := make([]int32, nObs)
	seen := make([]int32, nObs+1) // then the start of each observation's run in byObs
	for _, q := range train {
		seen[q.o+1]++
	}
	if nObs*p.L <= 1<<22 { // a dense count table: one pass, no sort
		cnt := make([]int32, nObs*p.L)
		for _, q := range train {
			cnt[int(q.o)*p.L+int(q.x)]++
		}
		for o := 0; o < nObs; o++ {
			if n := seen[o+1]; n == 0 || int(n) < k {
				pred[o] = fallback
				continue
			}
			row := cnt[o*p.L : (o+1)*p.L]
			best := 0
			for x, c := range row {
				if c > row[best] { // strictly: a tie keeps the smaller secret
					best = x
				}
			}
			pred[o] = int32(best)
		}
		return pred
	}
	// Many observations and secrets: a counting sort by observation, then a vote per run.
	for o := 0; o < nObs; o++ {
		seen[o+1] += seen[o]
	}
	byObs := make([]int32, len(train))
	fill := slices.Clone(seen[:nObs])
	for _, q := range train {
		byObs[fill[q.o]] = q.x
		fill[q.o]++
	}
	for o := 0; o < nObs; o++ {
		grp := byObs[seen[o]:seen[o+1]]
		if len(grp) == 0 || len(grp) < k {
			pred[o] = fallback
			continue
		}
		for _, x := range grp {
			p.addVotes(x, 1)
		}
		pred[o] = p.winner()
	}
	return pred
}

// pair is a sample's observation and secret.
type pair struct{ o, x int32 }
