// The documentation (docs/, rendered by scripts/docs.mjs): the renderer's rules (math without
// style attributes, stable anchors, links checked), the anchors code points to, the version in
// every page, and the examples of the guides run against the built module — every `js run`
// block executes, and a line ending in "// → value" must produce that value; the `go run`
// program of the Go guide must print its Output block. API names the docs mention must exist.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync, mkdirSync, existsSync, statSync, cpSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderSite, createMarkdown, classify, slug } from '../../scripts/docs.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const version = JSON.parse(readFileSync(path.join(root, 'web/package.json'), 'utf8')).version;

function markdownFiles(dir = path.join(root, 'docs'), prefix = '') {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...markdownFiles(path.join(dir, e.name), `${prefix}${e.name}/`));
    else if (e.name.endsWith('.md')) out.push(`${prefix}${e.name}`);
  }
  return out.sort();
}

/** The fenced blocks of a Markdown text whose info string is `lang run`. */
function runBlocks(text, lang) {
  const tokens = createMarkdown().parse(text, { where: 'test', styles: new Map(), ids: new Set(), headings: [], links: [], idOf: (x) => x, resolve: () => ({ url: '' }) });
  return tokens.filter((t) => t.type === 'fence' && t.info.trim() === `${lang} run`).map((t) => ({ code: t.content, line: t.map[0] + 1 }));
}

test('math renders at build time without style attributes (strict CSP), text dollars stay text', () => {
  const md = createMarkdown();
  const env = { where: 't', styles: new Map(), ids: new Set(), headings: [], links: [], idOf: (x) => x, resolve: (h) => ({ url: h }) };
  const html = md.render('Cost $5 and $6.\n\nInline $H(X) = -\\sum_x \\pi_x \\log_2 \\pi_x$ here.\n\n$$\n\\frac{1}{\\sum_d n_d e^{-\\varepsilon d}}\n$$\n', env);
  assert.match(html, /Cost \$5 and \$6\./);
  assert.equal((html.match(/class="katex"/g) ?? []).length, 2, 'one inline and one display formula');
  assert.match(html, /<div class="math-display"><span class="katex-display">/);
  assert.match(html, /<annotation encoding="application\/x-tex">H\(X\) = -\\sum_x/, 'MathML with the TeX source for screen readers');
  assert.doesNotMatch(html, /\sstyle="/);
  assert.ok(env.styles.size > 0, 'the sizes went into classes');
  assert.throws(() => md.render('$\\frac{1}$', { ...env }), /cannot typeset/);
});

test('classify moves style attributes into classes and keeps other attributes', () => {
  const styles = new Map();
  const out = classify('<span class="a" style="height:1em;">x</span><span style="top:-2em;" aria-hidden="true">y</span><b>z</b>', styles);
  assert.equal(styles.size, 2);
  const [c1, c2] = [...styles.values()];
  assert.equal(out, `<span class="a ${c1}">x</span><span aria-hidden="true" class="${c2}">y</span><b>z</b>`);
});

test('anchors: explicit {#id} on headings and list items, slugs otherwise; duplicates refused', () => {
  assert.equal(slug('2.1 Shannon entropy, mutual information'), '21-shannon-entropy-mutual-information');
  const md = createMarkdown();
  const env = { where: 't', styles: new Map(), ids: new Set(), headings: [], links: [], idOf: (x) => x, resolve: (h) => ({ url: h }) };
  const html = md.render('# Title {#top}\n\n## A section\n\n- item {#it}\n- other\n', env);
  assert.match(html, /<h1 id="top">Title<\/h1>/);
  assert.match(html, /<h2 id="a-section">A section<\/h2>/);
  assert.match(html, /<li id="it">item<\/li>/);
  assert.throws(() => md.render('## A {#x}\n\n## B {#x}\n', { ...env, ids: new Set(), headings: [] }), /duplicate id #x/);
});

test('links between pages are checked: a missing page or anchor fails the build', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'qif-docs-'));
  try {
    writeFileSync(path.join(dir, 'a.md'), '# A\n\nSee [b](b.md#there) and [api](api.md).\n');
    writeFileSync(path.join(dir, 'b.md'), '# B\n\n## There {#there}\n');
    writeFileSync(path.join(dir, 'api.md'), '# API\n');
    const ok = await renderSite({ docsDir: dir, version: '9.9.9' });
    assert.match(ok.pages.get('a').html, /href="b\.html#there"/);
    assert.match(ok.pages.get('a').document, /data-qif-version="9\.9\.9"/);
    const single = await renderSite({ docsDir: dir, mode: 'single', version: '9.9.9' });
    assert.match(single.pages.get('a').html, /href="#docs\/b~there"/);
    assert.match(single.pages.get('b').html, /id="docs\/b~there"/);
    writeFileSync(path.join(dir, 'b.md'), '# B\n\n## Elsewhere\n');
    await assert.rejects(renderSite({ docsDir: dir }), /docs\/a\.md: link to b\.md#there: docs\/b\.md has no anchor #there/);
    writeFileSync(path.join(dir, 'a.md'), '# A\n\n[c](c.md)\n');
    await assert.rejects(renderSite({ docsDir: dir }), /no page docs\/c\.md/);
    writeFileSync(path.join(dir, 'a.md'), '# A\n\n[src](../web/qif.js)\n');
    await assert.rejects(renderSite({ docsDir: dir }), /relative links must name a Markdown page/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the site renders: every page titled, the stable anchors of the mathematics present, the version stamped', async () => {
  const { pages } = await renderSite({ version });
  for (const f of markdownFiles()) assert.ok(pages.has(f.slice(0, -3)), `${f} is rendered`);
  for (const [page, p] of pages) {
    assert.ok(p.title, `${page} has a title`);
    assert.match(p.document, new RegExp(`data-qif-version="${version.replace(/\./g, '\\.')}"`), `${page} carries the version`);
    assert.doesNotMatch(p.document, /<script/i, `${page} has no script`);
    assert.doesNotMatch(p.html, /&lt;!--|<!--/, `${page} shows no HTML comment as text`);
    assert.match(p.document, /script-src 'none'/);
  }
  const math = pages.get('mathematics').ids;
  // Code comments, the page and the widgets point to these: they must not move.
  for (const id of ['conventions', 'entropies-and-leakage', 'shannon', 'min-entropy', 'bayes-vulnerability', 'g-vulnerability',
    'guessing-entropy', 'hyper-distributions', 'divergences', 'differential-privacy', 'epsilon-dp', 'epsilon-delta', 'd-privacy',
    'databases', 'bayesian-reading', 'graphs-and-bounds', 'graph-symmetries', 'utility-bound', 'leakage-bounds', 'optimal-mechanisms',
    'mechanism-families', 'utility', 'theorem-6-2', 'optimal-lp', 'reference-values', 'refinement', 'refinement-avg', 'refinement-max',
    'refinement-prv', 'lattices', 'refinement-families', 'information-privacy', 'records', 'individual-capacity', 'individual-epsilon',
    'privacy-channels', 'variances', 'metrics-and-capacities', 'exact-results', 'location-privacy', 'linear-programs', 'tolerances']) {
    assert.ok(math.has(id), `mathematics.md has #${id}`);
  }
  const refs = pages.get('references').ids;
  for (const id of ['icalp2011-6', 'fosad2011-3.2', 'csf2019-4.5', 'wu2019-3.2', 'vadhan2013-4', 'ccs2014', 'libqif']) assert.ok(refs.has(id), `references.md has #${id}`);
});

// ---------------------------------------------------------------- copy instructions

test('every copy instruction of the documentation gives files that work on their own', async () => {
  // A ```sh copy block is `cp <files of the repository> <folder>/`: the files are copied, as a
  // reader would, into an empty folder; where they include qif.js, it is imported from there and
  // must load (with the exact mode when its module is among them) and compute.
  const blocks = [];
  for (const f of markdownFiles()) {
    const text = readFileSync(path.join(root, 'docs', f), 'utf8');
    for (const m of text.matchAll(/^```sh copy\n([\s\S]*?)^```/gm)) blocks.push([f, m[1].trim()]);
  }
  assert.ok(blocks.some(([f]) => f === 'guides/page.md'), 'the page guide has its copy instruction');
  for (const [f, cmd] of blocks) {
    const words = cmd.split(/\s+/);
    assert.equal(words[0], 'cp', `${f}: ${cmd}`);
    const files = words.slice(1, -1).filter((w) => !w.startsWith('-')); // cp -r: folders too
    const dir = mkdtempSync(path.join(tmpdir(), 'qif-copy-'));
    try {
      for (const file of files) {
        assert.ok(existsSync(path.join(root, file)), `${f}: ${file} exists (after scripts/build.sh)`);
        if (statSync(path.join(root, file)).isDirectory()) cpSync(path.join(root, file), path.join(dir, path.basename(file)), { recursive: true });
        else writeFileSync(path.join(dir, path.basename(file)), readFileSync(path.join(root, file)));
      }
      if (files.some((x) => path.basename(x) === 'qif.js')) {
        const { load } = await import(pathToFileURL(path.join(dir, 'qif.js')).href);
        const exact = files.some((x) => path.basename(x) === 'qif-exact.wasm');
        const qif = await load({ exact });
        assert.equal(qif.measure.shannonEntropy([0.5, 0.25, 0.25]), 1.5, `${f}: the copied engine computes`);
        if (exact) assert.equal(qif.exact.measure.bayesVulnerability(['1/3', '2/3']), '2/3');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('the documentation installs the package from its tarball while it is not on the registry', () => {
  const texts = [...markdownFiles().map((f) => path.join('docs', f)), 'web/README.md', 'README.md']
    .map((f) => [f, readFileSync(path.join(root, f), 'utf8')]);
  for (const [f, text] of texts) {
    for (const m of text.matchAll(/npm (?:install|i) +(\S+)/g)) {
      assert.match(m[1], /\.tgz$/, `${f}: "${m[0]}" — qif-toolkit is installed from its release tarball`);
    }
  }
});

// ---------------------------------------------------------------- the guides run

const EXPECT = /^(\s*)(.*?);?\s*\/\/ → (.+?)\s*$/;

/** A `js run` block as module code whose "// → value" lines check their value. */
function instrument(code, file, firstLine) {
  return code.split('\n').map((line, k) => {
    const m = EXPECT.exec(line);
    if (!m) return line;
    const where = JSON.stringify(`${file}:${firstLine + k + 1}`);
    const decl = /^(const|let)\s+(\w+)\s*=\s*(.*)$/.exec(m[2]);
    if (decl) return `${m[1]}${decl[1]} ${decl[2]} = ${decl[3]}; __check(${where}, ${decl[2]}, ${JSON.stringify(m[3])});`;
    return `${m[1]}__check(${where}, (${m[2]}), ${JSON.stringify(m[3])});`;
  }).join('\n');
}

const CHECK = `
function __check(where, actual, expected) {
  let ok;
  if (/^-?\\d+(\\.\\d+)?(e-?\\d+)?$/.test(expected)) {
    const digits = (expected.split('.')[1] ?? '').replace(/e.*/, '').length;
    ok = typeof actual === 'number' && Math.abs(actual - Number(expected)) <= 0.5 * 10 ** -digits + 1e-12;
  } else if (expected === 'true' || expected === 'false') {
    ok = actual === (expected === 'true');
  } else if (/^(["']).*\\1$/.test(expected)) {
    ok = actual === expected.slice(1, -1);
  } else {
    throw new Error(where + ': cannot read the expected value ' + expected);
  }
  if (!ok) throw new Error(where + ': got ' + actual + ', the documentation says ' + expected);
  __checked.count++;
}
const __checked = globalThis.__qifDocChecks = { count: 0 };
`;

test('every `js run` example of the documentation runs and gives the values it states', async () => {
  assert.ok(existsSync(path.join(root, 'web/qif.wasm')), 'web/qif.wasm exists (run scripts/build.sh first)');
  const dir = mkdtempSync(path.join(tmpdir(), 'qif-docs-run-'));
  let pages = 0;
  let checks = 0;
  try {
    for (const f of markdownFiles()) {
      const blocks = runBlocks(readFileSync(path.join(root, 'docs', f), 'utf8'), 'js');
      if (blocks.length === 0) continue;
      const qifURL = pathToFileURL(path.join(root, 'web/qif.js')).href;
      const body = blocks.map((b) => instrument(b.code, `docs/${f}`, b.line)).join('\n')
        .replace(/import \{ load \} from 'qif-toolkit';/g, `import { load } from ${JSON.stringify(qifURL)};`);
      const file = path.join(dir, `${f.replace(/\//g, '_')}.mjs`);
      writeFileSync(file, `${CHECK}\n${body}\nexport const checks = __checked.count;\n`);
      const mod = await import(pathToFileURL(file).href);
      pages++;
      checks += mod.checks;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(pages >= 3, `${pages} pages with runnable examples`);
  assert.ok(checks >= 20, `${checks} stated values checked`);
});

test('the Go guide program compiles against the repository and prints its Output', { timeout: 180_000 }, () => {
  const text = readFileSync(path.join(root, 'docs/guides/go.md'), 'utf8');
  const [block] = runBlocks(text, 'go');
  assert.ok(block, 'docs/guides/go.md has a `go run` block');
  const output = /```text\nOutput:\n([\s\S]*?)```/.exec(text);
  assert.ok(output, 'followed by an Output block');
  // Inside the module (a folder under the repository's root), so that it builds with go.mod's
  // dependencies and no network.
  const dir = path.join(root, 'test-output', 'docs-go');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, 'main.go'), block.code);
    const r = spawnSync('go', ['run', './test-output/docs-go'], { cwd: root, encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off' } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, output[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('API names mentioned in the documentation exist in the module', async () => {
  const { load } = await import(pathToFileURL(path.join(root, 'web/qif.js')).href);
  const qif = await load({ exact: true });
  const dts = readFileSync(path.join(root, 'web/qif.d.ts'), 'utf8');
  const known = new Set([...dts.matchAll(/\b(\w+)\??\s*[:(]/g)].map((m) => m[1]));
  const namespaces = new Set(Object.keys(qif).filter((k) => typeof qif[k] === 'object'));
  const problems = [];
  for (const f of markdownFiles()) {
    if (f === 'api.md') continue; // generated from the same table as the module
    const text = readFileSync(path.join(root, 'docs', f), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, code] of text.matchAll(/`([^`\n]+)`/g)) {
      const q = /^(?:qif\.)?([a-z][A-Za-z]*)\.([a-z][A-Za-z0-9]*)(?:\(.*\))?$/.exec(code);
      if (q && (namespaces.has(q[1]) || /^(?:metric|exact)$/.test(q[1]))) {
        if (typeof qif[q[1]]?.[q[2]] !== 'function') problems.push(`${f}: ${code}`);
        continue;
      }
      // A bare camelCase name in the mathematics and the guides: a function or a result field.
      if (f !== 'widgets.md' && /^[a-z]+[A-Z]\w*$/.test(code) && !known.has(code)) problems.push(`${f}: ${code}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the widget reference lists every element, attribute, measure key, event, state, part and custom property of the widgets', async () => {
  // The entry (web/widgets.js) defines the elements; each lives in web/widgets/<name>.js and
  // declares its attributes in its table (static attributes), which is what is checked here.
  const dir = path.join(root, 'web/widgets');
  const src = [path.join(root, 'web/widgets.js'), ...readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f))]
    .map((f) => readFileSync(f, 'utf8')).join('\n');
  const doc = readFileSync(path.join(root, 'docs/widgets.md'), 'utf8');
  const { MEASURES } = await import(pathToFileURL(path.join(root, 'web/lib/measures.js')).href);
  const names = new Set();
  const need = (what, list) => {
    assert.ok(list.length > 0, `found ${what} in the widgets`);
    for (const x of list) names.add(`${what}: ${x}`);
  };
  const elements = [...src.matchAll(/\['(qif-[a-z-]+)', (Qif\w+)\]/g)].map((m) => ({ tag: m[1], cls: m[2] }));
  need('element', elements.map((e) => e.tag));
  // The elements' classes extend HTMLElement, which Node lacks: a stand-in is enough to read
  // their tables (nothing is constructed or defined).
  globalThis.HTMLElement ??= class {};
  for (const { tag, cls } of elements) {
    const mod = await import(pathToFileURL(path.join(dir, `${tag.slice('qif-'.length)}.js`)).href);
    const table = mod[cls].attributes;
    assert.ok(table && Object.keys(table).length > 2, `${cls} declares its attributes (static attributes)`);
    need('attribute', Object.keys(table));
    // What the element observes comes from its table: an attribute outside it would not be
    // documented, one of the table that is not observed would not re-render the widget.
    const styled = Object.keys(table).filter((k) => table[k].style);
    assert.deepEqual([...mod[cls].observedAttributes].sort(), Object.keys(table).filter((k) => !styled.includes(k)).sort(), `${cls}.observedAttributes`);
  }
  need('measure key', Object.keys(MEASURES));
  need('event', [...src.matchAll(/new CustomEvent\('([^']+)'/g)].map((m) => m[1]));
  need('state', [...src.matchAll(/setState\('([a-z]+)'\)/g)].map((m) => m[1]));
  need('part', [...src.matchAll(/part: '([^']+)'/g)].map((m) => m[1]));
  // Custom properties: those read with var(), and the palette's (--qif-<name>, with light and dark defaults).
  need('custom property', [
    ...[...src.matchAll(/var\((--qif-[a-z-]+)/g)].map((m) => m[1]),
    ...[...src.matchAll(/^ {2}([a-z]+): \['#[0-9a-f]{6}', '#[0-9a-f]{6}'/gm)].map((m) => `--qif-${m[1]}`),
  ]);
  // The attributes read by the stylesheet alone (theme, size) are in the tables too: the
  // stylesheet must read no other, except data-* attributes the widget sets on itself (the
  // theme it read of the page), which the docs list under State and events.
  for (const m of src.matchAll(/:host\(\[([a-z-]+)="/g)) {
    if (m[1].startsWith('data-')) names.add(`attribute: ${m[1]}`);
    else assert.ok(names.has(`attribute: ${m[1]}`), `the stylesheet reads ${m[1]}, which no table declares`);
  }
  const missing = [...names].filter((n) => !doc.includes(`\`${n.split(': ')[1]}\``) && !doc.includes(`\`<${n.split(': ')[1]}>\``));
  assert.deepEqual(missing, [], 'docs/widgets.md must document these (write them from the widgets\' attribute tables)');
});

// ---------------------------------------------------------------- the README's layout

test('the README\'s layout names every folder of web/, and every file it names for web/ exists', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const layout = /^## Layout\n```\n([\s\S]*?)^```/m.exec(readme)?.[1];
  assert.ok(layout, 'README.md has a "## Layout" section with a code block');
  // The web/ part: from its line to the next top-level folder of the repository.
  const web = /^web\/[\s\S]*?(?=^\S)/m.exec(`${layout}end\n`)?.[0];
  assert.ok(web && /^ {2}\w/m.test(web), 'the layout lists the folders of web/ (indented lines)');
  const tracked = spawnSync('git', ['ls-files', 'web'], { cwd: root, encoding: 'utf8' }).stdout.trim().split('\n');
  const folders = [...new Set(tracked.map((f) => f.split('/')).filter((p) => p.length > 2).map((p) => p[1]))];
  assert.ok(folders.length >= 5, `web/ has folders (${folders.join(', ')})`);
  for (const d of folders) assert.match(web, new RegExp(`^ {2}${d}/`, 'm'), `the layout names web/${d}/`);
  for (const m of web.matchAll(/^ {2}([\w-]+)\//gm)) assert.ok(folders.includes(m[1]), `web/${m[1]}/ (named in the layout) exists`);
  // The files it names at web/'s root exist (built ones are said to be built).
  const built = new Set(['qif.wasm', 'qif-exact.wasm', 'wasm_exec.js']);
  for (const [, f] of web.split(/^ {2}\w/m)[0].matchAll(/\b([\w-]+(?:\.gen)?\.(?:js|d\.ts|json|html|css))\b/g)) {
    if (!built.has(f)) assert.ok(tracked.includes(`web/${f}`) || existsSync(path.join(root, 'web', f)), `web/${f} (named in the layout) exists`);
  }
});
