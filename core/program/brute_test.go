package program_test

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// An independent check of the merged semantics: random small programs are generated as a tiny
// syntax tree of this file, printed as source for the package, and run here by enumerating
// every path one at a time (re-running the program with each sequence of random choices,
// depth first), without distributions, merging or the package's evaluator. Both must give the
// same channel entry by entry, and the same column order: the order in which a depth-first
// enumeration of the paths first meets each observation, however the package merges states
// (a while loop included, whose states leave in different iterations).

type bEnv struct {
	vars    map[string]int64
	choices []int // the path: the alternative taken at each random choice
	arity   []int // the number of alternatives at each choice met
	pos     int
	p       *big.Rat
	obs     []string
}

// pick takes the next alternative of a random choice with the given weights.
func (e *bEnv) pick(ws []*big.Rat) int {
	if e.pos == len(e.choices) {
		e.choices = append(e.choices, 0)
		e.arity = append(e.arity, len(ws))
	}
	k := e.choices[e.pos]
	e.pos++
	e.p.Mul(e.p, ws[k])
	return k
}

type bExpr interface {
	src() string
	eval(e *bEnv) int64
}

type (
	bConst int64
	bVar   string
	bBin   struct {
		op   string
		x, y bExpr
	}
	bFlip    struct{ num, den int64 }
	bUniform struct{ lo, hi int64 }
	bChoose  struct {
		vals []int64
		ws   []*big.Rat
	}
	bMin struct{ x, y bExpr }
)

// bFlipIs1 is the condition `flip(p) == 1`.
type bFlipIs1 struct{ f bFlip }

func (c bFlipIs1) src() string        { return c.f.src() + " == 1" }
func (c bFlipIs1) eval(e *bEnv) int64 { return c.f.eval(e) }

func (c bConst) src() string      { return fmt.Sprint(int64(c)) }
func (c bConst) eval(*bEnv) int64 { return int64(c) }
func (v bVar) src() string        { return string(v) }
func (v bVar) eval(e *bEnv) int64 { return e.vars[string(v)] }
func (b bBin) src() string        { return "(" + b.x.src() + " " + b.op + " " + b.y.src() + ")" }
func (m bMin) src() string        { return "min(" + m.x.src() + ", " + m.y.src() + ")" }
func (f bFlip) src() string       { return fmt.Sprintf("flip(%d/%d)", f.num, f.den) }
func (u bUniform) src() string    { return fmt.Sprintf("uniform(%d..%d)", u.lo, u.hi) }
func (m bMin) eval(e *bEnv) int64 { return min(m.x.eval(e), m.y.eval(e)) }
func (f bFlip) eval(e *bEnv) int64 {
	return int64(1 - e.pick([]*big.Rat{big.NewRat(f.num, f.den), big.NewRat(f.den-f.num, f.den)}))
}
func (u bUniform) eval(e *bEnv) int64 {
	ws := make([]*big.Rat, u.hi-u.lo+1)
	for i := range ws {
		ws[i] = big.NewRat(1, u.hi-u.lo+1)
	}
	return u.lo + int64(e.pick(ws))
}
func (c bChoose) src() string {
	parts := make([]string, len(c.vals))
	for i := range c.vals {
		parts[i] = fmt.Sprintf("%d: %s", c.vals[i], c.ws[i].RatString())
	}
	return "choose {" + strings.Join(parts, ", ") + "}"
}
func (c bChoose) eval(e *bEnv) int64 { return c.vals[e.pick(c.ws)] }
func (b bBin) eval(e *bEnv) int64 {
	x := b.x.eval(e)
	switch b.op { // and/or short-circuit, as the language's do
	case "and":
		if x == 0 {
			return 0
		}
		return b.y.eval(e)
	case "or":
		if x != 0 {
			return 1
		}
		return b.y.eval(e)
	}
	y := b.y.eval(e)
	switch b.op {
	case "+":
		return x + y
	case "*":
		return x * y
	case "%": // the generator only divides by positive constants
		return ((x % y) + y) % y
	case "xor":
		return x ^ y
	case "==":
		return b2i(x == y)
	case "<":
		return b2i(x < y)
	}
	panic(b.op)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

type bStmt interface {
	src(indent string) string
	run(e *bEnv)
}

type (
	bAssign struct {
		v string
		x bExpr
	}
	bObserve struct{ x bExpr }
	bIf      struct {
		c          bExpr
		then, els_ []bStmt
	}
	bFor struct {
		v    string
		n    int64
		body []bStmt
	}
	// bWhile is `w = 0; while w < n and c { body; w = w + 1 }` (c may be random).
	bWhile struct {
		w    string
		n    int64
		c    bExpr
		body []bStmt
	}
)

func block(ss []bStmt, indent string) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.src(indent))
	}
	return b.String()
}

func (a bAssign) src(in string) string  { return in + a.v + " = " + a.x.src() + "\n" }
func (a bAssign) run(e *bEnv)           { e.vars[a.v] = a.x.eval(e) }
func (o bObserve) src(in string) string { return in + "observe " + o.x.src() + "\n" }
func (o bObserve) run(e *bEnv)          { e.obs = append(e.obs, fmt.Sprint(o.x.eval(e))) }
func (s bIf) src(in string) string {
	return in + "if " + s.c.src() + " {\n" + block(s.then, in+"  ") + in + "} else {\n" + block(s.els_, in+"  ") + in + "}\n"
}
func (s bIf) run(e *bEnv) {
	body := s.els_
	if s.c.eval(e) == 1 {
		body = s.then
	}
	for _, t := range body {
		t.run(e)
	}
}
func (f bFor) src(in string) string {
	return fmt.Sprintf("%sfor %s in 1..%d {\n%s%s}\n", in, f.v, f.n, block(f.body, in+"  "), in)
}
func (f bFor) run(e *bEnv) {
	for i := int64(1); i <= f.n; i++ {
		e.vars[f.v] = i
		for _, t := range f.body {
			t.run(e)
		}
	}
}
func (w bWhile) src(in string) string {
	return fmt.Sprintf("%s%s = 0\n%swhile %s < %d and %s {\n%s%s  %s = %s + 1\n%s}\n", in, w.w, in, w.w, w.n, w.c.src(), block(w.body, in+"  "), in, w.w, w.w, in)
}
func (w bWhile) run(e *bEnv) {
	e.vars[w.w] = 0
	for e.vars[w.w] < w.n && w.c.eval(e) == 1 {
		for _, t := range w.body {
			t.run(e)
		}
		e.vars[w.w]++
	}
}

// gen builds random programs over the secret s and the variables a, b, c.
type gen struct {
	r     *rand.Rand
	loops int
	while bool // a while loop was generated
}

func (g *gen) expr(d int) bExpr {
	vars := []string{"s", "a", "b", "c"}
	if d <= 0 {
		switch g.r.Intn(6) {
		case 0, 1:
			return bConst(g.r.Intn(4))
		case 2:
			return bFlip{int64(1 + g.r.Intn(2)), 3}
		case 3:
			return bUniform{0, int64(1 + g.r.Intn(2))}
		}
		return bVar(vars[g.r.Intn(len(vars))])
	}
	switch g.r.Intn(9) {
	case 0:
		return bBin{"+", g.expr(d - 1), g.expr(d - 1)}
	case 1:
		return bBin{"%", bBin{"*", g.expr(d - 1), g.expr(d - 1)}, bConst(2 + g.r.Intn(3))}
	case 2:
		return bBin{"xor", g.expr(d - 1), g.expr(d - 1)}
	case 3:
		return bMin{g.expr(d - 1), g.expr(d - 1)}
	case 4:
		return bChoose{[]int64{int64(g.r.Intn(3)), int64(3 + g.r.Intn(2))}, []*big.Rat{big.NewRat(1, 4), big.NewRat(3, 4)}}
	}
	return g.expr(0)
}

// cond is a condition: its source is a boolean, its value here 0 or 1.
func (g *gen) cond() bExpr {
	switch g.r.Intn(4) {
	case 0:
		return bFlipIs1{bFlip{1, 2}}
	case 1:
		return bBin{"<", g.expr(1), g.expr(1)}
	}
	return bBin{"==", g.expr(1), g.expr(0)}
}

func (g *gen) stmts(n, depth int) []bStmt {
	var out []bStmt
	vars := []string{"a", "b", "c"}
	for i := 0; i < n; i++ {
		k := g.r.Intn(10)
		switch {
		case k < 4 || depth == 0 && k < 7:
			out = append(out, bAssign{vars[g.r.Intn(3)], g.expr(2)})
		case k < 6:
			out = append(out, bObserve{g.expr(1)})
		case k < 8:
			out = append(out, bIf{g.cond(), g.stmts(1+g.r.Intn(2), depth-1), g.stmts(g.r.Intn(2), depth-1)})
		case k < 9:
			g.loops++
			out = append(out, bFor{fmt.Sprintf("i%d", g.loops), int64(1 + g.r.Intn(3)), g.stmts(1+g.r.Intn(2), depth-1)})
		default:
			g.loops++
			g.while = true
			c := g.cond()
			out = append(out, bWhile{fmt.Sprintf("w%d", g.loops), int64(1 + g.r.Intn(3)), c, g.stmts(1+g.r.Intn(2), depth-1)})
		}
	}
	return out
}

// enumerate runs the program on secret s along every path, depth first, and returns the
// observation labels in order of first appearance with their probabilities.
func enumerate(prog []bStmt, s int64, maxPaths int) (order []string, probs map[string]*big.Rat, ok bool) {
	probs = map[string]*big.Rat{}
	var choices, arity []int
	for paths := 0; ; paths++ {
		if paths > maxPaths {
			return nil, nil, false
		}
		e := &bEnv{vars: map[string]int64{"s": s, "a": 0, "b": 0, "c": 0}, choices: choices, arity: arity, p: big.NewRat(1, 1)}
		for _, st := range prog {
			st.run(e)
		}
		label := "∅"
		if len(e.obs) > 0 {
			label = strings.Join(e.obs, "; ")
		}
		if _, seen := probs[label]; !seen {
			order = append(order, label)
			probs[label] = new(big.Rat)
		}
		probs[label].Add(probs[label], e.p)
		// The next path: advance the last choice that has an alternative left.
		choices, arity = e.choices[:e.pos], e.arity[:e.pos]
		for len(choices) > 0 && choices[len(choices)-1] == arity[len(arity)-1]-1 {
			choices, arity = choices[:len(choices)-1], arity[:len(arity)-1]
		}
		if len(choices) == 0 {
			return order, probs, true
		}
		choices[len(choices)-1]++
	}
}

func TestRandomProgramsAgainstPathEnumeration(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	tested, withWhile := 0, 0
	for trial := 0; tested < 300 && trial < 2000; trial++ {
		g := &gen{r: r}
		prog := append([]bStmt{bAssign{"a", bConst(0)}, bAssign{"b", bConst(0)}, bAssign{"c", bConst(0)}}, g.stmts(2+r.Intn(4), 2)...)
		prog = append(prog, bObserve{bVar([]string{"a", "b", "c"}[r.Intn(3)])})
		src := "secret s in 0..2\n" + block(prog, "")
		type row struct {
			order []string
			probs map[string]*big.Rat
		}
		var rows []row
		complete := true
		for s := int64(0); s <= 2; s++ {
			o, p, ok := enumerate(prog, s, 400)
			if !ok {
				complete = false
				break
			}
			rows = append(rows, row{o, p})
		}
		if !complete {
			continue
		}
		tested++
		res, err := program.Channel(src, program.Options{})
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		// The brute force's columns in order of first appearance, rows in order.
		var cols []string
		seen := map[string]bool{}
		for _, rw := range rows {
			for _, o := range rw.order {
				if !seen[o] {
					seen[o] = true
					cols = append(cols, o)
				}
			}
		}
		if len(cols) != len(res.Observations) {
			t.Fatalf("columns %q, brute force %q\n%s", res.Observations, cols, src)
		}
		for i, rw := range rows {
			if res.Secrets[i] != fmt.Sprint(i) {
				t.Fatalf("row %d labelled %q", i, res.Secrets[i])
			}
			for j, o := range res.Observations {
				want, ok := rw.probs[o]
				if !ok {
					want = new(big.Rat)
				}
				if res.Channel[i][j].Cmp(want) != 0 {
					t.Fatalf("C[%d][%s] = %s, brute force %s\n%s", i, o, res.Channel[i][j].RatString(), want.RatString(), src)
				}
			}
		}
		if g.while {
			withWhile++
		}
		if strings.Join(cols, "|") != strings.Join(res.Observations, "|") {
			t.Fatalf("column order %q, depth-first order %q\n%s", res.Observations, cols, src)
		}
		// The order does not depend on how the states are grouped: the same statements in
		// `if true { … }` (run state by state) and in `for i in 1..1 { … }` (run on the whole
		// distribution) after the first split give the same columns in the same order.
		body := block(prog[3:], "  ")
		head := "secret s in 0..2\na = 0\nb = 0\nc = 0\nz = flip(1/3)\n"
		var orders [2]string
		for k, wrap := range []string{"if true {\n", "for zz in 1..1 {\n"} {
			res, err := program.Channel(head+wrap+body+"}\n", program.Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, head+wrap+body)
			}
			orders[k] = strings.Join(res.Observations, "|")
		}
		if orders[0] != orders[1] {
			t.Fatalf("if true: %s, for 1..1: %s\n%s", orders[0], orders[1], body)
		}
		// The rows of bits(2), built when they run: the same program on s = 0..3 read from
		// the bits gives the path enumeration's rows for s = 0..3, columns in its order. A
		// variable z that the program never reads, drawn first, multiplies its states by ten
		// without changing the channel: the states are then merged by hashing (scalars), or by
		// their keys (z a list, which the hashing path does not take).
		switch trial % 3 {
		case 0:
			checkBitsRows(t, prog, "", block(prog, ""))
		case 1:
			checkBitsRows(t, prog, "z = uniform(0..9)\n", block(prog, ""))
		default:
			checkBitsRows(t, prog, "z = [uniform(0..9)]\n", block(prog, ""))
		}
	}
	if tested < 300 || withWhile < 50 {
		t.Fatalf("only %d programs tested (%d with a while loop)", tested, withWhile)
	}
}

// checkBitsRows runs prog with its secret s read from `secret t in bits(2)`, after head, and
// compares the channel with the path enumeration on s = 0..3 (row k of bits(2) is k's two bits).
func checkBitsRows(t *testing.T, prog []bStmt, head, body string) {
	t.Helper()
	src := "secret t in bits(2)\ns = t[0] * 2 + t[1]\n" + head + body
	res, err := program.Channel(src, program.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var cols []string
	seen := map[string]bool{}
	var probs []map[string]*big.Rat
	for s := int64(0); s <= 3; s++ {
		order, p, ok := enumerate(prog, s, 4000)
		if !ok {
			return // too many paths for the enumeration: nothing to compare
		}
		probs = append(probs, p)
		for _, o := range order {
			if !seen[o] {
				seen[o] = true
				cols = append(cols, o)
			}
		}
	}
	if strings.Join(cols, "|") != strings.Join(res.Observations, "|") {
		t.Fatalf("bits(2): columns %q, depth-first order %q\n%s", res.Observations, cols, src)
	}
	for i, p := range probs {
		if want := fmt.Sprintf("[%d, %d]", i>>1, i&1); res.Secrets[i] != want {
			t.Fatalf("bits(2): row %d labelled %q, want %q", i, res.Secrets[i], want)
		}
		for j, o := range res.Observations {
			want, ok := p[o]
			if !ok {
				want = new(big.Rat)
			}
			if res.Channel[i][j].Cmp(want) != 0 {
				t.Fatalf("bits(2): C[%d][%s] = %s, path enumeration %s\n%s", i, o, res.Channel[i][j].RatString(), want.RatString(), src)
			}
		}
	}
}
