package program

import "sort"

// Program is a parsed and checked program, ready to run.
type Program struct {
	stmts   []Stmt
	secrets []*SecretStmt
	names   []string // variable names by slot; the secrets come first
}

// builtins are the functions of the language with their number of arguments (-1: one or more).
var builtins = map[string]int{
	"len": 1, "min": -1, "max": -1, "abs": 1, "sum": 1, "bit": 2, "str": 1,
	"flip": 1, "uniform": 1, "bits": 1, "perms": 1,
}

func builtinNames() []string {
	out := make([]string, 0, len(builtins))
	for n := range builtins {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// static types, for the errors that can be found without running the program.
type typ uint8

const (
	tNone typ = iota // no assignment seen yet
	tNum             // integer or rational
	tBool
	tStr
	tList
	tTuple
	tMixed // several types, or unknown until run time
)

func (t typ) known() bool { return t >= tNum && t <= tTuple }

var typNames = [...]string{"", "a number", "a boolean", "a string", "a list", "a tuple", ""}

func join(a, b typ) typ {
	switch {
	case a == tNone:
		return b
	case b == tNone || a == b:
		return a
	}
	return tMixed
}

// checker resolves names to slots, marks random expressions and finds static errors.
type checker struct {
	slots   map[string]int
	names   []string
	types   []typ
	errs    ErrorList
	final   bool // the last pass of type inference: report type errors
	secrets []*SecretStmt
}

// Compile parses and checks a program. The error is an ErrorList of every problem found (one
// syntax error stops parsing; the checker reports all it finds).
func Compile(src string) (*Program, error) {
	stmts, perr := Parse(src)
	if perr != nil {
		return nil, ErrorList{perr}
	}
	c := &checker{slots: map[string]int{}}
	// Secrets first, so that their slots are 0..k−1 in declaration order.
	for _, s := range stmts {
		if sec, ok := s.(*SecretStmt); ok {
			if _, dup := c.slots[sec.Name]; dup {
				c.errorf(sec.P, "the secret `%s` is declared twice", sec.Name)
				continue
			}
			sec.slot = c.define(sec.Name)
			c.secrets = append(c.secrets, sec)
		}
	}
	c.declare(stmts, true)
	c.types = make([]typ, len(c.names))
	// Infer the variables' types to a fixed point, then report errors in one last pass. Each
	// pass can only move a type up the lattice none < concrete < mixed, so a pass that changes
	// nothing comes after at most two changes per name: assignments chained against the order
	// of the text (`a = b` before `b = c`, in a loop) move one name per pass.
	for pass := 0; pass <= 2*len(c.names)+1; pass++ {
		before := append([]typ(nil), c.types...)
		c.stmts(stmts, 0)
		if equalTypes(before, c.types) {
			break
		}
	}
	c.final = true
	c.stmts(stmts, 0)
	if len(c.secrets) == 0 && len(c.errs) == 0 {
		c.errorf(Pos{1, 1}, "the program declares no secret: add a line such as `secret x in 0..3`")
	}
	if len(c.errs) > 0 {
		sort.SliceStable(c.errs, func(i, j int) bool {
			a, b := c.errs[i], c.errs[j]
			return a.Line < b.Line || a.Line == b.Line && a.Column < b.Column
		})
		return nil, c.errs
	}
	foldStmts(stmts)
	return &Program{stmts: stmts, secrets: c.secrets, names: c.names}, nil
}

func equalTypes(a, b []typ) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func (c *checker) errorf(p Pos, format string, args ...any) {
	if c.final || len(c.types) == 0 {
		for _, e := range c.errs { // one message per position
			if e.Line == p.Line && e.Column == p.Column {
				return
			}
		}
		c.errs = append(c.errs, errAt(p, format, args...))
	}
}

func (c *checker) define(name string) int {
	if s, ok := c.slots[name]; ok {
		return s
	}
	c.slots[name] = len(c.names)
	c.names = append(c.names, name)
	return len(c.names) - 1
}

// declare gives a slot to every assigned name and loop variable, and checks where secrets are.
func (c *checker) declare(stmts []Stmt, top bool) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *SecretStmt:
			if !top {
				c.errorf(s.P, "`secret` must be at the top level of the program, not inside a block")
			}
		case *AssignStmt:
			s.slot = c.define(s.Name)
		case *ForStmt:
			s.slot = c.define(s.Name)
			c.declare(s.Body, false)
		case *WhileStmt:
			c.declare(s.Body, false)
		case *IfStmt:
			for _, b := range s.Blocks {
				c.declare(b, false)
			}
			c.declare(s.Else, false)
		}
	}
}

func (c *checker) setType(slot int, t typ) { c.types[slot] = join(c.types[slot], t) }

func (c *checker) stmts(stmts []Stmt, loops int) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *SecretStmt:
			c.setType(s.slot, c.domain(s.Domain))
		case *AssignStmt:
			for _, i := range s.Indices {
				c.want(i, tNum, "an index")
			}
			t := c.expr(s.X)
			if len(s.Indices) > 0 {
				if vt := c.types[s.slot]; vt.known() && vt != tList {
					c.errorf(s.NamePos, "`%s` is %s; only a list's elements can be assigned (`x[i] = …`)", s.Name, typNames[vt])
				}
				c.setType(s.slot, tList)
			} else {
				c.setType(s.slot, t)
			}
		case *ObserveStmt:
			c.expr(s.X)
		case *IfStmt:
			for i, cond := range s.Conds {
				c.want(cond, tBool, "the condition of `if`")
				c.stmts(s.Blocks[i], loops)
			}
			c.stmts(s.Else, loops)
		case *WhileStmt:
			c.want(s.Cond, tBool, "the condition of `while`")
			c.stmts(s.Body, loops+1)
		case *ForStmt:
			if r, ok := s.Over.(*Range); ok {
				c.want(r.Lo, tNum, "the start of a range")
				c.want(r.Hi, tNum, "the end of a range")
				r.rnd = isRandom(r.Lo) || isRandom(r.Hi)
				c.setType(s.slot, tNum)
			} else {
				t := c.expr(s.Over)
				if t == tNum || t == tBool {
					c.errorf(start(s.Over), "a `for` loop goes over a range `a..b`, a list, a tuple or a string, not %s", typNames[t])
				}
				if t == tStr {
					c.setType(s.slot, tStr)
				} else {
					c.setType(s.slot, tMixed)
				}
			}
			c.stmts(s.Body, loops+1)
		}
	}
}

// want checks e and reports an error when its type is known to differ from t.
func (c *checker) want(e Expr, t typ, what string) {
	if got := c.expr(e); got.known() && got != t {
		c.errorf(start(e), "%s must be %s, but this is %s", what, typNames[t], typNames[got])
	}
}

// domain checks a secret's domain and returns the type of its values. Domains are constants:
// they are evaluated once, before any run.
func (c *checker) domain(d Expr) typ {
	c.constant(d)
	switch d := d.(type) {
	case *Range:
		c.want(d.Lo, tNum, "the start of a range")
		c.want(d.Hi, tNum, "the end of a range")
		return tNum
	case *Weights:
		t := tNone
		for i := range d.Keys {
			t = join(t, c.expr(d.Keys[i]))
			c.want(d.Ws[i], tNum, "a weight")
		}
		return t
	case *Call:
		switch d.Name {
		case "bits":
			c.checkArgs(d)
			if len(d.Args) == 1 {
				c.want(d.Args[0], tNum, "the argument of bits")
			}
			return tList
		case "perms":
			c.checkArgs(d)
			if len(d.Args) == 1 {
				t := c.expr(d.Args[0])
				if t == tStr {
					return tStr
				}
				if t.known() && t != tList && t != tTuple {
					c.errorf(start(d.Args[0]), "perms needs a list (or a string), not %s", typNames[t])
				}
			}
			return tList
		}
	}
	t := c.expr(d)
	if t.known() && t != tList && t != tTuple {
		c.errorf(start(d), "a secret's domain is a range `a..b`, a list `[…]`, weights `{v: w, …}`, bits(n) or perms(list), not %s", typNames[t])
		return tMixed
	}
	return tMixed
}

// constant reports variables and random choices in a domain.
func (c *checker) constant(e Expr) {
	walk(e, func(x Expr) {
		switch x := x.(type) {
		case *Ident:
			c.errorf(x.P, "a secret's domain must be written with constants, but it uses the variable `%s`", x.Name)
		case *Weights:
			if x.Choose {
				c.errorf(x.P, "a secret's domain cannot be random (for a prior write weights `{v: w, …}` without `choose`)")
			}
		case *Call:
			if x.Name == "flip" || x.Name == "uniform" {
				c.errorf(x.P, "a secret's domain cannot be random (for a prior write weights `{v: w, …}`)")
			}
		}
	})
}

// walk calls f on e and every expression inside it (a spine in a loop: its nodes from the top,
// its foot, then the other children from the foot up).
func walk(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	if spineNext(e) != nil {
		nodes, foot := spineOf(e)
		for _, n := range nodes {
			f(n)
		}
		walk(foot, f)
		for i := len(nodes) - 1; i >= 0; i-- {
			switch n := nodes[i].(type) {
			case *Binary:
				walk(n.Y, f)
			case *Index:
				walk(n.I, f)
			}
		}
		return
	}
	f(e)
	switch e := e.(type) {
	case *Call:
		for _, a := range e.Args {
			walk(a, f)
		}
	case *ListLit:
		for _, a := range e.Elems {
			walk(a, f)
		}
	case *TupleLit:
		for _, a := range e.Elems {
			walk(a, f)
		}
	case *Range:
		walk(e.Lo, f)
		walk(e.Hi, f)
	case *Weights:
		for i := range e.Keys {
			walk(e.Keys[i], f)
			walk(e.Ws[i], f)
		}
	}
}

func (c *checker) checkArgs(x *Call) bool {
	n, ok := builtins[x.Name]
	if !ok {
		return false
	}
	switch {
	case n == -1 && len(x.Args) == 0:
		c.errorf(x.P, "%s needs at least one argument", x.Name)
	case n >= 0 && len(x.Args) != n:
		plural := "s"
		if n == 1 {
			plural = ""
		}
		c.errorf(x.P, "%s takes %d argument%s, not %d", x.Name, n, plural, len(x.Args))
	}
	for _, a := range x.Args {
		if _, isRange := a.(*Range); isRange && x.Name != "uniform" {
			c.errorf(start(a), "a range `a..b` is not a value here; it can be a secret's domain, a `for` loop's, or the argument of uniform")
		}
	}
	return true
}

// expr checks e, marks whether it is random and returns its static type. A spine (an operator
// chain) is checked from its foot up in a loop.
func (c *checker) expr(e Expr) typ {
	if spineNext(e) == nil {
		return c.leaf(e)
	}
	nodes, foot := spineOf(e)
	t := c.leaf(foot)
	for i := len(nodes) - 1; i >= 0; i-- {
		t = c.spineNode(nodes[i], t)
	}
	return t
}

// spineNode checks an operator or an indexing whose spine child has type x.
func (c *checker) spineNode(e Expr, x typ) typ {
	switch e := e.(type) {
	case *Unary:
		e.rnd = isRandom(e.X)
		t, msg := unaryType(e.Op, x)
		if msg != "" {
			c.errorf(e.P, "%s", msg)
		}
		return t
	case *Binary:
		y := c.expr(e.Y)
		e.rnd = isRandom(e.X) || isRandom(e.Y)
		return c.binaryType(e, x, y)
	case *Index:
		c.want(e.I, tNum, "an index")
		e.rnd = isRandom(e.X) || isRandom(e.I)
		switch x {
		case tNum, tBool:
			c.errorf(e.P, "cannot index %s: only lists, tuples and strings have elements", typNames[x])
		case tStr:
			return tStr
		}
		return tMixed
	}
	return tMixed
}

// leaf checks an expression that does not continue a spine.
func (c *checker) leaf(e Expr) typ {
	switch e := e.(type) {
	case *Lit:
		return litType(e.Val)
	case *Ident:
		slot, ok := c.slots[e.Name]
		if !ok {
			c.errorf(e.P, "`%s` is not defined%s", e.Name, suggest(e.Name, c.names))
			return tMixed
		}
		e.slot = slot
		return c.types[slot]
	case *ListLit:
		for _, a := range e.Elems {
			c.expr(a)
			e.rnd = e.rnd || isRandom(a)
		}
		return tList
	case *TupleLit:
		for _, a := range e.Elems {
			c.expr(a)
			e.rnd = e.rnd || isRandom(a)
		}
		return tTuple
	case *Range:
		c.errorf(e.P, "a range `a..b` is not a value here; it can be a secret's domain, a `for` loop's, or the argument of uniform")
		return tMixed
	case *Weights:
		if !e.Choose {
			c.errorf(e.P, "weights `{v: w, …}` are a secret's prior; for a random choice write `choose {v: w, …}`")
		}
		e.rnd = true
		t := tNone
		for i := range e.Keys {
			t = join(t, c.expr(e.Keys[i]))
			c.want(e.Ws[i], tNum, "a weight")
		}
		return t
	case *Call:
		return c.call(e)
	}
	return tMixed
}

func litType(v Value) typ {
	switch v.k {
	case kInt, kRat:
		return tNum
	case kBool:
		return tBool
	case kStr:
		return tStr
	case kList:
		return tList
	case kTuple:
		return tTuple
	}
	return tMixed
}

func (c *checker) binaryType(e *Binary, x, y typ) typ {
	t, msg := binaryType(e.Op, x, y)
	if msg != "" {
		c.errorf(e.P, "%s", msg)
	}
	return t
}

func (c *checker) call(e *Call) typ {
	if !c.checkArgs(e) {
		c.errorf(e.P, "`%s` is not a function%s", e.Name, suggest(e.Name, builtinNames()))
		for _, a := range e.Args {
			c.expr(a)
		}
		return tMixed
	}
	if e.Name == "bits" || e.Name == "perms" {
		c.errorf(e.P, "%s(…) can only be a secret's domain (`secret x in %s(…)`)", e.Name, e.Name)
	}
	ts := make([]typ, len(e.Args))
	for i, a := range e.Args {
		if r, ok := a.(*Range); ok {
			c.want(r.Lo, tNum, "the start of a range")
			c.want(r.Hi, tNum, "the end of a range")
			r.rnd = isRandom(r.Lo) || isRandom(r.Hi)
			ts[i] = tMixed
		} else {
			ts[i] = c.expr(a)
		}
		e.rnd = e.rnd || isRandom(a)
	}
	arg := func(i int, t typ, what string) {
		if i < len(ts) && ts[i].known() && ts[i] != t {
			c.errorf(start(e.Args[i]), "%s must be %s, but this is %s", what, typNames[t], typNames[ts[i]])
		}
	}
	switch e.Name {
	case "flip", "uniform":
		e.rnd = true
		if e.Name == "flip" {
			arg(0, tNum, "the probability of flip")
			return tNum
		}
		if len(ts) == 1 && (ts[0] == tNum || ts[0] == tBool) {
			c.errorf(start(e.Args[0]), "uniform needs a range `a..b` or a list, not %s", typNames[ts[0]])
		}
		return tMixed
	case "len":
		if len(ts) == 1 && (ts[0] == tNum || ts[0] == tBool) {
			c.errorf(start(e.Args[0]), "len needs a list, a tuple or a string, not %s", typNames[ts[0]])
		}
		return tNum
	case "abs":
		arg(0, tNum, "the argument of abs")
		return tNum
	case "bit":
		arg(0, tNum, "the first argument of bit")
		arg(1, tNum, "the second argument of bit")
		return tNum
	case "sum":
		if len(ts) == 1 && ts[0].known() && ts[0] != tList && ts[0] != tTuple {
			c.errorf(start(e.Args[0]), "sum needs a list of numbers, not %s", typNames[ts[0]])
		}
		return tNum
	case "str":
		return tStr
	case "min", "max":
		if len(ts) > 1 {
			t := tNone
			for _, x := range ts {
				t = join(t, x)
			}
			return t
		}
		return tMixed
	}
	return tMixed
}

// isRandom reports whether evaluating e may make a random choice.
func isRandom(e Expr) bool {
	switch e := e.(type) {
	case *Unary:
		return e.rnd
	case *Binary:
		return e.rnd
	case *Call:
		return e.rnd
	case *Index:
		return e.rnd
	case *ListLit:
		return e.rnd
	case *TupleLit:
		return e.rnd
	case *Range:
		return e.rnd
	case *Weights:
		return e.rnd
	}
	return false
}

// Check parses and checks a program without running it and returns every problem found (nil
// when there is none), for editors that mark errors as one types.
func Check(src string) ErrorList {
	_, err := Compile(src)
	if err == nil {
		return nil
	}
	if l, ok := err.(ErrorList); ok {
		return l
	}
	return ErrorList{{Line: 1, Column: 1, Message: err.Error()}}
}

// start is where an expression begins (an operator's node is positioned at its operator, where
// operator errors point; errors about the whole expression point at its start).
func start(e Expr) Pos {
	for {
		switch x := e.(type) {
		case *Binary:
			e = x.X
		case *Index:
			e = x.X
		case *Range:
			e = x.Lo
		default:
			return e.pos()
		}
	}
}
