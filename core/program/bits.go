package program

import "math/big"

// bitLists returns every list of n bits in lexicographic order (bits(n)). The 2^n lists share
// one array of 2^n + n − 1 elements: a de Bruijn sequence of order n holds every n-bit word
// exactly once as a window, so each list is a window of it (values are immutable, and each
// window's capacity ends with it, so no join can write past it). bits(20) then holds 2^20
// elements instead of 20·2^20 — in WebAssembly, 700 MB of memory less, which the JavaScript
// engine counts against its own heap and answers with long garbage collections.
func bitLists(n int) []Value {
	out := make([]Value, 1<<n)
	if n == 0 {
		out[0] = listVal([]Value{})
		return out
	}
	db := deBruijn(n)
	db = append(db, db[:n-1]...) // the windows that wrap around, unrolled
	vals := make([]Value, len(db))
	for i, b := range db {
		vals[i] = intVal(int64(b))
	}
	// The lists' headers are one array too, in row order: one allocation instead of 2^n, each
	// list's size (n + 1) and depth (1) known without going over its elements, and a run over
	// the rows in order reads them in the order they lie in memory.
	seqs := make([]seq, len(out))
	mask := 1<<n - 1
	w := 0
	for i, b := range db {
		w = (w<<1 | int(b)) & mask
		if i >= n-1 {
			start := i - n + 1
			seqs[w] = seq{elems: vals[start : start+n : start+n], size: n + 1, depth: 1}
			out[w] = Value{k: kList, ref: &seqs[w]}
		}
	}
	return out
}

// deBruijn returns the binary de Bruijn sequence of order n (length 2^n, read cyclically every
// n-bit word appears once as a window), by concatenating the Lyndon words whose length divides n
// in lexicographic order (Fredricksen, Kessler and Maiorana).
func deBruijn(n int) []byte {
	a := make([]byte, n+1)
	seq := make([]byte, 0, 1<<n)
	var gen func(t, p int)
	gen = func(t, p int) {
		if t > n {
			if n%p == 0 {
				seq = append(seq, a[1:p+1]...)
			}
			return
		}
		a[t] = a[t-p]
		gen(t+1, p)
		for j := a[t-p] + 1; j < 2; j++ {
			a[t] = j
			gen(t+1, t)
		}
	}
	gen(1, 1)
	return seq
}

// bitsWidth reads bits(n)'s argument: an integer from 0 to 20.
func (r *runner) bitsWidth(c *Call, arg Value) (int, error) {
	if arg.k != kInt || !arg.small() || arg.n < 0 || arg.n > 20 {
		return 0, r.fail(start(c.Args[0]), "bits(n) needs an integer n between 0 and 20, not %s", arg.Label())
	}
	return int(arg.n), nil
}

// bitsDomain is bits(n) as a secret's domain: list k is built when its row runs, as a window of
// one de Bruijn sequence (see bitLists), and its label is written from k's digits. No list of
// the 2^n is held by the domain itself, so that the collector has little to go over.
type bitsDomain struct {
	n     int
	vals  []Value // the de Bruijn sequence, its first n − 1 elements repeated at the end
	pos   []int32 // list k is vals[pos[k] : pos[k]+n]
	p     *big.Rat
	chunk []seq // value's current chunk of list headers
	digit [][]byte
}

// bitsDomainOf evaluates bits(n) as a secret's domain.
func (r *runner) bitsDomainOf(c *Call) (*bitsDomain, error) {
	arg, err := r.eval(c.Args[0], &wstate{})
	if err != nil {
		return nil, err
	}
	n, err := r.bitsWidth(c, arg)
	if err != nil {
		return nil, err
	}
	return newBitsDomain(n), nil
}

func newBitsDomain(n int) *bitsDomain {
	d := &bitsDomain{n: n, p: big.NewRat(1, 1<<n), pos: make([]int32, 1<<n)}
	if n == 0 {
		return d
	}
	db := deBruijn(n)
	db = append(db, db[:n-1]...) // the windows that wrap around, unrolled
	d.vals = make([]Value, len(db))
	for i, b := range db {
		d.vals[i] = intVal(int64(b))
	}
	mask := 1<<n - 1
	w := 0
	for i, b := range db {
		w = (w<<1 | int(b)) & mask
		if i >= n-1 {
			d.pos[w] = int32(i - n + 1)
		}
	}
	return d
}

// value is list k. Its header is cut from a chunk of a few thousand: one allocation for many
// rows (a chunk lives as long as any of its lists).
func (d *bitsDomain) value(k int) Value {
	if d.n == 0 {
		return listVal([]Value{})
	}
	if len(d.chunk) == cap(d.chunk) {
		d.chunk = make([]seq, 0, 4096)
	}
	s := int(d.pos[k])
	d.chunk = append(d.chunk, seq{elems: d.vals[s : s+d.n : s+d.n], size: d.n + 1, depth: 1})
	return Value{k: kList, ref: &d.chunk[len(d.chunk)-1]}
}

// appendLabel appends list k's label, [b, b, …, b], the most significant bit first, from a table
// of the labels of every group of up to 10 bits.
func (d *bitsDomain) appendLabel(b []byte, k int) []byte {
	const group = 10
	if d.digit == nil {
		d.digit = make([][]byte, 1<<group)
	}
	b = append(b, '[')
	for left := d.n; left > 0; {
		w := min(left, group)
		left -= w
		v := k >> left & (1<<w - 1)
		if left > 0 {
			// A full group: its label from the table.
			if d.digit[v] == nil {
				d.digit[v] = groupLabel(nil, v, w)
			}
			b = append(b, d.digit[v]...)
			b = append(b, ", "...)
			continue
		}
		b = groupLabel(b, v, w)
	}
	return append(b, ']')
}

// groupLabel appends the w bits of v, the most significant first, separated by ", ".
func groupLabel(b []byte, v, w int) []byte {
	for j := w - 1; j >= 0; j-- {
		b = append(b, byte('0'+v>>j&1))
		if j > 0 {
			b = append(b, ", "...)
		}
	}
	return b
}
