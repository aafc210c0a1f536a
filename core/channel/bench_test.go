package channel

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Sizes match the benchmarks for measures (100×100 and 2000×2000).
var benchSizes = []int{100, 2000}

func benchChannel(n int) *mat.Dense {
	return randomChannel(rand.New(rand.NewPCG(uint64(n), 7)), n, n)
}

func BenchmarkValidate(b *testing.B) {
	for _, n := range benchSizes {
		c := benchChannel(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if err := Validate(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHyper(b *testing.B) {
	for _, n := range benchSizes {
		c := benchChannel(n)
		prior := uniform(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Hyper(prior, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkReduce(b *testing.B) {
	for _, n := range benchSizes {
		// Half the columns duplicated, so that merging has work to do.
		c := splitColumns(rand.New(rand.NewPCG(1, 1)), benchChannel(n/2))
		b.Run(fmt.Sprintf("%d×%d", n/2, 3*n/2), func(b *testing.B) {
			for b.Loop() {
				if _, err := Reduce(c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCascade(b *testing.B) {
	for _, n := range []int{100, 500} {
		c := benchChannel(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Cascade(c, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParallel(b *testing.B) {
	for _, n := range []int{30, 100} {
		c := benchChannel(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Parallel(c, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
