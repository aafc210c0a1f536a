// sections/channel/plan.js — what the results panels of "Channel & leakage" ask of the engine:
// the validated inputs as the engine takes them (panelInputs, and exactInputs for the exact mode
// from the text as typed), which panels run, wait or are too costly for the inputs (panelPlan),
// the values each panel's results give (derivePanel), the observed frequencies of the estimate
// (parseObserved) and what the section shows, as data (resultsOf, posteriorLabels). Pure: no DOM,
// no worker; tests/node/sections.test.mjs runs it in Node.

import { parseVectorLiteral, rationalVector, rationalMatrix } from '../../input/grid.js';
import { parseNumber, parseRational } from '../../input/number.js';
import { PANELS, DEFAULT_GAIN_CLASS, exactPlan } from '../../lib/measures.js';

/** Up to this many entries a matrix's signature is its values; beyond, its version. */
export const SIGNED_BY_VALUE_UP_TO = 10_000;

// Matrices go to the worker as {rows, cols, data: Float64Array}: one cheap clone per job and one
// bulk copy into Go, however many calls of the job use them. A large one is sent once and
// shared by the jobs (the view does that: engine.share).
function flat(M) {
  if (ArrayBuffer.isView(M.data)) return M;
  const rows = M.length;
  const cols = rows ? M[0].length : 0;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) data.set(M[i], i * cols);
  return { rows, cols, data };
}

function signature(raw) {
  if (raw === null) return 'null';
  if (typeof raw === 'number') return String(raw); // String() keeps α = ∞ apart from null
  if (raw && ArrayBuffer.isView(raw.data)) {
    return raw.data.length <= SIGNED_BY_VALUE_UP_TO || raw.version === undefined ? `${raw.rows}×${raw.cols}:${raw.data.join(',')}` : `${raw.rows}×${raw.cols}@${raw.version}`;
  }
  return JSON.stringify(raw);
}

/**
 * Most channel entries (n·m, and k·n for the gain) for which the page asks for exact values: the
 * engine's exact mode answers within about a second up to there, and a larger channel (a paste
 * or a file of research size) gets decimals only.
 */
export const EXACT_MAX_ENTRIES = 4096;

/**
 * The inputs as exact fraction strings ("1/3") for the engine's exact mode: {prior, channel,
 * gain}, each null when an entry is not rational as typed (ln 2, say) or the matrix is larger
 * than EXACT_MAX_ENTRIES, and `why` saying why (for the note under the results). A gain too
 * large (or an identity not written out) leaves only the g-measures without exact values.
 * Only what the user typed is read, never the decimals: "1/3" stays 1/3.
 * @param {{cells: EntryMatrix, prior: string[], gain: string[][] | null}} s
 */
export function exactInputs(s) {
  const n = s.cells.rows;
  const m = s.cells.cols;
  const out = { prior: null, channel: null, gain: null, why: null };
  if (n * m > EXACT_MAX_ENTRIES) {
    out.why = `exact values are computed for up to ${EXACT_MAX_ENTRIES.toLocaleString('en')} entries`;
    return out;
  }
  out.prior = rationalVector(s.prior);
  out.channel = rationalMatrix(s.cells.toTexts());
  const gainFits = s.gain !== null && s.gain.length * n <= EXACT_MAX_ENTRIES;
  out.gain = gainFits ? rationalMatrix(s.gain) : null;
  if (!out.prior || !out.channel || (gainFits && !out.gain)) out.why = 'exact values need every entry as a decimal or a fraction (not ln, say)';
  else if (!gainFits) out.why = `exact g-values are computed for gains of up to ${EXACT_MAX_ENTRIES.toLocaleString('en')} entries`;
  return out;
}

/**
 * The validated inputs (validateInputs) as panels use them: value (null when invalid; matrices
 * flat, {rows, cols, data}), exact (its fraction strings, or null) and a signature for change
 * detection, per input. A matrix the size of a paste is signed by its values (and its exact
 * text, which tells 1/3 from 0.3333333333333333), so that 0.5 retyped as 1/2 changes nothing; a
 * large one by its version (input/matrix.js), which reading it all on every key would cost. The
 * options carry what is not typed in the grids: the class of gain functions and the exact
 * inputs (exactInputs).
 */
export function panelInputs(checked, { gainClass = DEFAULT_GAIN_CLASS, exact = null } = {}) {
  const out = {};
  const exactOf = { prior: exact?.prior ?? null, channel: exact?.channel ?? null, gain: exact?.gain ?? null };
  for (const [d, raw] of Object.entries({ prior: checked.prior, channel: checked.channel, gain: checked.gain, alpha: checked.alpha, tolerance: checked.tolerance, gainClass })) {
    let value = raw !== null && (d === 'channel' || d === 'gain') ? flat(raw) : raw;
    // A small matrix is copied: the job must not see later edits of the grid.
    if (value && value.data && value.data.length <= SIGNED_BY_VALUE_UP_TO) value = { rows: value.rows, cols: value.cols, data: value.data.slice() };
    const ex = raw === null ? null : exactOf[d] ?? null;
    out[d] = { value, exact: ex, sig: signature(raw) + (ex ? JSON.stringify(ex) : '') };
  }
  if (checked.gainSkip) out.gain = { value: null, sig: 'skip', skip: checked.gainSkip };
  return out;
}

/**
 * Multiply-adds a panel may cost before the page asks rather than starts it: the three
 * g-leakage calls on |W| guesses, n secrets and m outputs cost 3·|W|·n·m (about a second per
 * 2·10⁹ in the worker).
 */
export const PANEL_BUDGET = 4e9;

const COSTS = {
  gpost: ({ C, G }) => 3 * G.rows * C.rows * C.cols,
};

/**
 * What each panel should do for these inputs: 'stale' (an input it needs is invalid), 'skip'
 * (an input is not built at this size, or the panel would cost more than PANEL_BUDGET; `reason`
 * says which), 'same' (its inputs are those of the answer shown or computing) or 'run' with the
 * calls of its job and, when its exact inputs are all there, the exact job {keys, calls}
 * (lib/measures.js exactPlan). `last` maps a panel to the signature of its last run; `force` names
 * panels to run whatever they cost.
 * @returns {Record<string, {action: 'stale'|'skip'|'same'|'run', sig: string|null, calls?: object[], exact?: {keys: string[], calls: object[]}|null, reason?: string, cost?: number}>}
 */
export function panelPlan(inputs, last = {}, force = new Set()) {
  const args = { prior: inputs.prior.value, C: inputs.channel.value, G: inputs.gain.value, alpha: inputs.alpha.value, tolerance: inputs.tolerance.value, gainClass: inputs.gainClass.value };
  const exactArgs = { prior: inputs.prior.exact, C: inputs.channel.exact, G: inputs.gain.exact, gainClass: inputs.gainClass.value };
  const plan = {};
  for (const [name, p] of Object.entries(PANELS)) {
    const skipped = p.deps.find((d) => inputs[d].skip);
    if (skipped) {
      plan[name] = { action: 'skip', sig: null, reason: inputs[skipped].skip };
      continue;
    }
    if (p.deps.some((d) => inputs[d].value === null)) {
      plan[name] = { action: 'stale', sig: null };
      continue;
    }
    const cost = COSTS[name]?.(args) ?? 0;
    if (cost > PANEL_BUDGET && !force.has(name)) {
      plan[name] = { action: 'skip', sig: null, cost, reason: `not started: about ${formatCount(cost)} multiply-adds (|W|·n·m for each of three measures), a long computation at this size` };
      continue;
    }
    const sig = p.deps.map((d) => inputs[d].sig).join('\u0000');
    if (sig === last[name]) {
      plan[name] = { action: 'same', sig };
      continue;
    }
    const exactReady = p.exact && p.deps.every((d) => !['prior', 'channel', 'gain'].includes(d) || inputs[d].exact !== null);
    plan[name] = { action: 'run', sig, calls: p.calls(args), exact: exactReady ? exactPlan(name, exactArgs) : null };
  }
  return plan;
}

/** 8.0·10⁹, 250,000: a count in words people read. */
function formatCount(x) {
  if (x < 1e6) return Math.round(x).toLocaleString('en');
  const e = Math.floor(Math.log10(x));
  return `${(x / 10 ** e).toFixed(1)}·10${String(e).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d])}`;
}

/**
 * The observed output frequencies typed for the iterative Bayesian update ("3, 5, 2" or
 * "[0.3, 0.5, 0.2]"), one per observable: counts are scaled to frequencies summing to 1.
 * @returns {{value: number[], scaled: boolean} | {error: string}}
 */
export function parseObserved(text, m) {
  if (String(text ?? '').trim() === '') return { error: 'enter one count or frequency per observable' };
  const lit = parseVectorLiteral(text);
  if ('error' in lit) return { error: lit.error };
  const values = [];
  for (const [i, t] of lit.entries.entries()) {
    const r = parseNumber(t);
    if ('error' in r) return { error: `entry ${i + 1}: ${r.error}` };
    values.push(r.value);
  }
  if (values.length !== m) return { error: `${values.length} value${values.length === 1 ? '' : 's'} for ${m} observables` };
  if (values.some((v) => !(v >= 0))) return { error: 'counts and frequencies are ≥ 0' };
  const total = values.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return { error: 'at least one count must be positive' };
  const scaled = Math.abs(total - 1) > 1e-12;
  return { value: scaled ? values.map((v) => v / total) : values, scaled };
}

/** The measures by key from a panel's settled results. */
export function derivePanel(name, results) {
  return PANELS[name].derive(results);
}

// ---------------------------------------------------------------- results as data

/**
 * The results the section shows, as data for exports: one row per measure with a value
 * ({key, value, exact, unit, name}), the hyper-distribution with its labels ({outer,
 * inners: {rows, cols, data}, labels}), the capacity.
 * `shown` maps a measure key to its settled result, `exact` to its exact fraction text.
 */
export function resultsOf(shown, { measures, exact = {}, hyperLabels = [], exactHyper = null }) {
  const rows = [];
  for (const [key, d] of Object.entries(measures)) {
    let r = shown[key];
    if (!r || !r.ok) continue;
    let value = r.value;
    if (key === 'shannonCapacity') value = value.capacity;
    if (typeof value !== 'number') continue;
    // The value a known exact result rounds to (3 rather than 2.9999999999999996).
    const f = exact[key] ? parseRational(exact[key]) : null;
    rows.push({ key, name: d.name, value: f ? f.toNumber() : value, exact: exact[key] ?? '', unit: d.unit });
  }
  let hyper = null;
  const h = shown.hyper;
  if (h && h.ok) {
    // Flat, as the engine gave it: a 2,000 × 2,000 hyper is exported without nested arrays.
    const { outer, inners } = h.value;
    hyper = { outer, inners, labels: hyperLabels };
    // The exact hyper, when the engine gave one: its rows in its own order, as fraction strings.
    if (exactHyper) {
      const { outer: eo, inners: ei, outputs } = exactHyper;
      hyper.exact = { outer: eo.slice(), inners: Array.from({ length: ei.rows }, (_, k) => ei.data.slice(k * ei.cols, (k + 1) * ei.cols)), outputs: outputs.map((o) => o.slice()) };
    }
  }
  const cap = shown.shannonCapacity;
  const capacity = cap && cap.ok ? { ...cap.value, prior: Array.from(cap.value.prior) } : null;
  return { measures: rows, hyper, capacity };
}

/**
 * Labels each inner of a hyper-distribution with the outputs whose posterior it is, when the
 * channel is small enough to match them cheaply (beyond, inners are numbered only). C is flat
 * ({rows, cols, data}).
 */
export function posteriorLabels(hyper, C, prior, observables, limit = 250_000) {
  const labels = Array.from({ length: hyper.inners.rows }, () => []);
  const n = C.rows;
  const m = C.cols;
  if (n * m > limit) return labels;
  const { rows, cols, data } = hyper.inners;
  for (let y = 0; y < m; y++) {
    let py = 0;
    for (let x = 0; x < n; x++) py += prior[x] * C.data[x * m + y];
    if (py <= 0) continue;
    for (let k = 0; k < rows; k++) {
      let same = true;
      for (let x = 0; x < cols && same; x++) same = Math.abs(data[k * cols + x] - (prior[x] * C.data[x * m + y]) / py) <= 1e-9;
      if (same) {
        labels[k].push(observables[y]);
        break;
      }
    }
  }
  return labels;
}
