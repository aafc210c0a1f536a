package program

import "unsafe"

// Joining strings and lists in amortized constant time per unit added. A program that builds a
// string one character at a time (`s = s + c` in a loop) would otherwise copy the whole string
// at every step: 5·10⁹ bytes for 100,000 characters. Values are immutable and states share
// them, so a join may extend a backing array in place only where nobody else can see it: each
// grown backing array records how far it is used (its mark); a value that ends exactly at the
// mark may be extended past it (the bytes or elements there belong to no value yet), and moves
// the mark; any other value is copied into a new array with room to grow. The interpreter runs
// one secret value at a time on one goroutine, and a grown value never reaches a constant of
// the program, so no two joins race for a mark.

// growFrom is the length from which a join makes room to grow: below it a copy is cheap.
const growFrom = 64

// grownStr is a string held in a growable byte array: s is buf[:len(s)] (never changed), and
// the array is used up to *mark.
type grownStr struct {
	s    string
	buf  []byte // the whole array: len is its capacity in use, cap its room
	mark *int
}

// joinValues returns x + y for two strings or two lists, and the units copied (the work done).
func joinValues(x, y Value) (Value, int, error) {
	if x.k == kStr {
		if len(x.str())+len(y.str()) > MaxValueSize {
			return Value{}, 0, opErr("a string grew beyond %d characters", MaxValueSize)
		}
		v, n := joinStrings(x, y)
		return v, n, nil
	}
	if x.size()+y.size()-2 > MaxValueSize { // the elements, counted recursively, of both lists
		return Value{}, 0, opErr("a list grew beyond %d elements", MaxValueSize)
	}
	v, n := joinLists(x, y)
	return v, n, nil
}

// joinStrings returns x + y and the number of bytes copied (the work done).
func joinStrings(x, y Value) (Value, int) {
	a, b := x.str(), y.str()
	n := len(a) + len(b)
	if g, ok := x.ref.(*grownStr); ok && len(a) == *g.mark && n <= cap(g.buf) {
		buf := append(g.buf[:len(a)], b...) // into the room past the mark: no value holds it
		*g.mark = n
		return Value{k: kStr, ref: &grownStr{s: unsafe.String(unsafe.SliceData(buf), n), buf: buf, mark: g.mark}}, len(b)
	}
	if n < growFrom {
		return strVal(a + b), n
	}
	buf := make([]byte, n, 2*n)
	copy(buf, a)
	copy(buf[len(a):], b)
	mark := n
	return Value{k: kStr, ref: &grownStr{s: unsafe.String(unsafe.SliceData(buf), n), buf: buf, mark: &mark}}, n
}

// joinLists returns x + y (two lists) and the number of elements copied.
func joinLists(x, y Value) (Value, int) {
	sx, sy := x.ref.(*seq), y.ref.(*seq)
	a, b := sx.elems, sy.elems
	n := len(a) + len(b)
	size := sx.size + sy.size - 1
	if sx.grow != nil && len(a) == *sx.grow && n <= cap(a) {
		e := append(a, b...) // into the room past the mark: no list holds it
		*sx.grow = n
		return Value{k: kList, ref: &seq{elems: e, size: size, grow: sx.grow, depth: max(sx.depth, sy.depth)}}, len(b)
	}
	c := n
	if n >= growFrom {
		c = 2 * n
	}
	e := make([]Value, n, c)
	copy(e, a)
	copy(e[len(a):], b)
	mark := n
	return Value{k: kList, ref: &seq{elems: e, size: size, grow: &mark, depth: max(sx.depth, sy.depth)}}, n
}
