package program

import (
	"math/big"
	"regexp"
	"testing"

	"github.com/qif-toolkit/qif/core/exact"
)

// The program language's number literals ("3", "0.25"; no exponent, and "1." or ".5" are not
// numbers here, since "1..3" is a range) are a part of the toolkit's grammar of a typed number
// (exact.DecimalPattern), with the value the exact reader gives them: checked on every token the
// scanner reads first from every string of up to six characters over digits, dots and letters.
func TestLiteralsAreNumbersOfTheGrammar(t *testing.T) {
	decimal := regexp.MustCompile(`^` + exact.DecimalPattern + `$`)
	alphabet := []string{"0", "1", "9", ".", "e", "x"}
	literals := 0
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		if s != "" {
			it := newScanner(s).scan()
			if it.tok == tInt || it.tok == tDecimal {
				literals++
				if !decimal.MatchString(it.lit) {
					t.Errorf("%q: literal %q is not a decimal of the grammar", s, it.lit)
				}
				want, err := exact.Parse(it.lit)
				got, ok := new(big.Rat).SetString(it.lit)
				if err != nil || !ok || got.Cmp(want) != 0 {
					t.Errorf("%q: literal %q is %v in the language and %v (%v) to the exact reader", s, it.lit, got, want, err)
				}
			}
		}
		if depth == 0 || t.Failed() {
			return
		}
		for _, c := range alphabet {
			walk(s+c, depth-1)
		}
	}
	walk("", 6)
	if literals < 10000 {
		t.Errorf("only %d literals scanned", literals)
	}
}
