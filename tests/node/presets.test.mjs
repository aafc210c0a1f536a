// The preset channels of the page (web/lib/presets.js) against Alvim et al. (FOSAD 2011): each matrix
// is rebuilt here independently by running the program the paper describes (the password checker of
// Table 1, the dc-net protocol of Example 2) and compared entry by entry; the paper's stated
// properties and the leakage values that follow from them in closed form are checked through the
// wasm API.
import test from 'node:test';
import assert from 'node:assert/strict';
import { presets, presetById, numericChannel, DEFAULT_PRESET } from '../../web/lib/presets.js';
import { formatNumber } from '../../web/lib/numbers.js';
import { parseNumber as parseEntry, splitDelimited } from '../../web/input/index.js';
import { parseAlpha } from '../../web/sections/channel/validate.js';

const splitGrid = (t) => splitDelimited(t).rows;

const close = (a, b, tol = 1e-9) => Math.abs(a - b) <= tol;
const log2 = Math.log2;

// Table 1 of Alvim et al. (FOSAD 2011), run on every 3-bit string with the password 110.
function passwordChecker(x, key, withIterations) {
  for (let i = 0; i < key.length; i++) {
    if (x[i] !== key[i]) return withIterations ? `(Fail,${i + 1})` : 'Fail';
  }
  return 'OK';
}

function deterministicChannel(secrets, observables, f) {
  return secrets.map((x) => observables.map((y) => (f(x) === y ? 1 : 0)));
}

// Example 2 of Alvim et al. (FOSAD 2011) on two nodes a, b joined by one coin with P(coin = 0) =
// p0: every node declares the coin it sees, XOR the bit if it is the culprit; the output is "d_a
// d_b".
function dcNet(p0) {
  const secrets = [['a', 1], ['b', 1], ['a', 0], ['b', 0]];
  const outputs = ['10', '01', '00', '11'];
  return secrets.map(([culprit, bit]) => {
    const row = new Array(outputs.length).fill(0);
    for (const [coin, p] of [[0, p0], [1, 1 - p0]]) {
      const da = coin ^ (culprit === 'a' ? bit : 0);
      const db = coin ^ (culprit === 'b' ? bit : 0);
      row[outputs.indexOf(`${da}${db}`)] += p;
    }
    return row;
  });
}

function assertMatrixClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: rows`);
  for (let i = 0; i < expected.length; i++) {
    assert.equal(actual[i].length, expected[i].length, `${what}: row ${i} length`);
    for (let j = 0; j < expected[i].length; j++) {
      assert.ok(close(actual[i][j], expected[i][j], 1e-12), `${what}: [${i}][${j}] is ${actual[i][j]}, expected ${expected[i][j]}`);
    }
  }
}

test('every preset is a well-formed channel with labels', () => {
  assert.ok(presetById(DEFAULT_PRESET), 'the default preset exists');
  assert.equal(new Set(presets.map((p) => p.id)).size, presets.length, 'ids are unique');
  for (const p of presets) {
    const c = numericChannel(p);
    assert.equal(c.length, p.secrets.length, `${p.id}: one row per secret`);
    for (const row of c) {
      assert.equal(row.length, p.observables.length, `${p.id}: one column per observable`);
      assert.ok(row.every((v) => v >= 0), `${p.id}: non-negative`);
      assert.ok(close(row.reduce((s, v) => s + v, 0), 1, 1e-12), `${p.id}: rows sum to 1`);
    }
  }
});

test('password checker presets are Table 1 run with password 110 (Alvim et al. (FOSAD 2011) Tables 2a, 2b)', () => {
  const it = presetById('password-iterations');
  assert.deepEqual(it.observables, ['(Fail,1)', '(Fail,2)', '(Fail,3)', 'OK']);
  assertMatrixClose(numericChannel(it), deterministicChannel(it.secrets, it.observables, (x) => passwordChecker(x, '110', true)), it.id);
  const plain = presetById('password-plain');
  assert.deepEqual(plain.observables, ['Fail', 'OK']);
  assertMatrixClose(numericChannel(plain), deterministicChannel(plain.secrets, plain.observables, (x) => passwordChecker(x, '110', false)), plain.id);
  assert.deepEqual(it.secrets, ['000', '001', '010', '011', '100', '101', '110', '111']);
});

test('DC-net presets are the two-node protocol with a fair and a 2/3-biased coin (Alvim et al. (FOSAD 2011) Table 3)', () => {
  const fair = presetById('dcnet-fair');
  const biased = presetById('dcnet-biased');
  for (const p of [fair, biased]) {
    assert.deepEqual(p.secrets, ['(a,1)', '(b,1)', '(a,0)', '(b,0)']);
    assert.deepEqual(p.observables, ['10', '01', '00', '11']);
  }
  assertMatrixClose(numericChannel(fair), dcNet(1 / 2), fair.id);
  assertMatrixClose(numericChannel(biased), dcNet(2 / 3), biased.id);
  // The paper prints fractions: the page shows them as typed.
  assert.equal(biased.channel[0][0], '2/3');
});

test('number parsing and formatting', () => {
  assert.deepEqual(parseEntry('1/3'), { value: 1 / 3 });
  assert.deepEqual(parseEntry(' 0.25 '), { value: 0.25 });
  assert.deepEqual(parseEntry('2.5e-1'), { value: 0.25 });
  assert.deepEqual(parseEntry('−1/2'), { value: -0.5 });
  assert.deepEqual(parseEntry('.5 / 2'), { value: 0.25 });
  assert.equal(parseEntry('abc').error, 'not a number');
  assert.equal(parseEntry('1/0').error, 'division by zero');
  assert.match(parseEntry('').error, /empty/);
  assert.equal(parseEntry('1/2/3').value, 1 / 6, 'one grammar: (1/2)/3');
  assert.equal(parseEntry('<img src=x>').error, 'not a number');
  assert.equal(parseAlpha('∞').value, Infinity);
  assert.equal(parseAlpha('inf').value, Infinity);
  assert.equal(parseAlpha('0').value, 0);
  assert.match(parseAlpha('-1').error, /≥ 0/);
  assert.deepEqual(splitGrid('1\t0\n0.5\t0.5\n'), [['1', '0'], ['0.5', '0.5']]);
  assert.deepEqual(splitGrid('1, 0\r\n1/2,1/2'), [['1', '0'], ['1/2', '1/2']]);
  assert.deepEqual(splitGrid('  1 0\n1/2   1/2'), [['1', '0'], ['1/2', '1/2']]);
  assert.equal(formatNumber(1.75), '1.75');
  assert.equal(formatNumber(2), '2');
  assert.equal(formatNumber(0.54356444), '0.5436');
  assert.equal(formatNumber(-2e-16), '0');
  assert.equal(formatNumber(-0.125), '−0.125');
  assert.equal(formatNumber(Infinity), '∞');
  assert.equal(formatNumber(NaN), '—');
  assert.equal(formatNumber(1.234e-7), '1.234×10⁻⁷');
});

// Closed forms for the presets under the uniform prior (n = number of secrets). For a deterministic
// channel H(X|Y) = Σ_y p(y) log2 |y⁻¹|, I = H(Y); every posterior is uniform on a preimage. Alvim
// et al. (FOSAD 2011) §3.2 (after Prop. 3, citing [4]): C∞ = log2 Σ_y max_x C[x][y].
const expected = {
  'password-iterations': {
    // preimages of (Fail,1),(Fail,2),(Fail,3),OK have sizes 4,2,1,1
    mutualInformation: -(4 / 8) * log2(4 / 8) - (2 / 8) * log2(2 / 8) - 2 * (1 / 8) * log2(1 / 8), // 1.75
    minCapacity: log2(4),
    posteriorBayesVulnerability: 4 / 8, // one correct guess per output
    shannonCapacity: log2(4), // deterministic: capacity = log2 |range| (Prop. 2 side)
  },
  'password-plain': {
    mutualInformation: -(7 / 8) * log2(7 / 8) - (1 / 8) * log2(1 / 8), // h(1/8) ≈ 0.5436
    minCapacity: 1,
    posteriorBayesVulnerability: 2 / 8,
    shannonCapacity: 1,
  },
  'dcnet-fair': {
    // the declarations reveal the bit (1 bit) and nothing about the culprit
    mutualInformation: 1,
    minCapacity: log2(4 * (1 / 2)),
    posteriorBayesVulnerability: 2 / 4,
    shannonCapacity: 1,
  },
  'dcnet-biased': {
    minCapacity: log2(2 / 3 + 2 / 3 + 2 / 3 + 1 / 3),
    posteriorBayesVulnerability: (2 / 3 + 2 / 3 + 2 / 3 + 1 / 3) / 4,
  },
};

async function loadQif() {
  try {
    const { load } = await import('../../web/qif.js');
    return await load();
  } catch (e) {
    return { error: e };
  }
}

test('presets through the wasm API: closed forms and the paper’s properties', async (t) => {
  const qif = await loadQif();
  assert.ok(!qif.error, `web/qif.wasm loads (run scripts/build.sh first): ${qif.error?.message}`);
  for (const p of presets) {
    const c = numericChannel(p);
    const n = c.length;
    const uniform = new Array(n).fill(1 / n);
    for (const [fn, want] of Object.entries(expected[p.id] ?? {})) {
      await t.test(`${p.id}: ${fn}`, () => {
        const f = qif.measure[fn];
        assert.equal(typeof f, 'function', `qif.measure.${fn} exists`);
        let got = fn === 'minCapacity' ? f(c) : fn === 'shannonCapacity' ? f(c, { tolerance: 1e-9 }).capacity : f(uniform, c);
        assert.ok(close(got, want, fn === 'shannonCapacity' ? 1e-6 : 1e-9), `${fn} = ${got}, expected ${want}`);
      });
    }
  }
  // Alvim et al. (FOSAD 2011) §1 (Example 2): with fair coins the probability of each node being
  // the culprit does not change after observing the declarations — the posterior marginal on the
  // culprit equals the prior, for a non-uniform prior too.
  await t.test('dcnet-fair: culprit posterior equals prior', () => {
    assert.equal(typeof qif.channel.hyper, 'function', 'qif.channel.hyper exists');
    // Culprit independent of the bit, as in the protocol: P(a) = 0.7, P(bit = 1) = 0.4.
    const prior = [0.7 * 0.4, 0.3 * 0.4, 0.7 * 0.6, 0.3 * 0.6]; // (a,1) (b,1) (a,0) (b,0)
    const h = qif.channel.hyper(prior, numericChannel(presetById('dcnet-fair')));
    const { rows, cols, data } = h.inners;
    assert.ok(rows > 0);
    for (let k = 0; k < rows; k++) {
      const post = Array.from(data.subarray(k * cols, (k + 1) * cols));
      const pa = post[0] + post[2];
      assert.ok(close(pa, 0.7, 1e-12), `posterior P(culprit = a) = ${pa}, prior 0.7`);
    }
    // With the biased coin a broadcast 1 does move it (Table 3(b)): not the same property.
    const hb = qif.channel.hyper(prior, numericChannel(presetById('dcnet-biased')));
    const moved = [];
    for (let k = 0; k < hb.inners.rows; k++) {
      const c = hb.inners.cols;
      moved.push(Math.abs(hb.inners.data[k * c] + hb.inners.data[k * c + 2] - 0.7) > 1e-6);
    }
    assert.ok(moved.some(Boolean), 'the biased coin reveals something about the culprit');
  });
  await t.test('biased dc-net leaks the culprit where the fair one does not', () => {
    const prior = [0.25, 0.25, 0.25, 0.25];
    const fair = qif.measure.mutualInformation(prior, numericChannel(presetById('dcnet-fair')));
    const biased = qif.measure.mutualInformation(prior, numericChannel(presetById('dcnet-biased')));
    // Biased: I = H(Y) − H(Y|X) with p(y) = (1/4)(1, 1, 4/3, 2/3) and H(Y|X) = h(1/3).
    const h13 = -(1 / 3) * log2(1 / 3) - (2 / 3) * log2(2 / 3);
    const py = [1 / 4, 1 / 4, 1 / 3, 1 / 6];
    const hy = -py.reduce((s, q) => s + q * log2(q), 0);
    assert.ok(close(biased, hy - h13, 1e-9), `biased I = ${biased}, expected ${hy - h13}`);
    assert.ok(biased > fair - 1e-12, 'the biased coin leaks at least as much');
  });
});
