// Nothing in the repository may point outside it: a clone must make sense on its own. Every
// tracked file (git ls-files) is searched for references to material the repository does not
// have — a sibling folder of specifications, numbered papers, issue numbers of a tracker — which
// must be replaced by a citation of the paper (authors, year, section) or a pointer into docs/.
// The patterns are assembled from pieces so that this file does not match itself.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const seed = '(?<![.\d])00[0-4]';
const cite = ['§', 'Table', 'Tables', 'Thm', 'Theorem', 'Theorems', 'Prop', 'Proposition', 'Def', 'Defs', 'Definition', 'Definitions',
  'Figure', 'Fig', 'Example', 'Examples', 'Lemma', 'Corollary', 'Cor', 'Section', 'Sec', 'Remark', 'eq', 'equation', 'strictness'].join('|');

export const FORBIDDEN = [
  { what: 'a sibling folder outside the repository', re: new RegExp(`\\.\\./${'sha'}red\\b`) },
  { what: 'the specification of the project', re: new RegExp(`\\b${'SP'}EC\\b`) },
  { what: 'an issue number', re: new RegExp(`\\b${'iss'}ue\\s*#?\\d+\\b`, 'i') },
  { what: 'a document of the project kept outside the repository', re: new RegExp(`\\b(?:${'AP'}I|${'DES'}IGN)\\.md\\b`) },
  { what: 'the folder of the papers', re: new RegExp(`\\b${'see'}ds/`) },
  { what: 'a paper file name', re: new RegExp(`\\b${seed}_[0-9a-f]{8,}`) },
  { what: 'a paper by its number', re: new RegExp(`\\b${seed},?\\s*(?:${cite})\\b|\\b${seed}\\s*§|(?<!\\\\)[(;]\\s*${seed}\\s*(?:[),.;]|$)|,\\s*${seed}\\s*\\)|^\\s*(?://|\\*|#)\\s*${seed}\\s*[).,]|\\b(?:${'pa'}per|papers|of|from|in|see)\\s+${seed}\\b|\\b${seed}['’]s\\b`) },
];

/** Every match of the forbidden patterns in the tracked text files: "file:line: text". */
export function forbiddenReferences(files, read) {
  const hits = [];
  for (const f of files) {
    let text;
    try {
      text = read(f);
    } catch {
      continue; // listed but absent (a deleted file not yet committed)
    }
    if (text.includes('\0')) continue; // binary
    text.split('\n').forEach((line, i) => {
      for (const { what, re } of FORBIDDEN) {
        if (re.test(line)) hits.push(`${f}:${i + 1}: ${what}: ${line.trim().slice(0, 140)}`);
      }
    });
  }
  return hits;
}

test('the patterns find what they must and leave data alone', () => {
  const find = (line) => forbiddenReferences(['x'], () => line).length > 0;
  for (const bad of [`see ../${'sha'}red/${'AP'}I.md`, `the ${'SP'}EC §3 bound`, `(${'iss'}ue 4)`, `${'Iss'}ue #12`, `${'see'}ds/README.md`,
    `${'00'}3_c037cdbc2865e6d3.txt`, `${'00'}0 §6`, `${'00'}3 Table 2(b)`, `${'00'}1 Figure 3`, `${'00'}2 Thm 3.1`, `${'00'}4 Prop. 1`,
    `${'00'}3, Example 4`, `(${'00'}3)`, `paper ${'00'}0`, `channels of ${'00'}2`, `${'00'}1's pairs`, `(${'00'}0 eq. 4)`,
    `(${'00'}2 Defs. 7–9)`, `(x, ${'00'}4)`, `the mechanism (${'00'}1`, `(${'00'}1 strictness)`, `// ${'00'}4). ε is in nats`]) {
    assert.ok(find(bad), bad);
  }
  for (const fine of ['000,0.5,0.5,0,0', "secrets: ['000', '001', '010']", 'Alvim et al. (ICALP 2011) §6', 'x = 0.001 § y',
    '/C\\(000, \\(Fail,1\\)\\): not a number/', "['1', '0'], // 000", 'each tuple 000, 001, …, 111', '10 000 iterations',
    'tissue 4', 'SPECTRUM', 'Table 1 of Alvim et al.', 'docs/mathematics.md#refinement']) {
    assert.ok(!find(fine), fine);
  }
});

test('no tracked file points outside the repository', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  assert.ok(files.length > 100, `${files.length} tracked files`);
  const hits = forbiddenReferences(files, (f) => readFileSync(path.join(root, f), 'utf8'));
  assert.deepEqual(hits, [], `${hits.length} references to material outside the repository`);
});
