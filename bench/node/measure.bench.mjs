// Times qif.measure through the JS API on random n×n channels passed as {rows, cols, data}, and
// the marshaling cost alone, for comparison with `go test -bench . ./core/measure` (same
// channel family: entries uniform in [0,1), rows normalized).
//   scripts/build.sh && node bench/node/measure.bench.mjs
import { load } from '../../web/qif.js';
import { rng, time } from './timing.mjs';

const qif = await load();
const M = qif.measure;

function randomChannel(n, m, r) {
  const data = new Float64Array(n * m);
  for (let x = 0; x < n; x++) {
    let s = 0;
    for (let y = 0; y < m; y++) s += (data[x * m + y] = r());
    for (let y = 0; y < m; y++) data[x * m + y] /= s;
  }
  return { rows: n, cols: m, data };
}
function randomPrior(n, r) {
  const p = new Float64Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) s += (p[i] = r());
  for (let i = 0; i < n; i++) p[i] /= s;
  return p;
}

const rows = [];
const add = (what, size, ms, note = '') => rows.push({ what, size, ms: +ms.toFixed(3), note });

for (const n of [100, 2000]) {
  const r = rng(n);
  const C = randomChannel(n, n, r);
  const prior = randomPrior(n, r);
  const reps = n === 100 ? 50 : 7;
  const size = `${n}×${n}`;
  const vpost = time(() => M.posteriorBayesVulnerability(prior, C), reps);
  add('posteriorBayesVulnerability', size, vpost);
  add('mutualInformation', size, time(() => M.mutualInformation(prior, C), reps));
  const capOpts = { maxIterations: n === 100 ? 200 : 20 }; // keep the 2000×2000 run short
  let cap;
  add(`shannonCapacity (≤${capOpts.maxIterations} it.)`, size, time(() => { cap = M.shannonCapacity(C, capOpts); }, n === 100 ? 5 : 1),
    `${cap.iterations} it., gap ${(cap.upperBound - cap.capacity).toExponential(1)}`);
  // Marshaling: qif.channel.validate copies the matrix into Go and makes one validation
  // pass over it, the fixed part of every measure call on C (an upper bound on the copy alone).
  const marshal = time(() => qif.channel.validate(C), reps);
  const trivial = time(() => M.minCapacity([[1]]), reps);
  add('marshal + validate (channel.validate)', size, marshal,
    `${(100 * marshal / vpost).toFixed(1)}% of posteriorBayesVulnerability`);
  add('trivial call (minCapacity [[1]])', size, trivial);
}

const r = rng(200);
const C200 = randomChannel(200, 200, r);
let res;
const ms = time(() => { res = M.shannonCapacity(C200, { tolerance: 1e-9, maxIterations: 1e6 }); }, 1);
add('shannonCapacity to 1e-9 gap', '200×200', ms, `${res.iterations} iterations, gap ${(res.upperBound - res.capacity).toExponential(2)}`);

// The default tolerance (1e-6 bits of certified gap) on random 300×300 channels: what a user who
// passes no options waits for, against the same channels to 1e-9.
for (const seed of [300, 301, 302]) {
  const C300 = randomChannel(300, 300, rng(seed));
  let d, f;
  const msDefault = time(() => { d = M.shannonCapacity(C300); }, 3);
  const msFine = time(() => { f = M.shannonCapacity(C300, { tolerance: 1e-9 }); }, 1);
  add('shannonCapacity, default tolerance', `300×300 #${seed - 299}`, msDefault,
    `${d.iterations} it., gap ${d.gap.toExponential(2)}; to 1e-9: ${msFine.toFixed(0)} ms (${(msFine / msDefault).toFixed(1)}×), capacity differs by ${(f.capacity - d.capacity).toExponential(1)}`);
}

console.table(rows);
process.exit(0);
