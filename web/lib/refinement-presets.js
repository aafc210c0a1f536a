// lib/refinement-presets.js — the pairs of channels that <qif-refinement> offers as presets: the
// teaching examples of the refinement literature. Each pair says where it comes from (authors,
// title, year) and what the three orders of docs/mathematics.md#refinement say about it, so that
// a lesson can cite it; tests/node/refinement-presets.test.mjs checks those verdicts
// independently (a witness R with A·R = B written out, posteriors, induced metrics).
//
// Entries are kept as text, as a user would type them (fractions), like lib/presets.js; the
// password checker's two channels are the page's own presets (the same as its program examples).

import { presetById } from './presets.js';

const FOSAD = 'Alvim, Andrés, Chatzikokolakis, Palamidessi, “Quantitative Information Flow and Applications to Differential Privacy”, FOSAD 2011';
const CSF = 'Chatzikokolakis, Fernandes, Palamidessi, “Comparing Systems: Max-case Refinement Orders and Application to Differential Privacy”, CSF 2019';
const WARNER = 'Warner, “Randomized Response: A Survey Technique for Eliminating Evasive Answer Bias”, 1965';

const timing = presetById('password-iterations');
const plain = presetById('password-plain');

// Randomized response on three answers (Warner 1965; the k-ary form of
// docs/mathematics.md#mechanism-families): the truth with probability e^ε/(e^ε + 2), each other
// answer with 1/(e^ε + 2). At ε = ln 4 that is 2/3 and 1/6; at ε = ln 2, 1/2 and 1/4.
const rr = (diag, off) => [0, 1, 2].map((x) => [0, 1, 2].map((y) => (x === y ? diag : off)));
const ANSWERS = ['a', 'b', 'c'];

/**
 * @typedef {object} RefinementPreset
 * @property {string} id          stable identifier (the `preset` attribute)
 * @property {string} name        the menu's text and the widget's default title
 * @property {string} source      the short citation of the head's source line (linked)
 * @property {string} cite        authors, title and year, shown under the menu
 * @property {string} description one or two sentences shown under the menu
 * @property {string[]} secrets   row labels (shared by A and B)
 * @property {{matrix: string[][], labels: string[]}} A
 * @property {{matrix: string[][], labels: string[]}} B
 * @property {{avg: boolean, max: boolean, prv: boolean}} verdicts  what the orders say (checked by the tests)
 */

/** @type {RefinementPreset[]} */
export const refinementPresets = [
  {
    id: 'password-timing',
    name: 'Password checker: with timing (A) and without (B)',
    source: 'Alvim et al. (FOSAD 2011) §3, Table 2(b) and Table 2(a) · Chatzikokolakis et al. (CSF 2019) §2.2',
    cite: `${FOSAD}, Table 2; the order from ${CSF}, §2.2`,
    description: 'A is the checker whose running time shows where the guess first went wrong; B shows only Fail or OK. B is A with the timing forgotten, so B is safe in place of A.',
    secrets: timing.secrets.slice(),
    A: { matrix: timing.channel, labels: timing.observables.slice() },
    B: { matrix: plain.channel, labels: plain.observables.slice() },
    verdicts: { avg: true, max: true, prv: true },
  },
  {
    id: 'password-timing-reversed',
    name: 'Password checker: without timing (A) and with (B)',
    source: 'Alvim et al. (FOSAD 2011) §3, Table 2(a) and Table 2(b) · Chatzikokolakis et al. (CSF 2019) §2.2',
    cite: `${FOSAD}, Table 2; the order from ${CSF}, §2.2`,
    description: 'The same two checkers the other way round: adding the timing is not safe, and an adversary’s gain function shows it.',
    secrets: timing.secrets.slice(),
    A: { matrix: plain.channel, labels: plain.observables.slice() },
    B: { matrix: timing.channel, labels: timing.observables.slice() },
    verdicts: { avg: false, max: false, prv: false },
  },
  {
    id: 'randomized-response',
    name: 'Randomized response at ε = ln 4 (A) and ε = ln 2 (B)',
    source: 'Chatzikokolakis et al. (CSF 2019) §6.2',
    cite: `${CSF}, §6.2 (within a family, a smaller ε refines); randomized response from ${WARNER}`,
    description: 'Three answers; each mechanism reports the truth with probability e^ε/(e^ε + 2). Running A twice gives B: B is a post-processing of A.',
    secrets: ANSWERS.slice(),
    A: { matrix: rr('2/3', '1/6'), labels: ANSWERS.slice() },
    B: { matrix: rr('1/2', '1/4'), labels: ANSWERS.slice() },
    verdicts: { avg: true, max: true, prv: true },
  },
  {
    id: 'swapped-rows',
    name: 'Two channels with their rows swapped: neither refines the other',
    source: 'Chatzikokolakis et al. (CSF 2019) §4.5, §5',
    cite: `a pair built to show that the orders are strict (${CSF}, §4.5 and §5)`,
    description: 'B answers for x1 what A answers for x2 and the other way round. Their privacy metrics are equal, so ⊑prv holds, but an adversary who knows which is which gains more from one or the other depending on the prior and gain.',
    secrets: ['x1', 'x2'],
    A: { matrix: [['4/5', '1/5'], ['2/5', '3/5']], labels: ['y1', 'y2'] },
    B: { matrix: [['2/5', '3/5'], ['4/5', '1/5']], labels: ['z1', 'z2'] },
    verdicts: { avg: false, max: false, prv: true },
  },
  {
    id: 'same-posteriors',
    name: 'Same posteriors, other probabilities: ⊑max holds, ⊑avg fails',
    source: 'Chatzikokolakis et al. (CSF 2019) §3, §5.2',
    cite: `a pair built to show that max-case refinement is weaker than average-case refinement (${CSF}, §3)`,
    description: 'Both channels either reveal the secret or say “?”; B reveals it more often (3/5 against 3/10). Their posteriors are the same points (each secret for certain, or the uniform prior after “?”), so A ⊑max B (and B ⊑max A); but B leaks more on average, so A ⊑avg B fails.',
    secrets: ['x1', 'x2', 'x3'],
    A: { matrix: [['3/10', '0', '0', '7/10'], ['0', '3/10', '0', '7/10'], ['0', '0', '3/10', '7/10']], labels: ['x1', 'x2', 'x3', '?'] },
    B: { matrix: [['3/5', '0', '0', '2/5'], ['0', '3/5', '0', '2/5'], ['0', '0', '3/5', '2/5']], labels: ['x1', 'x2', 'x3', '?'] },
    verdicts: { avg: false, max: true, prv: true },
  },
];

/** The preset of that id, or null. */
export function refinementPresetById(id) {
  return refinementPresets.find((p) => p.id === id) ?? null;
}
