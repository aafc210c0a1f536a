package program

// The syntax tree. Every node has the position of its first character (an operator's node has
// the operator's position, where its errors point).

// Expr is an expression.
type Expr interface{ pos() Pos }

// Stmt is a statement.
type Stmt interface{ pos() Pos }

type node struct {
	P   Pos
	rnd bool // the expression contains a random choice (set by the checker)
}

func (n *node) pos() Pos { return n.P }

type (
	// Lit is a literal: an integer, a decimal (an exact rational), a string or a boolean.
	Lit struct {
		node
		Val Value
	}
	// Ident is a use of a variable.
	Ident struct {
		node
		Name string
		slot int
	}
	// Unary is `-x` or `not x`.
	Unary struct {
		node
		Op string
		X  Expr
	}
	// Binary is `x op y`.
	Binary struct {
		node
		Op    string
		X, Y  Expr
		paren bool // written in parentheses
	}
	// Call is a built-in function applied to arguments: len(x), flip(p), uniform(a..b), ...
	Call struct {
		node
		Name string
		Args []Expr
		outs []outcome // flip and uniform of constants: their outcomes, computed once
	}
	// Index is `x[i]`.
	Index struct {
		node
		X, I Expr
	}
	// ListLit is `[a, b, ...]`; TupleLit is `(a, b, ...)`.
	ListLit struct {
		node
		Elems []Expr
	}
	TupleLit struct {
		node
		Elems []Expr
	}
	// Range is `lo..hi`, both ends included; it may appear only as a domain, in a for loop and
	// as the argument of uniform.
	Range struct {
		node
		Lo, Hi Expr
	}
	// Weights is `{v: w, ...}`: a prior in a secret's domain, or the argument of choose.
	Weights struct {
		node
		Keys, Ws []Expr
		Choose   bool      // written `choose {...}`
		outs     []outcome // choose of constants: its outcomes, computed once
	}
)

type (
	// SecretStmt is `secret NAME in DOMAIN`.
	SecretStmt struct {
		node
		Name   string
		Domain Expr
		slot   int
	}
	// AssignStmt is `NAME = X` or `NAME[i]...[j] = X`.
	AssignStmt struct {
		node
		Name    string
		NamePos Pos
		Indices []Expr
		X       Expr
		slot    int
		exprs   []Expr // Indices then X, evaluated together
	}
	// ObserveStmt is `observe X`.
	ObserveStmt struct {
		node
		X     Expr
		exprs []Expr // X alone
	}
	// IfStmt is `if c { } else if c { } else { }`: Conds[i] guards Blocks[i]; Else may be nil.
	IfStmt struct {
		node
		Conds  []Expr
		Blocks [][]Stmt
		Else   []Stmt
		random bool  // a condition makes a random choice
		reads  []int // the slots the conditions read (set by constant folding)
	}
	// WhileStmt is `while c { }`.
	WhileStmt struct {
		node
		Cond Expr
		Body []Stmt
	}
	// ForStmt is `for NAME in a..b { }` or `for NAME in LIST { }`.
	ForStmt struct {
		node
		Name string
		Over Expr // a *Range or an expression giving a list, tuple or string
		Body []Stmt
		slot int
		seq  []Value // the elements of a constant range, computed once
	}
)
