// Release and provenance: scripts/release.sh builds the npm tarball, the single file and the
// documentation archive from the outputs of scripts/build.sh and checks that they carry one
// version; the check must fail when one artifact disagrees. The license, the citation file and
// the changelog state what they must.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, readdirSync, existsSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'web/package.json'), 'utf8')).version;
let scratch;
let out;
let release;

before(() => {
  assert.ok(existsSync(join(root, 'dist/qif-toolkit.html')), 'dist/qif-toolkit.html exists (run scripts/build.sh first)');
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'qif-release-test-')));
  out = join(scratch, 'release');
  release = spawnSync('bash', [join(root, 'scripts/release.sh')], {
    cwd: root, encoding: 'utf8', timeout: 120_000, env: { ...process.env, SKIP_BUILD: '1', RELEASE_DIR: out },
  });
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('release.sh builds the three artifacts and finds one version in all of them', () => {
  assert.equal(release.status, 0, `${release.stderr}\n${release.stdout}`);
  assert.equal(release.stdout.trim().split('\n').pop(), out, 'the last line is the folder of the artifacts');
  assert.deepEqual(readdirSync(out).sort(), [`qif-toolkit-${version}.html`, `qif-toolkit-${version}.tgz`, `qif-toolkit-docs-${version}.tar.gz`]);
  for (const what of ['npm qif.version', 'single file qif.version', 'documentation pages', 'CITATION.cff']) {
    assert.match(release.stderr, new RegExp(`${what.replace(/[.()]/g, '\\$&')}.*: ${version.replace(/\./g, '\\.')}`), what);
  }
  const docs = spawnSync('tar', ['-tzf', join(out, `qif-toolkit-docs-${version}.tar.gz`)], { encoding: 'utf8' }).stdout.split('\n');
  for (const f of ['index.html', 'docs/index.html', 'docs/mathematics.html', 'docs/math.css', 'style.css', 'docs.css', 'vendor/katex/katex.min.css', 'THIRD_PARTY_NOTICES.txt', 'LICENSE']) {
    assert.ok(docs.includes(`qif-toolkit-docs-${version}/${f}`), `the documentation archive has ${f}`);
  }
  assert.ok(docs.some((f) => /vendor\/katex\/fonts\/KaTeX_Main-Regular\.woff2$/.test(f)), 'with the fonts its formulas use');
});

test('the check fails when an artifact carries another version', () => {
  const check = (dir, v) => spawnSync(process.execPath, [join(root, 'scripts/release-check.mjs'), dir, v], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  // A single file whose footer says another version.
  const html = join(out, `qif-toolkit-${version}.html`);
  const text = readFileSync(html, 'utf8');
  writeFileSync(html, text.replaceAll(`data-qif-version="${version}"`, 'data-qif-version="0.0.0-stale"'));
  const r = check(out, version);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /single file footer is "0\.0\.0-stale", expected /);
  assert.doesNotMatch(r.stderr, /npm/, 'only the altered artifact is reported');
  writeFileSync(html, text);
  // Artifacts of this version checked against another: every one disagrees, or is missing.
  const r2 = check(out, '9.9.9');
  assert.equal(r2.status, 1);
  for (const what of ['qif-toolkit-9.9.9.tgz is missing', 'CHANGELOG.md has no section "## 9.9.9"', 'CITATION.cff is "']) assert.ok(r2.stderr.includes(what), what);
});

test('LICENSE is MIT and web/package.json names the license, the repository and the home page', () => {
  const license = readFileSync(join(root, 'LICENSE'), 'utf8');
  assert.match(license, /^MIT License\n\nCopyright \(c\) \d{4} /);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS"/);
  const pkg = JSON.parse(readFileSync(join(root, 'web/package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT');
  const gomod = readFileSync(join(root, 'go.mod'), 'utf8');
  const module = /^module (\S+)/m.exec(gomod)[1];
  assert.equal(pkg.repository.url, `git+https://${module}.git`, 'the repository of go.mod\'s module path');
  assert.ok(pkg.homepage.startsWith(`https://${module}`));
  for (const f of ['LICENSE', 'THIRD_PARTY_NOTICES.txt']) assert.ok(pkg.files.includes(f), `files lists ${f}`);
});

// The keys and reference types of the Citation File Format 1.2.0 that this file may use.
const CFF_KEYS = new Set(['abstract', 'authors', 'cff-version', 'commit', 'contact', 'date-released', 'doi', 'identifiers', 'keywords',
  'license', 'license-url', 'message', 'preferred-citation', 'references', 'repository', 'repository-artifact', 'repository-code', 'title',
  'type', 'url', 'version']);
const CFF_REFERENCE_TYPES = new Set(['article', 'book', 'conference', 'conference-paper', 'generic', 'manual', 'proceedings', 'report',
  'software', 'thesis', 'unpublished', 'website']);

test('CITATION.cff is valid CFF 1.2.0 and cites this version', () => {
  const cff = parse(readFileSync(join(root, 'CITATION.cff'), 'utf8'));
  assert.equal(cff['cff-version'], '1.2.0');
  for (const k of Object.keys(cff)) assert.ok(CFF_KEYS.has(k), `key ${k}`);
  for (const k of ['message', 'title', 'version', 'license', 'repository-code']) assert.equal(typeof cff[k], 'string', k);
  assert.equal(cff.type, 'software');
  assert.equal(cff.version, version);
  assert.equal(cff.license, 'MIT');
  assert.match(cff['repository-code'], /^https:\/\//);
  const person = (a) => (typeof a.name === 'string' && a.name) || (typeof a['family-names'] === 'string' && a['family-names']);
  assert.ok(Array.isArray(cff.authors) && cff.authors.length > 0 && cff.authors.every(person), 'authors: persons or entities');
  assert.ok(Array.isArray(cff.references) && cff.references.length >= 5);
  for (const r of cff.references) {
    assert.ok(CFF_REFERENCE_TYPES.has(r.type), `reference type ${r.type}`);
    assert.equal(typeof r.title, 'string');
    assert.ok(Array.isArray(r.authors) && r.authors.length > 0 && r.authors.every(person), `authors of ${r.title}`);
    assert.ok(Number.isInteger(r.year), `year of ${r.title}`);
    if (r.publisher) assert.equal(typeof r.publisher.name, 'string', 'publisher is an entity');
  }
});

test('CHANGELOG.md has a section for this version', () => {
  const log = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  assert.match(log, new RegExp(`^## ${version.replace(/\./g, '\\.')}\\b`, 'm'));
});
