// Package lp solves linear programs: a pure-Go (no cgo) sparse simplex solver that also compiles
// to GOOS=js GOARCH=wasm, with a model builder for the programs of the mechanism and refinement
// packages.
//
// # Problems
//
// A Problem is minimize or maximize c·x subject to rows a_i·x ≤ / = / ≥ b_i and bounds
// l ≤ x ≤ u (infinite bounds allowed), with the constraint matrix in compressed sparse columns
// (CSC; NewCSC builds it from coordinate triplets). Model states the same thing readably:
// named blocks of variables (H := m.AddBlock("H", n, n); H.At(y, z)) and rows added one at a time
// (m.AddEq, m.AddLe, m.AddGe over []Term). Invalid input — NaN or infinite coefficients,
// inconsistent lengths, indices out of range, crossed bounds, empty problems, or more than
// MaxVariables variables, MaxConstraints rows or MaxNonzeros coefficients — is an error, never a
// panic.
//
// # Results
//
// Solve returns the status (Optimal, Infeasible, Unbounded, IterationLimit, TimeLimit,
// Cancelled, Imprecise), the primal solution, row duals (shadow prices ∂objective/∂b_i, in the
// problem's own sense; see Result), reduced costs, the objective, the iteration count, the
// largest primal and dual residuals and the final basis (VarStatus, RowStatus), from which exact
// arithmetic can re-solve the same vertex. An infeasible problem comes with a Farkas certificate
// (checked by CheckFarkas), an unbounded one with an improving ray. Options carry a context for
// cancellation, a progress callback (iteration, objective, infeasibility; returning false
// cancels), and iteration and time limits.
//
// No status is reported unchecked. The residuals are computed from the returned X (projected
// onto its bounds) and Duals on the problem as stated, not from the solver's scaled internals;
// Optimal requires them within the tolerances (relative to the size of each row's and column's
// terms, with a floor of 1; see Result), Infeasible requires CheckFarkas to prove it (entries
// of yᵀA count as zero only within 1e-9 of their terms), and Unbounded a feasible point and a
// ray that checks in the units of the problem (see Result.Ray). When a check fails, whatever
// the status, Solve first continues from the final basis on the unscaled problem with
// tolerances 100 times tighter (HiGHS's clean-up), then solves again with the usual causes
// removed one at a time (see Solve), working to the check's own relative tolerances, and
// returns the first result that checks — or Imprecise with the best point and its residuals.
//
// # Method
//
// A bounded revised simplex: problems with at least 1.5 rows per variable (the mechanism LPs)
// are solved through their dual; a dual phase 1 and a dual simplex with dual steepest-edge
// pricing come first, with a small random cost perturbation against degeneracy, a Harris ratio
// test and bound flips, and a primal simplex finishes; the basis is a sparse LU (Markowitz
// pivoting, threshold 0.1) updated in product form; rows and columns are scaled by powers of two.
// A ratio test that finds no pivot above its tolerance looks again below it, for entries that
// are not rounding, before it declares a row a proof of infeasibility or a column a ray.
// Why this method, how it compares with HiGHS, what was measured and not kept, and why every
// status is checked on the unscaled problem are in docs/design/lp-solver.md.
//
// # Tolerances
//
// Primal and dual feasibility 1e-9 (Options.FeasibilityTol, Options.OptimalityTol): the simplex
// works to them on the scaled problem, and Solve checks them on the problem as stated, where
// Result's PrimalResidual and DualResidual report what was achieved in the units of the input.
//
// Benchmarks: go test ./core/lp -run '^$' -bench MechanismLP (-lp.bench=all for the large sizes),
// and bench/lp/bench.mjs for the WebAssembly build against HiGHS-wasm.
package lp
