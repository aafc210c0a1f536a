package exactapi

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/exact"
)

// The exact kinds cross the boundary as text, written by web/qif.js: a number as its shortest
// decimal (what String(x) gives, the value typed), a bigint in decimal, a string as it is; a list
// as its entries joined by commas (qif.js refuses strings that hold one), after its length or
// shape. Here they become exact values, with the errors of core/exact naming the argument and
// the entry.

// The exact module registers the decoders of its own kinds, and the graph's (exact.mechanism
// takes one), so that no other module links rational arithmetic.
func init() {
	table.RegisterKind(Module.Name, decode, table.KindRational, table.KindRatVector, table.KindRatMatrix, table.KindRatMetric)
	table.RegisterKind(Module.Name, table.DecodeGraph, table.KindGraph)
}

func decode(p *table.Param, raw []table.Raw) (any, error) {
	name := p.ArgName()
	switch p.Kind {
	case table.KindRational:
		if raw[0].Type != table.RawString {
			return nil, argerr.New(name, "expected a number or a fraction string")
		}
		r, err := exact.Parse(raw[0].Str)
		if err != nil {
			return nil, argerr.New(name, "%v", err) // exact.Parse says what is wrong with the text
		}
		return r, nil
	case table.KindRatVector:
		n, ok := size(raw[0])
		if !ok || raw[1].Type != table.RawString {
			return nil, argerr.New(name, "expected a vector (array of numbers or fraction strings)")
		}
		if n > exact.MaxEntries {
			return nil, argerr.New(name, "%d entries, more than the limit of %d for exact arithmetic", n, exact.MaxEntries)
		}
		entries, err := entries(name, raw[1].Str, n)
		if err != nil {
			return nil, err
		}
		return exact.ParseVector(name, entries)
	case table.KindRatMatrix, table.KindRatMetric:
		rows, ok1 := size(raw[0])
		cols, ok2 := size(raw[1])
		if !ok1 || !ok2 || raw[2].Type != table.RawString {
			return nil, argerr.New(name, "expected a matrix (array of rows or {rows, cols, data})")
		}
		if rows == 0 || cols == 0 {
			return nil, argerr.New(name, "empty matrix (%d×%d)", rows, cols)
		}
		if float64(rows)*float64(cols) > exact.MaxEntries {
			return nil, argerr.New(name, "%d×%d has more than the limit of %d entries for exact arithmetic", rows, cols, exact.MaxEntries)
		}
		flat, err := entries(name, raw[2].Str, rows*cols)
		if err != nil {
			return nil, err
		}
		m := make([][]string, rows)
		for i := range m {
			m[i] = flat[i*cols : (i+1)*cols]
		}
		if p.Kind == table.KindRatMetric {
			return exact.ParseMetric(name, m)
		}
		return exact.ParseMatrix(name, m)
	}
	return nil, fmt.Errorf("%s: unknown kind %q", name, p.Kind)
}

// size reads a length or a dimension: a non-negative integer.
func size(r table.Raw) (int, bool) {
	x := r.Num
	if r.Type != table.RawNumber || x != math.Trunc(x) || x < 0 || x > math.MaxInt32 {
		return 0, false
	}
	return int(x), true
}

// entries splits text into its n comma-separated entries.
func entries(name, text string, n int) ([]string, error) {
	var out []string
	if n > 0 {
		out = strings.Split(text, ",")
	}
	if len(out) != n {
		return nil, argerr.New(name, "%d entries in the text, expected %d", len(out), n)
	}
	return out, nil
}

// Results cross as fractions: one string per number and, for lists, one string for all of them
// (table.Strings, split by the loader).

func fraction(r *big.Rat, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return r.RatString(), nil
}

func fractions(v exact.Vector) table.Strings { return table.Strings(strings.Join(v.Strings(), ",")) }

// matrixOut is {rows, cols, data: string[]}, row-major.
func matrixOut(m *exact.Matrix) table.Obj {
	return table.Obj{"rows": m.Rows, "cols": m.Cols, "data": fractions(m.Data)}
}

func matrix(m *exact.Matrix, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return matrixOut(m), nil
}

// Readers of decoded arguments (nil when absent).

func vec(a *table.Args, name string) exact.Vector { v, _ := a.Get(name).(exact.Vector); return v }

func mat(a *table.Args, name string) *exact.Matrix { m, _ := a.Get(name).(*exact.Matrix); return m }

func rat(a *table.Args, name string) *big.Rat { r, _ := a.Get(name).(*big.Rat); return r }
