package program

import "fmt"

// The operators' types: one table, read by the checker (with the types it infers, some unknown)
// and by the interpreter (with the types of the values at hand), so that a program refused
// before it runs and one that fails while running get the same message.

// opSig is one accepted combination: the operands' types and the result's.
type opSig struct{ x, y, res typ }

// opRule is what an operator accepts and what it says otherwise.
type opRule struct {
	sigs []opSig
	// both: the message names both operands' types, so it is given only when both are known;
	// otherwise one known operand that no signature takes is reported alone.
	both bool
	// msg is the message for operands of the types x and y that no signature accepts.
	msg func(op string, x, y typ) string
}

// needs is the message of an operator whose operands have one type t: it names the side that
// is wrong (the left one when both are).
func needs(t typ, what string) func(op string, x, y typ) string {
	return func(op string, x, y typ) string {
		side, bad := "left", x
		if !x.known() || x == t {
			side, bad = "right", y
		}
		return fmt.Sprintf("`%s` needs %s, but the %s side is %s", op, what, side, typNames[bad])
	}
}

var (
	comparisons = opRule{
		sigs: []opSig{{tNum, tNum, tBool}, {tStr, tStr, tBool}, {tList, tList, tBool}, {tTuple, tTuple, tBool}},
		both: true,
		msg: func(op string, x, y typ) string {
			return fmt.Sprintf("cannot compare %s with %s using `%s`", typNames[x], typNames[y], op)
		},
	}
	logical    = opRule{sigs: []opSig{{tBool, tBool, tBool}}, msg: needs(tBool, "two booleans")}
	arithmetic = opRule{sigs: []opSig{{tNum, tNum, tNum}}, msg: needs(tNum, "two numbers")}
)

// binaryOps are the binary operators; `==` and `!=` compare any two values and are not listed.
var binaryOps = map[string]opRule{
	"+": {
		sigs: []opSig{{tNum, tNum, tNum}, {tStr, tStr, tStr}, {tList, tList, tList}},
		both: true,
		msg: func(_ string, x, y typ) string {
			return fmt.Sprintf("cannot add %s and %s (`+` adds numbers and joins two strings or two lists)", typNames[x], typNames[y])
		},
	},
	"-": arithmetic, "*": arithmetic, "/": arithmetic, "//": arithmetic, "%": arithmetic,
	"<": comparisons, "<=": comparisons, ">": comparisons, ">=": comparisons,
	"and": logical, "or": logical,
	"xor": {
		sigs: []opSig{{tBool, tBool, tBool}, {tNum, tNum, tNum}},
		both: true,
		msg: func(_ string, x, y typ) string {
			return fmt.Sprintf("`xor` needs two booleans or two integers, not %s and %s", typNames[x], typNames[y])
		},
	},
}

// unaryOps are the prefix operators: the operand's type, the result's, and the message (with
// the operand's type).
var unaryOps = map[string]struct {
	operand, res typ
	msg          string
}{
	"-":   {tNum, tNum, "cannot negate %s"},
	"not": {tBool, tBool, "`not` needs a boolean, but this is %s"},
}

// binaryType is the type of `x op y` for operand types that may be unknown (tNone, tMixed), and
// the message when the known types are refused ("" when they may be accepted).
func binaryType(op string, x, y typ) (typ, string) {
	rule, ok := binaryOps[op]
	if !ok { // == and !=
		return tBool, ""
	}
	res, n := tNone, 0
	for _, s := range rule.sigs {
		if (!x.known() || s.x == x) && (!y.known() || s.y == y) {
			res = join(res, s.res)
			n++
		}
	}
	if n == 0 {
		if rule.both && !(x.known() && y.known()) {
			return tMixed, ""
		}
		return tMixed, rule.msg(op, x, y)
	}
	if res == tNone {
		res = tMixed
	}
	return res, ""
}

// unaryType is the type of `op x` and the message when x's known type is refused.
func unaryType(op string, x typ) (typ, string) {
	u := unaryOps[op]
	if x.known() && x != u.operand {
		return u.res, fmt.Sprintf(u.msg, typNames[x])
	}
	return u.res, ""
}

// operandError is the interpreter's message for `x op y` on values the operator refuses.
func operandError(op string, x, y Value) error {
	tx, ty := litType(x), litType(y)
	_, msg := binaryType(op, tx, ty)
	if msg == "" { // the types are accepted but not the values (lists whose elements do not compare)
		msg = binaryOps[op].msg(op, tx, ty)
	}
	return opError(msg)
}

// unaryError is the interpreter's message for `op x` on a value the operator refuses.
func unaryError(op string, x Value) error {
	_, msg := unaryType(op, litType(x))
	return opError(msg)
}
