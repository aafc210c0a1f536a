// Package refine decides the refinement orders of Chatzikokolakis et al. (CSF 2019)
// (docs/mathematics.md#refinement) between two channels A and B on the same secrets — "is B safe in
// place of A?" — with a witness when the order holds and a recomputed counterexample when it fails,
// builds the lattice operations, and searches the mechanism families of Chatzikokolakis et al. (CSF
// 2019) §6 for safe privacy parameters.
//
//   - Avg: A ⊑avg B iff B = A·R for a row-stochastic R. Witness R; counterexample a gain
//     function and the uniform prior with V_g[π▷B] > V_g[π▷A], both computed by core/measure.
//   - Max: A ⊑max B iff every posterior of B (uniform prior) is in the convex hull of A's.
//     Witness R with B̂ = R·Â; counterexample the posterior of B farthest from the hull with its
//     Euclidean distance (the vulnerability V(σ) = distance to the hull is 0 on A, positive on B).
//   - Prv: A ⊑prv B iff d_A ≥ d_B pointwise (induced metrics); counterexample the pair with
//     d_B > d_A. PrvMeet/PrvJoin realize max(d_A, d_B) and the shortest-path closure of
//     min(d_A, d_B) with FromMetric, which turns any (pseudo)metric into a channel inducing it.
//   - MaxMeet realizes the union of both posterior sets (the ⊑max greatest lower bound).
//   - Factorize / LeftFactorize: a channel X with A = B·X (A ⊒ B for ⊑avg: the decision of
//     Avg) or A = X·B (every row of A a mixture of B's rows), with the witness multiplied back,
//     or a certified lower bound on the distance when none exists.
//   - AdditiveMetric: for a given prior, how much more B can leak than A — the supremum over
//     gain functions with values ≤ 1 and a zero-gain guess of V_g[π▷B] − V_g[π▷A] (libqif's
//     additive refinement metric), with a gain function attaining it; 0 exactly when A ⊑avg B
//     (full-support priors).
//   - SafeEpsilon / SafeEpsilonCurve: the largest ε2 with F1(ε1) ⊑ F2(ε2) (Chatzikokolakis et
//     al. (CSF 2019) Figure 3).
//
// Channels may have different numbers of outputs and all-zero or proportional columns. Every
// function validates its inputs (errors name "A", "B" or "D") and first divides each row by
// its sum, so that inputs accepted by channel.Validate (rows within 1e-6 of 1) are decided as
// the channels they stand for.
//
// # Tolerances
//
// Avg: holds iff ρ = min_R (1/n)·Σ|A·R − B| ≤ AvgTolerance (1e-9). ρ is the mean L1 distance
// between the rows of B and of A·R, and by LP duality exactly the largest advantage
// V_g[u▷B] − V_g[u▷A] of an adversary with gains in [−1, 1] under the uniform prior u. A
// witness with residual ≤ 1e-9 proves "holds"; a separating direction whose certified bound
// exceeds 1e-9 proves "fails" (AvgResult.Residual and ResidualLowerBound bracket ρ). B = A·R
// computed in floating point gives ρ ≈ 1e-16, and noise of 1e-12 per entry ρ ≤ 1e-12·|outputs|,
// so both are "holds". A counterexample is returned only when the recomputed vulnerabilities
// differ by more than VerifyTolerance (1e-12).
//
// Max: holds iff every posterior of B is within MaxTolerance (1e-9, Euclidean) of the hull of
// A's. Distances come from Wolfe's min-norm-point algorithm: about 1e-15 absolute for points
// in the hull, a relative 1e-12 otherwise, with a certified lower bound (a separating
// hyperplane) reported next to the distance.
//
// Prv: d_B ≤ d_A + PrvTolerance·max(1, d_A), PrvTolerance = 1e-9 on logarithms (a relative
// tolerance on probability ratios). ⊑prv is inherently sensitive to additive noise near zero
// entries: turning a 0 into 1e-12 makes a distance infinite.
//
// # Methods and cost
//
// Avg first tries least squares: when A (with proportional columns merged) has full column
// rank and condition number ≤ 1e8, B = A·R has at most one solution R̂ = A⁺B, and either R̂ is
// (after clipping) a witness or H = (B − A·R̂) + X with Aᵀ·X = −max(−R̂, 0) separates B from
// {A·R}. This costs O(n·m²) and decides square invertible channels and the mechanism families.
// Otherwise one linear program (core/lp) with |outputs A|·|outputs B| + 2n·|outputs B| variables
// and n·|outputs B| + |outputs A| equality rows decides, and the duals of its coupling rows give
// the counterexample. Max solves one small projection per posterior of B; Prv is O(n²·m).
package refine
