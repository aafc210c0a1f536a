// Package measure computes the entropies, vulnerabilities, leakages, capacities and divergences
// of docs/mathematics.md#entropies-and-leakage for channels and distributions.
//
// Conventions (docs/mathematics.md): a channel C is an n×m row-stochastic matrix with C[x][y] =
// p(y|x); a prior π is a distribution on its rows; J[x][y] = π_x C[x][y] is the joint matrix, p(y)
// its column sums, and δʸ = J[·][y]/p(y) the posterior of an output y with p(y) > 0. A gain matrix
// G (and a loss matrix L) is |W|×|X|: rows are the adversary's guesses, columns the secrets.
//
// Units: entropies, leakages and capacities are in bits (log base 2); vulnerabilities and risks
// are probabilities (or expected gains/losses); KLDivergence is in bits while MaxDivergence is in
// nats, as differential privacy measures ε in nats.
//
// Families:
//   - Shannon: ShannonEntropy, ConditionalShannonEntropy, MutualInformation, ShannonCapacity
//     (Blahut–Arimoto with a certified upper bound).
//   - Rényi and min-entropy: RenyiEntropy (α = 0, 1 and +Inf included), MinEntropy,
//     ConditionalMinEntropy (Smith), ConditionalMinEntropyCachin, MinEntropyLeakage, MinCapacity.
//   - Bayes vulnerability: BayesVulnerability, BayesRisk, PosteriorBayesVulnerability,
//     PosteriorBayesRisk, MultiplicativeBayesLeakage, AdditiveBayesLeakage, and the max-case
//     MaxCasePosteriorBayesVulnerability / MaxCasePosteriorVulnerability.
//   - g-vulnerability: GVulnerability, PosteriorGVulnerability, OptimalStrategy,
//     MultiplicativeGLeakage, AdditiveGLeakage; losses: LossRisk, PosteriorLossRisk.
//   - Capacities over classes of gain functions for a fixed prior (libqif's definitions):
//     AdditiveGCapacity (1-spanning vulnerabilities or 1-spanning gains), and over all priors
//     MultiplicativeBayesCapacity and MultiplicativeBayesRiskCapacity.
//   - Guessing entropy: GuessingEntropy, PosteriorGuessingEntropy.
//   - Divergences: KLDivergence, MaxDivergence, StatisticalDistance, HockeyStick.
//
// Every function validates its input (with channel.Tolerance on sums) and returns an error that
// names the offending argument ("prior", "channel", "gain", "P", "alpha", ...); none panics on
// bad input. The loops run over the raw row-major storage of *mat.Dense, so other mat.Matrix
// implementations are copied once first.
package measure
