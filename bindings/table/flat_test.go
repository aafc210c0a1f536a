package table

import (
	"math"
	"strings"
	"testing"
)

func TestFlatMatrix(t *testing.T) {
	m, err := FlatMatrix("C", 2, 3, []float64{1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := m.Dims(); r != 2 || c != 3 || m.At(1, 0) != 4 || m.At(0, 2) != 3 {
		t.Fatalf("got %v×%v %v, want row-major 2×3", r, c, m.RawMatrix().Data)
	}
	cases := []struct {
		rows, cols int
		data       []float64
		want       string
	}{
		{0, 3, nil, "C: empty matrix (0×3)"},
		{3, 0, nil, "C: empty matrix (3×0)"},
		{-1, 3, nil, "C: negative size"},
		{10_000, 10_000, nil, "C: 10000×10000 has 1e+08 entries, more than the limit"},
		{math.MaxInt, math.MaxInt, nil, "more than the limit"},
		{math.MinInt, -1, nil, "negative size"},
		{2, 2, []float64{1, 2, 3}, "C: data has 3 entries, expected rows×cols = 4"},
		{1, 1, []float64{1, 2}, "C: data has 2 entries"},
	}
	for _, tc := range cases {
		_, err := FlatMatrix("C", tc.rows, tc.cols, tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("FlatMatrix(%d, %d, %d entries) = %v, want error containing %q", tc.rows, tc.cols, len(tc.data), err, tc.want)
		}
	}
}

// FuzzFlatMatrix checks that FlatMatrix never panics and accepts exactly the flat matrices
// that the reference predicate accepts, returning them unchanged.
func FuzzFlatMatrix(f *testing.F) {
	f.Add(int64(2), int64(2), 4, 1.0)
	f.Add(int64(0), int64(5), 0, 0.0)
	f.Add(int64(1e4), int64(1e4), 0, 0.0)
	f.Add(int64(-3), int64(-3), 9, 0.5)
	f.Add(int64(math.MaxInt64), int64(2), 2, math.NaN())
	f.Add(int64(3), int64(1), 2, math.Inf(1))
	f.Fuzz(func(t *testing.T, rows, cols int64, n int, fill float64) {
		// n is the length of data, kept small so that the fuzzer does not allocate much.
		n = int(uint(n) % 64)
		data := make([]float64, n)
		for i := range data {
			data[i] = fill + float64(i)
		}
		r, c := int(rows), int(cols)
		m, err := FlatMatrix("M", r, c, data)
		want := r > 0 && c > 0 && float64(r)*float64(c) <= MaxEntries && r*c == n
		if (err == nil) != want {
			t.Fatalf("FlatMatrix(%d, %d, %d entries) error = %v, reference says ok=%v", r, c, n, err, want)
		}
		if err != nil {
			if !strings.HasPrefix(err.Error(), "M: ") {
				t.Fatalf("error %q does not name the argument", err)
			}
			return
		}
		gr, gc := m.Dims()
		if gr != r || gc != c {
			t.Fatalf("dims %d×%d, want %d×%d", gr, gc, r, c)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if v, w := m.At(i, j), data[i*c+j]; v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
					t.Fatalf("[%d][%d] = %v, want %v", i, j, v, w)
				}
			}
		}
	})
}
