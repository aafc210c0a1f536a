// Package mechanism builds the differential-privacy mechanisms of
// docs/mathematics.md#optimal-mechanisms as channel matrices and measures their utility.
//
// Every mechanism has inputs 0..n−1 (rows) and outputs 0..m−1 (columns), m defaulting to n,
// and is parametrized by ε in nats (α = e^{−ε}):
//
//   - Geometric, TruncatedGeometric, OverTruncatedGeometric: the geometric mechanism
//     (Chatzikokolakis et al. (CSF 2019) Def. 9–11). All three are the same construction — add two-sided geometric noise
//     P[Z = k] = (1−α)/(1+α)·α^{|k|} to the input and clamp the result to the output range —
//     which is what "the end columns take the tails" (truncated) and "sum up the columns at each
//     end until the output domain is reached" (over-truncated) amount to.
//   - GeometricWindow: the same clamped geometric noise on any window of secrets
//     (firstInput..firstInput+n−1) and of outputs (firstOutput..firstOutput+m−1), libqif's
//     general form, of which the three above are special cases.
//   - RandomizedResponse (Chatzikokolakis et al. (CSF 2019) Def. 13), on m outputs, with the
//     uniform row for inputs ≥ m.
//   - TightConstraints: for any metric d, the mechanism e^{−d(x,y)}·c_y whose privacy
//     constraints are all tight, when the coefficients c_y (e^{−d}·c = 1) are non-negative; it
//     is the geometric mechanism for ε|x−y| and randomized response for the discrete metric.
//   - Exponential and ExponentialMetric (Chatzikokolakis et al. (CSF 2019) Def. 12),
//     C[x][y] ∝ e^{−ε d(x,y)/2}, whose true ε (ExponentialEpsilon, MetricEpsilon) is computed
//     from the matrix and is usually smaller than the nominal ε.
//   - Optimal: the optimal mechanism H[i][j] = c·e^{−ε d(i,j)} of Alvim et al. (ICALP 2011)
//     Theorem 6.2, on graphs where every vertex has the same distance distribution n_d
//     (distance-regular and VT+ graphs among them); other graphs are refused with a
//     *NotOptimalError. NewTheorem62 builds the matrix on any graph, row-normalized where n_d
//     varies by vertex, with its actual ε (which then exceeds the target:
//     docs/mathematics.md#optimal-mechanisms).
//
// Utility, UtilityWithGuess and ExpectedLoss give the expected gain (or loss) of an answer
// mechanism under a prior when the user picks the best guess for each output (Alvim et al. (ICALP
// 2011) §6).
//
// OptimalLP computes the true optimum by linear programming
// (docs/mathematics.md#optimal-mechanisms) for any graph or metric, prior and gain or loss, with
// the solver of core/lp; where the closed form of Theorem 6.2 is exact (uniform prior, binary gain,
// every vertex with the same distance distribution) it uses that instead and says which path it
// took.
//
// ε must be positive and finite: ε = +∞ (no privacy) would give 0·∞ in e^{−ε·0} and
// degenerate zero/one matrices whose ε is undefined, so it is refused with an error.
package mechanism
