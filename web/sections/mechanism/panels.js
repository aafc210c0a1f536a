// sections/mechanism/panels.js — the DOM of the "Design a mechanism" section that changes: one
// function per card that shows what it is given (the fixed DOM is skeleton.js). No
// computation and no state of its own (controller.js decides what to compute and holds the
// results and verdicts, plan.js plans the engine calls; view.js calls these to draw).

import { readingOf, setReading } from '../../lib/readings.js';
import { h, replace } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { heatmap } from '../../lib/plot.js';
import { SHOWN, toRows } from './state.js';
import { exactPrefix, exactTitle, exactNumber } from '../../lib/format.js';
import { withoutFunction } from '../../lib/row-names.js';
import { withinTarget } from './controller.js';

export const ids = (k) => `mech-${k}`;

export const MECHS = [
  { key: 'lp', name: 'Optimal mechanism', formula: 'max Σ_y π_y Σ_z H[y][z] g(y,z) over ε-DP channels H', tex: String.raw`\max_{H\ \varepsilon\text{-DP}} \textstyle\sum_y \pi_y \sum_z H[y][z]\, g(y,z)` },
  { key: 'thm62', name: 'Theorem 6.2', formula: 'H[i][j] = c_i · e^(−ε d(i,j))', tex: String.raw`H[i][j] = c_i\, e^{-\varepsilon\, d(i,j)}` },
  { key: 'tg', name: 'Truncated geometric', formula: 'α^|y−z| (1−α)/(1+α), tails at the ends', tex: String.raw`\alpha^{|y-z|}\,\tfrac{1-\alpha}{1+\alpha}\text{, tails at the ends}` },
  { key: 'rr', name: 'Randomized response', formula: 'e^ε/(n−1+e^ε) on the true answer, 1/(n−1+e^ε) elsewhere', tex: String.raw`\tfrac{e^\varepsilon}{n-1+e^\varepsilon}\text{ on the true answer, }\tfrac{1}{n-1+e^\varepsilon}\text{ elsewhere}` },
  { key: 'exp', name: 'Exponential', formula: '∝ e^(−ε d(y,z)/2), rows normalized', tex: String.raw`\propto e^{-\varepsilon\, d(y,z)/2}\text{, rows normalized}` },
  { key: 'tc', name: 'Tight constraints', formula: 'H[y][z] = e^(−ε d(y,z)) c_z with e^(−εD) c = 1', tex: String.raw`H[y][z] = e^{-\varepsilon d(y,z)}\, c_z,\quad e^{-\varepsilon D} c = \mathbf 1` },
];

/**
 * Sets an <output> to a number: 4 significant digits shown, the full value in data-value and, with
 * the reading of `key` (lib/readings.js) when there is one, in the title.
 */
export function setNumber(el, x, key = null) {
  el.textContent = formatNumber(x);
  el.dataset.value = String(x);
  setReading(el, x, key ? readingOf(key, x) : '');
}

export function clearNumber(el, text = '—', title = '') {
  el.textContent = text;
  el.title = title;
  delete el.dataset.value;
  delete el.dataset.reading;
}

/** The reading key of the utility column: a probability, an expected gain, or an expected loss. */
export function utilityKey({ loss, gain }) {
  // The inputs say loss by their gain ('loss'); a computation's results by their flag.
  return loss || gain === 'loss' ? 'mech.expectedLoss' : gain === 'binary' ? 'mech.utilityProbability' : 'mech.utilityGain';
}

/** The prior table: one input per answer (or a note beyond PRIOR_TABLE_MAX answers). */
export function renderPriorTable(e, prior, labels, max) {
  if (!prior) { replace(e.priorTable); e.priorTable.hidden = true; return; }
  e.priorTable.hidden = false;
  if (prior.length > max) { replace(e.priorTable, h('caption', { text: `The prior can be edited entry by entry up to ${max} answers.` })); return; }
  const head = h('tr', {}, h('th', { scope: 'col', class: 'corner', text: 'answer' }), prior.map((_, i) => h('th', { scope: 'col', class: 'static-label', text: labels[i] ?? String(i) })));
  const row = h('tr', {}, h('th', { scope: 'row', class: 'prior-col', text: 'π' }),
    prior.map((t, i) => h('td', { class: 'prior-col' }, h('input', {
      type: 'text', class: 'num', value: t, 'aria-label': `Prior probability of answer ${labels[i] ?? i}`, 'data-testid': ids(`prior-${i}`), id: ids(`prior-${i}`), dataset: { prior: String(i) }, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
    }))));
  replace(e.priorTable, h('thead', {}, head), h('tbody', {}, row));
}

export function showSummary(e, G, induced) {
  const m = G.g.edges.length;
  const parts = [`${G.n} answer${G.n === 1 ? '' : 's'}`, `${m} edge${m === 1 ? '' : 's'}`, `diameter ${G.connected ? G.diameter : '∞'}`];
  if (G.dr?.distanceRegular) parts.push(`distance-regular, intersection array {${G.dr.b.join(', ')}; ${G.dr.c.join(', ')}}`);
  else if (G.dr) parts.push('not distance-regular');
  if (induced) parts.push('induced on the answers of f');
  e.graphSummary.textContent = parts.join(' · ');
  e.disconnected.textContent = G.connected ? '' : 'The graph is disconnected: answers in different components are at distance ∞, so ε-DP relates nothing across components — a mechanism may reveal which component the answer lies in, for any ε.';
  e.disconnected.classList.toggle('warn', !G.connected);
}

export function showBound(e, r, G, labels, { uniformBinary }) {
  e.boundCard.dataset.status = r.ok ? 'ok' : 'error';
  if (!r.ok) {
    clearNumber(e.bound, 'error', r.error);
    clearNumber(e.boundLog);
    e.boundReading.textContent = '';
    e.boundTight.textContent = r.error;
    return;
  }
  const b = r.value;
  if (b.bound > 0) setNumber(e.bound, b.bound, 'mech.bound');
  else { e.bound.textContent = `2^(${formatNumber(b.log2Bound)})`; e.bound.dataset.value = '0'; setReading(e.bound, `log₂ = ${formatFull(b.log2Bound)}`, readingOf('mech.bound', 0)); }
  setNumber(e.boundLog, b.log2Bound, 'utilityBits');
  e.boundReading.textContent = readingOf('utilityBits', b.log2Bound);
  let tight;
  if (b.distanceRegular && G.dr?.distanceRegular) tight = `Tight: the graph is distance-regular (intersection array {${G.dr.b.join(', ')}; ${G.dr.c.join(', ')}})${b.vtPlus ? ' and VT+' : ''}, so the Theorem 6.2 mechanism reaches the bound.`;
  else if (b.distanceRegular) tight = 'Tight: the graph is distance-regular, so the Theorem 6.2 mechanism reaches the bound.';
  else if (b.vtPlus === true) tight = 'Tight: the graph is VT+ (vertex-transitive by a set of n automorphisms), so the Theorem 6.2 mechanism reaches the bound.';
  else if (b.tight) tight = 'Tight: every vertex has the same distance distribution n_d, so the Theorem 6.2 mechanism is ε-DP and reaches the bound.';
  else if (b.vtPlus === null) tight = 'Tightness unknown: the graph is not distance-regular and the VT+ search ran out of its time budget.';
  else tight = 'Not known to be tight: the graph is neither distance-regular nor VT+.';
  if (!b.sameForAllVertices) tight += ` The distance distribution n_d differs between vertices; the bound shown is the largest, at vertex ${labels[b.vertex] ?? b.vertex}.`;
  e.boundTight.textContent = tight;
  e.boundTight.dataset.tight = String(Boolean(b.tight));
  e.boundNote.textContent = uniformBinary
    ? 'The bound is for the uniform prior on answers and the binary gain — the current setting.'
    : 'The bound holds for the uniform prior and the binary gain; with the current prior or gain it is shown for reference only.';
}

/**
 * One row of the mechanism table: its utility (or loss, read by `utilKey`: utilityKey) and its
 * smallest ε on the graph.
 */
export function showMechRow(e, k, util, epsR, target, utilKey) {
  const row = e.rows[k];
  if (util === null) clearNumber(row.util, '—', 'fix the prior or the gain');
  else if (util.ok) setNumber(row.util, util.value, utilKey);
  else clearNumber(row.util, 'error', util.error);
  if (epsR.ok) {
    setNumber(row.eps, epsR.value, 'mech.epsilon');
    const over = !withinTarget(epsR.value, target);
    row.verdict.textContent = over ? `> target ${formatNumber(target)}: not ε-DP` : `≤ target ${formatNumber(target)}: ε-DP`;
    row.verdict.dataset.ok = String(!over);
    row.tr.dataset.dp = String(!over);
  } else {
    clearNumber(row.eps, 'error', epsR.error);
    row.verdict.textContent = epsR.error;
  }
}

/** The LP row while solving: progress after the pipeline's delay, with Cancel. */
export function showLPProgress(e, p) {
  const text = p ? `Solving the linear program: iteration ${p.iteration}, objective ${formatNumber(p.objective)}${p.phase ? ` (phase ${p.phase})` : ''}` : 'Solving the linear program…';
  const line = e.lpProgress.querySelector('[data-role="text"]');
  if (line) { line.textContent = text; return; }
  replace(e.lpProgress, h('p', { class: 'cap-stats progress' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }),
    h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-lp' }, 'data-testid': ids('lp-cancel'), text: 'Cancel' }),
    h('span', { dataset: { role: 'text' }, text })));
}

export function showLPFailure(e, cancelled, message) {
  const row = e.rows.lp;
  row.tr.dataset.status = cancelled ? 'cancelled' : 'error';
  clearNumber(row.util, '—');
  clearNumber(row.eps, '—');
  replace(e.lpProgress, h('p', { class: 'muted' }, cancelled ? 'The linear program was cancelled. ' : `The linear program failed: ${message} `,
    h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-run'), text: 'Compute again' })));
}

/** How the optimum compares with Theorem 6.2: c is controller.js lpComparison's answer. */
export function showComparison(e, cur, c, clique) {
  e.lpVerdict.classList.remove('warn', 'good');
  e.lpVerdict.textContent = '';
  if (!c) return;
  const m2 = clique ? ' (the paper’s M2)' : '';
  const what = cur.loss ? 'expected loss' : 'utility';
  if (c.verdict === 'better') {
    e.lpVerdict.textContent = `For this prior and gain the LP finds a better ε-DP mechanism than Theorem 6.2${m2}: ${what} ${formatNumber(c.lp)} against ${formatNumber(c.thm62)} (${c.better > 0 && !cur.loss ? '+' : '−'}${formatNumber(Math.abs(c.better))}, ${formatNumber(c.percent)} %).`;
    e.lpVerdict.classList.add('good');
  } else if (c.verdict === 'breaks') {
    e.lpVerdict.textContent = `Theorem 6.2’s ${what} ${formatNumber(c.thm62)} beats the optimum ${formatNumber(c.lp)} only because it breaks ε-DP (actual ε ${formatNumber(cur.mechEps.thm62)}).`;
    e.lpVerdict.classList.add('warn');
  } else if (c.verdict === 'equal') {
    e.lpVerdict.textContent = `Theorem 6.2${m2} is optimal here: both reach ${formatNumber(c.lp)}.`;
  } else if (c.verdict === 'notDP') {
    e.lpVerdict.textContent = `The optimum ${formatNumber(c.lp)} is ε-DP; Theorem 6.2 (${formatNumber(c.thm62)}) is not.`;
  }
}

/** The Theorem 6.2 row's details and the warning when its matrix is not ε-DP on the graph. */
export function showThm62(e, thm, eps, clique) {
  const cliqueNote = clique ? ' — on a clique this is the paper’s M2' : '';
  e.rows.thm62.name.textContent = 'Theorem 6.2';
  if (!thm) { e.thm62Warning.textContent = ''; return; }
  e.rows.thm62.detail.textContent = thm.uniform
    ? `one constant c = ${formatNumber(thm.c[0])} normalizes every row${cliqueNote}`
    : `n_d varies by vertex: each row normalized by its own c_i (${formatNumber(Math.min(...thm.c))} … ${formatNumber(Math.max(...thm.c))})`;
  const actual = thm.actualEpsilon;
  const over = !withinTarget(actual, eps);
  e.thm62Warning.textContent = over
    ? `Theorem 6.2 row-normalized matrix: actual ε = ${formatNumber(actual)} > target ${formatNumber(eps)}: not ε-DP. The paper’s remark that it always satisfies ε-DP fails on this graph (see the mathematics, §5.3); use the optimal mechanism instead.`
    : '';
  e.thm62Warning.dataset.actual = String(actual);
  e.thm62Warning.dataset.target = String(eps);
  e.thm62Warning.classList.toggle('warn', over);
}

export function renderHeatmaps(e, cur, show, labels, max) {
  if (!cur) { replace(e.heatmaps); return; }
  if (cur.G.n > max) {
    replace(e.heatmaps, h('p', { class: 'muted', text: `Heat maps are drawn up to ${max} answers.` }));
    return;
  }
  const figs = [];
  if (cur.lp) figs.push(heatmap({ title: cur.lp.path === 'closed-form' ? 'Optimal mechanism (closed form)' : 'Optimal mechanism (LP)', matrix: toRows(cur.lp.mechanism), rowLabels: labels, colLabels: labels }));
  const sel = cur.matrices[show];
  if (sel) figs.push(heatmap({ title: SHOWN.find(([k]) => k === show)[1], matrix: toRows(sel), rowLabels: labels, colLabels: labels }));
  replace(e.heatmaps, figs);
}

/** The database panel's numbers, from its three settled results. */
export function showDB(e, u, v, [leak, ind, util]) {
  const READ = { leak: 'mech.dbLeakage', ind: 'mech.dbIndividual', util: 'mech.dbUtility', 'util-log2': 'utilityBits' };
  const show = (key, r, pick) => {
    if (r.ok) { setNumber(e.db[key].value, pick(r.value), READ[key]); e.db[key].msg.textContent = ''; } else { clearNumber(e.db[key].value, 'error', r.error); e.db[key].msg.textContent = r.error; }
  };
  setNumber(e.db.domain.value, u * Math.log2(v), 'mech.dbDomain');
  e.db.domain.msg.textContent = '';
  show('leak', leak, (x) => x);
  show('ind', ind, (x) => x);
  show('util-log2', util, (x) => x.log2Bound);
  if (util.ok) {
    // What a negative number of bits means here.
    e.db['util-log2'].msg.textContent = readingOf('utilityBits', util.value.log2Bound);
    e.db['util-log2'].msg.classList.add('mech-note');
  }
  if (util.ok && !(util.value.bound > 0)) {
    const l2 = util.value.log2Bound;
    e.db.util.value.textContent = `2^(${formatNumber(l2)})`;
    setReading(e.db.util.value, `underflows a double; log₂ U = ${formatFull(l2)}, i.e. 10^(${formatNumber(l2 * Math.log10(2))})`, readingOf('mech.dbUtility', 0));
    e.db.util.value.dataset.value = '0';
    e.db.util.msg.textContent = `Below the smallest double: U ≈ 10^(${formatNumber(l2 * Math.log10(2))}); see log₂ U below.`;
    e.db.util.msg.classList.add('mech-note');
  } else {
    e.db.util.msg.classList.remove('mech-note');
    show('util', util, (x) => x.bound);
  }
}

/**
 * The float LP's own certificate: the dual bound on every ε-private mechanism and the residuals
 * of its solution (0 on the closed-form path), in a <details> under the table.
 */
export function showLPCertificate(e, lp) {
  if (!lp) {
    e.lpCert.hidden = true;
    replace(e.lpCert);
    return;
  }
  e.lpCert.hidden = false;
  const READ = { utility: 'mech.lpUtility', bound: 'mech.lpBound', gap: 'mech.lpGap', 'primal-residual': 'mech.lpPrimalResidual', 'dual-residual': 'mech.lpDualResidual' };
  const out = (key, v) => {
    const el = h('output', { class: 'value', 'data-testid': ids(`lp-${key}`), 'data-value': String(v), text: formatNumber(v) });
    setReading(el, v, readingOf(READ[key], v));
    return el;
  };
  const what = lp.path === 'closed-form' ? 'closed form' : 'linear program';
  replace(e.lpCert,
    h('summary', {}, `Certificate of the floating-point optimum (${what})`),
    h('dl', { class: 'mech-cert-list' },
      h('div', {}, h('dt', { text: 'Utility of the mechanism' }), h('dd', {}, out('utility', lp.utility))),
      h('div', {}, h('dt', { text: lp.utility <= lp.bound ? 'Upper bound on every ε-private mechanism (from the dual solution)' : 'Lower bound on the expected loss of every ε-private mechanism (from the dual solution)' }), h('dd', {}, out('bound', lp.bound))),
      h('div', {}, h('dt', { text: 'Gap |bound − utility|' }), h('dd', {}, out('gap', Math.abs(lp.bound - lp.utility)))),
      h('div', {}, h('dt', { text: 'Primal residual (probability): largest violated row sum, sign or privacy row before the repair' }), h('dd', {}, out('primal-residual', lp.primalResidual))),
      h('div', {}, h('dt', { text: 'Dual residual (utility per unit of probability)' }), h('dd', {}, out('dual-residual', lp.dualResidual)))),
    h('p', { class: 'hint', text: 'The optimum lies between the utility and the bound. A certified optimum (exact arithmetic) removes even that gap.' }));
}

/**
 * The certified optimum beside the LP's decimal: {ok, value} of qif.exact.mechanism.optimal
 * ("8/25", with its certificate) or its error; `why` when it was not attempted; null to clear.
 * `lpUtility` is the decimal the row shows.
 */
export function showCertified(e, r, { why = null, lpUtility = NaN, loss = false } = {}) {
  e.certifiedBadge.hidden = true;
  e.certified.textContent = '';
  delete e.certified.dataset.value;
  delete e.certified.dataset.reading;
  e.certifiedNote.classList.remove('warn-text');
  if (!r) {
    e.certifiedNote.textContent = why ?? '';
    e.certifiedNote.dataset.status = why ? 'unavailable' : '';
    return;
  }
  if (!r.ok) {
    e.certifiedNote.dataset.status = 'error';
    e.certifiedNote.textContent = `No certified optimum: ${withoutFunction(r)}`;
    return;
  }
  const x = r.value;
  e.certified.textContent = exactPrefix(x.utility, lpUtility);
  e.certified.dataset.value = x.utility;
  setReading(e.certified, exactTitle(x.utility), readingOf('mech.certified', 0));
  e.certifiedBadge.hidden = false;
  e.certifiedBadge.title = 'checked in exact arithmetic: the mechanism and the dual prices satisfy every constraint exactly, with equal values';
  e.certifiedNote.dataset.status = 'ok';
  const agree = Math.abs(exactNumber(x.utility) - lpUtility) <= 1e-6 * Math.max(1, Math.abs(lpUtility));
  e.certifiedNote.textContent = `Certified optimum: the ${loss ? 'least expected loss' : 'best utility'} is ${x.utility.length <= 60 ? `exactly ${x.utility.replace(/^-/, '−')}` : `the ${exactTitle(x.utility)}`}, proved in exact arithmetic — the optimal mechanism and the dual prices satisfy every constraint exactly (${x.variables} variables, ${x.constraints} constraints; ${x.pivots} exact pivot${x.pivots === 1 ? '' : 's'} after the floating-point basis).${agree ? '' : ' The floating-point value differs from it by more than 10⁻⁶.'}`;
  if (!agree) e.certifiedNote.classList.add('warn-text');
}

/** While the certification runs: what stage it is at. */
export function showCertifying(e, p) {
  e.certifiedNote.dataset.status = 'pending';
  e.certifiedNote.textContent = p ? `Certifying the optimum in exact arithmetic: ${p.stage}${p.pivots ? `, ${p.pivots} exact pivots` : ''}…` : 'Certifying the optimum in exact arithmetic…';
}
