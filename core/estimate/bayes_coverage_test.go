package estimate

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// rareLabels is n samples of two equiprobable secrets, each observed through its own 1,000
// values drawn uniformly: the observation identifies the secret (R* = 0), but a value is seen
// about n/2,000 times.
func rareLabels(tb testing.TB, n int, seed uint64) *Sample {
	rng := rand.New(rand.NewPCG(seed, 4))
	sec, obs := make([]float64, n), make([]float64, n)
	for i := range sec {
		x := rng.IntN(2)
		sec[i], obs[i] = float64(x), float64(1000*x+rng.IntN(1000))
	}
	s, err := NewSample(Labels{Numbers: sec}, Observations{Labels: Labels{Numbers: obs}})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// noisyGaussians is n samples of two equiprobable secrets observed as a 31-dimensional vector:
// N(0, 1) or N(4, 1) in the first coordinate and 30 coordinates of N(0, 1) noise, so that
// R* = Φ(−2) while nearest neighbours are far apart.
func noisyGaussians(tb testing.TB, n int, seed uint64) *Sample {
	rng := rand.New(rand.NewPCG(seed, 5))
	sec := make([]float64, n)
	obs := mat.NewDense(n, 31, nil)
	for i := range sec {
		sec[i] = float64(rng.IntN(2))
		for j := 0; j < 31; j++ {
			obs.Set(i, j, rng.NormFloat64())
		}
		obs.Set(i, 0, obs.At(i, 0)+4*sec[i])
	}
	s, err := NewSample(Labels{Numbers: sec}, Observations{Vectors: obs})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// The lower end of the Bayes risk's interval is a bound at the sample size used: on the two
// samples where the Cover–Hart formula at the measured NN error exceeds R* (that formula bounds
// R* only asymptotically), the interval still covers in at least 90% of repetitions — here the
// lower end never exceeds R*, since it is 0 whenever the observations hardly repeat.
func TestBayesRiskLowerIsABound(t *testing.T) {
	reps := 200
	if testing.Short() {
		reps = 100
	}
	cases := []struct {
		name   string
		sample func(seed uint64) *Sample
		rstar  float64
		method string
	}{
		{"labels identifying the secret through 1,000 rare values each, n = 2,000", func(seed uint64) *Sample { return rareLabels(t, 2000, seed) }, 0, Frequentist},
		{"two Gaussians 4σ apart and 30 noise dimensions, n = 1,000", func(seed uint64) *Sample { return noisyGaussians(t, 1000, seed) }, 0.5 * math.Erfc(2/math.Sqrt2), KNN},
	}
	for _, c := range cases {
		hit, nnAbove := 0, 0
		for r := 0; r < reps; r++ {
			br, err := BayesRisk(c.sample(uint64(r)), BayesRiskOptions{Method: c.method, Seed: uint64(r)})
			if err != nil {
				t.Fatal(err)
			}
			if br.Lower <= c.rstar && c.rstar <= br.Upper {
				hit++
			}
			if br.NNBound > c.rstar {
				nnAbove++
			}
		}
		if cov := float64(hit) / float64(reps); cov < 0.9 {
			t.Errorf("%s: the interval covers R* = %.4f in %.1f%% of %d repetitions", c.name, c.rstar, 100*cov, reps)
		}
		t.Logf("%s: covered in %d of %d; the Cover–Hart value at the measured NN error exceeds R* in %d", c.name, hit, reps, nnAbove)
	}
}

// The lower end by hand: 39 of 40 samples have the majority secret of their observation, so the
// frequentist rule succeeds S = 39 times on the whole sample, and the lower end is 1 − p with p
// the one-sided 97.5% Clopper–Pearson upper bound of 39/40: P(Binomial(40, p) ≤ 39) = 1 − p⁴⁰ =
// 0.025.
func TestBayesRiskLowerByHand(t *testing.T) {
	// 40 samples: observation "a" with secret 0 twenty times, "b" with secret 1 nineteen times
	// and once with secret 0.
	var sec, obs []string
	for i := 0; i < 20; i++ {
		sec, obs = append(sec, "0"), append(obs, "a")
	}
	for i := 0; i < 19; i++ {
		sec, obs = append(sec, "1"), append(obs, "b")
	}
	sec, obs = append(sec, "0"), append(obs, "b")
	s, err := NewSample(Labels{Strings: sec}, Observations{Labels: Labels{Strings: obs}})
	if err != nil {
		t.Fatal(err)
	}
	br, err := BayesRisk(s, BayesRiskOptions{Method: Frequentist, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// P(Binomial(40, p) ≤ 39) = 1 − p^40 = 0.025 ⇒ p = 0.975^(1/40).
	want := 1 - math.Pow(0.975, 1.0/40)
	if math.Abs(br.Lower-want) > 1e-9 {
		t.Errorf("lower end %v, want %v", br.Lower, want)
	}
}
