//go:build js && wasm

package bindings

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
	"syscall/js"
)

// ToGraph converts the JS graph shape {n, edges: [[a,b], ...]} into a *graph.Graph. The edge
// list is flattened by the loader's toMatrix helper (one bulk copy), every endpoint must be an
// integer, and graph.New refuses self-loops, out-of-range vertices and duplicates. Errors name
// the argument, e.g. "graph: edge 3 (2,2) is a self-loop".
func ToGraph(v js.Value, name string) (*graph.Graph, error) {
	if v.Type() != js.TypeObject || js.Global().Get("Array").Call("isArray", v).Bool() {
		return nil, fmt.Errorf("%s: expected a graph {n, edges: [[a,b], ...]}, got %s", name, typeName(v))
	}
	nv := v.Get("n")
	if nv.IsUndefined() || nv.IsNull() {
		return nil, fmt.Errorf("%s: missing field \"n\" (number of vertices)", name)
	}
	n, err := ToInt(nv, name+".n")
	if err != nil {
		return nil, err
	}
	if n < 1 || n > graph.MaxVertices {
		return nil, fmt.Errorf("%s: n must be between 1 and %d, got %d", name, graph.MaxVertices, n)
	}
	ev := v.Get("edges")
	if ev.IsUndefined() || ev.IsNull() {
		return nil, fmt.Errorf("%s: missing field \"edges\" (array of [a, b] pairs)", name)
	}
	if !js.Global().Get("Array").Call("isArray", ev).Bool() {
		return nil, fmt.Errorf("%s.edges: expected an array of [a, b] pairs, got %s", name, typeName(ev))
	}
	var edges []graph.Edge
	if ev.Length() > 0 {
		f := helpers.Call("toMatrix", ev)
		if e := f.Get("error"); !e.IsUndefined() {
			return nil, fmt.Errorf("%s.edges: %s", name, e.String())
		}
		r, c := f.Get("rows").Int(), f.Get("cols").Int()
		if c != 2 {
			return nil, fmt.Errorf("%s.edges: each edge must be a pair [a, b], edge 0 has %d entries", name, c)
		}
		if float64(r) > maxEntries/2 {
			return nil, fmt.Errorf("%s.edges: %d edges, more than the limit of %d", name, r, maxEntries/2)
		}
		data := make([]float64, 2*r)
		copyFloatsToGo(data, f.Get("data"))
		edges = make([]graph.Edge, r)
		for k := 0; k < r; k++ {
			a, b := data[2*k], data[2*k+1]
			if a != math.Trunc(a) || b != math.Trunc(b) || math.IsInf(a, 0) || math.IsInf(b, 0) {
				return nil, fmt.Errorf("%s: edge %d (%v,%v) has a non-integer vertex", name, k, a, b)
			}
			if a < 0 || a >= float64(n) || b < 0 || b >= float64(n) {
				return nil, fmt.Errorf("%s: edge %d (%v,%v) has a vertex outside 0..%d", name, k, a, b, n-1)
			}
			edges[k] = graph.Edge{A: int(a), B: int(b)}
		}
	}
	g, err := graph.New(n, edges)
	if err != nil {
		// graph.New's messages start with "graph: "; name the caller's argument instead.
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "graph: "))
	}
	return g, nil
}

// GraphValue converts g into the JS graph shape {n, edges: [[a,b], ...]}, each edge once with
// a < b, in lexicographic order.
func GraphValue(g *graph.Graph) js.Value {
	es := g.Edges()
	arr := make([]any, len(es))
	for k, e := range es {
		arr[k] = []any{e.A, e.B}
	}
	o := js.Global().Get("Object").New()
	o.Set("n", g.N)
	o.Set("edges", js.ValueOf(arr))
	return o
}

// Graph reads argument i as a graph (see ToGraph).
func (a *Args) Graph(i int, name string) (*graph.Graph, error) {
	if !a.Has(i) {
		return nil, a.missing(i, name)
	}
	return ToGraph(a.v[i], name)
}

func graphResult(g *graph.Graph, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return GraphValue(g), nil
}

func floatRows(rows [][]float64) *mat.Dense {
	n := len(rows)
	if n == 0 {
		return mat.NewDense(1, 1, nil)
	}
	m := len(rows[0])
	data := make([]float64, 0, n*m)
	for _, r := range rows {
		data = append(data, r...)
	}
	return mat.NewDense(n, m, data)
}

func init() {
	Register("graph", "path", func(a *Args) (any, error) {
		n, err := a.Int(0, "n")
		if err != nil {
			return nil, err
		}
		return graphResult(graph.Path(n))
	})
	Register("graph", "cycle", func(a *Args) (any, error) {
		n, err := a.Int(0, "n")
		if err != nil {
			return nil, err
		}
		return graphResult(graph.Cycle(n))
	})
	Register("graph", "clique", func(a *Args) (any, error) {
		n, err := a.Int(0, "n")
		if err != nil {
			return nil, err
		}
		return graphResult(graph.Clique(n))
	})
	Register("graph", "grid", func(a *Args) (any, error) {
		w, err := a.Int(0, "w")
		if err != nil {
			return nil, err
		}
		h, err := a.Int(1, "h")
		if err != nil {
			return nil, err
		}
		return graphResult(graph.Grid(w, h))
	})
	Register("graph", "distances", func(a *Args) (any, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		if g.N > 5000 {
			return nil, fmt.Errorf("graph: %d vertices, more than the limit of 5000 for an all-pairs distance matrix", g.N)
		}
		return Mat(floatRows(g.Distances())), nil
	})
}

// ToIndices converts a JS array of non-negative integers (e.g. a query table f) into []int.
func ToIndices(v js.Value, name string) ([]int, error) {
	x, err := ToVector(v, name)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(x))
	for i, f := range x {
		if f != math.Trunc(f) || math.IsInf(f, 0) || f < 0 || f > 1<<31 {
			return nil, fmt.Errorf("%s: entry %d is %v, expected a non-negative integer index", name, i, f)
		}
		out[i] = int(f)
	}
	return out, nil
}

func answerValue(a graph.Answer) any {
	switch a {
	case graph.Yes:
		return true
	case graph.No:
		return false
	}
	return nil
}

func intsToFloats(x []int) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

func init() {
	Register("graph", "hypercube", func(a *Args) (any, error) {
		d, err := a.Int(0, "d")
		if err != nil {
			return nil, err
		}
		return graphResult(graph.Hypercube(d))
	})
	Register("graph", "petersen", func(a *Args) (any, error) {
		return GraphValue(graph.Petersen()), nil
	})
	Register("graph", "hamming", func(a *Args) (any, error) {
		u, err := a.Int(0, "individuals")
		if err != nil {
			return nil, err
		}
		v, err := a.Int(1, "values")
		if err != nil {
			return nil, err
		}
		return graphResult(graph.Hamming(u, v))
	})
	Register("graph", "hammingDistanceDistribution", func(a *Args) (any, error) {
		u, err := a.Int(0, "individuals")
		if err != nil {
			return nil, err
		}
		v, err := a.Int(1, "values")
		if err != nil {
			return nil, err
		}
		counts, log2, err := graph.HammingDistanceDistribution(u, v)
		if err != nil {
			return nil, err
		}
		return map[string]any{"counts": Vec(counts), "log2": Vec(log2)}, nil
	})
	Register("graph", "distanceDistribution", func(a *Args) (any, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		v, err := a.Int(1, "vertex")
		if err != nil {
			return nil, err
		}
		nd, err := g.DistanceDistribution(v)
		if err != nil {
			return nil, err
		}
		return Vec(intsToFloats(nd)), nil
	})
	Register("graph", "diameter", func(a *Args) (any, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		return g.Diameter(), nil
	})
	Register("graph", "isDistanceRegular", func(a *Args) (any, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		ok, b, c := graph.IsDistanceRegular(g)
		if !ok {
			return map[string]any{"distanceRegular": false}, nil
		}
		return map[string]any{"distanceRegular": true, "b": Ints(b), "c": Ints(c)}, nil
	})
	Register("graph", "isVTPlus", func(a *Args) (any, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		o, err := a.Options(1, "options")
		if err != nil {
			return nil, err
		}
		ms, err := o.Float("budgetMs", float64(graph.DefaultVTPlusBudget/time.Millisecond))
		if err != nil {
			return nil, err
		}
		if math.IsNaN(ms) || ms <= 0 || ms > 600_000 {
			return nil, fmt.Errorf("budgetMs: must be a positive number of milliseconds up to 600000, got %v", ms)
		}
		r, err := graph.IsVTPlus(g, time.Duration(ms*float64(time.Millisecond)))
		if err != nil {
			return nil, err
		}
		out := map[string]any{"vtPlus": answerValue(r.VTPlus), "singleOrbit": answerValue(r.SingleOrbit), "reason": r.Reason}
		if r.Certificate != nil {
			out["certificate"] = Ints(r.Certificate)
		}
		if r.Automorphisms != nil {
			rows := make([]any, len(r.Automorphisms))
			for i, p := range r.Automorphisms {
				rows[i] = Ints(p)
			}
			out["automorphisms"] = rows
		}
		return out, nil
	})
	Register("graph", "induced", func(a *Args) (any, error) {
		g, err := a.Graph(0, "graph")
		if err != nil {
			return nil, err
		}
		if !a.Has(1) {
			return nil, a.missing(1, "query")
		}
		f, err := ToIndices(a.Value(1), "query")
		if err != nil {
			return nil, err
		}
		return graphResult(graph.Induced(g, f))
	})
}
