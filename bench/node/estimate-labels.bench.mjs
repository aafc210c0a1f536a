// Times qif.estimate's label estimators on the inputs that used to take a minute, through the WASM
// API, against numpy building the same count table and plug-in MI from the same labels in the same
// run (Debian's python3-numpy, /usr/bin/python3: np.unique with return_inverse, then bincount):
//   - mutualInformation and minEntropyLeakage on 199,000 samples whose observations are all distinct
//     (refused: more than n/5 distinct observations — the time to say so);
//   - mutualInformation asked for 10⁵ shuffles of 20,000 samples (capped at 2·10⁷ shuffled samples);
//   - estimate.channel on 10⁶ distinct string labels (refused, like the first);
//   - mutualInformation on 10⁶ samples with 40,000 distinct observations and 5 secrets (just under
//     the refusal: ~2·10⁵ non-empty cells, the largest table the plug-in estimates accept).
// The target is every row under 10 s; "cpu" is the process's CPU time, the better guide on a loaded machine (the peer only counts; qif also resamples for its interval).
//   scripts/build.sh && node bench/node/estimate-labels.bench.mjs
import { load } from '../../web/qif.js';
import { rng } from './timing.mjs';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const qif = await load();
const r = rng(3);

// wall and CPU ms of one call (these are long; one run each), and what it returned or threw
function once(f) {
  const c0 = process.cpuUsage(), t0 = performance.now();
  let out;
  try { out = f(); } catch (e) { out = e; }
  const c = process.cpuUsage(c0);
  return { ms: performance.now() - t0, cpu: (c.user + c.system) / 1000, out };
}

const cases = [];
{ // 199,000 samples, 5 secrets, every observation distinct
  const n = 199_000, s = new Int32Array(n), o = new Int32Array(n);
  for (let i = 0; i < n; i++) { s[i] = i % 5; o[i] = 3 * i + 1; }
  cases.push({ what: 'mutualInformation, 199,000 distinct labels', s, o, f: () => qif.estimate.mutualInformation(s, o) });
  cases.push({ what: 'minEntropyLeakage, 199,000 distinct labels', s, o, f: () => qif.estimate.minEntropyLeakage(s, o) });
}
{ // 20,000 samples of a 4×4 channel, 10⁵ shuffles asked
  const n = 20_000, s = new Int32Array(n), o = new Int32Array(n);
  for (let i = 0; i < n; i++) { s[i] = Math.floor(4 * r()); o[i] = r() < 0.5 ? s[i] : Math.floor(4 * r()); }
  cases.push({ what: 'mutualInformation, 20,000 samples, shuffles 1e5', s, o, f: () => qif.estimate.mutualInformation(s, o, { shuffles: 1e5 }) });
}
{ // 10⁶ distinct strings
  const n = 1_000_000, s = new Int32Array(n), o = new Int32Array(n), strs = new Array(n);
  for (let i = 0; i < n; i++) { s[i] = i % 2; o[i] = i; strs[i] = `o${i}`; }
  cases.push({ what: 'estimate.channel, 10⁶ distinct strings', s, o, f: () => qif.estimate.channel(s, strs) });
}
{ // 10⁶ samples, 40,000 observations, 5 secrets
  const n = 1_000_000, s = new Int32Array(n), o = new Int32Array(n);
  // 30% of the time the observation falls in the secret's fifth of the range, else anywhere
  for (let i = 0; i < n; i++) { s[i] = Math.floor(5 * r()); o[i] = r() < 0.3 ? 8000 * s[i] + Math.floor(8000 * r()) : Math.floor(40_000 * r()); }
  cases.push({ what: 'mutualInformation, 10⁶ samples, 40,000 observations', s, o, f: () => qif.estimate.mutualInformation(s, o) });
}

const dir = mkdtempSync(path.join(tmpdir(), 'qif-estimate-labels-'));
cases.forEach((c, i) => {
  writeFileSync(path.join(dir, `s${i}.bin`), new Uint8Array(c.s.buffer));
  writeFileSync(path.join(dir, `o${i}.bin`), new Uint8Array(c.o.buffer));
});
const py = String.raw`
import json, sys, time
import numpy as np
d, k = sys.argv[1], int(sys.argv[2])
out = []
for i in range(k):
    s = np.fromfile(d + '/s%d.bin' % i, dtype=np.int32); o = np.fromfile(d + '/o%d.bin' % i, dtype=np.int32)
    t0 = time.perf_counter()
    xs, xi = np.unique(s, return_inverse=True); os_, oi = np.unique(o, return_inverse=True)
    c = np.bincount(xi * len(os_) + oi, minlength=len(xs) * len(os_)).astype(np.float64)
    nz = c > 0; n = c.sum()
    px = np.bincount(xi).astype(np.float64); po = np.bincount(oi).astype(np.float64)
    cells = np.nonzero(nz)[0]
    mi = float((c[cells] / n * np.log2(c[cells] * n / (px[cells // len(os_)] * po[cells % len(os_)]))).sum())
    out.append((time.perf_counter() - t0) * 1000)
print(json.dumps(out))
`;
const p = spawnSync('/usr/bin/python3', ['-c', py, dir, String(cases.length)], { encoding: 'utf8' });
rmSync(dir, { recursive: true, force: true });
let peer = null;
if (p.status === 0) peer = JSON.parse(p.stdout.trim().split('\n').at(-1));
else console.log(`python3 peer failed (python3-numpy needed): ${p.stderr.trim().split('\n').at(-1)}`);

const rows = cases.map((c, i) => {
  const { ms, cpu, out } = once(c.f);
  const note = out instanceof Error ? `refused: ${out.message.slice(0, 70)}…`
    : `value ${out.value?.toFixed?.(4) ?? ''} [${out.lower?.toFixed?.(4) ?? ''}, ${out.upper?.toFixed?.(4) ?? ''}]`;
  return { what: c.what, 'qif ms': +ms.toFixed(0), 'qif cpu ms': +cpu.toFixed(0), 'numpy ms': peer ? +peer[i].toFixed(0) : '', 'qif / numpy': peer ? +(ms / peer[i]).toFixed(1) : '', note };
});
console.table(rows);
console.log('numpy counts and computes the plug-in MI once; qif also runs the zero-leakage test and the interval. 2-core shared machine: timings are noisy.');
