package program

import (
	"math/big"
)

var errConstant = opErr("not a constant")

// eval evaluates an expression that makes no random choice.
func (r *runner) eval(e Expr, s *wstate) (Value, error) {
	switch e := e.(type) {
	case *Lit:
		return e.Val, nil
	case *Ident:
		if r.constOnly {
			return Value{}, errConstant
		}
		v := s.vars[e.slot]
		if v.k == kUnset {
			return Value{}, r.fail(e.P, "`%s` has no value at this point: assign it before using it (here it is assigned only later, or only on some paths)", e.Name)
		}
		return v, nil
	}
	if spineNext(e) != nil {
		return r.evalSpine(e, s)
	}
	cs := children(e)
	var buf [4]Value
	vs := buf[:0]
	if len(cs) > len(buf) {
		vs = make([]Value, 0, len(cs))
	}
	for _, c := range cs {
		v, err := r.eval(c, s)
		if err != nil {
			return Value{}, err
		}
		vs = append(vs, v)
	}
	return r.compose(e, vs)
}

// binary applies a binary operator, counting the work of joining strings and lists.
func (r *runner) binary(e *Binary, x, y Value) (Value, error) {
	if e.Op == "+" && (x.k == kStr && y.k == kStr || x.k == kList && y.k == kList) {
		// A join counts what it copies: extending a string built in a loop costs the part added.
		v, copied, err := joinValues(x, y)
		if err != nil {
			return Value{}, r.at(e.P, err)
		}
		return v, r.addWork(copied, e.P)
	}
	v, err := binop(e.Op, x, y)
	if err != nil {
		return Value{}, r.at(e.P, err)
	}
	if v.k == kList || v.k == kStr || v.k == kInt && !v.small() || v.k == kRat {
		if err := r.addWork(v.size(), e.P); err != nil {
			return Value{}, err
		}
	}
	return v, nil
}

// children are the subexpressions whose values compose evaluates e from.
func children(e Expr) []Expr {
	switch e := e.(type) {
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Call:
		return e.Args
	case *Index:
		return []Expr{e.X, e.I}
	case *ListLit:
		return e.Elems
	case *TupleLit:
		return e.Elems
	}
	return nil
}

func (r *runner) evalArgs(e Expr, s *wstate) ([]Value, error) {
	cs := children(e)
	vs := make([]Value, len(cs))
	for i, c := range cs {
		v, err := r.eval(c, s)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

// compose computes a deterministic composite expression from the values of its children.
func (r *runner) compose(e Expr, vs []Value) (Value, error) {
	switch e := e.(type) {
	case *Unary:
		v, err := unop(e.Op, vs[0])
		return v, r.at(e.P, err)
	case *Binary:
		return r.binary(e, vs[0], vs[1])
	case *Index:
		v, err := index(vs[0], vs[1])
		return v, r.at(e.P, err)
	case *ListLit, *TupleLit:
		var v Value
		if _, ok := e.(*ListLit); ok {
			v = listVal(append([]Value(nil), vs...))
		} else {
			v = tupleVal(append([]Value(nil), vs...))
		}
		if v.size() > MaxValueSize {
			return Value{}, r.fail(start(e), "a list grew beyond %d elements", MaxValueSize)
		}
		if v.nesting() > MaxNesting {
			return Value{}, r.fail(start(e), "a list or tuple is nested more than %d levels deep", MaxNesting)
		}
		return v, r.addWork(v.size(), e.pos())
	case *Call:
		v, err := callDet(e.Name, vs)
		if err != nil {
			return Value{}, r.at(e.P, err)
		}
		if v.k == kStr {
			return v, r.addWork(v.size(), e.P)
		}
		return v, nil
	}
	return Value{}, r.fail(start(e), "internal error: cannot evaluate this expression")
}

// combo is one joint outcome of several expressions.
type combo struct {
	vs []Value
	p  prob
}

// evalAll evaluates expressions left to right in one state: their joint outcomes, in order
// (the first expression's outcomes vary slowest).
func (r *runner) evalAll(es []Expr, s *wstate) ([]combo, error) {
	out := []combo{{vs: make([]Value, 0, len(es)), p: one}}
	for _, e := range es {
		outs, err := r.evalDist(e, s)
		if err != nil {
			return nil, err
		}
		if len(outs) == 1 {
			for i := range out {
				out[i].vs = append(out[i].vs, outs[0].v)
			}
			continue
		}
		next := make([]combo, 0, len(out)*len(outs))
		for _, c := range out {
			for _, o := range outs {
				vs := append(append(make([]Value, 0, len(es)), c.vs...), o.v)
				next = append(next, combo{vs, mulP(c.p, o.p)})
			}
		}
		if len(next) > r.opt.StateBudget {
			return nil, r.fail(r.where(e.pos()), "more than %d outcomes of random choices in one expression (the state budget)", r.opt.StateBudget)
		}
		out = next
	}
	return out, nil
}

// evalDist evaluates an expression to its distribution of values, in order of first
// appearance, equal values merged.
func (r *runner) evalDist(e Expr, s *wstate) ([]outcome, error) {
	if !isRandom(e) {
		v, err := r.eval(e, s)
		if err != nil {
			return nil, err
		}
		outs := append(r.outcomes(1), outcome{v, one})
		return outs, nil
	}
	if spineNext(e) != nil {
		return r.evalDistSpine(e, s)
	}
	var outs []outcome
	switch e := e.(type) {
	case *Weights:
		if e.outs != nil {
			return e.outs, nil
		}
		return r.choose(e, s)
	case *Call:
		if e.outs != nil {
			return e.outs, nil
		}
		if e.Name == "flip" || e.Name == "uniform" {
			return r.random(e, s)
		}
	}
	cs := children(e)
	if k := oneRandom(cs); k >= 0 {
		// One random child (the usual case, `c + flip(1/2)`): the others are evaluated once and
		// the node is composed for each of its outcomes, without building joint outcomes.
		var buf [4]Value
		vs := buf[:0]
		if len(cs) > len(buf) {
			vs = make([]Value, 0, len(cs))
		}
		vs = vs[:len(cs)]
		for i, c := range cs {
			if i != k {
				v, err := r.eval(c, s)
				if err != nil {
					return nil, err
				}
				vs[i] = v
			}
		}
		xs, err := r.evalDist(cs[k], s)
		if err != nil {
			return nil, err
		}
		outs = r.outcomes(len(xs))
		for _, x := range xs {
			vs[k] = x.v
			v, err := r.compose(e, vs)
			if err != nil {
				return nil, err
			}
			outs = append(outs, outcome{v, x.p})
		}
		return mergeOutcomes(outs), nil
	}
	combos, err := r.evalAll(cs, s)
	if err != nil {
		return nil, err
	}
	for _, c := range combos {
		v, err := r.compose(e, c.vs)
		if err != nil {
			return nil, err
		}
		outs = append(outs, outcome{v, c.p})
	}
	return mergeOutcomes(outs), nil
}

// oneRandom returns the index of the only random expression of es, or −1 when there is none
// or more than one.
func oneRandom(es []Expr) int {
	k := -1
	for i, e := range es {
		if isRandom(e) {
			if k >= 0 {
				return -1
			}
			k = i
		}
	}
	return k
}

// mergeOutcomes joins equal values, keeping the first position, and drops probability 0.
func mergeOutcomes(outs []outcome) []outcome {
	if len(outs) <= 1 {
		return outs
	}
	if len(outs) <= 8 { // a few outcomes: compare them directly
		res := outs[:0]
	next:
		for _, o := range outs {
			if o.p.isZero() {
				continue
			}
			for j := range res {
				if equal(res[j].v, o.v) {
					res[j].p = addP(res[j].p, o.p)
					continue next
				}
			}
			res = append(res, o)
		}
		return res
	}
	idx := map[string]int{}
	res := make([]outcome, 0, len(outs))
	var b []byte
	for _, o := range outs {
		if o.p.isZero() {
			continue
		}
		b = o.v.key(b[:0])
		if j, ok := idx[string(b)]; ok {
			res[j].p = addP(res[j].p, o.p)
			continue
		}
		idx[string(b)] = len(res)
		res = append(res, o)
	}
	return res
}

// choose evaluates `choose {v: w, …}`: the values in the order written, with their weights,
// which must be non-negative and sum to exactly 1.
func (r *runner) choose(e *Weights, s *wstate) ([]outcome, error) {
	es := make([]Expr, 0, 2*len(e.Keys))
	for i := range e.Keys {
		es = append(es, e.Keys[i], e.Ws[i])
	}
	combos, err := r.evalAll(es, s)
	if err != nil {
		return nil, err
	}
	var outs []outcome
	for _, c := range combos {
		sum := new(big.Rat)
		for i := range e.Keys {
			w := c.vs[2*i+1]
			if !w.isNum() {
				return nil, r.fail(start(e.Ws[i]), "a weight must be a number, but this is %s", w.typeName())
			}
			if w.rat().Sign() < 0 {
				return nil, r.fail(start(e.Ws[i]), "a weight cannot be negative (%s)", w.Label())
			}
			sum.Add(sum, w.rat())
		}
		if sum.Cmp(bigOne) != 0 {
			return nil, r.fail(e.P, "the weights sum to %s, not 1", sum.RatString())
		}
		for i := range e.Keys {
			outs = append(outs, outcome{c.vs[2*i], mulP(c.p, probOf(c.vs[2*i+1].rat()))})
		}
	}
	return mergeOutcomes(outs), nil
}

// random evaluates flip(p) (1 with probability p, then 0) and uniform(a..b) or uniform(list).
func (r *runner) random(e *Call, s *wstate) ([]outcome, error) {
	var outs []outcome
	if e.Name == "uniform" {
		if rg, ok := e.Args[0].(*Range); ok {
			combos, err := r.evalAll([]Expr{rg.Lo, rg.Hi}, s)
			if err != nil {
				return nil, err
			}
			for _, c := range combos {
				lo, hi, err := r.bounds(rg, c.vs[0], c.vs[1])
				if err != nil {
					return nil, err
				}
				if hi < lo {
					return nil, r.fail(rg.P, "the range %d..%d is empty", lo, hi)
				}
				if hi-lo+1 > int64(r.opt.StateBudget) {
					return nil, r.fail(e.P, "uniform over %d values, more than the state budget of %d", hi-lo+1, r.opt.StateBudget)
				}
				p := mulP(c.p, prob{n: 1, d: uint64(hi - lo + 1)})
				for v := lo; v <= hi; v++ {
					outs = append(outs, outcome{intVal(v), p})
				}
			}
			return mergeOutcomes(outs), nil
		}
	}
	xs, err := r.evalDist(e.Args[0], s)
	if err != nil {
		return nil, err
	}
	for _, x := range xs {
		if e.Name == "flip" {
			if !x.v.isNum() {
				return nil, r.fail(start(e.Args[0]), "the probability of flip must be a number, but this is %s", x.v.typeName())
			}
			p := x.v.rat()
			if p.Sign() < 0 || p.Cmp(bigOne) > 0 {
				return nil, r.fail(start(e.Args[0]), "the probability of flip must be between 0 and 1, not %s", p.RatString())
			}
			q := probOf(p)
			outs = append(outs, outcome{intVal(1), mulP(x.p, q)}, outcome{intVal(0), mulP(x.p, complement(q))})
			continue
		}
		es, ok := elements(x.v)
		if !ok {
			return nil, r.fail(start(e.Args[0]), "uniform needs a range `a..b` or a list, not %s", x.v.typeName())
		}
		if len(es) == 0 {
			return nil, r.fail(start(e.Args[0]), "uniform of an empty %s", x.v.typeName()[2:])
		}
		p := mulP(x.p, prob{n: 1, d: uint64(len(es))})
		for _, v := range es {
			outs = append(outs, outcome{v, p})
		}
	}
	return mergeOutcomes(outs), nil
}

// outcomes returns an empty slice with room for n outcomes, cut from a chunk shared with other
// calls (its capacity ends with it, so an append never reaches a neighbour's): a program that
// adds a coin to a counter in every state of every iteration builds millions of short-lived
// lists of outcomes, and one allocation per few thousand of them is much cheaper than one each,
// most of all in WebAssembly. A chunk lives as long as any list cut from it.
func (r *runner) outcomes(n int) []outcome {
	if n > 256 {
		return make([]outcome, 0, n)
	}
	if len(r.outChunk)+n > cap(r.outChunk) {
		r.outChunk = make([]outcome, 0, 4096)
	}
	k := len(r.outChunk)
	r.outChunk = r.outChunk[:k+n]
	return r.outChunk[k : k : k+n]
}
