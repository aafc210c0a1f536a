package estimate

import (
	"strconv"
	"testing"
)

// distinctLabels is n samples of 5 secrets whose observations are all distinct numbers (labels).
func distinctLabels(tb testing.TB, n int) *Sample {
	sec, obs := make([]float64, n), make([]float64, n)
	for i := range sec {
		sec[i] = float64(i % 5)
		obs[i] = float64(i)*1.5 + 0.25
	}
	s, err := NewSample(Labels{Numbers: sec}, Observations{Labels: Labels{Numbers: obs}})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// MI with its interval and the default shuffles on 199,000 samples whose observations are all
// distinct (the bootstrap draws samples, not one binomial per cell: a minute before).
func BenchmarkMIDistinctLabels(b *testing.B) {
	s := distinctLabels(b, 199_000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := MutualInformation(s, LeakageOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// MI asked for 10⁵ shuffles of 20,000 samples: capped at 2·10⁷ shuffled samples (1,000 shuffles).
func BenchmarkMIShufflesCapped(b *testing.B) {
	s := sampleOf(b, coverageChannels[3], 20_000, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := MutualInformation(s, LeakageOptions{Seed: 1, Shuffles: 100_000}); err != nil {
			b.Fatal(err)
		}
	}
}

// Coding 10⁶ distinct string observations and building the frequentist channel of 2 secrets.
func BenchmarkChannelMillionStrings(b *testing.B) {
	const n = 1_000_000
	ss, os := make([]string, n), make([]string, n)
	for i := range ss {
		ss[i] = strconv.Itoa(i % 2)
		os[i] = "o" + strconv.Itoa(i*7919%1_000_003)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := NewSample(Labels{Strings: ss}, Observations{Labels: Labels{Strings: os}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := FrequentistChannel(s); err != nil {
			b.Fatal(err)
		}
	}
}
