// qif.accounting: exact values computed here independently (Balle and Wang's formula with a
// numerically integrated normal law, Kairouz, Oh and Viswanath's sum in exact rationals, a 3×3
// channel's output types enumerated), certified intervals that contain them, monotone profiles,
// the compared bounds above the exact value, cancellation and bad input.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../web/qif.js';

let A;
before(async () => { A = (await load()).accounting; });

const throwsWith = (fn, ...fragments) => assert.throws(fn, (e) => {
  for (const f of fragments) assert.ok(e.message.includes(f), `"${e.message}" mentions "${f}"`);
  return true;
});

// Φ(x) by Simpson's rule on the density (plain JS, no erfc): accurate to ~1e-13 in the range used.
function Phi(x) {
  if (x > 0) return 1 - Phi(-x);
  const a = -40, n = 20000, h = (x - a) / n;
  const f = (t) => Math.exp(-t * t / 2) / Math.sqrt(2 * Math.PI);
  let s = f(a) + f(x);
  for (let i = 1; i < n; i++) s += f(a + i * h) * (i % 2 ? 4 : 2);
  return s * h / 3;
}

test('a mix of Gaussians is one Gaussian: Balle and Wang’s δ(ε)', () => {
  const events = [{ mechanism: 'gaussian', sigma: 2, count: 5 }, { mechanism: 'gaussian', sigma: 1, sensitivity: 0.5, count: 8 }];
  const mu = Math.sqrt(5 / 4 + 8 * 0.25);
  for (const eps of [0, 0.5, 1, 3]) {
    const want = Phi(-eps / mu + mu / 2) - Math.exp(eps) * Phi(-eps / mu - mu / 2);
    const r = A.delta(events, { epsilon: eps });
    assert.equal(r.method, 'gaussian-dp');
    assert.ok(Math.abs(r.delta - want) < 1e-10, `δ(${eps}) = ${r.delta}, want ${want}`);
    // Forced through the PLD (a Laplace of loss 1e-9 beside it): the interval contains it.
    const p = A.delta([...events, { mechanism: 'laplace', scale: 1e9 }], { epsilon: eps, tolerance: 1e-3 });
    assert.equal(p.method, 'pld');
    assert.ok(p.lower <= want + 1e-12 && want <= p.upper + 1e-12, `[${p.lower}, ${p.upper}] ∌ ${want}`);
  }
  const e = A.epsilon(events, { delta: 1e-5 });
  assert.ok(e.lower <= e.epsilon && e.epsilon <= e.upper && e.upper - e.lower < 1e-9);
});

test('k randomized responses at ε₀ = ln 3: the optimal composition as an exact rational sum', () => {
  // p = 3/4; δ(j ln 3) = Σ_i C(k,i) 3^{k−i} / 4^k · (1 − 3^{j−(k−2i)})₊, in BigInt rationals.
  const k = 20;
  const binom = (n, r) => { let c = 1n; for (let i = 0n; i < BigInt(r); i++) c = c * (BigInt(n) - i) / (i + 1n); return c; };
  for (const j of [0, 2, 5, 9]) {
    let num = 0n; // over 4^k · 3^k
    for (let i = 0; i <= k; i++) {
      const loss = k - 2 * i;
      if (loss <= j) continue;
      // C(k,i) 3^{k−i} (3^{loss} − 3^{j}) / (4^k 3^{loss}) → common denominator 4^k 3^k
      num += binom(k, i) * 3n ** BigInt(k - i) * (3n ** BigInt(loss) - 3n ** BigInt(j)) * 3n ** BigInt(k - loss);
    }
    const want = Number(num * 10n ** 18n / (4n ** BigInt(k) * 3n ** BigInt(k))) / 1e18;
    for (const mechanism of ['randomizedResponse', 'pure', 'geometric']) {
      const r = A.delta([{ mechanism, epsilon: Math.log(3), count: k }], { epsilon: j * Math.log(3) });
      assert.equal(r.method, 'optimal-composition');
      assert.ok(Math.abs(r.delta - want) < 1e-12, `${mechanism} δ(${j} ln 3) = ${r.delta}, want ${want}`);
    }
  }
});

test('a 3×3 channel composed 20 times: δ(ε) by its output types, the worst ordered pair of rows', () => {
  const C = [[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.25, 0.25, 0.5]];
  const k = 20;
  const lf = []; lf[0] = 0; for (let i = 1; i <= k; i++) lf[i] = lf[i - 1] + Math.log(i);
  const exact = (eps) => {
    let best = 0;
    for (let x = 0; x < 3; x++) for (let y = 0; y < 3; y++) {
      if (x === y) continue;
      let d = 0;
      for (let a = 0; a <= k; a++) for (let b = 0; a + b <= k; b++) {
        const n = [a, b, k - a - b];
        const lc = lf[k] - lf[n[0]] - lf[n[1]] - lf[n[2]];
        let lp = lc, lq = lc;
        for (let j = 0; j < 3; j++) { lp += n[j] * Math.log(C[x][j]); lq += n[j] * Math.log(C[y][j]); }
        d += Math.max(Math.exp(lp) - Math.exp(eps + lq), 0);
      }
      best = Math.max(best, d);
    }
    return best;
  };
  const events = [{ mechanism: 'channel', channel: C, count: k }];
  for (const eps of [0, 1, 2.5, 5]) {
    const r = A.delta(events, { epsilon: eps });
    assert.equal(r.method, 'enumeration');
    assert.ok(Math.abs(r.delta - exact(eps)) < 1e-12, `δ(${eps}) = ${r.delta}, want ${exact(eps)}`);
  }
  const e = A.epsilon(events, { delta: 1e-3 });
  assert.equal(e.details.scenarios, 6);
  assert.match(e.details.computed, /ordered pairs/);
  assert.ok(exact(e.epsilon) <= 1e-3 * (1 + 1e-9) && exact(e.epsilon * (1 - 1e-6)) > 1e-3);
  // On a path graph only rows 0–1 and 1–2 are neighbours: never more than every pair.
  const path = A.epsilon([{ mechanism: 'channel', channel: C, graph: { n: 3, edges: [[0, 1], [1, 2]] }, count: k }], { delta: 1e-3 });
  assert.equal(path.details.scenarios, 4);
  assert.ok(path.epsilon <= e.epsilon + 1e-12);
});

test('one Laplace mechanism: the certified interval contains 1 − e^{(ε−a)/2}', () => {
  for (const a of [0.5, 2]) {
    for (const eps of [0, a / 2]) {
      const want = 1 - Math.exp((eps - a) / 2);
      const r = A.delta([{ mechanism: 'laplace', scale: 1 / a }], { epsilon: eps });
      assert.equal(r.method, 'pld');
      assert.ok(r.lower <= want * (1 + 1e-12) && want <= r.upper * (1 + 1e-12), `[${r.lower}, ${r.upper}] ∌ ${want}`);
      assert.ok(r.upper - r.lower <= 1e-4 * r.upper);
    }
  }
});

test('profile: δ(ε) non-increasing, lower ≤ upper', () => {
  const epsilons = [0, 0.5, 1, 2, 3, 4];
  for (const events of [
    [{ mechanism: 'laplace', scale: 2, count: 10 }],
    [{ mechanism: 'subsampled', rate: 0.05, of: { mechanism: 'gaussian', sigma: 1.5 }, count: 100 }],
  ]) {
    const r = A.profile(events, { epsilons, tolerance: 1e-3 });
    assert.ok(r.delta instanceof Float64Array && r.deltaLower instanceof Float64Array);
    for (let i = 0; i < epsilons.length; i++) {
      assert.ok(r.deltaLower[i] <= r.delta[i]);
      if (i > 0) assert.ok(r.delta[i] <= r.delta[i - 1] && r.deltaLower[i] <= r.deltaLower[i - 1] + 1e-15);
    }
  }
});

test('compare: naive, advanced and Rényi are above the exact value; advanced can exceed naive', () => {
  for (const [events, hasNaive] of [
    [[{ mechanism: 'pure', epsilon: 0.1, count: 100 }], true],
    [[{ mechanism: 'laplace', scale: 10, count: 50 }], true],
    [[{ mechanism: 'gaussian', sigma: 5, count: 10 }], false],
  ]) {
    const c = A.compare(events, { delta: 1e-5, tolerance: 1e-3 });
    const floor = c.exact ? c.exact.epsilon : c.pldLower;
    assert.equal('naive' in c, hasNaive);
    for (const k of ['naive', 'advanced', 'rdp']) {
      if (c[k]) {
        assert.ok(c[k].epsilon >= floor * (1 - 1e-9), `${k} ${c[k].epsilon} < ${floor}`);
        assert.equal(typeof c[k].guarantee, 'string');
      }
    }
    assert.ok(c.rdp, 'a Rényi bound');
  }
  const few = A.compare([{ mechanism: 'pure', epsilon: 1, count: 3 }], { delta: 1e-5 });
  assert.equal(few.naive.epsilon, 3);
  assert.ok(few.advanced.epsilon > few.naive.epsilon);
});

test('δ = 0: a Gaussian has ε = ∞, said as such; pure mechanisms add up', () => {
  const g = A.epsilon([{ mechanism: 'gaussian', sigma: 1 }], { delta: 0 });
  assert.equal(g.epsilon, Infinity);
  assert.match(g.details.note, /Gaussian/);
  const p = A.epsilon([{ mechanism: 'laplace', scale: 2, count: 4 }, { mechanism: 'pure', epsilon: 0.3 }], { delta: 0 });
  assert.ok(Math.abs(p.epsilon - 2.3) < 1e-12);
});

test('onProgress returning false cancels with the result so far', () => {
  const events = Array.from({ length: 20 }, (_, i) => ({ mechanism: 'laplace', scale: 3 + i }));
  let calls = 0;
  assert.throws(() => A.epsilon(events, { delta: 1e-6, tolerance: 1e-7, onProgress: (done, total) => { calls++; assert.ok(done >= 1 && total >= done); return false; } }), (e) => {
    assert.equal(e.name, 'AbortError');
    assert.equal(e.message, 'accounting.epsilon: cancelled');
    assert.ok(e.partial && e.partial.lower <= e.partial.upper);
    return true;
  });
  assert.equal(calls, 1);
});

test('bad input names the argument', () => {
  throwsWith(() => A.epsilon([{ mechanism: 'gausian', sigma: 1 }], { delta: 1e-5 }), 'events[0].mechanism', 'did you mean "gaussian"');
  throwsWith(() => A.epsilon([{ mechanism: 'gaussian', sigma: 0 }], { delta: 1e-5 }), 'events[0].sigma', 'positive');
  throwsWith(() => A.epsilon([{ mechanism: 'gaussian', sigma: NaN }], { delta: 1e-5 }), 'events[0].sigma', 'NaN');
  throwsWith(() => A.epsilon([{ mechanism: 'subsampled', rate: 1.5, of: { mechanism: 'pure', epsilon: 1 } }], { delta: 1e-5 }), 'events[0].rate', '(0, 1]');
  throwsWith(() => A.epsilon([{ mechanism: 'subsampled', rate: 0, of: { mechanism: 'pure', epsilon: 1 } }], { delta: 1e-5 }), 'events[0].rate');
  throwsWith(() => A.epsilon([{ mechanism: 'approximate', epsilon: 1, delta: 1 }], { delta: 1e-5 }), 'events[0].delta', '[0, 1)');
  throwsWith(() => A.epsilon([{ mechanism: 'pure', epsilon: 1 }], { delta: 1 }), 'accounting.epsilon: delta', '[0, 1)');
  throwsWith(() => A.epsilon([{ mechanism: 'pure', epsilon: 1 }], { delta: -1e-3 }), 'delta');
  throwsWith(() => A.epsilon([{ mechanism: 'pure', epsilon: 1, count: 2.5 }], { delta: 1e-5 }), 'events[0].count', 'positive integer');
  throwsWith(() => A.epsilon([{ mechanism: 'pure', epsilon: 1, count: 0 }], { delta: 1e-5 }), 'events[0].count');
  throwsWith(() => A.epsilon([{ mechanism: 'channel', channel: [[0.5, 0.4], [0.5, 0.5]] }], { delta: 1e-5 }), 'events[0].channel', 'sums to');
  throwsWith(() => A.epsilon([], { delta: 1e-5 }), 'events', 'empty');
  throwsWith(() => A.epsilon({ mechanism: 'pure' }, { delta: 1e-5 }), 'events', 'expected an array');
  throwsWith(() => A.epsilon([{ mechanism: 'pure', epsilon: 1, sigma: 2 }], { delta: 1e-5 }), 'events[0]', 'unknown key "sigma"');
  throwsWith(() => A.epsilon([{ mechanism: 'pure', epsilon: 1 }], {}), 'delta', 'missing');
  throwsWith(() => A.delta([{ mechanism: 'pure', epsilon: 1 }], { epsilon: -1 }), 'epsilon');
  throwsWith(() => A.profile([{ mechanism: 'pure', epsilon: 1 }], { epsilons: [] }), 'epsilons', 'empty');
  // The module keeps working after errors.
  assert.equal(A.epsilon([{ mechanism: 'pure', epsilon: 0.5 }], { delta: 0 }).epsilon, 0.5);
});
