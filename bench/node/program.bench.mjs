// Times qif.program.channel (the exact module in WebAssembly, merged semantics) on the four
// workloads of bench/program-workloads.json — the ones `go test ./core/program -bench Programs`
// runs — and, in the same run, a naive peer written here that enumerates paths: each workload's
// program translated by hand into a JS function run once per secret value and per sequence of
// random choices (re-run depth first, as a path-enumerating interpreter does), accumulating exact
// BigInt fractions, with no distributions and no merging. Where the paths cannot all be enumerated
// (2^61 for the coin flips) the peer stops after a second and its total is extrapolated.
//   scripts/build.sh && node bench/node/program.bench.mjs [part of a workload's name]
import { readFileSync } from 'node:fs';
import { load } from '../../web/qif.js';

const { workloads } = JSON.parse(readFileSync(new URL('../program-workloads.json', import.meta.url), 'utf8'));
const qif = await load({ exact: true });

// enumerate runs program(secret, choose) along every path: choose(weights as [num, den] BigInt
// pairs) returns the index taken; the path's probability is the product of the weights taken.
function enumerate(secrets, program, deadline) {
  let paths = 0;
  const rows = [];
  for (const s of secrets) {
    const row = new Map();
    let choices = [];
    let arity = [];
    for (;;) {
      let pos = 0;
      let num = 1n;
      let den = 1n;
      const choose = (ws) => {
        if (pos === choices.length) { choices.push(0); arity.push(ws.length); }
        const [n, d] = ws[choices[pos++]];
        num *= n; den *= d;
        return choices[pos - 1];
      };
      const obs = program(s, choose);
      paths++;
      const [n0, d0] = row.get(obs) ?? [0n, 1n];
      row.set(obs, [n0 * den + num * d0, d0 * den]);
      choices = choices.slice(0, pos);
      arity = arity.slice(0, pos);
      while (choices.length && choices.at(-1) === arity.at(-1) - 1) { choices.pop(); arity.pop(); }
      if (!choices.length) break;
      choices[choices.length - 1]++;
      if ((paths & 1023) === 0 && performance.now() > deadline) return { paths, done: false };
    }
    rows.push(row);
  }
  return { paths, done: true, rows };
}

const range = (a, b) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
function perms(s) { // lexicographic permutations of the positions
  const out = [];
  const rec = (pre, rest) => {
    if (!rest.length) { out.push(pre); return; }
    for (let i = 0; i < rest.length; i++) rec(pre + rest[i], rest.slice(0, i) + rest.slice(i + 1));
  };
  rec('', s);
  return out;
}
const half = [[1n, 2n], [1n, 2n]];
// The workloads' programs, by hand, in the order of the file.
const peers = [
  { secrets: [0, 1], total: 2 * 2 ** 60, program: (x, choose) => {
    let count = 0;
    for (let i = 1; i <= 60; i++) count += choose(half) === 0 ? 1 : 0; // flip: 1 first
    return String(count + x);
  } },
  { secrets: range(0, 99999), program: (x) => String(x % 10) },
  { secrets: range(0, 65535), program: (key) => {
    let time = 0;
    for (let i = 0; i <= 15; i++) { time++; if ((key >> i) & 1) time++; }
    return String(time);
  } },
  { secrets: perms('python'), program: (guess) => {
    const password = 'python';
    let i = 0;
    while (i < 6 && guess[i] === password[i]) i++;
    return String(i);
  } },
  // 2^(set bits) paths for each key: 3^16 in all.
  { secrets: range(0, 65535), total: 3 ** 16, program: (key, choose) => {
    let t = 0;
    for (let i = 0; i <= 15; i++) if ((key >> i) & 1) t += choose(half) === 0 ? 1 : 0;
    return String(t);
  } },
  // bits(20) in lexicographic order: row k is k's 20 bits, the most significant first.
  { secrets: range(0, 2 ** 20 - 1), program: (k) => String((k >> 19) & 1) },
  { secrets: range(0, 2 ** 20 - 1), program: (k) => String(Math.floor(k / 524288)) },
];

const TARGET = new Set(['65536 secrets, a coin flip per set bit', 'bits(20), one bit observed']);
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// The process's CPU time (user + system), which other processes on a shared machine inflate far
// less than the wall-clock time.
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
console.log('workload | merged, first call (ms wall / ms CPU) | merged, median of 5 (ms wall / ms CPU) | states | steps | naive peer (ms wall / ms CPU) | paths | naive/merged (wall) | target');
// An argument picks the workloads whose name contains it: node bench/node/program.bench.mjs 'bits(20)'
const only = process.argv[2];
for (const [k, w] of workloads.entries()) {
  if (only && !w.name.includes(only)) continue;
  let t0 = performance.now();
  const c00 = cpu();
  let r = qif.program.channel(w.source);
  const first = performance.now() - t0;
  const firstCPU = cpu() - c00;
  const times = [];
  const cpus = [];
  for (let i = 0; i < 5; i++) {
    t0 = performance.now();
    const c0 = cpu();
    r = qif.program.channel(w.source);
    cpus.push(cpu() - c0);
    times.push(performance.now() - t0);
  }
  const merged = median(times);
  const p = peers[k];
  t0 = performance.now();
  const c0 = cpu();
  const n = enumerate(p.secrets, p.program, t0 + 1000);
  let naive = performance.now() - t0;
  let naiveCPU = cpu() - c0;
  let paths = n.paths;
  let note = '';
  if (!n.done) {
    note = ` (extrapolated from ${n.paths} paths in ${naive.toFixed(0)} ms)`;
    naive = (naive * p.total) / n.paths;
    naiveCPU = (naiveCPU * p.total) / n.paths;
    paths = p.total;
  } else if (n.rows.length !== r.secrets.length) {
    throw new Error(`${w.name}: the peer has ${n.rows.length} rows, the program ${r.secrets.length}`);
  }
  // The two slow programs of the audit have a target: under 3 s (median wall) in WebAssembly.
  const target = TARGET.has(w.name) ? (merged < 3000 ? 'under 3 s: met' : 'under 3 s: missed') : '';
  console.log(`${w.name} | ${first.toFixed(1)} / ${firstCPU.toFixed(1)} | ${merged.toFixed(1)} / ${median(cpus).toFixed(1)} | ${r.states} | ${r.steps} | ${naive.toPrecision(3)} / ${naiveCPU.toPrecision(3)}${note} | ${paths.toPrecision(3)} | ${(naive / merged).toPrecision(3)} | ${target}`);
}
