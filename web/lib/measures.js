// lib/measures.js — what the results panel of "Channel & leakage" shows (docs/mathematics.md §2, §8) and how each
// value is obtained from the API. The page groups results into panels by what they depend on,
// so that changing α recomputes one number, not all of them; each panel is one worker job, and
// its rational-valued measures have a second, exact job (qif.exact) when the inputs were typed
// as fractions or decimals. A measure's key is the name of the API function that computes it
// (measure.<key>, exact.measure.<key>); the widgets take the same keys.

import { reportToJob } from '../engine/client.js';

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
  bayesRisk: { group: 'bayes', name: 'Prior Bayes risk', formula: 'R(π) = 1 − V(π)', unit: 'probability' },
  posteriorBayesRisk: { group: 'bayes', name: 'Posterior Bayes risk', formula: 'R[π▷C] = 1 − V[π▷C]', unit: 'probability' },
  multiplicativeBayesLeakage: { group: 'bayes', name: 'Multiplicative Bayes leakage', formula: 'L×(π,C) = V[π▷C] / V(π)', unit: '× (ratio)' },
  additiveBayesLeakage: { group: 'bayes', name: 'Additive Bayes leakage', formula: 'L₊(π,C) = V[π▷C] − V(π)', unit: 'probability' },
  maxCasePosteriorBayesVulnerability: { group: 'bayes', name: 'Max-case posterior Bayes vulnerability', formula: 'V^{max}[π▷C] = max_{y: p(y)>0} maxₓ p(x|y)', unit: 'probability' },

  guessingEntropy: { group: 'guessing', name: 'Guessing entropy', formula: 'G(X) = Σᵢ i · π₍ᵢ₎  (π sorted decreasingly)', unit: 'guesses' },
  posteriorGuessingEntropy: { group: 'guessing', name: 'Posterior guessing entropy', formula: 'G(X|Y) = Σ_y p(y) G(X | Y=y)', unit: 'guesses' },

  gVulnerability: { group: 'gain', name: 'Prior g-vulnerability', formula: 'V_g(π) = max_w Σₓ g(w,x) π(x)', unit: 'gain' },
  posteriorGVulnerability: { group: 'gain', name: 'Posterior g-vulnerability', formula: 'V_g[π▷C] = Σ_y max_w Σₓ g(w,x) π(x) C(x,y)', unit: 'gain' },
  multiplicativeGLeakage: { group: 'gain', name: 'Multiplicative g-leakage', formula: 'L×_g(π,C) = V_g[π▷C] / V_g(π)', unit: '× (ratio)' },
  additiveGLeakage: { group: 'gain', name: 'Additive g-leakage', formula: 'L₊_g(π,C) = V_g[π▷C] − V_g(π)', unit: 'gain' },

  multiplicativeBayesCapacity: { group: 'capacities', name: 'Multiplicative Bayes capacity', formula: 'ML×(C) = sup_π V[π▷C] / V(π) = Σ_y maxₓ C(x,y)', unit: '× (ratio)' },
  multiplicativeBayesRiskCapacity: { group: 'capacities', name: 'Multiplicative Bayes-risk capacity', formula: 'sup_π R(π) / R[π▷C] = 1 / (1 − ½ max_{x,x′} ‖C(x,·) − C(x′,·)‖₁)', unit: '× (ratio)' },
  additiveGCapacity: { group: 'capacities', name: 'Additive g-capacity for the prior π', formula: 'sup_{g∈𝒢} (V_g[π▷C] − V_g(π))', unit: 'gain' },
};

/**
 * Old keys of the widgets' `measures` attribute, before keys were the API's names: still
 * accepted (an embed written then keeps working), never shown.
 */
export const MEASURE_ALIASES = Object.freeze({
  bayesRiskPrior: 'bayesRisk',
  bayesRiskPosterior: 'posteriorBayesRisk',
  bayesLeakageMult: 'multiplicativeBayesLeakage',
  bayesLeakageAdd: 'additiveBayesLeakage',
  maxCaseBayesVulnerability: 'maxCasePosteriorBayesVulnerability',
  gLeakageMult: 'multiplicativeGLeakage',
  gLeakageAdd: 'additiveGLeakage',
});

/** The key of MEASURES a widget's `key` names (itself or the key of an old alias), or null. */
export function measureKey(key) {
  if (Object.hasOwn(MEASURES, key)) return key;
  return Object.hasOwn(MEASURE_ALIASES, key) ? MEASURE_ALIASES[key] : null;
}

/** The classes of gain functions of measure.additiveGCapacity (its option gainClass). */
export const GAIN_CLASSES = [
  { id: 'oneSpanningVulnerability', name: '1-spanning vulnerabilities', formula: '1 − Σ_y min_{x∈supp π} C(x,y)' },
  { id: 'oneSpanningGain', name: '1-spanning gain functions', formula: 'Σ_y p(y) · tv(π, p(·|y))' },
];
export const DEFAULT_GAIN_CLASS = GAIN_CLASSES[0].id;

/** Result groups, in page order. */
export const GROUPS = [
  { id: 'shannon', title: 'Shannon entropy and mutual information', source: 'Alvim et al. (FOSAD 2011) §2.1, §3.1' },
  { id: 'renyi', title: 'Rényi and min-entropy', source: 'Alvim et al. (FOSAD 2011) §2.2, §3.2' },
  { id: 'bayes', title: 'Bayes vulnerability and leakage', source: 'Mathematics §2.3 · Chatzikokolakis et al. (CSF 2019) §2–3' },
  { id: 'guessing', title: 'Guessing entropy', source: 'Alvim et al. (FOSAD 2011) §1' },
  { id: 'gain', title: 'g-vulnerability and g-leakage', source: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  { id: 'capacities', title: 'Capacities', source: 'Mathematics §8 · Alvim et al. (FOSAD 2011) §3.2' },
  { id: 'hyper', title: 'Hyper-distribution [π▷C]', source: 'Mathematics §2.6' },
];

const m = (fn, ...args) => ({ ns: 'measure', fn, args });
const e = (fn, ...args) => ({ ns: 'exact.measure', fn, args });

/**
 * Panels: `deps` are the inputs that must be valid, `calls` builds the worker job from the
 * validated inputs {C, prior, G, alpha, tolerance, gainClass}, `derive` turns the settled results
 * (by call index) into settled results by measure key ({ok, value} or {ok: false, error}).
 * `exact`, where a panel has rational-valued measures, builds their exact job from the inputs
 * as fraction strings (same names; exactPlan/exactResults read it): by measure key, the call of
 * qif.exact whose value (a fraction string, or the exact hyper) belongs beside the decimal.
 * Every value comes from an API function: the page computes nothing itself.
 */
export const PANELS = {
  prior: {
    deps: ['prior'],
    calls: ({ prior }) => [m('shannonEntropy', prior), m('minEntropy', prior), m('bayesVulnerability', prior), m('bayesRisk', prior), m('guessingEntropy', prior)],
    derive: ([h, hinf, v, risk, g]) => ({
      shannonEntropy: h,
      minEntropy: hinf,
      bayesVulnerability: v,
      bayesRisk: risk,
      guessingEntropy: g,
    }),
    exact: ({ prior }) => ({
      bayesVulnerability: e('bayesVulnerability', prior),
      bayesRisk: e('bayesRisk', prior),
      guessingEntropy: e('guessingEntropy', prior),
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
      posteriorBayesRisk: rpost,
      multiplicativeBayesLeakage: mult,
      additiveBayesLeakage: add,
      maxCasePosteriorBayesVulnerability: vmax,
      posteriorGuessingEntropy: gpost,
      hyper,
    }),
    exact: ({ prior, C }) => ({
      posteriorBayesVulnerability: e('posteriorBayesVulnerability', prior, C),
      posteriorBayesRisk: e('posteriorBayesRisk', prior, C),
      multiplicativeBayesLeakage: e('multiplicativeBayesLeakage', prior, C),
      additiveBayesLeakage: e('additiveBayesLeakage', prior, C),
      maxCasePosteriorBayesVulnerability: e('maxCasePosteriorBayesVulnerability', prior, C),
      posteriorGuessingEntropy: e('posteriorGuessingEntropy', prior, C),
      hyper: { ns: 'exact.channel', fn: 'hyper', args: [prior, C] },
    }),
  },
  channel: {
    deps: ['channel'],
    calls: ({ C }) => [m('minCapacity', C), m('multiplicativeBayesCapacity', C), m('multiplicativeBayesRiskCapacity', C)],
    derive: ([c, mult, risk]) => ({ minCapacity: c, multiplicativeBayesCapacity: mult, multiplicativeBayesRiskCapacity: risk }),
    exact: ({ C }) => ({
      multiplicativeBayesCapacity: e('multiplicativeBayesCapacity', C),
      multiplicativeBayesRiskCapacity: e('multiplicativeBayesRiskCapacity', C),
    }),
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
    exact: ({ prior, G }) => ({ gVulnerability: e('gVulnerability', G, prior) }),
  },
  gpost: {
    deps: ['prior', 'gain', 'channel'],
    calls: ({ prior, G, C }) => [m('posteriorGVulnerability', G, prior, C), m('multiplicativeGLeakage', G, prior, C), m('additiveGLeakage', G, prior, C)],
    derive: ([vpost, mult, add]) => ({ posteriorGVulnerability: vpost, multiplicativeGLeakage: mult, additiveGLeakage: add }),
    exact: ({ prior, G, C }) => ({
      posteriorGVulnerability: e('posteriorGVulnerability', G, prior, C),
      multiplicativeGLeakage: e('multiplicativeGLeakage', G, prior, C),
      additiveGLeakage: e('additiveGLeakage', G, prior, C),
    }),
  },
  gcapacity: {
    deps: ['prior', 'channel', 'gainClass'],
    calls: ({ prior, C, gainClass }) => [m('additiveGCapacity', prior, C, { gainClass })],
    derive: ([r]) => ({ additiveGCapacity: r }),
    exact: ({ prior, C, gainClass }) => ({ additiveGCapacity: e('additiveGCapacity', prior, C, { gainClass }) }),
  },
};

/** The measure keys each panel fills. */
export const PANEL_KEYS = Object.fromEntries(Object.entries(PANELS).map(([name, p]) => [
  name, Object.keys(p.derive(p.calls({ prior: [], C: [], G: [], alpha: 0, tolerance: 1, gainClass: DEFAULT_GAIN_CLASS }).map(() => ({ ok: false, error: '' })))),
]));

/**
 * The exact job of panel `name` for the inputs as fraction strings, as {keys, calls} (null when
 * the panel has no exact measure): results come back in the order of `keys`.
 */
export function exactPlan(name, inputs) {
  const p = PANELS[name];
  if (!p.exact) return null;
  const byKey = p.exact(inputs);
  return { keys: Object.keys(byKey), calls: Object.values(byKey) };
}

/** The settled results of an exactPlan by measure key. */
export function exactResults(plan, results) {
  return Object.fromEntries(plan.keys.map((k, i) => [k, results[i]]));
}


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
  bayesRisk: { tex: String.raw`R(\pi) = 1 - V(\pi)`, ref: 'Alvim et al. (ICALP 2011) §2.2' },
  posteriorBayesRisk: { tex: String.raw`R[\pi\triangleright C] = 1 - V[\pi\triangleright C]`, ref: 'Alvim et al. (ICALP 2011) §2.2' },
  multiplicativeBayesLeakage: { tex: String.raw`\mathcal{L}^{\times}(\pi,C) = \frac{V[\pi\triangleright C]}{V(\pi)}`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  additiveBayesLeakage: { tex: String.raw`\mathcal{L}^{+}(\pi,C) = V[\pi\triangleright C] - V(\pi)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  maxCasePosteriorBayesVulnerability: { tex: String.raw`V^{\max}[\pi\triangleright C] = \max_{y:\,p(y)>0}\,\max_x p(x\mid y)`, ref: 'Chatzikokolakis et al. (CSF 2019) §3' },
  guessingEntropy: { tex: String.raw`G(X) = \sum_{i=1}^{n} i\,\pi_{(i)}`, ref: 'Alvim et al. (FOSAD 2011) §1' },
  posteriorGuessingEntropy: { tex: String.raw`G(X\mid Y) = \sum_y p(y)\, G(X\mid Y{=}y)`, ref: 'Mathematics §2.5' },
  gVulnerability: { tex: String.raw`V_g(\pi) = \max_w \sum_x g(w,x)\,\pi(x)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  posteriorGVulnerability: { tex: String.raw`V_g[\pi\triangleright C] = \sum_y \max_w \sum_x g(w,x)\,\pi(x)\,C(x,y)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  multiplicativeGLeakage: { tex: String.raw`\mathcal{L}^{\times}_g(\pi,C) = \frac{V_g[\pi\triangleright C]}{V_g(\pi)}`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  additiveGLeakage: { tex: String.raw`\mathcal{L}^{+}_g(\pi,C) = V_g[\pi\triangleright C] - V_g(\pi)`, ref: 'Chatzikokolakis et al. (CSF 2019) §2.1' },
  multiplicativeBayesCapacity: { tex: String.raw`\mathcal{ML}^{\times}(C) = \sup_\pi \frac{V[\pi\triangleright C]}{V(\pi)} = \sum_y \max_x C(x,y)`, ref: 'Alvim et al. (FOSAD 2011) §3.2' },
  multiplicativeBayesRiskCapacity: { tex: String.raw`\sup_\pi \frac{R(\pi)}{R[\pi\triangleright C]} = \frac{1}{1 - \tfrac12 \max_{x,x'} \lVert C(x,\cdot) - C(x',\cdot) \rVert_1}`, ref: 'Mathematics §8' },
  additiveGCapacity: { tex: String.raw`\sup_{g\in\mathcal G} \big(V_g[\pi\triangleright C] - V_g(\pi)\big)`, ref: 'Mathematics §8' },
};
