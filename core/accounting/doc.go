// Package accounting composes privacy mechanisms and reports the resulting (ε, δ) with a
// certified interval.
//
// A mechanism run on neighbouring data sets x, x' gives two output distributions P and Q; its
// privacy loss distribution (PLD) is the law of L = ln(P(y)/Q(y)) for y ~ P, with L = +∞ where
// Q(y) = 0, and its privacy profile is δ(ε) = P(L = ∞) + E[(1 − e^{ε−L})₊; L < ∞], the
// hockey-stick divergence of P and Q at e^ε. Running mechanisms one after the other on the same
// data adds their losses, so the PLD of a composition is the convolution of the PLDs (this is
// tight for adaptive composition of dominating pairs: Zhu, Dong and Wang, "Optimal accounting of
// differential privacy via characteristic function", AISTATS 2022). Both directions, (P, Q) and
// (Q, P), are accounted and δ(ε) is the larger.
//
// Where a closed form exists it is used: Gaussian mechanisms compose into one Gaussian whose
// profile is Balle and Wang's formula ("Improving the Gaussian mechanism", ICML 2018); pure ε₀
// mechanisms, randomized response, the geometric mechanism and approximate (ε₀, δ₀) mechanisms
// compose optimally by the sum of Kairouz, Oh and Viswanath ("The composition theorem for
// differential privacy", ICML 2015); finite channels compose by enumerating output types.
// Otherwise every PLD is discretized on a grid of width h twice: a pessimistic pair that
// dominates the mechanism (each output's mass is split between the two grid points around its
// loss so that both P and Q keep their masses — the true pair is a post-processing of it) and an
// optimistic pair that it dominates (outputs are merged, a post-processing, until every merged
// loss sits on the grid). Their compositions, by FFT, bracket the true δ(ε); h is refined until
// the bracket of ε(δ) is as narrow as asked.
//
// The bounds people quote are computed beside it, each an upper bound on the exact value:
// naive composition, the advanced composition of Dwork, Rothblum and Vadhan (FOCS 2010), and
// Rényi DP (Mironov, CSF 2017; the subsampled Gaussian of Mironov, Talwar and Zhang 2019)
// converted to (ε, δ) by Canonne, Kamath and Steinke (NeurIPS 2020).
package accounting
