package estimate

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/measure"
	"gonum.org/v1/gonum/mat"
)

// Table values of the χ² quantiles (Abramowitz and Stegun, Table 26.8).
func TestChiSquareQuantileTable(t *testing.T) {
	for _, c := range []struct {
		p    float64
		dof  int
		want float64
	}{{0.95, 1, 3.841459}, {0.95, 2, 5.991465}, {0.95, 4, 9.487729}, {0.95, 10, 18.307038}, {0.99, 3, 11.344867}, {0.5, 2, 1.386294}} {
		if got := ChiSquareQuantile(c.p, c.dof); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("χ² quantile %v with %d dof = %v, table %v", c.p, c.dof, got, c.want)
		}
	}
	if ChiSquareQuantile(0.95, 0) != 0 {
		t.Error("χ² with 0 degrees of freedom is the point mass at 0")
	}
}

// The NN bound by hand: L = 2, R_NN = 0.32 gives ½(1 − √0.36) = 0.2; L = 3, R_NN = 0.5 gives
// ⅔(1 − √0.25) = ⅓; R_NN beyond (L−1)/L gives (L−1)/L.
func TestNNBoundByHand(t *testing.T) {
	for _, c := range []struct {
		r    float64
		L    int
		want float64
	}{{0.32, 2, 0.2}, {0.5, 3, 1.0 / 3}, {0, 5, 0}, {0.9, 2, 0.5}} {
		if got := NNBound(c.r, c.L); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("NNBound(%v, %d) = %v, want %v", c.r, c.L, got, c.want)
		}
	}
}

func TestFrequentistChannelByHand(t *testing.T) {
	s, err := NewSample(Labels{Strings: []string{"b", "a", "a", "b", "a"}}, Observations{Labels: Labels{Numbers: []float64{2, 10, 2, 2, 10}}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := FrequentistChannel(s)
	if err != nil {
		t.Fatal(err)
	}
	// Rows a, b; columns 2, 10 (numeric order, not "10" < "2"). a: 2 once, 10 twice; b: 2 twice.
	want := mat.NewDense(2, 2, []float64{1.0 / 3, 2.0 / 3, 1, 0})
	if !mat.EqualApprox(c.Channel, want, 1e-15) || c.Prior[0] != 0.6 || c.Prior[1] != 0.4 {
		t.Errorf("channel %v prior %v", mat.Formatted(c.Channel), c.Prior)
	}
	if strings.Join(c.Secrets, " ") != "a b" || strings.Join(c.Observations, " ") != "2 10" {
		t.Errorf("names %v %v", c.Secrets, c.Observations)
	}
}

func TestBadInput(t *testing.T) {
	num := func(x ...float64) Labels { return Labels{Numbers: x} }
	cases := []struct {
		s    Labels
		o    Observations
		want string
	}{
		{num(), Observations{Labels: num()}, "secrets: empty"},
		{num(1, 2), Observations{Labels: num(1)}, "observations: 1 observations for 2 secrets"},
		{num(1, 1, 1), Observations{Labels: num(1, 2, 3)}, "secrets: fewer than two distinct secrets"},
		{num(1, math.NaN()), Observations{Labels: num(1, 2)}, "secrets: entry 1 is NaN"},
		{num(1, 2), Observations{Labels: num(1, math.Inf(1))}, "observations: entry 1 is +Inf"},
		{num(1, 2), Observations{Vectors: mat.NewDense(2, 2, []float64{0, 1, math.NaN(), 0})}, "observations: row 1, column 0 is NaN"},
		{num(1, 2, 3), Observations{Vectors: mat.NewDense(2, 1, nil)}, "observations: 2 observations for 3 secrets"},
	}
	for _, c := range cases {
		_, err := NewSample(c.s, c.o)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want an error starting %q", err, c.want)
		}
	}
	s := codes(t, []int32{0, 1, 0, 1}, []int32{0, 1, 1, 0})
	if _, err := BayesRisk(s, BayesRiskOptions{Method: "svm"}); err == nil || !strings.HasPrefix(err.Error(), "method:") {
		t.Errorf("bad method: %v", err)
	}
	if _, err := BayesRisk(s, BayesRiskOptions{TestFraction: 1.5}); err == nil || !strings.HasPrefix(err.Error(), "testFraction:") {
		t.Errorf("bad testFraction: %v", err)
	}
	if _, err := MutualInformation(s, LeakageOptions{Confidence: 1}); err == nil || !strings.HasPrefix(err.Error(), "confidence:") {
		t.Errorf("bad confidence: %v", err)
	}
	if _, _, err := Draw([]float64{0.5, 0.6}, mat.NewDense(2, 1, []float64{1, 1}), 3, 1); err == nil || !strings.HasPrefix(err.Error(), "prior:") {
		t.Errorf("bad prior: %v", err)
	}
	if _, _, err := Draw([]float64{0.5, 0.5}, mat.NewDense(2, 2, []float64{1, 0, 0.5, 0.6}), 3, 1); err == nil || !strings.HasPrefix(err.Error(), "channel: row 1") {
		t.Errorf("bad channel: %v", err)
	}
}

// Draw: the same seed gives the same samples; the frequencies approach π and C (a 5σ band).
func TestDraw(t *testing.T) {
	k := coverageChannels[3]
	const n = 200_000
	xs, ys, err := Draw(k.prior, k.C, n, 7)
	if err != nil {
		t.Fatal(err)
	}
	xs2, ys2, _ := Draw(k.prior, k.C, n, 7)
	xs3, _, _ := Draw(k.prior, k.C, n, 8)
	same, differ := true, false
	for i := range xs {
		same = same && xs[i] == xs2[i] && ys[i] == ys2[i]
		differ = differ || xs[i] != xs3[i]
	}
	if !same || !differ {
		t.Errorf("reproducible %v, another seed differs %v", same, differ)
	}
	cnt := make([]float64, 16)
	for i := range xs {
		cnt[xs[i]*4+ys[i]]++
	}
	for x := 0; x < 4; x++ {
		for y := 0; y < 4; y++ {
			p := k.prior[x] * k.C.At(x, y)
			if sd := math.Sqrt(n * p * (1 - p)); math.Abs(cnt[x*4+y]-n*p) > 5*sd {
				t.Errorf("cell (%d,%d): %v draws, expected %v ± %v", x, y, cnt[x*4+y], n*p, sd)
			}
		}
	}
	// A zero entry is never drawn.
	xs, ys, _ = Draw([]float64{0, 1, 0}, mat.NewDense(3, 3, []float64{1, 0, 0, 0, 0, 1, 0, 1, 0}), 1000, 1)
	for i := range xs {
		if xs[i] != 1 || ys[i] != 2 {
			t.Fatalf("drew (%d,%d), which has probability 0", xs[i], ys[i])
		}
	}
}

// The estimates approach the exact values of the channel they were sampled from.
func TestConvergesToExact(t *testing.T) {
	for _, k := range coverageChannels {
		s := sampleOf(t, k, 200_000, 3)
		c, err := FrequentistChannel(s)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.EqualApprox(c.Channel, k.C, 0.01) {
			t.Errorf("%s: estimated channel %v", k.name, mat.Formatted(c.Channel))
		}
		mi, _ := measure.MutualInformation(k.prior, k.C)
		me, _ := measure.MinEntropyLeakage(k.prior, k.C)
		v, _ := measure.PosteriorBayesVulnerability(k.prior, k.C)
		emi, err := MutualInformation(s, LeakageOptions{Seed: 1, Shuffles: 20, Bootstrap: 100})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(emi.Corrected-mi) > 0.003 || emi.Lower > mi || emi.Upper < mi {
			t.Errorf("%s: MI %v (corrected %v, [%v, %v]), exact %v", k.name, emi.Value, emi.Corrected, emi.Lower, emi.Upper, mi)
		}
		if emi.Leaks != (mi > 0) {
			t.Errorf("%s: leaks = %v with exact MI %v", k.name, emi.Leaks, mi)
		}
		eme, _ := MinEntropyLeakage(s, LeakageOptions{Seed: 1, Bootstrap: 100})
		if math.Abs(eme.Value-me) > 0.01 || eme.Lower > me || eme.Upper < me {
			t.Errorf("%s: min-entropy leakage %+v, exact %v", k.name, eme, me)
		}
		for _, m := range []string{Frequentist, NN, KNN} {
			br, err := BayesRisk(s, BayesRiskOptions{Method: m, Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(br.Value-(1-v)) > 0.01 || br.Lower > 1-v || br.Upper < 1-v || br.NNBound > 1-v+0.01 {
				t.Errorf("%s, %s: Bayes risk %v [%v, %v] bound %v, exact %v", k.name, m, br.Value, br.Lower, br.Upper, br.NNBound, 1-v)
			}
			if len(br.CurveN) < 5 || br.CurveN[len(br.CurveN)-1] != 160_000 || br.CurveEstimate[len(br.CurveN)-1] != br.Value {
				t.Errorf("%s, %s: curve %v %v", k.name, m, br.CurveN, br.CurveEstimate)
			}
		}
	}
}

// Two equiprobable secrets, observations N(0, 1) and N(μ, 1): R* = Φ(−μ/2). k-NN on 20,000
// samples comes within 0.04 (k = 10 neighbours still smooth the boundary), NN is worse than R* and its bound below it.
func TestKNNGaussians(t *testing.T) {
	const n, mu = 20_000, 1.5
	s := gaussians(t, n, mu, 1)
	rstar := 0.5 * math.Erfc(mu/2/math.Sqrt2)
	knn, err := BayesRisk(s, BayesRiskOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	nn, _ := BayesRisk(s, BayesRiskOptions{Method: NN, Seed: 1})
	if math.Abs(knn.Value-rstar) > 0.04 || knn.Lower > rstar || knn.Upper < rstar {
		t.Errorf("k-NN %v [%v, %v], R* = %v", knn.Value, knn.Lower, knn.Upper, rstar)
	}
	if nn.Value < rstar || nn.NNBound > rstar+0.01 || knn.K != int(math.Ceil(math.Log(16000))) {
		t.Errorf("NN %v bound %v k %d, R* = %v", nn.Value, nn.NNBound, knn.K, rstar)
	}
}

// bruteVote is k-NN by an O(n²) scan, written independently of the k-d tree: sort nothing, find
// the k-th smallest distance by counting, vote over every training point within it.
func bruteVote(train [][]float64, sec []int32, q []float64, k, L int) int32 {
	dist := make([]float64, len(train))
	for i, p := range train {
		for a := range p {
			dist[i] += (p[a] - q[a]) * (p[a] - q[a])
		}
	}
	// the k-th smallest distance: the smallest d with #{i: dist_i ≤ d} ≥ k
	dk := math.Inf(1)
	for _, d := range dist {
		c := 0
		for _, e := range dist {
			if e <= d {
				c++
			}
		}
		if c >= k && d < dk {
			dk = d
		}
	}
	votes := make([]int, L)
	for i, d := range dist {
		if d <= dk {
			votes[sec[i]]++
		}
	}
	best := 0
	for x := range votes {
		if votes[x] > votes[best] {
			best = x
		}
	}
	return int32(best)
}

// The k-d tree's k-NN rule (ties in distance all counted, votes to the smaller secret) predicts
// what a brute-force scan predicts, on integer grids full of ties and duplicates and on
// continuous points, in 1, 2 and 3 dimensions.
func TestKNNMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, dim := range []int{1, 2, 3} {
		for _, grid := range []bool{true, false} {
			const n, L = 400, 3
			train := make([][]float64, n)
			vecs := make([]float64, 0, n*dim)
			sec := make([]int32, n)
			coord := func() float64 {
				if grid {
					return float64(rng.IntN(5))
				}
				return rng.NormFloat64()
			}
			for i := range train {
				train[i] = make([]float64, dim)
				for a := range train[i] {
					train[i][a] = coord()
				}
				vecs = append(vecs, train[i]...)
				sec[i] = int32(rng.IntN(L))
			}
			tree := newKDTree(vecs, sec, dim)
			p := &predictor{L: L}
			srch := &searcher{t: tree}
			for _, k := range []int{1, 2, 5, 13} {
				for j := 0; j < 100; j++ {
					q := make([]float64, dim)
					for a := range q {
						q[a] = coord()
					}
					srch.neighbours(q, k)
					if got, want := p.vote(tree, srch.h, math.Inf(1)), bruteVote(train, sec, q, k, L); got != want {
						t.Fatalf("dim %d grid %v k %d query %v: tree predicts %d, brute force %d", dim, grid, k, q, got, want)
					}
				}
			}
		}
	}
}

// The zero-leakage test rejects about 5% of samples of a channel that leaks nothing and nearly
// all of a channel that leaks; shuffled data gives thresholds of the χ² one's size.
func TestZeroLeakageTest(t *testing.T) {
	none, leak := coverageChannels[2], coverageChannels[0]
	rejected := 0
	const reps = 200
	for r := 0; r < reps; r++ {
		res, err := MutualInformation(sampleOf(t, none, 500, uint64(r)), LeakageOptions{Seed: uint64(r), Shuffles: 40, Bootstrap: 20})
		if err != nil {
			t.Fatal(err)
		}
		if res.Leaks {
			rejected++
		}
		if res.ShuffleThreshold <= 0 || res.ShuffleThreshold > 3*res.ChiSquareThreshold {
			t.Fatalf("shuffle threshold %v against χ² %v", res.ShuffleThreshold, res.ChiSquareThreshold)
		}
	}
	if rejected > 2*reps/20 {
		t.Errorf("no leakage: rejected in %d of %d samples at the 95%% level", rejected, reps)
	}
	res, _ := MutualInformation(sampleOf(t, leak, 500, 1), LeakageOptions{Seed: 1})
	if !res.Leaks {
		t.Errorf("a channel leaking 0.12 bits was not detected on 500 samples: %+v", res)
	}
}

// Bayes risk intervals cover R* on small samples of known channels.
func TestBayesRiskCoverage(t *testing.T) {
	const n, reps = 400, 200
	for _, k := range coverageChannels {
		v, _ := measure.PosteriorBayesVulnerability(k.prior, k.C)
		hit := 0
		for r := 0; r < reps; r++ {
			br, err := BayesRisk(sampleOf(t, k, n, uint64(r)), BayesRiskOptions{Method: Frequentist, Seed: uint64(r)})
			if err != nil {
				t.Fatal(err)
			}
			if br.Lower <= 1-v && 1-v <= br.Upper {
				hit++
			}
		}
		if c := float64(hit) / reps; c < 0.9 {
			t.Errorf("%s: the Bayes risk interval covers R* = %v in %.1f%% of %d repetitions", k.name, 1-v, 100*c, reps)
		} else {
			t.Logf("%s: Bayes risk interval covers R* in %.1f%%", k.name, 100*c)
		}
	}
}

func TestCancel(t *testing.T) {
	s := sampleOf(t, coverageChannels[0], 50_000, 1)
	calls := 0
	r, err := BayesRisk(s, BayesRiskOptions{Method: Frequentist, Progress: func(done, total int) bool { calls++; return calls < 3 }})
	if !errors.Is(err, ErrCancelled) || r == nil || calls != 3 {
		t.Errorf("cancel: err %v, result %v, %d calls", err, r, calls)
	}
}

// The default number of shuffles, and a negative one meaning none.
func TestShufflesDefault(t *testing.T) {
	if ShufflesFor(1000) != 100 || ShufflesFor(1_000_000) != 20 || ShufflesFor(100_000_000) != 10 {
		t.Errorf("ShufflesFor: %d %d %d", ShufflesFor(1000), ShufflesFor(1_000_000), ShufflesFor(100_000_000))
	}
	s := sampleOf(t, coverageChannels[0], 300, 1)
	r, err := MutualInformation(s, LeakageOptions{Shuffles: -1, Bootstrap: 20})
	if err != nil || r.ShuffleThreshold != 0 || r.ZeroLeakageThreshold != r.ChiSquareThreshold {
		t.Errorf("no shuffles: %+v %v", r, err)
	}
	r, _ = MutualInformation(s, LeakageOptions{Bootstrap: 20})
	if r.ShuffleThreshold == 0 {
		t.Error("the default shuffles nothing")
	}
	// Asked for more than 2·10⁷ shuffled samples: capped, and said so.
	r, _ = MutualInformation(s, LeakageOptions{Bootstrap: 20, Shuffles: 100_000})
	if r.Shuffles != MaxShuffles || len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], "shuffles: 100000 asked, 10000 used") {
		t.Errorf("capped shuffles: %d, %q", r.Shuffles, r.Warnings)
	}
	big := sampleOf(t, coverageChannels[0], 40_000, 1)
	if r, _ = MutualInformation(big, LeakageOptions{Bootstrap: 20, Shuffles: 1000}); r.Shuffles != MaxShuffledSamples/40_000 {
		t.Errorf("%d shuffles of 40,000 samples, want %d", r.Shuffles, MaxShuffledSamples/40_000)
	}
}

// The k-NN and NN intervals cover R* = Φ(−μ/2) of two Gaussians on small samples.
func TestKNNCoverage(t *testing.T) {
	const n, reps, mu = 1000, 200, 1.5
	rstar := 0.5 * math.Erfc(mu/2/math.Sqrt2)
	for _, m := range []string{KNN, NN} {
		hit := 0
		for r := 0; r < reps; r++ {
			br, err := BayesRisk(gaussians(t, n, mu, uint64(1000+r)), BayesRiskOptions{Method: m, Seed: uint64(r)})
			if err != nil {
				t.Fatal(err)
			}
			if br.Lower <= rstar && rstar <= br.Upper {
				hit++
			}
		}
		if c := float64(hit) / reps; c < 0.9 {
			t.Errorf("%s: the interval covers R* = %.4f in %.1f%% of %d repetitions", m, rstar, 100*c, reps)
		} else {
			t.Logf("%s: the interval covers R* in %.1f%% of %d repetitions", m, 100*c, reps)
		}
	}
}

// Observations that never repeat: MI and min-entropy leakage are refused with an error naming the
// argument (the bootstrap would take minutes), the Bayes risk by k-NN is not.
func TestContinuousRefusedForPlugIn(t *testing.T) {
	s := gaussianSample(t, MaxLeakageCells+1000)
	if _, err := MutualInformation(s, LeakageOptions{}); err == nil || !strings.HasPrefix(err.Error(), "observations: ") {
		t.Errorf("MI: %v", err)
	}
	if _, err := MinEntropyLeakage(s, LeakageOptions{}); err == nil || !strings.HasPrefix(err.Error(), "observations: ") {
		t.Errorf("min-entropy: %v", err)
	}
	if _, err := BayesRisk(s, BayesRiskOptions{}); err != nil {
		t.Error(err)
	}
}

// On a tiny sample the MI interval reaches log₂ |X̂|: three samples with one observation say
// nothing about observations not seen, and every bootstrap replicate would give 0.
func TestMITinySample(t *testing.T) {
	s, err := NewSample(Labels{Strings: []string{"a", "b", "a"}}, Observations{Labels: Labels{Strings: []string{"x", "x", "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := MutualInformation(s, LeakageOptions{Bootstrap: 20})
	if err != nil || r.Value != 0 || r.Lower != 0 || r.Upper != 1 {
		t.Errorf("3 samples: %+v %v, want [0, 1] (log₂ 2)", r, err)
	}
	s = codes(t, []int32{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}, []int32{0, 1, 2, 0, 1, 2, 0, 1, 2, 1})
	r, _ = MutualInformation(s, LeakageOptions{Bootstrap: 20})
	if math.Abs(r.Upper-math.Log2(3)) > 1e-12 {
		t.Errorf("10 samples of 3 secrets: upper %v, want log₂ 3", r.Upper)
	}
}

// Mostly distinct string observations are coded by first appearance and sorted only when a
// channel is built: the channel is the same as for the sorted coding — names in byte order,
// counts in their columns.
func TestLazyObservationOrder(t *testing.T) {
	obs := []string{"d", "b", "a", "c", "b", "e"}
	sec := []string{"x", "y", "x", "y", "x", "y"}
	s, err := NewSample(Labels{Strings: sec}, Observations{Labels: Labels{Strings: obs}})
	if err != nil {
		t.Fatal(err)
	}
	if s.obsOrder == nil || len(s.ObsNames) != 5 {
		t.Fatalf("5 distinct of 6: the sort should wait (%d names)", len(s.ObsNames))
	}
	c, err := FrequentistChannel(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Observations, " ") != "a b c d e" {
		t.Errorf("names %v", c.Observations)
	}
	// Column b holds one x and one y; column d one x; column e one y.
	want := mat.NewDense(2, 5, []float64{1, 1, 0, 1, 0, 0, 1, 1, 0, 1})
	if !mat.Equal(c.Counts, want) {
		t.Errorf("counts %v", mat.Formatted(c.Counts))
	}
	for i, o := range s.Obs {
		if s.ObsNames[o] != obs[i] {
			t.Errorf("sample %d coded %d (%q), is %q", i, o, s.ObsNames[o], obs[i])
		}
	}
}
