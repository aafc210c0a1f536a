// Package channel holds information-theoretic channels: row-stochastic matrices C with C[x][y] =
// p(y|x), rows indexed by secrets and columns by observables
// (docs/mathematics.md#entropies-and-leakage).
//
// It validates channels and priors, builds joint matrices, posteriors and hyper-distributions,
// reduces channels to their abstract form, and composes channels in cascade and in parallel.
// Matrices are gonum mat.Matrix values (a *mat.Dense is read in place, any other kind is copied
// once); vectors are []float64. Results are new *mat.Dense values.
//
// # Validation and errors
//
// Every exported function validates its inputs and returns an error naming the argument
// ("channel", "prior", "A", "B") and the problem: "A: row 1 sums to 0.9, expected 1",
// "B: has 3 rows but A has 4 columns". A row or a prior is accepted when its entries are finite,
// non-negative and sum to 1 within Tolerance (1e-6). Inputs with more than MaxEntries entries are
// refused from their dimensions alone, before any entry is read or anything allocated.
//
// # Hyper-distributions and reduction
//
// Hyper drops the outputs with p(y) = 0 (exactly) and merges outputs whose posteriors agree
// within MergeTolerance (1e-9, max norm); Reduce drops all-zero columns and merges columns whose
// normalizations agree within the same tolerance. Both keep the order of first appearance: the
// k-th posterior (or reduced column) is the one whose first output (column) comes k-th by index.
// A merged posterior is the p(y)-weighted mean of the merged ones, so Σ_k outer_k·inner_k = π.
//
// # Composition
//
// Cascade(A, B) = A·B feeds A's output to B. Parallel(A, B) observes both channels on the same
// secret: (A∥B)[x][y·|Z|+z] = A[x][y]·B[x][z], with y the output of A (major) and z that of B.
// The converse, factoring a channel through another, is in core/refine (Factorize,
// LeftFactorize), next to the refinement order it decides.
//
// # Estimation
//
// IterativeBayesianUpdate estimates the input distribution of a channel from the observed
// frequencies of its outputs — the decoder of local differential privacy — by libqif's
// iterative Bayesian update (expectation–maximization for the maximum-likelihood prior).
package channel
