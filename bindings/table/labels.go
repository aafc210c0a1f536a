package table

import (
	"fmt"
	"math"
	"strings"

	"github.com/qif-toolkit/qif/core/estimate"
	"gonum.org/v1/gonum/mat"
)

// decodeSample reads the kinds of samples (estimate.*): labels cross as (count, values) where
// the values are a byte array of float64s (numbers, or a typed array) or one string with the
// labels separated by NUL (strings); samples are labels with a third value absent, or a matrix
// (rows, cols, bytes), one row per sample; an enum-or-integer is a string of p.Enum or a
// positive integer.
func decodeSample(p *Param, raw []Raw) (any, error) {
	name := p.ArgName()
	if p.Kind == KindEnumOrInteger {
		r := raw[0]
		switch {
		case r.Type == RawString && contains(p.Enum, r.Str):
			return r.Str, nil
		case r.Type == RawNumber && r.Num >= 1 && r.Num == math.Trunc(r.Num) && r.Num <= 1<<31:
			return int(r.Num), nil
		}
		return nil, fmt.Errorf("%s: expected '%s' or a positive integer, got %v", name, strings.Join(p.Enum, "', '"), rawValue(r))
	}
	if p.Kind == KindSamples && raw[2].Type != RawAbsent {
		m, err := decodeValue(&Param{Name: p.Name, Label: p.Label, Kind: KindMatrix}, raw)
		if err != nil {
			return nil, err
		}
		return estimate.Observations{Vectors: m.(*mat.Dense)}, nil
	}
	if raw[0].Type != RawNumber {
		return nil, fmt.Errorf("%s: expected an array of labels", name)
	}
	n := int(math.Max(0, math.Min(raw[0].Num, MaxEntries+1)))
	var l estimate.Labels
	switch raw[1].Type {
	case RawFloats:
		l.Numbers = raw[1].Floats
	case RawString:
		if n == 0 {
			l.Strings = []string{}
		} else {
			l.Strings = strings.Split(raw[1].Str, "\x00")
		}
	default:
		return nil, fmt.Errorf("%s: expected an array of labels", name)
	}
	if l.Len() != n || n > MaxEntries {
		return nil, fmt.Errorf("%s: malformed labels (%d given, %d read; the limit is %d)", name, n, l.Len(), MaxEntries)
	}
	if p.Kind == KindSamples {
		return estimate.Observations{Labels: l}, nil
	}
	return l, nil
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
func (a *Args) Labels(name string) estimate.Labels { x, _ := a.Get(name).(estimate.Labels); return x }

// Samples returns observations: labels or vectors (the zero value when absent).
func (a *Args) Samples(name string) estimate.Observations {
	x, _ := a.Get(name).(estimate.Observations)
	return x
}
