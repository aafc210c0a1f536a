package mechanism

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/graph"
)

// SpannerInfo describes the spanner an optimal mechanism was computed on (LPSpec.Spanner).
type SpannerInfo struct {
	// Dilation is the largest ratio, over the pairs of answers at finite positive distance, of
	// their distance in the spanner to their distance: at most the δ asked for.
	Dilation float64
	// Pairs is the number of edges of the spanner, the constrained pairs of the program.
	Pairs int
}

// newSpecProgram states the program of spec: with a spanner, on its edges with ε/δ, otherwise on
// the pairs of constrainedPairs.
func newSpecProgram(spec *LPSpec, n int) (*mechProgram, *SpannerInfo, error) {
	if spec.Spanner == 0 {
		return newMechProgram(spec, n), nil, nil
	}
	d := make([][]float64, n)
	for a := range d {
		d[a] = spec.Metric.RawRowView(a)
	}
	edges, dilation := graph.GreedySpanner(d, spec.Spanner)
	pairs := make([]lpPair, len(edges))
	for i, e := range edges {
		pairs[i] = lpPair{e[0], e[1], spec.Epsilon / spec.Spanner * d[e[0]][e[1]]}
	}
	return newMechProgramPairs(spec, n, pairs), &SpannerInfo{Dilation: dilation, Pairs: len(edges)}, nil
}

// checkSpanner validates LPSpec.Spanner.
func checkSpanner(spec *LPSpec) error {
	switch {
	case spec.Spanner == 0:
		return nil
	case spec.Metric == nil:
		return argerr.New("spanner", "applies to a metric (the graph's edges are the constraints already)")
	case math.IsNaN(spec.Spanner) || math.IsInf(spec.Spanner, 0) || spec.Spanner < 1:
		return argerr.New("spanner", "the dilation δ must be a number ≥ 1, got %v", spec.Spanner)
	}
	return nil
}
