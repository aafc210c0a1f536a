// <qif-refinement> for teaching, in headless Chromium: its presets (the literature's pairs, each
// citing its source), labels on the matrices, and the witness or counterexample it draws. Every
// number shown is checked here against plain JS: the password checker's two channels are
// simulated from the checker itself, A·R = B is recomputed entrywise from the R displayed, and
// V_g[π▷A], V_g[π▷B] are recomputed by brute force from the g and π displayed and the matrices.
// Also: an invalid channel in <qif-channel> shows its error once, not once per measure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, SCREENSHOTS } from './harness.mjs';
import { postG } from './reference.mjs';

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

async function pageWith(body) {
  const page = await h.newPage();
  const url = `${h.url}test-page.html`;
  await page.route(url, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>test</title><script type="module" src="widgets.js"></script></head><body>${body}</body></html>`,
  }));
  await page.goto(url);
  return page;
}

const settledWidget = (page, id) => page.waitForFunction((id) => {
  const s = document.getElementById(id)?.dataset.state;
  return s === 'ready' || s === 'error';
}, id, { timeout: 20000 });

// ---------------------------------------------------------------- plain-JS references

// The password checker of Alvim et al. (FOSAD 2011) §1: the password is 110, the guess is
// compared digit by digit, stopping at the first mismatch. With timing, the adversary sees at
// which digit it stopped.
const GUESSES = ['000', '001', '010', '011', '100', '101', '110', '111'];
function checker(guess) {
  for (let i = 0; i < 3; i++) if (guess[i] !== '110'[i]) return i + 1;
  return 0; // accepted
}
const TIMING_OUT = ['(Fail,1)', '(Fail,2)', '(Fail,3)', 'OK'];
const PLAIN_OUT = ['Fail', 'OK'];
const timingChannel = GUESSES.map((g) => TIMING_OUT.map((o) => (o === (checker(g) ? `(Fail,${checker(g)})` : 'OK') ? 1 : 0)));
const plainChannel = GUESSES.map((g) => PLAIN_OUT.map((o) => (o === (checker(g) ? 'Fail' : 'OK') ? 1 : 0)));

const mul = (A, R) => A.map((row) => R[0].map((_, z) => row.reduce((s, a, y) => s + a * R[y][z], 0)));
// A displayed number: "5/6", "−1/4", "0.3333", "19/12 ≈ 1.583" (the fraction is read).
function shown(text) {
  const t = text.split('≈')[0].replace('−', '-').trim();
  const m = /^(-?\d+)\/(\d+)$/.exec(t);
  return m ? Number(m[1]) / Number(m[2]) : Number(t);
}
function close(got, want, what, tol = 1e-9) {
  assert.ok(Number.isFinite(got) && Math.abs(got - want) <= tol * Math.max(1, Math.abs(want)), `${what}: got ${got}, expected ${want}`);
}

// What a widget shows: its matrices (the cells' values and labels) and its drawing.
const read = (page, id) => page.evaluate((id) => {
  const root = document.getElementById(id).shadowRoot;
  const grid = (prefix) => {
    const table = root.querySelector(`[data-testid="${prefix}-table"]`);
    if (!table) return null;
    const rows = [...table.querySelectorAll('tbody tr')];
    return {
      rowLabels: rows.map((tr) => tr.querySelector('th').textContent),
      colLabels: [...table.querySelectorAll('thead th')].slice(1).map((th) => th.textContent),
      cells: rows.map((tr) => [...tr.querySelectorAll('td')].map((td) => ({ text: td.querySelector('input')?.value ?? td.textContent, value: td.dataset.value }))),
    };
  };
  const text = (t) => root.querySelector(`[data-testid="${t}"]`)?.textContent ?? null;
  const attr = (t) => root.querySelector(`[data-testid="${t}"]`)?.dataset.value ?? null;
  return {
    title: text('title'), source: text('source'), presetSource: text('preset-source'), preset: root.querySelector('[data-testid="preset"]')?.value ?? null,
    A: grid('a'), B: grid('b'), witness: grid('witness'), gain: grid('gain'),
    holds: Object.fromEntries(['avg', 'max', 'prv'].map((k) => [k, text(`holds-${k}`)])),
    witnessReading: text('witness-reading'), counterReading: text('counterexample-reading'),
    vgA: { text: text('vg-a'), value: attr('vg-a') }, vgB: { text: text('vg-b'), value: attr('vg-b') }, larger: text('larger'),
    error: text('error'),
  };
}, id);

const numbers = (grid) => grid.cells.map((r) => r.map((c) => shown(c.text)));
const values = (grid) => grid.cells.map((r) => r.map((c) => Number(c.value)));

// The witness shown is a channel with A·R = B, entry by entry, and each fraction shown is the value.
function checkWitness(s, what) {
  assert.ok(s.witness, `${what}: a witness is drawn`);
  assert.equal(s.gain, null, `${what}: no counterexample`);
  const A = numbers(s.A);
  const B = numbers(s.B);
  const R = values(s.witness);
  s.witness.cells.flat().forEach((c) => close(shown(c.text), Number(c.value), `${what}: R entry “${c.text}” as shown`));
  assert.deepEqual(s.witness.rowLabels, s.A.colLabels, `${what}: R's rows are A's outputs`);
  assert.deepEqual(s.witness.colLabels, s.B.colLabels, `${what}: R's columns are B's outputs`);
  R.forEach((row, y) => {
    assert.ok(row.every((v) => v >= -1e-12), `${what}: R row ${y} non-negative`);
    close(row.reduce((a, b) => a + b, 0), 1, `${what}: R row ${y} sums to 1`, 1e-12);
  });
  mul(A, R).forEach((row, x) => row.forEach((v, z) => close(v, B[x][z], `${what}: (A·R)(${x}, ${z})`, 1e-12)));
  assert.match(s.witnessReading, /^B is A followed by R: /);
}

// The counterexample shown: g and π as displayed give V_g[π▷B] > V_g[π▷A], the values displayed.
function checkCounterexample(s, what) {
  assert.ok(s.gain, `${what}: a counterexample is drawn`);
  assert.equal(s.witness, null, `${what}: no witness`);
  const A = numbers(s.A);
  const B = numbers(s.B);
  const rows = values(s.gain);
  const prior = rows.pop(); // the last row is π
  assert.equal(s.gain.rowLabels.at(-1), 'π');
  assert.deepEqual(s.gain.colLabels, s.A.rowLabels, `${what}: g and π are indexed by the secrets`);
  s.gain.cells.flat().forEach((c) => close(shown(c.text), Number(c.value), `${what}: entry “${c.text}” as shown`, 1e-3));
  close(prior.reduce((a, b) => a + b, 0), 1, `${what}: π sums to 1`, 1e-12);
  const va = postG(rows, prior, A);
  const vb = postG(rows, prior, B);
  close(Number(s.vgA.value), va, `${what}: V_g[π▷A]`, 1e-9);
  close(Number(s.vgB.value), vb, `${what}: V_g[π▷B]`, 1e-9);
  close(shown(s.vgA.text), va, `${what}: V_g[π▷A] as shown`, 1e-3);
  close(shown(s.vgB.text), vb, `${what}: V_g[π▷B] as shown`, 1e-3);
  assert.ok(vb > va + 1e-9, `${what}: B is more vulnerable (${vb} > ${va})`);
  assert.match(s.larger, /^V_g\[π▷B\] is larger/);
  assert.match(s.counterReading, /gains more from B than from A/);
}

// ---------------------------------------------------------------- tests

test('the FOSAD password checker: with timing refines without; the witness merges the failures', async () => {
  const page = await pageWith('<qif-refinement id="r" preset="password-timing"></qif-refinement>');
  await settledWidget(page, 'r');
  const s = await read(page, 'r');
  assert.equal(s.error, '');
  // The matrices are the checker's, simulated here, with its labels.
  assert.deepEqual(numbers(s.A), timingChannel);
  assert.deepEqual(numbers(s.B), plainChannel);
  assert.deepEqual(s.A.rowLabels, GUESSES);
  assert.deepEqual(s.A.colLabels, TIMING_OUT);
  assert.deepEqual(s.B.colLabels, PLAIN_OUT);
  // The source: authors, title and year.
  assert.match(s.presetSource, /Alvim, Andrés, Chatzikokolakis, Palamidessi, “Quantitative Information Flow and Applications to Differential Privacy”, FOSAD 2011/);
  assert.match(s.source, /Alvim et al\. \(FOSAD 2011\)/);
  assert.equal(s.preset, 'password-timing');
  assert.deepEqual(s.holds, { avg: 'holds', max: 'holds', prv: 'holds' });
  checkWitness(s, 'password');
  // R forgets the timing: each failure goes to Fail, OK to OK.
  assert.deepEqual(values(s.witness), [[1, 0], [1, 0], [1, 0], [0, 1]]);
  assert.match(s.witnessReading, /R sends \(Fail,1\), \(Fail,2\) and \(Fail,3\) to Fail; OK to OK/);
  await page.locator('#r').screenshot({ path: `${SCREENSHOTS}/refinement-witness.png` });

  // The other way round fails, with a counterexample (the menu chooses the reversed pair).
  await page.locator('#r').locator('[data-testid="preset"]').selectOption('password-timing-reversed');
  await page.waitForFunction(() => document.getElementById('r').shadowRoot.querySelector('[data-testid="counterexample"]'), null, { timeout: 20000 });
  await settledWidget(page, 'r');
  const t = await read(page, 'r');
  assert.deepEqual(numbers(t.A), plainChannel);
  assert.deepEqual(numbers(t.B), timingChannel);
  assert.equal(t.holds.avg, 'fails');
  checkCounterexample(t, 'password reversed');
  // The privacy verdict names the secrets by their labels.
  assert.match(await page.locator('#r').locator('[data-testid="verdict-prv"]').textContent(), /for secrets [01]{3}, [01]{3}: d_B = ∞ > d_A = 0/);
  await page.locator('#r').screenshot({ path: `${SCREENSHOTS}/refinement-counterexample.png` });
  // Reset goes back to the page's pair.
  await page.locator('#r').locator('[data-testid="reset"]').click();
  await page.waitForFunction(() => document.getElementById('r').shadowRoot.querySelector('[data-testid="witness"]'), null, { timeout: 20000 });
  assert.equal((await read(page, 'r')).preset, 'password-timing');
  assert.deepEqual(h.errors(page), []);
});

test('every preset: its witness or counterexample checks out, and it cites its source', async () => {
  const page = await pageWith('<qif-refinement id="r" a="1 0; 0 1" b="1/2 1/2; 1/2 1/2"></qif-refinement>');
  await settledWidget(page, 'r');
  const first = await read(page, 'r');
  assert.equal(first.error, '');
  assert.equal(first.preset, '', 'the author’s own channels: no preset chosen');
  checkWitness(first, 'identity then uniform');
  const ids = await page.locator('#r').locator('[data-testid="preset"] option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  assert.ok(ids.length >= 4, `presets: ${ids.join(', ')}`);
  let passes = 0;
  let failures = 0;
  for (const id of ids) {
    await page.locator('#r').locator('[data-testid="preset"]').selectOption(id);
    await page.waitForFunction((id) => {
      const el = document.getElementById('r');
      return el.shadowRoot.querySelector('[data-testid="preset"]')?.value === id && el.dataset.state === 'ready'
        && el.shadowRoot.querySelector('[data-testid="holds-avg"]');
    }, id, { timeout: 20000 });
    const s = await read(page, 'r');
    assert.match(s.presetSource, /^Source: .*“.+”.*(19|20)\d\d/, `${id}: authors, title and year`);
    if (s.holds.avg === 'holds') {
      checkWitness(s, id);
      passes++;
    } else {
      checkCounterexample(s, id);
      failures++;
    }
  }
  assert.ok(passes >= 2 && failures >= 2, `both kinds among the presets (${passes} refine, ${failures} do not)`);
  assert.deepEqual(h.errors(page), []);
});

test('labels: row-labels, a-col-labels and b-col-labels name the matrices, R and g', async () => {
  const page = await pageWith(`
    <qif-refinement id="r" a="1 0; 0 1; 1/2 1/2" b="1/2 1/2; 1/2 1/2; 1/2 1/2" row-labels="alice, bob, carol" a-col-labels="yes, no" b-col-labels="heads, tails"></qif-refinement>
    <qif-refinement id="back" b="1 0; 0 1; 1/2 1/2" a="1/2 1/2; 1/2 1/2; 1/2 1/2" row-labels="alice, bob, carol" b-col-labels="yes, no" a-col-labels="heads, tails"></qif-refinement>
    <qif-refinement id="bad" a="1 0; 0 1" b="1; 1" a-col-labels="one" row-labels="a, b"></qif-refinement>`);
  for (const id of ['r', 'back', 'bad']) await settledWidget(page, id);
  const s = await read(page, 'r');
  assert.deepEqual(s.A.rowLabels, ['alice', 'bob', 'carol']);
  assert.deepEqual(s.A.colLabels, ['yes', 'no']);
  assert.deepEqual(s.B.colLabels, ['heads', 'tails']);
  checkWitness(s, 'labelled');
  const b = await read(page, 'back');
  checkCounterexample(b, 'labelled, reversed');
  assert.deepEqual(b.gain.colLabels, ['alice', 'bob', 'carol']);
  assert.ok(b.gain.rowLabels.slice(0, -1).every((l) => /^guess (yes|no)$/.test(l)), b.gain.rowLabels.join(', '));
  assert.match((await read(page, 'bad')).error, /a-col-labels: needs 2 labels/);
  assert.deepEqual(h.errors(page), []);
});

test('<qif-channel>: an invalid channel shows its error once, not once per measure', async () => {
  const page = await pageWith(`
    <qif-channel id="c" matrix="0.5 0.4; 0.5 0.5" measures="mutualInformation,minEntropyLeakage,posteriorBayesVulnerability,conditionalShannonEntropy,posteriorGVulnerability,additiveBayesLeakage"></qif-channel>`);
  await settledWidget(page, 'c');
  const got = await page.evaluate(() => {
    const root = document.getElementById('c').shadowRoot;
    const alerts = [...root.querySelectorAll('[role="alert"], [data-testid="error"], .msg')].filter((e) => e.textContent.trim());
    return { state: document.getElementById('c').dataset.state, alerts: alerts.map((e) => e.textContent), dashes: [...root.querySelectorAll('.results dd[data-status="error"]')].length };
  });
  assert.equal(got.state, 'error');
  assert.equal(got.alerts.length, 1, `one error element: ${got.alerts.join(' | ')}`);
  assert.equal(got.alerts[0].match(/sums to/g)?.length, 1, `the message once: ${got.alerts[0]}`);
  assert.match(got.alerts[0], /channel: row “x1” \(row 1\) sums to 0\.9/);
  assert.equal(got.dashes, 6, 'every measure shows —');
  assert.deepEqual(h.errors(page), []);
});
