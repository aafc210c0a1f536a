package program

import "slices"

// Constant folding, after a successful check: a subexpression without variables or random
// choices becomes a literal, and a random choice with constant arguments gets its outcomes once,
// so that `c = c + flip(1/2)` in a loop does not divide 1 by 2 and build the same two outcomes
// again in every state of every iteration. A constant that fails (1/0) is left to fail when it
// runs, at its position.

func foldStmts(stmts []Stmt) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *SecretStmt:
			s.Domain = fold(s.Domain)
		case *AssignStmt:
			for i := range s.Indices {
				s.Indices[i] = fold(s.Indices[i])
			}
			s.X = fold(s.X)
			s.exprs = append(append([]Expr(nil), s.Indices...), s.X)
		case *ObserveStmt:
			s.X = fold(s.X)
			s.exprs = []Expr{s.X}
		case *IfStmt:
			for i := range s.Conds {
				s.Conds[i] = fold(s.Conds[i])
				s.random = s.random || isRandom(s.Conds[i])
				foldStmts(s.Blocks[i])
				walk(s.Conds[i], func(e Expr) {
					if id, ok := e.(*Ident); ok && !slices.Contains(s.reads, id.slot) {
						s.reads = append(s.reads, id.slot)
					}
				})
			}
			foldStmts(s.Else)
		case *WhileStmt:
			s.Cond = fold(s.Cond)
			foldStmts(s.Body)
		case *ForStmt:
			s.Over = fold(s.Over)
			if rg, ok := s.Over.(*Range); ok {
				lo, ok1 := lit(rg.Lo)
				hi, ok2 := lit(rg.Hi)
				if ok1 && ok2 && lo.small() && hi.small() && hi.n-lo.n < 1<<16 {
					s.seq = make([]Value, 0, max(hi.n-lo.n+1, 0))
					for v := lo.n; v <= hi.n; v++ {
						s.seq = append(s.seq, intVal(v))
					}
				}
			}
			foldStmts(s.Body)
		}
	}
}

func lit(e Expr) (Value, bool) {
	l, ok := e.(*Lit)
	if !ok {
		return Value{}, false
	}
	return l.Val, true
}

func lits(es []Expr) ([]Value, bool) {
	vs := make([]Value, len(es))
	for i, e := range es {
		v, ok := lit(e)
		if !ok {
			return nil, false
		}
		vs[i] = v
	}
	return vs, true
}

// literal replaces e by its value. A constant is shared by every run (and by runs of the same
// Program on several goroutines), so it never keeps a join's growable array (see join.go).
func literal(e Expr, v Value) Expr { return &Lit{node: node{P: start(e)}, Val: fixed(v)} }

// fixed returns v without room to grow in place: a string or list that a join cannot extend.
func fixed(v Value) Value {
	switch v.k {
	case kStr:
		if _, ok := v.ref.(*grownStr); ok {
			return strVal(v.str())
		}
	case kList:
		if s := v.ref.(*seq); s.grow != nil {
			return Value{k: kList, ref: &seq{elems: s.elems[:len(s.elems):len(s.elems)], size: s.size, depth: s.depth}}
		}
	}
	return v
}

func fold(e Expr) Expr {
	if spineNext(e) != nil { // a spine, folded from its foot up in a loop
		nodes, foot := spineOf(e)
		cur := fold(foot)
		for i := len(nodes) - 1; i >= 0; i-- {
			setSpineNext(nodes[i], cur)
			cur = foldNode(nodes[i])
		}
		return cur
	}
	return foldNode(e)
}

// foldNode folds e, whose spine child (if it has one) is already folded.
func foldNode(e Expr) Expr {
	switch e := e.(type) {
	case *Unary:
		if x, ok := lit(e.X); ok {
			if v, err := unop(e.Op, x); err == nil {
				return literal(e, v)
			}
		}
	case *Binary:
		e.Y = fold(e.Y)
		x, okx := lit(e.X)
		y, oky := lit(e.Y)
		if okx && oky {
			if e.Op == "and" || e.Op == "or" {
				if x.k == kBool && y.k == kBool {
					if e.Op == "and" {
						return literal(e, boolVal(x.n != 0 && y.n != 0))
					}
					return literal(e, boolVal(x.n != 0 || y.n != 0))
				}
			} else if v, err := binop(e.Op, x, y); err == nil && v.size() <= 1024 {
				return literal(e, v)
			}
		}
	case *Index:
		e.I = fold(e.I)
		x, okx := lit(e.X)
		i, oki := lit(e.I)
		if okx && oki {
			if v, err := index(x, i); err == nil {
				return literal(e, v)
			}
		}
	case *ListLit:
		for i := range e.Elems {
			e.Elems[i] = fold(e.Elems[i])
		}
		if vs, ok := lits(e.Elems); ok && len(vs) <= 1024 {
			return literal(e, listVal(vs))
		}
	case *TupleLit:
		for i := range e.Elems {
			e.Elems[i] = fold(e.Elems[i])
		}
		if vs, ok := lits(e.Elems); ok && len(vs) <= 1024 {
			return literal(e, tupleVal(vs))
		}
	case *Range:
		e.Lo, e.Hi = fold(e.Lo), fold(e.Hi)
	case *Weights:
		for i := range e.Keys {
			e.Keys[i], e.Ws[i] = fold(e.Keys[i]), fold(e.Ws[i])
		}
		if e.Choose {
			e.outs = constantOutcomes(func(r *runner) ([]outcome, error) { return r.choose(e, &wstate{}) })
		}
	case *Call:
		for i := range e.Args {
			e.Args[i] = fold(e.Args[i])
		}
		switch e.Name {
		case "flip", "uniform":
			e.outs = constantOutcomes(func(r *runner) ([]outcome, error) { return r.random(e, &wstate{}) })
		case "bits", "perms":
		default:
			if vs, ok := lits(e.Args); ok {
				if v, err := callDet(e.Name, vs); err == nil && v.size() <= 1024 {
					return literal(e, v)
				}
			}
		}
	}
	return e
}

// constantOutcomes evaluates a random choice whose arguments are all literals, once; nil when
// they are not, or when it fails (it then fails again when it runs, with the secret named).
func constantOutcomes(f func(r *runner) ([]outcome, error)) []outcome {
	r := &runner{opt: Options{StateBudget: 1024, StepBudget: DefaultStepBudget}, constOnly: true}
	outs, err := f(r)
	if err != nil {
		return nil
	}
	return outs
}
