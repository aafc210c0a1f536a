// lib/presets.js — the example channels of the preset menu, taken from Alvim, Andrés,
// Chatzikokolakis, Palamidessi, "Quantitative Information Flow and Applications to Differential
// Privacy" (FOSAD 2011), §1 and §3. The page and tests/node/presets.test.mjs both import this
// module.
//
// Entries are kept as the text a user would type (fractions such as "2/3"), so that the page
// shows them exactly as the paper prints them; numericChannel() turns them into numbers.
// Rows are secrets (channel inputs), columns are observables (outputs), C[x][y] = p(y|x).

import { parseNumber } from '../input/number.js';

const THREE_BIT = ['000', '001', '010', '011', '100', '101', '110', '111'];

/**
 * @typedef {object} Preset
 * @property {string} id            stable identifier (used in URLs and tests)
 * @property {string} name          menu text
 * @property {string} source        where it comes from in the paper
 * @property {string} description   one or two sentences shown under the menu
 * @property {string} secretName    what a row is
 * @property {string} observableName what a column is
 * @property {string[]} secrets     row labels
 * @property {string[]} observables column labels
 * @property {string[][]} channel   entries as typed text
 */

/** @type {Preset[]} */
export const presets = [
  // Alvim et al. (FOSAD 2011) Example 1/4/6, Table 2(b) (Fig. 3(b)). The password checker of Table
  // 1 compares the typed string x1x2x3 with the password K1K2K3 = 110 digit by digit and exits at
  // the first mismatch. An adversary who can time the run sees OK, or FAIL together with the
  // iteration i at which it stopped. Secrets: the 8 strings the user may type; observables (Fail,1)
  // (Fail,2) (Fail,3) OK. Deterministic: each row is a single 1.
  //   x1 ≠ 1            → (Fail,1): 000 001 010 011
  //   x1 = 1, x2 ≠ 1    → (Fail,2): 100 101
  //   x = 111 (x3 ≠ 0)  → (Fail,3)
  //   x = 110           → OK
  {
    id: 'password-iterations',
    name: 'Password checker, iterations observable (Alvim et al., FOSAD 2011, Table 2b)',
    source: 'Alvim et al. (FOSAD 2011) §3, Example 4 and Table 2(b)',
    description:
      'The password is 110; the checker stops at the first wrong digit. An attacker who can time the run learns OK, or FAIL with the iteration at which it stopped.',
    secretName: 'typed string',
    observableName: 'outcome',
    secrets: THREE_BIT,
    observables: ['(Fail,1)', '(Fail,2)', '(Fail,3)', 'OK'],
    channel: [
      ['1', '0', '0', '0'], // 000
      ['1', '0', '0', '0'], // 001
      ['1', '0', '0', '0'], // 010
      ['1', '0', '0', '0'], // 011
      ['0', '1', '0', '0'], // 100
      ['0', '1', '0', '0'], // 101
      ['0', '0', '0', '1'], // 110 — the password
      ['0', '0', '1', '0'], // 111
    ],
  },
  // Alvim et al. (FOSAD 2011) Table 2(a) (Fig. 3(a)): the same checker when only the verdict is
  // observable. Secrets: the 8 typed strings; observables Fail, OK. Only 110 gives OK.
  {
    id: 'password-plain',
    name: 'Password checker, verdict only (Alvim et al., FOSAD 2011, Table 2a)',
    source: 'Alvim et al. (FOSAD 2011) §3, Example 4 and Table 2(a)',
    description: 'The same checker (password 110) when the attacker only sees whether the string was accepted.',
    secretName: 'typed string',
    observableName: 'verdict',
    secrets: THREE_BIT,
    observables: ['Fail', 'OK'],
    channel: [
      ['1', '0'], // 000
      ['1', '0'], // 001
      ['1', '0'], // 010
      ['1', '0'], // 011
      ['1', '0'], // 100
      ['1', '0'], // 101
      ['0', '1'], // 110 — the password
      ['1', '0'], // 111
    ],
  },
  // Alvim et al. (FOSAD 2011) Examples 2, 5, 7 and Table 3(a). A dc-net with two nodes a and b
  // joined by one coin c. The secret is (culprit, bit): who broadcasts and which bit. Each node
  // declares the coin it sees, XOR the bit if it is the culprit; the observable is the pair of
  // declarations "d_a d_b". With a fair coin, (a,1) gives 10 (c=0) or 01 (c=1), each with
  // probability 1/2, and so does (b,1); (x,0) gives 00 or 11. The declarations reveal the bit but
  // nothing about the culprit.
  {
    id: 'dcnet-fair',
    name: 'Two-node DC-net, fair coin (Alvim et al., FOSAD 2011, Table 3a)',
    source: 'Alvim et al. (FOSAD 2011) §3, Examples 5, 7 and Table 3(a)',
    description:
      'Dining-cryptographers net with two nodes a, b and one fair coin. Secret: (culprit, bit broadcast); observable: the two declarations (a first).',
    secretName: '(culprit, bit)',
    observableName: 'declarations',
    secrets: ['(a,1)', '(b,1)', '(a,0)', '(b,0)'],
    observables: ['10', '01', '00', '11'],
    channel: [
      ['1/2', '1/2', '0', '0'], // (a,1)
      ['1/2', '1/2', '0', '0'], // (b,1)
      ['0', '0', '1/2', '1/2'], // (a,0)
      ['0', '0', '1/2', '1/2'], // (b,0)
    ],
  },
  // Alvim et al. (FOSAD 2011) Example 7 and Table 3(b): the same net with a coin giving 0 with
  // probability 2/3. (a,1): c=0 → 10 (2/3), c=1 → 01 (1/3); (b,1): c=0 → 01 (2/3), c=1 → 10 (1/3);
  // (x,0): c=0 → 00 (2/3), c=1 → 11 (1/3). Now a broadcast 1 also leaks who sent it.
  {
    id: 'dcnet-biased',
    name: 'Two-node DC-net, coin biased 2/3 to 0 (Alvim et al., FOSAD 2011, Table 3b)',
    source: 'Alvim et al. (FOSAD 2011) §3, Example 7 and Table 3(b)',
    description:
      'The same net when the coin shows 0 with probability 2/3: a broadcast 1 now also reveals something about who sent it.',
    secretName: '(culprit, bit)',
    observableName: 'declarations',
    secrets: ['(a,1)', '(b,1)', '(a,0)', '(b,0)'],
    observables: ['10', '01', '00', '11'],
    channel: [
      ['2/3', '1/3', '0', '0'], // (a,1)
      ['1/3', '2/3', '0', '0'], // (b,1)
      ['0', '0', '2/3', '1/3'], // (a,0)
      ['0', '0', '2/3', '1/3'], // (b,0)
    ],
  },
];

/** The preset loaded when the page opens. */
export const DEFAULT_PRESET = 'password-iterations';

/** Looks a preset up by id; undefined if there is none. */
export function presetById(id) {
  return presets.find((p) => p.id === id);
}

/**
 * The channel of a preset as numbers (array of rows).
 * @param {Preset} preset
 * @returns {number[][]}
 */
export function numericChannel(preset) {
  return preset.channel.map((row, i) =>
    row.map((text, j) => {
      const r = parseNumber(text);
      if ('error' in r) throw new Error(`preset ${preset.id}: entry [${i}][${j}] ${r.error}`);
      return r.value;
    }),
  );
}
