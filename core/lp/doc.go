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
// Solve returns the status (Optimal, Infeasible, Unbounded, IterationLimit, TimeLimit, Cancelled),
// the primal solution, row duals (shadow prices ∂objective/∂b_i, in the problem's own sense; see
// Result), reduced costs, the objective, the iteration count and the largest primal and dual
// residuals. An infeasible problem comes with a Farkas certificate (checked by CheckFarkas), an
// unbounded one with an improving ray. Options carry a context for cancellation, a progress
// callback (iteration, objective, infeasibility; returning false cancels), and iteration and
// time limits.
//
// # Method
//
// The engine is a bounded revised simplex, chosen after measuring on the optimal-mechanism LPs
// of SPEC §3, which are small in variables (n² entries H[y][z]) but have many more rows (one per
// edge, direction and output) and are massively degenerate both ways:
//
//   - Dual simplex first. The all-logical basis is dual feasible after a dual phase 1 (the
//     auxiliary problem that boxes every variable into [0,0], [0,1], [−1,0] or [−1,1] and whose
//     optimum is minus the total dual infeasibility; Fourer's subproblem approach), and the dual
//     simplex then only needs primal infeasible rows, of which these LPs have few at a time.
//     Dual steepest-edge pricing (weights updated with one extra solve per iteration) halves the
//     iteration count on the mechanism LPs compared with largest-infeasibility pricing, which
//     more than pays for the extra solve (measured: clique 20, 884 against 2764 iterations).
//   - Degeneracy: the costs are perturbed by random relative amounts of about 5e-7 in the
//     direction that keeps the basis dual feasible; a Harris two-pass ratio test picks the
//     largest pivot among near-ties; reduced costs pushed to the wrong sign are absorbed by
//     bound flips (boxed variables) or cost shifts. Perturbation and shifts are removed at the
//     end and a primal simplex finishes from the primal feasible basis (usually in a handful of
//     iterations). Beale's cycling example and the degenerate assignment LP are in the tests.
//   - Linear algebra: the basis is factorized by right-looking sparse Gaussian elimination with
//     Markowitz pivot choice and threshold partial pivoting (threshold 0.1), singletons first,
//     and updated in product form (eta file); it is refactorized every 100 updates or when the
//     eta file outgrows twice the factors. A singular basis has its dependent columns replaced
//     by logicals.
//   - Scaling: rows and columns are equilibrated by powers of two (exact in floating point) and
//     the objective is scaled to max |c| ≈ 1, which tames the e^ε multipliers and Klee–Minty's
//     powers of ten.
//
// Interior-point methods were not chosen because the refinement code needs vertex solutions and
// exact complementary duals, and because these LPs are decided best by a basis; gonum's dense
// simplex (optimize/convex/lp) is used only as a test reference.
//
// # Tolerances
//
// On the scaled problem: primal feasibility 1e-9 (Options.FeasibilityTol), dual feasibility
// 1e-9 (Options.OptimalityTol), pivots below 1e-7 are refused in ratio tests, entries below 1e-14
// are dropped from solved vectors, and LU pivots below 1e-11 count as singular. Optimality is
// declared only after a fresh factorization confirms primal and dual feasibility. Result's
// PrimalResidual and DualResidual report what was achieved in the units of the input.
//
// # Performance
//
// See BenchmarkMechanismLP (go test -bench MechanismLP -lp.bench=all for the large sizes) and
// bench/lp/bench.mjs for the comparison with HiGHS compiled to WebAssembly. The eta file grows
// dense on the mechanism LPs (an FTRAN of an entering column touches many basic slacks), which
// is where most of the time goes; a Forrest–Tomlin update and a solver specialized to the
// column structure of the mechanism LP are the next steps.
package lp
