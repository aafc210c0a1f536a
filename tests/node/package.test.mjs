// The npm package: scripts/pack.sh builds it from web/ (after scripts/build.sh), the tarball is
// installed into a scratch project with npm (offline: the package has no dependencies), and a
// script in that project imports it by name — so what is tested is what a user installs, resolved
// through the manifest's "exports", not the files of the repository.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, existsSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'web/package.json'), 'utf8'));
const name = manifest.name;

let scratch; // temporary folder: pkg/ (pack output) and app/ (the consumer project)
let tgz;
let app;

function run(cmd, args, opts) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000, ...opts });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} exited with ${r.status}:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

before(() => {
  assert.ok(existsSync(join(root, 'web/qif.wasm')), 'web/qif.wasm exists (run scripts/build.sh first)');
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'qif-package-')));
  const out = run('bash', [join(root, 'scripts/pack.sh')], {
    cwd: root, env: { ...process.env, PACK_DIR: join(scratch, 'pkg') },
  });
  tgz = out.trim().split('\n').pop();
  app = join(scratch, 'app');
  run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'qif-package-test', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', tgz], {
    cwd: app, env: { ...process.env, npm_config_update_notifier: 'false' },
  });
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('pack.sh prints the path of a tarball holding only the package files', () => {
  assert.ok(tgz.endsWith(`${name}-${manifest.version}.tgz`), `tarball name: ${tgz}`);
  assert.ok(existsSync(tgz));
  const files = run('tar', ['tzf', tgz]).trim().split('\n').map((f) => f.replace(/^package\//, '')).sort();
  assert.deepEqual(files, ['LICENSE', 'README.md', 'THIRD_PARTY_NOTICES.txt', 'api.gen.js', 'input/samples.js', 'package.json', 'qif-exact.wasm', 'qif-more.wasm', 'qif.d.ts', 'qif.gen.js', 'qif.js', 'qif.wasm', 'wasm_exec.js']);
});

test('the package carries its license and the notices of what it ships', () => {
  const dir = join(app, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT');
  assert.match(pkg.repository.url, /^git\+https:\/\/github\.com\/qif-toolkit\/qif\.git$/);
  assert.match(pkg.homepage, /^https:\/\//);
  const license = readFileSync(join(dir, 'LICENSE'), 'utf8');
  assert.equal(license, readFileSync(join(root, 'LICENSE'), 'utf8'), 'the repository LICENSE');
  assert.match(license, /^MIT License/);
  const notices = readFileSync(join(dir, 'THIRD_PARTY_NOTICES.txt'), 'utf8');
  assert.ok(notices.includes(license.trimEnd()), 'the notices start with the toolkit license');
  // qif.wasm holds Go's runtime and gonum (BSD-3-Clause), wasm_exec.js is Go's: each with its text.
  assert.match(notices, /The Go programming language \(go[\d.]+\) — BSD-3-Clause/);
  assert.match(notices, /gonum\.org\/v1\/gonum v[\d.]+ — BSD-3-Clause/);
  assert.match(notices, /Copyright (?:\(c\) )?2009 The Go Authors/);
  assert.match(notices, /Copyright ©2013 The Gonum Authors/);
  assert.match(notices, /Neither the name of/);
  assert.match(notices, new RegExp(`^QIF Toolkit ${manifest.version.replace(/\./g, '\\.')} `));
});

test('the manifest: ESM, exports with types first, files present, no dependencies', () => {
  const dir = join(app, 'node_modules', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.engines.node, '>=20');
  assert.equal(pkg.sideEffects, false);
  assert.equal(pkg.dependencies, undefined);
  const dot = pkg.exports['.'];
  assert.equal(Object.keys(dot)[0], 'types', 'the "types" condition comes first');
  assert.equal(dot.types, pkg.types);
  for (const target of [dot.types, dot.default, pkg.exports['./qif.wasm'], pkg.exports['./qif-exact.wasm'], pkg.exports['./qif-more.wasm'], pkg.types]) {
    assert.ok(existsSync(join(dir, target)), `${target} is in the installed package`);
  }
  for (const f of pkg.files) assert.ok(existsSync(join(dir, f)), `files: ${f} is installed`);
  assert.match(readFileSync(join(dir, dot.types), 'utf8'), /export function load\(options\?: LoadOptions\): Promise<QIF>;/);
});

test('import { load } from the installed package works in Node', () => {
  // Run from the scratch project so that the bare specifier resolves through its node_modules.
  const script = `
    import { load } from ${JSON.stringify(name)};
    const out = {};
    out.resolved = import.meta.resolve(${JSON.stringify(name)});
    out.wasm = import.meta.resolve(${JSON.stringify(name + '/qif.wasm')});
    const qif = await load();
    out.version = qif.version;
    out.namespaces = Object.keys(qif).filter((k) => k !== 'version').sort();
    out.h = qif.measure.shannonEntropy([0.5, 0.5]);
    const hy = qif.channel.hyper([0.5, 0.5], [[1, 0], [0.5, 0.5]]);
    out.hyper = { outerIsF64: hy.outer instanceof Float64Array, outer: Array.from(hy.outer),
      rows: hy.inners.rows, cols: hy.inners.cols, inners: Array.from(hy.inners.data) };
    try { qif.channel.validate([[0.5, 0.4]]); out.error = null; } catch (e) { out.error = e.message; }
    out.afterError = qif.measure.shannonEntropy([0.25, 0.25, 0.25, 0.25]);
    await qif.exact.load();                                    // qif-exact.wasm beside qif.js
    out.exact = qif.exact.mechanism.optimal({ graph: qif.graph.clique(6), expEpsilon: 2 }).utility;
    const qif2 = await load({ wasmURL: new URL(out.wasm) });   // the bundler/notebook path
    out.h2 = qif2.measure.minEntropy([0.5, 0.25, 0.25]);
    // The CDN path: qif.wasm fetched over HTTP (streaming compilation with application/wasm).
    const { createServer } = await import('node:http');
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(new URL(out.wasm));
    const exactBytes = await readFile(new URL(import.meta.resolve(${JSON.stringify(name + '/qif-exact.wasm')})));
    const moreBytes = await readFile(new URL(import.meta.resolve(${JSON.stringify(name + '/qif-more.wasm')})));
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(req.url.endsWith('/qif-exact.wasm') ? exactBytes : req.url.endsWith('/qif-more.wasm') ? moreBytes : bytes);
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    try {
      const qif3 = await load({ wasmURL: 'http://127.0.0.1:' + server.address().port + '/assets/qif.wasm', exact: true });
      out.h3 = qif3.measure.guessingEntropy([0.25, 0.25, 0.25, 0.25]);
      out.exact3 = qif3.exact.measure.guessingEntropy(['1/2', '1/4', '1/4']);   // qif-exact.wasm beside it
      out.more3 = qif3.mechanism.randomizedResponse(2, Math.log(3)).data[0];    // qif-more.wasm beside it
    } finally {
      server.close();
    }
    process.stdout.write(JSON.stringify(out));
  `;
  writeFileSync(join(app, 'check.mjs'), script);
  const out = JSON.parse(run(process.execPath, ['check.mjs'], { cwd: app }));

  const installed = join(app, 'node_modules', name);
  assert.equal(fileURLToPath(out.resolved), join(installed, 'qif.js'), 'resolved inside the scratch project');
  assert.equal(fileURLToPath(out.wasm), join(installed, 'qif.wasm'));
  assert.equal(out.version, manifest.version, 'qif.version matches the manifest');
  for (const ns of ['channel', 'graph', 'infoPrivacy', 'measure', 'mechanism', 'privacy']) {
    assert.ok(out.namespaces.includes(ns), `qif.${ns} is exported`);
  }
  assert.equal(out.h, 1);
  assert.equal(out.exact, '2/7', 'qif.exact from the installed package');
  assert.equal(out.exact3, '7/4', 'qif-exact.wasm over HTTP, beside qif.wasm');
  assert.ok(Math.abs(out.more3 - 3 / 4) < 1e-12, 'qif-more.wasm over HTTP, beside qif.wasm: randomized response on 2 inputs at ln 3 is truthful with e^ε/(e^ε + 1)');
  // π = (½, ½), C = [[1, 0], [½, ½]]: p(y0) = ¾ with posterior (⅔, ⅓); p(y1) = ¼ with posterior (0, 1).
  assert.ok(out.hyper.outerIsF64);
  assert.equal(out.hyper.rows, 2);
  assert.equal(out.hyper.cols, 2);
  const inners = [out.hyper.inners.slice(0, 2), out.hyper.inners.slice(2, 4)];
  const pairs = out.hyper.outer.map((p, k) => [p, inners[k]]).sort((a, b) => b[0] - a[0]);
  const want = [[3 / 4, [2 / 3, 1 / 3]], [1 / 4, [0, 1]]];
  for (let k = 0; k < 2; k++) {
    assert.ok(Math.abs(pairs[k][0] - want[k][0]) < 1e-12, `outer ${pairs[k][0]} vs ${want[k][0]}`);
    for (let x = 0; x < 2; x++) assert.ok(Math.abs(pairs[k][1][x] - want[k][1][x]) < 1e-12, `inner ${k}[${x}]`);
  }
  assert.match(out.error, /^channel\.validate: channel: row 0 sums to 0\.9/);
  assert.equal(out.afterError, 2);
  assert.equal(out.h2, 1, 'load({wasmURL}) with the exported qif.wasm URL');
  assert.equal(out.h3, 2.5, 'load({wasmURL}) over HTTP');
});
