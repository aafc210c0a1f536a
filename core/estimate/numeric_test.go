package estimate

import (
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// mixture is a known system with numeric observations: secret x ~ prior, observation = mean[x] +
// noise (Gaussian or Laplace of scale `scale` in each coordinate, independent).
type mixture struct {
	name    string
	prior   []float64
	mean    [][]float64 // mean[x] has dim coordinates
	scale   float64
	laplace bool
}

func (m mixture) dim() int { return len(m.mean[0]) }

// density1 is the one-coordinate noise density at z.
func (m mixture) density1(z float64) float64 {
	if m.laplace {
		return math.Exp(-math.Abs(z)/m.scale) / (2 * m.scale)
	}
	return math.Exp(-z*z/(2*m.scale*m.scale)) / (m.scale * math.Sqrt(2*math.Pi))
}

// draw samples n pairs from the mixture.
func (m mixture) draw(n int, seed uint64) (secrets []float64, obs *mat.Dense) {
	r := newRand(seed)
	cum := cumulative(m.prior)
	d := m.dim()
	secrets = make([]float64, n)
	data := make([]float64, n*d)
	for i := 0; i < n; i++ {
		x := pick(cum, r)
		secrets[i] = float64(x)
		for j := 0; j < d; j++ {
			var z float64
			if m.laplace {
				u := r.Float64() - 0.5
				z = -m.scale * math.Copysign(math.Log(1-2*math.Abs(u)), u)
			} else {
				z = m.scale * normalRand(r)
			}
			data[i*d+j] = m.mean[x][j] + z
		}
	}
	return secrets, mat.NewDense(n, d, data)
}

// truth computes the true MI (bits) and Bayes risk R* = 1 − ∫ max_x π(x) f_x(y) dy by numerical
// integration on a grid (the midpoint rule, fine enough that the error is below 1e-4 here).
func (m mixture) truth() (mi, rstar float64) {
	d := m.dim()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, mu := range m.mean {
		for _, v := range mu {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	span := 12 * m.scale // Gaussian tails beyond 12σ: below 1e-32
	if m.laplace {
		span = 40 * m.scale // Laplace tails beyond 40 scales: below 1e-17
	}
	lo, hi = lo-span, hi+span
	steps := 20000
	if d == 2 {
		steps = 1200
	}
	h := (hi - lo) / float64(steps)
	L := len(m.prior)
	f := make([]float64, L)
	vmax := 0.0
	var point func(y []float64, w float64)
	point = func(y []float64, w float64) {
		tot, best := 0.0, 0.0
		for x := 0; x < L; x++ {
			p := 1.0
			for j := 0; j < d; j++ {
				p *= m.density1(y[j] - m.mean[x][j])
			}
			f[x] = m.prior[x] * p
			tot += f[x]
			best = math.Max(best, f[x])
		}
		vmax += w * best
		for x := 0; x < L; x++ {
			if f[x] > 0 {
				mi += w * f[x] * math.Log2(f[x]/(m.prior[x]*tot))
			}
		}
	}
	y := make([]float64, d)
	if d == 1 {
		for i := 0; i < steps; i++ {
			y[0] = lo + (float64(i)+0.5)*h
			point(y, h)
		}
	} else {
		for i := 0; i < steps; i++ {
			y[0] = lo + (float64(i)+0.5)*h
			for j := 0; j < steps; j++ {
				y[1] = lo + (float64(j)+0.5)*h
				point(y, h*h)
			}
		}
	}
	return mi, 1 - vmax
}

// numericSample is a Sample of the mixture.
func numericSample(t testing.TB, m mixture, n int, seed uint64) *Sample {
	xs, obs := m.draw(n, seed)
	s, err := NewSample(Labels{Numbers: xs}, Observations{Vectors: obs})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// bruteRoss is the estimator computed from its definition in O(n²), for small samples.
func bruteRoss(v []float64, dim int, sec []int32, k int) float64 {
	n := len(sec)
	dist := func(i, j int) float64 { return cheb(v[i*dim:i*dim+dim], v[j*dim:j*dim+dim]) }
	psi := func(m int) float64 { // ψ(m) = −γ + Σ_{j<m} 1/j
		s := -0.57721566490153286061
		for j := 1; j < m; j++ {
			s += 1 / float64(j)
		}
		return s
	}
	nx := map[int32]int{}
	for _, x := range sec {
		nx[x]++
	}
	sum := 0.0
	for i := 0; i < n; i++ {
		var ds []float64
		for j := 0; j < n; j++ {
			if j != i && sec[j] == sec[i] {
				ds = append(ds, dist(i, j))
			}
		}
		for a := range ds { // selection sort: small inputs
			for b := a + 1; b < len(ds); b++ {
				if ds[b] < ds[a] {
					ds[a], ds[b] = ds[b], ds[a]
				}
			}
		}
		d := ds[k-1]
		ki, mi := 0, 0
		for j := 0; j < n; j++ {
			if j != i && dist(i, j) <= d {
				mi++
				if sec[j] == sec[i] {
					ki++
				}
			}
		}
		sum += psi(ki) - psi(nx[sec[i]]) - psi(mi)
	}
	return (psi(n) + sum/float64(n)) / math.Ln2
}

func TestRossMatchesDefinition(t *testing.T) {
	for _, dim := range []int{1, 2, 3} {
		for _, tied := range []bool{false, true} {
			m := mixture{prior: []float64{0.5, 0.3, 0.2}, mean: [][]float64{{0, 0, 0}, {1, 0.5, 0}, {2, 1, 1}}, scale: 1}
			for x := range m.mean {
				m.mean[x] = m.mean[x][:dim]
			}
			s := numericSample(t, m, 300, uint64(dim))
			if tied { // rounded observations: many ties and repeated points
				for i := range s.Vectors {
					s.Vectors[i] = math.Round(2 * s.Vectors[i])
				}
			}
			for _, k := range []int{1, 3, 5} {
				d := newRossData(s, k)
				got := d.estimate(d.v, d.sec)
				want := bruteRoss(s.Vectors, dim, s.Secret, k)
				if math.Abs(got-want) > 1e-9 {
					t.Errorf("dim %d tied %v k %d: %v, definition %v", dim, tied, k, got, want)
				}
			}
		}
	}
}

func TestMixtureTruthClosedForms(t *testing.T) {
	// Two Gaussians at ±1 with σ = 1 and equal priors: R* = Φ(−1); two far-apart Laplace: MI = 1 bit.
	mi, r := mixture{prior: []float64{0.5, 0.5}, mean: [][]float64{{-1}, {1}}, scale: 1}.truth()
	if math.Abs(r-normalCDF(-1)) > 1e-6 {
		t.Errorf("R* %v, want Φ(−1) = %v", r, normalCDF(-1))
	}
	if mi <= 0 || mi >= 1 {
		t.Errorf("MI %v", mi)
	}
	mi, r = mixture{prior: []float64{0.5, 0.5}, mean: [][]float64{{-100}, {100}}, scale: 1, laplace: true}.truth()
	// The midpoint rule is O(h²) at the Laplace density's kinks: 1e-5 here.
	if math.Abs(mi-1) > 1e-4 || r > 1e-4 {
		t.Errorf("separated: MI %v R* %v, want 1 and 0", mi, r)
	}
	// Two coordinates, each separating as ±1 does: R* = P(sum of two N(0,1) < −2) = Φ(−√2).
	_, r = mixture{prior: []float64{0.5, 0.5}, mean: [][]float64{{-1, -1}, {1, 1}}, scale: 1}.truth()
	if math.Abs(r-normalCDF(-math.Sqrt2)) > 1e-4 {
		t.Errorf("2-D R* %v, want Φ(−√2) = %v", r, normalCDF(-math.Sqrt2))
	}
}

// numericCases are the systems of the coverage studies: 1-D and 2-D, Gaussian and Laplace noise,
// 2 to 16 secrets, uniform and skewed priors, weak and strong leakage.
func numericCases() []mixture {
	line := func(L int, gap float64) [][]float64 {
		out := make([][]float64, L)
		for x := range out {
			out[x] = []float64{gap * float64(x)}
		}
		return out
	}
	skewed := func(L int) []float64 { // π(x) ∝ 2^−x, the last few equal
		p := make([]float64, L)
		t := 0.0
		for x := range p {
			p[x] = math.Pow(0.6, float64(x))
			t += p[x]
		}
		for x := range p {
			p[x] /= t
		}
		return p
	}
	uniform := func(L int) []float64 {
		p := make([]float64, L)
		for x := range p {
			p[x] = 1 / float64(L)
		}
		return p
	}
	return []mixture{
		{name: "2 gauss 1-D", prior: uniform(2), mean: line(2, 1), scale: 1},
		{name: "5 laplace 1-D skewed", prior: skewed(5), mean: line(5, 1.5), scale: 1, laplace: true},
		{name: "timing 1-D", prior: []float64{1. / 16, 4. / 16, 6. / 16, 4. / 16, 1. / 16}, mean: line(5, 3), scale: 1.5},
		{name: "16 gauss 1-D", prior: uniform(16), mean: line(16, 1), scale: 0.7},
		{name: "4 gauss 2-D skewed", prior: []float64{0.55, 0.25, 0.15, 0.05}, mean: [][]float64{{0, 0}, {1.5, 0}, {0, 1.5}, {1.5, 1.5}}, scale: 1},
		{name: "8 laplace 2-D", prior: uniform(8), mean: [][]float64{{0, 0}, {2, 0}, {0, 2}, {2, 2}, {4, 0}, {0, 4}, {4, 4}, {4, 2}}, scale: 1, laplace: true},
	}
}

// TestNNMICoverage measures how often the 95% interval of NearestNeighbourMI covers the true MI.
// The short run (CI) is a representative subset; QIF_LONG_COVERAGE=1 runs every case at every
// size with more repetitions.
func TestNNMICoverage(t *testing.T) {
	long := os.Getenv("QIF_LONG_COVERAGE") != ""
	type run struct {
		m    mixture
		n    int
		reps int
	}
	var runs []run
	cases := numericCases()
	if long {
		for _, m := range cases {
			for _, n := range []int{500, 2000, 10000, 100000} {
				runs = append(runs, run{m, n, map[bool]int{true: 60, false: 200}[n == 100000]})
			}
		}
	} else {
		runs = []run{{cases[0], 500, 100}, {cases[1], 2000, 60}, {cases[2], 1000, 60}, {cases[4], 1000, 60}, {cases[3], 3000, 30}, {cases[5], 2000, 30}}
	}
	for _, r := range runs {
		mi, _ := r.m.truth()
		cover, width, leaks := 0, 0.0, 0
		for rep := 0; rep < r.reps; rep++ {
			s := numericSample(t, r.m, r.n, uint64(1000*rep+r.n))
			res, err := NearestNeighbourMI(s, NNMIOptions{Seed: uint64(rep), Shuffles: 20})
			if err != nil {
				t.Fatal(err)
			}
			if res.Lower <= mi && mi <= res.Upper {
				cover++
			}
			if res.Leaks {
				leaks++
			}
			width += res.Upper - res.Lower
		}
		c := float64(cover) / float64(r.reps)
		t.Logf("%-22s n=%6d true %.4f: coverage %.3f (%d runs), mean width %.4f, leaks %d", r.m.name, r.n, mi, c, r.reps, width/float64(r.reps), leaks)
		if c < 0.9 {
			t.Errorf("%s n=%d: coverage %.3f < 0.90", r.m.name, r.n, c)
		}
	}
}

// TestNNMIFalseAlarms: on independent secrets and observations the zero-leakage test rejects
// at about its level (5%), and the interval's lower end is then 0, covering the true MI 0.
func TestNNMIFalseAlarms(t *testing.T) {
	for _, m := range []mixture{
		{name: "3 secrets 1-D", prior: []float64{0.6, 0.3, 0.1}, mean: [][]float64{{0}, {0}, {0}}, scale: 1},
		{name: "4 secrets 2-D laplace", prior: []float64{0.25, 0.25, 0.25, 0.25}, mean: [][]float64{{0, 0}, {0, 0}, {0, 0}, {0, 0}}, scale: 1, laplace: true},
	} {
		sizes := []int{400}
		if os.Getenv("QIF_LONG_COVERAGE") != "" {
			sizes = append(sizes, 5000, 50000)
		}
		for _, n := range sizes {
			falseAlarms(t, m, n)
		}
	}
}

// falseAlarms runs the NN zero-leakage test on 200 independent samples of n and checks its rate.
func falseAlarms(t *testing.T, m mixture, n int) {
	reps, alarms := 200, 0
	for rep := 0; rep < reps; rep++ {
		s := numericSample(t, m, n, uint64(7*rep+1))
		res, err := NearestNeighbourMI(s, NNMIOptions{Seed: uint64(rep), Shuffles: 20})
		if err != nil {
			t.Fatal(err)
		}
		// The lower end is 0 whenever the test does not reject (it may also reach 0 when the
		// test rejects: the interval and the test are different procedures).
		if res.Leaks {
			alarms++
		} else if res.Lower != 0 {
			t.Errorf("no leak but lower end %v", res.Lower)
		}
	}
	rate := float64(alarms) / float64(reps)
	t.Logf("%s, n = %d: false alarms %.3f", m.name, n, rate)
	// 5% level: with 200 runs, above 10% would be a test at the wrong level (binomial p < 0.002).
	if rate > 0.10 {
		t.Errorf("%s: false alarm rate %.3f", m.name, rate)
	}
}

// BenchmarkNNMIMillion: Ross's estimator on 10⁶ one-dimensional observations (5 secrets), the
// estimate alone and with its interval and test.
func BenchmarkNNMIMillion(b *testing.B) {
	m := mixture{prior: []float64{1. / 16, 4. / 16, 6. / 16, 4. / 16, 1. / 16}, mean: [][]float64{{0}, {3}, {6}, {9}, {12}}, scale: 1.5}
	s := numericSample(b, m, 1_000_000, 1)
	b.Run("estimate", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := NearestNeighbourMI(s, NNMIOptions{Shuffles: -1, Groups: 2}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("full", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := NearestNeighbourMI(s, NNMIOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestSortLineByValue(t *testing.T) {
	r := newRand(3)
	xs := []float64{3, -1, 0, math.Copysign(0, -1), -1e300, 1e-310, -1e-310, 2.5, 2.5}
	for i := 0; i < 3000; i++ {
		xs = append(xs, (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(40)-20)))
	}
	sec := make([]int32, len(xs))
	for i := range sec {
		sec[i] = int32(i)
	}
	v, s := sortLineByValue(xs, sec)
	for i := range v {
		if i > 0 && v[i] < v[i-1] {
			t.Fatalf("not sorted at %d: %v then %v", i, v[i-1], v[i])
		}
		if xs[s[i]] != v[i] {
			t.Fatalf("entry %d: value %v carries secret %d whose value is %v", i, v[i], s[i], xs[s[i]])
		}
	}
}

// TestRiskLeakageCoverage measures how often the interval of MinEntropyLeakageFromRisk covers
// the true min-entropy leakage log₂((1 − R*)/max π), R* by numerical integration.
func TestRiskLeakageCoverage(t *testing.T) {
	long := os.Getenv("QIF_LONG_COVERAGE") != ""
	type run struct {
		m    mixture
		n    int
		reps int
	}
	cases := numericCases()
	runs := []run{{cases[0], 500, 60}, {cases[1], 2000, 40}, {cases[2], 1000, 40}, {cases[4], 1000, 40}}
	if long {
		runs = nil
		for _, m := range cases {
			for _, n := range []int{500, 2000, 10000, 100000} {
				runs = append(runs, run{m, n, map[bool]int{true: 40, false: 200}[n == 100000]})
			}
		}
	}
	for _, r := range runs {
		_, rstar := r.m.truth()
		want := math.Log2((1 - rstar) / slicesMax(r.m.prior))
		cover, width := 0, 0.0
		for rep := 0; rep < r.reps; rep++ {
			s := numericSample(t, r.m, r.n, uint64(977*rep+r.n))
			res, err := MinEntropyLeakageFromRisk(s, BayesRiskOptions{Seed: uint64(rep)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Lower <= want && want <= res.Upper {
				cover++
			}
			width += res.Upper - res.Lower
		}
		c := float64(cover) / float64(r.reps)
		t.Logf("%-22s n=%6d true %.4f (R* %.4f): coverage %.3f (%d runs), mean width %.4f", r.m.name, r.n, want, rstar, c, r.reps, width/float64(r.reps))
		if c < 0.9 {
			t.Errorf("%s n=%d: coverage %.3f < 0.90", r.m.name, r.n, c)
		}
	}
}

func slicesMax(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = math.Max(m, x)
	}
	return m
}

// TestNNMIRoundedObservations: timings rounded to a clock step repeat — to 0.5 µs about 60
// distinct values, to 0.01 µs about a third of the samples distinct — so many samples have
// neighbours at distance 0. The MI of the rounded observation is computed here from the Gaussian
// CDF bin by bin; the estimator (which spreads repeated values within their step, leaving the MI
// unchanged) must cover it. Before that spreading, the fine steps were estimated 0.05–0.06 bits
// low and missed.
func TestNNMIRoundedObservations(t *testing.T) {
	m := numericCases()[2] // the timing example: means 0, 3, …, 12, σ = 1.5
	for _, c := range []struct {
		w       float64
		n, reps int
	}{{0.5, 2000, 40}, {0.05, 5000, 150}, {0.01, 10000, 20}} {
		w := c.w
		mi := 0.0
		for b := -40.0; b <= 60; b += w {
			p, tot := make([]float64, len(m.prior)), 0.0
			for x := range p {
				p[x] = m.prior[x] * (normalCDF((b+w/2-m.mean[x][0])/m.scale) - normalCDF((b-w/2-m.mean[x][0])/m.scale))
				tot += p[x]
			}
			for x := range p {
				if p[x] > 0 {
					mi += p[x] * math.Log2(p[x]/(m.prior[x]*tot))
				}
			}
		}
		n, reps, cover, sum, jittered := c.n, c.reps, 0, 0.0, 0
		for rep := 0; rep < reps; rep++ {
			xs, obs := m.draw(n, uint64(7*rep+n))
			v := obs.RawMatrix().Data
			for i := range v {
				v[i] = w * math.Round(v[i]/w)
			}
			s, err := NewSample(Labels{Numbers: xs}, Observations{Vectors: mat.NewDense(n, 1, v)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := NearestNeighbourMI(s, NNMIOptions{Seed: uint64(rep), Shuffles: -1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Lower <= mi && mi <= res.Upper {
				cover++
			}
			sum += res.Value
			jittered += res.Jittered
		}
		t.Logf("rounded to %v µs, n = %d: true %.4f, mean estimate %.4f, coverage %d/%d", w, n, mi, sum/float64(reps), cover, reps)
		if float64(cover) < 0.9*float64(reps) || math.Abs(sum/float64(reps)-mi) > 0.03 {
			t.Errorf("rounded to %v: coverage %d/%d, mean %v for %v", w, cover, reps, sum/float64(reps), mi)
		}
		if jittered != reps {
			t.Errorf("rounded to %v: %d of %d estimates report spreading repeated values", w, jittered, reps)
		}
	}
}
