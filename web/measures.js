// measures.js — what the results panel of "Channel & leakage" shows (docs/mathematics.md §2) and how each
// value is obtained from the API. The page groups results into panels by what they depend on,
// so that changing α recomputes one number, not all of them; each panel is one worker job.

import { reportToJob } from './client.js';

/**
 * Display definitions, in page order within their group. `unit` is shown after the value.
 * @type {Record<string, {name: string, formula: string, unit: string, group: string}>}
 */
export const MEASURES = {
  shannonEntropy: { group: 'shannon', name: 'Shannon entropy', formula: 'H(X) = −Σₓ π(x) log₂ π(x)', unit: 'bits' },
  conditionalShannonEntropy: { group: 'shannon', name: 'Conditional entropy', formula: 'H(X|Y) = Σ_y p(y) H(X | Y=y)', unit: 'bits' },
  mutualInformation: { group: 'shannon', name: 'Mutual information', formula: 'I(X;Y) = H(X) − H(X|Y)', unit: 'bits' },
  shannonCapacity: { group: 'shannon', name: 'Shannon capacity', formula: 'C = max_π I(X;Y)  (Blahut–Arimoto)', unit: 'bits' },

  renyiEntropy: { group: 'renyi', name: 'Rényi entropy', formula: 'H_α(X) = 1/(1−α) · log₂ Σₓ π(x)^α', unit: 'bits' },
  minEntropy: { group: 'renyi', name: 'Min-entropy', formula: 'H∞(X) = −log₂ maxₓ π(x)', unit: 'bits' },
  conditionalMinEntropy: { group: 'renyi', name: 'Conditional min-entropy (Smith)', formula: 'H∞(X|Y) = −log₂ Σ_y maxₓ π(x) C(x,y)', unit: 'bits' },
  conditionalMinEntropyCachin: { group: 'renyi', name: 'Conditional min-entropy (Cachin)', formula: 'H∞ᶜ(X|Y) = −Σ_y p(y) log₂ maxₓ p(x|y)', unit: 'bits' },
  minEntropyLeakage: { group: 'renyi', name: 'Min-entropy leakage', formula: 'I∞(X;Y) = H∞(X) − H∞(X|Y)', unit: 'bits' },
  minCapacity: { group: 'renyi', name: 'Min-capacity', formula: 'C∞ = log₂ Σ_y maxₓ C(x,y)  (at the uniform prior)', unit: 'bits' },

  bayesVulnerability: { group: 'bayes', name: 'Prior Bayes vulnerability', formula: 'V(π) = maxₓ π(x)', unit: 'probability' },
  posteriorBayesVulnerability: { group: 'bayes', name: 'Posterior Bayes vulnerability', formula: 'V[π▷C] = Σ_y maxₓ π(x) C(x,y)', unit: 'probability' },
  bayesRiskPrior: { group: 'bayes', name: 'Prior Bayes risk', formula: 'R(π) = 1 − V(π)', unit: 'probability' },
  bayesRiskPosterior: { group: 'bayes', name: 'Posterior Bayes risk', formula: 'R[π▷C] = 1 − V[π▷C]', unit: 'probability' },
  bayesLeakageMult: { group: 'bayes', name: 'Multiplicative Bayes leakage', formula: 'L×(π,C) = V[π▷C] / V(π)', unit: '× (ratio)' },
  bayesLeakageAdd: { group: 'bayes', name: 'Additive Bayes leakage', formula: 'L₊(π,C) = V[π▷C] − V(π)', unit: 'probability' },
  maxCaseBayesVulnerability: { group: 'bayes', name: 'Max-case posterior Bayes vulnerability', formula: 'V^{max}[π▷C] = max_{y: p(y)>0} maxₓ p(x|y)', unit: 'probability' },

  guessingEntropy: { group: 'guessing', name: 'Guessing entropy', formula: 'G(X) = Σᵢ i · π₍ᵢ₎  (π sorted decreasingly)', unit: 'guesses' },
  posteriorGuessingEntropy: { group: 'guessing', name: 'Posterior guessing entropy', formula: 'G(X|Y) = Σ_y p(y) G(X | Y=y)', unit: 'guesses' },

  gVulnerability: { group: 'gain', name: 'Prior g-vulnerability', formula: 'V_g(π) = max_w Σₓ g(w,x) π(x)', unit: 'gain' },
  posteriorGVulnerability: { group: 'gain', name: 'Posterior g-vulnerability', formula: 'V_g[π▷C] = Σ_y max_w Σₓ g(w,x) π(x) C(x,y)', unit: 'gain' },
  gLeakageMult: { group: 'gain', name: 'Multiplicative g-leakage', formula: 'L×_g(π,C) = V_g[π▷C] / V_g(π)', unit: '× (ratio)' },
  gLeakageAdd: { group: 'gain', name: 'Additive g-leakage', formula: 'L₊_g(π,C) = V_g[π▷C] − V_g(π)', unit: 'gain' },
};

/** Result groups, in page order. */
export const GROUPS = [
  { id: 'shannon', title: 'Shannon entropy and mutual information', source: 'Alvim et al. (FOSAD 2011) §2.1, §3.1' },
  { id: 'renyi', title: 'Rényi and min-entropy', source: 'Alvim et al. (FOSAD 2011) §2.2, §3.2' },
  { id: 'bayes', title: 'Bayes vulnerability and leakage', source: 'Mathematics §2.3 · Chatzikokolakis et al. (CSF 2019) §2–3' },
  { id: 'guessing', title: 'Guessing entropy', source: 'Alvim et al. (FOSAD 2011) §1' },
  { id: 'gain', title: 'g-vulnerability and g-leakage', source: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  { id: 'hyper', title: 'Hyper-distribution [π▷C]', source: 'Mathematics §2.6' },
];

const m = (fn, ...args) => ({ ns: 'measure', fn, args });


/**
 * Panels: `deps` are the inputs that must be valid, `calls` builds the worker job from the
 * validated inputs {C, prior, G, alpha, tolerance}, `derive` turns the settled results (by call index)
 * into settled results by measure key ({ok, value} or {ok: false, error}). Every value
 * comes from an API function: the page computes nothing itself.
 */
export const PANELS = {
  prior: {
    deps: ['prior'],
    calls: ({ prior }) => [m('shannonEntropy', prior), m('minEntropy', prior), m('bayesVulnerability', prior), m('bayesRisk', prior), m('guessingEntropy', prior)],
    derive: ([h, hinf, v, risk, g]) => ({
      shannonEntropy: h,
      minEntropy: hinf,
      bayesVulnerability: v,
      bayesRiskPrior: risk,
      guessingEntropy: g,
    }),
  },
  posterior: {
    deps: ['prior', 'channel'],
    calls: ({ prior, C }) => [
      m('conditionalShannonEntropy', prior, C),
      m('mutualInformation', prior, C),
      m('conditionalMinEntropy', prior, C),
      m('conditionalMinEntropyCachin', prior, C),
      m('minEntropyLeakage', prior, C),
      m('posteriorBayesVulnerability', prior, C),
      m('posteriorBayesRisk', prior, C),
      m('multiplicativeBayesLeakage', prior, C),
      m('additiveBayesLeakage', prior, C),
      m('maxCasePosteriorBayesVulnerability', prior, C),
      m('posteriorGuessingEntropy', prior, C),
      { ns: 'channel', fn: 'hyper', args: [prior, C] },
    ],
    derive: ([hxy, mi, hminS, hminC, leak, vpost, rpost, mult, add, vmax, gpost, hyper]) => ({
      conditionalShannonEntropy: hxy,
      mutualInformation: mi,
      conditionalMinEntropy: hminS,
      conditionalMinEntropyCachin: hminC,
      minEntropyLeakage: leak,
      posteriorBayesVulnerability: vpost,
      bayesRiskPosterior: rpost,
      bayesLeakageMult: mult,
      bayesLeakageAdd: add,
      maxCaseBayesVulnerability: vmax,
      posteriorGuessingEntropy: gpost,
      hyper,
    }),
  },
  channel: {
    deps: ['channel'],
    calls: ({ C }) => [m('minCapacity', C)],
    derive: ([c]) => ({ minCapacity: c }),
  },
  // Blahut–Arimoto can take a while on a large channel: it reports progress and can be
  // cancelled (the page shows both after a short delay).
  capacity: {
    deps: ['channel', 'tolerance'],
    calls: ({ C, tolerance }) => [m('shannonCapacity', C, { tolerance, onProgress: reportToJob })],
    derive: ([r]) => ({ shannonCapacity: r }),
  },
  renyi: {
    deps: ['prior', 'alpha'],
    calls: ({ prior, alpha }) => [m('renyiEntropy', prior, alpha)],
    derive: ([r]) => ({ renyiEntropy: r }),
  },
  gprior: {
    deps: ['prior', 'gain'],
    calls: ({ prior, G }) => [m('gVulnerability', G, prior)],
    derive: ([v]) => ({ gVulnerability: v }),
  },
  gpost: {
    deps: ['prior', 'gain', 'channel'],
    calls: ({ prior, G, C }) => [m('posteriorGVulnerability', G, prior, C), m('multiplicativeGLeakage', G, prior, C), m('additiveGLeakage', G, prior, C)],
    derive: ([vpost, mult, add]) => ({ posteriorGVulnerability: vpost, gLeakageMult: mult, gLeakageAdd: add }),
  },
};


/**
 * The definition of each measure in TeX (rendered by KaTeX beside the value, see formulas.js)
 * and where it comes from: `ref` is a paper and its section ("Alvim et al. (FOSAD 2011) §2.1",
 * see PAPERS in formulas.js) or a section of the toolkit's own statement ("Mathematics §2.5").
 * @type {Record<string, {tex: string, ref: string}>}
 */
export const FORMULAS = {
  shannonEntropy: { tex: String.raw`H(X) = -\sum_x \pi(x)\log_2 \pi(x)`, ref: 'Alvim et al. (FOSAD 2011) §2.1' },
  conditionalShannonEntropy: { tex: String.raw`H(X\mid Y) = \sum_y p(y)\, H(X\mid Y{=}y)`, ref: 'Alvim et al. (FOSAD 2011) §3.1' },
  mutualInformation: { tex: String.raw`I(X;Y) = H(X) - H(X\mid Y)`, ref: 'Alvim et al. (FOSAD 2011) §3.1' },
  shannonCapacity: { tex: String.raw`C = \max_{\pi} I(X;Y)`, ref: 'Alvim et al. (FOSAD 2011) §3.1' },
  renyiEntropy: { tex: String.raw`H_\alpha(X) = \tfrac{1}{1-\alpha}\log_2 \sum_x \pi(x)^\alpha`, ref: 'Alvim et al. (FOSAD 2011) §2.2' },
  minEntropy: { tex: String.raw`H_\infty(X) = -\log_2 \max_x \pi(x)`, ref: 'Alvim et al. (FOSAD 2011) §2.2' },
  conditionalMinEntropy: { tex: String.raw`H_\infty(X\mid Y) = -\log_2 \sum_y \max_x \pi(x)\,C(x,y)`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  conditionalMinEntropyCachin: { tex: String.raw`H^{\mathrm{c}}_\infty(X\mid Y) = -\sum_y p(y)\log_2 \max_x p(x\mid y)`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  minEntropyLeakage: { tex: String.raw`I_\infty(X;Y) = H_\infty(X) - H_\infty(X\mid Y)`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  minCapacity: { tex: String.raw`C_\infty = \log_2 \sum_y \max_x C(x,y)`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  bayesVulnerability: { tex: String.raw`V(\pi) = \max_x \pi(x)`, ref: 'Alvim et al. (FOSAD 2011) §2.2' },
  posteriorBayesVulnerability: { tex: String.raw`V[\pi\triangleright C] = \sum_y \max_x \pi(x)\,C(x,y)`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  bayesRiskPrior: { tex: String.raw`R(\pi) = 1 - V(\pi)`, ref: 'Alvim et al. (ICALP 2011) §2.2' },
  bayesRiskPosterior: { tex: String.raw`R[\pi\triangleright C] = 1 - V[\pi\triangleright C]`, ref: 'Alvim et al. (ICALP 2011) §2.2' },
  bayesLeakageMult: { tex: String.raw`\mathcal{L}^{\times}(\pi,C) = \frac{V[\pi\triangleright C]}{V(\pi)}`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  bayesLeakageAdd: { tex: String.raw`\mathcal{L}^{+}(\pi,C) = V[\pi\triangleright C] - V(\pi)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  maxCaseBayesVulnerability: { tex: String.raw`V^{\max}[\pi\triangleright C] = \max_{y:\,p(y)>0}\,\max_x p(x\mid y)`, ref: 'Chatzikokolakis et al. (CSF 2019) §3' },
  guessingEntropy: { tex: String.raw`G(X) = \sum_{i=1}^{n} i\,\pi_{(i)}`, ref: 'Alvim et al. (FOSAD 2011) §1' },
  posteriorGuessingEntropy: { tex: String.raw`G(X\mid Y) = \sum_y p(y)\, G(X\mid Y{=}y)`, ref: 'Mathematics §2.5' },
  gVulnerability: { tex: String.raw`V_g(\pi) = \max_w \sum_x g(w,x)\,\pi(x)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  posteriorGVulnerability: { tex: String.raw`V_g[\pi\triangleright C] = \sum_y \max_w \sum_x g(w,x)\,\pi(x)\,C(x,y)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  gLeakageMult: { tex: String.raw`\mathcal{L}^{\times}_g(\pi,C) = \frac{V_g[\pi\triangleright C]}{V_g(\pi)}`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  gLeakageAdd: { tex: String.raw`\mathcal{L}^{+}_g(\pi,C) = V_g[\pi\triangleright C] - V_g(\pi)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
};
