// The paper links of the page (web/formulas.js): refHref's addressing rule and sourceParts'
// cutting of a card's source line, against hand-written expectations, and every source line
// and formula reference the page uses against the anchors web/references.html really has.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { refHref, sourceParts } from '../../web/formulas.js';
import { FORMULAS, GROUPS } from '../../web/measures.js';

const web = new URL('../../web/', import.meta.url);
const anchors = new Set([...readFileSync(new URL('references.html', web), 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));

test('refHref: a section of a paper, of the SPEC, a paper alone, or nothing', () => {
  assert.equal(refHref('003 §3.2'), 'references.html#p003-3.2');
  assert.equal(refHref('001 §6.4, Figure 3'), 'references.html#p001-6.4');
  assert.equal(refHref('001 §3–5'), 'references.html#p001-3'); // a range links its first section
  assert.equal(refHref('SPEC §1–2'), 'references.html#spec-1');
  assert.equal(refHref('004 Prop. 1'), 'references.html#p004');
  assert.equal(refHref('002 Thm 3.1'), 'references.html#p002');
  assert.equal(refHref('Table 3'), null);
  assert.equal(refHref('2004'), null); // four digits are not a paper number
  assert.equal(refHref(''), null);
});

test('sourceParts: papers and SPEC parts get a link, separators and the rest stay text', () => {
  assert.deepEqual(sourceParts('000 §6, 001 §6.1'), [
    { text: '000 §6', href: 'references.html#p000-6' },
    { text: ', ', href: null },
    { text: '001 §6.1', href: 'references.html#p001-6.1' },
  ]);
  assert.deepEqual(sourceParts('002 Thm 3.1 · 004'), [
    { text: '002 Thm 3.1', href: 'references.html#p002' },
    { text: ' · ', href: null },
    { text: '004', href: 'references.html#p004' },
  ]);
  assert.deepEqual(sourceParts('001 §3–5, Table 3').map((p) => p.href), ['references.html#p001-3', null, null]);
  assert.equal(sourceParts('001 §3–5, Table 3').map((p) => p.text).join(''), '001 §3–5, Table 3', 'nothing of the text is lost');
  assert.deepEqual(sourceParts(''), []);
});

test('every source line of the sections and every formula reference lands on references.html', () => {
  const dir = new URL('sections/', web);
  const lines = [];
  // The sections' modules, in sections/ and its subfolders (one per section).
  for (const f of readdirSync(dir, { recursive: true }).filter((n) => n.endsWith('.js'))) {
    for (const m of readFileSync(new URL(f, dir), 'utf8').matchAll(/sourceRefs\('([^']+)'\)/g)) lines.push(m[1]);
  }
  lines.push(...GROUPS.map((g) => g.source)); // the channel section's result groups
  assert.ok(lines.length >= 10, `${lines.length} source lines found`);
  for (const line of lines) {
    const hrefs = sourceParts(line).map((p) => p.href).filter(Boolean);
    assert.ok(hrefs.length > 0, `"${line}" links somewhere`);
    for (const href of hrefs) assert.ok(anchors.has(href.split('#')[1]), `${href} (from "${line}")`);
  }
  for (const [key, def] of Object.entries(FORMULAS)) {
    const href = refHref(def.ref);
    assert.ok(href && anchors.has(href.split('#')[1]), `${key}: ${def.ref}`);
  }
});
