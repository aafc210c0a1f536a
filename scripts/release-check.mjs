#!/usr/bin/env node
// release-check.mjs — checks that the artifacts of a release carry one version.
//
//   node scripts/release-check.mjs <folder> [version]     (scripts/release.sh runs it)
//
// <folder> holds qif-toolkit-<v>.tgz, qif-toolkit-<v>.html and qif-toolkit-docs-<v>.tar.gz; the
// expected version defaults to web/package.json's. What is compared:
//   - the npm package: its package.json, the qif.version of its own module (loaded through its
//     own qif.js), the first line of its THIRD_PARTY_NOTICES.txt, and that LICENSE is inside;
//   - the single file: the qif.version of the module it embeds (inflated and loaded), and the
//     version stamped in its footer;
//   - the documentation archive: the version in the footer of every page, the notices, and its
//     index.html (the single file);
//   - CHANGELOG.md has a section for the version, and CITATION.cff states it.
// Every disagreement is reported; the exit status is 1 when there is any.

import { readFile, readdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function listFiles(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...await listFiles(p));
    else out.push(p);
  }
  return out;
}

/**
 * The qif.version of a module file, loaded through the loader qifJS (a path); with the exact
 * module's file, both are loaded and must agree (load() throws otherwise).
 */
async function moduleVersion(qifJS, wasmFile, exactFile = null, moreFile = null) {
  const { load } = await import(pathToFileURL(qifJS).href);
  // Every module given is loaded, so that a mismatch between them is reported too.
  const options = { wasmURL: pathToFileURL(wasmFile), ...(moreFile ? { moreWasmURL: pathToFileURL(moreFile) } : { lazy: true }) };
  if (exactFile) Object.assign(options, { exact: true, exactWasmURL: pathToFileURL(exactFile) });
  try {
    return (await load(options)).version;
  } catch (e) {
    return e.message; // a mismatch names both versions
  }
}

/** The versions inside a single-file build: {footer: [...], module}. */
async function singleFileVersions(html, scratch, tag) {
  const footer = [...html.matchAll(/data-qif-version="([^"]*)"/g)].map((m) => m[1]);
  const bundle = /<script type="application\/json" id="qif-bundle">([\s\S]*?)<\/script>/.exec(html);
  if (!bundle) return { footer, module: null };
  const files = JSON.parse(bundle[1]).files;
  const wasm = path.join(scratch, `${tag}.wasm`);
  await writeFile(wasm, gunzipSync(Buffer.from(files['qif.wasm'].gzip, 'base64')));
  let exact = null, more = null;
  if (files['qif-more.wasm']) {
    more = path.join(scratch, `${tag}-more.wasm`);
    await writeFile(more, gunzipSync(Buffer.from(files['qif-more.wasm'].gzip, 'base64')));
  }
  if (files['qif-exact.wasm']) {
    exact = path.join(scratch, `${tag}-exact.wasm`);
    await writeFile(exact, gunzipSync(Buffer.from(files['qif-exact.wasm'].gzip, 'base64')));
  }
  return { footer, module: await moduleVersion(path.join(ROOT, 'web', 'qif.js'), wasm, exact, more) };
}

export async function check(dir, version) {
  const problems = [];
  const seen = [];
  const expect = (what, got) => {
    seen.push(`${what}: ${got}`);
    if (got !== version) problems.push(`${what} is ${JSON.stringify(got)}, expected ${version}`);
  };
  const scratch = await mkdtemp(path.join(tmpdir(), 'qif-release-'));
  try {
    const names = await readdir(dir);
    const need = (name) => {
      if (!names.includes(name)) problems.push(`${name} is missing in ${dir}`);
      return names.includes(name) ? path.join(dir, name) : null;
    };

    const tgz = need(`qif-toolkit-${version}.tgz`);
    if (tgz) {
      const x = path.join(scratch, 'npm');
      execFileSync('mkdir', ['-p', x]);
      execFileSync('tar', ['-xzf', tgz, '-C', x]);
      const pkg = path.join(x, 'package');
      expect('npm package.json', JSON.parse(await readFile(path.join(pkg, 'package.json'), 'utf8')).version);
      expect('npm qif.version', await moduleVersion(path.join(pkg, 'qif.js'), path.join(pkg, 'qif.wasm'), path.join(pkg, 'qif-exact.wasm'), path.join(pkg, 'qif-more.wasm')));
      const notices = await readFile(path.join(pkg, 'THIRD_PARTY_NOTICES.txt'), 'utf8').catch(() => '');
      expect('npm THIRD_PARTY_NOTICES.txt', /^QIF Toolkit (\S+)/.exec(notices)?.[1] ?? null);
      const license = await readFile(path.join(pkg, 'LICENSE'), 'utf8').catch(() => null);
      if (!license) problems.push('the npm package has no LICENSE');
    }

    const single = need(`qif-toolkit-${version}.html`);
    if (single) {
      const v = await singleFileVersions(await readFile(single, 'utf8'), scratch, 'single');
      expect('single file qif.version', v.module);
      if (v.footer.length === 0) problems.push('the single file has no version in its footer');
      for (const f of new Set(v.footer)) expect('single file footer', f);
    }

    const docs = need(`qif-toolkit-docs-${version}.tar.gz`);
    if (docs) {
      const x = path.join(scratch, 'docs');
      execFileSync('mkdir', ['-p', x]);
      execFileSync('tar', ['-xzf', docs, '-C', x]);
      const top = path.join(x, `qif-toolkit-docs-${version}`);
      const pages = (await listFiles(path.join(top, 'docs')).catch(() => [])).filter((f) => f.endsWith('.html'));
      if (pages.length === 0) problems.push('the documentation archive has no pages');
      const found = new Set();
      for (const p of pages) {
        const m = [...(await readFile(p, 'utf8')).matchAll(/data-qif-version="([^"]*)"/g)].map((k) => k[1]);
        if (m.length === 0) problems.push(`${path.relative(top, p)} has no version`);
        for (const v of m) found.add(v);
      }
      for (const v of found) expect(`documentation pages (${pages.length})`, v);
      const notices = await readFile(path.join(top, 'THIRD_PARTY_NOTICES.txt'), 'utf8').catch(() => '');
      expect('documentation THIRD_PARTY_NOTICES.txt', /^QIF Toolkit (\S+)/.exec(notices)?.[1] ?? null);
      const index = await readFile(path.join(top, 'index.html'), 'utf8').catch(() => null);
      if (index === null) problems.push('the documentation archive has no index.html');
      else expect('documentation index.html qif.version', (await singleFileVersions(index, scratch, 'docs-index')).module);
    }

    const changelog = await readFile(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    if (!new RegExp(`^## ${version.replace(/[.+-]/g, '\\$&')}\\b`, 'm').test(changelog)) problems.push(`CHANGELOG.md has no section "## ${version}"`);
    else seen.push(`CHANGELOG.md: ## ${version}`);
    const cff = await readFile(path.join(ROOT, 'CITATION.cff'), 'utf8');
    expect('CITATION.cff', /^version:\s*"?([^"\s]+)"?\s*$/m.exec(cff)?.[1] ?? null);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { problems, seen };
}

async function main() {
  const [dir, given] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/release-check.mjs <folder> [version]');
    process.exit(2);
  }
  const version = given ?? JSON.parse(await readFile(path.join(ROOT, 'web', 'package.json'), 'utf8')).version;
  const { problems, seen } = await check(path.resolve(dir), version);
  for (const s of seen) console.log(`  ${s}`);
  if (problems.length) {
    console.error(`release ${version}: the artifacts disagree:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`release ${version}: every artifact carries version ${version}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`release-check: ${e.message}`);
    process.exit(1);
  });
}
