package program_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// position returns the first error's line, column and message, whatever its kind.
func position(err error) (int, int, string) {
	var l program.ErrorList
	if errors.As(err, &l) && len(l) > 0 {
		return l[0].Line, l[0].Column, l[0].Message
	}
	var e *program.Error
	if errors.As(err, &e) {
		return e.Line, e.Column, e.Message
	}
	return 0, 0, ""
}

// Every kind of error, with the line and column counted by hand in the source.
func TestErrorPositions(t *testing.T) {
	cases := []struct {
		name, src  string
		line, col  int
		msg        string
		checkFinds bool // Check (without running) reports it too
	}{
		// syntax
		{"unclosed string", "secret x in 0..1\nobserve \"abc", 2, 9, "string is not closed", true},
		{"unexpected character", "secret x in 0..1\nobserve x & 1", 2, 11, "write `and`, `or` or `xor`", true},
		{"unclosed block", "secret x in 0..1\nif x == 1 {\n  observe x\n", 4, 1, "block is not closed", true},
		{"stray brace", "secret x in 0..1\nobserve x }", 2, 11, "no open block", true},
		{"missing =", "secret x in 0..1\ny 3", 2, 3, "expected `=` after `y`", true},
		{"compound assignment", "secret x in 0..1\ny = 0\ny += 1", 3, 3, "`+=` is not part of the language", true},
		{"chained comparison", "secret x in 0..9\nobserve 1 < x < 5", 2, 15, "cannot be chained", true},
		{"else alone", "secret x in 0..1\nelse { }", 2, 1, "`else` without an `if`", true},
		{"keyword as name", "secret in in 0..1", 1, 8, "`in` is a keyword", true},
		{"missing value", "secret x in 0..1\nobserve x +", 2, 12, "expected a value", true},
		{"two statements on a line", "secret x in 0..1\nobserve x observe x", 2, 11, "expected the end of the statement", true},
		{"NUL in a string", "secret x in 0..1\nobserve \"a\x00b\"", 2, 11, "cannot hold a NUL", true},
		{"nested too deeply", "secret x in 0..1\nobserve " + strings.Repeat("(", 300) + "x" + strings.Repeat(")", 300), 2, 109, "nested too deeply", true},
		{"bang", "secret x in 0..1\nobserve !x", 2, 9, "write `not x`", true},
		// names
		{"undefined with suggestion", "secret pwd in 0..3\nguess = 2\nok = guess == pw\nobserve ok", 3, 15, "`pw` is not defined — did you mean `pwd`?", true},
		{"undefined without suggestion", "secret x in 0..3\nobserve zebra", 2, 9, "`zebra` is not defined", true},
		{"unknown function", "secret x in 0..3\nobserve lenn([x])", 2, 9, "`lenn` is not a function — did you mean `len`?", true},
		{"arity", "secret x in 0..3\nobserve bit(x)", 2, 9, "bit takes 2 arguments, not 1", true},
		// static types
		{"add string and number", "secret x in 0..3\nobserve \"a\" + 1", 2, 13, "cannot add a string and a number", true},
		{"condition not boolean", "secret x in 0..3\nif x + 1 {\n observe 1\n}", 2, 4, "the condition of `if` must be a boolean", true},
		{"not on number", "secret x in 0..3\nobserve not 3", 2, 9, "`not` needs a boolean", true},
		{"index a number", "secret x in 0..3\nobserve x[0]", 2, 10, "cannot index a number", true},
		{"and on numbers", "secret x in 0..3\nobserve x and true", 2, 11, "`and` needs two booleans", true},
		{"index assignment on a number", "secret x in 0..3\ny = 5\ny[0] = 1", 3, 1, "only a list's elements can be assigned", false},
		// placement
		{"secret inside a block", "secret x in 0..1\nif x == 1 {\n  secret y in 0..1\n}", 3, 3, "`secret` must be at the top level", true},
		{"range as a value", "secret x in 0..3\ny = 1..3", 2, 6, "a range `a..b` is not a value here", true},
		{"weights outside a domain", "secret x in 0..3\ny = {1: 1/2, 2: 1/2}", 2, 5, "write `choose {v: w, …}`", true},
		{"bits outside a domain", "secret x in 0..3\ny = bits(3)", 2, 5, "can only be a secret's domain", true},
		{"domain uses a variable", "n = 3\nsecret x in 0..n", 2, 16, "uses the variable `n`", true},
		{"random domain", "secret x in [flip(1/2)]", 1, 14, "cannot be random", true},
		{"duplicate secret", "secret x in 0..1\nsecret x in 0..1", 2, 1, "declared twice", true},
		{"no secret", "x = 1\nobserve x", 1, 1, "declares no secret", true},
		// run time
		{"index out of range", "secret x in 0..3\nl = [10, 20, 30]\nobserve l[x]", 3, 10, "index 3 is out of range for a list of length 3", false},
		{"division by zero", "secret x in 0..3\nobserve 12 / x", 2, 12, "division by zero", false},
		{"modulo by zero", "secret x in 0..3\nobserve 12 % x", 2, 12, "division by zero", false},
		{"choose weights", "secret x in 0..1\ny = choose {0: 1/2, 1: 1/3}\nobserve y", 2, 5, "the weights sum to 5/6, not 1", false},
		{"prior weights", "secret x in {0: 0.5, 1: 0.25}\nobserve x", 1, 13, "sum to 3/4, not 1", false},
		{"negative weight", "secret x in {0: 3/2, 1: -1/2}\nobserve x", 1, 25, "cannot be negative", false},
		{"empty range", "secret x in 5..3\nobserve x", 1, 14, "the range 5..3 is empty", false},
		{"empty list domain", "secret x in []\nobserve x", 1, 13, "is empty", false},
		{"duplicate domain value", "secret x in [1, 2, 1]\nobserve x", 1, 13, "lists 1 twice", false},
		{"no value yet", "secret x in 0..1\nif x == 1 {\n  y = 2\n}\nobserve y", 5, 9, "`y` has no value at this point", false},
		{"flip probability", "secret x in 0..1\nobserve flip(3/2)", 2, 14, "between 0 and 1", false},
		{"dynamic type", "secret x in [1, \"a\"]\nobserve x + 1", 2, 11, "cannot add a string and a number", false},
		{"uniform of empty", "secret x in 0..1\nobserve uniform(5..2)", 2, 18, "the range 5..2 is empty", false},
		{"for over a number", "secret x in 0..1\ny = [x]\nfor i in y[0] {\n observe i\n}", 3, 10, "not a number", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := program.Channel(c.src, program.Options{})
			if err == nil {
				t.Fatalf("no error for\n%s", c.src)
			}
			line, col, msg := position(err)
			if line != c.line || col != c.col || !strings.Contains(msg, c.msg) {
				t.Errorf("got line %d, column %d: %s\nwant line %d, column %d: …%s…", line, col, msg, c.line, c.col, c.msg)
			}
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("message %q does not start with its position", err.Error())
			}
			diags := program.Check(c.src)
			if c.checkFinds != (len(diags) > 0) {
				t.Errorf("Check found %v, want found = %v", diags, c.checkFinds)
			}
			if c.checkFinds && (diags[0].Line != c.line || diags[0].Column != c.col) {
				t.Errorf("Check: line %d, column %d, want %d, %d", diags[0].Line, diags[0].Column, c.line, c.col)
			}
		})
	}
}

// The runtime errors name the secret value they happened for.
func TestRuntimeErrorNamesSecret(t *testing.T) {
	_, err := program.Channel("secret x in 0..3\nl = [10, 20, 30]\nobserve l[x]", program.Options{})
	if err == nil || !strings.Contains(err.Error(), "(for the secret 3)") {
		t.Fatalf("got %v", err)
	}
}

// Check reports every problem, not only the first, in source order.
func TestCheckReportsAll(t *testing.T) {
	diags := program.Check("secret pwd in 0..3\nobserve pw\nobserve \"a\" - 1\nobserve lenn(pwd)")
	if len(diags) != 3 {
		t.Fatalf("got %v, want 3 diagnostics", diags)
	}
	want := [][2]int{{2, 9}, {3, 13}, {4, 9}}
	for i, d := range diags {
		if d.Line != want[i][0] || d.Column != want[i][1] {
			t.Errorf("diagnostic %d at %d:%d, want %d:%d", i, d.Line, d.Column, want[i][0], want[i][1])
		}
	}
	if program.Check("secret x in 0..3\nobserve x % 2") != nil {
		t.Error("a correct program has diagnostics")
	}
}

// Budgets: a loop that never ends, a loop that ends with probability 1 only in the limit, a
// loop that is merely long (fine with a larger budget) and a state explosion — each an error at
// the loop's line, never a hang.
func TestBudgets(t *testing.T) {
	cases := []struct {
		name, src string
		opt       program.Options
		line, col int
		msg       string
	}{
		{"infinite loop", "secret x in 0..1\ni = 0\nwhile i >= 0 {\n  i = i + 1\n}\nobserve i", program.Options{}, 3, 1, "has not finished after 1000000 iterations"},
		{"geometric loop", "secret x in 0..1\nc = 1\nwhile c == 1 {\n  c = flip(1/2)\n}\nobserve x", program.Options{}, 3, 1, "probability needs more than"},
		{"nested loop names the inner", "secret x in 0..1\nfor i in 0..9 {\n  j = 0\n  while j < 1000 {\n    j = j + 1\n  }\n}\nobserve x", program.Options{StepBudget: 5000}, 4, 3, "has not finished after 5000 iterations"},
		{"long for loop", "secret x in 0..1\ns = 0\nfor i in 1..2000 {\n  s = s + i\n}\nobserve s", program.Options{StepBudget: 1000}, 3, 1, "more than the step budget of 1000"},
		{"states", "secret x in 0..1\nv = 0\nfor i in 1..30 {\n  v = 2 * v + flip(1/2)\n}\nobserve v", program.Options{StateBudget: 1000}, 3, 1, "more than 1000 distinct states"},
		{"integer size", "secret x in 0..1\nv = 2\nwhile true {\n  v = v * v\n}", program.Options{}, 4, 9, "grew beyond 4096 bits"},
		{"list size", "secret x in 0..1\nv = [1]\nwhile true {\n  v = v + v\n}", program.Options{}, 4, 9, "a list grew beyond"},
		{"string size", "secret x in 0..1\nv = \"ab\"\nwhile true {\n  v = v + v\n}", program.Options{}, 4, 9, "a string grew beyond"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := program.Channel(c.src, c.opt)
			line, col, msg := position(err)
			if err == nil || line != c.line || col != c.col || !strings.Contains(msg, c.msg) {
				t.Errorf("got %v\nwant line %d, column %d: …%s…", err, c.line, c.col, c.msg)
			}
		})
	}
	// The same long loop is fine with the default budget.
	res, err := program.Channel("secret x in 0..1\ns = 0\nfor i in 1..2000 {\n  s = s + i\n}\nobserve s", program.Options{})
	if err != nil || res.Observations[0] != "2001000" {
		t.Fatalf("got %v %v", res, err)
	}
}

// Cancellation: a progress callback returning false, or a cancelled context, stops the run.
func TestCancel(t *testing.T) {
	src := "secret x in 0..99999\ns = 0\nfor i in 1..50 {\n  s = s + i * x\n}\nobserve s % 7"
	calls := 0
	_, err := program.Channel(src, program.Options{Progress: func(done, total int) bool {
		calls++
		if total != 100000 || done > total {
			t.Errorf("progress %d/%d", done, total)
		}
		return false
	}})
	if !errors.Is(err, program.ErrCancelled) || calls != 1 {
		t.Fatalf("got %v after %d calls", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := program.Channel(src, program.Options{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// A run too short for the reporting interval still reports once, before any work, so that a
// caller that cancels at its first report always gets ErrCancelled (not a result).
func TestCancelShortRun(t *testing.T) {
	calls := 0
	_, err := program.Channel("secret x in 0..1\nobserve x", program.Options{Progress: func(done, total int) bool {
		calls++
		if done != 0 || total != 2 {
			t.Errorf("first report %d/%d, want 0/2", done, total)
		}
		return false
	}})
	if !errors.Is(err, program.ErrCancelled) || calls != 1 {
		t.Fatalf("got %v after %d calls", err, calls)
	}
}
