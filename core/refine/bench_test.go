package refine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// benchPairs returns, for size n, a pair where the order holds (B = A·R) and a random pair
// where it fails; wide A (2n outputs) forces the linear program of Avg.
func benchPairs(n, m1 int) (A, Bpost, Brand *mat.Dense) {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(m1)))
	A = randomChannel(rng, n, m1, 0)
	Bpost = mul(A, randomChannel(rng, m1, n, 0))
	Brand = randomChannel(rng, n, n, 0)
	return
}

func BenchmarkOrders(b *testing.B) {
	for _, n := range []int{10, 30, 60} {
		for _, wide := range []bool{false, true} {
			m1 := n
			if wide {
				m1 = 2 * n
			}
			A, Bp, Br := benchPairs(n, m1)
			for _, c := range []struct {
				name string
				B    *mat.Dense
			}{{"holds", Bp}, {"fails", Br}} {
				b.Run(fmt.Sprintf("avg/%dx%d-%dx%d/%s", n, m1, n, n, c.name), func(b *testing.B) {
					r, _ := Avg(A, c.B)
					b.ReportMetric(float64(r.LPVariables), "lpvars")
					b.ReportMetric(float64(r.LPConstraints), "lprows")
					for b.Loop() {
						Avg(A, c.B)
					}
				})
				if wide {
					continue
				}
				b.Run(fmt.Sprintf("max/%dx%d/%s", n, n, c.name), func(b *testing.B) {
					for b.Loop() {
						Max(A, c.B)
					}
				})
				b.Run(fmt.Sprintf("prv/%dx%d/%s", n, n, c.name), func(b *testing.B) {
					for b.Loop() {
						Prv(A, c.B)
					}
				})
			}
		}
	}
}

func BenchmarkSafeEpsilon(b *testing.B) {
	tg := Mechanism{TruncatedGeometric, 10, 10}
	rr := Mechanism{RandomizedResponse, 10, 10}
	for b.Loop() {
		SafeEpsilon(rr, 1, tg, OrderAvg, nil)
	}
}
