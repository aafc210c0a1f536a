package mechanism

import (
	"math"
	"testing"

	"github.com/qif-toolkit/qif/core/graph"
)

func BenchmarkTruncatedGeometric1000(b *testing.B) {
	for b.Loop() {
		if _, err := TruncatedGeometric(1000, 0.1, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomizedResponse1000(b *testing.B) {
	for b.Loop() {
		if _, err := RandomizedResponse(1000, 0.1, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExponential1000(b *testing.B) {
	for b.Loop() {
		if _, err := Exponential(1000, 0.1, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExponentialEpsilon1000(b *testing.B) {
	for b.Loop() {
		if _, err := ExponentialEpsilon(1000, 0.1, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOptimalGrid32x32(b *testing.B) {
	g, err := graph.Grid(32, 32)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := NewTheorem62(g, 0.5); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOptimalClique500(b *testing.B) {
	g, err := graph.Clique(500)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := NewTheorem62(g, math.Ln2); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkUtility1000(b *testing.B) {
	h, _ := TruncatedGeometric(1000, 0.1, 1000)
	prior := make([]float64, 1000)
	for i := range prior {
		prior[i] = 1. / 1000
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Utility(prior, h, nil); err != nil {
			b.Fatal(err)
		}
	}
}
