// The page as a product in headless Chromium: exact fractions (from the engine's exact mode)
// checked against values computed by hand in this file; KaTeX formulas with links to the references page under the
// CSP; a shared URL restores a section; exports in the documented CSV / JSON / LaTeX formats
// and plots saved as SVG / PNG; XSS payloads in labels and in the URL stay inert; every input
// has an accessible name; keyboard-only use; colour contrast ≥ 4.5:1; no request to another
// origin and no console error. The pure modules (format.js, export.js, share.js) are also
// checked here in Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startHarness, settled, valueOf, typeInto, hashOf } from './harness.mjs';
import { all } from './reference.mjs';
import { presetById, numericChannel } from '../../web/lib/presets.js';
import * as format from '../../web/lib/format.js';
import { Fraction } from '../../web/lib/format.js';
import { toCSV, toJSON, toLaTeX, texEscape } from '../../web/lib/export.js';
import { encodeState, decodeState, parseHash, checkChannelState } from '../../web/page/share.js';

// ---------------------------------------------------------------- the example, by hand
//
// C = [1/2 1/2 0; 1/4 1/4 1/2; 0 1/3 2/3], π = (1/2, 1/4, 1/4), G = [1 1 0; 0 0 1].
// Joint J = [1/4 1/4 0; 1/16 1/16 1/8; 0 1/12 1/6]; p(y) = (5/16, 19/48, 7/24).
//   V(π) = 1/2; V[π▷C] = 1/4 + 1/4 + 1/6 = 2/3; L× = 4/3; L₊ = 1/6; R = 1/2, 1/3.
//   G(X) = 1·1/2 + 2·1/4 + 3·1/4 = 7/4.
//   G(X|Y) = Σ_y Σ_i i·J_(i)(y) = (1/4 + 2/16) + (1/4 + 2/12 + 3/16) + (1/6 + 2/8) = 3/8 + 29/48 + 5/12 = 67/48.
//   posteriors: y1 (4/5, 1/5, 0), y2 (12/19, 3/19, 4/19), y3 (0, 3/7, 4/7): V^max = 4/5.
//   V_g(π) = max(3/4, 1/4) = 3/4; V_g[π▷C] = 5/16 + 5/16 + 1/6 = 19/24; L₊_g = 1/24; L×_g = 19/18.
const EX = {
  secrets: ['a', 'b', 'c'],
  observables: ['y1', 'y2', 'y3'],
  cells: [['1/2', '1/2', '0'], ['1/4', '1/4', '1/2'], ['0', '1/3', '2/3']],
  prior: ['1/2', '1/4', '1/4'],
  gain: [['1', '1', '0'], ['0', '0', '1']],
  gainLabels: ['ab', 'c'],
};
//   Σ_y max_x C = 1/2 + 1/2 + 2/3 = 5/3; rows (1/2 1/2 0) and (0 1/3 2/3) are 4/3 apart in L1,
//   so sup_π R(π)/R[π▷C] = 1/(1 − 2/3) = 3; 1 − Σ_y min_{x∈supp π} C = 1 − 1/4 = 3/4.
const HAND = {
  bayesVulnerability: '1/2',
  posteriorBayesVulnerability: '2/3',
  multiplicativeBayesLeakage: '4/3',
  additiveBayesLeakage: '1/6',
  bayesRisk: '1/2',
  posteriorBayesRisk: '1/3',
  guessingEntropy: '7/4',
  posteriorGuessingEntropy: '67/48',
  maxCasePosteriorBayesVulnerability: '4/5',
  gVulnerability: '3/4',
  posteriorGVulnerability: '19/24',
  additiveGLeakage: '1/24',
  multiplicativeGLeakage: '19/18',
  multiplicativeBayesCapacity: '5/3',
  additiveGCapacity: '3/4',
};
// Integers: exact, and the decimal shown is the value itself (no fraction before it).
const HAND_WHOLE = { multiplicativeBayesRiskCapacity: '3' };
const HAND_HYPER = ['5/16', '19/48', '7/24', '4/5', '1/5', '12/19', '3/19', '4/19', '3/7', '4/7'];
const num = (f) => { const [a, b] = f.split('/').map(Number); return a / b; };

// RFC 4180 fields, read here (not by the page's reader): "…" with "" for a quote, or bare text.
function csvRows(text) {
  return text.trim().split('\n').map((line) => {
    const out = [];
    const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
    for (let m; (m = re.exec(line)) && m[0] !== '';) {
      out.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
      if (!m[2]) break;
    }
    return out;
  });
}

const exampleState = {
  presetId: 'password-iterations', edited: true, ...EX,
  priorUniform: false, gainIdentity: false, alpha: '2', tolerance: '1e-9',
};
// The test's own encoder (Node's base64url), independent of share.js.

// ---------------------------------------------------------------- Node: the pure modules

test('format.js only formats: the exact values come from the engine', async () => {
  // What it exports: the formatting of a fraction beside a decimal, nothing that computes.
  assert.deepEqual(Object.keys(format).sort(), ['Fraction', 'MAX_FRACTION_CHARS', 'exactCell', 'exactNumber', 'exactPrefix', 'exactTitle', 'formatFull', 'formatNumber', 'fractionOf', 'showExact']);
  const src = await readFile(new URL('../../web/lib/format.js', import.meta.url), 'utf8');
  for (const word of ['.add(', '.mul(', '.sub(', '.div(', 'guessing', 'posterior', 'hyper', 'BigInt']) assert.ok(!src.includes(word), `format.js has no “${word}”`);
  assert.equal(format.exactPrefix('2/7', 2 / 7), '2/7 ≈ ');
  assert.equal(format.exactPrefix('1/4', 0.25), '1/4 = ');
  assert.equal(format.exactPrefix('-3/4', -0.75), '−3/4 = ');
  assert.equal(format.exactPrefix('3', 3), '', 'an integer the decimal already shows');
  assert.equal(format.exactPrefix('12345678', 12345678), '12345678 ≈ ', 'shown as 1.235×10⁷');
  assert.equal(format.exactPrefix('Infinity', Infinity), '');
  assert.equal(format.exactPrefix(`1/${'7'.repeat(60)}`, 1e-60), '', 'too long to show');
  assert.match(format.exactTitle(`1/${'7'.repeat(60)}`), /1 \/ 60 digits/);
  assert.equal(format.exactCell('12/19'), '12/19 ≈ 0.6316');
  assert.equal(format.exactNumber('Infinity'), Infinity);
  assert.equal(format.fractionOf('1/0'), null);
  assert.equal(format.fractionOf('0.5'), null, 'the engine writes fractions, not decimals');
  assert.equal(new Fraction(6n, -8n).toTeX(), '-\\frac{3}{4}');
});

test('export.js: CSV, JSON and LaTeX of a matrix and a table', () => {
  const m = { kind: 'matrix', rows: [['1/2', '1/2'], ['0', '1']], rowLabels: ['x,1', 'x"2'], colLabels: ['=y1', 'y2'] };
  // Every text field is quoted (so that labels such as 000 stay labels), no number is.
  assert.equal(toCSV(m), ',"\'=y1","y2"\n"x,1",0.5,0.5\n"x""2",0,1\n');
  assert.deepEqual(JSON.parse(toJSON(m)), { rowLabels: ['x,1', 'x"2'], colLabels: ['=y1', 'y2'], rows: [[0.5, 0.5], [0, 1]] });
  assert.equal(toLaTeX(m), '% rows: x,1, x"2; columns: =y1, y2\n% needs \\usepackage{amsmath}\n\\[\n\\begin{bmatrix}\n  \\frac{1}{2} & \\frac{1}{2} \\\\\n  0 & 1\n\\end{bmatrix}\n\\]\n');
  const t = { kind: 'table', colLabels: ['measure', 'value'], rows: [['V_g & 100%', 1 / 3], ['neg', -2]] };
  assert.equal(toCSV(t), '"measure","value"\n"V_g & 100%",0.3333333333333333\n"neg",-2\n');
  assert.deepEqual(JSON.parse(toJSON(t)), [{ measure: 'V_g & 100%', value: 1 / 3 }, { measure: 'neg', value: -2 }]);
  assert.equal(toLaTeX(t), '\\begin{tabular}{l r}\n\\hline\nmeasure & value \\\\\n\\hline\nV\\_g \\& 100\\% & $0.333333$ \\\\\nneg & $-2$ \\\\\n\\hline\n\\end{tabular}\n');
  assert.equal(texEscape('\\{}~^#$'), '\\textbackslash{}\\{\\}\\textasciitilde{}\\textasciicircum{}\\#\\$');
});

test('share.js: base64url JSON round trip, hash parsing, untrusted state rejected', () => {
  const st = { secrets: ['ü', '<img src=x>'], n: 1 };
  const enc = encodeState(st);
  assert.match(enc, /^[A-Za-z0-9_-]+$/);
  assert.equal(enc, Buffer.from(JSON.stringify(st)).toString('base64url'));
  assert.deepEqual(decodeState(enc), st);
  assert.throws(() => decodeState('<img src=x onerror=alert(1)>'), /base64url/);
  assert.throws(() => decodeState(Buffer.from('{nope').toString('base64url')), /not JSON/);
  assert.deepEqual([...parseHash('#channel=abc&mechanism=d-e_f&channel2')], [['channel', 'abc'], ['mechanism', 'd-e_f']]);
  assert.deepEqual([...parseHash('#mechanism')], []);
  const clean = checkChannelState(exampleState);
  assert.deepEqual(clean.cells, EX.cells);
  assert.throws(() => checkChannelState({ ...exampleState, cells: [['1']] }), /channel has 1 rows, expected 3/);
  assert.throws(() => checkChannelState({ ...exampleState, secrets: 'abc' }), /secrets must be a list/);
  assert.throws(() => checkChannelState({ ...exampleState, prior: [{}, 1, 2] }), /prior\[1\] must be text/);
  assert.equal(checkChannelState({ ...exampleState, presetId: 'javascript:alert(1)' }).edited, true);
});

// ---------------------------------------------------------------- browser

let h;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

// A page that records clipboard writes, CSP violations and dialogs.
async function open(hash = '', options) {
  const page = await h.newPage(options);
  page.dialogs = [];
  page.on('dialog', (d) => { page.dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  await page.addInitScript(() => {
    window.__copied = [];
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t) => { window.__copied.push(String(t)); } } });
  });
  await page.goto(h.url + hash);
  await page.waitForFunction(() => document.documentElement.dataset.product === 'ready');
  await settled(page);
  return page;
}

async function clean(page) {
  assert.deepEqual(h.errors(page), [], 'no console or page errors');
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation');
  assert.deepEqual(page.dialogs, [], 'no dialog');
  assert.deepEqual(h.external, [], 'no request to another origin');
}

// Waits until the exact value of `key` is on the page (the exact job comes after the decimals).
async function exactShown(page, key) {
  await page.waitForFunction((k) => document.querySelector(`[data-testid="result-${k}"]`)?.dataset.exact, key, { timeout: 30000 });
  await settled(page);
}

async function lastCopy(page, click) {
  const before = await page.evaluate(() => window.__copied.length);
  await click();
  await page.waitForFunction((n) => window.__copied.length > n, before);
  return page.evaluate(() => window.__copied[window.__copied.length - 1]);
}

async function copyFrom(page, testid, format) {
  const menu = page.locator(`[data-testid="${testid}"]`);
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('summary').click();
  return lastCopy(page, () => page.click(`[data-testid="${testid}-${format}"]`));
}

/** Opens the folded results (the groups under "More results", the measures folded in a card), as a reader does. */
const unfold = (page) => page.$$eval('#results details.more-results, #results details.result-more', (ds) => { for (const d of ds) d.open = true; });

test('exact fractions on the page: results and hyper entries equal the hand-computed ones', async () => {
  const page = await open(hashOf('channel', exampleState));
  await unfold(page);
  await exactShown(page, 'posteriorGVulnerability');
  for (const [key, want] of Object.entries(HAND)) {
    const span = page.locator(`[data-testid="exact-${key}"]`);
    assert.equal(await span.getAttribute('data-value'), want, key);
    const text = await span.textContent();
    assert.match(text, new RegExp(`^${want} [=≈] $`), `${key}: "${text}"`);
    assert.ok(Math.abs((await valueOf(page, key)) - num(want)) < 1e-12, `${key}: decimal from the engine`);
    assert.equal(await page.isVisible(`[data-testid="badge-${key}"]`), true, `${key} is labelled exact`);
  }
  for (const [key, want] of Object.entries(HAND_WHOLE)) {
    assert.equal(await page.getAttribute(`[data-testid="exact-${key}"]`, 'data-value'), want, key);
    assert.equal(await page.textContent(`[data-testid="result-${key}"] .r-value`), `${want} × (ratio)`);
    assert.equal(await page.isVisible(`[data-testid="badge-${key}"]`), true, `${key} is labelled exact`);
  }
  assert.equal(await page.textContent('[data-testid="result-posteriorBayesVulnerability"] .r-value'), '2/3 ≈ 0.6667 probability');
  assert.equal(await page.textContent('[data-testid="result-additiveBayesLeakage"] .r-value'), '1/6 ≈ 0.1667 probability');
  // Irrational measures get no fraction and no label.
  assert.equal(await page.locator('[data-testid="exact-mutualInformation"]').count(), 0);
  assert.equal(await page.isVisible('[data-testid="badge-mutualInformation"]'), false);
  const hyper = await page.textContent('[data-testid="hyper-table"]');
  for (const f of HAND_HYPER) assert.ok(hyper.includes(f), `hyper table shows ${f}`);
  assert.match(hyper, /12\/19 ≈ 0\.6316/);
  assert.match(hyper, /4\/5 = 0\.8/);
  assert.equal(await page.isVisible('[data-testid="badge-hyper"]'), true);
  assert.equal(await page.textContent('[data-testid="exact-note"]'), '');
  await h.screenshot(page, 'product-exact-fractions');

  // A prior that sums to 1 within the floating-point tolerance but not exactly: decimals only,
  // and the exact mode's error, with the exact sum 2/3 + 333333333/10⁹ = 2999999999/3000000000.
  await typeInto(page, 'prior-0', '1/3');
  await typeInto(page, 'prior-1', '1/3');
  await typeInto(page, 'prior-2', '0.333333333');
  await settled(page);
  await page.waitForFunction(() => document.querySelector('[data-testid="exact-note"]').textContent !== '');
  assert.match(await page.textContent('[data-testid="exact-note"]'), /prior: sums to 2999999999\/3000000000, expected exactly 1/);
  assert.equal(await page.textContent('[data-testid="exact-posteriorBayesVulnerability"]'), '');
  assert.equal(await page.isVisible('[data-testid="badge-posteriorBayesVulnerability"]'), false);
  assert.ok(Number.isFinite(await valueOf(page, 'posteriorBayesVulnerability')), 'the decimal stays');
  assert.doesNotMatch(await page.textContent('[data-testid="hyper-table"]'), /\//);
  // An entry written with ln has no exact reading: decimals only, and the note says why.
  await typeInto(page, 'prior-2', 'ln(2)/ln(8)');
  await settled(page);
  assert.match(await page.textContent('[data-testid="exact-note"]'), /every entry as a decimal or a fraction/);
  assert.equal(await page.locator('[data-testid="result-bayesVulnerability"] .exact').textContent(), '');
  await clean(page);
});

test('formulas: KaTeX from web/vendor under the CSP, each with a link to its paper section', async () => {
  const page = await open();
  await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
  const slots = await page.$$eval('#results .r-formula', (els) => els.map((e) => ({
    tex: e.dataset.tex, katex: !!e.querySelector('.formula-tex .katex-html'), href: e.querySelector('a.ref')?.getAttribute('href'), ref: e.querySelector('a.ref')?.textContent,
  })));
  assert.equal(slots.length, 26);
  for (const s of slots) {
    assert.equal(s.tex, 'ok');
    assert.ok(s.katex, 'rendered by KaTeX');
    assert.match(s.href, /^docs\/(references\.html#(icalp2011|fosad2011|csf2019|wu2019|vadhan2013)-\d+(\.\d+)*|mathematics\.html#[a-z-]+)$/);
  }
  const mi = await page.textContent('[data-testid="result-mutualInformation"]');
  assert.match(mi, /I\(X;Y\) = H\(X\) − H\(X\|Y\)/, 'the plain formula stays as text for screen readers');
  // KaTeX's fonts come from web/vendor and are actually used.
  assert.ok(await page.evaluate(() => document.fonts.check('16px KaTeX_Main')), 'KaTeX_Main font loaded');
  const fonts = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name).filter((n) => /\.woff2$/.test(n)));
  assert.ok(fonts.length > 0 && fonts.every((u) => u.startsWith(`${h.origin}/vendor/katex/fonts/`)), fonts.join());
  // Every link lands on an existing section of the rendered references or mathematics.
  const hrefs = [...new Set(slots.map((s) => s.href))];
  const ref = await h.newPage();
  for (const href of hrefs) {
    await ref.goto(h.url + href);
    const id = href.split('#')[1];
    assert.equal(await ref.evaluate((i) => document.getElementById(i)?.matches(':target') ?? false, id), true, href);
  }
  await ref.goto(`${h.url}docs/references.html#fosad2011-3.2`);
  await h.screenshot(ref, 'product-references');
  assert.deepEqual(h.errors(ref), []);
  await page.locator('[data-testid="group-bayes"]').screenshot({ path: `${(await import('./harness.mjs')).SCREENSHOTS}/product-formulas.png` });
  await clean(page);
});

test('formulas of the other sections are typeset too, and every card source links to the references', async () => {
  const page = await open();
  await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
  // Design a mechanism: the bound and its log (2), the six mechanisms of the table, the five
  // database-domain results; Information privacy: five results of the query, seven of the
  // privacy channels of Wu (2019).
  for (const [id, count] of [['mechanism', 13], ['infopriv', 12]]) {
    const slots = await page.$$eval(`#${id} .r-formula`, (els) => els.map((e) => ({
      tex: e.dataset.tex,
      katex: !!e.querySelector('.formula-tex .katex-html'),
      error: !!e.querySelector('.katex-error'),
      plain: e.querySelector('.formula-text')?.textContent ?? '',
    })));
    assert.equal(slots.length, count, id);
    for (const s of slots) {
      assert.equal(s.tex, 'ok', `${id}: ${s.plain}`);
      assert.ok(s.katex && !s.error, `${id}: KaTeX rendered ${s.plain} without error`);
      assert.ok(s.plain.length > 0, 'the plain formula stays for screen readers');
    }
  }
  const bound = await page.textContent('#mechanism .r-formula .formula-text');
  assert.equal(bound, 'U ≤ 1 / Σ_d n_d e^(−εd)');
  // Sources: each card names at least one paper (or a section of the mathematics), linked by
  // the rule of formulas.js ("Alvim et al. (ICALP 2011) §6" → docs/references.html#icalp2011-6).
  const sources = await page.$$eval('section.tool[data-section] .source', (els) => els.map((e) => ({
    text: e.textContent, hrefs: [...e.querySelectorAll('a.ref')].map((a) => a.getAttribute('href')),
  })));
  assert.ok(sources.length >= 10, `${sources.length} sources`);
  const byText = Object.fromEntries(sources.map((x) => [x.text, x.hrefs]));
  assert.deepEqual(byText['Alvim et al. (ICALP 2011) §6 · Chatzikokolakis et al. (CSF 2019) §6.1'], ['docs/references.html#icalp2011-6', 'docs/references.html#csf2019-6.1']);
  assert.deepEqual(byText['Wu (2019) §3.2, Theorem 3.1 · Vadhan (2013) §2'], ['docs/references.html#wu2019-3.2', 'docs/references.html#vadhan2013-2']);
  assert.deepEqual(byText['Chatzikokolakis et al. (CSF 2019) §3–5, Table 3'], ['docs/references.html#csf2019-3']);
  assert.deepEqual(byText['Vadhan (2013) §1.2 · Mathematics §3.2'], ['docs/references.html#vadhan2013-1.2', 'docs/mathematics.html#epsilon-delta']);
  // Every link lands on an element of its page.
  const ids = await page.evaluate(async (files) => {
    const out = {};
    for (const f of files) {
      const html = await (await fetch(f)).text();
      out[f] = [...new DOMParser().parseFromString(html, 'text/html').querySelectorAll('[id]')].map((e) => e.id);
    }
    return out;
  }, ['docs/references.html', 'docs/mathematics.html']);
  for (const { text, hrefs } of sources) {
    assert.ok(hrefs.length > 0, `a link in "${text}"`);
    for (const href of hrefs) assert.ok(ids[href.split('#')[0]].includes(href.split('#')[1]), `${href} (from "${text}") exists`);
  }
  await clean(page);
});

test('a shared link restores the channel section (and every section with getState)', async () => {
  const page = await open();
  await page.selectOption('[data-testid="preset-select"]', 'dcnet-biased');
  await settled(page);
  const prior = ['0.4', '0.1', '3/10', '1/5'];
  for (let i = 0; i < 4; i++) await typeInto(page, `prior-${i}`, prior[i]);
  await typeInto(page, 'row-label-0', 'Alice');
  await typeInto(page, 'alpha', '1/2');
  await settled(page);
  const url = await lastCopy(page, () => page.click('[data-testid="share-channel"]'));
  assert.match(url, /#channel=[A-Za-z0-9_-]+$/);
  assert.equal(await page.evaluate(() => location.href), url, 'the address bar shows the link');
  const state = JSON.parse(Buffer.from(url.split('#channel=')[1], 'base64url').toString('utf8'));
  assert.deepEqual(state.prior, prior);
  assert.equal(state.secrets[0], 'Alice');

  const again = await open(`#${url.split('#')[1]}`);
  for (let i = 0; i < 4; i++) assert.equal(await again.inputValue(`[data-testid="prior-${i}"]`), prior[i]);
  assert.equal(await again.inputValue('[data-testid="row-label-0"]'), 'Alice');
  assert.equal(await again.inputValue('[data-testid="alpha"]'), '1/2');
  const C = numericChannel(presetById('dcnet-biased'));
  const want = all([0.4, 0.1, 0.3, 0.2], C, null, 1 / 2);
  for (const key of ['posteriorBayesVulnerability', 'mutualInformation', 'renyiEntropy', 'posteriorGuessingEntropy']) {
    assert.ok(Math.abs((await valueOf(again, key)) - want[key]) < 1e-9, key);
  }
  await h.screenshot(again, 'product-restored-link');

  // The other sections: whatever their state is, it survives the round trip through a link.
  const names = await again.evaluate(async () => Object.keys((await import('./page/sections.js')).sections));
  for (const name of names) {
    const st = await again.evaluate(async (n) => (await import('./page/sections.js')).sections[n].getState(), name);
    const p2 = await open(hashOf(name, st));
    await p2.waitForTimeout(300);
    const back = await p2.evaluate(async (n) => (await import('./page/sections.js')).sections[n].getState(), name);
    assert.deepEqual(back, st, `${name} state restored`);
    assert.equal(await p2.locator(`[data-testid="share-error-${name}"]`).count(), 0);
    assert.equal(await p2.locator(`#${name} [data-testid="share-${name}"]`).count(), 1, `${name} has a Copy link button`);
    await clean(p2);
    await p2.context().close();
  }
  await clean(page);
  await clean(again);
});

test('exports: channel, prior, gain, results and hyper as CSV, JSON and LaTeX', async () => {
  const page = await open(hashOf('channel', exampleState));
  await unfold(page);
  assert.equal(await copyFrom(page, 'export-channel', 'csv'), ',"y1","y2","y3"\n"a",0.5,0.5,0\n"b",0.25,0.25,0.5\n"c",0,0.3333333333333333,0.6666666666666666\n');
  assert.deepEqual(JSON.parse(await copyFrom(page, 'export-channel', 'json')), {
    rowLabels: ['a', 'b', 'c'], colLabels: ['y1', 'y2', 'y3'], rows: [[0.5, 0.5, 0], [0.25, 0.25, 0.5], [0, 1 / 3, 2 / 3]],
  });
  assert.equal(await copyFrom(page, 'export-channel', 'latex'),
    '% rows: a, b, c; columns: y1, y2, y3\n% needs \\usepackage{amsmath}\n\\[\n\\begin{bmatrix}\n  \\frac{1}{2} & \\frac{1}{2} & 0 \\\\\n  \\frac{1}{4} & \\frac{1}{4} & \\frac{1}{2} \\\\\n  0 & \\frac{1}{3} & \\frac{2}{3}\n\\end{bmatrix}\n\\]\n');
  await page.keyboard.press('Escape');
  assert.equal(await copyFrom(page, 'export-prior', 'csv'), ',"π"\n"a",0.5\n"b",0.25\n"c",0.25\n');
  assert.equal(await copyFrom(page, 'export-gain', 'latex'), '% rows: ab, c; columns: a, b, c\n% needs \\usepackage{amsmath}\n\\[\n\\begin{bmatrix}\n  1 & 1 & 0 \\\\\n  0 & 0 & 1\n\\end{bmatrix}\n\\]\n');
  await h.screenshot(page, 'product-export-menu');

  const csv = await copyFrom(page, 'export-results', 'csv');
  const lines = csvRows(csv);
  assert.deepEqual(lines[0], ['measure', 'value', 'exact', 'unit']);
  const row = lines.find((l) => l[0] === 'Posterior Bayes vulnerability');
  const [, v, exact, unit] = row;
  assert.ok(Math.abs(Number(v) - 2 / 3) < 1e-12);
  assert.equal(exact, '2/3');
  assert.equal(unit, 'probability');
  assert.equal(lines.length, 1 + 26, 'every measure');
  assert.equal(lines.find((l) => l[0] === 'Mutual information')[2], '', 'no exact value of a logarithm');
  const json = JSON.parse(await copyFrom(page, 'export-results', 'json'));
  assert.equal(json.find((r) => r.measure === 'Posterior g-vulnerability').exact, '19/24');
  const tex = await copyFrom(page, 'export-results', 'latex');
  assert.match(tex, /^\\begin\{tabular\}\{l r r r\}\n\\hline\nmeasure & value & exact & unit \\\\\n\\hline\n/);
  assert.match(tex, /Posterior Bayes vulnerability & \$0\.666667\$ & \$\\frac\{2\}\{3\}\$ & probability \\\\/);

  const hyperCsv = csvRows(await copyFrom(page, 'export-hyper', 'csv'));
  assert.deepEqual(hyperCsv[0], ['outputs y', 'outer p(y)', 'p(a|y)', 'p(b|y)', 'p(c|y)']);
  assert.equal(hyperCsv.length, 4);
  const y2 = hyperCsv.find((l) => l[0] === 'y2').slice(1).map(Number);
  [19 / 48, 12 / 19, 3 / 19, 4 / 19].forEach((w, i) => assert.ok(Math.abs(y2[i] - w) < 1e-12, `y2 entry ${i}`));
  assert.match(await copyFrom(page, 'export-hyper', 'latex'), /^\\begin\{tabular\}\{l r r r r\}/);
  await clean(page);
});

test('plots: every figure.plot gets SVG and PNG buttons that save the chart', async () => {
  const page = await open();
  // The other sections' plots are decorated as they appear.
  const counts = await page.evaluate(() => [document.querySelectorAll('figure.plot').length, document.querySelectorAll('figure.plot > .plot-actions').length]);
  assert.equal(counts[0], counts[1], `${counts[1]} of ${counts[0]} plots have save buttons`);
  await page.evaluate(async () => {
    const { linePlot } = await import('./lib/plot.js');
    const fig = linePlot({ title: 'Test <b>plot</b>', xLabel: 'ε', yLabel: 'leakage', series: [{ name: 'line <i>', points: [[0, 0], [1, 1], [2, 4]] }] });
    fig.id = 'test-plot';
    document.getElementById('results').append(fig);
  });
  await page.waitForSelector('#test-plot .plot-actions button[data-save="png"]');
  const [svgDl] = await Promise.all([page.waitForEvent('download'), page.click('#test-plot button[data-save="svg"]')]);
  assert.equal(svgDl.suggestedFilename(), 'test-b-plot-b.svg');
  const svg = await readFile(await svgDl.path(), 'utf8');
  assert.match(svg, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /width="560" height="300"/);
  assert.match(svg, /line &lt;i&gt;/, 'labels escaped as text');
  const [pngDl] = await Promise.all([page.waitForEvent('download'), page.click('#test-plot button[data-save="png"]')]);
  const png = await readFile(await pngDl.path());
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(png.readUInt32BE(16), 1120, 'width 2 × 560');
  assert.equal(png.readUInt32BE(20), 600, 'height 2 × 300');
  await clean(page);
});

const PAYLOADS = ['<img src=x onerror=alert(1)>', '"><script>alert(2)</script>', '<svg onload=alert(3)>', "javascript:alert('4')"];

async function assertInert(page) {
  const found = await page.evaluate(() => ({
    imgs: [...document.querySelectorAll('img')].map((i) => i.getAttribute('src')),
    scripts: [...document.scripts].filter((s) => !s.src || /alert/.test(s.textContent)).length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
    svgOnload: document.querySelectorAll('svg[onload]').length,
  }));
  assert.deepEqual(found, { imgs: [], scripts: 0, handlers: 0, svgOnload: 0 });
  assert.deepEqual(page.dialogs, []);
}

test('XSS payloads in labels (typed and pasted) and in the URL stay inert text', async () => {
  const page = await open();
  // A block pasted from a spreadsheet, with column and row labels.
  await page.click('[data-testid="cell-0-0"]');
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.querySelector('[data-testid="cell-0-0"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, `\t${PAYLOADS[1]}\t${PAYLOADS[2]}\n${PAYLOADS[0]}\t1\t0\n${PAYLOADS[3]}\t0\t1`);
  // Pasted at the first cell, the block is a new 2 × 2 channel: a third row to type a label into.
  await page.click('[data-testid="add-row"]');
  await typeInto(page, 'row-label-2', PAYLOADS[1]);
  await settled(page);
  assert.equal(await page.inputValue('[data-testid="row-label-0"]'), PAYLOADS[0]);
  assert.equal(await page.inputValue('[data-testid="row-label-1"]'), PAYLOADS[3]);
  assert.equal(await page.inputValue('[data-testid="col-label-0"]'), PAYLOADS[1]);
  assert.equal(await page.inputValue('[data-testid="col-label-1"]'), PAYLOADS[2]);
  assert.equal(await page.textContent('[data-testid="gain-table"] thead th:nth-child(2)'), PAYLOADS[0]);
  assert.ok((await page.textContent('[data-testid="hyper-table"]')).includes(PAYLOADS[1]));
  const csv = await copyFrom(page, 'export-channel', 'csv');
  assert.ok(csv.startsWith(`,"""><script>alert(2)</script>"`), csv.split('\n')[0]);
  await assertInert(page);

  // A crafted link: payloads in every text field of the state.
  const evil = {
    presetId: PAYLOADS[3], edited: false,
    secrets: [PAYLOADS[0], PAYLOADS[1]], observables: [PAYLOADS[2], 'y2'],
    cells: [['1', '0'], ['1/2', '<b>1/2</b>']], prior: ['1/2', '1/2'], priorUniform: false,
    gainIdentity: false, gain: [['1', '0'], ['0', '1']], gainLabels: [PAYLOADS[1], PAYLOADS[0]],
    alpha: '<img src=x onerror=alert(5)>', tolerance: '1e-9',
  };
  const p2 = await open(hashOf('channel', evil));
  assert.equal(await p2.inputValue('[data-testid="row-label-0"]'), PAYLOADS[0]);
  assert.equal(await p2.inputValue('[data-testid="col-label-0"]'), PAYLOADS[2]);
  assert.equal(await p2.inputValue('[data-testid="gain-label-0"]'), PAYLOADS[1]);
  assert.equal(await p2.inputValue('[data-testid="preset-select"]'), 'custom');
  assert.equal(await p2.textContent('#msg-c-1-1'), 'not a number');
  assert.ok(await p2.locator('#alpha.invalid').count());
  assert.equal(await p2.inputValue('[data-testid="cell-1-1"]'), '<b>1/2</b>');
  await h.screenshot(p2, 'product-xss-url');
  await assertInert(p2);

  // Broken links: reported in the section as text, the page keeps working.
  for (const hash of [`#channel=${encodeURIComponent(PAYLOADS[0])}`, hashOf('channel', { secrets: PAYLOADS[0] }), hashOf('channel', [1, 2]), hashOf('mechanism', 'x')]) {
    const p3 = await open(hash);
    const name = hash.slice(1).split('=')[0];
    const err = await p3.textContent(`[data-testid="share-error-${name}"]`);
    assert.match(err, /could not be restored: /);
    assert.ok(await valueOf(p3, 'mutualInformation') > 0, 'the default example still computes');
    await assertInert(p3);
    await clean(p3);
    await p3.context().close();
  }
  await clean(page);
  await clean(p2);
});

test('CSP: the meta policy is in force, the worker and wasm run under it, nothing else is fetched', async () => {
  const page = await open();
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(csp, /unsafe-inline|https?:/);
  assert.equal(await page.getAttribute('#engine-status', 'data-state'), 'ready', 'worker loaded the wasm');
  // The policy forbids inline scripts: one injected by the page's own code does not run.
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.head.append(s);
    await new Promise((r) => setTimeout(r, 50));
    return window.__inline === true;
  });
  assert.equal(ran, false);
  const violations = await page.evaluate(() => window.__csp.splice(0));
  assert.ok(violations.some((v) => /script-src/.test(v)), 'the blocked inline script was reported');
  h.errors(page).splice(0); // the deliberate violation's console message
  const requests = await page.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name));
  assert.ok(requests.every((u) => u.startsWith(h.origin)), requests.filter((u) => !u.startsWith(h.origin)).join());
  await clean(page);
});

test('accessibility: every input has a name, keyboard-only use, contrast ≥ 4.5:1', async () => {
  const page = await open();
  await page.waitForFunction(() => document.documentElement.dataset.formulas === 'ready');
  await page.waitForTimeout(500);
  const unnamed = await page.evaluate(() => {
    const name = (el) => {
      const t = (s) => (s || '').trim();
      if (t(el.getAttribute('aria-label'))) return true;
      const lb = el.getAttribute('aria-labelledby');
      if (lb && lb.split(/\s+/).some((id) => t(document.getElementById(id)?.textContent))) return true;
      if (el.labels && [...el.labels].some((l) => t(l.textContent))) return true;
      return !!t(el.getAttribute('title'));
    };
    return [...document.querySelectorAll('input, select, textarea')].filter((el) => el.type !== 'hidden' && !name(el))
      .map((el) => `${el.closest('section')?.id}: ${el.outerHTML.slice(0, 120)}`);
  });
  assert.deepEqual(unnamed, [], 'inputs without an accessible name');

  // Contrast of every visible text against its effective background.
  const low = await page.evaluate(() => {
    const rgba = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (fg, bg) => [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3])).concat(1);
    const background = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const c = rgba(getComputedStyle(e).backgroundColor);
        if (c && c[3] > 0) {
          layers.push(c);
          if (c[3] >= 1) break;
        }
      }
      let bg = [255, 255, 255, 1];
      for (const c of layers.reverse()) bg = over(c, bg);
      return bg;
    };
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('svg, option, .sr-only, [hidden], :disabled, details:not([open]) > :not(summary)')) continue;
      if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const cs = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (cs.visibility !== 'visible' || r.width < 2 || r.height < 2) continue;
      let opacity = 1;
      for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      if (opacity < 0.99) continue; // faded = inactive (disabled, pending): exempt
      const bg = background(el);
      const fg = over(rgba(cs.color), bg);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) out.push(`${el.closest('section[id]')?.id ?? 'page'} ${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)} (${cs.color} on ${bg.slice(0, 3).map(Math.round)})`);
    }
    return out;
  });
  assert.deepEqual(low, [], 'text with contrast below 4.5:1 (3:1 when large)');

  // Keyboard only: Tab to the first cell, type, move with the arrow key, type; the results follow.
  await page.evaluate(() => document.activeElement?.blur());
  let reached = false;
  for (let i = 0; i < 120 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.dataset.testid === 'cell-0-0');
  }
  assert.ok(reached, 'Tab reaches the first cell of the channel');
  await page.keyboard.type('1/2');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'cell-0-1');
  await page.keyboard.type('1/2');
  await settled(page);
  const C = numericChannel(presetById('password-iterations'));
  C[0][0] = 0.5;
  C[0][1] = 0.5;
  const want = all(new Array(8).fill(1 / 8), C);
  assert.ok(Math.abs((await valueOf(page, 'mutualInformation')) - want.mutualInformation) < 1e-9);
  assert.ok(Math.abs((await valueOf(page, 'posteriorGuessingEntropy')) - want.posteriorGuessingEntropy) < 1e-9);
  // The export menu by keyboard: focus its summary, open with Enter, copy with Enter.
  await page.focus('[data-testid="export-channel"] summary');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const csv = await lastCopy(page, () => page.keyboard.press('Enter'));
  assert.match(csv, /^,"\(Fail,1\)","\(Fail,2\)","\(Fail,3\)","OK"\n"000",0\.5,0\.5,0,0\n"001",1,0,0,0\n/);
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Export C');
  await clean(page);
});

test('phone-sized screen: the product controls fit and work', async () => {
  const page = await open(hashOf('channel', exampleState), { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `no horizontal page scroll (${overflow}px)`);
  await page.locator('[data-testid="export-results"] summary').tap();
  await page.locator('#channel').screenshot({ path: `${(await import('./harness.mjs')).SCREENSHOTS}/product-phone.png` });
  await clean(page);
});

// The start-up order: the first section's numbers come before the other sections' modules are
// requested and built (they mount once it has shown them); a page opened on another section
// builds them all.
// Times are read in the page (a MutationObserver), so only their order is compared.
test('start-up: the sections below the first mount after its first numbers; a page opened on #compare builds them all', async () => {
  const watch = () => {
    window.__seen = {};
    new MutationObserver(() => {
      const t = performance.now();
      if (!window.__seen.first && document.querySelector('#channel output.value[data-value]')) window.__seen.first = t;
      for (const id of ['mechanism', 'geo', 'compare', 'infopriv']) {
        if (!window.__seen[id] && document.getElementById(`${id}-title`)) window.__seen[id] = t;
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  };
  const page = await h.newPage();
  await page.addInitScript(watch);
  await page.goto(h.url);
  await page.waitForFunction(() => document.documentElement.dataset.product === 'ready', null, { timeout: 30000 });
  const seen = await page.evaluate(() => window.__seen);
  // Not even their modules are requested before the first number is on screen.
  const requested = await page.evaluate(() => Object.fromEntries(['mechanism', 'geo', 'compare', 'infopriv'].map((id) => [id, performance.getEntriesByType('resource').find((e) => e.name.endsWith(`/sections/${id}/view.js`))?.startTime])));
  for (const id of ['mechanism', 'geo', 'compare', 'infopriv']) {
    assert.ok(seen.first < requested[id], `sections/${id}/view.js requested after the first number (${requested[id]} vs ${seen.first} ms)`);
    assert.ok(seen.first < seen[id], `${id} mounted after the first number (${seen[id]} vs ${seen.first} ms)`);
  }
  assert.deepEqual(h.errors(page), []);
  await page.context().close();

  const deep = await h.newPage();
  await deep.addInitScript(watch);
  await deep.goto(`${h.url}#compare`);
  await deep.waitForFunction(() => document.documentElement.dataset.product === 'ready', null, { timeout: 30000 });
  const seen2 = await deep.evaluate(() => window.__seen);
  for (const id of ['mechanism', 'geo', 'compare', 'infopriv']) assert.ok(seen2[id] > 0, `opened on #compare: ${id} built`);
  assert.deepEqual(h.errors(deep), []);
  await deep.context().close();
});
