package bindings

import "github.com/qif-toolkit/qif/core/measure"

var (
	pDist = Param{Name: "p", Kind: KindVector, Doc: "a probability distribution"}
	pGain = Param{Name: "gain", Kind: KindMatrix, Doc: "gain matrix G: rows guesses w, columns secrets x"}
	pLoss = Param{Name: "loss", Kind: KindMatrix, Doc: "loss matrix L: rows actions w, columns secrets x"}
	pP    = Param{Name: "P", Kind: KindVector, Doc: "a distribution"}
	pQ    = Param{Name: "Q", Kind: KindVector, Doc: "a distribution on the same outcomes"}
)

var measureAPI = []Func{
	{NS: "measure", Name: "shannonEntropy", Params: []*Param{&pDist}, Result: Number, Source: fosad + " §2.1",
		Doc: "Shannon entropy H(p), bits.", TeX: `H(X) = -\sum_x \pi(x)\log_2 \pi(x)`,
		Call: func(a *Args) (any, error) { return measure.ShannonEntropy(a.Vec("p")) }},
	{NS: "measure", Name: "minEntropy", Params: []*Param{&pDist}, Result: Number, Source: fosad + " §2.2",
		Doc: "Min-entropy H_∞(p) = −log₂ max p, bits.", TeX: `H_\infty(X) = -\log_2 \max_x \pi(x)`,
		Call: func(a *Args) (any, error) { return measure.MinEntropy(a.Vec("p")) }},
	{NS: "measure", Name: "guessingEntropy", Params: []*Param{&pDist}, Result: Number, Source: fosad + " §1",
		Doc: "Guessing entropy: expected number of guesses (most likely first) to find the secret.", TeX: `G(X) = \sum_{i=1}^{n} i\,\pi_{(i)}`,
		Call: func(a *Args) (any, error) { return measure.GuessingEntropy(a.Vec("p")) }},
	{NS: "measure", Name: "renyiEntropy", Params: []*Param{&pDist, {Name: "alpha", Kind: KindNumber, Doc: "order α ≥ 0 (0, 1 and Infinity allowed)"}},
		Result: Number, Source: fosad + " §2.2", TeX: `H_\alpha(X) = \tfrac{1}{1-\alpha}\log_2 \sum_x \pi(x)^\alpha`,
		Doc:  "Rényi entropy H_α(p), bits; α = 0 is Hartley's, 1 Shannon's and Infinity the min-entropy.",
		Call: func(a *Args) (any, error) { return measure.RenyiEntropy(a.Vec("p"), a.Float("alpha")) }},
	{NS: "measure", Name: "bayesVulnerability", Params: []*Param{&pPrior}, Result: Number, Source: fosad + " §2.2",
		Doc: "Bayes vulnerability V(π) = max_x π_x, probability.", TeX: `V(\pi) = \max_x \pi(x)`,
		Call: func(a *Args) (any, error) { return measure.BayesVulnerability(a.Vec("prior")) }},
	{NS: "measure", Name: "bayesRisk", Params: []*Param{&pPrior}, Result: Number, Source: icalp + " §2.2",
		Doc: "Bayes risk 1 − V(π), probability.", TeX: `R(\pi) = 1 - V(\pi)`,
		Call: func(a *Args) (any, error) { return measure.BayesRisk(a.Vec("prior")) }},

	{NS: "measure", Name: "conditionalShannonEntropy", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §3.1",
		Doc: "Conditional Shannon entropy H(X|Y) for prior π and channel C, bits.", TeX: `H(X\mid Y) = \sum_y p(y)\, H(X\mid Y{=}y)`,
		Call: func(a *Args) (any, error) { return measure.ConditionalShannonEntropy(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "mutualInformation", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §3.1",
		Doc: "Mutual information I(X;Y) = H(X) − H(X|Y), bits.", TeX: `I(X;Y) = H(X) - H(X\mid Y)`,
		Call: func(a *Args) (any, error) { return measure.MutualInformation(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "conditionalMinEntropy", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §3.2",
		Doc: "Smith's conditional min-entropy −log₂ V[π▷C], bits.", TeX: `H_\infty(X\mid Y) = -\log_2 \sum_y \max_x \pi(x)\,C(x,y)`,
		Call: func(a *Args) (any, error) { return measure.ConditionalMinEntropy(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "conditionalMinEntropyCachin", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §3.2",
		Doc: "Cachin's conditional min-entropy −Σ_y p(y) log₂ max_x p(x|y), bits.", TeX: `H^{\mathrm{c}}_\infty(X\mid Y) = -\sum_y p(y)\log_2 \max_x p(x\mid y)`,
		Call: func(a *Args) (any, error) { return measure.ConditionalMinEntropyCachin(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "minEntropyLeakage", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §3.2",
		Doc: "Min-entropy leakage log₂(V[π▷C]/V(π)), bits.", TeX: `I_\infty(X;Y) = H_\infty(X) - H_\infty(X\mid Y)`,
		Call: func(a *Args) (any, error) { return measure.MinEntropyLeakage(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "posteriorBayesVulnerability", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §3.2",
		Doc: "Posterior Bayes vulnerability V[π▷C] = Σ_y max_x π_x C[x][y], probability.", TeX: `V[\pi\triangleright C] = \sum_y \max_x \pi(x)\,C(x,y)`,
		Call: func(a *Args) (any, error) { return measure.PosteriorBayesVulnerability(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "posteriorBayesRisk", Params: []*Param{&pPrior, &pC}, Result: Number, Source: icalp + " §2.2",
		Doc: "Posterior Bayes risk 1 − V[π▷C], probability.", TeX: `R[\pi\triangleright C] = 1 - V[\pi\triangleright C]`,
		Call: func(a *Args) (any, error) { return measure.PosteriorBayesRisk(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "multiplicativeBayesLeakage", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §3.2",
		Doc: "Multiplicative Bayes leakage V[π▷C]/V(π) (≥ 1, a ratio; its log₂ is minEntropyLeakage).", TeX: `\mathcal{L}^{\times}(\pi,C) = V[\pi\triangleright C]/V(\pi)`,
		Call: func(a *Args) (any, error) { return measure.MultiplicativeBayesLeakage(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "additiveBayesLeakage", Params: []*Param{&pPrior, &pC}, Result: Number, Source: csf + " §2",
		Doc: "Additive Bayes leakage V[π▷C] − V(π), probability.", TeX: `\mathcal{L}^{+}(\pi,C) = V[\pi\triangleright C] - V(\pi)`,
		Call: func(a *Args) (any, error) { return measure.AdditiveBayesLeakage(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "maxCasePosteriorBayesVulnerability", Params: []*Param{&pPrior, &pC}, Result: Number, Source: csf + " §3",
		Doc: "Max-case posterior Bayes vulnerability: the largest posterior Bayes vulnerability over possible outputs, probability.",
		TeX: `V^{\max}[\pi\triangleright C] = \max_{y:\,p(y)>0}\,\max_x p(x\mid y)`,
		Call: func(a *Args) (any, error) {
			return measure.MaxCasePosteriorBayesVulnerability(a.Vec("prior"), a.Mat("C"))
		}},
	{NS: "measure", Name: "posteriorGuessingEntropy", Params: []*Param{&pPrior, &pC}, Result: Number, Source: fosad + " §1",
		Doc: "Posterior guessing entropy Σ_y p(y) G(δʸ), expected number of guesses after seeing the output.", TeX: `G(X\mid Y) = \sum_y p(y)\, G(X\mid Y{=}y)`,
		Call: func(a *Args) (any, error) { return measure.PosteriorGuessingEntropy(a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "minCapacity", Params: []*Param{&pC}, Result: Number, Source: fosad + " §3.2",
		Doc: "Min-capacity log₂ Σ_y max_x C[x][y] (min-entropy leakage under the uniform prior, its maximum), bits.", TeX: `C_\infty = \log_2 \sum_y \max_x C(x,y)`,
		Call: func(a *Args) (any, error) { return measure.MinCapacity(a.Mat("C")) }},
	{NS: "measure", Name: "multiplicativeBayesCapacity", Params: []*Param{&pC}, Result: Number, Source: fosad + " §3.2; " + libqif,
		Doc:  "Multiplicative Bayes capacity Σ_y max_x C[x][y]: the largest V[π▷C]/V(π) over all priors, reached at the uniform prior (a ratio; its log₂ is minCapacity).",
		TeX:  `\mathcal{ML}^{\times}(C) = \sup_\pi \frac{V[\pi\triangleright C]}{V(\pi)} = \sum_y \max_x C(x,y)`,
		Call: func(a *Args) (any, error) { return measure.MultiplicativeBayesCapacity(a.Mat("C")) }},
	{NS: "measure", Name: "multiplicativeBayesRiskCapacity", Params: []*Param{&pC}, Result: Number, Source: libqif,
		Doc: "Multiplicative Bayes-risk capacity sup_π R(π)/R[π▷C] = 1/(1 − diam/2), diam the largest L1 distance between two rows (Infinity when two rows have disjoint supports).",
		TeX: `\sup_\pi \frac{R(\pi)}{R[\pi\triangleright C]} = \frac{1}{1 - \tfrac12 \max_{x,x'} \lVert C(x,\cdot) - C(x',\cdot) \rVert_1}`,
		Call: func(a *Args) (any, error) {
			v, _, err := measure.MultiplicativeBayesRiskCapacity(a.Mat("C"))
			return v, err
		}},
	{NS: "measure", Name: "additiveGCapacity", Source: libqif,
		Params: []*Param{&pPrior, &pC, {Name: "options", Kind: KindOptions, Optional: true, Type: "AdditiveGCapacityOptions", Fields: []*Param{
			{Name: "gainClass", Kind: KindEnum, Enum: []string{measure.OneSpanningVulnerability.String(), measure.OneSpanningGain.String()},
				Default: measure.OneSpanningVulnerability.String(), Doc: "the class of gain functions: 1-spanning vulnerabilities or 1-spanning gain functions"}}}},
		Result: Number,
		Doc:    "Additive capacity of C for the fixed prior π over a class of gain functions: its largest additive g-leakage V_g[π▷C] − V_g(π), in [0, 1].",
		TeX:    `\sup_{g\in\mathcal G} \big(V_g[\pi\triangleright C] - V_g(\pi)\big) = 1 - \sum_y \min_{x\in\operatorname{supp}\pi} C(x,y)\ \text{or}\ \sum_y p(y)\,\mathrm{tv}(\pi, \delta^y)`,
		Call: func(a *Args) (any, error) {
			class, err := measure.ParseGainClass(a.Str("gainClass"))
			if err != nil {
				return nil, err
			}
			return measure.AdditiveGCapacity(a.Vec("prior"), a.Mat("C"), class)
		}},
	{NS: "measure", Name: "shannonCapacity", Source: fosad + " §3.1", TeX: `C = \max_{\pi} I(X;Y)`,
		Doc: "Shannon capacity max_π I(X;Y) by accelerated Blahut–Arimoto, bits, with the achieving prior and a certified upper bound.",
		Params: []*Param{&pC, {Name: "options", Kind: KindOptions, Optional: true, Type: "ShannonCapacityOptions", Fields: []*Param{
			{Name: "tolerance", Kind: KindNumber, Check: CheckPositive, Default: 1e-6, Doc: "stop once the certified gap upperBound − capacity is at most this many bits"},
			{Name: "maxIterations", Kind: KindInteger, Check: CheckPositive, Default: measure.DefaultCapacityMaxIterations, Doc: "largest number of Blahut–Arimoto iterations"},
			{Name: "onProgress", Kind: KindCallback, CallArgs: []string{"iteration", "lower", "upper"},
				Doc: "called every iteration with the current lower and upper bounds (bits); return false to cancel"}}}},
		Result: Type{Name: "ShannonCapacity", Doc: "Result of measure.shannonCapacity.", Fields: []Field{
			{Name: "capacity", Type: Number, Doc: "Capacity in bits: a certified lower bound, within `tolerance` of the true value when converged."},
			{Name: "upperBound", Type: Number, Doc: "Certified upper bound on the capacity, bits."},
			{Name: "gap", Type: Number, Doc: "upperBound − capacity, bits: how far the true capacity can be from `capacity`."},
			{Name: "prior", Type: VectorOut, Doc: "The capacity-achieving prior found."},
			{Name: "iterations", Type: Number, Doc: "Blahut–Arimoto iterations performed."},
			{Name: "converged", Type: Boolean, Doc: "Whether the gap reached the tolerance (false when stopped by maxIterations)."}}},
		Call: func(a *Args) (any, error) {
			opts := measure.CapacityOptions{Tolerance: a.Float("tolerance"), MaxIterations: a.Int("maxIterations")}
			if p := a.Progress("onProgress"); p != nil {
				opts.Progress = func(it int, lower, upper float64) bool { return p(it, lower, upper) }
			}
			r, err := measure.ShannonCapacity(a.Mat("C"), &opts)
			if err != nil {
				return nil, err
			}
			return Obj{"capacity": r.Capacity, "prior": r.Prior, "iterations": r.Iterations, "upperBound": r.UpperBound,
				"gap": r.UpperBound - r.Capacity, "converged": r.Converged}, nil
		}},

	{NS: "measure", Name: "gVulnerability", Params: []*Param{&pGain, &pPrior}, Result: Number, Source: csf + " §2",
		Doc: "g-vulnerability V_g(π) = max_w Σ_x G[w][x] π_x (G rows = guesses, cols = secrets), in the gain's units.", TeX: `V_g(\pi) = \max_w \sum_x g(w,x)\,\pi(x)`,
		Call: func(a *Args) (any, error) { return measure.GVulnerability(a.Mat("gain"), a.Vec("prior")) }},
	{NS: "measure", Name: "lossRisk", Params: []*Param{&pLoss, &pPrior}, Result: Number, Source: csf + " §2",
		Doc: "Loss risk U_ℓ(π) = min_w Σ_x L[w][x] π_x (L rows = actions, cols = secrets), in the loss's units.", TeX: `U_\ell(\pi) = \min_w \sum_x \ell(w,x)\,\pi(x)`,
		Call: func(a *Args) (any, error) { return measure.LossRisk(a.Mat("loss"), a.Vec("prior")) }},
	{NS: "measure", Name: "posteriorGVulnerability", Params: []*Param{&pGain, &pPrior, &pC}, Result: Number, Source: csf + " §2",
		Doc: "Posterior g-vulnerability V_g[π▷C] = Σ_y max_w Σ_x G[w][x] π_x C[x][y], in the gain's units.",
		TeX: `V_g[\pi\triangleright C] = \sum_y \max_w \sum_x g(w,x)\,\pi(x)\,C(x,y)`,
		Call: func(a *Args) (any, error) {
			return measure.PosteriorGVulnerability(a.Mat("gain"), a.Vec("prior"), a.Mat("C"))
		}},
	{NS: "measure", Name: "multiplicativeGLeakage", Params: []*Param{&pGain, &pPrior, &pC}, Result: Number, Source: csf + " §2",
		Doc: "Multiplicative g-leakage V_g[π▷C]/V_g(π), a ratio.", TeX: `\mathcal{L}^{\times}_g(\pi,C) = V_g[\pi\triangleright C]/V_g(\pi)`,
		Call: func(a *Args) (any, error) {
			return measure.MultiplicativeGLeakage(a.Mat("gain"), a.Vec("prior"), a.Mat("C"))
		}},
	{NS: "measure", Name: "additiveGLeakage", Params: []*Param{&pGain, &pPrior, &pC}, Result: Number, Source: csf + " §2",
		Doc: "Additive g-leakage V_g[π▷C] − V_g(π), in the gain's units.", TeX: `\mathcal{L}^{+}_g(\pi,C) = V_g[\pi\triangleright C] - V_g(\pi)`,
		Call: func(a *Args) (any, error) { return measure.AdditiveGLeakage(a.Mat("gain"), a.Vec("prior"), a.Mat("C")) }},
	{NS: "measure", Name: "posteriorLossRisk", Params: []*Param{&pLoss, &pPrior, &pC}, Result: Number, Source: csf + " §2",
		Doc: "Posterior loss risk Σ_y min_w Σ_x L[w][x] π_x C[x][y], in the loss's units.",
		TeX: `U_\ell[\pi\triangleright C] = \sum_y \min_w \sum_x \ell(w,x)\,\pi(x)\,C(x,y)`,
		Call: func(a *Args) (any, error) {
			return measure.PosteriorLossRisk(a.Mat("loss"), a.Vec("prior"), a.Mat("C"))
		}},
	{NS: "measure", Name: "optimalStrategy", Params: []*Param{&pGain, &pPrior, &pC}, Result: IntList, Source: csf + " §2",
		Doc: "Optimal guess (row of G) for each output y of C; −1 for outputs of probability 0.", TeX: `w^*(y) = \arg\max_w \sum_x g(w,x)\,\pi(x)\,C(x,y)`,
		Call: func(a *Args) (any, error) { return measure.OptimalStrategy(a.Mat("gain"), a.Vec("prior"), a.Mat("C")) }},

	{NS: "measure", Name: "klDivergence", Params: []*Param{&pP, &pQ}, Result: Number, Source: vadhan,
		Doc: "Kullback–Leibler divergence D(P‖Q), bits (Infinity when P is not absolutely continuous w.r.t. Q).", TeX: `D(P\,\|\,Q) = \sum_y P(y)\log_2 \tfrac{P(y)}{Q(y)}`,
		Call: func(a *Args) (any, error) { return measure.KLDivergence(a.Vec("P"), a.Vec("Q")) }},
	{NS: "measure", Name: "maxDivergence", Params: []*Param{&pP, &pQ}, Result: Number, Source: vadhan,
		Doc: "Max-divergence max_y ln(P(y)/Q(y)), nats.", TeX: `D_\infty(P\,\|\,Q) = \max_y \ln \tfrac{P(y)}{Q(y)}`,
		Call: func(a *Args) (any, error) { return measure.MaxDivergence(a.Vec("P"), a.Vec("Q")) }},
	{NS: "measure", Name: "statisticalDistance", Params: []*Param{&pP, &pQ}, Result: Number, Source: vadhan,
		Doc: "Statistical (total variation) distance ½Σ|P − Q|, probability.", TeX: `\Delta(P,Q) = \tfrac12 \sum_y |P(y) - Q(y)|`,
		Call: func(a *Args) (any, error) { return measure.StatisticalDistance(a.Vec("P"), a.Vec("Q")) }},
	{NS: "measure", Name: "hockeyStick", Params: []*Param{&pP, &pQ, {Name: "epsilon", Kind: KindNumber, Doc: "ε ≥ 0 (Infinity allowed), nats"}},
		Result: Number, Source: vadhan, TeX: `\delta = \sum_y \max\big(0,\ P(y) - e^{\varepsilon} Q(y)\big)`,
		Doc:  "Hockey-stick divergence Σ_y max(0, P(y) − e^ε Q(y)): the smallest δ, probability.",
		Call: func(a *Args) (any, error) { return measure.HockeyStick(a.Vec("P"), a.Vec("Q"), a.Float("epsilon")) }},
}
