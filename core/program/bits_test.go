package program

import (
	"fmt"
	"testing"
)

// bits(n) is every list of n bits in lexicographic order, for each n up to 12 checked against
// the binary digits of 0..2^n − 1.
func TestBitLists(t *testing.T) {
	for n := 0; n <= 12; n++ {
		ls := bitLists(n)
		if len(ls) != 1<<n {
			t.Fatalf("n=%d: %d lists", n, len(ls))
		}
		for k, l := range ls {
			want := "["
			for j := 0; j < n; j++ {
				if j > 0 {
					want += ", "
				}
				want += fmt.Sprint(k >> (n - 1 - j) & 1)
			}
			want += "]"
			if got := l.Label(); got != want {
				t.Fatalf("n=%d, list %d: %s, want %s", n, k, got, want)
			}
			if c := cap(l.elems()); c != n {
				t.Fatalf("n=%d, list %d: capacity %d, want %d (a window must end with its list)", n, k, c, n)
			}
			// The headers are written without listVal: the same size and depth as it computes.
			if sq, want := l.ref.(*seq), listVal(l.elems()).ref.(*seq); sq.size != want.size || sq.depth != want.depth || sq.grow != nil {
				t.Fatalf("n=%d, list %d: size %d depth %d, listVal gives %d and %d", n, k, sq.size, sq.depth, want.size, want.depth)
			}
		}
	}
}
