package estimate

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gaussians is n samples of two equiprobable secrets with one-dimensional observations N(0, 1)
// and N(μ, 1), drawn with the given PCG seed.
func gaussians(tb testing.TB, n int, mu float64, seed uint64) *Sample {
	rng := rand.New(rand.NewPCG(seed, 2))
	sec := make([]float64, n)
	obs := mat.NewDense(n, 1, nil)
	for i := range sec {
		sec[i] = float64(rng.IntN(2))
		obs.Set(i, 0, rng.NormFloat64()+mu*sec[i])
	}
	s, err := NewSample(Labels{Numbers: sec}, Observations{Vectors: obs})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// gaussianSample is gaussians with μ = 1.5 and seed 1.
func gaussianSample(tb testing.TB, n int) *Sample { return gaussians(tb, n, 1.5, 1) }

// k-NN Bayes risk on 10⁶ one-dimensional samples, 80/20 split, k = ⌈ln n⌉, with the curve.
func BenchmarkKNNMillion(b *testing.B) {
	s := gaussianSample(b, 1_000_000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BayesRisk(s, BayesRiskOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchDiscrete runs f on 10⁶ samples of randomized response on four secrets (coded once, or in
// every iteration when code is set, to time the coding too).
func benchDiscrete(b *testing.B, code bool, f func(s *Sample) error) {
	xs, ys, _ := Draw(coverageChannels[3].prior, coverageChannels[3].C, 1_000_000, 1)
	s := codes(b, xs, ys)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code {
			s = codes(b, xs, ys)
		}
		if err := f(s); err != nil {
			b.Fatal(err)
		}
	}
}

// The frequentist channel of 10⁶ discrete samples.
func BenchmarkFrequentistMillion(b *testing.B) {
	benchDiscrete(b, false, func(s *Sample) error { _, err := FrequentistChannel(s); return err })
}

// Coding 10⁶ numeric labels and the MI estimate with its bootstrap interval (no shuffles).
func BenchmarkMIMillion(b *testing.B) {
	benchDiscrete(b, true, func(s *Sample) error { _, err := MutualInformation(s, LeakageOptions{Shuffles: -1}); return err })
}

// The zero-leakage test's shuffles on 10⁶ samples.
func BenchmarkShufflesMillion(b *testing.B) {
	benchDiscrete(b, false, func(s *Sample) error {
		_, err := MutualInformation(s, LeakageOptions{Shuffles: 10, Bootstrap: 20})
		return err
	})
}

// The frequentist Bayes risk of 10⁶ discrete samples, with the curve.
func BenchmarkFrequentistRiskMillion(b *testing.B) {
	benchDiscrete(b, false, func(s *Sample) error { _, err := BayesRisk(s, BayesRiskOptions{Method: Frequentist}); return err })
}
