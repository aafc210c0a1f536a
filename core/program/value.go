package program

import (
	"math/big"
	"strconv"
	"strings"
)

// kind is the type of a value at run time.
type kind uint8

const (
	kUnset kind = iota // a variable that has no value on this path
	kInt               // an integer: n, or ref *big.Int when it does not fit in an int64
	kRat               // a rational that is not an integer: ref *big.Rat (never mutated)
	kBool              // n is 0 or 1
	kStr               // ref string, or *grownStr (see join.go)
	kList              // ref *seq
	kTuple             // ref *seq
)

// Value is one value of the language. Values are immutable: an assignment x[i] = e builds a new
// list, so that states may share them. Integers that fit in an int64 are kept unboxed because
// almost every value of a teaching program is a small integer.
type Value struct {
	k   kind
	n   int64
	ref any
}

// seq is the element list of a list or tuple, with its size (elements counted recursively),
// which bounds what one value may hold. grow, when set, is the mark of the backing array that
// several lists may share (see join.go).
type seq struct {
	elems []Value
	size  int
	grow  *int
	depth int32 // nesting: 1 for a list of scalars (bounded by MaxNesting)
}

func intVal(n int64) Value  { return Value{k: kInt, n: n} }
func boolVal(b bool) Value  { return Value{k: kBool, n: b2i(b)} }
func strVal(s string) Value { return Value{k: kStr, ref: s} }
func listVal(e []Value) Value {
	return Value{k: kList, ref: &seq{elems: e, size: sizeOf(e), depth: depthOf(e)}}
}
func tupleVal(e []Value) Value {
	return Value{k: kTuple, ref: &seq{elems: e, size: sizeOf(e), depth: depthOf(e)}}
}

// depthOf is the nesting depth of a list or tuple with elements e: 1 plus the deepest element's.
func depthOf(e []Value) int32 {
	d := int32(0)
	for _, v := range e {
		if v.k == kList || v.k == kTuple {
			d = max(d, v.ref.(*seq).depth)
		}
	}
	return d + 1
}

// nesting is the depth of a list or tuple (0 for any other value).
func (v Value) nesting() int32 {
	if v.k == kList || v.k == kTuple {
		return v.ref.(*seq).depth
	}
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func sizeOf(e []Value) int {
	s := 1
	for _, v := range e {
		s += v.size()
	}
	return s
}

// size is the number of units a value occupies: 1 for a scalar, its length for a string, one
// more than its elements for a list or tuple.
func (v Value) size() int {
	switch v.k {
	case kStr:
		return 1 + len(v.str())
	case kList, kTuple:
		return v.ref.(*seq).size
	case kInt:
		if b, ok := v.ref.(*big.Int); ok {
			return 1 + len(b.Bits())
		}
	case kRat:
		r := v.ref.(*big.Rat)
		return 1 + len(r.Num().Bits()) + len(r.Denom().Bits())
	}
	return 1
}

func (v Value) elems() []Value { return v.ref.(*seq).elems }
func (v Value) str() string {
	if g, ok := v.ref.(*grownStr); ok {
		return g.s
	}
	return v.ref.(string)
}

// bigInt returns an integer value as a *big.Int (a fresh one for a small integer).
func (v Value) bigInt() *big.Int {
	if b, ok := v.ref.(*big.Int); ok {
		return b
	}
	return big.NewInt(v.n)
}

// rat returns a number as a *big.Rat (a fresh one unless it is a stored rational).
func (v Value) rat() *big.Rat {
	if v.k == kRat {
		return v.ref.(*big.Rat)
	}
	return new(big.Rat).SetInt(v.bigInt())
}

func (v Value) isNum() bool { return v.k == kInt || v.k == kRat }

// small reports whether v is an integer held unboxed.
func (v Value) small() bool { return v.k == kInt && v.ref == nil }

// normInt returns b as a value, unboxed when it fits in an int64.
func normInt(b *big.Int) Value {
	if b.IsInt64() {
		return intVal(b.Int64())
	}
	return Value{k: kInt, ref: b}
}

// normRat returns r as a value: an integer when its denominator is 1.
func normRat(r *big.Rat) Value {
	if r.IsInt() {
		return normInt(new(big.Int).Set(r.Num()))
	}
	return Value{k: kRat, ref: r}
}

// typeName is the name of a value's type in error messages.
func (v Value) typeName() string {
	switch v.k {
	case kInt, kRat:
		return "a number"
	case kBool:
		return "a boolean"
	case kStr:
		return "a string"
	case kList:
		return "a list"
	case kTuple:
		return "a tuple"
	}
	return "no value"
}

// Label is how a value prints in row and column labels: integers in decimal, rationals a/b in
// lowest terms, booleans true/false, lists [a, b], tuples (a, b), strings raw.
func (v Value) Label() string { return string(v.appendLabel(nil, false, false)) }

// QuotedLabel is Label with every string that could be read as another value (see plainString)
// in double quotes, escaped as in Go: distinct values always print distinctly. Labels use it
// when the raw labels of a channel's rows or columns would collide.
func (v Value) QuotedLabel() string { return string(v.appendLabel(nil, false, true)) }

// plainString reports whether s prints raw in a label: it cannot be read as another value or
// as several observations. Inside a list or a tuple it must also not hold the characters that
// separate and close elements.
func plainString(s string, inside bool) bool {
	if s == "" || s == "true" || s == "false" || s == "∅" || strings.Contains(s, "; ") {
		return false
	}
	for _, r := range s {
		if r < ' ' || r == 0x7f {
			return false
		}
		if inside && strings.ContainsRune(`",[]()`, r) {
			return false
		}
	}
	switch s[0] {
	case '"', '[', '(':
		return false
	}
	return !readsAsNumber(s)
}

// readsAsNumber reports whether s has the form of a number's label: an integer or a fraction
// a/b, with an optional minus sign.
func readsAsNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	num, den, frac := strings.Cut(s, "/")
	digits := func(t string) bool {
		if t == "" {
			return false
		}
		for i := 0; i < len(t); i++ {
			if t[i] < '0' || t[i] > '9' {
				return false
			}
		}
		return true
	}
	return digits(num) && (!frac || digits(den))
}

// appendLabel appends v's label to b (inside: v is an element of a list or tuple; quote: quote
// the strings that could be read as another value).
func (v Value) appendLabel(b []byte, inside, quote bool) []byte {
	switch v.k {
	case kInt:
		if v.small() && v.n >= 0 && v.n < 10 { // a digit (bits, small counts): the usual case
			return append(b, byte('0'+v.n))
		}
		if v.small() {
			return strconv.AppendInt(b, v.n, 10)
		}
		return v.ref.(*big.Int).Append(b, 10)
	case kRat:
		return append(b, v.ref.(*big.Rat).RatString()...)
	case kBool:
		if v.n != 0 {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case kStr:
		if !quote || plainString(v.str(), inside) {
			return append(b, v.str()...)
		}
		return strconv.AppendQuote(b, v.str())
	case kList, kTuple:
		open, close := byte('['), byte(']')
		if v.k == kTuple {
			open, close = '(', ')'
		}
		b = append(b, open)
		for i, e := range v.elems() {
			if i > 0 {
				b = append(b, ", "...)
			}
			if e.k == kInt && e.ref == nil && e.n >= 0 && e.n < 10 { // a digit, without a call
				b = append(b, byte('0'+e.n))
				continue
			}
			b = e.appendLabel(b, true, quote)
		}
		if v.k == kTuple && len(v.elems()) == 1 {
			b = append(b, ',')
		}
		return append(b, close)
	}
	return b
}

// key appends an encoding of v that is equal for equal values and different otherwise (the
// kind, then the contents with lengths), so that states can be merged by their bytes.
func (v Value) key(b []byte) []byte {
	b = append(b, byte(v.k))
	switch v.k {
	case kInt:
		if v.small() {
			return strconv.AppendInt(b, v.n, 36)
		}
		b = append(b, '!')
		return append(v.ref.(*big.Int).Append(b, 36), ';')
	case kRat:
		r := v.ref.(*big.Rat)
		b = append(r.Num().Append(b, 36), '/')
		return append(r.Denom().Append(b, 36), ';')
	case kBool:
		return append(b, byte('0'+v.n))
	case kStr:
		s := v.str()
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		return append(b, s...)
	case kList, kTuple:
		es := v.elems()
		b = strconv.AppendInt(b, int64(len(es)), 10)
		b = append(b, ':')
		for _, e := range es {
			b = e.key(b)
		}
	}
	return b
}

// equal reports whether two values are the same value.
func equal(a, b Value) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case kInt:
		if a.small() && b.small() {
			return a.n == b.n
		}
		if a.small() != b.small() {
			return false // normalized: a big integer never fits in an int64
		}
		return a.ref.(*big.Int).Cmp(b.ref.(*big.Int)) == 0
	case kRat:
		return a.ref.(*big.Rat).Cmp(b.ref.(*big.Rat)) == 0
	case kBool:
		return a.n == b.n
	case kStr:
		return a.str() == b.str()
	case kList, kTuple:
		x, y := a.elems(), b.elems()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return true
}

// compare orders two values of the same comparable type: numbers by value, strings, lists and
// tuples lexicographically, booleans false < true. ok is false when they cannot be ordered.
func compare(a, b Value) (c int, ok bool) {
	switch {
	case a.isNum() && b.isNum():
		if a.small() && b.small() {
			switch {
			case a.n < b.n:
				return -1, true
			case a.n > b.n:
				return 1, true
			}
			return 0, true
		}
		return a.rat().Cmp(b.rat()), true
	case a.k != b.k:
		return 0, false
	case a.k == kStr:
		return strings.Compare(a.str(), b.str()), true
	case a.k == kBool:
		return int(a.n - b.n), true
	case a.k == kList || a.k == kTuple:
		x, y := a.elems(), b.elems()
		for i := 0; i < len(x) && i < len(y); i++ {
			c, ok := compare(x[i], y[i])
			if !ok || c != 0 {
				return c, ok
			}
		}
		switch {
		case len(x) < len(y):
			return -1, true
		case len(x) > len(y):
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
