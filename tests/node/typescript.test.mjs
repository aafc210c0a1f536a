// web/qif.d.ts compiled by TypeScript in strict mode, with a usage file (tests/types/usage.ts)
// written as a user writes against the API: a declaration that does not compile, or that no
// longer accepts the usual calls, fails here. A file with a deliberate type error must be
// refused, so that this test cannot pass by not checking anything.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const flags = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--lib', 'es2022,dom'];

function compile(...files) {
  return spawnSync(process.execPath, [tsc, ...flags, ...files], { cwd: root, encoding: 'utf8' });
}

test('qif.d.ts and the usage file compile with tsc --strict', () => {
  const r = compile('web/qif.d.ts', 'tests/types/usage.ts');
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('a call against the declarations with a wrong argument type is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qif-tsc-'));
  try {
    const file = join(dir, 'wrong.ts');
    const web = join(root, 'web', 'qif.js').replace(/\\/g, '/');
    writeFileSync(file, `import { load } from '${web}';\nconst q = await load();\nconst n: string = q.measure.shannonEntropy([0.5, 0.5]);\nexport { n };\n`);
    const r = compile(file);
    assert.notEqual(r.status, 0, 'tsc accepted a number assigned to a string');
    assert.match(r.stdout, /TS2322/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
