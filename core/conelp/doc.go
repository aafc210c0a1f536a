// Package conelp solves the optimal-mechanism linear programs by decomposition over the
// columns of the mechanism.
//
// # The program
//
// A mechanism H is an N×W row-stochastic matrix (rows: true answers or locations y, columns:
// reported outputs w). Its privacy constraints, H[a][w] ≤ e^{ε·d(a,b)}·H[b][w], never mix two
// columns: each column H[·][w] must lie in the same polyhedral cone
//
//	K = {h ≥ 0 : h[a] ≤ e^{ℓ}·h[b] and h[b] ≤ e^{ℓ}·h[a] for every pair (a, b, ℓ)}.
//
// The only constraints that link the columns are the N row sums Σ_w H[y][w] = 1. Problem states
// exactly this: a cost vector per column, the pairs of the cone and the sense.
//
// # The method
//
// Dantzig–Wolfe decomposition. Every feasible column is a non-negative combination of extreme
// rays of K, so the program is equivalent to a master program over rays: maximize
// Σ_j c_j·λ_j subject to Σ_j λ_j·h_j = 1 (one row per y), λ ≥ 0. The master has only N rows;
// it is solved by a dense revised simplex (B⁻¹ kept explicitly, refactorized through
// core/internal/lu) over the rays generated so far. Given the master's row prices μ, the
// pricing problem of column w asks for a ray h of K with (Cost[w] − μ)·h > 0. Its LP dual is
// a generalized-flow problem on the graph of pairs (obligations moved along arcs, multiplied by
// e^{ℓ}), solved exactly by least-amplification augmenting paths with Dijkstra on reduced
// lengths; when the obligation cannot all be absorbed, the residual distances give the ray
// that enters the master (pricing.go explains the algorithm in detail).
//
// # Location maps: output generation
//
// When the pairs are many per row (location maps with every pair constrained), or the problem
// says that its optimum uses few outputs (Problem.FewOutputs: spanner maps), Solve first solves the
// program restricted to a few outputs exactly, with the simplex of core/lp started from the
// previous restricted program's basis, prices every output at the restricted program's row
// prices, and adds the outputs that price positive, until the bound meets the restricted optimum
// (blocks.go). At the optimum of such maps most outputs are unused, so the restricted program
// stays small; when it does not, the decomposition takes over. The certificate is the same
// either way.
//
// # What is certified
//
// The multipliers α_w of every priced column give, for any prices μ, the upper bound
//
//	Σ_y ( μ_y + max_w r⁺_wy ),   r_w = Cost[w] − μ − Pᵀα_w,
//
// (weak duality of the full program, with each r rounded up by a bound on its rounding error),
// reported as Result.Bound. The status Optimal is given only when the master's objective is
// within a relative 1e−11 of that bound and the primal residual (row sums and every privacy
// pair, recomputed on the returned H) and the dual residual meet the tolerances; a run that
// stops otherwise reports TimeLimit, IterationLimit, Cancelled or Imprecise with the best
// feasible H found. With KeepMultipliers the α's are returned so that a caller can recheck the
// certificate independently (the mechanism package's audit does, in exact arithmetic).
//
// # Why
//
// The mechanism LP has N·W variables and up to 2·|pairs|·W privacy rows; a general simplex
// (core/lp) or interior-point code sees all of them. The decomposition touches only N master
// rows and solves each pricing problem combinatorially, which is what makes location privacy
// on a 20×20 grid of cells (160,000 variables) practical in a browser.
package conelp
