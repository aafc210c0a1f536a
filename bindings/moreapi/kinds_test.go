package moreapi

import (
	"math"
	"testing"

	"github.com/qif-toolkit/qif/core/lp"
)

// FuzzFlatLP checks that FlatLP never panics on a malformed problem and accepts only the layout
// web/qif.js writes.
func FuzzFlatLP(f *testing.F) {
	f.Add(2.0, 1.0, 1.0, 2.0, 0.0, 0.0, 9, 1.0)
	f.Add(1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 6, 0.0)
	f.Add(1e9, 0.0, 0.0, 0.0, 0.0, 0.0, 1, math.NaN())
	f.Fuzz(func(t *testing.T, n, m, max, nnz, lo, hi float64, size int, fill float64) {
		size = int(uint(size) % 64)
		data := make([]float64, size)
		for i := range data {
			data[i] = fill + float64(i%3)
		}
		p, err := FlatLP([]float64{n, m, max, nnz, lo, hi}, data)
		if err == nil && (len(p.Objective) != int(n) || len(p.RHS) != int(m)) {
			t.Fatalf("accepted a problem of the wrong shape: %d variables for n=%v", len(p.Objective), n)
		}
		if err == nil {
			_, _ = lp.Solve(p, &lp.Options{MaxIterations: 50})
		}
	})
}
