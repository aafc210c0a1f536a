// The source links of the page (web/lib/formulas.js): refHref's addressing rule and sourceParts'
// cutting of a card's source line, against hand-written expectations, and every source line and
// formula reference the page uses against the anchors the rendered documentation really has
// (scripts/docs.mjs renders docs/references.md and docs/mathematics.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { refHref, sourceParts, MATHEMATICS, PAPERS } from '../../web/lib/formulas.js';
import { FORMULAS, GROUPS } from '../../web/lib/measures.js';
import { presets } from '../../web/lib/presets.js';
import { renderSite } from '../../scripts/docs.mjs';

const web = new URL('../../web/', import.meta.url);
const { pages } = await renderSite();
const anchorsOf = (href) => {
  const [file, id] = href.split('#');
  const page = /^docs\/(.+)\.html$/.exec(file)?.[1];
  return { page, id, exists: pages.has(page) && (!id || pages.get(page).ids.has(id)) };
};

test('refHref: a section of a paper, the paper alone, a section of the mathematics, or nothing', () => {
  assert.equal(refHref('Alvim et al. (FOSAD 2011) §3.2'), 'docs/references.html#fosad2011-3.2');
  assert.equal(refHref('Chatzikokolakis et al. (CSF 2019) §6.4, Figure 3'), 'docs/references.html#csf2019-6.4');
  assert.equal(refHref('Chatzikokolakis et al. (CSF 2019) §3–5'), 'docs/references.html#csf2019-3'); // a range links its first section
  assert.equal(refHref('Vadhan (2013)'), 'docs/references.html#vadhan2013');
  assert.equal(refHref('Wu (2019) §3.2, Theorem 3.1'), 'docs/references.html#wu2019-3.2');
  assert.equal(refHref('Mathematics §2.5'), 'docs/mathematics.html#guessing-entropy');
  assert.equal(refHref('Mathematics §10'), 'docs/mathematics.html#location-privacy');
  assert.equal(refHref('Mathematics §99'), null, 'an unknown section links nowhere rather than to a wrong place');
  assert.equal(refHref('Table 3'), null);
  assert.equal(refHref('Smith (2009)'), null, 'only the papers the references list');
  assert.equal(refHref(''), null);
});

test('sourceParts: citations get a link, a bare § continues the last paper, the rest stays text', () => {
  assert.deepEqual(sourceParts('Alvim et al. (ICALP 2011) §6 · Chatzikokolakis et al. (CSF 2019) §6.1'), [
    { text: 'Alvim et al. (ICALP 2011) §6', href: 'docs/references.html#icalp2011-6' },
    { text: ' · ', href: null },
    { text: 'Chatzikokolakis et al. (CSF 2019) §6.1', href: 'docs/references.html#csf2019-6.1' },
  ]);
  assert.deepEqual(sourceParts('Alvim et al. (FOSAD 2011) §2.1, §3.1').map((p) => p.href),
    ['docs/references.html#fosad2011-2.1', null, 'docs/references.html#fosad2011-3.1']);
  assert.deepEqual(sourceParts('§3.1').map((p) => p.href), [null], 'no paper before it');
  const line = 'Chatzikokolakis et al. (CSF 2019) §3–5, Table 3';
  assert.deepEqual(sourceParts(line).map((p) => p.href), ['docs/references.html#csf2019-3', null, null]);
  assert.equal(sourceParts(line).map((p) => p.text).join(''), line, 'nothing of the text is lost');
  assert.deepEqual(sourceParts(''), []);
});

test('the section numbers of MATHEMATICS are those of the rendered mathematics, with their anchors', () => {
  const headings = new Map(pages.get('mathematics').headings.map((h) => [h.id, h.text]));
  for (const [num, id] of Object.entries(MATHEMATICS)) {
    assert.ok(headings.has(id), `#${id} exists`);
    assert.ok(headings.get(id).startsWith(`${num}. `) || headings.get(id).startsWith(`${num} `), `§${num} is "${headings.get(id)}"`);
  }
  const numbered = [...headings.values()].filter((t) => /^\d+(\.\d+)?\.? /.test(t)).length;
  assert.equal(Object.keys(MATHEMATICS).length, numbered, 'every numbered section is listed');
  for (const [, key] of PAPERS) assert.ok(pages.get('references').ids.has(key), `references #${key}`);
});

test('every source line of the page and the widgets and every formula reference lands on an anchor', () => {
  const lines = [];
  const dir = new URL('sections/', web);
  // The sections' modules, in sections/ and its subfolders (one per section).
  for (const f of readdirSync(dir, { recursive: true }).filter((n) => n.endsWith('.js'))) {
    for (const m of readFileSync(new URL(f, dir), 'utf8').matchAll(/sourceRefs\('([^']+)'\)/g)) lines.push(m[1]);
  }
  for (const m of readFileSync(new URL('widgets.js', web), 'utf8').matchAll(/this\.source = '([^']+)'/g)) lines.push(m[1]);
  for (const g of GROUPS) lines.push(g.source);
  for (const p of presets) lines.push(p.source);
  assert.ok(lines.length >= 20, `${lines.length} source lines found`);
  for (const line of lines) {
    const hrefs = sourceParts(line).map((p) => p.href).filter(Boolean);
    assert.ok(hrefs.length > 0, `"${line}" links somewhere`);
    for (const href of hrefs) assert.ok(anchorsOf(href).exists, `${href} (from "${line}")`);
  }
  for (const [key, def] of Object.entries(FORMULAS)) {
    const href = refHref(def.ref);
    assert.ok(href && anchorsOf(href).exists, `${key}: ${def.ref}`);
  }
});
