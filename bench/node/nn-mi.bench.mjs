// Times Ross's nearest-neighbour MI (qif.estimate.mutualInformation on numeric observations)
// through the WASM API against scipy's cKDTree doing the same neighbour counts on the same data in
// the same run (Debian's python3-scipy, /usr/bin/python3): per secret, the distance to the k-th
// neighbour (max-norm, k = 3); over all samples and within the secret, the number of samples within
// that distance; then ψ(N) − ⟨ψ(N_x)⟩ + ⟨ψ(k_i)⟩ − ⟨ψ(m_i)⟩. Data: 10⁶ "timings", the Hamming
// weight of a 4-bit key (0..4, binomial) plus Gaussian jitter: 100 + 3·w + N(0, 1.5²) µs.
// Rows: the estimate alone (shuffles 0: the value and its interval from 10 disjoint parts, i.e.
// two passes over the data), and the default call (with the zero-leakage test's 10 shuffled
// copies at 10⁶). The target is the default call under 3 s; "cpu" is the process's CPU time.
//   scripts/build.sh && node bench/node/nn-mi.bench.mjs [n]
import { load } from '../../web/qif.js';
import { rng } from './timing.mjs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const qif = await load();
const n = Number(process.argv[2] ?? 1_000_000);
const r = rng(5);
const secrets = new Int32Array(n), xs = new Float64Array(n);
for (let i = 0; i < n; i++) {
  let w = 0;
  for (let b = 0; b < 4; b++) w += r() < 0.5 ? 1 : 0;
  secrets[i] = w;
  xs[i] = 100 + 3 * w + 1.5 * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
}

// wall and CPU milliseconds of the median of reps runs (after one warm-up)
function timed(f, reps) {
  f();
  const runs = [];
  for (let i = 0; i < reps; i++) {
    const c0 = process.cpuUsage(), t0 = performance.now();
    f();
    const c = process.cpuUsage(c0);
    runs.push({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 });
  }
  runs.sort((a, b) => a.wall - b.wall);
  return runs[runs.length >> 1];
}

let value, full, progress = 0;
const alone = timed(() => { value = qif.estimate.mutualInformation(secrets, xs, { shuffles: 0 }); }, 3);
const withTest = timed(() => { full = qif.estimate.mutualInformation(secrets, xs, { onProgress: () => { progress++; } }); }, 1);

const dir = mkdtempSync(path.join(tmpdir(), 'qif-nnmi-bench-'));
writeFileSync(path.join(dir, 'secrets.bin'), new Uint8Array(secrets.buffer));
writeFileSync(path.join(dir, 'xs.bin'), new Uint8Array(xs.buffer));
const py = String.raw`
import json, sys, time, resource
import numpy as np
from scipy.spatial import cKDTree
from scipy.special import digamma
d = sys.argv[1]
sec = np.fromfile(d + '/secrets.bin', dtype=np.int32)
xs = np.fromfile(d + '/xs.bin', dtype=np.float64).reshape(-1, 1)
k = 3
def ross():
    n = len(sec)
    dist = np.empty(n); kc = np.empty(n); nx = np.empty(n)
    for c in np.unique(sec):
        idx = np.nonzero(sec == c)[0]
        tree = cKDTree(xs[idx])
        dd, _ = tree.query(xs[idx], k=k + 1, p=np.inf)
        dist[idx] = dd[:, -1]
        kc[idx] = tree.query_ball_point(xs[idx], dd[:, -1], p=np.inf, return_length=True) - 1
        nx[idx] = len(idx)
    m = cKDTree(xs).query_ball_point(xs, dist, p=np.inf, return_length=True) - 1
    return (digamma(n) - digamma(nx).mean() + digamma(kc).mean() - digamma(m).mean()) / np.log(2)
ross()
ts = []
for _ in range(3):
    c0 = time.process_time(); t0 = time.perf_counter(); v = ross(); ts.append((time.perf_counter() - t0, time.process_time() - c0))
ts.sort()
print(json.dumps({'wall': ts[1][0] * 1000, 'cpu': ts[1][1] * 1000, 'value': float(v)}))
`;
const p = spawnSync('/usr/bin/python3', ['-c', py, dir], { encoding: 'utf8' });
rmSync(dir, { recursive: true, force: true });
let peer = null;
if (p.status === 0) peer = JSON.parse(p.stdout.trim().split('\n').at(-1));
else console.log(`python3 peer failed (python3-scipy needed): ${p.stderr.trim().split('\n').at(-1)}`);

const row = (what, t, note) => ({
  what, 'qif ms': Math.round(t.wall), 'qif cpu ms': Math.round(t.cpu),
  'cKDTree ms': peer ? Math.round(peer.wall) : '', 'cKDTree cpu ms': peer ? Math.round(peer.cpu) : '',
  'qif / peer (cpu)': peer ? +(t.cpu / peer.cpu).toFixed(2) : '', note,
});
console.table([
  row(`NN MI, ${n.toLocaleString('en')} 1-D, estimate + interval`, alone, `qif ${value.value.toFixed(4)} [${value.lower.toFixed(4)}, ${value.upper.toFixed(4)}]; cKDTree (estimate only) ${peer?.value?.toFixed(4)}`),
  row(`NN MI, ${n.toLocaleString('en')} 1-D, default (with the test)`, withTest, `leaks ${full.leaks}, threshold ${full.zeroLeakageThreshold.toFixed(4)}, ${progress} progress reports`),
]);
console.log('2-core shared machine: wall times are noisy, CPU times less so; ratios < 1 mean qif is faster.');
