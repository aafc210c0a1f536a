package exactapi

import (
	"errors"
	"math/big"
	"strings"

	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/program"
	gmat "gonum.org/v1/gonum/mat"
)

// Programs (qif.program) live in this module, not in the page's: the interpreter computes in
// exact rationals (math/big), which the main module does not carry, and adding it there would
// grow the page's module by about 200 KB gzipped. Their namespace is "program", not
// "exact.program": web/qif.js mounts it at qif.program, and a call before the module is loaded
// throws an Error saying to load it (await qif.exact.load(), or load({exact: true})).

type (
	Param = table.Param
	Func  = table.Func
	Args  = table.Args
	Field = table.Field
	Type  = table.Type
	Obj   = table.Obj
)

var pSource = Param{Name: "source", Kind: table.KindString, Doc: "the program's text (the language of docs/program-language.md)"}

var programAPI = []Func{
	{NS: "program", Name: "channel", Source: "Alvim et al. (FOSAD 2011) §3",
		Doc: "The channel a program denotes, exactly: for each value of its secret the program runs on a distribution over states (equal states merged); C[x][o] is the probability that it observes the sequence o. A bad program throws an Error with error.line and error.column; one that does not compile also has error.errors, every problem as program.check lists them (the first in the message).",
		TeX: `C[x][o] = P(\text{the run on secret } x \text{ observes } o)`,
		Params: []*Param{&pSource,
			{Name: "options", Kind: table.KindOptions, Optional: true, Type: "ProgramOptions", Fields: []*Param{
				{Name: "stepBudget", Kind: table.KindInteger, Check: table.CheckPositive, Default: program.DefaultStepBudget,
					Doc: "loop iterations allowed for each secret value, summed over its merged states; a loop that has not finished within it is an error naming its line"},
				{Name: "stateBudget", Kind: table.KindInteger, Check: table.CheckPositive, Default: program.DefaultStateBudget,
					Doc: "the largest number of distinct states a distribution may hold"},
				{Name: "onProgress", Kind: table.KindCallback, ArgsObject: true, Type: "ProgramProgress", CallArgs: []string{"done", "total"},
					Doc: "called about every 100 ms with {done, total} (secret values run, and their number); return false to cancel"}}}},
		Result: Type{Name: "ProgramChannel", Doc: "Result of program.channel.", Fields: []Field{
			{Name: "channel", Type: table.MatrixOut, Doc: "C[x][o]: rows the secret values, columns the observations (as numbers)."},
			{Name: "prior", Type: table.VectorOut, Doc: "The declared prior on the rows (uniform unless weights are given)."},
			{Name: "secrets", Type: Type{TS: "string[]"}, Doc: "Row labels: the secret values (a tuple for several secrets)."},
			{Name: "observations", Type: Type{TS: "string[]"}, Doc: "Column labels, in order of first appearance: the values observed joined by '; ', or '∅'."},
			{Name: "exact", Type: Type{TS: "{ channel: string[][]; prior: string[] }"}, Doc: "The same channel and prior as reduced fractions ('1/3')."},
			{Name: "states", Type: table.Number, Doc: "The largest number of distinct states a distribution held (60 coin flips summed: 61)."},
			{Name: "steps", Type: table.Number, Doc: "Loop iterations run, over all secret values and merged states."}}},
		Call: func(a *Args) (any, error) {
			opt := program.Options{StepBudget: int64(a.Int("stepBudget")), StateBudget: a.Int("stateBudget")}
			if p := a.Progress("onProgress"); p != nil {
				opt.Progress = func(done, total int) bool { return p(done, total) }
			}
			res, err := program.Channel(a.Str("source"), opt)
			if err != nil {
				return nil, programError(err)
			}
			return programResult(res), nil
		}},
	{NS: "program", Name: "check", Source: "Alvim et al. (FOSAD 2011) §3",
		Doc:    "Parses and checks a program without running it: every problem found, with its line and column (for editors).",
		Params: []*Param{&pSource},
		Result: Type{Name: "ProgramCheck", Doc: "Result of program.check.", Fields: []Field{
			{Name: "ok", Type: table.Boolean, Doc: "true when nothing was found (the program may still fail when it runs)."},
			{Name: "diagnostics", Type: Type{TS: "{ line: number; column: number; message: string }[]"}, Doc: "The problems, in source order; lines and columns from 1."}}},
		Call: func(a *Args) (any, error) {
			diags := program.Check(a.Str("source"))
			out := make([]any, len(diags))
			for i, d := range diags {
				out[i] = Obj{"line": d.Line, "column": d.Column, "message": d.Message}
			}
			return Obj{"ok": len(diags) == 0, "diagnostics": out}, nil
		}},
}

// programError reports a program that does not compile with its first problem in the message
// and every problem in error.errors (as check lists them); an *Error keeps its line and column
// for the JS Error.
func programError(err error) error {
	var l program.ErrorList
	if errors.As(err, &l) && len(l) > 0 {
		return compileError{l}
	}
	return err
}

// compileError is every problem of a program that does not compile: the message and
// error.line, error.column are the first's, error.errors lists them all.
type compileError struct{ list program.ErrorList }

func (e compileError) Error() string { return e.list[0].Error() }

// ErrorFields gives error.line, error.column and error.errors.
func (e compileError) ErrorFields() map[string]any {
	all := make([]any, len(e.list))
	for i, d := range e.list {
		all[i] = Obj{"line": d.Line, "column": d.Column, "message": d.Message}
	}
	return map[string]any{"line": e.list[0].Line, "column": e.list[0].Column, "errors": all}
}

func programResult(res *program.Result) Obj {
	rows, cols := len(res.Secrets), len(res.Observations)
	data := make([]float64, rows*cols)
	var b strings.Builder
	// Equal entries share one *big.Rat (see program.Result): each is converted once.
	type conv struct {
		f float64
		s string
	}
	seen := map[*big.Rat]conv{}
	var last *big.Rat // the previous entry's: a row of a deterministic program repeats 0 and 1
	var lastC conv
	for i, row := range res.Channel {
		for j, p := range row {
			c, ok := lastC, p == last
			if !ok {
				if c, ok = seen[p]; !ok {
					c.f, _ = p.Float64()
					c.s = p.RatString()
					seen[p] = c
				}
				last, lastC = p, c
			}
			data[i*cols+j] = c.f
			if i > 0 || j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(c.s)
		}
	}
	prior := make([]float64, rows)
	priorText := make([]string, rows)
	for i, p := range res.Prior { // a uniform prior is one *big.Rat: converted once
		c, ok := seen[p]
		if !ok {
			c.f, _ = p.Float64()
			c.s = p.RatString()
			seen[p] = c
		}
		prior[i], priorText[i] = c.f, c.s
	}
	// A program has at least one secret value and every run observes something (∅ included),
	// so the channel is never empty.
	return Obj{"channel": gmat.NewDense(rows, cols, data), "prior": prior, "secrets": table.LabelText{Text: res.SecretText(), N: len(res.Secrets)},
		"observations": table.LabelText{Text: res.ObservationText(), N: len(res.Observations)},
		"exact":        Obj{"channel": table.StringRows{Text: b.String(), Cols: cols}, "prior": table.Strings(strings.Join(priorText, ","))},
		"states":       res.States, "steps": int(res.Steps)}
}
