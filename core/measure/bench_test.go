package measure

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The benchmarks use dense random channels (every entry uniform in [0,1), rows normalized), the
// same family as bench/node/measure.bench.mjs, so native and WebAssembly timings compare.

var benchSizes = []int{100, 2000}

func benchInputs(n int) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(uint64(n), 42))
	return randChannel(rng, n, n, false), randDist(rng, n, false)
}

func BenchmarkPosteriorBayesVulnerability(b *testing.B) {
	for _, n := range benchSizes {
		c, prior := benchInputs(n)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			b.SetBytes(int64(8 * n * n))
			for i := 0; i < b.N; i++ {
				if _, err := PosteriorBayesVulnerability(prior, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMutualInformation(b *testing.B) {
	for _, n := range benchSizes {
		c, prior := benchInputs(n)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			b.SetBytes(int64(8 * n * n))
			for i := 0; i < b.N; i++ {
				if _, err := MutualInformation(prior, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkShannonCapacity runs Blahut–Arimoto to the default 1e-9 gap, bounded at 200
// iterations (20 for 2000×2000, as in bench/node) so that it stays short; it reports the
// iterations used and the remaining gap.
func BenchmarkShannonCapacity(b *testing.B) {
	for _, n := range benchSizes {
		c, _ := benchInputs(n)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			var r CapacityResult
			for i := 0; i < b.N; i++ {
				var err error
				limit := 200
				if n > 1000 {
					limit = 20
				}
				if r, err = ShannonCapacity(c, &CapacityOptions{MaxIterations: limit}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Iterations), "iterations")
			b.ReportMetric(r.UpperBound-r.Capacity, "gap-bits")
		})
	}
}

// BenchmarkCapacity200Gap1e9 is the figure: iterations and time to a certified 1e-9 gap
// on a 200×200 random channel.
func BenchmarkCapacity200Gap1e9(b *testing.B) {
	c, _ := benchInputs(200)
	var r CapacityResult
	for i := 0; i < b.N; i++ {
		var err error
		if r, err = ShannonCapacity(c, &CapacityOptions{Tolerance: 1e-9, MaxIterations: 1_000_000}); err != nil {
			b.Fatal(err)
		}
	}
	if !r.Converged {
		b.Fatalf("no 1e-9 gap after %d iterations", r.Iterations)
	}
	b.ReportMetric(float64(r.Iterations), "iterations")
	b.ReportMetric(r.UpperBound-r.Capacity, "gap-bits")
}
