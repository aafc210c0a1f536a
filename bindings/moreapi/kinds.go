package moreapi

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	. "github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/lp"
	"gonum.org/v1/gonum/mat"
)

// The argument kinds this module's functions take beyond the ones every module reads (see
// package bindings/table, kinds.go): registered here, so that the first module, which takes
// none of them, links neither their decoders nor the core packages behind them (the LP
// problem's, core/lp). The exact module registers the graph's decoder too, and its own kinds.
func init() {
	RegisterKind(More.Name, DecodeGraph, KindGraph)
	RegisterKind(More.Name, decodeLP, KindLPProblem)
	RegisterKind(More.Name, decodeSamples, KindLabels, KindSamples, KindEnumOrInteger, KindEnumIntegerOrVector)
}

// decodeLP reads lp.solve's problem: (header bytes, data bytes), flattened by web/qif.js.
func decodeLP(p *Param, raw []Raw) (any, error) {
	name := p.ArgName()
	if raw[0].Type != RawFloats || raw[1].Type != RawFloats {
		return nil, argerr.New(name, "expected an LP problem")
	}
	prob, err := FlatLP(raw[0].Floats, raw[1].Floats)
	if err != nil && !strings.HasPrefix(err.Error(), name+":") && !strings.HasPrefix(err.Error(), "rows[") {
		// lp.NewCSC's "lp: coefficient 3 (row 0, column 1) is NaN" is about the problem.
		err = fmt.Errorf("%s: %s", name, StripInternalPrefixes(err.Error()))
	}
	return prob, err
}

// FlatLP builds an lp.Problem from the two arrays web/qif.js (flattenLP) makes of a problem
// object: head = [n, m, max, nnz, hasLower, hasUpper] and data = c (n), ops (m), rhs (m),
// rows, cols and values of the nonzeros (nnz each), then lower and upper (n each, when present).
func FlatLP(head, data []float64) (*lp.Problem, error) {
	if len(head) != 6 {
		return nil, errors.New("problem: malformed")
	}
	for i, h := range head {
		if h != math.Trunc(h) || h < 0 || h > lp.MaxNonzeros || (i == 2 || i >= 4) && h > 1 {
			return nil, errors.New("problem: malformed")
		}
	}
	n, m, nnz := int(head[0]), int(head[1]), int(head[3])
	if n > lp.MaxVariables || m > lp.MaxConstraints {
		return nil, fmt.Errorf("problem: %d variables and %d rows exceed the limits (%d, %d)", n, m, lp.MaxVariables, lp.MaxConstraints)
	}
	want := n + 2*m + 3*nnz + n*(int(head[4])+int(head[5]))
	if len(data) != want {
		return nil, errors.New("problem: malformed")
	}
	take := func(k int) []float64 { s := data[:k:k]; data = data[k:]; return s }
	p := &lp.Problem{Sense: lp.Minimize, Objective: take(n), Ops: make([]lp.Op, m)}
	if head[2] != 0 {
		p.Sense = lp.Maximize
	}
	for i, o := range take(m) {
		if o != 0 && o != 1 && o != 2 {
			return nil, fmt.Errorf("rows[%d].op: malformed", i)
		}
		p.Ops[i] = lp.Op(o)
	}
	p.RHS = take(m)
	ri, ci := ints(take(nnz)), ints(take(nnz))
	var err error
	if p.A, err = lp.NewCSC(m, n, ri, ci, take(nnz)); err != nil {
		return nil, err
	}
	if head[4] != 0 {
		p.Lower = take(n)
	}
	if head[5] != 0 {
		p.Upper = take(n)
	}
	return p, nil
}

func ints(f []float64) []int {
	out := make([]int, len(f))
	for k, x := range f {
		out[k] = int(x)
	}
	return out
}

// decodeSamples reads the kinds of samples (estimate.*): labels cross as (count, values, names)
// where the values are a byte array of float64s (numbers, or a typed array; names absent), or
// for strings an Int32Array coding them by first appearance and names a function that returns
// the distinct strings in that order joined by NUL — called only if Go needs them (Labels.Codes),
// so that strings an estimator refuses by their number never cross; samples are labels with a
// fourth value (absent, or "integer" for an integer typed array), or a matrix (rows, cols, bytes,
// absent), one row per sample; an enum-or-integer is a string of p.Enum or a positive integer.
func decodeSamples(p *Param, raw []Raw) (any, error) {
	name := p.ArgName()
	if p.Kind == KindEnumIntegerOrVector && raw[0].Type == RawFloats {
		return raw[0].Floats, nil
	}
	if p.Kind == KindEnumOrInteger || p.Kind == KindEnumIntegerOrVector {
		r := raw[0]
		switch {
		case r.Type == RawString && slices.Contains(p.Enum, r.Str):
			return r.Str, nil
		case r.Type == RawNumber && r.Num >= 1 && r.Num == math.Trunc(r.Num) && r.Num <= 1<<31:
			return int(r.Num), nil
		}
		if p.Kind == KindEnumIntegerOrVector {
			return nil, argerr.New(name, "expected '%s', a positive integer or an array of numbers, got %v", strings.Join(p.Enum, "', '"), rawValue(r))
		}
		return nil, argerr.New(name, "expected '%s' or a positive integer, got %v", strings.Join(p.Enum, "', '"), rawValue(r))
	}
	if p.Kind == KindSamples && raw[2].Type == RawFloats {
		m, err := Decode(&Param{Name: p.Name, Label: p.Label, Kind: KindMatrix}, raw[:3])
		if err != nil {
			return nil, err
		}
		return Samples{Vectors: m.(*mat.Dense)}, nil
	}
	if raw[0].Type != RawNumber {
		return nil, fmt.Errorf("%s: expected an array of labels", name)
	}
	n := int(math.Max(0, math.Min(raw[0].Num, MaxEntries+1)))
	var l Labels
	switch {
	case raw[1].Type == RawFloats && raw[2].Type == RawAbsent:
		l.Numbers = raw[1].Floats
	case raw[1].Type == RawInts && raw[2].Type == RawFunc && raw[2].Text != nil:
		l.Codes, l.Names = raw[1].Ints, codedNames(raw[2].Text)
	default:
		return nil, fmt.Errorf("%s: expected an array of labels", name)
	}
	if l.Len() != n || n > MaxEntries {
		return nil, fmt.Errorf("%s: malformed labels (%d given, %d read; the limit is %d)", name, n, l.Len(), MaxEntries)
	}
	if p.Kind == KindSamples {
		return Samples{Labels: l, IntegerArray: raw[3].Type == RawString}, nil
	}
	return l, nil
}

// codedNames is the Names of coded labels: the distinct strings that text returns, split at NUL
// (which no label holds; the loader refuses it).
func codedNames(text func() (string, bool)) func() ([]string, error) {
	return func() ([]string, error) {
		t, ok := text()
		if !ok {
			return nil, errors.New("malformed labels: their names are not a string")
		}
		return strings.Split(t, "\x00"), nil
	}
}

func rawValue(r Raw) string {
	switch r.Type {
	case RawNumber:
		return fmt.Sprint(r.Num)
	case RawString:
		return fmt.Sprintf("%q", r.Str)
	}
	return "a value of another type"
}
