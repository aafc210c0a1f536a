package program_test

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// longChain is `head op term op term …` with n terms after the head.
func longChain(head, op, term string, n int) string {
	var b strings.Builder
	b.WriteString(head)
	for range n {
		b.WriteString(op)
		b.WriteString(term)
	}
	return b.String()
}

// Long expressions parse, check and run in a stack that does not grow with their length. The
// stack is capped well below what recursion one level per term needs (in WebAssembly the Go
// stack lives on the JavaScript engine's, about 1 MB), so a reader of the tree that recursed
// along a chain would crash this test.
func TestLongExpressions(t *testing.T) {
	old := debug.SetMaxStack(4 << 20)
	defer debug.SetMaxStack(old)
	for _, n := range []int{10_000, 100_000} {
		cases := []struct {
			name, src string
			col       string // the expected single column
		}{
			{"sum", "secret x in 0..1\nobserve " + longChain("x", " + ", "1", n), ""},
			{"sum of secrets", "secret x in 0..1\nobserve " + longChain("x", " + ", "x", n), ""},
			{"random sum", "secret x in 0..1\nobserve " + longChain("x", " + ", "1", n) + " + flip(1/2)", ""},
			{"and", "secret x in 0..1\nt = x == x\nobserve " + longChain("t", " and ", "t", n), "true"},
			{"or after flip", "secret x in 0..1\nt = x == x\nobserve " + longChain("flip(1/2) == 2", " or ", "t", n), "true"},
			{"difference", "secret x in 0..1\nobserve " + longChain("x", " - ", "x", n), ""},
			{"string join", "secret x in 0..1\ns = str(x)\nobserve len(" + longChain("s", " + ", "s", n/10) + ")", ""},
			{"index", "secret x in 0..1\ns = str(x)\nobserve " + longChain("s", "", "[0]", n), ""},
			{"not", "secret x in 0..1\nobserve " + strings.Repeat("not ", 100_000) + "(x == 0)", ""},
			{"negation", "secret x in 0..1\nobserve " + strings.Repeat("- ", n) + "x", ""},
		}
		for _, c := range cases {
			if errs := program.Check(c.src); errs != nil {
				t.Fatalf("%s at %d: check: %v", c.name, n, errs)
			}
			res, err := program.Channel(c.src, program.Options{})
			if err != nil {
				t.Fatalf("%s at %d: %v", c.name, n, err)
			}
			if len(res.Secrets) != 2 {
				t.Fatalf("%s at %d: rows %v", c.name, n, res.Secrets)
			}
			if c.col != "" && (len(res.Observations) != 1 || res.Observations[0] != c.col) {
				t.Fatalf("%s at %d: columns %v, want [%s]", c.name, n, res.Observations, c.col)
			}
		}
	}
}

// Values computed along a long chain are the ones the arithmetic gives.
func TestLongExpressionValues(t *testing.T) {
	const n = 20_000
	cases := []struct{ src, want string }{
		{"secret x in 0..1\nobserve " + longChain("x", " + ", "1", n), "20000|20001"},
		{"secret x in 0..1\nobserve " + longChain("x", " - ", "x", n), "0|-19999"},
		{"secret x in 0..1\nobserve " + strings.Repeat("- ", n+1) + "x", "0|-1"},
		{"secret x in 0..1\nobserve " + strings.Repeat("not ", n+1) + "(x == 0)", "false|true"},
		{"secret x in 0..1\ns = str(x)\nobserve len(" + longChain("s", " + ", "s", n/4) + ")", "5001"},
	}
	for _, c := range cases {
		res, err := program.Channel(c.src, program.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.Observations, "|"); got != c.want {
			t.Errorf("%.40s…: columns %s, want %s", c.src, got, c.want)
		}
	}
}

// Lists nested in a loop stop at MaxNesting levels with a positioned error: printing,
// comparing and merging values recurse as deep as they nest.
func TestNestingBound(t *testing.T) {
	old := debug.SetMaxStack(4 << 20)
	defer debug.SetMaxStack(old)
	ok := "secret x in 0..1\nl = [x]\nfor i in 1..998 {\n  l = [l]\n}\nobserve l == l"
	if _, err := program.Channel(ok, program.Options{}); err != nil {
		t.Fatalf("999 levels: %v", err)
	}
	for _, src := range []string{
		"secret x in 0..1\nl = [x]\nfor i in 1..100000 {\n  l = [l]\n}\nobserve l == l",
		"secret x in 0..1\nl = [x, 0]\nfor i in 1..100000 {\n  l[1] = l\n}\nobserve len(str(l))",
	} {
		_, err := program.Channel(src, program.Options{})
		line, _, msg := position(err)
		if line != 4 || !strings.Contains(msg, "nested more than 1000 levels deep") {
			t.Fatalf("line %d: %v", line, err)
		}
	}
}
