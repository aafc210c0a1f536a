// Times qif.estimate on 10⁶ samples through the WASM API against Python peers measured in the
// same run on the same data (Debian's python3-scipy and python3-numpy, /usr/bin/python3):
//   - k-NN Bayes risk on 10⁶ one-dimensional samples (two secrets, N(0,1) against N(1.5,1)), 80/20
//     split, k = ⌈ln n⌉, against scipy's cKDTree: once fitted on the whole training part and
//     queried with the whole test part, and once doing what qif.estimate.bayesRisk does (also the
//     convergence curve: training prefixes of the sizes the API reports, the smaller ones tested
//     on 10,000 test samples);
//   - frequentist estimates on 10⁶ discrete samples (4 secrets × 4 observations) against numpy
//     (bincount of the count table, plug-in MI) — the target is under 0.5 s each.
//   scripts/build.sh && node bench/node/estimate.bench.mjs
import { load } from '../../web/qif.js';
import { rng, time } from './timing.mjs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const qif = await load();
const n = 1_000_000;

const r = rng(1);
const secrets = new Int32Array(n), xs = new Float64Array(n);
for (let i = 0; i < n; i++) {
  secrets[i] = r() < 0.5 ? 0 : 1;
  xs[i] = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()) + 1.5 * secrets[i];
}
const prior = [0.4, 0.3, 0.2, 0.1];
const C = [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.7, 0.1], [0.25, 0.25, 0.25, 0.25]];
const discrete = qif.channel.sample(prior, C, n, { seed: 2 });

const obs = { rows: n, cols: 1, data: xs };
let knn;
const knnMs = time(() => { knn = qif.estimate.bayesRisk(secrets, obs, { seed: 1 }); }, 3);

const dir = mkdtempSync(path.join(tmpdir(), 'qif-estimate-bench-'));
writeFileSync(path.join(dir, 'secrets.bin'), new Uint8Array(secrets.buffer));
writeFileSync(path.join(dir, 'xs.bin'), new Uint8Array(xs.buffer));
writeFileSync(path.join(dir, 'ds.bin'), new Uint8Array(discrete.secrets.buffer));
writeFileSync(path.join(dir, 'do.bin'), new Uint8Array(discrete.observations.buffer));
writeFileSync(path.join(dir, 'sizes.json'), JSON.stringify([...knn.curve.n]));
const py = String.raw`
import json, math, sys, time
import numpy as np
from scipy.spatial import cKDTree
d = sys.argv[1]
sec = np.fromfile(d + '/secrets.bin', dtype=np.int32)
xs = np.fromfile(d + '/xs.bin', dtype=np.float64).reshape(-1, 1)
sizes = [int(s) for s in json.load(open(d + '/sizes.json'))]
n = len(sec); n_test = round(0.2 * n)
perm = np.random.default_rng(1).permutation(n)
test, train = perm[:n_test], perm[n_test:]
def knn_error(m, tests):
    k = max(1, math.ceil(math.log(m)))
    tree = cKDTree(xs[train[:m]])
    _, idx = tree.query(xs[tests], k=k)
    idx = idx.reshape(len(tests), -1)
    votes = sec[train[:m]][idx].sum(axis=1)          # two secrets: votes for secret 1
    pred = (votes * 2 > idx.shape[1]).astype(np.int32)  # ties to the smaller secret
    return float(np.mean(pred != sec[tests]))
def median(f, reps):
    f(); ts = []
    for _ in range(reps):
        t0 = time.perf_counter(); f(); ts.append(time.perf_counter() - t0)
    return sorted(ts)[len(ts) // 2] * 1000
out = {}
res = {}
out['single'] = median(lambda: res.__setitem__('single', knn_error(len(train), test)), 3)
def curve():
    return [knn_error(m, test if m == len(train) else test[:10000]) for m in sizes]
out['curve'] = median(lambda: res.__setitem__('curve', curve()), 3)
out['error'] = res['single']
ds = np.fromfile(d + '/ds.bin', dtype=np.int32); do = np.fromfile(d + '/do.bin', dtype=np.int32)
def mi():
    c = np.bincount(ds * 4 + do, minlength=16).reshape(4, 4).astype(np.float64)
    nn = c.sum(); px = c.sum(axis=1, keepdims=True); py = c.sum(axis=0, keepdims=True)
    nz = c > 0
    return float((c[nz] / nn * np.log2(c[nz] * nn / (px @ py)[nz])).sum())
out['mi'] = median(mi, 5)
print(json.dumps(out))
`;
const p = spawnSync('/usr/bin/python3', ['-c', py, dir], { encoding: 'utf8' });
rmSync(dir, { recursive: true, force: true });
let peer = null;
if (p.status === 0) peer = JSON.parse(p.stdout.trim().split('\n').at(-1));
else console.log(`python3 peer failed (python3-scipy and python3-numpy needed): ${p.stderr.trim().split('\n').at(-1)}`);

const rows = [];
const add = (what, ms, peerMs, note = '') => rows.push({
  what, 'qif ms': +ms.toFixed(1), 'peer ms': peerMs === undefined ? '' : +peerMs.toFixed(1),
  'qif / peer': peerMs === undefined ? '' : +(ms / peerMs).toFixed(2), note,
});
add('k-NN Bayes risk, 10⁶ 1-D, with the curve', knnMs, peer?.curve, `cKDTree doing the same (${knn.curve.n.length} curve points); R̂ ${knn.value.toFixed(4)}, k ${knn.k}`);
add('k-NN Bayes risk, 10⁶ 1-D, with the curve', knnMs, peer?.single, `cKDTree fitted once, no curve; its R̂ ${peer?.error?.toFixed(4)}`);
const ms = (f) => time(f, 5);
add('estimate.channel, 10⁶ labels', ms(() => qif.estimate.channel(discrete.secrets, discrete.observations)), peer?.mi, 'numpy: count table + plug-in MI');
add('estimate.mutualInformation, shuffles 0', ms(() => qif.estimate.mutualInformation(discrete.secrets, discrete.observations, { shuffles: 0 })), peer?.mi, '500 bootstrap replicates of the table');
add('estimate.mutualInformation, default (20 shuffles at 10⁶)', ms(() => qif.estimate.mutualInformation(discrete.secrets, discrete.observations)), peer?.mi, 'each shuffle redraws 10⁶ secrets');
add('estimate.minEntropyLeakage', ms(() => qif.estimate.minEntropyLeakage(discrete.secrets, discrete.observations)), peer?.mi);
add('estimate.bayesRisk frequentist, 10⁶ labels', ms(() => qif.estimate.bayesRisk(discrete.secrets, discrete.observations, { method: 'frequentist' })), peer?.mi);
console.table(rows);
console.log('2-core shared machine: timings are noisy; ratios < 1 mean qif is faster.');
