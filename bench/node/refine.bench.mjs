// Times qif.refine verdicts through the JS API on random n×n pairs (10, 30, 60): a pair where the
// orders hold (B = A·R) and an independent random pair, for comparison with
// `go test -run X -bench Orders ./core/refine` (same channel family: rows uniform on the simplex).
//   scripts/build.sh && node bench/node/refine.bench.mjs
import { load } from '../../web/qif.js';
import { rng, time } from './timing.mjs';

const qif = await load();

function randomChannel(n, m, r) {
  const data = new Float64Array(n * m);
  for (let x = 0; x < n; x++) {
    let s = 0;
    for (let y = 0; y < m; y++) s += (data[x * m + y] = -Math.log(1 - r()));
    for (let y = 0; y < m; y++) data[x * m + y] /= s;
  }
  return { rows: n, cols: m, data };
}
function mul(a, b) {
  const out = new Float64Array(a.rows * b.cols);
  for (let i = 0; i < a.rows; i++) for (let k = 0; k < a.cols; k++) {
    const v = a.data[i * a.cols + k];
    for (let j = 0; j < b.cols; j++) out[i * b.cols + j] += v * b.data[k * b.cols + j];
  }
  return { rows: a.rows, cols: b.cols, data: out };
}
const r = rng(1);
const rowsOut = [];
for (const n of [10, 30, 60]) {
  const A = randomChannel(n, n, r);
  const pairs = { holds: mul(A, randomChannel(n, n, r)), fails: randomChannel(n, n, r) };
  for (const [kind, B] of Object.entries(pairs)) {
    for (const order of ['avg', 'max', 'prv']) {
      const reps = n >= 60 ? 5 : 20;
      const res = qif.refine[order](A, B);
      const ms = time(() => qif.refine[order](A, B), reps);
      rowsOut.push({ size: `${n}x${n}`, pair: kind, order, holds: res.holds, ms: +ms.toFixed(3),
        method: res.method ?? '', lp: res.lpVariables ? `${res.lpVariables}x${res.lpConstraints}` : '' });
    }
  }
}
// A wide A (2n outputs) forces the linear program of ⊑avg.
for (const n of [10, 20]) {
  const A = randomChannel(n, 2 * n, r);
  const B = mul(A, randomChannel(2 * n, n, r));
  const res = qif.refine.avg(A, B);
  const ms = time(() => qif.refine.avg(A, B), 3);
  rowsOut.push({ size: `${n}x${2 * n}→${n}x${n}`, pair: 'holds', order: 'avg', holds: res.holds, ms: +ms.toFixed(3),
    method: res.method, lp: `${res.lpVariables}x${res.lpConstraints}` });
}
console.table(rowsOut);
