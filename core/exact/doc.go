// Package exact computes the rational-valued quantities of quantitative information flow in
// exact rational arithmetic (math/big): when every input is rational, vulnerabilities, risks,
// leakages, guessing entropies, posteriors and hypers, compositions, mechanisms with a
// rational e^ε, utilities, optimal mechanisms and refinement witnesses have exact values, and
// this package returns them as reduced fractions.
//
// # Inputs
//
// Numbers are *big.Rat; Parse reads what people type — integers, decimals ("0.25", "1e-3")
// and fractions ("1/3") — as the number written, and FromFloat converts a float64 through its
// shortest decimal representation, so that 0.1 is 1/10 (the value typed), not the binary
// fraction the float64 holds. A value that is not a finite decimal, such as a third, must be
// given as a fraction string. Distributions and channel rows must sum to exactly 1: the error
// names the row and gives its exact sum ("channel: row 2 sums to 11/12, expected exactly 1").
// e^ε is given as a rational expEpsilon (2 for ε = ln 2).
//
// # Size
//
// Exact arithmetic costs more than floating point, and its numbers grow. Every function
// estimates its cost from the sizes and digit counts of its inputs and refuses, with an error
// naming the arguments, what would exceed MaxWork (a few seconds); matrices are limited to
// MaxEntries entries. Sums run over common denominators (see scaled.go), which keeps 200×200
// channels typed as fractions within the limit for most measures. The linear programs are
// limited by their variables (MaxMechanismVariables, MaxRefineVariables), and the functions
// that can still take long (OptimalMechanism, RefineAvg) take a context and a progress
// callback.
//
// # Functions
//
//   - Measures: BayesVulnerability, BayesRisk, PosteriorBayesVulnerability, PosteriorBayesRisk,
//     MultiplicativeBayesLeakage, AdditiveBayesLeakage, MaxCasePosteriorBayesVulnerability,
//     GVulnerability, PosteriorGVulnerability, MultiplicativeGLeakage, AdditiveGLeakage,
//     LossRisk, PosteriorLossRisk, GuessingEntropy, PosteriorGuessingEntropy,
//     MultiplicativeBayesCapacity, MultiplicativeBayesRiskCapacity, AdditiveGCapacity,
//     StatisticalDistance, HockeyStick.
//   - Channels: Posteriors, Hyper (equal posteriors merged exactly), Reduce, Cascade, Parallel.
//   - Mechanisms: RandomizedResponse, TruncatedGeometric, Utility, ExpectedLoss, and
//     OptimalMechanism, a certified optimum of the optimal-mechanism linear program.
//   - Refinement: RefineAvg, a witness R with A·R = B exactly or a gain function and prior
//     whose exact vulnerabilities show B leaking more than A.
//
// The conventions are those of the floating-point packages (channel, measure, mechanism,
// refine): rows of a channel are secrets, gain matrices are guesses × secrets.
package exact
