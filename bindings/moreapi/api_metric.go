package moreapi

import (
	. "github.com/qif-toolkit/qif/bindings/table"
	"github.com/qif-toolkit/qif/core/metric"
	"gonum.org/v1/gonum/mat"
)

// libqif is the source of the definitions that follow the libqif library: the toolkit's own
// statement of them, which the reference and the page link to.
const libqif = "Mathematics §8 (libqif)"

var (
	pPoints = Param{Name: "points", Kind: KindMatrix, Doc: "the points: one array of coordinates per point, all of the same dimension"}
	pGround = Param{Name: "D", Kind: KindMatrix, Doc: "ground metric: n×n distances (≥ 0, Infinity allowed, zero diagonal, symmetric)"}
	pWidth  = Param{Name: "width", Kind: KindInteger, Check: CheckPositive, Doc: "number of columns of the grid"}
	pHeight = Param{Name: "height", Kind: KindInteger, Check: CheckPositive, Doc: "number of rows of the grid"}
	pCell   = Param{Name: "cellSize", Kind: KindNumber, Optional: true, Check: CheckPositive, Default: 1.0, Doc: "side of a cell, in the units of the distances"}
	pDistA  = Param{Name: "P", Kind: KindVector, Doc: "a distribution"}
	pDistB  = Param{Name: "Q", Kind: KindVector, Doc: "a distribution on the same points"}
)

const gridCell = `(i \bmod w,\ \lfloor i/w \rfloor)\,s`

var metricAPI = []Func{
	{NS: "metric", Name: "euclidean", Params: []*Param{&pPoints}, Result: MatrixOut, Source: libqif,
		Doc: "Euclidean distances between points, as an n×n distance matrix.", TeX: `D(i,j) = \lVert p_i - p_j \rVert_2`,
		Call: func(a *Args) (any, error) { return result(metric.Euclidean(pointRows(a.Mat("points")))) }},
	{NS: "metric", Name: "manhattan", Params: []*Param{&pPoints}, Result: MatrixOut, Source: libqif,
		Doc: "Manhattan (L1) distances between points, as an n×n distance matrix.", TeX: `D(i,j) = \sum_k |p_{i,k} - p_{j,k}|`,
		Call: func(a *Args) (any, error) { return result(metric.Manhattan(pointRows(a.Mat("points")))) }},
	{NS: "metric", Name: "gridEuclidean", Params: []*Param{&pWidth, &pHeight, &pCell}, Result: MatrixOut, Source: libqif,
		Doc: "Euclidean distances between the cells of a width×height grid: cell i (row-major) is the point (i mod width, ⌊i/width⌋)·cellSize.",
		TeX: `D(i,j) = \lVert c_i - c_j \rVert_2,\ c_i = ` + gridCell,
		Call: func(a *Args) (any, error) {
			return result(metric.GridEuclidean(a.Int("width"), a.Int("height"), a.Float("cellSize")))
		}},
	{NS: "metric", Name: "gridManhattan", Params: []*Param{&pWidth, &pHeight, &pCell}, Result: MatrixOut, Source: libqif,
		Doc: "Manhattan distances between the cells of a width×height grid: cell i (row-major) is the point (i mod width, ⌊i/width⌋)·cellSize.",
		TeX: `D(i,j) = \lVert c_i - c_j \rVert_1,\ c_i = ` + gridCell,
		Call: func(a *Args) (any, error) {
			return result(metric.GridManhattan(a.Int("width"), a.Int("height"), a.Float("cellSize")))
		}},
	{NS: "metric", Name: "discrete", Source: libqif, Result: MatrixOut,
		Params: []*Param{{Name: "n", Kind: KindInteger, Check: CheckPositive, Doc: "number of points"},
			{Name: "scale", Kind: KindNumber, Optional: true, Default: 1.0, Doc: "the distance s between distinct points: ≥ 0, Infinity allowed"}},
		Doc: "Discrete metric scaled by s: s between distinct points, 0 on the diagonal (also for s = Infinity).", TeX: `D(x,x') = s\,[x \ne x']`,
		Call: func(a *Args) (any, error) { return result(metric.Discrete(a.Int("n"), a.Float("scale"))) }},
	{NS: "metric", Name: "threshold", Source: libqif, Result: MatrixOut,
		Params: []*Param{&pGround, {Name: "t", Kind: KindNumber, Doc: "the threshold t > 0 (Infinity allowed)"}},
		Doc:    "The 0/1 matrix of the distances of D at least t: 0 below t, 1 from t on (the diagonal stays 0).",
		TeX:    `T(x,x') = [\,D(x,x') \ge t\,]`,
		Call:   func(a *Args) (any, error) { return result(metric.Threshold(a.Mat("D"), a.Float("t"))) }},

	{NS: "metric", Name: "totalVariation", Params: []*Param{&pDistA, &pDistB}, Result: Number, Source: libqif,
		Doc: "Total variation distance ½Σ|P − Q|, probability.", TeX: `\mathrm{tv}(P,Q) = \tfrac12 \sum_i |P_i - Q_i|`,
		Call: func(a *Args) (any, error) { return metric.TotalVariation(a.Vec("P"), a.Vec("Q")) }},
	{NS: "metric", Name: "multiplicativeTotalVariation", Params: []*Param{&pDistA, &pDistB}, Result: Number, Source: libqif,
		Doc:  "Multiplicative total variation max_i |ln P_i − ln Q_i|, nats (entries 0 in both ignored, 0 in one only gives Infinity).",
		TeX:  `\mathrm{tv}^{\times}(P,Q) = \max_{i} |\ln P_i - \ln Q_i|`,
		Call: func(a *Args) (any, error) { return metric.MultiplicativeTotalVariation(a.Vec("P"), a.Vec("Q")) }},
	{NS: "metric", Name: "convexSeparation", Params: []*Param{&pDistA, &pDistB}, Result: Number, Source: libqif,
		Doc:  "Convex separation max(q(P,Q), q(Q,P)) with q(a,b) = max over a_i > 0 of 1 − b_i/a_i: the largest relative loss of mass.",
		TeX:  `\max\big(q(P,Q),\, q(Q,P)\big),\ q(a,b) = \max_{i:\,a_i>0} \big(1 - b_i/a_i\big)`,
		Call: func(a *Args) (any, error) { return metric.ConvexSeparation(a.Vec("P"), a.Vec("Q")) }},
	{NS: "metric", Name: "kantorovich", Params: []*Param{&pDistA, &pDistB, &pGround}, Result: Number, Source: libqif,
		Doc:  "Kantorovich (earth mover's) distance for the ground metric D, in D's units: the cheapest coupling of P and Q (Infinity when every coupling uses an infinite distance).",
		TeX:  `K_D(P,Q) = \min_{x \ge 0,\ x\mathbf 1 = P,\ \mathbf 1^{\top} x = Q^{\top}} \sum_{ij} x_{ij}\,D_{ij}`,
		Call: func(a *Args) (any, error) { return metric.Kantorovich(a.Vec("P"), a.Vec("Q"), a.Mat("D")) }},
	{NS: "metric", Name: "multiplicativeKantorovich", Params: []*Param{&pDistA, &pDistB, &pGround}, Result: Number, Source: libqif,
		Doc: "Multiplicative Kantorovich distance for the ground metric D, nats: the larger of two one-sided values ln z* of a linear program (Infinity when infeasible).",
		TeX: `\max\big(k(P,Q),\,k(Q,P)\big),\ k(a,b) = \ln \min\{z : \textstyle\sum_j x_{ij} - r_i = a_i,\ \sum_i x_{ij} e^{D_{ij}} - r_j \le b_j z,\ x, r \ge 0\}`,
		Call: func(a *Args) (any, error) {
			return metric.MultiplicativeKantorovich(a.Vec("P"), a.Vec("Q"), a.Mat("D"))
		}},
}

// pointRows reads a points matrix as one coordinate slice per point (views, not copies).
func pointRows(m *mat.Dense) [][]float64 {
	if m == nil || m.IsEmpty() {
		return nil
	}
	r, _ := m.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = m.RawRowView(i)
	}
	return out
}
