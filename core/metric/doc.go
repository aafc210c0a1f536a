// Package metric builds ground metrics as distance matrices and measures distances between
// probability distributions, with the definitions of the libqif library
// (docs/mathematics.md#metrics-and-capacities).
//
// # Ground metrics
//
// A ground metric on n points is an n×n distance matrix D: entries ≥ 0, +Inf allowed, zero on
// the diagonal, symmetric. Euclidean and Manhattan measure coordinate points; GridEuclidean and
// GridManhattan the cells of a w×h grid, cell i being the point (i mod w, ⌊i/w⌋)·cellSize;
// Discrete is s·[x ≠ x'] for any scale s ≥ 0, +Inf included (with ∞·0 = 0 on the diagonal);
// Threshold(D, t) replaces every distance by 0 when it is below t and by 1 otherwise. Every
// matrix built here is accepted by privacy.ValidateMetric, so it can be used directly as the
// metric of the d-privacy functions and of the optimal-mechanism linear program.
//
// # Distances between distributions
//
// For distributions a, b on the same n points:
//
//   - TotalVariation: ½ Σ|a_i − b_i|.
//   - MultiplicativeTotalVariation: max_i |ln a_i − ln b_i| in nats (entries 0 in both are
//     ignored, 0 in one only gives +Inf) — the smallest ε for which the two distributions are
//     ε-indistinguishable.
//   - ConvexSeparation: max(q(a,b), q(b,a)) with q(a,b) = max_{i: a_i>0} (1 − b_i/a_i).
//   - Kantorovich (earth mover's distance) for a ground metric D: the cheapest way to move the
//     mass of a onto b, min Σ_ij x_ij D_ij over couplings x ≥ 0 with marginals a and b. An
//     infinite D_ij forbids moving mass from i to j; when no coupling avoids the forbidden pairs
//     the distance is +Inf.
//   - MultiplicativeKantorovich for a ground metric D, in nats: the larger of two one-sided
//     values ln z*, z* the optimum of a linear program (see its documentation). With D the
//     discrete metric scaled by +Inf it equals MultiplicativeTotalVariation.
//
// Kantorovich solves the transportation problem with a network simplex on the bipartite graph
// of the allowed pairs (transport.go), chosen over the linear-programming engine of core/lp by
// timing both on the same problems in the same run (docs/design/performance.md#core-choices).
// The linear program stays as the fallback should the network simplex reach its pivot limit,
// and in the tests as an independent solver.
// MultiplicativeKantorovich has no transport structure (the e^{D_ij} weights) and is solved with
// core/lp, every answer certified by a primal and a dual bound (see its documentation).
//
// Errors name the argument ("P", "Q", "D", "points", "scale", ...); nothing panics on bad input.
package metric
