package table

import (
	"fmt"
	"strings"

	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/labels"
	"gonum.org/v1/gonum/mat"
)

// This file serves the tests of the tables (bindings, bindings/exactapi): nothing in a
// WebAssembly module calls it, so the linker leaves it out.

// Lookup returns the function named "<ns>.<name>", or nil. The tests of a table check that every
// name is used once and every namespace listed; the modules themselves dispatch by index.
func (m *Module) Lookup(qualified string) *Func {
	for _, f := range m.funcs {
		if f.Qualified() == qualified {
			return f
		}
	}
	return nil
}

// Problems lists what is wrong with the module's table, one line per problem: a name used
// twice, a namespace not listed, functions out of wire order, no Call, a doc that is not a
// sentence, no result type, or a parameter whose description contradicts itself (Problem).
func (m *Module) Problems() []string {
	var out []string
	seen := map[string]bool{}
	for i, f := range m.funcs {
		q := f.Qualified()
		if m.NamespaceIndex(f.NS) == len(m.Namespaces) {
			out = append(out, fmt.Sprintf("%s: namespace %q is not one of %v", q, f.NS, m.Namespaces))
		}
		if seen[q] || f.Call == nil || !strings.HasSuffix(f.Doc, ".") || f.Result.TS == "" && len(f.Result.Fields) == 0 {
			out = append(out, q+": duplicate, no Call, a doc without a full stop or no result type")
		}
		seen[q] = true
		if prev := m.funcs[max(i-1, 0)]; i > 0 && (m.NamespaceIndex(prev.NS) > m.NamespaceIndex(f.NS) || prev.NS == f.NS && prev.Name >= f.Name) {
			out = append(out, q+" is out of order")
		}
		for _, p := range f.Slots() {
			if msg := p.Problem(); msg != "" {
				out = append(out, fmt.Sprintf("%s: %s: %s", q, p.Name, msg))
			}
		}
	}
	return out
}

// RunAll calls every function of the module natively, with plausible(p) for each parameter
// and option (every option given), and lists the calls that went wrong: an error that does not
// start with the function's name or is an internal error (a panic, or a name Call reads that
// the table does not declare), or a result js.go cannot encode. adjust, when not nil, may
// change the values of a function before the call.
func (m *Module) RunAll(plausible func(*Param) any, adjust func(f *Func, vals []any)) []string {
	var out []string
	for _, f := range m.funcs {
		slots := f.Slots()
		vals := make([]any, len(slots))
		for i, p := range slots {
			vals[i] = plausible(p)
		}
		if adjust != nil {
			adjust(f, vals)
		}
		res, err := f.Invoke(Wire(f, vals...))
		switch {
		case err != nil && (!strings.HasPrefix(err.Error(), f.Qualified()+": ") || strings.Contains(err.Error(), "internal error")):
			out = append(out, fmt.Sprintf("%s: %v", f.Qualified(), err))
		case err == nil && !Encodable(res):
			out = append(out, fmt.Sprintf("%s returned %T, which js.go cannot encode", f.Qualified(), res))
		}
	}
	return out
}

// Slots returns the parameters of f with the fields of options flattened, in wire order.
func (f *Func) Slots() []*Param {
	out := make([]*Param, len(f.slots))
	for i, s := range f.slots {
		out[i] = s.p
	}
	return out
}

// Problem is what is wrong with the description of a parameter, or "".
func (p *Param) Problem() string {
	kindOf := map[string]Kind{"float64": KindNumber, "int": KindInteger, "bool": KindBoolean}
	switch d := p.Default.(type) {
	case nil:
	case string:
		if p.Kind != KindEnum || !contains(p.Enum, d) {
			return "a default that is not one of the enum's values"
		}
	default:
		if kindOf[fmt.Sprintf("%T", d)] != p.Kind {
			return fmt.Sprintf("a default of type %T for a %s", d, p.Kind)
		}
	}
	switch {
	case (p.Kind == KindEnum || p.Kind == KindEnumOrInteger || p.Kind == KindEnumIntegerOrVector) != (len(p.Enum) > 0):
		return "Enum goes with KindEnum"
	case p.Check != CheckNone && p.Kind != KindNumber && p.Kind != KindInteger:
		return "a Check on a non-number"
	case checkValue(p, p.Default) != nil:
		return "a default its own Check refuses"
	case p.Kind == KindCallback && p.Name == "onProgress" && len(p.CallArgs) == 0:
		return "a progress callback without the arguments it is called with"
	}
	return ""
}

// Wire builds the wire values of a call of f from one Go value per slot (nil: absent), the way
// web/qif.js would send them: float64, int, bool and string as they are, []float64, *mat.Dense,
// *graph.Graph, a Callback, an LP problem as [2][]float64{head, data}, Labels (labels and
// samples; a matrix of samples as *mat.Dense); for the exact kinds a
// string (rational), []string (ratVector) or [][]string (ratMatrix, ratMetric).
func Wire(f *Func, vals ...any) []Raw {
	var out []Raw
	for i, s := range f.slots {
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		out = append(out, rawsOf(s.p.Kind, v)...)
	}
	return out
}

func rawsOf(k Kind, v any) []Raw {
	num := func(x float64) Raw { return Raw{Type: RawNumber, Num: x} }
	str := func(s string) Raw { return Raw{Type: RawString, Str: s} }
	switch x := v.(type) {
	case nil:
		return make([]Raw, k.Width())
	case float64:
		return []Raw{num(x)}
	case int:
		return []Raw{num(float64(x))}
	case bool:
		return []Raw{{Type: RawBool, Bool: x}}
	case string:
		return []Raw{str(x)}
	case []float64:
		return []Raw{{Type: RawFloats, Floats: x}}
	case []string:
		return []Raw{num(float64(len(x))), str(strings.Join(x, ","))}
	case [][]string:
		var flat []string
		for _, r := range x {
			flat = append(flat, r...)
		}
		cols := 0
		if len(x) > 0 {
			cols = len(x[0])
		}
		return []Raw{num(float64(len(x))), num(float64(cols)), str(strings.Join(flat, ","))}
	case Labels:
		out := []Raw{num(float64(x.Len())), {Type: RawFloats, Floats: x.Numbers}, {}}
		if x.Strings != nil { // coded by first appearance, as web/qif.js sends them
			codes, names := labels.Coded(x.Strings)
			text := strings.Join(names, "\x00")
			out[1], out[2] = Raw{Type: RawInts, Ints: codes}, Raw{Type: RawFunc, Text: func() (string, bool) { return text, true }}
		}
		if k == KindSamples {
			out = append(out, Raw{})
		}
		return out
	case *mat.Dense:
		r, c := x.Dims()
		out := []Raw{num(float64(r)), num(float64(c)), {Type: RawFloats, Floats: x.RawMatrix().Data}}
		if k == KindSamples {
			out = append(out, Raw{})
		}
		return out
	case *graph.Graph:
		var flat []float64
		for _, e := range x.Edges() {
			flat = append(flat, float64(e.A), float64(e.B))
		}
		return []Raw{num(float64(x.N)), {Type: RawFloats, Floats: flat}}
	case Callback:
		return []Raw{{Type: RawFunc, Fn: x}}
	case [2][]float64: // an LP problem, flattened
		return []Raw{{Type: RawFloats, Floats: x[0]}, {Type: RawFloats, Floats: x[1]}}
	}
	panic(fmt.Sprintf("table.Wire: unexpected %T", v))
}

// Encodable reports whether v is made only of what js.go's encode accepts.
func Encodable(v any) bool {
	switch x := v.(type) {
	case nil, float64, int, bool, string, []float64, []int, []int32, [][]int, Strings, StringRows, LabelText, *mat.Dense, *graph.Graph:
		return true
	case Obj:
		for _, e := range x {
			if !Encodable(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !Encodable(e) {
				return false
			}
		}
		return true
	}
	return false
}
