package measure

import (
	"math"

	"github.com/qif-toolkit/qif/core/argerr"
	"github.com/qif-toolkit/qif/core/channel"
	"github.com/qif-toolkit/qif/core/internal/fsum"
	"gonum.org/v1/gonum/mat"
)

// RenyiEntropy returns the Rényi entropy of order α of p in bits,
// H_α(p) = 1/(1−α) · log₂ Σ_x p_x^α, with its limits: α = 0 gives the Hartley entropy
// log₂ |supp p|, α = 1 the Shannon entropy and α = +Inf the min-entropy. α must be ≥ 0. p is
// taken as the distribution p/Σp (it sums to 1 within channel.Tolerance).
//
// Near α = 1 the definition is 0/0: with β = α − 1, log Σ p^α → 0 while 1/(1−α) → ∞, and
// evaluated as written it returned 1.8889 bits for (1/2, 1/4, 1/8, 1/8) at α = 1 − 10^−15 (the
// true value is 1.75 + 2.4·10^−16) and 9.6 for the uniform distribution on 1000 values at
// α = 1 + 10^−15 (log₂ 1000 = 9.9658 at every α). The sum is therefore written as
// Σp^α / Σp = 1 + r with r = Σ_x p_x·expm1(β ln p_x) / Σp: every term has the sign of −β, so r
// is computed without cancellation, and ln Σ p^α = log1p(r) to a few units in the last place,
// which stay a few units in the last place after the division by β. That is the cumulant
// generating function ψ(β) = ln E_p[e^{β ln p}] of −ln p, and H_α = −ψ(β)/β = H − (β/2)·Var(ln p)
// + O(β²), continuous through α = 1. When Σp^α is far from Σp (|r| > 1/2: α is then far from
// 1, since the entropy is at most log n) the largest entry is factored out instead,
// α ln pmax + ln Σ (p/pmax)^α, so that p^α neither underflows for large α nor loses its small
// terms in 1 + r.
func RenyiEntropy(p []float64, alpha float64) (float64, error) {
	if math.IsNaN(alpha) || alpha < 0 {
		return 0, argerr.New("alpha", "must be ≥ 0 (0, 1 and +Inf included), got %v", alpha)
	}
	if err := channel.ValidateDistribution("p", p); err != nil {
		return 0, err
	}
	switch {
	case alpha == 0:
		support := 0
		for _, v := range p {
			if v > 0 {
				support++
			}
		}
		return math.Log2(float64(support)), nil
	case alpha == 1:
		return entropy(p), nil
	case math.IsInf(alpha, 1):
		return -math.Log2(maxOf(p)), nil
	}
	beta := alpha - 1
	sum, r := 0.0, 0.0
	for _, v := range p {
		if v > 0 {
			sum += v
			if e := beta * math.Log(v); e < 700 {
				r += v * math.Expm1(e)
			} else {
				// β < 0 and v tiny: v·e^{β ln v} = v^α ≤ 1 would overflow as a product.
				r += math.Exp(alpha*math.Log(v)) - v
			}
		}
	}
	r /= sum
	var h float64 // nats
	if math.Abs(r) <= 0.5 {
		h = -math.Log1p(r)/beta + math.Log(sum)
	} else {
		pmax := maxOf(p)
		s := 0.0
		for _, v := range p {
			if v > 0 {
				s += math.Pow(v/pmax, alpha)
			}
		}
		h = (alpha*(math.Log(pmax)-math.Log(sum)) + math.Log(s)) / (1 - alpha)
	}
	if h < 0 {
		h = 0 // H_α ≥ 0; rounding only
	}
	return h * math.Log2E, nil
}

// MinEntropy returns H_∞(p) = −log₂ max_x p_x in bits.
func MinEntropy(p []float64) (float64, error) {
	if err := channel.ValidateDistribution("p", p); err != nil {
		return 0, err
	}
	return -math.Log2(maxOf(p)), nil
}

// ConditionalMinEntropy returns Smith's conditional min-entropy
// H_∞(X|Y) = −log₂ Σ_y max_x J[x][y] in bits, that is −log₂ of the posterior Bayes vulnerability.
func ConditionalMinEntropy(prior []float64, C mat.Matrix) (float64, error) {
	v, err := PosteriorBayesVulnerability(prior, C)
	if err != nil {
		return 0, err
	}
	return -math.Log2(v), nil
}

// ConditionalMinEntropyCachin returns Cachin's conditional min-entropy
// H_∞ᶜ(X|Y) = −Σ_y p(y) log₂ max_x δʸ[x] in bits, the expected min-entropy of the posterior.
// By Jensen's inequality it is at least Smith's ConditionalMinEntropy.
func ConditionalMinEntropyCachin(prior []float64, C mat.Matrix) (float64, error) {
	c, err := priorAndChannel(prior, C)
	if err != nil {
		return 0, err
	}
	py := make([]float64, c.cols)
	mx := make([]float64, c.cols)
	for x, px := range prior {
		if px == 0 {
			continue
		}
		row := c.row(x)
		py, mx := py[:len(row)], mx[:len(row)]
		for y, v := range row {
			j := px * v
			py[y] += j
			if j > mx[y] {
				mx[y] = j
			}
		}
	}
	var sum fsum.Sum
	for y, p := range py {
		if p > 0 {
			sum.Add(-p * math.Log2(mx[y]/p))
		}
	}
	h := sum.Value()
	if h < 0 {
		h = 0
	}
	return h, nil
}

// MinEntropyLeakage returns I_∞(X;Y) = H_∞(X) − H_∞(X|Y) = log₂(V[π▷C]/V(π)) in bits, the
// log of the multiplicative Bayes leakage. It is never negative.
func MinEntropyLeakage(prior []float64, C mat.Matrix) (float64, error) {
	l, err := MultiplicativeBayesLeakage(prior, C)
	if err != nil {
		return 0, err
	}
	return math.Log2(l), nil
}

// MinCapacity returns the min-capacity C_∞ = log₂ Σ_y max_x C[x][y] in bits: the largest
// min-entropy leakage of C over all priors, reached at the uniform prior. It is the log₂ of
// MultiplicativeBayesCapacity.
func MinCapacity(C mat.Matrix) (float64, error) {
	c, err := MultiplicativeBayesCapacity(C)
	if err != nil {
		return 0, err
	}
	return math.Log2(c), nil
}
