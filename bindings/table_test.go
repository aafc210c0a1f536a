package bindings

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/qif-toolkit/qif/core/graph"
	"github.com/qif-toolkit/qif/core/lp"
	"gonum.org/v1/gonum/mat"
)

// wire builds the wire values of a call from one Go value per slot (nil: absent), the way
// web/qif.js would send them.
func wire(f *Func, vals ...any) []Raw {
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
	absent := make([]Raw, k.width())
	switch x := v.(type) {
	case nil:
		return absent
	case float64:
		return []Raw{{Type: RawNumber, Num: x}}
	case int:
		return []Raw{{Type: RawNumber, Num: float64(x)}}
	case bool:
		return []Raw{{Type: RawBool, Bool: x}}
	case string:
		return []Raw{{Type: RawString, Str: x}}
	case []float64:
		return []Raw{{Type: RawFloats, Floats: x}}
	case *mat.Dense:
		r, c := x.Dims()
		return []Raw{{Type: RawNumber, Num: float64(r)}, {Type: RawNumber, Num: float64(c)}, {Type: RawFloats, Floats: x.RawMatrix().Data}}
	case *graph.Graph:
		var flat []float64
		for _, e := range x.Edges() {
			flat = append(flat, float64(e.A), float64(e.B))
		}
		return []Raw{{Type: RawNumber, Num: float64(x.N)}, {Type: RawFloats, Floats: flat}}
	case Callback:
		return []Raw{{Type: RawFunc, Fn: x}}
	case [2][]float64: // an LP problem, flattened
		return []Raw{{Type: RawFloats, Floats: x[0]}, {Type: RawFloats, Floats: x[1]}}
	}
	panic("rawsOf: unexpected value")
}

// plausible is a small valid value of each kind, so that every function can be called.
func plausible(p *Param) any {
	switch p.Kind {
	case KindNumber:
		return 0.5
	case KindInteger:
		return 2
	case KindBoolean:
		return false
	case KindEnum:
		return p.Enum[0]
	case KindVector:
		return []float64{0.5, 0.5}
	case KindIndices:
		return []float64{1, 1}
	case KindMatrix:
		return mat.NewDense(2, 2, []float64{0.75, 0.25, 0.25, 0.75})
	case KindGraph:
		g, _ := graph.Path(2)
		return g
	case KindCallback:
		return Callback(func(...any) bool { return true })
	case KindOptions:
		return true
	case KindLPProblem: // max x0 + x1 with x0 + x1 ≤ 1
		return [2][]float64{{2, 1, 1, 2, 0, 0}, {1, 1, 0, 1, 0, 0, 0, 1, 1, 1}}
	}
	return nil
}

// encodable reports whether v is made only of what js.go's encode accepts.
func encodable(v any) bool {
	switch x := v.(type) {
	case nil, float64, int, bool, string, []float64, []int, [][]int, *mat.Dense, *graph.Graph:
		return true
	case Obj:
		for _, e := range x {
			if !encodable(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !encodable(e) {
				return false
			}
		}
		return true
	}
	return false
}

// Every function runs natively on small inputs of the right kinds (every option given): it
// returns a result that js.go can encode or an error that starts with its name, never an
// internal error (a panic, or a name Call reads that the table does not declare).
func TestEveryFunctionRuns(t *testing.T) {
	for _, f := range Functions() {
		vals := make([]any, len(f.slots))
		for i, s := range f.slots {
			if s.p.Kind != KindObject {
				vals[i] = plausible(s.p)
			}
		}
		res, err := f.Invoke(wire(f, vals...))
		if err != nil {
			if !strings.HasPrefix(err.Error(), f.Qualified()+": ") || strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s: %v", f.Qualified(), err)
			}
			continue
		}
		if !encodable(res) {
			t.Errorf("%s returned %T, which js.go cannot encode", f.Qualified(), res)
		}
	}
}

func TestTableIsWellFormed(t *testing.T) {
	sourceRE := regexp.MustCompile(`^((Alvim|Chatzikokolakis|Bordenabe) et al\. \((ICALP|FOSAD|CSF|CCS) \d{4}\)|Wu \(2019\)|Vadhan \(2013\))( [§A-Z].*)?$` +
		`|^Mathematics §\d+(\.\d+)*( \(libqif\))?$`) // the toolkit's statement of libqif's definitions
	seen := map[string]bool{}
	if len(Functions()) < 100 {
		t.Fatalf("only %d functions", len(Functions()))
	}
	for i, f := range Functions() {
		q := f.Qualified()
		if seen[q] || f.Call == nil || !strings.HasSuffix(f.Doc, ".") || f.Result.TS == "" && len(f.Result.Fields) == 0 {
			t.Errorf("%s: duplicate, no Call, a doc without a full stop or no result type", q)
		}
		seen[q] = true
		if i > 0 && less(f, Functions()[i-1]) {
			t.Errorf("%s is out of order", q)
		}
		for _, src := range strings.Split(f.Source, "; ") {
			if src != "" && !sourceRE.MatchString(src) {
				t.Errorf("%s: source %q is not cited as an author and venue", q, src)
			}
		}
		if Lookup(q) != f {
			t.Errorf("Lookup(%q) does not find it", q)
		}
		for _, s := range f.slots {
			if msg := badParam(s.p); msg != "" {
				t.Errorf("%s: %s: %s", q, s.p.Name, msg)
			}
		}
	}
}

// badParam is what is wrong with a parameter's description, or "".
func badParam(p *Param) string {
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
	case (p.Kind == KindEnum) != (len(p.Enum) > 0):
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

func less(a, b *Func) bool {
	if a.NS != b.NS {
		return nsIndex(a.NS) < nsIndex(b.NS)
	}
	return a.Name < b.Name
}

func TestDecodeConventions(t *testing.T) {
	cap := Lookup("measure.shannonCapacity")
	C := mat.NewDense(2, 2, []float64{1, 0, 0, 1})
	call := func(f *Func, vals ...any) error { _, err := f.Invoke(wire(f, vals...)); return err }
	cases := []struct {
		err  error
		want string
	}{
		{call(cap), "measure.shannonCapacity: channel: missing argument 1"},
		{call(cap, C, true, 0.0), "measure.shannonCapacity: tolerance: expected a positive finite number, got 0"},
		{call(cap, C, true, -1.0), "tolerance: expected a positive finite number, got -1"},
		{call(cap, C, true, math.NaN()), "tolerance: expected a positive finite number, got NaN"},
		{call(cap, C, true, nil, 2.5), "maxIterations: expected a positive integer, got 2.5"},
		{call(cap, C, true, nil, 0), "maxIterations: expected a positive integer, got 0"},
		{call(Lookup("refine.familyEpsilon"), true, "truncatedGeometric", "nope"), "family2: expected one of 'truncatedGeometric'"},
		{call(Lookup("mechanism.optimalLP"), true, nil, C), "mechanism.optimalLP: epsilon: missing (a required key of options)"},
		{call(Lookup("mechanism.optimalLP"), true, nil, C, 1.0, nil, nil, nil, nil, 0.0), "timeLimit: expected a positive number (Infinity: no limit), got 0"},
		{call(Lookup("graph.induced"), nil), "graph.induced: graph: missing argument 1"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("got %v, want an error containing %q", c.err, c.want)
		}
	}
	// Defaults reach Call: tolerance 1e-6 gives a gap of at most 1e-6 bits.
	res, err := cap.Invoke(wire(cap, mat.NewDense(2, 2, []float64{0.9, 0.1, 0.2, 0.8})))
	if err != nil || res.(Obj)["gap"].(float64) > 1e-6 || res.(Obj)["gap"].(float64) < 0 {
		t.Errorf("default tolerance: %v, %v", res, err)
	}
}

func TestCancellation(t *testing.T) {
	cap := Lookup("measure.shannonCapacity")
	calls := 0
	stop := Callback(func(args ...any) bool { calls++; return calls < 3 })
	C := mat.NewDense(2, 2, []float64{0.6, 0.4, 0.35, 0.65})
	_, err := cap.Invoke(wire(cap, C, true, 1e-15, nil, stop))
	var c *Cancelled
	if !errors.As(err, &c) || err.Error() != "measure.shannonCapacity: cancelled" || calls != 3 {
		t.Fatalf("got %v after %d calls, want a *Cancelled after 3", err, calls)
	}
	if p, ok := c.Partial.(Obj); !ok || p["iterations"] != 3 || p["converged"] != false {
		t.Errorf("partial result %v", c.Partial)
	}
	// A cancelled LP reports its partial result too.
	solve := Lookup("lp.solve")
	_, err = solve.Invoke(wire(solve, plausible(solve.Params[0]), true, Callback(func(...any) bool { return false }), 1))
	if !errors.As(err, &c) || c.Partial.(Obj)["status"] != "cancelled" {
		t.Errorf("lp.solve: %v", err)
	}
}

func TestPanicBecomesAnError(t *testing.T) {
	f := &Func{NS: "debug", Name: "boom", Call: func(a *Args) (any, error) { return a.Mat("nothing"), nil }}
	f.compile()
	_, err := f.Invoke(nil)
	if err == nil || !strings.HasPrefix(err.Error(), "debug.boom: internal error: ") {
		t.Fatalf("got %v", err)
	}
}

func TestFlatGraph(t *testing.T) {
	g, err := FlatGraph("graph", 3, []float64{0, 1, 1, 2})
	if err != nil || g.N != 3 || len(g.Edges()) != 2 {
		t.Fatalf("path: %v %v", g, err)
	}
	for _, c := range []struct {
		n    float64
		e    []float64
		want string
	}{
		{0, nil, "graph: n must be an integer between 1 and"},
		{2.5, nil, "graph: n must be an integer"},
		{math.NaN(), nil, "graph: n must be"},
		{3, []float64{0}, "graph.edges: each edge must be a pair"},
		{3, []float64{0, 0.5}, "graph: edge 0 (0,0.5) has a non-integer vertex"},
		{3, []float64{0, 3}, "graph: edge 0 (0,3) has a vertex outside 0..2"},
		{3, []float64{1, 1}, "graph: edge 0 (1,1) is a self-loop"},
		{3, []float64{0, math.Inf(1)}, "graph: edge 0"},
	} {
		if _, err := FlatGraph("graph", c.n, c.e); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FlatGraph(%v, %v) = %v, want %q", c.n, c.e, err, c.want)
		}
	}
}

// FuzzFlatGraph checks that FlatGraph never panics and that what it accepts is a simple graph
// with exactly the edges given.
func FuzzFlatGraph(f *testing.F) {
	f.Add(3.0, 0.0, 1.0, 1.0, 2.0)
	f.Add(2.0, 0.0, 0.0, 0.0, 1.0)
	f.Add(-1.0, math.NaN(), 1.0, 5.0, 1e300)
	f.Fuzz(func(t *testing.T, n, a0, b0, a1, b1 float64) {
		g, err := FlatGraph("g", n, []float64{a0, b0, a1, b1})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "g") {
				t.Fatalf("error %q does not name the argument", err)
			}
			return
		}
		if float64(g.N) != n || len(g.Edges()) != 2 {
			t.Fatalf("n=%v edges %v from (%v,%v) (%v,%v)", g.N, g.Edges(), a0, b0, a1, b1)
		}
	})
}

// FuzzFlatLP checks that FlatLP never panics on a malformed problem and accepts only the layout
// web/qif.js writes.
func FuzzFlatLP(f *testing.F) {
	f.Add(2.0, 1.0, 1.0, 2.0, 0.0, 0.0, 9, 1.0)
	f.Add(1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 6, 0.0)
	f.Add(1e9, 0.0, 0.0, 0.0, 0.0, 0.0, 1, math.NaN())
	f.Fuzz(func(t *testing.T, n, m, max, nnz, lo, hi float64, size int, fill float64) {
		size = int(uint(size) % 64)
		data := make([]float64, size)
		for i := range data {
			data[i] = fill + float64(i%3)
		}
		p, err := FlatLP([]float64{n, m, max, nnz, lo, hi}, data)
		if err == nil && (len(p.Objective) != int(n) || len(p.RHS) != int(m)) {
			t.Fatalf("accepted a problem of the wrong shape: %d variables for n=%v", len(p.Objective), n)
		}
		if err == nil {
			_, _ = lp.Solve(p, &lp.Options{MaxIterations: 50})
		}
	})
}
