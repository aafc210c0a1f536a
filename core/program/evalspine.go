package program

// The interpreter's walk of a spine (see spine.go): the foot first, then each operator or
// indexing from the foot up, in a loop, so that a chain of any length runs in a stack of fixed
// depth. The order of evaluation and of outcomes is the recursive one: a node's spine child
// (its left side) before its other child, the left side's outcomes varying slowest.

// spineNodes collects the spine from e, top first, into buf, and returns it with its foot.
func spineNodes(buf []Expr, e Expr) ([]Expr, Expr) {
	for {
		next := spineNext(e)
		if next == nil {
			return buf, e
		}
		buf = append(buf, e)
		e = next
	}
}

// evalSpine evaluates a deterministic operator chain.
func (r *runner) evalSpine(e Expr, s *wstate) (Value, error) {
	var buf [16]Expr
	nodes, foot := spineNodes(buf[:0], e)
	v, err := r.eval(foot, s)
	for i := len(nodes) - 1; i >= 0 && err == nil; i-- {
		v, err = r.evalNode(nodes[i], v, s)
	}
	return v, err
}

// evalNode evaluates one operator or indexing whose spine child has the value x.
func (r *runner) evalNode(e Expr, x Value, s *wstate) (Value, error) {
	switch e := e.(type) {
	case *Unary:
		v, err := unop(e.Op, x)
		return v, r.at(e.P, err)
	case *Binary:
		if e.Op == "and" || e.Op == "or" {
			if x.k != kBool {
				return Value{}, r.at(e.P, operandError(e.Op, x, Value{}))
			}
			if (x.n != 0) == (e.Op == "or") {
				return x, nil // short-circuit
			}
			y, err := r.eval(e.Y, s)
			if err != nil {
				return Value{}, err
			}
			if y.k != kBool {
				return Value{}, r.at(e.P, operandError(e.Op, x, y))
			}
			return y, nil
		}
		y, err := r.eval(e.Y, s)
		if err != nil {
			return Value{}, err
		}
		return r.binary(e, x, y)
	case *Index:
		i, err := r.eval(e.I, s)
		if err != nil {
			return Value{}, err
		}
		v, err := index(x, i)
		return v, r.at(e.P, err)
	}
	return Value{}, r.fail(start(e), "internal error: cannot evaluate this expression")
}

// evalDistSpine evaluates a random operator chain to its distribution of values.
func (r *runner) evalDistSpine(e Expr, s *wstate) ([]outcome, error) {
	var buf [16]Expr
	nodes, foot := spineNodes(buf[:0], e)
	// Below the first random choice the spine has one value (x), held without a slice: the
	// usual `t + flip(1/2)` then allocates only its outcomes.
	var xs []outcome
	var x outcome
	var err error
	if isRandom(foot) {
		xs, err = r.evalDist(foot, s)
	} else {
		x.v, err = r.eval(foot, s)
		x.p = one
	}
	for i := len(nodes) - 1; i >= 0 && err == nil; i-- {
		n := nodes[i]
		if xs == nil && !isRandom(n) {
			x.v, err = r.evalNode(n, x.v, s)
			continue
		}
		xs, err = r.distNode(n, xs, x, s)
	}
	if err == nil && xs == nil { // cannot happen: e is random, so some node of its spine is
		xs = []outcome{x}
	}
	return xs, err
}

// other is a spine node's child off the spine (nil for a prefix operator).
func other(e Expr) Expr {
	switch e := e.(type) {
	case *Binary:
		return e.Y
	case *Index:
		return e.I
	}
	return nil
}

// distNode gives the distribution of a random operator or indexing whose spine child has the
// distribution xs, or the one value x when xs is nil.
func (r *runner) distNode(e Expr, xs []outcome, x1 outcome, s *wstate) ([]outcome, error) {
	if xs == nil {
		var one1 [1]outcome
		one1[0] = x1
		return r.distNodeOf(e, one1[:], s)
	}
	return r.distNodeOf(e, xs, s)
}

// distNodeOf is distNode over the outcomes xs.
func (r *runner) distNodeOf(e Expr, xs []outcome, s *wstate) ([]outcome, error) {
	var outs []outcome
	if b, ok := e.(*Binary); ok && (b.Op == "and" || b.Op == "or") {
		for _, x := range xs {
			if x.v.k != kBool {
				return nil, r.at(b.P, operandError(b.Op, x.v, Value{}))
			}
			if (x.v.n != 0) == (b.Op == "or") {
				outs = append(outs, x)
				continue
			}
			ys, err := r.evalDist(b.Y, s)
			if err != nil {
				return nil, err
			}
			for _, y := range ys {
				if y.v.k != kBool {
					return nil, r.at(b.P, operandError(b.Op, x.v, y.v))
				}
				outs = append(outs, outcome{y.v, mulP(x.p, y.p)})
			}
		}
		return mergeOutcomes(outs), nil
	}
	var vs [2]Value
	o := other(e)
	var none [1]outcome // a prefix operator: one outcome on the other side
	none[0] = outcome{Value{}, one}
	ys := none[:]
	if o != nil {
		var err error
		if ys, err = r.evalDist(o, s); err != nil {
			return nil, err
		}
		if len(xs)*len(ys) > r.opt.StateBudget {
			return nil, r.fail(r.where(e.pos()), "more than %d outcomes of random choices in one expression (the state budget)", r.opt.StateBudget)
		}
	}
	outs = r.outcomes(len(xs) * len(ys))
	for _, x := range xs {
		vs[0] = x.v
		for _, y := range ys {
			vs[1] = y.v
			n := 2
			if o == nil {
				n = 1
			}
			v, err := r.compose(e, vs[:n])
			if err != nil {
				return nil, err
			}
			p := x.p
			if len(ys) > 1 {
				p = mulP(x.p, y.p)
			}
			outs = append(outs, outcome{v, p})
		}
	}
	return mergeOutcomes(outs), nil
}
