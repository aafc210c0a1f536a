package heap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// With pushes and pops interleaved, every pop returns the smallest key among the entries pushed
// and not yet popped, tracked here in a plain slice.
func TestPopsTheSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		var h Min
		var in []float64
		pop := func() {
			got := h.Pop().Key
			i := slices.Index(in, slices.Min(in))
			if got != in[i] {
				t.Fatalf("trial %d: popped %v, the smallest is %v", trial, got, in[i])
			}
			in = slices.Delete(in, i, i+1)
		}
		for i := 0; i < 1+rng.IntN(200); i++ {
			k := float64(rng.IntN(20)) - 10 // repeated keys too
			h.Push(Entry{Key: k, V: i})
			in = append(in, k)
			if rng.IntN(3) == 0 {
				pop()
			}
		}
		for len(h) > 0 {
			pop()
		}
		if len(in) != 0 {
			t.Fatalf("trial %d: %d entries lost", trial, len(in))
		}
	}
}
