// Package infopriv is information privacy (Wu (2019), "Constructing Privacy Channels from
// Information Channels"; docs/mathematics.md#information-privacy) beside the divergence readings of
// differential privacy (Vadhan (2013), Vadhan's notes; docs/mathematics.md#entropies-and-leakage).
//
// # Queries over records
//
// A dataset is a tuple (x_0, …, x_{n−1}) of n records, record i taking d_i values 0..d_i−1. A
// privacy channel (Wu (2019) Def. 2) is a channel with one row per tuple, in lexicographic order
// with record 0 most significant (TupleIndex, Tuple); QueryChannel builds it from a deterministic
// query table and a noise channel on the answers. IndividualCapacity is Wu's individual channel
// capacity (Def. 3) for independent priors, reduced by Theorem 3.1 to the largest Shannon capacity
// of the sub-channels "record i varies, the others fixed"; IndividualEpsilon is its max-case twin,
// the smallest ε of ε-DP for the "differ in one record" adjacency, which Wu (2019) Prop. 1
// identifies with max-information privacy under independent priors.
//
// # The privacy channels of Wu (2019) §4–5
//
// The PDF of Wu (2019) lost its formulas; the ones used here are reconstructed from its text and
// standard information theory (Cover–Thomas), and each function's documentation says how:
//   - binary symmetric / randomized-response privacy channel: capacity 1 − h(p)
//     (BinarySymmetricCapacity, FlipProbabilityForCapacity);
//   - data-independent channels, every row a permutation of one q: I(X;Y) = H(Y) − H(q), so the
//     capacity is at most log|Y| − H(q), reached exactly when some prior makes Y uniform — in
//     particular for weakly symmetric channels (equal column sums) with the uniform prior
//     (AnalyzeDataIndependence);
//   - the discrete exponential privacy channel: mass ∝ e^{−β·rank} on outputs ranked by a
//     distortion from the true answer, a data-independent channel with a closed-form H(q)
//     (ExponentialChannel, ExponentialEntropy, ExponentialBetaForBound);
//   - the Gaussian privacy channel: ½ log2(1 + P/σ²) bits (GaussianCapacity, SigmaForCapacity),
//     and the variances §5.2 compares with the Laplace and Gaussian mechanisms (CompareVariances).
//
// # Divergences and (ε, δ)
//
// DeltaCurveOf samples δ(ε), the largest hockey-stick divergence between adjacent rows of a channel
// on a graph; privacy.EpsilonForDelta inverts it exactly and privacy.Epsilon is its δ = 0 end (one
// implementation each, in core/privacy, which this package uses). BayesRatiosOf is
// Vadhan (2013) Prop. 1: the posterior/prior ratios on one individual, bounded by e^{±ε}.
//
// Units: capacities, entropies and bounds in bits; ε and β in nats.
package infopriv
