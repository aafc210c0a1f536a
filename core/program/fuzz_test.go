package program_test

import (
	"errors"
	"testing"

	"github.com/qif-toolkit/qif/core/program"
)

// Whatever is typed, Check and Channel return (a channel or an error with a position), never
// panic or run away: small budgets keep each input fast.
func FuzzProgram(f *testing.F) {
	for _, src := range examples(f) {
		f.Add(src)
	}
	for _, src := range []string{"secret x in 0..3\nobserve x // (x - 1)", "secret x in bits(2)\nx[0] = x\nobserve x",
		"secret s in perms([1, 1])\nobserve s", "secret x in {1: 1/2}\nobserve x", "secret x in 0..1\nwhile flip(1/3) == 1 {\n}\nobserve x"} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		for _, d := range program.Check(src) {
			if d.Line < 1 || d.Column < 1 {
				t.Fatalf("diagnostic without a position: %v", d)
			}
		}
		res, err := program.Channel(src, program.Options{StepBudget: 2000, StateBudget: 200})
		if err != nil {
			var l program.ErrorList
			var e *program.Error
			if !errors.As(err, &l) && !errors.As(err, &e) {
				t.Fatalf("an error without a position: %v", err)
			}
			return
		}
		if len(res.Channel) != len(res.Secrets) || len(res.Prior) != len(res.Secrets) {
			t.Fatalf("shape: %d rows, %d labels, %d prior", len(res.Channel), len(res.Secrets), len(res.Prior))
		}
	})
}
