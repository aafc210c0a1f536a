package mechanism

import (
	"fmt"
	"math"

	"github.com/qif-toolkit/qif/core/privacy"
	"gonum.org/v1/gonum/mat"
)

const (
	// repairSlack is the relative margin of the privacy closure: each constrained ratio is made
	// to hold with e^{−η} to spare, η = repairSlack·max(1, |ln H|, εd) nats (see logClosure) —
	// a few units in the last place of the logarithms the toolkit's ε functions compare, so
	// that their rounding cannot push a ratio over e^{εd}.
	repairSlack = 1e-15
	// mergeExponent: pairs with ε·d below it get equal rows in the repair. The toolkit's checks
	// compare ln a − ln b with ε·d, and for ε·d near 10^−9 the rounding of those logarithms
	// (10^−16 of them) is a relative 10^−7 of the allowance: holding such a ratio with a margin
	// costs the mix a weight of about 10^−16/(ε·d), while making the two rows equal (each entry
	// raised by at most e^{εd}) costs about ε·d. Below 10^−7 the second is the cheaper.
	mergeExponent = 1e-7
	// repairFloor is the smallest weight of the uniform mechanism in the mix: every entry of a
	// repaired mechanism is at least repairFloor/|W|, a normal floating-point number.
	repairFloor = 1e-300
)

// repairPrivacy turns h, the solver's mechanism (n×w; rows summing to 1 and privacy rows
// holding to within the solver's tolerances, or exactly a closed form), into a channel that
// satisfies every privacy constraint of spec exactly as privacy.Epsilon (graphs) or
// privacy.DPrivacyEpsilon (metrics) check them: the ε they report is at most spec.Epsilon.
//
// A simplex solution holds its constraints only to within a tolerance: an entry the
// constraints want at 10^−17 may come back as 0 next to a positive neighbour (infinite ε for
// the toolkit), or as 5.55·10^−17 next to an exact 0. Clipping and renormalizing rows does not
// fix that: it changes the ratios between rows. Instead:
//
//  1. Each column is raised to its privacy closure with a margin (logClosure): H[t][z] ≥
//     e^{−εd+η}·H[x][z] for every constrained pair, entries only ever going up. Over a
//     feasible column this moves entries by a factor e^{η} at most.
//  2. All rows are divided by the largest row sum S, which keeps every ratio.
//  3. The missing mass of each row, u_y = 1 − s_y/S (at most the spread of the row sums, about
//     the margin and the solver's tolerance), is filled by mixing with the uniform mechanism:
//     H' = (1−λ)·H/S + r_y/|W| with r_y = λ + (1−λ)·u_y, λ the least weight (mixWeight) for
//     which the uniform parts hold every constrained ratio r_a ≤ e^{εd}·r_b with a margin; both
//     parts hold every ratio, so their sum does. Rows sum to 1.
//
// Pairs with ε·d below mergeExponent (10^−7) are instead given equal rows by the closure (cost
// 0 both ways), which moves their entries by at most a factor e^{εd}.
//
// The utility changes by at most about max u + λ·max|g|, λ being at most (u_a − u_b)/(e^{εd} − 1)
// over the pairs: about 10^−12 on the random audits. Nearby answers miss nearly the same mass,
// so small ε·d rarely costs more; the worst case, pairs at ε·d near 10^−7 whose rows were raised
// unequally, is about 10^−7. Because the closure works with logarithms, pairs whose e^{−εd} underflows
// (εd > 745) are handled too: their entries are at least repairFloor/|W| (the mix), which
// e^{εd} > 10^323 times cannot reach a probability. When a check still fails (it has not been
// seen) the margin is increased and the repair repeated; after five tries it is an error.
func repairPrivacy(spec *LPSpec, p *mechProgram, h []float64) (*mat.Dense, error) {
	n, w := p.n, p.w
	edMin := math.Inf(1)
	for _, q := range p.pairs {
		if q.ed > 0 {
			edMin = math.Min(edMin, q.ed)
		}
	}
	v := make([]float64, n)
	x := make([]float64, n*w)
	rel := repairSlack
	var last float64
	for try := 0; try < 5; try, rel = try+1, rel*16 {
		for z := 0; z < w; z++ {
			for y := 0; y < n; y++ {
				v[y] = math.Log(math.Max(h[y*w+z], 0))
			}
			logClosure(v, p.adj, rel)
			for y := 0; y < n; y++ {
				x[y*w+z] = math.Exp(v[y])
			}
		}
		sums := make([]float64, n)
		big := 0.0
		for y := 0; y < n; y++ {
			for _, e := range x[y*w : (y+1)*w] {
				sums[y] += e
			}
			big = math.Max(big, sums[y])
		}
		if !(big > 0) || math.IsInf(big, 1) {
			return nil, fmt.Errorf("optimal mechanism: the solver returned no usable mechanism (row sums up to %g)", big)
		}
		for y := range sums {
			sums[y] = 1 - sums[y]/big // u_y, the missing mass of row y after the division
		}
		lambda := mixWeight(p.pairs, sums, rel)
		out := mat.NewDense(n, w, nil)
		od := out.RawMatrix().Data
		for y := 0; y < n; y++ {
			r := lambda + (1-lambda)*sums[y]
			for z := 0; z < w; z++ {
				od[y*w+z] = (1-lambda)*(x[y*w+z]/big) + r/float64(w)
			}
		}
		ok, eps, err := privateAsChecked(spec, out)
		if err != nil {
			return nil, err
		}
		if ok {
			return out, nil
		}
		last = eps
	}
	return nil, fmt.Errorf("optimal mechanism: the repaired mechanism is %.17g-private, above ε = %.17g", last, spec.Epsilon)
}

// mixWeight is the least weight λ ≥ repairFloor of the uniform mechanism for which the uniform
// parts r_y = λ + (1−λ)·u_y of the repaired rows (u_y the mass row y misses) hold every
// constrained ratio with a margin: r_a ≤ e^{εd−κ}·r_b both ways, κ = min(rel·max(1, εd), εd/2).
// For a pair with F = e^{εd−κ} that is λ ≥ (u_a − F·u_b)/(F − 1 + u_a − F·u_b) when the
// numerator is positive. Rows whose missing masses are close — as those of nearby answers are,
// their entries being within e^{εd} of each other — need little, even where εd is tiny.
func mixWeight(pairs []lpPair, u []float64, rel float64) float64 {
	lambda := repairFloor
	for _, q := range pairs {
		if q.ed < mergeExponent {
			continue // equal rows, equal u
		}
		f := math.Exp(q.ed - math.Min(rel*math.Max(1, q.ed), q.ed/2))
		for _, ab := range [2][2]int{{q.a, q.b}, {q.b, q.a}} {
			if num := u[ab[0]] - f*u[ab[1]]; num > 0 {
				lambda = math.Max(lambda, num/(f-1+num))
			}
		}
	}
	return math.Min(lambda, 1)
}

// privateAsChecked reports whether H is ε-DP on spec's graph, or ε·d-private for its metric,
// by the toolkit's own functions, with no tolerance, and the ε they report.
func privateAsChecked(spec *LPSpec, H *mat.Dense) (bool, float64, error) {
	var eps float64
	var err error
	if spec.Graph != nil {
		eps, _, err = privacy.Epsilon(H, spec.Graph)
	} else {
		eps, _, err = privacy.DPrivacyEpsilon(H, spec.Metric)
	}
	return eps <= spec.Epsilon, eps, err
}
