package program_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// Assignments chained against the order of the text inside a loop: the number assigned to a12
// reaches a1 only after one pass of type inference per link, and a1 also holds a string, so
// `a1 + 1` after the loop is valid (a1 is then 5). Stopping the inference early leaves a1 a
// string and refuses the program.
func TestTypeInferenceLongChain(t *testing.T) {
	for _, links := range []int{3, 9, 12, 40} {
		var b strings.Builder
		b.WriteString("secret x in 0..1\na1 = \"s\"\n")
		fmt.Fprintf(&b, "for i in 1..%d {\n", links)
		for k := 1; k < links; k++ {
			fmt.Fprintf(&b, "  if i == %d {\n    a%d = a%d\n  }\n", links+1-k, k, k+1)
		}
		fmt.Fprintf(&b, "  if i == 1 {\n    a%d = 5 + x\n  }\n}\nobserve a1 + 1\n", links)
		src := b.String()
		if errs := program.Check(src); errs != nil {
			t.Fatalf("%d links: %v\n%s", links, errs, src)
		}
		res, err := program.Channel(src, program.Options{})
		if err != nil {
			t.Fatalf("%d links: %v", links, err)
		}
		if got := strings.Join(res.Observations, " "); got != "6 7" {
			t.Fatalf("%d links: columns %s, want 6 7", links, got)
		}
	}
}

// The checker and the interpreter give the same message for the same wrong operands: once
// found before running (the types are known), once while running (they are not).
func TestOperatorMessagesAgree(t *testing.T) {
	cases := []struct{ static, dynamic, want string }{
		{`"a" + 1`, `v + 1`, "cannot add a string and a number"},
		{`1 - "a"`, `1 - v`, "`-` needs two numbers, but the right side is a string"},
		{`"a" * 2`, `v * 2`, "`*` needs two numbers, but the left side is a string"},
		{`"a" < 1`, `v < 1`, "cannot compare a string with a number using `<`"},
		{`"a" and true`, `v and true`, "`and` needs two booleans, but the left side is a string"},
		{`true or "a"`, `false or v`, "`or` needs two booleans, but the right side is a string"},
		{`"a" xor 1`, `v xor 1`, "`xor` needs two booleans or two integers, not a string and a number"},
		{`- "a"`, `- v`, "cannot negate a string"},
		{`not "a"`, `not v`, "`not` needs a boolean, but this is a string"},
	}
	for _, c := range cases {
		_, _, msg := position(program.Check("secret x in 0..1\nobserve " + c.static))
		if !strings.HasPrefix(msg, c.want) {
			t.Errorf("check %s: %q, want %q", c.static, msg, c.want)
		}
		// v is a string or a number depending on the path: the checker cannot know it.
		src := "secret x in 0..1\nv = 0\nif x == 0 {\n  v = \"a\"\n}\nobserve " + c.dynamic
		if errs := program.Check(src); errs != nil {
			t.Fatalf("%s: the checker should not know: %v", c.dynamic, errs)
		}
		_, err := program.Channel(src, program.Options{})
		if _, _, msg := position(err); !strings.HasPrefix(msg, c.want) {
			t.Errorf("run %s: %q, want %q", c.dynamic, msg, c.want)
		}
	}
}
