// The "Information privacy" section in headless Chromium. Every expected number is computed
// here, independently of the page and of the Go code, from closed forms:
//   - a count over binary records with randomized response ε on the m = n+1 answers: one record
//     moves the answer by one, so the smallest ε is the nominal ε; every sub-channel has the two
//     rows (a at c, b elsewhere) and (a at c+1, b elsewhere), a = e^ε/(m−1+e^ε), b = 1/(m−1+e^ε),
//     symmetric under swapping them, so its capacity is I at the uniform prior; δ(ε′) for ε′ ≤ ε
//     is a − e^ε′ b, so the smallest ε′ for δ is ln(e^ε − δ(m−1+e^ε)); the largest
//     posterior/prior ratio at the uniform prior is 2a/(a+b) = 2e^ε/(1+e^ε) ≤ e^ε;
//   - binary symmetric capacity 1 − h(p), Gaussian capacity ½ log₂(1 + P/σ²), the variances
//     2(Δ/ε)², 2 ln(1.25/δ) Δ²/ε² and (Δ²/4)/(2^{2c} − 1) of Wu (2019) §5.2;
//   - deterministic queries (no noise): infinite ε, capacity log₂ of the distinct answers.
// It also checks inline errors (δ = 1.5, a bad ε, binary noise on four answers), a 6 × 4 run
// with progress, cancelling it, the state round trip, a phone layout and zero console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startHarness, typeInto, SCREENSHOTS } from './harness.mjs';
import { assertEveryNumberRead } from './readings.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const SEL = (id) => `[data-testid="${id}"]`;

/** Screenshot of the section alone (test-output/screenshots/<name>.png). */
async function shot(page, name, selector = '#infopriv') {
  await page.locator(selector).screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/** Waits until the section has nothing scheduled or running. */
async function idle(page, timeout = 20000) {
  await page.waitForFunction(() => document.getElementById('infopriv')?.dataset.busy === 'false', null, { timeout });
}

async function open(options) {
  const page = await h.newPage(options);
  await page.goto(`${h.url}#infopriv`);
  await idle(page);
  return page;
}

/** The full-precision value of a result row, asserting that it is shown as a number. */
async function value(page, id) {
  const status = await page.getAttribute(SEL(`ip-result-${id}`), 'data-status');
  const msg = await page.textContent(SEL(`ip-msg-${id}`));
  assert.equal(status, 'ok', `${id}: status ${status} (${msg})`);
  const v = await page.getAttribute(SEL(`ip-value-${id}`), 'data-value');
  assert.notEqual(v, null, `${id} has a value`);
  const text = await page.textContent(SEL(`ip-value-${id}`));
  assert.doesNotMatch(text, /NaN/);
  return Number(v);
}

function close(got, want, tol, what) {
  assert.ok(Math.abs(got - want) <= tol * Math.max(1, Math.abs(want)), `${what}: page ${got}, expected ${want}`);
}

const log2 = (x) => Math.log(x) / Math.LN2;
const H = (p) => -p.reduce((s, x) => (x > 0 ? s + x * log2(x) : s), 0);
const h2 = (p) => H([p, 1 - p]);

/** Randomized response over a count of n binary records: a, b and the m = n + 1 answers. */
function rrCount(n, eps) {
  const m = n + 1;
  const a = Math.exp(eps) / (m - 1 + Math.exp(eps));
  const b = 1 / (m - 1 + Math.exp(eps));
  // Capacity of one sub-channel at its optimal (uniform) prior: H(output mix) − H(row).
  const row = [a, ...new Array(m - 1).fill(b)];
  const mix = [(a + b) / 2, (a + b) / 2, ...new Array(m - 2).fill(b)];
  return { m, a, b, capacity: H(mix) - H(row) };
}

function assertNoErrors(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

test('count over 3 binary records with randomized response: ε, capacity, δ, Bayes ratios', async () => {
  const page = await open();
  assert.equal(await page.inputValue(SEL('ip-records')), '3');
  assert.equal(await page.inputValue(SEL('ip-query')), 'count');
  assert.equal(await page.inputValue(SEL('ip-noise')), 'rr');
  for (const eps of [1, 0.7]) {
    if (eps !== 1) {
      await typeInto(page, 'ip-epsilon', String(eps));
      await idle(page);
    }
    const ref = rrCount(3, eps);
    close(await value(page, 'epsilon'), eps, 1e-9, `individual ε (nominal ${eps})`);
    close(Number(await page.getAttribute(SEL('ip-epsilon-exp'), 'data-value')), Math.exp(eps), 1e-9, 'e^ε beside ε');
    close(await value(page, 'capacity'), ref.capacity, 1e-7, `individual capacity at ε = ${eps}`);
    const prior = await page.locator(`${SEL('ip-capacity-prior')} .ip-num`).evaluateAll((els) => els.map((e) => Number(e.dataset.value)));
    assert.equal(prior.length, 2);
    for (const p of prior) close(p, 0.5, 1e-5, 'capacity-achieving prior');
    // The situation is a readable tuple with the varying record marked.
    assert.match(await page.textContent(SEL('ip-capacity-tuple')), /^\((∗|\d), (∗|\d), (∗|\d)\)$/);
    assert.equal((await page.textContent(SEL('ip-capacity-tuple'))).split('∗').length, 2);
    // δ = 0.1 (the default): ε′ = ln(e^ε − δ(m − 1 + e^ε)).
    close(await value(page, 'eps-for-delta'), Math.log(Math.exp(eps) - 0.1 * (ref.m - 1 + Math.exp(eps))), 1e-9, 'ε for δ = 0.1');
    // The δ(ε) curve reaches 0 at the pure ε.
    close(Number(await page.getAttribute(SEL('ip-delta-plot'), 'data-pure')), eps, 1e-9, 'pure ε of the curve');
    assert.equal(Number(await page.getAttribute(SEL('ip-delta-plot'), 'data-last')), 0);
    assert.equal(await page.locator(`${SEL('ip-delta-plot')} svg path`).count(), 1);
    // Bayes at the uniform prior on the worst sub-channel.
    const rmax = await value(page, 'ratio-max');
    close(rmax, (2 * Math.exp(eps)) / (1 + Math.exp(eps)), 1e-9, 'largest posterior/prior ratio');
    assert.ok(rmax <= Math.exp(eps) + 1e-12, 'ratio ≤ e^ε');
    close(await value(page, 'ratio-min'), 2 / (1 + Math.exp(eps)), 1e-9, 'smallest posterior/prior ratio');
    // 2 values × 4 answers bars, with the e^ε and e^−ε lines.
    assert.equal(await page.locator(`${SEL('ip-bayes-plot')} svg rect`).count(), 8);
    assert.equal(await page.locator(`${SEL('ip-bayes-plot')} svg line[stroke-dasharray="5 3"]`).count(), 2);
  }
  await typeInto(page, 'ip-epsilon', '1');
  await idle(page);
  await shot(page, 'infopriv-count-rr');
  await h.screenshot(page, 'infopriv-page');
  assertNoErrors(page);
});

test('δ typed by the user: 0 gives the pure ε, 1.5 an inline error, never NaN', async () => {
  const page = await open();
  await typeInto(page, 'ip-delta', '0');
  await idle(page);
  close(await value(page, 'eps-for-delta'), 1, 1e-9, 'ε for δ = 0 is the pure ε');
  await typeInto(page, 'ip-delta', '1.5');
  await idle(page);
  assert.match(await page.textContent(SEL('ip-delta-msg')), /δ must be ≤ 1/);
  assert.equal(await page.getAttribute(SEL('ip-delta'), 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute(SEL('ip-result-eps-for-delta'), 'data-status'), 'stale');
  assert.doesNotMatch(await page.textContent('#infopriv'), /NaN/);
  await shot(page, 'infopriv-bad-delta');
  await typeInto(page, 'ip-delta', '-0.1');
  await idle(page);
  assert.match(await page.textContent(SEL('ip-delta-msg')), /δ must be ≥ 0/);
  await typeInto(page, 'ip-delta', '0.3');
  await idle(page);
  assert.equal(await page.textContent(SEL('ip-delta-msg')), '');
  // Just below δ(0) = a − b = (e − 1)/(3 + e) ≈ 0.3005: ε′ = ln(e − 0.3(3 + e)) ≈ 0.0028.
  close(await value(page, 'eps-for-delta'), Math.log(Math.E - 0.3 * (3 + Math.E)), 1e-9, 'ε for δ = 0.3');
  await typeInto(page, 'ip-delta', '0.35');
  await idle(page);
  // Above δ(0), ε = 0 suffices.
  close(await value(page, 'eps-for-delta'), 0, 1e-9, 'ε for δ above δ(0)');
  // A bad ε is flagged beside its field.
  await typeInto(page, 'ip-epsilon', '-1');
  await idle(page);
  assert.match(await page.textContent(SEL('ip-epsilon-msg')), /ε must be > 0/);
  assert.equal(await page.getAttribute(SEL('ip-result-epsilon'), 'data-status'), 'stale');
  assertNoErrors(page);
});

test('the privacy channels of Wu (2019): binary symmetric, Gaussian and the variances', async () => {
  const page = await open();
  for (const p of [0.1, 0.2, 0.37]) {
    await typeInto(page, 'ip-bsc-p', String(p));
    await idle(page);
    close(await value(page, 'bsc-capacity'), 1 - h2(p), 1e-12, `1 − h(${p})`);
  }
  // The slider drives the same value.
  await page.locator(SEL('ip-bsc-slider')).fill('0.25');
  await idle(page);
  assert.equal(await page.inputValue(SEL('ip-bsc-p')), '0.25');
  close(await value(page, 'bsc-capacity'), 1 - h2(0.25), 1e-12, '1 − h(0.25) from the slider');
  for (const c of [0.5, 0.1]) {
    await typeInto(page, 'ip-bsc-target', String(c));
    await idle(page);
    const p = await value(page, 'bsc-flip');
    assert.ok(p >= 0 && p <= 0.5, `flip probability ${p} in [0, ½]`);
    close(1 - h2(p), c, 1e-9, `capacity of the flip probability for ${c}`);
  }
  close(await value(page, 'gauss-capacity'), 0.5, 1e-12, '½ log₂(1 + 1/1)');
  await typeInto(page, 'ip-g-sigma', '0.5');
  await typeInto(page, 'ip-g-power', '3');
  await idle(page);
  close(await value(page, 'gauss-capacity'), 0.5 * log2(1 + 3 / 0.25), 1e-12, '½ log₂(1 + P/σ²)');
  close(await value(page, 'gauss-sigma'), Math.sqrt(3 / (2 ** 2 - 1)), 1e-9, 'σ for capacity 1 bit');
  await typeInto(page, 'ip-g-sigma', '0');
  await idle(page);
  assert.match(await page.textContent(SEL('ip-g-sigma-msg')), /σ must be > 0/);
  const [D, eps, delta, c] = [2, 0.5, 1e-6, 0.75];
  await typeInto(page, 'ip-v-sens', String(D));
  await typeInto(page, 'ip-v-eps', String(eps));
  await typeInto(page, 'ip-v-delta', String(delta));
  await typeInto(page, 'ip-v-cap', String(c));
  await idle(page);
  close(await value(page, 'var-laplace'), 2 * (D / eps) ** 2, 1e-12, 'Laplace variance');
  close(await value(page, 'var-gaussian-mech'), (2 * Math.log(1.25 / delta) * D * D) / (eps * eps), 1e-9, 'Gaussian mechanism variance');
  close(await value(page, 'var-gaussian-channel'), (D * D / 4) / (2 ** (2 * c) - 1), 1e-12, 'Gaussian privacy channel variance');
  await shot(page, 'infopriv-channels', SEL('ip-channels'));
  assertNoErrors(page);
});

test('no noise: infinite ε and capacity log₂ of the answers; binary noise needs two answers', async () => {
  const page = await open();
  await page.selectOption(SEL('ip-noise'), 'none');
  await idle(page);
  assert.equal(await value(page, 'epsilon'), Infinity);
  assert.equal(await page.textContent(SEL('ip-value-epsilon')), '∞');
  // A sub-channel of a count over binary records maps 0 and 1 to two different answers: 1 bit.
  close(await value(page, 'capacity'), 1, 1e-7, 'deterministic count capacity');
  assert.match(await page.textContent(SEL('ip-bayes-note')), /not ε-DP for any finite ε/);
  // Binary symmetric noise on a 4-answer count: refused beside the noise.
  await page.selectOption(SEL('ip-noise'), 'bsc');
  await idle(page);
  assert.match(await page.textContent(SEL('ip-noise-msg')), /needs exactly 2 answers/);
  // The max of binary records has two answers: ε = ln((1 − p)/p), capacity 1 − h(p).
  await page.selectOption(SEL('ip-query'), 'max');
  await typeInto(page, 'ip-flip', '0.2');
  await idle(page);
  assert.equal(await page.textContent(SEL('ip-noise-msg')), '');
  close(await value(page, 'epsilon'), Math.log(0.8 / 0.2), 1e-9, 'ε of the max with a binary symmetric channel');
  close(await value(page, 'capacity'), 1 - h2(0.2), 1e-7, 'capacity of the max with a binary symmetric channel');
  assertNoErrors(page);
});

test('a custom table: AND of two binary records', async () => {
  const page = await open();
  await page.selectOption(SEL('ip-records'), '2');
  await page.selectOption(SEL('ip-query'), 'custom');
  await page.selectOption(SEL('ip-noise'), 'none');
  await idle(page);
  assert.equal(await page.locator(`${SEL('ip-table')} tbody tr`).count(), 4);
  for (const [k, v] of [[0, '0'], [1, '0'], [2, '0'], [3, '1']]) await typeInto(page, `ip-table-${k}`, v);
  await idle(page);
  // With the other record at 1 the AND reveals the record: 1 bit; with it at 0 nothing.
  close(await value(page, 'capacity'), 1, 1e-7, 'AND capacity');
  assert.match(await page.textContent(SEL('ip-capacity-tuple')), /^\((∗, 1|1, ∗)\)$/);
  assert.equal(await value(page, 'epsilon'), Infinity);
  // Randomized response on the two answers: ε is the nominal one.
  await page.selectOption(SEL('ip-noise'), 'rr');
  await typeInto(page, 'ip-epsilon', '0.9');
  await idle(page);
  close(await value(page, 'epsilon'), 0.9, 1e-9, 'AND with randomized response');
  // A bad table entry is flagged in place.
  await typeInto(page, 'ip-table-2', 'x');
  await idle(page);
  assert.match(await page.textContent(SEL('ip-table-msg')), /Tuple \(1, 0\): a whole number/);
  assert.equal(await page.getAttribute(SEL('ip-table-2'), 'aria-invalid'), 'true');
  await shot(page, 'infopriv-custom-table');
  assertNoErrors(page);
});

test('6 records of 4 values: progress while computing, then the result; cancel works', async () => {
  const page = await open();
  await page.selectOption(SEL('ip-records'), '6');
  for (let i = 0; i < 6; i++) await page.selectOption(SEL(`ip-values-${i}`), '4');
  // Every text the progress line shows, to check that it counted sub-channels.
  await page.evaluate(() => {
    window.__ipProgress = [];
    new MutationObserver(() => {
      const t = document.querySelector('[data-testid="ip-progress-text"]')?.textContent;
      if (t && window.__ipProgress.at(-1) !== t) window.__ipProgress.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await page.selectOption(SEL('ip-query'), 'sum');
  await page.selectOption(SEL('ip-noise'), 'geometric');
  // The progress line may be visible only briefly on a fast machine: wait for the recorded text
  // rather than polling for visibility.
  await page.waitForFunction(() => window.__ipProgress.length > 0, null, { timeout: 20000 });
  assert.match(await page.textContent(SEL('ip-query-info')), /4096 tuples → 19 answers/);
  await shot(page, 'infopriv-6x4-progress');
  await idle(page, 60000);
  // Closed form for the sum with a truncated geometric: one record moves the sum by up to 3,
  // the geometric of ε = 1 gives e^{3ε} between answers 3 apart (interior rows): ε = 3.
  close(await value(page, 'epsilon'), 3, 1e-9, 'ε of the 6 × 4 sum');
  const cap = await value(page, 'capacity');
  assert.ok(cap > 0 && cap <= 2 + 1e-9, `capacity ${cap} within [0, log₂ 4]`);
  const seen = await page.evaluate(() => window.__ipProgress);
  assert.ok(seen.some((t) => /\d[\d,]* of 6,144 sub-channels/.test(t)), `progress counted sub-channels: ${JSON.stringify(seen)}`);
  assert.match(await page.textContent(SEL('ip-subchannels')), /6,144 sub-channels/);
  assert.equal(await page.isHidden(SEL('ip-progress')), true, 'progress hidden when done');
  // Again, cancelled this time.
  await typeInto(page, 'ip-epsilon', '0.5');
  await page.waitForSelector(SEL('ip-cancel'), { timeout: 20000 });
  await page.click(SEL('ip-cancel'));
  await page.waitForSelector(SEL('ip-cancelled'));
  await idle(page);
  assert.equal(await page.getAttribute(SEL('ip-result-capacity'), 'data-status'), 'cancelled');
  await page.click(SEL('ip-recompute'));
  await page.waitForFunction(() => document.querySelector('[data-testid="ip-result-epsilon"]')?.dataset.status === 'ok', null, { timeout: 60000 });
  await idle(page, 60000);
  close(await value(page, 'epsilon'), 1.5, 1e-9, 'ε of the 6 × 4 sum at ε = 0.5');
  assertNoErrors(page);
});

test('state round trip and a phone layout', async () => {
  const page = await open({ viewport: { width: 390, height: 844 } });
  await page.selectOption(SEL('ip-query'), 'sum');
  await typeInto(page, 'ip-delta', '0.05');
  await idle(page);
  const state = await page.evaluate(async () => (await import('./page/sections.js')).sections.infopriv.getState());
  assert.equal(state.query, 'sum');
  assert.equal(state.delta, '0.05');
  await page.evaluate(async () => (await import('./page/sections.js')).sections.infopriv.setState({ domains: [3, 2], query: 'max', noise: 'rr', epsilon: '2', delta: '0', channels: { p: '0.3' } }));
  await idle(page);
  assert.equal(await page.inputValue(SEL('ip-records')), '2');
  assert.equal(await page.inputValue(SEL('ip-values-0')), '3');
  assert.equal(await page.inputValue(SEL('ip-query')), 'max');
  assert.equal(await page.inputValue(SEL('ip-bsc-p')), '0.3');
  close(await value(page, 'bsc-capacity'), 1 - h2(0.3), 1e-12, 'restored BSC');
  // Max of a 3-valued and a binary record with randomized response on 3 answers: changing the
  // first record moves the max between any two answers when the other is 0: ε = 2.
  close(await value(page, 'epsilon'), 2, 1e-9, 'restored query ε');
  close(await value(page, 'eps-for-delta'), 2, 1e-9, 'restored δ = 0');
  const state2 = await page.evaluate(async () => (await import('./page/sections.js')).sections.infopriv.getState());
  assert.deepEqual(state2.domains, [3, 2]);
  // Nothing overflows the phone's width.
  const overflow = await page.evaluate(() => document.getElementById('infopriv').scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `section wider than the phone by ${overflow}px`);
  await shot(page, 'infopriv-phone');
  assertNoErrors(page);
});

test('every number shown has a reading, beside the results; ∞ says why there is no finite ε', async () => {
  const page = await open();
  await assertEveryNumberRead(page, '#infopriv', 20, 'randomized response');
  // The ε row reads its own e^ε (computed here from the value shown).
  const eps = await value(page, 'epsilon');
  const reading = await page.textContent(SEL('ip-reading-epsilon'));
  assert.ok(reading.includes(`e^ε = ${Math.exp(eps).toPrecision(4).replace(/\.?0+$/, '')}`), reading);
  assert.ok((await page.getAttribute(SEL('ip-value-epsilon'), 'title')).endsWith(reading), 'the reading is also on hover');
  // No noise: ε is ∞, and the reading says what that means.
  await page.selectOption(SEL('ip-noise'), 'none');
  await idle(page);
  assert.equal(await page.textContent(SEL('ip-value-epsilon')), '∞');
  assert.match(await page.textContent(SEL('ip-reading-epsilon')), /^∞: some answer is possible for one value of a record and impossible for another/);
  await assertEveryNumberRead(page, '#infopriv', 15, 'no noise');
  assertNoErrors(page);
});
