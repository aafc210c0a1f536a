// Package channel holds information-theoretic channels: row-stochastic matrices C with
// C[x][y] = p(y|x), rows indexed by secrets and columns by observables (SPEC.md §1).
//
// It validates channels and priors, builds joint matrices, posteriors and hyper-distributions,
// reduces channels to their abstract form, and composes channels in cascade and in parallel.
// Matrices are gonum *mat.Dense values; vectors are []float64.
package channel
