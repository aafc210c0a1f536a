package mechanism

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// libqif's test: secrets 5..14 with outputs 0..9, 10..19, 1..18 and 7..12, built by clamping
// the outputs of the square geometric on 0..19 (a deterministic post-processing) and keeping
// rows 5..14 and the window's columns.
func TestGeometricWindowLibqifCase(t *testing.T) {
	const eps = 0.9
	g0, err := TruncatedGeometric(20, eps, 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ first, m int }{{0, 10}, {10, 10}, {1, 18}, {7, 6}} {
		want := mat.NewDense(10, w.m, nil)
		for x := 5; x < 15; x++ {
			for v := 0; v < 20; v++ {
				y := min(max(v, w.first), w.first+w.m-1) - w.first
				want.Set(x-5, y, want.At(x-5, y)+g0.At(x, v))
			}
		}
		got, err := GeometricWindow(10, eps, w.m, 5, w.first)
		if err != nil {
			t.Fatal(err)
		}
		if e := maxDiff(got, want); e > 1e-15 {
			t.Errorf("window %d..%d: differs by %v", w.first, w.first+w.m-1, e)
		}
	}
}

// The definition summed directly: P(clamp(x+Z) = y) = Σ_k P(Z = k)·[clamp(x+k) = y] over
// |k| ≤ 4000, whose tail beyond is below e^{−ε·4000}.
func TestGeometricWindowBruteForce(t *testing.T) {
	for _, tc := range []struct {
		n, m, firstIn, firstOut int
		eps                     float64
	}{
		{4, 3, 0, 0, 1}, {4, 7, 2, -1, 0.5}, {6, 2, -3, 10, 0.3}, {3, 5, 100, 90, 2},
		{5, 5, 0, 20, 0.7}, {5, 4, 20, 0, 0.7}, {1, 2, 0, 0, 0.05},
	} {
		got, err := GeometricWindow(tc.n, tc.eps, tc.m, tc.firstIn, tc.firstOut)
		if err != nil {
			t.Fatal(err)
		}
		alpha := math.Exp(-tc.eps)
		for i := 0; i < tc.n; i++ {
			x := tc.firstIn + i
			want := make([]float64, tc.m)
			for k := -4000; k <= 4000; k++ {
				v := min(max(x+k, tc.firstOut), tc.firstOut+tc.m-1)
				want[v-tc.firstOut] += (1 - alpha) / (1 + alpha) * math.Pow(alpha, math.Abs(float64(k)))
			}
			for j, w := range want {
				if math.Abs(got.At(i, j)-w) > 1e-13 {
					t.Errorf("%+v: [%d][%d] = %.17g, want %.17g", tc, i, j, got.At(i, j), w)
				}
			}
		}
	}
}

func TestGeometricWindowAgreesWithTheOtherForms(t *testing.T) {
	for _, eps := range []float64{0.1, 1, 40} {
		for n := 1; n <= 6; n++ {
			for m := 2; m <= 8; m++ {
				if m >= n {
					tg, _ := TruncatedGeometric(n, eps, m)
					w, _ := GeometricWindow(n, eps, m, 7, 7)
					if e := maxDiff(tg, w); e > 1e-15 {
						t.Errorf("n %d m %d ε %v: truncated differs by %v", n, m, eps, e)
					}
				} else {
					for off := 0; off <= n-m; off++ {
						ot, _ := OverTruncatedGeometricAt(n, m, off, eps)
						w, _ := GeometricWindow(n, eps, m, -3, off-3)
						if e := maxDiff(ot, w); e > 1e-15 {
							t.Errorf("n %d m %d off %d ε %v: over-truncated differs by %v", n, m, off, eps, e)
						}
					}
				}
			}
		}
	}
}

// Far windows and large ε: rows stay distributions, the near end takes the mass, ε-DP holds.
func TestGeometricWindowExtremes(t *testing.T) {
	for _, tc := range []struct {
		eps             float64
		firstIn, firstO int
	}{{40, 0, 1_000_000}, {0.001, 0, 1_000_000}, {1, 1 << 52, -(1 << 52)}, {700, 0, 3}, {1e-9, 0, 0}} {
		c, err := GeometricWindow(4, tc.eps, 3, tc.firstIn, tc.firstO)
		if err != nil {
			t.Fatal(err)
		}
		r := rows(c)
		for x, row := range r {
			s := 0.0
			for _, v := range row {
				if !(v >= 0) {
					t.Fatalf("%+v: entry %v", tc, v)
				}
				s += v
			}
			if math.Abs(s-1) > 1e-12 {
				t.Errorf("%+v: row %d sums to %v", tc, x, s)
			}
		}
		if tc.firstO > tc.firstIn+3 && r[0][0] < 1-1e-9 && tc.eps > 1 {
			t.Errorf("%+v: a window far above should put the mass on its first output: %v", tc, r[0])
		}
		// (At ε = 700, α² underflows to 0 next to α = 1e-304: no float matrix shows that ε.)
		if eps := bruteEpsilon(r, [][2]int{{0, 1}, {1, 2}, {2, 3}}); tc.eps < 300 && eps > tc.eps*(1+1e-9)+1e-12 {
			t.Errorf("%+v: ε = %v > %v", tc, eps, tc.eps)
		}
	}
}

func TestGeometricWindowErrors(t *testing.T) {
	for _, tc := range []struct {
		n, m        int
		eps         float64
		first, outs int
		arg         string
	}{
		{3, 1, 1, 0, 0, "m"}, {3, 0, 1, 0, 0, "m"}, {0, 3, 1, 0, 0, "n"}, {3, 3, 0, 0, 0, "epsilon"},
		{3, 3, math.NaN(), 0, 0, "epsilon"}, {3, 3, math.Inf(1), 0, 0, "epsilon"},
		{3, 3, 1, 1 << 54, 0, "firstInput"}, {3, 3, 1, 0, -(1 << 54), "firstOutput"},
	} {
		if _, err := GeometricWindow(tc.n, tc.eps, tc.m, tc.first, tc.outs); err == nil || !strings.HasPrefix(err.Error(), tc.arg+":") {
			t.Errorf("%+v: error %v", tc, err)
		}
	}
}
