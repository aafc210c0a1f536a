package program

import (
	"fmt"
	"math/big"
)

// parser is a recursive-descent parser over the scanner's items with one item of lookahead. It
// stops at the first syntax error (a student fixes one thing at a time; later errors after a
// broken line are mostly noise).
type parser struct {
	sc    *scanner
	tok   item
	err   *Error
	depth int // nesting of expressions and blocks, bounded so that no recursion runs deep
}

// maxDepth bounds the nesting of parentheses, right operands, brackets and blocks. A left
// operand, the operand of `-` or `not` and the indexed value of `x[i]` continue a spine (see
// spine.go), which every reader of the tree walks in a loop, so that a sum of 100,000 terms or
// 100,000 `not`s needs no deeper stack than one term; everything else recurses, and a program of
// a megabyte of "(" must not exhaust the stack (in WebAssembly, the JavaScript engine's).
const maxDepth = 200

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.tok.pos, "this is nested too deeply (more than %d levels of parentheses, brackets, right operands or blocks)", maxDepth)
	}
}

// bail is panicked with to unwind the parser at the first error; parse recovers it.
type bail struct{}

// Parse reads a program and returns its statements, or the first syntax error.
func Parse(src string) (stmts []Stmt, err *Error) {
	if len(src) > MaxSourceBytes {
		return nil, &Error{Line: 1, Column: 1, Message: fmt.Sprintf("the program is %d bytes long, more than the limit of %d", len(src), MaxSourceBytes)}
	}
	p := &parser{sc: newScanner(src)}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bail); !ok {
				panic(r)
			}
			stmts, err = nil, p.err
		}
	}()
	p.advance()
	stmts = p.stmtList(true)
	return stmts, nil
}

func (p *parser) advance() {
	p.tok = p.sc.scan()
	if p.tok.tok == tIllegal {
		p.fail(p.tok.pos, "%s", p.tok.lit)
	}
}

func (p *parser) fail(pos Pos, format string, args ...any) {
	p.err = &Error{Line: pos.Line, Column: pos.Column, Message: fmt.Sprintf(format, args...)}
	panic(bail{})
}

// describe names the current token for "expected … but found …" messages.
func (p *parser) describe() string {
	switch p.tok.tok {
	case tEOF:
		return "the end of the program"
	case tNewline:
		return "the end of the line"
	case tString:
		return fmt.Sprintf("the string %q", p.tok.lit)
	}
	return "`" + p.tok.lit + "`"
}

func (p *parser) is(lit string) bool {
	return (p.tok.tok == tOp || p.tok.tok == tKeyword) && p.tok.lit == lit
}

func (p *parser) expect(lit, what string) Pos {
	if !p.is(lit) {
		p.fail(p.tok.pos, "expected %s but found %s", what, p.describe())
	}
	pos := p.tok.pos
	p.advance()
	return pos
}

func (p *parser) skipNewlines() {
	for p.tok.tok == tNewline || p.is(";") {
		p.advance()
	}
}

// stmtList reads statements up to `}` (a block) or the end (top).
func (p *parser) stmtList(top bool) []Stmt {
	var out []Stmt
	for {
		p.skipNewlines()
		if p.tok.tok == tEOF {
			if !top {
				p.fail(p.tok.pos, "a block is not closed: add a `}`")
			}
			return out
		}
		if p.is("}") {
			if top {
				p.fail(p.tok.pos, "unexpected `}`: there is no open block to close")
			}
			return out
		}
		out = append(out, p.stmt())
		if p.is("..") {
			p.fail(p.tok.pos, "a range `a..b` is not a value here; it can be a secret's domain, a `for` loop's, or the argument of uniform")
		}
		// A statement ends at a newline, a `;`, a `}` or the end.
		if !(p.tok.tok == tNewline || p.is(";") || p.is("}") || p.tok.tok == tEOF) {
			p.fail(p.tok.pos, "expected the end of the statement (a new line or `;`) but found %s", p.describe())
		}
	}
}

func (p *parser) block(what string) []Stmt {
	if !p.is("{") {
		p.fail(p.tok.pos, "expected `{` to start the body of %s but found %s", what, p.describe())
	}
	p.advance()
	p.enter()
	body := p.stmtList(false)
	p.depth--
	p.advance() // the `}`
	return body
}

func (p *parser) stmt() Stmt {
	pos := p.tok.pos
	if p.tok.tok == tKeyword {
		switch p.tok.lit {
		case "secret":
			p.advance()
			name := p.ident("a name for the secret")
			p.expect("in", "`in` and the secret's domain (`secret x in 0..7`)")
			return &SecretStmt{node: node{P: pos}, Name: name, Domain: p.rangeExpr()}
		case "observe":
			p.advance()
			return &ObserveStmt{node: node{P: pos}, X: p.expr()}
		case "if":
			s := &IfStmt{node: node{P: pos}}
			p.advance()
			for {
				s.Conds = append(s.Conds, p.expr())
				s.Blocks = append(s.Blocks, p.block("`if`"))
				if !p.elseFollows() {
					return s
				}
				p.advance() // else
				if p.is("if") {
					p.advance()
					continue
				}
				s.Else = p.block("`else`")
				return s
			}
		case "while":
			p.advance()
			cond := p.expr()
			return &WhileStmt{node: node{P: pos}, Cond: cond, Body: p.block("`while`")}
		case "for":
			p.advance()
			name := p.ident("a loop variable")
			p.expect("in", "`in` (`for i in 0..9 { … }`)")
			over := p.rangeExpr()
			return &ForStmt{node: node{P: pos}, Name: name, Over: over, Body: p.block("`for`")}
		case "else":
			p.fail(pos, "`else` without an `if` before it")
		}
		p.fail(pos, "a statement cannot start with `%s`", p.tok.lit)
	}
	if p.tok.tok != tIdent {
		p.fail(pos, "expected a statement (an assignment `x = …`, `observe`, `if`, `while`, `for` or `secret`) but found %s", p.describe())
	}
	name := p.tok.lit
	p.advance()
	s := &AssignStmt{node: node{P: pos}, Name: name, NamePos: pos}
	for p.is("[") {
		p.advance()
		s.Indices = append(s.Indices, p.expr())
		p.expect("]", "`]`")
	}
	if p.is("=") {
		s.P = p.tok.pos
		p.advance()
		s.X = p.expr()
		return s
	}
	if p.is("+") || p.is("-") || p.is("*") || p.is("/") {
		op := p.tok.lit
		if p.sc.off < len(p.sc.src) && p.sc.src[p.sc.off] == '=' {
			p.fail(p.tok.pos, "`%s=` is not part of the language: write `%s = %s %s …`", op, name, name, op)
		}
	}
	if p.is("(") {
		p.fail(pos, "`%s(…)` alone does nothing: assign its value (`y = %s(…)`) or observe it", name, name)
	}
	if p.is("==") {
		p.fail(p.tok.pos, "`==` compares; to assign write `%s = …`", name)
	}
	p.fail(p.tok.pos, "expected `=` after `%s` (an assignment) but found %s", name, p.describe())
	return nil
}

// elseFollows reports whether `else` comes next, possibly on a following line.
func (p *parser) elseFollows() bool {
	if p.is("else") {
		return true
	}
	if p.tok.tok != tNewline {
		return false
	}
	save, saveTok := *p.sc, p.tok
	for p.tok.tok == tNewline {
		p.advance()
	}
	if p.is("else") {
		return true
	}
	*p.sc, p.tok = save, saveTok
	return false
}

func (p *parser) ident(what string) string {
	if p.tok.tok != tIdent {
		if p.tok.tok == tKeyword {
			p.fail(p.tok.pos, "`%s` is a keyword and cannot be used as %s", p.tok.lit, what)
		}
		p.fail(p.tok.pos, "expected %s but found %s", what, p.describe())
	}
	name := p.tok.lit
	p.advance()
	return name
}

// rangeExpr is an expression or a range `lo..hi`.
func (p *parser) rangeExpr() Expr {
	lo := p.expr()
	if p.is("..") {
		pos := p.tok.pos
		p.advance()
		return &Range{node: node{P: pos}, Lo: lo, Hi: p.expr()}
	}
	return lo
}

func (p *parser) expr() Expr {
	p.enter()
	defer func() { p.depth-- }()
	return p.binary(0)
}

// levels are the binary operators from the loosest to the tightest.
var levels = [][]string{
	{"or"}, {"xor"}, {"and"}, nil, // nil: `not`, a prefix operator
	{"==", "!=", "<", "<=", ">", ">="},
	{"+", "-"},
	{"*", "/", "//", "%"},
}

func (p *parser) binary(level int) Expr {
	if level == len(levels) {
		return p.unary()
	}
	if levels[level] == nil { // not, read in a loop: `not not … x` of any length is one spine
		var nots []Pos
		for p.is("not") {
			nots = append(nots, p.tok.pos)
			p.advance()
		}
		x := p.binary(level + 1)
		for i := len(nots) - 1; i >= 0; i-- {
			x = &Unary{node: node{P: nots[i]}, Op: "not", X: x}
		}
		return x
	}
	x := p.binary(level + 1)
	for {
		op := ""
		for _, o := range levels[level] {
			if p.is(o) {
				op = o
			}
		}
		if op == "" {
			return x
		}
		pos := p.tok.pos
		p.advance()
		// The right operand is a subtree off the spine: it counts towards the nesting bound.
		p.enter()
		y := p.binary(level + 1)
		p.depth--
		if levels[level][0] == "==" {
			if b, ok := x.(*Binary); ok && isComparison(b.Op) && !b.paren {
				p.fail(pos, "comparisons cannot be chained: write `a %s b and b %s c`", b.Op, op)
			}
		}
		x = &Binary{node: node{P: pos}, Op: op, X: x, Y: y}
	}
}

func isComparison(op string) bool {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// unary reads `- - … x` in a loop: a chain of prefix operators is a spine of the tree (see
// spine.go), walked without recursion wherever the tree is read.
func (p *parser) unary() Expr {
	p.enter()
	defer func() { p.depth-- }()
	var negs []Pos
	for p.is("-") {
		negs = append(negs, p.tok.pos)
		p.advance()
	}
	x := p.postfix()
	for i := len(negs) - 1; i >= 0; i-- {
		x = &Unary{node: node{P: negs[i]}, Op: "-", X: x}
	}
	return x
}

func (p *parser) postfix() Expr {
	x := p.primary()
	for p.is("[") {
		pos := p.tok.pos
		p.advance()
		i := p.expr()
		p.expect("]", "`]` to close the index")
		x = &Index{node: node{P: pos}, X: x, I: i}
	}
	return x
}

func (p *parser) primary() Expr {
	it := p.tok
	pos := it.pos
	switch it.tok {
	case tInt:
		p.advance()
		n, _ := new(big.Int).SetString(it.lit, 10)
		if n.BitLen() > MaxIntBits {
			p.fail(pos, "this integer has more than %d bits", MaxIntBits)
		}
		return &Lit{node: node{P: pos}, Val: normInt(n)}
	case tDecimal:
		p.advance()
		r, _ := new(big.Rat).SetString(it.lit)
		return &Lit{node: node{P: pos}, Val: normRat(r)}
	case tString:
		p.advance()
		return &Lit{node: node{P: pos}, Val: strVal(it.lit)}
	case tIdent:
		p.advance()
		if p.is("(") {
			p.advance()
			c := &Call{node: node{P: pos}, Name: it.lit}
			for !p.is(")") {
				c.Args = append(c.Args, p.rangeExpr())
				if !p.is(",") {
					break
				}
				p.advance()
			}
			p.expect(")", "`,` or `)` in the arguments of "+it.lit)
			return c
		}
		return &Ident{node: node{P: pos}, Name: it.lit}
	case tKeyword:
		switch it.lit {
		case "true", "false":
			p.advance()
			return &Lit{node: node{P: pos}, Val: boolVal(it.lit == "true")}
		case "choose":
			p.advance()
			if !p.is("{") {
				p.fail(p.tok.pos, "expected `{` after `choose` (`choose {\"a\": 1/2, \"b\": 1/2}`) but found %s", p.describe())
			}
			w := p.weights()
			w.P, w.Choose = pos, true
			return w
		}
	case tOp:
		switch it.lit {
		case "(":
			p.advance()
			if p.is(")") {
				p.fail(p.tok.pos, "empty parentheses: a tuple needs at least one element")
			}
			first := p.expr()
			if p.is(")") {
				p.advance()
				if b, ok := first.(*Binary); ok {
					b.paren = true // (a < b) == c is not a chain
				}
				return first
			}
			t := &TupleLit{node: node{P: pos}, Elems: []Expr{first}}
			for p.is(",") {
				p.advance()
				if p.is(")") {
					break
				}
				t.Elems = append(t.Elems, p.expr())
			}
			p.expect(")", "`,` or `)` in the tuple")
			return t
		case "[":
			p.advance()
			l := &ListLit{node: node{P: pos}}
			for !p.is("]") {
				l.Elems = append(l.Elems, p.expr())
				if !p.is(",") {
					break
				}
				p.advance()
			}
			p.expect("]", "`,` or `]` in the list")
			return l
		case "{":
			return p.weights()
		}
	}
	what := p.describe()
	if it.tok == tKeyword {
		what = "the keyword `" + it.lit + "`"
	}
	p.fail(pos, "expected a value (a number, a name, a string, `[`, `(` …) but found %s", what)
	return nil
}

// weights reads `{v: w, ...}`; newlines may separate the entries.
func (p *parser) weights() *Weights {
	w := &Weights{node: node{P: p.tok.pos}}
	p.advance()
	for {
		p.skipNewlines()
		if p.is("}") {
			break
		}
		w.Keys = append(w.Keys, p.expr())
		p.expect(":", "`:` between a value and its weight (`{\"a\": 1/3, \"b\": 2/3}`)")
		w.Ws = append(w.Ws, p.expr())
		p.skipNewlines()
		if !p.is(",") {
			break
		}
		p.advance()
	}
	p.skipNewlines()
	p.expect("}", "`,` or `}` in the weights")
	if len(w.Keys) == 0 {
		p.fail(w.P, "empty weights `{}`: list at least one value with its weight")
	}
	return w
}
