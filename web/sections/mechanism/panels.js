// sections/mechanism/panels.js — the DOM of the "Design a mechanism" section: the skeleton of
// fields and result cards, and one function per card that shows what it is given. No
// computation and no state of its own (view.js decides what to show, state.js what to compute).

import { readingOf } from '../../lib/readings.js';
import { h, replace } from '../../lib/dom.js';
import { formatNumber, formatFull } from '../../lib/numbers.js';
import { heatmap } from '../../lib/plot.js';
import { formulaSlot, sourceRefs } from '../../lib/formulas.js';
import { KINDS, BASE_KINDS, GAINS, SHOWN, PRESETS, TC_METRICS, toRows } from './state.js';
import { exactPrefix, exactTitle, exactNumber } from '../../lib/format.js';

export const ids = (k) => `mech-${k}`;
const TOL = 1e-9;

export const MECHS = [
  { key: 'lp', name: 'Optimal mechanism', formula: 'max Σ_y π_y Σ_z H[y][z] g(y,z) over ε-DP channels H', tex: String.raw`\max_{H\ \varepsilon\text{-DP}} \textstyle\sum_y \pi_y \sum_z H[y][z]\, g(y,z)` },
  { key: 'thm62', name: 'Theorem 6.2', formula: 'H[i][j] = c_i · e^(−ε d(i,j))', tex: String.raw`H[i][j] = c_i\, e^{-\varepsilon\, d(i,j)}` },
  { key: 'tg', name: 'Truncated geometric', formula: 'α^|y−z| (1−α)/(1+α), tails at the ends', tex: String.raw`\alpha^{|y-z|}\,\tfrac{1-\alpha}{1+\alpha}\text{, tails at the ends}` },
  { key: 'rr', name: 'Randomized response', formula: 'e^ε/(n−1+e^ε) on the true answer, 1/(n−1+e^ε) elsewhere', tex: String.raw`\tfrac{e^\varepsilon}{n-1+e^\varepsilon}\text{ on the true answer, }\tfrac{1}{n-1+e^\varepsilon}\text{ elsewhere}` },
  { key: 'exp', name: 'Exponential', formula: '∝ e^(−ε′|y−z|/2), rows normalized', tex: String.raw`\propto e^{-\varepsilon' |y-z|/2}\text{, rows normalized}` },
  { key: 'tc', name: 'Tight constraints', formula: 'H[y][z] = e^(−ε d(y,z)) c_z with e^(−εD) c = 1', tex: String.raw`H[y][z] = e^{-\varepsilon d(y,z)}\, c_z,\quad e^{-\varepsilon D} c = \mathbf 1` },
];

/** Sets an <output> to a number: 4 significant digits shown, the full value in title and data-value. */
export function setNumber(el, x) {
  el.textContent = formatNumber(x);
  el.title = formatFull(x);
  el.dataset.value = String(x);
}

export function clearNumber(el, text = '—', title = '') {
  el.textContent = text;
  el.title = title;
  delete el.dataset.value;
}

/** Builds the section into root; returns the elements the view talks to. */
export function buildSkeleton(root) {
  const input = (key, attrs = {}) => h('input', {
    type: 'text', class: 'num', id: ids(key), 'data-testid': ids(key), autocomplete: 'off', spellcheck: 'false', inputmode: 'decimal', ...attrs,
  });
  const msg = (key) => h('span', { class: 'msg', id: ids(`${key}-msg`), 'data-testid': ids(`${key}-msg`), role: 'alert' });
  const field = (key, label, attrs) => h('div', { class: 'mech-field', dataset: { field: key } },
    h('label', { for: ids(key), text: label }), input(key, attrs), msg(key));
  const select = (key, options) => h('select', { id: ids(key), 'data-testid': ids(key) }, options.map(([k, t]) => h('option', { value: k, text: t })));

  const e = {};
  e.preset = h('select', { id: ids('preset'), 'data-testid': ids('preset') },
    PRESETS.map((p) => h('option', { value: p.id, text: p.label })),
    h('option', { value: 'custom', text: 'Custom (edited)' }));
  e.presetDesc = h('p', { class: 'muted', 'data-testid': ids('preset-description') });
  e.kind = select('kind', KINDS);
  e.base = select('base', BASE_KINDS);
  e.fields = { n: field('n', 'Answers n'), w: field('w', 'Width w'), h: field('h', 'Height h'), d: field('d', 'Dimension d'), u: field('u', 'Individuals u'), v: field('v', 'Values v'), cn: field('cn', 'Vertices n') };
  e.edges = h('textarea', { id: ids('edges'), 'data-testid': ids('edges'), rows: '3', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': ids('edges-hint') });
  const edgesBlock = h('div', { class: 'mech-field mech-wide', dataset: { field: 'edges' } },
    h('label', { for: ids('edges'), text: 'Edges' }), e.edges,
    h('span', { class: 'hint', id: ids('edges-hint'), text: 'Pairs of vertices 0..n−1, e.g. 0-1, 1-2, 2-3 (one edge per pair; commas, spaces or new lines).' }),
    msg('edges'));
  e.query = h('textarea', { id: ids('query'), 'data-testid': ids('query'), rows: '2', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': ids('query-hint') });
  e.countButton = h('button', { type: 'button', class: 'small', 'data-testid': ids('count-query'), text: 'Fill with the counting query (number of non-zero values)' });
  const queryBlock = h('div', { class: 'mech-field mech-wide', dataset: { field: 'query' } },
    h('label', { for: ids('query'), text: 'Query table f: the answer of each input vertex' }), e.query,
    h('span', { class: 'hint', id: ids('query-hint'), text: 'f(0), f(1), …, one answer index per vertex of the base graph; the answers are 0..max f.' }),
    e.countButton, msg('query'));
  const baseBlock = h('div', { class: 'mech-field', dataset: { field: 'base' } }, h('label', { for: ids('base'), text: 'Base graph on inputs' }), e.base);
  e.labels = input('labels', { inputmode: 'text', class: 'mech-text' });
  e.graphMsg = h('p', { class: 'mech-error', 'data-testid': ids('graph-msg'), role: 'alert' });
  e.graphSummary = h('p', { class: 'muted', 'data-testid': ids('graph-summary') });
  e.disconnected = h('p', { class: 'results-note', 'data-testid': ids('disconnected') });

  e.epsRange = h('input', { type: 'range', id: ids('eps-range'), 'data-testid': ids('eps-range'), min: '0.01', max: '5', step: '0.01', 'aria-label': 'ε slider (nats)' });
  e.eps = input('eps', { title: 'ε in nats: a number, a fraction or ln x (e.g. ln 2; ln 2 / 5 is (ln 2)/5)' });
  e.epsExp = h('output', { class: 'value', 'data-testid': ids('exp-eps') });
  e.epsValue = h('output', { class: 'mech-eps-value', 'data-testid': ids('eps-value') });

  e.priorUniform = h('input', { type: 'checkbox', id: ids('prior-uniform'), 'data-testid': ids('prior-uniform') });
  e.priorTable = h('table', { class: 'grid mech-prior', 'data-testid': ids('prior-table'), 'aria-label': 'Prior on answers' });
  e.priorMsg = msg('prior');
  e.gain = select('gain', GAINS);
  e.gainNote = h('p', { class: 'hint', 'data-testid': ids('gain-note') });

  // results: the bound
  e.bound = h('output', { class: 'value', 'data-testid': ids('bound') });
  e.boundLog = h('output', { class: 'value', 'data-testid': ids('bound-log2') });
  e.boundReading = h('div', { class: 'r-reading', 'data-testid': ids('bound-log2-reading') });
  e.boundTight = h('p', { class: 'mech-tight', 'data-testid': ids('bound-tight') });
  e.boundNote = h('p', { class: 'hint', 'data-testid': ids('bound-note') });
  e.boundCard = h('section', { class: 'card', 'aria-labelledby': ids('bound-title'), dataset: { status: 'pending' }, 'data-testid': ids('bound-card') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('bound-title'), text: 'Utility bound (Theorem 6.1)' }), sourceRefs('Alvim et al. (ICALP 2011) §6')),
    h('dl', { class: 'result-list' },
      h('div', { class: 'result' },
        h('dt', {}, h('span', { class: 'r-name', text: 'Best utility of an ε-DP mechanism' }), formulaSlot('U ≤ 1 / Σ_d n_d e^(−εd)', String.raw`U \le 1 \big/ \textstyle\sum_d n_d\, e^{-\varepsilon d}`)),
        h('dd', {}, h('span', { class: 'r-value' }, e.bound, ' ', h('span', { class: 'unit', text: 'probability' })))),
      h('div', { class: 'result' },
        h('dt', {}, h('span', { class: 'r-name', text: 'In bits' }), formulaSlot('log₂ U = −log₂ Σ_d n_d e^(−εd)', String.raw`\log_2 U = -\log_2 \textstyle\sum_d n_d\, e^{-\varepsilon d}`)),
        h('dd', {}, h('span', { class: 'r-value' }, e.boundLog, ' ', h('span', { class: 'unit', text: 'bits' })), e.boundReading))),
    e.boundTight, e.boundNote);

  // results: the mechanisms
  e.rows = {};
  const body = h('tbody');
  for (const m of MECHS) {
    const util = h('output', { class: 'value', 'data-testid': ids(`util-${m.key}`) });
    const eps = h('output', { class: 'value', 'data-testid': ids(`eps-${m.key}`) });
    const verdict = h('span', { class: 'mech-verdict', 'data-testid': ids(`verdict-${m.key}`) });
    const detail = h('span', { class: 'mech-detail', 'data-testid': ids(`detail-${m.key}`) });
    const name = h('span', { class: 'r-name', text: m.name });
    const tr = h('tr', { 'data-testid': ids(`row-${m.key}`), dataset: { status: 'pending' } },
      h('th', { scope: 'row' }, name, formulaSlot(m.formula, m.tex), detail),
      h('td', {}, util), h('td', {}, eps, h('br'), verdict));
    e.rows[m.key] = { tr, util, eps, verdict, detail, name };
    body.append(tr);
  }
  e.tcMetric = select('tc-metric', TC_METRICS);
  e.rows.tc.detail.before(h('span', { class: 'mech-tc-metric' }, h('label', { for: ids('tc-metric'), text: 'metric d ' }), e.tcMetric));
  // The certified optimum (exact arithmetic) beside the LP's decimal, and the LP's certificate.
  e.certified = h('span', { class: 'exact', 'data-testid': ids('certified-value') });
  e.certifiedBadge = h('span', { class: 'badge badge-certified', 'data-testid': ids('certified-badge'), hidden: true, text: 'certified' });
  e.rows.lp.util.before(e.certified);
  e.rows.lp.util.after(' ', e.certifiedBadge);
  e.certifiedNote = h('p', { class: 'hint mech-certified', 'data-testid': ids('certified-note'), 'aria-live': 'polite' });
  e.lpCert = h('details', { class: 'mech-lp-cert', 'data-testid': ids('lp-certificate'), hidden: true });
  e.utilHead = h('th', { scope: 'col', text: 'Utility (probability)' });
  e.lpProgress = h('div', { class: 'mech-progress', 'data-testid': ids('lp-progress'), role: 'status' });
  e.thm62Warning = h('p', { class: 'results-note', 'data-testid': ids('thm62-warning') });
  e.lpVerdict = h('p', { class: 'results-note', 'data-testid': ids('lp-vs-thm62') });
  const mechCard = h('section', { class: 'card', 'aria-labelledby': ids('mechs-title') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('mechs-title'), text: 'Mechanisms on this graph' }), sourceRefs('Alvim et al. (ICALP 2011) §6 · Chatzikokolakis et al. (CSF 2019) §6.1')),
    h('p', { class: 'hint', 'data-testid': ids('mechs-hint'), text: 'Every mechanism here is offered at the chosen ε on this graph: the truncated geometric and exponential mechanisms treat the answers as 0..n−1 and run at ε/s per step, s the longest edge |a − b| of the graph, so that they are ε-DP on it; randomized response is ε-DP on any graph. The last column is the smallest ε each matrix actually satisfies on the graph.' }),
    e.lpProgress, e.thm62Warning, e.lpVerdict,
    h('div', { class: 'table-wrap' }, h('table', { class: 'mech-table', 'data-testid': ids('table') },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Mechanism' }), e.utilHead, h('th', { scope: 'col', text: 'Smallest ε on the graph (nats)' }))),
      body)),
    e.certifiedNote, e.lpCert);

  e.show = select('show', SHOWN);
  e.heatmaps = h('div', { class: 'mech-heatmaps', 'data-testid': ids('heatmaps') });
  const heatCard = h('section', { class: 'card', 'aria-labelledby': ids('heat-title') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('heat-title'), text: 'Channel heat maps' })),
    h('p', { class: 'hint', text: 'Rows are the true answers y, columns the reported outputs z; darker is more probable.' }),
    h('div', { class: 'preset-row' }, h('label', { for: ids('show'), text: 'Compare with' }), e.show),
    e.heatmaps);

  e.sweepStatus = h('div', { class: 'mech-progress', 'data-testid': ids('sweep-status'), role: 'status' });
  e.sweepPlot = h('div', { 'data-testid': ids('sweep-plot') });
  const sweepCard = h('section', { class: 'card', 'aria-labelledby': ids('sweep-title') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('sweep-title'), text: 'Utility against ε' })),
    e.sweepStatus, e.sweepPlot);

  // database panel
  const dbFields = {
    u: field('db-u', 'Individuals u', { title: 'any size: 1000000, 1e9 or 10^9' }),
    v: field('db-v', 'Values v (the absent value included)'),
    eps: field('db-eps', 'ε (nats)', { title: 'a number, a fraction or ln x' }),
  };
  e.db = {};
  const dbResult = (key, name, formula, tex, unit) => {
    const value = h('output', { class: 'value', 'data-testid': ids(`db-${key}`) });
    const m = h('div', { class: 'r-msg', 'data-testid': ids(`db-${key}-msg`) });
    e.db[key] = { value, msg: m };
    return h('div', { class: 'result' },
      h('dt', {}, h('span', { class: 'r-name', text: name }), formulaSlot(formula, tex)),
      h('dd', {}, h('span', { class: 'r-value' }, value, ' ', h('span', { class: 'unit', text: unit })), m));
  };
  e.dbExp = h('output', { class: 'value', 'data-testid': ids('db-exp-eps') });
  e.dbCard = h('section', { class: 'card mech-db', 'aria-labelledby': ids('db-title'), 'data-testid': ids('db') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('db-title'), text: 'Database domains: leakage and utility bounds' }), sourceRefs('Alvim et al. (ICALP 2011) §5, Theorem 5.1 and Proposition 2')),
    h('p', { class: 'hint', text: 'Databases of u individuals, each with one of v values; adjacent when they differ in one individual (the Hamming graph on vᵘ databases). Computed analytically in log space, so u = 10⁶ or 10⁹ answers instantly.' }),
    h('div', { class: 'mech-fields' }, dbFields.u, dbFields.v, dbFields.eps,
      h('div', { class: 'mech-field' }, h('span', { class: 'mech-label', text: 'e^ε' }), e.dbExp)),
    h('dl', { class: 'result-list' },
      dbResult('domain', 'Size of the domain', 'log₂ |X| = u log₂ v', String.raw`\log_2 |\mathcal X| = u \log_2 v`, 'bits'),
      dbResult('leak', 'Leakage of any ε-DP mechanism (Theorem 5.1)', 'I_∞(X;Z) ≤ u log₂(v e^ε / (v − 1 + e^ε))', String.raw`I_\infty(X;Z) \le u \log_2 \frac{v\, e^\varepsilon}{v-1+e^\varepsilon}`, 'bits'),
      dbResult('ind', 'Leakage about one individual (Proposition 2)', 'I_∞ ≤ log₂(v e^ε / (v − 1 + e^ε))', String.raw`I_\infty \le \log_2 \frac{v\, e^\varepsilon}{v-1+e^\varepsilon}`, 'bits'),
      dbResult('util', 'Utility bound on the Hamming graph', 'U ≤ 1/(1 + (v − 1)e^(−ε))ᵘ', String.raw`U \le \big(1 + (v-1)\,e^{-\varepsilon}\big)^{-u}`, 'probability'),
      dbResult('util-log2', 'The same in bits', 'log₂ U = −u log₂(1 + (v − 1)e^(−ε))', String.raw`\log_2 U = -u \log_2\big(1 + (v-1)\,e^{-\varepsilon}\big)`, 'bits')));

  const inputsCol = h('div', { class: 'inputs' },
    h('div', { class: 'card' },
      h('div', { class: 'preset-row' }, h('label', { for: ids('preset'), text: 'Example' }), e.preset),
      e.presetDesc),
    h('div', { class: 'card', 'aria-labelledby': ids('graph-title') },
      h('h3', { id: ids('graph-title'), text: 'Answer graph' }),
      h('p', { class: 'hint', text: 'Two answers are adjacent when they can come from adjacent databases; ε-DP bounds the ratio of the mechanism’s output probabilities on adjacent answers by e^ε.' }),
      h('div', { class: 'mech-fields' },
        h('div', { class: 'mech-field mech-wide' }, h('label', { for: ids('kind'), text: 'Graph' }), e.kind),
        baseBlock, ...Object.values(e.fields), edgesBlock, queryBlock,
        h('div', { class: 'mech-field mech-wide', dataset: { field: 'labels' } },
          h('label', { for: ids('labels'), text: 'Answer labels (optional, comma-separated)' }), e.labels, msg('labels'))),
      e.graphMsg, e.graphSummary, e.disconnected),
    h('div', { class: 'card', 'aria-labelledby': ids('eps-title') },
      h('h3', { id: ids('eps-title'), text: 'Privacy ε' }),
      h('div', { class: 'mech-eps-row' },
        h('label', { for: ids('eps'), text: 'ε (nats)' }), e.eps, e.epsRange,
        h('span', { class: 'mech-exp' }, 'e', h('sup', { text: 'ε' }), ' = ', e.epsExp)),
      e.epsValue, msg('eps')),
    h('div', { class: 'card', 'aria-labelledby': ids('prior-title') },
      h('h3', { id: ids('prior-title'), text: 'Prior on answers and gain' }),
      h('div', { class: 'mech-check' }, e.priorUniform, h('label', { for: ids('prior-uniform'), text: 'Uniform prior' })),
      h('div', { class: 'table-wrap' }, e.priorTable), e.priorMsg,
      h('div', { class: 'preset-row mech-gain-row' }, h('label', { for: ids('gain'), text: 'Gain' }), e.gain),
      e.gainNote));
  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'mechanism-title', text: 'Design a mechanism' }),
      h('p', { text: 'Choose how answers are adjacent, the privacy parameter ε, a prior on answers and a gain: see the best utility any ε-DP mechanism can reach, the optimal mechanism (in closed form where that is exact, else by linear programming), and how the classic mechanisms compare.' })),
    h('div', { class: 'layout' }, inputsCol, h('div', { class: 'results' }, e.boundCard, mechCard, heatCard, sweepCard)),
    e.dbCard);
  e.field = (key) => root.querySelector(`#${ids(key)}`);
  e.setMsg = (key, text) => {
    const el = root.querySelector(`#${ids(`${key}-msg`)}`);
    if (el) el.textContent = text || '';
    const inp = e.field(key);
    if (inp) {
      inp.classList.toggle('invalid', Boolean(text));
      if (text) inp.setAttribute('aria-invalid', 'true'); else inp.removeAttribute('aria-invalid');
    }
  };
  return e;
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
  if (b.bound > 0) setNumber(e.bound, b.bound);
  else { e.bound.textContent = `2^(${formatNumber(b.log2Bound)})`; e.bound.title = `log₂ = ${formatFull(b.log2Bound)}`; e.bound.dataset.value = '0'; }
  setNumber(e.boundLog, b.log2Bound);
  e.boundReading.textContent = readingOf('utilityBits', b.log2Bound);
  e.boundLog.title = `${formatFull(b.log2Bound)} — ${e.boundReading.textContent}`;
  let tight;
  if (b.distanceRegular && G.dr?.distanceRegular) tight = `Tight: the graph is distance-regular (intersection array {${G.dr.b.join(', ')}; ${G.dr.c.join(', ')}})${b.vtPlus ? ' and VT+' : ''}, so the Theorem 6.2 mechanism reaches the bound.`;
  else if (b.distanceRegular) tight = 'Tight: the graph is distance-regular, so the Theorem 6.2 mechanism reaches the bound.';
  else if (b.vtPlus === true) tight = 'Tight: the graph is VT+ (vertex-transitive by a set of n automorphisms), so the Theorem 6.2 mechanism reaches the bound.';
  else if (b.vtPlus === null) tight = 'Tightness unknown: the graph is not distance-regular and the VT+ search ran out of its time budget.';
  else tight = 'Not known to be tight: the graph is neither distance-regular nor VT+.';
  if (!b.sameForAllVertices) tight += ` The distance distribution n_d differs between vertices; the bound shown is the largest, at vertex ${labels[b.vertex] ?? b.vertex}.`;
  e.boundTight.textContent = tight;
  e.boundTight.dataset.tight = String(Boolean(b.tight));
  e.boundNote.textContent = uniformBinary
    ? 'The bound is for the uniform prior on answers and the binary gain — the current setting.'
    : 'The bound holds for the uniform prior and the binary gain; with the current prior or gain it is shown for reference only.';
}

/** One row of the mechanism table: its utility (or loss) and its smallest ε on the graph. */
export function showMechRow(e, k, util, epsR, target) {
  const row = e.rows[k];
  if (util === null) clearNumber(row.util, '—', 'fix the prior or the gain');
  else if (util.ok) setNumber(row.util, util.value);
  else clearNumber(row.util, 'error', util.error);
  if (epsR.ok) {
    setNumber(row.eps, epsR.value);
    const over = epsR.value > target * (1 + 1e-9) + 1e-12;
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

/** How the optimum compares with Theorem 6.2 (the paper's M2 on a clique). */
export function showComparison(e, cur, clique) {
  const lpU = cur.utils.lp;
  const thU = cur.utils.thm62;
  const thDP = Number.isFinite(cur.mechEps.thm62) && cur.mechEps.thm62 <= cur.eps * (1 + 1e-9) + 1e-12;
  e.lpVerdict.classList.remove('warn', 'good');
  e.lpVerdict.textContent = '';
  if (!Number.isFinite(lpU) || !Number.isFinite(thU)) return;
  const better = cur.loss ? thU - lpU : lpU - thU;
  const m2 = clique ? ' (the paper’s M2)' : '';
  const what = cur.loss ? 'expected loss' : 'utility';
  if (better > TOL && thDP) {
    e.lpVerdict.textContent = `For this prior and gain the LP finds a better ε-DP mechanism than Theorem 6.2${m2}: ${what} ${formatNumber(lpU)} against ${formatNumber(thU)} (${better > 0 && !cur.loss ? '+' : '−'}${formatNumber(Math.abs(better))}, ${formatNumber((100 * Math.abs(better)) / Math.max(1e-300, Math.abs(thU)))} %).`;
    e.lpVerdict.classList.add('good');
  } else if (better < -TOL && !thDP) {
    e.lpVerdict.textContent = `Theorem 6.2’s ${what} ${formatNumber(thU)} beats the optimum ${formatNumber(lpU)} only because it breaks ε-DP (actual ε ${formatNumber(cur.mechEps.thm62)}).`;
    e.lpVerdict.classList.add('warn');
  } else if (Math.abs(better) <= TOL) {
    e.lpVerdict.textContent = `Theorem 6.2${m2} is optimal here: both reach ${formatNumber(lpU)}.`;
  } else if (!thDP) {
    e.lpVerdict.textContent = `The optimum ${formatNumber(lpU)} is ε-DP; Theorem 6.2 (${formatNumber(thU)}) is not.`;
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
  const over = actual > eps * (1 + 1e-9) + 1e-12;
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
  const show = (key, r, pick) => {
    if (r.ok) { setNumber(e.db[key].value, pick(r.value)); e.db[key].msg.textContent = ''; } else { clearNumber(e.db[key].value, 'error', r.error); e.db[key].msg.textContent = r.error; }
  };
  setNumber(e.db.domain.value, u * Math.log2(v));
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
    e.db.util.value.title = `underflows a double; log₂ U = ${formatFull(l2)}, i.e. 10^(${formatNumber(l2 * Math.log10(2))})`;
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
  const out = (key, v) => h('output', { class: 'value', 'data-testid': ids(`lp-${key}`), 'data-value': String(v), title: formatFull(v), text: formatNumber(v) });
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
  e.certifiedNote.classList.remove('warn-text');
  if (!r) {
    e.certifiedNote.textContent = why ?? '';
    e.certifiedNote.dataset.status = why ? 'unavailable' : '';
    return;
  }
  if (!r.ok) {
    e.certifiedNote.dataset.status = 'error';
    e.certifiedNote.textContent = `No certified optimum: ${r.error.replace(/^exact\.mechanism\.optimal: /, '')}`;
    return;
  }
  const x = r.value;
  e.certified.textContent = exactPrefix(x.utility, lpUtility);
  e.certified.dataset.value = x.utility;
  e.certified.title = exactTitle(x.utility);
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
