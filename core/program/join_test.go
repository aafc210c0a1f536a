package program_test

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// Joins extend a shared backing array in place only where no other value can see it: values
// that share a prefix and are extended differently keep their own contents.
func TestJoinsKeepValuesApart(t *testing.T) {
	src := `secret x in 0..1
s = ""
l = []
for i in 1..100 {
  s = s + "a"
  l = l + [i]
}
t = s + "b"
u = s + "c"
m = l + [0]
n = l + [x]
s = s + "d"
observe (len(t), t[100], u[100], s[100], m[100], n[100], len(l), l[99])
v = s
for i in 1..8 {
  v = v + str(flip(1/2))
}
observe len(v)`
	res, err := program.Channel(src, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"(101, b, c, d, 0, 0, 100, 100); 109", "(101, b, c, d, 0, 1, 100, 100); 109"}
	if got := strings.Join(res.Observations, " | "); got != strings.Join(want, " | ") {
		t.Fatalf("columns %s, want %s", got, strings.Join(want, " | "))
	}
	// Branching states each extend the same string: every sequence of 12 flips is kept.
	res, err = program.Channel("secret x in 0..0\ns = \"\"\nfor i in 1..80 {\n  s = s + \"x\"\n}\nfor i in 1..12 {\n  s = s + str(flip(1/2))\n}\nc = 0\nfor ch in s {\n  if ch == \"1\" {\n    c = c + 1\n  }\n}\nobserve (len(s), c)", program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Observations) != 13 || res.States < 4096 {
		t.Fatalf("%d columns (want 13: 0 to 12 ones), %d states (want 4096 strings)", len(res.Observations), res.States)
	}
	// The counts of ones are Binomial(12, 1/2): C(12, k)/4096.
	binom := []int64{1, 12, 66, 220, 495, 792, 924, 792, 495, 220, 66, 12, 1}
	for j, o := range res.Observations {
		var k int
		if _, err := fmtSscanf(o, &k); err != nil {
			t.Fatal(err)
		}
		if got := res.Channel[0][j].RatString(); got != ratString(binom[k], 4096) {
			t.Errorf("P(%d ones) = %s, want %s", k, got, ratString(binom[k], 4096))
		}
	}
}

func fmtSscanf(o string, k *int) (int, error) { return fmt.Sscanf(o, "(92, %d)", k) }

func ratString(a, b int64) string { return big.NewRat(a, b).RatString() }

// A string built one character at a time reaches the 100,000-character limit within the work
// budget (each join counts what it copies), and one more character is refused.
func TestStringBuiltToTheLimit(t *testing.T) {
	src := "secret x in 0..1\ns = \"\"\nfor i in 1..100000 {\n  s = s + \"ab\"[x]\n}\nl = []\nfor i in 1..99999 {\n  l = l + [x]\n}\nobserve (len(s), s[99999], len(l))"
	res, err := program.Channel(src, program.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Observations, " | "); got != "(100000, a, 99999) | (100000, b, 99999)" {
		t.Fatalf("columns %s", got)
	}
	_, err = program.Channel("secret x in 0..1\ns = \"\"\nfor i in 1..100001 {\n  s = s + \"a\"\n}", program.Options{})
	if err == nil || !strings.Contains(err.Error(), "a string grew beyond 100000 characters") {
		t.Fatalf("101st thousand: %v", err)
	}
}
