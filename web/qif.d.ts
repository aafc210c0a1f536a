// Type declarations for the QIF/DP toolkit's JavaScript API (web/qif.js, the npm package).
//
// Conventions (docs/mathematics.md): a channel C is n×m and row-stochastic, C[x][y] = p(y|x) (rows
// = secrets, columns = observables); a gain matrix G is |W|×|X| (rows = guesses, columns =
// secrets). Entropies, leakages and capacities are in bits (log₂); ε is in nats (ln);
// vulnerabilities, risks and δ are probabilities. Every function throws an Error naming the
// argument on bad input and the instance keeps working afterwards.
//
// tests/node/types.test.mjs fails when a function exported by the module is missing here.

// ───────────────────────────── Values ─────────────────────────────

/** Numeric typed arrays accepted wherever a vector is (copied into a Float64Array). */
export type NumericTypedArray =
  | Float64Array | Float32Array
  | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray;

/** A vector argument: a plain array of numbers or a typed array. */
export type Vector = readonly number[] | NumericTypedArray;

/** A vector result: always a fresh Float64Array. */
export type VectorOut = Float64Array;

/** A matrix as {rows, cols, data} with `data` row-major (length rows×cols). */
export interface MatrixData {
  readonly rows: number;
  readonly cols: number;
  readonly data: Vector;
}

/** A matrix argument: an array of rows (each an array or typed array) or {rows, cols, data}. */
export type Matrix = readonly Vector[] | MatrixData;

/** A matrix result: row-major `data`, entry [i][j] at data[i*cols + j]. Accepted back as input. */
export interface MatrixOut {
  rows: number;
  cols: number;
  data: Float64Array;
}

/** An undirected graph on vertices 0..n−1 as returned by the API (each edge once, a < b, sorted). */
export interface Graph {
  n: number;
  edges: [number, number][];
}

/** A graph argument: {n, edges} with each edge a pair [a, b] of vertices in 0..n−1. */
export interface GraphInput {
  readonly n: number;
  readonly edges: readonly (readonly [number, number] | readonly number[])[];
}

// ───────────────────────────── qif.channel ─────────────────────────────

/** The hyper-distribution [π▷C]: row k of `inners` is the k-th distinct posterior, `outer[k]` its probability. */
export interface Hyper {
  outer: Float64Array;
  inners: MatrixOut;
}

export interface ChannelAPI {
  /** Checks that C is a channel (finite, non-negative, rows summing to 1); returns true or throws. */
  validate(C: Matrix): true;
  /** Hyper-distribution of prior π through C: the distinct posteriors (inners) and their probabilities (outer). */
  hyper(prior: Vector, C: Matrix): Hyper;
  /** Reduced channel: all-zero columns dropped, proportional columns merged (same leakage for every prior and gain). */
  reduce(C: Matrix): MatrixOut;
  /** Cascade A·B: the output of A fed into B (A n×m, B m×k) → n×k channel. */
  cascade(A: Matrix, B: Matrix): MatrixOut;
  /** Parallel composition A‖B on the same secret: outputs are pairs (y, z), column y·cols(B) + z. */
  parallel(A: Matrix, B: Matrix): MatrixOut;
  /** A channel whose induced metric (privacy order ⊑prv) is exactly the metric D (nats). */
  fromMetric(D: Matrix): MatrixOut;
}

// ───────────────────────────── qif.measure ─────────────────────────────

/** Options of measure.shannonCapacity. */
export interface ShannonCapacityOptions {
  /** Stop when the Blahut–Arimoto upper and lower bounds are within this many bits (> 0). */
  tolerance?: number;
  /** Maximum number of Blahut–Arimoto iterations (> 0). */
  maxIterations?: number;
  /** Called with the iteration and the current lower and upper bounds (bits); return false to stop early. */
  progress?: (iteration: number, lower: number, upper: number) => boolean | void;
}

/** Result of measure.shannonCapacity. */
export interface ShannonCapacity {
  /** Capacity in bits (a lower bound, within `tolerance` of the true value when converged). */
  capacity: number;
  /** The capacity-achieving prior found. */
  prior: Float64Array;
  /** Blahut–Arimoto iterations performed. */
  iterations: number;
  /** Certified upper bound on the capacity, bits. */
  upperBound: number;
  /** Whether the tolerance was reached (false when stopped by maxIterations or progress). */
  converged: boolean;
}

export interface MeasureAPI {
  /** Shannon entropy H(p), bits. */
  shannonEntropy(p: Vector): number;
  /** Rényi entropy H_α(p), bits; α ≥ 0, with α = 0 (Hartley), 1 (Shannon) and Infinity (min-entropy) allowed. */
  renyiEntropy(p: Vector, alpha: number): number;
  /** Min-entropy H_∞(p) = −log₂ max p, bits. */
  minEntropy(p: Vector): number;
  /** Guessing entropy: expected number of guesses (most likely first) to find the secret, guesses (not bits). */
  guessingEntropy(p: Vector): number;
  /** Bayes vulnerability V(π) = max_x π_x, probability. */
  bayesVulnerability(prior: Vector): number;
  /** Bayes risk 1 − V(π), probability. */
  bayesRisk(prior: Vector): number;

  /** Conditional Shannon entropy H(X|Y) for prior π and channel C, bits. */
  conditionalShannonEntropy(prior: Vector, C: Matrix): number;
  /** Mutual information I(X;Y) = H(X) − H(X|Y), bits. */
  mutualInformation(prior: Vector, C: Matrix): number;
  /** Shannon capacity max_π I(X;Y) by Blahut–Arimoto, bits, with the achieving prior and a certified upper bound. */
  shannonCapacity(C: Matrix, options?: ShannonCapacityOptions): ShannonCapacity;
  /** Smith's conditional min-entropy −log₂ V[π▷C], bits. */
  conditionalMinEntropy(prior: Vector, C: Matrix): number;
  /** Cachin's conditional min-entropy −Σ_y p(y) log₂ max_x δʸ_x, bits. */
  conditionalMinEntropyCachin(prior: Vector, C: Matrix): number;
  /** Min-entropy leakage log₂(V[π▷C]/V(π)), bits. */
  minEntropyLeakage(prior: Vector, C: Matrix): number;
  /** Min-capacity log₂ Σ_y max_x C[x][y] (min-entropy leakage under the uniform prior, its maximum), bits. */
  minCapacity(C: Matrix): number;
  /** Posterior Bayes vulnerability V[π▷C] = Σ_y max_x π_x C[x][y], probability. */
  posteriorBayesVulnerability(prior: Vector, C: Matrix): number;
  /** Posterior Bayes risk 1 − V[π▷C], probability. */
  posteriorBayesRisk(prior: Vector, C: Matrix): number;
  /** Multiplicative Bayes leakage V[π▷C]/V(π) (≥ 1, a ratio; its log₂ is minEntropyLeakage). */
  multiplicativeBayesLeakage(prior: Vector, C: Matrix): number;
  /** Additive Bayes leakage V[π▷C] − V(π), probability. */
  additiveBayesLeakage(prior: Vector, C: Matrix): number;
  /** Max-case posterior Bayes vulnerability: the largest posterior Bayes vulnerability over possible outputs, probability. */
  maxCasePosteriorBayesVulnerability(prior: Vector, C: Matrix): number;
  /** Posterior guessing entropy Σ_y p(y) G(δʸ), expected number of guesses after seeing the output. */
  posteriorGuessingEntropy(prior: Vector, C: Matrix): number;

  /** g-vulnerability V_g(π) = max_w Σ_x G[w][x] π_x (G rows = guesses, cols = secrets), in the gain's units. */
  gVulnerability(gain: Matrix, prior: Vector): number;
  /** Posterior g-vulnerability V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y], in the gain's units. */
  posteriorGVulnerability(gain: Matrix, prior: Vector, C: Matrix): number;
  /** Multiplicative g-leakage V_g[π▷C]/V_g(π), a ratio. */
  multiplicativeGLeakage(gain: Matrix, prior: Vector, C: Matrix): number;
  /** Additive g-leakage V_g[π▷C] − V_g(π), in the gain's units. */
  additiveGLeakage(gain: Matrix, prior: Vector, C: Matrix): number;
  /** Loss risk U_ℓ(π) = min_w Σ_x L[w][x] π_x (L rows = actions, cols = secrets), in the loss's units. */
  lossRisk(loss: Matrix, prior: Vector): number;
  /** Posterior loss risk Σ_y min_w Σ_x L[w][x] π_x C[x][y], in the loss's units. */
  posteriorLossRisk(loss: Matrix, prior: Vector, C: Matrix): number;
  /** Optimal guess (row of G) for each output y of C; −1 for outputs of probability 0. */
  optimalStrategy(gain: Matrix, prior: Vector, C: Matrix): number[];

  /** Kullback–Leibler divergence D(P‖Q), bits (Infinity when P is not absolutely continuous w.r.t. Q). */
  klDivergence(P: Vector, Q: Vector): number;
  /** Max-divergence max_y ln(P(y)/Q(y)), nats. */
  maxDivergence(P: Vector, Q: Vector): number;
  /** Statistical (total variation) distance ½Σ|P − Q|, probability. */
  statisticalDistance(P: Vector, Q: Vector): number;
  /** Hockey-stick divergence Σ_y max(0, P(y) − e^ε Q(y)) for ε ≥ 0 in nats: the smallest δ, probability. */
  hockeyStick(P: Vector, Q: Vector, epsilon: number): number;
}

// ───────────────────────────── qif.privacy ─────────────────────────────

/** Where a privacy value is reached: inputs x ∼ x2 and output y (absent when there is no pair). */
export interface EpsilonDetail {
  /** Smallest ε, nats (Infinity when no ε suffices). */
  epsilon: number;
  x?: number;
  x2?: number;
  y?: number;
}

/** Arguments of the Hamming-graph bounds. */
export interface HammingBoundOptions {
  /** Number of individuals u (records in the database). */
  individuals: number;
  /** Number of values v of each record. */
  values: number;
  /** Privacy parameter ε, nats. */
  epsilon: number;
}

/** Result of privacy.utilityBound. */
export interface UtilityBound {
  /** Upper bound 1/Σ_d n_d e^{−εd} on the utility (probability) of any ε-DP mechanism on the graph. */
  bound: number;
  /** log₂ of bound (finite where bound underflows). */
  log2Bound: number;
  /** The vertex whose distance distribution gives the bound. */
  vertex: number;
  /** Whether Σ_d n_d e^{−εd} is the same from every vertex. */
  sameForAllVertices: boolean;
  distanceRegular: boolean;
  /** Whether the graph is VT+ (null: the automorphism search ran out of budget). */
  vtPlus: boolean | null;
  /** Whether the bound is known to be reached (distance-regular or VT+). */
  tight: boolean;
}

export interface PrivacyAPI {
  /** Smallest ε (nats) for which C is ε-DP on the adjacency graph (Infinity when none). */
  epsilon(C: Matrix, graph: GraphInput): number;
  /** Smallest ε (nats) with the adjacent inputs x, x2 and output y where it is reached. */
  epsilonDetail(C: Matrix, graph: GraphInput): EpsilonDetail;
  /** Whether C is ε-DP on the graph (ε in nats). */
  isDP(C: Matrix, graph: GraphInput, epsilon: number): boolean;
  /** Smallest ε_k (nats) over inputs at graph distance ≤ k (group privacy; ≤ k·ε). */
  groupEpsilon(C: Matrix, graph: GraphInput, k: number): number;
  /** Smallest δ (probability) for which C is (ε, δ)-DP on the graph, ε in nats. */
  delta(C: Matrix, graph: GraphInput, epsilon: number): number;
  /** Smallest ε (nats) for which C is (ε, δ)-DP on the graph (Infinity when none). */
  epsilonForDelta(C: Matrix, graph: GraphInput, delta: number): number;
  /** Smallest ε (nats) with C ε·D-private for the metric D (d-privacy). */
  dPrivacyEpsilon(C: Matrix, D: Matrix): number;
  /** Metric induced by C: d(x,x') = max_y |ln C[x][y] − ln C[x'][y]|, nats. */
  inducedMetric(C: Matrix): MatrixOut;
  /** Bound on the min-entropy leakage of any ε-DP mechanism on the Hamming graph (Alvim et al. (ICALP 2011) Thm 5.1), bits. */
  leakageBound(options: HammingBoundOptions): number;
  /** Bound on the min-entropy leakage about one individual (Alvim et al. (ICALP 2011) Prop. 2), bits. */
  individualLeakageBound(options: Omit<HammingBoundOptions, 'individuals'>): number;
  /** Utility bound of Alvim et al. (ICALP 2011) Thm 4.1/6.1 for the answer graph, with the graph's symmetry. */
  utilityBound(graph: GraphInput, epsilon: number, options?: { budgetMs?: number }): UtilityBound;
  /** Analytic utility bound on the Hamming graph, any size: bound (probability) and its log₂. */
  hammingUtilityBound(options: HammingBoundOptions): { bound: number; log2Bound: number };
}

// ───────────────────────────── qif.graph ─────────────────────────────

/** Result of graph.isVTPlus. */
export interface VTPlusResult {
  /** Whether the graph is VT+ (null: the search budget was exhausted). */
  vtPlus: boolean | null;
  /** Whether some automorphism is a single n-cycle (null: unknown). */
  singleOrbit: boolean | null;
  /** How the answer was reached, in words. */
  reason: string;
  /** When singleOrbit: an automorphism σ (certificate[v] = σ(v)) that is one n-cycle. */
  certificate?: number[];
  /** When VT+ without a single orbit: n automorphisms σ_i with σ_i(0) = i (row i is σ_i). */
  automorphisms?: number[][];
}

export interface GraphAPI {
  /** Path 0 − 1 − … − (n−1). */
  path(n: number): Graph;
  /** Cycle on n vertices. */
  cycle(n: number): Graph;
  /** Complete graph K_n. */
  clique(n: number): Graph;
  /** w×h grid graph; vertex (x, y) is numbered y·w + x. */
  grid(w: number, h: number): Graph;
  /** Hypercube Q_d on 2^d vertices (Hamming(d, 2)). */
  hypercube(d: number): Graph;
  /** The Petersen graph (10 vertices). */
  petersen(): Graph;
  /** Hamming graph of databases: u individuals with v values each, adjacent when one record differs (explicit; refuses huge sizes). */
  hamming(individuals: number, values: number): Graph;
  /** Number of databases at each Hamming distance d = 0..u from one database (analytic): counts (may be Infinity) and their log₂. */
  hammingDistanceDistribution(individuals: number, values: number): { counts: Float64Array; log2: Float64Array };
  /** All-pairs shortest-path distances (Infinity when disconnected). */
  distances(graph: GraphInput): MatrixOut;
  /** n_d: number of vertices at distance d = 0, 1, … from the vertex. */
  distanceDistribution(graph: GraphInput, vertex: number): Float64Array;
  /** Largest distance between two vertices (Infinity when disconnected). */
  diameter(graph: GraphInput): number;
  /** Whether the graph is distance-regular, with its intersection array b, c when it is. */
  isDistanceRegular(graph: GraphInput): { distanceRegular: boolean; b?: number[]; c?: number[] };
  /** Whether the graph is VT+ (Alvim et al. (ICALP 2011) Def. 3), searching automorphisms for at most budgetMs milliseconds. */
  isVTPlus(graph: GraphInput, options?: { budgetMs?: number }): VTPlusResult;
  /** Graph induced on the answers of a query f (f[v] = answer index of input vertex v). */
  induced(graph: GraphInput, f: Vector): Graph;
}

// ───────────────────────────── qif.mechanism ─────────────────────────────

/** Result of mechanism.optimalDetail (Theorem 6.2). */
export interface OptimalDetail {
  mechanism: MatrixOut;
  /** The requested ε, nats. */
  epsilon: number;
  /** The true ε of the mechanism on the graph, nats. */
  actualEpsilon: number;
  /** Whether every row has the same normalizer (the graph's n_d are the same from every vertex). */
  uniform: boolean;
  /** The normalizer c of each row. */
  c: Float64Array;
}

/** Progress report of the simplex solver (mechanism.optimalLP, lp.solve). */
export interface LPProgress {
  iteration: number;
  /** Current objective value. */
  objective: number;
  /** Current primal infeasibility. */
  infeasibility: number;
  /** "dual phase 1", "dual" or "primal". */
  phase: string;
}

/** Status of a linear program's solve. */
/** 'imprecise': the solver stopped at a point it could not check optimal within the tolerances on the problem as stated (see primalResidual, dualResidual). */
export type LPStatus = 'optimal' | 'infeasible' | 'unbounded' | 'iteration limit' | 'time limit' | 'cancelled' | 'imprecise';

/** Options of mechanism.optimalLP: the graph (ε-DP) or a metric (ε·d-privacy) and what to optimize. */
export interface OptimalLPOptions {
  /** Adjacency of the true answers 0..n−1 (ε-DP); give this or metric. */
  graph?: GraphInput;
  /** n×n distance matrix (ε·d-privacy, Infinity allowed); give this or graph. */
  metric?: Matrix;
  /** Privacy parameter ε > 0, nats. */
  epsilon: number;
  /** Prior on the true answers (uniform by default). */
  prior?: Vector;
  /** Gain matrix |W|×n (rows guesses, cols true answers), binary by default. */
  gain?: Matrix;
  /** Loss matrix |W|×n (rows outputs, cols true answers): minimize the expected loss instead. */
  loss?: Matrix;
  /** Solve the linear program even where the closed form of Theorem 6.2 is optimal. */
  forceLP?: boolean;
  /** Time limit of the solve, in milliseconds (as in `lp.solve`). */
  timeLimit?: number;
  /** Called every few hundred simplex iterations; return false to cancel (the call then throws). */
  onProgress?: (progress: LPProgress) => boolean | void;
}

/** Result of mechanism.optimalLP. */
export interface OptimalLP {
  /** The mechanism H, n×|W|: rows true answers, columns the reported answers (= the guesses). */
  mechanism: MatrixOut;
  /** Expected gain of H with the optimal guess (probability for the binary gain), or its expected loss when loss was given. */
  utility: number;
  /** Optimal value of the linear program (the closed-form value on that path). */
  objective: number;
  /** Whether the closed form of Theorem 6.2 was used or the linear program solved. */
  path: 'closed-form' | 'lp';
  /** Why that path was taken, in words. */
  reason: string;
  status: LPStatus;
  /** Simplex iterations, variables and constraints of the program (0 on the closed-form path). */
  iterations: number;
  variables: number;
  constraints: number;
  /** Upper bound on the expected gain of every ε-private mechanism (lower bound on the expected loss), from the solver's dual solution: the optimum lies between utility and bound. */
  bound: number;
  /** Largest violation, in probability, of a row sum, H ≥ 0 or a privacy row e^{−εd}·H[y][w] ≤ H[y'][w] by the solver's H before the privacy repair (0 on the closed-form path). */
  primalResidual: number;
  /** Largest violation of the dual constraints, in utility per unit of probability (0 on the closed-form path). */
  dualResidual: number;
}

export interface MechanismAPI {
  /** Truncated geometric mechanism on inputs 0..n−1, outputs 0..m−1 (m = n by default), ε in nats. */
  truncatedGeometric(n: number, epsilon: number, m?: number): MatrixOut;
  /** Reduced (n×n) form of the infinite geometric mechanism, ε in nats. */
  geometric(n: number, epsilon: number): MatrixOut;
  /** Over-truncated geometric: outputs are the input values offset..offset+m−1 (offset 0 by default), ε in nats. */
  overTruncatedGeometric(n: number, m: number, epsilon: number, offset?: number): MatrixOut;
  /** Randomized response on m outputs: e^ε/(m−1+e^ε) on the true value, ε in nats. */
  randomizedResponse(n: number, epsilon: number, m?: number): MatrixOut;
  /** Exponential mechanism with metric |x−y|: C[x][y] ∝ e^{−ε|x−y|/2}, ε in nats. */
  exponential(n: number, epsilon: number, m?: number): MatrixOut;
  /** The true ε (nats) of exponential(n, epsilon, m) for the metric |x−x'| (at most the nominal ε). */
  exponentialEpsilon(n: number, epsilon: number, m?: number): number;
  /** Exponential mechanism for a distance matrix D (D[x][y] from input x to output y): C[x][y] ∝ e^{−ε D[x][y]/2}. */
  exponentialMetric(D: Matrix, epsilon: number): MatrixOut;
  /** The optimal mechanism c·e^{−ε d(i,j)} of Alvim et al. (ICALP 2011) Theorem 6.2 on the graph. */
  optimal(graph: GraphInput, epsilon: number): MatrixOut;
  /** Theorem 6.2 mechanism with its requested and true ε and normalizers. */
  optimalDetail(graph: GraphInput, epsilon: number): OptimalDetail;
  /** Mechanism of maximal expected gain (or least expected loss) under ε-DP or ε·d-privacy, by linear programming or Theorem 6.2. */
  optimalLP(options: OptimalLPOptions): OptimalLP;
  /** Expected gain (probability for the binary gain) with the optimal guess for each output. */
  utility(prior: Vector, H: Matrix, gain?: Matrix): number;
  /** Expected gain with the optimal guess for each output (the guesses included). */
  utilityDetail(prior: Vector, H: Matrix, gain?: Matrix): { utility: number; guess: number[] };
  /** Expected loss (0-1 loss by default) with the loss-minimizing guess for each output. */
  expectedLoss(prior: Vector, H: Matrix, loss?: Matrix): { loss: number; guess: number[] };
}

// ───────────────────────────── qif.refine ─────────────────────────────

/** Result of refine.avg: A ⊑avg B (B = A·R for a row-stochastic R). */
export interface AvgRefinement {
  holds: boolean;
  /** ρ = (1/n) Σ|A·R − B| for the best R found (probability; holds when ≤ 1e-9). */
  residual: number;
  /** 'least squares' (full-column-rank A) or 'linear program'. */
  method: string;
  /** Size of the linear program solved (0 on the least-squares path). */
  lpVariables: number;
  lpConstraints: number;
  /** When holds: the row-stochastic R (|outputs of A| × |outputs of B|) with A·R = B. */
  witness?: MatrixOut;
  /** When not: certified lower bound on the minimum residual. */
  residualLowerBound?: number;
  /** When not: a gain function and prior under which B is more vulnerable than A (verified; gain units). */
  counterexample?: {
    gain: MatrixOut;
    prior: Float64Array;
    vulnerabilityA: number;
    vulnerabilityB: number;
    /** guesses[w]: the output of B that guess w (row w of gain) stands for. */
    guesses: number[];
  };
}

/** Result of refine.max: A ⊑max B (every posterior of B in the convex hull of A's). */
export interface MaxRefinement {
  holds: boolean;
  /** The non-zero columns of A and B (the outputs whose posteriors are compared). */
  outputsA: number[];
  outputsB: number[];
  /** distances[i]: Euclidean distance from the i-th posterior of B to the hull of A's. */
  distances: Float64Array;
  /** When holds: the row-stochastic R with B̂ = R·Â (rows follow outputsB, columns outputsA). */
  witness?: MatrixOut;
  /** When not: the posterior of B farthest from the hull of A's. */
  counterexample?: {
    posterior: Float64Array;
    /** Euclidean distance to the hull, and a certified lower bound on it. */
    distance: number;
    distanceLowerBound: number;
    /** The column of B whose posterior this is. */
    output: number;
    /** The point of the hull nearest to it. */
    nearest: Float64Array;
  };
}

/** Result of refine.prv: A ⊑prv B (d_A ≥ d_B pointwise). */
export interface PrvRefinement {
  holds: boolean;
  /** The induced metrics d_A and d_B, nats (Infinity allowed). */
  metricA: MatrixOut;
  metricB: MatrixOut;
  /** When not: the pair x, x2 with the largest excess d_B(x,x2) − d_A(x,x2) (nats). */
  counterexample?: { x: number; x2: number; dA: number; dB: number };
}

/** Mechanism family names accepted by refine.familyEpsilon and refine.safeEpsilonCurve. */
export type RefineFamily =
  | 'truncatedGeometric' | 'geometric' | 'overTruncatedGeometric' | 'randomizedResponse'
  | 'exponential' | 'exponentialNominal';

/** Two mechanism families on inputs 0..n−1 compared under a refinement order. */
export interface FamilyComparison {
  family1: RefineFamily;
  family2: RefineFamily;
  /** Refinement order, 'avg' by default. */
  order?: 'avg' | 'max' | 'prv';
  /** Number of inputs (1..1000). */
  n: number;
  /** Number of outputs of both (default n), or of each. */
  m?: number;
  m1?: number;
  m2?: number;
  /** Search interval of ε2, nats (defaults ε1/1000 and 2·ε1). */
  lo?: number;
  hi?: number;
  /** Bisection resolution, nats (default ε1/1000); must be positive and at least 4 units in the last place of hi. */
  resolution?: number;
}

/** The largest ε2 (nats) with family1(ε1) ⊑ family2(ε2), by bisection. */
export interface SafeEpsilon {
  epsilon1: number;
  /** Largest ε2 found where the refinement holds (null when it fails already at lo). */
  epsilon2: number | null;
  /** An ε2 where it fails, within resolution above epsilon2 (null when not found). */
  epsilon2Fails: number | null;
  found: boolean;
  /** Whether it still holds at hi (the largest ε2 may be larger). */
  atUpper: boolean;
  /** Number of refinement tests made. */
  evaluations: number;
}

export interface RefineAPI {
  /** Decides average-case refinement A ⊑avg B, with a witness R or a verified gain/prior counterexample. */
  avg(A: Matrix, B: Matrix): AvgRefinement;
  /** Decides max-case refinement A ⊑max B, with a witness or the posterior farthest from the hull. */
  max(A: Matrix, B: Matrix): MaxRefinement;
  /** Decides privacy refinement A ⊑prv B (induced metrics d_A ≥ d_B, nats). */
  prv(A: Matrix, B: Matrix): PrvRefinement;
  /** Meet under ⊑prv: a channel whose metric is max(d_A, d_B). */
  prvMeet(A: Matrix, B: Matrix): MatrixOut;
  /** Join under ⊑prv: a channel whose metric is the shortest-path closure of min(d_A, d_B). */
  prvJoin(A: Matrix, B: Matrix): MatrixOut;
  /** Meet under ⊑max: a channel whose posteriors are the union of A's and B's. */
  maxMeet(A: Matrix, B: Matrix): MatrixOut;
  /** Posteriors Ĉ under the uniform prior: row i is the posterior of output outputs[i] (zero columns dropped). */
  posteriors(C: Matrix): { posteriors: MatrixOut; outputs: number[] };
  /** Euclidean distance from the distribution sigma to the convex hull of C's posteriors (uniform prior). */
  hullDistance(C: Matrix, sigma: Vector): number;
  /** Largest ε2 (nats) with family1(epsilon1) ⊑ family2(ε2) under the order, by bisection. */
  familyEpsilon(options: FamilyComparison & { epsilon1: number }): SafeEpsilon;
  /** familyEpsilon for each ε1 in epsilons1; onProgress (argument or field) returning false stops early (complete = false). */
  safeEpsilonCurve(
    options: FamilyComparison & { epsilons1: Vector; onProgress?: (done: number, total: number) => boolean | void },
    onProgress?: (done: number, total: number) => boolean | void,
  ): { points: SafeEpsilon[]; complete: boolean };
}

// ───────────────────────────── qif.infoPrivacy ─────────────────────────────

/**
 * A tuple channel over records with domain sizes `domains`: either `channel` itself, one row per
 * tuple in lexicographic order (record 0 most significant), or a deterministic query `table`
 * (table[t] = answer index of tuple t) composed with a `noise` channel (one row per answer).
 */
export type TupleChannel =
  | { domains: Vector; channel: Matrix; table?: undefined; noise?: undefined }
  | { domains: Vector; table: Vector; noise: Matrix; channel?: undefined };

/** Result of infoPrivacy.individualCapacity (Wu (2019) Thm 3.1). */
export interface IndividualCapacity {
  /** Individual channel capacity, bits (the Shannon capacity of the worst sub-channel). */
  capacity: number;
  /** Certified upper bound, bits. */
  upperBound: number;
  /** The record i of the worst sub-channel. */
  individual: number;
  /** Values of the other records (j ≠ i, increasing j) in the worst sub-channel. */
  others: number[];
  /** Capacity-achieving distribution on the values of that record. */
  prior: Float64Array;
  /** Number of sub-channels Σ_i Π_{j≠i} d_j. */
  subChannels: number;
  /** How many of them needed a Blahut–Arimoto run. */
  solved: number;
}

/** Result of infoPrivacy.individualEpsilon: the max-case twin of individualCapacity. */
export interface IndividualEpsilon {
  /** Smallest ε (nats) of ε-DP for "differ in one record" (Infinity when none). */
  epsilon: number;
  individual: number;
  others: number[];
  /** The two values (a, b) of the individual where ε is reached. */
  values: number[];
  /** The output y where it is reached. */
  output: number;
}

/** Result of infoPrivacy.dataIndependent (Wu (2019) Def. 10). */
export interface DataIndependence {
  /** Whether every row is a permutation of one distribution q. */
  dataIndependent: boolean;
  /** Row 0 sorted decreasingly (the common q when data-independent). */
  q: Float64Array;
  /** log₂|Y| − H(q), bits: a capacity bound when data-independent (NaN otherwise). */
  bound: number;
  weaklySymmetric: boolean;
  /** Whether bound is the capacity (some prior makes the output uniform). */
  reachable: boolean;
  /** Shannon capacity, bits. */
  capacity: number;
}

export interface InfoPrivacyAPI {
  /** Individual channel capacity: Shannon capacity of the worst individual over independent priors (Wu (2019) Thm 3.1), bits. */
  individualCapacity(
    options: TupleChannel & { tolerance?: number; onProgress?: (done: number, total: number) => boolean | void },
  ): IndividualCapacity;
  /** Largest ε (nats) over individuals: ε-DP for "differ in one record" on the tuple channel. */
  individualEpsilon(options: TupleChannel): IndividualEpsilon;
  /** Tuple channel of a deterministic query table composed with a noise channel (Wu (2019) Def. 2). */
  queryChannel(options: { domains: Vector; table: Vector; noise: Matrix }): MatrixOut;
  /** Sub-channel of record `individual` with the other records fixed to `others` (row v = value v). */
  subChannel(options: TupleChannel & { individual: number; others: Vector }): MatrixOut;
  /** Graph "differ in exactly one record" on the tuples (vertices numbered as the tuple channel's rows). */
  recordGraph(domains: Vector): Graph;
  /** Values of the records in tuple row `index`. */
  tuple(domains: Vector, index: number): number[];
  /** Capacity 1 − h(p) of the binary symmetric channel with flip probability p, bits. */
  binarySymmetricCapacity(p: number): number;
  /** Flip probability p ∈ [0, ½] whose binary symmetric channel has the given capacity (bits), probability. */
  flipProbability(capacity: number): number;
  /** Capacity ½ log₂(1 + P/σ²) of the Gaussian channel with power P and noise σ, bits. */
  gaussianCapacity(power: number, sigma: number): number;
  /** Noise σ for which the Gaussian channel of power P has the given capacity (bits). */
  sigmaForCapacity(power: number, capacity: number): number;
  /** Data-independence of a channel, its log₂|Y| − H(q) bound (bits) and capacity (bits). */
  dataIndependent(C: Matrix, options?: { tolerance?: number }): DataIndependence;
  /** Discrete exponential privacy channel (Wu (2019) Def. 13) for a distortion matrix or answers 0..n−1 with |r′ − r|. */
  exponentialChannel(
    options: { beta: number; distortion: Matrix; n?: undefined } | { beta: number; n: number; distortion?: undefined },
  ): { channel: MatrixOut; q: Float64Array; entropy: number; bound: number };
  /** β for which the exponential privacy channel on m outputs has bound log₂ m − H(q) equal to capacity (bits). */
  exponentialBeta(m: number, capacity: number): number;
  /** Noise variances of the Laplace and Gaussian mechanisms and the Gaussian privacy channel (Wu (2019) §5.2); ε nats, capacity bits. */
  varianceComparison(options: {
    sensitivity: number; epsilon: number; delta: number; capacity: number; power?: number;
  }): { laplace: number; gaussianMechanism: number; gaussianPrivacyChannel: number; power: number };
  /** δ(ε) sampled at `points` ε from 0 to maxEpsilon (nats); δ probabilities; pureEpsilon the smallest ε with δ = 0. */
  deltaCurve(
    C: Matrix, graph: GraphInput, options?: { points?: number; maxEpsilon?: number },
  ): { epsilon: Float64Array; delta: Float64Array; pureEpsilon: number };
  /** Smallest ε (nats) for which C is (ε, δ)-DP on the graph (Infinity when none). */
  epsilonForDelta(C: Matrix, graph: GraphInput, delta: number): number;
  /** Posterior/prior ratios C[x][y]/p(y) (Vadhan (2013) Prop. 1), their extremes and the ε (nats) of C on the clique of its rows. */
  bayesRatios(prior: Vector, C: Matrix): {
    ratios: MatrixOut; max: number; min: number; maxAt: number[]; minAt: number[]; epsilon: number;
  };
}

// ───────────────────────────── qif.lp ─────────────────────────────

/** One constraint of lp.solve: coeffs sparse [[variable, coefficient], ...] or dense (one entry per variable). */
export interface LPRow {
  coeffs: readonly (readonly [number, number])[] | readonly number[];
  op: '<=' | '=' | '==' | '>=';
  rhs: number;
}

/** A linear program for lp.solve. */
export interface LPProblem {
  /** 'min' by default. */
  sense?: 'min' | 'max';
  /** Objective coefficients c, one per variable. */
  objective: Vector;
  rows?: readonly LPRow[];
  /** Lower bounds (default 0; -Infinity or null: none). */
  lower?: readonly (number | null)[] | Float64Array;
  /** Upper bounds (default Infinity; Infinity or null: none). */
  upper?: readonly (number | null)[] | Float64Array;
}

/** Options of lp.solve. */
export interface LPOptions {
  /** Called every progressEvery iterations; return false to cancel (status 'cancelled'). */
  onProgress?: (progress: LPProgress) => boolean | void;
  /** Iterations between progress calls (default 200). */
  progressEvery?: number;
  maxIterations?: number;
  /** Time limit, in milliseconds. */
  timeLimit?: number;
}

/** Result of lp.solve. */
export interface LPResult {
  status: LPStatus;
  /** The solution, one entry per variable. */
  x: Float64Array;
  /** duals[i] = ∂objective/∂rhs[i]. */
  duals: Float64Array;
  reducedCosts: Float64Array;
  /** Optimal objective value (NaN unless status is 'optimal'). */
  objective: number;
  iterations: number;
  /** Largest violation of a row or bound by x, absolute, in the problem's units ('optimal' requires each row within 1e-9 times the largest of 1, |rhs| and its terms |a·x|). */
  primalResidual: number;
  /** Largest wrong-signed reduced cost or row dual (complementary slackness included), absolute, in objective units. */
  dualResidual: number;
  /** Certificate of infeasibility (status 'infeasible'). */
  farkas?: Float64Array;
  /** Unbounded direction (status 'unbounded'). */
  ray?: Float64Array;
}

export interface LPAPI {
  /** Solves a linear program by the simplex method (sparse LU), with duals and certificates. */
  solve(problem: LPProblem, options?: LPOptions): LPResult;
}

// ───────────────────────────── qif.debug ─────────────────────────────

/** Functions that measure the bindings themselves (for benchmarks). */
export interface DebugAPI {
  /** Copies a matrix into Go and returns its number of entries (marshaling cost only). */
  marshal(M: Matrix): number;
  /** Returns 0: the fixed cost of one call. */
  noop(): number;
  /** Reads o.x k times from Go and returns the sum: the cost of k boundary crossings. */
  syscalls(k: number, o: { x: number }): number;
}

// ───────────────────────────── The API object ─────────────────────────────

/** The loaded API: frozen namespaces of synchronous functions. */
export interface QIF {
  /** Version of the WebAssembly module. */
  readonly version: string;
  readonly channel: Readonly<ChannelAPI>;
  readonly measure: Readonly<MeasureAPI>;
  readonly privacy: Readonly<PrivacyAPI>;
  readonly graph: Readonly<GraphAPI>;
  readonly mechanism: Readonly<MechanismAPI>;
  readonly refine: Readonly<RefineAPI>;
  readonly infoPrivacy: Readonly<InfoPrivacyAPI>;
  readonly lp: Readonly<LPAPI>;
  readonly debug: Readonly<DebugAPI>;
}

/** Options of load(). */
export interface LoadOptions {
  /** Where qif.wasm lives (resolved against qif.js); by default qif.wasm beside qif.js. */
  wasmURL?: string | URL;
}

/**
 * Loads the WebAssembly module (browser, Web Worker or Node ≥ 20) and returns the API.
 * Each call starts an independent instance.
 */
export function load(options?: LoadOptions): Promise<QIF>;
