package program

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
