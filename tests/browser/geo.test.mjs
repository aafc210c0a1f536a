// The "Location privacy" section in headless Chromium. Expected numbers are computed here in
// plain JS from the definitions — the exponential mechanism ∝ e^(−ε′d/2) with rows normalized,
// the truncated geometric on each axis (docs/mathematics.md#mechanism-families), the expected
// distance Σ_x π_x Σ_z K[x][z] d(x,z) and the smallest ε·d factor max ln(K[x][z]/K[x′][z])/d(x,x′)
// — from the density and the ε′ the page shows, never from the page's code. Checks: every
// mechanism shown is ε·d-private, the optimum is at most each mechanism's expected distance, the
// spanner's guarantee, the map of the chosen true cell, the click-to-run size with progress, the
// certified gap and Cancel, bad input reported inline; nothing computed before the section is in
// view. The optimum of a small map is checked against the plain simplex run here through the API
// (mechanism.optimalLP with method 'simplex', another solver than the page's decomposition).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startHarness, typeInto, SCREENSHOTS } from './harness.mjs';
import { assertEveryNumberRead } from './readings.mjs';
import { load } from '../../web/qif.js';

let h;
let qif;
before(async () => { [h, qif] = await Promise.all([startHarness(), load()]); });
after(async () => { await h?.close(); });

async function settledSection(page, timeout = 120000) {
  await page.waitForFunction(() => {
    const root = document.querySelector('#geo');
    return root?.dataset.started === 'true' && root.dataset.busy === 'false';
  }, null, { timeout });
}

async function open(state) {
  const page = await h.newPage();
  await page.goto(`${h.url}#geo`);
  // The section starts computing once it is in view.
  await page.waitForSelector('#geo h2');
  await page.locator('#geo').scrollIntoViewIfNeeded();
  await settledSection(page);
  if (state) {
    await page.evaluate(async (st) => (await import('./page/sections.js')).sections.geo.setState(st), state);
    await settledSection(page);
  }
  return page;
}

async function num(page, key) {
  const v = await page.getAttribute(`[data-testid="geo-${key}"]`, 'data-value');
  assert.notEqual(v, null, `geo-${key} has a value`);
  return Number(v);
}

/** The values drawn on a map, cell by cell (row-major). */
async function mapValues(page, key) {
  return page.$$eval(`[data-testid="geo-map-${key}"] [data-cell]`, (els) => els.map((e) => Number(e.dataset.value)));
}

function close(a, b, tol, what) {
  assert.ok(Math.abs(a - b) <= tol, `${what}: got ${a}, expected ${b} (±${tol})`);
}

// ---------------------------------------------------------------- independent references

function metric(side) {
  const n = side * side;
  const D = [];
  for (let i = 0; i < n; i++) {
    D.push([]);
    for (let j = 0; j < n; j++) D[i].push(Math.hypot((i % side) - (j % side), Math.floor(i / side) - Math.floor(j / side)));
  }
  return D;
}

function exponential(D, epsPrime) {
  return D.map((row) => {
    const w = row.map((d) => Math.exp((-epsPrime * d) / 2));
    const s = w.reduce((a, b) => a + b, 0);
    return w.map((x) => x / s);
  });
}

function truncatedGeometric(n, alpha) {
  const C = [];
  for (let x = 0; x < n; x++) {
    const row = [];
    for (let y = 0; y < n; y++) {
      if (y === 0) row.push(alpha ** x / (1 + alpha));
      else if (y === n - 1) row.push(alpha ** (n - 1 - x) / (1 + alpha));
      else row.push(((1 - alpha) / (1 + alpha)) * alpha ** Math.abs(x - y));
    }
    C.push(row);
  }
  return C;
}

function perAxis(side, alpha) {
  const G = truncatedGeometric(side, alpha);
  const n = side * side;
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => G[i % side][j % side] * G[Math.floor(i / side)][Math.floor(j / side)]));
}

const expected = (prior, K, D) => prior.reduce((s, p, x) => s + p * K[x].reduce((t, k, z) => t + k * D[x][z], 0), 0);

// max over x ≠ x′ and z of ln(K[x][z]/K[x′][z]) / d(x,x′), for full-support K.
function smallestEpsilon(K, D) {
  let e = 0;
  for (let x = 0; x < K.length; x++) {
    for (let y = 0; y < K.length; y++) {
      if (x === y) continue;
      for (let z = 0; z < K.length; z++) e = Math.max(e, Math.log(K[x][z] / K[y][z]) / D[x][y]);
    }
  }
  return e;
}

function assertNoErrors(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

// ---------------------------------------------------------------- tests

test('5 × 5 with hot spots: every mechanism ε·d-private, the optimum below both', async () => {
  const eps = 1;
  const side = 5;
  const page = await open({ side: '5', epsilon: '1', spanner: '', density: 'hotspots' });
  const D = metric(side);
  const prior = await mapValues(page, 'prior');
  assert.equal(prior.length, 25);
  close(prior.reduce((a, b) => a + b, 0), 1, 1e-12, 'the density sums to 1');
  const spots = prior.filter((p, i) => p > 1.5 / 25 && (i % side === 0 || prior[i - 1] <= p) && (i % side === side - 1 || prior[i + 1] <= p));
  assert.ok(spots.length >= 2, 'a few hot spots');

  // Exponential: ε′ as shown, the expected distance from the definition, its ε at the target.
  const epsPrime = Number(await page.getAttribute('[data-testid="geo-detail-exp"]', 'data-epsilon-prime'));
  assert.ok(epsPrime > eps && epsPrime < 2 * eps, `ε′ = ${epsPrime} between ε and 2ε`);
  const E = exponential(D, epsPrime);
  const eExp = smallestEpsilon(E, D);
  assert.ok(eExp <= eps + 1e-9 && eExp >= eps * (1 - 1e-4), `exponential ε ${eExp} at the target`);
  close(await num(page, 'eps-exp'), eExp, 1e-9, 'exponential ε shown');
  close(await num(page, 'loss-exp'), expected(prior, E, D), 1e-9, 'exponential expected distance');
  // And ε′ = ε would not be calibrated: its ε is well below the target.
  assert.ok(smallestEpsilon(exponential(D, eps), D) < 0.9 * eps, 'the uncalibrated exponential wastes privacy');

  // Geometric on each axis with α = e^(−ε/√2): exactly ε·d-private (diagonal neighbours).
  const G = perAxis(side, Math.exp(-eps / Math.SQRT2));
  close(smallestEpsilon(G, D), eps, 1e-9, 'per-axis geometric ε (reference)');
  close(await num(page, 'eps-geo'), eps, 1e-9, 'per-axis geometric ε shown');
  close(await num(page, 'loss-geo'), expected(prior, G, D), 1e-9, 'geometric expected distance');

  // The optimum: ε·d-private, at most each mechanism (also after their remapping).
  assert.equal(await page.getAttribute('[data-testid="geo-row-lp"]', 'data-status'), 'ok');
  const opt = await num(page, 'loss-lp');
  assert.ok((await num(page, 'eps-lp')) <= eps + 1e-7, 'optimum ε·d-private');
  for (const k of ['exp', 'geo']) {
    assert.ok(opt <= (await num(page, `loss-${k}`)) + 1e-9, `optimum ≤ ${k}`);
    assert.ok(opt <= (await num(page, `remapped-${k}`)) + 1e-7, `optimum ≤ ${k} remapped`);
    assert.ok((await num(page, `remapped-${k}`)) <= (await num(page, `loss-${k}`)) + 1e-12, `remapping helps ${k}`);
  }
  close(await num(page, 'remapped-lp'), opt, 1e-6, 'remapping cannot improve the optimum');
  close(await num(page, 'guaranteed'), eps, 1e-12, 'no spanner: the guarantee is ε');
  assert.match(await page.textContent('[data-testid="geo-comparison"]'), /optimal mechanism reports a cell at/);

  // Maps: the densest cell is chosen first; its rows are distributions, the exponential's as computed here.
  const best = prior.indexOf(Math.max(...prior));
  close((await mapValues(page, 'exp')).reduce((a, b, z) => a + Math.abs(b - E[best][z]), 0), 0, 1e-9, 'exponential row of the densest cell');
  // Click a corner: the maps redraw for it; two rows of the optimum obey the ε·d bound.
  await page.click('[data-testid="geo-map-prior"] [data-cell="0"]');
  assert.match(await page.textContent('[data-testid="geo-cell"]'), /\(0, 0\)/);
  const row0 = await mapValues(page, 'lp');
  close(row0.reduce((a, b) => a + b, 0), 1, 1e-9, 'optimal row sums to 1');
  close((await mapValues(page, 'geo')).reduce((a, b, z) => a + Math.abs(b - G[0][z]), 0), 0, 1e-9, 'geometric row of (0, 0)');
  await page.click('[data-testid="geo-map-lp"] [data-cell="6"]');
  const row6 = await mapValues(page, 'lp');
  const bound = Math.exp(eps * Math.SQRT2);
  for (let z = 0; z < 25; z++) {
    assert.ok(row0[z] <= bound * row6[z] + 1e-9 && row6[z] <= bound * row0[z] + 1e-9, `cells (0,0) and (1,1), report ${z}`);
  }
  await h.screenshot(page, 'geo-5x5');
  assertNoErrors(page);
});

test('a spanner: guarantee ε·t/δ, still private, never better than the exact optimum', async () => {
  const page = await open({ side: '5', epsilon: '1', spanner: '', density: 'centre' });
  const exact = await num(page, 'loss-lp');
  await typeInto(page, 'geo-spanner', '1.5');
  await settledSection(page);
  const g = await num(page, 'guaranteed');
  const note = await page.textContent('[data-testid="geo-guaranteed-note"]');
  const t = Number(/dilation t = ([\d.]+)/.exec(note)[1]);
  assert.ok(t >= 1 && t <= 1.5, `dilation ${t} within δ`);
  close(g, t / 1.5, 1e-3, 'guarantee ε·t/δ (t as shown, 4 digits)');
  assert.ok(g <= 1, 'the guarantee is at most ε');
  assert.ok((await num(page, 'eps-lp')) <= g + 1e-7, 'the matrix meets the guarantee');
  assert.ok((await num(page, 'loss-lp')) >= exact - 1e-7, 'the spanner solves a restricted program');
  assertNoErrors(page);
});

test('4 × 4: computed by itself, optimal with a certified gap, the optimum the simplex finds', async () => {
  const page = await open({ side: '4', epsilon: '1', spanner: '', density: 'hotspots' });
  assert.equal(await page.getAttribute('[data-testid="geo-row-lp"]', 'data-status'), 'ok');
  assert.equal(await page.textContent('[data-testid="geo-lp-status"]'), 'optimal');
  const gap = await num(page, 'gap-value');
  assert.ok(Math.abs(gap) <= 1e-9, `certified gap ${gap}`);
  assert.match(await page.textContent('[data-testid="geo-gap"]'), /proves that every ε·d-private mechanism has an expected distance of at least/);
  await h.screenshot(page, 'geo-4x4-gap');
  // The same program by the simplex method, from the density the page draws.
  const prior = await mapValues(page, 'prior');
  const D = metric(4);
  const ref = qif.mechanism.optimalLP({ metric: D, epsilon: 1, prior, loss: D, method: 'simplex' });
  assert.equal(ref.status, 'optimal');
  assert.equal(ref.method, 'simplex');
  close(await num(page, 'loss-lp'), ref.utility, 1e-8, 'the optimum against the simplex');
  // The gap's bound is a lower bound on the simplex's optimum too.
  const lower = (await page.evaluate(async () => (await import('./page/sections.js')).sections.geo.getResults().mechanisms.lp.bound));
  assert.ok(lower <= ref.utility + 1e-9 && lower >= ref.utility - 1e-8, `bound ${lower} against ${ref.utility}`);
  assertNoErrors(page);
});

test('a large map waits for Compute, shows the solver\'s progress and gap, and Cancel stops it', async () => {
  const page = await open({ side: '12', epsilon: '1', spanner: '1.1', density: 'hotspots' });
  assert.equal(await page.getAttribute('[data-testid="geo-row-lp"]', 'data-status'), 'waiting');
  assert.ok(Number.isFinite(await num(page, 'loss-exp')) && Number.isFinite(await num(page, 'loss-geo')), 'the other mechanisms are shown');
  await page.click('[data-testid="geo-lp-run"]');
  assert.match(await page.textContent('[data-testid="geo-lp-progress"]'), /Solving the linear program/);
  // A report after a pricing round: the mechanism held, the proven bound, their difference.
  await page.waitForSelector('[data-testid="geo-lp-gap"]', { timeout: 60000 });
  const value = await num(page, 'lp-value');
  const bound = await num(page, 'lp-bound');
  const gap = await num(page, 'lp-gap');
  close(gap, value - bound, 1e-12, 'gap = value − bound');
  await h.screenshot(page, 'geo-lp-progress');
  assert.ok(gap >= -1e-9 && value > 0, `value ${value}, bound ${bound}`);
  // An expected distance is at most the diameter; a lower bound on one is at least 0 here only
  // if the solver's prices are sane (the bound of a pricing round can be any number below).
  assert.ok(value <= Math.SQRT2 * 11 && bound >= -1e-12);
  // Cancel stops the solve instead of waiting for it (minutes on this map): idle long before it
  // could end, with room for a loaded machine (a second was too tight at a load average of 6–14).
  await page.locator('[data-testid="geo-lp-cancel"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="geo-row-lp"]').dataset.status === 'cancelled' && document.querySelector('#geo').dataset.busy === 'false', null, { timeout: 15000 });
  assert.match(await page.textContent('[data-testid="geo-lp-stopped"]'), /cancelled\. When it stopped, the best mechanism the solver had found had expected distance [\d.]+ cell sides/);
  // What was computed stays.
  assert.ok(Number.isFinite(await num(page, 'loss-exp')) && Number.isFinite(await num(page, 'loss-geo')), 'the other mechanisms stay');
  // The section keeps working after the worker restarted.
  await typeInto(page, 'geo-side', '3');
  await settledSection(page);
  assert.equal(await page.getAttribute('[data-testid="geo-row-lp"]', 'data-status'), 'ok');
  assert.equal(await page.textContent('[data-testid="geo-lp-status"]'), 'optimal');
  assert.ok((await num(page, 'loss-lp')) <= (await num(page, 'loss-geo')) + 1e-9);
  assertNoErrors(page);
});

test('above 16 × 16: every mechanism waits for Compute, and an empty δ means δ = 1.1, said on screen', async () => {
  const page = await open({ side: '20', epsilon: '1', spanner: '', density: 'centre' });
  for (const k of ['lp', 'exp', 'geo']) assert.notEqual(await page.getAttribute(`[data-testid="geo-row-${k}"]`, 'data-status'), 'ok', k);
  assert.equal(await page.getAttribute('[data-testid="geo-summary"]', 'data-spanner'), 'default');
  assert.match(await page.textContent('[data-testid="geo-summary"]'), /uses a spanner with δ = 1\.1 unless you type another δ/);
  assert.match(await page.textContent('[data-testid="geo-lp-progress"]'), /greedy 1\.1-spanner \(the default on a map this large\)/);
  assert.equal(await page.textContent('[data-testid="geo-lp-run"]'), 'Compute the mechanisms');
  // Compute, then Cancel while the geometric mechanism is checked: idle again, nothing shown as computed.
  await page.click('[data-testid="geo-lp-run"]');
  await page.waitForSelector('[data-testid="geo-lp-cancel"]');
  await page.locator('[data-testid="geo-lp-cancel"]').click();
  await settledSection(page, 2000);
  assert.equal(await page.getAttribute('[data-testid="geo-row-lp"]', 'data-status'), 'cancelled');
  assertNoErrors(page);
});

test('the section waits until it is in view: loading the page queues no LP', async () => {
  const page = await h.newPage();
  await page.goto(h.url);
  await page.waitForSelector('#geo h2');
  await page.waitForFunction(() => document.getElementById('channel')?.dataset.busy === 'false');
  assert.equal(await page.getAttribute('#geo', 'data-started'), null, 'not started at the top of the page');
  assert.equal(await page.getAttribute('#geo', 'data-busy'), 'false');
  await page.locator('#geo').scrollIntoViewIfNeeded();
  await settledSection(page);
  // The default: 6 × 6 with the hot spots, δ = 1.1, solved by itself.
  assert.equal(await page.getAttribute('[data-testid="geo-row-lp"]', 'data-status'), 'ok');
  assert.ok((await num(page, 'eps-lp')) <= (await num(page, 'guaranteed')) + 1e-7);
  assert.ok((await num(page, 'guaranteed')) < 1);
  assertNoErrors(page);
});

test('bad input is reported next to its field', async () => {
  const page = await open();
  for (const [id, text, re] of [['geo-side', '1', /at least 2/], ['geo-side', '33', /at most 32/], ['geo-eps', '-1', /positive/], ['geo-spanner', '0.5', /≥ 1/]]) {
    await typeInto(page, id, text);
    await page.waitForSelector(`#${id}.invalid`);
    assert.match(await page.textContent(`[data-testid="${id}-msg"]`), re, `${id} = ${text}`);
    assert.doesNotMatch(await page.textContent('#geo'), /NaN/);
    await typeInto(page, id, id === 'geo-side' ? '4' : id === 'geo-eps' ? '1' : '1.1');
    await settledSection(page);
  }
  assert.equal(await page.getAttribute('[data-testid="geo-row-lp"]', 'data-status'), 'ok');
  assertNoErrors(page);
});

test('every number shown has a reading; the two ε of the optimum say which is which', async () => {
  // A spanner makes the two differ: the guarantee ε·t/δ, and the smaller ε measured on the matrix.
  const page = await open({ side: '5', epsilon: '1', spanner: '1.5', density: 'centre' });
  await assertEveryNumberRead(page, '#geo', 10, 'a 5 × 5 map with a spanner');
  const measured = await page.getAttribute('[data-testid="geo-eps-lp"]', 'title');
  const guaranteed = await page.getAttribute('[data-testid="geo-guaranteed"]', 'title');
  assert.match(measured, /measured on the matrix the solver returned/);
  assert.match(guaranteed, /the ε that the linear program’s constraints ensure on every pair of cells/);
  assert.ok((await num(page, 'eps-lp')) <= (await num(page, 'guaranteed')) + 1e-7, 'measured ≤ guaranteed, as the readings say');
  assert.match(await page.getAttribute('[data-testid="geo-loss-exp"]', 'title'), /cell sides from the true one/);
  assertNoErrors(page);
});

// ---------------------------------------------------------------- what a person reads and takes away

/** The text of a download started by clicking `selector`. */
async function downloaded(page, selector) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const file = await dl.path();
  return { name: dl.suggestedFilename(), text: await readFile(file, 'utf8') };
}

/** A CSV as rows of fields (quotes as lib/export-formats.js writes them). */
function parseCSV(text) {
  return text.trimEnd().split('\n').map((line) => {
    const out = [];
    for (let i = 0; i < line.length;) {
      if (line[i] === '"') {
        let j = i + 1;
        let s = '';
        for (; j < line.length; j++) {
          if (line[j] === '"' && line[j + 1] === '"') { s += '"'; j++; } else if (line[j] === '"') break; else s += line[j];
        }
        out.push(s);
        i = j + 2;
      } else {
        const j = line.indexOf(',', i);
        out.push(line.slice(i, j < 0 ? line.length : j));
        i = j < 0 ? line.length + 1 : j + 1;
      }
    }
    return out;
  });
}

test('the comparison: per cent more of the optimum\'s distance, at every size', async () => {
  for (const side of ['3', '5']) {
    const page = await open({ side, epsilon: '1', spanner: '', density: 'hotspots' });
    const opt = await num(page, 'loss-lp');
    const line = await page.textContent('[data-testid="geo-comparison"]');
    for (const k of ['exp', 'geo']) {
      const other = await num(page, `loss-${k}`);
      // By the definition: how much farther, as a share of the optimum's distance.
      const pct = (100 * (other - opt)) / opt;
      close(await num(page, `more-${k}`), pct, 1e-9 * Math.max(1, pct), `${side} × ${side}, ${k}: per cent more`);
      const shown = Number(/([\d.]+) % more/.exec(await page.textContent(`[data-testid="geo-more-${k}"]`))[1]);
      close(shown, pct, 0.05 * Math.max(1, pct / 100), `${side} × ${side}, ${k}: as written`);
      assert.ok(pct > (100 * (other - opt)) / other - 1e-12, 'never the share of the other\'s distance');
    }
    assert.match(line, /optimal mechanism reports a cell at [\d.]+ cell sides from the true one on average, against the exponential [\d.]+ \([\d.]+ % more\) and the geometric [\d.]+ \([\d.]+ % more\)\./);
    // Every pair constrained (δ empty): no note about an empty δ beside a δ in use.
    assert.match(await page.textContent('[data-testid="geo-guaranteed-note"]'), /^Every pair of cells is constrained/);
    assertNoErrors(page);
    await page.close();
  }
});

test('Export: the table, a mechanism with its cells named, and each map as SVG with axes and scales', async () => {
  const page = await open({ side: '4', epsilon: '1', spanner: '1.5', density: 'centre' });
  // The δ typed is said as typed, not as "Empty δ: every pair".
  const note = await page.textContent('[data-testid="geo-guaranteed-note"]');
  assert.doesNotMatch(note, /Empty δ/);
  assert.match(note, /δ = 1\.5 as typed; clear the δ field to constrain every pair/);
  // The table: one row per mechanism, the numbers shown.
  await page.click('[data-testid="geo-export-table"] > summary');
  const table = parseCSV((await downloaded(page, '[data-testid="geo-export-table-csv-file"]')).text);
  assert.deepEqual(table[0].slice(0, 4), ['mechanism', 'expected distance (cell sides)', 'after remapping (cell sides)', 'smallest ε per unit (measured)']);
  assert.deepEqual(table.slice(1).map((r) => r[0]), ['optimal mechanism', 'exponential mechanism', 'geometric mechanism']);
  for (const [i, k] of ['lp', 'exp', 'geo'].entries()) {
    assert.equal(Number(table[i + 1][1]), await num(page, `loss-${k}`), `${k}: expected distance`);
    assert.equal(Number(table[i + 1][3]), await num(page, `eps-${k}`), `${k}: ε measured`);
  }
  // The optimal mechanism: 16 × 16, rows and columns named by their cells, rows distributions;
  // the row of the chosen cell is the map drawn for it.
  await page.click('[data-testid="geo-export-mechanism"] > summary');
  const csv = await downloaded(page, '[data-testid="geo-export-mechanism-csv-file"]');
  assert.equal(csv.name, 'location-mechanism.csv');
  const K = parseCSV(csv.text);
  assert.equal(K.length, 17);
  assert.deepEqual(K[0].slice(0, 3), ['true \\ reported', '(0, 0)', '(1, 0)']);
  assert.deepEqual(K.slice(1).map((r) => r[0]).slice(0, 5), ['(0, 0)', '(1, 0)', '(2, 0)', '(3, 0)', '(0, 1)']);
  for (const r of K.slice(1)) close(r.slice(1).reduce((a, b) => a + Number(b), 0), 1, 1e-9, `row ${r[0]} sums to 1`);
  const cell = (await page.evaluate(async () => (await import('./page/sections.js')).sections.geo.getResults().cell));
  const drawn = await mapValues(page, 'lp');
  K[cell + 1].slice(1).forEach((v, z) => close(Number(v), drawn[z], 1e-15, `K[chosen][${z}] as drawn`));
  // The exponential one as JSON and LaTeX, labels included.
  await page.selectOption('[data-testid="geo-export-which"]', 'exp');
  const json = JSON.parse((await downloaded(page, '[data-testid="geo-export-mechanism-json-file"]')).text);
  assert.equal(JSON.stringify(json).includes('(3, 3)'), true, 'JSON names the cells');
  const tex = (await downloaded(page, '[data-testid="geo-export-mechanism-latex-file"]')).text;
  assert.match(tex, /\(3, 3\)/);
  // A map as SVG: the cells as drawn, axes numbered 0 to side − 1, a colour scale and one cell side.
  const svg = (await downloaded(page, '[data-testid="geo-map-svg-lp"]')).text;
  assert.match(svg, /^<\?xml/);
  const values = [...svg.matchAll(/data-cell="(\d+)" data-value="([^"]+)"/g)].map((m) => Number(m[2]));
  assert.deepEqual(values, drawn);
  assert.deepEqual([...svg.matchAll(/data-axis="x">(\d+)</g)].map((m) => Number(m[1])), [0, 1, 2, 3]);
  assert.match(svg, /data-role="colour-scale"/);
  assert.match(svg, /1 cell side = 1 unit of distance/);
  // On the page: each map has its axes, its colour scale up to its largest value, a cell side.
  for (const key of ['prior', 'lp', 'exp', 'geo']) {
    const ticks = await page.$$eval(`[data-testid="geo-axis-x-${key}"] span`, (s) => s.map((e) => e.textContent));
    assert.deepEqual(ticks, ['0', '1', '2', '3'], `${key}: x axis`);
    const max = Number(await page.getAttribute(`[data-testid="geo-legend-${key}"] .geo-legend-max`, 'data-value'));
    close(max, Math.max(...(await mapValues(page, key))), 0, `${key}: the colour scale's top`);
    assert.equal(await page.textContent(`[data-testid="geo-length-${key}"]`), '1 cell side');
  }
  await page.locator('[data-testid="geo-maps"]').screenshot({ path: `${SCREENSHOTS}/geo-maps-axes.png` });
  assertNoErrors(page);
});

test('progress never goes back: pivots, the best distance, the bound and the gap, with their unit', async () => {
  const page = await open({ side: '12', epsilon: '1', spanner: '1.1', density: 'hotspots' });
  // Every report shown, recorded as it appears.
  await page.evaluate(() => {
    window.seenProgress = [];
    const box = document.querySelector('[data-testid="geo-lp-progress"]');
    new MutationObserver(() => {
      const v = (k) => { const el = box.querySelector(`[data-testid="geo-lp-${k}"]`); return el ? Number(el.dataset.value) : null; };
      const stats = box.querySelector('[data-testid="geo-lp-stats"]')?.textContent ?? '';
      const pivots = /^([\d,]+) simplex pivots so far/.exec(stats);
      if (pivots && v('value') !== null) window.seenProgress.push({ pivots: Number(pivots[1].replace(/,/g, '')), value: v('value'), bound: v('bound'), gap: v('gap'), stats });
    }).observe(box, { subtree: true, childList: true, characterData: true });
  });
  await page.click('[data-testid="geo-lp-run"]');
  await page.waitForFunction(() => window.seenProgress.filter((p) => p.gap !== null).length >= 3, null, { timeout: 90000 });
  const seen = await page.evaluate(() => window.seenProgress);
  await page.locator('[data-testid="geo-lp-cancel"]').click();
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1], seen[i]];
    assert.ok(b.pivots >= a.pivots, `pivots ${a.pivots} then ${b.pivots}`);
    assert.ok(b.value <= a.value, `best distance ${a.value} then ${b.value}`);
    if (a.bound !== null) assert.ok(b.bound !== null && b.bound >= a.bound, `bound ${a.bound} then ${b.bound}`);
    if (a.gap !== null) assert.ok(b.gap !== null && b.gap <= a.gap, `gap ${a.gap} then ${b.gap}`);
  }
  const last = seen[seen.length - 1];
  close(last.gap, last.value - last.bound, 1e-12, 'gap = best distance − bound');
  assert.ok(last.value > 0 && last.bound >= -1e-12 && last.value <= Math.SQRT2 * 11, `distances: ${last.value}, ${last.bound}`);
  assert.match(last.stats, /expected distance [\d.]+ cell sides; proven lower bound on the optimum \(of the program on the spanner\): [\d.]+ cell sides; certified gap \S+ cell sides\./);
  assertNoErrors(page);
});

test('the section menu marks Location privacy when the page is opened on it or sent to it', async () => {
  const page = await h.newPage();
  await page.goto(`${h.url}#geo`);
  // Opened on the section's anchor: the page shows it (below the sticky menu) and marks it,
  // though the sections above it grow for seconds after.
  await page.waitForFunction(() => document.querySelector('nav.section-bar a[aria-current]')?.getAttribute('href') === '#geo');
  await page.waitForFunction(() => document.querySelector('#geo').dataset.started === 'true', null, { timeout: 60000 });
  await page.waitForTimeout(1500);
  const at = await page.evaluate(() => ({ top: document.querySelector('#geo').getBoundingClientRect().top, current: document.querySelector('nav.section-bar a[aria-current]').getAttribute('href') }));
  assert.equal(at.current, '#geo');
  assert.ok(at.top >= 0 && at.top < 120, `the section's top at ${at.top} px`);
  // The reader scrolls back to the top (the page stops keeping the anchor in view), then uses the menu.
  await page.mouse.move(600, 400);
  while (await page.evaluate(() => window.scrollY) > 0) await page.mouse.wheel(0, -20000);
  await page.waitForFunction(() => document.querySelector('nav.section-bar a[aria-current]')?.getAttribute('href') === '#channel');
  await page.click('nav.section-bar a[href="#geo"]');
  await page.waitForTimeout(1500);
  assert.equal(await page.getAttribute('nav.section-bar a[aria-current]', 'href'), '#geo');
  assert.equal(await page.textContent('nav.section-bar a[aria-current]'), 'Location privacy');
  assertNoErrors(page);
});
