package privacy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// DPrivacyEpsilon against its definition evaluated term by term here — max over x ≠ x′, y with
// C[x][y] > C[x′][y] of (ln C[x][y] − ln C[x′][y]) / D[x][x′], +Inf at distance 0 or against a
// zero, nothing at distance +Inf — on random channels with zeros, repeated rows, and metrics
// with zero and infinite distances.
func TestDPrivacyEpsilonBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 300; trial++ {
		n, m := 2+rng.IntN(7), 1+rng.IntN(7)
		c := mat.NewDense(n, m, nil)
		for x := 0; x < n; x++ {
			if x > 0 && rng.IntN(5) == 0 {
				c.SetRow(x, c.RawRowView(rng.IntN(x)))
				continue
			}
			s := 0.0
			row := make([]float64, m)
			for y := range row {
				if rng.IntN(6) > 0 {
					row[y] = rng.Float64()
				}
				s += row[y]
			}
			if s == 0 {
				row[0], s = 1, 1
			}
			for y := range row {
				row[y] /= s
			}
			c.SetRow(x, row)
		}
		d := mat.NewDense(n, n, nil)
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				v := 0.1 + 3*rng.Float64()
				switch rng.IntN(8) {
				case 0:
					v = 0
				case 1:
					v = math.Inf(1)
				}
				d.Set(a, b, v)
				d.Set(b, a, v)
			}
		}
		want := 0.0
		for x := 0; x < n; x++ {
			for x2 := 0; x2 < n; x2++ {
				dist := d.At(x, x2)
				if x == x2 || math.IsInf(dist, 1) {
					continue
				}
				for y := 0; y < m; y++ {
					a, b := c.At(x, y), c.At(x2, y)
					if a <= b {
						continue
					}
					r := math.Inf(1)
					if b > 0 && dist > 0 {
						r = (math.Log(a) - math.Log(b)) / dist
					}
					want = math.Max(want, r)
				}
			}
		}
		got, wit, err := DPrivacyEpsilon(c, d)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("trial %d: %v, the definition %v", trial, got, want)
		}
		if got > 0 {
			// The witness attains it.
			a, b, dist := c.At(wit.X, wit.Y), c.At(wit.X2, wit.Y), d.At(wit.X, wit.X2)
			r := math.Inf(1)
			if b > 0 && dist > 0 {
				r = (math.Log(a) - math.Log(b)) / dist
			}
			if r != got {
				t.Fatalf("trial %d: witness %+v gives %v, not %v", trial, wit, r, got)
			}
		}
	}
}

// BenchmarkDPrivacyEpsilonGrid: DPrivacyEpsilon against its definition evaluated term by term
// (two logarithms per compared entry, as TestDPrivacyEpsilonBrute does), in the same run, on the
// exponential mechanism of a side × side map of cells; it reports both times and their ratio.
func BenchmarkDPrivacyEpsilonGrid(b *testing.B) {
	for _, side := range []int{12, 20} {
		n := side * side
		d := mat.NewDense(n, n, nil)
		c := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			s := 0.0
			for j := 0; j < n; j++ {
				v := math.Hypot(float64(i%side-j%side), float64(i/side-j/side))
				d.Set(i, j, v)
				c.Set(i, j, math.Exp(-0.75*v))
				s += c.At(i, j)
			}
			for j := 0; j < n; j++ {
				c.Set(i, j, c.At(i, j)/s)
			}
		}
		definition := func() float64 {
			best := 0.0
			for x := 0; x < n; x++ {
				for x2 := 0; x2 < n; x2++ {
					if x == x2 {
						continue
					}
					for y := 0; y < n; y++ {
						if a, bb := c.At(x, y), c.At(x2, y); a > bb {
							best = math.Max(best, (math.Log(a)-math.Log(bb))/d.At(x, x2))
						}
					}
				}
			}
			return best
		}
		b.Run(fmt.Sprintf("%dx%d", side, side), func(b *testing.B) {
			var ours, theirs time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				got, _, _ := DPrivacyEpsilon(c, d)
				ours += time.Since(t0)
				t0 = time.Now()
				want := definition()
				theirs += time.Since(t0)
				if got != want {
					b.Fatalf("%v, the definition %v", got, want)
				}
			}
			b.ReportMetric(float64(ours.Microseconds())/float64(b.N)/1000, "ms")
			b.ReportMetric(float64(theirs.Microseconds())/float64(b.N)/1000, "definition-ms")
			b.ReportMetric(float64(theirs)/float64(ours), "definition/ours")
		})
	}
}
