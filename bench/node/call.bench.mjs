// The fixed cost of one call through the JS API, against a plain JS function call measured in the
// same run, and the marshaling of a large {rows, cols, data: Float64Array} matrix against copying
// the same Float64Array in JS (the bulk-copy floor).
//   scripts/build.sh && node bench/node/call.bench.mjs [path/to/other/qif.js ...]
// Extra loaders (e.g. a build of main's web/ in /tmp) are measured in the same run, interleaved
// round by round; each number is the fastest of the rounds, which is what a busy machine distorts
// least, and the last column compares each loader with this tree's.
import { load } from '../../web/qif.js';

const loaders = [['this tree', load]];
for (const path of process.argv.slice(2)) {
  const mod = await import(new URL(path, `file://${process.cwd()}/`).href);
  loaders.push([path, mod.load]);
}
const apis = [];
for (const [name, l] of loaders) apis.push([name, await l()]);

let sink = 0;
const n = 1000;
const big = { rows: n, cols: n, data: new Float64Array(n * n).fill(1 / n) };
const jsNoop = () => 0;
const ops = [
  ['debug.noop()', 20000, (q) => { sink += q.debug.noop(); }],
  ['measure.shannonEntropy([.5,.5])', 20000, (q) => { sink += q.measure.shannonEntropy([0.5, 0.5]); }],
  ['debug.marshal(1000×1000)', 30, (q) => { sink += q.debug.marshal(big); }],
];
const peers = [
  ['JS function call (peer)', 200000, () => { sink += jsNoop(); }],
  ['Float64Array copy 1000×1000 (peer)', 30, () => { sink += big.data.slice().length; }],
];

// µs per call of `reps` calls of f.
function perCall(f, reps) {
  const t0 = performance.now();
  for (let i = 0; i < reps; i++) f();
  return (performance.now() - t0) * 1000 / reps;
}

const best = new Map();
const keep = (key, us) => best.set(key, Math.min(best.get(key) ?? Infinity, us));
for (let round = 0; round < 9; round++) {
  for (const [what, reps, f] of peers) keep(`${what}|-`, perCall(f, reps));
  for (const [name, qif] of apis) for (const [what, reps, f] of ops) keep(`${what}|${name}`, perCall(() => f(qif), reps));
}
const rows = [];
for (const [what] of peers) rows.push({ what, loader: '-', 'µs/call (best of 9)': +best.get(`${what}|-`).toFixed(3) });
for (const [what] of ops) {
  const mine = best.get(`${what}|this tree`);
  for (const [name] of apis) {
    const us = best.get(`${what}|${name}`);
    rows.push({ what, loader: name, 'µs/call (best of 9)': +us.toFixed(3), 'vs this tree': +(us / mine).toFixed(2) });
  }
}
console.table(rows);
if (sink === -1) console.log(sink);
process.exit(0);
