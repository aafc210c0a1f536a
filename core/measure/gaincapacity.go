package measure

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// GainClass is a class of gain functions over which AdditiveGCapacity takes its supremum.
type GainClass int

const (
	// OneSpanningVulnerability: the 1-spanning vulnerabilities (the larger class, the default).
	// The additive capacity for a prior π is 1 − Σ_y min_{x ∈ supp π} C[x][y]: it depends on π
	// only through its support.
	OneSpanningVulnerability GainClass = iota
	// OneSpanningGain: the g-vulnerabilities of 1-spanning gain functions (gains within an
	// interval of width 1). The additive capacity for π is Σ_y p(y)·tv(π, δʸ), the Kantorovich
	// distance, for the total variation between inners, from the point hyper [π] to [π▷C].
	OneSpanningGain
)

// String returns the name used by the JavaScript API: "oneSpanningVulnerability" or
// "oneSpanningGain".
func (g GainClass) String() string {
	switch g {
	case OneSpanningVulnerability:
		return "oneSpanningVulnerability"
	case OneSpanningGain:
		return "oneSpanningGain"
	}
	return fmt.Sprintf("GainClass(%d)", int(g))
}

// ParseGainClass is the inverse of GainClass.String.
func ParseGainClass(s string) (GainClass, error) {
	for _, g := range []GainClass{OneSpanningVulnerability, OneSpanningGain} {
		if s == g.String() {
			return g, nil
		}
	}
	return 0, fmt.Errorf("gainClass: unknown class %q (expected \"oneSpanningVulnerability\" or \"oneSpanningGain\")", s)
}

// AdditiveGCapacity returns the additive capacity of C for the fixed prior π over a class of
// gain functions (libqif's definitions): the largest additive leakage V[π▷C] − V(π) of a
// member of the class,
//
//   - OneSpanningVulnerability: 1 − Σ_y min_{x ∈ supp π} C[x][y];
//   - OneSpanningGain: Σ_y p(y)·tv(π, δʸ) = ½ Σ_x π_x Σ_y |C[x][y] − p(y)|.
//
// The second is computed in its right-hand form, which needs no posterior and no division by
// p(y). Both are in [0, 1], the second never above the first.
func AdditiveGCapacity(prior []float64, C mat.Matrix, class GainClass) (float64, error) {
	c, err := priorAndChannel(prior, C)
	if err != nil {
		return 0, err
	}
	switch class {
	case OneSpanningVulnerability:
		mins := make([]float64, c.cols)
		for y := range mins {
			mins[y] = math.Inf(1)
		}
		for x, px := range prior {
			if px == 0 {
				continue
			}
			for y, v := range c.row(x) {
				mins[y] = math.Min(mins[y], v)
			}
		}
		return math.Max(0, 1-sum(mins)), nil
	case OneSpanningGain:
		py := outputs(prior, c)
		s := 0.0
		for x, px := range prior {
			if px == 0 {
				continue
			}
			d := 0.0
			for y, v := range c.row(x) {
				d += math.Abs(v - py[y])
			}
			s += px * d
		}
		return s / 2, nil
	}
	return 0, fmt.Errorf("gainClass: unknown class %v", class)
}

// MultiplicativeBayesCapacity returns Σ_y max_x C[x][y], the largest multiplicative Bayes
// leakage V[π▷C]/V(π) over all priors, reached at the uniform prior; its log₂ is MinCapacity.
func MultiplicativeBayesCapacity(C mat.Matrix) (float64, error) {
	c, err := channelView("channel", C)
	if err != nil {
		return 0, err
	}
	mx := make([]float64, c.cols)
	for x := 0; x < c.rows; x++ {
		row := c.row(x)
		mx := mx[:len(row)]
		for y, v := range row {
			if v > mx[y] {
				mx[y] = v
			}
		}
	}
	// Σ_y max_x C[x][y] ≥ Σ_y C[0][y] = 1; below 1 is rounding only.
	return math.Max(1, sum(mx)), nil
}

// MultiplicativeBayesRiskCapacity returns sup_π R(π)/R[π▷C] (Bayes risks, over the priors with
// R(π) > 0) and a prior attaining it: 1/(1 − diam/2), where diam is the largest L1 distance
// between two rows of C, attained by the prior ½, ½ on those two rows (libqif's result); +Inf
// when two rows have disjoint supports (diam = 2). With one row the value is 1.
//
// 1 − diam/2 is computed as the overlap Σ_y min(C[x][y], C[x'][y]) of the two rows — equal for
// rows that sum to 1 — so that nearly disjoint rows give a large finite value instead of losing
// every digit to 1 − 0.999….
func MultiplicativeBayesRiskCapacity(C mat.Matrix) (float64, []float64, error) {
	c, err := channelView("channel", C)
	if err != nil {
		return 0, nil, err
	}
	prior := make([]float64, c.rows)
	if c.rows == 1 {
		prior[0] = 1
		return 1, prior, nil
	}
	best, bx, bx2 := math.Inf(1), 0, 1
	for x := 0; x < c.rows; x++ {
		rx := c.row(x)
		for x2 := x + 1; x2 < c.rows; x2++ {
			o := 0.0
			for y, v := range c.row(x2) {
				o += math.Min(v, rx[y])
			}
			if o < best {
				best, bx, bx2 = o, x, x2
			}
		}
	}
	prior[bx], prior[bx2] = 0.5, 0.5
	if best <= 0 {
		return math.Inf(1), prior, nil
	}
	// The overlap of two rows is at most 1 (up to rounding), and the ratio at least 1.
	return math.Max(1, 1/best), prior, nil
}
