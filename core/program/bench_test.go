package program

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"testing"
	"time"
)

// The benchmarks of the workloads, each against a naive interpreter written here that
// enumerates paths: it runs the program on one concrete state per secret value, re-running it
// for every sequence of random choices (depth first), with no distributions and no merging —
// what a tool without the merged semantics does. Both run in the same benchmark; the ratio and
// the counts (states kept vs paths enumerated) are reported. Where the paths cannot all be
// enumerated (2^60 for 60 coin flips) the naive run stops after a second and its total is
// extrapolated from the paths per second it reached.
//
//	go test ./core/program -run '^$' -bench Programs -benchtime 3x

// workloads reads the benchmark programs, shared with bench/node/program.bench.mjs.
func workloads(b *testing.B) []struct{ Name, Source string } {
	raw, err := os.ReadFile("../../bench/program-workloads.json")
	if err != nil {
		b.Fatal(err)
	}
	var f struct {
		Workloads []struct{ Name, Source string }
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		b.Fatal(err)
	}
	return f.Workloads
}

// naive is the path-enumerating peer.
type naive struct {
	r       *runner // for the package's operators on values (binop, index, callDet)
	choices []int
	arity   []int
	pos     int
	p       *big.Rat
	obs     []Value
	paths   int64
}

func (n *naive) pick(outs []outcome) Value {
	if n.pos == len(n.choices) {
		n.choices = append(n.choices, 0)
		n.arity = append(n.arity, len(outs))
	}
	o := outs[n.choices[n.pos]]
	n.pos++
	n.p.Mul(n.p, o.p.Rat())
	return o.v
}

// eval evaluates an expression in one concrete state; a random choice takes the path's next
// alternative.
func (n *naive) eval(e Expr, vars []Value) Value {
	switch e := e.(type) {
	case *Lit:
		return e.Val
	case *Ident:
		return vars[e.slot]
	case *Call:
		if e.Name == "flip" || e.Name == "uniform" {
			outs := e.outs
			if outs == nil {
				outs, _ = n.r.random(e, &wstate{vars: vars})
			}
			return n.pick(outs)
		}
	case *Weights:
		return n.pick(e.outs)
	case *Binary:
		x := n.eval(e.X, vars)
		if e.Op == "and" && x.n == 0 || e.Op == "or" && x.n != 0 {
			return x
		}
		if e.Op == "and" || e.Op == "or" {
			return n.eval(e.Y, vars)
		}
		v, _ := binop(e.Op, x, n.eval(e.Y, vars))
		return v
	}
	cs := children(e)
	vs := make([]Value, len(cs))
	for i, c := range cs {
		vs[i] = n.eval(c, vars)
	}
	v, _ := n.r.compose(e, vs)
	return v
}

func (n *naive) exec(stmts []Stmt, vars []Value) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *AssignStmt:
			vars[s.slot] = n.eval(s.X, vars)
		case *ObserveStmt:
			n.obs = append(n.obs, n.eval(s.X, vars))
		case *IfStmt:
			done := false
			for i, c := range s.Conds {
				if n.eval(c, vars).n != 0 {
					n.exec(s.Blocks[i], vars)
					done = true
					break
				}
			}
			if !done {
				n.exec(s.Else, vars)
			}
		case *WhileStmt:
			for n.eval(s.Cond, vars).n != 0 {
				n.exec(s.Body, vars)
			}
		case *ForStmt:
			rg := s.Over.(*Range)
			lo, hi := n.eval(rg.Lo, vars).n, n.eval(rg.Hi, vars).n
			for i := lo; i <= hi; i++ {
				vars[s.slot] = intVal(i)
				n.exec(s.Body, vars)
			}
		}
	}
}

// channel enumerates every path of every secret value, until the deadline: it returns the
// paths enumerated and whether it finished.
func naiveChannel(prog *Program, deadline time.Time) (paths int64, done bool) {
	r := &runner{prog: prog, opt: Options{StateBudget: DefaultStateBudget, StepBudget: DefaultStepBudget}, obs: []obsNode{{parent: -1}}, obsIdx: map[string]int32{}}
	rows, err := r.secretRows()
	if err != nil {
		panic(err)
	}
	n := &naive{r: r}
	row := make([]Value, len(prog.secrets))
	for k := range rows.n {
		rows.fill(k, row)
		col := map[string]*big.Rat{}
		n.choices, n.arity = nil, nil
		for {
			vars := make([]Value, len(prog.names))
			copy(vars, row)
			n.pos, n.p, n.obs = 0, big.NewRat(1, 1), n.obs[:0]
			n.exec(prog.stmts, vars)
			paths++
			key := string(listVal(n.obs).key(nil))
			if col[key] == nil {
				col[key] = new(big.Rat)
			}
			col[key].Add(col[key], n.p)
			c, a := n.choices[:n.pos], n.arity[:n.pos]
			for len(c) > 0 && c[len(c)-1] == a[len(a)-1]-1 {
				c, a = c[:len(c)-1], a[:len(a)-1]
			}
			if len(c) == 0 {
				break
			}
			c[len(c)-1]++
			n.choices, n.arity = c, a
			if paths&1023 == 0 && time.Now().After(deadline) {
				return paths, false
			}
		}
	}
	return paths, true
}

func BenchmarkPrograms(b *testing.B) {
	for _, w := range workloads(b) {
		b.Run(w.Name, func(b *testing.B) {
			prog, err := Compile(w.Source)
			if err != nil {
				b.Fatal(err)
			}
			var res *Result
			for i := 0; i < b.N; i++ {
				if res, err = prog.Channel(Options{}); err != nil {
					b.Fatal(err)
				}
			}
			merged := b.Elapsed() / time.Duration(b.N)
			b.StopTimer()
			t0 := time.Now()
			paths, done := naiveChannel(prog, t0.Add(time.Second))
			naiveT := time.Since(t0)
			total := float64(paths)
			if !done { // 60 fair flips: 2 secret values × 2^60 paths
				total = 2 * float64(uint64(1)<<60)
			}
			est := naiveT.Seconds() * total / float64(paths) // seconds (years, extrapolated, for 2^61 paths)
			b.ReportMetric(float64(res.States), "states")
			b.ReportMetric(total, "paths")
			b.ReportMetric(est/merged.Seconds(), "naive/merged")
			what := "measured"
			if !done {
				what = fmt.Sprintf("extrapolated from %d paths in %v", paths, naiveT.Round(time.Millisecond))
			}
			b.Logf("%s: merged %v (%d states at most, %d steps); naive %.3g s (%.3g paths, %s)", w.Name, merged, res.States, res.Steps, est, total, what)
		})
	}
}
