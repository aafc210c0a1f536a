// Package privacy computes differential-privacy quantities of channels
// (docs/mathematics.md#differential-privacy): the smallest ε for ε-DP on an adjacency graph (with
// the pair and output attaining it), group privacy, (ε, δ)-DP, d-privacy for a distance matrix and
// the induced metric d_C, and the bounds of Alvim et al. (Alvim et al. (ICALP 2011)): Theorem
// 4.1/6.1 (utility of an ε-DP mechanism on a graph), Theorem 5.1 (min-entropy leakage of a database
// mechanism on V^u) and Proposition 2 (one individual).
//
// ε is in nats, leakages in bits. A channel C is n×m and row-stochastic (rows = inputs). The
// Hamming-domain bounds work in log space and are exact to rounding for any number of
// individuals u (10⁶ and more) without building the graph.
//
// Disconnected graphs: vertices in different components are at distance +Inf. ε-DP constrains
// only chains of adjacent inputs, so it says nothing about two inputs in different components —
// a channel may tell them apart completely and still be ε-DP for every ε. Accordingly such pairs
// contribute nothing to Epsilon, GroupEpsilon or DPrivacyEpsilon (a distance +Inf in D imposes no
// constraint), and e^{−ε·∞} = 0 in the bounds.
package privacy
