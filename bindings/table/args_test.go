package table

import (
	"errors"
	"math"
	"strings"
	"testing"
)

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

// Problems finds what the tests of the tables rely on it to find.
func TestProblems(t *testing.T) {
	call := func(*Args) (any, error) { return 0, nil }
	m := NewModule("t", []string{"a"}, []Func{
		{NS: "a", Name: "x", Doc: "X.", Result: Number, Call: call},
		{NS: "a", Name: "x", Doc: "X again.", Result: Number, Call: call},
		{NS: "b", Name: "y", Doc: "Y.", Result: Number, Call: call},
		{NS: "a", Name: "z", Doc: "no full stop", Result: Number, Call: call,
			Params: []*Param{{Name: "k", Kind: KindInteger, Check: CheckPositive, Default: 0}}},
	})
	got := strings.Join(m.Problems(), "\n")
	for _, want := range []string{"a.x: duplicate", "a.x is out of order", `b.y: namespace "b" is not one of [a]`,
		"a.z: duplicate, no Call, a doc without a full stop", "a.z: k: a default its own Check refuses"} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q lack %q", got, want)
		}
	}
	if p := NewModule("t", []string{"a"}, []Func{{NS: "a", Name: "x", Doc: "X.", Result: Number, Call: call}}).Problems(); len(p) != 0 {
		t.Errorf("a sound table: %v", p)
	}
}

// Errors of the core keep their Go package prefixes for Go callers; Invoke removes them, since
// in JS the message already starts with the function. Chains of them (a wrapped error) go too,
// argument names stay, and errors.Is still sees the original.
func TestInternalPrefixesRemoved(t *testing.T) {
	for in, want := range map[string]string{
		"lp: right-hand side of row 0 is NaN":             "right-hand side of row 0 is NaN",
		"refine: avg: lp: model: variable 3 out of range": "variable 3 out of range",
		"refine additive metric: cancelled: x":            "cancelled: x",
		"channel: row 0 sums to 0.9, expected 1":          "channel: row 0 sums to 0.9, expected 1",
		"A, B: too large":                                 "A, B: too large",
	} {
		if got := StripInternalPrefixes(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
	base := errors.New("lp: nil problem")
	wrapped := withoutInternalPrefix(base)
	if wrapped.Error() != "nil problem" || !errors.Is(wrapped, base) {
		t.Errorf("%v (is base: %v)", wrapped, errors.Is(wrapped, base))
	}
}
