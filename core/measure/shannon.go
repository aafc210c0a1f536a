package measure

import (
	"math"

	"github.com/qif-toolkit/qif/core/channel"
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

// entropy is H(p) in bits for an already validated p.
func entropy(p []float64) float64 {
	s := 0.0
	for _, v := range p {
		if v > 0 {
			s -= v * math.Log(v)
		}
	}
	return s * math.Log2E
}

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
// [0, H(X)] where rounding could push it out by a few ulps.
func shannonParts(prior []float64, c matrix) (hx, hxy float64) {
	py := make([]float64, c.cols)
	rows := 0.0 // Σ_x π_x Σ_y C log C (nats), that is −Σ_x π_x H(C_x)
	for x, px := range prior {
		if px == 0 {
			continue
		}
		row := c.row(x)
		py := py[:len(row)]
		s := 0.0
		for y, v := range row {
			if v > 0 {
				s += v * math.Log(v)
				py[y] += px * v
			}
		}
		rows += px * s
	}
	hx = entropy(prior)
	hy := entropy(py)
	hxy = hx - rows*math.Log2E - hy
	if hxy < 0 {
		hxy = 0
	}
	if hxy > hx {
		hxy = hx
	}
	return hx, hxy
}
