package program_test

import (
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// Distinct observed values print as distinct labels: a string that reads like another value
// (a number, a boolean, a list, a tuple, ∅, several observations, a quoted string) is quoted.
func TestLabelsDoNotCollide(t *testing.T) {
	src := `secret x in 0..0
observe choose {
  "[0, 1, 2]": 1/20, [0, 1, 2]: 1/20, "1": 1/20, 1: 1/20, "1/2": 1/20, 1/2: 1/20,
  "true": 1/20, true: 1/20, "(a, b)": 1/20, ("a", "b"): 1/20, ["a, b"]: 1/20, ["a", "b"]: 1/20,
  "∅": 1/20, "": 1/20, [""]: 1/20, []: 1/20, "\"x\"": 1/20, "x": 1/20, "-7": 1/20, "a; b": 1/20
}`
	res, err := program.Channel(src, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`"[0, 1, 2]"`, `[0, 1, 2]`, `"1"`, `1`, `"1/2"`, `1/2`, `"true"`, `true`,
		`"(a, b)"`, `(a, b)`, `["a, b"]`, `[a, b]`, `"∅"`, `""`, `[""]`, `[]`, `"\"x\""`, `x`, `"-7"`, `"a; b"`}
	if got := strings.Join(res.Observations, " | "); got != strings.Join(want, " | ") {
		t.Fatalf("labels\n%s\nwant\n%s", got, strings.Join(want, " | "))
	}
	seen := map[string]bool{}
	for _, o := range res.Observations {
		if seen[o] {
			t.Fatalf("label %s twice", o)
		}
		seen[o] = true
	}
	// Two observations "a" then "b" and one observation "a; b" differ too; plain strings stay
	// raw, and str of a string is the string itself.
	res, err = program.Channel("secret x in 0..1\nif x == 0 {\n  observe \"a\"\n  observe \"b\"\n} else {\n  observe \"a; b\"\n}\nobserve str(\"12\") + \"-\" + str([\"a\"])", program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Observations, " | "); got != `a; b; 12-[a] | "a; b"; 12-[a]` {
		t.Fatalf("labels %s", got)
	}
}

// Without a collision strings stay raw (the DC-net observes "10", "01", …); rows follow the
// same rule as columns.
func TestLabelsRawWithoutCollision(t *testing.T) {
	res, err := program.Channel("secret x in [\"1\", 1, \"b\"]\nobserve str(x)", program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Secrets, " | "); got != `"1" | 1 | b` {
		t.Fatalf("rows %s", got)
	}
	if got := strings.Join(res.Observations, " | "); got != `1 | b` {
		t.Fatalf("columns %s", got)
	}
}
