package privacy

import (
	"math"
	"math/rand/v2"
	"testing"

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
