// The "Channel & leakage" page in headless Chromium: it opens with the password checker of Alvim et
// al. (FOSAD 2011) Table 2(b), shows every measure with the value an independent plain-JS
// computation (reference.mjs) gives for the matrix the test itself takes from web/lib/presets.js,
// updates when a cell, the prior, α or the gain changes, switches presets, shows invalid input next
// to the cell without NaN, grows the grid on paste, keeps labels inert, and logs no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, settled, valueOf, typeInto, SCREENSHOTS } from './harness.mjs';
import { presets, presetById, numericChannel } from '../../web/lib/presets.js';
import { all, distinctPosteriors, slowChannel } from './reference.mjs';
import { FIRST_RESULTS } from '../../web/sections/channel/first-results.js';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const MEASURE_KEYS = Object.keys(all([1], [[1]]));

async function open(options) {
  const page = await h.newPage(options);
  await page.goto(h.url);
  await settled(page);
  return page;
}

function uniform(n) {
  return new Array(n).fill(1 / n);
}

// Every measure on the page equals the reference within 1e-9 (relative for large values).
async function expectMeasures(page, expected, what) {
  const problems = [];
  for (const key of MEASURE_KEYS) {
    const status = await page.getAttribute(`[data-testid="result-${key}"]`, 'data-status');
    const got = await valueOf(page, key);
    const want = expected[key];
    if (status !== 'ok' || got === null || !(got === want || Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)))) {
      const msg = await page.textContent(`[data-testid="msg-${key}"]`);
      problems.push(`${key}: page ${got} (${status}${msg ? `: ${msg}` : ''}), expected ${want}`);
    }
  }
  assert.deepEqual(problems, [], `${what}: measures differ from the reference`);
}

function assertNoErrors(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

test('shows the numbers of the default example computed at build time first, marked, and replaces them with the engine\'s', async () => {
  const page = await h.newPage();
  // The values in the section the first time there are any (index.html's card, before any script),
  // and the first time the mounted section has any: which, and whether marked prerendered.
  await page.addInitScript(() => {
    const read = (els) => els.map((el) => ({ key: el.dataset.key ?? el.dataset.testid.replace(/^value-/, ''), value: Number(el.dataset.value), prerendered: 'prerendered' in el.dataset }));
    const mo = new MutationObserver(() => {
      const els = [...document.querySelectorAll('#channel output.value[data-value]')];
      if (els.length && !window.__card) window.__card = read(els);
      const mounted = els.filter((el) => el.dataset.testid);
      if (mounted.length) {
        window.__mounted = read(mounted);
        mo.disconnect();
      }
    });
    mo.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-value'] });
  });
  await page.goto(h.url);
  await settled(page);
  const expected = Object.assign({}, ...Object.values(FIRST_RESULTS).map((p) => p.values));
  const card = await page.evaluate(() => window.__card);
  assert.ok(card.length >= 4, 'index.html shows some numbers before the section mounts');
  for (const f of card) {
    assert.equal(f.value, expected[f.key], `the card's ${f.key}`);
    assert.ok(f.prerendered, `the card's ${f.key} is marked data-prerendered`);
  }
  const mounted = await page.evaluate(() => window.__mounted);
  assert.deepEqual(Object.fromEntries(mounted.map((f) => [f.key, f.value])), expected, 'the first values of the mounted section are the prerendered ones, all of them');
  assert.ok(mounted.every((f) => f.prerendered), 'each is marked data-prerendered');
  // Once the engine has answered, every value is its own, the same numbers, and the card is gone.
  assert.equal(await page.locator('#channel [data-prerendered]').count(), 0, 'no prerendered value is left');
  for (const [key, value] of Object.entries(expected)) assert.equal(await valueOf(page, key), value, key);
  assertNoErrors(page);
  await page.context().close();
});

test('opens with the password checker of Alvim et al. (FOSAD 2011) Table 2(b) and its measures', async () => {
  const page = await open();
  assert.equal(await page.inputValue('[data-testid="preset-select"]'), 'password-iterations');
  const p = presetById('password-iterations');
  const C = numericChannel(p);
  // The grid shows the preset with its labels.
  assert.equal(await page.inputValue('[data-testid="row-label-6"]'), '110');
  assert.equal(await page.inputValue('[data-testid="col-label-3"]'), 'OK');
  assert.equal(await page.inputValue('[data-testid="cell-6-3"]'), '1');
  assert.equal(await page.inputValue('[data-testid="prior-0"]'), '1/8');
  await expectMeasures(page, all(uniform(8), C), 'password checker, uniform prior');
  // Closed forms for this deterministic channel: I = H(1/2, 1/4, 1/8, 1/8) = 1.75 bits,
  // capacity = min-capacity = log2 4 = 2 bits (four reachable outputs).
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - 1.75) < 1e-12);
  assert.equal(await page.textContent('[data-testid="value-mutualInformation"]'), '1.75');
  assert.ok(Math.abs((await valueOf(page, 'shannonCapacity')) - 2) < 1e-6, 'capacity 2 bits');
  const gap = Number(await page.getAttribute('[data-testid="capacity-gap"]', 'data-value'));
  assert.ok(gap >= 0 && gap < 1e-3, `capacity gap ${gap}`);
  assert.equal(await page.locator('[data-testid="hyper-table"] tbody tr').count(), distinctPosteriors(uniform(8), C));
  assert.match(await page.textContent('[data-testid="hyper-row-3"]'), /^OK/);
  // Formula names and units are shown with the numbers.
  const mi = await page.textContent('[data-testid="result-mutualInformation"]');
  assert.match(mi, /I\(X;Y\) = H\(X\) − H\(X\|Y\)/);
  assert.match(mi, /bits/);
  await h.screenshot(page, 'channel-password-checker');
  assertNoErrors(page);
});

test('editing a cell updates the numbers; a half-edited row is flagged, not computed', async () => {
  const page = await open();
  const C = numericChannel(presetById('password-iterations'));
  // 111 now fails at iteration 3 or passes, each with probability 1/2.
  await typeInto(page, 'cell-7-3', '1/2');
  // Row 8 now sums to 1.5: the row says so and results are stale, never NaN.
  await page.waitForSelector('[data-testid="rowsum-7"].invalid');
  assert.match(await page.textContent('[data-testid="rowsum-7"]'), /row 8 sums to 1\.5, expected 1/);
  // The summary names the row as the grid shows it: its label and its number from 1.
  assert.match(await page.textContent('[data-testid="input-errors"]'), /row “111” \(row 8\) sums to 1\.5, expected 1/);
  assert.equal(await page.getAttribute('[data-testid="result-mutualInformation"]', 'data-status'), 'stale');
  assert.doesNotMatch(await page.textContent('[data-testid="results"]'), /NaN/);
  await typeInto(page, 'cell-7-2', '0.5');
  await settled(page);
  C[7][2] = 0.5;
  C[7][3] = 0.5;
  await expectMeasures(page, all(uniform(8), C), 'after editing row 111');
  assert.equal(await page.inputValue('[data-testid="preset-select"]'), 'custom');
  assert.equal(await page.locator('[data-testid="rowsum-7"].invalid').count(), 0);
  assertNoErrors(page);
});

test('prior, α and gain edits recompute the dependent measures', async () => {
  const page = await open();
  await page.selectOption('[data-testid="preset-select"]', 'dcnet-biased');
  await settled(page);
  const C = numericChannel(presetById('dcnet-biased'));
  const prior = [0.4, 0.1, 0.3, 0.2];
  for (let i = 0; i < 4; i++) await typeInto(page, `prior-${i}`, String(prior[i]));
  await settled(page);
  await expectMeasures(page, all(prior, C), 'biased dc-net, non-uniform prior');

  await typeInto(page, 'alpha', 'inf');
  await settled(page);
  assert.ok(Math.abs((await valueOf(page, 'renyiEntropy')) - (await valueOf(page, 'minEntropy'))) < 1e-12, 'H_∞ = min-entropy');
  await typeInto(page, 'alpha', '0');
  await settled(page);
  assert.ok(Math.abs((await valueOf(page, 'renyiEntropy')) - 2) < 1e-12, 'H_0 = log2 |support| = 2');
  await typeInto(page, 'alpha', '-1');
  await page.waitForSelector('#alpha.invalid');
  assert.equal(await page.getAttribute('[data-testid="result-renyiEntropy"]', 'data-status'), 'stale');
  await typeInto(page, 'alpha', '1/2');
  await settled(page);

  // A gain that only rewards guessing the bit: w0 = "the bit is 1", w1 = "the bit is 0".
  const G = [[1, 1, 0, 0], [0, 0, 1, 1]];
  await page.click('[data-testid="add-guess"]'); // leaves identity mode: 5 guesses
  for (let w = 4; w >= 2; w--) await page.click(`[data-testid="gain-table"] button[data-index="${w}"]`);
  for (let w = 0; w < 2; w++) for (let x = 0; x < 4; x++) await typeInto(page, `gain-${w}-${x}`, String(G[w][x]));
  await settled(page);
  const want = all(prior, C, G, 1 / 2);
  await expectMeasures(page, want, 'biased dc-net, bit gain, α = 1/2');
  assert.ok(Math.abs(want.posteriorGVulnerability - 1) < 1e-12, 'the declarations reveal the bit');

  await page.click('[data-testid="uniform-prior"]');
  await page.click('[data-testid="identity-gain"]');
  await settled(page);
  assert.equal(await page.inputValue('[data-testid="prior-2"]'), '1/4');
  await expectMeasures(page, all(uniform(4), C, null, 1 / 2), 'back to uniform prior and identity gain');
  assertNoErrors(page);
});

test('every preset shows the reference values; fair DC-net hides the culprit', async () => {
  const page = await open();
  for (const p of presets) {
    await page.selectOption('[data-testid="preset-select"]', p.id);
    await settled(page);
    const C = numericChannel(p);
    assert.equal(await page.locator('[data-testid="channel-table"] tbody tr').count(), p.secrets.length);
    assert.equal(await page.inputValue('[data-testid="col-label-0"]'), p.observables[0]);
    await expectMeasures(page, all(uniform(C.length), C), p.id);
    await h.screenshot(page, `channel-${p.id}`);
  }
  // Alvim et al. (FOSAD 2011) Table 3(a): fair coins — the channel reveals the bit (1 bit) and
  // nothing about the culprit.
  await page.selectOption('[data-testid="preset-select"]', 'dcnet-fair');
  await settled(page);
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - 1) < 1e-12);
  assertNoErrors(page);
});

test('invalid input is shown next to the cell and results go stale', async () => {
  const page = await open();
  await typeInto(page, 'cell-2-1', 'abc');
  const cell = page.locator('[data-testid="cell-2-1"]');
  assert.equal(await cell.getAttribute('aria-invalid'), 'true');
  assert.match(await cell.getAttribute('class'), /invalid/);
  assert.equal(await page.textContent('#msg-c-2-1'), 'not a number');
  assert.equal(await page.textContent('[data-testid="rowsum-2"] .sum'), '—');
  assert.match(await page.textContent('[data-testid="input-errors"]'), /C\[010, \(Fail,2\)\]: not a number/);
  await settled(page);
  for (const key of ['mutualInformation', 'minCapacity', 'shannonCapacity', 'posteriorBayesVulnerability']) {
    assert.equal(await page.getAttribute(`[data-testid="result-${key}"]`, 'data-status'), 'stale', key);
  }
  // Measures of the prior alone stay valid.
  assert.equal(await page.getAttribute('[data-testid="result-shannonEntropy"]', 'data-status'), 'ok');
  assert.ok(Math.abs((await valueOf(page, 'shannonEntropy')) - 3) < 1e-12);
  assert.doesNotMatch(await page.textContent('[data-testid="results"]'), /NaN/);
  assert.match(await page.textContent('[data-testid="results-note"]'), /problem/);
  await typeInto(page, 'prior-0', '-1/8');
  assert.match(await page.textContent('#msg-p-0'), /negative/);
  assert.match(await page.getAttribute('[data-testid="prior-sum"]', 'class'), /invalid/);
  assert.match(await page.textContent('[data-testid="prior-sum"]'), /0\.75\s*expected 1/);
  assert.match(await page.textContent('[data-testid="input-errors"]'), /the prior sums to 0\.75, expected 1/);
  await h.screenshot(page, 'channel-invalid');
  // Fixing the input brings the results back.
  await typeInto(page, 'cell-2-1', '0');
  await typeInto(page, 'prior-0', '1/8');
  await settled(page);
  await expectMeasures(page, all(uniform(8), numericChannel(presetById('password-iterations'))), 'after fixing');
  assert.equal(await page.textContent('[data-testid="input-errors"]'), '');
  assertNoErrors(page);
});

test('paste from a spreadsheet fills and grows the grid; add/remove rows and columns', async () => {
  const page = await open();
  await page.selectOption('[data-testid="preset-select"]', 'dcnet-fair');
  await settled(page);
  // A tab-separated block with labels, pasted into the top-left cell: 5 rows × 5 columns.
  const block = 'x\\y\tA\tB\tC\tD\tE\n' +
    's1\t1\t0\t0\t0\t0\n' +
    's2\t0\t1/2\t1/2\t0\t0\n' +
    's3\t0\t0\t1\t0\t0\n' +
    's4\t0.25\t0.25\t0.25\t0.25\t0\n' +
    's5\t0\t0\t0\t0\t1\n';
  await page.locator('[data-testid="cell-0-0"]').focus();
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, block);
  await settled(page);
  assert.equal(await page.locator('[data-testid="channel-table"] tbody tr').count(), 5);
  assert.equal(await page.inputValue('[data-testid="row-label-4"]'), 's5');
  assert.equal(await page.inputValue('[data-testid="col-label-4"]'), 'E');
  assert.equal(await page.inputValue('[data-testid="cell-1-2"]'), '1/2');
  assert.equal(await page.inputValue('[data-testid="prior-4"]'), '1/5', 'the uniform prior follows the new size');
  const C = [[1, 0, 0, 0, 0], [0, 0.5, 0.5, 0, 0], [0, 0, 1, 0, 0], [0.25, 0.25, 0.25, 0.25, 0], [0, 0, 0, 0, 1]];
  await expectMeasures(page, all(uniform(5), C), 'pasted 5×5');

  // Remove secret s4 and column D, add a column (zeros) and a row (uniform).
  await page.click('[data-testid="channel-table"] tbody tr:nth-child(4) button.remove');
  await page.click('[data-testid="channel-table"] thead th:nth-child(6) button.remove');
  await page.click('[data-testid="add-col"]');
  await page.click('[data-testid="add-row"]');
  await settled(page);
  const C2 = [[1, 0, 0, 0, 0], [0, 0.5, 0.5, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0.2, 0.2, 0.2, 0.2, 0.2]];
  assert.equal(await page.inputValue('[data-testid="cell-4-4"]'), '1/5');
  await expectMeasures(page, all(uniform(5), C2), 'after remove/add');

  // A column pasted into the prior fills it downwards.
  await page.locator('[data-testid="prior-0"]').focus();
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData('text/plain', '0.5\n0.2\n0.1\n0.1\n0.1\n');
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  });
  await settled(page);
  await expectMeasures(page, all([0.5, 0.2, 0.1, 0.1, 0.1], C2), 'pasted prior');
  assertNoErrors(page);
});

test('labels are inert text, keyboard moves between cells', async () => {
  const page = await open();
  const payload = '<img src=x onerror="window.__pwned=1">';
  await typeInto(page, 'row-label-0', payload);
  await typeInto(page, 'col-label-0', '<b>bold</b>');
  await settled(page);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(await page.locator('#results b').count(), 0);
  // The label reaches the gain table and the hyper table as text.
  assert.equal(await page.textContent('[data-testid="gain-table"] thead th:nth-child(2)'), payload);
  assert.match(await page.textContent('[data-testid="hyper-row-0"]'), /<b>bold<\/b>/);

  await page.locator('[data-testid="cell-0-0"]').focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'cell-1-0');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'cell-2-0');
  await page.keyboard.press('ArrowRight'); // the whole text is selected after a move: caret at the end
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'cell-2-1');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'cell-1-1');
  // Every input of the section has an accessible name.
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('#channel input, #channel select')]
    .filter((el) => !(el.getAttribute('aria-label') || (el.id && document.querySelector(`label[for="${el.id}"]`))))
    .map((el) => el.outerHTML));
  assert.deepEqual(unnamed, []);
  assertNoErrors(page);
});

test('the worker client: typed calls, API errors, cancel, job ids', async () => {
  const page = await open();
  const r = await page.evaluate(async () => {
    const { QifClient, createEngine, isAbort } = await import('./engine/client.js');
    const c = new QifClient();
    const engine = createEngine(c);
    const out = {};
    out.ready = await c.ready;
    out.value = await engine.measure.shannonEntropy([0.5, 0.25, 0.25]);
    out.length = engine.measure.posteriorBayesVulnerability.length;
    try {
      await engine.measure.shannonEntropy([0.5, 0.6]);
    } catch (e) {
      out.apiError = { name: e.name, message: e.message };
    }
    try {
      await c.call('measure', 'noSuchFunction', []);
    } catch (e) {
      out.missing = e.message;
    }
    try {
      await engine.measure.minEntropy([1], 'extra');
    } catch (e) {
      out.arity = e.message;
    }
    // Cancel one of three queued calls: it rejects with an AbortError, the others still answer.
    const a = engine.measure.minEntropy([0.5, 0.5]);
    const b = engine.measure.minEntropy([0.25, 0.25, 0.25, 0.25]);
    const d = engine.measure.minEntropy([1]);
    out.ids = [a.jobId, b.jobId, d.jobId];
    out.cancelled = b.cancel();
    out.results = await Promise.allSettled([a, b, d]).then((rs) => rs.map((x) => (x.status === 'fulfilled' ? x.value : { name: x.reason.name, message: x.reason.message, isAbort: isAbort(x.reason) })));
    out.afterCancel = await engine.measure.bayesVulnerability([0.3, 0.7]);
    // An AbortSignal cancels as well.
    const ac = new AbortController();
    const e = engine.measure.minEntropy([0.5, 0.5], { signal: ac.signal });
    ac.abort();
    out.signal = await e.then(() => 'resolved', (err) => err.name);
    c.terminate();
    return out;
  });
  assert.equal(typeof r.ready.version, 'string');
  assert.ok(Math.abs(r.value - 1.5) < 1e-12);
  assert.equal(r.length, 2, 'typed methods carry their number of parameters');
  assert.equal(r.apiError.name, 'QifError');
  assert.match(r.apiError.message, /prior|distribution|sums to/i);
  assert.match(r.missing, /not available/);
  assert.match(r.arity, /measure\.minEntropy: expected at most 1 argument/);
  assert.equal(new Set(r.ids).size, 3, 'distinct job ids');
  assert.equal(r.cancelled, true);
  assert.equal(r.results[0], 1);
  assert.deepEqual(r.results[1], { name: 'AbortError', message: 'cancelled', isAbort: true });
  assert.equal(r.results[2], 0);
  assert.ok(Math.abs(r.afterCancel - 0.7) < 1e-12);
  assert.equal(r.signal, 'AbortError');
  assertNoErrors(page);
});

test('usable on a phone: no horizontal page scroll, results readable', async () => {
  const page = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  await expectMeasures(page, all(uniform(8), numericChannel(presetById('password-iterations'))), 'phone');
  await h.screenshot(page, 'channel-phone');
  assertNoErrors(page);
});

test('the worker client cancels a running computation and keeps working', async () => {
  const page = await open();
  const r = await page.evaluate(async (C) => {
    const { QifClient, createEngine } = await import('./engine/client.js');
    const c = new QifClient();
    const engine = createEngine(c);
    await c.ready;
    const progress = [];
    let sawProgress;
    const seen = new Promise((res) => { sawProgress = res; });
    // The caller's onProgress reaches the engine's progress callback through the API table.
    const job = engine.measure.shannonCapacity(C, { tolerance: 1e-15, onProgress: (...data) => { progress.push(data); sawProgress(); } });
    const other = engine.measure.shannonEntropy([0.5, 0.5]); // queued behind it
    await seen;
    job.cancel();
    const outcome = await job.then(() => 'resolved', (e) => e.name);
    const after = await other;
    c.terminate();
    return { outcome, after, first: progress[0] };
  }, slowChannel(300));
  assert.equal(r.outcome, 'AbortError');
  assert.equal(r.after, 1, 'a job queued behind the cancelled one still runs');
  assert.equal(r.first.length, 3, 'progress reports [iteration, lower, upper]');
  assert.ok(r.first[1] <= r.first[2], 'lower ≤ upper bound');
  assertNoErrors(page);
});

test('a long capacity computation shows progress and can be cancelled from the page', async () => {
  const page = await open();
  const C = slowChannel(120);
  await page.locator('[data-testid="cell-0-0"]').focus();
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', text);
    document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, C.map((row) => row.join('\t')).join('\n'));
  await settled(page, 60000);
  // 120 secrets (a paste this long is read in the data worker): the grid draws the rows in view
  // and says how large the channel is.
  assert.equal(await page.getAttribute('[data-testid="channel-table"]', 'aria-rowcount'), '122');
  assert.match(await page.textContent('[data-testid="grid-size"]'), /^120 × 120 channel: showing rows 1–/);
  // Blahut–Arimoto to the smallest positive tolerance runs for about a second on this channel
  // (~2 700 iterations until the bounds meet): after a short delay the page says so and offers
  // Cancel. A round trip from the test to the page can take longer than the rest of the job on a
  // fast machine, so the click is made in the page the moment Cancel appears, with the progress
  // text it showed recorded; should the job still win, another (distinct) tolerance is tried.
  let cancelled = false;
  for (const tol of ['5e-324', '1e-323', '1.5e-323', '2e-323']) {
    await page.evaluate(() => {
      window.__capacityProgress = null;
      window.__cancelObserver?.disconnect(); // from a try the job won
      const observer = (window.__cancelObserver = new MutationObserver(() => {
        const cancel = document.querySelector('[data-testid="capacity-cancel"]');
        if (!cancel) return;
        window.__capacityProgress = document.querySelector('[data-testid="capacity-progress-text"]')?.textContent ?? '';
        observer.disconnect();
        cancel.click();
      }));
      observer.observe(document.body, { subtree: true, childList: true });
    });
    await page.fill('[data-testid="capacity-tolerance"]', tol); // one input event
    await settled(page, 60000);
    const status = await page.getAttribute('[data-testid="result-shannonCapacity"]', 'data-status');
    if (status !== 'cancelled') continue; // it finished first: try again with another tolerance
    const shown = await page.evaluate(() => window.__capacityProgress);
    assert.match(shown, /Computing the capacity|Iteration \d+: capacity between/, 'progress shown before cancelling');
    cancelled = true;
    await page.locator('[data-testid="group-shannon"]').screenshot({ path: `${SCREENSHOTS}/channel-capacity-cancelled.png` });
    break;
  }
  assert.ok(cancelled, 'the computation could be cancelled');
  await page.waitForSelector('[data-testid="capacity-recompute"]');
  await settled(page);
  // The other measures were computed meanwhile and stay valid.
  assert.equal(await page.getAttribute('[data-testid="result-mutualInformation"]', 'data-status'), 'ok');
  // A looser tolerance computes it; the certified gap respects it.
  await page.fill('[data-testid="capacity-tolerance"]', '1e-4');
  await settled(page, 30000);
  assert.equal(await page.getAttribute('[data-testid="result-shannonCapacity"]', 'data-status'), 'ok');
  const gap = Number(await page.getAttribute('[data-testid="capacity-gap"]', 'data-value'));
  assert.ok(gap >= 0 && gap <= 1e-4, `gap ${gap}`);
  const cap = await valueOf(page, 'shannonCapacity');
  const mi = await valueOf(page, 'mutualInformation');
  assert.ok(cap >= mi - 1e-9, `capacity ${cap} ≥ I at the uniform prior ${mi}`);
  assertNoErrors(page);
});
