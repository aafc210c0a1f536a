package measure

import (
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/internal/fsum"
	"gonum.org/v1/gonum/mat"
)

// ShannonEntropy returns H(p) = −Σ_x p_x log₂ p_x in bits (terms with p_x = 0 count 0).
// p must be a distribution (entries ≥ 0 summing to 1 within channel.Tolerance).
func ShannonEntropy(p []float64) (float64, error) {
	if err := channel.ValidateDistribution("p", p); err != nil {
		return 0, err
	}
	return entropy(p), nil
}

// entropy is H(p) in bits for an already validated p, exact when p's entries are powers of two
// (log₂ of them is exact, and the sum compensated: core/internal/fsum).
func entropy(p []float64) float64 { return fsum.Entropy(p) }

// ConditionalShannonEntropy returns H(X|Y) = Σ_y p(y) H(δʸ) in bits, the expected Shannon
// entropy of the posterior, for the given prior on the rows of the channel C.
func ConditionalShannonEntropy(prior []float64, C mat.Matrix) (float64, error) {
	c, err := priorAndChannel(prior, C)
	if err != nil {
		return 0, err
	}
	_, hxy := shannonParts(prior, c)
	return hxy, nil
}

// MutualInformation returns I(X;Y) = H(X) − H(X|Y) in bits for the given prior and channel C.
// It lies in [0, H(X)].
func MutualInformation(prior []float64, C mat.Matrix) (float64, error) {
	c, err := priorAndChannel(prior, C)
	if err != nil {
		return 0, err
	}
	hx, hxy := shannonParts(prior, c)
	return hx - hxy, nil
}

// shannonParts returns H(X) and H(X|Y). It uses H(X|Y) = H(X) + Σ_x π_x H(C_x) − H(Y), which
// needs one logarithm per positive channel entry and no division, and clamps the result into
// [0, H(X)] where rounding could push it out by a few ulps. Every sum is compensated and in
// base 2, so that what is exact in binary stays exact (the identity channel on 8 uniform
// secrets has I = 3 and H(X|Y) = 0).
func shannonParts(prior []float64, c matrix) (hx, hxy float64) {
	py := make([]float64, c.cols)
	var rows fsum.Sum // Σ_x π_x Σ_y C log₂ C, that is −Σ_x π_x H(C_x)
	for x, px := range prior {
		if px == 0 {
			continue
		}
		row := c.row(x)
		py := py[:len(row)]
		var s fsum.Sum
		for y, v := range row {
			if v > 0 {
				s.Add(fsum.XLog2X(v))
				py[y] += px * v
			}
		}
		rows.Add(px * s.Value())
	}
	hx = entropy(prior)
	hy := entropy(py)
	var parts fsum.Sum
	parts.Add(hx)
	parts.Add(-rows.Value())
	parts.Add(-hy)
	hxy = parts.Value()
	if hxy < 0 {
		hxy = 0
	}
	if hxy > hx {
		hxy = hx
	}
	return hx, hxy
}
