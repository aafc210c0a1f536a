package graph

import (
	"fmt"
	"math"
)

// MaxHammingIndividuals bounds u in HammingDistanceDistribution, whose result has u+1 entries.
const MaxHammingIndividuals = 10_000_000

// HammingDistanceDistribution returns, analytically, the distance distribution of the Hamming graph
// V^u (Alvim et al. (ICALP 2011) §5, eq. 4): n_d = C(u,d)·(v−1)^d databases at distance d from any
// database, for d = 0..u. counts[d] is n_d as a float64 (+Inf where it overflows); log2[d] is log₂
// n_d, always finite, computed in log space with lgamma. No graph is built, so u may be in the
// millions.
func HammingDistanceDistribution(u, v int) (counts, log2 []float64, err error) {
	if u < 1 {
		return nil, nil, fmt.Errorf("hamming: individuals u must be at least 1, got %d", u)
	}
	if u > MaxHammingIndividuals {
		return nil, nil, fmt.Errorf("hamming: individuals u = %d, more than the limit of %d for a listed distribution", u, MaxHammingIndividuals)
	}
	if v < 2 {
		return nil, nil, fmt.Errorf("hamming: values v must be at least 2, got %d", v)
	}
	counts = make([]float64, u+1)
	log2 = make([]float64, u+1)
	lv1 := math.Log2(float64(v - 1))
	// lf[k] = ln k!, filled lazily: only needed once the binomials stop being exact integers.
	var lf []float64
	exact := true // binomials by the multiplicative recurrence while they stay exact integers
	c := 1.0
	for d := 0; d <= u; d++ {
		if d > 0 && exact {
			next := c * float64(u-d+1) / float64(d)
			if next > 1<<52 || c*float64(u-d+1) > 1<<53 {
				exact = false
			} else {
				c = next
			}
		}
		var lc float64 // log₂ C(u,d)
		if exact {
			lc = math.Log2(c)
		} else {
			if lf == nil {
				lf = make([]float64, u+1)
				for k := range lf {
					lf[k], _ = math.Lgamma(float64(k) + 1)
				}
			}
			lc = (lf[u] - lf[d] - lf[u-d]) / math.Ln2
		}
		log2[d] = lc + float64(d)*lv1
		if exact {
			counts[d] = c * math.Pow(float64(v-1), float64(d))
		} else {
			counts[d] = math.Exp2(log2[d])
		}
	}
	return counts, log2, nil
}
