//go:build js && wasm

package bindings

import (
	"fmt"
	"math"
	"strings"

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
