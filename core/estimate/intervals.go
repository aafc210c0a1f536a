package estimate

import (
	"math"
	"slices"
)

// oneSidedLower and oneSidedUpper are the Clopper–Pearson one-sided bounds of level 1 − a on a
// binomial proportion with k successes in m trials.
func oneSidedLower(k, m, a float64) float64 {
	if k <= 0 {
		return 0
	}
	return betaQuantile(a, k, m-k+1)
}

func oneSidedUpper(k, m, a float64) float64 {
	if k >= m {
		return 1
	}
	return betaQuantile(1-a, k+1, m-k)
}

// posteriorSuccesses is Σ_o max_x count(x, o): the successes of the frequentist rule on its own
// training data (t lists its cells by observation).
func posteriorSuccesses(t *table) float64 {
	s, m := 0.0, 0.0
	for k, c := range t.cnt {
		if k > 0 && t.o[k] != t.o[k-1] {
			s, m = s+m, 0
		}
		m = math.Max(m, c)
	}
	return s + m
}

// heldOutSuccesses splits the samples into a training and a test part, each sample independently
// with probability ½, trains the frequentist rule on the training part (ties and unseen
// observations to the most frequent secret of the training part, then to the smaller secret)
// and counts its successes on the test part: test successes and test size.
func heldOutSuccesses(t *table, rng *rng) (succ, m float64) {
	train := make([]float64, len(t.cnt))
	rowTrain := make([]float64, t.rows)
	for k, c := range t.cnt {
		train[k] = float64(binomial(int(c), 0.5, rng))
		rowTrain[t.x[k]] += train[k]
	}
	fallback := int32(0)
	for x, c := range rowTrain {
		if c > rowTrain[fallback] {
			fallback = int32(x)
		}
	}
	for a := 0; a < len(t.cnt); {
		b := a
		for b < len(t.cnt) && t.o[b] == t.o[a] {
			b++
		}
		best, bv := fallback, 0.0
		for k := a; k < b; k++ {
			if v := train[k]; v > bv || v == bv && v > 0 && t.x[k] == fallback {
				best, bv = t.x[k], v
			}
		}
		for k := a; k < b; k++ {
			test := t.cnt[k] - train[k]
			m += test
			if t.x[k] == best {
				succ += test
			}
		}
		a = b
	}
	return succ, m
}

// meBounds is the interval of min-entropy leakage log₂(V_post/V_prior), V_post = Σ_o max_x J(x, o)
// and V_prior = max_x π(x), from four one-sided Clopper–Pearson bounds of level α/4 each (so
// that, by the union bound, all four hold with probability at least 1 − α whatever the channel):
//   - V_post ≤ hiPost: S = Σ_o max_x count(x, o) is at least the successes of the Bayes rule,
//     which are Binomial(n, V_post), so the upper bound of S/n bounds V_post;
//   - V_post ≥ loPost: a rule trained on a random half and tested on the other succeeds with
//     probability at most V_post, and its test successes are binomial given the training half;
//   - V_prior ≤ hiPrior: the largest row count M is at least the count of the likeliest secret;
//   - V_prior ≥ loPrior: M ≥ m has probability at most |X̂|·P(Binomial(n, V_prior) ≥ m), so the
//     lower bound of M/n at level α/(4|X̂|); and V_prior ≥ 1/|X̂| when the secrets seen are all
//     the secrets (the plug-in assumes it too). This is the end that the bootstrap misses: with
//     tied prior maxima the largest count is biased upwards, and the plug-in leakage downwards.
//
// The interval is [log₂(loPost/hiPrior), log₂(hiPost/loPrior)], clamped at 0.
func meBounds(t *table, confidence float64, rng *rng) (lo, hi float64) {
	a := (1 - confidence) / 4
	n := float64(t.n)
	M := slices.Max(t.row)
	k := float64(positive(t.row))
	hiPost := oneSidedUpper(posteriorSuccesses(t), n, a)
	loPrior := math.Max(oneSidedLower(M, n, a/k), 1/k)
	hiPrior := oneSidedUpper(M, n, a)
	succ, m := heldOutSuccesses(t, rng)
	loPost := 0.0
	if m > 0 {
		loPost = oneSidedLower(succ, m, a)
	}
	hi = math.Log2(hiPost / loPrior)
	lo = math.Max(0, math.Log2(loPost/hiPrior))
	return lo, math.Max(lo, hi)
}
