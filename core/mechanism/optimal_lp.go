package mechanism

// The optimal mechanism by linear programming (SPEC §3; API.md qif.mechanism.optimalLP)
// belongs here, beside the closed form of Optimal, once the solver of core/lp exists:
//
//	maximize   Σ_y π_y Σ_z H[y][z] gain(z, y)   (or minimize the loss)
//	subject to H ≥ 0, Σ_z H[y][z] = 1 for every y,
//	           H[y][z] ≤ e^{ε·d(y,y')} H[y'][z] for every pair y ≠ y' with finite d
//	           (only the graph's edges, with d = 1, for a graph's shortest-path metric),
//
// with the closed form Optimal used, and reported as the path taken, when the graph is
// distance-regular or VT+ and the prior uniform with binary gain. Utility / ExpectedLoss
// evaluate its result.
