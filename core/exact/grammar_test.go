package exact

import (
	"regexp"
	"strings"
	"testing"
)

// Parse accepts exactly the texts of FractionPattern, checked on every string of up to five
// characters over an alphabet that holds each symbol of the grammar and some it lacks: a text
// that the pattern matches (after trimming) is read, unless its denominator is zero (a mantissa
// with no non-zero digit), and every other text is refused.
func TestParseIsTheGrammar(t *testing.T) {
	fraction := regexp.MustCompile(`^` + FractionPattern + `$`)
	zero := regexp.MustCompile(`/[ \t]*[0.]*(?:[eE]|$)`) // a denominator whose digits are all 0
	alphabet := []string{"0", "1", ".", "e", "E", "+", "-", "/", " ", "\t", "\n", "x"}
	var read, refused int
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		_, err := Parse(s)
		trimmed := strings.TrimSpace(s)
		want := fraction.MatchString(trimmed)
		switch {
		case want && zero.MatchString(trimmed):
			if err == nil || !strings.Contains(err.Error(), "zero denominator") {
				t.Errorf("Parse(%q): %v, want a zero denominator", s, err)
			}
			refused++
		case want && err != nil:
			t.Errorf("Parse(%q): %v, but the grammar holds it", s, err)
		case !want && err == nil:
			t.Errorf("Parse(%q) read a text outside the grammar", s)
		case want:
			read++
		default:
			refused++
		}
		if depth == 0 || t.Failed() {
			return
		}
		for _, c := range alphabet {
			walk(s+c, depth-1)
		}
	}
	walk("", 5)
	if read < 1000 || refused < 100000 {
		t.Errorf("only %d texts read and %d refused", read, refused)
	}
}

// The patterns are anchored nowhere and compile in Go; the page compiles them in JavaScript
// (tests/node/fractions.test.mjs). The decimal is the grammar's number token, the fraction
// builds on it.
func TestGrammarPatterns(t *testing.T) {
	g := NumberGrammar()
	if strings.ContainsAny(g.Decimal+g.Fraction, "^$") || !strings.Contains(g.Fraction, g.Decimal) {
		t.Errorf("patterns: %q, %q", g.Decimal, g.Fraction)
	}
	if g.MaxLength != MaxNumberLength || g.MaxExponent != MaxExponent {
		t.Errorf("limits: %+v", g)
	}
	decimal := regexp.MustCompile(`^` + g.Decimal + `$`)
	for _, s := range []string{"0", "12", "0.5", ".5", "5.", "1e3", "1.5E-2", "2.e+1"} {
		if !decimal.MatchString(s) {
			t.Errorf("decimal %q refused", s)
		}
	}
	for _, s := range []string{"", ".", "e1", "1e", "-1", "1.2.3", "0x1", "1_000", "١"} {
		if decimal.MatchString(s) {
			t.Errorf("decimal %q accepted", s)
		}
	}
}
