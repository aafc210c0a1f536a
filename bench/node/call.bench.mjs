// The fixed cost of one call through the JS API, against a plain JS function call measured in the
// same run, and the marshaling of a large {rows, cols, data: Float64Array} matrix against copying
// the same Float64Array in JS (the bulk-copy floor).
//   scripts/build.sh && node bench/node/call.bench.mjs [path/to/other/qif.js ...]
// Extra loaders (e.g. a copy of main's web/ in /tmp) are measured in the same run, interleaved,
// so that a change of the per-call overhead shows as a ratio rather than as noise between runs.
import { load } from '../../web/qif.js';

const loaders = [['this tree', load]];
for (const path of process.argv.slice(2)) {
  const mod = await import(new URL(path, `file://${process.cwd()}/`).href);
  loaders.push([path, mod.load]);
}
const apis = [];
for (const [name, l] of loaders) apis.push([name, await l()]);

// Median of 9 rounds of `reps` calls, in µs per call.
function perCall(f, reps) {
  for (let i = 0; i < reps; i++) f();
  const t = [];
  for (let r = 0; r < 9; r++) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    t.push((performance.now() - t0) * 1000 / reps);
  }
  t.sort((a, b) => a - b);
  return t[4];
}

let sink = 0;
const jsNoop = () => 0;
const n = 1000;
const big = { rows: n, cols: n, data: new Float64Array(n * n).fill(1 / n) };
const rows = [];
const peer = perCall(() => { sink += jsNoop(); }, 200000);
const copy = perCall(() => { sink += big.data.slice().length; }, 50);
rows.push({ what: 'JS function call (peer)', loader: '-', 'µs/call': +peer.toFixed(3), ratio: 1 });
rows.push({ what: 'Float64Array copy 1000×1000 (peer)', loader: '-', 'µs/call': +copy.toFixed(1), ratio: 1 });
for (let round = 0; round < 2; round++) {
  for (const [name, qif] of apis) {
    const noop = perCall(() => { sink += qif.debug.noop(); }, 20000);
    const small = perCall(() => { sink += qif.measure.shannonEntropy([0.5, 0.5]); }, 20000);
    const marshal = perCall(() => { sink += qif.debug.marshal(big); }, 50);
    if (round === 1) {
      rows.push({ what: 'debug.noop()', loader: name, 'µs/call': +noop.toFixed(3), ratio: +(noop / peer).toFixed(0) });
      rows.push({ what: 'measure.shannonEntropy([.5,.5])', loader: name, 'µs/call': +small.toFixed(3), ratio: +(small / peer).toFixed(0) });
      rows.push({ what: 'debug.marshal(1000×1000)', loader: name, 'µs/call': +marshal.toFixed(1), ratio: +(marshal / copy).toFixed(2) });
    }
  }
}
console.table(rows);
if (sink === -1) console.log(sink);
process.exit(0);
