// web/qif.d.ts against the functions the module actually exports: every qif.<namespace>.<name>
// must be declared in the interface that types that namespace, so a binding added without types
// fails here. The reverse direction (declared but not exported) catches stale or misspelt
// declarations.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { load } from '../../web/qif.js';

const dts = readFileSync(new URL('../../web/qif.d.ts', import.meta.url), 'utf8')
  .replace(/\/\*[\s\S]*?\*\//g, '') // JSDoc may mention names; only declarations count
  .replace(/\/\/.*$/gm, '');

// Declared but exported by bindings that other work is still adding; the reverse check reports
// them as todo instead of failing until they are registered. (Empty: everything is registered.)
const pending = new Set([]);

// The body of `interface <name> { ... }`, braces balanced.
function interfaceBody(name) {
  const m = new RegExp(`export interface ${name}\\s*\\{`).exec(dts);
  if (!m) return null;
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  for (; i < dts.length && depth > 0; i++) {
    if (dts[i] === '{') depth++;
    else if (dts[i] === '}') depth--;
  }
  return dts.slice(start, i - 1);
}

// Methods among the top-level members of an interface body: `name(...)` (or `name?(...)`) at
// depth 0. Everything nested in () or {} (parameters, option objects, result shapes) is dropped
// first, keeping only the opening parenthesis of a member's own parameter list.
function methodNames(body) {
  let flat = '';
  let depth = 0;
  for (const ch of body) {
    if (ch === '(' || ch === '{') {
      if (depth === 0) flat += ch;
      depth++;
    } else if (ch === ')' || ch === '}') {
      depth--;
    } else if (depth === 0) {
      flat += ch;
    }
  }
  const names = new Set();
  for (const m of flat.matchAll(/(?:^|[;\n])\s*([A-Za-z_$][\w$]*)\??\s*\(/g)) names.add(m[1]);
  return names;
}

// namespace → interface name, from `readonly <ns>: Readonly<XAPI>;` in an interface (QIF by
// default; ExactAPI for the namespaces of qif.exact).
function namespaceInterfaces(of = 'QIF') {
  const body = interfaceBody(of);
  assert.ok(body, `qif.d.ts declares interface ${of}`);
  const out = new Map();
  for (const m of body.matchAll(/readonly\s+([A-Za-z_$][\w$]*)\s*:\s*(?:Readonly<\s*)?([A-Za-z_$][\w$]*)/g)) {
    out.set(m[1], m[2]);
  }
  return out;
}

let qif;
before(async () => { qif = await load({ exact: true }); });

test('qif.d.ts declares load(options?: {wasmURL, wasmModule, exact, exactWasmURL}) returning Promise<QIF>', () => {
  assert.match(dts, /export function load\(options\?: LoadOptions\): Promise<QIF>;/);
  assert.match(interfaceBody('LoadOptions'), /wasmURL\?: string \| URL;/);
  assert.match(interfaceBody('LoadOptions'), /exact\?: boolean;/);
  assert.match(interfaceBody('LoadOptions'), /exactWasmURL\?: string \| URL;/);
  assert.match(interfaceBody('LoadOptions'), /wasmModule\?: WebAssembly\.Module \| Promise<WebAssembly\.Module>;/);
  assert.match(interfaceBody('QIF'), /readonly version: string;/);
  assert.match(interfaceBody('QIF'), /readonly exact: ExactAPI;/);
  assert.match(interfaceBody('ExactAPI'), /readonly loaded: boolean;/);
  assert.match(interfaceBody('ExactAPI'), /load\(options\?: ExactLoadOptions\): Promise<ExactAPI>;/);
});

test('load() and qif.exact.load() refuse an unknown option key, naming it and the keys qif.d.ts declares', async () => {
  const keys = (name) => [...interfaceBody(name).matchAll(/^ {2}(\w+)\?:/gm)].map((m) => m[1]);
  assert.deepEqual(keys('LoadOptions').sort(), ['exact', 'exactWasmURL', 'lazy', 'moreWasmModule', 'moreWasmURL', 'wasmModule', 'wasmURL']);
  await assert.rejects(load({ wasmUrl: 'qif.wasm' }), (e) => e.argument === 'options'
    && e.message === `load: options: unknown option "wasmUrl" (did you mean "wasmURL"?); valid options: ${keys('LoadOptions').join(', ')}`);
  await assert.rejects(load({ exact: true, verbose: true }), /^Error: load: options: unknown option "verbose"; valid options: /);
  await assert.rejects(load('qif.wasm'), /load: options: expected an options object/);
  await assert.rejects(qif.exact.load({ exactWasmURL: 'x' }),
    (e) => e.message === `qif.exact.load: options: unknown option "exactWasmURL"; valid options: ${keys('ExactLoadOptions').join(', ')}`);
  assert.ok(await qif.exact.load({}), 'known keys (none here) still load');
});

test('load({wasmModule}) runs a module the caller compiled (or is compiling), and names what it got otherwise', async () => {
  const bytes = await readFile(new URL('../../web/qif.wasm', import.meta.url));
  const module = await WebAssembly.compile(bytes);
  for (const given of [module, WebAssembly.compile(bytes)]) {
    const q = await load({ wasmModule: given });
    assert.equal(q.measure.shannonEntropy([0.25, 0.25, 0.25, 0.25]), 2);
    assert.equal(q.version, qif.version);
  }
  await assert.rejects(load({ wasmModule: bytes }), /wasmModule: expected a WebAssembly\.Module \(or a promise of one\), got object/);
  await assert.rejects(load({ wasmModule: Promise.reject(new Error('network down')) }), /network down/);
  // The exact module is a different API: its module in place of qif.wasm is refused by name.
  const exact = await WebAssembly.compile(await readFile(new URL('../../web/qif-exact.wasm', import.meta.url)));
  await assert.rejects(load({ wasmModule: exact }), /^Error: qif: load: wasmModule does not serve the functions of qif\.wasm/);
});

// Every namespace object under obj (typed by interface iface): [path, object, interface].
function namespacesOf(obj, iface, path) {
  const out = [];
  const ifaces = namespaceInterfaces(iface);
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object') {
      out.push([`${path}.${k}`, v, ifaces.get(k)]);
      if (ifaces.has(k) && namespaceInterfaces(ifaces.get(k)).size > 0) out.push(...namespacesOf(v, ifaces.get(k), `${path}.${k}`));
    }
  }
  return out;
}

test('every exported namespace and function is declared in qif.d.ts', () => {
  const missing = [];
  for (const [path, ns, iface] of namespacesOf(qif, 'QIF', 'qif')) {
    if (!iface) {
      missing.push(`namespace ${path} (no "readonly <name>: Readonly<...API>" in the interface above it)`);
      continue;
    }
    const body = interfaceBody(iface);
    assert.ok(body !== null, `qif.d.ts: interface ${iface} (for ${path}) is declared`);
    const declared = methodNames(body);
    const props = propertyNames(body);
    for (const [name, v] of Object.entries(ns)) {
      if (typeof v === 'function') {
        if (!declared.has(name)) missing.push(`${path}.${name} (add it to interface ${iface})`);
      } else if (!props.has(name)) {
        missing.push(`${path}.${name} (a ${typeof v}: add it to interface ${iface})`);
      }
    }
  }
  assert.deepEqual(missing, [], `exported but not typed in web/qif.d.ts:\n  ${missing.join('\n  ')}`);
});

test('every function declared in qif.d.ts is exported by the module', (t) => {
  const stale = [];
  const waiting = [];
  for (const [path, ns, iface] of namespacesOf(qif, 'QIF', 'qif')) {
    const body = interfaceBody(iface);
    assert.ok(body !== null, `qif.d.ts: interface ${iface} is declared`);
    for (const name of methodNames(body)) {
      if (typeof ns[name] === 'function') continue;
      if (pending.has(`${path.slice(4)}.${name}`)) waiting.push(`${path}.${name}`);
      else stale.push(`${path}.${name}`);
    }
  }
  assert.deepEqual(stale, [], `declared in web/qif.d.ts but not exported:\n  ${stale.join('\n  ')}`);
  if (waiting.length) t.todo(`not registered yet: ${waiting.join(', ')}`);
  const paths = namespacesOf(qif, 'QIF', 'qif').map(([p]) => p);
  assert.ok(paths.includes('qif.measure') && paths.includes('qif.exact.measure'), 'the walk reaches the exact namespaces');
});

test('the declaration parser sees what it should (so the checks above can fail)', () => {
  const ifaces = namespaceInterfaces();
  assert.equal(ifaces.get('measure'), 'MeasureAPI');
  const m = methodNames(interfaceBody('MeasureAPI'));
  assert.ok(m.has('shannonEntropy') && m.has('hockeyStick') && m.has('shannonCapacity'));
  // Option fields and callback parameters are not methods.
  assert.ok(!m.has('tolerance') && !m.has('progress') && !m.has('iteration'));
  const ip = methodNames(interfaceBody('InfoPrivacyAPI'));
  assert.ok(ip.has('individualCapacity') && ip.has('bayesRatios'));
  assert.ok(!ip.has('onProgress') && !ip.has('beta'));
  assert.ok(!methodNames('  foo: number;\n  bar(x: number): number;\n').has('foo'));
  assert.ok(methodNames('  foo: number;\n  bar(x: number): number;\n').has('bar'));
});

// The body declaring a result: its interface, or for a discriminated union
// (`export type X = XHolds | XFails;`) the branch whose literal verdict (`holds: true;`) is the
// result's.
function resultBody(name, result) {
  const direct = interfaceBody(name);
  if (direct !== null) return direct;
  const m = new RegExp(`export type ${name} = (\\w+) \\| (\\w+);`).exec(dts);
  if (!m) return null;
  for (const branch of [m[1], m[2]]) {
    const body = interfaceBody(branch);
    const lit = /^ {2}(\w+): (true|false);$/m.exec(body);
    if (lit && String(result[lit[1]]) === lit[2]) return body;
  }
  return null;
}

// Property names declared at depth 0 of an interface body (`name:` or `name?:`).
function propertyNames(body) {
  let flat = '';
  let depth = 0;
  let prev = '';
  for (const ch of body) {
    if (ch === '(' || ch === '{' || ch === '<') depth++;
    else if (ch === ')' || ch === '}' || (ch === '>' && prev !== '=')) depth--;
    else if (depth === 0) flat += ch;
    prev = ch;
  }
  const names = new Set();
  for (const m of flat.matchAll(/(?:^|[;\n])\s*(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*:/g)) names.add(m[1]);
  return names;
}

test('result objects carry only the fields their interfaces declare', () => {
  const C = [[0.75, 0.25], [0.25, 0.75]];
  const P3 = qif.graph.path(3);
  const cases = [
    ['Hyper', () => qif.channel.hyper([0.5, 0.5], C)],
    ['ShannonCapacity', () => qif.measure.shannonCapacity(C)],
    ['EpsilonDetail', () => qif.privacy.epsilonDetail([[1, 0], [0.5, 0.5]], qif.graph.path(2))],
    ['UtilityBound', () => qif.privacy.utilityBound(P3, 1)],
    ['VTPlusResult', () => qif.graph.isVTPlus(qif.graph.cycle(5))],
    ['VTPlusResult', () => qif.graph.isVTPlus(qif.graph.petersen())],
    ['OptimalDetail', () => qif.mechanism.optimalDetail(qif.graph.cycle(4), 1)],
    ['OptimalLP', () => qif.mechanism.optimalLP({ graph: P3, epsilon: 1 })],
    ['LPResult', () => qif.lp.solve({ sense: 'max', objective: [1, 1], rows: [{ coeffs: [1, 1], op: '<=', rhs: 1 }] })],
    ['LPResult', () => qif.lp.solve({ objective: [1], rows: [{ coeffs: [1], op: '<=', rhs: -1 }] })],
    ['IndividualCapacity', () => qif.infoPrivacy.individualCapacity({ domains: [2], channel: C })],
    ['IndividualEpsilon', () => qif.infoPrivacy.individualEpsilon({ domains: [2], channel: C })],
    ['DataIndependence', () => qif.infoPrivacy.dataIndependent(C)],
  ];
  {
    cases.push(['AvgRefinement', () => qif.refine.avg(C, [[0.5, 0.5], [0.5, 0.5]])]);
    cases.push(['AvgRefinement', () => qif.refine.avg([[0.5, 0.5], [0.5, 0.5]], C)]);
    cases.push(['MaxRefinement', () => qif.refine.max(C, [[0.5, 0.5], [0.5, 0.5]])]);
    cases.push(['MaxRefinement', () => qif.refine.max([[0.5, 0.5], [0.5, 0.5]], C)]);
    cases.push(['PrvRefinement', () => qif.refine.prv([[0.5, 0.5], [0.5, 0.5]], C)]);
    cases.push(['PrvRefinement', () => qif.refine.prv(C, [[0.5, 0.5], [0.5, 0.5]])]);
    cases.push(['SafeEpsilon', () => qif.refine.familyEpsilon({ family1: 'truncatedGeometric', family2: 'truncatedGeometric', n: 3, epsilon1: 1 })]);
  }
  const K6 = qif.graph.clique(6);
  cases.push(['ExactMatrix', () => qif.exact.channel.cascade(C, C)]);
  cases.push(['ExactHyper', () => qif.exact.channel.hyper([0.5, 0.5], C)]);
  cases.push(['ExactOptimal', () => qif.exact.mechanism.optimal({ graph: K6, expEpsilon: 2 })]);
  cases.push(['ExactCertificate', () => qif.exact.mechanism.optimal({ graph: K6, expEpsilon: 2 }).certificate]);
  cases.push(['ExactPrivacyPrice', () => qif.exact.mechanism.optimal({ graph: K6, expEpsilon: 2 }).certificate.privacy[0]]);
  cases.push(['ExactAvgRefinement', () => qif.exact.refine.avg(C, [[0.5, 0.5], [0.5, 0.5]])]);
  cases.push(['ExactAvgRefinement', () => qif.exact.refine.avg([[0.5, 0.5], [0.5, 0.5]], C)]);
  cases.push(['Factorization', () => qif.channel.factorize([[0.5, 0.5], [0.5, 0.5]], C)]);
  cases.push(['Factorization', () => qif.channel.factorize(C, [[0.5, 0.5], [0.5, 0.5]])]);
  const undeclared = [];
  for (const [iface, call] of cases) {
    const r = call();
    const body = resultBody(iface, r);
    assert.ok(body !== null, `interface ${iface} is declared`);
    const declared = propertyNames(body);
    for (const k of Object.keys(r)) {
      if (!declared.has(k)) undeclared.push(`${iface}.${k}`);
    }
  }
  assert.deepEqual(undeclared, [], `returned but not declared in web/qif.d.ts:\n  ${undeclared.join('\n  ')}`);
  assert.ok(propertyNames(interfaceBody('OptimalLP')).has('reason'));
  assert.ok(!propertyNames(interfaceBody('ShannonCapacityOptions')).has('iteration'), 'callback parameters are not fields');
  const lpo = propertyNames(interfaceBody('LPOptions'));
  assert.ok(lpo.has('onProgress') && lpo.has('timeLimit') && !lpo.has('phase'), 'members after a callback type are still seen');
});

test('results whose fields depend on a verdict are discriminated unions, and each result has its branch\'s fields', () => {
  // What narrows in TypeScript: `export type X = A | B;` with the verdict a literal true in A and
  // false in B, and the fields of each branch required there (optional only where declared so).
  const C = [[0.75, 0.25], [0.25, 0.75]];
  const U = [[0.5, 0.5], [0.5, 0.5]];
  const cases = [
    ['AvgRefinement', 'holds', () => [qif.refine.avg(C, U), qif.refine.avg(U, C)]],
    ['MaxRefinement', 'holds', () => [qif.refine.max(C, U), qif.refine.max(U, C)]],
    ['PrvRefinement', 'holds', () => [qif.refine.prv(C, U), qif.refine.prv(U, C)]],
    ['ExactAvgRefinement', 'holds', () => [qif.exact.refine.avg(C, U), qif.exact.refine.avg(U, C)]],
    ['Factorization', 'exists', () => [qif.channel.factorize(U, C), qif.channel.factorize(C, U)]],
  ];
  for (const [name, verdict, run] of cases) {
    const m = new RegExp(`export type ${name} = (\\w+) \\| (\\w+);`).exec(dts);
    assert.ok(m, `${name} is a union`);
    const [yes, no] = [interfaceBody(m[1]), interfaceBody(m[2])];
    assert.match(yes, new RegExp(`^ {2}${verdict}: true;$`, 'm'), `${m[1]}.${verdict} is the literal true`);
    assert.match(no, new RegExp(`^ {2}${verdict}: false;$`, 'm'), `${m[2]}.${verdict} is the literal false`);
    const required = (body) => [...body.matchAll(/^ {2}(\w+): /gm)].map((x) => x[1]);
    const results = run();
    assert.deepEqual(results.map((r) => r[verdict]), [true, false], `${name}: the cases cover both verdicts`);
    for (const r of results) {
      const body = r[verdict] ? yes : no;
      for (const k of required(body)) assert.ok(k in r, `${name} (${verdict} = ${r[verdict]}) has ${k}`);
      for (const k of Object.keys(r)) assert.ok(propertyNames(body).has(k), `${name} (${verdict} = ${r[verdict]}): ${k} is declared in its branch`);
    }
    // The runtime table says the same: the verdict, and when each field is present.
    const f = qif.describe().functions.find((g) => g.result.name === name);
    assert.equal(f.result.verdict, verdict);
  }
});

// Every type name qif.d.ts uses is declared in it or is a global of the language: a name that is
// used but declared nowhere (ProgramProgress was) makes the whole file fail to compile for a
// TypeScript user.
test('every type name used in qif.d.ts is declared in it or is a standard global', () => {
  const code = dts.replace(/'(?:[^'\\]|\\.)*'/g, "''").replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/`[^`]*`/g, '``');
  const declared = new Set([...code.matchAll(/\b(?:interface|type|class|enum|namespace|function|const|let|var)\s+([A-Za-z_]\w*)/g)].map((m) => m[1]));
  // Type parameters: <C extends …>, <C>, <A, B>.
  for (const m of code.matchAll(/<([^<>()]*)>/g)) {
    for (const part of m[1].split(',')) {
      const name = /^\s*([A-Z]\w*)\s*(?:extends\b|=|$)/.exec(part);
      if (name) declared.add(name[1]);
    }
  }
  const globals = new Set(['Float64Array', 'Float32Array', 'Int32Array', 'Uint32Array', 'Int16Array', 'Uint16Array', 'Int8Array',
    'Uint8Array', 'Uint8ClampedArray', 'ArrayBuffer', 'Error', 'Readonly', 'ReadonlyArray', 'Record', 'Partial', 'Promise', 'URL',
    'WebAssembly', 'Module', 'AbortSignal', 'Array', 'Map', 'Set']);
  // Names in type positions (a parameter or property named A, as in cascade(A: Matrix), is not one).
  const used = new Set([...code.matchAll(/\b([A-Z][A-Za-z0-9_]*)\b(?!\s*\??:)/g)].map((m) => m[1]));
  const missing = [...used].filter((x) => !declared.has(x) && !globals.has(x));
  assert.deepEqual(missing, []);
  // The check itself: a made-up name is reported.
  assert.ok(!declared.has('NoSuchType') && !globals.has('NoSuchType'));
});
