package conelp

import (
	"os"
	"testing"
	"time"

	"github.com/qif-toolkit/qif/core/lp"
)

// TestTrace (CONELP_TRACE=geo20s1.1 go test ./core/conelp -run Trace -v) solves one benchmark
// program with a line per pricing round; skipped otherwise.
func TestTrace(t *testing.T) {
	name := os.Getenv("CONELP_TRACE")
	if name == "" {
		t.Skip("set CONELP_TRACE to the name of a BenchmarkSolve program, such as geo20s1.1")
	}
	p := traceProblem(name)
	if p == nil {
		t.Fatalf("unknown program %q", name)
	}
	p.design = parseDesign(t, os.Getenv("CONELP_DESIGN"))
	p.design.trace = t.Logf
	var o lp.Options
	if s := os.Getenv("CONELP_LIMIT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		o.TimeLimit = d
	}
	r, err := Solve(p, &o)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v: objective %.12g bound %.12g rounds %d pivots %d", r.Status, r.Objective, r.Bound, r.Rounds, r.Iterations)
}

// traceProblem is the BenchmarkSolve program of that name (nil if there is none).
func traceProblem(name string) *Problem {
	for _, c := range benchPrograms() {
		if c.name == name {
			return c.p()
		}
	}
	return nil
}
