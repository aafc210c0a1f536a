package program

import (
	"context"
	"math/big"
	"strings"
	"time"
	"unsafe"
)

// Options tunes Channel. The zero value means the defaults.
type Options struct {
	// StepBudget is the number of loop iterations allowed for each secret value, summed over its
	// merged states; 0 means DefaultStepBudget.
	StepBudget int64
	// StateBudget is the largest number of distinct states a distribution may hold; 0 means
	// DefaultStateBudget.
	StateBudget int
	// Progress, when non-nil, is called about every 100 ms with the number of secret values
	// done and their total; returning false cancels the run (Channel returns ErrCancelled).
	Progress func(done, total int) bool
	// Context, when non-nil, cancels the run once it is done.
	Context context.Context
}

// ErrCancelled is returned by Channel when Options.Progress returns false.
var ErrCancelled = errCancelled

// Result is the channel a program denotes, exactly.
type Result struct {
	// Secrets are the row labels: the secret values in row order (a tuple for several secrets).
	Secrets []string
	// Observations are the column labels, in order of first appearance.
	Observations []string
	// Prior is the declared prior on the rows.
	Prior []*big.Rat
	// Channel[x][o] = P(observation o | secret x); rows sum to exactly 1. Equal entries (and
	// equal prior probabilities) may share one *big.Rat: treat them as read-only.
	Channel [][]*big.Rat
	// States is the largest number of distinct states any distribution held (the cost of the
	// merged semantics: 60 coin flips summed into a counter give 61).
	States int
	// Steps is the number of loop iterations run, over all secret values and merged states.
	Steps int64

	rowText, obsText string // the labels joined by NUL characters (Secrets and Observations are pieces of them)
}

// SecretText returns the row labels joined by NUL characters (no label holds one), without a
// copy when the result came from Channel: a million labels cross to JavaScript as one string.
func (res *Result) SecretText() string {
	if res.rowText == "" && len(res.Secrets) > 0 {
		return strings.Join(res.Secrets, "\x00")
	}
	return res.rowText
}

// ObservationText returns the column labels joined by NUL characters, as SecretText does.
func (res *Result) ObservationText() string {
	if res.obsText == "" && len(res.Observations) > 0 {
		return strings.Join(res.Observations, "\x00")
	}
	return res.obsText
}

// cell is one nonzero entry of the channel: its column and probability. It holds no pointer
// (a probability that needs a *big.Rat is kept in a side list, big its index + 1), so that the
// collector, which runs many times while a program's states come and go, never goes over the
// million cells of a large channel.
type cell struct {
	col  int32
	big  int32
	n, d uint64
}

// cells is the channel's nonzero entries, row after row, with the big probabilities they use.
type cells struct {
	list []cell
	bigs []*big.Rat
}

func (cs *cells) add(col int, p prob) {
	cs.list = append(cs.list, cell{col: int32(col)})
	cs.set(len(cs.list)-1, p)
}

func (cs *cells) p(k int) prob {
	c := &cs.list[k]
	if c.big > 0 {
		return prob{r: cs.bigs[c.big-1]}
	}
	return prob{n: c.n, d: c.d}
}

func (cs *cells) set(k int, p prob) {
	c := &cs.list[k]
	if p.r != nil {
		cs.bigs = append(cs.bigs, p.r)
		c.big = int32(len(cs.bigs))
		return
	}
	c.big, c.n, c.d = 0, p.n, p.d
}

// Channel runs src on every value of its secret and returns the channel it denotes. Errors are
// an ErrorList (the program does not compile) or an *Error (it failed while running, at a line
// and column), ErrCancelled or the context's error.
func Channel(src string, opt Options) (*Result, error) {
	prog, err := Compile(src)
	if err != nil {
		return nil, err
	}
	return prog.Channel(opt)
}

// Channel runs the program on every value of its secret (see the package function Channel).
func (prog *Program) Channel(opt Options) (*Result, error) {
	if opt.StepBudget <= 0 {
		opt.StepBudget = DefaultStepBudget
	}
	if opt.StateBudget <= 0 {
		opt.StateBudget = DefaultStateBudget
	}
	r := &runner{prog: prog, opt: opt, ctx: opt.Context, last: time.Now(),
		obs: []obsNode{{parent: -1}}, obsIdx: map[string]int32{}}
	rows, err := r.secretRows()
	if err != nil {
		return nil, err
	}
	r.rows = rows.n
	// A first report before any work: a caller can cancel at once, and learns the number of rows
	// even when the whole run ends within the first reporting interval.
	if opt.Progress != nil && !opt.Progress(0, r.rows) {
		return nil, errCancelled
	}
	res := &Result{Secrets: rows.labels, Prior: rows.prior, rowText: r.rowText}
	// colOf[id] is observation sequence id's column plus 1 (0: none yet); the ids are dense.
	var colOf []int32
	var obsIDs []int32
	// The nonzero entries, row after row (row i's are cells[rowStart[i]:rowStart[i+1]]).
	var cells cells
	rowStart := make([]int, rows.n+1)
	pos := map[int]int{} // column → its cell in the current row, for rows with many states
	// The first state of each run reuses one variables slice and one distribution: a run's
	// states are dropped once its row is filled in, and a state that splits copies its variables.
	vars := make([]Value, len(prog.names))
	start := make(dist, 1)
	for i := 0; i < rows.n; i++ {
		r.row, r.steps, r.work = rows.labels[i], 0, 0
		clear(vars)
		rows.fill(i, vars)
		start[0] = wstate{vars: vars, p: one}
		d, err := r.block(prog.stmts, start[:1:1])
		if err != nil {
			return nil, err
		}
		// Final states that differ only in their variables observed the same: one cell each.
		for _, s := range d {
			for int(s.obs) >= len(colOf) {
				colOf = append(colOf, 0)
			}
			c := int(colOf[s.obs]) - 1
			if c < 0 {
				c = len(obsIDs)
				colOf[s.obs] = int32(c + 1)
				obsIDs = append(obsIDs, s.obs)
			}
			k := -1
			if len(d) <= 16 {
				for j := rowStart[i]; j < len(cells.list); j++ {
					if int(cells.list[j].col) == c {
						k = j
						break
					}
				}
			} else if j, ok := pos[c]; ok {
				k = j
			}
			if k >= 0 {
				cells.set(k, addP(cells.p(k), s.p))
			} else {
				if len(d) > 16 {
					pos[c] = len(cells.list)
				}
				cells.add(c, s.p)
			}
		}
		rowStart[i+1] = len(cells.list)
		if len(d) > 16 {
			clear(pos)
		}
		r.done = i + 1
		if err := r.poll1(); err != nil {
			return nil, err
		}
		if float64(rows.n)*float64(len(obsIDs)) > MaxEntries {
			return nil, r.fail(Pos{1, 1}, "the channel would have %d rows and at least %d columns, more than the limit of %d entries", rows.n, len(obsIDs), MaxEntries)
		}
	}
	obsStr := false
	for _, o := range r.obs {
		obsStr = obsStr || holdsString(o.v)
	}
	res.Observations, res.obsText = distinctLabels(len(obsIDs), obsStr, func(b []byte, k int, quote bool) []byte { return r.appendObsLabel(b, obsIDs[k], quote) })
	// Equal entries share one *big.Rat (most are 0 or 1): the result is read-only.
	zero := new(big.Rat)
	shared := map[[2]uint64]*big.Rat{}
	var lastK [2]uint64 // the previous small entry's, which the next one often repeats
	var lastR *big.Rat
	ratOf := func(p prob) *big.Rat {
		if p.r != nil {
			return p.r
		}
		k := [2]uint64{p.n, p.d}
		if lastR != nil && k == lastK {
			return lastR
		}
		r, ok := shared[k]
		if !ok {
			r = p.Rat()
			shared[k] = r
		}
		lastK, lastR = k, r
		return r
	}
	res.Channel = make([][]*big.Rat, rows.n)
	flat := make([]*big.Rat, rows.n*len(obsIDs))
	for k := range flat {
		flat[k] = zero
	}
	for i := range rows.n {
		row := flat[i*len(obsIDs) : (i+1)*len(obsIDs) : (i+1)*len(obsIDs)]
		for k := rowStart[i]; k < rowStart[i+1]; k++ {
			row[cells.list[k].col] = ratOf(cells.p(k))
		}
		res.Channel[i] = row
	}
	res.States, res.Steps = r.peak, r.total
	if res.States == 0 {
		res.States = 1
	}
	return res, nil
}

// poll1 checks for cancellation after a row.
func (r *runner) poll1() error {
	r.poll |= 1023
	return r.check()
}

// distinctLabels returns the labels of n values, label(b, k, false) each appended to b, unless
// two of them are equal: then label(b, k, true) each, with the strings that could be read as
// another value quoted, which prints distinct values distinctly. (A channel whose labels do not
// collide keeps its strings raw: the DC-net's columns are 10, 01, 00, 11.)
// Only a string can print like another value, so without strings (hasStr false) the labels are
// distinct without a check.
// The labels are written into one text, joined by NUL characters (no label holds one: a program
// cannot write one), and returned as pieces of it with the text itself: a million row labels are
// then two allocations instead of a million, and the text crosses to JavaScript as it is.
func distinctLabels(n int, hasStr bool, label func(b []byte, k int, quote bool) []byte) ([]string, string) {
	out, text := joinLabels(n, false, label)
	if !hasStr {
		return out, text
	}
	seen := make(map[string]bool, n)
	collide := false
	for _, l := range out {
		if seen[l] {
			collide = true
			break
		}
		seen[l] = true
	}
	if collide {
		out, text = joinLabels(n, true, label)
	}
	return out, text
}

// joinLabels writes n labels into one text joined by NUL characters and returns them as pieces
// of it, with the text.
func joinLabels(n int, quote bool, label func(b []byte, k int, quote bool) []byte) ([]string, string) {
	ends := make([]int, n)
	if n == 0 {
		return nil, ""
	}
	// Room for n labels as long as the first or the last (the rows of a range, of bits(n)):
	// growing a buffer of 60 MB by doubling copies it twice over.
	est := len(label(nil, 0, quote))
	if n > 1 {
		est = max(est, len(label(nil, n-1, quote)))
	}
	b := make([]byte, 0, n*(est+1))
	for k := range ends {
		if k > 0 {
			b = append(b, 0)
		}
		b = label(b, k, quote)
		ends[k] = len(b)
	}
	// The buffer is never written again: the text is the buffer, without a copy.
	text := unsafe.String(unsafe.SliceData(b), len(b))
	out := make([]string, n)
	from := 0
	for k, e := range ends {
		out[k] = text[from:e]
		from = e + 1
	}
	return out, text
}

// numeric reports whether a domain holds no string by construction: a range or bits(n).
func numeric(d Expr) bool {
	switch d := d.(type) {
	case *Range:
		return true
	case *Call:
		return d.Name == "bits"
	}
	return false
}

// holdsString reports whether v is a string or holds one.
func holdsString(v Value) bool {
	switch v.k {
	case kStr:
		return true
	case kList, kTuple:
		for _, e := range v.elems() {
			if holdsString(e) {
				return true
			}
		}
	}
	return false
}

// appendObsLabel appends the label of an observation sequence to b: its values joined by "; ",
// or ∅ when empty; quote quotes the strings that could be read as another value.
func (r *runner) appendObsLabel(b []byte, id int32, quote bool) []byte {
	if id == 0 {
		return append(b, "∅"...)
	}
	var buf [8]Value
	vs := buf[:0]
	for ; id > 0; id = r.obs[id].parent {
		vs = append(vs, r.obs[id].v)
	}
	for i := len(vs) - 1; i >= 0; i-- {
		b = vs[i].appendLabel(b, false, quote)
		if i > 0 {
			b = append(b, "; "...)
		}
	}
	return b
}

// domain evaluates one secret's domain.
func (r *runner) domain(s *SecretStmt) ([]domainValue, error) {
	empty := &wstate{}
	// uniform gives every value the same probability; distinct says that they are different by
	// construction (a range, bits), so that they need no check.
	uniform := func(vs []Value, at Pos, distinct bool) ([]domainValue, error) {
		if len(vs) == 0 {
			return nil, r.fail(at, "the domain of `%s` is empty", s.Name)
		}
		if len(vs) > MaxRows {
			return nil, r.fail(at, "the domain of `%s` has %d values, more than the limit of %d", s.Name, len(vs), MaxRows)
		}
		seen := map[string]bool{}
		p := big.NewRat(1, int64(len(vs)))
		out := make([]domainValue, len(vs))
		for i, v := range vs {
			if !distinct {
				k := string(v.key(nil))
				if seen[k] {
					return nil, r.fail(at, "the domain of `%s` lists %s twice", s.Name, v.Label())
				}
				seen[k] = true
			}
			out[i] = domainValue{v, p}
		}
		return out, nil
	}
	switch d := s.Domain.(type) {
	case *Range:
		lo, err := r.eval(d.Lo, empty)
		if err != nil {
			return nil, err
		}
		hi, err := r.eval(d.Hi, empty)
		if err != nil {
			return nil, err
		}
		a, b, err := r.bounds(d, lo, hi)
		if err != nil {
			return nil, err
		}
		if b < a {
			return nil, r.fail(d.P, "the range %d..%d is empty (a range a..b includes both ends and needs a ≤ b)", a, b)
		}
		if b-a+1 > MaxRows {
			return nil, r.fail(d.P, "the range %d..%d has %d values, more than the limit of %d", a, b, b-a+1, MaxRows)
		}
		vs := make([]Value, b-a+1)
		for i := range vs {
			vs[i] = intVal(a + int64(i))
		}
		return uniform(vs, d.P, true)
	case *Weights:
		var out []domainValue
		sum := new(big.Rat)
		seen := map[string]bool{}
		for i := range d.Keys {
			k, err := r.eval(d.Keys[i], empty)
			if err != nil {
				return nil, err
			}
			w, err := r.eval(d.Ws[i], empty)
			if err != nil {
				return nil, err
			}
			if !w.isNum() {
				return nil, r.fail(start(d.Ws[i]), "a weight must be a number, but this is %s", w.typeName())
			}
			if w.rat().Sign() < 0 {
				return nil, r.fail(start(d.Ws[i]), "a weight cannot be negative (%s)", w.Label())
			}
			if seen[string(k.key(nil))] {
				return nil, r.fail(start(d.Keys[i]), "the domain of `%s` lists %s twice", s.Name, k.Label())
			}
			seen[string(k.key(nil))] = true
			sum.Add(sum, w.rat())
			out = append(out, domainValue{k, w.rat()})
		}
		if sum.Cmp(bigOne) != 0 {
			return nil, r.fail(d.P, "the weights of `%s` sum to %s, not 1", s.Name, sum.RatString())
		}
		return out, nil
	case *Call:
		arg, err := r.eval(d.Args[0], empty)
		if err != nil {
			return nil, err
		}
		if d.Name == "bits" {
			n, err := r.bitsWidth(d, arg)
			if err != nil {
				return nil, err
			}
			return uniform(bitLists(n), d.P, true)
		}
		if d.Name == "perms" {
			es, ok := elements(arg)
			if !ok {
				return nil, r.fail(start(d.Args[0]), "perms needs a list (or a string), not %s", arg.typeName())
			}
			if len(es) > 9 {
				return nil, r.fail(start(d.Args[0]), "perms of %d elements gives more than %d rows", len(es), MaxRows/2)
			}
			var vs []Value
			permute(len(es), func(p []int) {
				if arg.k == kStr {
					var b strings.Builder
					for _, i := range p {
						b.WriteString(es[i].str())
					}
					vs = append(vs, strVal(b.String()))
					return
				}
				out := make([]Value, len(p))
				for j, i := range p {
					out[j] = es[i]
				}
				if arg.k == kTuple {
					vs = append(vs, tupleVal(out))
				} else {
					vs = append(vs, listVal(out))
				}
			})
			return uniform(vs, d.P, false)
		}
	}
	v, err := r.eval(s.Domain, empty)
	if err != nil {
		return nil, err
	}
	es, ok := elements(v)
	if !ok || v.k == kStr {
		return nil, r.fail(start(s.Domain), "a secret's domain is a range `a..b`, a list `[…]`, weights `{v: w, …}`, bits(n) or perms(list), not %s", v.typeName())
	}
	return uniform(es, start(s.Domain), false)
}

// permute calls f with every permutation of 0..n−1 in lexicographic order.
func permute(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for {
		f(p)
		i := n - 2
		for i >= 0 && p[i] >= p[i+1] {
			i--
		}
		if i < 0 {
			return
		}
		j := n - 1
		for p[j] <= p[i] {
			j--
		}
		p[i], p[j] = p[j], p[i]
		for a, b := i+1, n-1; a < b; a, b = a+1, b-1 {
			p[a], p[b] = p[b], p[a]
		}
	}
}
