#!/usr/bin/env node
// notices.mjs — writes web/THIRD_PARTY_NOTICES.txt: the toolkit's own license followed by the
// license of every third-party component that the page, the npm package or the single file
// ships. scripts/build.sh runs it after building the wasm; the page's footer links to the file,
// scripts/pack.sh puts it in the npm package and scripts/singlefile.mjs embeds it.
//
// The list is not written by hand, so that it cannot fall behind the dependencies:
//   - the Go modules compiled into qif.wasm, qif-more.wasm and qif-exact.wasm are those of `go list -deps` for
//     GOOS=js GOARCH=wasm ./wasm and ./wasm/exact (each module's LICENSE and, when it has one, its
//     THIRD_PARTY_LICENSES folder);
//   - Go itself (runtime and standard library in both modules, and wasm_exec.js): $GOROOT/LICENSE;
//   - the npm packages copied into web/vendor/ by scripts/build.sh, and esbuild, whose helper
//     functions (its module wrappers) are part of the bundles it writes (the single file, the
//     widget bundles): their LICENSE in node_modules.
// A module or package without a license file stops the build.

import { readFile, readdir, writeFile, stat } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'web', 'THIRD_PARTY_NOTICES.txt');
const MODULE = 'github.com/qif-toolkit/qif';

/** The npm packages whose files web/vendor/ holds (see scripts/build.sh) or the bundles carry, and what they are for. */
export const VENDORED_NPM = [
  { name: 'katex', shipped: 'web/vendor/katex (script, stylesheet and fonts): formulas on the page and in the documentation' },
  { name: 'esbuild', shipped: 'its helper functions (module wrappers) in the single-file page and the widget bundles, which it bundles' },
];

function go(args, env = {}) {
  return execFileSync('go', args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
}

async function exists(p) {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

async function licenseFile(dir, what) {
  for (const name of ['LICENSE', 'LICENSE.txt', 'LICENSE.md', 'COPYING']) {
    if (await exists(path.join(dir, name))) return path.join(dir, name);
  }
  throw new Error(`${what}: no license file in ${dir}`);
}

/** The WebAssembly modules: the file and the Go package of its entry point. */
const WASM = [['qif.wasm', './wasm'], ['qif-more.wasm', './wasm/more'], ['qif-exact.wasm', './wasm/exact']];

/** The Go modules (other than this one) compiled into the wasm files, with path, version, dir and files. */
export function wasmModules() {
  const seen = new Map();
  for (const [file, pkg] of WASM) {
    const lines = go(['list', '-deps', '-f', '{{with .Module}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}', pkg], { GOOS: 'js', GOARCH: 'wasm' });
    for (const line of lines.split('\n')) {
      const [p, version, dir] = line.split('\t');
      if (!p || p === MODULE) continue;
      if (!seen.has(p)) seen.set(p, { path: p, version, dir, files: [] });
      if (!seen.get(p).files.includes(file)) seen.get(p).files.push(file);
    }
  }
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** The components and their license texts, in the order the file lists them. */
export async function components() {
  const out = [];
  const goroot = go(['env', 'GOROOT']).trim();
  const goVersion = go(['env', 'GOVERSION']).trim();
  out.push({
    name: `The Go programming language (${goVersion})`,
    license: 'BSD-3-Clause',
    shipped: `the runtime and standard library compiled into ${WASM.map(([f]) => f).join(' and ')}; wasm_exec.js`,
    texts: [{ title: 'LICENSE', text: await readFile(await licenseFile(goroot, 'Go'), 'utf8') }],
  });
  for (const m of wasmModules()) {
    const texts = [{ title: 'LICENSE', text: await readFile(await licenseFile(m.dir, m.path), 'utf8') }];
    const extra = path.join(m.dir, 'THIRD_PARTY_LICENSES');
    if (await exists(extra)) {
      for (const f of (await readdir(extra)).sort()) {
        texts.push({ title: `THIRD_PARTY_LICENSES/${f}`, text: await readFile(path.join(extra, f), 'utf8') });
      }
    }
    out.push({ name: `${m.path} ${m.version}`, license: spdx(texts[0].text), shipped: `compiled into ${m.files.join(' and ')}`, texts });
  }
  for (const p of VENDORED_NPM) {
    const dir = path.join(ROOT, 'node_modules', p.name);
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    out.push({
      name: `${p.name} ${pkg.version}`,
      license: pkg.license,
      shipped: p.shipped,
      texts: [{ title: 'LICENSE', text: await readFile(await licenseFile(dir, p.name), 'utf8') }],
    });
  }
  return out;
}

/** The SPDX name of the common license texts this file meets (for the summary only). */
function spdx(text) {
  if (/Redistribution and use in source and binary forms/.test(text) && /Neither the name/.test(text)) return 'BSD-3-Clause';
  if (/Permission is hereby granted, free of charge/.test(text)) return 'MIT';
  if (/Apache License/.test(text)) return 'Apache-2.0';
  return 'see the text below';
}

export async function notices(version) {
  const own = await readFile(path.join(ROOT, 'LICENSE'), 'utf8');
  const list = await components();
  const rule = '='.repeat(78);
  const parts = [
    `QIF Toolkit ${version} — license and third-party notices`,
    '',
    'The QIF Toolkit is distributed under the MIT License:',
    '',
    own.trimEnd(),
    '',
    'It includes the following third-party software, each under its own license:',
    '',
    ...list.map((c, i) => `  ${i + 1}. ${c.name} — ${c.license}\n     shipped as: ${c.shipped}`),
  ];
  list.forEach((c, i) => {
    for (const t of c.texts) parts.push('', rule, `${i + 1}. ${c.name} — ${t.title}`, rule, '', t.text.trimEnd());
  });
  return `${parts.join('\n')}\n`;
}

async function main() {
  const pkg = JSON.parse(await readFile(path.join(ROOT, 'web', 'package.json'), 'utf8'));
  const text = await notices(pkg.version);
  await writeFile(OUT, text);
  console.log(`built ${path.relative(ROOT, OUT)}: ${text.length} bytes`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`notices: ${e.message}`);
    process.exit(1);
  });
}
