package table

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/qif-toolkit/qif/core/labels"

	"gonum.org/v1/gonum/mat"

	"github.com/qif-toolkit/qif/core/argerr"
)

// Labels is a decoded column of sample labels: numbers or strings (exactly one is set), the type
// core/estimate reads (core/labels, a package of its own so that the exact module, which shares
// this package, links nothing of the estimation code).
type Labels = labels.Column

// Samples is a decoded observation column: Labels, or Vectors (one row per sample) when not nil.
// IntegerArray tells labels that came from an integer typed array (Int32Array, ...), which the
// rule of kind 'auto' reads as labels whatever their values.
type Samples struct {
	Labels       Labels
	Vectors      *mat.Dense
	IntegerArray bool
}

// decodeSample reads the kinds of samples (estimate.*): labels cross as (count, values, names)
// where the values are a byte array of float64s (numbers, or a typed array; names absent), or
// for strings an Int32Array coding them by first appearance and names a function that returns
// the distinct strings in that order joined by NUL — called only if Go needs them (Labels.Codes),
// so that strings an estimator refuses by their number never cross; samples are labels with a
// fourth value (absent, or "integer" for an integer typed array), or a matrix (rows, cols, bytes,
// absent), one row per sample; an enum-or-integer is a string of p.Enum or a positive integer.
func decodeSample(p *Param, raw []Raw) (any, error) {
	name := p.ArgName()
	if p.Kind == KindEnumIntegerOrVector && raw[0].Type == RawFloats {
		return raw[0].Floats, nil
	}
	if p.Kind == KindEnumOrInteger || p.Kind == KindEnumIntegerOrVector {
		r := raw[0]
		switch {
		case r.Type == RawString && contains(p.Enum, r.Str):
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
		m, err := decodeValue(&Param{Name: p.Name, Label: p.Label, Kind: KindMatrix}, raw[:3])
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

// Labels returns a column of labels (the zero Labels when absent).
func (a *Args) Labels(name string) Labels { x, _ := a.Get(name).(Labels); return x }

// Samples returns observations: labels or vectors (the zero value when absent).
func (a *Args) Samples(name string) Samples { x, _ := a.Get(name).(Samples); return x }
