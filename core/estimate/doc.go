// Package estimate estimates leakage from samples of a black-box system: pairs (secret_i,
// observation_i), i = 1..n, where an observation is a label (discrete) or a vector of numbers
// (continuous). It follows leakiEst (Chothia, Kawamoto, Novakovic, "A tool for estimating
// information leakage", CAV 2013), LeakWatch (Chothia, Kawamoto, Novakovic, "LeakWatch: estimating
// information leakage from Java programs", ESORICS 2014) and F-BLEAU (Cherubin, Chatzikokolakis,
// Palamidessi, "F-BLEAU: Fast Black-box Leakage Estimation", IEEE S&P 2019).
//
// Conventions are those of package measure: channels are row-stochastic with rows = secrets,
// entropies and leakages are in bits. The secrets seen in the sample are sorted (numbers
// numerically, strings by byte order) and row x of every estimate is the x-th of them; the same
// order decides "the smaller secret" where a vote is tied. Observations are sorted the same way
// (vectors lexicographically by coordinates).
//
// What is computed:
//   - FrequentistChannel: Ĉ[x][o] = count(x, o)/count(x) and π̂(x) = count(x)/n; every measure of
//     package measure on (π̂, Ĉ) is its plug-in estimate.
//   - MutualInformation: the plug-in Î, the first-order (Miller–Madow) correction
//     Î − (|X̂|−1)(|Ô|−1)/(2n ln 2), a zero-leakage test (2n·ln2·Î against the χ² distribution with
//     (|X̂|−1)(|Ô|−1) degrees of freedom, and against Î of shuffled data) and a confidence interval.
//   - MinEntropyLeakage: the plug-in log₂(Σ_o max_x Ĵ[x][o] / max_x π̂(x)) and a confidence
//     interval from finite-sample bounds on the two vulnerabilities.
//   - BayesRisk: F-BLEAU's estimate of R* = 1 − V[π▷C]: a seeded train/test split, the
//     frequentist, nearest-neighbour and k-NN rules (a k-d tree, ties in distance all counted,
//     ties in votes to the smaller secret), an interval whose ends are finite-sample bounds, the
//     Cover–Hart NN value (an asymptotic estimate) and a convergence curve.
//   - Draw: n samples (x, y) with x ~ π and y ~ C[x], reproducible from a seed.
//
// Numeric observations (timings, sizes, scores: nearly every value distinct) need their own
// estimators: ResolveKind decides whether observations are read as labels or numbers,
// RefuseDistinct keeps the label estimators from a verdict on mostly-distinct labels, Bin groups
// numbers into labels (with the edges used), NearestNeighbourMI is Ross's nearest-neighbour MI
// ("Mutual information between discrete and continuous data sets", PLoS ONE 2014) with an
// interval from disjoint parts of the sample and a permutation test, and
// MinEntropyLeakageFromRisk gives the min-entropy leakage from the k-NN Bayes risk.
//
// # Intervals and what they cover
//
// A confidence interval here is honest when, on samples drawn from a known channel, the nominal
// 95% interval contains the true value in at least 90% of independent repetitions. The tests
// simulate this with fixed seeds (TestIntervalCoverage, TestBayesRiskLowerIsABound) on channels
// with and without leakage and on the inputs where a bootstrap around the plug-in misses: tied
// prior maxima (uniform priors; randomized response on 4 values at n = 50, the 3×3 identity at
// n = 60) and sparse tables (10×10 channels at n = 200, 4×50 at n = 200). The designs tried and
// their measured coverage are recorded in docs/design/estimation.md. What is kept:
//
//   - Min-entropy leakage: [log₂(loPost/hiPrior), log₂(hiPost/loPrior)] from four one-sided
//     Clopper–Pearson bounds of level α/4, which hold together with probability ≥ 1 − α at every
//     n and for every channel (the secrets seen being all the secrets): hiPost from the
//     frequentist rule's successes on the whole sample (at least the Bayes rule's, a binomial),
//     loPost from a rule trained on a random half and tested on the other, hiPrior and loPrior
//     from the largest row count (the lower one at level α/(4|X̂|), and at least 1/|X̂|). It is
//     wider than a bootstrap interval — the price of covering where the largest of tied prior
//     counts is biased upwards, which no resampling of the sample can see.
//   - Mutual information: the union of the basic ∪ percentile bootstrap intervals of the plug-in
//     Î and of the corrected estimate (recomputed on each replicate): the plug-in's lower end
//     misses on sparse tables, where its upward bias exceeds what the bootstrap sees, and the
//     corrected estimate's upper end misses where the correction overshoots (cells that are
//     empty in truth); the union covered everywhere tried. Its upper end is at most log₂ |X̂|,
//     and is that bound on fewer than 20 samples or with a single observation seen, where
//     resampling shows nothing the sample does not contain.
//   - For both, when the zero-leakage test does not reject independence, the lower end is 0.
//   - A table with fewer than SparseTable samples per cell of |X̂|×|Ô| gets a warning: the
//     interval is honest but wide, and the plug-in value alone means little.
//   - Bayes risk: [1 − Clopper–Pearson upper end of the frequentist rule's success rate on the
//     whole sample, Clopper–Pearson upper end of the chosen rule's test error], each end a bound
//     at the sample size used with probability ≥ 1 − α/2: any rule errs at least R*, and the
//     resubstitution successes are at least the Bayes rule's. For observations that never repeat
//     (continuous ones) the lower end is 0: no finite sample bounds R* from below without
//     assumptions. NNBound, the Cover–Hart formula at the measured NN error, is an asymptotic
//     estimate, not a bound: it exceeded R* in nearly every run on two Gaussians in 31 dimensions
//     at n = 1,000.
//
// Long work (MutualInformation, MinEntropyLeakage, BayesRisk) reports progress and is cancelled
// when its progress function returns false (ErrCancelled; BayesRisk also returns the result
// computed so far). The shuffles of the zero-leakage test are capped at MaxShuffles and at
// MaxShuffledSamples/n, the bootstrap at maxBootstrapDraws random numbers (at least 100
// replicates), so that every label estimator on up to 10⁶ samples finishes in seconds.
//
// Randomness comes from xoshiro256** seeded by SplitMix64, implemented in this package, so that
// a seed gives the same samples, splits and intervals on every platform and in every Go version.
package estimate
