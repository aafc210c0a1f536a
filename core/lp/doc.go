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
// problem's own sense; see Result), reduced costs, the objective, the iteration count and the
// largest primal and dual residuals. An infeasible problem comes with a Farkas certificate
// (checked by CheckFarkas), an unbounded one with an improving ray. Options carry a context for
// cancellation, a progress callback (iteration, objective, infeasibility; returning false
// cancels), and iteration and time limits.
//
// No status is reported unchecked. The residuals are computed from the returned X and Duals on
// the problem as stated (not from the solver's scaled internals), Optimal requires them within
// the tolerances (relative to the size of each row's and column's terms, with a floor of 1; see
// Result), Infeasible requires CheckFarkas to prove it and Unbounded a ray that checks. When a
// check fails, Solve first continues from the final basis on the unscaled problem with
// tolerances 100 times tighter (HiGHS's clean-up; a dualized path LP that met its rows only to
// 1.2·10^−9 then needs about a hundred more pivots), and then solves again with the settings
// that remove the usual causes one at a time (rows divided by their largest coefficient and
// nothing else scaled; no scaling; no scaling and tolerances 100 times tighter; no
// dualization; no dualization, scaling or perturbation), returning the first result that
// checks — or Imprecise with the best point and its residuals.
//
// The optimal-mechanism program written as H[a] − e^{40}·H[b] ≤ 0 was such a case:
// equilibration divided the dual's right-hand side, the objective π_y, by 2^29, below the
// feasibility tolerance, so the zero dual — and the constant mechanism — looked optimal. Its
// residual in its own units is e^{40} times that of the same row divided by e^{40}, so such rows
// need the clean-up; on 160 random programs of that form (4–6 answers, ε up to 40) every solve
// now ends Optimal and checks. Rows stated with their largest coefficient about 1 need none
// (core/mechanism states them so).
//
// # Method
//
// The engine is a bounded revised simplex, chosen after measuring on the optimal-mechanism LPs
// of SPEC §3, which are small in variables (n² entries H[y][z]) but have many more rows (one per
// edge, direction and output) and are massively degenerate both ways:
//
//   - Dualization. A problem with at least 1.5 rows per variable whose variables are all
//     nonnegative or free is solved through its dual LP (Options.NoDualize turns this off): the
//     simplex basis then has as many rows as the problem has variables. The mechanism LP's dual
//     has one free variable per row sum and one nonnegative variable per privacy row; its basis
//     is n² square instead of (n + 2|E|n) square, and its eta file stays short (solved as
//     stated, an FTRAN of an entering column touched thousands of basic slacks). Measured
//     natively: clique 40 16.3 → 0.45 s, grid 8 6.0 → 3.3 s, path 40 0.25 → 0.14 s. X is the
//     dual's row prices and Duals its solution, so the result means the same; a few primal
//     iterations at tolerance 1e-13 then try to remove the dual's last dual infeasibilities,
//     which would be row violations of X (on the degenerate mechanism duals they stall and the
//     basis is kept: X then satisfies the rows to about 1e-9). When the dual ends infeasible or
//     unbounded the problem is solved again as stated, so that the Farkas certificate or the
//     ray refers to it.
//   - Dual simplex first. The all-logical basis is dual feasible after a dual phase 1 (the
//     auxiliary problem that boxes every variable into [0,0], [0,1], [−1,0] or [−1,1] and whose
//     optimum is minus the total dual infeasibility; Fourer's subproblem approach), and the dual
//     simplex then only needs primal infeasible rows, of which these LPs have few at a time.
//     Dual steepest-edge pricing (weights updated with one extra solve per iteration) halves the
//     iteration count on the mechanism LPs compared with largest-infeasibility pricing, which
//     more than pays for the extra solve (measured: clique 20, 884 against 2764 iterations);
//     dual Devex weights (no extra solve) took 9–18× more iterations on the grids.
//   - Degeneracy: the costs are perturbed by random relative amounts of about 1e-7 in the
//     direction that keeps the basis dual feasible, in phase 1 as well (equality rows given as
//     two rows 2e-9 apart made the unperturbed phase 1 cycle); a Harris two-pass ratio test picks
//     the largest pivot among near-ties; reduced costs pushed to the wrong sign are absorbed by
//     bound flips (boxed variables) or cost shifts. Perturbation and shifts are removed at the
//     end and a primal simplex (Dantzig pricing) finishes from the primal feasible basis; the
//     perturbation was 5e-7 before, which left the path LPs a primal clean-up of a quarter of
//     their iterations. Beale's cycling example and the degenerate assignment LP are in the
//     tests.
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
// are dropped from solved vectors, and LU pivots below 1e-11 count as singular. The simplex
// stops only after a fresh factorization confirms primal and dual feasibility; Solve then checks
// the same two tolerances on the problem as stated (see above and Result), where
// PrimalResidual and DualResidual report what was achieved, absolute, in the units of the input.
//
// # Performance
//
// See BenchmarkMechanismLP (go test -bench MechanismLP -lp.bench=all for the large sizes) and
// bench/lp/bench.mjs for the comparison with HiGHS compiled to WebAssembly (same Node process,
// HiGHS at tolerances 1e-10). Measured on a shared 2-core machine, WASM, seconds, ours/HiGHS:
// path 10/20/40/80 0.07/0.13, 0.18/0.14, 0.46/0.45, 2.4/1.3; clique 10/20/40 0.01/0.01,
// 0.07/0.22, 0.8/12.8; grid 4/6/8/10 0.02/0.02, 0.46/0.31, 9.1/4.1, 58–73/25–26. Every size is
// within 3× of HiGHS-wasm (grid 10, the closest, 2.2–2.9× over runs), the optimal values agree
// to 5e-10. Natively: path 80 0.8 s, clique 40 0.3 s, grid 8 3 s, grid 10 22 s (before the
// dualization: 16.3 s for clique 40, 6.0 s for grid 8, 43.6 s for grid 10).
//
// What is left: on the dualized mechanism LPs the row of B⁻¹ for the leaving variable is about a
// third dense (the free row-sum variables, all basic, tie the output columns together), so each
// iteration costs a few dense solves (ρ, the steepest-edge update B⁻¹ρ, the pivot row), and the
// iteration count is 2–3 times the number of variables. Solving the 10×10 grid in 2 s would
// take the column structure of the mechanism LP: its dual is block angular (one block of n rows
// per output column, linked only by the n row-sum variables, whose columns are the identity in
// every block), so a basis factorization through a Schur complement of size n, or a
// Dantzig–Wolfe decomposition over the output columns, are the next steps. Measured and not
// kept: cost perturbation below 1e-7, refactorization every 50 or 200 updates, dual Devex
// pricing, a column-wise pivot row for dense ρ (faster natively, slower in WASM), and a crash
// basis with the free variables basic (skips phase 1 and saves 12–20% of the iterations, but
// the grid 10 took 97 s instead of 61 s in WASM: its factors are denser).
package lp
