// sections/infopriv/bayes.js — the Bayesian panel of "Information privacy": for one record that
// varies while the others are fixed (a situation), the largest and smallest ratio of posterior to
// prior belief about it (qif.infoPrivacy.subChannel, then bayesRatios) for a prior the reader types.
//
//   const bayes = bayesPanel({ root, engine, pipe, state, els, getCur })
//     getCur()      the section's current channel {domains, C, eps?, …}, or null
//   bayes.render()     draws the situation's controls and the prior from state
//   bayes.run(job)     computes the ratios (in the job of the section's main run, or its own)

import { h, replace } from '../../lib/dom.js';
import { uniformEntry } from '../../lib/numbers.js';
import { Superseded } from '../../engine/pipeline.js';
import { isAbort } from '../../engine/client.js';
import { situationText, parsePrior, situation as situationOf } from './state.js';
import { selectField } from './ui.js';
import { range } from './skeleton.js';
import { recordName, showBayes } from './results.js';

export function bayesPanel({ root, engine, pipe, state, els, getCur }) {
  const { sitSel, customSit, sitText, priorWrap, priorMsg, uniformBtn, maxRatioRow, minRatioRow, barsWrap } = els;

  // The situation shown: the record that varies and the values of the others.
  const situation = () => situationOf(state, getCur());

  function renderSituationControls() {
    sitSel.select.value = state.situation;
    customSit.hidden = state.situation !== 'custom';
    if (state.situation === 'custom') {
      const s = situation();
      state.individual = s.individual;
      state.others = s.others;
      const n = state.domains.length;
      const items = [selectField({
        id: 'ip-sit-individual', label: 'Record that varies',
        options: range(0, n - 1).map((i) => [i, `record ${i + 1}`]), value: s.individual,
      }).wrap];
      for (let j = 0, k = 0; j < n; j++) {
        if (j === s.individual) continue;
        const sf = selectField({
          id: `ip-sit-other-${j}`, label: `record ${j + 1} =`,
          options: range(0, state.domains[j] - 1).map((v) => [v, String(v)]), value: s.others[k],
        });
        sf.select.dataset.other = String(k++);
        items.push(sf.wrap);
      }
      replace(customSit, items);
    } else customSit.replaceChildren();
    renderPrior();
  }

  function renderPrior() {
    const s = situation();
    const d = state.domains[s.individual];
    if (!state.prior || state.prior.length !== d) state.prior = new Array(d).fill(uniformEntry(d));
    const focused = document.activeElement && priorWrap.contains(document.activeElement) ? document.activeElement.id : null;
    replace(priorWrap, state.prior.map((v, k) => h('span', { class: 'ip-prior-cell' },
      h('label', { for: `ip-prior-${k}` }, 'π(', String(k), ')'),
      h('input', {
        id: `ip-prior-${k}`, type: 'text', class: 'num', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
        'data-testid': `ip-prior-${k}`, dataset: { prior: String(k) }, value: v,
      }))));
    if (focused) document.getElementById(focused)?.focus();
    sitText.replaceChildren(`${recordName(s.individual)} varies over ${d} values; the others fixed: `, h('code', { text: situationText(s.individual, s.others) }));
  }

  const bayesTask = pipe.task((job) => runBayes(job));
  const scheduleBayes = () => bayesTask.schedule();

  async function runBayes(job) {
    const pr = parsePrior(state.prior ?? []);
    for (const input of priorWrap.querySelectorAll('input')) {
      const bad = pr.errors?.find(([k]) => k === Number(input.dataset.prior) || k === -1);
      input.classList.toggle('invalid', !!bad);
      input.setAttribute('aria-invalid', bad ? 'true' : 'false');
    }
    priorMsg.textContent = pr.errors ? pr.errors.map(([k, m]) => (k >= 0 ? `π(${k}): ${m}` : m)).join('; ') : '';
    if (!getCur()) return;
    if (pr.errors) {
      maxRatioRow.stale('fix the prior above');
      minRatioRow.stale('fix the prior above');
      barsWrap.classList.add('stale');
      return;
    }
    maxRatioRow.pending();
    minRatioRow.pending();
    const s = situation();
    try {
      const sub = await job.call(engine.plan.infoPrivacy.subChannel({ domains: getCur().domains, channel: getCur().C, individual: s.individual, others: s.others }));
      const r = await job.call(engine.plan.infoPrivacy.bayesRatios(pr.prior, sub));
      showBayes(els, r, s, getCur()?.eps?.epsilon);
    } catch (err) {
      if (err instanceof Superseded || isAbort(err)) throw err;
      maxRatioRow.set({ error: err.message });
      minRatioRow.set({ error: err.message });
    }
  }

  root.addEventListener('change', (e) => {
    const t = e.target;
    if (t === sitSel.select) {
      state.situation = t.value;
      if (t.value === 'custom') {
        const s = situation();
        state.individual = s.individual;
        state.others = s.others;
      }
      renderSituationControls();
      scheduleBayes();
    } else if (t.id === 'ip-sit-individual') {
      const s = situation();
      const i = Number(t.value);
      // Keep the values of the records that stay fixed.
      const full = [];
      for (let j = 0, k = 0; j < state.domains.length; j++) full.push(j === s.individual ? 0 : s.others[k++]);
      state.individual = i;
      state.others = full.filter((_, j) => j !== i);
      renderSituationControls();
      scheduleBayes();
    } else if (t.dataset.other !== undefined) {
      state.others[Number(t.dataset.other)] = Number(t.value);
      renderPrior();
      scheduleBayes();
    }
  });
  root.addEventListener('input', (e) => {
    const t = e.target;
    if (t.dataset.prior !== undefined) { state.prior[Number(t.dataset.prior)] = t.value; scheduleBayes(); }
  });
  uniformBtn.addEventListener('click', () => {
    state.prior = null;
    renderPrior();
    scheduleBayes();
  });

  return { render: renderSituationControls, run: runBayes };
}
