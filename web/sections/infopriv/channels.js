// sections/infopriv/channels.js — the "Privacy channels of Wu (2019)" card: the binary symmetric
// channel (capacity 1 − h(p), and the flip probability for a target capacity), the Gaussian channel
// (½ log₂(1 + P/σ²), and σ for a target capacity), and the noise variances of the Laplace and
// Gaussian mechanisms beside the Gaussian privacy channel (Wu (2019) §5.2). Every number is
// computed in the worker, each panel a task of the section's pipeline (only its latest
// answer is shown).

import { h } from '../../lib/dom.js';
import { Superseded } from '../../engine/pipeline.js';
import { resultRow, field, num } from './ui.js';
import { parseBounded } from './state.js';
import { sourceRefs } from '../../lib/formulas.js';

export const CHANNELS_DEFAULTS = {
  p: '0.1', capTarget: '0.5',
  power: '1', sigma: '1', gcapTarget: '1',
  sens: '1', eps: '1', delta: '1e-5', cap: '1',
};

/**
 * Builds the card; its panels run on the section's pipeline `pipe`.
 * @returns {{el: HTMLElement, getState(): object, setState(s: object): void, recompute(): void}}
 */
export function channelsCard({ pipe }) {
  const state = { ...CHANNELS_DEFAULTS };

  // ---- binary symmetric
  const slider = h('input', {
    id: 'ip-bsc-slider', type: 'range', min: '0', max: '0.5', step: '0.001', value: state.p,
    'data-testid': 'ip-bsc-slider', 'aria-label': 'Flip probability p (slider)', class: 'ip-slider',
  });
  const pField = field({ id: 'ip-bsc-p', label: ['Flip probability ', h('var', { text: 'p' })], value: state.p, title: '0 ≤ p ≤ 1', after: slider });
  const bscCap = resultRow({ id: 'bsc-capacity', name: 'Capacity of the binary symmetric channel', formula: '1 − h(p), h(p) = −p log₂ p − (1−p) log₂(1−p)', tex: String.raw`1 - h(p),\quad h(p) = -p\log_2 p - (1-p)\log_2(1-p)`, unit: 'bits', reading: 'ip.bscCapacity' });
  const capField = field({ id: 'ip-bsc-target', label: 'Target capacity', value: state.capTarget, title: 'bits, between 0 and 1', after: h('span', { class: 'unit', text: 'bits' }) });
  const bscFlip = resultRow({ id: 'bsc-flip', name: 'Flip probability for that capacity', formula: 'p ∈ [0, ½] with 1 − h(p) = target', tex: String.raw`p \in [0, \tfrac12] \text{ with } 1 - h(p) = \text{target}`, unit: 'probability', reading: 'ip.bscFlip' });

  // ---- Gaussian channel
  const powerField = field({ id: 'ip-g-power', label: ['Power ', h('var', { text: 'P' })], value: state.power, title: 'signal power P > 0' });
  const sigmaField = field({ id: 'ip-g-sigma', label: ['Noise ', h('var', { text: 'σ' })], value: state.sigma, title: 'noise standard deviation σ > 0' });
  const gCap = resultRow({ id: 'gauss-capacity', name: 'Capacity of the Gaussian channel', formula: '½ log₂(1 + P/σ^2)', tex: String.raw`\tfrac12 \log_2\!\big(1 + P/\sigma^2\big)`, unit: 'bits', reading: 'ip.gaussCapacity' });
  const gTarget = field({ id: 'ip-g-target', label: 'Target capacity', value: state.gcapTarget, title: 'bits, > 0', after: h('span', { class: 'unit', text: 'bits' }) });
  const gSigma = resultRow({ id: 'gauss-sigma', name: 'Noise σ for that capacity', formula: 'σ = √(P / (2^{2c} − 1))', tex: String.raw`\sigma = \sqrt{P / (2^{2c} - 1)}`, unit: '', reading: 'ip.gaussSigma' });

  // ---- variances
  const sensField = field({ id: 'ip-v-sens', label: ['Sensitivity ', h('var', { text: 'Δ' })], value: state.sens, title: 'Δ > 0' });
  const epsField = field({ id: 'ip-v-eps', label: ['ε ', h('span', { class: 'unit', text: '(nats)' })], value: state.eps, title: 'ε > 0, in nats' });
  const deltaField = field({ id: 'ip-v-delta', label: 'δ', value: state.delta, title: '0 < δ < 1' });
  const vcapField = field({ id: 'ip-v-cap', label: ['Capacity ', h('span', { class: 'unit', text: '(bits)' })], value: state.cap, title: 'capacity c > 0 of the Gaussian privacy channel, bits' });
  const vLap = resultRow({ id: 'var-laplace', name: 'Laplace mechanism (ε-DP)', formula: '2(Δ/ε)^2', tex: String.raw`2(\Delta/\varepsilon)^2`, unit: 'variance', reading: 'ip.variance' });
  const vGm = resultRow({ id: 'var-gaussian-mech', name: 'Gaussian mechanism ((ε, δ)-DP)', formula: '2 ln(1.25/δ) Δ^2/ε^2', tex: String.raw`2 \ln(1.25/\delta)\, \Delta^2/\varepsilon^2`, unit: 'variance', reading: 'ip.variance' });
  const vGpc = resultRow({ id: 'var-gaussian-channel', name: 'Gaussian privacy channel (capacity c)', formula: 'P/(2^{2c} − 1), P = Δ^2/4', tex: String.raw`P/(2^{2c}-1),\quad P = \Delta^2/4`, unit: 'variance', reading: 'ip.variance' });

  const el = h('section', { class: 'card ip-channels', 'aria-labelledby': 'ip-channels-title', 'data-testid': 'ip-channels' },
    h('div', { class: 'card-head' }, h('h3', { id: 'ip-channels-title', text: 'Privacy channels of Wu (2019)' }), sourceRefs('Wu (2019) §4–5')),
    h('h4', { class: 'ip-sub', text: 'Binary symmetric (randomized response on one bit)' }),
    h('div', { class: 'ip-fields' }, pField.wrap),
    h('dl', { class: 'result-list' }, bscCap.root),
    h('div', { class: 'ip-fields' }, capField.wrap),
    h('dl', { class: 'result-list' }, bscFlip.root),
    h('h4', { class: 'ip-sub', text: 'Gaussian privacy channel' }),
    h('div', { class: 'ip-fields' }, powerField.wrap, sigmaField.wrap),
    h('dl', { class: 'result-list' }, gCap.root),
    h('div', { class: 'ip-fields' }, gTarget.wrap),
    h('dl', { class: 'result-list' }, gSigma.root),
    h('h4', { class: 'ip-sub', text: 'Noise variance for the same protection (Wu 2019, §5.2)' }),
    h('p', { class: 'hint', text: 'A numeric answer with sensitivity Δ, protected by Laplace noise (ε-DP), by Gaussian noise ((ε, δ)-DP), or by a Gaussian privacy channel of capacity c with power P = Δ²/4.' }),
    h('div', { class: 'ip-fields' }, sensField.wrap, epsField.wrap, deltaField.wrap, vcapField.wrap),
    h('dl', { class: 'result-list' }, vLap.root, vGm.root, vGpc.root));

  // One panel: parse its fields, show field errors inline, call the worker, show the result.
  function panel(fields, run) {
    const task = pipe.task(async (job) => {
      const parsed = fields.map(([f, opts]) => {
        const r = parseBounded(f.input.value, opts);
        f.setError(r.error);
        return r;
      });
      if (parsed.some((r) => 'error' in r)) {
        for (const row of run.rows) row.stale('fix the input above');
        return;
      }
      const values = parsed.map((r) => r.value);
      for (const row of run.rows) row.pending();
      let results;
      try {
        results = await job.run(run.calls(values));
      } catch (err) {
        if (err instanceof Superseded || err?.name === 'AbortError') throw err;
        for (const row of run.rows) row.set({ error: err.message });
        return;
      }
      run.show(values, results);
    });
    return () => task.schedule();
  }

  const settle = (row, r, extra) => row.set(r.ok ? { value: r.value } : { error: r.error }, extra);

  const bscPanel = panel([[pField, { min: 0, max: 1, what: 'p' }]], {
    rows: [bscCap],
    calls: ([p]) => [{ ns: 'infoPrivacy', fn: 'binarySymmetricCapacity', args: [p] }],
    show: (_, [r]) => settle(bscCap, r),
  });
  const flipPanel = panel([[capField, { min: 0, max: 1, what: 'capacity' }]], {
    rows: [bscFlip],
    calls: ([c]) => [{ ns: 'infoPrivacy', fn: 'flipProbability', args: [c] }],
    show: (_, [r]) => settle(bscFlip, r),
  });
  const gPanel = panel([[powerField, { min: 0, minOpen: true, what: 'P' }], [sigmaField, { min: 0, minOpen: true, what: 'σ' }], [gTarget, { min: 0, minOpen: true, what: 'capacity' }]], {
    rows: [gCap, gSigma],
    calls: ([P, s, c]) => [
      { ns: 'infoPrivacy', fn: 'gaussianCapacity', args: [P, s] },
      { ns: 'infoPrivacy', fn: 'sigmaForCapacity', args: [P, c] },
    ],
    show: (_, [cap, sig]) => { settle(gCap, cap); settle(gSigma, sig); },
  });
  const vPanel = panel([
    [sensField, { min: 0, minOpen: true, what: 'Δ' }], [epsField, { min: 0, minOpen: true, what: 'ε' }],
    [deltaField, { min: 0, minOpen: true, max: 1, what: 'δ' }], [vcapField, { min: 0, minOpen: true, what: 'capacity' }],
  ], {
    rows: [vLap, vGm, vGpc],
    calls: ([sensitivity, epsilon, delta, capacity]) => [
      { ns: 'infoPrivacy', fn: 'varianceComparison', args: [{ sensitivity, epsilon, delta, capacity }] },
    ],
    show: (_, [r]) => {
      if (!r.ok) {
        for (const row of [vLap, vGm, vGpc]) row.set({ error: r.error });
        return;
      }
      const v = r.value;
      const sd = (x) => [h('span', { class: 'ip-aside' }, 'σ = ', num(Math.sqrt(x), {}, 'ip.sigma'))];
      vLap.set({ value: v.laplace }, sd(v.laplace));
      vGm.set({ value: v.gaussianMechanism }, sd(v.gaussianMechanism));
      vGpc.set({ value: v.gaussianPrivacyChannel }, [h('span', { class: 'ip-aside' }, 'σ = ', num(Math.sqrt(v.gaussianPrivacyChannel), {}, 'ip.sigma'), ', P = ', num(v.power, {}, 'ip.power'))]);
    },
  });

  const inputs = [
    [pField, 'p', bscPanel], [capField, 'capTarget', flipPanel],
    [powerField, 'power', gPanel], [sigmaField, 'sigma', gPanel], [gTarget, 'gcapTarget', gPanel],
    [sensField, 'sens', vPanel], [epsField, 'eps', vPanel], [deltaField, 'delta', vPanel], [vcapField, 'cap', vPanel],
  ];
  for (const [f, key, run] of inputs) {
    f.input.addEventListener('input', () => {
      state[key] = f.input.value;
      if (key === 'p') syncSlider();
      run();
    });
  }
  slider.addEventListener('input', () => {
    pField.input.value = slider.value;
    state.p = slider.value;
    bscPanel();
  });
  function syncSlider() {
    const r = parseBounded(pField.input.value, { min: 0, max: 1, what: 'p' });
    if ('value' in r) slider.value = String(Math.min(0.5, r.value));
  }

  function recompute() {
    bscPanel(); flipPanel(); gPanel(); vPanel();
  }

  return {
    el,
    recompute,
    getState: () => ({ ...state }),
    setState(s = {}) {
      for (const [f, key] of inputs) {
        if (typeof s[key] === 'string') state[key] = s[key];
        f.input.value = state[key];
      }
      syncSlider();
      recompute();
    },
  };
}
