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

// bits(n) as a secret's domain builds list k when its row runs and writes its label from k's
// digits (by groups of 10 from a table): both must be bitLists' list k and its label, for every
// k up to n = 12 and for spread k at n = 20.
func TestBitsDomain(t *testing.T) {
	for n := 0; n <= 20; n++ {
		d := newBitsDomain(n)
		ls := bitLists(n)
		step := 1
		if n > 12 {
			step = 4093 // a prime: k goes through every residue of the low groups
		}
		for k := 0; k < 1<<n; k += step {
			for _, kk := range []int{k, 1<<n - 1 - k} {
				v := d.value(kk)
				if !equal(v, ls[kk]) || v.size() != ls[kk].size() || v.nesting() != ls[kk].nesting() {
					t.Fatalf("n=%d: list %d is %s, want %s", n, kk, v.Label(), ls[kk].Label())
				}
				if got, want := string(d.appendLabel([]byte("x"), kk)), "x"+ls[kk].Label(); got != want {
					t.Fatalf("n=%d: label %d is %s, want %s", n, kk, got, want)
				}
			}
		}
	}
}

// Rows of several secrets, one of them bits(n): the labels are the tuples' labels, in
// lexicographic order of the domains.
func TestBitsRowsWithOtherSecrets(t *testing.T) {
	res, err := Channel("secret a in bits(2)\nsecret b in [\"x\", 1]\nobserve a[1] + 0\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, a := range bitLists(2) {
		for _, b := range []Value{strVal("x"), intVal(1)} {
			want = append(want, tupleVal([]Value{a, b}).Label())
		}
	}
	if fmt.Sprint(res.Secrets) != fmt.Sprint(want) {
		t.Fatalf("rows %q, want %q", res.Secrets, want)
	}
	for i, row := range res.Channel {
		bit := i / 2 & 1 // a[1] is the low bit of a
		if row[res.colIndex(fmt.Sprint(bit))].Sign() == 0 {
			t.Fatalf("row %s: observed %v", res.Secrets[i], row)
		}
	}
}

// colIndex is the column labelled l (−1 if none).
func (res *Result) colIndex(l string) int {
	for j, o := range res.Observations {
		if o == l {
			return j
		}
	}
	return -1
}

// keyLen is the length of the key merge would build, for the values mergeHashed takes.
func TestKeyLen(t *testing.T) {
	vals := []Value{{}, boolVal(true), boolVal(false), strVal(""), strVal("héllo"), strVal(string(make([]byte, 1234)))}
	for _, n := range []int64{0, 1, 35, 36, 1295, 1296, -1, -36, -37, 1 << 62, -1 << 63, 1<<63 - 1} {
		vals = append(vals, intVal(n))
	}
	for _, v := range vals {
		if got, want := keyLen(v), len(v.key(nil)); got != want {
			t.Errorf("%s (%d): keyLen %d, key %d bytes", v.Label(), v.k, got, want)
		}
	}
}
