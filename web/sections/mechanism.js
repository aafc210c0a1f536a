// sections/mechanism.js — the "Design a mechanism" section (Alvim et al. (ICALP 2011) §3–6,
// docs/mathematics.md#differential-privacy).
//
// The user picks an answer graph, ε, a prior on answers and a gain; the section shows the
// Theorem 6.1 utility bound and whether it is known to be tight, the optimal mechanism
// (qif.mechanism.optimalLP: the closed form where it is exact, else the LP — and which path it
// took), the Theorem 6.2 matrix with its ACTUAL ε beside the target, the classic mechanisms with
// their utility and smallest ε on the graph, a utility-against-ε plot and channel heat maps. A
// second panel gives the database-domain bounds (Theorem 5.1, Proposition 2, Hamming utility)
// for any number of individuals.
//
// Flow: an input updates `state`, parses in JS (messages next to the input at once) and
// schedules a debounced pipeline: graph → structure (distances, distance-regularity) → the
// ε-dependent matrices → utilities and ε of every mechanism → the LP (a cancellable job with
// progress) → the ε sweep (one cancellable job). A newer input abandons an older pipeline
// (generation counter) and cancels its long jobs, so only the latest answer is ever shown.
// root.dataset.busy is "true" while anything is scheduled or running (the browser test waits
// on it).
//
// The classic mechanisms treat the answers as the numbers 0..n−1
// (docs/mathematics.md#mechanism-families). To be ε-DP on the chosen graph, the truncated geometric
// and exponential mechanisms get the per-step parameter ε/s with s = max |a − b| over the edges (s
// = 1 on a path; s = n − 1 on a clique, which is the paper's M1 with α = 2^(−1/5) on Table 1);
// randomized response gets ε (it is ε-DP on any graph). Each row shows the smallest ε the mechanism
// actually satisfies on the graph (qif.privacy.epsilon), computed from its matrix.

import { h, replace } from '../dom.js';
import { debounce } from '../client.js';
import { formatNumber, formatFull } from '../numbers.js';
import { linePlot, heatmap, PALETTE } from '../plot.js';
import { formulaSlot, sourceRefs } from '../formulas.js';
import {
  KINDS, BASE_KINDS, GAINS, SHOWN, DEFAULT_STATE, PRESETS, presetById,
  MAX_ANSWERS, LP_MAX_ANSWERS, HEATMAP_MAX_ANSWERS, PRIOR_TABLE_MAX,
  parseEpsilon, parseCount, parseEdges, parseIntegers, answerLabels, parsePrior, scoreMatrix,
  toRows, epsilonGrid, countQuery,
} from './mechanism-inputs.js';

const DEBOUNCE_MS = 150;
const PROGRESS_AFTER_MS = 300;
const AUTO_SWEEP_MAX = 16; // answers up to which the ε sweep runs by itself
const LP_TIME_LIMIT_MS = 120000;
const TOL = 1e-9;

const MECHS = [
  { key: 'lp', name: 'Optimal mechanism', formula: 'max Σ_y π_y Σ_z H[y][z] g(y,z) over ε-DP channels H', tex: String.raw`\max_{H\ \varepsilon\text{-DP}} \textstyle\sum_y \pi_y \sum_z H[y][z]\, g(y,z)` },
  { key: 'thm62', name: 'Theorem 6.2', formula: 'H[i][j] = c_i · e^(−ε d(i,j))', tex: String.raw`H[i][j] = c_i\, e^{-\varepsilon\, d(i,j)}` },
  { key: 'tg', name: 'Truncated geometric', formula: 'α^|y−z| (1−α)/(1+α), tails at the ends', tex: String.raw`\alpha^{|y-z|}\,\tfrac{1-\alpha}{1+\alpha}\text{, tails at the ends}` },
  { key: 'rr', name: 'Randomized response', formula: 'e^ε/(n−1+e^ε) on the true answer, 1/(n−1+e^ε) elsewhere', tex: String.raw`\tfrac{e^\varepsilon}{n-1+e^\varepsilon}\text{ on the true answer, }\tfrac{1}{n-1+e^\varepsilon}\text{ elsewhere}` },
  { key: 'exp', name: 'Exponential', formula: '∝ e^(−ε′|y−z|/2), rows normalized', tex: String.raw`\propto e^{-\varepsilon' |y-z|/2}\text{, rows normalized}` },
];

function cloneState(s) {
  return JSON.parse(JSON.stringify(s));
}

let cssAdded = false;
function addCSS() {
  if (cssAdded || document.querySelector('link[data-section-css="mechanism"]')) return;
  cssAdded = true;
  document.head.append(h('link', { rel: 'stylesheet', href: 'sections/mechanism.css', 'data-section-css': 'mechanism' }));
}

/** Sets an <output> to a number: 4 significant digits shown, the full value in title and data-value. */
function setNumber(el, x) {
  el.textContent = formatNumber(x);
  el.title = formatFull(x);
  el.dataset.value = String(x);
}
function clearNumber(el, text = '—', title = '') {
  el.textContent = text;
  el.title = title;
  delete el.dataset.value;
}

export function mount(root, { client }) {
  addCSS();
  let state = cloneState(DEFAULT_STATE);
  Object.assign(state, presetById(state.preset).state);

  // ------------------------------------------------------------ skeleton
  const ids = (k) => `mech-${k}`;
  const input = (key, attrs = {}) => h('input', {
    type: 'text', class: 'num', id: ids(key), 'data-testid': ids(key), autocomplete: 'off', spellcheck: 'false', inputmode: 'decimal', ...attrs,
  });
  const msg = (key) => h('span', { class: 'msg', id: ids(`${key}-msg`), 'data-testid': ids(`${key}-msg`), role: 'alert' });
  const field = (key, label, attrs) => h('div', { class: 'mech-field', dataset: { field: key } },
    h('label', { for: ids(key), text: label }), input(key, attrs), msg(key));

  const presetSelect = h('select', { id: ids('preset'), 'data-testid': ids('preset') },
    PRESETS.map((p) => h('option', { value: p.id, text: p.label })),
    h('option', { value: 'custom', text: 'Custom (edited)' }));
  const presetDesc = h('p', { class: 'muted', 'data-testid': ids('preset-description') });

  const kindSelect = h('select', { id: ids('kind'), 'data-testid': ids('kind') }, KINDS.map(([k, t]) => h('option', { value: k, text: t })));
  const baseSelect = h('select', { id: ids('base'), 'data-testid': ids('base') }, BASE_KINDS.map(([k, t]) => h('option', { value: k, text: t })));
  const fields = {
    n: field('n', 'Answers n'),
    w: field('w', 'Width w'),
    h: field('h', 'Height h'),
    d: field('d', 'Dimension d'),
    u: field('u', 'Individuals u'),
    v: field('v', 'Values v'),
    cn: field('cn', 'Vertices n'),
  };
  const edgesArea = h('textarea', { id: ids('edges'), 'data-testid': ids('edges'), rows: '3', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': ids('edges-hint') });
  const edgesBlock = h('div', { class: 'mech-field mech-wide', dataset: { field: 'edges' } },
    h('label', { for: ids('edges'), text: 'Edges' }),
    edgesArea,
    h('span', { class: 'hint', id: ids('edges-hint'), text: 'Pairs of vertices 0..n−1, e.g. 0-1, 1-2, 2-3 (one edge per pair; commas, spaces or new lines).' }),
    msg('edges'));
  const queryArea = h('textarea', { id: ids('query'), 'data-testid': ids('query'), rows: '2', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': ids('query-hint') });
  const countButton = h('button', { type: 'button', class: 'small', 'data-testid': ids('count-query'), text: 'Fill with the counting query (number of non-zero values)' });
  const queryBlock = h('div', { class: 'mech-field mech-wide', dataset: { field: 'query' } },
    h('label', { for: ids('query'), text: 'Query table f: the answer of each input vertex' }),
    queryArea,
    h('span', { class: 'hint', id: ids('query-hint'), text: 'f(0), f(1), …, one answer index per vertex of the base graph; the answers are 0..max f.' }),
    countButton, msg('query'));
  const baseBlock = h('div', { class: 'mech-field', dataset: { field: 'base' } }, h('label', { for: ids('base'), text: 'Base graph on inputs' }), baseSelect);
  const labelsInput = input('labels', { inputmode: 'text', class: 'mech-text' });
  const graphMsg = h('p', { class: 'mech-error', 'data-testid': ids('graph-msg'), role: 'alert' });
  const graphSummary = h('p', { class: 'muted', 'data-testid': ids('graph-summary') });
  const disconnectedNote = h('p', { class: 'results-note', 'data-testid': ids('disconnected') });

  const epsRange = h('input', { type: 'range', id: ids('eps-range'), 'data-testid': ids('eps-range'), min: '0.01', max: '5', step: '0.01', 'aria-label': 'ε slider (nats)' });
  const epsInput = input('eps', { title: 'ε in nats: a number, a fraction or ln x (e.g. ln 2)' });
  const epsExp = h('output', { class: 'value', 'data-testid': ids('exp-eps') });
  const epsValue = h('output', { class: 'mech-eps-value', 'data-testid': ids('eps-value') });

  const priorUniform = h('input', { type: 'checkbox', id: ids('prior-uniform'), 'data-testid': ids('prior-uniform') });
  const priorTable = h('table', { class: 'grid mech-prior', 'data-testid': ids('prior-table'), 'aria-label': 'Prior on answers' });
  const priorMsg = msg('prior');
  const gainSelect = h('select', { id: ids('gain'), 'data-testid': ids('gain') }, GAINS.map(([k, t]) => h('option', { value: k, text: t })));
  const gainNote = h('p', { class: 'hint', 'data-testid': ids('gain-note') });

  // results
  const boundValue = h('output', { class: 'value', 'data-testid': ids('bound') });
  const boundLog = h('output', { class: 'value', 'data-testid': ids('bound-log2') });
  const boundTight = h('p', { class: 'mech-tight', 'data-testid': ids('bound-tight') });
  const boundNote = h('p', { class: 'hint', 'data-testid': ids('bound-note') });
  const boundCard = h('section', { class: 'card', 'aria-labelledby': ids('bound-title'), dataset: { status: 'pending' }, 'data-testid': ids('bound-card') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('bound-title'), text: 'Utility bound (Theorem 6.1)' }), sourceRefs('Alvim et al. (ICALP 2011) §6')),
    h('dl', { class: 'result-list' },
      h('div', { class: 'result' },
        h('dt', {}, h('span', { class: 'r-name', text: 'Best utility of an ε-DP mechanism' }), formulaSlot('U ≤ 1 / Σ_d n_d e^(−εd)', String.raw`U \le 1 \big/ \textstyle\sum_d n_d\, e^{-\varepsilon d}`)),
        h('dd', {}, h('span', { class: 'r-value' }, boundValue, ' ', h('span', { class: 'unit', text: 'probability' })))),
      h('div', { class: 'result' },
        h('dt', {}, h('span', { class: 'r-name', text: 'In bits' }), formulaSlot('log₂ U = −log₂ Σ_d n_d e^(−εd)', String.raw`\log_2 U = -\log_2 \textstyle\sum_d n_d\, e^{-\varepsilon d}`)),
        h('dd', {}, h('span', { class: 'r-value' }, boundLog, ' ', h('span', { class: 'unit', text: 'bits' }))))),
    boundTight, boundNote);

  const mechRows = {};
  const mechBody = h('tbody');
  for (const m of MECHS) {
    const util = h('output', { class: 'value', 'data-testid': ids(`util-${m.key}`) });
    const eps = h('output', { class: 'value', 'data-testid': ids(`eps-${m.key}`) });
    const verdict = h('span', { class: 'mech-verdict', 'data-testid': ids(`verdict-${m.key}`) });
    const detail = h('span', { class: 'mech-detail', 'data-testid': ids(`detail-${m.key}`) });
    const name = h('span', { class: 'r-name', text: m.name });
    const tr = h('tr', { 'data-testid': ids(`row-${m.key}`), dataset: { status: 'pending' } },
      h('th', { scope: 'row' }, name, formulaSlot(m.formula, m.tex), detail),
      h('td', {}, util), h('td', {}, eps, h('br'), verdict));
    mechRows[m.key] = { tr, util, eps, verdict, detail, name };
    mechBody.append(tr);
  }
  const utilHead = h('th', { scope: 'col', text: 'Utility (probability)' });
  const mechTable = h('table', { class: 'mech-table', 'data-testid': ids('table') },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: 'Mechanism' }), utilHead, h('th', { scope: 'col', text: 'Smallest ε on the graph (nats)' }))),
    mechBody);
  const lpProgress = h('div', { class: 'mech-progress', 'data-testid': ids('lp-progress'), role: 'status' });
  const thm62Warning = h('p', { class: 'results-note', 'data-testid': ids('thm62-warning') });
  const lpVerdict = h('p', { class: 'results-note', 'data-testid': ids('lp-vs-thm62') });
  const mechCard = h('section', { class: 'card', 'aria-labelledby': ids('mechs-title') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('mechs-title'), text: 'Mechanisms on this graph' }), sourceRefs('Alvim et al. (ICALP 2011) §6 · Chatzikokolakis et al. (CSF 2019) §6.1')),
    h('p', { class: 'hint', 'data-testid': ids('mechs-hint'), text: '' }),
    lpProgress, thm62Warning, lpVerdict,
    h('div', { class: 'table-wrap' }, mechTable));

  const showSelect = h('select', { id: ids('show'), 'data-testid': ids('show') }, SHOWN.map(([k, t]) => h('option', { value: k, text: t })));
  const heatmaps = h('div', { class: 'mech-heatmaps', 'data-testid': ids('heatmaps') });
  const heatCard = h('section', { class: 'card', 'aria-labelledby': ids('heat-title') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('heat-title'), text: 'Channel heat maps' })),
    h('p', { class: 'hint', text: 'Rows are the true answers y, columns the reported outputs z; darker is more probable.' }),
    h('div', { class: 'preset-row' }, h('label', { for: ids('show'), text: 'Compare with' }), showSelect),
    heatmaps);

  const sweepStatus = h('div', { class: 'mech-progress', 'data-testid': ids('sweep-status'), role: 'status' });
  const sweepPlot = h('div', { 'data-testid': ids('sweep-plot') });
  const sweepCard = h('section', { class: 'card', 'aria-labelledby': ids('sweep-title') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('sweep-title'), text: 'Utility against ε' })),
    sweepStatus, sweepPlot);

  // database panel
  const dbFields = {
    u: field('db-u', 'Individuals u', { title: 'any size: 1000000, 1e9 or 10^9' }),
    v: field('db-v', 'Values v (the absent value included)'),
    eps: field('db-eps', 'ε (nats)', { title: 'a number, a fraction or ln x' }),
  };
  const dbOut = {};
  const dbResult = (key, name, formula, tex, unit) => {
    const value = h('output', { class: 'value', 'data-testid': ids(`db-${key}`) });
    const m = h('div', { class: 'r-msg', 'data-testid': ids(`db-${key}-msg`) });
    dbOut[key] = { value, msg: m };
    return h('div', { class: 'result' },
      h('dt', {}, h('span', { class: 'r-name', text: name }), formulaSlot(formula, tex)),
      h('dd', {}, h('span', { class: 'r-value' }, value, ' ', h('span', { class: 'unit', text: unit })), m));
  };
  const dbExp = h('output', { class: 'value', 'data-testid': ids('db-exp-eps') });
  const dbCard = h('section', { class: 'card mech-db', 'aria-labelledby': ids('db-title'), 'data-testid': ids('db') },
    h('div', { class: 'card-head' }, h('h3', { id: ids('db-title'), text: 'Database domains: leakage and utility bounds' }), sourceRefs('Alvim et al. (ICALP 2011) §5, Theorem 5.1 and Proposition 2')),
    h('p', { class: 'hint', text: 'Databases of u individuals, each with one of v values; adjacent when they differ in one individual (the Hamming graph on vᵘ databases). Computed analytically in log space, so u = 10⁶ or 10⁹ answers instantly.' }),
    h('div', { class: 'mech-fields' }, dbFields.u, dbFields.v, dbFields.eps,
      h('div', { class: 'mech-field' }, h('span', { class: 'mech-label', text: 'e^ε' }), dbExp)),
    h('dl', { class: 'result-list' },
      dbResult('domain', 'Size of the domain', 'log₂ |X| = u log₂ v', String.raw`\log_2 |\mathcal X| = u \log_2 v`, 'bits'),
      dbResult('leak', 'Leakage of any ε-DP mechanism (Theorem 5.1)', 'I_∞(X;Z) ≤ u log₂(v e^ε / (v − 1 + e^ε))', String.raw`I_\infty(X;Z) \le u \log_2 \frac{v\, e^\varepsilon}{v-1+e^\varepsilon}`, 'bits'),
      dbResult('ind', 'Leakage about one individual (Proposition 2)', 'I_∞ ≤ log₂(v e^ε / (v − 1 + e^ε))', String.raw`I_\infty \le \log_2 \frac{v\, e^\varepsilon}{v-1+e^\varepsilon}`, 'bits'),
      dbResult('util', 'Utility bound on the Hamming graph', 'U ≤ 1/(1 + (v − 1)e^(−ε))ᵘ', String.raw`U \le \big(1 + (v-1)\,e^{-\varepsilon}\big)^{-u}`, 'probability'),
      dbResult('util-log2', 'The same in bits', 'log₂ U = −u log₂(1 + (v − 1)e^(−ε))', String.raw`\log_2 U = -u \log_2\big(1 + (v-1)\,e^{-\varepsilon}\big)`, 'bits')));

  const inputsCol = h('div', { class: 'inputs' },
    h('div', { class: 'card' },
      h('div', { class: 'preset-row' }, h('label', { for: ids('preset'), text: 'Example' }), presetSelect),
      presetDesc),
    h('div', { class: 'card', 'aria-labelledby': ids('graph-title') },
      h('h3', { id: ids('graph-title'), text: 'Answer graph' }),
      h('p', { class: 'hint', text: 'Two answers are adjacent when they can come from adjacent databases; ε-DP bounds the ratio of the mechanism’s output probabilities on adjacent answers by e^ε.' }),
      h('div', { class: 'mech-fields' },
        h('div', { class: 'mech-field mech-wide' }, h('label', { for: ids('kind'), text: 'Graph' }), kindSelect),
        baseBlock, fields.n, fields.w, fields.h, fields.d, fields.u, fields.v, fields.cn, edgesBlock, queryBlock,
        h('div', { class: 'mech-field mech-wide', dataset: { field: 'labels' } },
          h('label', { for: ids('labels'), text: 'Answer labels (optional, comma-separated)' }), labelsInput, msg('labels'))),
      graphMsg, graphSummary, disconnectedNote),
    h('div', { class: 'card', 'aria-labelledby': ids('eps-title') },
      h('h3', { id: ids('eps-title'), text: 'Privacy ε' }),
      h('div', { class: 'mech-eps-row' },
        h('label', { for: ids('eps'), text: 'ε (nats)' }), epsInput, epsRange,
        h('span', { class: 'mech-exp' }, 'e', h('sup', { text: 'ε' }), ' = ', epsExp)),
      epsValue, msg('eps')),
    h('div', { class: 'card', 'aria-labelledby': ids('prior-title') },
      h('h3', { id: ids('prior-title'), text: 'Prior on answers and gain' }),
      h('div', { class: 'mech-check' }, priorUniform, h('label', { for: ids('prior-uniform'), text: 'Uniform prior' })),
      h('div', { class: 'table-wrap' }, priorTable), priorMsg,
      h('div', { class: 'preset-row mech-gain-row' }, h('label', { for: ids('gain'), text: 'Gain' }), gainSelect),
      gainNote));
  const resultsCol = h('div', { class: 'results' }, boundCard, mechCard, heatCard, sweepCard);

  root.append(
    h('div', { class: 'section-head' },
      h('h2', { id: 'mechanism-title', text: 'Design a mechanism' }),
      h('p', { text: 'Choose how answers are adjacent, the privacy parameter ε, a prior on answers and a gain: see the best utility any ε-DP mechanism can reach, the optimal mechanism (in closed form where that is exact, else by linear programming), and how the classic mechanisms compare.' })),
    h('div', { class: 'layout' }, inputsCol, resultsCol),
    dbCard);
  root.dataset.busy = 'true';

  // ------------------------------------------------------------ state → inputs
  function fieldInput(key) { return root.querySelector(`#${ids(key)}`); }
  function setMsg(key, text) {
    const el = root.querySelector(`#${ids(`${key}-msg`)}`);
    if (el) el.textContent = text || '';
    const inp = fieldInput(key);
    if (inp) {
      inp.classList.toggle('invalid', Boolean(text));
      if (text) inp.setAttribute('aria-invalid', 'true'); else inp.removeAttribute('aria-invalid');
    }
  }

  function writeInputs() {
    presetSelect.value = state.preset && presetById(state.preset) ? state.preset : 'custom';
    presetDesc.textContent = presetById(state.preset)?.description ?? 'Your own graph and parameters.';
    kindSelect.value = state.kind;
    baseSelect.value = state.base;
    for (const k of ['n', 'w', 'h', 'd', 'u', 'v', 'cn']) fieldInput(k).value = state[k];
    edgesArea.value = state.edges;
    queryArea.value = state.query;
    labelsInput.value = state.labels;
    epsInput.value = state.epsilon;
    syncRange();
    priorUniform.checked = !state.prior;
    gainSelect.value = state.gain;
    showSelect.value = state.show;
    fieldInput('db-u').value = state.db.u;
    fieldInput('db-v').value = state.db.v;
    fieldInput('db-eps').value = state.db.epsilon;
    updateVisibility();
    renderPriorTable();
  }

  function activeKind() { return state.kind === 'induced' ? state.base : state.kind; }
  function updateVisibility() {
    const k = activeKind();
    const need = {
      path: ['n'], cycle: ['n'], clique: ['n'], grid: ['w', 'h'], hypercube: ['d'], hamming: ['u', 'v'], petersen: [], custom: ['cn', 'edges'],
    }[k] ?? [];
    for (const el of root.querySelectorAll('.mech-field[data-field]')) {
      const f = el.dataset.field;
      if (f === 'labels' || f.startsWith('db-')) continue;
      if (f === 'base' || f === 'query') el.hidden = state.kind !== 'induced';
      else el.hidden = !need.includes(f);
    }
    countButton.disabled = !(state.kind === 'induced' && state.base === 'hamming');
    fields.n.querySelector('label').textContent = state.kind === 'induced' ? 'Inputs n' : 'Answers n';
  }

  function syncRange() {
    const e = parseEpsilon(state.epsilon);
    if ('value' in e) {
      epsRange.value = String(Math.min(5, Math.max(0.01, e.value)));
      setNumber(epsExp, Math.exp(e.value));
      epsValue.textContent = `ε = ${formatNumber(e.value)} nats`;
      epsValue.title = formatFull(e.value);
    } else {
      clearNumber(epsExp);
      epsValue.textContent = '';
    }
  }

  // The prior table follows the number of answers of the last graph built.
  let lastN = null;
  let labels = [];
  let priorSig = null;
  function renderPriorTable() {
    if (!state.prior) { replace(priorTable); priorTable.hidden = true; return; }
    const n = state.prior.length;
    priorTable.hidden = false;
    priorSig = JSON.stringify([n, labels]);
    if (n > PRIOR_TABLE_MAX) { replace(priorTable, h('caption', { text: `The prior can be edited entry by entry up to ${PRIOR_TABLE_MAX} answers.` })); return; }
    const head = h('tr', {}, h('th', { scope: 'col', class: 'corner', text: 'answer' }), state.prior.map((_, i) => h('th', { scope: 'col', class: 'static-label', text: labels[i] ?? String(i) })));
    const row = h('tr', {}, h('th', { scope: 'row', class: 'prior-col', text: 'π' }),
      state.prior.map((t, i) => h('td', { class: 'prior-col' }, h('input', {
        type: 'text', class: 'num', value: t, 'aria-label': `Prior probability of answer ${labels[i] ?? i}`, 'data-testid': ids(`prior-${i}`), id: ids(`prior-${i}`), dataset: { prior: String(i) }, inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
      }))));
    replace(priorTable, h('thead', {}, head), h('tbody', {}, row));
  }

  // ------------------------------------------------------------ events
  function edited() {
    if (state.preset) {
      state.preset = null;
      presetSelect.value = 'custom';
      presetDesc.textContent = 'Your own graph and parameters.';
    }
    schedule();
  }

  presetSelect.addEventListener('change', () => {
    const p = presetById(presetSelect.value);
    if (!p) return;
    const db = state.db;
    state = { ...cloneState(DEFAULT_STATE), ...cloneState(p.state), preset: p.id, db };
    writeInputs();
    schedule(true);
  });
  kindSelect.addEventListener('change', () => { state.kind = kindSelect.value; updateVisibility(); edited(); });
  baseSelect.addEventListener('change', () => { state.base = baseSelect.value; updateVisibility(); edited(); });
  for (const k of ['n', 'w', 'h', 'd', 'u', 'v', 'cn']) fieldInput(k).addEventListener('input', (e) => { state[k] = e.target.value; edited(); });
  edgesArea.addEventListener('input', () => { state.edges = edgesArea.value; edited(); });
  queryArea.addEventListener('input', () => { state.query = queryArea.value; edited(); });
  labelsInput.addEventListener('input', () => { state.labels = labelsInput.value; edited(); });
  countButton.addEventListener('click', () => {
    const u = parseCount(state.u, 'u', 1, 12);
    const v = parseCount(state.v, 'v', 2, 64);
    if ('error' in u || 'error' in v || v.value ** u.value > 4096) { setMsg('query', 'set u and v first (at most 4096 databases)'); return; }
    state.query = countQuery(u.value, v.value).join(', ');
    queryArea.value = state.query;
    edited();
  });
  epsInput.addEventListener('input', () => { state.epsilon = epsInput.value; syncRange(); edited(); });
  epsRange.addEventListener('input', () => {
    state.epsilon = String(Number(epsRange.value));
    epsInput.value = state.epsilon;
    syncRange();
    edited();
  });
  priorUniform.addEventListener('change', () => {
    state.prior = priorUniform.checked ? null : new Array(lastN ?? 1).fill(`1/${lastN ?? 1}`);
    renderPriorTable();
    edited();
  });
  priorTable.addEventListener('input', (e) => {
    const i = Number(e.target.dataset.prior);
    if (!Number.isInteger(i) || !state.prior) return;
    state.prior[i] = e.target.value;
    edited();
  });
  gainSelect.addEventListener('change', () => { state.gain = gainSelect.value; edited(); });
  showSelect.addEventListener('change', () => { state.show = showSelect.value; renderHeatmaps(); });
  for (const [k, key] of [['u', 'db-u'], ['v', 'db-v'], ['epsilon', 'db-eps']]) {
    fieldInput(key).addEventListener('input', (e) => { state.db[k] = e.target.value; scheduleDB(); });
  }
  root.addEventListener('click', (e) => {
    const a = e.target.closest?.('button[data-action]');
    if (!a) return;
    const act = a.dataset.action;
    if (act === 'cancel-lp' && lpJob) client.cancel(lpJob);
    else if (act === 'cancel-sweep' && sweepJob) client.cancel(sweepJob);
    else if (act === 'run-lp') runLP(gen);
    else if (act === 'run-sweep') runSweep(gen);
  });

  // ------------------------------------------------------------ busy tracking
  let scheduled = false;
  let scheduledDB = false;
  const tasks = new Set();
  function setBusy() { root.dataset.busy = String(scheduled || scheduledDB || tasks.size > 0); }
  async function track(promise) {
    const t = {};
    tasks.add(t);
    setBusy();
    try { return await promise; } finally { tasks.delete(t); setBusy(); }
  }
  /** One batch of calls; resolves with [{ok, value} | {ok:false, error}]. */
  function batch(calls, options) {
    return track(client.submit(calls, options).promise);
  }
  const debounced = debounce(() => { scheduled = false; setBusy(); recompute(); }, DEBOUNCE_MS);
  function schedule(now = false) {
    scheduled = true;
    setBusy();
    markStale();
    if (now) debounced.flush(); else debounced();
  }
  const debouncedDB = debounce(() => { scheduledDB = false; setBusy(); computeDB(); }, DEBOUNCE_MS);
  function scheduleDB() { scheduledDB = true; setBusy(); dbCard.dataset.status = 'stale'; debouncedDB(); }

  function markStale() {
    boundCard.dataset.status = 'stale';
    for (const r of Object.values(mechRows)) r.tr.dataset.status = 'stale';
  }

  // ------------------------------------------------------------ pipeline
  let gen = 0;
  let lpJob = null;
  let sweepJob = null;
  let graphCache = { key: null, value: null };
  let current = null; // {g, n, D, diameter, eps, prior, score, labels, matrices, lp, thm62}

  function cancelLong() {
    if (lpJob !== null && client.pending(lpJob)) client.cancel(lpJob);
    if (sweepJob !== null && client.pending(sweepJob)) client.cancel(sweepJob);
    lpJob = null;
    sweepJob = null;
  }

  function clearInputMessages() {
    for (const k of ['n', 'w', 'h', 'd', 'u', 'v', 'cn', 'edges', 'query', 'eps', 'labels']) setMsg(k, '');
    graphMsg.textContent = '';
  }

  /** The calls that build the answer graph, or {error, field}. */
  function graphPlan() {
    const k = activeKind();
    const int = (key, name, min, max) => {
      const r = parseCount(state[key], name, min, max);
      if ('error' in r) throw Object.assign(new Error(r.error), { field: key });
      return r.value;
    };
    let base;
    if (k === 'path' || k === 'cycle' || k === 'clique') {
      const lim = state.kind === 'induced' ? 4096 : MAX_ANSWERS;
      base = { ns: 'graph', fn: k, args: [int('n', 'n', k === 'cycle' ? 3 : 1, lim)] };
    } else if (k === 'grid') {
      const w = int('w', 'w', 1, 64);
      const hh = int('h', 'h', 1, 64);
      if (w * hh > MAX_ANSWERS) throw Object.assign(new Error(`w × h = ${w * hh} answers, more than this section’s limit of ${MAX_ANSWERS}`), { field: 'h' });
      base = { ns: 'graph', fn: 'grid', args: [w, hh] };
    } else if (k === 'hypercube') {
      base = { ns: 'graph', fn: 'hypercube', args: [int('d', 'd', 1, state.kind === 'induced' ? 12 : 8)] };
    } else if (k === 'hamming') {
      const u = int('u', 'u', 1, 64);
      const v = int('v', 'v', 2, 64);
      const lim = state.kind === 'induced' ? 4096 : MAX_ANSWERS;
      if (v ** u > lim) throw Object.assign(new Error(`vᵘ = ${v ** u > 1e15 ? `2^${formatNumber(u * Math.log2(v))}` : (v ** u).toLocaleString('en')} answers, more than this graph’s limit of ${lim}; the database panel below handles any u`), { field: 'u' });
      base = { ns: 'graph', fn: 'hamming', args: [u, v] };
    } else if (k === 'petersen') {
      base = { ns: 'graph', fn: 'petersen', args: [] };
    } else if (k === 'custom') {
      const n = int('cn', 'n', 1, state.kind === 'induced' ? 4096 : MAX_ANSWERS);
      const e = parseEdges(state.edges);
      if ('error' in e) throw Object.assign(new Error(e.error), { field: 'edges' });
      base = { literal: { n, edges: e.value } };
    } else {
      throw Object.assign(new Error(`unknown graph “${k}”`), { field: 'kind' });
    }
    if (state.kind !== 'induced') return { base };
    const q = parseIntegers(state.query, 'query');
    if ('error' in q) throw Object.assign(new Error(q.error), { field: 'query' });
    if (!q.value.length) throw Object.assign(new Error('query: enter one answer index per input vertex'), { field: 'query' });
    return { base, query: q.value };
  }

  async function buildGraph(plan) {
    const key = JSON.stringify(plan);
    if (graphCache.key === key) return graphCache.value;
    let g = plan.base.literal;
    if (!g) {
      const [r] = await batch([plan.base]);
      if (!r.ok) throw Object.assign(new Error(r.error), { field: 'graph' });
      g = r.value;
    }
    if (plan.query) {
      const [r] = await batch([{ ns: 'graph', fn: 'induced', args: [g, plan.query] }]);
      if (!r.ok) throw Object.assign(new Error(r.error), { field: /^query/.test(r.error) ? 'query' : 'graph' });
      g = r.value;
    } else if (plan.base.literal) {
      // Let the API check the literal edge list (self-loops, range, duplicates).
      const [r] = await batch([{ ns: 'graph', fn: 'isDistanceRegular', args: [g] }]);
      if (!r.ok) throw Object.assign(new Error(r.error), { field: 'edges' });
    }
    if (g.n > MAX_ANSWERS) throw Object.assign(new Error(`${g.n} answers, more than this section’s limit of ${MAX_ANSWERS}`), { field: 'graph' });
    const [dist, dr] = await batch([
      { ns: 'graph', fn: 'distances', args: [g] },
      { ns: 'graph', fn: 'isDistanceRegular', args: [g] },
    ]);
    if (!dist.ok) throw Object.assign(new Error(dist.error), { field: 'graph' });
    const D = toRows(dist.value);
    let diameter = 0;
    let connected = true;
    for (const row of D) for (const d of row) { if (Number.isFinite(d)) diameter = Math.max(diameter, d); else connected = false; }
    let span = 0;
    for (const [a, b] of g.edges) span = Math.max(span, Math.abs(a - b));
    const value = { g, n: g.n, D, diameter, connected, span, dr: dr.ok ? dr.value : null };
    graphCache = { key, value };
    return value;
  }

  function showGraphError(err) {
    graphSummary.textContent = '';
    disconnectedNote.textContent = '';
    disconnectedNote.classList.remove('warn');
    const f = err.field;
    if (f && ['n', 'w', 'h', 'd', 'u', 'v', 'cn', 'edges', 'query'].includes(f)) setMsg(f, err.message);
    else graphMsg.textContent = err.message;
  }

  async function recompute() {
    const my = ++gen;
    cancelLong();
    clearInputMessages();
    const eps = parseEpsilon(state.epsilon);
    if ('error' in eps) setMsg('eps', eps.error);
    let plan;
    try { plan = graphPlan(); } catch (e) { showGraphError(e); }
    if (!plan || 'error' in eps) { markStale(); return; }
    let G;
    try {
      G = await buildGraph(plan);
    } catch (e) {
      if (my !== gen) return;
      showGraphError(e);
      markStale();
      return;
    }
    if (my !== gen) return;

    // Structure: summary, labels, prior table.
    const lab = answerLabels(state.labels, G.n);
    labels = lab.labels;
    setMsg('labels', lab.error || '');
    lastN = G.n;
    if (state.prior && state.prior.length !== G.n) {
      // The number of answers changed: keep the entries there are, new answers get 0.
      state.prior = state.prior.slice(0, G.n);
      while (state.prior.length < G.n) state.prior.push('0');
    }
    // Rebuild the table only when its shape or labels changed, never while typing in it.
    const sig = JSON.stringify([state.prior?.length ?? 0, labels]);
    if (sig !== priorSig) { priorSig = sig; renderPriorTable(); }
    showSummary(G);
    const prior = parsePrior(state.prior, G.n);
    priorMsg.textContent = 'error' in prior ? prior.error : '';
    for (const inp of priorTable.querySelectorAll('input')) inp.classList.toggle('invalid', 'error' in prior && (prior.index === undefined || prior.index === Number(inp.dataset.prior)));
    const score = scoreMatrix(state.gain, G.D, G.diameter);
    gainNote.textContent = gainText(G, score);
    const loss = state.gain === 'loss';
    utilHead.textContent = loss ? 'Expected loss (lower is better)' : `Utility (${state.gain === 'binary' ? 'probability' : 'expected gain'})`;

    // ε-dependent matrices and the bound.
    const e = eps.value;
    const sEps = e / Math.max(1, G.span);
    const res = await batch([
      { ns: 'privacy', fn: 'utilityBound', args: [G.g, e, { budgetMs: 500 }] },
      { ns: 'mechanism', fn: 'optimalDetail', args: [G.g, e] },
      { ns: 'mechanism', fn: 'truncatedGeometric', args: [G.n, sEps] },
      { ns: 'mechanism', fn: 'randomizedResponse', args: [G.n, e] },
      { ns: 'mechanism', fn: 'exponential', args: [G.n, sEps] },
    ]).catch((err) => err);
    if (my !== gen) return;
    if (res instanceof Error) { graphMsg.textContent = res.message; return; }
    const [bound, thm, tg, rr, ex] = res;
    showBound(bound, G, prior, score);
    const matrices = { thm62: thm.ok ? thm.value.mechanism : null, tg: tg.ok ? tg.value : null, rr: rr.ok ? rr.value : null, exp: ex.ok ? ex.value : null };
    const errors = { thm62: thm.error, tg: tg.error, rr: rr.error, exp: ex.error };
    current = { G, eps: e, sEps, prior: prior.value ?? null, score: score.matrix ?? null, scoreError: score.error, loss, matrices, thm: thm.ok ? thm.value : null, lp: null, mechEps: {}, utils: {} };

    // Utilities and ε of each mechanism.
    const keys = Object.keys(matrices).filter((k) => matrices[k]);
    const calls = [];
    for (const k of keys) {
      calls.push({ ns: 'privacy', fn: 'epsilon', args: [matrices[k], G.g] });
      if (current.prior && !score.error) calls.push(utilityCall(current.prior, matrices[k], current));
    }
    const out = await batch(calls).catch((err) => err);
    if (my !== gen) return;
    if (out instanceof Error) { graphMsg.textContent = out.message; return; }
    let i = 0;
    for (const k of ['thm62', 'tg', 'rr', 'exp']) {
      const row = mechRows[k];
      row.tr.dataset.status = 'ok';
      if (!matrices[k]) {
        clearNumber(row.util, 'n/a', errors[k]);
        clearNumber(row.eps, 'n/a');
        row.verdict.textContent = errors[k] || '';
        row.tr.dataset.status = 'error';
        continue;
      }
      const epsR = out[i++];
      const utilR = current.prior && !score.error ? out[i++] : null;
      current.mechEps[k] = epsR.ok ? epsR.value : NaN;
      current.utils[k] = utilR && utilR.ok ? utilValue(utilR.value, current) : NaN;
      showMechRow(k, utilR, epsR, e);
    }
    showDetails(current);
    renderHeatmaps();
    if (G.n <= LP_MAX_ANSWERS && current.prior && !score.error) await runLP(my);
    else showLPUnavailable(G, prior, score);
    if (my !== gen) return;
    if (G.n <= AUTO_SWEEP_MAX) await runSweep(my);
    else showSweepButton();
  }

  function utilityCall(prior, H, cur) {
    if (cur.loss) return { ns: 'mechanism', fn: 'expectedLoss', args: [prior, H, cur.score] };
    return { ns: 'mechanism', fn: 'utility', args: cur.score ? [prior, H, cur.score] : [prior, H] };
  }
  function utilValue(v, cur) { return cur.loss ? v.loss : v; }

  function gainText(G, score) {
    if (score.error) return score.error;
    if (state.gain === 'binary') return 'Utility = probability that the optimal guess from the output is the true answer (2^(−H_∞(Y|Z)) for the uniform prior).';
    if (state.gain === 'distance') return `Gain of guessing z when the answer is y: max(0, 1 − d(y,z)/${formatNumber(G.diameter)}), with the graph’s diameter ${formatNumber(G.diameter)}${G.connected ? '' : ' (0 across components)'}.`;
    return 'Loss of reporting z when the answer is y: the graph distance d(y,z), |y − z| on a path. Mechanisms minimize the expected loss with the optimal remapping of outputs.';
  }

  function showSummary(G) {
    const m = G.g.edges.length;
    const parts = [`${G.n} answer${G.n === 1 ? '' : 's'}`, `${m} edge${m === 1 ? '' : 's'}`, `diameter ${G.connected ? G.diameter : '∞'}`];
    if (G.dr?.distanceRegular) parts.push(`distance-regular, intersection array {${G.dr.b.join(', ')}; ${G.dr.c.join(', ')}}`);
    else if (G.dr) parts.push('not distance-regular');
    if (state.kind === 'induced') parts.push('induced on the answers of f');
    graphSummary.textContent = parts.join(' · ');
    disconnectedNote.textContent = G.connected ? '' : 'The graph is disconnected: answers in different components are at distance ∞, so ε-DP relates nothing across components — a mechanism may reveal which component the answer lies in, for any ε.';
    disconnectedNote.classList.toggle('warn', !G.connected);
  }

  function showBound(r, G, prior, score) {
    boundCard.dataset.status = r.ok ? 'ok' : 'error';
    if (!r.ok) {
      clearNumber(boundValue, 'error', r.error);
      clearNumber(boundLog);
      boundTight.textContent = r.error;
      return;
    }
    const b = r.value;
    if (b.bound > 0) setNumber(boundValue, b.bound);
    else { boundValue.textContent = `2^(${formatNumber(b.log2Bound)})`; boundValue.title = `log₂ = ${formatFull(b.log2Bound)}`; boundValue.dataset.value = '0'; }
    setNumber(boundLog, b.log2Bound);
    let tight;
    if (b.distanceRegular && G.dr?.distanceRegular) tight = `Tight: the graph is distance-regular (intersection array {${G.dr.b.join(', ')}; ${G.dr.c.join(', ')}})${b.vtPlus ? ' and VT+' : ''}, so the Theorem 6.2 mechanism reaches the bound.`;
    else if (b.distanceRegular) tight = 'Tight: the graph is distance-regular, so the Theorem 6.2 mechanism reaches the bound.';
    else if (b.vtPlus === true) tight = 'Tight: the graph is VT+ (vertex-transitive by a set of n automorphisms), so the Theorem 6.2 mechanism reaches the bound.';
    else if (b.vtPlus === null) tight = 'Tightness unknown: the graph is not distance-regular and the VT+ search ran out of its time budget.';
    else tight = 'Not known to be tight: the graph is neither distance-regular nor VT+.';
    if (!b.sameForAllVertices) tight += ` The distance distribution n_d differs between vertices; the bound shown is the largest, at vertex ${labels[b.vertex] ?? b.vertex}.`;
    boundTight.textContent = tight;
    boundTight.dataset.tight = String(Boolean(b.tight));
    const uniformPrior = !state.prior;
    boundNote.textContent = uniformPrior && state.gain === 'binary'
      ? 'The bound is for the uniform prior on answers and the binary gain — the current setting.'
      : 'The bound holds for the uniform prior and the binary gain; with the current prior or gain it is shown for reference only.';
  }

  function showMechRow(k, utilR, epsR, target) {
    const row = mechRows[k];
    if (!utilR) clearNumber(row.util, '—', 'fix the prior or the gain');
    else if (utilR.ok) setNumber(row.util, utilValue(utilR.value, current));
    else clearNumber(row.util, 'error', utilR.error);
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

  function showDetails(cur) {
    const { G, eps, sEps, thm } = cur;
    const s = Math.max(1, G.span);
    mechRows.tg.detail.textContent = s === 1 ? `α = e^(−ε) = ${formatNumber(Math.exp(-eps))}` : `α = e^(−ε/${s}) = ${formatNumber(Math.exp(-sEps))}: per step ε/${s} = ${formatNumber(sEps)}, so that it is ε-DP on this graph (its edges span up to ${s} steps of 0..n−1)`;
    mechRows.exp.detail.textContent = `nominal ε′ = ${s === 1 ? 'ε' : `ε/${s}`} = ${formatNumber(sEps)} for |y − z|; its true ε on the graph is computed from the matrix`;
    mechRows.rr.detail.textContent = '';
    const cliqueNote = state.kind === 'clique' ? ' — on a clique this is the paper’s M2' : '';
    if (thm) {
      mechRows.thm62.detail.textContent = thm.uniform
        ? `one constant c = ${formatNumber(thm.c[0])} normalizes every row${cliqueNote}`
        : `n_d varies by vertex: each row normalized by its own c_i (${formatNumber(Math.min(...thm.c))} … ${formatNumber(Math.max(...thm.c))})`;
      const actual = thm.actualEpsilon;
      const over = actual > eps * (1 + 1e-9) + 1e-12;
      thm62Warning.textContent = over
        ? `Theorem 6.2 row-normalized matrix: actual ε = ${formatNumber(actual)} > target ${formatNumber(eps)}: not ε-DP. The paper’s remark that it always satisfies ε-DP fails on this graph (see the mathematics, §5.3); use the optimal mechanism instead.`
        : '';
      thm62Warning.dataset.actual = String(actual);
      thm62Warning.dataset.target = String(eps);
      thm62Warning.classList.toggle('warn', over);
    } else {
      thm62Warning.textContent = '';
    }
    mechRows.thm62.name.textContent = 'Theorem 6.2';
  }

  // ------------------------------------------------------------ LP
  function showLPUnavailable(G, prior, score) {
    const row = mechRows.lp;
    row.tr.dataset.status = 'unavailable';
    clearNumber(row.util, 'n/a');
    clearNumber(row.eps, 'n/a');
    row.verdict.textContent = '';
    if (!current.prior) row.detail.textContent = 'Fix the prior to compute the optimal mechanism.';
    else if (score.error) row.detail.textContent = score.error;
    else row.detail.textContent = `The linear program has n² = ${(G.n * G.n).toLocaleString('en')} variables: too large for the page (limit ${LP_MAX_ANSWERS} answers). The bound and the Theorem 6.2 mechanism are shown instead.`;
    replace(lpProgress);
    lpVerdict.textContent = '';
    renderHeatmaps();
  }

  async function runLP(my) {
    const cur = current;
    if (!cur || my !== gen) return;
    const row = mechRows.lp;
    row.tr.dataset.status = 'pending';
    clearNumber(row.util, '…');
    clearNumber(row.eps, '…');
    row.verdict.textContent = '';
    row.detail.textContent = '';
    const opts = { graph: cur.G.g, epsilon: cur.eps, prior: cur.prior, timeLimit: LP_TIME_LIMIT_MS };
    if (cur.score) opts[cur.loss ? 'loss' : 'gain'] = cur.score;
    const job = client.submit([{ ns: 'mechanism', fn: 'optimalLP', args: [opts], progress: { arg: 0, key: 'onProgress' } }], {
      onProgress: ([p]) => { if (lpJob === job.id) showLPProgress(p); },
    });
    lpJob = job.id;
    const timer = setTimeout(() => { if (lpJob === job.id && client.pending(job.id)) showLPProgress(null); }, PROGRESS_AFTER_MS);
    let results;
    try {
      results = await track(job.promise);
    } catch (err) {
      clearTimeout(timer);
      if (my !== gen) return;
      lpJob = null;
      const cancelled = err?.name === 'CancelledError';
      row.tr.dataset.status = cancelled ? 'cancelled' : 'error';
      clearNumber(row.util, '—');
      clearNumber(row.eps, '—');
      replace(lpProgress, h('p', { class: 'muted' }, cancelled ? 'The linear program was cancelled. ' : `The linear program failed: ${err.message} `,
        h('button', { type: 'button', class: 'small', dataset: { action: 'run-lp' }, 'data-testid': ids('lp-run'), text: 'Compute again' })));
      return;
    }
    clearTimeout(timer);
    if (my !== gen) return;
    lpJob = null;
    replace(lpProgress);
    const [r] = results;
    if (!r.ok) {
      row.tr.dataset.status = 'error';
      clearNumber(row.util, 'error', r.error);
      clearNumber(row.eps, '—');
      row.detail.textContent = r.error;
      return;
    }
    const lp = r.value;
    cur.lp = lp;
    cur.utils.lp = lp.utility;
    setNumber(row.util, lp.utility);
    row.detail.textContent = lp.path === 'closed-form'
      ? `Path taken: closed form (Theorem 6.2) — ${lp.reason}.`
      : `Path taken: linear program (${lp.variables} variables, ${lp.constraints} constraints, ${lp.iterations} iterations, ${lp.status}) — ${lp.reason}.`;
    row.detail.dataset.path = lp.path;
    row.name.textContent = lp.path === 'closed-form' ? 'Optimal mechanism (closed form)' : 'Optimal mechanism (LP)';
    const [er] = await batch([{ ns: 'privacy', fn: 'epsilon', args: [lp.mechanism, cur.G.g] }]).catch(() => [{ ok: false, error: 'cancelled' }]);
    if (my !== gen) return;
    row.tr.dataset.status = 'ok';
    showMechRow('lp', { ok: true, value: cur.loss ? { loss: lp.utility } : lp.utility }, er, cur.eps);
    showComparison(cur);
    renderHeatmaps();
  }

  function showLPProgress(p) {
    const text = p ? `Solving the linear program: iteration ${p.iteration}, objective ${formatNumber(p.objective)}${p.phase ? ` (phase ${p.phase})` : ''}` : 'Solving the linear program…';
    const line = lpProgress.querySelector('[data-role="text"]');
    if (line) { line.textContent = text; return; }
    replace(lpProgress, h('p', { class: 'cap-stats progress' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-lp' }, 'data-testid': ids('lp-cancel'), text: 'Cancel' }),
      h('span', { dataset: { role: 'text' }, text })));
  }

  function showComparison(cur) {
    const lpU = cur.utils.lp;
    const thU = cur.utils.thm62;
    const thDP = Number.isFinite(cur.mechEps.thm62) && cur.mechEps.thm62 <= cur.eps * (1 + 1e-9) + 1e-12;
    lpVerdict.classList.remove('warn', 'good');
    lpVerdict.textContent = '';
    if (!Number.isFinite(lpU) || !Number.isFinite(thU)) return;
    const better = cur.loss ? thU - lpU : lpU - thU;
    const m2 = state.kind === 'clique' ? ' (the paper’s M2)' : '';
    const what = cur.loss ? 'expected loss' : 'utility';
    if (better > TOL && thDP) {
      lpVerdict.textContent = `For this prior and gain the LP finds a better ε-DP mechanism than Theorem 6.2${m2}: ${what} ${formatNumber(lpU)} against ${formatNumber(thU)} (${better > 0 && !cur.loss ? '+' : '−'}${formatNumber(Math.abs(better))}, ${formatNumber((100 * Math.abs(better)) / Math.max(1e-300, Math.abs(thU)))} %).`;
      lpVerdict.classList.add('good');
    } else if (better < -TOL && !thDP) {
      lpVerdict.textContent = `Theorem 6.2’s ${what} ${formatNumber(thU)} beats the optimum ${formatNumber(lpU)} only because it breaks ε-DP (actual ε ${formatNumber(cur.mechEps.thm62)}).`;
      lpVerdict.classList.add('warn');
    } else if (Math.abs(better) <= TOL) {
      lpVerdict.textContent = `Theorem 6.2${m2} is optimal here: both reach ${formatNumber(lpU)}.`;
    } else if (!thDP) {
      lpVerdict.textContent = `The optimum ${formatNumber(lpU)} is ε-DP; Theorem 6.2 (${formatNumber(thU)}) is not.`;
    }
  }

  // ------------------------------------------------------------ heat maps
  function renderHeatmaps() {
    const cur = current;
    if (!cur) { replace(heatmaps); return; }
    if (cur.G.n > HEATMAP_MAX_ANSWERS) {
      replace(heatmaps, h('p', { class: 'muted', text: `Heat maps are drawn up to ${HEATMAP_MAX_ANSWERS} answers.` }));
      return;
    }
    const figs = [];
    const opt = cur.lp ? cur.lp.mechanism : null;
    if (opt) figs.push(heatmap({ title: cur.lp.path === 'closed-form' ? 'Optimal mechanism (closed form)' : 'Optimal mechanism (LP)', matrix: toRows(opt), rowLabels: labels, colLabels: labels }));
    const sel = cur.matrices[state.show];
    if (sel) figs.push(heatmap({ title: SHOWN.find(([k]) => k === state.show)[1], matrix: toRows(sel), rowLabels: labels, colLabels: labels }));
    replace(heatmaps, figs);
  }

  // ------------------------------------------------------------ ε sweep
  function showSweepButton() {
    replace(sweepStatus, h('p', { class: 'muted' }, 'The plot solves one optimal mechanism per ε value. ',
      h('button', { type: 'button', class: 'small', dataset: { action: 'run-sweep' }, 'data-testid': ids('sweep-run'), text: 'Plot utility against ε' })));
    replace(sweepPlot);
  }

  async function runSweep(my) {
    const cur = current;
    if (!cur || my !== gen || !cur.prior || cur.scoreError) { replace(sweepPlot); replace(sweepStatus); return; }
    const { G } = cur;
    const xs = epsilonGrid(cur.eps);
    const span = Math.max(1, G.span);
    // Job 1 (fast): the closed-form matrices at every ε.
    const mats = [];
    for (const x of xs) {
      mats.push({ ns: 'mechanism', fn: 'optimal', args: [G.g, x] });
      mats.push({ ns: 'mechanism', fn: 'truncatedGeometric', args: [G.n, x / span] });
      mats.push({ ns: 'mechanism', fn: 'randomizedResponse', args: [G.n, x] });
      mats.push({ ns: 'mechanism', fn: 'exponential', args: [G.n, x / span] });
    }
    replace(sweepStatus, h('p', { class: 'cap-stats progress' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Preparing the mechanisms…'));
    const m1 = await batch(mats).catch((e) => e);
    if (my !== gen) return;
    if (m1 instanceof Error) { replace(sweepStatus, h('p', { class: 'muted', text: m1.message })); return; }
    // Job 2 (long, cancellable): the optimum and the utilities at every ε.
    const withLP = G.n <= LP_MAX_ANSWERS;
    const calls = [];
    const layout = [];
    xs.forEach((x, i) => {
      if (withLP) {
        const opts = { graph: G.g, epsilon: x, prior: cur.prior, timeLimit: LP_TIME_LIMIT_MS };
        if (cur.score) opts[cur.loss ? 'loss' : 'gain'] = cur.score;
        calls.push({ ns: 'mechanism', fn: 'optimalLP', args: [opts], progress: { arg: 0, key: 'onProgress' } });
        layout.push([i, 'lp']);
      }
      ['thm62', 'tg', 'rr', 'exp'].forEach((k, j) => {
        const r = m1[4 * i + j];
        if (!r.ok) return;
        calls.push(utilityCall(cur.prior, r.value, cur));
        layout.push([i, k]);
      });
      calls.push({ ns: 'privacy', fn: 'utilityBound', args: [G.g, x, { budgetMs: 200 }] });
      layout.push([i, 'bound']);
    });
    const lpCount = withLP ? xs.length : 0;
    const job = client.submit(calls, {
      onProgress: (_data, callIndex) => {
        if (sweepJob !== job.id) return;
        const k = layout.slice(0, callIndex + 1).filter(([, t]) => t === 'lp').length;
        sweepText(`Optimal mechanism ${k} of ${lpCount} (ε = ${formatNumber(xs[layout[callIndex][0]])})…`);
      },
    });
    sweepJob = job.id;
    replace(sweepStatus, h('p', { class: 'cap-stats progress' },
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('button', { type: 'button', class: 'small', dataset: { action: 'cancel-sweep' }, 'data-testid': ids('sweep-cancel'), text: 'Cancel' }),
      h('span', { dataset: { role: 'text' }, text: `Computing ${xs.length} ε values${withLP ? ` (${lpCount} optimal mechanisms)` : ''}…` })));
    let out;
    try {
      out = await track(job.promise);
    } catch (err) {
      if (my !== gen) return;
      sweepJob = null;
      const cancelled = err?.name === 'CancelledError';
      replace(sweepStatus, h('p', { class: 'muted', 'data-testid': ids('sweep-cancelled') }, cancelled ? 'The plot was cancelled. ' : `The plot failed: ${err.message} `,
        h('button', { type: 'button', class: 'small', dataset: { action: 'run-sweep' }, 'data-testid': ids('sweep-run'), text: 'Plot again' })));
      return;
    }
    if (my !== gen) return;
    sweepJob = null;
    const series = { lp: [], bound: [], thm62: [], tg: [], rr: [], exp: [] };
    out.forEach((r, c) => {
      const [i, k] = layout[c];
      if (!r.ok) return;
      let y;
      if (k === 'lp') y = r.value.utility;
      else if (k === 'bound') y = r.value.bound;
      else y = utilValue(r.value, cur);
      series[k].push([xs[i], y]);
    });
    const showBoundSeries = !cur.loss && state.gain === 'binary' && !state.prior;
    const thmNotDP = cur.thm && !cur.thm.uniform;
    const list = [
      withLP && { name: 'Optimal', points: series.lp, color: PALETTE[0] },
      showBoundSeries && { name: 'Theorem 6.1 bound', points: series.bound, dashed: true, color: PALETTE[7] },
      { name: thmNotDP ? 'Theorem 6.2 (not ε-DP)' : 'Theorem 6.2', points: series.thm62, dashed: true, color: PALETTE[1] },
      { name: 'Truncated geometric', points: series.tg, color: PALETTE[2] },
      { name: 'Randomized response', points: series.rr, color: PALETTE[3] },
      { name: 'Exponential', points: series.exp, color: PALETTE[5] },
    ].filter(Boolean);
    const what = cur.loss ? 'Expected loss' : 'Utility';
    replace(sweepStatus, h('p', { class: 'hint', text: `${xs.length} values of ε up to ${formatNumber(xs[xs.length - 1])}, including the chosen ε = ${formatNumber(cur.eps)}.` }));
    replace(sweepPlot, linePlot({ title: `${what} against ε (nats) on this graph, prior and gain`, xLabel: 'ε (nats)', yLabel: what, series: list }));
  }

  function sweepText(text) {
    const line = sweepStatus.querySelector('[data-role="text"]');
    if (line) line.textContent = text;
  }

  // ------------------------------------------------------------ database panel
  let dbGen = 0;
  async function computeDB() {
    const my = ++dbGen;
    const u = parseCount(state.db.u, 'u', 1, 1e15);
    const v = parseCount(state.db.v, 'v', 2, 1e9);
    const e = parseEpsilon(state.db.epsilon);
    setMsg('db-u', u.error);
    setMsg('db-v', v.error);
    setMsg('db-eps', e.error);
    if ('value' in e) setNumber(dbExp, Math.exp(e.value)); else clearNumber(dbExp);
    if (u.error || v.error || e.error) { dbCard.dataset.status = 'stale'; return; }
    const opts = { individuals: u.value, values: v.value, epsilon: e.value };
    const res = await batch([
      { ns: 'privacy', fn: 'leakageBound', args: [opts] },
      { ns: 'privacy', fn: 'individualLeakageBound', args: [{ values: v.value, epsilon: e.value }] },
      { ns: 'privacy', fn: 'hammingUtilityBound', args: [opts] },
    ]).catch((err) => err);
    if (my !== dbGen) return;
    dbCard.dataset.status = 'ok';
    if (res instanceof Error) { dbOut.leak.msg.textContent = res.message; return; }
    const [leak, ind, util] = res;
    setNumber(dbOut.domain.value, u.value * Math.log2(v.value));
    dbOut.domain.msg.textContent = '';
    const show = (key, r, pick) => {
      if (r.ok) { setNumber(dbOut[key].value, pick(r.value)); dbOut[key].msg.textContent = ''; } else { clearNumber(dbOut[key].value, 'error', r.error); dbOut[key].msg.textContent = r.error; }
    };
    show('leak', leak, (x) => x);
    show('ind', ind, (x) => x);
    show('util-log2', util, (x) => x.log2Bound);
    if (util.ok && !(util.value.bound > 0)) {
      const l2 = util.value.log2Bound;
      dbOut.util.value.textContent = `2^(${formatNumber(l2)})`;
      dbOut.util.value.title = `underflows a double; log₂ U = ${formatFull(l2)}, i.e. 10^(${formatNumber(l2 * Math.log10(2))})`;
      dbOut.util.value.dataset.value = '0';
      dbOut.util.msg.textContent = `Below the smallest double: U ≈ 10^(${formatNumber(l2 * Math.log10(2))}); see log₂ U below.`;
      dbOut.util.msg.classList.add('mech-note');
    } else {
      dbOut.util.msg.classList.remove('mech-note');
      show('util', util, (x) => x.bound);
    }
  }

  // ------------------------------------------------------------ go
  writeInputs();
  schedule(true);
  scheduleDB();

  return {
    getState() {
      const s = cloneState(state);
      return s;
    },
    setState(next) {
      if (!next || typeof next !== 'object') return;
      const base = cloneState(DEFAULT_STATE);
      const s = { ...base };
      for (const k of Object.keys(base)) {
        if (!(k in next)) continue;
        const val = next[k];
        if (k === 'prior') s.prior = Array.isArray(val) ? val.map((x) => String(x)) : null;
        else if (k === 'db') s.db = { ...base.db, ...(val && typeof val === 'object' ? Object.fromEntries(Object.entries(val).filter(([kk]) => kk in base.db).map(([kk, vv]) => [kk, String(vv)])) : {}) };
        else if (k === 'preset') s.preset = presetById(val) ? val : null;
        else s[k] = String(val);
      }
      if (!KINDS.some(([k]) => k === s.kind)) s.kind = base.kind;
      if (!BASE_KINDS.some(([k]) => k === s.base)) s.base = base.base;
      if (!GAINS.some(([k]) => k === s.gain)) s.gain = base.gain;
      if (!SHOWN.some(([k]) => k === s.show)) s.show = base.show;
      state = s;
      writeInputs();
      schedule(true);
      scheduleDB();
    },
  };
}
