package program

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// wstate is one state of a distribution with its probability: the variables by slot and what
// the run has observed so far (an id in the runner's table of observation sequences).
type wstate struct {
	vars []Value
	obs  int32
	p    prob
}

// dist is a distribution over states, in order of first appearance.
type dist []wstate

// outcome is one value of a random expression with its probability.
type outcome struct {
	v Value
	p prob
}

// obsNode is one observation sequence: its last value appended to the sequence parent.
type obsNode struct {
	parent int32
	depth  int32
	v      Value
}

// runner executes a program on one secret value after another.
type runner struct {
	prog    *Program
	opt     Options
	ctx     context.Context
	steps   int64 // loop iterations for the current secret value
	work    int64 // other work for the current secret value (see MaxWork)
	total   int64 // loop iterations over all secret values
	peak    int   // the largest distribution seen
	loops   []Pos // the enclosing loops, innermost last
	row     string
	rowText string // the row labels joined by NUL characters (see distinctLabels)
	done    int    // rows finished
	rows    int
	last    time.Time
	poll    int

	constOnly bool // evaluating constants at compile time: any variable fails

	idx      map[string]int // merge's index, reused
	vals     []Value        // each's values, reused
	obs      []obsNode
	obsIdx   map[string]int32 // (parent, value) → id, keyed by their bytes
	obsSmall map[obsKey]int32 // the same for unboxed scalars (equal values are always unboxed)
	buf      []byte
	chunk    []Value   // copyVars's current chunk
	outChunk []outcome // outcomes's current chunk
	htab     []int32   // mergeHashed's table, reused
	spare    dist      // an array for each's next output (see recycle)
	lastOut  dist      // what each last returned
}

// errCancelled is returned when the progress callback asks to stop.
var errCancelled = errors.New("cancelled")

func (r *runner) fail(p Pos, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if r.row != "" {
		msg += " (for the secret " + r.row + ")"
	}
	return &Error{Line: p.Line, Column: p.Column, Message: msg}
}

// at positions an operation's error.
func (r *runner) at(p Pos, err error) error {
	if oe, ok := err.(opError); ok {
		return r.fail(p, "%s", string(oe))
	}
	return err
}

// check polls for cancellation, at most every few thousand calls.
func (r *runner) check() error {
	r.poll++
	if r.poll&1023 != 0 {
		return nil
	}
	if r.ctx != nil && r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	if r.opt.Progress != nil && time.Since(r.last) >= 100*time.Millisecond {
		r.last = time.Now()
		if !r.opt.Progress(r.done, r.rows) {
			return errCancelled
		}
	}
	return nil
}

// where is the position budget errors name: the innermost loop, else the statement.
func (r *runner) where(p Pos) Pos {
	if len(r.loops) > 0 {
		return r.loops[len(r.loops)-1]
	}
	return p
}

func (r *runner) addWork(n int, p Pos) error {
	r.work += int64(n)
	if r.work > MaxWork {
		return r.fail(r.where(p), "the program does too much work (more than %d units of list, string and state operations)", MaxWork)
	}
	return nil
}

func (r *runner) checkP(p prob, pos Pos) error {
	if p.r != nil && p.bitLen() > MaxProbBits {
		return r.fail(r.where(pos), "a probability needs more than %d bits (a loop that keeps splitting its probability ran too long)", MaxProbBits)
	}
	return nil
}

// merge joins equal states (same variables, same observations), keeping the first position and
// summing the probabilities, and enforces the state budget.
func (r *runner) merge(d dist, p Pos) (dist, error) {
	if len(d) <= 1 {
		return d, r.budget(len(d), p)
	}
	if len(d) > hashFrom && len(d) <= fewStates {
		if out, ok, err := r.mergeHashed(d, p, true); ok {
			return out, err
		}
	}
	if len(d) <= fewStates { // a few states: compare them directly, without building keys
		out := d[:0]
	next:
		for _, s := range d {
			if err := r.addWork(len(s.vars), p); err != nil {
				return nil, err
			}
			for j := range out {
				if sameState(&out[j], &s) {
					out[j].p = addP(out[j].p, s.p)
					continue next
				}
			}
			out = append(out, s)
		}
		return out, r.budget(len(out), p)
	}
	if out, ok, err := r.mergeHashed(d, p, false); ok {
		return out, err
	}
	if r.idx == nil {
		r.idx = make(map[string]int, len(d))
	}
	idx := r.idx
	clear(idx)
	out := d[:0]
	for _, s := range d {
		b := r.buf[:0]
		b = append(b, byte(s.obs), byte(s.obs>>8), byte(s.obs>>16), byte(s.obs>>24))
		for _, v := range s.vars {
			b = v.key(b)
		}
		r.buf = b
		if err := r.addWork(len(b), p); err != nil {
			return nil, err
		}
		if j, ok := idx[string(b)]; ok {
			out[j].p = addP(out[j].p, s.p)
			continue
		}
		idx[string(b)] = len(out)
		out = append(out, s)
	}
	return out, r.budget(len(out), p)
}

// fewStates is the size up to which merge compares states pairwise: cheaper than encoding
// every state's variables as a key when there are a handful of them (the usual case).
const fewStates = 32

// hashFrom is the size above which merge finds equal states by hashing (mergeHashed) rather
// than by comparing every pair: a coin added to a counter in 16 states gives 32 to merge.
const hashFrom = 8

// sameState reports whether two states have the same observations and variables.
func sameState(a, b *wstate) bool {
	if a.obs != b.obs {
		return false
	}
	for i := range a.vars {
		if !equal(a.vars[i], b.vars[i]) {
			return false
		}
	}
	return true
}

func (r *runner) budget(n int, p Pos) error {
	if n > r.peak {
		r.peak = n
	}
	if n > r.opt.StateBudget {
		return r.fail(r.where(p), "more than %d distinct states (the state budget): the program keeps too many different values apart", r.opt.StateBudget)
	}
	return nil
}

func (r *runner) block(stmts []Stmt, d dist) (dist, error) {
	var err error
	for _, s := range stmts {
		if d, err = r.stmt(s, d); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (r *runner) stmt(s Stmt, d dist) (dist, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	switch s := s.(type) {
	case *SecretStmt:
		return d, nil
	case *AssignStmt:
		return r.assign(s, d)
	case *ObserveStmt:
		return r.observe(s, d)
	case *IfStmt:
		return r.ifStmt(s, d)
	case *WhileStmt:
		return r.while(s, d)
	case *ForStmt:
		return r.forStmt(s, d)
	}
	return d, nil
}

// each runs f on every outcome of the expressions es in every state of d: f receives the state
// (a copy when the state splits) and the values, and the new states come out in order.
func (r *runner) each(d dist, es []Expr, p Pos, f func(s *wstate, vs []Value) error) (dist, error) {
	random := false
	for _, e := range es {
		random = random || isRandom(e)
	}
	if !random {
		// The values go to f, which keeps none of the slice (assign and observe copy what they
		// keep), so one buffer serves every call.
		if cap(r.vals) < len(es) {
			r.vals = make([]Value, len(es))
		}
		vs := r.vals[:len(es)]
		for i := range d {
			for k, e := range es {
				v, err := r.eval(e, &d[i])
				if err != nil {
					return nil, err
				}
				vs[k] = v
			}
			if err := f(&d[i], vs); err != nil {
				return nil, err
			}
		}
		return r.merge(d, p)
	}
	// The states come out in a new array. Two arrays alternate: the one a previous each
	// returned, once it comes back here as d, is read for the last time and becomes the next
	// output's (every statement drops the distribution it was given; see recycle).
	var out dist
	if cap(r.spare) >= 2*len(d) {
		out, r.spare = r.spare[:0], nil
	} else {
		out = make(dist, 0, 2*len(d))
	}
	prev := r.lastOut
	var buf [1]Value
	for i := range d {
		var combos []combo
		var outs []outcome
		n := 0
		if len(es) == 1 { // one expression: its outcomes, without joint ones
			var err error
			if outs, err = r.evalDist(es[0], &d[i]); err != nil {
				return nil, err
			}
			n = len(outs)
		} else {
			var err error
			if combos, err = r.evalAll(es, &d[i]); err != nil {
				return nil, err
			}
			n = len(combos)
		}
		for k := 0; k < n; k++ {
			out = append(out, d[i])
			s := &out[len(out)-1]
			if k < n-1 {
				s.vars = r.copyVars(s.vars)
			}
			var vs []Value
			var q prob
			if outs != nil {
				buf[0], q = outs[k].v, outs[k].p
				vs = buf[:]
			} else {
				vs, q = combos[k].vs, combos[k].p
			}
			s.p = mulP(d[i].p, q)
			if err := r.checkP(s.p, p); err != nil {
				return nil, err
			}
			if err := f(s, vs); err != nil {
				return nil, err
			}
		}
		if len(out) > 2*r.opt.StateBudget { // merge early so that a split never holds much more than the budget
			var err error
			if out, err = r.merge(out, p); err != nil {
				return nil, err
			}
		}
	}
	out, err := r.merge(out, p)
	r.lastOut = out
	r.recycle(d, prev)
	return out, err
}

// recycle keeps d's array for the next each when it is the array the previous each returned
// (prev): nothing else holds it once it has been read here. Its states are cleared so that
// their variables can be collected.
func (r *runner) recycle(d, prev dist) {
	if len(d) == 0 || len(prev) == 0 || &d[0] != &prev[0] {
		return
	}
	d = d[:cap(d)]
	clear(d)
	r.spare = d[:0]
}

func (r *runner) assign(s *AssignStmt, d dist) (dist, error) {
	return r.each(d, s.exprs, s.P, func(st *wstate, vs []Value) error {
		v := vs[len(vs)-1]
		if len(s.Indices) > 0 {
			nv, err := setIndex(s.Name, st.vars[s.slot], vs[:len(vs)-1], v)
			if err != nil {
				return r.at(s.NamePos, err)
			}
			if err := r.addWork(nv.size(), s.P); err != nil {
				return err
			}
			v = nv
		}
		st.vars[s.slot] = v
		return nil
	})
}

func (r *runner) observe(s *ObserveStmt, d dist) (dist, error) {
	return r.each(d, s.exprs, s.P, func(st *wstate, vs []Value) error {
		id, err := r.intern(st.obs, vs[0], s.P)
		st.obs = id
		return err
	})
}

// obsKey is an observation sequence's parent and an unboxed scalar appended to it.
type obsKey struct {
	parent int32
	k      kind
	n      int64
}

// intern returns the id of the observation sequence parent followed by v.
func (r *runner) intern(parent int32, v Value, p Pos) (int32, error) {
	if r.obs[parent].depth >= MaxObserved {
		return 0, r.fail(r.where(p), "a run observed more than %d values", MaxObserved)
	}
	if v.ref == nil { // an unboxed scalar: looked up by its kind and word, without a key
		k := obsKey{parent, v.k, v.n}
		if id, ok := r.obsSmall[k]; ok {
			return id, nil
		}
		if err := r.addWork(4+keyLen(v), p); err != nil { // the length of its key, as below
			return 0, err
		}
		if r.obsSmall == nil {
			r.obsSmall = map[obsKey]int32{}
		}
		id := int32(len(r.obs))
		r.obs = append(r.obs, obsNode{parent: parent, depth: r.obs[parent].depth + 1, v: v})
		r.obsSmall[k] = id
		return id, nil
	}
	b := append(r.buf[:0], byte(parent), byte(parent>>8), byte(parent>>16), byte(parent>>24))
	b = v.key(b)
	r.buf = b
	if id, ok := r.obsIdx[string(b)]; ok { // a lookup by string(b) does not copy b
		return id, nil
	}
	if err := r.addWork(len(b), p); err != nil {
		return 0, err
	}
	k := string(b)
	id := int32(len(r.obs))
	r.obs = append(r.obs, obsNode{parent: parent, depth: r.obs[parent].depth + 1, v: v})
	r.obsIdx[k] = id
	return id, nil
}

// cond evaluates a condition in a state and returns the probability that it holds and that it
// does not (nil for 0), and whether false came first among its outcomes.
func (r *runner) cond(e Expr, s *wstate, what string) (yes, no *prob, noFirst bool, err error) {
	var outs []outcome
	if isRandom(e) {
		if outs, err = r.evalDist(e, s); err != nil {
			return nil, nil, false, err
		}
	} else {
		v, err := r.eval(e, s)
		if err != nil {
			return nil, nil, false, err
		}
		var buf [1]outcome
		buf[0] = outcome{v, one}
		outs = buf[:]
	}
	noFirst = len(outs) > 0 && outs[0].v.k == kBool && outs[0].v.n == 0
	for _, o := range outs {
		if o.v.k != kBool {
			return nil, nil, false, r.fail(start(e), "%s must be true or false, but this is %s", what, o.v.typeName())
		}
		p := o.p
		if o.v.n != 0 {
			yes = &p
		} else {
			no = &p
		}
	}
	return yes, no, noFirst, nil
}

// ifStmt runs each state through the branch its condition selects (a state splits when the
// condition is random), state by state, so that the result keeps the order of first appearance.
func (r *runner) ifStmt(s *IfStmt, d dist) (dist, error) {
	if len(d) == 1 && !s.random { // one state, conditions without random choices: no split
		for k, c := range s.Conds {
			v, err := r.eval(c, &d[0])
			if err != nil {
				return nil, err
			}
			if v.k != kBool {
				return nil, r.fail(start(c), "the condition of `if` must be true or false, but this is %s", v.typeName())
			}
			if v.n != 0 {
				return r.block(s.Blocks[k], d)
			}
		}
		return r.block(s.Else, d)
	}
	if !s.random {
		if k, ok, err := r.sameBranch(s, d); err != nil || ok {
			if err != nil {
				return nil, err
			}
			return r.block(r.branch(s, k), d)
		}
	}
	var out dist
	var run func(k int, st wstate) error
	run = func(k int, st wstate) error {
		var body []Stmt
		if k == len(s.Conds) {
			body = s.Else
		} else {
			yes, no, noFirst, err := r.cond(s.Conds[k], &st, "the condition of `if`")
			if err != nil {
				return err
			}
			if yes != nil && no != nil {
				// Both ways: the state splits, and the part whose outcome came first runs first.
				a := st
				a.vars = r.copyVars(st.vars)
				a.p, st.p = mulP(st.p, *yes), mulP(st.p, *no)
				if err := r.checkP(a.p, s.P); err != nil {
					return err
				}
				if err := r.checkP(st.p, s.P); err != nil {
					return err
				}
				if noFirst {
					if err := run(k+1, st); err != nil {
						return err
					}
					return run2(r, s.Blocks[k], a, &out)
				}
				if err := run2(r, s.Blocks[k], a, &out); err != nil {
					return err
				}
				return run(k+1, st)
			}
			if yes == nil {
				return run(k+1, st)
			}
			body = s.Blocks[k]
		}
		return run2(r, body, st, &out)
	}
	for _, st := range d {
		if err := run(0, st); err != nil {
			return nil, err
		}
	}
	return r.merge(out, s.P)
}

// sameBranch reports whether every state of d takes the same branch of a deterministic if, and
// which (len(s.Conds) for the else). Then the branch runs on the whole distribution at once,
// which keeps the depth-first order (the states stay in theirs) and merges across states: a
// condition on the secret alone (`if bit(key, i) == 1`) is the same in every state.
func (r *runner) sameBranch(s *IfStmt, d dist) (int, bool, error) {
	first := -1
	if agree(d, s.reads) { // the conditions read the same values in every state: one evaluation
		d = d[:1]
	}
	for i := range d {
		k := len(s.Conds)
		for j, c := range s.Conds {
			v, err := r.eval(c, &d[i])
			if err != nil {
				return 0, false, err
			}
			if v.k != kBool {
				return 0, false, r.fail(start(c), "the condition of `if` must be true or false, but this is %s", v.typeName())
			}
			if v.n != 0 {
				k = j
				break
			}
		}
		if first >= 0 && k != first {
			return 0, false, nil
		}
		first = k
	}
	return first, true, nil
}

// agree reports whether every state of d holds the same values in the given slots, comparing
// what is cheap to compare (unboxed scalars, the same string or list); anything else counts as
// a difference.
func agree(d dist, slots []int) bool {
	for _, k := range slots {
		a := d[0].vars[k]
		for i := 1; i < len(d); i++ {
			b := d[i].vars[k]
			if a.k != b.k || a.n != b.n || a.ref != nil && !sameRef(a, b) {
				return false
			}
		}
	}
	return true
}

// sameRef reports whether two values of one kind with a reference are the same object (or, for
// strings, the same text).
func sameRef(a, b Value) bool {
	switch x := a.ref.(type) {
	case string:
		y, ok := b.ref.(string)
		return ok && x == y
	case *seq:
		y, ok := b.ref.(*seq)
		return ok && x == y
	}
	return false
}

// branch is the block of branch k of an if (the else when k is the number of conditions).
func (r *runner) branch(s *IfStmt, k int) []Stmt {
	if k == len(s.Conds) {
		return s.Else
	}
	return s.Blocks[k]
}

// run2 runs a block on one state and appends the resulting states to out.
func run2(r *runner, body []Stmt, st wstate, out *dist) error {
	if len(body) == 0 {
		*out = append(*out, st)
		return nil
	}
	res, err := r.block(body, dist{st})
	if err != nil {
		return err
	}
	*out = append(*out, res...)
	return nil
}

// step counts n loop iterations against the step budget.
func (r *runner) step(n int, loop Pos) error {
	r.steps += int64(n)
	r.total += int64(n)
	if r.steps > r.opt.StepBudget {
		return r.fail(loop, "this loop has not finished after %d iterations (the step budget, counted over all the states of this secret value); a loop must end with probability 1 — raise the step budget if it only needs longer", r.opt.StepBudget)
	}
	return nil
}

// while runs the loop on the whole distribution, one iteration at a time, so that a loop over 60
// coin flips keeps 61 states, not 2^60 paths. The states that have left and those still in the
// loop are kept in one list, in the order of a depth-first run: a state that leaves takes the
// place of the path that left, and a state still in the loop is replaced, after the next
// iteration, by the states its body gives (each run on its own, in order). Equal states are then
// merged at the first one's place, which a depth-first run meets first.
func (r *runner) while(s *WhileStmt, d dist) (dist, error) {
	r.loops = append(r.loops, s.P)
	defer func() { r.loops = r.loops[:len(r.loops)-1] }()
	list := make([]loopState, len(d))
	for i, st := range d {
		list[i] = loopState{st, true}
	}
	for {
		next := make([]loopState, 0, len(list))
		stays := 0
		for _, e := range list {
			if !e.active {
				next = append(next, e)
				continue
			}
			st := e.st
			yes, no, noFirst, err := r.cond(s.Cond, &st, "the condition of `while`")
			if err != nil {
				return nil, err
			}
			switch {
			case yes != nil && no != nil:
				a := st
				a.vars = r.copyVars(st.vars)
				a.p, st.p = mulP(st.p, *no), mulP(st.p, *yes)
				if err := r.checkP(a.p, s.P); err != nil {
					return nil, err
				}
				if err := r.checkP(st.p, s.P); err != nil {
					return nil, err
				}
				if noFirst {
					next = append(next, loopState{a, false}, loopState{st, true})
				} else {
					next = append(next, loopState{st, true}, loopState{a, false})
				}
				stays++
			case yes != nil:
				next = append(next, loopState{st, true})
				stays++
			default:
				next = append(next, loopState{st, false})
			}
		}
		if stays == 0 {
			out := make(dist, len(next))
			for i, e := range next {
				out[i] = e.st
			}
			return r.merge(out, s.P) // a state that left last may equal one that left before
		}
		if err := r.step(stays, s.P); err != nil {
			return nil, err
		}
		list = list[:0]
		for _, e := range next {
			if !e.active {
				list = append(list, e)
				continue
			}
			res, err := r.block(s.Body, dist{e.st})
			if err != nil {
				return nil, err
			}
			for _, st := range res {
				list = append(list, loopState{st, true})
			}
		}
		var err error
		if list, err = r.mergeLoop(list, s.P); err != nil {
			return nil, err
		}
	}
}

// loopState is a state of a while loop: still in the loop (active) or left.
type loopState struct {
	st     wstate
	active bool
}

// mergeLoop merges equal states of a while loop (equal variables, observations and whether they
// have left) at the first one's place, and enforces the state budget.
func (r *runner) mergeLoop(list []loopState, p Pos) ([]loopState, error) {
	if len(list) <= 1 {
		return list, r.budget(len(list), p)
	}
	if r.idx == nil {
		r.idx = make(map[string]int, len(list))
	}
	idx := r.idx
	clear(idx)
	out := list[:0]
	for _, e := range list {
		b := r.buf[:0]
		b = append(b, byte(e.st.obs), byte(e.st.obs>>8), byte(e.st.obs>>16), byte(e.st.obs>>24))
		if e.active {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
		for _, v := range e.st.vars {
			b = v.key(b)
		}
		r.buf = b
		if err := r.addWork(len(b), p); err != nil {
			return nil, err
		}
		if j, ok := idx[string(b)]; ok {
			out[j].st.p = addP(out[j].st.p, e.st.p)
			continue
		}
		idx[string(b)] = len(out)
		out = append(out, e)
	}
	return out, r.budget(len(out), p)
}

// forStmt runs the body once per element. When every state goes over the same elements (a
// constant range, the usual case), the distribution runs in lockstep and is merged after each
// iteration; otherwise each state runs the loop on its own.
func (r *runner) forStmt(s *ForStmt, d dist) (dist, error) {
	r.loops = append(r.loops, s.P)
	defer func() { r.loops = r.loops[:len(r.loops)-1] }()
	if s.seq != nil { // a constant range: every state goes over the same elements
		if int64(len(s.seq)) > r.opt.StepBudget {
			return nil, r.fail(s.P, "this loop would run %d iterations, more than the step budget of %d", len(s.seq), r.opt.StepBudget)
		}
		return r.forRun(s, d, s.seq)
	}
	seqs := make([][]Value, 0, len(d))
	var split dist
	for i := range d {
		outs, err := r.forElements(s, &d[i])
		if err != nil {
			return nil, err
		}
		for k, o := range outs {
			st := d[i]
			if k < len(outs)-1 {
				st.vars = r.copyVars(st.vars)
			}
			st.p = mulP(d[i].p, o.p)
			split = append(split, st)
			seqs = append(seqs, o.seq)
		}
	}
	same := true
	for _, q := range seqs[1:] {
		if !equal(listVal(q), listVal(seqs[0])) {
			same = false
			break
		}
	}
	if same {
		return r.forRun(s, split, seqs[0])
	}
	var out dist
	for i, st := range split {
		res, err := r.forRun(s, dist{st}, seqs[i])
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
	}
	return r.merge(out, s.P)
}

func (r *runner) forRun(s *ForStmt, d dist, seq []Value) (dist, error) {
	var err error
	for _, v := range seq {
		if err := r.step(len(d), s.P); err != nil {
			return nil, err
		}
		for i := range d {
			d[i].vars[s.slot] = v
		}
		if d, err = r.block(s.Body, d); err != nil {
			return nil, err
		}
	}
	return d, nil
}

type seqOutcome struct {
	seq []Value
	p   prob
}

// forElements evaluates what a for loop goes over in one state (several sequences when a bound
// is random).
func (r *runner) forElements(s *ForStmt, st *wstate) ([]seqOutcome, error) {
	if rg, ok := s.Over.(*Range); ok {
		combos, err := r.evalAll([]Expr{rg.Lo, rg.Hi}, st)
		if err != nil {
			return nil, err
		}
		out := make([]seqOutcome, len(combos))
		for k, c := range combos {
			lo, hi, err := r.bounds(rg, c.vs[0], c.vs[1])
			if err != nil {
				return nil, err
			}
			n := hi - lo + 1
			if n < 0 {
				n = 0 // an empty range runs the body no time
			}
			if n > r.opt.StepBudget {
				return nil, r.fail(s.P, "this loop would run %d iterations, more than the step budget of %d", n, r.opt.StepBudget)
			}
			seq := make([]Value, n)
			for i := range seq {
				seq[i] = intVal(lo + int64(i))
			}
			out[k] = seqOutcome{seq, c.p}
		}
		return out, nil
	}
	outs, err := r.evalDist(s.Over, st)
	if err != nil {
		return nil, err
	}
	res := make([]seqOutcome, len(outs))
	for k, o := range outs {
		es, ok := elements(o.v)
		if !ok {
			return nil, r.fail(start(s.Over), "a `for` loop goes over a range `a..b`, a list, a tuple or a string, not %s", o.v.typeName())
		}
		res[k] = seqOutcome{es, o.p}
	}
	return res, nil
}

// bounds reads the ends of a range: integers that fit in an int64.
func (r *runner) bounds(rg *Range, lo, hi Value) (int64, int64, error) {
	for _, x := range []struct {
		v Value
		e Expr
	}{{lo, rg.Lo}, {hi, rg.Hi}} {
		if x.v.k != kInt {
			return 0, 0, r.fail(start(x.e), "the ends of a range must be integers, but this is %s", x.v.typeName())
		}
		if !x.v.small() || x.v.n > 1<<53 || x.v.n < -(1<<53) {
			return 0, 0, r.fail(start(x.e), "the range %s..%s is too large", lo.Label(), hi.Label())
		}
	}
	return lo.n, hi.n, nil
}

// copyVars copies a state's variables for a state that splits off. The copies are cut from
// chunks of a few thousand values: one allocation for many states instead of one each, which
// in WebAssembly (no parallel garbage collector) is most of the cost of a program that splits
// states in every iteration. A chunk lives as long as any of its states.
func (r *runner) copyVars(vs []Value) []Value {
	n := len(vs)
	if n == 0 {
		return nil
	}
	if len(r.chunk)+n > cap(r.chunk) {
		r.chunk = make([]Value, 0, max(4096, 64*n))
	}
	k := len(r.chunk)
	r.chunk = append(r.chunk, vs...)
	return r.chunk[k : k+n : k+n]
}
