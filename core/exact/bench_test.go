package exact

import (
	"fmt"
	"gonum.org/v1/gonum/mat"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/measure"
	"github.com/qif-toolkit/qif/core/mechanism"
)

// The measure benchmarks use rational channels as people type them: every entry an integer in
// 1..99 divided by its row's sum (so each row has its own denominator), a prior of the same
// kind, and a gain of small signed fractions k/7 with as many guesses as secrets. Each
// sub-benchmark times the exact function and, in the same run, its floating-point twin on the
// same (converted) inputs, and reports float-ns/op and the ratio exact/float.

var benchSizes = []int{10, 50, 200}

type benchCase struct {
	name  string
	exact func() error
	float func() error
}

func measureCases(n int) []benchCase {
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	C := randomChannel(rng, n, n, 99, false)
	prior := randomDistribution(rng, n, 99, false)
	G := randomGain(rng, n, n)
	Cf, pf, Gf := dense(C), prior.Floats(), dense(G)
	B := randomChannel(rng, n, n, 99, false)
	Bf := dense(B)
	cases := []benchCase{
		{"PosteriorBayesVulnerability",
			func() error { _, err := PosteriorBayesVulnerability(prior, C); return err },
			func() error { _, err := measure.PosteriorBayesVulnerability(pf, Cf); return err }},
		{"MultiplicativeBayesLeakage",
			func() error { _, err := MultiplicativeBayesLeakage(prior, C); return err },
			func() error { _, err := measure.MultiplicativeBayesLeakage(pf, Cf); return err }},
		{"MaxCasePosteriorBayesVulnerability",
			func() error { _, err := MaxCasePosteriorBayesVulnerability(prior, C); return err },
			func() error { _, err := measure.MaxCasePosteriorBayesVulnerability(pf, Cf); return err }},
		{"PosteriorGVulnerability",
			func() error { _, err := PosteriorGVulnerability(G, prior, C); return err },
			func() error { _, err := measure.PosteriorGVulnerability(Gf, pf, Cf); return err }},
		{"PosteriorGuessingEntropy",
			func() error { _, err := PosteriorGuessingEntropy(prior, C); return err },
			func() error { _, err := measure.PosteriorGuessingEntropy(pf, Cf); return err }},
		{"MultiplicativeBayesCapacity",
			func() error { _, err := MultiplicativeBayesCapacity(C); return err },
			func() error { _, err := measure.MinCapacity(Cf); return err }},
		{"Hyper",
			func() error { _, err := Hyper(prior, C); return err },
			func() error { _, err := channel.Hyper(pf, Cf); return err }},
		{"Cascade",
			func() error { _, err := Cascade(C, B); return err },
			func() error { _, err := channel.Cascade(Cf, Bf); return err }},
	}
	return cases
}

// runPair times exact for b.N iterations, then float for at least as long, in the same run.
func runPair(b *testing.B, c benchCase) {
	if err := c.exact(); err != nil {
		b.Skip(err) // beyond the size limit
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.exact(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	exactNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	floatNs := timeIt(c.float)
	b.ReportMetric(floatNs, "float-ns/op")
	b.ReportMetric(exactNs/floatNs, "exact/float")
}

// timeIt is the time per call of f, repeated for at least 100 ms.
func timeIt(f func() error) float64 {
	start, k := time.Now(), 0
	for time.Since(start) < 100*time.Millisecond {
		if err := f(); err != nil {
			panic(err)
		}
		k++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(k)
}

func BenchmarkMeasures(b *testing.B) {
	for _, n := range benchSizes {
		for _, c := range measureCases(n) {
			b.Run(fmt.Sprintf("%s/%dx%d", c.name, n, n), func(b *testing.B) { runPair(b, c) })
		}
	}
}

// BenchmarkCertify times OptimalMechanism (floating-point solve, exact re-solve of its basis,
// exact pivots if any) against the floating-point mechanism.OptimalLP on the same program
// (forced to solve the LP), and reports the exact pivots.
func BenchmarkCertify(b *testing.B) {
	k6, _ := graph.Clique(6)
	p10, _ := graph.Path(10)
	k10, _ := graph.Clique(10)
	g4, _ := graph.Grid(4, 4)
	for _, c := range []struct {
		name  string
		g     *graph.Graph
		prior Vector
	}{
		{"Table1-uniform", k6, nil},
		{"Table1-nonuniform", k6, vec("1/10", "1/5", "1/5", "1/5", "1/5", "1/10")},
		{"path10", p10, nil}, {"clique10", k10, nil}, {"grid4", g4, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			e := MustParse("2")
			var res *OptimalResult
			for i := 0; i < b.N; i++ {
				var err error
				if res, err = OptimalMechanism(MechanismSpec{Graph: c.g, ExpEpsilon: e, Prior: c.prior}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			exactNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			var pf []float64
			if c.prior != nil {
				pf = c.prior.Floats()
			}
			floatNs := timeIt(func() error {
				_, err := mechanism.OptimalLP(mechanism.LPSpec{Graph: c.g, Epsilon: math.Ln2, Prior: pf, ForceLP: true})
				return err
			})
			b.ReportMetric(floatNs, "float-ns/op")
			b.ReportMetric(exactNs/floatNs, "exact/float")
			b.ReportMetric(float64(res.Pivots), "pivots")
		})
	}
}

// BenchmarkCertifyLargeFactors times OptimalMechanism on grids of points with three times the
// Manhattan distance and e^ε = 1000 (neighbours bound by 10^9), against mechanism.OptimalLP on
// the same metric in floating point, and reports the exact pivots and the correction rounds of
// the floating-point stage.
func BenchmarkCertifyLargeFactors(b *testing.B) {
	for _, sz := range [][2]int{{2, 4}, {4, 4}} {
		rows, cols := sz[0], sz[1]
		n := rows * cols
		d := &Matrix{Rows: n, Cols: n, Data: make([]*big.Rat, n*n)}
		df := mat.NewDense(n, n, nil)
		for a := 0; a < n; a++ {
			for c := 0; c < n; c++ {
				m := 3 * (abs(a/cols-c/cols) + abs(a%cols-c%cols))
				d.Data[a*n+c] = big.NewRat(int64(m), 1)
				df.Set(a, c, float64(m))
			}
		}
		b.Run(fmt.Sprintf("grid%dx%d", rows, cols), func(b *testing.B) {
			var res *OptimalResult
			for i := 0; i < b.N; i++ {
				var err error
				if res, err = OptimalMechanism(MechanismSpec{Metric: d, ExpEpsilon: big.NewRat(1000, 1)}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			exactNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			floatNs := timeIt(func() error {
				_, err := mechanism.OptimalLP(mechanism.LPSpec{Metric: df, Epsilon: math.Log(1000)})
				return err
			})
			b.ReportMetric(floatNs, "float-ns/op")
			b.ReportMetric(exactNs/floatNs, "exact/float")
			b.ReportMetric(float64(res.Pivots), "pivots")
			b.ReportMetric(float64(res.Rounds), "rounds")
		})
	}
}

// BenchmarkParse reads the numbers a typed or pasted channel holds beyond the fast path of small
// fractions: decimals of a float's shortest form and fractions of long integers.
func BenchmarkParse(b *testing.B) {
	texts := []string{"0.3333333333333333", "1e-3", "123456789012345678901234567890/7", " 2.5E2 / 3 ", "-0.125"}
	for i := 0; i < b.N; i++ {
		for _, s := range texts {
			if _, err := Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
