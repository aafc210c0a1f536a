// Package ratlp solves small linear programs in exact rational arithmetic, typically starting
// from the final basis of the floating-point solver core/lp, and certifies the answer.
//
// A floating-point simplex ends at a basis; its point and prices carry rounding errors of
// 1e-9 or so, and a status "optimal" means "within the tolerances". Solve re-solves that basis
// in rationals (math/big): the basic variables from the tight rows, the row prices from the
// basic columns. When both are feasible exactly — every row and bound holds, every price and
// reduced cost has its sign — the point is optimal exactly, and the prices are the
// certificate: their dual bound b·y equals c·x. When one check fails, Solve pivots on in exact
// arithmetic (dual simplex to regain feasibility, then primal simplex to regain optimality),
// with Bland's smallest-index rules so that degenerate programs cannot cycle. Verify checks an
// optimal pair (x, y) from the problem alone, and VerifyFarkas an infeasibility certificate.
//
// The program is stated over nonnegative variables with ≤, = and ≥ rows, which covers the
// optimal-mechanism and refinement programs of the toolkit. Every nonbasic variable sits at 0,
// so a basis is determined by its square core K (tight rows × basic variables); K is
// factorized by sparse Gaussian elimination with Markowitz ordering at every pivot. That
// costs far more than the floating-point solver's updates, which is why the float basis is
// the start: on the programs of core/exact it is usually optimal as given (zero pivots).
package ratlp
