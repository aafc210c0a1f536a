package program

import (
	"fmt"
	"math/big"
)

// The operations of the language on values. Each returns a message (not yet positioned) when it
// cannot apply; the interpreter adds the line and column of the operator.

type opError string

func opErr(format string, args ...any) error { return opError(fmt.Sprintf(format, args...)) }
func (e opError) Error() string              { return string(e) }

const small31 = 1 << 31

func checkInt(b *big.Int) (Value, error) {
	if b.BitLen() > MaxIntBits {
		return Value{}, opErr("a number grew beyond %d bits", MaxIntBits)
	}
	return normInt(b), nil
}

func checkRat(r *big.Rat) (Value, error) {
	if r.Num().BitLen() > MaxIntBits || r.Denom().BitLen() > MaxIntBits {
		return Value{}, opErr("a number grew beyond %d bits", MaxIntBits)
	}
	return normRat(r), nil
}

func binop(op string, x, y Value) (Value, error) {
	switch op {
	case "==":
		return boolVal(equal(x, y)), nil
	case "!=":
		return boolVal(!equal(x, y)), nil
	case "<", "<=", ">", ">=":
		c, ok := compare(x, y)
		if !ok || x.k == kBool {
			return Value{}, operandError(op, x, y)
		}
		switch op {
		case "<":
			return boolVal(c < 0), nil
		case "<=":
			return boolVal(c <= 0), nil
		case ">":
			return boolVal(c > 0), nil
		}
		return boolVal(c >= 0), nil
	case "xor":
		switch {
		case x.k == kBool && y.k == kBool:
			return boolVal(x.n != y.n), nil
		case x.k == kInt && y.k == kInt:
			if x.small() && y.small() {
				return intVal(x.n ^ y.n), nil
			}
			return checkInt(new(big.Int).Xor(x.bigInt(), y.bigInt()))
		}
		return Value{}, operandError(op, x, y)
	case "+":
		switch {
		case x.k == kStr && y.k == kStr || x.k == kList && y.k == kList:
			v, _, err := joinValues(x, y)
			return v, err
		case !x.isNum() || !y.isNum():
			return Value{}, operandError(op, x, y)
		}
	}
	if !x.isNum() || !y.isNum() {
		return Value{}, operandError(op, x, y)
	}
	if x.small() && y.small() && x.n > -small31 && x.n < small31 && y.n > -small31 && y.n < small31 {
		a, b := x.n, y.n
		switch op {
		case "+":
			return intVal(a + b), nil
		case "-":
			return intVal(a - b), nil
		case "*":
			return intVal(a * b), nil
		case "//", "%":
			if b == 0 {
				return Value{}, opErr("division by zero")
			}
			q := a / b
			if (a%b != 0) && ((a < 0) != (b < 0)) {
				q-- // round towards −∞
			}
			if op == "//" {
				return intVal(q), nil
			}
			return intVal(a - b*q), nil
		}
	}
	if x.k == kInt && y.k == kInt && op != "/" {
		a, b := x.bigInt(), y.bigInt()
		switch op {
		case "+":
			return checkInt(new(big.Int).Add(a, b))
		case "-":
			return checkInt(new(big.Int).Sub(a, b))
		case "*":
			if a.BitLen()+b.BitLen() > MaxIntBits+1 {
				return Value{}, opErr("a number grew beyond %d bits", MaxIntBits)
			}
			return checkInt(new(big.Int).Mul(a, b))
		}
	}
	a, b := x.rat(), y.rat()
	switch op {
	case "+":
		return checkRat(new(big.Rat).Add(a, b))
	case "-":
		return checkRat(new(big.Rat).Sub(a, b))
	case "*":
		return checkRat(new(big.Rat).Mul(a, b))
	}
	if b.Sign() == 0 {
		return Value{}, opErr("division by zero")
	}
	q := new(big.Rat).Quo(a, b)
	if op == "/" {
		return checkRat(q)
	}
	// Floor division and modulo: a Rat's denominator is positive, so Euclidean division of the
	// numerator by it is the floor.
	fl := new(big.Int).Div(q.Num(), q.Denom())
	if op == "//" {
		return checkInt(fl)
	}
	return checkRat(new(big.Rat).Sub(a, new(big.Rat).Mul(b, new(big.Rat).SetInt(fl))))
}

func unop(op string, x Value) (Value, error) {
	if op == "not" {
		if x.k != kBool {
			return Value{}, unaryError(op, x)
		}
		return boolVal(x.n == 0), nil
	}
	switch {
	case x.small() && x.n > -small31 && x.n < small31:
		return intVal(-x.n), nil
	case x.k == kInt:
		return checkInt(new(big.Int).Neg(x.bigInt()))
	case x.k == kRat:
		return normRat(new(big.Rat).Neg(x.rat())), nil
	}
	return Value{}, unaryError(op, x)
}

// toIndex reads an index: an integer in 0..n−1.
func toIndex(i Value, n int, what string) (int, error) {
	if i.k == kRat {
		return 0, opErr("an index must be an integer, but this is %s, not an integer", i.Label())
	}
	if i.k != kInt {
		return 0, opErr("an index must be an integer, but this is %s", i.typeName())
	}
	if !i.small() || i.n < 0 || i.n >= int64(n) {
		return 0, opErr("index %s is out of range for %s of length %d (indices start at 0)", i.Label(), what, n)
	}
	return int(i.n), nil
}

func index(x, i Value) (Value, error) {
	switch x.k {
	case kList, kTuple:
		es := x.elems()
		what := "a list"
		if x.k == kTuple {
			what = "a tuple"
		}
		k, err := toIndex(i, len(es), what)
		if err != nil {
			return Value{}, err
		}
		return es[k], nil
	case kStr:
		rs := []rune(x.str())
		k, err := toIndex(i, len(rs), "a string")
		if err != nil {
			return Value{}, err
		}
		return strVal(string(rs[k])), nil
	}
	return Value{}, opErr("cannot index %s: only lists, tuples and strings have elements", x.typeName())
}

// setIndex returns base with base[idx[0]]...[idx[k]] replaced by v (a new list; base is unchanged).
func setIndex(name string, base Value, idx []Value, v Value) (Value, error) {
	if base.k != kList {
		if base.k == kUnset {
			return Value{}, opErr("`%s` has no value here, so `%s[…]` cannot be assigned", name, name)
		}
		return Value{}, opErr("only a list's elements can be assigned, but this is %s", base.typeName())
	}
	es := base.elems()
	k, err := toIndex(idx[0], len(es), "a list")
	if err != nil {
		return Value{}, err
	}
	if len(idx) > 1 {
		if v, err = setIndex(name, es[k], idx[1:], v); err != nil {
			return Value{}, err
		}
	}
	out := append([]Value(nil), es...)
	out[k] = v
	l := listVal(out)
	if l.size() > MaxValueSize {
		return Value{}, opErr("a list grew beyond %d elements", MaxValueSize)
	}
	if l.nesting() > MaxNesting {
		return Value{}, opErr("a list or tuple is nested more than %d levels deep", MaxNesting)
	}
	return l, nil
}

// elements are what a for loop, uniform, min, max and sum go over.
func elements(x Value) ([]Value, bool) {
	switch x.k {
	case kList, kTuple:
		return x.elems(), true
	case kStr:
		rs := []rune(x.str())
		out := make([]Value, len(rs))
		for i, r := range rs {
			out[i] = strVal(string(r))
		}
		return out, true
	}
	return nil, false
}

// callDet applies a deterministic built-in to its argument values.
func callDet(name string, args []Value) (Value, error) {
	switch name {
	case "len":
		switch args[0].k {
		case kList, kTuple:
			return intVal(int64(len(args[0].elems()))), nil
		case kStr:
			return intVal(int64(len([]rune(args[0].str())))), nil
		}
		return Value{}, opErr("len needs a list, a tuple or a string, not %s", args[0].typeName())
	case "abs":
		if !args[0].isNum() {
			return Value{}, opErr("abs needs a number, not %s", args[0].typeName())
		}
		if c, _ := compare(args[0], intVal(0)); c < 0 {
			return unop("-", args[0])
		}
		return args[0], nil
	case "str":
		if args[0].k == kStr { // a string is its own text (its label may be quoted)
			return args[0], nil
		}
		s := args[0].Label()
		if len(s) > MaxValueSize {
			return Value{}, opErr("a string grew beyond %d characters", MaxValueSize)
		}
		return strVal(s), nil
	case "bit":
		x, i := args[0], args[1]
		if x.k != kInt || i.k != kInt {
			return Value{}, opErr("bit(x, i) needs two integers")
		}
		if !i.small() || i.n < 0 || i.n > MaxIntBits {
			return Value{}, opErr("bit(x, i): i must be between 0 and %d, not %s", MaxIntBits, i.Label())
		}
		if x.small() && i.n < 63 {
			return intVal((x.n >> uint(i.n)) & 1), nil
		}
		return intVal(int64(new(big.Int).Rsh(x.bigInt(), uint(i.n)).Bit(0))), nil
	case "sum":
		es, ok := elements(args[0])
		if !ok || args[0].k == kStr {
			return Value{}, opErr("sum needs a list of numbers, not %s", args[0].typeName())
		}
		acc := intVal(0)
		for _, e := range es {
			if !e.isNum() {
				return Value{}, opErr("sum needs a list of numbers, but it holds %s", e.typeName())
			}
			var err error
			if acc, err = binop("+", acc, e); err != nil {
				return Value{}, err
			}
		}
		return acc, nil
	case "min", "max":
		es := args
		if len(args) == 1 {
			var ok bool
			if es, ok = elements(args[0]); !ok {
				return Value{}, opErr("%s of one argument needs a list, not %s (or give several values: %s(a, b))", name, args[0].typeName(), name)
			}
			if len(es) == 0 {
				return Value{}, opErr("%s of an empty list", name)
			}
		}
		best := es[0]
		for _, e := range es[1:] {
			c, ok := compare(e, best)
			if !ok || e.k == kBool {
				return Value{}, opErr("%s cannot compare %s with %s", name, e.typeName(), best.typeName())
			}
			if name == "min" && c < 0 || name == "max" && c > 0 {
				best = e
			}
		}
		return best, nil
	}
	return Value{}, opErr("`%s` is not a function", name)
}
