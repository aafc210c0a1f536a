package moreapi

import (
	. "github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/argerr"

	"github.com/qif-toolkit/qif/core/graph"
	"gonum.org/v1/gonum/mat"
)

var (
	pN = Param{Name: "n", Kind: KindInteger, Doc: "number of vertices"}
	pU = Param{Name: "individuals", Kind: KindInteger, Doc: "number of individuals u"}
	pV = Param{Name: "values", Kind: KindInteger, Doc: "number of values v of each record"}
)

var graphAPI = []Func{
	{NS: "graph", Name: "path", Params: []*Param{&pN}, Result: GraphOut, Doc: "Path 0 − 1 − … − (n−1).",
		Call: func(a *Args) (any, error) { return result(graph.Path(a.Int("n"))) }},
	{NS: "graph", Name: "cycle", Params: []*Param{&pN}, Result: GraphOut, Doc: "Cycle on n vertices.",
		Call: func(a *Args) (any, error) { return result(graph.Cycle(a.Int("n"))) }},
	{NS: "graph", Name: "clique", Params: []*Param{&pN}, Result: GraphOut, Doc: "Complete graph K_n.",
		Call: func(a *Args) (any, error) { return result(graph.Clique(a.Int("n"))) }},
	{NS: "graph", Name: "grid", Params: []*Param{{Name: "w", Kind: KindInteger, Doc: "width"}, {Name: "h", Kind: KindInteger, Doc: "height"}}, Result: GraphOut,
		Doc:  "w×h grid graph; vertex (x, y) is numbered y·w + x.",
		Call: func(a *Args) (any, error) { return result(graph.Grid(a.Int("w"), a.Int("h"))) }},
	{NS: "graph", Name: "hypercube", Params: []*Param{{Name: "d", Kind: KindInteger, Doc: "dimension"}}, Result: GraphOut,
		Doc:  "Hypercube Q_d on 2^d vertices (Hamming(d, 2)).",
		Call: func(a *Args) (any, error) { return result(graph.Hypercube(a.Int("d"))) }},
	{NS: "graph", Name: "petersen", Result: GraphOut, Doc: "The Petersen graph (10 vertices).",
		Call: func(*Args) (any, error) { return graph.Petersen(), nil }},
	{NS: "graph", Name: "hamming", Params: []*Param{&pU, &pV}, Result: GraphOut, Source: icalp + " §3",
		Doc:  "Hamming graph of databases: u individuals with v values each, adjacent when one record differs (explicit; refuses huge sizes).",
		Call: func(a *Args) (any, error) { return result(graph.Hamming(a.Int("individuals"), a.Int("values"))) }},
	{NS: "graph", Name: "hammingDistanceDistribution", Params: []*Param{&pU, &pV}, Source: icalp + " §3", TeX: `n_d = \tbinom{u}{d}(v-1)^d`,
		Result: Type{Fields: []Field{{Name: "counts", Type: VectorOut}, {Name: "log2", Type: VectorOut}}},
		Doc:    "Number of databases at each Hamming distance d = 0..u from one database (analytic): counts (may be Infinity) and their log₂.",
		Call: func(a *Args) (any, error) {
			counts, log2, err := graph.HammingDistanceDistribution(a.Int("individuals"), a.Int("values"))
			return Obj{"counts": counts, "log2": log2}, err
		}},
	{NS: "graph", Name: "induced", Params: []*Param{&pGraph, {Name: "f", Label: "query", Kind: KindIndices, Doc: "f[v]: the answer index of input vertex v"}},
		Result: GraphOut, Doc: "Graph induced on the answers of a query f (f[v] = answer index of input vertex v).",
		Call: func(a *Args) (any, error) { return result(graph.Induced(a.Graph("graph"), a.Ints("f"))) }},
	{NS: "graph", Name: "distances", Params: []*Param{&pGraph}, Result: MatrixOut,
		Doc: "All-pairs shortest-path distances (Infinity when disconnected).",
		Call: func(a *Args) (any, error) {
			g := a.Graph("graph")
			if g.N > 5000 {
				return nil, argerr.New("graph", "%d vertices, more than the limit of 5000 for an all-pairs distance matrix", g.N)
			}
			m := mat.NewDense(g.N, g.N, nil)
			for i, r := range g.Distances() {
				m.SetRow(i, r)
			}
			return m, nil
		}},
	{NS: "graph", Name: "distanceDistribution", Params: []*Param{&pGraph, {Name: "vertex", Kind: KindInteger, Doc: "the vertex"}},
		Result: VectorOut, Source: icalp + " §3", Doc: "n_d: number of vertices at distance d = 0, 1, … from the vertex.",
		Call: func(a *Args) (any, error) {
			nd, err := a.Graph("graph").DistanceDistribution(a.Int("vertex"))
			out := make([]float64, len(nd))
			for i, v := range nd {
				out[i] = float64(v)
			}
			return out, err
		}},
	{NS: "graph", Name: "diameter", Params: []*Param{&pGraph}, Result: Number,
		Doc:  "Largest distance between two vertices (Infinity when disconnected).",
		Call: func(a *Args) (any, error) { return a.Graph("graph").Diameter(), nil }},
	{NS: "graph", Name: "isDistanceRegular", Params: []*Param{&pGraph}, Source: icalp + " §3",
		Result: Type{Fields: []Field{{Name: "distanceRegular", Type: Boolean}, {Name: "b", Type: IntList, Optional: true}, {Name: "c", Type: IntList, Optional: true}}},
		Doc:    "Whether the graph is distance-regular, with its intersection array b, c when it is.",
		Call: func(a *Args) (any, error) {
			ok, b, c := graph.IsDistanceRegular(a.Graph("graph"))
			if !ok {
				return Obj{"distanceRegular": false}, nil
			}
			return Obj{"distanceRegular": true, "b": b, "c": c}, nil
		}},
	{NS: "graph", Name: "isVTPlus", Params: []*Param{&pGraph, {Name: "options", Kind: KindOptions, Optional: true, Fields: []*Param{&pBudget}}},
		Source: icalp + " Def. 3", Doc: "Whether the graph is VT+, searching automorphisms for at most budgetMs milliseconds.",
		Result: Type{Name: "VTPlusResult", Doc: "Result of graph.isVTPlus.", Fields: []Field{
			{Name: "vtPlus", Type: Type{TS: "boolean | null"}, Doc: "Whether the graph is VT+ (null: the search budget was exhausted)."},
			{Name: "singleOrbit", Type: Type{TS: "boolean | null"}, Doc: "Whether some automorphism is a single n-cycle (null: unknown)."},
			{Name: "reason", Type: String, Doc: "How the answer was reached, in words."},
			{Name: "certificate", Type: IntList, Optional: true, Doc: "When singleOrbit: an automorphism σ (certificate[v] = σ(v)) that is one n-cycle."},
			{Name: "automorphisms", Type: Type{TS: "number[][]"}, Optional: true, Doc: "When VT+ without a single orbit: n automorphisms σ_i with σ_i(0) = i (row i is σ_i)."}}},
		Call: func(a *Args) (any, error) {
			budget, err := milliseconds(a, "budgetMs")
			if err != nil {
				return nil, err
			}
			r, err := graph.IsVTPlus(a.Graph("graph"), budget)
			if err != nil {
				return nil, err
			}
			out := Obj{"vtPlus": answer(r.VTPlus), "singleOrbit": answer(r.SingleOrbit), "reason": r.Reason}
			if r.Certificate != nil {
				out["certificate"] = r.Certificate
			}
			if r.Automorphisms != nil {
				out["automorphisms"] = r.Automorphisms
			}
			return out, nil
		}},
}
