// sections/mechanism/skeleton.js — the DOM of "Design a mechanism" that does not change: its
// fields (graph, ε, prior, gain), the table of mechanisms, the certificate, the plot and the heat
// maps, and the database panel. Returns the elements (e) that the view and panels.js fill in.
import { h } from '../../lib/dom.js';
import { formulaSlot, sourceRefs } from '../../lib/formulas.js';
import { KINDS, BASE_KINDS, GAINS, SHOWN, PRESETS, TC_METRICS } from './state.js';
import { ids, MECHS } from './panels.js';

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
    h('p', { class: 'hint', 'data-testid': ids('mechs-hint'), text: 'Every mechanism here is offered at the chosen ε on this graph: the truncated geometric mechanism treats the answers as 0..n−1 and runs at ε/s per step, s the longest edge |a − b| of the graph, so that it is ε-DP on it; the exponential mechanism measures the graph’s own shortest-path distance d(y, z) (on a grid, steps between cells), so it is ε-DP on the graph at ε; randomized response is ε-DP on any graph. The last column is the smallest ε each matrix actually satisfies on the graph.' }),
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
